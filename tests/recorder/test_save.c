/* SPDX-License-Identifier: Apache-2.0 */
/* Save: container header and chunks byte by byte, CRC-32C, sink failures, run-time enums. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"
#include "mem_sink.h"
#include "probe_meta.h"
#include "ref_meta.h"

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static uint64_t be64(const unsigned char *p)
{
    return (uint64_t)be32(p) << 32 | be32(p + 4);
}

Test(crc32c, known_answers)
{
    cr_assert_eq(evrec_crc32c(0, "123456789", 9), 0xE3069283u);
    cr_assert_eq(evrec_crc32c(0, "", 0), 0u);
    /* chaining equals one call */
    uint32_t c = evrec_crc32c(0, "1234", 4);
    cr_assert_eq(evrec_crc32c(c, "56789", 5), 0xE3069283u);
    /* RFC 3720 B.4: 32 bytes of zeros -> 0x8A9136AA */
    unsigned char z[32] = {0};
    cr_assert_eq(evrec_crc32c(0, z, 32), 0x8A9136AAu);
}

/* Records `n` probe events with the fake clock and stops. */
static void record_probes(evrec_recorder_t *rec, evrec_host_t *host, void *mem, size_t size, uint32_t n)
{
    evrec_host_init(host);
    cr_assert_eq(evrec_recorder_init(rec, mem, size), EVREC_OK);
    evrec_test_clock_now = 1000;
    evrec_test_clock_step = 10;
    cr_assert_eq(evrec_host_start(host, rec, &probe_meta, 123456789), EVREC_OK);
    for (uint32_t i = 0; i < n; i++) {
        cr_assert(probe_record(host, 3, i));
    }
    cr_assert_eq(evrec_host_stop(host, NULL), EVREC_OK);
}

/* Splits a container into its chunks, checking every CRC; returns the concatenated stream. */
static unsigned char *unchunk(const mem_sink_t *m, size_t *stream_len, int *saw_runtime)
{
    cr_assert_geq(m->len, EVREC_HEADER_SIZE + 8);
    cr_assert_eq(memcmp(m->data, EVREC_MAGIC, 8), 0);
    cr_assert_eq(be32(m->data + 44), evrec_crc32c(0, m->data, 44));
    unsigned char *s = malloc(m->len);
    size_t n = 0, q = EVREC_HEADER_SIZE;
    uint32_t seqs = 0, file_id = 0, last_sync_crc = 0;
    size_t seq_at = 0, copy_off = 0, prev = 0;
    for (;;) {
        cr_assert_leq(q + 8, m->len, "chunk header past the end at %zu", q);
        uint32_t word = be32(m->data + q);
        uint32_t type = word >> 24, len = word & 0xFFFFFFu;
        cr_assert_leq(q + 8 + len, m->len);
        uint32_t crc = evrec_crc32c(evrec_crc32c(0, m->data + q, 4), m->data + q + 8, len);
        cr_assert_eq(be32(m->data + q + 4), crc, "chunk at %zu: bad CRC", q);
        if (type == EVREC_CHUNK_END) {
            cr_assert_eq(len, 0);
            cr_assert_eq(q + 8, m->len, "bytes after the END chunk");
            cr_assert_eq(be32(m->data + prev) >> 24, EVREC_CHUNK_TAIL, "the TAIL chunk comes right before END");
            break;
        }
        if (type == EVREC_CHUNK_STREAM) {
            /* FORMAT.md section 2.4: right after its SEQ chunk, numbered in order, named by CRC */
            cr_assert(seq_at && seq_at + 8 + EVREC_SEQ_SIZE == q, "STREAM chunk at %zu without its SEQ chunk", q);
            const unsigned char *sp = m->data + seq_at + 8;
            cr_assert_eq(be32(sp + 4), seqs, "STREAM chunk at %zu: number %u, expected %u", q, be32(sp + 4), seqs);
            cr_assert_eq(be32(sp + 8), crc);
            cr_assert_eq(be32(sp + 12), last_sync_crc);
            cr_assert(seqs == 0 || be32(sp) == file_id);
            file_id = be32(sp);
            seqs++;
            last_sync_crc = 0;
            cr_assert_leq(len, 16384);
            memcpy(s + n, m->data + q + 8, len);
            n += len;
        } else if (type == EVREC_CHUNK_SEQ) {
            cr_assert_eq(len, EVREC_SEQ_SIZE);
            seq_at = q;
        } else if (type == EVREC_CHUNK_COPY) {
            cr_assert_geq(len, 1);
            copy_off = copy_off ? copy_off : q;
            if (m->data[q + 8] == EVREC_CHUNK_STREAM) { /* the meta-info again: the stream's start */
                cr_assert_leq(len - 1, n);
                cr_assert_eq(memcmp(m->data + q + 9, s, len - 1), 0, "the meta-info copy differs");
            }
        } else if (type == EVREC_CHUNK_TAIL) {
            cr_assert_eq(len, EVREC_TAIL_SIZE);
            cr_assert_eq(be64(m->data + q + 8), q - copy_off, "TAIL: bytes of the COPY chunks before it");
            cr_assert_eq(be32(m->data + q + 16), file_id);
            cr_assert_eq(be32(m->data + q + 20), seqs, "TAIL counts the STREAM chunks");
            cr_assert_eq(memcmp(m->data + q + 24, m->data, EVREC_HEADER_SIZE), 0, "TAIL holds the header");
        } else if (type == EVREC_CHUNK_SYNC) {
            cr_assert_eq(len, EVREC_SYNC_SIZE);
            cr_assert_gt(n, 0, "a SYNC chunk before the meta-info");
            last_sync_crc = crc;
        } else if (type == EVREC_CHUNK_INDEX) {
            /* FORMAT.md section 2.5: after the stream, right before the copies */
            cr_assert_gt(n, 0, "an INDEX chunk before the stream");
            cr_assert_eq(copy_off, 0, "an INDEX chunk among the copies");
            cr_assert_eq(be32(m->data + q + 8 + len - 4), len, "the INDEX payload ends with its length");
        } else if (type == EVREC_CHUNK_RUNTIME_ENUMS || type == EVREC_CHUNK_FIELD_INFO) {
            *saw_runtime |= type == EVREC_CHUNK_RUNTIME_ENUMS;
            cr_assert_eq(n, 0, "meta chunks must precede the stream");
            cr_assert_eq(copy_off, 0);
        } else {
            cr_assert_fail("unknown chunk type %u", type);
        }
        prev = q;
        q += 8 + len;
    }
    *stream_len = n;
    return s;
}

