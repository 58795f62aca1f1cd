#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`evrec export --csv/--jsonl` against `evrec dump --raw`, record by record and field by field.

usage: check_export.py EVREC MAKE_LARGE_TRACE REF_BIN WORKDIR

Reads the CSV with Python's csv module and the JSON Lines with json (so both must parse), and
checks for every record: time in seconds, event, class, and every field (enum values by name, or
the number when unnamed; the number in the .raw column / "value"); that the CSV row has exactly
the record's fields filled; that the JSON object lists exactly the record's fields in dump order.
Inputs: a container from make_large_trace, the same as a bare CCore stream, CCore's ref.bin.
"""
import csv
import json
import os
import re
import subprocess
import sys

TOKEN = re.compile(r'(?:"(?:[^"\\]|\\.)*"|[^\s"])+')


def unquote(s):
    """A name as cli_buf_name() printed it, back to text."""
    if not s.startswith('"'):
        return s
    out = bytearray()
    i, body = 0, s[1:-1]
    while i < len(body):
        c = body[i]
        if c == '\\' and body[i + 1] == 'x':
            out.append(int(body[i + 2:i + 4], 16))
            i += 4
        elif c == '\\':
            out += body[i + 1].encode()
            i += 2
        else:
            out += c.encode()
            i += 1
    return out.decode('utf-8', errors='replace')


def split_field(tok):
    """name=value, either side possibly quoted."""
    in_q, esc = False, False
    for i, c in enumerate(tok):
        if esc:
            esc = False
        elif c == '\\':
            esc = True
        elif c == '"':
            in_q = not in_q
        elif c == '=' and not in_q:
            return unquote(tok[:i]), unquote(tok[i + 1:])
    return None


def parse_dump(text):
    recs = []
    for line in text.splitlines():
        toks = TOKEN.findall(line)
        rec = {'time': toks[0], 'event': unquote(toks[1]), 'class': None, 'fields': []}
        for t in toks[2:]:
            f = split_field(t)
            if f:
                rec['fields'].append(f)
            elif t.startswith('[') or t == '(unverified)':
                pass
            elif not rec['fields']:
                rec['class'] = unquote(t)
        recs.append(rec)
    return recs


def run(*args):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit('%s failed (%d): %s' % (' '.join(args), p.returncode, p.stderr.decode(errors='replace')))
    return p.stdout


def check(evrec, path, work):
    dump = parse_dump(run(evrec, 'dump', '--raw', path).decode('utf-8', errors='replace'))
    csv_path = os.path.join(work, os.path.basename(path) + '.csv')
    jsonl_path = os.path.join(work, os.path.basename(path) + '.jsonl')
    run(evrec, 'export', '--quiet', '--csv', csv_path, path)
    run(evrec, 'export', '--quiet', '--jsonl', jsonl_path, path)
    with open(csv_path, newline='', encoding='utf-8') as f:
        raw = f.read()
    assert raw.endswith('\r\n') and '\n' not in raw.replace('\r\n', ''), 'CSV lines must end in CRLF'
    with open(csv_path, newline='', encoding='utf-8') as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = [dict(zip(header, r)) for r in reader if len(r) == len(header) or sys.exit('ragged CSV row %r' % r)]
    with open(jsonl_path, encoding='utf-8') as f:
        objs = [json.loads(line) for line in f]
    base = {'index', 'kind', 'time_ns', 'time_s', 'event', 'class', 'loss', 'loss_count', 'loss_offset', 'loss_message'}
    assert len(rows) == len(dump) == len(objs), '%s: %d dump lines, %d CSV rows, %d JSON objects' % (
        path, len(dump), len(rows), len(objs))
    for i, (d, row, obj) in enumerate(zip(dump, rows, objs)):
        where = '%s record %d' % (path, i)
        assert row['kind'] == 'record' and row['index'] == str(i) and obj['i'] == i, where
        assert row['time_s'] == d['time'] and obj['t_s'] == float(d['time']), where
        assert int(row['time_ns']) == obj['t_ns'] == round(float(d['time']) * 1e9), where
        assert row['event'] == obj['event'] == d['event'], where
        assert row['class'] == obj['class'] == (d['class'] or d['event']), where
        filled = {k for k, v in row.items() if v != '' and k not in base}
        want = set()
        for name, value in d['fields']:
            want.add(name)
            assert row[name] == value, '%s: %s: CSV %r, dump %r' % (where, name, row[name], value)
            j = obj['fields'][name]
            if isinstance(j, dict):
                want.add(name + '.raw')
                assert int(row[name + '.raw']) == j['value'], where
                assert (j['name'] if j['name'] is not None else str(j['value'])) == value, where
            else:
                assert isinstance(j, int) and str(j) == value, '%s: %s: JSON %r, dump %r' % (where, name, j, value)
        assert filled == want, '%s: CSV fills %s, dump has %s' % (where, sorted(filled), sorted(want))
        assert list(obj['fields']) == [n for n, _ in d['fields']], where
    print('%s: %d records agree' % (path, len(dump)))


def main():
    evrec, make_trace, ref, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    evr = os.path.join(work, 'trace.evr')
    bare = os.path.join(work, 'trace.bin')
    run(make_trace, evr, '3000')
    run(make_trace, bare, '3000', '--bare')
    for path in (evr, bare, ref):
        check(evrec, path, work)


if __name__ == '__main__':
    main()
