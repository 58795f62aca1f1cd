/* SPDX-License-Identifier: Apache-2.0 */
/* Input sources (memory, path, FILE*, pipe), container details (unknown chunks, versions,
 * RUNTIME_ENUMS placement, schema hash and record count checks) and meta-info that the reader
 * must refuse with the offset of the offending item. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evrec/evrec_hash.h"
#include "reader_fixtures.h"

static void put_be(fx_buf_t *b, uint64_t v, int bytes)
{
    uint8_t d[8];
    for (int i = 0; i < bytes; i++) {
        d[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
    }
    fx_buf_write(b, d, (size_t)bytes);
}
static void u8(fx_buf_t *b, uint32_t v)
{
    put_be(b, v, 1);
}
static void u16(fx_buf_t *b, uint32_t v)
{
    put_be(b, v, 2);
}
static void u32(fx_buf_t *b, uint32_t v)
{
    put_be(b, v, 4);
}
static void str(fx_buf_t *b, const char *s)
{
    u32(b, (uint32_t)strlen(s));
    fx_buf_write(b, s, strlen(s));
}

/* The EventControlType enum and EventControl struct of a hand-made stream. */
static void control_enum(fx_buf_t *b)
{
    u8(b, 3);
    str(b, "EventControlType");
    u32(b, 4);
    static const char *const n[4] = {"Start", "Tick", "Stop", "End"};
    static const uint8_t m[4] = {8, 13, 14, 0};
    for (uint32_t i = 0; i < 4; i++) {
        u32(b, i);
        str(b, n[i]);
        u8(b, m[i]);
    }
}
static void control_struct(fx_buf_t *b, uint32_t enum_id)
{
    str(b, "EventControl");
    u32(b, 3);
    u8(b, 2), u16(b, 0), str(b, "time");
    u8(b, 1), u16(b, 0), str(b, "id");
    u8(b, 3), u16(b, enum_id), str(b, "type");
}

static evrec_reader_t *open_buf(const fx_buf_t *b, evrec_status want)
{
    evrec_reader_t *r = NULL;
    evrec_status st = evrec_reader_open_memory(&r, b->p, b->len, NULL);
    cr_assert_eq(st, want, "open: %d (%s), expected %d", st, evrec_reader_error(r)->message, want);
    return r;
}

/* ---- sources ---- */

static size_t count_records(evrec_reader_t *r, evrec_status *end)
{
    evrec_record_t rec;
    size_t n = 0;
    while ((*end = evrec_reader_next(r, &rec)) == EVREC_OK) {
        n++;
    }
    return n;
}

Test(input, memory_path_file_and_pipe_agree)
{
    fx_buf_t f = {0};
    uint64_t recorded = fx_record(5000, 0, &f); /* several chunks */
    char *path = fx_temp_file(f.p, f.len, ".evr");
    evrec_reader_t *r;
    evrec_status end;
    cr_assert_eq(evrec_reader_open_memory(&r, f.p, f.len, NULL), EVREC_OK);
    cr_assert_eq(count_records(r, &end), recorded);
    cr_assert_eq(end, EVREC_E_END);
    evrec_reader_close(r);
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_info(r)->file_size, f.len);
    cr_assert_eq(count_records(r, &end), recorded);
    cr_assert_eq(end, EVREC_E_END);
    evrec_reader_close(r);
    FILE *fp = fopen(path, "rb");
    cr_assert_eq(evrec_reader_open_file(&r, fp, NULL), EVREC_OK);
    cr_assert_eq(count_records(r, &end), recorded);
    cr_assert_eq(end, EVREC_E_END);
    evrec_reader_close(r);
    fclose(fp);
    /* A pipe, fed by a child process (more than a pipe buffer). */
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        size_t off = 0;
        while (off < f.len) {
            ssize_t k = write(fds[1], f.p + off, f.len - off);
            if (k <= 0) {
                _exit(1);
            }
            off += (size_t)k;
        }
        _exit(0);
    }
    close(fds[1]);
    fp = fdopen(fds[0], "rb");
    cr_assert_eq(evrec_reader_open_file(&r, fp, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_info(r)->file_size, 0u);
    cr_assert_eq(count_records(r, &end), recorded);
    cr_assert_eq(end, EVREC_E_END, "%s", evrec_reader_error(r)->message);
    evrec_reader_close(r);
    fclose(fp);
    unlink(path);
    free(path);
    fx_buf_free(&f);
}

