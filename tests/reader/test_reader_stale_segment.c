/* SPDX-License-Identifier: Apache-2.0 */
/* After damage, a STREAM chunk that no SYNC chunk introduces is lost (FORMAT.md section 2.2):
 * the reader loaded it as its segment and went on to the next chunk. It used to leave it as the
 * segment: when the next chunk ended the stream, the lost chunk's records were served from it,
 * and through a file the buffer under it had been reused or reallocated for the next chunk (a
 * heap use-after-free in the meta-info parse and in record iteration; the fuzz target's
 * crashers/reader/ hold the inputs). Here: the last two STREAM chunks of a recording, the first
 * damaged and the SYNC chunk of the second damaged too, read from memory and from a file: no
 * record of the last chunk may come out, and the reader ends with the damage as its error. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_reader.h"
#include "reader_fixtures.h"

/* The SYNC chunk of the STREAM chunk at ch[i]: right before it, or before its SEQ chunk (version
 * 1.3, FORMAT.md section 2.4); SIZE_MAX when there is none. */
static size_t sync_of(const fx_chunk_t *ch, size_t i)
{
    if (i > 0 && ch[i - 1].type == EVREC_CHUNK_SEQ) {
        i--;
    }
    return i > 0 && ch[i - 1].type == EVREC_CHUNK_SYNC ? i - 1 : SIZE_MAX;
}

/* A recording with at least three STREAM chunks, the payload of the next-to-last one and that of
 * the last SYNC chunk hit by one bit each. *lost_from: index of the first record of the
 * next-to-last STREAM chunk (from its SYNC chunk). */
static void damaged_tail(fx_buf_t *f, uint64_t *lost_from)
{
    fx_record(6000, 0, f);
    fx_chunk_t ch[256];
    size_t n = fx_chunks(f->p, f->len, ch, 256);
    size_t streams[256], ns = 0;
    for (size_t i = 0; i < n; i++) {
        if (ch[i].type == EVREC_CHUNK_STREAM) {
            streams[ns++] = i;
        }
    }
    cr_assert_geq(ns, 3, "%zu STREAM chunks: the recording is too small", ns);
    size_t a = streams[ns - 2], b = streams[ns - 1];
    size_t sa = sync_of(ch, a), sb = sync_of(ch, b);
    cr_assert(sa < n && sb < n, "a STREAM chunk without its SYNC chunk");
    /* SYNC payload: u64 record index first (FORMAT.md section 2.2) */
    const uint8_t *s = f->p + ch[sa].off + 8;
    *lost_from = 0;
    for (int k = 0; k < 8; k++) {
        *lost_from = *lost_from << 8 | s[k];
    }
    f->p[ch[a].off + 8 + ch[a].len / 2] ^= 0x10;
    f->p[ch[sb].off + 8 + 4] ^= 0x01;
}

static void check(evrec_reader_t *r, uint64_t lost_from, const char *how)
{
    evrec_record_t rec;
    evrec_status st;
    uint64_t last = 0, count = 0;
    while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        last = rec.index;
        count++;
    }
    cr_assert_gt(count, 0, "%s: no record at all", how);
    cr_expect_lt(last, lost_from, "%s: record #%llu came out of a chunk lost after the damage (lost from #%llu)",
                 how, (unsigned long long)last, (unsigned long long)lost_from);
    cr_expect(st != EVREC_OK && st != EVREC_E_END, "%s: status %d: the damage must be reported", how, (int)st);
    evrec_reader_close(r);
}

Test(reader_stale_segment, lost_chunk_not_served_from_memory)
{
    fx_buf_t f = {0};
    uint64_t lost_from;
    damaged_tail(&f, &lost_from);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, f.p, f.len, NULL), EVREC_OK);
    check(r, lost_from, "memory");
    fx_buf_free(&f);
}

Test(reader_stale_segment, lost_chunk_not_served_from_a_file)
{
    fx_buf_t f = {0};
    uint64_t lost_from;
    damaged_tail(&f, &lost_from);
    char *path = fx_temp_file(f.p, f.len, ".evr");
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_file(&r, fp, NULL), EVREC_OK);
    check(r, lost_from, "file");
    fclose(fp);
    remove(path);
    free(path);
    fx_buf_free(&f);
}
