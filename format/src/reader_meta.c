/* SPDX-License-Identifier: Apache-2.0 */
/* Parse the CCore MetaInfo (FORMAT.md section 3, as CCore's EventRecorder.cpp writes it) into host
 * tables, check every count, id and length, attach the run-time enum ranges of the RUNTIME_ENUMS
 * chunk (FORMAT.md section 2) and recompute the schema hash (section 4). */
#include <stdlib.h>

#include "evrec/evrec_hash.h"
#include "reader_internal.h"

/* Smallest encoding of each item, bytes: used to reject counts the remaining bytes cannot hold. */
#define MIN_ENUM 9u   /* u8 kind, u32 name len, u32 value count */
#define MIN_VALUE 9u  /* u32 value, u32 name len, u8 marker */
#define MIN_STRUCT 8u /* u32 name len, u32 field count */
#define MIN_FIELD 7u  /* u8 kind, u16 id, u32 name len */
#define MIN_EVENT 8u  /* u16 struct, u16 class, u32 save_len */
/* Ids of enums, structs and events are 16-bit in fields, records and event entries. */
#define MAX_ITEMS 65536u

/* ---- stream readers with context for the error messages ---- */

static int get_bytes(evrec_reader_t *r, size_t n, const uint8_t **p, const char *what, uint64_t *off)
{
    *off = rd_item_offset(r);
    *p = rd_need(r, n, what, *off);
    return *p != NULL;
}

static int get_u8(evrec_reader_t *r, uint8_t *v, const char *what, uint64_t *off)
{
    const uint8_t *p;
    if (!get_bytes(r, 1, &p, what, off)) {
        return 0;
    }
    *v = p[0];
    return 1;
}

static int get_u16(evrec_reader_t *r, uint16_t *v, const char *what, uint64_t *off)
{
    const uint8_t *p;
    if (!get_bytes(r, 2, &p, what, off)) {
        return 0;
    }
    *v = rd_be16(p);
    return 1;
}

static int get_u32(evrec_reader_t *r, uint32_t *v, const char *what, uint64_t *off)
{
    const uint8_t *p;
    if (!get_bytes(r, 4, &p, what, off)) {
        return 0;
    }
    *v = rd_be32(p);
    return 1;
}

/* Upper bound of the stream bytes still to come. */
static uint64_t bytes_left(const evrec_reader_t *r)
{
    uint64_t rem = src_remaining(&r->src);
    return rem == UINT64_MAX ? rem : rem + (r->stream.seg_len - r->stream.seg_pos);
}

/* A count of items of at least `min` bytes each, at most `max`. */
static int get_count(evrec_reader_t *r, uint32_t *count, uint32_t max, uint32_t min, const char *what)
{
    uint64_t off;
    if (!get_u32(r, count, what, &off)) {
        return 0;
    }
    if (*count > max) {
        rd_fail(r, EVREC_E_CORRUPT, off, "%s is %u; at most %u are possible", what, (unsigned)*count,
                (unsigned)max);
        return 0;
    }
    uint64_t left = bytes_left(r);
    if (left != UINT64_MAX && (uint64_t)*count * min > left) {
        rd_fail(r, EVREC_E_CORRUPT, off,
                "%s is %u, which needs at least %llu bytes, but only %llu remain in the file", what,
                (unsigned)*count, (unsigned long long)*count * min, (unsigned long long)left);
        return 0;
    }
    return 1;
}

