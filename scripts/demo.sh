#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Quick start (a): install what is missing, build, record the demo pipeline to demo.evr and view it.
set -eu
cd "$(dirname "$0")/.."
sh scripts/build.sh
B=${BUILD_DIR:-build}
"$B"/examples/evrec-demo -o demo.evr "$@"
echo
echo '$ evrec info demo.evr'
"$B"/viewer-cli/evrec info demo.evr
echo
echo '$ evrec dump demo.evr --limit 25'
"$B"/viewer-cli/evrec dump demo.evr --limit 25
