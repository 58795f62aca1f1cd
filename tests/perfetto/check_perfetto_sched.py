#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check the scheduling data `evrec export --perfetto` writes for a kernel trace.

The trace is decoded with `protoc --decode=perfetto.protos.Trace` against
viewer-cli/perfetto/perfetto_trace.proto (field numbers of Perfetto's ftrace_event_bundle.proto,
ftrace_event.proto, sched.proto, process_tree.proto) and its sched_switch / sched_waking events
compared:

- on the two-core synthetic schedule (timeline_rtos_trace smp, tests/timeline/rtos_trace.c) with
  the sequence that schedule must give, event for event (cpu, time, prev, prev_state, next);
- on that schedule and on a FreeRTOS POSIX run and a ThreadX Linux run (when --freertos and
  --threadx give their workloads, tests/freertos and tests/threadx) with the
  switches derived from `evrec dump` by the README's rules ("Scheduling"), independently of the
  task-state model: per lane, a TaskSwitchOut directly followed by a TaskSwitchIn is one switch
  at the switch-in, prev_state from the switch-out's reason (Preempted R+, Yield R, Blocked and
  Delay S, Suspended T, Exit X), a switch-in without a switch-out preempts (R+), a switch-out
  followed by anything else switches to the swapper, a switch-in of a task running on another
  core ends it there (to the swapper, R); the idle task is the swapper (pid 0) and always leaves
  runnable;
- wake-ups: every sched_waking is at a record that wakes that task (TaskReady, or an Unblock /
  Timeout operation naming it), in the bundle of that record's lane, with the task running there
  as the waker (FtraceEvent.pid, which trace_processor takes as the waker);
- threads: one ProcessTree thread per task, pid = task value + 1, in the file's process (pid 1);
  every pid in a switch is described.

