#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `evrec syst` and `evrec-gen --syst-collateral` end to end: usage errors exit 2 with a message
# and write nothing; the binary stream splits into whole messages by LEN (CLOCK first, one
# CATALOG message per record); --text is the same bytes as hex lines; the collateral evrec-gen
# writes from the schema equals the one evrec writes from a recording of that schema.
# Usage: syst_cli.sh EVREC EVREC_GEN EVREC_DEMO DEMO_YAML WORK_DIR
set -eu
evrec=$1 gen=$2 demo=$3 yaml=$4 work=$5
rm -rf "$work"
mkdir -p "$work"
"$demo" --frames 10 -o "$work/demo.evr" >/dev/null
fail=0
usage() { # usage WHAT ARGS...: exit status 2, a message, no output file
    what=$1
    shift
    rc=0
    "$evrec" syst "$@" >"$work/out" 2>"$work/err" || rc=$?
    if [ $rc -ne 2 ] || [ ! -s "$work/err" ] || [ -e "$work/never" ]; then
        echo "FAIL: $what: exit $rc"; cat "$work/err"; fail=1
    else
        echo "ok: $what: $(head -1 "$work/err")"
    fi
}
usage "bad GUID" "$work/demo.evr" --guid "{1234}" -o "$work/never"
usage "module and GUID" "$work/demo.evr" --guid "{8F6A3C2E-1B4D-4E5F-9A0B-112233445566}" --module 3 -o "$work/never"
usage "unit too wide without GUID" "$work/demo.evr" --unit 16 -o "$work/never"
usage "bad severity" "$work/demo.evr" --severity loud -o "$work/never"
usage "unknown event" "$work/demo.evr" --event NoSuchEvent -o "$work/never"
usage "no file" -o "$work/never"

# binary stream vs text lines, and the message count
"$evrec" syst "$work/demo.evr" -o "$work/demo.syst" --crc --timestamp >/dev/null
"$evrec" syst "$work/demo.evr" --text --crc --timestamp >"$work/demo.txt" 2>/dev/null
records=$("$evrec" dump "$work/demo.evr" | wc -l)
python3 - "$work/demo.syst" "$work/demo.txt" "$records" <<'PY' || fail=1
import sys
data = open(sys.argv[1], "rb").read()
lines = open(sys.argv[2]).read().splitlines()
records = int(sys.argv[3])
msgs, off = [], 0
while off < len(data):
    hdr = int.from_bytes(data[off:off + 4], "little")
    assert hdr & 0x200, f"message {len(msgs)}: no LEN"
    lat = 4 + (16 if hdr & 0x800000 else 0)
    n = lat + 2 + (8 if hdr & 0x800 else 0) + (4 if hdr & 0x400 else 0) + int.from_bytes(data[off + lat:off + lat + 2], "little")
    msgs.append(data[off:off + n])
    off += n
assert off == len(data), "the stream does not end at a message boundary"
assert msgs[0][0] & 0xF == 8, "CLOCK is not first"
assert all(m[0] & 0xF == 3 for m in msgs[1:]), "not all CATALOG after the CLOCK"
assert len(msgs) == records + 1, f"{len(msgs)} messages for {records} records"
want = ["SYS-T RAW DATA: " + m.hex().upper() for m in msgs]
assert lines == want, "--text differs from the binary stream"
print(f"ok: {len(msgs)} messages split by LEN, CLOCK first, --text matches")
PY

# the collateral from the schema = the one from a recording of it
"$gen" "$yaml" -o "$work/gen" --syst-collateral "$work/gen.xml" --syst-id64 --syst-module 9
"$evrec" syst "$work/demo.evr" --collateral "$work/file.xml" --id64 --module 9 --client demo
if cmp -s "$work/gen.xml" "$work/file.xml"; then
    echo "ok: evrec-gen --syst-collateral = evrec syst --collateral"
else
    echo "FAIL: the collateral of evrec-gen differs"; diff "$work/gen.xml" "$work/file.xml" | head; fail=1
fi
exit $fail
