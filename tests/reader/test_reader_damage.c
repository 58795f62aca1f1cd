/* SPDX-License-Identifier: Apache-2.0 */
/* Damage sweeps (FORMAT.md section 2): truncate at every byte offset, flip every bit of small
 * files and a sample of bits of a larger one. For each damaged file: no crash or sanitizer
 * report; an error that names an offset inside the file; every record returned equals the
 * original record at the same index, indices ascending; every record lying wholly before the
 * damage is returned (for a truncation: every record whose bytes are all present); and in a file
 * that evrec_save() wrote (a SYNC chunk before every STREAM chunk), one flipped bit outside the
 * meta-info loses at most the records of the chunk it hit. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reader_fixtures.h"

typedef struct original {
    const uint8_t *file;
    size_t size;
    fx_read_t rd;
    fx_chunk_t *chunks;
    size_t nchunks;
    int container;
} original_t;

static void original_init(original_t *o, const uint8_t *file, size_t size)
{
    o->file = file;
    o->size = size;
    fx_read_all(file, size, NULL, &o->rd);
    cr_assert_eq(o->rd.end, EVREC_E_END, "the original must be intact: %s", o->rd.err.message);
    o->container = memcmp(file, EVREC_MAGIC, 8) == 0;
    o->chunks = malloc((size / 8 + 1) * sizeof *o->chunks);
    o->nchunks = o->container ? fx_chunks(file, size, o->chunks, size / 8 + 1) : 0;
}

static void original_free(original_t *o)
{
    fx_read_free(&o->rd);
    free(o->chunks);
}

/* Offset of the chunk holding file byte `off` (the header counts as offset 0). */
static uint64_t chunk_of(const original_t *o, uint64_t off)
{
    if (off < EVREC_HEADER_SIZE) {
        return 0;
    }
    for (size_t i = 0; i < o->nchunks; i++) {
        if (off < o->chunks[i].off + 8 + o->chunks[i].len) {
            return o->chunks[i].off;
        }
    }
    return o->size;
}

static void same_record(const fx_rec_t *got, const fx_rec_t *want, const char *what)
{
    cr_assert_eq(got->r.index, want->r.index, "%s", what);
    cr_assert_eq(got->r.offset, want->r.offset, "%s: record %llu", what, (unsigned long long)want->r.index);
    cr_assert_eq(got->r.id, want->r.id, "%s", what);
    cr_assert_eq(got->r.time32, want->r.time32, "%s", what);
    cr_assert_eq(got->r.t64, want->r.t64, "%s", what);
    cr_assert_eq(got->r.size, want->r.size, "%s", what);
    cr_assert_arr_eq(got->data, want->data, want->r.size, "%s: record %llu", what,
                     (unsigned long long)want->r.index);
}

/* Read `bad` and check it against the original. `must` = records that must be returned. */
static size_t check_damaged(const original_t *o, const uint8_t *bad, size_t size, size_t must, const char *what)
{
    fx_read_t rd;
    fx_read_all(bad, size, NULL, &rd);
    cr_assert_neq(rd.end, EVREC_E_END, "%s: damage not detected", what);
    cr_assert_neq(rd.err.status, EVREC_OK, "%s", what);
    cr_assert_leq(rd.err.offset, size, "%s: error offset %llu outside the file", what,
                  (unsigned long long)rd.err.offset);
    cr_assert_gt(strlen(rd.err.message), 10u, "%s: no message", what);
    cr_assert_leq(rd.count, o->rd.count, "%s", what);
    for (size_t i = 0; i < rd.count; i++) {
        uint64_t k = rd.recs[i].r.index;
        cr_assert_lt(k, o->rd.count, "%s: index %llu past the original's records", what, (unsigned long long)k);
        cr_assert(i == 0 || k > rd.recs[i - 1].r.index, "%s: indices not ascending at %zu", what, i);
        same_record(&rd.recs[i], &o->rd.recs[k], what);
        /* The first record after a gap is flagged; the others are not. */
        int after_gap = i == 0 ? k != 0 : k != rd.recs[i - 1].r.index + 1;
        cr_assert_eq(rd.recs[i].r.gap, after_gap, "%s: record %llu gap flag", what, (unsigned long long)k);
    }
    cr_assert_geq(rd.count, must, "%s: %zu records returned, %zu lie before the damage (%s at %llu)", what,
                  rd.count, must, rd.err.message, (unsigned long long)rd.err.offset);
    size_t n = rd.count;
    fx_read_free(&rd);
    return n;
}

static void truncation_sweep(const original_t *o)
{
    uint8_t *bad = malloc(o->size);
    for (size_t n = 0; n < o->size; n++) {
        memcpy(bad, o->file, n);
        size_t must = 0;
        while (must < o->rd.count && o->rd.recs[must].last_byte < n) {
            must++;
        }
        char what[64];
        snprintf(what, sizeof what, "truncated to %zu bytes", n);
        check_damaged(o, bad, n, must, what);
    }
    /* The whole file is intact. */
    fx_read_t rd;
    fx_read_all(o->file, o->size, NULL, &rd);
    cr_assert_eq(rd.end, EVREC_E_END);
    fx_read_free(&rd);
    free(bad);
}

