/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec timeline`: one streaming pass over the selected records into per-row time bins.
 *
 * Every row has `nbins` bins of `bw` time units from the window's start. When the window's end is
 * not given (no --to time) the bins start 1 unit wide and double (neighbours merged pairwise)
 * whenever a record falls past the last bin, so memory stays rows x nbins whatever the number of
 * records, and at the end the bins are at most twice as fine as needed (nbins >= 4 x the plot's
 * width: a bin is at most half a pixel).
 *
 * Spans are paired by evrec_spans_t (evrec_analysis.h, "Pairing rule"): the same pairing as
 * `evrec stats` and the Perfetto export, span for span. Here they are only drawn: a complete span
 * from its begin to its end (a begin of an open key nests: its own bar); a span open when records
 * were lost to damage up to the last record before the gap; one still open at the end up to the
 * window's end; an end without its begin from the window's start (or the gap's end) when it is
 * the first of its span and key there, else as a mark at its end. */
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

static unsigned kw(uint8_t kind)
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

static void on_span(void *ctx, const evrec_span_t *sp);

/* The spans' drawing facts (lane group of a span's own track field, colour by key or by kind)
 * and their pairing (evrec_spans_t). */
static int spans_prepare(tl_model_t *m)
{
    if (!m->tracks || !m->tracks->span_count) {
        return 0;
    }
    m->sp = calloc(m->tracks->span_count, sizeof *m->sp);
    if (!m->sp) {
        return -1;
    }
    for (uint32_t i = 0; i < m->tracks->span_count; i++) {
        const evrec_span_desc_t *d = &m->tracks->spans[i];
        tl_span_t *s = &m->sp[i];
        uint16_t lane_leaf = d->track_leaf;
        evrec_leaf_info_t li;
        if (lane_leaf != EVREC_TRACKS_NONE &&
            evrec_reader_leaf(m->r, d->begin.event_id, lane_leaf, &li, NULL, 0) == EVREC_OK && kw(li.kind)) {
            s->has_track = 1;
            int is_enum = li.kind >= EVREC_KIND_ENUM_UINT8 && li.kind <= EVREC_KIND_ENUM_UINT32;
            s->track_group = is_enum ? li.ref : 0x10000u + ((uint32_t)li.struct_id << 8) + (li.field_index & 0xFF);
        } else if (lane_leaf == EVREC_TRACKS_NONE) {
            lane_leaf = evrec_spans_track_leaf(m->r, i);
        }
        /* colour by key unless the key is the lane itself (a task's running span on its lane) */
        s->by_key = d->begin.key_leaf != EVREC_TRACKS_NONE && d->begin.key_leaf != lane_leaf;
    }
    evrec_status st = evrec_spans_create(&m->pair, m->r, on_span, m);
    return st == EVREC_E_NOMEM ? -1 : 0; /* a track model the reader accepted resolves */
}

int tl_agg_init(tl_model_t *m, uint32_t nbins)
{
    m->nbins = nbins;
    m->bw = 1;
    return spans_prepare(m) != 0 || tl_states_prepare(m) != 0 ? -1 : 0;
}

void tl_agg_free(tl_model_t *m)
{
    for (unsigned i = 0; i < m->nrows; i++) {
        free(m->rows[i].ib);
        free(m->rows[i].sb);
        free(m->rows[i].cb);
        free(m->rows[i].tb);
    }
    tl_states_free(m);
    evrec_spans_free(m->pair);
    free(m->ev);
    free(m->sp);
    free(m->event_seen);
}

/* ---- bins ---- */

static void merge_sbin(tl_sbin_t *o, const tl_sbin_t *a, const tl_sbin_t *b)
{
    tl_sbin_t r;
    r.cov = (a->cov + b->cov) * 0.5f;
    r.color = a->color == TL_NO_COLOR   ? b->color
              : b->color == TL_NO_COLOR ? a->color
              : a->cov >= b->cov        ? a->color
                                        : b->color;
    unsigned e = (unsigned)a->edges + b->edges;
    r.edges = (uint16_t)(e > 0xFFFF ? 0xFFFF : e);
    *o = r;
}

static void merge_ibin(tl_ibin_t *o, const tl_ibin_t *a, const tl_ibin_t *b)
{
    tl_ibin_t r = *a;
    for (unsigned k = 0; k < 2 && r.count < 2 && k < b->count; k++) {
        r.ev[r.count] = b->ev[k];
        r.mk[r.count] = b->mk[k];
        r.count++;
    }
    uint64_t c = (uint64_t)a->count + b->count;
    r.count = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
    *o = r;
}

static void merge_cbin(tl_cbin_t *o, const tl_cbin_t *a, const tl_cbin_t *b)
{
    if (!b->has) {
        *o = *a;
    } else if (!a->has) {
        *o = *b;
    } else {
        tl_cbin_t r = *b;
        r.min = a->min < b->min ? a->min : b->min;
        r.max = a->max > b->max ? a->max : b->max;
        *o = r;
    }
}

/* Double the bin width: bins 2i and 2i+1 become bin i. */
static void coarsen(tl_model_t *m)
{
    uint32_t n = m->nbins, h = n / 2;
    for (unsigned r = 0; r < m->nrows; r++) {
        tl_row_t *row = &m->rows[r];
        if (row->cb) {
            for (uint32_t i = 0; i < h; i++) {
                merge_cbin(&row->cb[i], &row->cb[2 * i], &row->cb[2 * i + 1]);
            }
            memset(row->cb + h, 0, (n - h) * sizeof *row->cb);
        }
        if (row->ib) {
            for (uint32_t i = 0; i < h; i++) {
                merge_ibin(&row->ib[i], &row->ib[2 * i], &row->ib[2 * i + 1]);
            }
            memset(row->ib + h, 0, (n - h) * sizeof *row->ib);
            for (uint32_t i = 0; row->tb && i < h; i++) {
                tl_states_merge(&row->tb[i], &row->tb[2 * i], &row->tb[2 * i + 1]);
            }
            for (uint32_t i = h; row->tb && i < n; i++) {
                memset(&row->tb[i], 0, sizeof row->tb[i]);
                row->tb[i].core = TL_NO_CORE;
            }
            for (unsigned s = 0; row->sb && s < TL_SLOTS; s++) {
                tl_sbin_t *sb = row->sb + (size_t)s * n;
                for (uint32_t i = 0; i < h; i++) {
                    merge_sbin(&sb[i], &sb[2 * i], &sb[2 * i + 1]);
                }
                for (uint32_t i = h; i < n; i++) {
                    sb[i].cov = 0;
                    sb[i].color = TL_NO_COLOR;
                    sb[i].edges = 0;
                }
            }
        }
    }
    m->bw *= 2;
}

static uint32_t bin_of(tl_model_t *m, uint64_t t);

uint32_t tl_agg_bin(tl_model_t *m, uint64_t t)
{
    return bin_of(m, t);
}

/* The bin of time t (clamped to the bins; grows the bins' reach when the end is open). */
static uint32_t bin_of(tl_model_t *m, uint64_t t)
{
    if (t < m->t_from) {
        return 0;
    }
    uint64_t d = t - m->t_from;
    if (!m->to_fixed) {
        while (d / m->bw >= m->nbins) {
            coarsen(m);
        }
    }
    uint64_t b = d / m->bw;
    return b >= m->nbins ? m->nbins - 1 : (uint32_t)b;
}

static void cover(tl_model_t *m, int row, unsigned slot, uint64_t t0, uint64_t t1, uint16_t color)
{
    if (row < 0 || !m->rows[row].ib) {
        return; /* no lane, or a counter row */
    }
    if (!m->rows[row].sb) {
        /* the lane's first span: its span bins */
        size_t n = (size_t)m->nbins * TL_SLOTS;
        tl_sbin_t *sb = calloc(n, sizeof *sb);
        if (!sb) {
            return;
        }
        for (size_t i = 0; i < n; i++) {
            sb[i].color = TL_NO_COLOR;
        }
        m->rows[row].sb = sb;
    }
    if (t0 < m->t_from) {
        t0 = m->t_from;
    }
    if (t1 < t0) {
        t1 = t0;
    }
    uint32_t b0 = bin_of(m, t0), b1 = bin_of(m, t1);
    tl_sbin_t *sb = m->rows[row].sb + (size_t)slot * m->nbins;
    if (sb[b0].edges < 0xFFFF) {
        sb[b0].edges++;
    }
    for (uint32_t b = b0; b <= b1; b++) {
        uint64_t lo = m->t_from + (uint64_t)b * m->bw, hi = lo + m->bw;
        uint64_t a = t0 > lo ? t0 : lo, z = t1 < hi ? t1 : hi;
        float f = z > a ? (float)((double)(z - a) / (double)m->bw) : 0.0f;
        float before = sb[b].cov;
        sb[b].cov += f;
        if (sb[b].color == TL_NO_COLOR || f > before) {
            sb[b].color = color;
        }
    }
    m->rows[row].spans++;
    m->span_count++;
}

/* ---- records ---- */

static uint64_t time_of(const tl_model_t *m, const evrec_record_t *rec)
{
    return m->ns_known ? rec->ns : rec->t64;
}

static int lane_of(tl_model_t *m, uint16_t id, const evrec_record_t *rec)
{
    const tl_event_t *e = &m->ev[id];
    if (e->track_leaf != EVREC_TRACKS_NONE && e->track_off + e->track_w <= rec->size) {
        return tl_lanes_row(m, TL_ROW_LANE, e->group, tl_be(rec->data + e->track_off, e->track_w), rec->index);
    }
    return tl_lanes_row(m, TL_ROW_LANE, 0x40000000u + e->class_id, 0, rec->index);
}

static int field(const evrec_record_t *rec, uint32_t off, uint8_t w, uint32_t *v)
{
    if (!w || off + w > rec->size) {
        return 0;
    }
    *v = tl_be(rec->data + off, w);
    return 1;
}

static unsigned slot_of(tl_model_t *m, int row, uint16_t desc)
{
    tl_row_t *rw = &m->rows[row];
    for (unsigned s = 0; s < rw->nslots; s++) {
        if (rw->slot_desc[s] == desc) {
            return s;
        }
    }
    if (rw->nslots < TL_SLOTS) {
        rw->slot_desc[rw->nslots] = desc;
        return rw->nslots++;
    }
    return TL_SLOTS - 1;
}

/* Has (desc, key) had a span in the window? A bounded open-addressing set: when it is full every
 * key counts as seen (no more ends without a begin drawn from the window's start). */
static int seen_key(tl_model_t *m, uint16_t desc, uint32_t key, int insert)
{
    uint64_t k = ((uint64_t)desc << 32 | key) + 1;
    uint32_t h = (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 52) & (TL_SEEN - 1);
    for (uint32_t n = 0; n < TL_SEEN; n++, h = (h + 1) & (TL_SEEN - 1)) {
        if (m->seen[h] == k) {
            return 1;
        }
        if (m->seen[h] == 0) {
            if (insert) {
                if (m->nseen + 1 >= TL_SEEN * 3 / 4) {
                    m->seen_full = 1;
                    return 1;
                }
                m->seen[h] = k;
                m->nseen++;
            }
            return m->seen_full;
        }
    }
    return 1;
}

/* The row a span is drawn on: an end without a begin on its end record's lane; else the lane of
 * its track value (the span's track field, else its begin event's), else its begin event's class
 * lane. -1: none. */
static int span_row(tl_model_t *m, const evrec_span_t *sp)
{
    if (sp->flags & EVREC_SPAN_NO_BEGIN) {
        return m->cur_lane;
    }
    const tl_span_t *s = &m->sp[sp->span];
    const tl_event_t *e = &m->ev[m->tracks->spans[sp->span].begin.event_id];
    if (sp->has_track && s->has_track) {
        return tl_lanes_row(m, TL_ROW_LANE, s->track_group, sp->track, sp->begin_index);
    }
    if (sp->has_track && e->track_leaf != EVREC_TRACKS_NONE) {
        return tl_lanes_row(m, TL_ROW_LANE, e->group, sp->track, sp->begin_index);
    }
    return tl_lanes_row(m, TL_ROW_LANE, 0x40000000u + e->class_id, 0, sp->begin_index);
}

/* Where an end without a begin is drawn from: the window's start (or the end of the last gap)
 * for the first end of its span and key there; a later one began after an earlier span of the
 * same key, at a time the records do not tell: a mark at the end only. */
static uint64_t orphan_from(tl_model_t *m, const evrec_span_t *sp, uint64_t t1)
{
    if (seen_key(m, (uint16_t)sp->span, sp->key, 0)) {
        return t1;
    }
    seen_key(m, (uint16_t)sp->span, sp->key, 1);
    return m->after_gap && m->orphan_from > m->t_from ? m->orphan_from : m->t_from;
}

/* A span paired by evrec_spans_t (evrec_analysis.h: the pairing rule), drawn: complete, cut at a gap (up to the last record before it), open at the end
 * (up to the window's end), or an end without a begin (from the window's start). */
static void on_span(void *ctx, const evrec_span_t *sp)
{
    tl_model_t *m = ctx;
    uint64_t t0 = m->ns_known ? sp->begin_ns : sp->begin_t64;
    uint64_t t1 = m->ns_known ? sp->end_ns : sp->end_t64;
    /* A record that ends several spans (QueueSleep and QueueFullSleep both end at Woken) and
     * closed none: which one began before the window the records do not tell: one bar, the first. */
    int draw = !(sp->flags & EVREC_SPAN_NO_BEGIN) || m->orphan_rec != sp->end_index + 1;
    if (sp->flags & EVREC_SPAN_NO_BEGIN) {
        if (draw) {
            m->orphan_rec = sp->end_index + 1;
            t0 = orphan_from(m, sp, t1);
        }
    } else {
        seen_key(m, (uint16_t)sp->span, sp->key, 1);
        if (sp->flags & EVREC_SPAN_AT_FINISH) {
            t1 = m->t_end;
        }
    }
    int row = draw ? span_row(m, sp) : -1;
    if (row >= 0 && m->st.sched && m->tracks->spans[sp->span].begin.event_id == m->st.switch_in) {
        /* a task running: drawn by the task states (per core), counted here */
        slot_of(m, row, (uint16_t)sp->span);
        m->rows[row].spans++;
        m->span_count++;
    } else if (row >= 0) {
        uint16_t color = (uint16_t)(m->sp[sp->span].by_key ? 64 + sp->key % 1024 : sp->span);
        cover(m, row, slot_of(m, row, (uint16_t)sp->span), t0, t1, color);
    }
    if (m->span_hook) {
        m->span_hook(m->span_hook_ctx, sp);
    }
}

void tl_agg_read(tl_model_t *m, const evrec_record_t *rec, uint64_t lost)
{
    uint64_t t = time_of(m, rec);
    if (rec->gap) {
        uint64_t t0 = m->read_any ? m->read_last_t : t;
        if (m->ngaps < TL_MAX_GAPS) {
            tl_gap_t *g = &m->gaps[m->ngaps++];
            g->t0 = t0;
            g->t1 = t;
            g->lost = lost;
        } else {
            m->gaps_more++;
        }
        m->gap_lost += lost;
        /* cut what is open at the last record given before the gap: no span is paired across it */
        evrec_spans_cut(m->pair);
        memset(m->seen, 0, sizeof m->seen); /* ends after the gap that close nothing are drawn */
        m->nseen = 0;
        m->seen_full = 0;
        m->after_gap = 1;
        m->orphan_from = t;
    }
    m->read_last_t = t;
    m->read_any = 1;
    tl_states_read(m, rec); /* every record read: the task states need them all */
}

/* The first selected record: the window's start (unless --from), the bins' width (--to). */
static void agg_start(tl_model_t *m, uint64_t t)
{
    m->started = 1;
    if (!m->from_fixed) {
        m->t_from = t;
    }
    m->first_t = t;
    if (m->to_fixed) {
        uint64_t span = m->t_to > m->t_from ? m->t_to - m->t_from : 1;
        m->bw = span / m->nbins + 1;
    }
}

/* The record's instant in bin b of its lane: counted, its first two glyphs kept. */
static void add_instant(tl_model_t *m, const evrec_record_t *rec, int lane, uint32_t b)
{
    tl_row_t *row = lane >= 0 ? &m->rows[lane] : NULL;
    if (!row || !row->ib) {
        return;
    }
    tl_ibin_t *ib = &row->ib[b];
    uint8_t mk = evrec_reader_record_marker(m->r, rec);
    if (mk > 15) {
        mk = 0;
    }
    if (ib->count < 2) {
        ib->ev[ib->count] = rec->id;
        ib->mk[ib->count] = mk;
    }
    if (ib->count < UINT32_MAX) {
        ib->count++;
    }
    row->instants++;
    m->marker_seen |= (uint16_t)(1u << mk);
}

/* The record's counter fields into their rows' bins (min, max, last). */
static void add_counters(tl_model_t *m, const evrec_record_t *rec, const tl_event_t *e, uint64_t t)
{
    for (unsigned k = 0; k < e->ncounters; k++) {
        uint32_t v, split = UINT32_MAX;
        if (!field(rec, e->counter_off[k], e->counter_w[k], &v)) {
            continue;
        }
        if (e->split_w[k]) {
            field(rec, e->split_off[k], e->split_w[k], &split);
        }
        int r = tl_lanes_row(m, TL_ROW_COUNTER, e->counter_desc[k], split, rec->index);
        if (r < 0 || !m->rows[r].cb) {
            continue;
        }
        tl_row_t *row = &m->rows[r];
        tl_cbin_t *cb = &row->cb[bin_of(m, t)];
        if (!cb->has) {
            cb->has = 1;
            cb->min = cb->max = v;
        }
        cb->min = v < cb->min ? v : cb->min;
        cb->max = v > cb->max ? v : cb->max;
        cb->last = v;
        if (!row->instants) {
            row->cmin = row->cmax = v;
        }
        row->cmin = v < row->cmin ? v : row->cmin;
        row->cmax = v > row->cmax ? v : row->cmax;
        row->instants++;
    }
}

int tl_agg_add(tl_model_t *m, const evrec_record_t *rec)
{
    uint64_t t = time_of(m, rec);
    const tl_event_t *e = &m->ev[rec->id];
    if (!m->started) {
        agg_start(m, t);
    }
    if (t > m->last_t || m->records == 0) {
        m->last_t = t;
    }
    m->records++;
    if (e->is_control) {
        /* Start, Tick, Stop: no lane (ticks would only clutter); Stop marks where drops begin */
        if (rec->size >= 7 && rec->data[6] == EVREC_CONTROL_STOP) {
            m->stop_seen = 1;
            m->stop_t = t;
        }
        (void)bin_of(m, t);
        return 0;
    }
    m->event_seen[rec->id] = 1;
    int lane = lane_of(m, rec->id, rec);
    add_instant(m, rec, lane, bin_of(m, t));
    if (m->pair) { /* the spans it closes are drawn now (on_span) */
        m->cur_lane = lane;
        if (evrec_spans_add(m->pair, rec) == EVREC_E_NOMEM) {
            return -1;
        }
    }
    add_counters(m, rec, e, t);
    return 0;
}

void tl_agg_finish(tl_model_t *m)
{
    uint64_t end = m->to_fixed ? m->t_to : m->last_t;
    m->bin_from = m->t_from;
    if (!m->to_fixed) {
        m->t_to = end;
    }
    m->t_end = end;
    if (m->pair) {
        (void)evrec_spans_finish(m->pair); /* what is still open: drawn up to the window's end */
    }
    tl_states_finish(m);
}
