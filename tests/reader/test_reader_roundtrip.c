/* SPDX-License-Identifier: Apache-2.0 */
/* Round trip through the real recorder: record every field kind (u8/u16/u32, enum u8/16/32,
 * structs nested 2 deep, enums with names and markers, a run-time enum), save with evrec_save
 * (container) and evrec_save_ex (bare CCore), read back: every field name and value, every enum
 * name, every marker, the tables, the schema hash. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "evrec/evrec_hash.h"
#include "reader_fixtures.h"

typedef struct expect_field {
    const char *path;
    uint8_t kind;
    uint32_t value;
    const char *name; /* expected enum value name, NULL when none */
    uint8_t marker;
} expect_field_t;

typedef struct checker {
    const expect_field_t *want;
    size_t count, seen;
    uint64_t record;
} checker_t;

static int check_field(void *ctx, const evrec_field_view_t *f)
{
    checker_t *c = ctx;
    cr_assert_lt(c->seen, c->count, "record %llu: extra field %s", (unsigned long long)c->record, f->path);
    const expect_field_t *w = &c->want[c->seen];
    cr_assert_eq(f->index, c->seen);
    cr_assert_str_eq(f->path, w->path, "record %llu field %zu", (unsigned long long)c->record, c->seen);
    cr_assert_eq(f->kind, w->kind, "%s", f->path);
    cr_assert_eq(f->value, w->value, "record %llu %s: %u, expected %u", (unsigned long long)c->record, f->path,
                 f->value, w->value);
    if (w->name) {
        cr_assert_not_null(f->value_name, "record %llu %s=%u: no name", (unsigned long long)c->record, f->path,
                           f->value);
        cr_assert_str_eq(f->value_name, w->name, "%s", f->path);
    } else {
        cr_assert_null(f->value_name, "record %llu %s=%u: unexpected name %s", (unsigned long long)c->record,
                       f->path, f->value, f->value_name);
    }
    cr_assert_eq(f->marker, w->marker, "%s", f->path);
    const char *dot = strrchr(w->path, '.');
    cr_assert_str_eq(f->name, dot ? dot + 1 : w->path);
    c->seen++;
    return 0;
}

static const char *color_name(uint32_t v, uint8_t *marker)
{
    static const char *const n[4] = {"Red", "Green", "Blue", "Plain"};
    static const uint8_t m[4] = {EVREC_MARKER_UP, EVREC_MARKER_DOWN, EVREC_MARKER_ERROR, EVREC_MARKER_NONE};
    *marker = v < 4 ? m[v] : 0;
    return v < 4 ? n[v] : NULL;
}

static const char *level_name(uint32_t v)
{
    return v == 0 ? "Debug" : v == 1000 ? "Info" : v == 65535 ? "Max" : NULL;
}

static const char *big_name(uint32_t v, uint8_t *marker)
{
    *marker = v == 0x80000000u ? EVREC_MARKER_WAIT : v == 0xFFFFFFFFu ? EVREC_MARKER_STOP : 0;
    return v == 0 ? "Zero" : v == 0x80000000u ? "High" : v == 0xFFFFFFFFu ? "All" : NULL;
}

static const char *obj_name(uint32_t v, uint8_t *marker)
{
    static const char *const rt[3] = {"TaskA", "Task B", "TaskC"};
    *marker = 0;
    if (v == 1) {
        *marker = EVREC_MARKER_UP;
        return "Special";
    }
    if (v == 200) {
        *marker = EVREC_MARKER_PASS;
        return "After";
    }
    if (v >= FX_OBJ_BASE && v < FX_OBJ_BASE + 3) {
        *marker = EVREC_MARKER_INC;
        return rt[v - FX_OBJ_BASE];
    }
    return NULL;
}

