/* SPDX-License-Identifier: Apache-2.0 */
/* Span pairing over the file's track model (evrec_spans_t, evrec_analysis.h): the leaves of every span
 * end are resolved once per event into packed offsets; a record then costs a table look-up by
 * its event id and, for a span end, one hash-map operation on the open instances. */
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"

/* A leaf of a packed record: offset and width (0 = none). */
typedef struct sp_field {
    uint32_t off;
    uint8_t width;
} sp_field_t;

/* One end of one span, as seen from the event that carries it. */
typedef struct sp_end {
    uint32_t span;
    uint8_t is_begin;
    uint8_t use_track; /* the track value is part of the identity */
    sp_field_t match;
    uint32_t match_value;
    sp_field_t key;
    sp_field_t track;
} sp_end_t;

/* An open instance (its index in the slot array is the span's `instance`). */
typedef struct sp_slot {
    uint64_t begin_index, begin_t64, begin_ns;
    uint32_t key, track;
    uint32_t gap_seq;
    uint32_t depth; /* instances of the same identity open under it */
    uint32_t id;    /* its own index (kept in copies) */
    uint32_t prev;  /* the instance of the same identity it nests in, or SP_NONE */
    uint32_t next;  /* free list */
} sp_slot_t;

typedef struct sp_span {
    an_map_t open; /* identity -> innermost open slot (its `prev` chain: the outer ones) */
    evrec_spans_counts_t counts;
    uint64_t open_now;
    int has_track;
} sp_span_t;

struct evrec_spans {
    const evrec_reader_t *r;
    uint32_t span_count;
    sp_span_t *spans;
    uint32_t event_count;
    uint32_t *first; /* event_count + 1: ends of event e are ends[first[e] .. first[e+1]) */
    sp_end_t *ends;
    uint32_t *missed; /* scratch: spans whose end a record matched without closing one */
    sp_slot_t *slots;
    uint32_t slots_cap, free_head;
    uint32_t gap_seq;
    int any;
    int restart; /* evrec_spans_cut() was called: the next record starts a new stretch */
    uint64_t first_index, first_t64, first_ns, last_index, last_t64, last_ns;
    evrec_span_fn fn;
    void *ctx;
    evrec_span_fn begin_fn;
    void *begin_ctx;
    int finished;
};

#define SP_NONE UINT32_MAX

static uint32_t sp_load(const evrec_record_t *rec, sp_field_t f)
{
    const uint8_t *p = rec->data + f.off;
    if ((uint64_t)f.off + f.width > rec->size) {
        return 0;
    }
    switch (f.width) {
    case 1: return p[0];
    case 2: return (uint32_t)p[0] << 8 | p[1];
    case 4: return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    default: return 0;
    }
}

static uint8_t kind_width(uint8_t kind)
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

/* Resolve a leaf of an event (EVREC_TRACKS_NONE: a none field). Its path into `path` if given. */
static evrec_status resolve(const evrec_reader_t *r, uint16_t ev, uint16_t leaf, sp_field_t *f, char *path,
                            size_t size)
{
    memset(f, 0, sizeof *f);
    if (path && size) {
        path[0] = 0;
    }
    if (leaf == EVREC_TRACKS_NONE) {
        return EVREC_OK;
    }
    evrec_leaf_info_t li;
    evrec_status st = evrec_reader_leaf(r, ev, leaf, &li, path, path ? size : 0);
    if (st != EVREC_OK || kind_width(li.kind) == 0) {
        return EVREC_E_BAD_ID;
    }
    f->off = li.packed_offset;
    f->width = kind_width(li.kind);
    return EVREC_OK;
}

/* The leaf of event `ev` whose path is `path`, or EVREC_TRACKS_NONE. */
uint16_t an_leaf_by_path(const evrec_reader_t *r, uint16_t ev, const char *path)
{
    char p[256];
    evrec_leaf_info_t li;
    for (uint32_t leaf = 2; leaf < EVREC_TRACKS_NONE; leaf++) {
        if (evrec_reader_leaf(r, ev, leaf, &li, p, sizeof p) != EVREC_OK) {
            break;
        }
        if (strcmp(p, path) == 0) {
            return (uint16_t)leaf;
        }
    }
    return EVREC_TRACKS_NONE;
}

