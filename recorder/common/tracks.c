/* SPDX-License-Identifier: Apache-2.0 */
/* Tracks, spans and counters (evrec_tracks_t): checks, leaf lookup, and the TRACKS payload that save
 * writes as a chunk and appends to the canonical meta-info (format/FORMAT.md sections 2 and 4).
 * Freestanding: no heap, no stdio. */
#include "evrec/evrec_save.h"
#include "tracks_internal.h"

/* ---- leaves ---- */

typedef struct leaf_walk {
    const evrec_meta_t *m;
    uint32_t want, next;
    uint32_t packed, native_base;
    evrec_leaf_info_t *out;
    int found, bad;
} leaf_walk_t;

static void walk(leaf_walk_t *w, uint32_t sid, uint32_t native, unsigned depth)
{
    if (depth > EVREC_MAX_NESTING || sid >= w->m->struct_count) {
        w->bad = 1;
        return;
    }
    const evrec_struct_desc_t *s = &w->m->structs[sid];
    for (uint32_t f = 0; f < s->field_count && !w->found && !w->bad; f++) {
        const evrec_field_desc_t *fd = &s->fields[f];
        w->out->path_struct[depth] = (uint16_t)sid;
        w->out->path_field[depth] = f;
        if (fd->kind == EVREC_KIND_STRUCT) {
            walk(w, fd->ref, native + fd->offset, depth + 1);
            continue;
        }
        uint32_t width = evrec_kind_width(fd->kind);
        if (width == 0) {
            w->bad = 1;
            return;
        }
        if (w->next == w->want) {
            w->out->packed_offset = w->packed;
            w->out->native_offset = native + fd->offset;
            w->out->kind = fd->kind;
            w->out->ref = fd->kind == EVREC_KIND_UINT8 || fd->kind == EVREC_KIND_UINT16 ||
                                  fd->kind == EVREC_KIND_UINT32
                              ? 0
                              : fd->ref;
            w->out->struct_id = (uint16_t)sid;
            w->out->field_index = f;
            w->out->depth = depth;
            w->found = 1;
            return;
        }
        w->next++;
        w->packed += width;
    }
}

evrec_status evrec_meta_leaf(const evrec_meta_t *meta, uint32_t event_id, uint32_t leaf, evrec_leaf_info_t *out)
{
    if (!meta || !out) {
        return EVREC_E_ARG;
    }
    if (event_id >= meta->event_count) {
        return EVREC_E_BAD_ID;
    }
    leaf_walk_t w = {meta, leaf, 0, 0, 0, out, 0, 0};
    walk(&w, meta->events[event_id].struct_id, 0, 0);
    return w.found ? EVREC_OK : EVREC_E_BAD_ID;
}

/* The leaf of the sibling of leaf `li` (same struct instance) that is field `f` of its struct. */
static uint16_t sibling_leaf(const evrec_meta_t *meta, uint32_t event_id, const evrec_leaf_info_t *li, uint32_t f)
{
    evrec_leaf_info_t x;
    for (uint32_t leaf = 2; leaf < EVREC_TRACKS_NONE; leaf++) {
        if (evrec_meta_leaf(meta, event_id, leaf, &x) != EVREC_OK) {
            break;
        }
        int same = x.depth == li->depth && x.struct_id == li->struct_id && x.field_index == f;
        for (unsigned d = 0; same && d < li->depth; d++) {
            same = x.path_struct[d] == li->path_struct[d] && x.path_field[d] == li->path_field[d];
        }
        if (same) {
            return (uint16_t)leaf;
        }
    }
    return EVREC_TRACKS_NONE;
}

uint16_t evrec_meta_counter_series_leaf(const evrec_meta_t *meta, uint32_t event_id, uint32_t leaf)
{
    evrec_leaf_info_t li;
    const evrec_tracks_t *v = meta ? meta->tracks : NULL;
    if (!v || evrec_meta_leaf(meta, event_id, leaf, &li) != EVREC_OK) {
        return EVREC_TRACKS_NONE;
    }
    for (uint32_t i = 0; i < v->counter_count; i++) {
        const evrec_counter_desc_t *c = &v->counters[i];
        if (c->struct_id == li.struct_id && c->field_index == li.field_index) {
            return c->series ? sibling_leaf(meta, event_id, &li, c->series - 1u) : EVREC_TRACKS_NONE;
        }
    }
    return EVREC_TRACKS_NONE;
}

/* ---- checks ---- */

static evrec_status fail(uint32_t i, const char *msg, uint32_t *bad_index, const char **what)
{
    if (bad_index) {
        *bad_index = i;
    }
    if (what) {
        *what = msg;
    }
    return EVREC_E_META;
}

/* A leaf usable as a lane, key or match: exists, not time/id. */
static int leaf_ok(const evrec_meta_t *m, uint32_t event_id, uint16_t leaf, int may_be_none)
{
    evrec_leaf_info_t li;
    if (leaf == EVREC_TRACKS_NONE) {
        return may_be_none;
    }
    return leaf >= 2 && evrec_meta_leaf(m, event_id, leaf, &li) == EVREC_OK;
}

