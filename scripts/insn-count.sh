#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Instructions executed per record, measured on QEMU (ports/PORTING.md).
#
#   scripts/insn-count.sh [-m MACHINE] [-q QEMU] [-n N] [-k] ELF
#
# ELF is examples/firmware's evrec-insn.elf (built for the CPU to measure; INSN_N records per
# loop, 256 unless built otherwise: pass the same -n). It is run with `-singlestep -d
# exec,nochain`, so QEMU logs every executed instruction with its program counter. Each loop is
# bracketed by two calls of insn_mark(); the lines between them are counted; each record loop minus
# the empty loop, divided by N, is the number of instructions per record (the call-site cost:
# loading the host, the timestamp, the atomic allocation, the stores, the commit, prologue and
# epilogue). Prints one line per kind:  <kind> <instructions per record>
# MACHINE defaults to mps2-an386 (Cortex-M4); QEMU to qemu-system-arm. -k keeps the log.
# Exit status: 0 ok, 1 the run or the count failed, 77 QEMU is not installed.
set -eu
machine=mps2-an386
qemu=qemu-system-arm
n=256
keep=0
while getopts m:q:n:k opt; do
    case $opt in
    m) machine=$OPTARG ;;
    q) qemu=$OPTARG ;;
    n) n=$OPTARG ;;
    k) keep=1 ;;
    *) echo "usage: $0 [-m MACHINE] [-q QEMU] [-n N] [-k] ELF" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-m MACHINE] [-q QEMU] [-n N] [-k] ELF" >&2; exit 2; }
elf=$1
command -v "$qemu" >/dev/null 2>&1 || { echo "insn-count: $qemu not installed" >&2; exit 77; }

case $qemu in
*riscv*) nm=riscv64-unknown-elf-nm; extra="-bios none" ;;
*) nm=arm-none-eabi-nm; extra="" ;;
esac
mark=$("$nm" "$elf" | awk '$3 == "insn_mark" { print $1 }')
[ -n "$mark" ] || { echo "insn-count: no insn_mark in $elf" >&2; exit 1; }

log=$(mktemp "${TMPDIR:-/tmp}/evrec-insn.XXXXXX")
# The log goes also when the run is interrupted (a test's time-out), unless -k.
[ "$keep" -eq 1 ] || trap 'rm -f "$log"' EXIT
trap 'exit 1' INT TERM HUP
# shellcheck disable=SC2086
if ! timeout 120 "$qemu" -M "$machine" -nographic -monitor none -serial none $extra \
        -semihosting-config enable=on,target=native -kernel "$elf" \
        -singlestep -d exec,nochain -D "$log"; then
    echo "insn-count: $elf failed on $machine (exit status non-zero: records dropped or a fault)" >&2
    rm -f "$log"
    exit 1
fi

# "Trace 0: 0x... [cs_base/pc/flags/cflags] symbol": the pc is the 2nd field in brackets, as wide
# as the target's addresses; compare it as a number with insn_mark's address.
awk -v mark="$mark" -v n="$n" '
function hex(s,    i, c, v) {
    v = 0; s = tolower(s)
    for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
    return v
}
BEGIN { m = hex(mark); seg = 0 }
/^Trace/ {
    split($0, a, "["); split(a[2], b, "/")
    if (hex(b[2]) == m) seg++
    count[seg]++
}
END {
    nk = split("empty value switch tick generic detached cvalue cswitch svalue sswitch", kind, " ")
    if (seg != 2 * nk) { printf "insn-count: %d markers in the log, expected %d\n", seg, 2 * nk > "/dev/stderr"; exit 1 }
    for (k = 2; k <= nk; k++) {
        d = (count[2 * k - 1] - count[1]) / n
        printf "%-9s %g\n", kind[k], d
    }
}' "$log" || { rm -f "$log"; exit 1; }
if [ "$keep" -eq 1 ]; then echo "log: $log" >&2; else rm -f "$log"; fi
