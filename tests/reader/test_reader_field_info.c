/* SPDX-License-Identifier: Apache-2.0 */
/* The FIELD_INFO chunk (format/FORMAT.md section 2): entries written by evrec_save() come back
 * through evrec_reader_field_info(), the meta's field_info and the field visitor; every kind of
 * bad content is reported (deferred, at the end of the stream, with the entry's offset) without
 * losing a record or the entries before the problem. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reader_fixtures.h"

/* ---- a FIELD_INFO payload, built by hand ---- */

static void put_u16(fx_buf_t *b, uint16_t v)
{
    uint8_t d[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    fx_buf_write(b, d, 2);
}

static void put_u32(fx_buf_t *b, uint32_t v)
{
    uint8_t d[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    fx_buf_write(b, d, 4);
}

static void put_str(fx_buf_t *b, const char *s, size_t n)
{
    put_u32(b, (uint32_t)n);
    if (n) {
        fx_buf_write(b, s, n);
    }
}

static void put_entry(fx_buf_t *b, uint16_t sid, uint16_t fidx, uint8_t display, const char *unit,
                      const char *desc)
{
    put_u16(b, sid);
    put_u16(b, fidx);
    fx_buf_write(b, &display, 1);
    put_str(b, unit ? unit : "", unit ? strlen(unit) : 0);
    put_str(b, desc ? desc : "", desc ? strlen(desc) : 0);
}

/* Two good entries: EvAll.c hex in bytes, Inner2.y an address with a description. */
static void good_entries(fx_buf_t *b)
{
    put_entry(b, FX_STRUCT_ALL, 4, EVREC_DISPLAY_HEX, "bytes", NULL);
    put_entry(b, FX_STRUCT_INNER2, 1, EVREC_DISPLAY_ADDRESS, NULL, "Where it was.\nSecond line.");
}

/* A recording of `n` events as a container, with `payload` as a FIELD_INFO chunk inserted after
 * the header (before = 1) or before the END chunk (before = 0). */
static void file_with(const fx_buf_t *payload, int before, size_t n, fx_buf_t *out, uint64_t *chunk_off)
{
    fx_buf_t plain = {0};
    fx_record(n, 0, &plain);
    size_t cut = before ? EVREC_HEADER_SIZE : plain.len - EVREC_CHUNK_HEADER_SIZE;
    fx_buf_write(out, plain.p, cut);
    *chunk_off = out->len;
    fx_put_chunk(out, EVREC_CHUNK_FIELD_INFO, payload->p, (uint32_t)payload->len);
    fx_buf_write(out, plain.p + cut, plain.len - cut);
    fx_buf_free(&plain);
}

/* Read everything: number of records, the end status, the error. */
typedef struct outcome {
    size_t records;
    evrec_status end;
    evrec_reader_error_t err;
    uint32_t fi_count;
} outcome_t;

static outcome_t read_file(const fx_buf_t *f)
{
    outcome_t o;
    memset(&o, 0, sizeof o);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, f->p, f->len, NULL), EVREC_OK, "%s", evrec_reader_error(r)->message);
    const evrec_meta_t *m = evrec_reader_meta(r);
    o.fi_count = m->field_info ? m->field_info->count : 0;
    evrec_record_t rec;
    while ((o.end = evrec_reader_next(r, &rec)) == EVREC_OK) {
        o.records++;
    }
    o.err = *evrec_reader_error(r);
    if (o.end != EVREC_E_END) {
        /* The deferred error is the one evrec_reader_field_info_error() announced. */
        const evrec_reader_error_t *fe = evrec_reader_field_info_error(r);
        cr_assert_eq(fe->status, o.end);
        cr_assert_eq(fe->offset, o.err.offset);
        cr_assert_str_eq(fe->message, o.err.message);
    }
    evrec_reader_close(r);
    return o;
}

#define N_EVENTS 20u
#define N_RECORDS (N_EVENTS + 2u + 2u) /* Start, Stop, and a Tick every 7 events */

