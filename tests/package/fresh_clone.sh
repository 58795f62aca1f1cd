#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A new user's first steps: a clone of this checkout's HEAD (committed work only) in a scratch
# folder with nothing beside it, then the README's test command there, `./scripts/test.sh`: it
# builds everything and runs the tests not labelled slow, so neither this test (label slow) nor
# the consumer projects run again in the clone. EVREC_FRESH_CTEST_ARGS, when set, goes to the
# clone's test.sh as EVREC_CTEST_ARGS (e.g. "-R test_cli" to run only some of its tests).
# Usage: fresh_clone.sh SRC WORK. Exit 0 pass, 1 fail, 77 skipped (not a git checkout).
set -eu
src=$1 work=$2
command -v git >/dev/null && git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || {
    echo "not a git checkout: skipped"; exit 77; }
rm -rf "$work"
mkdir -p "$work/scratch"
# The clone and its build go when the test ends, passed or not; WORK/test.log stays.
trap 'rm -rf "$work/scratch"' EXIT
trap 'exit 1' INT TERM HUP
git clone -q "$src" "$work/scratch/evrec"
[ ! -e "$work/scratch/shared" ] || exit 1
cd "$work/scratch/evrec"
if ! EVREC_CTEST_ARGS="${EVREC_FRESH_CTEST_ARGS:-}" ./scripts/test.sh >"$work/test.log" 2>&1; then
    tail -60 "$work/test.log" >&2
    exit 1
fi
grep -E "tests passed|tests failed" "$work/test.log"