Test(input, missing_file)
{
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_path(&r, "/nonexistent/x.evr", NULL), EVREC_E_IO);
    cr_assert_not_null(r);
    cr_assert(strstr(evrec_reader_error(r)->message, "No such file") != NULL);
    evrec_record_t rec;
    cr_assert_eq(evrec_reader_next(r, &rec), EVREC_E_IO);
    cr_assert_null(evrec_reader_meta(r));
    evrec_reader_close(r);
    cr_assert_eq(evrec_reader_open_path(NULL, "x", NULL), EVREC_E_ARG);
    cr_assert_eq(evrec_reader_open_memory(&r, NULL, 3, NULL), EVREC_E_ARG);
    cr_assert_null(r);
    evrec_reader_close(NULL);
}

/* ---- container details ---- */

Test(input, unknown_chunks_skipped_and_tiny_chunks_read)
{
    fx_buf_t f = {0}, g = {0};
    uint64_t recorded = fx_record(100, 0, &f);
    fx_rechunk(f.p, f.len, 5, 1, &g);
    fx_read_t a, b;
    fx_read_all(f.p, f.len, NULL, &a);
    fx_read_all(g.p, g.len, NULL, &b);
    cr_assert_eq(b.end, EVREC_E_END, "%s", b.err.message);
    cr_assert_eq(a.count, recorded);
    cr_assert_eq(b.count, a.count);
    for (size_t i = 0; i < a.count; i++) {
        cr_assert_eq(b.recs[i].r.t64, a.recs[i].r.t64);
        cr_assert_arr_eq(b.recs[i].data, a.recs[i].data, a.recs[i].r.size);
    }
    fx_read_free(&a);
    fx_read_free(&b);
    fx_buf_free(&f);
    fx_buf_free(&g);
}

static void set_header(uint8_t *h, int field_off, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) {
        h[field_off + i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
    }
    uint32_t crc = evrec_crc32c(0, h, 44);
    for (int i = 0; i < 4; i++) {
        h[44 + i] = (uint8_t)(crc >> (8 * (3 - i)));
    }
}

Test(input, versions)
{
    fx_buf_t f = {0};
    fx_record(10, 0, &f);
    set_header(f.p, 10, 7, 2); /* minor 7: accepted */
    evrec_reader_t *r = open_buf(&f, EVREC_OK);
    cr_assert_eq(evrec_reader_info(r)->version_minor, 7u);
    evrec_reader_close(r);
    set_header(f.p, 8, 2, 2); /* major 2: refused */
    r = open_buf(&f, EVREC_E_UNSUPPORTED);
    cr_assert_eq(evrec_reader_error(r)->offset, 8u);
    cr_assert(strstr(evrec_reader_error(r)->message, "version 2.7") != NULL, "%s", evrec_reader_error(r)->message);
    evrec_reader_close(r);
    fx_buf_free(&f);
}

Test(input, schema_hash_mismatch_is_reported_not_fatal)
{
    fx_buf_t f = {0};
    fx_record(10, 0, &f);
    set_header(f.p, 16, 0x1122334455667788ull, 8);
    evrec_reader_t *r = open_buf(&f, EVREC_OK);
    const evrec_file_info_t *fi = evrec_reader_info(r);
    cr_assert_eq(fi->schema_hash_stored, 0x1122334455667788ull);
    cr_assert_eq(fi->schema_hash_computed, fx_meta_init()->schema_hash);
    evrec_status end;
    count_records(r, &end);
    cr_assert_eq(end, EVREC_E_END);
    evrec_reader_close(r);
    fx_buf_free(&f);
}

Test(input, recorded_count_mismatch)
{
    fx_buf_t f = {0};
    uint64_t recorded = fx_record(10, 0, &f);
    set_header(f.p, 24, recorded + 2, 8);
    evrec_reader_t *r = open_buf(&f, EVREC_OK);
    evrec_status end;
    cr_assert_eq(count_records(r, &end), recorded);
    cr_assert_eq(end, EVREC_E_CORRUPT);
    cr_assert_eq(evrec_reader_error(r)->offset, 24u);
    cr_assert(strstr(evrec_reader_error(r)->message, "header says") != NULL);
    evrec_reader_close(r);
    fx_buf_free(&f);
}