static void check_all(evrec_reader_t *r, const evrec_record_t *rec, uint32_t k)
{
    fx_ev_all_t e;
    fx_expect_all(k, &e);
    expect_field_t w[13];
    uint8_t mk;
    const char *nm;
    w[0] = (expect_field_t){"time", EVREC_KIND_UINT32, rec->time32, NULL, 0};
    w[1] = (expect_field_t){"id", EVREC_KIND_UINT16, FX_EVENT_ALL, NULL, 0};
    w[2] = (expect_field_t){"a", EVREC_KIND_UINT8, e.a, NULL, 0};
    w[3] = (expect_field_t){"b", EVREC_KIND_UINT16, e.b, NULL, 0};
    w[4] = (expect_field_t){"c", EVREC_KIND_UINT32, e.c, NULL, 0};
    nm = color_name(e.color, &mk);
    w[5] = (expect_field_t){"color", EVREC_KIND_ENUM_UINT8, e.color, nm, mk};
    w[6] = (expect_field_t){"level", EVREC_KIND_ENUM_UINT16, e.level, level_name(e.level), 0};
    nm = big_name(e.big, &mk);
    w[7] = (expect_field_t){"type", EVREC_KIND_ENUM_UINT32, e.big, nm, mk};
    uint8_t type_marker = mk;
    w[8] = (expect_field_t){"in.p", EVREC_KIND_UINT16, e.in.p, NULL, 0};
    w[9] = (expect_field_t){"in.q.x", EVREC_KIND_UINT8, e.in.q.x, NULL, 0};
    w[10] = (expect_field_t){"in.q.y", EVREC_KIND_UINT32, e.in.q.y, NULL, 0};
    nm = color_name(e.in.color, &mk);
    w[11] = (expect_field_t){"in.color", EVREC_KIND_ENUM_UINT8, e.in.color, nm, mk};
    nm = obj_name(e.obj, &mk);
    w[12] = (expect_field_t){"obj", EVREC_KIND_ENUM_UINT16, e.obj, nm, mk};
    checker_t c = {w, 13, 0, rec->index};
    cr_assert_eq(evrec_reader_visit_fields(r, rec, check_field, &c), EVREC_OK);
    cr_assert_eq(c.seen, 13u);
    /* The field named `type` (enum Big, has markers) wins over the earlier `color`. */
    cr_assert_eq(evrec_reader_record_marker(r, rec), type_marker, "record %llu", (unsigned long long)rec->index);
}

static void check_simple(evrec_reader_t *r, const evrec_record_t *rec, uint32_t k)
{
    expect_field_t w[3] = {
        {"time", EVREC_KIND_UINT32, rec->time32, NULL, 0},
        {"id", EVREC_KIND_UINT16, FX_EVENT_SIMPLE, NULL, 0},
        {"v", EVREC_KIND_UINT32, fx_expect_simple(k), NULL, 0},
    };
    checker_t c = {w, 3, 0, rec->index};
    cr_assert_eq(evrec_reader_visit_fields(r, rec, check_field, &c), EVREC_OK);
    cr_assert_eq(c.seen, 3u);
    cr_assert_eq(evrec_reader_record_marker(r, rec), EVREC_MARKER_NONE);
}

static void check_control(evrec_reader_t *r, const evrec_record_t *rec, uint8_t type)
{
    static const char *const names[3] = {"Start", "Tick", "Stop"};
    static const uint8_t markers[3] = {EVREC_MARKER_PUSH, EVREC_MARKER_TICK, EVREC_MARKER_STOP};
    cr_assert_eq(rec->id, FX_EVENT_CONTROL, "record %llu", (unsigned long long)rec->index);
    expect_field_t w[3] = {
        {"time", EVREC_KIND_UINT32, rec->time32, NULL, 0},
        {"id", EVREC_KIND_UINT16, 0, NULL, 0},
        {"type", EVREC_KIND_ENUM_UINT8, type, names[type], markers[type]},
    };
    checker_t c = {w, 3, 0, rec->index};
    cr_assert_eq(evrec_reader_visit_fields(r, rec, check_field, &c), EVREC_OK);
    cr_assert_eq(evrec_reader_record_marker(r, rec), markers[type]);
}

