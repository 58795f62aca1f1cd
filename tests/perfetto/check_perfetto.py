#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check `evrec export --perfetto` end to end.

Recordings (the demo's, a bare CCore stream without tracks, a damaged one, one with drops) are
exported, the traces decoded with `protoc --decode=perfetto.protos.Trace` against
viewer-cli/perfetto/perfetto_trace.proto (the field numbers of Perfetto's own protos), and their
structure checked against what `evrec dump` prints for the same records:

- framing: the file is a Trace (concatenated length-delimited packets: protoc decodes it whole);
- one trusted_packet_sequence_id; the first packet clears the incremental state;
- a TrackDescriptor for every track used, before its first use, uuids unique, parents described;
  one lane per thread (enum names), counter tracks with a CounterDescriptor;
- every interned iid (event names, categories, annotation names, string values) defined on the
  sequence at or before its use, never redefined differently;
- every SLICE_END closes an open SLICE_BEGIN of the same track; none left open;
- timestamps never decrease and equal the records' ns (dump's times) unless raised to keep order;
- every record accounted for: each record index of the dump appears in an instant, slice begin or
  slice end, exactly the records of the dump; counter values = records with a counter field;
- every field of every record is an annotation with the value dump shows (enum names, numbers);
- flows link the FrameStage slices of one frame across threads;
- losses: drops and damage are instants on the "losses" track with their counts; damage in the
  middle of a file (a byte flipped in a STREAM chunk that is not the last) is one 'damaged'
  instant at the first record after the gap with the count of records lost.

Exit 77 (skipped) when protoc is not installed. trace_processor is not packaged by Debian, so it
is not run here: this script checks the structure that trace_processor relies on.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what, file=sys.stderr)
    return cond


# ---- protobuf text format (as protoc --decode prints it) --------------------------------------

TOKEN = re.compile(r'\s*(?:(\})|([A-Za-z_][A-Za-z0-9_]*)\s*(\{|:\s*("(?:[^"\\]|\\.)*"|[^\s]+)))')


def unescape(s):
    out = bytearray()
    i = 0
    b = s.encode("utf-8")
    while i < len(b):
        c = b[i]
        if c == 0x5C:  # backslash
            n = chr(b[i + 1])
            if n in "01234567":
                j = i + 1
                while j < len(b) and j < i + 4 and chr(b[j]) in "01234567":
                    j += 1
                out.append(int(b[i + 1:j], 8))
                i = j
                continue
            out.append({"n": 10, "t": 9, "r": 13, '"': 34, "'": 39, "\\": 92}.get(n, ord(n)))
            i += 2
            continue
        out.append(c)
        i += 1
    return out.decode("utf-8", "replace")


def parse_text(text):
    """Returns the root message as {field: [values]} (sub-messages are dicts)."""
    root = {}
    stack = [root]
    pos = 0
    n = len(text)
    while True:
        m = TOKEN.match(text, pos)
        if not m:
            rest = text[pos:].strip()
            if rest:
                raise ValueError("cannot parse text format at: " + rest[:60])
            break
        pos = m.end()
        if m.group(1):
            stack.pop()
            continue
        name = m.group(2)
        if m.group(3) == "{":
            msg = {}
            stack[-1].setdefault(name, []).append(msg)
            stack.append(msg)
        else:
            v = m.group(4)
            if v.startswith('"'):
                v = unescape(v[1:-1])
            elif re.fullmatch(r"-?\d+", v):
                v = int(v)
            stack[-1].setdefault(name, []).append(v)
    if len(stack) != 1:
        raise ValueError("unbalanced braces")
    return root


def one(msg, field, default=None):
    v = msg.get(field)
    return v[0] if v else default


# ---- running the tools --------------------------------------------------------------------

