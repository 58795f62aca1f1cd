# SPDX-License-Identifier: Apache-2.0
"""The ThreadX trace against the kernel's own accounting.

Usage: check_threadx.py WORKLOAD EVREC OUTDIR [CORES]
       check_threadx.py --self-test   (the lane replay on a hand-made trace; no kernel needed)

Runs the workload (threadx_workload.c: ThreadX's Linux port, or Linux SMP port with CORES > 1,
traced by evrec), then `evrec stats --format json` and `evrec dump` on its trace, and checks:
  - the workload finishes within WATCHDOG_S (else it is killed and each thread's state printed),
    the SMP port run without real-time scheduling (no_realtime(); run_workload() says why);
  - the file holds as many records as the recorder counted; no record was dropped (the
    recorder's count and the file's), and the analysis found no
    anomaly (records in the wrong place); on SMP each core's lane is also replayed here: no thread
    switched in while another runs on that core, none switched out that does not run there;
  - the task-state model's figures ("sched", tests/stats/check_stats_json.py check_sched()) are
    consistent, find no anomaly, and per thread: its switch count equals the kernel's run count;
    its CPU time (summed over the cores) agrees with the kit on one core, and on SMP with the
    per-lane replay here, within 0.5% of the run; on one core, its idle time (asleep) and
    interrupt time agree with the kit's (_tx_execution_idle_time_get, _isr_time_get) alike;
  - every thread the kernel lists (its created list) is in the trace by name, and:
    its CPU time from the trace agrees with the execution profile kit's time for it (on the same
    TSC) within 0.5% of the run's duration (one core: the SMP kit cannot be fed by the Linux SMP
    port, see ports/rtos/threadx/README.md; its per-core times are printed);
    its TaskSwitchIn count equals the kernel's run count (tx_thread_info_get), and its TaskReady
    count the kernel's resumptions (tx_thread_performance_info_get);
  - the queue, mutex, semaphore and event flags are in the trace by name with operations, and
    the ones threads wait on (queue, semaphore, flags) with completed waits;
  - the block pool and the byte pool by name (PoolOp): Allocate + Unblock, Release and Timeout
    against the allocations, releases and timeouts the workload counted (calls that returned: the
    trace may be ahead by the in-flight calls, at most one per user thread), waits (Block) that
    completed (Unblock), and in the task-state model each thread's waits on the pool as Blocked on
    it by name (its Block records, less one still open when the recording stopped);
  - the application timers' TimerExpired by name, by the kernel's timer thread, against the
    expiries counted in their expiration functions (ahead by at most the one in flight).
Prints the per-thread table (trace vs kernel) and the largest difference.
"""
import collections
import ctypes
import json
import os
import re
import resource
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "stats"))
from check_stats_json import check_sched  # noqa: E402

TOLERANCE = 0.005  # of the run's duration
NAME_LEN = 23      # EVREC_THREADX_NAME_LEN - 1: names are kept to this length
OBJECTS = {"work_q": "QueueOp", "shared_mtx": "MutexOp", "tick_sem": "SemOp", "work_flags": "EventOp"}
WAITED_ON = ("work_q", "tick_sem", "work_flags")
MIN_THREADS = 6
TIMER_THREAD = "System Timer Thread"  # the kernel's (tx_timer_initialize.c): it runs the expirations
WATCHDOG_S = 120   # the workload is killed and the test fails after this long
POOL_LINE = re.compile(r'^\s*(?:L\d+\s+)?[\d.]+\s+PoolOp\s+task=("[^"]*"|\S+)\s+object=("[^"]*"|\S+)\s+type=(\w+)')
TIMER_LINE = re.compile(r'^\s*(?:L\d+\s+)?[\d.]+\s+TimerExpired\s+task=("[^"]*"|\S+)\s+timer=("[^"]*"|\S+)')
LINE = re.compile(r'^\s*(?:L(\d+)\s+)?([\d.]+)\s+(\w+)\s.*?\b(?:task|isr)=("([^"]*)"|\S+)')
STAMP = re.compile(r'^\s*(?:L\d+\s+)?([\d.]+)\s+\w')  # any record's time


