#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ThreadX traced by evrec, in one command: builds evrec and the kernel test workload
# (tests/threadx/threadx_workload.c: ThreadX's Linux port, 8 threads plus the kernel's timer
# thread, a queue, a mutex, event flags, a semaphore put by an application timer) against a
# checkout of github.com/eclipse-threadx/threadx, runs it for 3 s, then shows the trace with
# `evrec stats` and draws 50 ms of it with `evrec timeline`.
#
# Usage: examples/threadx/run.sh /path/to/threadx [build-dir]
#   (build-dir default: build-threadx; THREADX_RUN_MS sets the run's length, default 3000)
# Output: build-dir/threadx.evr, build-dir/threadx-kernel.txt (the kernel's own accounting:
# run counts, resumptions, the execution profile kit's time per thread), build-dir/threadx.png.
set -eu
if [ $# -lt 1 ] || [ ! -f "$1/common/src/tx_thread_create.c" ]; then
    echo "usage: $0 /path/to/threadx [build-dir]" >&2
    exit 2
fi
tdir=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${2:-build-threadx}
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVREC_BUILD_TESTS=ON \
    -DEVREC_THREADX_DIR="$tdir" >/dev/null
cmake --build "$build" -j2 --target threadx_workload evrec >/dev/null
THREADX_RUN_MS=${THREADX_RUN_MS:-3000} \
    "$build/tests/threadx/threadx_workload" "$build/threadx.evr" "$build/threadx-kernel.txt"
"$build/viewer-cli/evrec" stats "$build/threadx.evr"
"$build/viewer-cli/evrec" timeline --from 100ms --to 150ms -o "$build/threadx.png" "$build/threadx.evr"
echo "timeline: $build/threadx.png"
