
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/recorder/src/crc32c.c" "recorder/CMakeFiles/evrec_recorder_null.dir/src/crc32c.c.o" "gcc" "recorder/CMakeFiles/evrec_recorder_null.dir/src/crc32c.c.o.d"
  "/work/main/recorder/src/meta.c" "recorder/CMakeFiles/evrec_recorder_null.dir/src/meta.c.o" "gcc" "recorder/CMakeFiles/evrec_recorder_null.dir/src/meta.c.o.d"
  "/work/main/recorder/src/recorder.c" "recorder/CMakeFiles/evrec_recorder_null.dir/src/recorder.c.o" "gcc" "recorder/CMakeFiles/evrec_recorder_null.dir/src/recorder.c.o.d"
  "/work/main/recorder/src/runtime_enum.c" "recorder/CMakeFiles/evrec_recorder_null.dir/src/runtime_enum.c.o" "gcc" "recorder/CMakeFiles/evrec_recorder_null.dir/src/runtime_enum.c.o.d"
  "/work/main/recorder/src/save.c" "recorder/CMakeFiles/evrec_recorder_null.dir/src/save.c.o" "gcc" "recorder/CMakeFiles/evrec_recorder_null.dir/src/save.c.o.d"
  "/work/main/recorder/src/status.c" "recorder/CMakeFiles/evrec_recorder_null.dir/src/status.c.o" "gcc" "recorder/CMakeFiles/evrec_recorder_null.dir/src/status.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
