#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# FreeRTOS on an emulated Cortex-M3, traced by evrec: builds the firmware of cm3/ (the kernel's
# GCC/ARM_CM3 port and heap_4, evrec's Cortex-M port on CMSDK TIMER1, the FreeRTOS hooks) with
# arm-none-eabi-gcc, runs it on QEMU's mps2-an385 for 2 s of emulated time, and checks the trace
# it saves through semihosting against the kernel's run-time statistics it prints
# (check_freertos_qemu.py). QEMU runs with -icount shift=4 (16 ns of virtual time per
# instruction), so the run does not depend on the host's speed or load.
#
#   qemu_cm3_test.sh ROOT KERNEL_DIR BUILD_DIR EVREC_GEN EVREC [CMAKE_ARGS...]
#
# Exit status: 0 pass, 1 fail, 77 skipped (no kernel folder, qemu-system-arm, arm-none-eabi-gcc
# or python3), with the reason on the first line.
set -eu
[ $# -ge 5 ] || { echo "usage: $0 ROOT KERNEL_DIR BUILD_DIR EVREC_GEN EVREC [CMAKE_ARGS...]" >&2; exit 2; }
root=$1 kernel=$2 b=$3 gen=$4 evrec=$5
shift 5
skip() { echo "skipped: $*"; exit 77; }
[ -n "$kernel" ] || skip "EVREC_FREERTOS_KERNEL_DIR is not set (a FreeRTOS-Kernel checkout)"
[ -f "$kernel/portable/GCC/ARM_CM3/port.c" ] || skip "$kernel has no portable/GCC/ARM_CM3/port.c"
command -v qemu-system-arm >/dev/null 2>&1 || skip "qemu-system-arm is not installed"
command -v arm-none-eabi-gcc >/dev/null 2>&1 || skip "arm-none-eabi-gcc is not installed"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$b"
if ! { cmake -S "$root/tests/freertos/cm3" -B "$b" \
           -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/arm-none-eabi.cmake" -DEVREC_CPU=cortex-m3 \
           -DEVREC_FREERTOS_KERNEL_DIR="$kernel" -DEVREC_GEN_EXECUTABLE="$gen" "$@" &&
       cmake --build "$b" -j2 --target freertos-cm3.elf; } >"$b/build.log" 2>&1; then
    cat "$b/build.log"
    fail "cross build failed"
fi
arm-none-eabi-size "$b/freertos-cm3.elf"

run=$b/run
rm -rf "$run"
mkdir -p "$run"
cd "$run"
rc=0
timeout 240 qemu-system-arm -M mps2-an385 -nographic -monitor none -serial none -icount shift=4 \
    -semihosting-config enable=on,target=native -kernel "$b/freertos-cm3.elf" >console.txt 2>&1 || rc=$?
cat console.txt
[ "$rc" -eq 0 ] || fail "the firmware exited with status $rc"
if grep -q '^fw: trace off' console.txt; then
    echo "PASS: built without the hooks (CM3_TRACE=0): nothing to check"
    exit 0
fi
[ -s freertos_cm3.evr ] || fail "no freertos_cm3.evr written through semihosting"
python3 "$root/tests/freertos/check_freertos_qemu.py" console.txt freertos_cm3.evr "$evrec" ||
    fail "the trace does not agree with the kernel"
echo "PASS: $run/freertos_cm3.evr agrees with the kernel's run-time statistics"