Test(save, container_wraps_exactly_the_bare_stream)
{
    size_t size = 1 << 20;
    void *mem = malloc(size);
    evrec_recorder_t rec;
    evrec_host_t host;
    record_probes(&rec, &host, mem, size, 20000); /* ~320 KB of records: many chunks */

    mem_sink_t c = {0}, b = {0};
    evrec_sink_t cs = mem_sink_of(&c), bs = mem_sink_of(&b);
    evrec_save_options_t opt = {0xFEEDFACECAFEBEEFull, 0};
    cr_assert_eq(evrec_save_ex(&rec, &cs, &opt), EVREC_OK);
    evrec_save_options_t bare = {0, 1};
    cr_assert_eq(evrec_save_ex(&rec, &bs, &bare), EVREC_OK);

    /* header fields */
    cr_assert_eq(be32(c.data + 8), (EVREC_FORMAT_MAJOR << 16) | EVREC_FORMAT_MINOR);
    cr_assert_eq(be32(c.data + 12), 0);
    cr_assert_eq(be64(c.data + 16), 0xFEEDFACECAFEBEEFull);
    cr_assert_eq(be64(c.data + 24), 20002);
    cr_assert_eq(be64(c.data + 32), 0);
    size_t n;
    int rt = 0;
    unsigned char *s = unchunk(&c, &n, &rt);
    cr_assert_eq(rt, 0);
    cr_assert_eq(n, b.len);
    cr_assert_eq(memcmp(s, b.data, n), 0, "container payload differs from the bare stream");

    /* bare stream: time_freq, and the records begin right after the meta-info, End last */
    cr_assert_eq(be64(b.data), 123456789u);
    const unsigned char *end = b.data + b.len - 7;
    static const unsigned char want_end[7] = {0, 0, 0, 0, 0, 0, 3};
    cr_assert_eq(memcmp(end, want_end, 7), 0);
    /* the last record before End is Stop, the first after the meta-info is Start at time 1000 */
    cr_assert_eq(end[-1], EVREC_CONTROL_STOP);
    /* each probe record: 4+2+2+4+4 = 16 packed bytes */
    size_t records_bytes = 7 + 20000 * 16 + 7;
    const unsigned char *first = end - records_bytes;
    cr_assert_eq(be32(first), 1000);
    cr_assert_eq(first[6], EVREC_CONTROL_START);
    const unsigned char *p0 = first + 7;
    cr_assert_eq(p0[4], 0);
    cr_assert_eq(p0[5], PROBE_EVENT_PROBE);
    cr_assert_eq(p0[6], 0);
    cr_assert_eq(p0[7], 3); /* source, big-endian */
    cr_assert_eq(be32(p0 + 8), 0);
    cr_assert_eq(be32(p0 + 12), probe_check(3, 0));
    free(s);
    free(c.data);
    free(b.data);
    free(mem);
}

