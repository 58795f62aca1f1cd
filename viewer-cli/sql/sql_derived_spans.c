/* SPDX-License-Identifier: Apache-2.0 */
/* The `span` table (the one span pairing of evrec, evrec_spans_t: format/analysis/README.md) and
 * the `counter` table (one row per sample of a schema `counter: true` field). */
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_analysis.h"
#include "sql_derived.h"

/* ---- span ---- */

static void on_span(void *ctx, const evrec_span_t *s)
{
    sql_pump_t *p = ctx;
    sql_val_t *v = sql_pump_row(p);
    const evrec_tracks_t *t = evrec_reader_tracks(p->r);
    if (!v || !t || s->span >= t->span_count) {
        return;
    }
    sql_set_u64(&v[1], s->begin_ns);
    sql_set_int(&v[2], (int64_t)(s->end_ns - s->begin_ns));
    sql_set_text(&v[3], t->spans[s->span].name);
    if (s->has_track) {
        sql_set_int(&v[4], s->track);
    }
    sql_set_int(&v[5], s->key);
    sql_set_int(&v[6], s->depth);
    sql_set_u64(&v[7], s->begin_index);
    sql_set_u64(&v[8], s->end_index);
    sql_set_u64(&v[9], s->begin_t64);
    sql_set_int(&v[10], (int64_t)(s->end_t64 - s->begin_t64));
    sql_set_int(&v[11], s->flags);
    sql_set_int(&v[12], (s->flags & EVREC_SPAN_NO_BEGIN) != 0);
    sql_set_int(&v[13], (s->flags & EVREC_SPAN_NO_END) != 0);
    sql_set_int(&v[14], (s->flags & EVREC_SPAN_AT_FINISH) != 0);
    sql_set_int(&v[15], (s->flags & EVREC_SPAN_CUT) != 0);
    sql_set_int(&v[16], (s->flags & EVREC_SPAN_ACROSS_GAP) != 0);
}

static int span_begin(sql_pump_t *p)
{
    evrec_spans_t *s = NULL;
    if (evrec_spans_create(&s, p->r, on_span, p) != EVREC_OK) {
        return -1;
    }
    p->state = s;
    return 0;
}

static void span_add(sql_pump_t *p, const evrec_record_t *rec)
{
    (void)evrec_spans_add(p->state, rec); /* a begin not opened (memory) is counted by the pairing */
}

static void span_finish(sql_pump_t *p)
{
    (void)evrec_spans_finish(p->state);
}

static void span_end(sql_pump_t *p)
{
    evrec_spans_free(p->state);
}

const sql_derived_def_t sql_table_span = {
    .name = "span",
    .columns = "ts INTEGER, dur INTEGER, name TEXT, track INTEGER, key INTEGER, depth INTEGER, "
               "begin_idx INTEGER, end_idx INTEGER, ticks INTEGER, dur_ticks INTEGER, flags INTEGER, "
               "no_begin INTEGER, no_end INTEGER, at_finish INTEGER, cut INTEGER, across_gap INTEGER",
    .reads_records = 1,
    .begin = span_begin,
    .add = span_add,
    .finish = span_finish,
    .end = span_end,
};

/* ---- counter ---- */

/* One counter leaf of one event. */
typedef struct ctr_leaf {
    uint16_t event;
    uint32_t off, series_off;
    uint8_t width, series_width; /* series_width 0: one series */
    char path[200];
    char series_path[200];
} ctr_leaf_t;

typedef struct ctr_state {
    size_t count;
    ctr_leaf_t *leaves; /* by event, then leaf order */
    uint32_t *first;    /* per event id: index of its first leaf in `leaves`, event_count + 1 entries */
} ctr_state_t;

/* The leaf of field `field_index` of struct `sid` in the same struct instance as `li`. */
static int series_leaf(const evrec_reader_t *r, uint16_t e, const evrec_leaf_info_t *li, uint32_t field_index,
                       ctr_leaf_t *out)
{
    evrec_leaf_info_t s;
    for (uint32_t leaf = 2;
         evrec_reader_leaf(r, e, leaf, &s, out->series_path, sizeof out->series_path) == EVREC_OK; leaf++) {
        if (s.struct_id == li->struct_id && s.field_index == field_index && s.depth == li->depth &&
            memcmp(s.path_field, li->path_field, li->depth * sizeof s.path_field[0]) == 0) {
            out->series_off = s.packed_offset;
            out->series_width = (uint8_t)evrec_kind_width(s.kind);
            return 1;
        }
    }
    out->series_path[0] = 0;
    return 0;
}

