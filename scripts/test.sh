#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Quick start (b): install what is missing, build, run the whole test suite.
# EVREC_SANITIZE=1 BUILD_DIR=build-asan runs it under AddressSanitizer + UBSan.
# EVREC_CTEST_ARGS adds ctest arguments (e.g. "-LE consumer" leaves out the consumer projects).
set -eu
cd "$(dirname "$0")/.."
sh scripts/build.sh
B=${BUILD_DIR:-build}
# shellcheck disable=SC2086 # word splitting of the extra arguments is intended
ctest --test-dir "$B" --output-on-failure -j2 ${EVREC_CTEST_ARGS:-}
