#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The FreeRTOS kernel on an emulated Cortex-M3 (QEMU mps2-an385), traced by evrec, in one
# command: builds evrec, cross-builds the firmware of tests/freertos/cm3 (the kernel's
# GCC/ARM_CM3 port, 9 tasks, a queue, a mutex, a semaphore given from a timer interrupt and one
# from a software timer) with arm-none-eabi-gcc, runs it for 2 s of emulated time, checks the
# trace against the kernel's run-time statistics, then shows it with `evrec stats` and draws
# 50 ms of it with `evrec timeline`.
#
# Usage: examples/freertos/run-qemu-cm3.sh /path/to/FreeRTOS-Kernel [build-dir]
#   (the kernel: https://github.com/FreeRTOS/FreeRTOS-Kernel; build-dir default: build-freertos)
# Needs qemu-system-arm, arm-none-eabi-gcc and python3.
# Output: build-dir/cm3/run/freertos_cm3.evr, its console (the kernel's figures),
# build-dir/freertos-cm3.png.
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
cmake --build "$build" -j2 --target evrec evrec-gen >/dev/null
build=$(cd "$build" && pwd)
sh "$src/tests/freertos/qemu_cm3_test.sh" "$src" "$kernel" "$build/cm3" \
    "$build/schema/evrec-gen" "$build/viewer-cli/evrec"
evr=$build/cm3/run/freertos_cm3.evr
"$build/viewer-cli/evrec" stats "$evr"
"$build/viewer-cli/evrec" timeline --from 100ms --to 150ms -o "$build/freertos-cm3.png" "$evr"
echo "timeline: $build/freertos-cm3.png"
