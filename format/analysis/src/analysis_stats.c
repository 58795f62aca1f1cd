/* SPDX-License-Identifier: Apache-2.0 */
/* The analysis object: per-event numbers for any file, and the dispatch of the catalogue's
 * records to the CPU, interrupt and sync accounting. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"

evrec_status evrec_stats_create(evrec_stats_t **out, const evrec_reader_t *r)
{
    if (out) {
        *out = NULL;
    }
    const evrec_meta_t *m = r ? evrec_reader_meta(r) : NULL;
    if (!out || !m) {
        return EVREC_E_ARG;
    }
    evrec_stats_t *s = calloc(1, sizeof *s);
    if (!s) {
        return EVREC_E_NOMEM;
    }
    s->r = r;
    s->m = m;
    s->event_count = m->event_count;
    s->ev = calloc(m->event_count ? m->event_count : 1, sizeof *s->ev);
    s->roles = calloc(m->event_count ? m->event_count : 1, sizeof *s->roles);
    s->ev_gap = calloc(m->event_count ? m->event_count : 1, sizeof *s->ev_gap);
    if (!s->ev || !s->roles || !s->ev_gap) {
        evrec_stats_free(s);
        return EVREC_E_NOMEM;
    }
    s->role_count = an_catalogue_find(m, s->roles, s->mismatch, sizeof s->mismatch);
    for (uint32_t i = 0; i < m->event_count; i++) {
        switch (s->roles[i].role) {
        case AN_INT_CONTROL: s->rt.has_int = 1; break;
        case AN_SYNC: s->rt.has_sync = 1; break;
        case AN_NONE: break;
        default: s->rt.has_cpu = 1; break;
        }
    }
    s->rt.mismatch = s->mismatch[0] ? s->mismatch : NULL;
    if (an_addr_create(s) != EVREC_OK || an_tracks_create(s) != EVREC_OK) {
        evrec_stats_free(s);
        return EVREC_E_NOMEM;
    }
    *out = s;
    return EVREC_OK;
}

void an_anomaly(evrec_stats_t *s, uint64_t t, const char *fmt, ...)
{
    if (s->rt.anomalies++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->anomaly, sizeof s->anomaly, fmt, ap);
        va_end(ap);
        s->rt.first_anomaly = s->anomaly;
        s->rt.first_anomaly_t64 = t;
    }
}

evrec_status evrec_stats_add(evrec_stats_t *s, const evrec_record_t *rec)
{
    if (!s || !rec || rec->id >= s->event_count) {
        return EVREC_E_ARG;
    }
    if (s->finished) {
        return EVREC_E_BUSY;
    }
    uint64_t t = rec->t64;
    if (s->sum.records == 0) {
        s->sum.first_t64 = t;
        s->last_t = t;
    } else if (rec->gap) { /* records lost to damage: no interval is measured across them */
        s->sum.gaps++;
        s->gap_seq++;
    }
    s->sum.records++;
    s->sum.last_t64 = t;

    evrec_stats_event_t *e = &s->ev[rec->id];
    if (e->count == 0) {
        e->first_t64 = t;
    } else if (s->ev_gap[rec->id] != s->gap_seq) {
        e->intervals_cut++;
    } else {
        uint64_t gap = t > e->last_t64 ? t - e->last_t64 : 0;
        if (e->count - e->intervals_cut == 1 || gap < e->min_gap) { /* the first interval measured */
            e->min_gap = gap;
        }
        if (gap > e->max_gap) {
            e->max_gap = gap;
        }
    }
    if (e->count == 0 || t > e->last_t64) {
        e->last_t64 = t;
    }
    s->ev_gap[rec->id] = s->gap_seq;
    e->count++;

    if (s->addr_first[rec->id] != s->addr_first[rec->id + 1] && an_addr_record(s, rec) != EVREC_OK) {
        return EVREC_E_NOMEM;
    }
    if (s->tracks.active && s->tracks.active[rec->id] && an_tracks_record(s, rec) != EVREC_OK) {
        return EVREC_E_NOMEM;
    }
    if (rec->gap && s->tracks.pair && !(s->tracks.active && s->tracks.active[rec->id])) {
        (void)evrec_spans_add(s->tracks.pair, rec); /* no span event, but the open spans are cut here */
    }
    const an_event_t *ae = &s->roles[rec->id];
    switch (ae->role) {
    case AN_NONE: return EVREC_OK;
    case AN_INT_CONTROL: return an_int_record(s, ae, rec, t);
    case AN_SYNC: return an_sync_record(s, ae, rec, t);
    default: return an_cpu_record(s, ae, rec, t);
    }
}