uint16_t an_span_track_leaf(const evrec_reader_t *r, const evrec_span_desc_t *d)
{
    return d->track_leaf != EVREC_TRACKS_NONE ? d->track_leaf : evrec_reader_event_track(r, d->begin.event_id);
}

uint16_t evrec_spans_track_leaf(const evrec_reader_t *r, uint32_t span)
{
    const evrec_tracks_t *v = r ? evrec_reader_tracks(r) : NULL;
    return v && span < v->span_count ? an_span_track_leaf(r, &v->spans[span]) : EVREC_TRACKS_NONE;
}

/* Fill the two ends of span `i` into e[0] (end) and e[1] (begin). */
static evrec_status span_ends(evrec_spans_t *p, uint32_t i, sp_end_t e[2])
{
    const evrec_span_desc_t *d = &evrec_reader_tracks(p->r)->spans[i];
    const evrec_reader_t *r = p->r;
    char kb[256], ke[256], tb[256];
    memset(e, 0, 2 * sizeof *e);
    evrec_status st;
    if ((st = resolve(r, d->end.event_id, d->end.match_leaf, &e[0].match, NULL, 0)) != EVREC_OK ||
        (st = resolve(r, d->end.event_id, d->end.key_leaf, &e[0].key, ke, sizeof ke)) != EVREC_OK ||
        (st = resolve(r, d->begin.event_id, d->begin.match_leaf, &e[1].match, NULL, 0)) != EVREC_OK ||
        (st = resolve(r, d->begin.event_id, d->begin.key_leaf, &e[1].key, kb, sizeof kb)) != EVREC_OK) {
        return st;
    }
    uint16_t bt = an_span_track_leaf(r, d);
    if ((st = resolve(r, d->begin.event_id, bt, &e[1].track, tb, sizeof tb)) != EVREC_OK) {
        return st;
    }
    uint16_t et = EVREC_TRACKS_NONE;
    if (bt != EVREC_TRACKS_NONE) {
        et = d->end.event_id == d->begin.event_id ? bt : an_leaf_by_path(r, d->end.event_id, tb);
    }
    if ((st = resolve(r, d->end.event_id, et, &e[0].track, NULL, 0)) != EVREC_OK) {
        return st;
    }
    int same_key = strcmp(kb, ke) == 0;
    uint8_t use = bt != EVREC_TRACKS_NONE && et != EVREC_TRACKS_NONE && same_key;
    e[0].span = e[1].span = i;
    e[1].is_begin = 1;
    e[0].use_track = e[1].use_track = use;
    e[0].match_value = d->end.match_value;
    e[1].match_value = d->begin.match_value;
    p->spans[i].has_track = bt != EVREC_TRACKS_NONE;
    return EVREC_OK;
}

evrec_status evrec_spans_create(evrec_spans_t **out, const evrec_reader_t *r, evrec_span_fn fn, void *ctx)
{
    if (out) {
        *out = NULL;
    }
    const evrec_meta_t *m = r ? evrec_reader_meta(r) : NULL;
    if (!out || !m) {
        return EVREC_E_ARG;
    }
    evrec_spans_t *p = calloc(1, sizeof *p);
    if (!p) {
        return EVREC_E_NOMEM;
    }
    p->r = r;
    p->fn = fn;
    p->ctx = ctx;
    p->free_head = SP_NONE;
    p->event_count = m->event_count;
    const evrec_tracks_t *v = evrec_reader_tracks(r);
    p->span_count = v ? v->span_count : 0;
    p->first = calloc((size_t)m->event_count + 1, sizeof *p->first);
    p->spans = calloc(p->span_count ? p->span_count : 1, sizeof *p->spans);
    p->ends = calloc(2 * (size_t)(p->span_count ? p->span_count : 1), sizeof *p->ends);
    p->missed = calloc(2 * (size_t)(p->span_count ? p->span_count : 1), sizeof *p->missed);
    sp_end_t *tmp = calloc(2 * (size_t)(p->span_count ? p->span_count : 1), sizeof *tmp);
    if (!p->first || !p->spans || !p->ends || !p->missed || !tmp) {
        free(tmp);
        evrec_spans_free(p);
        return EVREC_E_NOMEM;
    }
    evrec_status st = EVREC_OK;
    for (uint32_t i = 0; i < p->span_count && st == EVREC_OK; i++) {
        const evrec_span_desc_t *d = &v->spans[i];
        if (d->begin.event_id >= m->event_count || d->end.event_id >= m->event_count) {
            st = EVREC_E_BAD_ID;
            break;
        }
        st = span_ends(p, i, &tmp[2 * i]);
    }
    if (st != EVREC_OK) {
        free(tmp);
        evrec_spans_free(p);
        return st;
    }
    /* Group by event, ends before begins (a record that ends and begins closes first). */
    uint32_t n = 0;
    for (uint32_t ev = 0; ev < m->event_count; ev++) {
        p->first[ev] = n;
        for (int begin = 0; begin < 2; begin++) {
            for (uint32_t i = 0; i < p->span_count; i++) {
                const evrec_span_desc_t *d = &v->spans[i];
                if ((begin ? d->begin.event_id : d->end.event_id) == ev) {
                    p->ends[n++] = tmp[2 * i + (uint32_t)begin];
                }
            }
        }
    }
    p->first[m->event_count] = n;
    free(tmp);
    *out = p;
    return EVREC_OK;
}

