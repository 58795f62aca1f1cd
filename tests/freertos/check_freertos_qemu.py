# SPDX-License-Identifier: Apache-2.0
"""The FreeRTOS trace of the Cortex-M3 run on QEMU (cm3/) against the kernel's own accounting.

Usage: check_freertos_qemu.py CONSOLE EVR EVREC

CONSOLE is the firmware's semihosting console (cm3/cm3_report.c: "kernel: total N",
"kernel: task NAME N", "fw: trace on recorded N dropped N saved FILE"), EVR the trace it saved.
Checks what check_freertos.py checks for the POSIX run (no drop, no anomaly, every task by name
with its CPU time within 0.5% of the run of the kernel's configGENERATE_RUN_TIME_STATS counter,
every object by name with operations and waits), plus the interrupt handlers (SysTick, TIMER0)
by name, and that the firmware's counts are the file's.

On Cortex-M the kernel's port calls traceISR_ENTER/EXIT: the trace charges interrupt time to
the handlers, while the kernel's run-time counter charges it to the task that was interrupted.
So each task's trace figure is compared after adding the handlers' time while it ran, taken
from `evrec dump` (the outermost IsrEnter to its IsrExit, charged to the task switched in last).
"""
import json
import re
import sys

import check_freertos as cf

ISRS = ("SysTick", "TIMER0")
TASK = re.compile(r'task=("[^"]*"|\S+)')


def console_table(path):
    kernel, counts = {}, {}
    with open(path) as f:
        for line in f:
            words = line.split()
            if line.startswith("kernel: task "):
                name, ticks = line[len("kernel: task "):].rstrip("\n").rsplit(" ", 1)
                kernel[name] = int(ticks)
            elif line.startswith("fw: trace on "):
                counts = {words[i]: int(words[i + 1]) for i in (3, 5)}
    return kernel, counts


def isr_in_task(dump, hz):
    """Ticks of interrupt handling (outermost IsrEnter .. IsrExit) per task that was running."""
    charged, current, depth, start = {}, None, 0, 0
    for line in dump.splitlines():
        words = line.split()
        if len(words) < 2:
            continue
        ticks = round(float(words[0]) * hz)
        if words[1] == "TaskSwitchIn":
            current = TASK.search(line).group(1).strip('"')
        elif words[1] == "IsrEnter":
            depth += 1
            start = ticks if depth == 1 else start
        elif words[1] == "IsrExit" and depth > 0:
            depth -= 1
            if depth == 0 and current is not None:
                charged[current] = charged.get(current, 0) + ticks - start
    return charged


def main():
    console, evr, evrec = sys.argv[1:4]
    kernel, counts = console_table(console)
    stats = json.loads(cf.run([evrec, "stats", "--format", "json", evr]))
    errors = cf.check_clean(stats)
    if counts.get("recorded") != stats["records"] or counts.get("dropped") != stats["dropped"]:
        errors.append("the firmware counted %s, the file has %d records and %d dropped"
                      % (counts, stats["records"], stats["dropped"]))
    print("tasks: %d (with IDLE); records: %d; dropped: %d; run: %.6f s"
          % (len(kernel), stats["records"], stats["dropped"], stats["duration_ticks"] / stats["clock_hz"]))
    dump = cf.run([evrec, "dump", evr])
    errors += cf.compare_tasks(stats, kernel, isr_in_task(dump, stats["clock_hz"]))
    errors += cf.check_objects(stats)
    isrs = {i["name"]: i for i in stats["rtos"]["isrs"]}
    for name in ISRS:
        if name not in isrs or isrs[name]["activations"] == 0:
            errors.append("interrupt handler %s: not in the trace by name with activations" % name)
        else:
            print("  isr %-8s %6d runs %10d ticks" % (name, isrs[name]["activations"], isrs[name]["ticks"]))
    for e in errors:
        print("FAIL: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
