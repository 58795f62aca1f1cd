/* SPDX-License-Identifier: Apache-2.0 */
/* The TRACKS chunk (format/FORMAT.md section 2): tracks, spans and counters. Payload:
 *   u32 track_count,   track_count x {u16 event_id, u16 leaf}
 *   u32 span_count,    span_count x {String name, End begin, End end, u16 track_leaf}
 *   u32 counter_count, counter_count x {u16 struct_id, u16 field_index}
 *   End := u16 event_id, u16 match_leaf, u32 match_value, u16 key_leaf   (0xFFFF = none)
 *
 * Like FIELD_INFO it comes before the stream and is kept as bytes until the meta-info is read.
 * It is all or nothing: any problem drops the whole track model (never a record), and becomes the
 * deferred error reported when the stream ends. Nothing in it is trusted: every count is bounded
 * by the bytes present, every id and leaf checked against the meta-info (evrec_tracks_validate). */
#include <stdarg.h>
#include <stdlib.h>

#include "reader_internal.h"

static void vw_problem(evrec_reader_t *r, evrec_status st, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void vw_problem(evrec_reader_t *r, evrec_status st, uint64_t off, const char *fmt, ...)
{
    if (r->vw.err.status != EVREC_OK) {
        return;
    }
    r->vw.err.status = st;
    r->vw.err.offset = off;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->vw.err.message, sizeof r->vw.err.message, fmt, ap);
    va_end(ap);
}

/* A chunk kept as bytes until the meta-info is read (TRACKS, COUNTER_SERIES): its slot. */
typedef struct kept {
    const char *name;   /* the chunk type's name in messages */
    const char *effect; /* what its loss means */
    uint8_t **raw;
    uint32_t *len;
    uint64_t *offset;
    int *dropped;
} kept_t;

static kept_t kept_tracks(evrec_reader_t *r)
{
    kept_t k = {"TRACKS",      "the file's tracks, spans and counters are ignored",
                &r->vw.raw,    &r->vw.raw_len,
                &r->vw.offset, &r->vw.dropped};
    return k;
}

static kept_t kept_series(evrec_reader_t *r)
{
    kept_t k = {"COUNTER_SERIES",  "each counter is one series", &r->vw.series_raw,
                &r->vw.series_len, &r->vw.series_offset,         &r->vw.series_dropped};
    return k;
}

static void kept_drop(const kept_t *k)
{
    free(*k->raw);
    *k->raw = NULL;
    *k->dropped = 1;
}

/* Keep one copy of the chunk; a second one, or one after STREAM data, drops it (reported). */
static void keep_chunk(evrec_reader_t *r, const kept_t *k, uint64_t off, const uint8_t *p, uint32_t len)
{
    if (*k->raw || r->stream.started) {
        vw_problem(r, EVREC_E_CORRUPT, off,
                   "%s chunk at offset %llu %s (expected one, before the first STREAM chunk); %s", k->name,
                   (unsigned long long)off, *k->raw ? "is the second one" : "comes after STREAM data", k->effect);
        kept_drop(k);
        return;
    }
    if (*k->dropped) {
        return;
    }
    *k->raw = malloc(len ? len : 1u);
    if (!*k->raw) {
        vw_problem(r, EVREC_E_NOMEM, off, "out of memory for the %s chunk (%u bytes)", k->name, (unsigned)len);
        return;
    }
    if (len) {
        memcpy(*k->raw, p, len);
    }
    *k->len = len;
    *k->offset = off;
}

static void kept_damaged(evrec_reader_t *r, const kept_t *k, uint64_t off, uint32_t len, uint32_t stored,
                         uint32_t crc)
{
    vw_problem(r, EVREC_E_CHECKSUM, off,
               "%s chunk at offset %llu (%u payload bytes): stored CRC-32C 0x%08X, the bytes give 0x%08X; %s",
               k->name, (unsigned long long)off, (unsigned)len, (unsigned)stored, (unsigned)crc, k->effect);
    kept_drop(k);
}

void rd_tracks_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len)
{
    kept_t k = kept_tracks(r);
    keep_chunk(r, &k, off, p, len);
}

void rd_tracks_damaged(evrec_reader_t *r, uint64_t off, uint32_t len, uint32_t stored, uint32_t crc)
{
    kept_t k = kept_tracks(r);
    kept_damaged(r, &k, off, len, stored, crc);
}

void rd_counter_series_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len)
{
    kept_t k = kept_series(r);
    keep_chunk(r, &k, off, p, len);
}

