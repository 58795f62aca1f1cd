#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Configure and build evrec into ${BUILD_DIR:-build}. EVREC_SANITIZE=1 builds with ASan+UBSan.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVREC_SANITIZE="${EVREC_SANITIZE:-0}" >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"