/* Reads the recording of fx_record(n) and checks every record. */
static void check_recording(const fx_buf_t *file, size_t n, int bare, uint64_t recorded)
{
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, file->p, file->len, NULL), EVREC_OK, "%s",
                 evrec_reader_error(r)->message);
    const evrec_file_info_t *fi = evrec_reader_info(r);
    cr_assert_eq(fi->format, bare ? EVREC_FILE_CCORE : EVREC_FILE_CONTAINER);
    cr_assert_eq(fi->time_freq, 1000000000u);
    const evrec_meta_t *want = fx_meta_init();
    if (!bare) {
        cr_assert_eq(fi->version_major, 1u);
        cr_assert_eq(fi->version_minor, EVREC_FORMAT_MINOR);
        cr_assert_eq(fi->recorded, recorded);
        cr_assert_eq(fi->dropped, 0u);
        cr_assert_eq(fi->schema_hash_stored, want->schema_hash);
        cr_assert_eq(fi->schema_hash_computed, want->schema_hash, "recomputed hash differs from the writer's");
    }
    const evrec_meta_t *m = evrec_reader_meta(r);
    cr_assert_eq(evrec_meta_schema_hash(m), fi->schema_hash_computed);
    /* Tables: names, kinds, refs; packed offsets; run-time enum as the writer had it. */
    cr_assert_eq(m->enum_count, want->enum_count);
    for (uint32_t i = 0; i < m->enum_count; i++) {
        cr_assert_str_eq(m->enums[i].name, want->enums[i].name);
        cr_assert_eq(m->enums[i].kind, want->enums[i].kind);
        if (bare) {
            continue; /* no RUNTIME_ENUMS chunk: run-time names look static */
        }
        cr_assert_eq(m->enums[i].value_count, want->enums[i].value_count, "enum %u", i);
        for (uint32_t v = 0; v < m->enums[i].value_count; v++) {
            cr_assert_eq(m->enums[i].values[v].value, want->enums[i].values[v].value);
            cr_assert_str_eq(m->enums[i].values[v].name, want->enums[i].values[v].name);
            cr_assert_eq(m->enums[i].values[v].marker, want->enums[i].values[v].marker);
        }
        cr_assert_eq(m->enums[i].runtime != NULL, want->enums[i].runtime != NULL);
    }
    const evrec_runtime_enum_t *rt = m->enums[FX_ENUM_OBJ].runtime;
    if (!bare) {
        cr_assert_eq(rt->base, FX_OBJ_BASE);
        cr_assert_eq(rt->lim, FX_OBJ_LIM);
        cr_assert_eq(rt->marker, EVREC_MARKER_INC);
        cr_assert_str_eq(rt->names[1], "Task B");
    } else {
        cr_assert_eq(m->enums[FX_ENUM_OBJ].value_count, 5u); /* Special, TaskA, Task B, TaskC, After */
        cr_assert_str_eq(m->enums[FX_ENUM_OBJ].values[2].name, "Task B");
    }
    cr_assert_eq(m->struct_count, want->struct_count);
    for (uint32_t i = 0; i < m->struct_count; i++) {
        cr_assert_str_eq(m->structs[i].name, want->structs[i].name);
        cr_assert_eq(m->structs[i].field_count, want->structs[i].field_count);
        cr_assert_eq(m->structs[i].native_size, evrec_meta_packed_size(want, i));
        for (uint32_t f = 0; f < m->structs[i].field_count; f++) {
            cr_assert_str_eq(m->structs[i].fields[f].name, want->structs[i].fields[f].name);
            cr_assert_eq(m->structs[i].fields[f].kind, want->structs[i].fields[f].kind);
            cr_assert_eq(m->structs[i].fields[f].ref, want->structs[i].fields[f].ref);
        }
    }
    cr_assert_eq(m->structs[FX_STRUCT_ALL].fields[8].offset, 20u); /* in: 4+2+1+2+4+1+2+4 */
    cr_assert_eq(m->event_count, want->event_count);
    cr_assert_eq(evrec_reader_event_size(r, FX_EVENT_ALL), FX_EV_ALL_PACKED);
    cr_assert_eq(evrec_reader_event_size(r, FX_EVENT_SIMPLE), FX_EV_SIMPLE_PACKED);
    cr_assert_eq(m->events[FX_EVENT_SIMPLE].class_id, FX_EVENT_ALL);

    evrec_record_t rec;
    cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK);
    check_control(r, &rec, EVREC_CONTROL_START);
    uint64_t prev_t64 = 0;
    for (uint32_t k = 0; k < n; k++) {
        cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK, "k=%u: %s", k, evrec_reader_error(r)->message);
        cr_assert_eq(rec.id, k % 2 == 0 ? FX_EVENT_ALL : FX_EVENT_SIMPLE, "k=%u", k);
        if (k % 2 == 0) {
            check_all(r, &rec, k);
        } else {
            check_simple(r, &rec, k);
        }
        cr_assert_geq(rec.t64, prev_t64); /* one thread: time never goes back */
        prev_t64 = rec.t64;
        if (k % 7 == 6) {
            cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK);
            check_control(r, &rec, EVREC_CONTROL_TICK);
        }
    }
    cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK);
    check_control(r, &rec, EVREC_CONTROL_STOP);
    cr_assert_eq(rec.index + 1, recorded);
    cr_assert_eq(evrec_reader_next(r, &rec), EVREC_E_END, "%s", evrec_reader_error(r)->message);
    evrec_reader_close(r);
}