void rd_counter_series_damaged(evrec_reader_t *r, uint64_t off, uint32_t len, uint32_t stored, uint32_t crc)
{
    kept_t k = kept_series(r);
    kept_damaged(r, &k, off, len, stored, crc);
}

/* The counter of (struct_id, field), or NULL. */
static evrec_counter_desc_t *find_counter(evrec_reader_t *r, uint16_t struct_id, uint16_t field)
{
    for (uint32_t i = 0; i < r->vw.model.counter_count; i++) {
        if (r->vw.counters[i].struct_id == struct_id && r->vw.counters[i].field_index == field) {
            return &r->vw.counters[i];
        }
    }
    return NULL;
}

/* COUNTER_SERIES: u32 count, count x {u16 struct_id, u16 field_index, u16 series_field}. Each entry
 * must name a counter of the track model once; evrec_tracks_validate() checks the series field. A
 * problem drops every series (the counters stay, one series each). */
static void parse_counter_series(evrec_reader_t *r)
{
    const uint8_t *p = r->vw.series_raw;
    uint32_t len = r->vw.series_len;
    uint32_t n = len >= 4 ? rd_be32(p) : 0;
    const char *why = NULL;
    if (len < 4 || (uint64_t)n * 6u != len - 4u) {
        why = "its length is not 4 + 6 bytes per entry";
    }
    for (uint32_t i = 0; !why && i < n; i++) {
        const uint8_t *e = p + 4 + 6u * i;
        evrec_counter_desc_t *c = find_counter(r, rd_be16(e), rd_be16(e + 2));
        const evrec_struct_desc_t *st = c ? &r->tables.meta.structs[c->struct_id] : NULL;
        uint32_t f = rd_be16(e + 4);
        if (!c || c->series) {
            why = c ? "a counter named twice" : "an entry that names no counter of the TRACKS chunk";
        } else if (f >= st->field_count || f == c->field_index || !evrec_kind_width(st->fields[f].kind)) {
            why = "a series field that is not another integer or enum field of the counter's struct";
        } else {
            c->series = (uint16_t)(rd_be16(e + 4) + 1u);
        }
    }
    if (why) {
        for (uint32_t i = 0; i < r->vw.model.counter_count; i++) {
            r->vw.counters[i].series = 0;
        }
        vw_problem(r, EVREC_E_CORRUPT, r->vw.series_offset,
                   "COUNTER_SERIES chunk at offset %llu: %s; each counter is one series",
                   (unsigned long long)r->vw.series_offset, why);
    }
}

typedef struct cur {
    const uint8_t *p;
    uint32_t len, pos;
    uint64_t base;
} cur_t;

static int need(evrec_reader_t *r, cur_t *c, uint32_t n, const char *what)
{
    if (c->len - c->pos >= n) {
        return 1;
    }
    vw_problem(r, EVREC_E_CORRUPT, c->base + c->pos,
               "TRACKS chunk at offset %llu: %s at offset %llu runs past the end of the chunk (%u bytes "
               "left, %u needed)",
               (unsigned long long)r->vw.offset, what, (unsigned long long)(c->base + c->pos),
               (unsigned)(c->len - c->pos), (unsigned)n);
    return 0;
}

/* A count of items of at least `min` bytes each: bounded by the bytes left. */
static int count_of(evrec_reader_t *r, cur_t *c, uint32_t min, const char *what, uint32_t *out)
{
    if (!need(r, c, 4, what)) {
        return 0;
    }
    uint32_t n = rd_be32(c->p + c->pos);
    c->pos += 4;
    if (n > (c->len - c->pos) / min) {
        vw_problem(r, EVREC_E_CORRUPT, c->base + c->pos - 4,
                   "TRACKS chunk at offset %llu: %u %s need at least %llu bytes; %u are left",
                   (unsigned long long)r->vw.offset, (unsigned)n, what, (unsigned long long)n * min,
                   (unsigned)(c->len - c->pos));
        return 0;
    }
    *out = n;
    return 1;
}

static void get_end(cur_t *c, evrec_span_end_t *e)
{
    const uint8_t *p = c->p + c->pos;
    e->event_id = rd_be16(p);
    e->match_leaf = rd_be16(p + 2);
    e->match_value = rd_be32(p + 4);
    e->key_leaf = rd_be16(p + 8);
    c->pos += 10;
}

static void drop(evrec_reader_t *r)
{
    free(r->vw.tracks);
    free(r->vw.spans);
    free(r->vw.counters);
    r->vw.tracks = NULL;
    r->vw.spans = NULL;
    r->vw.counters = NULL;
    r->tables.meta.tracks = NULL;
}

/* The parts of the TRACKS chunk: 1 when read, 0 when bad (the problem is recorded, the track model is
 * dropped), -1 when out of memory (the reader is halted). */

