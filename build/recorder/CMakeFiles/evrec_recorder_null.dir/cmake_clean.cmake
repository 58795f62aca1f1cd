file(REMOVE_RECURSE
  "CMakeFiles/evrec_recorder_null.dir/src/crc32c.c.o"
  "CMakeFiles/evrec_recorder_null.dir/src/crc32c.c.o.d"
  "CMakeFiles/evrec_recorder_null.dir/src/meta.c.o"
  "CMakeFiles/evrec_recorder_null.dir/src/meta.c.o.d"
  "CMakeFiles/evrec_recorder_null.dir/src/recorder.c.o"
  "CMakeFiles/evrec_recorder_null.dir/src/recorder.c.o.d"
  "CMakeFiles/evrec_recorder_null.dir/src/runtime_enum.c.o"
  "CMakeFiles/evrec_recorder_null.dir/src/runtime_enum.c.o.d"
  "CMakeFiles/evrec_recorder_null.dir/src/save.c.o"
  "CMakeFiles/evrec_recorder_null.dir/src/save.c.o.d"
  "CMakeFiles/evrec_recorder_null.dir/src/status.c.o"
  "CMakeFiles/evrec_recorder_null.dir/src/status.c.o.d"
  "libevrec_recorder_null.a"
  "libevrec_recorder_null.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/evrec_recorder_null.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