/* Add the counter leaves of event e. */
static int ctr_event(ctr_state_t *st, const evrec_reader_t *r, const evrec_tracks_t *t, uint16_t e)
{
    evrec_leaf_info_t li;
    ctr_leaf_t tmp;
    for (uint32_t leaf = 2; evrec_reader_leaf(r, e, leaf, &li, tmp.path, sizeof tmp.path) == EVREC_OK; leaf++) {
        for (uint32_t k = 0; k < t->counter_count; k++) {
            const evrec_counter_desc_t *d = &t->counters[k];
            if (d->struct_id != li.struct_id || d->field_index != li.field_index) {
                continue;
            }
            ctr_leaf_t *n = realloc(st->leaves, (st->count + 1) * sizeof *n);
            if (!n) {
                return -1;
            }
            st->leaves = n;
            n = &st->leaves[st->count++];
            *n = tmp;
            n->event = e;
            n->off = li.packed_offset;
            n->width = (uint8_t)evrec_kind_width(li.kind);
            n->series_width = 0;
            if (d->series) {
                series_leaf(r, e, &li, d->series - 1u, n);
            } else {
                n->series_path[0] = 0;
            }
        }
    }
    return 0;
}

static void ctr_end(sql_pump_t *p)
{
    ctr_state_t *st = p->state;
    if (st) {
        free(st->leaves);
        free(st->first);
        free(st);
    }
}

static int ctr_begin(sql_pump_t *p)
{
    const evrec_tracks_t *t = evrec_reader_tracks(p->r);
    const evrec_meta_t *m = evrec_reader_meta(p->r);
    ctr_state_t *st = calloc(1, sizeof *st);
    if (!st || !t || !m || t->counter_count == 0) {
        free(st);
        return -1;
    }
    p->state = st;
    st->first = calloc(m->event_count + 1u, sizeof *st->first);
    for (uint32_t e = 0; st->first && e < m->event_count; e++) {
        st->first[e] = (uint32_t)st->count;
        if (ctr_event(st, p->r, t, (uint16_t)e) != 0) {
            break;
        }
        st->first[e + 1] = (uint32_t)st->count;
    }
    if (!st->first) {
        ctr_end(p);
        p->state = NULL;
        return -1;
    }
    return 0;
}

static void ctr_add(sql_pump_t *p, const evrec_record_t *rec)
{
    const ctr_state_t *st = p->state;
    for (uint32_t k = st->first[rec->id]; k < st->first[rec->id + 1]; k++) {
        const ctr_leaf_t *l = &st->leaves[k];
        sql_val_t *v = l->off + l->width <= rec->size ? sql_pump_row(p) : NULL;
        if (!v) {
            continue;
        }
        sql_set_u64(&v[1], rec->ns);
        sql_set_u64(&v[2], rec->index);
        sql_set_text(&v[3], evrec_reader_event_name(p->r, rec->id));
        sql_set_text(&v[4], l->path);
        if (l->series_width && l->series_off + l->series_width <= rec->size) {
            sql_set_text(&v[5], l->series_path);
            sql_set_int(&v[6], sql_be(rec->data + l->series_off, l->series_width));
        }
        sql_set_int(&v[7], sql_be(rec->data + l->off, l->width));
        sql_set_u64(&v[8], rec->t64);
    }
}

static void ctr_finish(sql_pump_t *p)
{
    (void)p;
}

const sql_derived_def_t sql_table_counter = {
    .name = "counter",
    .columns = "ts INTEGER, idx INTEGER, event TEXT, field TEXT, series_field TEXT, series INTEGER, "
               "value INTEGER, ticks INTEGER",
    .reads_records = 1,
    .begin = ctr_begin,
    .add = ctr_add,
    .finish = ctr_finish,
    .end = ctr_end,
};