static int parse_tracks(evrec_reader_t *r, cur_t *c)
{
    uint32_t n;
    if (!count_of(r, c, 4, "tracks", &n)) {
        return 0;
    }
    r->vw.tracks = calloc(n ? n : 1u, sizeof *r->vw.tracks);
    if (!r->vw.tracks) {
        rd_fail(r, EVREC_E_NOMEM, r->vw.offset, "out of memory for %u tracks", (unsigned)n);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        r->vw.tracks[i].event_id = rd_be16(c->p + c->pos);
        r->vw.tracks[i].leaf = rd_be16(c->p + c->pos + 2);
        c->pos += 4;
    }
    r->vw.model.track_count = n;
    r->vw.model.tracks = r->vw.tracks;
    return 1;
}

/* Span i: String name (1..EVREC_READER_MAX_NAME printable bytes), End begin, End end, u16 leaf. */
static int parse_span(evrec_reader_t *r, cur_t *c, uint32_t i, evrec_span_desc_t *s)
{
    if (!need(r, c, 4, "a span's name length")) {
        return 0;
    }
    uint32_t len = rd_be32(c->p + c->pos);
    c->pos += 4;
    if (len == 0 || len > EVREC_READER_MAX_NAME) {
        vw_problem(r, EVREC_E_CORRUPT, c->base + c->pos - 4,
                   "TRACKS chunk at offset %llu: span %u has a name of %u bytes (expected 1..%u)",
                   (unsigned long long)r->vw.offset, (unsigned)i, (unsigned)len, (unsigned)EVREC_READER_MAX_NAME);
        return 0;
    }
    if (!need(r, c, len + 22u, "a span")) {
        return 0;
    }
    for (uint32_t k = 0; k < len; k++) {
        uint8_t ch = c->p[c->pos + k];
        if (ch < 0x20 || ch == 0x7F) {
            vw_problem(r, EVREC_E_CORRUPT, c->base + c->pos + k,
                       "TRACKS chunk at offset %llu: span %u's name holds the control byte 0x%02X",
                       (unsigned long long)r->vw.offset, (unsigned)i, (unsigned)ch);
            return 0;
        }
    }
    s->name = rd_name_dup(r, c->p + c->pos, len);
    if (!s->name) {
        rd_fail(r, EVREC_E_NOMEM, r->vw.offset, "out of memory for the span names");
        return -1;
    }
    c->pos += len;
    get_end(c, &s->begin);
    get_end(c, &s->end);
    s->track_leaf = rd_be16(c->p + c->pos);
    c->pos += 2;
    return 1;
}

static int parse_spans(evrec_reader_t *r, cur_t *c)
{
    uint32_t n;
    if (!count_of(r, c, 4 + 10 + 10 + 2, "spans", &n)) {
        return 0;
    }
    r->vw.spans = calloc(n ? n : 1u, sizeof *r->vw.spans);
    if (!r->vw.spans) {
        rd_fail(r, EVREC_E_NOMEM, r->vw.offset, "out of memory for %u spans", (unsigned)n);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        int ok = parse_span(r, c, i, &r->vw.spans[i]);
        if (ok <= 0) {
            return ok;
        }
    }
    r->vw.model.span_count = n;
    r->vw.model.spans = r->vw.spans;
    return 1;
}

static int parse_counters(evrec_reader_t *r, cur_t *c)
{
    uint32_t n;
    if (!count_of(r, c, 4, "counters", &n)) {
        return 0;
    }
    r->vw.counters = calloc(n ? n : 1u, sizeof *r->vw.counters);
    if (!r->vw.counters) {
        rd_fail(r, EVREC_E_NOMEM, r->vw.offset, "out of memory for %u counters", (unsigned)n);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        r->vw.counters[i].struct_id = rd_be16(c->p + c->pos);
        r->vw.counters[i].field_index = rd_be16(c->p + c->pos + 2);
        c->pos += 4;
    }
    r->vw.model.counter_count = n;
    r->vw.model.counters = r->vw.counters;
    if (c->pos != c->len) {
        vw_problem(r, EVREC_E_CORRUPT, c->base + c->pos,
                   "TRACKS chunk at offset %llu: %u bytes after its counters (expected none)",
                   (unsigned long long)r->vw.offset, (unsigned)(c->len - c->pos));
        return 0;
    }
    return 1;
}

