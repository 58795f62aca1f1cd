#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Regenerate docs/timeline-task-states.png, the task-state lanes of `evrec timeline` on a real
# kernel: FreeRTOS (github.com/FreeRTOS/FreeRTOS-Kernel, its POSIX port) running the workload of
# tests/freertos/freertos_workload.c, traced by ports/rtos/freertos, its first 25 ms drawn.
#
#   EVREC_FREERTOS_KERNEL_DIR=/path/to/FreeRTOS-Kernel scripts/timeline-task-states.sh [BUILD_DIR]
#
# BUILD_DIR (default: build) is configured with the kernel folder and the two targets built. The
# workload runs real threads: the picture differs from run to run in its details.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
kdir=${EVREC_FREERTOS_KERNEL_DIR:?set EVREC_FREERTOS_KERNEL_DIR to a FreeRTOS-Kernel checkout}
cmake -S "$root" -B "$build" -DEVREC_FREERTOS_KERNEL_DIR="$kdir" >/dev/null
cmake --build "$build" -j2 --target evrec freertos_workload >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
FREERTOS_RUN_MS=3000 "$build/tests/freertos/freertos_workload" "$tmp/freertos.evr" "$tmp/kernel.txt" >/dev/null
"$build/viewer-cli/evrec" timeline "$tmp/freertos.evr" --to 25ms --width 1400 -o "$root/docs/timeline-task-states.png"
echo "wrote $root/docs/timeline-task-states.png"
