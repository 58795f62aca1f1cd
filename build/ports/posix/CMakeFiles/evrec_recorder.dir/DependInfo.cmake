
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/recorder/src/crc32c.c" "ports/posix/CMakeFiles/evrec_recorder.dir/__/__/recorder/src/crc32c.c.o" "gcc" "ports/posix/CMakeFiles/evrec_recorder.dir/__/__/recorder/src/crc32c.c.o.d"
  "/work/main/recorder/src/meta.c" "ports/posix/CMakeFiles/evrec_recorder.dir/__/__/recorder/src/meta.c.o" "gcc" "ports/posix/CMakeFiles/evrec_recorder.dir/__/__/recorder/src/meta.c.o.d"
  "/work/main/recorder/src/recorder.c" "ports/posix/CMakeFiles/evrec_recorder.dir/__/__/recorder/src/recorder.c.o" "gcc" "ports/posix/CMakeFiles/evrec_recorder.dir/__/__/recorder/src/recorder.c.o.d"
  "/work/main/recorder/src/runtime_enum.c" "ports/posix/CMakeFiles/evrec_recorder.dir/__/__/recorder/src/runtime_enum.c.o" "gcc" "ports/posix/CMakeFiles/evrec_recorder.dir/__/__/recorder/src/runtime_enum.c.o.d"
  "/work/main/recorder/src/save.c" "ports/posix/CMakeFiles/evrec_recorder.dir/__/__/recorder/src/save.c.o" "gcc" "ports/posix/CMakeFiles/evrec_recorder.dir/__/__/recorder/src/save.c.o.d"
  "/work/main/recorder/src/status.c" "ports/posix/CMakeFiles/evrec_recorder.dir/__/__/recorder/src/status.c.o" "gcc" "ports/posix/CMakeFiles/evrec_recorder.dir/__/__/recorder/src/status.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