Test(input, runtime_enums_after_stream_refused)
{
    fx_buf_t f = {0}, g = {0};
    fx_record(10, 0, &f);
    fx_chunk_t ch[16];
    size_t n = fx_chunks(f.p, f.len, ch, 16);
    cr_assert_eq(ch[0].type, EVREC_CHUNK_RUNTIME_ENUMS);
    cr_assert_eq(ch[1].type, EVREC_CHUNK_SEQ);
    cr_assert_eq(ch[2].type, EVREC_CHUNK_STREAM);
    fx_buf_write(&g, f.p, EVREC_HEADER_SIZE);
    fx_buf_write(&g, f.p + ch[1].off, 8 + ch[1].len); /* SEQ and STREAM first */
    fx_buf_write(&g, f.p + ch[2].off, 8 + ch[2].len);
    fx_buf_write(&g, f.p + ch[0].off, 8 + ch[0].len);
    for (size_t i = 3; i < n; i++) {
        fx_buf_write(&g, f.p + ch[i].off, 8 + ch[i].len);
    }
    evrec_reader_t *r = NULL;
    evrec_reader_open_memory(&r, g.p, g.len, NULL);
    evrec_status end;
    count_records(r, &end);
    cr_assert_eq(end, EVREC_E_CORRUPT);
    cr_assert_eq(evrec_reader_error(r)->offset, EVREC_HEADER_SIZE + 8 + ch[1].len + 8 + ch[2].len);
    evrec_reader_close(r);
    fx_buf_free(&f);
    fx_buf_free(&g);
}

Test(input, bad_runtime_ranges)
{
    fx_buf_t f = {0};
    fx_record(10, 0, &f);
    /* RUNTIME_ENUMS payload: count 1, enum 4 -> 9 (only 5 enums). */
    fx_buf_t g = {0};
    fx_buf_write(&g, f.p, EVREC_HEADER_SIZE);
    uint8_t p[16] = {0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0, 100, 0, 0, 0, 110};
    fx_put_chunk(&g, EVREC_CHUNK_RUNTIME_ENUMS, p, 16);
    fx_chunk_t ch[16];
    size_t n = fx_chunks(f.p, f.len, ch, 16);
    for (size_t i = 1; i < n; i++) {
        fx_buf_write(&g, f.p + ch[i].off, 8 + ch[i].len);
    }
    evrec_reader_t *r = open_buf(&g, EVREC_E_BAD_ID);
    cr_assert_eq(evrec_reader_error(r)->offset, EVREC_HEADER_SIZE + 8 + 4);
    evrec_reader_close(r);
    /* Length not 4 + 12 x count. */
    g.len = EVREC_HEADER_SIZE;
    fx_put_chunk(&g, EVREC_CHUNK_RUNTIME_ENUMS, p, 15);
    r = open_buf(&g, EVREC_E_CORRUPT);
    cr_assert_eq(evrec_reader_error(r)->offset, EVREC_HEADER_SIZE);
    evrec_reader_close(r);
    fx_buf_free(&f);
    fx_buf_free(&g);
}

/* ---- hand-made CCore streams ---- */

/* A minimal valid stream: EventControl only, then Start, Stop, End. */
static void minimal(fx_buf_t *b)
{
    put_be(b, 1000, 8);
    u32(b, 1);
    control_enum(b);
    u32(b, 1);
    control_struct(b, 0);
    u32(b, 1);
    u16(b, 0), u16(b, 0), u32(b, 7);
}

static void records_start_stop_end(fx_buf_t *b)
{
    u32(b, 5), u16(b, 0), u8(b, 0);
    u32(b, 9), u16(b, 0), u8(b, 2);
    u32(b, 0), u16(b, 0), u8(b, 3);
}

Test(input, minimal_stream)
{
    fx_buf_t b = {0};
    minimal(&b);
    records_start_stop_end(&b);
    fx_read_t rd;
    fx_read_all(b.p, b.len, NULL, &rd);
    cr_assert_eq(rd.end, EVREC_E_END, "%s", rd.err.message);
    cr_assert_eq(rd.count, 2u);
    cr_assert_eq(rd.recs[1].r.t64, 4u);
    fx_read_free(&rd);
    fx_buf_free(&b);
}

