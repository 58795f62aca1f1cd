/* SPDX-License-Identifier: Apache-2.0 */
/* The track model part of `evrec stats`: span durations (pairing by evrec_spans_t, per span and per
 * track) and counter fields (samples and time-weighted mean, per event and per track). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"

/* ---- spans ---- */

static an_dur_t *span_group(an_tracks_t *v, an_span_stats_t *ss, uint32_t value)
{
    if (ss->hot_index != UINT32_MAX && ss->hot_value == value) {
        return &ss->groups[ss->hot_index];
    }
    uint32_t g = an_map_get(&ss->group_map, value);
    if (g != UINT32_MAX) {
        ss->hot_value = value;
        ss->hot_index = g;
        return &ss->groups[g];
    }
    g = ss->group_count;
    uint32_t cap = ss->group_cap, vcap = ss->value_cap;
    if (an_grow((void **)&ss->groups, &cap, g, sizeof *ss->groups) != 0 ||
        an_grow((void **)&ss->group_value, &vcap, g, sizeof *ss->group_value) != 0) {
        ss->group_cap = cap < ss->group_cap ? ss->group_cap : cap;
        return NULL;
    }
    ss->group_cap = cap;
    ss->value_cap = vcap;
    if (an_map_put(&ss->group_map, value, g) != 0) {
        return NULL;
    }
    ss->group_count++;
    ss->group_value[g] = value;
    an_dur_t *d = &ss->groups[g];
    memset(d, 0, sizeof *d);
    d->store = !v->budget.sketch;
    return d;
}

/* The budget is used up: every group (and each span's `all`) goes to its sketch. */
static int to_sketch(an_tracks_t *v)
{
    int rc = 0;
    v->budget.sketch = 1;
    for (uint32_t i = 0; i < v->span_count; i++) {
        an_span_stats_t *ss = &v->spans[i];
        an_dur_t **more = NULL;
        if (ss->group_count) {
            more = malloc(ss->group_count * sizeof *more);
            if (!more) {
                rc = -1;
            } else {
                for (uint32_t g = 0; g < ss->group_count; g++) {
                    more[g] = &ss->groups[g];
                }
            }
        }
        if (an_dur_sketch_from(&ss->all, more, more ? ss->group_count : 0) != 0) {
            rc = -1;
        }
        free(more);
        an_dur_drop_values(&ss->all, &v->budget);
        ss->all.store = 0;
        for (uint32_t g = 0; g < ss->group_count; g++) {
            if (an_dur_sketch_from(&ss->groups[g], NULL, 0) != 0) {
                rc = -1;
            }
            an_dur_drop_values(&ss->groups[g], &v->budget);
            ss->groups[g].store = 0;
        }
    }
    return rc;
}

static int add_duration(an_tracks_t *v, an_dur_t *g, uint64_t dur, const evrec_span_t *sp)
{
    int rc = an_dur_add(g, &v->budget, dur, sp);
    if (rc == 1) {
        if (to_sketch(v) != 0) {
            return -1;
        }
        rc = an_dur_add(g, &v->budget, dur, sp);
    }
    return rc;
}

static void count_flags(evrec_stats_durations_t *d, unsigned flags)
{
    if (flags & EVREC_SPAN_NO_BEGIN) {
        d->unmatched_end++;
    } else if (flags & EVREC_SPAN_CUT) {
        d->cut_by_damage++;
    } else if (flags & EVREC_SPAN_AT_FINISH) {
        d->open_at_end++;
    } else if (flags & EVREC_SPAN_ACROSS_GAP) {
        d->across_gap++;
    }
}

static void on_span(void *ctx, const evrec_span_t *sp)
{
    an_tracks_t *v = ctx;
    an_span_stats_t *ss = &v->spans[sp->span];
    an_dur_t *g = sp->has_track ? span_group(v, ss, sp->track) : NULL;
    if (sp->has_track && !g) {
        v->nomem = 1;
    }
    if (sp->flags) {
        count_flags(&ss->all.d, sp->flags);
        if (g) {
            count_flags(&g->d, sp->flags);
        }
        return;
    }
    uint64_t dur = sp->end_t64 > sp->begin_t64 ? sp->end_t64 - sp->begin_t64 : 0;
    if (add_duration(v, &ss->all, dur, sp) != 0 || (g && add_duration(v, g, dur, sp) != 0)) {
        v->nomem = 1;
    }
}

