#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A new user's first steps: a clone of this checkout's HEAD (committed work only) in a scratch
# folder with nothing beside it, then the README's test command there. The clone's own copies of
# this test and of the consumer projects are left out (labels fresh and consumer), so it does not
# recurse and does not repeat them.
# Usage: fresh_clone.sh SRC WORK. Exit 0 pass, 1 fail, 77 skipped (not a git checkout).
set -eu
src=$1 work=$2
command -v git >/dev/null && git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || {
    echo "not a git checkout: skipped"; exit 77; }
rm -rf "$work"
mkdir -p "$work/scratch"
git clone -q "$src" "$work/scratch/evrec"
[ ! -e "$work/scratch/shared" ] || exit 1
cd "$work/scratch/evrec"
if ! EVREC_CTEST_ARGS="-LE fresh|consumer" ./scripts/test.sh >"$work/test.log" 2>&1; then
    tail -60 "$work/test.log" >&2
    exit 1
fi
grep -E "tests passed|tests failed" "$work/test.log"