static int by_ticks(const void *a, const void *b)
{
    const evrec_stats_context_t *x = a, *y = b;
    if (x->ticks != y->ticks) {
        return x->ticks > y->ticks ? -1 : 1;
    }
    return (x->value > y->value) - (x->value < y->value);
}

static int by_max_span(const void *a, const void *b)
{
    const evrec_stats_int_site_t *x = a, *y = b;
    if (x->max_ticks != y->max_ticks) {
        return x->max_ticks > y->max_ticks ? -1 : 1;
    }
    return (x->caller > y->caller) - (x->caller < y->caller);
}

static int by_object(const void *a, const void *b)
{
    const evrec_stats_sync_t *x = a, *y = b;
    if (x->event_id != y->event_id) {
        return x->event_id < y->event_id ? -1 : 1;
    }
    return (x->object > y->object) - (x->object < y->object);
}

evrec_status evrec_stats_finish(evrec_stats_t *s)
{
    if (!s) {
        return EVREC_E_ARG;
    }
    if (s->finished) {
        return EVREC_E_BUSY;
    }
    s->finished = 1;
    an_cpu_finish(s);
    an_int_finish(s);
    an_sync_finish(s);
    an_addr_finish(s);
    evrec_status vst = an_tracks_finish(s);
    s->rt.span_ticks = s->sum.last_t64 - s->sum.first_t64;
    if (s->rt.task_count) {
        qsort(s->tasks, s->rt.task_count, sizeof *s->tasks, by_ticks);
    }
    if (s->rt.isr_count) {
        qsort(s->isrs, s->rt.isr_count, sizeof *s->isrs, by_ticks);
    }
    if (s->rt.int_site_count) {
        qsort(s->sites, s->rt.int_site_count, sizeof *s->sites, by_max_span);
    }
    if (s->rt.sync_count) {
        qsort(s->sync, s->rt.sync_count, sizeof *s->sync, by_object);
    }
    s->rt.tasks = s->tasks;
    s->rt.isrs = s->isrs;
    s->rt.int_sites = s->sites;
    s->rt.sync = s->sync;
    return vst;
}

const evrec_stats_event_t *evrec_stats_events(const evrec_stats_t *s, uint32_t *count)
{
    if (count) {
        *count = s ? s->event_count : 0;
    }
    return s ? s->ev : NULL;
}

const evrec_stats_address_t *evrec_stats_addresses(const evrec_stats_t *s, uint32_t *count)
{
    if (count) {
        *count = s && s->finished ? s->addr_count : 0;
    }
    return s && s->finished ? s->addr : NULL;
}

const evrec_stats_summary_t *evrec_stats_summary(const evrec_stats_t *s)
{
    return s ? &s->sum : NULL;
}

const evrec_stats_rtos_t *evrec_stats_rtos(const evrec_stats_t *s)
{
    return s && s->finished && s->role_count ? &s->rt : NULL;
}

const char *evrec_stats_mismatch(const evrec_stats_t *s)
{
    return s && s->mismatch[0] ? s->mismatch : NULL;
}

void evrec_stats_free(evrec_stats_t *s)
{
    if (!s) {
        return;
    }
    an_addr_free(s);
    an_tracks_free(s);
    free(s->ev);
    free(s->ev_gap);
    free(s->roles);
    free(s->tasks);
    free(s->isrs);
    free(s->frames);
    free(s->sites);
    free(s->sync);
    free(s->waits);
    an_map_free(&s->task_map);
    an_map_free(&s->isr_map);
    an_map_free(&s->site_map);
    an_map_free(&s->sync_map);
    an_map_free(&s->wait_map);
    free(s);
}