Test(reader_field_info, entries_from_a_hand_made_chunk)
{
    fx_buf_t p = {0}, f = {0};
    put_u32(&p, 2);
    good_entries(&p);
    uint64_t off;
    file_with(&p, 1, N_EVENTS, &f, &off);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, f.p, f.len, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_field_info_error(r)->status, EVREC_OK);
    const evrec_field_info_t *c = evrec_reader_field_info(r, FX_STRUCT_ALL, 4);
    cr_assert_not_null(c);
    cr_assert_eq(c->display, EVREC_DISPLAY_HEX);
    cr_assert_str_eq(c->unit, "bytes");
    cr_assert_null(c->description);
    const evrec_field_info_t *y = evrec_reader_field_info(r, FX_STRUCT_INNER2, 1);
    cr_assert_not_null(y);
    cr_assert_eq(y->display, EVREC_DISPLAY_ADDRESS);
    cr_assert_null(y->unit);
    cr_assert_str_eq(y->description, "Where it was.\nSecond line.");
    /* No entry, out of range. */
    cr_assert_null(evrec_reader_field_info(r, FX_STRUCT_ALL, 3));
    cr_assert_null(evrec_reader_field_info(r, FX_STRUCT_ALL, 10));
    cr_assert_null(evrec_reader_field_info(r, FX_STRUCT_COUNT, 0));
    const evrec_meta_t *m = evrec_reader_meta(r);
    cr_assert_not_null(m->field_info);
    cr_assert_eq(m->field_info->count, 2);
    cr_assert_eq(m->field_info->entries[0].field_index, 4);
    cr_assert_eq(m->field_info->schema_hash, evrec_reader_info(r)->schema_hash_computed);
    size_t n = 0;
    evrec_record_t rec;
    evrec_status st;
    while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        n++;
    }
    cr_assert_eq(st, EVREC_E_END, "%s", evrec_reader_error(r)->message);
    cr_assert_eq(n, N_RECORDS);
    evrec_reader_close(r);
    fx_buf_free(&p);
    fx_buf_free(&f);
}

/* The visitor names the declaring struct and field of every leaf, with its entry. */
typedef struct seen {
    int c_ok, y_ok, others_null;
} seen_t;

static int visit(void *ctx, const evrec_field_view_t *v)
{
    seen_t *s = ctx;
    if (strcmp(v->path, "c") == 0) {
        s->c_ok = v->struct_id == FX_STRUCT_ALL && v->field_index == 4 && v->info &&
                  v->info->display == EVREC_DISPLAY_HEX;
    } else if (strcmp(v->path, "in.q.y") == 0) {
        s->y_ok = v->struct_id == FX_STRUCT_INNER2 && v->field_index == 1 && v->info &&
                  v->info->display == EVREC_DISPLAY_ADDRESS;
    } else if (v->info) {
        s->others_null = 0;
    }
    return 0;
}

Test(reader_field_info, visitor_gives_the_entry_of_each_leaf)
{
    fx_buf_t p = {0}, f = {0};
    put_u32(&p, 2);
    good_entries(&p);
    uint64_t off;
    file_with(&p, 1, N_EVENTS, &f, &off);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, f.p, f.len, NULL), EVREC_OK);
    evrec_record_t rec;
    int alls = 0;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        if (rec.id != FX_EVENT_ALL) {
            continue;
        }
        seen_t s = {0, 0, 1};
        cr_assert_eq(evrec_reader_visit_fields(r, &rec, visit, &s), EVREC_OK);
        cr_assert(s.c_ok && s.y_ok && s.others_null);
        alls++;
    }
    cr_assert_eq(alls, (int)N_EVENTS / 2);
    evrec_reader_close(r);
    fx_buf_free(&p);
    fx_buf_free(&f);
}

