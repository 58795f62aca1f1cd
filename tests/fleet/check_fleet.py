#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The fleet test: `evrec export --clickhouse` of 500+ demo recordings (varied frame counts,
fw=1.0|1.1, some with drops, some damaged) in one command, into a clickhouse-server this test
starts itself (own config and data under WORKDIR, free local ports). The shipped queries
(examples/fleet/*.sql), grouped per recording, must answer what `evrec stats --format json` says
of each file: span counts and p99 (ticks), drops, busy time per track. A second export adds no
row. Then the same against two servers as a 2-shard cluster through Distributed tables: same
answers, rows on both shards. Exit 77 (skipped) when clickhouse-server is absent.

usage: check_fleet.py EVREC EVREC_DEMO SOURCE_DIR WORKDIR [COUNT]"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ch_server  # noqa: E402

QUERIES = ("p99_span_by_fw", "drops_by_device", "cpu_share_by_task")


def make_recordings(demo, d, count):
    """`count` demo files: frame counts 3..60, every 5th with a small buffer (drops), every 9th
    truncated, every 13th with bytes overwritten in the middle. Returns [(path, fw)]."""
    out = []
    for i in range(count):
        p = os.path.join(d, "r%04d.evr" % i)
        args = [demo, "--frames", str(3 + (i * 7) % 58), "--fps", "0", "-o", p]
        if i % 5 == 0:
            args += ["--buffer", "2K"]
        subprocess.run(args, check=True, capture_output=True)
        data = bytearray(open(p, "rb").read())
        if i % 9 == 4:
            data = data[: len(data) * 2 // 3]
        elif i % 13 == 6:
            m = len(data) // 2
            data[m:m + 24] = b"\xa5" * 24
        open(p, "wb").write(bytes(data))
        out.append((p, "1.0" if i % 2 else "1.1"))
    return out


def stats_of(evrec, path):
    r = subprocess.run([evrec, "stats", "--format", "json", path], capture_output=True, text=True)
    assert r.returncode in (0, 1), (path, r.stderr)
    return json.loads(r.stdout)


def export_cmd(evrec, url, files, extra=()):
    """One command for every file: the fw tag before the files it applies to."""
    cmd = [evrec, "export", "--clickhouse", url, "--database", "fleet", "--quiet"] + list(extra)
    for fw in ("1.0", "1.1"):
        cmd += ["--tag", "fw=" + fw, "--tag", "device=dev-" + fw]
        cmd += [p for p, f in files if f == fw]
    return cmd


def run_export(cmd):
    t = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.time() - t
    m = re.search(r"evrec export: (\d+) files: (\d+) sent, (\d+) already there.*?([\d.]+) MB sent in ([\d.]+) s "
                  r"\(([\d.]+) MB/s\)", r.stderr)
    assert m, r.stderr[-2000:]
    assert r.returncode in (0, 1), r.stderr[-2000:]  # 1: damaged files (exported as far as readable)
    return r, m, secs


def tsv(server, sql):
    return [line.split("\t") for line in server.query(sql + "\nFORMAT TSV", "fleet").splitlines()]


def per_recording(src, server):
    """The shipped queries, one line per recording; and the time each took."""
    ans, times = {}, {}
    for q in QUERIES:
        text = open(os.path.join(src, "examples", "fleet", q + ".sql")).read()
        text = re.sub(r"\b\w+ AS grp\b", "recording_id AS grp", text)
        t = time.time()
        ans[q] = tsv(server, text)
        times[q] = time.time() - t
    return ans, times


def expected(evrec, files):
    """What `evrec stats --format json` says of each file, keyed by path."""
    exp = {}
    for p, _ in files:
        j = stats_of(evrec, p)
        spans = {s["name"]: (s["count"], s.get("p99_ticks")) for s in j["spans"] if s["count"]}
        busy = {(s["name"], t["name"]): t["total_ticks"] for s in j["spans"] for t in s.get("tracks", [])
                if t["count"]}
        exp[p] = {"spans": spans, "dropped": j["dropped"] or 0, "busy": busy, "damaged": j["damage"]["ranges"] > 0}
    return exp


def compare(server, ans, exp):
    """The per-recording answers against `evrec stats`. Returns the number of values compared."""
    ids = {rid: path for rid, path in tsv(server, "SELECT toString(recording_id), file FROM recordings")}
    assert sorted(ids.values()) == sorted(exp), "every file listed once"
    got = {p: {"spans": {}, "dropped": 0, "busy": {}} for p in exp}
    for grp, span, count, _p99_ns, p99_ticks in ans["p99_span_by_fw"]:
        got[ids[grp]]["spans"][span] = (int(count), int(p99_ticks))
    for grp, dropped, _o, _d, _r in ans["drops_by_device"]:
        got[ids[grp]]["dropped"] = int(dropped)
    for grp, span, task, busy_ticks, _ns, _share in ans["cpu_share_by_task"]:
        got[ids[grp]]["busy"][(span, task)] = int(busy_ticks)
    n = 0
    for p, e in exp.items():
        g = got[p]
        assert g["spans"] == e["spans"], (p, "spans (count, p99 ticks)", g["spans"], e["spans"])
        assert g["dropped"] == e["dropped"], (p, "dropped", g["dropped"], e["dropped"])
        assert g["busy"] == e["busy"], (p, "busy ticks per track", g["busy"], e["busy"])
        n += 2 * len(e["spans"]) + 1 + len(e["busy"])
    return n


def row_counts(server, suffix=""):
    return {t: int(server.query("SELECT count() FROM %s%s" % (t, suffix), "fleet"))
            for t in ("recordings", "records", "spans", "counters", "losses")}


def wait_mutations(server):
    for _ in range(600):
        if server.query("SELECT count() FROM system.mutations WHERE database = 'fleet' AND is_done = 0") \
                .strip() == "0":
            return
        time.sleep(0.1)
    raise AssertionError("the mutations did not finish")


def partial_upload(evrec, s, files, rows):
    """An upload cut short: rows of a recording that `recordings` does not list (here: the rows of
    one recording twice, its recordings row deleted). The next export deletes them and sends it
    again: the tables hold what they held."""
    rid = s.query("SELECT toString(recording_id) FROM recordings WHERE file = '%s'" % files[1][0], "fleet").strip()
    for t in ("records", "spans", "counters", "losses"):
        s.query("INSERT INTO %s SELECT * FROM %s WHERE recording_id = %s" % (t, t, rid), "fleet")
    s.query("ALTER TABLE recordings DELETE WHERE recording_id = %s" % rid, "fleet")
    wait_mutations(s)
    assert row_counts(s)["recordings"] == rows["recordings"] - 1
    r, m, _ = run_export(export_cmd(evrec, s.url, files))
    assert int(m.group(2)) == 1 and int(m.group(3)) == len(files) - 1, r.stderr[-500:]
    wait_mutations(s)
    assert row_counts(s) == rows, ("the partial rows deleted, the recording sent once", row_counts(s), rows)


def failures(evrec, s, files):
    """ClickHouse's error text on stderr, exit 1, what was uploaded before said; a server that does
    not answer."""
    s.query("CREATE DATABASE IF NOT EXISTS broken")
    s.query("CREATE VIEW IF NOT EXISTS broken.spans AS SELECT toUInt64(0) AS recording_id")  # takes no INSERT
    cmd = [evrec, "export", "--clickhouse", s.url, "--database", "broken", "--quiet"] + [p for p, _ in files[:3]]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert re.search(r"clickhouse: INSERT INTO spans failed: HTTP \d+: .*Code: \d+", r.stderr), r.stderr
    assert "uploaded before the failure: 0 recordings" in r.stderr, r.stderr
    assert s.query("SELECT count() FROM broken.recordings").strip() == "0"
    url = "http://127.0.0.1:%d/" % ch_server.free_port()
    r = subprocess.run([evrec, "export", "--clickhouse", url, files[0][0]], capture_output=True, text=True)
    assert r.returncode == 1 and re.search(r"clickhouse: .*onnect", r.stderr), (r.returncode, r.stderr)


def attributes(evrec, demo, s, work):
    """A recording's own attributes (`evrec-demo --device/--firmware/--boot`, the ATTRS chunk) fill
    device, fw and boot with no --tag; a --tag overrides one of them."""
    p = os.path.join(work, "attrs.evr")
    subprocess.run([demo, "--frames", "5", "--fps", "0", "--device", "cam-9", "--firmware", "2.0",
                    "--boot", "b7", "-o", p], check=True, capture_output=True)
    for db, tags, want in (("attrs", [], ["cam-9", "2.0", "b7"]),
                           ("attrs_tag", ["--tag", "fw=2.1"], ["cam-9", "2.1", "b7"])):
        r = subprocess.run([evrec, "export", "--clickhouse", s.url, "--database", db, "--quiet"] + tags + [p],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        got = [row for row in s.query("SELECT device, fw, boot FROM recordings FORMAT TSV", db).splitlines()]
        assert got == ["\t".join(want)], (db, got)
        got = s.query("SELECT DISTINCT device, fw, boot FROM records FORMAT TSV", db).splitlines()
        assert got == ["\t".join(want)], (db, got)


def one_server(evrec, src, work, program, files, exp, report, demo):
    s = ch_server.Server(os.path.join(work, "single"), ch_server.free_port(), ch_server.free_port())
    try:
        s.start(program)
        r, m, secs = run_export(export_cmd(evrec, s.url, files))
        assert int(m.group(2)) == len(files) and int(m.group(3)) == 0, r.stderr[-500:]
        rows = row_counts(s)
        assert rows["recordings"] == len(files), rows
        ans, times = per_recording(src, s)
        n = compare(s, ans, exp)
        r2, m2, _ = run_export(export_cmd(evrec, s.url, files))
        assert int(m2.group(2)) == 0 and int(m2.group(3)) == len(files), r2.stderr[-500:]
        assert row_counts(s) == rows, "a second export adds no row"
        partial_upload(evrec, s, files, rows)
        failures(evrec, s, files)
        attributes(evrec, demo, s, work)
        fleet_times = {}
        for q in QUERIES:  # as shipped: per fw / device
            t = time.time()
            s.query(open(os.path.join(src, "examples", "fleet", q + ".sql")).read(), "fleet")
            fleet_times[q] = time.time() - t
        report.append("one server: %d files, rows %s; export %.2f s wall, %s MB at %s MB/s (evrec's summary); "
                      "%d values equal to evrec stats; second export: 0 rows added" %
                      (len(files), rows, secs, m.group(4), m.group(6), n))
        report.append("query times, per recording: %s; as shipped: %s" %
                      (", ".join("%s %.3f s" % kv for kv in times.items()),
                       ", ".join("%s %.3f s" % kv for kv in fleet_times.items())))
        return rows
    finally:
        s.stop()


def cluster(evrec, src, work, program, files, exp, single_rows, report):
    tcp = [ch_server.free_port(), ch_server.free_port()]
    remote = ch_server.remote_servers("fleet2", tcp)
    nodes = [ch_server.Server(os.path.join(work, "shard%d" % i), ch_server.free_port(), tcp[i], remote)
             for i in range(2)]
    try:
        for n in nodes:
            n.start(program)
        # the tables on the second node (local and Distributed), then everything through the first
        subprocess.run([evrec, "export", "--clickhouse", nodes[1].url, "--database", "fleet",
                        "--cluster", "fleet2"], check=True, capture_output=True)
        r, m, secs = run_export(export_cmd(evrec, nodes[0].url, files, ["--cluster", "fleet2"]))
        assert int(m.group(2)) == len(files), r.stderr[-500:]
        rows = row_counts(nodes[0])
        assert rows == single_rows, ("the Distributed tables hold what one server held", rows, single_rows)
        shards = [row_counts(n, "_local") for n in nodes]
        for t in rows:
            assert shards[0][t] + shards[1][t] == rows[t], (t, shards)
            assert shards[0][t] > 0 and shards[1][t] > 0, ("rows on both shards", t, shards)
        ans, times = per_recording(src, nodes[0])
        n = compare(nodes[0], ans, exp)
        r2, m2, _ = run_export(export_cmd(evrec, nodes[0].url, files, ["--cluster", "fleet2"]))
        assert int(m2.group(2)) == 0 and row_counts(nodes[0]) == rows, "a second export adds no row"
        report.append("2-shard cluster: export %.2f s wall, %s MB at %s MB/s; recordings per shard %d + %d, "
                      "records %d + %d; %d values equal; query times: %s" %
                      (secs, m.group(4), m.group(6), shards[0]["recordings"], shards[1]["recordings"],
                       shards[0]["records"], shards[1]["records"], n,
                       ", ".join("%s %.3f s" % kv for kv in times.items())))
    finally:
        for n in nodes:
            n.stop()


def main():
    evrec, demo, src, work = sys.argv[1:5]
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 520
    program = ch_server.find_server()
    if not program:
        print("SKIPPED: clickhouse-server is not installed (Debian: apt-get install clickhouse-server)")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "recordings"))
    files = make_recordings(demo, os.path.join(work, "recordings"), count)
    exp = expected(evrec, files)
    assert sum(e["dropped"] > 0 for e in exp.values()) >= count // 10, "some recordings with drops"
    assert sum(e["damaged"] for e in exp.values()) >= count // 20, "some damaged recordings"
    report = []
    rows = one_server(evrec, src, work, program, files, exp, report, demo)
    cluster(evrec, src, work, program, files, exp, rows, report)
    print("\n".join(report))
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
