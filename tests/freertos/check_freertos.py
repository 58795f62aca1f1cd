# SPDX-License-Identifier: Apache-2.0
"""The FreeRTOS trace against the kernel's own accounting.

Usage: check_freertos.py WORKLOAD EVREC OUTDIR [--int-control]

Runs the workload (freertos_workload.c: the FreeRTOS kernel, POSIX port, traced by evrec), then
`evrec stats --format json` on its trace, and checks:
  - no record was dropped and the analysis found no anomaly (records in the wrong place);
  - every task the kernel lists (uxTaskGetSystemState) is in the trace by name, and its CPU time
    from the trace agrees with the kernel's run-time counter (configGENERATE_RUN_TIME_STATS on the
    same TSC) within 0.5% of the run's duration; the kernel's IDLE task is the trace's idle time;
  - every queue, semaphore, mutex and event group is in the trace by its registry name, with operations, and
    the blocking ones (the queue, the two semaphores) with waits (Block ... Unblock pairs);
  - the task notifications (NotifyOp): every type is recorded, each Block ends in an Unblock or a
    Timeout (the last may still be open), the waiter is named as task and the notifiers (the
    producer, the tick hook as NoTask) as givers;
  - the software timer's expiries (TimerExpired) name it (blink); the timer task is blocked on
    its command queue (TmrQ);
  - the task-state model's figures ("sched", tests/stats/check_stats_json.py check_sched()) are
    consistent and find no anomaly; its CPU time per task agrees with the kernel's counter the
    same way, its idle time (the idle task and the scheduler between tasks) with IDLE's, and
    every task that blocks on an object is shown blocked on it. (FreeRTOS keeps no per-task
    switch count to compare the switches with.)
  - with --int-control (a workload built with EVREC_FREERTOS_INT_CONTROL and linked with the
    --wrap of vPortEnterCritical/vPortExitCritical), the kernel's critical sections (IntControl;
    trace freertos_posix_int.evr): per task, every Disable is followed by its
    RestoreEnable before the task's next Disable, no Restore without a Disable; `evrec stats`
    finds the interrupt-disabled spans, and with `--elf` the workload names every disable site
    by its function.
Prints the per-task table (trace vs kernel).
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "stats"))
from check_stats_json import check_sched  # noqa: E402

TOLERANCE = 0.005  # of the run's duration
OBJECTS = {"work_q": "QueueOp", "shared_mtx": "MutexOp", "tick_sem": "SemOp", "timer_sem": "SemOp"}
WAITED_ON = ("work_q", "tick_sem", "timer_sem")
# The POSIX workload's own (not the Cortex-M3 firmware's): an event group.
POSIX_OBJECTS = {"ev_flags": "EventOp"}
POSIX_WAITED_ON = ("ev_flags",)
MIN_TASKS = 6


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


def kernel_table(path):
    tasks = {}
    with open(path) as f:
        for line in f:
            word, rest = line.split(" ", 1)
            if word == "task":
                name, ticks = rest.rstrip("\n").rsplit(" ", 1)
                tasks[name] = int(ticks)
    return tasks


def compare_tasks(stats, kernel, isr_in_task=None):
    """Per-task CPU time, trace vs kernel: a list of errors, the table printed. isr_in_task
    (name -> ticks): interrupt time the trace charged to handlers while the task ran, which the
    kernel charges to the task; added to the trace's figure."""
    rtos = stats["rtos"]
    isr_in_task = isr_in_task or {}
    errors = []
    trace = {t["name"]: t["ticks"] for t in rtos["tasks"]}
    span = stats["duration_ticks"]
    limit = TOLERANCE * span
    print("per-task CPU time, ticks (%d Hz), run %d ticks; limit |trace - kernel| <= %.0f"
          % (stats["clock_hz"], span, limit))
    if isr_in_task:
        print("  trace = the task's ticks + the interrupt handlers' ticks while it ran (isr)")
    print("  %-14s %14s %10s %14s %12s %9s" % ("task", "trace", "isr", "kernel", "diff", "% of run"))
    worst = 0.0
    for name, kticks in sorted(kernel.items(), key=lambda kv: -kv[1]):
        tticks = rtos["idle_ticks"] if name == "IDLE" else trace.get(name)
        if tticks is None:
            errors.append("task %s (kernel: %d ticks) is not in the trace" % (name, kticks))
            continue
        isr = isr_in_task.get("Idle" if name == "IDLE" else name, 0)
        diff = tticks + isr - kticks
        worst = max(worst, abs(diff) / span)
        print("  %-14s %14d %10d %14d %12d %8.4f%%" % (name, tticks, isr, kticks, diff, 100.0 * diff / span))
        if abs(diff) > limit:
            errors.append("task %s: trace %d (+%d isr) vs kernel %d ticks" % (name, tticks, isr, kticks))
    print("  largest |diff|: %.4f%% of the run" % (100.0 * worst))
    extra = set(trace) - set(kernel)
    if extra:
        errors.append("tasks in the trace the kernel does not list: %s" % sorted(extra))
    if len(kernel) - 1 < MIN_TASKS:
        errors.append("only %d tasks besides IDLE" % (len(kernel) - 1))
    return errors


