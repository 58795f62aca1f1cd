file(REMOVE_RECURSE
  "libevrec_recorder.a"
)
