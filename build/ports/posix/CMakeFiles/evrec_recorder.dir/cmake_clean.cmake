file(REMOVE_RECURSE
  "CMakeFiles/evrec_recorder.dir/__/__/recorder/src/crc32c.c.o"
  "CMakeFiles/evrec_recorder.dir/__/__/recorder/src/crc32c.c.o.d"
  "CMakeFiles/evrec_recorder.dir/__/__/recorder/src/meta.c.o"
  "CMakeFiles/evrec_recorder.dir/__/__/recorder/src/meta.c.o.d"
  "CMakeFiles/evrec_recorder.dir/__/__/recorder/src/recorder.c.o"
  "CMakeFiles/evrec_recorder.dir/__/__/recorder/src/recorder.c.o.d"
  "CMakeFiles/evrec_recorder.dir/__/__/recorder/src/runtime_enum.c.o"
  "CMakeFiles/evrec_recorder.dir/__/__/recorder/src/runtime_enum.c.o.d"
  "CMakeFiles/evrec_recorder.dir/__/__/recorder/src/save.c.o"
  "CMakeFiles/evrec_recorder.dir/__/__/recorder/src/save.c.o.d"
  "CMakeFiles/evrec_recorder.dir/__/__/recorder/src/status.c.o"
  "CMakeFiles/evrec_recorder.dir/__/__/recorder/src/status.c.o.d"
  "libevrec_recorder.a"
  "libevrec_recorder.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/evrec_recorder.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
