/* SPDX-License-Identifier: Apache-2.0 */
/* The items of one side of `evrec diff` from the analysis library's results: event types
 * (evrec_stats_events), spans and their tracks (evrec_stats_spans: count, percentiles, the
 * longest's record), counters (evrec_stats_counters: time-weighted mean), tasks (the task-state
 * model: CPU share, switch-ins, ready-to-running latency after a wake-up) and interrupt handlers
 * (evrec_stats_rtos: entries, share, longest; per-handler percentiles from the samples). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_internal.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Ticks in the side's unit (ns when the clock is known). */
static double unit(const diff_collect_t *k, uint64_t ticks)
{
    return k->freq ? (double)ticks * 1e9 / (double)k->freq : (double)ticks;
}

static diff_item_t *add_item(diff_side_t *s, diff_kind_t kind, const char *name)
{
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 32;
        diff_item_t *p = realloc(s->items, cap * sizeof *p);
        if (!p) {
            return NULL;
        }
        s->items = p;
        s->cap = cap;
    }
    diff_item_t *it = &s->items[s->count];
    memset(it, 0, sizeof *it);
    it->name = strdup(name);
    if (!it->name) {
        return NULL;
    }
    s->count++;
    it->kind = kind;
    it->worst_index = UINT64_MAX;
    return it;
}

static double rate(const diff_side_t *s, uint64_t n)
{
    return s->seconds > 0 ? (double)n / s->seconds : 0;
}

/* Move the samples of a group into the item (sorted). */
static void take_samples(diff_collect_t *k, diff_item_t *it, uint32_t span, uint32_t value, int kind)
{
    for (size_t i = 0; i < k->group_count; i++) {
        diff_group_t *g = &k->groups[i];
        if (g->span == span && g->value == value && g->kind == kind) {
            if (g->s.n > 1) { /* s.v is NULL without samples */
                qsort(g->s.v, g->s.n, sizeof *g->s.v, cmp_u64);
            }
            if (kind == DIFF_GROUP_KEY && g->s.n) {
                it->worst_index = g->worst_index;
            }
            it->samples = g->s;
            memset(&g->s, 0, sizeof g->s);
            return;
        }
    }
}

static void put_durations(diff_collect_t *k, diff_item_t *it, const evrec_stats_durations_t *d)
{
    it->count = d->count;
    it->rate = rate(k->side, d->count);
    it->has_dist = d->count > 0;
    it->p50 = unit(k, d->p50);
    it->p90 = unit(k, d->p90);
    it->p99 = unit(k, d->p99);
    it->max = unit(k, d->max);
    it->worst_index = d->count ? d->worst_begin_index : UINT64_MAX;
    k->side->loss.spans_cut += d->cut_by_damage + d->open_at_end + d->unmatched_end + d->across_gap;
}

static int make_spans(diff_collect_t *k)
{
    uint32_t n = 0;
    const evrec_stats_span_t *sp = evrec_stats_spans(k->stats, &n);
    char name[256];
    for (uint32_t i = 0; i < n; i++) {
        diff_item_t *it = add_item(k->side, DIFF_SPAN, sp[i].name);
        if (!it) {
            return -1;
        }
        put_durations(k, it, &sp[i].all);
        take_samples(k, it, i, 0, DIFF_GROUP_ALL);
        it->span = i;
        for (uint32_t t = 0; t < sp[i].track_count; t++) {
            const evrec_stats_span_track_t *tr = &sp[i].tracks[t];
            if (tr->name) {
                snprintf(name, sizeof name, "%s[%s]", sp[i].name, tr->name);
            } else {
                snprintf(name, sizeof name, "%s[%u]", sp[i].name, (unsigned)tr->value);
            }
            if (!(it = add_item(k->side, DIFF_SPAN, name))) {
                return -1;
            }
            uint64_t cut = k->side->loss.spans_cut;
            put_durations(k, it, &tr->d);
            k->side->loss.spans_cut = cut; /* counted once, in the span's `all` */
            take_samples(k, it, i, tr->value, DIFF_GROUP_TRACK);
            it->span = i;
            it->value = tr->value;
            it->per_track = 1;
        }
    }
    return 0;
}

static int make_events(diff_collect_t *k)
{
    uint32_t n = 0;
    const evrec_stats_event_t *ev = evrec_stats_events(k->stats, &n);
    const evrec_meta_t *m = evrec_reader_meta(k->r);
    for (uint32_t id = 1; id < n; id++) { /* 0: EventControl */
        diff_item_t *it = add_item(k->side, DIFF_EVENT, m->structs[m->events[id].struct_id].name);
        if (!it) {
            return -1;
        }
        it->count = ev[id].count;
        it->rate = rate(k->side, ev[id].count);
    }
    return 0;
}

