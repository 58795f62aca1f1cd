#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The demo's recording (TRACKS, COUNTER_SERIES and ATTRS chunks before the stream, lanes of
# threads) has an INDEX chunk whose every entry names its SYNC chunk (FORMAT.md section 2.5), and
# a seek through it prints no warning.
#   index_demo.sh EVREC EVREC_DEMO WORK_DIR
set -eu
evrec=$1 demo=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
"$demo" -o "$work/demo.evr" --frames 120 --device cam-1 --firmware 1.2 >/dev/null
"$evrec" index --check "$work/demo.evr" >"$work/check.txt" 2>&1 || {
    cat "$work/check.txt"
    echo "FAIL: evrec index --check"
    exit 1
}
grep -q "each one matches its SYNC chunk" "$work/check.txt" || {
    cat "$work/check.txt"
    echo "FAIL: no index checked"
    exit 1
}
"$evrec" dump "$work/demo.evr" --from 300ms --limit 3 >"$work/dump.txt" 2>"$work/dump.err"
if [ -s "$work/dump.err" ]; then
    cat "$work/dump.err"
    echo "FAIL: a seek through the index warned"
    exit 1
fi
[ "$(wc -l <"$work/dump.txt")" -eq 3 ] || { echo "FAIL: dump --from gave no 3 records"; exit 1; }
rm -rf "$work"
echo "ok"
