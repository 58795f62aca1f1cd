/* SPDX-License-Identifier: Apache-2.0 */
/* Streaming mode against the receiver (FORMAT.md section 8): every record recorded is received
 * once or counted as dropped, in order, with its exact restored time, whatever the interleaving
 * of recording and draining; a file written from the stream reads back. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "evrec/evrec_reader.h"
#include "evrec/evrec_save.h"
#include "evrec/evrec_stream.h"
#include "mem_sink.h"
#include "stream_harness.h"
#include "stream_run.h"

extern uint32_t evrec_test_clock_now;
extern uint32_t evrec_test_clock_step;

Test(stream, interleavings_lose_nothing)
{
    static const uint32_t every[] = {1, 3, 7, 40};
    static const size_t caps[] = {EVREC_STREAM_MIN_CAP, 333, 1000, 4096};
    for (unsigned i = 0; i < 4; i++) {
        for (unsigned j = 0; j < 4; j++) {
            evrec_stream_t s;
            evrec_host_t h;
            capture_t c = {0};
            stream_begin(&s, &h, 5, 1000, 0);
            record_run(&s, &h, &c, 3000, every[i], caps[j], NULL, 1);
            seen_t seen = {0};
            evrec_srx_sink_t sink = seen_sink(&seen);
            evrec_srx_t *rx;
            cr_assert_eq(evrec_srx_new(&rx, &sink), EVREC_OK);
            const evrec_srx_stats_t *st = receive(rx, &c);
            cr_assert_eq(st->damaged_bytes, 0);
            cr_assert(st->ended);
            cr_assert_eq(seen.meta, 1);
            cr_assert_eq(seen.bad, 0);
            cr_assert_eq(seen.out_of_order, 0);
            cr_assert_eq(st->lane[0].dropped, 0, "every %u cap %zu: no drops", every[i], caps[j]);
            cr_assert_eq(seen.probes, 3000, "every %u cap %zu: %llu probes", every[i], caps[j],
                         (unsigned long long)seen.probes);
            cr_assert_eq(st->lane[0].received, 3002); /* Start, Stop */
            cr_assert_eq(st->lane[0].end_sent, 3002);
            cr_assert_eq(st->lane[0].lost_transport, 0);
            evrec_srx_free(rx);
            free(c.data);
        }
    }
}

Test(stream, drops_are_counted_exactly)
{
    /* The ring (16 blocks of 256 bytes, 15 records each) overflows between drains of 1..600
     * records (one drain of 4 KiB, about 250 records, each time): every record is received once or counted as dropped. */
    static uint8_t recorded[200000];
    static const uint32_t every[] = {300, 600, 2000};
    for (unsigned i = 0; i < 3; i++) {
        evrec_stream_t s;
        evrec_host_t h;
        capture_t c = {0};
        stream_begin(&s, &h, 0, 0, 7);
        record_run(&s, &h, &c, 200000, every[i], 4096, recorded, 0);
        uint64_t ok = 0;
        for (uint32_t k = 0; k < 200000; k++) {
            ok += recorded[k];
        }
        seen_t seen = {.recorded = recorded, .seq_limit = 200000};
        evrec_srx_sink_t sink = seen_sink(&seen);
        evrec_srx_t *rx;
        cr_assert_eq(evrec_srx_new(&rx, &sink), EVREC_OK);
        const evrec_srx_stats_t *st = receive(rx, &c);
        evrec_stream_counts_t sc = evrec_stream_counts(&s);
        cr_assert_gt(sc.dropped, 0, "the ring overflowed");
        cr_assert_eq(seen.bad, 0);
        cr_assert_eq(seen.out_of_order, 0);
        cr_assert_eq(seen.probes, ok, "every probe the recorder took is received");
        cr_assert_eq(st->lane[0].dropped, 200000 - ok, "dropped = probes refused");
        cr_assert_eq(st->lane[0].received + st->lane[0].dropped, 200002, "recorded = received + dropped");
        cr_assert_eq(st->lane[0].end_dropped, sc.dropped);
        evrec_srx_free(rx);
        free(c.data);
    }
}

