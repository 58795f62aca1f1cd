/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec stats` of a kernel trace: the sections built on the task-state model (evrec_sched.h):
 * tasks, ready-to-running latency, blocked time per object, cores (stats_text.h). */
#include <stdio.h>
#include <string.h>

#include "stats_text.h"

typedef stats_out_t out_t;

/* The width of the name column: the longest task name (or number), at least `min`. */
static size_t name_width(const evrec_sched_result_t *res, size_t min)
{
    size_t w = min;
    for (uint32_t i = 0; i < res->task_count; i++) {
        const evrec_sched_task_t *t = &res->tasks[i];
        size_t n = t->name ? cli_name_width(t->name) : 10u;
        w = n > w ? n : w;
    }
    return w;
}

/* The line so far padded to `col` bytes past its start ("  " indent included). */
static void pad(out_t *o, size_t col)
{
    cli_buf_pad(&o->b, col);
}

static void print_tasks(out_t *o, const evrec_sched_result_t *res, size_t w)
{
    char d[32], p[16];
    cli_buf_puts(&o->b, "  task");
    pad(o, 2 + w);
    cli_buf_printf(&o->b, "  %12s  %7s  %9s", "cpu time", "share", "switches");
    stats_text_flush(o);
    for (uint32_t i = 0; i < res->task_count; i++) {
        const evrec_sched_task_t *t = &res->tasks[i];
        cli_buf_puts(&o->b, "  ");
        stats_text_name(o, t->name, t->task);
        pad(o, 2 + w);
        cli_buf_printf(&o->b, "  %12s  %7s  %9llu%s", stats_text_dur(o, t->cpu_ticks, d, sizeof d),
                       stats_text_pct(t->cpu_ticks, res->span_ticks, p, sizeof p), (unsigned long long)t->switches,
                       t->dead ? "  (deleted)" : "");
        stats_text_flush(o);
    }
}

static void latency_row(out_t *o, const evrec_sched_task_t *t, const char *cause, const evrec_stats_durations_t *d,
                        size_t w)
{
    char a[32], b[32], c[32];
    cli_buf_puts(&o->b, "  ");
    stats_text_name(o, t->name, t->task);
    pad(o, 2 + w);
    cli_buf_printf(&o->b, "  %-9s  %8llu  %10s  %10s  %10s  #%llu", cause, (unsigned long long)d->count,
                   stats_text_dur(o, d->p50, a, sizeof a), stats_text_dur(o, d->p99, b, sizeof b),
                   stats_text_dur(o, d->max, c, sizeof c), (unsigned long long)d->worst_begin_index);
    stats_text_flush(o);
}

static void print_latency(out_t *o, const evrec_sched_result_t *res, size_t w)
{
    printf("ready to running: from a wake-up or a preemption to the switch-in (nearest-rank percentiles, %s;\n"
           "  worst: the READY interval's first record, evrec dump FILE --from '#N'):\n",
           res->exact ? "exact" : "within 1%, sketched");
    cli_buf_puts(&o->b, "  task");
    pad(o, 2 + w);
    cli_buf_printf(&o->b, "  %-9s  %8s  %10s  %10s  %10s  %s", "after", "count", "p50", "p99", "max", "worst");
    stats_text_flush(o);
    int any = 0;
    for (uint32_t i = 0; i < res->task_count; i++) {
        const evrec_sched_task_t *t = &res->tasks[i];
        if (t->woken.count) {
            latency_row(o, t, "wake-up", &t->woken, w);
            any = 1;
        }
        if (t->preempted.count) {
            latency_row(o, t, "preempted", &t->preempted, w);
            any = 1;
        }
    }
    if (!any) {
        printf("  (no READY interval ended in a switch-in)\n");
    }
}

/* "QueueOp rx_queue", "delay", "suspended", "blocked (no object recorded)". */
static void put_wait_on(out_t *o, const evrec_sched_wait_t *x)
{
    if (x->object_event != EVREC_SCHED_NONE) {
        cli_buf_printf(&o->b, "%s ", evrec_reader_event_name(o->r, x->object_event));
        stats_text_name(o, x->object_name, x->object);
    } else if (x->what == EVREC_TASK_SUSPENDED) {
        cli_buf_puts(&o->b, "suspended");
    } else if (x->cause == 3u) {
        cli_buf_puts(&o->b, "delay");
    } else {
        cli_buf_puts(&o->b, "blocked (no object recorded)");
    }
}

static void print_waits(out_t *o, const evrec_sched_result_t *res, size_t w)
{
    char a[32], b[32], c[32];
    printf("blocked and suspended (complete intervals, by task and object; longest: its first record):\n");
    if (!res->wait_count) {
        printf("  (none)\n");
        return;
    }
    cli_buf_puts(&o->b, "  task");
    pad(o, 2 + w);
    cli_buf_puts(&o->b, "  on");
    pad(o, 2 + w + 2 + 28);
    cli_buf_printf(&o->b, "  %8s  %12s  %10s  %10s  %s", "count", "total", "mean", "max", "longest");
    stats_text_flush(o);
    for (uint32_t i = 0; i < res->wait_count; i++) {
        const evrec_sched_wait_t *x = &res->waits[i];
        cli_buf_puts(&o->b, "  ");
        stats_text_name(o, x->task_name, x->task);
        pad(o, 2 + w);
        cli_buf_puts(&o->b, "  ");
        put_wait_on(o, x);
        pad(o, 2 + w + 2 + 28);
        cli_buf_printf(&o->b, "  %8llu  %12s  %10s  %10s  #%llu", (unsigned long long)x->count,
                       stats_text_dur(o, x->total_ticks, a, sizeof a),
                       stats_text_dur(o, x->count ? x->total_ticks / x->count : 0, b, sizeof b),
                       stats_text_dur(o, x->max_ticks, c, sizeof c), (unsigned long long)x->max_begin_index);
        stats_text_flush(o);
    }
}

/* The tasks that ran on a core, most CPU first: "a 41.00%, b 29.90%" (share of the core's time). */
static void put_core_tasks(out_t *o, const evrec_sched_result_t *res, uint16_t core, uint64_t span)
{
    char p[16];
    uint32_t shown = 0, more = 0;
    for (uint32_t j = 0; j < res->core_task_count; j++) {
        const evrec_sched_core_task_t *ct = &res->core_tasks[j];
        if (ct->core != core) {
            continue;
        }
        if (shown >= (o->top ? o->top : 5u)) {
            more++;
            continue;
        }
        cli_buf_puts(&o->b, shown++ ? ", " : "  ");
        stats_text_name(o, ct->name, ct->task);
        cli_buf_printf(&o->b, " %s", stats_text_pct(ct->cpu_ticks, span, p, sizeof p));
    }
    if (more) {
        cli_buf_printf(&o->b, ", %u more", (unsigned)more);
    }
}

static void print_cores(out_t *o, const evrec_sched_result_t *res)
{
    char a[32], b[32], c[32], k2[32], u[32], p[16];
    printf("cores (each over the whole trace; kernel: no task, not asleep; unknown: before the first switch;\n"
           "  load = 100%% - idle / (trace - unknown)):\n");
    printf("  %4s  %11s  %11s  %11s  %11s  %11s  %7s  %8s  %s\n", "core", "tasks", "isr", "idle", "kernel",
           "unknown", "load", "switches", "tasks that ran there (share of the trace)");
    for (uint32_t i = 0; i < res->core_count; i++) {
        const evrec_sched_core_t *k = &res->cores[i];
        uint64_t known = res->span_ticks -
                         (k->unknown_ticks < res->span_ticks ? k->unknown_ticks : res->span_ticks);
        cli_buf_printf(&o->b, "  %4u  %11s  %11s  %11s  %11s  %11s  %7s  %8llu", (unsigned)k->core,
                       stats_text_dur(o, k->task_ticks, a, sizeof a), stats_text_dur(o, k->isr_ticks, b, sizeof b),
                       stats_text_dur(o, k->idle_ticks, c, sizeof c),
                       stats_text_dur(o, k->kernel_ticks, k2, sizeof k2),
                       stats_text_dur(o, k->unknown_ticks, u, sizeof u),
                       stats_text_pct(known - (k->idle_ticks < known ? k->idle_ticks : known), known, p, sizeof p),
                       (unsigned long long)k->switches);
        put_core_tasks(o, res, k->core, res->span_ticks);
        stats_text_flush(o);
    }
}

void stats_print_sched(out_t *o, const evrec_sched_result_t *res)
{
    char d[32];
    size_t w = name_width(res, 4);
    printf("tasks (task-state model, %u core%s, %s): CPU time excludes interrupt handlers, share is of the "
           "trace\n",
           (unsigned)res->core_count, res->core_count == 1 ? "" : "s",
           stats_text_dur(o, res->span_ticks, d, sizeof d));
    if (res->core_count > 1) {
        printf(
            "  (summed over the cores, per core below; the CPU time table above counts the cores as one CPU)\n");
    }
    print_tasks(o, res, w);
    if (res->anomalies) {
        printf("  anomalies: %llu task record(s) contradict the state (lost records, or a hook in the wrong "
               "place)\n",
               (unsigned long long)res->anomalies);
    }
    print_latency(o, res, w);
    print_waits(o, res, w);
    print_cores(o, res);
}
