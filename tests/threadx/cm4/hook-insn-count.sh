#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Instructions each evrec ThreadX hook adds to the kernel on Cortex-M4 (QEMU mps2-an386): the
# kernel's own Cortex-M4 port (ports/cortex_m4/gnu) with evrec's Cortex-M port, counted as
# tests/freertos/cm4/hook-insn-count.sh counts the FreeRTOS hooks: QEMU run with `-singlestep -d
# exec,nochain` logs every executed instruction, and the lines between two insn_mark() calls are
# one loop. insn/hook_insn.c (its comment lists the loops) is built with the hooks and without,
# with the kernel; a hook's cost is the difference of its loop between the two builds, divided
# by the loop's count (HOOK_N = 32): the kernel's insert points and notification calls, evrec's
# lookups, the record(s). A third build (HOOK_TRACE=2) has the kernel's event trace
# (TX_ENABLE_EVENT_TRACE) with insert points that do nothing: its difference to the build without
# is the kernel's own trace code (the object registry calls, which run with TraceX's event trace
# whether or not evrec is there); "evrec alone" is the build with the hooks minus that one, and
# the budget applies to it.
#
#   hook-insn-count.sh [-O OPT] [-b BUDGET] KERNEL_DIR EVREC_GEN [OUT_DIR]
#
# KERNEL_DIR: a ThreadX checkout (github.com/eclipse-threadx/threadx); EVREC_GEN: the host evrec-gen; OUT_DIR: where the two
# builds go (default: a temporary folder, removed). OPT: -O2 (default), -Os. BUDGET (default 40):
# the most instructions a hook may cost; "over budget" is printed after a hook above it (a
# loop with two hooks gets twice the budget), and the exit status is then 1.
# Prints a markdown table: loop, kernel call, records, instructions without and with the hooks,
# the hooks' cost, the kernel's event trace alone, evrec alone. Exit status 77 (skipped)
# without KERNEL_DIR, qemu-system-arm or
# arm-none-eabi-gcc.
set -eu
opt=-O2
budget=40
while getopts O:b: o; do
    case $o in
    O) opt=$OPTARG ;;
    b) budget=$OPTARG ;;
    *) echo "usage: $0 [-O OPT] [-b BUDGET] KERNEL_DIR EVREC_GEN [OUT_DIR]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { echo "usage: $0 [-O OPT] [-b BUDGET] KERNEL_DIR EVREC_GEN [OUT_DIR]" >&2; exit 2; }
