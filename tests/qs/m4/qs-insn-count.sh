#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Instructions executed per event by the QS (or SyS-T) encode path on a Cortex-M4 (QEMU
# mps2-an386).
#
#   tests/qs/m4/qs-insn-count.sh [-b qs|syst] [-O LEVEL] [-c CPU] [-m MACHINE]
#
# Cross-compiles tests/qs/m4/qs_insn.c with format/qs/src/{qs_map,qs_encode,qs_tx}.c (with -b
# syst: tests/syst_enc/m4/syst_insn.c with format/syst/src/{syst_map,syst_encode,syst_tx}.c and
# recorder/common/crc32c.c) and recorder/common/meta.c (arm-none-eabi-gcc -mcpu=CPU -mthumb -OLEVEL,
# default cortex-m4 -O2), links
# it with the example firmware's start-up code (examples/firmware/{cortex-m,common}), runs it
# with `-singlestep -d exec,nochain` and counts the instructions between insn_mark() calls. Prints
# per kind: instructions per event (loop minus the empty loop, divided by N), then the code size
# of the bridge's objects. Exit status: 0 ok, 1 failure, 77 tools missing.
set -eu
opt=2
cpu=cortex-m4
machine=mps2-an386
n=64
bridge=qs
while getopts b:O:c:m: o; do
    case $o in
    b) bridge=$OPTARG ;;
    O) opt=$OPTARG ;;
    c) cpu=$OPTARG ;;
    m) machine=$OPTARG ;;
    *) echo "usage: $0 [-b qs|syst] [-O LEVEL] [-c CPU] [-m MACHINE]" >&2; exit 2 ;;
    esac
done
for t in arm-none-eabi-gcc arm-none-eabi-nm arm-none-eabi-size qemu-system-arm; do
    command -v $t >/dev/null 2>&1 || { echo "qs-insn-count: $t not installed" >&2; exit 77; }
done
root=$(cd "$(dirname "$0")/../../.." && pwd)
fw=$root/examples/firmware
out=$(mktemp -d "${TMPDIR:-/tmp}/evrec-qs-insn.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$out"' EXIT; [ -n "${KEEP:-}" ] && echo "files: $out" >&2
cflags="-mcpu=$cpu -mthumb -O$opt -g -std=c11 -ffreestanding -ffunction-sections -fdata-sections
 -fno-tree-loop-distribute-patterns -Wall -Wextra -Werror -DQS_INSN_N=$n
 -I$root/format/qs/include -I$root/format/syst/include -I$root/recorder/include
 -I$root/ports/cortex-m/include -I$fw/common"
case $bridge in
qs) srcs="$root/format/qs/src/qs_map.c $root/format/qs/src/qs_encode.c $root/format/qs/src/qs_tx.c $root/format/qs/src/qs_live.c"
    main=$root/tests/qs/m4/qs_insn.c ;;
syst) srcs="$root/format/syst/src/syst_map.c $root/format/syst/src/syst_encode.c $root/format/syst/src/syst_tx.c
    $root/recorder/common/crc32c.c"
    main=$root/tests/syst_enc/m4/syst_insn.c ;;
*) echo "qs-insn-count: -b qs or -b syst, not '$bridge'" >&2; exit 2 ;;
esac
objs=""
for src in $srcs; do
    o=$out/$(basename "$src" .c).o
    # shellcheck disable=SC2086
    arm-none-eabi-gcc $cflags -c "$src" -o "$o"
    objs="$objs $o"
done
qsobjs=$objs
for src in "$root/recorder/common/meta.c" "$main" "$fw/cortex-m/startup_cortex_m.c" \
           "$fw/common/semihost.c" "$fw/common/fw_libc.c"; do
    o=$out/$(basename "$src" .c).o
    # shellcheck disable=SC2086
    arm-none-eabi-gcc $cflags -c "$src" -o "$o"
    objs="$objs $o"
done
# shellcheck disable=SC2086
arm-none-eabi-gcc -mcpu=$cpu -mthumb -nostdlib -nostartfiles -Wl,--gc-sections -T "$fw/cortex-m/mps2.ld" \
    $objs -lgcc -o "$out/qs_insn.elf"
mark=$(arm-none-eabi-nm "$out/qs_insn.elf" | awk '$3 == "insn_mark" { print $1 }')
log=$out/exec.log
timeout 120 qemu-system-arm -M "$machine" -nographic -monitor none -serial none \
    -semihosting-config enable=on,target=native -kernel "$out/qs_insn.elf" \
    -singlestep -d exec,nochain -D "$log" || { echo "qs-insn-count: the run failed" >&2; exit 1; }
awk -v mark="$mark" -v n="$n" '
function hex(s,    i, c, v) {
    v = 0; s = tolower(s)
    for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
    return v
}
BEGIN { m = hex(mark); seg = 0 }
/^Trace/ { split($0, a, "["); split(a[2], b, "/"); if (hex(b[2]) == m) seg++; count[seg]++ }
END {
    if (seg != 10) { printf "qs-insn-count: %d markers, expected 10\n", seg > "/dev/stderr"; exit 1 }
    split("empty ring_no_lock ring_primask flat_buffer filtered_out", kind, " ")
    for (k = 2; k <= 5; k++) printf "%-13s %g instructions/event\n", kind[k], (count[2 * k - 1] - count[1]) / n
}' "$log"
echo "code size (text data bss) of the $bridge objects at -O$opt for $cpu:"
# shellcheck disable=SC2086
arm-none-eabi-size $qsobjs | sed "s|$out/||"