Test(stream, time_survives_3400_wraps)
{
    /* Every timestamp read moves the fake clock a quarter wrap: 13,602 records span 3,400 wraps
     * of the 32-bit counter; the restored time grows by exactly a quarter wrap per record. */
    uint32_t saved_step = evrec_test_clock_step;
    evrec_test_clock_now = 0xFFFFF000u;
    evrec_test_clock_step = 0x40000000u;
    evrec_stream_t s;
    evrec_host_t h;
    capture_t c = {0};
    stream_begin(&s, &h, 0, 1000000, 9);
    record_run(&s, &h, &c, 13600, 10, 1000, NULL, 1);
    evrec_test_clock_step = saved_step;
    seen_t seen = {.time_step = 0x40000000u};
    evrec_srx_sink_t sink = seen_sink(&seen);
    evrec_srx_t *rx;
    cr_assert_eq(evrec_srx_new(&rx, &sink), EVREC_OK);
    const evrec_srx_stats_t *st = receive(rx, &c);
    cr_assert_eq(st->lane[0].received, 13602);
    cr_assert_eq(seen.t64_errors, 0);
    cr_assert_eq(seen.t64_last, 13601ull * 0x40000000u, "3400 wraps and a quarter: %llx",
                 (unsigned long long)seen.t64_last);
    evrec_srx_free(rx);
    free(c.data);
}

/* ---- the file written from a stream (FORMAT.md section 8.3) ---- */

typedef struct to_file {
    FILE *f;
    evrec_sfile_t *w;
} to_file_t;

static int file_meta(void *ctx, const uint8_t *doc, size_t size)
{
    to_file_t *t = (to_file_t *)ctx;
    return evrec_sfile_open(&t->w, t->f, doc, size) != EVREC_OK;
}

static int file_records(void *ctx, unsigned lane, const uint8_t *d, size_t size, uint64_t count,
                        const uint8_t state[36])
{
    (void)lane;
    to_file_t *t = (to_file_t *)ctx;
    return evrec_sfile_records(t->w, d, size, count, state) != EVREC_OK;
}

/* Reads a file back: every record in order, the probes' seq consecutive, t64 = index * step. */
static uint64_t read_back_file(FILE *f, uint64_t step, uint64_t *damage)
{
    evrec_reader_t *r = NULL;
    rewind(f);
    cr_assert_eq(evrec_reader_open_file(&r, f, NULL), EVREC_OK, "open: %s",
                 r ? evrec_reader_error(r)->message : "");
    evrec_record_t rec;
    uint64_t n = 0;
    int64_t last = -1;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        cr_assert_eq(rec.index, n);
        if (step) {
            cr_assert_eq(rec.t64, n * step, "record %llu: t64 %llu", (unsigned long long)n,
                         (unsigned long long)rec.t64);
        }
        if (rec.id == PROBE_EVENT_PROBE) {
            int64_t seq = t_be32(rec.data + 8);
            cr_assert_eq(seq, last + 1);
            last = seq;
        }
        n++;
    }
    *damage = evrec_reader_damage_count(r);
    evrec_reader_close(r);
    return n;
}

Test(stream, file_from_stream_reads_back)
{
    uint32_t saved_step = evrec_test_clock_step;
    evrec_test_clock_now = 0xFFFF0000u;
    evrec_test_clock_step = 0x30000000u; /* 1,000 wraps and more */
    evrec_stream_t s;
    evrec_host_t h;
    capture_t c = {0};
    stream_begin(&s, &h, 3, 1000, 0);
    record_run(&s, &h, &c, 5000, 11, 700, NULL, 1);
    evrec_test_clock_step = saved_step;
    to_file_t t = {tmpfile(), NULL};
    cr_assert_not_null(t.f);
    evrec_srx_sink_t sink = {file_meta, file_records, NULL, &t};
    evrec_srx_t *rx;
    cr_assert_eq(evrec_srx_new(&rx, &sink), EVREC_OK);
    const evrec_srx_stats_t *st = receive(rx, &c);
    cr_assert_eq(st->lane[0].received, 5002);
    uint64_t damage = 0;
    /* while recording (no END yet): a truncated file, every record read */
    cr_assert_eq(evrec_sfile_flush(t.w), EVREC_OK);
    cr_assert_eq(read_back_file(t.f, 0x30000000u, &damage), 5002);
    cr_assert_eq(evrec_sfile_close(t.w, 0), EVREC_OK);
    cr_assert_eq(read_back_file(t.f, 0x30000000u, &damage), 5002);
    cr_assert_eq(damage, 0, "a finished file is intact");
    evrec_srx_free(rx);
    fclose(t.f);
    free(c.data);
}