Exit 77 (skipped) without protoc. trace_processor is not run: Debian does not package it.
"""
import argparse
import ctypes
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_perfetto as cp  # noqa: E402  (the protoc text-format parser and check())

R, S, T, X, RP = 0x0, 0x1, 0x4, 0x10, 0x800
REASON_STATE = {"Preempted": RP, "Yield": R, "Blocked": S, "Delay": S, "Suspended": T, "Exit": X}
WAKE_TYPES = ("Unblock", "Timeout")
FIELD = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')
DUMP = re.compile(r"^#(\d+)\s+(?:L(\d+|\?)\s+)?(\d+)\.(\d{9})\s+(\S+)(?:\s{2,}\S+)?\s{2,}(.*?)\s*$")


def no_realtime():
    """Before exec of a kernel workload: no real-time scheduling (ThreadX's Linux ports ask for
    SCHED_FIFO and pin to one CPU; run as root beside another ThreadX run they can starve each
    other: tests/threadx/check_threadx.py says how)."""
    resource.setrlimit(resource.RLIMIT_RTPRIO, (0, 0))
    ctypes.CDLL(None, use_errno=True).prctl(24, 23, 0, 0, 0)  # PR_CAPBSET_DROP, CAP_SYS_NICE


def run(cmd, workload=False):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=240,
                       preexec_fn=no_realtime if workload else None)
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p


def sched_events(args, path):
    """(switches, wakings, threads) of a trace: switches as (ts, cpu, prev_comm, prev_pid,
    prev_state, next_comm, next_pid), wakings as (ts, cpu, comm, pid, target_cpu, waker pid),
    threads tid -> (name, tgid)."""
    sw, wk, threads = [], [], {}
    for p in cp.decode(args, path):
        for pt in p.get("process_tree", []):
            for t in pt.get("threads", []):
                tid = cp.one(t, "tid")
                cp.check(tid not in threads, "%s: thread %s described twice" % (path, tid))
                threads[tid] = (cp.one(t, "name"), cp.one(t, "tgid"))
        for b in p.get("ftrace_events", []):
            cpu = cp.one(b, "cpu", 0)
            for e in b.get("event", []):
                ts = cp.one(e, "timestamp")
                for s in e.get("sched_switch", []):
                    sw.append((ts, cpu, cp.one(s, "prev_comm"), cp.one(s, "prev_pid"), cp.one(s, "prev_state"),
                               cp.one(s, "next_comm"), cp.one(s, "next_pid")))
                    cp.check(cp.one(e, "pid") == cp.one(s, "prev_pid"), "%s: switch at %d: pid is not prev_pid" % (path, ts))
                for w in e.get("sched_waking", []):
                    wk.append((ts, cpu, cp.one(w, "comm"), cp.one(w, "pid"), cp.one(w, "target_cpu"), cp.one(e, "pid", 0)))
    sw.sort()
    wk.sort()
    return sw, wk, threads


def dump_records(args, path):
    """(index, lane, ns, event, {field: value}) per record, in file order."""
    out = []
    for line in run([args.evrec, "dump", "--raw", "--index", path]).stdout.splitlines():
        m = DUMP.match(line)
        if m:
            fields = {k: (v[1:-1] if v.startswith('"') else v) for k, v in FIELD.findall(m.group(6))}
            lane = int(m.group(2)) if m.group(2) and m.group(2) != "?" else 0
            out.append((int(m.group(1)), lane, int(m.group(3)) * 1000000000 + int(m.group(4)), m.group(5), fields))
    return out


class Lane:
    def __init__(self):
        self.running = None  # task name
        self.out = None      # (task, state, ns) of a switch-out not yet followed
        self.last = None     # index of the lane's last record


def expected_switches(recs, idle):
    """The switches the README's rules give for these records: (ts, cpu, prev, state, next);
    the swapper and the idle task are both `idle`."""
    lanes, exp = {}, []

    def add(ts, cpu, prev, state, nxt):
        if prev != idle or nxt != idle:
            exp.append((ts, cpu, prev, R if prev == idle else state, nxt))

    for idx, lane, ns, ev, f in recs:
        ln = lanes.setdefault(lane, Lane())
        if ev == "TaskSwitchOut":
            ln.out = (f["task"], REASON_STATE[f["type"]], ns, idx)
            ln.running = None
        elif ev == "TaskSwitchIn" and ln.running == f["task"] and not ln.out:
            pass  # the task already running there (a return from an interrupt): nothing changes
        elif ev == "TaskSwitchIn":
            nxt = f["task"]
            for cpu, other in lanes.items():
                if other is not ln and other.running == nxt and nxt != idle:
                    add(ns, cpu, nxt, R, idle)  # it migrated: no switch-out was recorded there
                    other.running = None
            if ln.out and ln.out[3] == ln.last:
                add(ns, lane, ln.out[0], ln.out[1], nxt)
            else:
                if ln.out:
                    add(ln.out[2], lane, ln.out[0], ln.out[1], idle)
                add(ns, lane, ln.running or idle, RP, nxt)
            ln.out, ln.running = None, nxt
        ln.last = idx
    for cpu, ln in lanes.items():
        if ln.out:
            add(ln.out[2], cpu, ln.out[0], ln.out[1], idle)
    return sorted(exp)


def check_threads(label, sw, threads, idle):
    for tid, (name, tgid) in threads.items():
        cp.check(tgid == 1, "%s: thread %s (%s) not in the file's process" % (label, tid, name))
    for ts, cpu, pc, pp, st, nc, np in sw:
        for comm, pid in ((pc, pp), (nc, np)):
            if pid == 0:
                cp.check(comm == "swapper", "%s: pid 0 named %r at %d" % (label, comm, ts))
            else:
                cp.check(threads.get(pid, (None,))[0] == comm,
                         "%s: pid %d (%s) at %d is not a described thread" % (label, pid, comm, ts))


def as_names(sw, idle):
    return [(ts, cpu, idle if pp == 0 else pc, st, idle if np == 0 else nc) for ts, cpu, pc, pp, st, nc, np in sw]


def compare(label, got, exp):
    ok = cp.check(len(got) == len(exp), "%s: %d switches, expected %d" % (label, len(got), len(exp)))
    for g, e in zip(got, exp):
        if not cp.check(g == e, "%s: switch %r, expected %r" % (label, g, e)):
            return False
    return ok


def expected_wakers(recs):
    """(ns, task) -> [(lane, task running on that lane then)] of every record that may wake."""
    running, wakes = {}, {}
    for idx, lane, ns, ev, f in recs:
        if ev == "TaskReady" or (ev.endswith("Op") and f.get("type") in WAKE_TYPES):
            wakes.setdefault((ns, f.get("task")), []).append((lane, running.get(lane)))
        if ev == "TaskSwitchOut":
            running[lane] = None
        elif ev == "TaskSwitchIn":
            running[lane] = f["task"]
    return wakes


def check_wakings(label, wk, recs, threads):
    """Each waking at a record that wakes that task, in the bundle of that record's lane, its
    waker (FtraceEvent.pid) the task running there (pid 0: the idle task or none)."""
    wakes = expected_wakers(recs)
    pids = {name: tid for tid, (name, tgid) in threads.items()}
    for ts, cpu, comm, pid, target, waker in wk:
        cand = [(lane, pids.get(run, 0)) for lane, run in wakes.get((ts, comm), [])]
        cp.check((cpu, waker) in cand, "%s: sched_waking of %s at %d on cpu %d by pid %d: no such wake "
                 "record (%r)" % (label, comm, ts, cpu, waker, cand))


def test_smp(args, tmp):
    evr, out = os.path.join(tmp, "smp.evr"), os.path.join(tmp, "smp.pftrace")
    run([args.rtos_trace, "smp", evr])
    p = run([args.evrec, "export", "--perfetto", out, evr])
    cp.check("sched_switch" in p.stderr, "smp: the summary does not count the sched_switch events")
    sw, wk, threads = sched_events(args, out)
    # The schedule of rtos_trace.c smp_schedule(), ns = (tick - 1000) * 10: one line per switch.
    known = [
        (1000, 0, "Idle", R, "task_a"),   # c0 a starts
        (1050, 1, "Idle", R, "task_b"),   # c1 b starts
        (2200, 0, "task_a", S, "Idle"),   # a blocked on sem_rx (out Blocked, Idle in)
        (4000, 0, "Idle", R, "task_a"),   # Idle preempted by a (the swapper leaves runnable)
        (5000, 1, "task_b", RP, "task_c"),  # b preempted by c, no switch-out: R+
        (6100, 1, "task_c", S, "task_b"),   # c delays, b resumes
        (7100, 0, "task_a", R, "Idle"),     # a yields
        (8100, 1, "task_b", T, "task_a"),   # b suspended, a migrates to core 1
        (9000, 1, "task_a", X, "Idle"),     # a exits; nothing follows on core 1
    ]
    compare("smp (known schedule)", as_names(sw, "Idle"), known)
    recs = dump_records(args, evr)
    compare("smp (rules on the dump)", as_names(sw, "Idle"), expected_switches(recs, "Idle"))
    # task_b (pid 3) on core 1 unblocks task_a, which last ran on core 0
    cp.check(wk == [(3000, 1, "task_a", 2, 0, 3)], "smp: wakings %r, expected task_a at 3000 ns by task_b" % (wk,))
    check_wakings("smp", wk, recs, threads)
    cp.check(threads == {2: ("task_a", 1), 3: ("task_b", 1), 4: ("task_c", 1)}, "smp: threads %r" % (threads,))
    check_threads("smp", sw, threads, "Idle")


def test_kernel(args, tmp, name, workload):
    """A real kernel's run (its workload writes OUT.evr OUT-kernel.txt)."""
    evr, out = os.path.join(tmp, name + ".evr"), os.path.join(tmp, name + ".pftrace")
    run([workload, evr, os.path.join(tmp, name + "-kernel.txt")], workload=True)
    run([args.evrec, "export", "--perfetto", out, evr])
    sw, wk, threads = sched_events(args, out)
    recs = dump_records(args, evr)
    cp.check(len(sw) > 100, "%s: only %d switches" % (name, len(sw)))
    cp.check(len(wk) > 10, "%s: only %d wakings" % (name, len(wk)))
    compare(name + " (rules on the dump)", as_names(sw, "Idle"), expected_switches(recs, "Idle"))
    check_wakings(name, wk, recs, threads)
    check_threads(name, sw, threads, "Idle")
    states = sorted({s[3] for s in as_names(sw, "Idle")})
    print("%s: %d sched_switch, %d sched_waking, %d threads, prev_state values %s"
          % (name, len(sw), len(wk), len(threads), states))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--evrec", required=True)
    ap.add_argument("--proto", required=True)
    ap.add_argument("--rtos-trace", required=True)
    ap.add_argument("--freertos", help="the FreeRTOS POSIX workload (tests/freertos); skipped without it")
    ap.add_argument("--threadx", help="the ThreadX Linux workload (tests/threadx); skipped without it")
    ap.add_argument("--protoc", default=shutil.which("protoc"))
    args = ap.parse_args()
    if not args.protoc:
        print("skipped: protoc is not installed (Debian: protobuf-compiler)", file=sys.stderr)
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        test_smp(args, tmp)
        for name, workload, var in (("freertos", args.freertos, "EVREC_FREERTOS_KERNEL_DIR"),
                                    ("threadx", args.threadx, "EVREC_THREADX_DIR")):
            if workload:
                test_kernel(args, tmp, name, workload)
            else:
                print("%s: skipped (no %s: its workload is not built)" % (name, var))
    if cp.FAILURES:
        print("%d failures" % len(cp.FAILURES), file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