/* The writer's table (evrec_meta_t.field_info through evrec_save) comes back entry for entry. */
Test(reader_field_info, save_writes_what_the_reader_reads)
{
    static const evrec_field_info_t entries[] = {
        {FX_STRUCT_ALL, 2, EVREC_DISPLAY_DECIMAL, "ms", NULL},
        {FX_STRUCT_ALL, 4, EVREC_DISPLAY_HEX, NULL, "C, \"quoted\"\ttabbed"},
        {FX_STRUCT_SIMPLE, 2, EVREC_DISPLAY_DEFAULT, "us", "Simple value."},
        {FX_STRUCT_INNER1, 0, EVREC_DISPLAY_ADDRESS, NULL, NULL},
    };
    evrec_field_info_table_t table = {0, 4, entries};
    evrec_meta_t m = *fx_meta_init();
    m.field_info = &table;
    static uint32_t buf[1024];
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_recorder_init(&rec, buf, sizeof buf);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, &m, 1000), EVREC_OK);
    fx_ev_simple_t *s = evrec_reserve(&host, sizeof *s);
    cr_assert_not_null(s);
    s->v = 42;
    evrec_commit(s, FX_EVENT_SIMPLE);
    evrec_host_stop(&host, NULL);
    fx_buf_t f = {0};
    evrec_sink_t sink = fx_sink(&f);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);

    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, f.p, f.len, NULL), EVREC_OK);
    const evrec_meta_t *rm = evrec_reader_meta(r);
    cr_assert_not_null(rm->field_info);
    cr_assert_eq(rm->field_info->count, 4);
    for (uint32_t i = 0; i < 4; i++) {
        const evrec_field_info_t *e = evrec_reader_field_info(r, entries[i].struct_id, entries[i].field_index);
        cr_assert_not_null(e, "entry %u", i);
        cr_assert_eq(e, &rm->field_info->entries[i]);
        cr_assert_eq(e->display, entries[i].display);
        cr_assert((e->unit == NULL) == (entries[i].unit == NULL));
        cr_assert((e->description == NULL) == (entries[i].description == NULL));
        if (e->unit) {
            cr_assert_str_eq(e->unit, entries[i].unit);
        }
        if (e->description) {
            cr_assert_str_eq(e->description, entries[i].description);
        }
    }
    evrec_record_t r1;
    while (evrec_reader_next(r, &r1) == EVREC_OK) {
    }
    cr_assert_eq(evrec_reader_error(r)->status, EVREC_OK);
    evrec_reader_close(r);
    /* The bare CCore stream has no container, hence no display attributes. */
    fx_buf_t bare = {0};
    sink = fx_sink(&bare);
    evrec_save_options_t opt = {0, 1};
    cr_assert_eq(evrec_save_ex(&rec, &sink, &opt), EVREC_OK);
    cr_assert_eq(evrec_reader_open_memory(&r, bare.p, bare.len, NULL), EVREC_OK);
    cr_assert_null(evrec_reader_meta(r)->field_info);
    cr_assert_null(evrec_reader_field_info(r, FX_STRUCT_ALL, 2));
    evrec_reader_close(r);
    fx_buf_free(&f);
    fx_buf_free(&bare);
}

/* ---- bad content: deferred error, every record kept, entries before the problem kept ---- */

typedef struct bad_case {
    const char *name;
    evrec_status status;
    const char *needle; /* in the message */
    uint32_t kept;      /* good entries before the problem */
    int64_t rel_offset; /* offset of the error relative to the chunk's payload, -8 = chunk */
} bad_case_t;

static void check_bad(const fx_buf_t *payload, int before, const bad_case_t *c)
{
    fx_buf_t f = {0};
    uint64_t off;
    file_with(payload, before, N_EVENTS, &f, &off);
    outcome_t o = read_file(&f);
    cr_assert_eq(o.records, N_RECORDS, "%s: every record is returned (%zu)", c->name, o.records);
    cr_assert_eq(o.end, c->status, "%s: end status %d (%s)", c->name, (int)o.end, o.err.message);
    cr_assert(strstr(o.err.message, c->needle), "%s: message '%s' lacks '%s'", c->name, o.err.message, c->needle);
    cr_assert_eq(o.fi_count, c->kept, "%s: %u entries kept", c->name, o.fi_count);
    cr_assert_eq(o.err.offset, (uint64_t)((int64_t)off + 8 + c->rel_offset), "%s: offset %llu, chunk at %llu",
                 c->name, (unsigned long long)o.err.offset, (unsigned long long)off);
    fx_buf_free(&f);
}

/* Size of one entry as put_entry() writes it. */
static int64_t entry_size(const char *unit, const char *desc)
{
    return 13 + (int64_t)(unit ? strlen(unit) : 0) + (int64_t)(desc ? strlen(desc) : 0);
}

Test(reader_field_info, struct_id_out_of_range)
{
    fx_buf_t p = {0};
    put_u32(&p, 3);
    good_entries(&p);
    put_entry(&p, FX_STRUCT_COUNT, 0, 0, NULL, NULL);
    bad_case_t c = {"struct id", EVREC_E_BAD_ID, "struct id 5; the file has 5 structs", 2,
                    4 + entry_size("bytes", NULL) + entry_size(NULL, "Where it was.\nSecond line.")};
    check_bad(&p, 1, &c);
    fx_buf_free(&p);
}

Test(reader_field_info, field_index_out_of_range)
{
    fx_buf_t p = {0};
    put_u32(&p, 1);
    put_entry(&p, FX_STRUCT_SIMPLE, 3, 0, "ms", NULL);
    bad_case_t c = {"field index", EVREC_E_BAD_ID, "field index 3 of struct EvSimple, which has 3 fields", 0, 4};
    check_bad(&p, 1, &c);
    fx_buf_free(&p);
}