Test(save, refuses_a_recorder_that_is_attached_or_empty)
{
    static uint32_t mem[256];
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    mem_sink_t m = {0};
    evrec_sink_t s = mem_sink_of(&m);
    cr_assert_eq(evrec_recorder_init(&rec, mem, sizeof mem), EVREC_OK);
    cr_assert_eq(evrec_save(&rec, &s), EVREC_E_BUSY);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 0), EVREC_OK);
    cr_assert_eq(evrec_save(&rec, &s), EVREC_E_BUSY);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    cr_assert_eq(evrec_save(&rec, NULL), EVREC_E_ARG);
    cr_assert_eq(evrec_save(&rec, &s), EVREC_OK);
    cr_assert_eq(m.len, 0 + m.len); /* wrote something */
    cr_assert_gt(m.len, EVREC_HEADER_SIZE);
    free(m.data);
}

Test(save, sink_failure_at_every_point_reports_io)
{
    size_t size = 64 * 1024;
    void *mem = malloc(size);
    evrec_recorder_t rec;
    evrec_host_t host;
    record_probes(&rec, &host, mem, size, 3000);
    mem_sink_t full = {0};
    evrec_sink_t fs = mem_sink_of(&full);
    cr_assert_eq(evrec_save(&rec, &fs), EVREC_OK);
    for (size_t cut = 1; cut < full.len; cut += 97) {
        mem_sink_t m = {0};
        m.fail_after = cut;
        evrec_sink_t s = mem_sink_of(&m);
        cr_assert_eq(evrec_save(&rec, &s), EVREC_E_IO, "cut at %zu", cut);
        cr_assert_leq(m.len, cut);
        cr_assert(m.len == 0 || memcmp(m.data, full.data, m.len) == 0, "bytes before the failure differ");
        free(m.data);
    }
    free(full.data);
    free(mem);
}

/* The CCore layout of run-time enum names inside a container, and the RUNTIME_ENUMS chunk. */
static const char *rt_store[4];
static evrec_runtime_enum_t rt;
static const evrec_enum_desc_t ref_enums[] = REF_ENUMS(&rt);
static const evrec_meta_t ref_meta = {0, 3, ref_enums, 4, ref_structs, 3, ref_events, 0, NULL, NULL};

Test(save, runtime_enum_ranges_chunk_and_exhaustion)
{
    cr_assert_eq(evrec_runtime_enum_init(&rt, 10, 14, EVREC_MARKER_PUSH, rt_store), EVREC_OK);
    uint32_t v;
    const char *names[] = {"A", "B", "C", "D"};
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(evrec_runtime_enum_alloc(&rt, names[i], &v), EVREC_OK);
        cr_assert_eq(v, 10u + (uint32_t)i);
    }
    cr_assert_eq(evrec_runtime_enum_alloc(&rt, "E", &v), EVREC_E_EXHAUSTED);
    cr_assert_eq(v, 14);
    cr_assert_eq(evrec_runtime_enum_alloc(&rt, "F", &v), EVREC_E_EXHAUSTED);
    cr_assert_eq(evrec_runtime_enum_init(&rt, 5, 5, 0, rt_store), EVREC_E_ARG);

    static uint32_t mem[256];
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init(&rec, mem, sizeof mem), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &ref_meta, 0), EVREC_OK);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    mem_sink_t m = {0};
    evrec_sink_t s = mem_sink_of(&m);
    cr_assert_eq(evrec_save(&rec, &s), EVREC_OK);
    const unsigned char *c = m.data + EVREC_HEADER_SIZE;
    cr_assert_eq(be32(c), (EVREC_CHUNK_RUNTIME_ENUMS << 24) | 16u);
    cr_assert_eq(be32(c + 8), 1);  /* count */
    cr_assert_eq(be32(c + 12), 0); /* enum id of ObjNumber */
    cr_assert_eq(be32(c + 16), 10);
    cr_assert_eq(be32(c + 20), 14);
    size_t n;
    int saw = 0;
    unsigned char *stream = unchunk(&m, &n, &saw);
    cr_assert_eq(saw, 1);
    /* ObjNumber lists Special(1) then A..D (10..13) with marker Push. */
    const unsigned char *e = stream + 8 + 4; /* time_freq, enum count */
    cr_assert_eq(e[0], EVREC_KIND_ENUM_UINT16);
    cr_assert_eq(be32(e + 1), 9);
    cr_assert_eq(be32(e + 1 + 4 + 9), 5, "value count");
    const unsigned char *val = e + 1 + 4 + 9 + 4;
    cr_assert_eq(be32(val), 1);
    val += 4 + 4 + 7 + 1;
    for (uint32_t i = 0; i < 4; i++) {
        cr_assert_eq(be32(val), 10 + i);
        cr_assert_eq(be32(val + 4), 1);
        cr_assert_eq(val[8], (unsigned char)names[i][0]);
        cr_assert_eq(val[9], EVREC_MARKER_PUSH);
        val += 10;
    }
    free(stream);
    free(m.data);
}