/* ---- counters ---- */

static const evrec_counter_desc_t *counter_of(const evrec_tracks_t *vw, uint16_t struct_id, uint32_t field)
{
    for (uint32_t i = 0; i < vw->counter_count; i++) {
        if (vw->counters[i].struct_id == struct_id && vw->counters[i].field_index == field) {
            return &vw->counters[i];
        }
    }
    return NULL;
}

static uint8_t width_of(uint8_t kind)
{
    switch (kind) {
    case EVREC_KIND_UINT8:
    case EVREC_KIND_ENUM_UINT8: return 1;
    case EVREC_KIND_UINT16:
    case EVREC_KIND_ENUM_UINT16: return 2;
    case EVREC_KIND_UINT32:
    case EVREC_KIND_ENUM_UINT32: return 4;
    default: return 0;
    }
}

static int is_enum_kind(uint8_t kind)
{
    return kind == EVREC_KIND_ENUM_UINT8 || kind == EVREC_KIND_ENUM_UINT16 || kind == EVREC_KIND_ENUM_UINT32;
}

static uint32_t load(const evrec_record_t *rec, uint32_t off, uint8_t width)
{
    if ((uint64_t)off + width > rec->size) {
        return 0;
    }
    const uint8_t *p = rec->data + off;
    switch (width) {
    case 1: return p[0];
    case 2: return (uint32_t)p[0] << 8 | p[1];
    case 4: return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    default: return 0;
    }
}

static evrec_status counters_create(evrec_stats_t *s, const evrec_tracks_t *vw)
{
    an_tracks_t *v = &s->tracks;
    const evrec_reader_t *r = s->r;
    v->ctr_first = calloc((size_t)s->event_count + 1, sizeof *v->ctr_first);
    if (!v->ctr_first) {
        return EVREC_E_NOMEM;
    }
    uint32_t cap = 0;
    for (uint32_t ev = 0; ev < s->event_count; ev++) {
        v->ctr_first[ev] = v->ctr_count;
        if (!vw->counter_count) {
            continue;
        }
        evrec_leaf_info_t li;
        char path[256];
        for (uint32_t leaf = 2; leaf < EVREC_TRACKS_NONE; leaf++) {
            if (evrec_reader_leaf(r, (uint16_t)ev, leaf, &li, path, sizeof path) != EVREC_OK) {
                break;
            }
            const evrec_counter_desc_t *cd = counter_of(vw, li.struct_id, li.field_index);
            if (!cd || !width_of(li.kind)) {
                continue;
            }
            if (an_grow((void **)&v->ctr, &cap, v->ctr_count, sizeof *v->ctr) != 0) {
                return EVREC_E_NOMEM;
            }
            an_counter_t *c = &v->ctr[v->ctr_count++];
            memset(c, 0, sizeof *c);
            c->hot_index = UINT32_MAX;
            snprintf(c->path, sizeof c->path, "%s", path);
            c->off = li.packed_offset;
            c->width = width_of(li.kind);
            c->pub.event_id = (uint16_t)ev;
            c->pub.counter = (uint32_t)(cd - vw->counters);
            c->pub.path = c->path;
            const evrec_field_info_t *fi = evrec_reader_field_info(r, li.struct_id, li.field_index);
            c->pub.unit = fi ? fi->unit : NULL;
            evrec_leaf_info_t ti;
            uint16_t sl = evrec_meta_counter_series_leaf(evrec_reader_meta(r), ev, leaf);
            if (sl != EVREC_TRACKS_NONE &&
                evrec_reader_leaf(r, (uint16_t)ev, sl, &ti, c->series_path, sizeof c->series_path) == EVREC_OK &&
                width_of(ti.kind)) {
                c->series_off = ti.packed_offset;
                c->series_width = width_of(ti.kind);
                c->series_is_enum = is_enum_kind(ti.kind);
                c->series_enum = ti.ref;
                c->pub.series_field = c->series_path;
            }
        }
    }
    v->ctr_first[s->event_count] = v->ctr_count;
    return EVREC_OK;
}

