#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Streaming cost on a Cortex-M4 (QEMU mps2-an386), evrec next to SEGGER SystemView (continuous
# RTT recording) and Trice (direct RTT mode), counted the same way: QEMU runs each firmware with
# `-singlestep -d exec,nochain` and the instructions executed between two insn_mark() calls are
# counted (as scripts/insn-count.sh does). bench/peers/m4/README.md gives the table.
#
#   scripts/bench-stream-m4.sh [-O LEVEL] [-D NAME=VALUE]... [-g EVREC_GEN] [-s SYSVIEW_DIR] [-r RTT_DIR]
#                              [-t TRICE_DIR] [-d DIR]
#
# -O  optimisation of every firmware (default 2).
# -D  a definition for evrec's firmware (an evrec_config.h knob, e.g. -D EVREC_CRC32C_TABLE=1);
#     repeatable.
# -g  the host evrec-gen (default build/schema/evrec-gen); evrec's row is built from
#     examples/firmware (evrec-insn-stream.elf, app/insn_stream_main.c).
# -s  a SystemView checkout (SEGGER's public target sources: SYSVIEW/SEGGER_SYSVIEW.c ...);
#     skipped when not given.
# -r  the folder of SEGGER_RTT.c/.h SystemView is built with (default SYSVIEW_DIR/RTT, else
#     TRICE_DIR/src, which holds SEGGER's RTT: SystemView's public repository has no RTT of its own).
# -t  a Trice checkout (github.com/rokath/trice: src/trice.c ...). Skipped when not given.
# -d  the build folder (default a temporary one, removed at the end).
# Prints one row per measured figure:  <who> <what> <instructions>
#   evrec   record3     per ContextSwitch record (3 fields) into the stream's ring
#   evrec   drain_byte  per byte evrec_rtt_drain() moves into the RTT up buffer
#   evrec   drain_rec   the same per record drained (bytes per record x drain_byte)
#   evrec   total3      record3 + drain_rec: a record from the call to the RTT buffer
#   sysview record3     per SEGGER_SYSVIEW_RecordU32x3() (into RTT directly: total)
#   sysview byte        per byte it put into the RTT buffer
#   trice   record3     per TRice(iD(n), "...", a, b, c) in direct RTT mode (total)
#   trice   byte        per byte it put into the RTT buffer
#   trice-l record3     the same with a critical section (BASEPRI) around each message
#   *       bytes_rec   bytes per record put into the RTT buffer (evrec: by the drain)
# Exit status: 0 ok, 1 a build or run failed, 77 the cross compiler or QEMU is missing.
set -eu
opt=2
gen=""
sysview=""
rtt=""
trice=""
dir=""
defs=""
while getopts O:D:g:s:r:t:d: o; do
    case $o in
    O) opt=$OPTARG ;;
    D) defs="$defs;-D$OPTARG" ;; # EVREC_FW_OPT is a list given to add_compile_options(): the
                                 # recorder library sees it too (EVREC_FW_DEFINES reaches only the app)
    g) gen=$OPTARG ;;
    s) sysview=$OPTARG ;;
    r) rtt=$OPTARG ;;
    t) trice=$OPTARG ;;
    d) dir=$OPTARG ;;
    *) echo "usage: $0 [-O LEVEL] [-D NAME=VALUE]... [-g EVREC_GEN] [-s SYSVIEW_DIR] [-r RTT_DIR] [-t TRICE_DIR] [-d DIR]" >&2
       exit 2 ;;
    esac
done
for t in arm-none-eabi-gcc arm-none-eabi-nm qemu-system-arm cmake; do
    command -v $t >/dev/null 2>&1 || { echo "bench-stream-m4: $t not installed" >&2; exit 77; }
done
root=$(cd "$(dirname "$0")/.." && pwd)
[ -n "$gen" ] || gen=$root/build/schema/evrec-gen
[ -x "$gen" ] || { echo "bench-stream-m4: no evrec-gen at $gen (cmake --build build --target evrec-gen)" >&2; exit 1; }
if [ -z "$dir" ]; then
    dir=$(mktemp -d "${TMPDIR:-/tmp}/evrec-bench-stream.XXXXXX")
    trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
trap 'exit 1' INT TERM HUP
tc=$root/cmake/toolchains/arm-none-eabi.cmake

# segments ELF LOG: run ELF, print its semihosting output to LOG.out, then the instructions
# executed in each segment between insn_mark() calls, one per line (segment 1 first).
segments() {
    mark=$(arm-none-eabi-nm "$1" | awk '$3 == "insn_mark" { print $1 }')
    [ -n "$mark" ] || { echo "bench-stream-m4: no insn_mark in $1" >&2; return 1; }
    timeout 300 qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none \
        -semihosting-config enable=on,target=native -kernel "$1" \
        -singlestep -d exec,nochain -D "$2" >"$2.out" 2>&1 ||
        { echo "bench-stream-m4: $1 failed (exit status non-zero)" >&2; cat "$2.out" >&2; return 1; }
    awk -v mark="$mark" '
    function hex(s,    i, c, v) {
        v = 0; s = tolower(s)
        for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
        return v
    }
    BEGIN { m = hex(mark); seg = 0 }
    /^Trace/ { split($0, a, "["); split(a[2], b, "/"); if (hex(b[2]) == m) seg++; count[seg]++ }
    END { for (k = 1; 2 * k <= seg; k++) print count[2 * k - 1] }' "$2"
    rm -f "$2"
}