static int end_ok(const evrec_meta_t *m, const evrec_span_end_t *e)
{
    if (e->event_id >= m->event_count || !leaf_ok(m, e->event_id, e->match_leaf, 1) ||
        !leaf_ok(m, e->event_id, e->key_leaf, 1)) {
        return 0;
    }
    return e->match_leaf != EVREC_TRACKS_NONE || e->match_value == 0;
}

/* What is wrong with track i of v, NULL when nothing. */
static const char *track_problem(const evrec_meta_t *meta, const evrec_tracks_t *v, uint32_t i)
{
    const evrec_track_desc_t *t = &v->tracks[i];
    if (t->event_id >= meta->event_count || !leaf_ok(meta, t->event_id, t->leaf, 0)) {
        return "track: no such event or leaf (or time/id)";
    }
    if (i && t->event_id <= v->tracks[i - 1].event_id) {
        return "tracks: event ids not ascending (one track per event)";
    }
    return NULL;
}

/* What is wrong with counter i of v, NULL when nothing. */
static const char *counter_problem(const evrec_meta_t *meta, const evrec_tracks_t *v, uint32_t i)
{
    const evrec_counter_desc_t *c = &v->counters[i];
    if (c->struct_id >= meta->struct_count || c->field_index >= meta->structs[c->struct_id].field_count) {
        return "counter: no such struct or field";
    }
    uint8_t k = meta->structs[c->struct_id].fields[c->field_index].kind;
    if (k != EVREC_KIND_UINT8 && k != EVREC_KIND_UINT16 && k != EVREC_KIND_UINT32) {
        return "counter: not a plain integer field";
    }
    if (i && (c->struct_id < v->counters[i - 1].struct_id || (c->struct_id == v->counters[i - 1].struct_id &&
                                                              c->field_index <= v->counters[i - 1].field_index))) {
        return "counters: not ascending by (struct, field)";
    }
    if (c->series) {
        const evrec_struct_desc_t *st = &meta->structs[c->struct_id];
        uint32_t f = c->series - 1u;
        if (f >= st->field_count || f == c->field_index || evrec_kind_width(st->fields[f].kind) == 0) {
            return "counter: its series field is not another integer or enum field of its struct";
        }
    }
    return NULL;
}

evrec_status evrec_tracks_validate(const evrec_meta_t *meta, uint32_t *bad_index, const char **what)
{
    if (!meta) {
        return EVREC_E_ARG;
    }
    const evrec_tracks_t *v = meta->tracks;
    if (!v) {
        return EVREC_OK;
    }
    if ((v->track_count && !v->tracks) || (v->span_count && !v->spans) || (v->counter_count && !v->counters)) {
        return fail(0, "tracks: a table with entries is NULL", bad_index, what);
    }
    for (uint32_t i = 0; i < v->track_count; i++) {
        const char *why = track_problem(meta, v, i);
        if (why) {
            return fail(i, why, bad_index, what);
        }
    }
    for (uint32_t i = 0; i < v->span_count; i++) {
        const evrec_span_desc_t *s = &v->spans[i];
        if (!s->name || !s->name[0]) {
            return fail(i, "span: no name", bad_index, what);
        }
        if (!end_ok(meta, &s->begin) || !end_ok(meta, &s->end) ||
            !leaf_ok(meta, s->begin.event_id, s->track_leaf, 1)) {
            return fail(i, "span: no such event or leaf (or time/id)", bad_index, what);
        }
    }
    for (uint32_t i = 0; i < v->counter_count; i++) {
        const char *why = counter_problem(meta, v, i);
        if (why) {
            return fail(i, why, bad_index, what);
        }
    }
    return EVREC_OK;
}

/* ---- the TRACKS payload ---- */

int evrec_tracks_present(const evrec_meta_t *meta)
{
    const evrec_tracks_t *v = meta->tracks;
    return v && (v->track_count || v->span_count || v->counter_count);
}

static void be16(uint8_t *d, uint32_t v)
{
    d[0] = (uint8_t)(v >> 8);
    d[1] = (uint8_t)v;
}

static void be32(uint8_t *d, uint32_t v)
{
    d[0] = (uint8_t)(v >> 24);
    d[1] = (uint8_t)(v >> 16);
    d[2] = (uint8_t)(v >> 8);
    d[3] = (uint8_t)v;
}

static void put_end(evrec_tracks_emit_fn emit, void *ctx, const evrec_span_end_t *e)
{
    uint8_t d[10];
    be16(d, e->event_id);
    be16(d + 2, e->match_leaf);
    be32(d + 4, e->match_value);
    be16(d + 8, e->key_leaf);
    emit(ctx, d, sizeof d);
}