static void series_add(an_series_t *x, uint32_t val, uint64_t t)
{
    evrec_stats_series_t *p = &x->pub;
    if (p->samples == 0) {
        p->min = p->max = val;
        p->first_t64 = t;
    } else {
        if (t > p->last_t64) {
            x->integral += (double)x->last * (double)(t - p->last_t64);
        }
        p->min = val < p->min ? val : p->min;
        p->max = val > p->max ? val : p->max;
    }
    if (p->samples == 0 || t > p->last_t64) {
        p->last_t64 = t;
    }
    p->samples++;
    x->last = val;
    x->sum += val;
}

static void series_finish(an_series_t *x, uint64_t end)
{
    evrec_stats_series_t *p = &x->pub;
    if (!p->samples) {
        return;
    }
    p->mean = x->sum / (double)p->samples;
    double integral = x->integral;
    if (end > p->last_t64) {
        integral += (double)x->last * (double)(end - p->last_t64);
    }
    uint64_t span = end > p->first_t64 ? end - p->first_t64 : 0;
    p->time_weighted_mean = span ? integral / (double)span : p->mean;
}

static an_series_t *series_of(an_counter_t *c, uint32_t value)
{
    if (c->hot_index != UINT32_MAX && c->hot_value == value) {
        return &c->series[c->hot_index];
    }
    uint32_t i = an_map_get(&c->series_map, value);
    if (i != UINT32_MAX) {
        c->hot_value = value;
        c->hot_index = i;
        return &c->series[i];
    }
    i = c->series_count;
    if (an_grow((void **)&c->series, &c->series_cap, i, sizeof *c->series) != 0 ||
        an_map_put(&c->series_map, value, i) != 0) {
        return NULL;
    }
    c->series_count++;
    memset(&c->series[i], 0, sizeof c->series[i]);
    c->series[i].pub.value = value;
    return &c->series[i];
}

/* ---- the track model part of the stats object ---- */

evrec_status an_tracks_create(evrec_stats_t *s)
{
    an_tracks_t *v = &s->tracks;
    v->budget.max = EVREC_STATS_EXACT_MAX;
    const evrec_tracks_t *vw = evrec_reader_tracks(s->r);
    if (!vw) {
        return EVREC_OK;
    }
    v->active = calloc(s->event_count ? s->event_count : 1, 1);
    if (!v->active) {
        return EVREC_E_NOMEM;
    }
    evrec_status st = counters_create(s, vw);
    if (st != EVREC_OK) {
        return st;
    }
    for (uint32_t ev = 0; ev < s->event_count; ev++) {
        v->active[ev] = v->ctr_first[ev] != v->ctr_first[ev + 1];
    }
    if (!vw->span_count) {
        return EVREC_OK;
    }
    if ((st = evrec_spans_create(&v->pair, s->r, on_span, v)) != EVREC_OK) {
        return st == EVREC_E_BAD_ID ? EVREC_OK : st; /* a track model the reader accepted resolves */
    }
    v->span_count = vw->span_count;
    v->spans = calloc(v->span_count, sizeof *v->spans);
    if (!v->spans) {
        return EVREC_E_NOMEM;
    }
    for (uint32_t i = 0; i < v->span_count; i++) {
        const evrec_span_desc_t *d = &vw->spans[i];
        an_span_stats_t *ss = &v->spans[i];
        ss->pub.name = d->name;
        ss->hot_index = UINT32_MAX;
        ss->all.store = 1;
        uint16_t tl = an_span_track_leaf(s->r, d);
        evrec_leaf_info_t li;
        if (tl != EVREC_TRACKS_NONE && evrec_reader_leaf(s->r, d->begin.event_id, tl, &li, ss->track_path,
                                                         sizeof ss->track_path) == EVREC_OK) {
            ss->pub.track_field = ss->track_path;
            ss->track_is_enum = is_enum_kind(li.kind);
            ss->track_enum = li.ref;
            ss->all.store = 0; /* the groups keep the values */
        }
        if (d->begin.event_id < s->event_count) {
            v->active[d->begin.event_id] = 1;
        }
        if (d->end.event_id < s->event_count) {
            v->active[d->end.event_id] = 1;
        }
    }
    return EVREC_OK;
}