evrec_status rd_tracks_parse(evrec_reader_t *r)
{
    if (!r->vw.raw) {
        if (r->vw.series_raw && !r->vw.dropped) {
            vw_problem(r, EVREC_E_CORRUPT, r->vw.series_offset,
                       "COUNTER_SERIES chunk at offset %llu without a TRACKS chunk (expected after one); "
                       "ignored",
                       (unsigned long long)r->vw.series_offset);
        }
        return EVREC_OK;
    }
    cur_t c = {r->vw.raw, r->vw.raw_len, 0, r->vw.offset + 8};
    memset(&r->vw.model, 0, sizeof r->vw.model);
    int ok = parse_tracks(r, &c);
    if (ok > 0) {
        ok = parse_spans(r, &c);
    }
    if (ok > 0) {
        ok = parse_counters(r, &c);
    }
    if (ok <= 0) {
        drop(r);
        return ok < 0 ? r->errs.first.status : EVREC_OK;
    }
    r->tables.meta.tracks = &r->vw.model;
    uint32_t bad = 0;
    const char *what = NULL;
    if (evrec_tracks_validate(&r->tables.meta, &bad, &what) != EVREC_OK) {
        vw_problem(r, EVREC_E_BAD_ID, r->vw.offset,
                   "TRACKS chunk at offset %llu does not fit the meta-info (entry %u: %s); the file's "
                   "tracks, spans and counters are ignored",
                   (unsigned long long)r->vw.offset, (unsigned)bad, what ? what : "?");
        drop(r);
    } else if (r->vw.series_raw) {
        parse_counter_series(r); /* after the counters are known to fit the meta-info */
    }
    return EVREC_OK;
}

evrec_status rd_tracks_deferred(evrec_reader_t *r)
{
    if (r->vw.err.status == EVREC_OK) {
        return EVREC_OK;
    }
    return rd_damage(r, r->vw.err.status, r->vw.err.offset, 0, "%s", r->vw.err.message);
}

void rd_tracks_free(evrec_reader_t *r)
{
    free(r->vw.raw);
    free(r->vw.series_raw);
    free(r->vw.tracks);
    free(r->vw.spans);
    free(r->vw.counters);
}

const evrec_tracks_t *evrec_reader_tracks(const evrec_reader_t *r)
{
    return r && r->tables.have_meta ? r->tables.meta.tracks : NULL;
}

const evrec_reader_error_t *evrec_reader_tracks_error(const evrec_reader_t *r)
{
    static const evrec_reader_error_t no_reader = {EVREC_E_ARG, 0, "no reader"};
    return r ? &r->vw.err : &no_reader;
}

uint16_t evrec_reader_event_track(const evrec_reader_t *r, uint16_t event_id)
{
    const evrec_tracks_t *v = evrec_reader_tracks(r);
    if (!v) {
        return EVREC_TRACKS_NONE;
    }
    uint32_t lo = 0, hi = v->track_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (v->tracks[mid].event_id < event_id) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < v->track_count && v->tracks[lo].event_id == event_id ? v->tracks[lo].leaf : EVREC_TRACKS_NONE;
}

evrec_status evrec_reader_leaf(const evrec_reader_t *r, uint16_t event_id, uint32_t leaf, evrec_leaf_info_t *out,
                               char *path, size_t path_size)
{
    if (!r || !out || (!path && path_size)) {
        return EVREC_E_ARG;
    }
    if (!r->tables.have_meta) {
        return EVREC_E_BAD_ID;
    }
    evrec_status st = evrec_meta_leaf(&r->tables.meta, event_id, leaf, out);
    if (st != EVREC_OK || !path_size) {
        return st;
    }
    size_t n = 0;
    path[0] = '\0';
    for (unsigned d = 0; d <= out->depth; d++) {
        const char *name = r->tables.structs[out->path_struct[d]].fields[out->path_field[d]].name;
        int k = snprintf(path + n, path_size - n, "%s%s", d ? "." : "", name);
        if (k < 0 || (size_t)k >= path_size - n) {
            path[n] = '\0'; /* whole components only */
            break;
        }
        n += (size_t)k;
    }
    return EVREC_OK;
}

evrec_status evrec_reader_leaf_value(const evrec_reader_t *r, const evrec_record_t *rec, uint32_t leaf,
                                     uint32_t *value)
{
    if (!r || !rec || !value || !rec->data) {
        return EVREC_E_ARG;
    }
    evrec_leaf_info_t li;
    evrec_status st = evrec_reader_leaf(r, rec->id, leaf, &li, NULL, 0);
    if (st != EVREC_OK) {
        return st;
    }
    if (li.packed_offset + evrec_kind_width(li.kind) > rec->size) {
        return EVREC_E_ARG;
    }
    *value = rd_load(rec->data + li.packed_offset, li.kind);
    return EVREC_OK;
}