Test(input, unknown_event_id_keeps_records_before)
{
    fx_buf_t b = {0};
    minimal(&b);
    size_t meta_len = b.len;
    u32(&b, 5), u16(&b, 0), u8(&b, 0);
    u32(&b, 6), u16(&b, 0), u8(&b, 1);
    u32(&b, 7), u16(&b, 3), u8(&b, 0); /* id 3: no such event */
    records_start_stop_end(&b);
    fx_read_t rd;
    fx_read_all(b.p, b.len, NULL, &rd);
    cr_assert_eq(rd.count, 2u);
    cr_assert_eq(rd.end, EVREC_E_BAD_ID);
    cr_assert_eq(rd.err.offset, meta_len + 14);
    cr_assert(strstr(rd.err.message, "event id 3") != NULL, "%s", rd.err.message);
    fx_read_free(&rd);
    fx_buf_free(&b);
}

Test(input, data_after_end_record)
{
    fx_buf_t b = {0};
    minimal(&b);
    records_start_stop_end(&b);
    size_t end = b.len;
    u8(&b, 0);
    fx_read_t rd;
    fx_read_all(b.p, b.len, NULL, &rd);
    cr_assert_eq(rd.count, 2u);
    cr_assert_eq(rd.end, EVREC_E_CORRUPT);
    cr_assert_eq(rd.err.offset, end);
    fx_read_free(&rd);
    fx_buf_free(&b);
}

Test(input, garbage_and_tiny_files)
{
    fx_buf_t b = {0};
    evrec_reader_t *r = open_buf(&b, EVREC_E_TRUNCATED); /* empty */
    cr_assert_eq(evrec_reader_info(r)->format, EVREC_FILE_UNKNOWN);
    evrec_reader_close(r);
    fx_buf_write(&b, "EVRC\r", 5);
    r = open_buf(&b, EVREC_E_TRUNCATED);
    cr_assert(strstr(evrec_reader_error(r)->message, "header") != NULL);
    evrec_reader_close(r);
    b.len = 0;
    fx_buf_write(&b, "this is a text file, not a recording\n", 37);
    r = open_buf(&b, EVREC_E_CORRUPT);
    cr_assert(strstr(evrec_reader_error(r)->message, "no evrec magic") != NULL, "%s",
              evrec_reader_error(r)->message);
    cr_assert_eq(evrec_reader_error(r)->offset, 8u); /* the enum count */
    evrec_reader_close(r);
    fx_buf_free(&b);
}

Test(input, meta_limits_and_consistency)
{
    fx_buf_t b = {0};
    /* A name longer than the limit. */
    put_be(&b, 0, 8);
    u32(&b, 1);
    u8(&b, 3);
    u32(&b, EVREC_READER_MAX_NAME + 1);
    for (unsigned i = 0; i < EVREC_READER_MAX_NAME + 1; i++) {
        u8(&b, 'a');
    }
    evrec_reader_t *r = open_buf(&b, EVREC_E_UNSUPPORTED);
    cr_assert_eq(evrec_reader_error(r)->offset, 13u);
    evrec_reader_close(r);

    /* A NUL inside a name. */
    b.len = 0;
    put_be(&b, 0, 8);
    u32(&b, 1);
    u8(&b, 3);
    u32(&b, 3);
    fx_buf_write(&b, "a\0b", 3);
    u32(&b, 0);
    u32(&b, 0);
    r = open_buf(&b, EVREC_E_CORRUPT);
    cr_assert(strstr(evrec_reader_error(r)->message, "NUL") != NULL);
    evrec_reader_close(r);

    /* A value count that the remaining bytes cannot hold. */
    b.len = 0;
    put_be(&b, 0, 8);
    u32(&b, 1);
    u8(&b, 5);
    str(&b, "E");
    u32(&b, 0x10000000u);
    r = open_buf(&b, EVREC_E_CORRUPT);
    cr_assert_eq(evrec_reader_error(r)->offset, 18u);
    evrec_reader_close(r);

    /* An enum value too wide for its kind. */
    b.len = 0;
    put_be(&b, 0, 8);
    u32(&b, 1);
    u8(&b, 3);
    str(&b, "E");
    u32(&b, 1);
    u32(&b, 256);
    str(&b, "x");
    u8(&b, 0);
    r = open_buf(&b, EVREC_E_CORRUPT);
    cr_assert_eq(evrec_reader_error(r)->offset, 22u);
    evrec_reader_close(r);

    /* A field with an enum id out of range. */
    b.len = 0;
    put_be(&b, 0, 8);
    u32(&b, 1);
    control_enum(&b);
    u32(&b, 1);
    control_struct(&b, 5);
    u32(&b, 1);
    u16(&b, 0), u16(&b, 0), u32(&b, 7);
    r = open_buf(&b, EVREC_E_BAD_ID);
    evrec_reader_close(r);

    /* save_len disagreeing with the struct. */
    b.len = 0;
    put_be(&b, 0, 8);
    u32(&b, 1);
    control_enum(&b);
    u32(&b, 1);
    control_struct(&b, 0);
    u32(&b, 1);
    size_t ev = b.len;
    u16(&b, 0), u16(&b, 0), u32(&b, 8);
    r = open_buf(&b, EVREC_E_CORRUPT);
    cr_assert_eq(evrec_reader_error(r)->offset, ev);
    evrec_reader_close(r);

    /* No EventControl. */
    b.len = 0;
    put_be(&b, 0, 8);
    u32(&b, 0);
    u32(&b, 1);
    str(&b, "Ev");
    u32(&b, 2);
    u8(&b, 2), u16(&b, 0), str(&b, "time");
    u8(&b, 1), u16(&b, 0), str(&b, "id");
    u32(&b, 1);
    u16(&b, 0), u16(&b, 0), u32(&b, 6);
    r = open_buf(&b, EVREC_E_CORRUPT);
    cr_assert(strstr(evrec_reader_error(r)->message, "EventControl") != NULL);
    evrec_reader_close(r);
    fx_buf_free(&b);
}

