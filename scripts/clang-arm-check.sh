#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Compile-only check: every recorder core source (recorder/common/*.c, recorder/buffer/*.c) and the Cortex-M port's
# sources built by clang for a Cortex-M4 (thumbv7em-none-eabi), freestanding, against
# ports/cortex-m/include, with the core's warnings as errors (recorder/CMakeLists.txt:
# EVREC_WARNINGS + EVREC_CORE_WARNINGS). Nothing is linked or run.
#
#   scripts/clang-arm-check.sh [-c CLANG] [-O "OPTS"]
#
#   -c CLANG  the clang to use (default: $CLANG, else clang)
#   -O OPTS   optimisation levels to check, default "-Os -O2" (some warnings depend on them)
#
# Headers: clang's own freestanding headers (stdint.h, stddef.h, stdatomic.h) with -nostdlibinc;
# the arm-none-eabi sysroot's include directory (newlib, from arm-none-eabi-gcc) is searched after
# them (-idirafter) for anything else. Exit status: 0 all compiled, 1 a file failed, 77 skipped
# (no clang, no ARM target in it, or no arm-none-eabi sysroot), with a message.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
clang=${CLANG:-clang}
opts="-Os -O2"
while getopts c:O:h o; do
    case $o in
    c) clang=$OPTARG ;;
    O) opts=$OPTARG ;;
    *) sed -n '3,17p' "$0"; exit 2 ;;
    esac
done

if ! command -v "$clang" >/dev/null 2>&1; then
    echo "clang-arm-check: skipped: '$clang' not found" >&2
    exit 77
fi
if ! command -v arm-none-eabi-gcc >/dev/null 2>&1; then
    echo "clang-arm-check: skipped: arm-none-eabi-gcc not found (its sysroot provides the target headers)" >&2
    exit 77
fi
sysroot=$(arm-none-eabi-gcc -print-sysroot 2>/dev/null || true)
inc=""
if [ -n "$sysroot" ] && [ -d "$sysroot/include" ]; then
    inc=$sysroot/include
else
    # Debian/Ubuntu packages print no sysroot: newlib's headers sit next to its libc.a.
    libc=$(arm-none-eabi-gcc -print-file-name=libc.a 2>/dev/null || true)
    if [ -n "$libc" ] && [ -d "$(dirname "$libc")/../include" ]; then
        inc=$(cd "$(dirname "$libc")/../include" && pwd)
    fi
fi
if [ -z "$inc" ]; then
    echo "clang-arm-check: skipped: no arm-none-eabi sysroot include directory found" >&2
    exit 77
fi
target="--target=thumbv7em-none-eabi -mcpu=cortex-m4 -mthumb"
# shellcheck disable=SC2086
if ! echo 'int x;' | "$clang" $target -ffreestanding -x c -c -o /dev/null - 2>/dev/null; then
    echo "clang-arm-check: skipped: $clang cannot target thumbv7em-none-eabi" >&2
    exit 77
fi

warn="-Wall -Wextra -Werror -Wundef -Wshadow -Wstrict-prototypes -Wconversion -Wcast-qual -Wpedantic"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
trap 'exit 1' INT TERM HUP # (a trap without exit would go on compiling into the removed folder)
fail=0
count=0
for opt in $opts; do
    for src in "$root"/recorder/common/*.c "$root"/recorder/buffer/*.c "$root"/ports/cortex-m/src/*.c; do
        count=$((count + 1))
        # shellcheck disable=SC2086 # word splitting of the flag lists is intended
        if ! "$clang" $target -std=c11 -ffreestanding -nostdlibinc -idirafter "$inc" $opt $warn \
            -I"$root/recorder/include" -I"$root/recorder/common" -I"$root/ports/cortex-m/include" \
            -c "$src" -o "$out/obj.o"; then
            echo "clang-arm-check: FAILED: ${src#"$root"/} ($opt)" >&2
            fail=1
        fi
    done
done
if [ $fail -ne 0 ]; then
    exit 1
fi
echo "clang-arm-check: $count compilations ($("$clang" --version | head -n 1), cortex-m4, $opts) OK"