/* Flip bit `bit` of a copy; records wholly before the chunk holding it must come back. With
 * `synced` (every STREAM chunk after a SYNC chunk, records never split): every record outside
 * the chunk hit, unless the bit is in the meta-info. */
static void flip_one_ex(const original_t *o, uint8_t *bad, size_t bit, int synced)
{
    memcpy(bad, o->file, o->size);
    bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    uint64_t damaged = chunk_of(o, bit / 8);
    size_t must = 0;
    while (must < o->rd.count && o->rd.recs[must].last_byte < damaged) {
        must++;
    }
    uint64_t first_rec = o->rd.count ? o->rd.recs[0].r.offset : o->size, meta_chunk = o->size;
    for (size_t i = 0; i < o->nchunks && meta_chunk == o->size; i++) {
        meta_chunk = o->chunks[i].type == EVREC_CHUNK_STREAM ? o->chunks[i].off : o->size;
    }
    if (synced && bit / 8 >= meta_chunk && bit / 8 < first_rec) {
        must = 0; /* the meta-info (or its chunk's header): nothing can be trusted */
    } else if (synced && bit / 8 < meta_chunk) {
        must = o->rd.count; /* the header or a display-only chunk: no record is lost */
    } else if (synced) {
        uint64_t end = damaged;
        for (size_t i = 0; i < o->nchunks; i++) {
            if (o->chunks[i].off == damaged) {
                end = damaged + 8 + o->chunks[i].len;
            }
        }
        must = 0;
        for (size_t i = 0; i < o->rd.count; i++) {
            must += o->rd.recs[i].last_byte < damaged || o->rd.recs[i].r.offset >= end;
        }
    }
    char what[64];
    snprintf(what, sizeof what, "bit %zu (byte %zu) flipped", bit, bit / 8);
    check_damaged(o, bad, o->size, must, what);
}

static void flip_one(const original_t *o, uint8_t *bad, size_t bit)
{
    flip_one_ex(o, bad, bit, 0);
}

Test(damage, container_truncated_at_every_offset, .timeout = 600)
{
    fx_buf_t f = {0};
    fx_record(1400, 0, &f); /* about 30 KB: two STREAM chunks, records across the boundary */
    original_t o;
    original_init(&o, f.p, f.len);
    cr_assert_geq(o.nchunks, 4u); /* RUNTIME_ENUMS, 2 x STREAM, END */
    truncation_sweep(&o);
    original_free(&o);
    fx_buf_free(&f);
}

Test(damage, container_every_bit_flipped)
{
    fx_buf_t f = {0};
    fx_record(40, 0, &f);
    original_t o;
    original_init(&o, f.p, f.len);
    uint8_t *bad = malloc(f.len);
    for (size_t bit = 0; bit < f.len * 8; bit++) {
        flip_one(&o, bad, bit);
    }
    free(bad);
    original_free(&o);
    fx_buf_free(&f);
}

/* Tiny chunks: the meta-info and most records straddle chunks; every bit and every cut. */
Test(damage, tiny_chunks_every_bit_and_every_cut, .timeout = 600)
{
    fx_buf_t f = {0}, g = {0};
    fx_record(60, 0, &f);
    fx_rechunk(f.p, f.len, 7, 1, &g);
    original_t o;
    original_init(&o, g.p, g.len);
    cr_assert_gt(o.nchunks, 100u);
    uint8_t *bad = malloc(g.len);
    for (size_t bit = 0; bit < g.len * 8; bit++) {
        flip_one(&o, bad, bit);
    }
    free(bad);
    truncation_sweep(&o);
    original_free(&o);
    fx_buf_free(&f);
    fx_buf_free(&g);
}

Test(damage, large_container_sampled_bits, .timeout = 600)
{
    fx_buf_t f = {0};
    fx_record(6000, 0, &f); /* about 120 KB, 8 chunks */
    original_t o;
    original_init(&o, f.p, f.len);
    cr_assert_geq(o.nchunks, 8u);
    uint8_t *bad = malloc(f.len);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 3000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        flip_one_ex(&o, bad, (size_t)(x % (f.len * 8)), 1);
    }
    /* And every bit of every chunk header, and of the file header. */
    for (size_t c = 0; c < o.nchunks; c++) {
        for (size_t b = 0; b < 64; b++) {
            flip_one_ex(&o, bad, (size_t)o.chunks[c].off * 8 + b, 1);
        }
    }
    for (size_t b = 0; b < EVREC_HEADER_SIZE * 8; b++) {
        flip_one_ex(&o, bad, b, 1);
    }
    free(bad);
    original_free(&o);
    fx_buf_free(&f);
}

Test(damage, bare_ref_bin_truncated_at_every_offset)
{
    FILE *fp = fopen(EVREC_TEST_DATA "/ccore/ref.bin", "rb");
    cr_assert_not_null(fp);
    uint8_t file[485];
    cr_assert_eq(fread(file, 1, sizeof file, fp), sizeof file);
    fclose(fp);
    original_t o;
    original_init(&o, file, sizeof file);
    cr_assert_eq(o.rd.count, 6u);
    truncation_sweep(&o);
    original_free(&o);
}