static uint32_t slot_new(evrec_spans_t *p)
{
    if (p->free_head == SP_NONE) {
        uint32_t old = p->slots_cap;
        if (an_grow((void **)&p->slots, &p->slots_cap, old, sizeof *p->slots) != 0) {
            return SP_NONE;
        }
        for (uint32_t i = p->slots_cap; i-- > old;) {
            p->slots[i].next = p->free_head;
            p->slots[i].id = i;
            p->free_head = i;
        }
    }
    uint32_t s = p->free_head;
    p->free_head = p->slots[s].next;
    return s;
}

static void slot_free(evrec_spans_t *p, uint32_t s)
{
    p->slots[s].next = p->free_head;
    p->free_head = s;
}

/* The record being paired (its end_* for what it closes). */
typedef struct sp_at {
    uint64_t index, t64, ns;
} sp_at_t;

static void emit_to(evrec_span_fn fn, void *ctx, const sp_slot_t *sl, uint32_t span, const sp_at_t *end,
                    unsigned flags, int has_track)
{
    if (fn) {
        evrec_span_t x;
        memset(&x, 0, sizeof x);
        x.span = span;
        x.key = sl->key;
        x.track = sl->track;
        x.has_track = has_track;
        x.begin_index = sl->begin_index;
        x.begin_t64 = sl->begin_t64;
        x.begin_ns = sl->begin_ns;
        x.end_index = end->index;
        x.end_t64 = end->t64;
        x.end_ns = end->ns;
        x.flags = flags;
        x.depth = sl->depth;
        x.instance = flags & EVREC_SPAN_NO_BEGIN ? EVREC_SPAN_NO_INSTANCE : sl->id;
        fn(ctx, &x);
    }
}

static void emit(evrec_spans_t *p, const sp_slot_t *sl, uint32_t span, const sp_at_t *end, unsigned flags,
                 int has_track)
{
    emit_to(p->fn, p->ctx, sl, span, end, flags, has_track);
}

static uint64_t identity(const sp_end_t *e, uint32_t key, uint32_t track)
{
    return (uint64_t)key << 32 | (e->use_track ? track : 0u);
}

static void close_all(evrec_spans_t *p, unsigned flags, int reuse);

/* An end: close the innermost open instance of its identity. 1 when one was closed, 0 when none
 * was open. */
static int pair_end(evrec_spans_t *p, const sp_end_t *e, uint64_t id, const sp_at_t *at)
{
    sp_span_t *sp = &p->spans[e->span];
    uint32_t s = an_map_get(&sp->open, id);
    if (s == UINT32_MAX) {
        return 0;
    }
    sp_slot_t *sl = &p->slots[s];
    unsigned flags = sl->gap_seq != p->gap_seq ? EVREC_SPAN_ACROSS_GAP : 0u;
    if (flags) {
        sp->counts.across_gap++;
    } else {
        sp->counts.complete++;
    }
    if (sl->prev != SP_NONE) {
        (void)an_map_put(&sp->open, id, sl->prev); /* never grows: the key is there */
    } else {
        an_map_del(&sp->open, id);
    }
    sp->open_now--;
    emit(p, sl, e->span, at, flags, sp->has_track);
    slot_free(p, s);
    return 1;
}

