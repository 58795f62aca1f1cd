# SPDX-License-Identifier: Apache-2.0
# Checks shared by the streaming firmware's tests (sourced by fw_stream_test.sh): a file that
# evrec record wrote against the counts the firmware printed (app/fw_stream_main.c):
#
#   fw-stream: boot B lane 0 recorded R sent S dropped D values V irqs I ticks T
#
# check_counts FILE LINE LOST_OK: `evrec info FILE` gives records N and dropped L (the target's
#   drops plus the records lost in transport); R = N + L exactly, L = D, N = S (LOST_OK=0: nothing
#   may be lost in transport) or N + lost = S.
# check_sequence FILE LINE BOOT STOP: in `evrec dump FILE`, the Value records carry BOOT << 24 |
#   seq with seq strictly increasing and below V, the TimerIrq counts strictly increase within
#   1..I, the first record is EventControl Start and, STOP=1, the last is EventControl Stop.
# Both set $summary.

count_field() { # LINE KEY
    echo "$1" | awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'
}

info_field() { # INFO_FILE KEY
    awk -v k="$2" '$1 == k { v = $2; sub(/;$/, "", v); print v }' "$1"
}

check_counts() {
    file=$1 line=$2
    [ -n "$line" ] || fail "no counts line from the firmware"
    r=$(count_field "$line" recorded) s=$(count_field "$line" sent) d=$(count_field "$line" dropped)
    "$evrec" info "$file" >"$file.info" || { cat "$file.info"; fail "evrec info $file"; }
    cat "$file.info"
    n=$(info_field "$file.info" records:) l=$(info_field "$file.info" dropped:)
    grep -q '^damage: *intact' "$file.info" || fail "$file is damaged"
    echo "accounting of $file, lane 0: recorded on the target $r = records in the file $n + reported lost $l" \
         "(target: sent $s, dropped $d)"
    [ "$r" -eq $((n + l)) ] || fail "recorded $r != $n in the file + $l reported lost"
    [ "$n" -eq "$s" ] || fail "the file has $n records, the target sent $s (lost in transport)"
    [ "$l" -eq "$d" ] || fail "the file reports $l lost, the target dropped $d"
    summary="recorded $r = $n in the file + $l dropped"
}

check_sequence() {
    file=$1 line=$2 boot=$3 stop=$4
    v=$(count_field "$line" values) i=$(count_field "$line" irqs)
    "$evrec" dump "$file" >"$file.dump" || fail "evrec dump $file"
    awk -v boot="$boot" -v values="$v" -v irqs="$i" -v stop="$stop" '
    function bad(m) { print "FAIL: " m; failed = 1; exit 1 }
    NR == 1 && !($2 == "EventControl" && $3 == "type=Start") { bad("the first record is not Start: " $0) }
    $2 == "Value" {
        split($3, f, "="); x = f[2] + 0
        if (int(x / 16777216) != boot) bad("record " NR ": a Value of boot " int(x / 16777216) ": " $0)
        x %= 16777216
        if (nv++ && x <= lastv) bad("record " NR ": Value " x " after " lastv)
        if (x >= values) bad("record " NR ": Value " x ", the firmware recorded " values)
        lastv = x
    }
    $2 == "TimerIrq" {
        split($3, f, "="); x = f[2] + 0
        if (ni++ && x <= lasti) bad("record " NR ": TimerIrq " x " after " lasti)
        if (x < 1 || x > irqs) bad("record " NR ": TimerIrq " x ", the firmware counted " irqs)
        lasti = x
    }
    { last = $2 " " $3 }
    END {
        if (failed) exit 1
        if (stop && last != "EventControl type=Stop") bad("the last record is not Stop: " last)
        printf "sequence of %s: %d Values of %d, %d TimerIrq of %d, in order, none unknown\n", FILENAME, nv, values, ni, irqs
    }' "$file.dump" || fail "the records of $file are not the firmware's sequence"
}