Test(input, struct_cycles_and_deep_nesting)
{
    fx_buf_t b = {0};
    /* Struct 1 contains itself. */
    put_be(&b, 0, 8);
    u32(&b, 1);
    control_enum(&b);
    u32(&b, 2);
    control_struct(&b, 0);
    str(&b, "Loop");
    u32(&b, 1);
    u8(&b, 6), u16(&b, 1), str(&b, "self");
    u32(&b, 1);
    u16(&b, 0), u16(&b, 0), u32(&b, 7);
    evrec_reader_t *r = open_buf(&b, EVREC_E_UNSUPPORTED);
    cr_assert(strstr(evrec_reader_error(r)->message, "Loop") != NULL, "%s", evrec_reader_error(r)->message);
    evrec_reader_close(r);

    /* A chain of 40000 structs each holding the next: refused at depth 9, no deep recursion. */
    b.len = 0;
    put_be(&b, 0, 8);
    u32(&b, 1);
    control_enum(&b);
    u32(&b, 40001);
    control_struct(&b, 0);
    for (uint32_t i = 1; i <= 40000; i++) {
        str(&b, "S");
        u32(&b, 1);
        if (i < 40000) {
            u8(&b, 6), u16(&b, i + 1), str(&b, "n");
        } else {
            u8(&b, 0), u16(&b, 0), str(&b, "leaf");
        }
    }
    u32(&b, 1);
    u16(&b, 0), u16(&b, 0), u32(&b, 7);
    r = open_buf(&b, EVREC_E_UNSUPPORTED);
    evrec_reader_close(r);

    /* Exactly EVREC_MAX_NESTING levels below an event: accepted, dotted names. */
    b.len = 0;
    put_be(&b, 0, 8);
    u32(&b, 1);
    control_enum(&b);
    u32(&b, 2 + EVREC_MAX_NESTING);
    control_struct(&b, 0);
    str(&b, "Ev"); /* struct 1 */
    u32(&b, 3);
    u8(&b, 2), u16(&b, 0), str(&b, "time");
    u8(&b, 1), u16(&b, 0), str(&b, "id");
    u8(&b, 6), u16(&b, 2), str(&b, "s");
    for (uint32_t i = 2; i < 2 + EVREC_MAX_NESTING; i++) {
        str(&b, "N");
        u32(&b, 1);
        if (i + 1 < 2 + EVREC_MAX_NESTING) {
            u8(&b, 6), u16(&b, i + 1), str(&b, "s");
        } else {
            u8(&b, 0), u16(&b, 0), str(&b, "v");
        }
    }
    u32(&b, 2);
    u16(&b, 0), u16(&b, 0), u32(&b, 7);
    u16(&b, 1), u16(&b, 1), u32(&b, 7);
    u32(&b, 1), u16(&b, 0), u8(&b, 0);
    u32(&b, 2), u16(&b, 1), u8(&b, 42);
    records_start_stop_end(&b);
    r = open_buf(&b, EVREC_OK);
    evrec_record_t rec;
    cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK);
    cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK);
    cr_assert_eq(rec.id, 1u);
    evrec_reader_close(r);
    fx_buf_free(&b);
}