# value NAME FILE: the number after NAME in a semihosting output line.
value() {
    awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' "$2" | head -n 1
}

# rows WHO ELF: the record and per-byte rows of a peer firmware (bench/peers/m4/*_insn.c:
# segments empty, record, with "bytes B records R" printed).
rows() {
    s=$(segments "$2" "$dir/$1.log") || return 1
    e=$(echo "$s" | sed -n 1p)
    r=$(echo "$s" | sed -n 2p)
    bytes=$(value bytes "$dir/$1.log.out")
    n=$(value records "$dir/$1.log.out")
    if [ -z "$r" ] || [ -z "$bytes" ] || [ -z "$n" ]; then
        echo "bench-stream-m4: $1: no count" >&2
        return 1
    fi
    awk -v w="$1" -v e="$e" -v r="$r" -v b="$bytes" -v n="$n" 'BEGIN {
        printf "%-7s %-10s %.2f\n", w, "record3", (r - e) / n
        printf "%-7s %-10s %.2f\n", w, "byte", (r - e) / b
        printf "%-7s %-10s %.2f\n", w, "bytes_rec", b / n }'
}

# ---- evrec ----
b=$dir/evrec
{ cmake -S "$root/examples/firmware" -B "$b" -DCMAKE_TOOLCHAIN_FILE="$tc" -DEVREC_CPU=cortex-m4 \
      -DEVREC_FW_OPT="-O$opt$defs" -DEVREC_GEN_EXECUTABLE="$gen" &&
  cmake --build "$b" -j1 --target evrec-insn-stream.elf; } >"$b-build.log" 2>&1 ||
    { cat "$b-build.log" >&2; echo "bench-stream-m4: the evrec build failed" >&2; exit 1; }
s=$(segments "$b/evrec-insn-stream.elf" "$dir/evrec.log")
bytes=$(value drain_bytes "$dir/evrec.log.out")
n=$(value records "$dir/evrec.log.out")
echo "$s" | awk -v b="$bytes" -v n="$n" '{ c[NR] = $1 } END {
    if (NR != 4 || b == "" || n == "") { print "bench-stream-m4: evrec: no count" > "/dev/stderr"; exit 1 }
    rec = (c[2] - c[1]) / n; byte = (c[4] - c[3]) / b
    printf "%-7s %-10s %.2f\n", "evrec", "record3", rec
    printf "%-7s %-10s %.2f\n", "evrec", "drain_byte", byte
    printf "%-7s %-10s %.2f\n", "evrec", "bytes_rec", b / n
    printf "%-7s %-10s %.2f\n", "evrec", "drain_rec", (c[4] - c[3]) / n
    printf "%-7s %-10s %.2f\n", "evrec", "total3", rec + (c[4] - c[3]) / n }'

# ---- peers (bench/peers/m4/CMakeLists.txt builds each one whose path is given) ----
if [ -z "$sysview" ] && [ -z "$trice" ]; then
    echo "bench-stream-m4: no -s SYSVIEW_DIR or -t TRICE_DIR: peers skipped" >&2
    exit 0
fi
if [ -n "$sysview" ] && [ -z "$rtt" ]; then
    if [ -f "$sysview/RTT/SEGGER_RTT.c" ]; then rtt=$sysview/RTT
    elif [ -n "$trice" ] && [ -f "$trice/src/SEGGER_RTT.c" ]; then rtt=$trice/src
    else echo "bench-stream-m4: no SEGGER_RTT.c for SystemView: give -r RTT_DIR" >&2; exit 1
    fi
    echo "bench-stream-m4: SystemView built with the RTT of $rtt" >&2
fi
p=$dir/peers
{ cmake -S "$root/bench/peers/m4" -B "$p" -DCMAKE_TOOLCHAIN_FILE="$tc" -DEVREC_CPU=cortex-m4 \
      -DEVREC_FW_OPT="-O$opt" -DEVREC_SYSVIEW_DIR="$sysview" -DEVREC_SEGGER_RTT_DIR="$rtt" \
      -DEVREC_TRICE_DIR="$trice" &&
  cmake --build "$p" -j1; } >"$p-build.log" 2>&1 ||
    { cat "$p-build.log" >&2; echo "bench-stream-m4: the peers' build failed" >&2; exit 1; }
if [ -n "$sysview" ]; then rows sysview "$p/sysview-insn.elf"; else echo "bench-stream-m4: SystemView skipped (no -s)" >&2; fi
if [ -n "$trice" ]; then
    rows trice "$p/trice-insn.elf"
    rows trice-l "$p/trice-insn-locked.elf"
else
    echo "bench-stream-m4: Trice skipped (no -t)" >&2
fi