Test(save, a_damaged_buffer_is_saved_up_to_the_damage)
{
    size_t size = 4096;
    void *mem = malloc(size);
    evrec_recorder_t rec;
    evrec_host_t host;
    record_probes(&rec, &host, mem, size, 10);
    /* overwrite the id of the 4th probe record (offset 8 + 3*16) as a stray write would */
    ((evrec_record_header_t *)(void *)(evrec_recorder_records(&rec) + 8 + 3 * 16))->id = 999;
    mem_sink_t m = {0};
    evrec_sink_t s = mem_sink_of(&m);
    evrec_save_options_t bare = {0, 1};
    cr_assert_eq(evrec_save_ex(&rec, &s, &bare), EVREC_E_CORRUPT);
    /* Start + 3 probes, then End */
    static const unsigned char want_end[7] = {0, 0, 0, 0, 0, 0, 3};
    cr_assert_eq(memcmp(m.data + m.len - 7, want_end, 7), 0);
    cr_assert_eq(be32(m.data + m.len - 7 - 16 + 8), 2, "last saved probe is seq 2");
    free(m.data);
    free(mem);
}

/* FIELD_INFO: the display attributes travel in their own chunk, before the stream. */
static const evrec_field_info_t probe_info_entries[] = {{1, 3, EVREC_DISPLAY_HEX, "frames", "sequence number"},
                                                        {1, 4, EVREC_DISPLAY_DEFAULT, NULL, NULL}};
static const evrec_field_info_table_t probe_info = {0, 2, probe_info_entries};
static const evrec_meta_t probe_meta_info = {0, 1,           probe_enums, 3, probe_structs, 3, probe_events,
                                             0, &probe_info, NULL};

Test(save, field_info_chunk)
{
    static uint32_t mem[256];
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init(&rec, mem, sizeof mem), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta_info, 0), EVREC_OK);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    mem_sink_t m = {0};
    evrec_sink_t s = mem_sink_of(&m);
    cr_assert_eq(evrec_save(&rec, &s), EVREC_OK);
    const unsigned char *c = m.data + EVREC_HEADER_SIZE;
    uint32_t len = 4 + (5 + 4 + 6 + 4 + 15) + (5 + 4 + 4);
    cr_assert_eq(be32(c), (EVREC_CHUNK_FIELD_INFO << 24) | len);
    cr_assert_eq(be32(c + 4), evrec_crc32c(evrec_crc32c(0, c, 4), c + 8, len));
    const unsigned char *p = c + 8;
    cr_assert_eq(be32(p), 2);
    cr_assert_eq(p[4], 0);
    cr_assert_eq(p[5], 1);
    cr_assert_eq(p[6], 0);
    cr_assert_eq(p[7], 3);
    cr_assert_eq(p[8], EVREC_DISPLAY_HEX);
    cr_assert_eq(be32(p + 9), 6);
    cr_assert_eq(memcmp(p + 13, "frames", 6), 0);
    cr_assert_eq(be32(p + 19), 15);
    cr_assert_eq(memcmp(p + 23, "sequence number", 15), 0);
    cr_assert_eq(be32(p + 38 + 5), 0, "empty unit");
    cr_assert_eq(be32(p + 38 + 9), 0, "empty description");
    /* and the rest of the file is the usual chunk sequence */
    size_t n;
    int saw = 0;
    free(unchunk(&m, &n, &saw));
    cr_assert_eq(saw, 0);
    free(m.data);
}