def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def decode(args, path):
    with open(path, "rb") as f:
        p = subprocess.run([args.protoc, "--decode=perfetto.protos.Trace", "-I", os.path.dirname(args.proto),
                            os.path.basename(args.proto)], stdin=f, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    if not check(p.returncode == 0, "%s: protoc cannot decode it: %s" % (path, p.stderr.decode())):
        return []
    return parse_text(p.stdout.decode("utf-8", "replace")).get("packet", [])


DUMP_LINE = re.compile(r"^#(\d+)\s+(\d+)\.(\d{9})\s+(\S+)(?:\s{2,}(\S+))?\s{2,}(.*?)\s*$")


def dump(args, path, extra=()):
    """Records as dump --raw --index shows them: index -> (ns, event, [(field, value)])."""
    p = run([args.evrec, "dump", "--raw", "--index"] + list(extra) + [path])
    recs = {}
    for line in p.stdout.decode().splitlines():
        m = re.match(r"^#(\d+)\s+(\d+)\.(\d{9})\s+(\S+)\s+(.*)$", line)
        if not m:
            continue
        idx, sec, frac, ev, rest = m.groups()
        rest = re.sub(r"\s*\(after damage: [^)]*\)$", "", rest)
        rest = re.sub(r"\s*\(unverified\)$", "", rest)
        rest = re.sub(r"\s*\[[^\]]*\]$", "", rest)  # the marker
        fields = re.findall(r"(\S+)=(\S+)", rest)
        recs[int(idx)] = (int(sec) * 1000000000 + int(frac), ev, fields)
    return recs, p.returncode


# ---- the checks -----------------------------------------------------------------------------

class Trace:
    def __init__(self, packets):
        self.packets = packets
        self.tracks = {}       # uuid -> descriptor
        self.names = {}        # interned tables: kind -> {iid: string}
        self.events = []       # (ts, track_event, resolved annotations)


def analyse(label, packets, open_at_end=0):
    """Structure checks common to every trace; returns a Trace with resolved events."""
    t = Trace(packets)
    if not check(packets, label + ": no packets"):
        return t
    first = packets[0]
    check(one(first, "sequence_flags", 0) & 1, label + ": the first packet does not clear the incremental state")
    check(one(first, "first_packet_on_sequence") == "true", label + ": first_packet_on_sequence not set")
    tables = {"event_names": {}, "event_categories": {}, "debug_annotation_names": {},
              "debug_annotation_string_values": {}}
    last_ts = None
    open_slices = {}
    for i, p in enumerate(packets):
        what = "%s: packet %d" % (label, i)
        check(one(p, "trusted_packet_sequence_id") == 1, what + ": trusted_packet_sequence_id is not 1")
        ts = one(p, "timestamp")
        if ts is not None:
            check(last_ts is None or ts >= last_ts, what + ": timestamp %d < previous %s" % (ts, last_ts))
            last_ts = ts
        idata = one(p, "interned_data")
        if idata:
            for kind, table in tables.items():
                for entry in idata.get(kind, []):
                    iid = one(entry, "iid")
                    s = one(entry, "str" if kind == "debug_annotation_string_values" else "name")
                    check(iid not in table or table[iid] == s,
                          what + ": %s iid %s redefined (%r, was %r)" % (kind, iid, s, table.get(iid)))
                    table[iid] = s
        td = one(p, "track_descriptor")
        if td:
            uuid = one(td, "uuid")
            check(uuid not in t.tracks, what + ": track uuid %s described twice" % uuid)
            parent = one(td, "parent_uuid")
            check(parent is None or parent in t.tracks, what + ": parent %s of track %s not described" % (parent, uuid))
            t.tracks[uuid] = td
        te = one(p, "track_event")
        if not te:
            continue
        check(ts is not None, what + ": track event without timestamp")
        track = one(te, "track_uuid")
        check(track in t.tracks, what + ": track %s used before its descriptor" % track)
        name = one(te, "name")
        if name is None and one(te, "name_iid") is not None:
            iid = one(te, "name_iid")
            name = tables["event_names"].get(iid)
            check(name is not None, what + ": event name iid %s not interned" % iid)
        for c in te.get("category_iids", []):
            check(c in tables["event_categories"], what + ": category iid %s not interned" % c)
        anns = {}
        for a in te.get("debug_annotations", []):
            an = one(a, "name")
            if an is None:
                an = tables["debug_annotation_names"].get(one(a, "name_iid"))
                check(an is not None, what + ": annotation name iid %s not interned" % one(a, "name_iid"))
            if "string_value_iid" in a:
                v = tables["debug_annotation_string_values"].get(one(a, "string_value_iid"))
                check(v is not None, what + ": string value iid %s not interned" % one(a, "string_value_iid"))
            else:
                v = None
                for k in ("string_value", "uint_value", "int_value", "pointer_value", "bool_value"):
                    if k in a:
                        v = one(a, k)
                        break
            anns[an] = v
        typ = one(te, "type")
        if typ == "TYPE_SLICE_BEGIN":
            open_slices.setdefault(track, []).append(name)
        elif typ == "TYPE_SLICE_END":
            check(open_slices.get(track), what + ": SLICE_END on track %s with no open slice" % track)
            if open_slices.get(track):
                open_slices[track].pop()
        elif typ == "TYPE_COUNTER":
            check(one(t.tracks.get(track, {}), "counter") is not None,
                  what + ": counter event on track %s without CounterDescriptor" % track)
            check("counter_value" in te, what + ": counter event without counter_value")
        else:
            check(typ == "TYPE_INSTANT", what + ": unexpected type %s" % typ)
        t.events.append((ts, typ, track, name, anns, te))
    left = sum(len(v) for v in open_slices.values())
    check(left == open_at_end, label + ": %d slices left open, want %d" % (left, open_at_end))
    t.names = tables
    return t


def lane_names(t):
    return {one(td, "name") for u, td in t.tracks.items()
            if one(td, "parent_uuid") == 1 and one(td, "counter") is None and one(td, "name") != "losses"}


def check_records(label, t, recs):
    """Every record of the dump in the trace, with every field and its time."""
    seen = {}
    for ts, typ, track, name, anns, te in t.events:
        if typ == "TYPE_COUNTER":
            continue
        end = typ == "TYPE_SLICE_END"
        key = "end.record" if end else "record"
        if key not in anns:
            check((t.tracks[track] and one(t.tracks[track], "name") == "losses")
                  or (end and "cut_by_damage" in anns),
                  "%s: %s event %s without a record index" % (label, typ, name))
            continue
        idx = anns[key]
        seen.setdefault(idx, []).append(typ)
        if not check(idx in recs, "%s: record %s is not in the dump" % (label, idx)):
            continue
        ns, ev, fields = recs[idx]
        check(ts >= ns, "%s: record %d at %d ns, dump says %d" % (label, idx, ts, ns))
        if ts != ns:
            check(anns.get("end.ts_clamped_ns" if end else "ts_clamped_ns") == ts - ns,
                  "%s: record %d moved by %d ns without saying so" % (label, idx, ts - ns))
        if typ == "TYPE_INSTANT":
            check(name == ev, "%s: instant of record %d named %s, dump says %s" % (label, idx, name, ev))
        prefix = "end." if end else ""
        for f, v in fields:
            got = anns.get(prefix + f)
            want = int(v, 0) if re.fullmatch(r"\d+|0x[0-9A-Fa-f]+", v) else v
            check(got == want, "%s: record %d field %s = %r, dump says %r" % (label, idx, f, got, want))
            if not isinstance(want, int):
                check(isinstance(anns.get(prefix + f + "_raw"), int),
                      "%s: record %d enum field %s without its raw value" % (label, idx, f))
        names = {k[len(prefix):] for k in anns if k.startswith(prefix) and not k.endswith("_raw")}
        names -= {"record", "marker", "unverified", "ts_clamped_ns", "unmatched_end", "span_refused"}
        if not end:
            names = {n for n in names if not n.startswith("end.")}
        check(names == {f for f, _ in fields},
              "%s: record %d annotations %s, dump fields %s" % (label, idx, sorted(names), [f for f, _ in fields]))
    check(set(seen) == set(recs), "%s: %d records in the trace, %d in the dump (missing e.g. %s)"
          % (label, len(seen), len(recs), sorted(set(recs) - set(seen))[:5]))
    return seen


def counts(t):
    c = {}
    for e in t.events:
        c[e[1]] = c.get(e[1], 0) + 1
    return c


def export(args, src, out, extra=(), expect_rc=0, label=""):
    p = run([args.evrec, "export"] + list(extra) + ["--perfetto", out, src])
    check(p.returncode == expect_rc, "%s: export exit %d (want %d): %s" % (label, p.returncode, expect_rc,
                                                                          p.stderr.decode()))
    m = re.search(r"\((\d+) open at the end\)", p.stderr.decode())
    p.open_at_end = int(m.group(1)) if m else None
    if "-q" not in extra:
        check(m, "%s: no summary line" % label)
    return p


def test_demo(args, tmp):
    src = os.path.join(tmp, "demo.evr")
    # 300 frames: some 6,000 records in 6 or more STREAM chunks whatever the machine's load (how
    # many records a frame takes depends on the threads' timing), so that the window below and a
    # chunk that is neither the first nor the last exist.
    p = run([args.demo, "-o", src, "--frames", "300", "--fps", "1000"])
    if not check(p.returncode == 0, "evrec-demo failed: " + p.stderr.decode()):
        return
    out = os.path.join(tmp, "demo.pftrace")
    p = export(args, src, out, label="demo")
    check(p.open_at_end == 0, "demo: %s spans open at the end" % p.open_at_end)
    t = analyse("demo", decode(args, out))
    recs, _ = dump(args, src)
    check(len(recs) > 1000, "demo: only %d records in the dump" % len(recs))
    seen = check_records("demo", t, recs)
    threads = {v for _, ev, fs in recs.values() for f, v in fs if f == "thread"}
    check(lane_names(t) == threads | {"EventControl"},
          "demo: lanes %s, threads %s" % (sorted(lane_names(t)), sorted(threads)))
    c = counts(t)
    queue_events = sum(1 for _, ev, _ in recs.values() if ev == "QueueEvent")
    check(c.get("TYPE_COUNTER", 0) == queue_events,
          "demo: %d counter values, %d QueueEvent records" % (c.get("TYPE_COUNTER", 0), queue_events))
    check(c.get("TYPE_SLICE_BEGIN", 0) > 0 and c.get("TYPE_SLICE_BEGIN") == c.get("TYPE_SLICE_END"),
          "demo: slice begins %s, ends %s" % (c.get("TYPE_SLICE_BEGIN"), c.get("TYPE_SLICE_END")))
    # Every span name and counter track as declared: one depth counter per queue (the schema's
    # `series: queue`), none per thread.
    begins = {e[3] for e in t.events if e[1] == "TYPE_SLICE_BEGIN"}
    check(begins == {"FrameStage", "QueueSleep", "QueueFullSleep"} or begins == {"FrameStage", "QueueSleep"},
          "demo: slice names %s" % sorted(begins))
    ctr = {one(td, "name") for td in t.tracks.values() if one(td, "counter") is not None}
    queues = {dict(fs)["queue"] for _, ev, fs in recs.values() if ev == "QueueEvent"}
    check(ctr == {q + " QueueEvent.depth" for q in queues}, "demo: counter tracks %s" % sorted(ctr))
    # Each queue's counter values are its records' depths. (The trace is in time order and the file
    # in slot order, which differ where concurrent writers stepped back: compared as multisets.)
    want, got = {}, {}
    for i, (_, ev, fs) in sorted(recs.items()):
        if ev == "QueueEvent":
            want.setdefault(dict(fs)["queue"], []).append(int(dict(fs)["depth"]))
    for e in t.events:
        if e[1] == "TYPE_COUNTER":
            got.setdefault(one(t.tracks[e[2]], "name").split(" ")[0], []).append(one(e[5], "counter_value"))
    check({k: sorted(v) for k, v in got.items()} == {k: sorted(v) for k, v in want.items()},
          "demo: counter values differ from the records' depth")
    # Accounting: instants + begins + ends cover each record once, except a record that both ends
    # one span and begins another (none in the demo: each QueueWait Woken ends one).
    check(c.get("TYPE_INSTANT", 0) + c.get("TYPE_SLICE_BEGIN", 0) + c.get("TYPE_SLICE_END", 0) == len(recs),
          "demo: %d instants + %d begins + %d ends != %d records" % (c.get("TYPE_INSTANT", 0),
          c.get("TYPE_SLICE_BEGIN", 0), c.get("TYPE_SLICE_END", 0), len(recs)))
    # FrameStage: Start..Done of one frame on one thread; flows link a frame's stages across threads.
    flows = {}
    for ts, typ, track, name, anns, te in t.events:
        if typ == "TYPE_SLICE_BEGIN" and name == "FrameStage":
            fl = te.get("flow_ids", [])
            check(len(fl) == 1, "demo: FrameStage begin without one flow id")
            if fl:
                flows.setdefault(fl[0], []).append((anns["frame.number"], one(t.tracks[track], "name")))
        if typ == "TYPE_SLICE_BEGIN" and name != "FrameStage":
            check(not te.get("flow_ids"), "demo: %s (keyed by its lane) has a flow" % name)
    check(flows, "demo: no flows")
    multi = 0
    for fid, members in flows.items():
        check(len({m[0] for m in members}) == 1, "demo: flow %s links different frames %s" % (fid, members))
        if len({m[1] for m in members}) >= 2:
            multi += 1
    check(multi >= len(flows) * 0.9, "demo: only %d of %d frame flows cross threads" % (multi, len(flows)))
    # Slices pair the right records: a FrameStage END is the Done of the frame its BEGIN started.
    stack = {}
    for ts, typ, track, name, anns, te in t.events:
        if typ == "TYPE_SLICE_BEGIN":
            stack.setdefault(track, []).append(anns)
        elif typ == "TYPE_SLICE_END" and stack.get(track):
            b = stack[track].pop()
            if b.get("type") == "Start":
                check(anns.get("end.type") == "Done" and anns.get("end.frame.number") == b.get("frame.number")
                      and anns.get("end.thread") == b.get("thread"),
                      "demo: FrameStage of frame %s ended by %s" % (b.get("frame.number"), anns))
            else:
                check(anns.get("end.type") == "Woken" and anns.get("end.thread") == b.get("thread"),
                      "demo: a sleep ended by %s" % anns)
    check(not any(one(td, "name") == "losses" for td in t.tracks.values()), "demo: losses track in an intact file")

    # A window: exactly the records dump selects.
    win = os.path.join(tmp, "window.pftrace")
    first = min(2000, len(recs) // 3)
    want = min(1000, len(recs) // 3)
    sel = ["--from", "#%d" % first, "--to", "#%d" % (first + want - 1)]
    p = export(args, src, win, sel, label="window")
    tw = analyse("window", decode(args, win), p.open_at_end)
    rw, _ = dump(args, src, sel)
    check(len(rw) == want and want > 0, "window: dump selected %d records, want %d" % (len(rw), want))
    check_records("window", tw, rw)

    # Damage: the file cut in the middle of its records.
    data = open(src, "rb").read()
    cut = os.path.join(tmp, "cut.evr")
    with open(cut, "wb") as f:
        f.write(data[:len(data) * 2 // 3])
    outc = os.path.join(tmp, "cut.pftrace")
    p = export(args, cut, outc, expect_rc=1, label="cut")
    # Slices cut by the damage stay open ("did not end"), as many as the summary says.
    tc = analyse("cut", decode(args, outc), p.open_at_end)
    losses = [e for e in tc.events if one(tc.tracks[e[2]], "name") == "losses"]
    check(any(e[3] == "damaged" and "offset" in e[4] and "message" in e[4] for e in losses),
          "cut: no 'damaged' instant with offset and message on the losses track")
    rc_, _ = dump(args, cut)
    check_records("cut", tc, rc_)

    # Damage in the middle: a byte flipped in a STREAM chunk that is not the last. The reader
    # resumes at the next SYNC point; the loss is a 'damaged' instant at the first record after the
    # gap, with the count of records lost and the first lost index.
    mid = os.path.join(tmp, "mid.evr")
    streams = stream_chunks(data)
    if check(len(streams) >= 3, "demo: %d STREAM chunks, want 3 or more" % len(streams)):
        # neither the first chunk (the loss would be the file's start) nor the last (its end):
        # a gap between intact records
        off, length = streams[max(1, len(streams) // 2 - 1)]
        bad = bytearray(data)
        bad[off + 8 + length // 2] ^= 0xFF
        with open(mid, "wb") as f:
            f.write(bad)
        outm = os.path.join(tmp, "mid.pftrace")
        p = export(args, mid, outm, expect_rc=1, label="mid")
        tm = analyse("mid", decode(args, outm), p.open_at_end)
        rm, _ = dump(args, mid)
        check_records("mid", tm, rm)
        idx = sorted(rm)
        after = [b for a, b in zip(idx, idx[1:]) if b != a + 1]
        if check(len(after) == 1, "mid: %d gaps in the dump's indices, want 1" % len(after)):
            nxt = after[0]
            prev = max(i for i in idx if i < nxt)
            lost = nxt - prev - 1
            dmg = [e for e in tm.events if one(tm.tracks[e[2]], "name") == "losses" and e[3] == "damaged"]
            check(len(dmg) == 1, "mid: %d 'damaged' instants, want 1" % len(dmg))
            check(any(e[4].get("count") == lost and e[4].get("first_lost_record") == prev + 1
                      and e[4].get("next_record") == nxt and e[0] == rm[nxt][0] and "offset" in e[4]
                      for e in dmg),
                  "mid: no 'damaged' instant with count %d, first_lost_record %d, next_record %d at %d ns: %s"
                  % (lost, prev + 1, nxt, rm[nxt][0], [(e[0], e[4]) for e in dmg]))
            # spans open at the gap end at the last record before it, none runs across it
            cut_ends = [e for e in tm.events if e[1] == "TYPE_SLICE_END" and "cut_by_damage" in e[4]]
            m = re.search(r"(\d+) spans open where records were lost to damage", p.stderr.decode())
            check(m and int(m.group(1)) == len(cut_ends) and cut_ends,
                  "mid: %d slices cut at the gap, the summary says %s" % (len(cut_ends), m and m.group(1)))
            check(all(rm[prev][0] <= e[0] < rm[nxt][0] for e in cut_ends),
                  "mid: slices cut outside %d..%d ns: %s" % (rm[prev][0], rm[nxt][0], [e[0] for e in cut_ends]))

    # Drops: a tiny buffer.
    small = os.path.join(tmp, "small.evr")
    p = run([args.demo, "-o", small, "--frames", "60", "--fps", "1000", "--buffer", "4K"])
    info = run([args.evrec, "info", small]).stdout.decode()
    m = re.search(r"^dropped:\s+(\d+)", info, re.M)
    dropped = int(m.group(1)) if m else 0
    outs = os.path.join(tmp, "small.pftrace")
    p = export(args, small, outs, label="small")
    ts_ = analyse("small", decode(args, outs), p.open_at_end)
    rs, _ = dump(args, small)
    check_records("small", ts_, rs)
    if dropped:
        last_ts = max(e[0] for e in ts_.events)
        check(any(e[3] == "dropped" and e[4].get("count") == dropped and e[0] == last_ts for e in ts_.events),
              "small: no 'dropped' instant with count %d at the last record" % dropped)
    else:
        print("note: the 4K-buffer demo dropped nothing", file=sys.stderr)


def stream_chunks(data):
    """(offset, payload length) of the container's STREAM chunks (format/FORMAT.md section 2)."""
    out, off = [], 48
    while off + 8 <= len(data):
        word = int.from_bytes(data[off:off + 4], "big")
        typ, length = word >> 24, word & 0xFFFFFF
        if typ == 0:
            break
        if typ == 1:
            out.append((off, length))
        off += 8 + length
    return out


def test_ccore(args, tmp):
    src = os.path.join(args.data, "ccore", "ref.bin")
    out = os.path.join(tmp, "ref.pftrace")
    export(args, src, out, label="ccore")
    t = analyse("ccore", decode(args, out))
    recs, _ = dump(args, src)
    check_records("ccore", t, recs)
    c = counts(t)
    check(set(c) == {"TYPE_INSTANT"}, "ccore: a file without TRACKS has only instants, got %s" % c)
    classes = {ev for _, ev, _ in recs.values()}  # ref.bin: every event is its own class
    check(lane_names(t) <= classes and lane_names(t), "ccore: lanes %s" % sorted(lane_names(t)))


def test_cyclic(args, tmp):
    """Overwritten records (cyclic buffer) and records stamped before their predecessor."""
    src = os.path.join(tmp, "cyclic.evr")
    p = run([args.fixture, src])
    m = re.search(r"overwritten (\d+)", p.stdout.decode())
    if not check(p.returncode == 0 and m, "make_pf_fixture failed: " + p.stderr.decode()):
        return
    overwritten = int(m.group(1))
    check(overwritten > 0, "cyclic: nothing overwritten")
    out = os.path.join(tmp, "cyclic.pftrace")
    p = export(args, src, out, label="cyclic")
    # The reorder window puts the records stamped 5 ticks early back in time order: none moved.
    check("written in time order" in p.stderr.decode(), "cyclic: no note on the records put in time order")
    t = analyse("cyclic", decode(args, out))
    recs, _ = dump(args, src)
    check_records("cyclic", t, recs)
    check(not [e for e in t.events if "ts_clamped_ns" in e[4]], "cyclic: records moved in time despite the window")
    order = [e[4]["record"] for e in t.events if "record" in e[4]]
    check(order != sorted(order), "cyclic: records not reordered")
    first_ts = min(e[0] for e in t.events)
    check(any(e[3] == "overwritten" and e[4].get("count") == overwritten and e[0] == first_ts
              for e in t.events if one(t.tracks[e[2]], "name") == "losses"),
          "cyclic: no 'overwritten' instant with count %d at the first record" % overwritten)
    # Without the window, the early records are moved up to their predecessor's time and say so.
    p = export(args, src, out, ["--reorder-window", "0"], label="cyclic --reorder 0")
    check("moved up to its time" in p.stderr.decode(), "cyclic --reorder 0: no note on the records moved in time")
    t = analyse("cyclic --reorder 0", decode(args, out))
    check_records("cyclic --reorder 0", t, recs)
    moved = [e for e in t.events if "ts_clamped_ns" in e[4]]
    check(moved and all(e[4]["ts_clamped_ns"] == 5 for e in moved),
          "cyclic --reorder 0: %d records moved, by %s ns" % (len(moved), sorted({e[4].get("ts_clamped_ns") for e in moved})))
    order = [e[4]["record"] for e in t.events if "record" in e[4]]
    check(order == sorted(order), "cyclic --reorder 0: records not in file order")
    p = run([args.evrec, "export", "--reorder-window", "2000000", "--perfetto", out, src])
    check(p.returncode == 2, "--reorder-window above the limit: exit %d" % p.returncode)


def test_outputs(args, tmp):
    """The output path: never truncated unless the export succeeds; refused when it is the input."""
    keep = os.path.join(tmp, "keep.pftrace")
    with open(keep, "wb") as f:
        f.write(b"precious")
    bad = os.path.join(tmp, "notatrace.evr")
    with open(bad, "wb") as f:
        f.write(b"this is not a recording at all" * 10)
    p = run([args.evrec, "export", "--perfetto", keep, bad])
    check(p.returncode == 1, "unreadable input: exit %d" % p.returncode)
    check(open(keep, "rb").read() == b"precious", "unreadable input: the existing output was changed")
    src = os.path.join(args.data, "ccore", "ref.bin")
    copy = os.path.join(tmp, "ref-copy.bin")
    shutil.copy(src, copy)
    p = run([args.evrec, "export", "--perfetto", copy, copy])
    check(p.returncode == 2, "output = input: exit %d" % p.returncode)
    check(open(copy, "rb").read() == open(src, "rb").read(), "output = input: the input was changed")
    p = run([args.evrec, "export", "--perfetto", tmp, src])
    check(p.returncode == 2, "output is a directory: exit %d" % p.returncode)
    p = run([args.evrec, "export", src])
    check(p.returncode == 2, "no output: exit %d" % p.returncode)
    p = run([args.evrec, "export", "--event", "NoSuchEvent", "--perfetto", keep, src])
    check(p.returncode == 2 and open(keep, "rb").read() == b"precious", "bad selection: exit %d" % p.returncode)
    leftovers = [n for n in os.listdir(tmp) if n.startswith(".")]
    check(not leftovers, "temporary files left behind: %s" % leftovers)
    # Standard output, and standard input.
    with open(src, "rb") as fin:
        p = subprocess.run([args.evrec, "export", "-q", "--perfetto", "-", "-"], stdin=fin,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(p.returncode == 0 and p.stdout[:1] == b"\x0a", "stdin -> stdout: exit %d" % p.returncode)
    check(not p.stderr, "-q: something on stderr: %r" % p.stderr)
    piped = os.path.join(tmp, "piped.pftrace")
    with open(piped, "wb") as f:
        f.write(p.stdout)
    ref = os.path.join(tmp, "ref2.pftrace")
    export(args, src, ref, ["-q"], label="ref2")
    a, b = decode(args, piped), decode(args, ref)
    check(len(a) == len(b) and a[1:] == b[1:], "stdin -> stdout: not the trace of the file")
    check(one(one(a[0], "track_descriptor"), "name") == "stdin", "stdin -> stdout: the file track is not 'stdin'")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--evrec", required=True)
    ap.add_argument("--demo")
    ap.add_argument("--fixture")
    ap.add_argument("--proto", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--protoc", default=shutil.which("protoc"))
    args = ap.parse_args()
    if not args.protoc:
        print("skipped: protoc is not installed (Debian: protobuf-compiler)", file=sys.stderr)
        return 77
    with tempfile.TemporaryDirectory(prefix="evrec-perfetto-") as tmp:
        if args.demo:
            test_demo(args, tmp)
        test_ccore(args, tmp)
        if args.fixture:
            test_cyclic(args, tmp)
        test_outputs(args, tmp)
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES), file=sys.stderr)
        return 1
    print("all Perfetto export checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