Test(damage, bare_recording_truncated_at_every_offset)
{
    fx_buf_t f = {0};
    fx_record(300, 1, &f);
    original_t o;
    original_init(&o, f.p, f.len);
    truncation_sweep(&o);
    original_free(&o);
    fx_buf_free(&f);
}

/* Specific messages: what the user reads. */
Test(damage, messages_name_the_chunk)
{
    fx_buf_t f = {0};
    fx_record(1400, 0, &f);
    original_t o;
    original_init(&o, f.p, f.len);
    const fx_chunk_t *second = NULL;
    for (size_t i = 0, k = 0; i < o.nchunks; i++) {
        if (o.chunks[i].type == EVREC_CHUNK_STREAM && ++k == 2) {
            second = &o.chunks[i];
        }
    }
    cr_assert_not_null(second);
    size_t o_count = o.rd.count, in_second = 0;
    for (size_t i = 0; i < o_count; i++) {
        in_second += o.rd.recs[i].r.offset >= second->off && o.rd.recs[i].r.offset < second->off + 8 + second->len;
    }
    uint8_t *bad = malloc(f.len);
    memcpy(bad, f.p, f.len);
    bad[second->off + 100] ^= 0x10;
    fx_read_t rd;
    fx_read_all(bad, f.len, NULL, &rd);
    cr_assert_eq(rd.err.status, EVREC_E_CHECKSUM);
    cr_assert_eq(rd.err.offset, second->off);
    cr_assert(strstr(rd.err.message, "STREAM chunk at offset") != NULL, "%s", rd.err.message);
    cr_assert(strstr(rd.err.message, "skipped") != NULL, "%s", rd.err.message);
    /* Only the records of the chunk hit are lost; reading resumes at the next SYNC point. */
    cr_assert_eq(rd.count, o_count - in_second, "%zu of %zu records, %zu in the damaged chunk", rd.count, o_count,
                 in_second);
    fx_read_free(&rd);

    /* Truncated inside the second STREAM chunk: its whole records come back, unverified. */
    size_t cut = (size_t)second->off + 8 + 1000;
    fx_read_all(f.p, cut, NULL, &rd);
    cr_assert_eq(rd.err.status, EVREC_E_TRUNCATED);
    cr_assert_eq(rd.err.offset, second->off);
    cr_assert(strstr(rd.err.message, "unverified") != NULL, "%s", rd.err.message);
    cr_assert_eq(rd.recs[rd.count - 1].r.unverified, 1);
    cr_assert_eq(rd.recs[0].r.unverified, 0);
    fx_read_free(&rd);

    /* A length that runs past a file that still ends with END: a damaged header word, repaired
     * from where the next intact chunk starts (the CRC checks), so nothing is lost. */
    memcpy(bad, f.p, f.len);
    bad[second->off + 1] ^= 0x40; /* + 4 MiB */
    fx_read_all(bad, f.len, NULL, &rd);
    cr_assert_eq(rd.err.status, EVREC_E_CORRUPT, "%s", rd.err.message);
    cr_assert_eq(rd.err.offset, second->off);
    cr_assert(strstr(rd.err.message, "header word") && strstr(rd.err.message, "repaired"), "%s", rd.err.message);
    cr_assert_eq(rd.count, o_count);
    fx_read_free(&rd);

    /* Header CRC: the header is damaged, the chunks after it are intact and read. */
    memcpy(bad, f.p, f.len);
    bad[30] ^= 1;
    fx_read_all(bad, f.len, NULL, &rd);
    cr_assert_eq(rd.open_status, EVREC_OK);
    cr_assert_eq(rd.err.status, EVREC_E_CHECKSUM);
    cr_assert_eq(rd.err.offset, 44u);
    cr_assert(strstr(rd.err.message, "damaged header"), "%s", rd.err.message);
    cr_assert_eq(rd.count, o_count);
    fx_read_free(&rd);

    /* A damaged magic with an intact rest of the header: a damaged evrec file, not a CCore stream. */
    memcpy(bad, f.p, f.len);
    bad[2] ^= 0x20;
    fx_read_all(bad, f.len, NULL, &rd);
    cr_assert_eq(rd.open_status, EVREC_OK);
    cr_assert_eq(rd.err.offset, 0u);
    cr_assert(strstr(rd.err.message, "damaged magic"), "%s", rd.err.message);
    cr_assert_eq(rd.count, o_count);
    fx_read_free(&rd);

    /* Bytes after END. */
    uint8_t *longer = malloc(f.len + 3);
    memcpy(longer, f.p, f.len);
    memcpy(longer + f.len, "xyz", 3);
    fx_read_all(longer, f.len + 3, NULL, &rd);
    cr_assert_eq(rd.err.status, EVREC_E_CORRUPT);
    cr_assert_eq(rd.err.offset, f.len);
    cr_assert_eq(rd.count, o.rd.count);
    fx_read_free(&rd);
    free(longer);
    free(bad);
    original_free(&o);
    fx_buf_free(&f);
}