Test(roundtrip, container_every_field_kind)
{
    fx_buf_t f = {0};
    uint64_t recorded = fx_record(50, 0, &f);
    cr_assert_gt(f.len, EVREC_HEADER_SIZE);
    check_recording(&f, 50, 0, recorded);
    fx_buf_free(&f);
}

Test(roundtrip, bare_ccore_every_field_kind)
{
    fx_buf_t f = {0};
    uint64_t recorded = fx_record(50, 1, &f);
    check_recording(&f, 50, 1, recorded);
    fx_buf_free(&f);
}

/* Several 16 KiB chunks: records straddle chunk boundaries. */
Test(roundtrip, container_many_chunks)
{
    fx_buf_t f = {0};
    uint64_t recorded = fx_record(20000, 0, &f);
    fx_chunk_t ch[64];
    size_t nch = fx_chunks(f.p, f.len, ch, 64);
    cr_assert_gt(nch, 5u);
    check_recording(&f, 20000, 0, recorded);
    fx_buf_free(&f);
}

/* The tables read back re-save the same stream byte for byte (evrec_save_ccore with the reader's
 * meta-info and the records converted back to native layout is not possible without native
 * offsets; instead: the canonical meta-info of the read tables equals the writer's). */
Test(roundtrip, canonical_meta_equal)
{
    fx_buf_t f = {0};
    fx_record(10, 0, &f);
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, f.p, f.len, NULL), EVREC_OK);
    fx_buf_t a = {0}, b = {0};
    evrec_sink_t sa = fx_sink(&a), sb = fx_sink(&b);
    cr_assert_eq(evrec_meta_write_canonical(evrec_reader_meta(r), &sa), EVREC_OK);
    cr_assert_eq(evrec_meta_write_canonical(fx_meta_init(), &sb), EVREC_OK);
    cr_assert_eq(a.len, b.len);
    cr_assert_arr_eq(a.p, b.p, a.len);
    evrec_reader_close(r);
    fx_buf_free(&a);
    fx_buf_free(&b);
    fx_buf_free(&f);
}
