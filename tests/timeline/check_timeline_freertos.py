#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The task-state lanes of `evrec timeline` on a FreeRTOS POSIX run (tests/freertos) against
`evrec stats`: each task's running time in the timeline's --layout `task` lines (ns, from the
task-state model evrec_sched) equals the CPU time `evrec stats --format json` counts for it (its
own switch-in/switch-out accounting; the POSIX run records no interrupt handler), the idle task's
equals the idle time, within 1 ns per activation (each interval is converted to ns on its own);
every task lane comes with a `task` line; lanes are in the order of the priorities the TaskCreate
records give (highest first), the idle task last.

Usage: check_timeline_freertos.py EVREC WORKLOAD   (exit 77 when WORKLOAD is empty: no kernel)
"""
import json
import os
import re
import subprocess
import sys
import tempfile


FIELD = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


def main():
    evrec, workload = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
    if not workload:
        print("skipped: no FreeRTOS workload (EVREC_FREERTOS_KERNEL_DIR is not set)")
        return 77
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        evr, lay = os.path.join(tmp, "f.evr"), os.path.join(tmp, "f.layout")
        run([workload, evr, os.path.join(tmp, "kernel.txt")])
        run([evrec, "timeline", evr, "--layout", lay, "-o", os.path.join(tmp, "f.png")])
        stats = json.loads(run([evrec, "stats", "--format", "json", evr]))
        prio = {}
        for line in run([evrec, "dump", "--event", "TaskCreate", evr]).splitlines():
            f = {k: v.strip('"') for k, v in FIELD.findall(line)}
            prio.setdefault(f["task"], int(f["priority"]))
        rows, tasks = [], {}
        with open(lay) as f:
            for line in f:
                w = line.rstrip("\n").split(" ")
                if w[0] == "row" and w[1] == "lane":
                    rows.append(" ".join(w[5:]))
                elif w[0] == "task":
                    tasks[" ".join(w[6:])] = int(w[1])
    hz = stats["clock_hz"]
    rtos = stats["rtos"]
    want = {t["name"]: (t["ticks"] * 1e9 / hz, t["activations"]) for t in rtos["tasks"]}
    # the idle task runs between the tasks' activations: at most that many intervals, +1
    want["Idle"] = (rtos["idle_ticks"] * 1e9 / hz, sum(a for _, a in want.values()) + 1)
    print("%-14s %16s %16s" % ("task", "timeline ns", "stats ns"))
    for name, (ns, acts) in sorted(want.items()):
        got = tasks.get(name)
        print("%-14s %16s %16.0f" % (name, got, ns))
        if got is None or abs(got - ns) > acts + 2:
            errors.append("%s: running %s ns in the timeline, %.0f in stats" % (name, got, ns))
    for r in rows:
        if r != "NoTask" and r not in tasks:
            errors.append("lane %s has no task line" % r)
    ranked = [r for r in rows if r in prio and r != "Idle"]
    if ranked != sorted(ranked, key=lambda r: -prio[r]):
        errors.append("lanes %s are not by priority %s" % (ranked, prio))
    if rows[-1] != "Idle":
        errors.append("the idle task is not last: %s" % rows)
    for e in errors:
        print("FAIL: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
