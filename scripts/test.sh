#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Quick start (b): install what is missing, build, run the tests.
#   scripts/test.sh          the unit, CLI and QEMU tests: every test but those labelled `slow`
#   scripts/test.sh --all    all of them, the slow ones too (what CI runs)
#   scripts/test.sh --slow   only the slow ones (after a plain run: builds, then runs just those)
# Label `slow` (`ctest -L slow`): the consumer projects (evrec built again as a sub-project and
# through FetchContent, installed and used by CMake, pkg-config and a firmware; label `consumer`),
# the Debian packages (`consumer`), the fresh clone (`fresh`) and the Cortex-M4 budget and RISC-V
# cross builds (`cross`). The QEMU runs of the example firmware are not slow: test.sh runs them.
# EVREC_SANITIZE=1 BUILD_DIR=build-asan runs it under AddressSanitizer + UBSan.
# EVREC_CTEST_ARGS adds ctest arguments after the label filter: "-R test_cli", "-L unit" (the
# Criterion tests); with --slow, "-LE fresh". (Not a second -LE without --slow: ctest 3.25 then
# drops both.)
# The tests run with TMPDIR set to an empty folder of their own ($TMPDIR/evrec-tests.XXXXXX,
# removed at the end): a file or folder a test leaves there fails the run (each test removes what
# it creates).
set -eu
cd "$(dirname "$0")/.."
case ${1:-} in
"") LABELS="-LE slow" ;;
--all) LABELS="" ;;
--slow) LABELS="-L slow" ;;
-h | --help) sed -n '3,17p' "$0"; exit 0 ;;
*) echo "test.sh: unknown argument '$1' (--all, --slow or none)" >&2; exit 2 ;;
esac
sh scripts/build.sh
B=${BUILD_DIR:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/evrec-tests.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
status=0
# shellcheck disable=SC2086 # word splitting of the extra arguments is intended
TMPDIR=$T ctest --test-dir "$B" --output-on-failure -j2 $LABELS ${EVREC_CTEST_ARGS:-} || status=$?
left=$(find "$T" -mindepth 1 -maxdepth 1 | head -20)
if [ -n "$left" ]; then
    echo "test.sh: the tests left these in their TMPDIR (now removed); a test removes what it creates:" >&2
    echo "$left" >&2
    [ $status -ne 0 ] || status=1
fi
exit $status
