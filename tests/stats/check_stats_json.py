#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`evrec stats` on a demo recording, end to end: the text shows the span and counter tables,
and `--format json` is one valid JSON object whose spans agree with the demo's own report (every
delivered frame passes every stage: FrameStage counts one span per frame per stage); the demo is
not a kernel trace, so it has no "sched" key.

check_sched(j) checks the "sched" object of a kernel trace (the task-state model's figures):
its keys and their consistency (each core's times add up to the trace, the per-core times of a
task add up to its CPU time, percentiles in order); tests/freertos and tests/threadx call it on
the kernels' traces."""
import json
import re
import subprocess
import sys
import tempfile
import os



def _dur(o, k):
    assert isinstance(o[k + "_ticks"], int) and o[k + "_ticks"] >= 0, (k, o)
    assert k + "_ns" in o, (k, o)
    return o[k + "_ticks"]


def _latency(x):
    assert set(x) >= {"count", "percentiles"}, x
    if x["count"] == 0:
        assert x["percentiles"] is None, x
        return
    assert x["percentiles"] in ("exact", "sketch"), x
    assert _dur(x, "p50") <= _dur(x, "p90") <= _dur(x, "p99") <= _dur(x, "max") <= _dur(x, "total"), x
    assert x["worst_begin_index"] <= x["worst_end_index"], x


def check_sched(j):
    """The "sched" object of a kernel trace: keys, types and consistency. Returns it."""
    s = j["sched"]
    span = _dur(s, "span")
    assert s["percentiles"] in ("exact", "sketch") and isinstance(s["anomalies"], int), s
    per_task = {}
    for c in s["cores"]:
        parts = [_dur(c, k) for k in ("task", "isr", "idle", "kernel", "unknown")]
        assert sum(parts) == span, ("core %d: task+isr+idle+kernel+unknown != span" % c["core"], parts, span)
        assert 0.0 <= c["load"] <= 100.0 and isinstance(c["switches"], int), c
        assert sum(_dur(t, "cpu") for t in c["tasks"]) == c["task_ticks"], c
        for t in c["tasks"]:
            per_task[t["task"]] = per_task.get(t["task"], 0) + t["cpu_ticks"]
    names = set()
    for t in s["tasks"]:
        assert t["task"] != 0, "idle is not a task here"
        assert isinstance(t["name"], (str, type(None))) and isinstance(t["deleted"], bool), t
        assert _dur(t, "cpu") == per_task.get(t["task"], 0), (t, per_task.get(t["task"]))
        assert abs(t["share"] - 100.0 * t["cpu_ticks"] / span) < 1e-6 if span else True, t
        _latency(t["ready_after_wakeup"])
        _latency(t["ready_after_preemption"])
        names.add(t["task"])
    cpus = [t["cpu_ticks"] for t in s["tasks"]]
    assert cpus == sorted(cpus, reverse=True), "tasks by descending CPU time"
    for w in s["blocked"]:
        assert w["on"] in ("object", "delay", "suspended", "unknown"), w
        assert (w["event"] is not None) == (w["on"] == "object") and (w["object"] is not None) == (w["on"] == "object"), w
        assert w["count"] > 0 and _dur(w, "max") <= _dur(w, "total"), w
    return s


def main():
    evrec, demo = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "demo.evr")
        out = subprocess.run([demo, "--frames", "40", "--fps", "1000", "-o", path],
                             check=True, capture_output=True, text=True).stdout
        m = re.search(r"(\d+) captured, (\d+) delivered", out)
        assert m, out
        delivered = int(m.group(2))
        m = re.search(r"\((\d+) stages", out)
        stages = int(m.group(1)) if m else 4
        text = subprocess.run([evrec, "stats", path], check=True, capture_output=True, text=True).stdout
        assert "spans: begin to end" in text, text
        assert re.search(r"^  FrameStage \(all\) +%d " % (delivered * stages), text, re.M), text
        assert "QueueEvent.depth (all)" in text, text
        raw = subprocess.run([evrec, "stats", "--format", "json", path], check=True, capture_output=True).stdout
        j = json.loads(raw.decode("utf-8"))
        assert j["error"] is None and j["clock_hz"] > 0, j
        assert j["rtos"] is None
        assert "sched" not in j, "not a kernel trace: no sched key"
        spans = {s["name"]: s for s in j["spans"]}
        fs = spans["FrameStage"]
        assert fs["track_field"] == "thread"
        assert fs["count"] == delivered * stages, (fs["count"], delivered, stages)
        assert fs["percentiles"] == "exact"
        assert len(fs["tracks"]) == stages
        for t in fs["tracks"]:
            assert t["count"] == delivered, t
            assert t["min_ticks"] <= t["p50_ticks"] <= t["p90_ticks"] <= t["p99_ticks"] <= t["max_ticks"], t
        assert sum(t["total_ticks"] for t in fs["tracks"]) == fs["total_ticks"]
        assert fs["min_ticks"] <= fs["p50_ticks"] <= fs["p99_ticks"] <= fs["max_ticks"]
        # The longest is where it says: dump from its begin index shows a FrameEvent Start.
        idx = fs["longest"]["begin_index"]
        first = subprocess.run([evrec, "dump", "--from", "#%d" % idx, "-n", "1", path], check=True,
                               capture_output=True, text=True).stdout
        assert "FrameEvent" in first and "type=Start" in first, first
        c = j["counters"][0]
        assert (c["event"], c["field"], c["series_field"]) == ("QueueEvent", "depth", "queue"), c
        # One series per queue (the schema's `series: queue`), never per thread; they share the samples.
        names = {x["name"] for x in c["series"]}
        assert names <= {"FreePool", "ToProcess", "ToEncode", "ToSink"} and len(names) >= 2, c["series"]
        assert sum(x["samples"] for x in c["series"]) == c["samples"], c
        assert c["min"] <= c["time_weighted_mean"] <= c["max"], c
        ev = {e["name"]: e for e in j["events"]}
        assert ev["FrameEvent"]["count"] >= 2 * delivered * stages, ev["FrameEvent"]
        # A selection: the JSON says so, and the bad --format is a usage error.
        sel = json.loads(subprocess.run([evrec, "stats", "--format", "json", "--limit", "10", path], check=True,
                                        capture_output=True).stdout)
        assert sel["selection"]["records"] == 10 and sel["selection"]["stopped_because"] == "limit", sel["selection"]
        bad = subprocess.run([evrec, "stats", "--format", "xml", path], capture_output=True, text=True)
        assert bad.returncode == 2 and "--format" in bad.stderr, bad
    print("ok")


if __name__ == "__main__":
    main()
