
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/ports/posix/src/posix_clock.c" "ports/posix/CMakeFiles/evrec_port_posix.dir/src/posix_clock.c.o" "gcc" "ports/posix/CMakeFiles/evrec_port_posix.dir/src/posix_clock.c.o.d"
  "/work/main/ports/posix/src/tick_thread.c" "ports/posix/CMakeFiles/evrec_port_posix.dir/src/tick_thread.c.o" "gcc" "ports/posix/CMakeFiles/evrec_port_posix.dir/src/tick_thread.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build/ports/posix/CMakeFiles/evrec_recorder.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
