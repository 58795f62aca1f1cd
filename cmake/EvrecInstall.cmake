# SPDX-License-Identifier: Apache-2.0
# Install rules and the evrec CMake package (host builds).
#
#   bin/                       evrec, evrec-gen
#   include/evrec/             the public headers of every library
#   include/evrec/ports/posix/ the POSIX port's headers (evrec_port.h, evrec_posix.h, evrec_save_file.h)
#   lib/                       libevrec-*.a (static libraries)
#   lib/cmake/evrec/           evrecConfig.cmake, evrecConfigVersion.cmake, evrecTargets*.cmake
#   lib/pkgconfig/             evrec-*.pc
#   share/evrec/               rtos.yaml (the RTOS catalogue), cmake/EvrecGenerate.cmake
#   share/doc/evrec/           README.md, LICENSE, FORMAT.md, SCHEMA.md, QS.md, SYST.md, PORTING.md, RTT.md, SQL.md
#
# Components: `tools` (the programs, the catalogue, the docs) and `dev` (headers, libraries,
# CMake and pkg-config files), packaged as two .deb files by EvrecPackage.cmake.
include(CMakePackageConfigHelpers)

set(EVREC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/evrec)
set(EVREC_DATA_DIR ${CMAKE_INSTALL_DATADIR}/evrec)

set(_evrec_libs evrec_common evrec_recorder evrec_out_file evrec_port_posix evrec_format evrec_qs evrec_qs_host
  evrec_syst evrec_syst_host evrec_syst_decode evrec_schema evrec_analysis evrec_gen_runtime)
install(TARGETS ${_evrec_libs} EXPORT evrecTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS evrec evrec-gen EXPORT evrecTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)

file(GLOB _evrec_public_headers
  ${PROJECT_SOURCE_DIR}/recorder/include/evrec/*.h
  ${PROJECT_SOURCE_DIR}/format/include/evrec/*.h
  ${PROJECT_SOURCE_DIR}/format/qs/include/evrec/*.h
  ${PROJECT_SOURCE_DIR}/format/syst/include/evrec/*.h
  ${PROJECT_SOURCE_DIR}/format/analysis/include/evrec/*.h
  ${PROJECT_SOURCE_DIR}/schema/include/evrec/*.h)
install(FILES ${_evrec_public_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/evrec COMPONENT dev)
file(GLOB _evrec_posix_headers ${PROJECT_SOURCE_DIR}/ports/posix/include/*.h)
install(FILES ${_evrec_posix_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/evrec/ports/posix COMPONENT dev)

install(FILES ${PROJECT_SOURCE_DIR}/ports/rtos/rtos.yaml DESTINATION ${EVREC_DATA_DIR} COMPONENT tools)
install(FILES ${PROJECT_SOURCE_DIR}/ports/rtos/README.md DESTINATION ${EVREC_DATA_DIR}
  RENAME rtos.md COMPONENT tools)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/EvrecGenerate.cmake
  DESTINATION ${EVREC_DATA_DIR}/cmake COMPONENT dev)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE
  ${PROJECT_SOURCE_DIR}/format/FORMAT.md ${PROJECT_SOURCE_DIR}/schema/SCHEMA.md
  ${PROJECT_SOURCE_DIR}/format/qs/QS.md ${PROJECT_SOURCE_DIR}/format/syst/SYST.md ${PROJECT_SOURCE_DIR}/format/syst/SYST-DECODE.md
  ${PROJECT_SOURCE_DIR}/ports/PORTING.md ${PROJECT_SOURCE_DIR}/recorder/transport/RTT.md ${PROJECT_SOURCE_DIR}/docs/SQL.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT tools)

install(EXPORT evrecTargets NAMESPACE evrec:: DESTINATION ${EVREC_CMAKE_DIR} COMPONENT dev)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/evrecConfig.cmake.in
  ${PROJECT_BINARY_DIR}/evrecConfig.cmake
  INSTALL_DESTINATION ${EVREC_CMAKE_DIR}
  PATH_VARS EVREC_DATA_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/evrecConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/evrecConfig.cmake ${PROJECT_BINARY_DIR}/evrecConfigVersion.cmake
  DESTINATION ${EVREC_CMAKE_DIR} COMPONENT dev)

# pkg-config: one file per host library, each naming what it needs. The libraries are static:
# link with `pkg-config --static --libs ...` (which adds Requires.private and Libs.private).
# A relocatable prefix: paths relative to the .pc file's folder (pcfiledir).
file(RELATIVE_PATH _evrec_pc_to_prefix
  "${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
set(EVREC_PC_PREFIX "\${pcfiledir}/${_evrec_pc_to_prefix}")
string(REGEX REPLACE "/$" "" EVREC_PC_PREFIX "${EVREC_PC_PREFIX}")
foreach(pc evrec-common evrec-reader evrec-recorder-posix evrec-qs evrec-schema evrec-analysis)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/pkgconfig/${pc}.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)
endforeach()