Test(stream, damaged_capture_resyncs_within_one_frame)
{
    /* 100,000 frames; about 8% of them cut short, hit by a flipped byte, duplicated, swapped with
     * the next, or preceded by garbage. Every probe shown was recorded, none twice or out of
     * order; every frame not hit (a swapped frame comes late: it counts as hit) is received whole;
     * records received + lost in transport = records sent, exactly. */
    enum { PROBES = 1700000 };
    static uint8_t recorded[PROBES], got[PROBES], hit[PROBES];
    evrec_stream_t s;
    capture_t c = {0}, bad = {0};
    size_t hit_probes = 0;
    size_t frames = damaged_run(&s, PROBES, 12, 0, recorded, &c, &bad, hit, &hit_probes);
    cr_assert_gt(frames, 100000, "%zu frames", frames);
    seen_t seen = {.recorded = recorded, .got = got, .seq_limit = PROBES};
    evrec_srx_sink_t sink = seen_sink(&seen);
    evrec_srx_t *rx;
    cr_assert_eq(evrec_srx_new(&rx, &sink), EVREC_OK);
    const evrec_srx_stats_t *st = receive(rx, &bad);
    check_damaged_run(st, &seen, PROBES, recorded, got, hit);
    cr_assert_gt(st->damaged_ranges, 1000);
    cr_assert_gt(hit_probes, 0);
    evrec_srx_free(rx);
    free(c.data);
    free(bad.data);
}

Test(stream, save_refuses_a_streaming_ring)
{
    /* Its records leave through the drain: evrec_save() says so instead of walking blocks the
     * drain clears (its block walk is the cyclic ring's, not this one's). */
    evrec_stream_t s;
    evrec_host_t h;
    capture_t c = {0};
    stream_begin(&s, &h, 0, 1000, 0);
    record_run(&s, &h, &c, 100, 0, 1000, NULL, 1);
    mem_sink_t m = {0};
    evrec_sink_t sink = mem_sink_of(&m);
    cr_assert_eq(evrec_save(&s.rec, &sink), EVREC_E_UNSUPPORTED);
    free(m.data);
    free(c.data);
}

Test(stream, frames_stay_within_the_receivers_limit)
{
    /* A drain buffer larger than a frame may be: the frames of records stop at 65,536 payload
     * bytes (a receiver refuses longer ones as damage). */
    static _Alignas(8) uint8_t big_ring[EVREC_CYCLIC_BUFFER_SIZE(64, 4096)];
    static uint8_t buf[300000];
    evrec_stream_t s;
    evrec_host_t h;
    capture_t c = {0};
    evrec_host_init(&h);
    cr_assert_eq(evrec_stream_init(&s, big_ring, sizeof big_ring, 4096, 0), EVREC_OK);
    cr_assert_eq(evrec_stream_start(&s, &h, &probe_meta, 1000, 0), EVREC_OK);
    for (uint32_t i = 0; i < 15000; i++) {
        cr_assert(probe_record(&h, 1, i));
    }
    cr_assert_eq(evrec_host_stop(&h, NULL), EVREC_OK);
    while (!evrec_stream_done(&s)) {
        capture_put(&c, buf, evrec_stream_drain(&s, buf, sizeof buf));
    }
    seen_t seen = {0};
    evrec_srx_sink_t sink = seen_sink(&seen);
    evrec_srx_t *rx;
    cr_assert_eq(evrec_srx_new(&rx, &sink), EVREC_OK);
    const evrec_srx_stats_t *st = receive(rx, &c);
    cr_assert_eq(st->damaged_bytes, 0);
    cr_assert_eq(seen.probes, 15000);
    evrec_srx_free(rx);
    free(c.data);
}
