file(REMOVE_RECURSE
  "CMakeFiles/evrec_port_posix.dir/src/posix_clock.c.o"
  "CMakeFiles/evrec_port_posix.dir/src/posix_clock.c.o.d"
  "CMakeFiles/evrec_port_posix.dir/src/tick_thread.c.o"
  "CMakeFiles/evrec_port_posix.dir/src/tick_thread.c.o.d"
  "libevrec_port_posix.a"
  "libevrec_port_posix.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/evrec_port_posix.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