/* String := u32 len, u8[len]; no NUL inside, at most EVREC_READER_MAX_NAME bytes. */
static const char *get_string(evrec_reader_t *r, const char *what, uint64_t *off_out)
{
    uint32_t len;
    uint64_t off;
    if (!get_u32(r, &len, what, &off)) {
        return NULL;
    }
    if (off_out) {
        *off_out = off;
    }
    if (len > EVREC_READER_MAX_NAME) {
        rd_fail(r, EVREC_E_UNSUPPORTED, off, "%s is %u bytes long; this reader accepts at most %u", what,
                (unsigned)len, (unsigned)EVREC_READER_MAX_NAME);
        return NULL;
    }
    uint64_t left = bytes_left(r);
    if (left != UINT64_MAX && len > left) {
        rd_fail(r, EVREC_E_CORRUPT, off, "%s length %u runs past the end of the file (%llu bytes left)", what,
                (unsigned)len, (unsigned long long)left);
        return NULL;
    }
    const uint8_t *p = len ? rd_need(r, len, what, off) : (const uint8_t *)"";
    if (!p) {
        return NULL;
    }
    if (len && memchr(p, 0, len)) {
        rd_fail(r, EVREC_E_CORRUPT, off, "%s contains a NUL byte", what);
        return NULL;
    }
    char *s = rd_name_dup(r, p, len);
    if (!s) {
        rd_fail(r, EVREC_E_NOMEM, off, "out of memory for names");
    }
    return s;
}

/* Grow *arr to hold n elements of `elem` bytes (doubling). */
static int grow(evrec_reader_t *r, void **arr, uint32_t *cap, uint32_t n, size_t elem)
{
    if (n <= *cap) {
        return 1;
    }
    uint32_t c = *cap ? *cap : 8;
    while (c < n) {
        c = c > UINT32_MAX / 2 ? n : c * 2;
    }
    void *p = realloc(*arr, (size_t)c * elem);
    if (!p) {
        rd_fail(r, EVREC_E_NOMEM, rd_stream_offset(r), "out of memory for the meta-info");
        return 0;
    }
    *arr = p;
    *cap = c;
    return 1;
}

/* ---- parse ---- */

typedef struct rd_struct_tmp {
    uint32_t field_count;
    uint64_t off;
    uint64_t *field_off;
    int state; /* 0 new, 1 visiting, 2 done */
    unsigned height;
    uint64_t size;
} rd_struct_tmp_t;

static int parse_enums(evrec_reader_t *r)
{
    uint32_t count;
    if (!get_count(r, &count, MAX_ITEMS, MIN_ENUM, "enum count")) {
        return 0;
    }
    r->tables.renums = calloc(count ? count : 1, sizeof *r->tables.renums);
    r->tables.enums = calloc(count ? count : 1, sizeof *r->tables.enums);
    if (!r->tables.renums || !r->tables.enums) {
        rd_fail(r, EVREC_E_NOMEM, rd_stream_offset(r), "out of memory for %u enums", (unsigned)count);
        return 0;
    }
    r->tables.meta.enum_count = count;
    for (uint32_t i = 0; i < count; i++) {
        rd_enum_t *e = &r->tables.renums[i];
        evrec_enum_desc_t *d = &r->tables.enums[i];
        uint64_t off;
        if (!get_u8(r, &d->kind, "enum kind", &off)) {
            return 0;
        }
        if (!rd_kind_is_enum(d->kind)) {
            rd_fail(r, EVREC_E_CORRUPT, off, "enum %u: kind %u; expected 3, 4 or 5 (enum_uint8/16/32)",
                    (unsigned)i, (unsigned)d->kind);
            return 0;
        }
        if (!(d->name = get_string(r, "enum name", NULL))) {
            return 0;
        }
        uint32_t max = d->kind == EVREC_KIND_ENUM_UINT8    ? 256u
                       : d->kind == EVREC_KIND_ENUM_UINT16 ? 65536u
                                                           : UINT32_MAX;
        uint32_t vcount;
        if (!get_count(r, &vcount, max, MIN_VALUE, "enum value count")) {
            return 0;
        }
        uint32_t cap = 0;
        uint32_t vmax = d->kind == EVREC_KIND_ENUM_UINT8    ? 0xFFu
                        : d->kind == EVREC_KIND_ENUM_UINT16 ? 0xFFFFu
                                                            : 0xFFFFFFFFu;
        for (uint32_t v = 0; v < vcount; v++) {
            if (!grow(r, (void **)&e->all, &cap, v + 1, sizeof *e->all)) {
                return 0;
            }
            evrec_enum_value_t *val = &e->all[v];
            if (!get_u32(r, &val->value, "enum value", &off)) {
                return 0;
            }
            if (val->value > vmax) {
                rd_fail(r, EVREC_E_CORRUPT, off, "enum %s: value %u does not fit its kind (%s)", d->name,
                        (unsigned)val->value, evrec_kind_name(d->kind));
                return 0;
            }
            if (!(val->name = get_string(r, "enum value name", NULL)) ||
                !get_u8(r, &val->marker, "enum value marker", &off)) {
                return 0;
            }
            e->all_count = v + 1;
        }
    }
    return 1;
}