static int make_counters(diff_collect_t *k)
{
    uint32_t n = 0;
    const evrec_stats_counter_t *c = evrec_stats_counters(k->stats, &n);
    const evrec_meta_t *m = evrec_reader_meta(k->r);
    char name[256];
    for (uint32_t i = 0; i < n; i++) {
        const char *ev = m->structs[m->events[c[i].event_id].struct_id].name;
        for (uint32_t s = 0; s <= c[i].series_count; s++) {
            const evrec_stats_series_t *se = s == 0 ? &c[i].all : &c[i].series[s - 1];
            if (s == 0) {
                snprintf(name, sizeof name, "%s.%s", ev, c[i].path);
            } else if (se->name) {
                snprintf(name, sizeof name, "%s.%s[%s]", ev, c[i].path, se->name);
            } else {
                snprintf(name, sizeof name, "%s.%s[%u]", ev, c[i].path, (unsigned)se->value);
            }
            diff_item_t *it = add_item(k->side, DIFF_COUNTER, name);
            if (!it) {
                return -1;
            }
            it->count = se->samples;
            it->rate = rate(k->side, se->samples);
            it->mean = se->time_weighted_mean;
            it->max = se->max;
        }
    }
    return 0;
}

static int make_tasks(diff_collect_t *k)
{
    const evrec_sched_result_t *sr = k->sched ? evrec_sched_stats_result(k->sched) : NULL;
    char name[64];
    for (uint32_t i = 0; sr && i < sr->task_count; i++) {
        const evrec_sched_task_t *t = &sr->tasks[i];
        if (!t->name) {
            snprintf(name, sizeof name, "%u", (unsigned)t->task);
        }
        diff_item_t *it = add_item(k->side, DIFF_TASK, t->name ? t->name : name);
        if (!it) {
            return -1;
        }
        it->count = t->switches;
        it->value = t->task;
        it->rate = rate(k->side, t->switches);
        it->mean = sr->span_ticks ? 100.0 * (double)t->cpu_ticks / (double)sr->span_ticks : 0;
        it->has_dist = t->woken.count > 0;
        it->p50 = unit(k, t->woken.p50);
        it->p90 = unit(k, t->woken.p90);
        it->p99 = unit(k, t->woken.p99);
        it->max = unit(k, t->woken.max);
        it->worst_index = t->woken.count ? t->woken.worst_begin_index : UINT64_MAX;
    }
    k->side->kernel = sr != NULL;
    return 0;
}

/* Nearest-rank percentile of sorted samples (n > 0). */
static double rank(const diff_samples_t *s, double q)
{
    size_t i = (size_t)ceil(q * (double)s->n);
    return (double)s->v[i ? i - 1 : 0];
}

static int make_isrs(diff_collect_t *k)
{
    const evrec_stats_rtos_t *rt = evrec_stats_rtos(k->stats);
    char name[64];
    for (uint32_t i = 0; rt && rt->has_cpu && i < rt->isr_count; i++) {
        const evrec_stats_context_t *c = &rt->isrs[i];
        if (!c->name) {
            snprintf(name, sizeof name, "%u", (unsigned)c->value);
        }
        diff_item_t *it = add_item(k->side, DIFF_ISR, c->name ? c->name : name);
        if (!it) {
            return -1;
        }
        it->count = c->activations;
        it->value = c->value;
        it->rate = rate(k->side, c->activations);
        it->mean = rt->span_ticks ? 100.0 * (double)c->ticks / (double)rt->span_ticks : 0;
        it->max = unit(k, c->max_inclusive);
        take_samples(k, it, k->isr_span, c->value, DIFF_GROUP_KEY);
        if (it->samples.n) {
            it->has_dist = 1;
            it->p50 = rank(&it->samples, 0.50);
            it->p90 = rank(&it->samples, 0.90);
            it->p99 = rank(&it->samples, 0.99);
        }
    }
    return 0;
}

int diff_items_make(diff_collect_t *k)
{
    const evrec_stats_summary_t *sum = evrec_stats_summary(k->stats);
    diff_side_t *s = k->side;
    s->records = sum->records;
    uint64_t span = sum->records ? sum->last_t64 - sum->first_t64 : 0;
    s->seconds = k->freq ? (double)span / (double)k->freq : (double)span / 1e6;
    if (make_spans(k) || make_tasks(k) || make_isrs(k) || make_events(k) || make_counters(k)) {
        cli_error("%s: out of memory", s->path);
        return -1;
    }
    return 0;
}