/* A begin: open an instance of its identity, nested in the one open already (if any). */
static evrec_status pair_begin(evrec_spans_t *p, const sp_end_t *e, uint64_t id, uint32_t key, uint32_t track,
                               const sp_at_t *at)
{
    sp_span_t *sp = &p->spans[e->span];
    uint32_t outer = an_map_get(&sp->open, id);
    uint32_t s = slot_new(p);
    if (s == SP_NONE || an_map_put(&sp->open, id, s) != 0) {
        if (s != SP_NONE) {
            slot_free(p, s);
        }
        sp->counts.not_opened++;
        return EVREC_E_NOMEM;
    }
    if (++sp->open_now > sp->counts.max_open) {
        sp->counts.max_open = sp->open_now;
    }
    sp_slot_t *sl = &p->slots[s];
    sl->prev = outer == UINT32_MAX ? SP_NONE : outer;
    sl->depth = outer == UINT32_MAX ? 0u : p->slots[outer].depth + 1u;
    if (sl->depth) {
        sp->counts.nested++;
    }
    sl->begin_index = at->index;
    sl->begin_t64 = at->t64;
    sl->begin_ns = at->ns;
    sl->key = key;
    sl->track = track;
    sl->gap_seq = p->gap_seq;
    emit_to(p->begin_fn, p->begin_ctx, sl, e->span, at, EVREC_SPAN_BEGIN, sp->has_track);
    return EVREC_OK;
}

/* The ends that closed nothing (when the record closed no span at all): one each. */
static void report_missed(evrec_spans_t *p, const evrec_record_t *rec, uint32_t missed, const sp_at_t *at)
{
    for (uint32_t k = 0; k < missed; k++) {
        const sp_end_t *e = &p->ends[p->missed[k]];
        p->spans[e->span].counts.unmatched_end++;
        sp_slot_t sl;
        memset(&sl, 0, sizeof sl);
        sl.begin_index = p->first_index;
        sl.begin_t64 = p->first_t64;
        sl.begin_ns = p->first_ns;
        sl.key = e->key.width ? sp_load(rec, e->key) : 0u;
        sl.track = e->track.width ? sp_load(rec, e->track) : 0u;
        emit(p, &sl, e->span, at, EVREC_SPAN_NO_BEGIN, e->track.width != 0);
    }
}

/* Note the record as the last given; a gap (or a cut) before it starts a new stretch. */
static void note_record(evrec_spans_t *p, const evrec_record_t *rec)
{
    if (rec->gap && p->any) { /* records lost to damage: what is open is cut at the last record */
        close_all(p, EVREC_SPAN_NO_END | EVREC_SPAN_CUT, 1);
    }
    if (!p->any || rec->gap || p->restart) { /* an end that closes nothing began before here */
        p->any = 1;
        p->restart = 0;
        p->first_index = rec->index;
        p->first_t64 = rec->t64;
        p->first_ns = rec->ns;
    }
    p->last_index = rec->index;
    p->last_t64 = rec->t64;
    p->last_ns = rec->ns;
}

evrec_status evrec_spans_add(evrec_spans_t *p, const evrec_record_t *rec)
{
    if (!p || !rec) {
        return EVREC_E_ARG;
    }
    if (p->finished) {
        return EVREC_E_BUSY;
    }
    note_record(p, rec);
    if (rec->id >= p->event_count) {
        return EVREC_E_ARG;
    }
    sp_at_t at = {rec->index, rec->t64, rec->ns};
    evrec_status st = EVREC_OK;
    uint32_t missed = 0;
    int closed = 0;
    for (uint32_t i = p->first[rec->id]; i < p->first[rec->id + 1]; i++) {
        const sp_end_t *e = &p->ends[i];
        if (e->match.width && sp_load(rec, e->match) != e->match_value) {
            continue;
        }
        uint32_t key = e->key.width ? sp_load(rec, e->key) : 0u;
        uint32_t track = e->track.width ? sp_load(rec, e->track) : 0u;
        uint64_t id = identity(e, key, track);
        if (!e->is_begin) {
            if (pair_end(p, e, id, &at)) {
                closed = 1;
            } else {
                p->missed[missed++] = i;
            }
        } else if (pair_begin(p, e, id, key, track, &at) != EVREC_OK) {
            st = EVREC_E_NOMEM;
        }
    }
    if (!closed) {
        report_missed(p, rec, missed, &at);
    }
    return st;
}