Test(reader_field_info, display_code_above_3)
{
    fx_buf_t p = {0};
    put_u32(&p, 2);
    put_entry(&p, FX_STRUCT_SIMPLE, 2, 1, NULL, NULL);
    put_entry(&p, FX_STRUCT_ALL, 2, 4, NULL, NULL);
    bad_case_t c = {"display", EVREC_E_CORRUPT, "(EvAll.a): display 4", 1, 4 + 13 + 4};
    check_bad(&p, 1, &c);
    fx_buf_free(&p);
}

Test(reader_field_info, control_character_in_unit)
{
    fx_buf_t p = {0};
    put_u32(&p, 1);
    put_entry(&p, FX_STRUCT_SIMPLE, 2, 0, "m\033[2Js", NULL);
    bad_case_t c = {"escape", EVREC_E_CORRUPT, "unit holds the control byte 0x1B", 0, 4 + 5 + 4 + 1};
    check_bad(&p, 1, &c);
    fx_buf_free(&p);
}

Test(reader_field_info, nul_in_description)
{
    fx_buf_t p = {0};
    put_u32(&p, 1);
    put_u16(&p, FX_STRUCT_SIMPLE);
    put_u16(&p, 2);
    uint8_t d = 0;
    fx_buf_write(&p, &d, 1);
    put_str(&p, "", 0);
    put_str(&p, "ab\0c", 4);
    bad_case_t c = {"nul", EVREC_E_CORRUPT, "description holds the control byte 0x00", 0, 4 + 5 + 4 + 4 + 2};
    check_bad(&p, 1, &c);
    fx_buf_free(&p);
}

Test(reader_field_info, unit_too_long)
{
    fx_buf_t p = {0};
    put_u32(&p, 1);
    put_u16(&p, FX_STRUCT_SIMPLE);
    put_u16(&p, 2);
    uint8_t d = 0;
    fx_buf_write(&p, &d, 1);
    char *u = malloc(EVREC_READER_MAX_NAME + 1);
    memset(u, 'u', EVREC_READER_MAX_NAME + 1);
    put_str(&p, u, EVREC_READER_MAX_NAME + 1);
    put_str(&p, "", 0);
    free(u);
    bad_case_t c = {"long unit", EVREC_E_UNSUPPORTED, "unit of 1025 bytes; at most 1024", 0, 4 + 5};
    check_bad(&p, 1, &c);
    fx_buf_free(&p);
}

Test(reader_field_info, count_larger_than_the_payload)
{
    fx_buf_t p = {0};
    put_u32(&p, 1000);
    good_entries(&p);
    bad_case_t c = {"count", EVREC_E_CORRUPT, "entry 2 of 1000", 2,
                    4 + entry_size("bytes", NULL) + entry_size(NULL, "Where it was.\nSecond line.")};
    check_bad(&p, 1, &c);
    fx_buf_free(&p);
}

Test(reader_field_info, string_runs_past_the_chunk)
{
    fx_buf_t p = {0};
    put_u32(&p, 1);
    put_u16(&p, FX_STRUCT_SIMPLE);
    put_u16(&p, 2);
    uint8_t d = 0;
    fx_buf_write(&p, &d, 1);
    put_u32(&p, 50);
    fx_buf_write(&p, "abcdefghijklmnopqrstuvwxyz", 26);
    bad_case_t c = {"string", EVREC_E_CORRUPT, "unit of 50 bytes runs past the end of the chunk", 0, 4 + 5};
    check_bad(&p, 1, &c);
    fx_buf_free(&p);
}

Test(reader_field_info, bytes_after_the_entries)
{
    fx_buf_t p = {0};
    put_u32(&p, 2);
    good_entries(&p);
    fx_buf_write(&p, "xyz", 3);
    int64_t end = 4 + entry_size("bytes", NULL) + entry_size(NULL, "Where it was.\nSecond line.");
    bad_case_t c = {"trailing", EVREC_E_CORRUPT, "3 bytes after its 2 entries", 2, end};
    check_bad(&p, 1, &c);
    fx_buf_free(&p);
}