kernel=$1 gen=$2
skip() { echo "skipped: $*"; exit 77; }
[ -f "$kernel/ports/cortex_m4/gnu/src/tx_thread_schedule.S" ] || skip "no ThreadX at '$kernel' (ports/cortex_m4/gnu/src/tx_thread_schedule.S)"
command -v qemu-system-arm >/dev/null 2>&1 || skip "qemu-system-arm is not installed"
command -v arm-none-eabi-gcc >/dev/null 2>&1 || skip "arm-none-eabi-gcc is not installed"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
kernel=$(cd "$kernel" && pwd)
if [ $# -ge 3 ]; then out=$3; keep=1; else out=$(mktemp -d "${TMPDIR:-/tmp}/evrec-txhooks.XXXXXX"); keep=0; fi
mkdir -p "$out"

# count TRACE: the instructions executed in each loop, one line per loop.
count() {
    b=$out/hooks$1$opt
    { cmake -S "$here/insn" -B "$b" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/arm-none-eabi.cmake" \
          -DEVREC_CPU=cortex-m4 -DEVREC_THREADX_DIR="$kernel" -DEVREC_GEN_EXECUTABLE="$gen" \
          -DHOOK_TRACE="$1" -DHOOK_OPT="$opt" && cmake --build "$b" -j2 --target hook-insn.elf; } \
        >"$b.log" 2>&1 || { cat "$b.log" >&2; echo "hook-insn-count: build failed" >&2; exit 1; }
    mark=$(arm-none-eabi-nm "$b/hook-insn.elf" | awk '$3 == "insn_mark" { print $1 }')
    timeout 300 qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none \
        -semihosting-config enable=on,target=native -kernel "$b/hook-insn.elf" \
        -singlestep -d exec,nochain -D "$b/exec.log" ||
        { echo "hook-insn-count: the firmware failed (trace $1)" >&2; exit 1; }
    awk -v mark="$mark" '
    function hex(s,    i, v) {
        v = 0; s = tolower(s)
        for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v
    }
    BEGIN { m = hex(mark) }
    /^Trace/ { split($0, a, "["); split(a[2], b, "/"); if (hex(b[2]) == m) seg++; n[seg]++ }
    END { for (k = 1; k < seg; k += 2) print n[k] }' "$b/exec.log" >"$b.counts"
    rm -f "$b/exec.log"
}
count 0
count 1
count 2
awk -v budget="$budget" -v opt="$opt" '
BEGIN {
    n = split("empty switch send receive put get mutex flags isr create delete object block byte timer", name, " ")
    split("-|tx_thread_relinquish() to a thread that relinquishes back (2 switches)|tx_queue_send()|tx_queue_receive()|tx_semaphore_put()|tx_semaphore_get()|tx_mutex_get() + tx_mutex_put()|tx_event_flags_set() + tx_event_flags_get()|an interrupt handler|tx_thread_create()|tx_thread_terminate() + tx_thread_delete()|tx_semaphore_create() + tx_semaphore_delete()|tx_block_allocate() + tx_block_release()|tx_byte_allocate() + tx_byte_release()|an application timer expiry (its expiration function called as the timer thread calls it)", call, "|")
    split("-|2 x (_tx_execution_thread_exit + _enter)|QUEUE_SEND|QUEUE_RECEIVE|SEMAPHORE_PUT|SEMAPHORE_GET|MUTEX_GET + MUTEX_PUT|EVENT_FLAGS_SET + EVENT_FLAGS_GET|_tx_execution_isr_enter + _exit|THREAD_CREATE|THREAD_TERMINATE + THREAD_DELETE|SEMAPHORE_CREATE + SEMAPHORE_DELETE|BLOCK_ALLOCATE + BLOCK_RELEASE|TX_BYTE_ALLOCATE_EXTENSION + BYTE_RELEASE|the wrapped expiration function", hooks, "|")
    split("0 4 1 1 1 1 2 2 2 1 1 0 2 2 1", recs, " ")
    split("1 4 1 1 1 1 2 2 2 1 2 2 2 2 1", nhooks, " ")
}
FNR == 1 { file++ }
{ c[file, FNR] = $1; lines = FNR }
END {
    if (lines != n) { printf "hook-insn-count: %d loops counted, expected %d\n", lines, n > "/dev/stderr"; exit 1 }
    printf "| loop | kernel call | trace macros | records | without hooks | with hooks | hooks cost | kernel trace alone | evrec alone |\n"
    printf "|---|---|---|---:|---:|---:|---:|---:|---:|\n"
    over = 0
    for (k = 1; k <= n; k++) {
        off = c[1, k] / 32; on = c[2, k] / 32; d = on - off
        kt = c[3, k] / 32 - off; own = on - c[3, k] / 32
        flag = own > budget * nhooks[k] ? " over budget" : ""
        if (flag != "") over = 1
        printf "| %s | %s | %s | %d | %g | %g | %g | %g | %g%s |\n", name[k], call[k], hooks[k], recs[k], off, on, d, kt, own, flag
    }
    printf "\nCortex-M4 %s, instructions per call (QEMU mps2-an386, 32 calls per loop); budget %d per hook\n", opt, budget
    printf "hooks cost = with - without; kernel trace alone = TX_ENABLE_EVENT_TRACE with empty insert points - without\n"
    printf "(the kernel%ss own trace code, e.g. _tx_trace_object_register()); evrec alone = with - kernel trace alone\n", "\047"
    exit over
}' "$out/hooks0$opt.counts" "$out/hooks1$opt.counts" "$out/hooks2$opt.counts" || rc=$?
[ "$keep" -eq 1 ] || rm -rf "$out"
exit "${rc:-0}"
