#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The example firmware streaming over its RTT up-channel (app/fw_rtt_main.c), read through QEMU's
# GDB stub by `evrec record gdb:127.0.0.1:PORT --elf evrec-fw-rtt.elf`: QEMU starts halted (-S),
# evrec record finds the control block by its symbol, polls it (interrupt, read, continue) and
# writes out.evr; the firmware overflows its ring on purpose in bursts, drains until its S_END
# went out and the host read it, and prints its counts through semihosting. Checked: for its one
# lane, records recorded on the target == records in the file + records reported lost, exactly;
# the losses are the target's own (skip mode loses nothing in transport); the file is intact;
# every burst of Value records arrives as a prefix 0, 1, 2, ... (drop-newest, nothing shown that
# was not sent, nothing out of order).
#
#   fw_rtt_gdb_test.sh ROOT BUILD_DIR EVREC_GEN EVREC CPU CLOCK
#
# Exit status: 0 pass, 1 fail, 77 skipped because qemu-system-arm or arm-none-eabi-gcc is not
# installed.
set -eu
[ $# -eq 6 ] || { echo "usage: $0 ROOT BUILD_DIR EVREC_GEN EVREC CPU CLOCK" >&2; exit 2; }
root=$1 b=$2 gen=$3 evrec=$4 cpu=$5 clock=$6

. "$root/tests/ports/fw_common.sh"
fw_need_tools
fw_build "$cpu" evrec-fw-rtt.elf -DEVREC_FW_CLOCK="$clock"
elf=$b/evrec-fw-rtt.elf
fw_run_dir "$b/run-rtt"

# A port nobody listens on: QEMU exits at once when it cannot bind; then try another.
qemu_pid=
for try in 1 2 3 4 5; do
    port=$(( 20000 + ($$ * 7 + try * 131) % 30000 ))
    qemu-system-arm -M mps2-an385 $fw_qemu_opts -serial none -icount shift=4 -gdb tcp:127.0.0.1:$port -S \
        -kernel "$elf" >console.txt 2>&1 &
    qemu_pid=$!
    sleep 1
    if kill -0 "$qemu_pid" 2>/dev/null; then
        break
    fi
    wait "$qemu_pid" || true
    qemu_pid=
done
[ -n "$qemu_pid" ] || { cat console.txt; fail "QEMU did not start its GDB stub"; }

rc=0
timeout 120 "$evrec" record --elf "$elf" -o out.evr "gdb:127.0.0.1:$port" 2>record.txt || rc=$?
cat record.txt
qrc=0
wait "$qemu_pid" || qrc=$?
cat console.txt
[ "$rc" -eq 0 ] || fail "evrec record exited with status $rc"
[ "$qrc" -eq 0 ] || fail "QEMU (the firmware) exited with status $qrc"

line=$(grep '^fw-rtt: recorded' console.txt) || fail "no summary line on the console"
val() { echo "$line" | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }
recorded=$(val recorded) sent=$(val sent) dropped=$(val dropped)
echo "$line" | grep -q ' done$' || fail "the firmware did not finish its stream (S_END not sent or not read)"

"$evrec" info out.evr >info.txt || { cat info.txt; fail "evrec info out.evr"; }
cat info.txt
in_file=$(awk '$1 == "records:" { v = $2; sub(/;$/, "", v); print v }' info.txt)
lost=$(awk '$1 == "dropped:" { print $2 }' info.txt)
grep -q '^damage: *intact' info.txt || fail "the file is damaged"
echo "accounting, lane 0: recorded $recorded on the target = $in_file in the file + $lost reported lost" \
     "(target: sent $sent, dropped $dropped)"
[ "$recorded" -gt 0 ] && [ "$dropped" -gt 0 ] || fail "the firmware was to overflow its ring on purpose"
[ $((in_file + lost)) -eq "$recorded" ] || fail "recorded $recorded != in file $in_file + lost $lost"
[ "$in_file" -eq "$sent" ] || fail "the file has $in_file records, the target sent $sent"
[ "$lost" -eq "$dropped" ] || fail "reported lost $lost, the target dropped $dropped (loss in transport?)"

"$evrec" dump out.evr >dump.txt || fail "evrec dump out.evr"
# Value records: each burst arrives as 0, 1, 2, ... up to where the ring was full.
awk '$2 == "Value" {
    split($3, v, "="); x = v[2] + 0
    if (x != 0 && x != prev + 1) { printf "FAIL: Value %d after %d (record %d)\n", x, prev, NR; exit 1 }
    if (x == 0) bursts++
    prev = x; n++
}
END { if (bursts < 1) { print "FAIL: no burst of Value records"; exit 1 }
      printf "%d Value records in %d bursts, each a prefix 0, 1, 2, ...\n", n, bursts }' dump.txt || exit 1
grep '^evrec: gdb:' record.txt || fail "evrec record did not say what polling cost the target"
echo "PASS: $cpu: $recorded recorded = $in_file in the file + $lost lost (the target's own drops)"