Test(reader_field_info, duplicate_entry)
{
    fx_buf_t p = {0};
    put_u32(&p, 3);
    good_entries(&p);
    put_entry(&p, FX_STRUCT_ALL, 4, 0, NULL, NULL);
    bad_case_t c = {"duplicate", EVREC_E_CORRUPT, "(EvAll.c): a second entry for this field", 2,
                    4 + entry_size("bytes", NULL) + entry_size(NULL, "Where it was.\nSecond line.")};
    check_bad(&p, 1, &c);
    fx_buf_free(&p);
}

Test(reader_field_info, payload_shorter_than_its_count)
{
    fx_buf_t p = {0};
    fx_buf_write(&p, "\0\0", 2);
    bad_case_t c = {"short", EVREC_E_CORRUPT, "has 2 payload bytes; expected at least 4", 0, -8};
    check_bad(&p, 1, &c);
    fx_buf_free(&p);
}

Test(reader_field_info, chunk_after_the_stream_is_ignored_and_reported)
{
    fx_buf_t p = {0};
    put_u32(&p, 2);
    good_entries(&p);
    bad_case_t c = {"after stream", EVREC_E_CORRUPT, "comes after STREAM data", 0, -8};
    check_bad(&p, 0, &c);
    fx_buf_free(&p);
}

Test(reader_field_info, second_chunk_is_ignored_and_reported)
{
    fx_buf_t p = {0}, f = {0}, g = {0};
    put_u32(&p, 2);
    good_entries(&p);
    uint64_t off1, off2;
    file_with(&p, 1, N_EVENTS, &f, &off1);
    /* A second chunk right after the first. */
    size_t cut = (size_t)off1 + 8 + p.len;
    fx_buf_write(&g, f.p, cut);
    off2 = g.len;
    fx_put_chunk(&g, EVREC_CHUNK_FIELD_INFO, p.p, (uint32_t)p.len);
    fx_buf_write(&g, f.p + cut, f.len - cut);
    outcome_t o = read_file(&g);
    cr_assert_eq(o.records, N_RECORDS);
    cr_assert_eq(o.end, EVREC_E_CORRUPT);
    cr_assert(strstr(o.err.message, "is the second one"), "%s", o.err.message);
    cr_assert_eq(o.err.offset, off2);
    cr_assert_eq(o.fi_count, 2); /* the first chunk's entries are used */
    fx_buf_free(&p);
    fx_buf_free(&f);
    fx_buf_free(&g);
}

/* A damaged CRC loses the display attributes only: every record is read, the damage is reported
 * at the chunk's offset. */
Test(reader_field_info, bad_crc_loses_only_the_attributes)
{
    fx_buf_t p = {0}, f = {0};
    put_u32(&p, 2);
    good_entries(&p);
    uint64_t off;
    file_with(&p, 1, N_EVENTS, &f, &off);
    f.p[off + 8 + 6] ^= 1;
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, f.p, f.len, NULL), EVREC_OK, "%s", evrec_reader_error(r)->message);
    cr_assert_null(evrec_reader_meta(r)->field_info);
    evrec_record_t rec;
    evrec_status st;
    uint64_t records = 0;
    while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        records++;
    }
    cr_assert_eq(records, N_RECORDS);
    cr_assert_eq(st, EVREC_E_CHECKSUM);
    cr_assert_eq(evrec_reader_error(r)->offset, off);
    cr_assert(strstr(evrec_reader_error(r)->message, "FIELD_INFO chunk"), "%s", evrec_reader_error(r)->message);
    cr_assert_eq(evrec_reader_damage_count(r), 1);
    evrec_reader_close(r);
    fx_buf_free(&p);
    fx_buf_free(&f);
}

/* A deferred problem never hides stream damage found earlier: the first error wins. */
Test(reader_field_info, stream_damage_comes_first)
{
    fx_buf_t p = {0}, f = {0};
    put_u32(&p, 1);
    put_entry(&p, 99, 0, 0, NULL, NULL);
    uint64_t off;
    file_with(&p, 1, N_EVENTS, &f, &off);
    f.len -= 30; /* truncated: END chunk and part of the last STREAM chunk gone */
    outcome_t o;
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, f.p, f.len, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_field_info_error(r)->status, EVREC_E_BAD_ID);
    evrec_record_t rec;
    memset(&o, 0, sizeof o);
    while ((o.end = evrec_reader_next(r, &rec)) == EVREC_OK) {
    }
    cr_assert_eq(o.end, EVREC_E_TRUNCATED, "%s", evrec_reader_error(r)->message);
    evrec_reader_close(r);
    fx_buf_free(&p);
    fx_buf_free(&f);
}