evrec_status evrec_stats_set_exact_max(evrec_stats_t *s, uint64_t max_durations)
{
    if (!s) {
        return EVREC_E_ARG;
    }
    if (s->sum.records) {
        return EVREC_E_BUSY;
    }
    s->tracks.budget.max = max_durations;
    if (max_durations == 0) {
        s->tracks.budget.sketch = 1;
        for (uint32_t i = 0; i < s->tracks.span_count; i++) {
            s->tracks.spans[i].all.store = 0;
        }
    }
    return EVREC_OK;
}

void evrec_stats_gap(evrec_stats_t *s)
{
    if (s) {
        evrec_spans_gap(s->tracks.pair);
    }
}

evrec_status an_tracks_record(evrec_stats_t *s, const evrec_record_t *rec)
{
    an_tracks_t *v = &s->tracks;
    evrec_status st = EVREC_OK;
    if (v->pair) {
        st = evrec_spans_add(v->pair, rec);
    }
    for (uint32_t i = v->ctr_first[rec->id]; i < v->ctr_first[rec->id + 1]; i++) {
        an_counter_t *c = &v->ctr[i];
        uint32_t val = load(rec, c->off, c->width);
        series_add(&c->all, val, rec->t64);
        if (c->series_width) {
            an_series_t *x = series_of(c, load(rec, c->series_off, c->series_width));
            if (!x) {
                st = EVREC_E_NOMEM;
                continue;
            }
            series_add(x, val, rec->t64);
        }
    }
    if (v->nomem) {
        v->nomem = 0;
        st = EVREC_E_NOMEM;
    }
    return st;
}

static int by_series_value(const void *a, const void *b)
{
    const evrec_stats_series_t *x = a, *y = b;
    return (x->value > y->value) - (x->value < y->value);
}

static int by_track_value(const void *a, const void *b)
{
    const evrec_stats_span_track_t *x = a, *y = b;
    return (x->value > y->value) - (x->value < y->value);
}

static void span_finish(an_tracks_t *v, an_span_stats_t *ss, const evrec_reader_t *r)
{
    int exact = !v->budget.sketch;
    if (!ss->pub.track_field) {
        an_dur_percentiles(&ss->all, ss->all.vals, ss->all.n, exact);
    } else if (!exact) {
        an_dur_percentiles(&ss->all, NULL, 0, 0);
    } else {
        uint64_t *all = malloc((ss->all.d.count ? ss->all.d.count : 1) * sizeof *all);
        size_t n = 0;
        if (all) {
            for (uint32_t g = 0; g < ss->group_count; g++) {
                if (ss->groups[g].n) {
                    memcpy(all + n, ss->groups[g].vals, ss->groups[g].n * sizeof *all);
                    n += ss->groups[g].n;
                }
            }
            an_dur_percentiles(&ss->all, all, n, 1);
        } else { /* no room for a copy: sketch this one */
            an_dur_t *one[1];
            for (uint32_t g = 0; g < ss->group_count; g++) {
                one[0] = &ss->groups[g];
                (void)an_dur_sketch_from(&ss->all, one, 1);
            }
            an_dur_percentiles(&ss->all, NULL, 0, 0);
        }
        free(all);
    }
    for (uint32_t g = 0; g < ss->group_count; g++) {
        an_dur_percentiles(&ss->groups[g], ss->groups[g].vals, ss->groups[g].n, exact);
    }
    ss->pub.all = ss->all.d;
    ss->pub_tracks = calloc(ss->group_count ? ss->group_count : 1, sizeof *ss->pub_tracks);
    if (ss->pub_tracks) {
        for (uint32_t g = 0; g < ss->group_count; g++) {
            evrec_stats_span_track_t *t = &ss->pub_tracks[g];
            t->value = ss->group_value[g];
            t->name = ss->track_is_enum ? evrec_reader_enum_value(r, ss->track_enum, t->value, NULL) : NULL;
            t->d = ss->groups[g].d;
        }
        qsort(ss->pub_tracks, ss->group_count, sizeof *ss->pub_tracks, by_track_value);
        ss->pub.tracks = ss->pub_tracks;
        ss->pub.track_count = ss->group_count;
    }
}

