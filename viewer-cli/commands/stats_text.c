/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec stats`: the text report (stats_text.h). */
#include <stdlib.h>
#include <string.h>

#include "stats_text.h"
#include "stream_losses.h"

typedef stats_out_t out_t;

static void flush_line(out_t *o)
{
    cli_buf_putc(&o->b, '\n');
    fwrite(o->b.p, 1, o->b.len, stdout);
    o->b.len = 0;
}

/* A duration: "1.2 us", "3.456 ms"; "-" when the frequency is unknown. */
static const char *dur(const out_t *o, uint64_t ticks, char *buf, size_t size)
{
    if (!o->freq) {
        snprintf(buf, size, "-");
        return buf;
    }
    uint64_t ns = evrec_ticks_to_ns(ticks, o->freq);
    if (ns < 1000u) {
        snprintf(buf, size, "%llu ns", (unsigned long long)ns);
    } else if (ns < 1000000u) {
        snprintf(buf, size, "%.1f us", (double)ns / 1e3);
    } else if (ns < 1000000000u) {
        snprintf(buf, size, "%.3f ms", (double)ns / 1e6);
    } else {
        snprintf(buf, size, "%.3f s", (double)ns / 1e9);
    }
    return buf;
}

/* Seconds since the first record with ns precision, or ticks when the frequency is unknown. */
static const char *at(const out_t *o, uint64_t t64, char *buf, size_t size)
{
    if (!o->freq) {
        snprintf(buf, size, "%llu ticks", (unsigned long long)t64);
    } else {
        uint64_t ns = evrec_ticks_to_ns(t64, o->freq);
        snprintf(buf, size, "%llu.%09llu s", (unsigned long long)(ns / 1000000000u),
                 (unsigned long long)(ns % 1000000000u));
    }
    return buf;
}

/* A duration in time units, or in ticks when the frequency is unknown. */
static const char *dur_or_ticks(const out_t *o, uint64_t ticks, char *buf, size_t size)
{
    if (o->freq) {
        return dur(o, ticks, buf, size);
    }
    snprintf(buf, size, "%llu", (unsigned long long)ticks);
    return buf;
}

static const char *pct(uint64_t part, uint64_t whole, char *buf, size_t size)
{
    if (!whole) {
        snprintf(buf, size, "-");
    } else {
        snprintf(buf, size, "%.2f%%", (double)part * 100.0 / (double)whole);
    }
    return buf;
}

static const char *where(const out_t *o, uint32_t addr, char *buf, size_t size)
{
    evrec_symbols_format(o->syms, addr, buf, size);
    return buf;
}

/* An escaped name into the line, or a number when there is none. */
static void put_name(out_t *o, const char *name, uint32_t value)
{
    if (name) {
        cli_buf_name(&o->b, name);
    } else {
        cli_buf_printf(&o->b, "%u", (unsigned)value);
    }
}

static void print_events(out_t *o, const evrec_stats_t *s, uint64_t span)
{
    uint32_t n;
    const evrec_stats_event_t *ev = evrec_stats_events(s, &n);
    size_t wname = 4;
    for (uint32_t i = 0; i < n; i++) {
        size_t w = cli_name_width(evrec_reader_event_name(o->r, (uint16_t)i));
        wname = w > wname ? w : wname;
    }
    wname = wname > 32 ? 32 : wname;
    printf("events: count, rate over the duration; first and last record; interval between consecutive records\n");
    cli_buf_puts(&o->b, "     id  name");
    cli_buf_pad(&o->b, 9 + wname);
    cli_buf_printf(&o->b, "  %10s  %12s  %16s  %16s  %12s  %12s  %12s", "count", "rate/s", "first", "last",
                   "min interval", "mean", "max");
    flush_line(o);
    for (uint32_t i = 0; i < n; i++) {
        const evrec_stats_event_t *e = &ev[i];
        char r[32], f[40], l[40], mn[32], me[32], mx[32];
        cli_buf_printf(&o->b, "%7u  ", (unsigned)i);
        cli_buf_name(&o->b, evrec_reader_event_name(o->r, (uint16_t)i));
        cli_buf_pad(&o->b, 9 + wname);
        if (o->freq && span) {
            snprintf(r, sizeof r, "%.3f", (double)e->count * (double)o->freq / (double)span);
        } else {
            snprintf(r, sizeof r, "-");
        }
        if (e->count == 0) {
            cli_buf_printf(&o->b, "  %10s  %12s  %16s  %16s  %12s  %12s  %12s", "0", r, "-", "-", "-", "-", "-");
        } else if (e->count == 1) {
            cli_buf_printf(&o->b, "  %10llu  %12s  %16s  %16s  %12s  %12s  %12s", (unsigned long long)e->count, r,
                           at(o, e->first_t64, f, sizeof f), at(o, e->last_t64, l, sizeof l), "-", "-", "-");
        } else {
            uint64_t mean = (e->last_t64 - e->first_t64) / (e->count - 1);
            dur_or_ticks(o, e->min_gap, mn, sizeof mn);
            dur_or_ticks(o, mean, me, sizeof me);
            dur_or_ticks(o, e->max_gap, mx, sizeof mx);
            cli_buf_printf(&o->b, "  %10llu  %12s  %16s  %16s  %12s  %12s  %12s", (unsigned long long)e->count, r,
                           at(o, e->first_t64, f, sizeof f), at(o, e->last_t64, l, sizeof l), mn, me, mx);
        }
        flush_line(o);
    }
}

/* One row of the CPU table; `label` is plain text (names already escaped). */
static void print_context(out_t *o, const char *label, uint64_t ticks, uint64_t span, int show_runs, uint64_t runs,
                          uint64_t longest)
{
    char d[32], p[16], m[32];
    cli_buf_printf(&o->b, "  %s", label);
    cli_buf_pad(&o->b, 44);
    cli_buf_printf(&o->b, " %12llu  %10s  %7s", (unsigned long long)ticks, dur(o, ticks, d, sizeof d),
                   pct(ticks, span, p, sizeof p));
    if (show_runs) {
        if (longest) {
            snprintf(m, sizeof m, "%llu", (unsigned long long)longest);
        } else {
            snprintf(m, sizeof m, "-");
        }
        cli_buf_printf(&o->b, "  %6llu  %12s  %10s", (unsigned long long)runs, m,
                       longest ? dur(o, longest, d, sizeof d) : "");
    }
    flush_line(o);
}

/* "task NAME" or "isr NAME (vector N)", escaped. */
static char *context_label(const evrec_stats_context_t *c, int isr)
{
    cli_buf_t b = {0};
    cli_buf_puts(&b, isr ? "isr  " : "task ");
    if (c->name) {
        cli_buf_name(&b, c->name);
    } else {
        char n[16];
        snprintf(n, sizeof n, "%u", (unsigned)c->value);
        cli_buf_puts(&b, n);
    }
    if (isr) {
        char v[32];
        snprintf(v, sizeof v, " (vector %u)", (unsigned)c->vector);
        cli_buf_puts(&b, v);
    }
    cli_buf_putc(&b, 0);
    return cli_buf_take(&b);
}

static void print_edges(out_t *o, const evrec_stats_rtos_t *rt)
{
    char d[40];
    int any = 0;
    const char *lead = "  trace edges: ";
    const char *next = "               ";
    for (int isr = 0; isr < 2; isr++) {
        const evrec_stats_context_t *c = isr ? rt->isrs : rt->tasks;
        uint32_t n = isr ? rt->isr_count : rt->task_count;
        for (uint32_t i = 0; i < n; i++) {
            if (c[i].open_at_start) {
                cli_buf_printf(&o->b, "%s%s ", any++ ? next : lead, isr ? "isr" : "task");
                put_name(o, c[i].name, c[i].value);
                cli_buf_printf(
                    &o->b, " was running when the trace began (%s before any %s): charged from the first record",
                    isr ? "IsrExit" : "TaskSwitchOut", isr ? "IsrEnter" : "TaskSwitchIn");
                flush_line(o);
            }
            if (c[i].open_at_end) {
                cli_buf_printf(&o->b, "%s%s ", any++ ? next : lead, isr ? "isr" : "task");
                put_name(o, c[i].name, c[i].value);
                cli_buf_printf(&o->b, " was still running at the last record: charged up to it");
                flush_line(o);
            }
        }
    }
    if (rt->idle_open_at_start) {
        cli_buf_printf(&o->b, "%sthe CPU was idle when the trace began (IdleWake first): charged to idle",
                       any++ ? next : lead);
        flush_line(o);
    }
    if (rt->idle_open_at_end) {
        cli_buf_printf(&o->b, "%sthe CPU was idle at the last record", any++ ? next : lead);
        flush_line(o);
    }
    if (rt->unknown_ticks) {
        cli_buf_printf(&o->b, "%s%llu ticks (%s) before the first event that tells what ran: unknown",
                       any++ ? next : lead, (unsigned long long)rt->unknown_ticks,
                       dur(o, rt->unknown_ticks, d, sizeof d));
        flush_line(o);
    }
    if (rt->anomalies) {
        cli_buf_printf(&o->b, "  anomalies: %llu record(s) contradict the state; the first, at %s: %s",
                       (unsigned long long)rt->anomalies, at(o, rt->first_anomaly_t64, d, sizeof d),
                       rt->first_anomaly ? rt->first_anomaly : "?");
        flush_line(o);
    }
}

static void print_cpu(out_t *o, const evrec_stats_rtos_t *rt)
{
    char d[32], p[16];
    uint64_t span = rt->span_ticks;
    printf("CPU time (RTOS catalogue) over %llu ticks (%s), one CPU; ISR time is exclusive of nested ISRs:\n",
           (unsigned long long)span, dur(o, span, d, sizeof d));
    cli_buf_puts(&o->b, "  context");
    cli_buf_pad(&o->b, 44);
    cli_buf_printf(&o->b, " %12s  %10s  %7s  %6s  %12s", "ticks", "time", "share", "runs", "longest run");
    flush_line(o);
    for (int isr = 0; isr < 2; isr++) {
        const evrec_stats_context_t *cs = isr ? rt->isrs : rt->tasks;
        uint32_t n = isr ? rt->isr_count : rt->task_count;
        for (uint32_t i = 0; i < n; i++) {
            char *label = context_label(&cs[i], isr);
            print_context(o, label, cs[i].ticks, span, 1, cs[i].activations, cs[i].max_ticks);
            free(label);
        }
    }
    print_context(o, "idle", rt->idle_ticks, span, 0, 0, 0);
    print_context(o, "kernel (switch-out/wake to switch-in)", rt->kernel_ticks, span, 0, 0, 0);
    if (rt->unknown_ticks) {
        print_context(o, "unknown (before the first task event)", rt->unknown_ticks, span, 0, 0, 0);
    }
    uint64_t busy = span - rt->idle_ticks;
    printf("  load: %s busy (%llu ticks), idle %s\n", pct(busy, span, p, sizeof p), (unsigned long long)busy,
           pct(rt->idle_ticks, span, d, sizeof d));
    if (rt->max_isr_depth > 1) {
        printf("  deepest ISR nesting: %u\n", (unsigned)rt->max_isr_depth);
    }
    for (uint32_t i = 0; i < rt->isr_count; i++) {
        const evrec_stats_context_t *c = &rt->isrs[i];
        if (c->max_inclusive > c->max_ticks) {
            cli_buf_printf(&o->b, "  isr ");
            put_name(o, c->name, c->value);
            cli_buf_printf(&o->b, ": longest entry to exit with nested handlers %llu ticks (%s)",
                           (unsigned long long)c->max_inclusive, dur(o, c->max_inclusive, d, sizeof d));
            flush_line(o);
        }
    }
    print_edges(o, rt);
}

static void print_int(out_t *o, const evrec_stats_rtos_t *rt)
{
    char d[32], p[16], w[160], w2[160], t[40];
    printf("interrupts disabled (IntControl): %llu span(s), %llu ticks in all (%s of the trace)\n",
           (unsigned long long)rt->int_spans, (unsigned long long)rt->int_ticks,
           pct(rt->int_ticks, rt->span_ticks, p, sizeof p));
    if (rt->int_spans) {
        const evrec_stats_int_span_t *l = &rt->longest;
        printf("  longest interrupt-disabled span: %llu ticks (%s) at %s, restored at %s, %s into the trace\n",
               (unsigned long long)l->ticks, dur(o, l->ticks, d, sizeof d),
               where(o, l->disable_caller, w, sizeof w), where(o, l->restore_caller, w2, sizeof w2),
               at(o, l->start_t64, t, sizeof t));
    }
    if (rt->int_open_at_start) {
        printf("  open at the start: interrupts were disabled when the trace began, for at least %llu ticks (%s); "
               "not ranked\n",
               (unsigned long long)rt->int_open_start_ticks, dur(o, rt->int_open_start_ticks, d, sizeof d));
    }
    if (rt->int_open_at_end) {
        printf("  open at the end: still disabled at the last record, since %s, for at least %llu ticks (%s); "
               "not ranked\n",
               rt->int_open_end_caller ? where(o, rt->int_open_end_caller, w, sizeof w) : "before the trace",
               (unsigned long long)rt->int_open_end_ticks, dur(o, rt->int_open_end_ticks, d, sizeof d));
    }
    if (rt->int_site_count && o->top) {
        printf("  by location of the disable (longest first):\n");
        printf("  %8s  %14s  %12s  %14s  %s\n", "spans", "longest", "", "total", "location");
        for (uint32_t i = 0; i < rt->int_site_count && i < o->top; i++) {
            const evrec_stats_int_site_t *s = &rt->int_sites[i];
            printf("  %8llu  %14llu  %12s  %14llu  %s\n", (unsigned long long)s->count,
                   (unsigned long long)s->max_ticks, dur(o, s->max_ticks, d, sizeof d),
                   (unsigned long long)s->total_ticks, where(o, s->caller, w, sizeof w));
        }
        if (rt->int_site_count > o->top) {
            printf("  ... %u more location(s)\n", (unsigned)(rt->int_site_count - o->top));
        }
    }
}

static void print_sync(out_t *o, const evrec_stats_rtos_t *rt)
{
    char d[32], d2[32];
    printf("synchronisation objects: %u\n", (unsigned)rt->sync_count);
    if (rt->sync_count) {
        cli_buf_puts(&o->b, "  kind      object");
        cli_buf_pad(&o->b, 36);
        cli_buf_printf(&o->b, " %10s  %8s  %8s  %8s  %12s  %12s  %s", "ops", "blocks", "timeouts", "waits",
                       "total wait", "longest wait", "(task)");
        flush_line(o);
    }
    for (uint32_t i = 0; i < rt->sync_count; i++) {
        const evrec_stats_sync_t *s = &rt->sync[i];
        cli_buf_printf(&o->b, "  %-8s  ", evrec_reader_event_name(o->r, s->event_id));
        put_name(o, s->name, s->object);
        cli_buf_pad(&o->b, 36);
        cli_buf_printf(&o->b, " %10llu  %8llu  %8llu  %8llu  %12s  %12s", (unsigned long long)s->ops,
                       (unsigned long long)s->blocks, (unsigned long long)s->timeouts,
                       (unsigned long long)s->waits, s->waits ? dur_or_ticks(o, s->wait_ticks, d, sizeof d) : "-",
                       s->waits ? dur_or_ticks(o, s->wait_max, d2, sizeof d2) : "-");
        if (s->waits) {
            cli_buf_printf(&o->b, "  (");
            put_name(o, s->wait_max_task_name, s->wait_max_task);
            cli_buf_printf(&o->b, ")");
        }
        flush_line(o);
    }
    if (rt->still_blocked) {
        printf("  still blocked at the last record: %llu task(s) (their waits are not counted)\n",
               (unsigned long long)rt->still_blocked);
    }
}

static void print_addresses(out_t *o, const evrec_stats_t *s)
{
    uint32_t n;
    const evrec_stats_address_t *a = evrec_stats_addresses(s, &n);
    if (!n || !o->top) {
        return;
    }
    char w[160];
    printf("address fields: most frequent values%s\n", o->syms ? "" : " (give --elf to name them)");
    for (uint32_t i = 0; i < n; i++) {
        cli_buf_printf(&o->b, "  ");
        cli_buf_name(&o->b, evrec_reader_event_name(o->r, a[i].event_id));
        cli_buf_putc(&o->b, '.');
        cli_buf_name(&o->b, a[i].field);
        cli_buf_printf(&o->b, ": %llu record(s), %u distinct value(s)", (unsigned long long)a[i].records,
                       (unsigned)a[i].distinct);
        flush_line(o);
        for (uint32_t k = 0; k < a[i].top_count && k < o->top; k++) {
            printf("  %10llu  %s\n", (unsigned long long)a[i].top[k].count,
                   where(o, a[i].top[k].value, w, sizeof w));
        }
    }
}

/* ---- spans and counters (the file's track model) ---- */

/* A duration cell: time units by magnitude, ticks when the frequency is unknown. */
static void put_dur_cell(out_t *o, uint64_t ticks, int width)
{
    char d[32];
    cli_buf_printf(&o->b, "  %*s", width, dur_or_ticks(o, ticks, d, sizeof d));
}

/* One row of the span table: label already in the line. */
static void put_durations(out_t *o, const evrec_stats_durations_t *d)
{
    cli_buf_pad(&o->b, 30);
    cli_buf_printf(&o->b, " %10llu  %8llu  %8llu", (unsigned long long)d->count,
                   (unsigned long long)(d->begun_again + d->open_at_end + d->cut_by_damage),
                   (unsigned long long)d->unmatched_end);
    if (d->count == 0) {
        cli_buf_printf(&o->b, "  %10s  %10s  %10s  %10s  %10s  %10s  -", "-", "-", "-", "-", "-", "-");
    } else {
        char me[32];
        put_dur_cell(o, d->min, 10);
        cli_buf_printf(&o->b, "  %10s", dur_or_ticks(o, (uint64_t)(d->mean + 0.5), me, sizeof me));
        put_dur_cell(o, d->p50, 10);
        put_dur_cell(o, d->p90, 10);
        put_dur_cell(o, d->p99, 10);
        put_dur_cell(o, d->max, 10);
        cli_buf_printf(&o->b, "  #%llu", (unsigned long long)d->worst_begin_index);
    }
    flush_line(o);
}

static void print_spans(out_t *o, const evrec_stats_t *s, const evrec_file_info_t *fi)
{
    uint32_t n;
    const evrec_stats_span_t *sp = evrec_stats_spans(s, &n);
    if (!n) {
        return;
    }
    int exact = 1;
    for (uint32_t i = 0; i < n; i++) {
        exact &= sp[i].all.exact || sp[i].all.count == 0;
    }
    printf(
        "spans: begin to end of each complete pair%s; percentiles nearest-rank, %s;\n"
        "  unmatched: begins never ended (cut by damage, or open at the last record) and ends that closed nothing;\n"
        "  'longest at' is the begin of the longest (evrec dump --from '#N')\n",
        o->freq ? "" : " (ticks)",
        exact ? "exact" : "from a log-bucket sketch (DDSketch), within 1% of the exact value");
    cli_buf_puts(&o->b, "  span / track");
    cli_buf_pad(&o->b, 30);
    cli_buf_printf(&o->b, " %10s  %8s  %8s  %10s  %10s  %10s  %10s  %10s  %10s  %s", "count", "unm.beg", "unm.end",
                   "min", "mean", "p50", "p90", "p99", "max", "longest at");
    flush_line(o);
    for (uint32_t i = 0; i < n; i++) {
        cli_buf_puts(&o->b, "  ");
        cli_buf_name(&o->b, sp[i].name);
        if (sp[i].track_count) {
            cli_buf_puts(&o->b, " (all)");
        }
        put_durations(o, &sp[i].all);
        for (uint32_t k = 0; k < sp[i].track_count; k++) {
            const evrec_stats_span_track_t *t = &sp[i].tracks[k];
            cli_buf_puts(&o->b, "    ");
            cli_buf_name(&o->b, sp[i].track_field);
            cli_buf_putc(&o->b, ' ');
            put_name(o, t->name, t->value);
            put_durations(o, &t->d);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        const evrec_stats_durations_t *d = &sp[i].all;
        if (d->open_at_end) {
            cli_buf_printf(&o->b, "  ");
            cli_buf_name(&o->b, sp[i].name);
            cli_buf_printf(&o->b, ": %llu still open at the last record", (unsigned long long)d->open_at_end);
            if (fi->format == EVREC_FILE_CONTAINER && fi->dropped && !(fi->flags & 1u)) {
                cli_buf_printf(
                    &o->b,
                    " (the buffer filled and %llu event(s) were dropped from then on: their ends were lost)",
                    (unsigned long long)fi->dropped);
            }
            flush_line(o);
        }
        if (d->across_gap) {
            cli_buf_printf(&o->b, "  ");
            cli_buf_name(&o->b, sp[i].name);
            cli_buf_printf(&o->b, ": %llu across a gap in the records: not measured",
                           (unsigned long long)d->across_gap);
            flush_line(o);
        }
        if (d->cut_by_damage) {
            cli_buf_printf(&o->b, "  ");
            cli_buf_name(&o->b, sp[i].name);
            cli_buf_printf(&o->b,
                           ": %llu cut by damage (open when records were lost: not paired across, not measured)",
                           (unsigned long long)d->cut_by_damage);
            flush_line(o);
        }
    }
    if (fi->format == EVREC_FILE_CONTAINER && fi->dropped && (fi->flags & 1u)) {
        printf("  %llu event(s) were dropped at unknown places of the cyclic buffer: a lost end leaves its begin\n"
               "  open (a later begin of its key nests in it), a lost begin shows as an end that closed nothing\n",
               (unsigned long long)fi->dropped);
    }
}

static void put_series(out_t *o, const evrec_stats_series_t *x, const char *unit)
{
    cli_buf_pad(&o->b, 34);
    cli_buf_printf(&o->b, " %10llu  %10u  %12.3f  %10u  %14.3f", (unsigned long long)x->samples, (unsigned)x->min,
                   x->mean, (unsigned)x->max, x->time_weighted_mean);
    if (unit) {
        cli_buf_puts(&o->b, "  ");
        cli_buf_name(&o->b, unit);
    }
    flush_line(o);
}

static void print_counters(out_t *o, const evrec_stats_t *s)
{
    uint32_t n;
    const evrec_stats_counter_t *c = evrec_stats_counters(s, &n);
    if (!n) {
        return;
    }
    printf("counters: samples, their min/mean/max, and the time-weighted mean (each value held until the next\n"
           "  sample, the last one until the last record)\n");
    cli_buf_puts(&o->b, "  counter / series");
    cli_buf_pad(&o->b, 34);
    cli_buf_printf(&o->b, " %10s  %10s  %12s  %10s  %14s", "samples", "min", "mean", "max", "time-weighted");
    flush_line(o);
    for (uint32_t i = 0; i < n; i++) {
        cli_buf_puts(&o->b, "  ");
        cli_buf_name(&o->b, evrec_reader_event_name(o->r, c[i].event_id));
        cli_buf_putc(&o->b, '.');
        cli_buf_name(&o->b, c[i].path);
        if (c[i].series_count) {
            cli_buf_puts(&o->b, " (all)");
        }
        put_series(o, &c[i].all, c[i].unit);
        for (uint32_t k = 0; k < c[i].series_count; k++) {
            cli_buf_puts(&o->b, "    ");
            cli_buf_name(&o->b, c[i].series_field);
            cli_buf_putc(&o->b, ' ');
            put_name(o, c[i].series[k].name, c[i].series[k].value);
            put_series(o, &c[i].series[k], c[i].unit);
        }
    }
}

/* "damage:" lines: the damaged ranges the reader met, and the records they lost (the reader's
 * list; the messages go to stderr at the end). */
static void print_damage(const evrec_reader_t *r)
{
    uint64_t n = evrec_reader_damage_count(r);
    if (n == 0) {
        return;
    }
    uint64_t lost = 0, unknown = 0;
    const evrec_damage_t *d;
    for (uint64_t i = 0; (d = evrec_reader_damage(r, i)) != NULL; i++) {
        if (d->records_lost == UINT64_MAX) {
            unknown++;
        } else {
            lost += d->records_lost;
        }
    }
    printf("damage:      %llu damaged range%s, %llu record%s lost", (unsigned long long)n, n == 1 ? "" : "s",
           (unsigned long long)lost, lost == 1 ? "" : "s");
    if (unknown) {
        printf(" (+ %s: %llu range%s where reading stopped or the count is unknown)",
               cli_damage_stopped(r) ? "the rest of the file" : "unknown", (unsigned long long)unknown,
               unknown == 1 ? "" : "s");
    }
    printf("; spans open at a gap are cut, intervals across one not measured\n");
    for (uint64_t i = 0; (d = evrec_reader_damage(r, i)) != NULL && i < 20u; i++) {
        printf("             offset %llu", (unsigned long long)d->offset);
        if (d->length) {
            printf(" +%llu bytes", (unsigned long long)d->length);
        }
        if (d->records_lost == UINT64_MAX) {
            printf(": records lost unknown");
        } else {
            printf(": %llu record%s lost", (unsigned long long)d->records_lost, d->records_lost == 1 ? "" : "s");
        }
        if (d->index_after != UINT64_MAX) {
            printf(", next record #%llu", (unsigned long long)d->index_after);
        }
        printf("\n");
    }
    if (n > 20u) {
        printf("             %llu more damaged ranges\n", (unsigned long long)(n - 20u));
    }
}

/* The text report (everything but JSON). */
void stats_print_text(out_t *o, const cli_stats_display_t *opt, const evrec_stats_t *s, evrec_time_source src,
                      uint64_t unverified, const cli_sink_end_t *end)
{
    const evrec_file_info_t *fi = evrec_reader_info(o->r);
    const evrec_stats_summary_t *sum = evrec_stats_summary(s);
    uint64_t span = sum->last_t64 - sum->first_t64;
    char d[40];
    cli_losses_headline(o->r); /* a lossy recording says so first */
    printf("file:        %s\n", opt->path);
    if (o->freq) {
        printf("clock:       %llu Hz (%s)\n", (unsigned long long)o->freq,
               src == EVREC_TIME_FILE     ? "from the file"
               : src == EVREC_TIME_OPTION ? "from --time-freq"
                                          : "derived from the ticks");
        printf("duration:    %s (%llu ticks), first record to last\n", at(o, span, d, sizeof d),
               (unsigned long long)span);
    } else {
        printf("clock:       unknown (time_freq 0 and fewer than 2 ticks): times in ticks, no rates\n");
        printf("duration:    %llu ticks, first record to last\n", (unsigned long long)span);
    }
    printf("records:     %llu", (unsigned long long)sum->records);
    if (unverified) {
        printf(" (%llu unverified: in a truncated chunk)", (unsigned long long)unverified);
    }
    if (fi->format == EVREC_FILE_CONTAINER) {
        printf("; dropped: %llu%s\n", (unsigned long long)fi->dropped, fi->dropped ? " (trace buffer full)" : "");
    } else {
        printf("; dropped: unknown (CCore files do not count drops)\n");
    }
    cli_losses_detail(o->r);
    print_damage(o->r);
    if (opt->selection) {
        printf("selection:   %llu record(s)", (unsigned long long)sum->records);
        if (end->status == EVREC_OK) {
            printf(" (reading stopped at record #%llu: %s)", (unsigned long long)end->last_index,
                   end->limit_hit ? "--limit reached" : "past the window");
        }
        printf("\n");
    }
    print_events(o, s, span);
    print_spans(o, s, fi);
    print_counters(o, s);
}

/* The RTOS part of the text report. */
void stats_print_rtos(out_t *o, const evrec_stats_t *s, const evrec_sched_result_t *sched)
{
    const evrec_stats_rtos_t *rt = evrec_stats_rtos(s);
    if (rt) {
        if (rt->mismatch) {
            printf("RTOS catalogue: ignored: %s\n", rt->mismatch);
        }
        if (rt->has_cpu) {
            print_cpu(o, rt);
        }
        if (rt->has_int) {
            print_int(o, rt);
        }
        if (rt->has_sync) {
            print_sync(o, rt);
        }
        if (sched) {
            stats_print_sched(o, sched);
        }
    } else if (evrec_stats_mismatch(s)) {
        printf("RTOS catalogue: not used: %s\n", evrec_stats_mismatch(s));
    } else {
        printf("RTOS catalogue: not in this file (not all of its events with its layout; "
               "see ports/rtos/README.md)\n");
    }
    print_addresses(o, s);
}

/* ---- shared with the kernel sections (stats_sched_text.c) ---- */

void stats_text_flush(out_t *o)
{
    flush_line(o);
}

const char *stats_text_dur(const out_t *o, uint64_t ticks, char *buf, size_t size)
{
    return dur_or_ticks(o, ticks, buf, size);
}

const char *stats_text_pct(uint64_t part, uint64_t whole, char *buf, size_t size)
{
    return pct(part, whole, buf, size);
}

void stats_text_name(out_t *o, const char *name, uint32_t value)
{
    put_name(o, name, value);
}
