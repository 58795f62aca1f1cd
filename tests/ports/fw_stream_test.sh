#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The streaming example firmware (examples/firmware/app/fw_stream_main.c) on QEMU's mps2-an385
# (Cortex-M3) or mps2-an386 (Cortex-M4): it records for FW_STREAM_MS of target time at a rate
# that overflows its ring in bursts and drains the frames to its UART0, which QEMU serves on a
# TCP socket that `evrec record tcp:127.0.0.1:PORT` reads. At the end the firmware prints its own
# counts on the semihosting console. Checked, for its lane: records recorded on the target ==
# records in the file + records the file reports lost, exactly; drops happened (and not all the
# time); the records in the file are the firmware's sequence (Value and TimerIrq counters
# strictly increasing, none beyond what the firmware recorded; Start first, Stop last).
# QEMU runs with -icount shift=4,sleep=off: virtual time advances 16 ns per instruction and skips
# idle time, so 30 s of target time take a few seconds and the run is deterministic.
#
# With CRASH_VALUES > 0, the previous boot's crash: the first boot records CRASH_VALUES Values
# into its .noinit crash buffer and resets itself (SYSRESETREQ) in the middle of its recording;
# the second boot recovers that buffer and sends it through the UART before its live stream.
# Checked: evrec record saved it as live.prev-boot.evr, which holds exactly the first boot's
# records (the accounting and sequence checks above, of boot 1: Values 1 << 24 | seq, no Stop),
# and live.evr exactly the second boot's (Values 2 << 24 | seq).
#
#   fw_stream_test.sh ROOT BUILD_DIR EVREC_GEN EVREC CPU MACHINE STREAM_MS CRASH_VALUES
#
# Exit status: 0 pass, 1 fail, 77 skipped because qemu-system-arm or arm-none-eabi-gcc is not
# installed.
set -eu
[ $# -eq 8 ] || { echo "usage: $0 ROOT BUILD_DIR EVREC_GEN EVREC CPU MACHINE STREAM_MS CRASH_VALUES" >&2; exit 2; }
root=$1 b=$2 gen=$3 evrec=$4 cpu=$5 machine=$6 stream_ms=$7 crash=$8

. "$root/tests/ports/fw_common.sh"
fw_need_tools
fw_build "$cpu" evrec-fw-stream.elf -DEVREC_FW_CLOCK=systick \
    -DEVREC_FW_DEFINES="FW_STREAM_MS=$stream_ms;FW_CRASH_VALUES=$crash"
fw_run_dir "$b/run"

# QEMU waits for the connection before it starts the CPU (server=on,wait=on). A port that is
# taken makes QEMU exit at once: try the next one.
qemu_pid=
cleanup() { [ -z "$qemu_pid" ] || kill "$qemu_pid" 2>/dev/null || true; }
trap cleanup EXIT
port=$((20000 + $$ % 20000))
for attempt in 1 2 3 4 5 6 7 8; do
    port=$((port + 1))
    timeout 120 qemu-system-arm -M "$machine" $fw_qemu_opts \
        -serial "tcp:127.0.0.1:$port,server=on,wait=on" -icount shift=4,sleep=off \
        -kernel "$b/evrec-fw-stream.elf" >console.txt 2>&1 &
    qemu_pid=$!
    connected=0
    for i in $(seq 1 50); do
        kill -0 "$qemu_pid" 2>/dev/null || break
        if "$evrec" record -q tcp:127.0.0.1:$port -o live.evr 2>record.txt; then
            connected=1
            break
        fi
        grep -q 'Connection refused' record.txt || { cat record.txt; fail "evrec record failed"; }
        sleep 0.2
    done
    [ "$connected" = 1 ] && break
    wait "$qemu_pid" || true
    qemu_pid=
done
[ -n "$qemu_pid" ] || fail "QEMU did not serve its UART on a TCP port"
rc=0
wait "$qemu_pid" || rc=$?
qemu_pid=
cat console.txt record.txt
[ "$rc" -eq 0 ] || fail "the firmware exited with status $rc"
. "$root/tests/ports/fw_stream_check.sh"
live_boot=1
if [ "$crash" -gt 0 ]; then
    live_boot=2
    line=$(grep '^fw-stream: boot 1 lane 0 recorded' console.txt || true)
    grep -q "previous boot's recording (.*) saved to .*live.prev-boot.evr" record.txt ||
        fail "evrec record did not say it saved the previous boot's recording"
    check_counts live.prev-boot.evr "$line"
    check_sequence live.prev-boot.evr "$line" 1 0
    [ "$(count_field "$line" values)" = "$crash" ] || fail "boot 1 did not record $crash Values"
    prev_summary=$summary
fi
line=$(grep "^fw-stream: boot $live_boot lane 0 recorded" console.txt || true)
check_counts live.evr "$line"
check_sequence live.evr "$line" $live_boot 1
d=$(count_field "$line" dropped) r=$(count_field "$line" recorded)
[ "$d" -gt 0 ] || fail "the ring never overflowed (nothing dropped)"
# Deterministic under -icount: a third dropped (the bursts); more only if the host stalls QEMU's
# socket for long (the UART then holds its bytes while virtual time goes on), never nearly all.
[ $((4 * d)) -lt $((3 * r)) ] || fail "$d of $r records dropped: the ring overflowed all the time"
if [ "$crash" -gt 0 ]; then
    echo "PASS: $cpu ($machine): the previous boot's crash, $prev_summary; then live, $summary"
else
    [ ! -e live.prev-boot.evr ] || fail "a previous boot's file after a cold boot"
    echo "PASS: $cpu ($machine), $stream_ms ms streamed over the UART: $summary"
fi