def check_objects(stats, objects=None, waited_on=WAITED_ON):
    """Every object by name with operations, and waits on the blocking ones: a list of errors."""
    errors = []
    sync = {s["name"]: s for s in stats["rtos"]["sync"]}
    for name, kind in (objects or OBJECTS).items():
        s = sync.get(name)
        if s is None or s["kind"] != kind or s["ops"] == 0:
            errors.append("object %s: not in the trace as a %s with operations (%s)" % (name, kind, s))
        elif name in waited_on and s["waits"] == 0:
            errors.append("object %s: no completed wait (Block then Unblock)" % name)
    return errors


BLOCKS_ON = {"consumer": "work_q", "tick_waiter": "tick_sem", "timer_waiter": "timer_sem",
             "notified": "notification", "flag_waiter": "ev_flags", "Tmr Svc": "TmrQ"}
NOTIFY_TYPES = ("Give", "Take", "Block", "Unblock", "Timeout")


def check_notify(dump):
    """The NotifyOp records of `evrec dump`: a list of errors, the counts printed."""
    types, givers, tasks = {}, set(), set()
    for line in dump.splitlines():
        if " NotifyOp " not in line:
            continue
        fields = dict(w.split("=", 1) for w in line.split() if "=" in w)
        types[fields.get("type")] = types.get(fields.get("type"), 0) + 1
        tasks.add(fields.get("task"))
        if fields.get("type") in ("Give", "Unblock"):
            givers.add(fields.get("giver"))
    print("task notifications: %s; givers %s" % (types, sorted(givers)))
    errors = ["NotifyOp: no %s record" % t for t in NOTIFY_TYPES if types.get(t, 0) == 0]
    ends = types.get("Unblock", 0) + types.get("Timeout", 0)
    if not 0 <= types.get("Block", 0) - ends <= 1:
        errors.append("NotifyOp: %d Block but %d Unblock + Timeout" % (types.get("Block", 0), ends))
    if tasks != {"notified"}:
        errors.append("NotifyOp: tasks %s, expected only 'notified'" % sorted(tasks))
    if not {"producer", "NoTask"} <= givers:
        errors.append("NotifyOp: givers %s, expected producer and NoTask (the tick hook)" % sorted(givers))
    return errors


def check_int_control(dump):
    """IntControl of `evrec dump` per task (the one of the last TaskSwitchIn): a list of errors."""
    current, depth, counts, errors = "NoTask", {}, {}, []
    for line in dump.splitlines():
        words = line.split()
        if "TaskSwitchIn" in words[1:3]:
            current = dict(w.split("=", 1) for w in words if "=" in w).get("task")
        if len(words) < 2 or words[1] != "IntControl":
            continue
        kind = dict(w.split("=", 1) for w in words if "=" in w).get("type")
        counts[kind] = counts.get(kind, 0) + 1
        was = depth.get(current, 0)
        if (kind == "Disable" and was) or (kind == "RestoreEnable" and not was) or kind == "Restore":
            errors.append("IntControl %s of task %s while it had %s: %s"
                          % (kind, current, "disabled" if was else "not disabled", line.strip()))
        depth[current] = {"Disable": 1, "RestoreEnable": 0, "Restore": 0}.get(kind, was)
    print("interrupt disable/restore: %s" % counts)
    if counts.get("Disable", 0) == 0:
        errors.append("IntControl: no Disable record")
    return errors[:5] + (["... %d more" % (len(errors) - 5)] if len(errors) > 5 else [])