def run(cmd, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


def no_realtime():
    """In the workload's process, before exec: no real-time scheduling. ThreadX's Linux ports ask
    for SCHED_FIFO (pthread_setschedparam, ignoring a refusal) and pin the process to one CPU
    (the SMP port to CPU 0, tx_initialize_low_level.c). With it, the SMP port's timer thread
    (SCHED_FIFO 2) retries _tx_thread_smp_protect() with 1 us sleeps while a thread (SCHED_FIFO 1)
    on the same CPU keeps the protection (preemption disabled): that thread never runs again, and
    nor does any SCHED_FIFO 1 thread of another ThreadX run on that CPU. Without it, the ports run
    as for any user without CAP_SYS_NICE."""
    resource.setrlimit(resource.RLIMIT_RTPRIO, (0, 0))
    ctypes.CDLL(None, use_errno=True).prctl(24, 23, 0, 0, 0)  # PR_CAPBSET_DROP, CAP_SYS_NICE (root)


def thread_states(pid):
    """Per thread of `pid`: its state, CPU time (clock ticks), real-time priority, policy, CPU."""
    rows = []
    for tid in sorted(os.listdir("/proc/%d/task" % pid), key=int):
        try:
            with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                st = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        rows.append("  thread %s: state %s, cpu %d ticks, rt priority %s, policy %s, on CPU %s"
                    % (tid, st[0], int(st[11]) + int(st[12]), st[37], st[38], st[36]))
    return "\n".join(rows)


def run_workload(cmd, cores):
    """Runs the workload; kills it after WATCHDOG_S seconds (its run is THREADX_RUN_MS of kernel
    ticks, which follow the wall clock) and says where it hung. The SMP port runs without
    real-time scheduling (no_realtime()); the single-core port keeps the SCHED_FIFO it asks for:
    its interrupt disable (a mutex and the scheduler's signals) is exclusive only with it, and
    without it a loaded machine showed a thread disabling interrupts while another had them
    disabled (IntControl anomalies)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=no_realtime if cores > 1 else None)
    try:
        out, err = p.communicate(timeout=WATCHDOG_S)
    except subprocess.TimeoutExpired:
        states = thread_states(p.pid)
        p.kill()
        p.communicate()
        sys.exit("FAIL: %s did not finish in %d s (a run takes THREADX_RUN_MS plus the save); killed. "
                 "Its threads then:\n%s" % (" ".join(cmd), WATCHDOG_S, states))
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d\n%s%s" % (" ".join(cmd), p.returncode, out, err))
    return out


def kernel_table(path):
    threads, other = {}, {}
    with open(path) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if cols[0] == "thread":
                threads[cols[1][:NAME_LEN]] = {"runs": int(cols[2]), "ticks": int(cols[3]),
                                               "resumptions": int(cols[4])}
            elif cols[0] in ("pool", "timer"):  # pool NAME allocations releases timeouts users; timer NAME expiries
                other.setdefault(cols[0], {})[cols[1]] = [int(c) for c in cols[2:]]
            else:
                other[cols[0]] = [int(c) for c in cols[1:]]
    return threads, other


def unquote(name):
    return name[1:-1] if name.startswith('"') else name


def dump_records(evrec, evr):
    """(lane, seconds, event, task or isr name) of the records that name a task or an ISR, the
    time of the file's last record (seconds: where the task-state model ends what still runs), and
    the PoolOp (task, pool, type) and TimerExpired (timer) records counted."""
    out, last, pool_ops, expiries = [], 0.0, collections.Counter(), collections.Counter()
    for line in run([evrec, "dump", evr]).splitlines():
        m = LINE.match(line)
        if m:
            out.append((int(m.group(1) or 0), float(m.group(2)), m.group(3),
                        m.group(5) if m.group(5) is not None else m.group(4)))
        m = STAMP.match(line)
        if m:
            last = max(last, float(m.group(1)))
        p = POOL_LINE.match(line)
        if p:
            pool_ops[(unquote(p.group(1)), unquote(p.group(2)), p.group(3))] += 1
        t = TIMER_LINE.match(line)
        if t:
            expiries[(unquote(t.group(1)), unquote(t.group(2)))] += 1
    return out, last, pool_ops, expiries


def ahead(what, traced, counted, in_flight, errors):
    """The trace's count is the workload's, or ahead by calls recorded and not yet counted."""
    if not 0 <= traced - counted <= in_flight:
        errors.append("%s: %d in the trace, %d counted by the workload (at most %d in flight)"
                      % (what, traced, counted, in_flight))


def check_pools(pools, pool_ops, stats, errors):
    """Each pool's records against the workload's counts; its waits in the task-state model."""
    blocked = collections.Counter()
    for w in stats["sched"]["blocked"]:
        if w["on"] == "object" and w["event"] == "PoolOp":
            blocked[(w["name"], w["object_name"])] += w["count"]
    for name, (allocs, releases, timeouts, users) in sorted(pools.items()):
        ops = collections.Counter()
        for (task, pool, op), n in pool_ops.items():
            if pool == name:
                ops[op] += n
        print("pool %s: trace Allocate %d, Unblock %d, Release %d, Block %d, Timeout %d; workload "
              "allocations %d, releases %d, timeouts %d"
              % (name, ops["Allocate"], ops["Unblock"], ops["Release"], ops["Block"], ops["Timeout"],
                 allocs, releases, timeouts))
        ahead("pool %s allocations (Allocate + Unblock)" % name, ops["Allocate"] + ops["Unblock"], allocs, users,
              errors)
        ahead("pool %s releases" % name, ops["Release"], releases, users, errors)
        ahead("pool %s timeouts" % name, ops["Timeout"], timeouts, users, errors)
        if ops["Block"] == 0 or ops["Unblock"] == 0:
            errors.append("pool %s: no completed wait (Block then Unblock)" % name)
        for (task, pool, op), n in sorted(pool_ops.items()):
            if pool == name and op == "Block" and not 0 <= n - blocked[(task, name)] <= 1:
                errors.append("pool %s: %s blocked %d times on it in the trace, %d in the task-state model"
                              % (name, task, n, blocked[(task, name)]))


def check_timers(timers, expiries, errors):
    """Each timer's TimerExpired records, by the kernel's timer thread, against its expiries."""
    for name, (counted,) in sorted(timers.items()):
        traced = sum(n for (task, timer), n in expiries.items() if timer == name)
        print("timer %s: %d TimerExpired, %d expiries counted" % (name, traced, counted))
        ahead("timer %s expiries" % name, traced, counted, 1, errors)
        if counted == 0:
            errors.append("timer %s: never expired" % name)
    others = sorted(task for (task, timer), n in expiries.items() if task != TIMER_THREAD)
    if others:
        errors.append("TimerExpired not by the timer thread (%s) but by %s" % (TIMER_THREAD, others))


def lane_accounting(records, end):
    """Per core (lane): CPU seconds per thread from its TaskSwitchIn to its TaskSwitchOut, or to
    `end` (the file's last record) when it still runs there then, less the interrupt handlers on
    that core meanwhile (IsrEnter to IsrExit, nested ones within the outermost; a switch recorded
    inside a handler takes effect at its exit); and the records that contradict the core's state.
    The task-state model's rules (evrec_sched.h): its intervals still open at the end of the file
    end at the last record (AT_FINISH), and its CPU time excludes the handlers on the core."""
    cpu = collections.Counter()
    running, since, depth, contradictions = {}, {}, collections.Counter(), []
    for lane, t, event, name in sorted(records, key=lambda r: (r[0], r[1])):
        if event == "TaskSwitchIn":
            if running.get(lane) is not None:
                contradictions.append("L%d %.9f: %s switched in while %s runs" % (lane, t, name, running[lane]))
            running[lane], since[lane] = name, t
        elif event == "TaskSwitchOut":
            if running.get(lane) != name:
                contradictions.append("L%d %.9f: %s switched out, not running" % (lane, t, name))
            elif depth[lane] == 0:
                cpu[name] += t - since[lane]
            running[lane] = None
        elif event == "IsrEnter":
            if depth[lane] == 0 and running.get(lane) is not None:
                cpu[running[lane]] += t - since[lane]
            depth[lane] += 1
        elif event == "IsrExit" and depth[lane] > 0:
            depth[lane] -= 1
            if depth[lane] == 0:
                since[lane] = t
    for lane, name in running.items():
        if name is not None and depth[lane] == 0:
            cpu[name] += end - since[lane]
    return cpu, contradictions


def thread_row(name, k, tticks, sched, span, counts, errors):
    """One thread's line of the table and its checks; the |diff| in % of the run of the trace to the
    kit (0 on SMP: no kit figure) and of the task-state model to its reference (the kit, or the
    lane replay on SMP)."""
    limit = TOLERANCE * span
    sw, ready = counts[("TaskSwitchIn", name)], counts[("TaskReady", name)]
    st = sched.get(name, {"cpu_ticks": 0, "switches": 0})
    ref = k["ticks"] if k["ticks"] >= 0 else tticks  # SMP: no kit figure: the lane replay
    diff = "%10d %8.4f%%" % (tticks - k["ticks"], 100.0 * (tticks - k["ticks"]) / span) if k["ticks"] >= 0 else \
        "%10s %9s" % ("-", "-")
    print("  %-20s %12d %12s %s %12d %7d %7d %7d %7d %7d"
          % (name, tticks, k["ticks"] if k["ticks"] >= 0 else "-", diff, st["cpu_ticks"], sw, st["switches"],
             k["runs"], ready, k["resumptions"]))
    if k["ticks"] >= 0 and abs(tticks - k["ticks"]) > limit:
        errors.append("thread %s: trace %d vs kernel %d ticks" % (name, tticks, k["ticks"]))
    if abs(st["cpu_ticks"] - ref) > limit:
        errors.append("thread %s: sched CPU time %d vs %s %d ticks" % (name, st["cpu_ticks"],
                      "kernel" if k["ticks"] >= 0 else "lane replay", ref))
    if sw != k["runs"]:
        errors.append("thread %s: %d TaskSwitchIn vs run count %d" % (name, sw, k["runs"]))
    if st["switches"] != k["runs"]:
        errors.append("thread %s: sched switches %d vs run count %d" % (name, st["switches"], k["runs"]))
    if ready != k["resumptions"]:
        errors.append("thread %s: %d TaskReady vs %d resumptions" % (name, ready, k["resumptions"]))
    return (abs(100.0 * (tticks - k["ticks"]) / span) if k["ticks"] >= 0 else 0.0,
            abs(100.0 * (st["cpu_ticks"] - ref) / span))


def check_threads(kernel, stats, dumped, cores, errors):
    records, end = dumped
    rtos = stats["rtos"]
    counts = collections.Counter((r[2], r[3]) for r in records)
    sched = {t["name"]: t for t in check_sched(stats)["tasks"]}
    if stats["sched"]["anomalies"] != 0:
        errors.append("task-state model: %d anomalies" % stats["sched"]["anomalies"])
    if cores == 1:
        trace = {t["name"]: t["ticks"] for t in rtos["tasks"]}
    else:  # the one-CPU table does not apply: per core from the lanes, replayed here
        cpu, contradictions = lane_accounting(records, end)
        trace = {n: int(round(sec * stats["clock_hz"])) for n, sec in cpu.items()}
        errors.extend("per-core state: " + c for c in contradictions[:5])
    span = stats["duration_ticks"]
    print("per-thread CPU time, TSC ticks (%d Hz), run %d ticks; limit |trace - kernel| <= %.0f"
          % (stats["clock_hz"], span, TOLERANCE * span))
    print("  trace: %s; sched: the task-state model (evrec stats, all cores); sw: its switches"
          % ("the one-CPU table" if cores == 1 else "replay of the lanes here"))
    print("  %-20s %12s %12s %10s %9s %12s %7s %7s %7s %7s %7s" % ("thread", "trace", "kit", "diff", "% of run",
                                                                 "sched", "in", "sw", "runs", "ready", "resum."))
    worst, worst_sched = 0.0, (0.0, "-")
    for name, k in sorted(kernel.items(), key=lambda kv: -kv[1]["ticks"]):
        if name not in trace:
            errors.append("thread %s (kernel: %d ticks, %d runs) is not in the trace" % (name, k["ticks"], k["runs"]))
            continue
        kit_diff, sched_diff = thread_row(name, k, trace[name], sched, span, counts, errors)
        worst, worst_sched = max(worst, kit_diff), max(worst_sched, (sched_diff, name))
    print("largest sched vs %s difference: %.4f%% of the run (%s)"
          % ("kernel" if cores == 1 else "lane replay", worst_sched[0], worst_sched[1]))
    if cores == 1:
        print("largest CPU time difference: %.4f%% of the run" % worst)
    else:
        print("CPU time per thread: summed over the %d cores' lanes; no kernel figure to compare" % cores)
        for c in stats["sched"]["cores"]:
            print("  core %d: tasks %d, isr %d, idle %d, unknown %d ticks; load %.2f%%; %d switches"
                  % (c["core"], c["task_ticks"], c["isr_ticks"], c["idle_ticks"], c["unknown_ticks"], c["load"],
                     c["switches"]))
    extra = set(trace) - set(kernel)
    if extra:
        errors.append("threads in the trace the kernel does not list: %s" % sorted(extra))
    if len(kernel) < MIN_THREADS:
        errors.append("only %d threads" % len(kernel))


def check_core_times(stats, other, errors):
    """One core: the task-state model's idle and interrupt time against the kit's."""
    c = stats["sched"]["cores"][0]
    span = stats["duration_ticks"]
    for what, mine in (("idle", c["idle_ticks"]), ("isr", c["isr_ticks"])):
        kit = other[what][0]
        print("core 0 %-4s: sched %d, kit %d ticks, diff %.4f%% of the run"
              % (what, mine, kit, 100.0 * (mine - kit) / span))
        if abs(mine - kit) > TOLERANCE * span:
            errors.append("core 0 %s: sched %d vs kit %d ticks" % (what, mine, kit))


def check_objects(rtos, errors):
    sync = {s["name"]: s for s in rtos["sync"]}
    for name, kind in OBJECTS.items():
        s = sync.get(name)
        if s is None or s["kind"] != kind or s["ops"] == 0:
            errors.append("object %s: not in the trace as a %s with operations (%s)" % (name, kind, s))
        elif name in WAITED_ON and s["waits"] == 0:
            errors.append("object %s: no completed wait (Block then Unblock)" % name)


def self_test():
    """lane_accounting() on a hand-made trace (seconds), the figures worked out by the rules of its
    doc comment; 0 when it gives them. Lane 0: a around a nested interrupt, b switched out and c
    switched in inside an interrupt, e still running at the end; lane 1: d still running at the
    end, after an interrupt."""
    records = [(0, 1.0, "TaskSwitchIn", "a"), (0, 2.0, "IsrEnter", "tmr"), (0, 2.5, "IsrEnter", "tmr"),
               (0, 3.0, "IsrExit", "tmr"), (0, 4.0, "IsrExit", "tmr"), (0, 5.0, "TaskSwitchOut", "a"),
               (0, 6.0, "TaskSwitchIn", "b"), (0, 7.0, "IsrEnter", "tmr"), (0, 8.0, "TaskSwitchOut", "b"),
               (0, 8.5, "TaskSwitchIn", "c"), (0, 9.0, "IsrExit", "tmr"), (0, 10.0, "TaskSwitchOut", "c"),
               (0, 11.0, "TaskSwitchIn", "e"),
               (1, 3.0, "TaskSwitchIn", "d"), (1, 4.0, "IsrEnter", "tmr"), (1, 5.0, "IsrExit", "tmr")]
    want = {"a": (2.0 - 1.0) + (5.0 - 4.0), "b": 7.0 - 6.0, "c": 10.0 - 9.0,
            "d": (4.0 - 3.0) + (12.0 - 5.0), "e": 12.0 - 11.0}
    cpu, contradictions = lane_accounting(records, 12.0)
    got = {n: round(v, 9) for n, v in cpu.items() if v}
    print("lane replay: %s, contradictions %s" % (sorted(got.items()), contradictions))
    if got != want or contradictions:
        print("FAIL: lane replay: want %s" % sorted(want.items()))
        return 1
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    workload, evrec, outdir = sys.argv[1:4]
    cores = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    os.makedirs(outdir, exist_ok=True)
    evr = os.path.join(outdir, "threadx.evr")
    ktxt = os.path.join(outdir, "threadx_kernel.txt")
    print(run_workload([workload, evr, ktxt], cores).strip())
    stats = json.loads(run([evrec, "stats", "--format", "json", evr]))
    kernel, other = kernel_table(ktxt)
    errors = []
    recorded, dropped = other["records"]
    print("records: %d in the file, %d recorded, %d dropped; threads: %d" % (stats["records"], recorded, dropped, len(kernel)))
    if stats["records"] != recorded:  # on SMP: the lanes' copies of Start, Stop, Tick not counted
        errors.append("%d records in the file, the recorder counted %d" % (stats["records"], recorded))
    if dropped != 0 or stats["dropped"] != 0:
        errors.append("%d record(s) dropped" % max(dropped, stats["dropped"]))
    if cores == 1 and stats["rtos"]["anomalies"] != 0:
        errors.append("%d anomalies, the first: %s" % (stats["rtos"]["anomalies"], stats["rtos"]["first_anomaly"]))
    records, last, pool_ops, expiries = dump_records(evrec, evr)
    check_threads(kernel, stats, (records, last), cores, errors)
    if cores == 1:
        check_core_times(stats, other, errors)
    check_objects(stats["rtos"], errors)
    check_pools(other.get("pool", {}), pool_ops, stats, errors)
    check_timers(other.get("timer", {}), expiries, errors)
    if not other.get("pool") or not other.get("timer"):
        errors.append("the workload reported no pool or no timer")
    for e in errors:
        print("FAIL: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
