#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check `evrec syst` against MIPI's reference SyS-T printer `systprint`.

Usage: systprint_check.py EVREC SYSTPRINT FILE.evr WORKDIR [evrec syst options...]

Runs `evrec syst FILE --text OPTS` and `evrec syst FILE --collateral X.xml OPTS`, decodes the
lines with `systprint -c X.xml`, and checks every row against the same record of
`evrec export --jsonl` (numbers, enum values) and `evrec dump --raw` (field names, the values
dump prints): the first row is the CLOCK message (systprint: UNKNOWN_TYPE), then one row per
record, status OK, type CATALOG:ID32P32 (ID64P32 with --id64), payload `Event f=v ...` with
every field value equal; with --timestamp the message timestamp is the record's time in ticks
(within one tick of the time in ns); with --crc a checksum is shown. Prints the counts; exit
status 0 when there is no mismatch, 1 otherwise.
"""
import csv
import json
import os
import subprocess
import sys


def run(cmd, out=None):
    with open(out, "wb") if out else open(os.devnull, "wb") as f:
        subprocess.run(cmd, stdout=f, check=True)


def parse_payload(text):
    """'Event a=1 b=0x2A ns c=3' -> ('Event', {'a': 1, 'b': 42, 'c': 3})"""
    toks = text.split(" ")
    fields = {}
    for t in toks[1:]:
        if "=" in t:
            k, v = t.split("=", 1)
            fields[k] = int(v, 0)
    return toks[0], fields


def parse_dump(line):
    """dump --raw line -> (event, {path: text value})"""
    toks = line.split()
    fields = {}
    event = toks[1]
    for t in toks[2:]:
        if "=" in t:
            k, v = t.split("=", 1)
            fields[k] = v
    return event, fields


def main():
    evrec, systprint, evr, work = sys.argv[1:5]
    opts = sys.argv[5:]
    os.makedirs(work, exist_ok=True)
    txt = os.path.join(work, "msgs.txt")
    xml = os.path.join(work, "catalog.xml")
    out = os.path.join(work, "systprint.csv")
    run([evrec, "syst", evr, "--text", "-o", txt] + opts)
    run([evrec, "syst", evr, "--collateral", xml] + opts)
    run([systprint, "-c", xml, txt], out)
    jl = os.path.join(work, "records.jsonl")
    run([evrec, "export", "-q", evr, "--jsonl", jl])
    dump = subprocess.run([evrec, "dump", "--raw", evr], stdout=subprocess.PIPE, check=True, text=True).stdout
    info = subprocess.run([evrec, "info", evr], stdout=subprocess.PIPE, check=True, text=True).stdout
    freq = 0
    for line in info.splitlines():
        if line.startswith("time_freq:"):
            freq = int(line.split()[1])
    records = [json.loads(l) for l in open(jl) if '"kind"' not in l or '"record"' in l]
    records = [r for r in records if "event" in r]
    dumped = [l for l in dump.splitlines() if l.strip()]
    rows = list(csv.reader(open(out, newline="")))[1:]
    want_type = "CATALOG:ID64P32" if "--id64" in opts else "CATALOG:ID32P32"
    mismatches = 0
    checked = 0

    def bad(i, msg):
        nonlocal mismatches
        mismatches += 1
        if mismatches <= 10:
            print(f"row {i}: {msg}")

    if not rows or rows[0][0] != "UNKNOWN_TYPE":
        bad(0, f"expected the CLOCK message (UNKNOWN_TYPE) first, got {rows[0] if rows else 'nothing'}")
    rows = rows[1:]
    if len(rows) != len(records) or len(dumped) != len(records):
        bad(0, f"{len(rows)} catalog rows, {len(records)} records in the JSONL export, {len(dumped)} dump lines")
    for i, (row, rec, dl) in enumerate(zip(rows, records, dumped), start=1):
        checked += 1
        status, payload, typ = row[0], row[1], row[2]
        if status != "OK" or typ != want_type:
            bad(i, f"status {status}, type {typ}: {row}")
            continue
        event, vals = parse_payload(payload)
        if event != rec["event"]:
            bad(i, f"event {event}, expected {rec['event']}")
            continue
        want = {}
        for k, v in rec["fields"].items():
            want[k] = v["value"] if isinstance(v, dict) else v
        if vals != want:
            bad(i, f"'{payload}' != {want}")
            continue
        devent, dvals = parse_dump(dl)
        if devent != event or set(dvals) != set(vals):
            bad(i, f"dump line '{dl}' has other fields than '{payload}'")
            continue
        for k, text in dvals.items():
            f = rec["fields"][k]
            if text.lstrip("-").isdigit():
                ok = int(text) == vals[k]
            else:  # an enum value's name: the name of the value systprint printed
                ok = isinstance(f, dict) and f["name"] == text and f["value"] == vals[k]
            if not ok:
                bad(i, f"field {k}: dump '{text}', systprint {vals[k]}")
        if "--timestamp" in opts:
            ts = int(row[6], 16)
            if freq and abs(ts * 1e9 / freq - rec["t_ns"]) > 1e9 / freq + 1:
                bad(i, f"timestamp {ts} ticks is not {rec['t_ns']} ns at {freq} Hz")
        if "--crc" in opts and not row[10].startswith("0x"):
            bad(i, f"no checksum shown: {row}")
    print(f"systprint {' '.join(opts) or '(default options)'}: {len(rows) + 1} rows: 1 CLOCK (UNKNOWN_TYPE), "
          f"{checked} catalog rows checked against {len(records)} records, {mismatches} mismatches")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
