/* SPDX-License-Identifier: Apache-2.0 */
/* Fixtures of the reader tests (see reader_fixtures.h). */
#include "reader_fixtures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evrec/evrec_save.h"

#include "evrec/evrec_hash.h"
#include "../common/test_tmp.h"

int fx_buf_write(void *ctx, const void *data, size_t len)
{
    fx_buf_t *b = ctx;
    if (b->len + len > b->cap) {
        size_t c = b->cap ? b->cap : 4096;
        while (c < b->len + len) {
            c *= 2;
        }
        uint8_t *p = realloc(b->p, c);
        if (!p) {
            return 1;
        }
        b->p = p;
        b->cap = c;
    }
    memcpy(b->p + b->len, data, len);
    b->len += len;
    return 0;
}

void fx_buf_free(fx_buf_t *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

evrec_sink_t fx_sink(fx_buf_t *b)
{
    evrec_sink_t s = {fx_buf_write, b};
    return s;
}

/* ---- tables ---- */

static const evrec_enum_value_t control_values[] = {EVREC_CONTROL_ENUM_VALUES};
static const evrec_enum_value_t color_values[] = {{0, "Red", EVREC_MARKER_UP},
                                                  {1, "Green", EVREC_MARKER_DOWN},
                                                  {2, "Blue", EVREC_MARKER_ERROR},
                                                  {3, "Plain", EVREC_MARKER_NONE}};
static const evrec_enum_value_t level_values[] = {{0, "Debug", 0}, {1000, "Info", 0}, {65535, "Max", 0}};
static const evrec_enum_value_t big_values[] = {{0, "Zero", EVREC_MARKER_NONE},
                                                {0x80000000u, "High", EVREC_MARKER_WAIT},
                                                {0xFFFFFFFFu, "All", EVREC_MARKER_STOP}};
static const evrec_enum_value_t obj_values[] = {{1, "Special", EVREC_MARKER_UP},
                                                {200, "After", EVREC_MARKER_PASS}};

static evrec_runtime_enum_t obj_runtime;
static const char *obj_names[FX_OBJ_LIM - FX_OBJ_BASE];

static const evrec_enum_desc_t enums[FX_ENUM_COUNT] = {
    {"EventControlType", EVREC_KIND_ENUM_UINT8, 4, control_values, NULL},
    {"Color", EVREC_KIND_ENUM_UINT8, 4, color_values, NULL},
    {"Level", EVREC_KIND_ENUM_UINT16, 3, level_values, NULL},
    {"Big", EVREC_KIND_ENUM_UINT32, 3, big_values, NULL},
    {"ObjNumber", EVREC_KIND_ENUM_UINT16, 2, obj_values, &obj_runtime},
};

static const evrec_field_desc_t control_fields[] = {EVREC_CONTROL_FIELDS(FX_ENUM_CONTROL)};
static const evrec_field_desc_t inner2_fields[] = {
    {"x", EVREC_KIND_UINT8, 0, offsetof(fx_inner2_t, x)},
    {"y", EVREC_KIND_UINT32, 0, offsetof(fx_inner2_t, y)},
};
static const evrec_field_desc_t inner1_fields[] = {
    {"p", EVREC_KIND_UINT16, 0, offsetof(fx_inner1_t, p)},
    {"q", EVREC_KIND_STRUCT, FX_STRUCT_INNER2, offsetof(fx_inner1_t, q)},
    {"color", EVREC_KIND_ENUM_UINT8, FX_ENUM_COLOR, offsetof(fx_inner1_t, color)},
};
static const evrec_field_desc_t all_fields[] = {
    {"time", EVREC_KIND_UINT32, 0, offsetof(fx_ev_all_t, time)},
    {"id", EVREC_KIND_UINT16, 0, offsetof(fx_ev_all_t, id)},
    {"a", EVREC_KIND_UINT8, 0, offsetof(fx_ev_all_t, a)},
    {"b", EVREC_KIND_UINT16, 0, offsetof(fx_ev_all_t, b)},
    {"c", EVREC_KIND_UINT32, 0, offsetof(fx_ev_all_t, c)},
    {"color", EVREC_KIND_ENUM_UINT8, FX_ENUM_COLOR, offsetof(fx_ev_all_t, color)},
    {"level", EVREC_KIND_ENUM_UINT16, FX_ENUM_LEVEL, offsetof(fx_ev_all_t, level)},
    {"type", EVREC_KIND_ENUM_UINT32, FX_ENUM_BIG, offsetof(fx_ev_all_t, big)},
    {"in", EVREC_KIND_STRUCT, FX_STRUCT_INNER1, offsetof(fx_ev_all_t, in)},
    {"obj", EVREC_KIND_ENUM_UINT16, FX_ENUM_OBJ, offsetof(fx_ev_all_t, obj)},
};
static const evrec_field_desc_t simple_fields[] = {
    {"time", EVREC_KIND_UINT32, 0, offsetof(fx_ev_simple_t, time)},
    {"id", EVREC_KIND_UINT16, 0, offsetof(fx_ev_simple_t, id)},
    {"v", EVREC_KIND_UINT32, 0, offsetof(fx_ev_simple_t, v)},
};
static const evrec_struct_desc_t structs[FX_STRUCT_COUNT] = {
    {"EventControl", 3, control_fields, sizeof(evrec_control_event_t)},
    {"Inner2", 2, inner2_fields, sizeof(fx_inner2_t)},
    {"Inner1", 3, inner1_fields, sizeof(fx_inner1_t)},
    {"EvAll", 10, all_fields, sizeof(fx_ev_all_t)},
    {"EvSimple", 3, simple_fields, sizeof(fx_ev_simple_t)},
};
static const evrec_event_desc_t events[FX_EVENT_COUNT] = {
    {FX_STRUCT_CONTROL, FX_EVENT_CONTROL},
    {FX_STRUCT_ALL, FX_EVENT_ALL},
    {FX_STRUCT_SIMPLE, FX_EVENT_ALL},
};
static evrec_meta_t meta = {
    .time_freq = 0,
    .enum_count = FX_ENUM_COUNT,
    .enums = enums,
    .struct_count = FX_STRUCT_COUNT,
    .structs = structs,
    .event_count = FX_EVENT_COUNT,
    .events = events,
};

const evrec_meta_t *fx_meta_init(void)
{
    evrec_runtime_enum_init(&obj_runtime, FX_OBJ_BASE, FX_OBJ_LIM, EVREC_MARKER_INC, obj_names);
    meta.schema_hash = 0;
    meta.schema_hash = evrec_meta_schema_hash(&meta);
    return &meta;
}

evrec_runtime_enum_t *fx_runtime_enum(void)
{
    return &obj_runtime;
}

/* ---- recordings ---- */

void fx_expect_all(uint32_t k, fx_ev_all_t *e)
{
    memset(e, 0, sizeof *e);
    e->a = (uint8_t)(k * 7u);
    e->b = (uint16_t)(k * 31u);
    e->c = k * 2654435761u;
    e->color = (uint8_t)(k % 5u); /* 4 has no name */
    e->level = (uint16_t)(k % 3u == 0 ? 1000u : k);
    e->big = k % 4u == 0 ? 0x80000000u : k % 4u == 1 ? 0xFFFFFFFFu : k;
    e->in.p = (uint16_t)(k ^ 0xBEEFu);
    e->in.q.x = (uint8_t)(k + 1u);
    e->in.q.y = ~k;
    e->in.color = (uint8_t)((k + 1u) % 4u);
    e->obj = (uint16_t)(k % 7u == 6 ? FX_OBJ_BASE + 5u : k % 5u == 4 ? 1u : FX_OBJ_BASE + k % 3u);
}

uint32_t fx_expect_simple(uint32_t k)
{
    return 0xA5000000u ^ (k * 40503u);
}

uint64_t fx_record(size_t n, int bare, fx_buf_t *out)
{
    return fx_record_ex(n, bare, NULL, out);
}

uint64_t fx_record_ex(size_t n, int bare, const evrec_attrs_t *attrs, fx_buf_t *out)
{
    const evrec_meta_t *m = fx_meta_init();
    uint32_t v;
    evrec_runtime_enum_alloc(&obj_runtime, "TaskA", &v);
    evrec_runtime_enum_alloc(&obj_runtime, "Task B", &v);
    evrec_runtime_enum_alloc(&obj_runtime, "TaskC", &v);
    size_t size = 256 + n * (sizeof(fx_ev_all_t) + 8);
    void *buf = aligned_alloc(8, (size + EVREC_BUF_HEADER_SIZE + 7) & ~(size_t)7);
    size += EVREC_BUF_HEADER_SIZE;
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_recorder_init(&rec, buf, size);
    evrec_recorder_set_attrs(&rec, attrs);
    evrec_host_init(&host);
    evrec_host_start(&host, &rec, m, 1000000000u);
    for (uint32_t k = 0; k < n; k++) {
        if (k % 2 == 0) {
            fx_ev_all_t e;
            fx_expect_all(k, &e);
            evrec_record(&host, FX_EVENT_ALL, &e);
        } else {
            fx_ev_simple_t *s = evrec_reserve(&host, sizeof(fx_ev_simple_t));
            if (s) {
                s->v = fx_expect_simple(k);
                evrec_commit(s, FX_EVENT_SIMPLE);
            }
        }
        if (k % 7 == 6) {
            evrec_tick(&host);
        }
    }
    evrec_host_stop(&host, NULL);
    evrec_save_options_t opt = {0, bare};
    evrec_sink_t sink = fx_sink(out);
    evrec_save_ex(&rec, &sink, &opt);
    uint64_t recorded = evrec_recorder_counts(&rec).recorded; /* the counts are in buf */
    free(buf);
    return recorded;
}

static void native_put(fx_native_t *n, const void *p, size_t len)
{
    if (n->used + len > n->cap) {
        size_t c = n->cap ? n->cap * 2 : 4096;
        while (c < n->used + len) {
            c *= 2;
        }
        uint8_t *b = aligned_alloc(4, c);
        if (n->buf) {
            memcpy(b, n->buf, n->used);
        }
        free(n->buf);
        n->buf = b;
        n->cap = c;
    }
    memcpy(n->buf + n->used, p, len);
    n->used += len;
    n->count++;
}

void fx_native_control(fx_native_t *n, uint32_t time, uint8_t type)
{
    evrec_control_event_t e;
    memset(&e, 0xFF, sizeof e);
    e.time = time;
    e.id = FX_EVENT_CONTROL;
    e.type = type;
    native_put(n, &e, sizeof e);
}

void fx_native_simple(fx_native_t *n, uint32_t time, uint32_t v)
{
    fx_ev_simple_t e;
    memset(&e, 0, sizeof e);
    e.time = time;
    e.id = FX_EVENT_SIMPLE;
    e.v = v;
    native_put(n, &e, sizeof e);
}

void fx_native_save(fx_native_t *n, uint64_t time_freq, int bare, fx_buf_t *out)
{
    const evrec_meta_t *m = fx_meta_init();
    evrec_sink_t sink = fx_sink(out);
    if (bare) {
        evrec_save_ccore(m, time_freq, n->buf, n->used, &sink);
        return;
    }
    /* The records after a buffer header, as a recording leaves them. */
    size_t size = EVREC_BUF_HEADER_SIZE + n->used;
    uint8_t *whole = aligned_alloc(8, (size + 7u) & ~(size_t)7u);
    if (!whole) {
        return;
    }
    memcpy(whole + EVREC_BUF_HEADER_SIZE, n->buf, n->used);
    evrec_recorder_t rec;
    if (evrec_recorder_wrap(&rec, whole, size, m, time_freq, n->used, n->count, 0) == EVREC_OK) {
        evrec_save(&rec, &sink);
    }
    free(whole);
}

void fx_native_free(fx_native_t *n)
{
    free(n->buf);
    memset(n, 0, sizeof *n);
}

/* ---- chunks ---- */

static uint32_t be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

size_t fx_chunks(const uint8_t *file, size_t size, fx_chunk_t *chunks, size_t max)
{
    size_t n = 0;
    uint64_t off = EVREC_HEADER_SIZE, pos = 0;
    while (off + 8 <= size && n < max) {
        fx_chunk_t *c = &chunks[n++];
        c->off = off;
        c->type = file[off];
        c->len = be32(file + off) & 0xFFFFFFu;
        c->stream_start = pos;
        if (c->type == EVREC_CHUNK_STREAM) {
            pos += c->len;
        }
        off += 8 + c->len;
        if (c->type == EVREC_CHUNK_END) {
            break;
        }
    }
    return n;
}

uint64_t fx_stream_to_file(const fx_chunk_t *chunks, size_t n, uint64_t pos)
{
    for (size_t i = 0; i < n; i++) {
        if (chunks[i].type == EVREC_CHUNK_STREAM && pos >= chunks[i].stream_start &&
            pos < chunks[i].stream_start + chunks[i].len) {
            return chunks[i].off + 8 + (pos - chunks[i].stream_start);
        }
    }
    return UINT64_MAX;
}

uint64_t fx_file_to_stream(const fx_chunk_t *chunks, size_t n, uint64_t off)
{
    for (size_t i = 0; i < n; i++) {
        if (chunks[i].type == EVREC_CHUNK_STREAM && off >= chunks[i].off + 8 &&
            off < chunks[i].off + 8 + chunks[i].len) {
            return chunks[i].stream_start + (off - chunks[i].off - 8);
        }
    }
    return UINT64_MAX;
}

static void put_be32(uint8_t *d, uint32_t v)
{
    d[0] = (uint8_t)(v >> 24);
    d[1] = (uint8_t)(v >> 16);
    d[2] = (uint8_t)(v >> 8);
    d[3] = (uint8_t)v;
}

void fx_put_chunk(fx_buf_t *out, uint8_t type, const void *payload, uint32_t len)
{
    uint8_t h[8];
    put_be32(h, ((uint32_t)type << 24) | len);
    uint32_t crc = evrec_crc32c(evrec_crc32c(0, h, 4), payload, len);
    put_be32(h + 4, crc);
    fx_buf_write(out, h, 8);
    fx_buf_write(out, payload, len);
}

void fx_rechunk(const uint8_t *file, size_t size, size_t chunk, int insert_unknown, fx_buf_t *out)
{
    fx_chunk_t ch[4096];
    size_t n = fx_chunks(file, size, ch, 4096);
    fx_buf_t stream = {0};
    /* Written as version 1.2 at most: the SEQ, COPY and TAIL chunks of version 1.3 (FORMAT.md
     * section 2.4) name the STREAM chunks as saved, so they are left out. */
    uint8_t h[EVREC_HEADER_SIZE];
    memcpy(h, file, sizeof h);
    if (h[11] > 2) {
        h[11] = 2;
    }
    uint32_t crc = evrec_crc32c(0, h, 44);
    h[44] = (uint8_t)(crc >> 24);
    h[45] = (uint8_t)(crc >> 16);
    h[46] = (uint8_t)(crc >> 8);
    h[47] = (uint8_t)crc;
    fx_buf_write(out, h, sizeof h);
    if (insert_unknown) {
        fx_put_chunk(out, 0x7F, "future", 6);
    }
    for (size_t i = 0; i < n; i++) {
        if (ch[i].type == EVREC_CHUNK_STREAM) {
            fx_buf_write(&stream, file + ch[i].off + 8, ch[i].len);
        } else if (ch[i].type != EVREC_CHUNK_END && ch[i].type != EVREC_CHUNK_SEQ &&
                   ch[i].type != EVREC_CHUNK_COPY && ch[i].type != EVREC_CHUNK_TAIL) {
            fx_buf_write(out, file + ch[i].off, 8 + ch[i].len);
        }
    }
    for (size_t at = 0; at < stream.len; at += chunk) {
        size_t k = stream.len - at < chunk ? stream.len - at : chunk;
        fx_put_chunk(out, EVREC_CHUNK_STREAM, stream.p + at, (uint32_t)k);
    }
    if (insert_unknown) {
        fx_put_chunk(out, 0x42, "", 0);
    }
    fx_put_chunk(out, EVREC_CHUNK_END, "", 0);
    fx_buf_free(&stream);
}

/* ---- reading ---- */

void fx_read_all(const void *data, size_t size, const evrec_reader_options_t *opt, fx_read_t *out)
{
    memset(out, 0, sizeof *out);
    evrec_reader_t *r = NULL;
    out->open_status = evrec_reader_open_memory(&r, data, size, opt);
    size_t cap = 0;
    evrec_record_t rec;
    evrec_status st = out->open_status;
    while (st == EVREC_OK && (st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        if (out->count == cap) {
            cap = cap ? cap * 2 : 64;
            out->recs = realloc(out->recs, cap * sizeof *out->recs);
        }
        fx_rec_t *f = &out->recs[out->count++];
        f->r = rec;
        memcpy(f->data, rec.data, rec.size);
        f->r.data = f->data;
    }
    out->end = st;
    out->err = *evrec_reader_error(r);
    evrec_reader_close(r);
    /* Last byte of each record, independently of the reader (damaged files: the chunk list is
     * that of what is there, which is right for the records before the damage). */
    int container = size >= 8 && memcmp(data, EVREC_MAGIC, 8) == 0;
    size_t max = size / 8 + 1, nch = 0;
    fx_chunk_t *ch = container ? malloc(max * sizeof *ch) : NULL;
    if (ch) {
        nch = fx_chunks(data, size, ch, max);
    }
    for (size_t i = 0; i < out->count; i++) {
        fx_rec_t *f = &out->recs[i];
        if (container) {
            uint64_t pos = fx_file_to_stream(ch, nch, f->r.offset);
            f->last_byte = fx_stream_to_file(ch, nch, pos + f->r.size - 1);
        } else {
            f->last_byte = f->r.offset + f->r.size - 1;
        }
    }
    free(ch);
}

void fx_read_free(fx_read_t *r)
{
    free(r->recs);
    memset(r, 0, sizeof *r);
}

char *fx_temp_file(const void *data, size_t size, const char *suffix)
{
    (void)suffix; /* mkstemps() is not POSIX */
    char *path = malloc(TEST_TMP_PATH);
    int fd = path ? test_tmp_file(path, TEST_TMP_PATH, "test") : -1; /* removed at exit */
    if (fd < 0) {
        free(path);
        return NULL;
    }
    FILE *f = fdopen(fd, "wb");
    fwrite(data, 1, size, f);
    fclose(f);
    return path;
}
