#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`evrec stats` on a demo recording, end to end: the text shows the span and counter tables,
and `--format json` is one valid JSON object whose spans agree with the demo's own report (every
delivered frame passes every stage: FrameStage counts one span per frame per stage)."""
import json
import re
import subprocess
import sys
import tempfile
import os

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
    assert c["min"] <= c["time_weighted_mean"] <= c["max"], c
    # One series per queue (the schema's `series: queue`), never per thread; they share the samples.
    names = {x["name"] for x in c["series"]}
    assert names <= {"FreePool", "ToProcess", "ToEncode", "ToSink"} and len(names) >= 2, c["series"]
    assert sum(x["samples"] for x in c["series"]) == c["samples"], c
    ev = {e["name"]: e for e in j["events"]}
    assert ev["FrameEvent"]["count"] >= 2 * delivered * stages, ev["FrameEvent"]
    # A selection: the JSON says so, and the bad --format is a usage error.
    sel = json.loads(subprocess.run([evrec, "stats", "--format", "json", "--limit", "10", path], check=True,
                                    capture_output=True).stdout)
    assert sel["selection"]["records"] == 10 and sel["selection"]["stopped_because"] == "limit", sel["selection"]
    bad = subprocess.run([evrec, "stats", "--format", "xml", path], capture_output=True, text=True)
    assert bad.returncode == 2 and "--format" in bad.stderr, bad
print("ok")
