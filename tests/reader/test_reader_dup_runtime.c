/* SPDX-License-Identifier: Apache-2.0 */
/* A RUNTIME_ENUMS chunk written twice, both copies intact (FORMAT.md section 2, "Chunks out of
 * place" and "What is lost": such a chunk carries run-time enum names, never a record): every
 * record is read, the second chunk is reported at its offset, and its names are not used. The
 * reader refused the whole file ("a second RUNTIME_ENUMS chunk"), losing every record. */
#include <criterion/criterion.h>
#include <string.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_reader.h"
#include "reader_fixtures.h"

/* Records read to the end; *end gets the status that ended the iteration. */
static uint64_t read_all(const fx_buf_t *b, evrec_status *end, const evrec_reader_error_t **err,
                         evrec_reader_t **out)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, b->p, b->len, NULL), EVREC_OK, "open: %s",
                 evrec_reader_error(r)->message);
    evrec_record_t rec;
    uint64_t n = 0;
    while ((*end = evrec_reader_next(r, &rec)) == EVREC_OK) {
        n++;
    }
    *err = evrec_reader_error(r);
    *out = r;
    return n;
}

/* The recording `f` with its RUNTIME_ENUMS chunks replaced by `copies` copies of one naming
 * values [100, 110) of enum 3 (the fixture's run-time enum); returns the offset of the second. */
static uint64_t with_runtime_chunks(const fx_buf_t *f, unsigned copies, fx_buf_t *g)
{
    static const uint8_t p[16] = {0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 100, 0, 0, 0, 110};
    fx_buf_write(g, f->p, EVREC_HEADER_SIZE);
    for (unsigned i = 0; i < copies; i++) {
        fx_put_chunk(g, EVREC_CHUNK_RUNTIME_ENUMS, p, sizeof p);
    }
    fx_chunk_t ch[256];
    size_t n = fx_chunks(f->p, f->len, ch, 256);
    cr_assert_lt(n, 256u);
    for (size_t i = 0; i < n; i++) {
        if (ch[i].type != EVREC_CHUNK_RUNTIME_ENUMS) {
            fx_buf_write(g, f->p + ch[i].off, EVREC_CHUNK_HEADER_SIZE + ch[i].len);
        }
    }
    return EVREC_HEADER_SIZE + EVREC_CHUNK_HEADER_SIZE + sizeof p;
}

Test(reader_dup_runtime, a_second_runtime_enums_chunk_loses_no_record)
{
    fx_buf_t f = {0}, one = {0}, two = {0};
    fx_record(60, 0, &f);
    (void)with_runtime_chunks(&f, 1, &one);
    uint64_t second = with_runtime_chunks(&f, 2, &two);
    evrec_status end;
    const evrec_reader_error_t *err;
    evrec_reader_t *r1, *r2;
    uint64_t n1 = read_all(&one, &end, &err, &r1);
    cr_assert_eq(end, EVREC_E_END, "the file with one chunk reads to its end: %s", err->message);
    cr_assert_gt(n1, 60u);
    uint64_t n2 = read_all(&two, &end, &err, &r2);
    cr_expect_eq(n2, n1, "every record is read: %llu of %llu", (unsigned long long)n2, (unsigned long long)n1);
    cr_expect_eq(err->status, EVREC_E_CORRUPT, "%s", err->message);
    cr_expect_eq(err->offset, second, "the second chunk is named: %s", err->message);
    cr_expect(strstr(err->message, "second RUNTIME_ENUMS"), "%s", err->message);
    evrec_reader_close(r1);
    evrec_reader_close(r2);
    fx_buf_free(&f);
    fx_buf_free(&one);
    fx_buf_free(&two);
}

/* The same chunk after STREAM data (another recording's, inserted between two STREAM chunks):
 * skipped as damage that loses no record; reading stopped there. */
Test(reader_dup_runtime, a_runtime_enums_chunk_after_stream_data_loses_no_record)
{
    static const uint8_t p[4] = {0, 0, 0, 0};
    fx_buf_t f = {0}, c = {0}, g = {0};
    fx_record(60, 0, &f);
    fx_rechunk(f.p, f.len, 64, 0, &c);
    fx_chunk_t ch[256];
    size_t n = fx_chunks(c.p, c.len, ch, 256), streams = 0;
    uint64_t at = 0;
    cr_assert_lt(n, 256u);
    fx_buf_write(&g, c.p, EVREC_HEADER_SIZE);
    for (size_t i = 0; i < n; i++) {
        fx_buf_write(&g, c.p + ch[i].off, EVREC_CHUNK_HEADER_SIZE + ch[i].len);
        if (ch[i].type == EVREC_CHUNK_STREAM && ++streams == 3) {
            at = g.len;
            fx_put_chunk(&g, EVREC_CHUNK_RUNTIME_ENUMS, p, sizeof p);
        }
    }
    cr_assert_neq(at, 0u, "three STREAM chunks at least");
    evrec_status end;
    const evrec_reader_error_t *err;
    evrec_reader_t *r1, *r2;
    uint64_t n1 = read_all(&c, &end, &err, &r1);
    cr_assert_eq(end, EVREC_E_END, "%s", err->message);
    uint64_t n2 = read_all(&g, &end, &err, &r2);
    cr_expect_eq(n2, n1, "every record is read: %llu of %llu", (unsigned long long)n2, (unsigned long long)n1);
    cr_expect_eq(err->offset, at, "the chunk is named: %s", err->message);
    evrec_reader_close(r1);
    evrec_reader_close(r2);
    fx_buf_free(&f);
    fx_buf_free(&c);
    fx_buf_free(&g);
}