void evrec_spans_on_begin(evrec_spans_t *p, evrec_span_fn fn, void *ctx)
{
    if (p) {
        p->begin_fn = fn;
        p->begin_ctx = ctx;
    }
}

void evrec_spans_cut(evrec_spans_t *p)
{
    if (p && !p->finished && p->any) {
        close_all(p, EVREC_SPAN_NO_END | EVREC_SPAN_CUT, 1);
        p->restart = 1;
    }
}

void evrec_spans_gap(evrec_spans_t *p)
{
    if (p) {
        p->gap_seq++;
    }
}

static int by_begin(const void *a, const void *b)
{
    const sp_slot_t *x = a, *y = b;
    return (x->begin_index > y->begin_index) - (x->begin_index < y->begin_index);
}

/* Report every open span with `flags` (ending at the last record given), in order of span, then
 * of begin; count each in open_at_end (finish) or cut_by_damage (cut); empty the open tables.
 * `reuse`: the slots go back to the free list and the tables stay usable (a cut). */
static void close_all(evrec_spans_t *p, unsigned flags, int reuse)
{
    sp_at_t at = {p->last_index, p->last_t64, p->last_ns};
    for (uint32_t i = 0; i < p->span_count; i++) {
        sp_span_t *sp = &p->spans[i];
        an_map_t *m = &sp->open;
        if (!m->used) {
            continue;
        }
        sp_slot_t *list = malloc(sp->open_now * sizeof *list);
        size_t n = 0;
        for (size_t k = 0; k < m->cap; k++) {
            for (uint32_t o = m->vals[k]; o != UINT32_MAX && o != SP_NONE; o = p->slots[o].prev) {
                if (list && n < sp->open_now) {
                    list[n++] = p->slots[o];
                } else { /* no memory to sort: report in table order */
                    emit(p, &p->slots[o], i, &at, flags, sp->has_track);
                }
                if (reuse) {
                    sp->counts.cut_by_damage++;
                } else {
                    sp->counts.open_at_end++;
                }
            }
        }
        if (list) {
            qsort(list, n, sizeof *list, by_begin);
            for (size_t k = 0; k < n; k++) {
                emit(p, &list[k], i, &at, flags, sp->has_track);
            }
            free(list);
        }
        if (reuse) {
            for (size_t k = 0; k < m->cap; k++) {
                for (uint32_t o = m->vals[k], up; o != UINT32_MAX && o != SP_NONE; o = up) {
                    up = p->slots[o].prev;
                    slot_free(p, o);
                }
            }
        }
        sp->open_now = 0;
        an_map_free(m);
    }
}

evrec_status evrec_spans_finish(evrec_spans_t *p)
{
    if (!p) {
        return EVREC_E_ARG;
    }
    if (p->finished) {
        return EVREC_E_BUSY;
    }
    p->finished = 1;
    close_all(p, EVREC_SPAN_NO_END | EVREC_SPAN_AT_FINISH, 0);
    return EVREC_OK;
}

uint32_t evrec_spans_count(const evrec_spans_t *p)
{
    return p ? p->span_count : 0;
}

const evrec_spans_counts_t *evrec_spans_counts(const evrec_spans_t *p, uint32_t span)
{
    return p && span < p->span_count ? &p->spans[span].counts : NULL;
}

void evrec_spans_free(evrec_spans_t *p)
{
    if (!p) {
        return;
    }
    if (p->spans) {
        for (uint32_t i = 0; i < p->span_count; i++) {
            an_map_free(&p->spans[i].open);
        }
    }
    free(p->spans);
    free(p->first);
    free(p->ends);
    free(p->missed);
    free(p->slots);
    free(p);
}
