# SPDX-License-Identifier: Apache-2.0
# Debian packages with CPack: `cpack -G DEB` in a build tree (configured with
# -DCMAKE_INSTALL_PREFIX=/usr for a system package) writes two packages:
#   evrec_<version>_<arch>.deb      the programs (evrec, evrec-gen), the RTOS catalogue, the docs;
#                                   run-time dependencies found by dpkg-shlibdeps
#   libevrec-dev_<version>_<arch>.deb  headers, static libraries, CMake package, pkg-config files;
#                                   depends on evrec (same version) and the -dev packages its
#                                   static libraries link against
set(CPACK_PACKAGE_NAME evrec)
set(CPACK_PACKAGE_VENDOR "evrec developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "evrec developers <evrec@localhost>")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_PACKAGE_FILE_NAME evrec-${PROJECT_VERSION})
set(CPACK_COMPONENTS_ALL tools dev)
set(CPACK_COMPONENT_TOOLS_DISPLAY_NAME "evrec tools")
set(CPACK_COMPONENT_DEV_DISPLAY_NAME "evrec development files")
set(CPACK_COMPONENT_DEV_DEPENDS tools)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME evrec)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION devel)
# dpkg-shlibdeps writes the tools' Depends from the libraries they link (libyaml, libcairo2,
# libsqlite3-0 and libedit2 for `evrec sql`, libcurl4 for `evrec export --clickhouse`, ...): tests/package
# checks some of them.
set(CPACK_DEBIAN_TOOLS_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_TOOLS_DESCRIPTION
  "event recorder tools: the evrec trace viewer and the evrec-gen code generator\n\
evrec records events on embedded targets and hosts into a RAM trace buffer and saves them in a\n\
self-describing file (the CCore EventRecorder format in a container that detects damage).\n\
This package holds `evrec` (info, dump, stats, check, schema, QS, SyS-T, sql), `evrec-gen` (YAML schema to\n\
C event types) and the RTOS event catalogue.")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libevrec-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# The -dev package's static libraries link libxxhash, libyaml, libelf and libxml2; its CMake package finds
# them with pkg-config.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
  "evrec (= ${PROJECT_VERSION}), libxxhash-dev, libyaml-dev, libelf-dev, libxml2-dev, pkgconf | pkg-config")
set(CPACK_DEBIAN_DEV_DESCRIPTION
  "event recorder library: headers, static libraries, CMake and pkg-config files\n\
The evrec recorder for POSIX hosts, the file reader, the QP/Spy and MIPI SyS-T bridges, the schema library and\n\
the analysis library, with find_package(evrec) (evrec:: targets, evrec_generate()) and\n\
pkg-config files (evrec-reader, evrec-recorder-posix, ...).")
include(CPack)
