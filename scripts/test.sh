#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Quick start (b): install what is missing, build, run the whole test suite.
# EVREC_SANITIZE=1 BUILD_DIR=build-asan runs it under AddressSanitizer + UBSan.
set -eu
cd "$(dirname "$0")/.."
sh scripts/build.sh
B=${BUILD_DIR:-build}
ctest --test-dir "$B" --output-on-failure -j2
