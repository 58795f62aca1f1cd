file(REMOVE_RECURSE
  "libevrec_recorder_null.a"
)
