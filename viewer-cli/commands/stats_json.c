/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec stats --format json`: one JSON object (RFC 8259). Strings are escaped exactly: `"` and
 * `\`, control characters as \n \t ... or \u00XX, valid UTF-8 as is, and every byte of an invalid
 * UTF-8 sequence as the code point of the same value (\u00XX), so that any name gives valid JSON. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "stats_json.h"
#include "stream_losses.h"

typedef struct js {
    cli_buf_t b;
    int first; /* no comma before the next member */
} js_t;

static void put(js_t *j, const char *s)
{
    cli_buf_puts(&j->b, s);
}

/* Length of a valid UTF-8 sequence at s (1..4), or 0. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    if (c < 0x80) {
        return 1;
    }
    size_t n;
    unsigned min;
    if ((c & 0xE0) == 0xC0) {
        n = 2, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4, min = 0x10000;
    } else {
        return 0;
    }
    unsigned cp = c & (0x7Fu >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            return 0;
        }
        cp = cp << 6 | (s[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return 0;
    }
    return n;
}

static void jstr(js_t *j, const char *s)
{
    if (!s) {
        put(j, "null");
        return;
    }
    cli_buf_putc(&j->b, '"');
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        size_t n = utf8_len(p);
        if (c == '"' || c == '\\') {
            cli_buf_putc(&j->b, '\\');
            cli_buf_putc(&j->b, (char)c);
        } else if (c == '\n') {
            put(j, "\\n");
        } else if (c == '\t') {
            put(j, "\\t");
        } else if (c == '\r') {
            put(j, "\\r");
        } else if (c == '\b') {
            put(j, "\\b");
        } else if (c == '\f') {
            put(j, "\\f");
        } else if (c < 0x20 || c == 0x7F || n == 0) {
            cli_buf_printf(&j->b, "\\u%04x", c);
        } else {
            cli_buf_put(&j->b, (const char *)p, n);
            p += n;
            continue;
        }
        p++;
    }
    cli_buf_putc(&j->b, '"');
}

/* Members and containers. */
static void key(js_t *j, const char *k)
{
    if (!j->first) {
        cli_buf_putc(&j->b, ',');
    }
    j->first = 0;
    jstr(j, k);
    cli_buf_putc(&j->b, ':');
}
static void open_(js_t *j, char c)
{
    cli_buf_putc(&j->b, c);
    j->first = 1;
}
static void close_(js_t *j, char c)
{
    cli_buf_putc(&j->b, c);
    j->first = 0;
}
static void item(js_t *j)
{
    if (!j->first) {
        cli_buf_putc(&j->b, ',');
    }
    j->first = 0;
}
static void ku64(js_t *j, const char *k, uint64_t v)
{
    key(j, k);
    cli_buf_u64(&j->b, v);
}
static void knull(js_t *j, const char *k)
{
    key(j, k);
    put(j, "null");
}
static void kbool(js_t *j, const char *k, int v)
{
    key(j, k);
    put(j, v ? "true" : "false");
}
static void kstr(js_t *j, const char *k, const char *v)
{
    key(j, k);
    jstr(j, v);
}
static void kdbl(js_t *j, const char *k, double v)
{
    key(j, k);
    if (isfinite(v)) {
        cli_buf_printf(&j->b, "%.17g", v);
    } else {
        put(j, "null");
    }
}
/* A duration in ticks as "<k>_ticks", and "<k>_ns" when the frequency is known. */
static void kdur(js_t *j, uint64_t freq, const char *k, uint64_t ticks)
{
    char name[64];
    snprintf(name, sizeof name, "%s_ticks", k);
    ku64(j, name, ticks);
    snprintf(name, sizeof name, "%s_ns", k);
    if (freq) {
        ku64(j, name, evrec_ticks_to_ns(ticks, freq));
    } else {
        knull(j, name);
    }
}

static void durations(js_t *j, uint64_t freq, const evrec_stats_durations_t *d)
{
    ku64(j, "count", d->count);
    ku64(j, "unmatched_begins", d->begun_again + d->open_at_end + d->cut_by_damage);
    ku64(j, "begun_again", d->begun_again);
    ku64(j, "open_at_end", d->open_at_end);
    ku64(j, "unmatched_ends", d->unmatched_end);
    ku64(j, "across_gap", d->across_gap);
    ku64(j, "cut_by_damage", d->cut_by_damage);
    kstr(j, "percentiles", d->count == 0 ? NULL : d->exact ? "exact" : "sketch");
    if (d->count == 0) {
        return;
    }
    kdur(j, freq, "total", d->total);
    kdur(j, freq, "min", d->min);
    kdbl(j, "mean_ticks", d->mean);
    if (freq) {
        kdbl(j, "mean_ns", d->mean * 1e9 / (double)freq);
    } else {
        knull(j, "mean_ns");
    }
    kdur(j, freq, "p50", d->p50);
    kdur(j, freq, "p90", d->p90);
    kdur(j, freq, "p99", d->p99);
    kdur(j, freq, "max", d->max);
    key(j, "longest");
    open_(j, '{');
    ku64(j, "begin_index", d->worst_begin_index);
    ku64(j, "end_index", d->worst_end_index);
    ku64(j, "begin_t64", d->worst_begin_t64);
    close_(j, '}');
}

static void spans(js_t *j, const stats_json_in_t *in)
{
    uint32_t n;
    const evrec_stats_span_t *sp = evrec_stats_spans(in->s, &n);
    key(j, "spans");
    open_(j, '[');
    for (uint32_t i = 0; i < n; i++) {
        item(j);
        open_(j, '{');
        kstr(j, "name", sp[i].name);
        kstr(j, "track_field", sp[i].track_field);
        kdbl(j, "relative_error", sp[i].all.exact || !sp[i].all.count ? 0.0 : EVREC_STATS_SKETCH_ERROR);
        durations(j, in->freq, &sp[i].all);
        key(j, "tracks");
        open_(j, '[');
        for (uint32_t k = 0; k < sp[i].track_count; k++) {
            item(j);
            open_(j, '{');
            ku64(j, "value", sp[i].tracks[k].value);
            kstr(j, "name", sp[i].tracks[k].name);
            durations(j, in->freq, &sp[i].tracks[k].d);
            close_(j, '}');
        }
        close_(j, ']');
        close_(j, '}');
    }
    close_(j, ']');
}

static void series(js_t *j, const evrec_stats_series_t *x)
{
    ku64(j, "samples", x->samples);
    if (!x->samples) {
        return;
    }
    ku64(j, "min", x->min);
    kdbl(j, "mean", x->mean);
    ku64(j, "max", x->max);
    kdbl(j, "time_weighted_mean", x->time_weighted_mean);
    ku64(j, "first_t64", x->first_t64);
    ku64(j, "last_t64", x->last_t64);
}

static void counters(js_t *j, const stats_json_in_t *in)
{
    uint32_t n;
    const evrec_stats_counter_t *c = evrec_stats_counters(in->s, &n);
    key(j, "counters");
    open_(j, '[');
    for (uint32_t i = 0; i < n; i++) {
        item(j);
        open_(j, '{');
        kstr(j, "event", evrec_reader_event_name(in->r, c[i].event_id));
        kstr(j, "field", c[i].path);
        kstr(j, "unit", c[i].unit);
        kstr(j, "series_field", c[i].series_field);
        series(j, &c[i].all);
        key(j, "series");
        open_(j, '[');
        for (uint32_t k = 0; k < c[i].series_count; k++) {
            item(j);
            open_(j, '{');
            ku64(j, "value", c[i].series[k].value);
            kstr(j, "name", c[i].series[k].name);
            series(j, &c[i].series[k]);
            close_(j, '}');
        }
        close_(j, ']');
        close_(j, '}');
    }
    close_(j, ']');
}

static void events(js_t *j, const stats_json_in_t *in, uint64_t span)
{
    uint32_t n;
    const evrec_stats_event_t *ev = evrec_stats_events(in->s, &n);
    key(j, "events");
    open_(j, '[');
    for (uint32_t i = 0; i < n; i++) {
        const evrec_stats_event_t *e = &ev[i];
        item(j);
        open_(j, '{');
        ku64(j, "id", i);
        kstr(j, "name", evrec_reader_event_name(in->r, (uint16_t)i));
        ku64(j, "count", e->count);
        if (in->freq && span) {
            kdbl(j, "rate_per_s", (double)e->count * (double)in->freq / (double)span);
        } else {
            knull(j, "rate_per_s");
        }
        if (e->count) {
            ku64(j, "first_t64", e->first_t64);
            ku64(j, "last_t64", e->last_t64);
        }
        if (e->count >= 2) {
            kdur(j, in->freq, "min_interval", e->min_gap);
            kdur(j, in->freq, "mean_interval", (e->last_t64 - e->first_t64) / (e->count - 1));
            kdur(j, in->freq, "max_interval", e->max_gap);
        }
        close_(j, '}');
    }
    close_(j, ']');
}

static void contexts(js_t *j, const char *k, const evrec_stats_context_t *c, uint32_t n, int isr)
{
    key(j, k);
    open_(j, '[');
    for (uint32_t i = 0; i < n; i++) {
        item(j);
        open_(j, '{');
        ku64(j, "value", c[i].value);
        kstr(j, "name", c[i].name);
        if (isr) {
            ku64(j, "vector", c[i].vector);
            ku64(j, "max_inclusive_ticks", c[i].max_inclusive);
        }
        ku64(j, "ticks", c[i].ticks);
        ku64(j, "activations", c[i].activations);
        ku64(j, "max_ticks", c[i].max_ticks);
        kbool(j, "open_at_start", c[i].open_at_start);
        kbool(j, "open_at_end", c[i].open_at_end);
        close_(j, '}');
    }
    close_(j, ']');
}

static void kaddr(js_t *j, const stats_json_in_t *in, const char *k, uint32_t addr)
{
    char w[160];
    ku64(j, k, addr);
    char sym[64];
    snprintf(sym, sizeof sym, "%s_symbol", k);
    if (in->syms) {
        evrec_symbols_format(in->syms, addr, w, sizeof w);
        kstr(j, sym, w);
    } else {
        knull(j, sym);
    }
}

static void rtos(js_t *j, const stats_json_in_t *in)
{
    const evrec_stats_rtos_t *rt = evrec_stats_rtos(in->s);
    key(j, "rtos");
    if (!rt) {
        put(j, "null");
        key(j, "rtos_not_used");
        jstr(j, evrec_stats_mismatch(in->s));
        return;
    }
    open_(j, '{');
    kstr(j, "ignored", rt->mismatch);
    kbool(j, "has_cpu", rt->has_cpu);
    kbool(j, "has_int", rt->has_int);
    kbool(j, "has_sync", rt->has_sync);
    ku64(j, "span_ticks", rt->span_ticks);
    ku64(j, "task_ticks", rt->task_ticks);
    ku64(j, "isr_ticks", rt->isr_ticks);
    ku64(j, "idle_ticks", rt->idle_ticks);
    ku64(j, "kernel_ticks", rt->kernel_ticks);
    ku64(j, "unknown_ticks", rt->unknown_ticks);
    kbool(j, "idle_open_at_start", rt->idle_open_at_start);
    kbool(j, "idle_open_at_end", rt->idle_open_at_end);
    contexts(j, "tasks", rt->tasks, rt->task_count, 0);
    contexts(j, "isrs", rt->isrs, rt->isr_count, 1);
    ku64(j, "max_isr_depth", rt->max_isr_depth);
    ku64(j, "anomalies", rt->anomalies);
    kstr(j, "first_anomaly", rt->first_anomaly);
    if (rt->anomalies) {
        ku64(j, "first_anomaly_t64", rt->first_anomaly_t64);
    }
    ku64(j, "int_spans", rt->int_spans);
    ku64(j, "int_ticks", rt->int_ticks);
    if (rt->int_spans) {
        key(j, "int_longest");
        open_(j, '{');
        ku64(j, "ticks", rt->longest.ticks);
        ku64(j, "start_t64", rt->longest.start_t64);
        kaddr(j, in, "disable_caller", rt->longest.disable_caller);
        kaddr(j, in, "restore_caller", rt->longest.restore_caller);
        close_(j, '}');
    }
    kbool(j, "int_open_at_start", rt->int_open_at_start);
    ku64(j, "int_open_start_ticks", rt->int_open_start_ticks);
    kbool(j, "int_open_at_end", rt->int_open_at_end);
    ku64(j, "int_open_end_ticks", rt->int_open_end_ticks);
    key(j, "int_sites");
    open_(j, '[');
    for (uint32_t i = 0; i < rt->int_site_count; i++) {
        item(j);
        open_(j, '{');
        kaddr(j, in, "caller", rt->int_sites[i].caller);
        ku64(j, "count", rt->int_sites[i].count);
        ku64(j, "total_ticks", rt->int_sites[i].total_ticks);
        ku64(j, "max_ticks", rt->int_sites[i].max_ticks);
        close_(j, '}');
    }
    close_(j, ']');
    key(j, "sync");
    open_(j, '[');
    for (uint32_t i = 0; i < rt->sync_count; i++) {
        const evrec_stats_sync_t *s = &rt->sync[i];
        item(j);
        open_(j, '{');
        kstr(j, "kind", evrec_reader_event_name(in->r, s->event_id));
        ku64(j, "object", s->object);
        kstr(j, "name", s->name);
        ku64(j, "ops", s->ops);
        ku64(j, "blocks", s->blocks);
        ku64(j, "timeouts", s->timeouts);
        ku64(j, "waits", s->waits);
        ku64(j, "wait_ticks", s->wait_ticks);
        ku64(j, "wait_max_ticks", s->wait_max);
        if (s->waits) {
            ku64(j, "wait_max_task", s->wait_max_task);
            kstr(j, "wait_max_task_name", s->wait_max_task_name);
        }
        close_(j, '}');
    }
    close_(j, ']');
    ku64(j, "still_blocked", rt->still_blocked);
    close_(j, '}');
}

/* "damage": {"ranges":N,"records_lost":M,"stopped":bool,"list":[{offset,length,status,
 * records_lost (null: unknown),index_after (null: none),message}]} -- the reader's damaged ranges
 * (the first 1,000); "ranges":0 and an empty list for an intact file. */
static void damage(js_t *j, const stats_json_in_t *in)
{
    uint64_t n = evrec_reader_damage_count(in->r), lost = 0;
    const evrec_damage_t *d;
    for (uint64_t i = 0; (d = evrec_reader_damage(in->r, i)) != NULL; i++) {
        lost += d->records_lost == UINT64_MAX ? 0 : d->records_lost;
    }
    key(j, "damage");
    open_(j, '{');
    ku64(j, "ranges", n);
    ku64(j, "records_lost", lost);
    kbool(j, "stopped", n > 0 && cli_damage_stopped(in->r));
    key(j, "list");
    open_(j, '[');
    for (uint64_t i = 0; (d = evrec_reader_damage(in->r, i)) != NULL; i++) {
        item(j);
        open_(j, '{');
        ku64(j, "offset", d->offset);
        ku64(j, "length", d->length);
        if (d->records_lost == UINT64_MAX) {
            knull(j, "records_lost");
        } else {
            ku64(j, "records_lost", d->records_lost);
        }
        if (d->index_after == UINT64_MAX) {
            knull(j, "index_after");
        } else {
            ku64(j, "index_after", d->index_after);
        }
        kstr(j, "message", d->message);
        close_(j, '}');
    }
    close_(j, ']');
    close_(j, '}');
}

/* A recording made from a stream (a LOSSES chunk, FORMAT.md section 8.4; other files have
 * neither key): "lossy", true when it lost records or bytes or its losses are unknown, and
 * "stream_losses": {"final","exact","lanes":[{"lane",
 * "dropped","drop_places","lost_transport","transport_gaps"} for each lane that lost records],
 * "damaged_bytes","damaged_ranges","ranges":[{"offset","length"}]} (input offsets). */
static void stream_losses(js_t *j, const stats_json_in_t *in)
{
    const evrec_stream_losses_t *l = evrec_reader_stream_losses(in->r);
    if (!l) {
        return;
    }
    kbool(j, "lossy", cli_losses_lossy(in->r));
    key(j, "stream_losses");
    open_(j, '{');
    kbool(j, "final", l->final);
    kbool(j, "exact", l->final && l->ended);
    key(j, "lanes");
    open_(j, '[');
    for (uint32_t k = 0; k < l->lanes; k++) {
        const evrec_lane_losses_t *x = &l->lane[k];
        if (x->dropped || x->lost_transport) {
            item(j);
            open_(j, '{');
            ku64(j, "lane", k);
            ku64(j, "dropped", x->dropped);
            ku64(j, "drop_places", x->drop_places);
            ku64(j, "lost_transport", x->lost_transport);
            ku64(j, "transport_gaps", x->transport_gaps);
            close_(j, '}');
        }
    }
    close_(j, ']');
    ku64(j, "damaged_bytes", l->damaged_bytes);
    ku64(j, "damaged_ranges", l->damaged_ranges);
    key(j, "ranges");
    open_(j, '[');
    for (uint32_t i = 0; i < l->listed; i++) {
        item(j);
        open_(j, '{');
        ku64(j, "offset", l->range[i].offset);
        ku64(j, "length", l->range[i].bytes);
        close_(j, '}');
    }
    close_(j, ']');
    close_(j, '}');
}

static void addresses(js_t *j, const stats_json_in_t *in)
{
    uint32_t n;
    const evrec_stats_address_t *a = evrec_stats_addresses(in->s, &n);
    key(j, "addresses");
    open_(j, '[');
    for (uint32_t i = 0; i < n; i++) {
        item(j);
        open_(j, '{');
        kstr(j, "event", evrec_reader_event_name(in->r, a[i].event_id));
        kstr(j, "field", a[i].field);
        ku64(j, "records", a[i].records);
        ku64(j, "distinct", a[i].distinct);
        key(j, "top");
        open_(j, '[');
        for (uint32_t k = 0; k < a[i].top_count; k++) {
            item(j);
            open_(j, '{');
            kaddr(j, in, "value", a[i].top[k].value);
            ku64(j, "count", a[i].top[k].count);
            close_(j, '}');
        }
        close_(j, ']');
        close_(j, '}');
    }
    close_(j, ']');
}

/* ---- "sched": the task-state model's figures (kernel traces only) ---- */

static void latency(js_t *j, uint64_t freq, const char *k, const evrec_stats_durations_t *d)
{
    key(j, k);
    open_(j, '{');
    ku64(j, "count", d->count);
    kstr(j, "percentiles", d->count == 0 ? NULL : d->exact ? "exact" : "sketch");
    if (d->count) {
        kdur(j, freq, "total", d->total);
        kdur(j, freq, "p50", d->p50);
        kdur(j, freq, "p90", d->p90);
        kdur(j, freq, "p99", d->p99);
        kdur(j, freq, "max", d->max);
        ku64(j, "worst_begin_index", d->worst_begin_index);
        ku64(j, "worst_end_index", d->worst_end_index);
    }
    close_(j, '}');
}

static void sched_tasks(js_t *j, const stats_json_in_t *in, const evrec_sched_result_t *x)
{
    key(j, "tasks");
    open_(j, '[');
    for (uint32_t i = 0; i < x->task_count; i++) {
        const evrec_sched_task_t *t = &x->tasks[i];
        item(j);
        open_(j, '{');
        ku64(j, "task", t->task);
        kstr(j, "name", t->name);
        kdur(j, in->freq, "cpu", t->cpu_ticks);
        kdbl(j, "share", x->span_ticks ? (double)t->cpu_ticks * 100.0 / (double)x->span_ticks : 0.0);
        ku64(j, "switches", t->switches);
        kbool(j, "deleted", t->dead);
        latency(j, in->freq, "ready_after_wakeup", &t->woken);
        latency(j, in->freq, "ready_after_preemption", &t->preempted);
        close_(j, '}');
    }
    close_(j, ']');
}

static void sched_waits(js_t *j, const stats_json_in_t *in, const evrec_sched_result_t *x)
{
    key(j, "blocked");
    open_(j, '[');
    for (uint32_t i = 0; i < x->wait_count; i++) {
        const evrec_sched_wait_t *w = &x->waits[i];
        int obj = w->object_event != EVREC_SCHED_NONE;
        item(j);
        open_(j, '{');
        ku64(j, "task", w->task);
        kstr(j, "name", w->task_name);
        kstr(j, "on",
             obj                               ? "object"
             : w->what == EVREC_TASK_SUSPENDED ? "suspended"
             : w->cause == 3u                  ? "delay"
                                               : "unknown");
        kstr(j, "event", obj ? evrec_reader_event_name(in->r, w->object_event) : NULL);
        if (obj) {
            ku64(j, "object", w->object);
        } else {
            knull(j, "object");
        }
        kstr(j, "object_name", obj ? w->object_name : NULL);
        ku64(j, "count", w->count);
        kdur(j, in->freq, "total", w->total_ticks);
        kdur(j, in->freq, "max", w->max_ticks);
        ku64(j, "longest_begin_index", w->max_begin_index);
        close_(j, '}');
    }
    close_(j, ']');
}

static void sched_cores(js_t *j, const stats_json_in_t *in, const evrec_sched_result_t *x)
{
    key(j, "cores");
    open_(j, '[');
    for (uint32_t i = 0; i < x->core_count; i++) {
        const evrec_sched_core_t *c = &x->cores[i];
        uint64_t known = x->span_ticks - (c->unknown_ticks < x->span_ticks ? c->unknown_ticks : x->span_ticks);
        item(j);
        open_(j, '{');
        ku64(j, "core", c->core);
        kdur(j, in->freq, "task", c->task_ticks);
        kdur(j, in->freq, "isr", c->isr_ticks);
        kdur(j, in->freq, "idle", c->idle_ticks);
        kdur(j, in->freq, "kernel", c->kernel_ticks);
        kdur(j, in->freq, "unknown", c->unknown_ticks);
        kdbl(j, "load", known ? (double)(known - c->idle_ticks) * 100.0 / (double)known : 0.0);
        ku64(j, "switches", c->switches);
        key(j, "tasks");
        open_(j, '[');
        for (uint32_t k = 0; k < x->core_task_count; k++) {
            const evrec_sched_core_task_t *ct = &x->core_tasks[k];
            if (ct->core == c->core) {
                item(j);
                open_(j, '{');
                ku64(j, "task", ct->task);
                kstr(j, "name", ct->name);
                kdur(j, in->freq, "cpu", ct->cpu_ticks);
                ku64(j, "switches", ct->switches);
                close_(j, '}');
            }
        }
        close_(j, ']');
        close_(j, '}');
    }
    close_(j, ']');
}

/* Only for a kernel trace: other files' output stays as it was. */
static void sched(js_t *j, const stats_json_in_t *in)
{
    const evrec_sched_result_t *x = in->sched;
    if (!x) {
        return;
    }
    key(j, "sched");
    open_(j, '{');
    kdur(j, in->freq, "span", x->span_ticks);
    kstr(j, "percentiles", x->exact ? "exact" : "sketch");
    ku64(j, "anomalies", x->anomalies);
    sched_tasks(j, in, x);
    sched_waits(j, in, x);
    sched_cores(j, in, x);
    close_(j, '}');
}

/* "attrs": {key: value...}, the recording's attributes (FORMAT.md section 2.6); left out when it
 * has none. */
static void attrs(js_t *j, const stats_json_in_t *in)
{
    uint32_t n = evrec_reader_attr_count(in->r);
    if (n == 0) {
        return;
    }
    key(j, "attrs");
    open_(j, '{');
    for (uint32_t i = 0; i < n; i++) {
        const char *k, *v;
        if (evrec_reader_attr(in->r, i, &k, &v) == EVREC_OK) {
            kstr(j, k, v);
        }
    }
    close_(j, '}');
}

int stats_json_print(const stats_json_in_t *in)
{
    js_t j = {{0}, 1};
    const evrec_file_info_t *fi = evrec_reader_info(in->r);
    const evrec_stats_summary_t *sum = evrec_stats_summary(in->s);
    uint64_t span = sum->last_t64 - sum->first_t64;
    open_(&j, '{');
    kstr(&j, "file", in->path);
    stream_losses(&j, in); /* a lossy recording says so first */
    attrs(&j, in);
    if (in->freq) {
        ku64(&j, "clock_hz", in->freq);
    } else {
        knull(&j, "clock_hz");
    }
    kstr(&j, "clock_source",
         in->src == EVREC_TIME_FILE     ? "file"
         : in->src == EVREC_TIME_OPTION ? "option"
         : in->src == EVREC_TIME_TICKS  ? "ticks"
                                        : NULL);
    kdur(&j, in->freq, "duration", span);
    ku64(&j, "records", sum->records);
    ku64(&j, "unverified", in->unverified);
    if (fi->format == EVREC_FILE_CONTAINER) {
        ku64(&j, "dropped", fi->dropped);
        kbool(&j, "cyclic", (fi->flags & 1u) != 0);
    } else {
        knull(&j, "dropped");
        knull(&j, "cyclic");
    }
    key(&j, "selection");
    if (in->selection) {
        open_(&j, '{');
        ku64(&j, "records", sum->records);
        if (in->stopped) {
            ku64(&j, "stopped_at_index", in->stopped_at);
            kstr(&j, "stopped_because", in->limit_hit ? "limit" : "window");
        } else {
            knull(&j, "stopped_at_index");
            knull(&j, "stopped_because");
        }
        close_(&j, '}');
    } else {
        put(&j, "null");
    }
    events(&j, in, span);
    spans(&j, in);
    counters(&j, in);
    rtos(&j, in);
    sched(&j, in);
    addresses(&j, in);
    damage(&j, in);
    key(&j, "error");
    if (in->damaged) {
        const evrec_reader_error_t *e = evrec_reader_error(in->r);
        open_(&j, '{');
        ku64(&j, "offset", e->offset);
        kstr(&j, "message", e->message);
        close_(&j, '}');
    } else {
        put(&j, "null");
    }
    close_(&j, '}');
    cli_buf_putc(&j.b, '\n');
    int ok = fwrite(j.b.p, 1, j.b.len, stdout) == j.b.len;
    cli_buf_free(&j.b);
    return ok;
}
