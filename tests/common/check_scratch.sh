#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Tests make their scratch files under $TMPDIR (tests/common/test_tmp.h for the C tests; mktemp
# and Python's tempfile read TMPDIR themselves), never under a fixed /tmp: scripts/test.sh runs
# the tests with TMPDIR set to an empty folder of their own and fails on what is left in it, which
# it cannot see in /tmp. This lists every mkstemp()/mkdtemp()/mktemp template that names /tmp.
# Usage: check_scratch.sh SRC. Exit 0 none, 1 some (listed).
set -eu
src=$1
found=$(cd "$src" && grep -rnE '(["'\''=[:space:]]|^)/tmp/[^"[:space:]]*XXXXXX' tests scripts bench ports examples \
    --include='*.c' --include='*.h' --include='*.sh' --include='*.py' || true)
if [ -n "$found" ]; then
    echo "scratch files under a fixed /tmp (use \$TMPDIR: tests/common/test_tmp.h):" >&2
    echo "$found" >&2
    exit 1
fi
echo "no scratch template names /tmp"
