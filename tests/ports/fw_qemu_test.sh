#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The example firmware on an emulated MCU: build examples/firmware for CPU with
# timestamp source CLOCK, run it on QEMU's mps2-an385 (Cortex-M3; ARMv6-M code runs on it
# unchanged), let it save its recording through semihosting, and check the file with
# `evrec info` and `evrec dump`: event names (static and run-time enums), counts equal to what
# the firmware reports, time_freq, and restored times (timer interrupt every 0.5 ms, Tick every
# 10 ms, no record out of order by more than an interrupt, no jump). QEMU runs with -icount
# shift=4: virtual time advances 16 ns per executed instruction, and with the host clock only
# while the CPU sleeps in WFI. A loaded host still delivers some interrupts late (the mean
# period was +27% on a CI machine without -icount, up to +8% with it under two CPU hogs), so
# the periods checked are medians of the intervals, which stay exact. sleep=off would be fully
# deterministic but its CMSDK timer then loses every other interrupt.
#
#   fw_qemu_test.sh ROOT BUILD_DIR EVREC_GEN EVREC CPU CLOCK
#
# Exit status: 0 pass, 1 fail, 77 skipped because qemu-system-arm or arm-none-eabi-gcc is not
# installed.
set -eu
[ $# -eq 6 ] || { echo "usage: $0 ROOT BUILD_DIR EVREC_GEN EVREC CPU CLOCK" >&2; exit 2; }
root=$1 b=$2 gen=$3 evrec=$4 cpu=$5 clock=$6
rounds=500        # FW_ROUNDS of app/fw_main.c
jobs="checksum fibonacci popcount xorshift"

. "$root/tests/ports/fw_common.sh"
fw_need_tools
fw_build "$cpu" evrec-fw.elf -DEVREC_FW_CLOCK="$clock"
fw_run_dir "$b/run"
rc=0
timeout 120 qemu-system-arm -M mps2-an385 $fw_qemu_opts -serial none -icount shift=4 -kernel "$b/evrec-fw.elf" \
    >console.txt 2>&1 || rc=$?
cat console.txt
[ "$rc" -eq 0 ] || fail "the firmware exited with status $rc"
line=$(grep '^fw: board' console.txt) || fail "no summary line on the console"
recorded=$(echo "$line" | awk '{ for (i = 1; i < NF; i++) if ($i == "recorded") print $(i + 1) }')
dropped=$(echo "$line" | awk '{ for (i = 1; i < NF; i++) if ($i == "dropped") print $(i + 1) }')
irqs=$(echo "$line" | awk '{ for (i = 1; i < NF; i++) if ($i == "timer_irqs") print $(i + 1) }')
[ "$dropped" = 0 ] || fail "the firmware dropped $dropped events"
[ -s fw.evr ] || fail "no fw.evr written through semihosting"

"$evrec" info fw.evr >info.txt || { cat info.txt; fail "evrec info fw.evr"; }
cat info.txt
field() { awk -v k="$1" '$1 == k { v = $2; sub(/;$/, "", v); print v }' info.txt; }
[ "$(field time_freq:)" = 25000000 ] || fail "time_freq is not 25000000 Hz"
[ "$(field records:)" = "$recorded" ] || fail "evrec info counts $(field records:) records, firmware $recorded"
[ "$(field dropped:)" = 0 ] || fail "evrec info reports drops"
grep -q '^damage: *intact' info.txt || fail "the file is damaged"
count_of() { awk -v e="$1" '$2 == e { print $NF }' info.txt; }
[ "$(count_of TimerIrq)" = "$irqs" ] || fail "TimerIrq count $(count_of TimerIrq), firmware $irqs"
[ "$(count_of JobRun)" = $((4 * rounds)) ] || fail "JobRun count $(count_of JobRun)"
[ "$(count_of ContextSwitch)" = $((2 * rounds)) ] || fail "ContextSwitch count $(count_of ContextSwitch)"

"$evrec" dump fw.evr >dump.txt || fail "evrec dump fw.evr"
head -12 dump.txt
for j in $jobs; do
    n=$(grep -c " job=$j " dump.txt || true)
    [ "$n" = "$rounds" ] || fail "job=$j appears $n times, expected $rounds (run-time enum names)"
done
n=$(grep -c 'ContextSwitch *kind=Sleep .*\[Down\]' dump.txt || true)
[ "$n" = "$rounds" ] || fail "ContextSwitch kind=Sleep [Down] appears $n times"
n=$(grep -c 'ContextSwitch *kind=Wake .*\[Up\]' dump.txt || true)
[ "$n" = "$rounds" ] || fail "ContextSwitch kind=Wake [Up] appears $n times"

# Times: seconds since Start, restored from the 32-bit stamps.
awk -v irqs="$irqs" '
function bad(m) { print "FAIL: " m; failed = 1; exit 1 }
{
    t = $1 + 0
    if (NR > 1 && t < prev - 0.001) bad(sprintf("record %d at %.9f s is %.6f s before the previous one", NR, t, prev - t))
    if (NR > 1 && t > prev + 0.05) bad(sprintf("record %d at %.9f s jumps %.6f s", NR, t, t - prev))
    prev = t
}
$2 == "TimerIrq" {
    split($3, c, "=")
    if (c[2] != ++irq) bad(sprintf("TimerIrq count=%s, expected %d", c[2], irq))
    if (irq > 1 && t <= last_irq) bad(sprintf("TimerIrq %d not after the previous one", irq))
    if (irq == 1) first_irq = t
    last_irq = t
}
$2 == "EventControl" && $3 == "type=Tick" {
    if (ticks == 0) first_tick = t
    last_tick = t
    ticks++
}
END {
    if (failed) exit 1
    if (irq != irqs) bad(sprintf("%d TimerIrq records, firmware counted %d", irq, irqs))
    if (ticks < 10) bad("fewer than 10 EventControl Tick records")
    printf "mean timer interrupt period %.7f s, %d ticks, mean tick period %.7f s\n", (last_irq - first_irq) / (irq - 1), ticks, (last_tick - first_tick) / (ticks - 1)
}' dump.txt || exit 1
# Median interval between consecutive records of one kind (dump's first column, seconds).
median() {
    awk -v sel="$1" '$2 " " $3 ~ sel { if (n++) print $1 - p; p = $1 }' dump.txt | sort -g |
        awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : 0) }'
}
irq_p=$(median '^TimerIrq ')
tick_p=$(median '^EventControl type=Tick')
echo "median timer interrupt period $irq_p s (0.0005 expected), median tick period $tick_p s (0.01 expected)"
# A wrong time_freq, a lost SysTick period or a misread counter shows as a factor, a jump or a
# step back (above); 5% is room for a few instructions of interrupt latency.
awk -v p="$irq_p" 'BEGIN { exit !(p >= 0.000475 && p <= 0.000525) }' ||
    fail "the median timer interrupt period is not 0.5 ms +- 5%"
awk -v q="$tick_p" 'BEGIN { exit !(q >= 0.0095 && q <= 0.0105) }' ||
    fail "the median Tick period is not 10 ms +- 5%"
echo "PASS: $cpu, timestamp $clock: $recorded records, names and times as recorded"
