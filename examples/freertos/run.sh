#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The FreeRTOS kernel traced by evrec, in one command: builds evrec and the kernel test workload
# (tests/freertos/freertos_workload.c: the FreeRTOS POSIX port, 9 tasks, a queue, a mutex,
# semaphores given from the tick hook and a software timer) against a FreeRTOS-Kernel checkout,
# runs it for 3 s (FREERTOS_RUN_MS, in ms), then shows the trace with `evrec stats` and draws
# 50 ms of it with `evrec timeline`.
#
# Usage: examples/freertos/run.sh /path/to/FreeRTOS-Kernel [build-dir]
#   (the kernel: https://github.com/FreeRTOS/FreeRTOS-Kernel; build-dir default: build-freertos)
# Output: build-dir/freertos.evr, build-dir/freertos-kernel.txt (the kernel's own run-time
# statistics), build-dir/freertos.png.
set -eu
if [ $# -lt 1 ] || [ ! -f "$1/tasks.c" ]; then
    echo "usage: $0 /path/to/FreeRTOS-Kernel [build-dir]" >&2
    exit 2
fi
kernel=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${2:-build-freertos}
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVREC_BUILD_TESTS=ON \
    -DEVREC_FREERTOS_KERNEL_DIR="$kernel" >/dev/null
cmake --build "$build" -j2 --target freertos_workload evrec >/dev/null
FREERTOS_RUN_MS=${FREERTOS_RUN_MS:-3000} \
    "$build/tests/freertos/freertos_workload" "$build/freertos.evr" "$build/freertos-kernel.txt"
"$build/viewer-cli/evrec" stats "$build/freertos.evr"
"$build/viewer-cli/evrec" timeline --from 100ms --to 150ms -o "$build/freertos.png" "$build/freertos.evr"
echo "timeline: $build/freertos.png"
