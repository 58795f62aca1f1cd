#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Instructions each evrec FreeRTOS hook adds to the kernel on Cortex-M4 (QEMU mps2-an386),
# counted as scripts/insn-count.sh counts the record path: QEMU run with `-singlestep -d
# exec,nochain` logs every executed instruction, and the lines between two insn_mark() calls are
# one loop. insn/hook_insn.c (its comment lists the loops) is built with the hooks and without,
# with the kernel; a hook's cost is the difference of its loop between the two builds, divided
# by the loop's count (HOOK_N = 32): the macro's call site in the kernel's code, the call, the
# record(s) (reserve, timestamp, stores, commit). A third build has IntControl on as well
# (EVREC_FREERTOS_INT_CONTROL, the --wrap of vPortEnterCritical/vPortExitCritical): its
# `critical` loop (taskENTER_CRITICAL + taskEXIT_CRITICAL) and its `switch` loop (the switch
# hook's check of the critical-section depths) against the build without hooks.
#
#   hook-insn-count.sh [-O OPT] [-b BUDGET] KERNEL_DIR EVREC_GEN [OUT_DIR]
#
# KERNEL_DIR: a FreeRTOS-Kernel checkout; EVREC_GEN: the host evrec-gen; OUT_DIR: where the two
# builds go (default: a temporary folder, removed). OPT: -O2 (default), -Os. BUDGET (default 40):
# the most instructions a hook may cost; "over budget" is printed after a hook above it (a
# loop with two hooks gets twice the budget), and the exit status is then 1.
# Prints a markdown table: loop, kernel call, records, instructions without and with the hooks,
# the hooks' cost. Exit status 77 (skipped) without KERNEL_DIR, qemu-system-arm or
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
[ -f "$kernel/portable/GCC/ARM_CM3/port.c" ] || skip "no FreeRTOS-Kernel at '$kernel' (portable/GCC/ARM_CM3/port.c)"
command -v qemu-system-arm >/dev/null 2>&1 || skip "qemu-system-arm is not installed"
command -v arm-none-eabi-gcc >/dev/null 2>&1 || skip "arm-none-eabi-gcc is not installed"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
kernel=$(cd "$kernel" && pwd)
if [ $# -ge 3 ]; then out=$3; keep=1; else out=$(mktemp -d "${TMPDIR:-/tmp}/evrec-hooks.XXXXXX"); keep=0; fi
mkdir -p "$out"

# count TRACE: the instructions executed in each loop, one line per loop.
count() {
    b=$out/hooks$1$opt
    { cmake -S "$here/insn" -B "$b" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/arm-none-eabi.cmake" \
          -DEVREC_CPU=cortex-m4 -DEVREC_FREERTOS_KERNEL_DIR="$kernel" -DEVREC_GEN_EXECUTABLE="$gen" \
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
    split("empty switch send receive give take mutex ready priority isr_enter isr_exit create delete object same notify_give notify_take notify_isr notify_wait group_set group_wait group_create", name, " ")
    split("-|vTaskSwitchContext() to another task|xQueueSend()|xQueueReceive()|xSemaphoreGive() (counting)|xSemaphoreTake() (counting)|xSemaphoreTake() + xSemaphoreGive() (mutex)|vTaskSuspend() + vTaskResume()|vTaskPrioritySet()|traceISR_ENTER()|traceISR_EXIT()|xTaskCreate()|vTaskDelete()|xSemaphoreCreateBinary() + vSemaphoreDelete()|vTaskSwitchContext() to the same task|xTaskNotifyGive()|ulTaskNotifyTake()|vTaskNotifyGiveFromISR()|xTaskNotify() + xTaskNotifyWait()|xEventGroupSetBits()|xEventGroupWaitBits() (bits set)|xEventGroupCreate() + vEventGroupDelete()", call, "|")
    split("-|SWITCHED_OUT + SWITCHED_IN|QUEUE_SEND|QUEUE_RECEIVE|QUEUE_SEND|QUEUE_RECEIVE|QUEUE_RECEIVE + QUEUE_SEND|MOVED_TASK_TO_READY_STATE|TASK_PRIORITY_SET + MOVED_TASK_TO_READY_STATE|ISR_ENTER|ISR_EXIT|TASK_CREATE + MOVED_TASK_TO_READY_STATE|TASK_DELETE|QUEUE_CREATE|SWITCHED_OUT + SWITCHED_IN|TASK_NOTIFY|RETURN_ulTaskGenericNotifyTake|TASK_NOTIFY_GIVE_FROM_ISR|TASK_NOTIFY + RETURN_xTaskGenericNotifyWait|EVENT_GROUP_SET_BITS|EVENT_GROUP_WAIT_BITS_END|EVENT_GROUP_CREATE", hooks, "|")
    split("0 2 1 1 1 1 2 1 2 1 1 2 1 0 0 1 1 1 2 1 1 0", recs, " ")
    split("1 2 1 1 1 1 2 1 2 1 1 2 1 1 2 1 1 1 2 1 1 1", nhooks, " ")
    # The third build (IntControl on): loop 23 and loop 2 again, against the first build.
    name[23] = "critical"; call[23] = "taskENTER_CRITICAL() + taskEXIT_CRITICAL()"
    hooks[23] = "--wrap vPortEnterCritical + vPortExitCritical"; recs[23] = 2; nhooks[23] = 2; on_file[23] = 3
    name[24] = "switch, IntControl on"; call[24] = call[2]; hooks[24] = hooks[2]; recs[24] = 2; nhooks[24] = 2
    on_file[24] = 3; loop[24] = 2
}
FNR == 1 { file++ }
{ c[file, FNR] = $1; lines = FNR }
END {
    if (lines != 23) { printf "hook-insn-count: %d loops counted, expected 23\n", lines > "/dev/stderr"; exit 1 }
    printf "| loop | kernel call | trace macros | records | without hooks | with hooks | hooks cost |\n"
    printf "|---|---|---|---:|---:|---:|---:|\n"
    over = 0
    for (k = 1; k <= 24; k++) {
        l = loop[k] ? loop[k] : k
        off = c[1, l] / 32; on = c[on_file[k] ? on_file[k] : 2, l] / 32; d = on - off
        flag = d > budget * nhooks[k] ? " over budget" : ""
        if (flag != "") over = 1
        printf "| %s | %s | %s | %d | %g | %g | %g%s |\n", name[k], call[k], hooks[k], recs[k], off, on, d, flag
    }
    printf "\nCortex-M4 %s, instructions per call (QEMU mps2-an386, 32 calls per loop); budget %d per hook\n", opt, budget
    exit over
}' "$out/hooks0$opt.counts" "$out/hooks1$opt.counts" "$out/hooks2$opt.counts" || rc=$?
[ "$keep" -eq 1 ] || rm -rf "$out"
exit "${rc:-0}"
