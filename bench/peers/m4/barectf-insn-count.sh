#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Instructions executed per event by barectf's generated tracer on a Cortex-M4 (QEMU
# mps2-an386), counted the way scripts/insn-count.sh counts evrec's record path.
#
#   bench/peers/m4/barectf-insn-count.sh [-O LEVEL]
#
# Generates the tracer from bench/peers/barectf.yaml (barectf, python3-barectf), cross-compiles
# it with bench/peers/m4/barectf_insn.c (arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -OLEVEL,
# default -O2, -DNDEBUG) and the example firmware's start-up code, runs it with `-singlestep -d
# exec,nochain` and counts the instructions between insn_mark() calls. Prints
#   barectf <instructions per event>     (the loop minus the empty loop, divided by N; packet
#                                         switches included, amortised)
#   rom <bytes>                          text of the generated barectf.o
# Exit status: 0 ok, 1 failure, 77 tools missing.
set -eu
opt=2
while getopts O: o; do
    case $o in
    O) opt=$OPTARG ;;
    *) echo "usage: $0 [-O LEVEL]" >&2; exit 2 ;;
    esac
done
for t in barectf arm-none-eabi-gcc arm-none-eabi-nm arm-none-eabi-size qemu-system-arm; do
    command -v $t >/dev/null 2>&1 || { echo "barectf-insn-count: $t not installed" >&2; exit 77; }
done
root=$(cd "$(dirname "$0")/../../.." && pwd)
fw=$root/examples/firmware
n=1024
out=$(mktemp -d "${TMPDIR:-/tmp}/evrec-barectf-insn.XXXXXX")
trap 'rm -rf "$out"' EXIT
barectf generate --code-dir="$out" --headers-dir="$out" --metadata-dir="$out" "$root/bench/peers/barectf.yaml"
cflags="-mcpu=cortex-m4 -mthumb -O$opt -g -std=c11 -ffreestanding -ffunction-sections -fdata-sections
 -fno-tree-loop-distribute-patterns -DNDEBUG -DBARECTF_INSN_N=$n -I$out -I$fw/common"
objs=""
for src in "$out/barectf.c" "$root/bench/peers/m4/barectf_insn.c" "$fw/cortex-m/startup_cortex_m.c" \
           "$fw/common/semihost.c" "$fw/common/fw_libc.c"; do
    o=$out/$(basename "$src" .c).o
    # shellcheck disable=SC2086
    arm-none-eabi-gcc $cflags -c "$src" -o "$o"
    objs="$objs $o"
done
# shellcheck disable=SC2086
arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -nostdlib -nostartfiles -Wl,--gc-sections -T "$fw/cortex-m/mps2.ld" \
    $objs -lgcc -o "$out/barectf_insn.elf"
mark=$(arm-none-eabi-nm "$out/barectf_insn.elf" | awk '$3 == "insn_mark" { print $1 }')
log=$out/exec.log
timeout 120 qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none \
    -semihosting-config enable=on,target=native -kernel "$out/barectf_insn.elf" \
    -singlestep -d exec,nochain -D "$log" || { echo "barectf-insn-count: the run failed" >&2; exit 1; }
awk -v mark="$mark" -v n="$n" '
function hex(s,    i, c, v) {
    v = 0; s = tolower(s)
    for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
    return v
}
BEGIN { m = hex(mark); seg = 0 }
/^Trace/ { split($0, a, "["); split(a[2], b, "/"); if (hex(b[2]) == m) seg++; count[seg]++ }
END {
    if (seg != 4) { printf "barectf-insn-count: %d markers, expected 4\n", seg > "/dev/stderr"; exit 1 }
    printf "barectf %g\n", (count[3] - count[1]) / n
}' "$log"
arm-none-eabi-size "$out/barectf.o" | awk 'NR == 2 { print "rom", $1 }'