static int parse_structs(evrec_reader_t *r, rd_struct_tmp_t **tmp_out)
{
    uint32_t count;
    if (!get_count(r, &count, MAX_ITEMS, MIN_STRUCT, "struct count")) {
        return 0;
    }
    rd_struct_tmp_t *tmp = calloc(count ? count : 1, sizeof *tmp);
    *tmp_out = tmp;
    r->tables.structs = calloc(count ? count : 1, sizeof *r->tables.structs);
    r->tables.fields = calloc(count ? count : 1, sizeof *r->tables.fields);
    if (!tmp || !r->tables.structs || !r->tables.fields) {
        rd_fail(r, EVREC_E_NOMEM, rd_stream_offset(r), "out of memory for %u structs", (unsigned)count);
        return 0;
    }
    r->tables.meta.struct_count = count;
    for (uint32_t i = 0; i < count; i++) {
        evrec_struct_desc_t *s = &r->tables.structs[i];
        if (!(s->name = get_string(r, "struct name", &tmp[i].off))) {
            return 0;
        }
        uint32_t fcount;
        if (!get_count(r, &fcount, UINT32_MAX, MIN_FIELD, "field count")) {
            return 0;
        }
        uint32_t cap = 0, cap2 = 0;
        for (uint32_t f = 0; f < fcount; f++) {
            if (!grow(r, (void **)&r->tables.fields[i], &cap, f + 1, sizeof **r->tables.fields) ||
                !grow(r, (void **)&tmp[i].field_off, &cap2, f + 1, sizeof *tmp[i].field_off)) {
                return 0;
            }
            evrec_field_desc_t *fd = &r->tables.fields[i][f];
            uint64_t off;
            if (!get_u8(r, &fd->kind, "field kind", &off)) {
                return 0;
            }
            tmp[i].field_off[f] = off;
            if (fd->kind > EVREC_KIND_STRUCT) {
                rd_fail(r, EVREC_E_CORRUPT, off, "struct %s: field %u has kind %u; expected 0..6", s->name,
                        (unsigned)f, (unsigned)fd->kind);
                return 0;
            }
            if (!get_u16(r, &fd->ref, "field id", &off) || !(fd->name = get_string(r, "field name", NULL))) {
                return 0;
            }
            fd->offset = 0;
            s->field_count = tmp[i].field_count = f + 1;
        }
        s->fields = r->tables.fields[i];
    }
    return 1;
}

static int parse_events(evrec_reader_t *r, uint64_t **off_out)
{
    uint32_t count;
    if (!get_count(r, &count, MAX_ITEMS, MIN_EVENT, "event count")) {
        return 0;
    }
    if (count == 0) {
        rd_fail(r, EVREC_E_CORRUPT, rd_stream_offset(r) - 4, "event count is 0; expected at least EventControl");
        return 0;
    }
    r->tables.events = calloc(count, sizeof *r->tables.events);
    r->tables.save_len = calloc(count, sizeof *r->tables.save_len);
    r->tables.markers = calloc(count, sizeof *r->tables.markers);
    *off_out = calloc(count, sizeof **off_out);
    if (!r->tables.events || !r->tables.save_len || !r->tables.markers || !*off_out) {
        rd_fail(r, EVREC_E_NOMEM, rd_stream_offset(r), "out of memory for %u events", (unsigned)count);
        return 0;
    }
    r->tables.meta.event_count = count;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t off, o2;
        if (!get_u16(r, &r->tables.events[i].struct_id, "event struct id", &off) ||
            !get_u16(r, &r->tables.events[i].class_id, "event class id", &o2) ||
            !get_u32(r, &r->tables.save_len[i], "event save length", &o2)) {
            return 0;
        }
        (*off_out)[i] = off;
    }
    return 1;
}

