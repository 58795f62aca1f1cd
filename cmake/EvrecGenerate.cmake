# SPDX-License-Identifier: Apache-2.0
# evrec_generate(<target> SCHEMA <file.yaml> [OUTPUT_DIR <dir>] [NAME <schema name>]
#                [RECORDER <library>])
#
# Runs evrec-gen on <file.yaml> at build time and makes a static library <target> of the
# generated NAME_events.c, with NAME_events.h on its public include path.
#
#   SCHEMA      the top-level schema (relative paths: to the current source dir).
#   OUTPUT_DIR  where the files go (default: ${CMAKE_CURRENT_BINARY_DIR}/<target>).
#   NAME        the schema's name (`schema:` key), which names the files. Default: read from
#               the line `schema: NAME` of the file when CMake configures; the generator checks
#               it (--expect-name), so renaming a schema asks for a CMake re-run.
#   RECORDER    the recorder library the generated code records through (its headers and the
#               port's evrec_port.h come with it). Default: evrec::recorder (the POSIX recorder
#               on a host, the EVREC_PORT recorder in a firmware build).
#
# Dependencies: the files are regenerated when the schema, any file it includes (listed by the
# generator in a depfile) or the generator itself changes. The generator is the one built in the
# same tree, else the installed package's (evrec::evrec-gen); when cross-compiling, the host
# program EVREC_GEN_EXECUTABLE (found on the PATH by default). Schemas may include the shipped
# RTOS catalogue by name (`include: [rtos.yaml]`).
#
# Example:
#   evrec_generate(app_events SCHEMA events.yaml)
#   target_link_libraries(app PRIVATE app_events)   # then #include "app_events.h"

function(evrec_generate target)
  cmake_parse_arguments(G "" "SCHEMA;OUTPUT_DIR;NAME;RECORDER" "" ${ARGN})
  if(NOT G_SCHEMA)
    message(FATAL_ERROR "evrec_generate(${target}): SCHEMA <file> is required")
  endif()
  if(G_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "evrec_generate(${target}): unknown arguments ${G_UNPARSED_ARGUMENTS}")
  endif()
  get_filename_component(schema "${G_SCHEMA}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${schema}")
    message(FATAL_ERROR "evrec_generate(${target}): no schema file ${schema}")
  endif()
  if(NOT G_OUTPUT_DIR)
    set(G_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/${target}")
  endif()
  get_filename_component(outdir "${G_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  file(MAKE_DIRECTORY "${outdir}")

  set(name "${G_NAME}")
  if(NOT name)
    file(STRINGS "${schema}" name_line REGEX "^schema:[ \t]*[A-Za-z_][A-Za-z0-9_]*" LIMIT_COUNT 1)
    if(NOT name_line MATCHES "^schema:[ \t]*([A-Za-z_][A-Za-z0-9_]*)")
      message(FATAL_ERROR "evrec_generate(${target}): ${schema} has no line `schema: NAME` at "
                          "column 0; write one or pass NAME")
    endif()
    set(name "${CMAKE_MATCH_1}")
  endif()

  if(TARGET evrec-gen AND NOT CMAKE_CROSSCOMPILING)
    set(gen "$<TARGET_FILE:evrec-gen>")        # built in this tree
    set(gen_dep evrec-gen)
  elseif(TARGET evrec::evrec-gen AND NOT CMAKE_CROSSCOMPILING)
    set(gen "$<TARGET_FILE:evrec::evrec-gen>") # an installed package (find_package(evrec))
    set(gen_dep "$<TARGET_FILE:evrec::evrec-gen>")
  else()
    # Cross-compiling: a host program, never built for the target. Found on the PATH (or
    # CMAKE_PROGRAM_PATH / CMAKE_PREFIX_PATH of an installed evrec), or given as
    # -DEVREC_GEN_EXECUTABLE=/path/to/evrec-gen.
    find_program(EVREC_GEN_EXECUTABLE evrec-gen NO_CMAKE_FIND_ROOT_PATH)
    if(NOT EVREC_GEN_EXECUTABLE)
      message(FATAL_ERROR "evrec_generate(${target}): no host evrec-gen found. Install evrec on the "
                          "build machine (cmake --install, or the .deb) and put its bin/ on the PATH, "
                          "or pass -DEVREC_GEN_EXECUTABLE=/path/to/evrec-gen")
    endif()
    set(gen "${EVREC_GEN_EXECUTABLE}")
    set(gen_dep "${EVREC_GEN_EXECUTABLE}")
  endif()
  # The shipped catalogue, so that `include: [rtos.yaml]` is found (evrec-gen -I): next to this
  # file's folder in the source tree (ports/rtos), or in share/evrec of an installation (this
  # file is share/evrec/cmake/EvrecGenerate.cmake there).
  set(incdirs)
  foreach(dir "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../ports/rtos" "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/..")
    if(EXISTS "${dir}/rtos.yaml")
      get_filename_component(dir "${dir}" ABSOLUTE)
      set(incdirs -I "${dir}")
      break()
    endif()
  endforeach()

  set(h "${outdir}/${name}_events.h")
  set(c "${outdir}/${name}_events.c")
  set(d "${outdir}/${name}_events.d")
  add_custom_command(
    OUTPUT "${h}" "${c}"
    COMMAND "${gen}" "${schema}" -o "${outdir}" ${incdirs} --depfile "${d}" --expect-name "${name}"
    DEPENDS "${schema}" ${gen_dep}
    DEPFILE "${d}"
    COMMENT "evrec-gen ${G_SCHEMA} -> ${name}_events.h, ${name}_events.c"
    VERBATIM)

  if(NOT G_RECORDER)
    set(G_RECORDER evrec::recorder)
  endif()
  add_library(${target} STATIC "${c}" "${h}")
  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${outdir}>")
  target_link_libraries(${target} PUBLIC ${G_RECORDER} evrec::gen_runtime)
endfunction()

