#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every command that writes a file writes a FIFO (as it would a device such as /dev/null or a
# serial line) in place: the FIFO is still a FIFO afterwards and its reader got the bytes. None
# of them may rename a temporary file over it, which, run as root on /dev/null, would replace the
# device node. A FIFO stands in for the device so that a failure harms nothing.
# Usage: output_in_place.sh EVREC EVREC_DEMO DATA_DIR WORK_DIR
set -eu
evrec=$1 demo=$2 data=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
ref=$data/ccore/ref.bin
"$demo" --frames 5 --fps 0 -o "$work/demo.evr" >/dev/null
fail=0
check() { # check NAME OUT CMD...: run CMD (which writes OUT, a FIFO) with a reader on the FIFO
    name=$1 out=$2
    shift 2
    rm -f "$out" "$work/got"
    mkfifo "$out"
    cat "$out" >"$work/got" &
    reader=$!
    rc=0
    "$@" >"$work/log" 2>&1 || rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL: $name: exit status $rc"; cat "$work/log"; fail=1
    fi
    # A command that never opened the FIFO (it replaced it, or failed) leaves the reader waiting.
    (sleep 5; kill "$reader" 2>/dev/null) &
    watchdog=$!
    wait "$reader" || true
    kill "$watchdog" 2>/dev/null || true
    if [ ! -p "$out" ]; then
        echo "FAIL: $name: $out is no longer a FIFO"; ls -la "$out"; fail=1
    elif [ ! -s "$work/got" ]; then
        echo "FAIL: $name: nothing arrived through the FIFO"; fail=1
    else
        echo "ok: $name: $(wc -c <"$work/got") bytes through the FIFO"
    fi
    [ -z "$(ls -A "$work" | grep '^\.' || true)" ] || { echo "FAIL: $name: temporary files left"; ls -la "$work"; fail=1; }
}
check "export --csv" "$work/out.csv" "$evrec" export -q --csv "$work/out.csv" "$ref"
check "export --jsonl" "$work/out.jsonl" "$evrec" export -q --jsonl "$work/out.jsonl" "$ref"
check "export --ccore" "$work/out.bin" "$evrec" export -q --ccore "$work/out.bin" "$ref"
if "$evrec" export --help | grep -q -- "--perfetto"; then
    check "export --perfetto" "$work/out.pftrace" "$evrec" export -q --perfetto "$work/out.pftrace" "$work/demo.evr"
fi
check "timeline (svg)" "$work/out.svg" "$evrec" timeline "$work/demo.evr" -o "$work/out.svg"
check "timeline (png)" "$work/out.png" "$evrec" timeline "$work/demo.evr" -o "$work/out.png"
check "qs" "$work/out.qs" "$evrec" qs "$work/demo.evr" -o "$work/out.qs"
check "syst" "$work/out.syst" "$evrec" syst "$work/demo.evr" -o "$work/out.syst"
check "syst --text" "$work/out.txt" "$evrec" syst "$work/demo.evr" --text -o "$work/out.txt"
check "syst --collateral" "$work/out.xml" "$evrec" syst "$work/demo.evr" --collateral "$work/out.xml"
"$evrec" qs "$work/demo.evr" -o "$work/demo.qs" 2>/dev/null
check "qs-decode -o" "$work/out2.evr" "$evrec" qs-decode --meta "$work/demo.evr" "$work/demo.qs" -o "$work/out2.evr"
# qs-decode -o failing: onto a directory (refused before anything is written), and onto a FIFO
# whose reader goes away after one byte: the paths are left as they were.
mkdir "$work/outdir"
if "$evrec" qs-decode --meta "$work/demo.evr" "$work/demo.qs" -o "$work/outdir" >"$work/log" 2>&1; then
    echo "FAIL: qs-decode -o DIR: exit status 0"; fail=1
elif [ ! -d "$work/outdir" ]; then
    echo "FAIL: qs-decode -o DIR: the directory is gone"; fail=1
else
    echo "ok: qs-decode -o DIR: refused, the directory is left"
fi
rmdir "$work/outdir"
rm -f "$work/short"
mkfifo "$work/short"
(head -c 1 "$work/short" >/dev/null) &
shortreader=$!
"$evrec" qs-decode --meta "$work/demo.evr" "$work/demo.qs" -o "$work/short" >"$work/log" 2>&1 || true
wait "$shortreader" || true
if [ ! -p "$work/short" ]; then
    echo "FAIL: qs-decode -o FIFO cut short: $work/short is no longer a FIFO"; fail=1
else
    echo "ok: qs-decode -o FIFO cut short: the FIFO is left"
fi
rm -f "$work/short"
[ -z "$(ls -A "$work" | grep '^\.' || true)" ] || { echo "FAIL: qs-decode: temporary files left"; ls -la "$work"; fail=1; }
check "evrec-demo -o (evrec_save_path)" "$work/out.evr" "$demo" --frames 5 --fps 0 -o "$work/out.evr"
exit $fail