/* Height (nesting levels below) and packed size of struct s; 0 on failure (error set). */
static int size_struct(evrec_reader_t *r, rd_struct_tmp_t *tmp, uint32_t s, unsigned depth)
{
    rd_struct_tmp_t *t = &tmp[s];
    if (t->state == 2) {
        return 1;
    }
    if (t->state == 1 || depth > EVREC_MAX_NESTING) {
        rd_fail(r, EVREC_E_UNSUPPORTED, t->off, "struct %s is nested in itself or more than %u levels deep",
                r->tables.structs[s].name, (unsigned)EVREC_MAX_NESTING);
        return 0;
    }
    t->state = 1;
    uint64_t size = 0;
    unsigned height = 0;
    for (uint32_t f = 0; f < t->field_count; f++) {
        evrec_field_desc_t *fd = &r->tables.fields[s][f];
        fd->offset = (uint16_t)(size < 0xFFFFu ? size : 0xFFFFu);
        if (fd->kind == EVREC_KIND_STRUCT) {
            if (fd->ref >= r->tables.meta.struct_count) {
                rd_fail(r, EVREC_E_BAD_ID, t->field_off[f],
                        "struct %s, field %s: struct id %u; the file has %u structs", r->tables.structs[s].name,
                        fd->name, (unsigned)fd->ref, (unsigned)r->tables.meta.struct_count);
                return 0;
            }
            if (!size_struct(r, tmp, fd->ref, depth + 1)) {
                return 0;
            }
            size += tmp[fd->ref].size;
            if (tmp[fd->ref].height + 1 > height) {
                height = tmp[fd->ref].height + 1;
            }
        } else {
            if (rd_kind_is_enum(fd->kind) && fd->ref >= r->tables.meta.enum_count) {
                rd_fail(r, EVREC_E_BAD_ID, t->field_off[f],
                        "struct %s, field %s: enum id %u; the file has %u enums", r->tables.structs[s].name,
                        fd->name, (unsigned)fd->ref, (unsigned)r->tables.meta.enum_count);
                return 0;
            }
            size += evrec_kind_width(fd->kind);
        }
        if (size > UINT32_MAX) {
            size = UINT32_MAX;
        }
    }
    if (height > EVREC_MAX_NESTING) {
        /* Reached when the nested structs were laid out before (defined earlier, or used by an
         * earlier struct): the depth of this walk alone does not see their levels. */
        rd_fail(r, EVREC_E_UNSUPPORTED, t->off,
                "struct %s nests structs %u levels deep; this reader accepts at most %u",
                r->tables.structs[s].name, height, (unsigned)EVREC_MAX_NESTING);
        return 0;
    }
    t->size = size;
    t->height = height;
    t->state = 2;
    r->tables.structs[s].native_size = (uint16_t)(size < 0xFFFFu ? size : 0xFFFFu);
    return 1;
}

/* -1, 0, 1 as value of index a compares to value of index b (ties by index: stable). */
static int cmp_index_by_value(uint32_t ia, uint32_t ib, const evrec_enum_value_t *v)
{
    if (v[ia].value != v[ib].value) {
        return v[ia].value < v[ib].value ? -1 : 1;
    }
    return ia < ib ? -1 : ia > ib;
}

/* qsort_r is not in C11; a small merge sort over indices instead (stable, O(n log n)). */
static void sort_indices(uint32_t *idx, uint32_t *scratch, uint32_t n, const evrec_enum_value_t *v)
{
    if (n < 2) {
        return;
    }
    uint32_t h = n / 2;
    sort_indices(idx, scratch, h, v);
    sort_indices(idx + h, scratch, n - h, v);
    uint32_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        scratch[k++] = cmp_index_by_value(idx[j], idx[i], v) < 0 ? idx[j++] : idx[i++];
    }
    while (i < h) {
        scratch[k++] = idx[i++];
    }
    while (j < n) {
        scratch[k++] = idx[j++];
    }
    memcpy(idx, scratch, n * sizeof *idx);
}