evrec_status an_tracks_finish(evrec_stats_t *s)
{
    an_tracks_t *v = &s->tracks;
    evrec_status st = EVREC_OK;
    if (v->pair) {
        evrec_spans_finish(v->pair);
    }
    for (uint32_t i = 0; i < v->span_count; i++) {
        span_finish(v, &v->spans[i], s->r);
    }
    if (v->span_count) {
        v->pub_spans = calloc(v->span_count, sizeof *v->pub_spans);
        if (!v->pub_spans) {
            return EVREC_E_NOMEM;
        }
        for (uint32_t i = 0; i < v->span_count; i++) {
            v->pub_spans[i] = v->spans[i].pub;
        }
    }
    uint64_t end = s->sum.last_t64;
    if (v->ctr_count) {
        v->pub_ctr = calloc(v->ctr_count, sizeof *v->pub_ctr);
        if (!v->pub_ctr) {
            return EVREC_E_NOMEM;
        }
    }
    for (uint32_t i = 0; i < v->ctr_count; i++) {
        an_counter_t *c = &v->ctr[i];
        series_finish(&c->all, end);
        c->pub.all = c->all.pub;
        if (c->series_count) {
            c->pub_series = calloc(c->series_count, sizeof *c->pub_series);
            if (!c->pub_series) {
                st = EVREC_E_NOMEM;
            } else {
                for (uint32_t k = 0; k < c->series_count; k++) {
                    series_finish(&c->series[k], end);
                    c->pub_series[k] = c->series[k].pub;
                    c->pub_series[k].name = c->series_is_enum
                                                ? evrec_reader_enum_value(s->r, c->series_enum,
                                                                          c->pub_series[k].value, NULL)
                                                : NULL;
                }
                qsort(c->pub_series, c->series_count, sizeof *c->pub_series, by_series_value);
                c->pub.series = c->pub_series;
                c->pub.series_count = c->series_count;
            }
        }
        v->pub_ctr[i] = c->pub;
    }
    return st;
}

const evrec_stats_span_t *evrec_stats_spans(const evrec_stats_t *s, uint32_t *count)
{
    int ok = s && s->finished && s->tracks.pub_spans;
    if (count) {
        *count = ok ? s->tracks.span_count : 0;
    }
    return ok ? s->tracks.pub_spans : NULL;
}

const evrec_stats_counter_t *evrec_stats_counters(const evrec_stats_t *s, uint32_t *count)
{
    int ok = s && s->finished && s->tracks.pub_ctr;
    if (count) {
        *count = ok ? s->tracks.ctr_count : 0;
    }
    return ok ? s->tracks.pub_ctr : NULL;
}

void an_tracks_free(evrec_stats_t *s)
{
    an_tracks_t *v = &s->tracks;
    evrec_spans_free(v->pair);
    for (uint32_t i = 0; i < v->span_count && v->spans; i++) {
        an_span_stats_t *ss = &v->spans[i];
        an_dur_free(&ss->all);
        for (uint32_t g = 0; g < ss->group_count; g++) {
            an_dur_free(&ss->groups[g]);
        }
        free(ss->groups);
        free(ss->group_value);
        free(ss->pub_tracks);
        an_map_free(&ss->group_map);
    }
    free(v->spans);
    free(v->pub_spans);
    for (uint32_t i = 0; i < v->ctr_count; i++) {
        free(v->ctr[i].series);
        free(v->ctr[i].pub_series);
        an_map_free(&v->ctr[i].series_map);
    }
    free(v->ctr);
    free(v->ctr_first);
    free(v->pub_ctr);
    free(v->active);
    memset(v, 0, sizeof *v);
}
