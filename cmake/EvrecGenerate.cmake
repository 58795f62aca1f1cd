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
#               port's evrec_port.h come with it). Default: evrec_recorder.
#
# Dependencies: the files are regenerated when the schema, any file it includes (listed by the
# generator in a depfile) or the generator itself changes. When cross-compiling, the generator
# is the host program EVREC_GEN_EXECUTABLE (found on PATH by default).
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
    set(gen "$<TARGET_FILE:evrec-gen>")
    set(gen_dep evrec-gen)
  else()
    find_program(EVREC_GEN_EXECUTABLE evrec-gen REQUIRED)
    set(gen "${EVREC_GEN_EXECUTABLE}")
    set(gen_dep "${EVREC_GEN_EXECUTABLE}")
  endif()

  set(h "${outdir}/${name}_events.h")
  set(c "${outdir}/${name}_events.c")
  set(d "${outdir}/${name}_events.d")
  add_custom_command(
    OUTPUT "${h}" "${c}"
    COMMAND "${gen}" "${schema}" -o "${outdir}" --depfile "${d}" --expect-name "${name}"
    DEPENDS "${schema}" ${gen_dep}
    DEPFILE "${d}"
    COMMENT "evrec-gen ${G_SCHEMA} -> ${name}_events.h, ${name}_events.c"
    VERBATIM)

  if(NOT G_RECORDER)
    set(G_RECORDER evrec_recorder)
  endif()
  add_library(${target} STATIC "${c}" "${h}")
  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${outdir}>")
  target_link_libraries(${target} PUBLIC ${G_RECORDER} evrec_gen_runtime)
endfunction()
