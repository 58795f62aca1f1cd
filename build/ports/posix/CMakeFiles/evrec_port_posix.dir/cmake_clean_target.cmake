file(REMOVE_RECURSE
  "libevrec_port_posix.a"
)