def check_int_sites(stats):
    """`evrec stats --elf` of the workload: disabled spans, every site named: a list of errors."""
    rtos = stats["rtos"]
    print("interrupt-disabled spans: %d, %d site(s), longest %s" % (
        rtos["int_spans"], len(rtos["int_sites"]), rtos.get("int_longest")))
    errors = [] if rtos["int_spans"] > 0 else ["evrec stats: no interrupt-disabled span"]
    if rtos["int_open_at_start"]:
        errors.append("evrec stats: a disabled span open at the first record")
    unnamed = [s for s in rtos["int_sites"] if not (s.get("caller_symbol") or "0x").split("+")[0].split(".")[0].isidentifier()]
    if unnamed:
        errors.append("evrec stats --elf: %d disable site(s) not named, the first %s" % (len(unnamed), unnamed[0]))
    names = {s["caller_symbol"].split("+")[0].split(".")[0] for s in rtos["int_sites"]} - {s["caller_symbol"] for s in unnamed}
    if not {"xQueueGenericSend", "xTaskResumeAll"} <= names:
        errors.append("evrec stats --elf: xQueueGenericSend and xTaskResumeAll not among the sites %s" % sorted(names))
    return errors


def check_sched_figures(stats, kernel):
    """The task-state model against the kernel: a list of errors, the table printed."""
    s = check_sched(stats)
    errors = []
    if s["anomalies"] != 0:
        errors.append("task-state model: %d anomalies" % s["anomalies"])
    span = stats["duration_ticks"]
    limit = TOLERANCE * span
    cpu = {t["name"]: t for t in s["tasks"]}
    idle = sum(c["idle_ticks"] for c in s["cores"])
    print("task-state model (evrec stats 'sched'), ticks: cpu, diff to the kernel, switches, wake-up to running "
          "p50/p99/max")
    worst = 0.0
    for name, kticks in sorted(kernel.items(), key=lambda kv: -kv[1]):
        t = cpu.get(name)
        mine = idle if name == "IDLE" else t["cpu_ticks"] if t else None
        if mine is None:
            errors.append("sched: task %s is not listed" % name)
            continue
        w = t["ready_after_wakeup"] if t else {"count": 0}
        print("  %-14s %14d %12d %8s %10s %10s %10s" % (
            name, mine, mine - kticks, t["switches"] if t else "-", w.get("p50_ticks", "-"),
            w.get("p99_ticks", "-"), w.get("max_ticks", "-")))
        worst = max(worst, abs(mine - kticks) / span)
        if abs(mine - kticks) > limit:
            errors.append("sched: task %s: %d vs kernel %d ticks" % (name, mine, kticks))
    print("  largest |diff|: %.4f%% of the run" % (100.0 * worst))
    blocked = {(w["name"], w["object_name"]) for w in s["blocked"] if w["on"] == "object"}
    for task, obj in BLOCKS_ON.items():
        if (task, obj) not in blocked:
            errors.append("sched: %s is never blocked on %s" % (task, obj))
    return errors


def check_clean(stats):
    """No drop, no anomaly: a list of errors."""
    rtos = stats["rtos"]
    errors = []
    if stats["dropped"] != 0:
        errors.append("%d record(s) dropped" % stats["dropped"])
    if rtos["anomalies"] != 0:
        errors.append("%d anomalies, the first: %s" % (rtos["anomalies"], rtos["first_anomaly"]))
    return errors


def main():
    workload, evrec, outdir = sys.argv[1:4]
    int_control = sys.argv[4:5] == ["--int-control"]
    name = "freertos_posix_int" if int_control else "freertos_posix"
    evr = os.path.join(outdir, name + ".evr")
    ktxt = os.path.join(outdir, name + "_kernel.txt")
    out = run([workload, evr, ktxt])
    print(out.strip())
    stats = json.loads(run([evrec, "stats", "--format", "json", evr]))
    errors = check_clean(stats)
    errors += compare_tasks(stats, kernel_table(ktxt))
    errors += check_objects(stats, dict(OBJECTS, **POSIX_OBJECTS), WAITED_ON + POSIX_WAITED_ON)
    errors += check_sched_figures(stats, kernel_table(ktxt))
    dump = run([evrec, "dump", evr])
    errors += check_notify(dump)
    if int_control:
        errors += check_int_control(dump)
        errors += check_int_sites(json.loads(run([evrec, "stats", "--format", "json", "--elf", workload, evr])))
    expired = sum(1 for line in dump.splitlines() if " TimerExpired " in line and "timer=blink" in line)
    print("timer blink expired %d times" % expired)
    if expired == 0:
        errors.append("no TimerExpired of the timer blink")
    for e in errors:
        print("FAIL: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
