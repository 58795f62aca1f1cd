#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Quick start (a): install what is missing, build the viewer and the demo (nothing else) into
# build-demo, record the demo pipeline to demo.evr, and show it: info, stats, a window of
# frames moving through the stages in the middle of the run, and that window as a picture
# (demo.svg). Extra arguments go to evrec-demo.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh --demo
B=${BUILD_DIR:-build-demo}
mkdir -p "$B"
LOG=$B/build.log
printf 'evrec: building evrec and evrec-demo in %s ... ' "$B"
if ! { cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVREC_BUILD_TESTS=OFF -DEVREC_BUILD_BENCH=OFF &&
       cmake --build "$B" -j"$(nproc)" --target evrec evrec-demo; } >"$LOG" 2>&1; then
    echo "failed; the end of $LOG:"
    tail -n 40 "$LOG"
    exit 1
fi
echo "done"
EVREC=$B/viewer-cli/evrec

# Show an evrec command as the user would type it (evrec on the PATH), then run it.
show() {
    echo
    echo "\$ $*"
    shift
    "$EVREC" "$@"
}

echo "\$ $B/examples/evrec-demo -o demo.evr${*:+ $*}"
if ! "$B"/examples/evrec-demo -o demo.evr "$@" >"$B/demo.log" 2>&1; then
    cat "$B/demo.log"
    exit 1
fi
head -n 1 "$B/demo.log"
show evrec info demo.evr
show evrec stats demo.evr
# Two frames through the stages from the middle of the run (drop --class to see every record).
mid=$("$EVREC" info demo.evr | awk '/^duration:/ { printf "%d", $2 * 500 }')
show evrec dump demo.evr --class FrameEvent --from "${mid}ms" --limit 16
# The first of those frames as a picture, 0.5 ms from its capture: a lane per thread, frame
# stages as bars, queue depths as steps.
t0=$("$EVREC" dump demo.evr --class FrameEvent --from "${mid}ms" --limit 1 | awk '{ printf "%d", $1 * 1000000 - 50 }')
show evrec timeline demo.evr --from "${t0}us" --to "$((t0 + 500))us" -o demo.svg
echo "wrote demo.svg (open it in a browser; -o demo.png for a PNG, no --from/--to for the whole run)"
echo
echo "To repeat these: export PATH=\"$PWD/$B/viewer-cli:\$PATH\"; more: evrec dump --help, README.md"
