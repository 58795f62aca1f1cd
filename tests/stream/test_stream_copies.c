/* SPDX-License-Identifier: Apache-2.0 */
/* A file made from a stream (FORMAT.md section 8.3) ends with the copies of its meta-info and of
 * the chunks before its stream, and a TAIL chunk (section 2.4), like a saved one: damage in STREAM
 * chunk 0 (the MetaInfo) then loses no record. Without them one flipped bit there lost every
 * record of the file. Written to a regular file and to a pipe (whose header stays the first). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <unistd.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_stream.h"
#include "stream_harness.h"

static _Alignas(8) uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(16, 256)];

/* 300 probes drained every 20: a capture of a few dozen frames. */
static capture_t record_probes(void)
{
    evrec_stream_t s;
    evrec_host_t h;
    capture_t c = {0};
    uint8_t buf[600];
    size_t n;
    evrec_host_init(&h);
    cr_assert_eq(evrec_stream_init(&s, ring, sizeof ring, 256, 0), EVREC_OK);
    cr_assert_eq(evrec_stream_start(&s, &h, &probe_meta, 1000, 0xC0B1), EVREC_OK);
    for (uint32_t i = 0; i < 300; i++) {
        cr_assert(probe_record(&h, 2, i));
        if (i % 20 == 19) {
            while ((n = evrec_stream_drain(&s, buf, sizeof buf)) != 0) {
                capture_put(&c, buf, n);
            }
        }
    }
    cr_assert_eq(evrec_host_stop(&h, NULL), EVREC_OK);
    while (!evrec_stream_done(&s)) {
        capture_put(&c, buf, evrec_stream_drain(&s, buf, sizeof buf));
    }
    return c;
}

/* The file evrec_srx_convert() makes of `c`, into `out` (malloc'd; *len bytes); through a pipe
 * when `pipe_out`. */
static uint8_t *convert(const capture_t *c, int pipe_out, size_t *len)
{
    FILE *in = fmemopen(c->data, c->len, "rb");
    FILE *out = tmpfile();
    cr_assert(in && out);
    if (!pipe_out) {
        cr_assert_eq(evrec_srx_convert(in, out), EVREC_OK);
    } else {
        int p[2];
        cr_assert_eq(pipe(p), 0);
        pid_t pid = fork();
        if (pid == 0) {
            FILE *w = fdopen(p[1], "wb");
            close(p[0]);
            _exit(w && evrec_srx_convert(in, w) == EVREC_OK && fclose(w) == 0 ? 0 : 1);
        }
        close(p[1]);
        char b[4096];
        ssize_t n;
        while ((n = read(p[0], b, sizeof b)) > 0) {
            cr_assert_eq(fwrite(b, 1, (size_t)n, out), (size_t)n);
        }
        close(p[0]);
    }
    fclose(in);
    long n = ftell(out);
    cr_assert_gt(n, 0);
    uint8_t *f = malloc((size_t)n);
    rewind(out);
    cr_assert_eq(fread(f, 1, (size_t)n, out), (size_t)n);
    fclose(out);
    *len = (size_t)n;
    return f;
}

/* Records read from the file in memory; *first_damage gets the offset of the first damage. */
static uint64_t records(const uint8_t *f, size_t len, uint64_t *first_damage)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, f, len, NULL), EVREC_OK);
    evrec_record_t rec;
    uint64_t n = 0;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        n++;
    }
    *first_damage = evrec_reader_error(r)->offset;
    evrec_reader_close(r);
    return n;
}

/* The offset of the first STREAM chunk (the MetaInfo). */
static size_t stream0(const uint8_t *f, size_t len)
{
    for (size_t q = EVREC_HEADER_SIZE; q + EVREC_CHUNK_HEADER_SIZE <= len;) {
        if (f[q] == EVREC_CHUNK_STREAM) {
            return q;
        }
        q += EVREC_CHUNK_HEADER_SIZE + (t_be32(f + q) & 0xFFFFFFu);
    }
    cr_assert_fail("no STREAM chunk");
    return 0;
}

static void meta_damaged_loses_nothing(int pipe_out)
{
    capture_t c = record_probes();
    size_t len;
    uint8_t *f = convert(&c, pipe_out, &len);
    uint64_t at;
    uint64_t intact = records(f, len, &at);
    cr_assert_eq(intact, 300u + 2u, "Start, 300 probes, Stop");
    size_t s0 = stream0(f, len);
    uint32_t meta_len = t_be32(f + s0) & 0xFFFFFFu;
    for (uint32_t k = 0; k < meta_len; k += 7) {
        f[s0 + EVREC_CHUNK_HEADER_SIZE + k] ^= 0x10;
        uint64_t n = records(f, len, &at);
        cr_expect_eq(n, intact, "a bit flipped at offset %zu of the MetaInfo: %llu records of %llu",
                     s0 + EVREC_CHUNK_HEADER_SIZE + k, (unsigned long long)n, (unsigned long long)intact);
        cr_expect_eq(at, s0, "the damage is named at the chunk's offset");
        f[s0 + EVREC_CHUNK_HEADER_SIZE + k] ^= 0x10;
    }
    free(f);
    free(c.data);
}

Test(stream_copies, a_damaged_meta_info_loses_no_record)
{
    meta_damaged_loses_nothing(0);
}

Test(stream_copies, through_a_pipe_too)
{
    meta_damaged_loses_nothing(1);
}

/* The LOSSES chunk's per-lane counts as a hostile file gives them (CRC recomputed): lane 0 claims
 * UINT64_MAX records dropped, lane 1 one more. Their sum saturates; it wrapped to 0, "nothing
 * lost", and `evrec info` called the recording lossless. */
Test(stream_copies, losses_that_overflow_do_not_add_up_to_nothing)
{
    capture_t c = record_probes();
    size_t len;
    uint8_t *f = convert(&c, 0, &len);
    size_t q = EVREC_HEADER_SIZE;
    while (q + EVREC_CHUNK_HEADER_SIZE <= len && f[q] != EVREC_CHUNK_LOSSES) {
        q += EVREC_CHUNK_HEADER_SIZE + (t_be32(f + q) & 0xFFFFFFu);
    }
    cr_assert_lt(q + EVREC_CHUNK_HEADER_SIZE, len, "a LOSSES chunk");
    uint32_t n = t_be32(f + q) & 0xFFFFFFu;
    uint8_t *p = f + q + EVREC_CHUNK_HEADER_SIZE;
    cr_assert_geq(t_be32(p + 4), 2u, "two lanes at least");
    memset(p + 32, 0xFF, 8);   /* lane 0: dropped */
    memset(p + 32 + 32, 0, 8); /* lane 1: dropped */
    p[32 + 32 + 7] = 1;
    uint32_t crc = evrec_crc32c(evrec_crc32c(0, f + q, 4), p, n);
    f[q + 4] = (uint8_t)(crc >> 24);
    f[q + 5] = (uint8_t)(crc >> 16);
    f[q + 6] = (uint8_t)(crc >> 8);
    f[q + 7] = (uint8_t)crc;
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, f, len, NULL), EVREC_OK);
    const evrec_stream_losses_t *l = evrec_reader_stream_losses(r);
    cr_assert_not_null(l);
    cr_expect_eq(l->lane[0].dropped, UINT64_MAX);
    cr_expect_eq(l->lost, UINT64_MAX, "the sum saturates: %llu", (unsigned long long)l->lost);
    evrec_reader_close(r);
    free(f);
    free(c.data);
}
