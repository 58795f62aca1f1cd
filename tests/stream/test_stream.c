/* SPDX-License-Identifier: Apache-2.0 */
/* Streaming mode against the receiver (FORMAT.md section 8): every record recorded is received
 * once or counted as dropped, in order, with its exact restored time, whatever the interleaving
 * of recording and draining; a file written from the stream reads back. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "evrec/evrec_reader.h"
#include "evrec/evrec_stream.h"
#include "stream_harness.h"

extern uint32_t evrec_test_clock_now;
extern uint32_t evrec_test_clock_step;

static _Alignas(8) uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(16, 256)];

/* One drain of `cap` bytes, or (`all`) drains until nothing is left to send now. */
static void drain_into(evrec_stream_t *s, capture_t *c, size_t cap, int all)
{
    uint8_t buf[4096];
    size_t n;
    do {
        n = evrec_stream_drain(s, buf, cap);
        capture_put(c, buf, n);
    } while (all && n);
}

static void drain_all(evrec_stream_t *s, capture_t *c, size_t cap)
{
    for (int guard = 0; !evrec_stream_done(s) && guard < 1000000; guard++) {
        drain_into(s, c, cap, 0);
    }
    cr_assert(evrec_stream_done(s), "the stream ends");
}

/* Feeds a capture to a receiver in pieces of 1..97 bytes. */
static const evrec_srx_stats_t *receive(evrec_srx_t *rx, const capture_t *c)
{
    size_t q = 0, k = 1;
    while (q < c->len) {
        size_t n = c->len - q < k ? c->len - q : k;
        cr_assert_eq(evrec_srx_feed(rx, c->data + q, n), EVREC_OK);
        q += n;
        k = k % 97u + 1u;
    }
    cr_assert_eq(evrec_srx_finish(rx), EVREC_OK);
    return evrec_srx_stats(rx);
}

/* Records `n` probes, draining every `every` records with `cap` bytes. */
static void record_run(evrec_stream_t *s, evrec_host_t *h, capture_t *c, uint32_t n, uint32_t every, size_t cap,
                       uint8_t *recorded, int all)
{
    for (uint32_t i = 0; i < n; i++) {
        int ok = probe_record(h, 1, i);
        if (recorded) {
            recorded[i] = (uint8_t)ok;
        }
        if (every && i % every == every - 1u) {
            drain_into(s, c, cap, all);
        }
    }
    cr_assert_eq(evrec_host_stop(h, NULL), EVREC_OK);
    drain_all(s, c, cap);
}

Test(stream, interleavings_lose_nothing)
{
    static const uint32_t every[] = {1, 3, 7, 40};
    static const size_t caps[] = {EVREC_STREAM_MIN_CAP, 333, 1000, 4096};
    for (unsigned i = 0; i < 4; i++) {
        for (unsigned j = 0; j < 4; j++) {
            evrec_stream_t s;
            evrec_host_t h;
            capture_t c = {0};
            evrec_host_init(&h);
            cr_assert_eq(evrec_stream_init(&s, ring, sizeof ring, 256, 5), EVREC_OK);
            cr_assert_eq(evrec_stream_start(&s, &h, &probe_meta, 1000, 0), EVREC_OK);
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
        evrec_host_init(&h);
        cr_assert_eq(evrec_stream_init(&s, ring, sizeof ring, 256, 0), EVREC_OK);
        cr_assert_eq(evrec_stream_start(&s, &h, &probe_meta, 0, 7), EVREC_OK);
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
    evrec_host_init(&h);
    cr_assert_eq(evrec_stream_init(&s, ring, sizeof ring, 256, 0), EVREC_OK);
    cr_assert_eq(evrec_stream_start(&s, &h, &probe_meta, 1000000, 9), EVREC_OK);
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