/* Exposed enum descriptors, lookup indices, has_markers. */
static int finish_enums(evrec_reader_t *r)
{
    for (uint32_t i = 0; i < r->tables.meta.enum_count; i++) {
        rd_enum_t *e = &r->tables.renums[i];
        evrec_enum_desc_t *d = &r->tables.enums[i];
        uint32_t n = e->all_count;
        e->sorted = malloc((n ? n : 1) * sizeof *e->sorted);
        uint32_t *scratch = malloc((n ? n : 1) * sizeof *scratch);
        e->statics = malloc((n ? n : 1) * sizeof *e->statics);
        if (!e->sorted || !scratch || !e->statics) {
            free(scratch);
            return rd_fail(r, EVREC_E_NOMEM, 0, "out of memory") == EVREC_OK;
        }
        uint32_t ns = 0;
        for (uint32_t v = 0; v < n; v++) {
            e->sorted[v] = v;
            e->has_markers |= e->all[v].marker != EVREC_MARKER_NONE;
            uint32_t x = e->all[v].value;
            if (!(e->has_runtime && x >= e->runtime.base && x < e->runtime.lim)) {
                e->statics[ns++] = e->all[v];
            }
        }
        sort_indices(e->sorted, scratch, n, e->all);
        free(scratch);
        d->value_count = ns;
        d->values = ns ? e->statics : NULL;
        d->runtime = e->has_runtime ? &e->runtime : NULL;
    }
    return 1;
}

/* EventView: the field named `type` whose enum has markers, else the first enum field with
 * markers (depth first). Returns 1 when found. */
static int find_marker(const evrec_reader_t *r, uint32_t sid, uint32_t base, unsigned depth, rd_marker_field_t *m)
{
    const evrec_struct_desc_t *s = &r->tables.structs[sid];
    if (depth == 0) {
        for (uint32_t f = 0; f < s->field_count; f++) {
            const evrec_field_desc_t *fd = &s->fields[f];
            if (rd_kind_is_enum(fd->kind) && strcmp(fd->name, "type") == 0 &&
                r->tables.renums[fd->ref].has_markers) {
                m->offset = (int32_t)(base + fd->offset);
                m->kind = fd->kind;
                m->enum_id = fd->ref;
                return 1;
            }
        }
    }
    for (uint32_t f = 0; f < s->field_count && depth <= EVREC_MAX_NESTING; f++) {
        const evrec_field_desc_t *fd = &s->fields[f];
        if (fd->kind == EVREC_KIND_STRUCT) {
            if (find_marker(r, fd->ref, base + fd->offset, depth + 1, m)) {
                return 1;
            }
        } else if (rd_kind_is_enum(fd->kind) && r->tables.renums[fd->ref].has_markers) {
            m->offset = (int32_t)(base + fd->offset);
            m->kind = fd->kind;
            m->enum_id = fd->ref;
            return 1;
        }
    }
    return 0;
}