void evrec_tracks_payload(const evrec_tracks_t *v, evrec_tracks_emit_fn emit, void *ctx)
{
    uint8_t d[4];
    be32(d, v->track_count);
    emit(ctx, d, 4);
    for (uint32_t i = 0; i < v->track_count; i++) {
        be16(d, v->tracks[i].event_id);
        be16(d + 2, v->tracks[i].leaf);
        emit(ctx, d, 4);
    }
    be32(d, v->span_count);
    emit(ctx, d, 4);
    for (uint32_t i = 0; i < v->span_count; i++) {
        const evrec_span_desc_t *s = &v->spans[i];
        uint32_t len = 0;
        while (s->name && s->name[len]) {
            len++;
        }
        be32(d, len);
        emit(ctx, d, 4);
        emit(ctx, s->name, len);
        put_end(emit, ctx, &s->begin);
        put_end(emit, ctx, &s->end);
        be16(d, s->track_leaf);
        emit(ctx, d, 2);
    }
    be32(d, v->counter_count);
    emit(ctx, d, 4);
    for (uint32_t i = 0; i < v->counter_count; i++) {
        be16(d, v->counters[i].struct_id);
        be16(d + 2, v->counters[i].field_index);
        emit(ctx, d, 4);
    }
}

/* ---- the COUNTER_SERIES payload ---- */

int evrec_counter_series_present(const evrec_meta_t *meta)
{
    const evrec_tracks_t *v = meta->tracks;
    for (uint32_t i = 0; v && i < v->counter_count; i++) {
        if (v->counters[i].series) {
            return 1;
        }
    }
    return 0;
}

void evrec_counter_series_payload(const evrec_tracks_t *v, evrec_tracks_emit_fn emit, void *ctx)
{
    uint8_t d[6];
    uint32_t n = 0;
    for (uint32_t i = 0; i < v->counter_count; i++) {
        n += v->counters[i].series != 0;
    }
    be32(d, n);
    emit(ctx, d, 4);
    for (uint32_t i = 0; i < v->counter_count; i++) {
        if (v->counters[i].series) {
            be16(d, v->counters[i].struct_id);
            be16(d + 2, v->counters[i].field_index);
            be16(d + 4, v->counters[i].series - 1u);
            emit(ctx, d, 6);
        }
    }
}

/* Three passes as for FIELD_INFO: measure, CRC (after the header word), send. */
typedef struct pass {
    const evrec_sink_t *sink; /* NULL: measuring */
    uint32_t len, crc;
    int failed;
} pass_t;

static void pass_emit(void *ctx, const void *p, size_t n)
{
    pass_t *x = (pass_t *)ctx;
    if (!n) {
        return;
    }
    if (x->sink) {
        if (!x->failed && x->sink->write(x->sink->ctx, p, n) != 0) {
            x->failed = 1;
        }
    } else {
        x->len += (uint32_t)n;
        x->crc = evrec_crc32c(x->crc, p, n);
    }
}

typedef void (*payload_fn)(const evrec_tracks_t *v, evrec_tracks_emit_fn emit, void *ctx);

static evrec_status put_chunk(const evrec_tracks_t *v, uint8_t type, payload_fn payload, const evrec_sink_t *sink)
{
    pass_t m = {NULL, 0, 0, 0};
    payload(v, pass_emit, &m);
    if (m.len > 0xFFFFFFu) {
        return EVREC_E_ARG;
    }
    uint8_t h[EVREC_CHUNK_HEADER_SIZE];
    be32(h, ((uint32_t)type << 24) | m.len);
    pass_t c = {NULL, 0, evrec_crc32c(0, h, 4), 0};
    payload(v, pass_emit, &c);
    be32(h + 4, c.crc);
    if (sink->write(sink->ctx, h, sizeof h) != 0) {
        return EVREC_E_IO;
    }
    pass_t s = {sink, 0, 0, 0};
    payload(v, pass_emit, &s);
    return s.failed ? EVREC_E_IO : EVREC_OK;
}

evrec_status evrec_tracks_put_chunk(const evrec_meta_t *meta, const evrec_sink_t *sink)
{
    if (!evrec_tracks_present(meta)) {
        return EVREC_OK;
    }
    return put_chunk(meta->tracks, EVREC_CHUNK_TRACKS, evrec_tracks_payload, sink);
}

evrec_status evrec_counter_series_put_chunk(const evrec_meta_t *meta, const evrec_sink_t *sink)
{
    if (!evrec_counter_series_present(meta)) {
        return EVREC_OK;
    }
    return put_chunk(meta->tracks, EVREC_CHUNK_COUNTER_SERIES, evrec_counter_series_payload, sink);
}

evrec_status evrec_tracks_put_canonical(const evrec_meta_t *meta, const evrec_sink_t *sink)
{
    if (!evrec_tracks_present(meta)) {
        return EVREC_OK;
    }
    pass_t s = {sink, 0, 0, 0};
    evrec_tracks_payload(meta->tracks, pass_emit, &s);
    if (evrec_counter_series_present(meta)) {
        evrec_counter_series_payload(meta->tracks, pass_emit, &s);
    }
    return s.failed ? EVREC_E_IO : EVREC_OK;
}
