#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check QSPY's view of an evrec QS stream against `evrec dump` (format/qs/QS.md section 8).

usage: qspy_names.py QSPY.txt DUMP.txt

QSPY.txt: what `qspy -f STREAM.qs -k -o` wrote (QSPY 7.4.0); DUMP.txt: `evrec dump FILE.evr` of
the records the stream carries (the same file for `evrec qs FILE.evr`). Pairs QSPY's application
records (EVREC_LOST and EvrecTimeSync lines aside) with the dump lines in order and counts the fields that the dump
shows by name: named by QSPY (the same text, or `name#value` for a run-time name sent inline)
or not. Also sums the EVREC_LOST counts and counts ERROR lines. Exit 1 when a field is unnamed.
A stream that lost records (fewer QSPY records than dump lines) is paired as an in-order
subsequence: each QSPY record with the next dump line of the same event whose numbers agree.
"""
import re
import sys


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    qspy = open(sys.argv[1], errors='replace').read().splitlines()
    dump = [l for l in open(sys.argv[2], errors='replace').read().splitlines() if l.strip()]
    apps = [l.split() for l in qspy if re.match(r'^\d{10} ', l) and ' EVREC_LOST ' not in l and ' EvrecTimeSync ' not in l]
    lost = {}
    for l in qspy:
        m = re.match(r'^\d{10} EVREC_LOST (\S+) (\d+)', l)
        if m:
            lost[m.group(1)] = lost.get(m.group(1), 0) + int(m.group(2))
    errors = sum(1 for l in qspy if 'ERROR' in l)
    number = re.compile(r'-?[0-9.]+|0x[0-9A-Fa-f]+')

    def num(x):
        return int(x, 16) if x.startswith('0x') else float(x)

    def agree(v, t):  # a dump value and what QSPY shows for it could be the same field value
        if number.fullmatch(v):
            return number.fullmatch(t) is not None and num(v) == num(t)
        return t == v or re.fullmatch(re.escape(v) + r'#\d+', t) is not None or number.fullmatch(t) is not None

    def parse(line):
        ev = line.split()[1]
        return ev, re.findall(r'(\S+)=(\S+)', line)

    def values(toks, fields):
        vals = toks[2:]
        if len(vals) == len(fields) + 1:  # --classes: the event type first
            return toks[2], vals[1:]
        return toks[1], vals

    pairs = []
    if len(apps) == len(dump):
        pairs = [(t, parse(l)[1]) for t, l in zip(apps, dump)]
    elif len(apps) < len(dump):
        j = 0
        for toks in apps:
            while j < len(dump):
                ev, fields = parse(dump[j])
                j += 1
                name, vals = values(toks, fields)
                if name != ev or len(vals) != len(fields):
                    continue
                if all(agree(v, t) for (_, v), t in zip(fields, vals)):
                    pairs.append((toks, fields))
                    break
            else:
                print(f'QSPY record not found in the dump: {" ".join(toks)}', file=sys.stderr)
                return 2
    else:
        print(f'{len(apps)} QSPY records but {len(dump)} dump lines: not the same records', file=sys.stderr)
        return 2
    named = unnamed = 0
    where = {}
    for toks, fields in pairs:
        _, vals = values(toks, fields)
        for (key, value), shown in zip(fields, vals):
            if re.fullmatch(r'-?[0-9.]+|0x[0-9A-Fa-f]+', value):
                continue  # a number in the dump too
            if shown == value or re.fullmatch(re.escape(value) + r'#\d+', shown):
                named += 1
            else:
                unnamed += 1
                where[(toks[1], key)] = where.get((toks[1], key), 0) + 1
    print(f'{len(apps)} records; fields with a name: {named} named by QSPY, {unnamed} shown as numbers; '
          f'EVREC_LOST: {lost or "none"}; ERROR lines: {errors}')
    for (rec, key), n in sorted(where.items()):
        print(f'  {rec} {key}: {n} unnamed')
    return 1 if unnamed else 0


if __name__ == '__main__':
    sys.exit(main())