static int check_events(evrec_reader_t *r, rd_struct_tmp_t *tmp, const uint64_t *ev_off)
{
    int ctrl = -1;
    for (uint32_t i = 0; i < r->tables.meta.event_count; i++) {
        const evrec_event_desc_t *ev = &r->tables.events[i];
        if (ev->struct_id >= r->tables.meta.struct_count) {
            return rd_fail(r, EVREC_E_BAD_ID, ev_off[i], "event %u: struct id %u; the file has %u structs",
                           (unsigned)i, (unsigned)ev->struct_id,
                           (unsigned)r->tables.meta.struct_count) == EVREC_OK;
        }
        const evrec_struct_desc_t *s = &r->tables.structs[ev->struct_id];
        if (s->field_count < 2 || s->fields[0].kind != EVREC_KIND_UINT32 ||
            s->fields[1].kind != EVREC_KIND_UINT16) {
            return rd_fail(r, EVREC_E_CORRUPT, ev_off[i],
                           "event %u (%s): its struct does not start with u32 time, u16 id", (unsigned)i,
                           s->name) == EVREC_OK;
        }
        uint64_t size = tmp[ev->struct_id].size;
        if (size > EVREC_MAX_EVENT_SIZE || size != r->tables.save_len[i]) {
            return rd_fail(r, EVREC_E_CORRUPT, ev_off[i],
                           "event %u (%s): save length %u, packed size of its struct %llu; expected equal "
                           "and at most %u",
                           (unsigned)i, s->name, (unsigned)r->tables.save_len[i], (unsigned long long)size,
                           (unsigned)EVREC_MAX_EVENT_SIZE) == EVREC_OK;
        }
        r->tables.markers[i].offset = -1;
        find_marker(r, ev->struct_id, 0, 0, &r->tables.markers[i]);
        if (ctrl < 0 && strcmp(s->name, "EventControl") == 0) {
            if (s->field_count != 3 || s->fields[2].kind != EVREC_KIND_ENUM_UINT8) {
                return rd_fail(r, EVREC_E_CORRUPT, ev_off[i],
                               "event %u: struct EventControl is not {u32 time, u16 id, enum_uint8 type}",
                               (unsigned)i) == EVREC_OK;
            }
            ctrl = (int)i;
        }
    }
    if (ctrl < 0) {
        return rd_fail(r, EVREC_E_CORRUPT, ev_off[0],
                       "no event uses a struct named EventControl (needed for Start, Tick, Stop, End)") ==
               EVREC_OK;
    }
    r->tables.ctrl_id = (uint16_t)ctrl;
    r->info.control_event = (uint16_t)ctrl;
    if (r->info.lanes == 0) {
        r->info.lanes = 1; /* no LANES chunk before the meta-info */
    }
    return 1;
}

evrec_status rd_parse_meta(evrec_reader_t *r)
{
    rd_struct_tmp_t *tmp = NULL;
    uint64_t *ev_off = NULL;
    const uint8_t *p;
    uint64_t off;
    int ok = get_bytes(r, 8, &p, "the meta-info (u64 time_freq)", &off);
    if (ok) {
        r->info.meta_offset = off;
        r->info.time_freq = rd_be64(p);
        r->tables.meta.time_freq = r->info.time_freq;
        ok = parse_enums(r) && parse_structs(r, &tmp) && parse_events(r, &ev_off);
    }
    for (uint32_t s = 0; ok && s < r->tables.meta.struct_count; s++) {
        ok = size_struct(r, tmp, s, 0);
    }
    ok = ok && rd_runtime_attach(r) && finish_enums(r) && check_events(r, tmp, ev_off);
    if (tmp) {
        for (uint32_t s = 0; s < r->tables.meta.struct_count; s++) {
            free(tmp[s].field_off);
        }
    }
    free(tmp);
    free(ev_off);
    if (!ok) {
        return r->errs.first.status;
    }
    r->tables.meta.enums = r->tables.enums;
    r->tables.meta.structs = r->tables.structs;
    r->tables.meta.events = r->tables.events;
    r->tables.meta.schema_hash = r->info.schema_hash_stored;
    if (rd_tracks_parse(r) != EVREC_OK) { /* the track model enters the hash */
        return r->errs.first.status;
    }
    r->info.schema_hash_computed = evrec_meta_schema_hash(&r->tables.meta);
    r->tables.have_meta = 1; /* before the next segment is loaded: damage there loses records, not the file */
    r->info.records_offset = rd_item_offset(r);
    rd_field_info_parse(r);
    return r->errs.first.status;
}

void rd_free_meta(evrec_reader_t *r)
{
    for (uint32_t i = 0; r->tables.renums && i < r->tables.meta.enum_count; i++) {
        free(r->tables.renums[i].all);
        free(r->tables.renums[i].sorted);
        free(r->tables.renums[i].statics);
        free(r->tables.renums[i].rt_names);
    }
    for (uint32_t i = 0; r->tables.fields && i < r->tables.meta.struct_count; i++) {
        free(r->tables.fields[i]);
    }
    free(r->tables.renums);
    free(r->tables.enums);
    free(r->tables.structs);
    free(r->tables.fields);
    free(r->tables.events);
    free(r->tables.save_len);
    free(r->tables.markers);
    free(r->tables.rt_ranges);
    rd_names_free(r);
}
