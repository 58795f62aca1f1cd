/* SPDX-License-Identifier: Apache-2.0 */
/* Streaming mode's ring at its edges (evrec/evrec_stream.h): the record path allocates with one
 * compare-and-swap below a limit, the end of the block being filled, which the context that opens
 * the next block publishes after moving `pos` there. Checked here against the receiver: a record
 * that fails at the limit is dropped and counted once; records made while the limit lags behind
 * `pos` (an interrupt preempting the context that opened the block) land in the new block; the
 * block numbering wraps (this test's recorder numbers blocks modulo 64: EVREC_TEST_BLOCK_NUMBERS)
 * and every record is still received once or counted as dropped. */
#include <criterion/criterion.h>

#include "evrec/evrec_stream.h"
#include "stream_harness.h"

extern void (*volatile evrec_test_pause_hook)(int where);

enum { BLOCK = 256, BLOCKS = 16 };
static _Alignas(8) uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(BLOCKS, BLOCK)];

static void drain_once(evrec_stream_t *s, capture_t *c)
{
    uint8_t buf[4096];
    size_t n;
    while ((n = evrec_stream_drain(s, buf, sizeof buf)) != 0) {
        capture_put(c, buf, n);
    }
}

static void drain_to_end(evrec_stream_t *s, capture_t *c)
{
    for (int guard = 0; !evrec_stream_done(s) && guard < 100000; guard++) {
        drain_once(s, c);
    }
    cr_assert(evrec_stream_done(s), "the stream ends");
}

static const evrec_srx_stats_t *receive(evrec_srx_t **rx, seen_t *seen, const capture_t *c)
{
    evrec_srx_sink_t sink = seen_sink(seen);
    cr_assert_eq(evrec_srx_new(rx, &sink), EVREC_OK);
    cr_assert_eq(evrec_srx_feed(*rx, c->data, c->len), EVREC_OK);
    cr_assert_eq(evrec_srx_finish(*rx), EVREC_OK);
    const evrec_srx_stats_t *st = evrec_srx_stats(*rx);
    cr_assert_eq(st->damaged_bytes, 0);
    cr_assert(st->ended);
    cr_assert_eq(seen->bad, 0);
    cr_assert_eq(seen->out_of_order, 0);
    return st;
}

static void start(evrec_stream_t *s, evrec_host_t *h)
{
    evrec_host_init(h);
    cr_assert_eq(evrec_stream_init(s, ring, sizeof ring, BLOCK, 0), EVREC_OK);
    cr_assert_eq(evrec_stream_start(s, h, &probe_meta, 1000, 0), EVREC_OK);
}

Test(stream_ring, a_record_failing_at_the_limit_is_counted_once)
{
    /* Without a drain the ring takes what its blocks hold (block 0 also holds Start); the next
     * records fail at the limit of the last block: each is one drop, nothing else moves. */
    evrec_stream_t s;
    evrec_host_t h;
    capture_t c = {0};
    start(&s, &h);
    size_t slot = sizeof(probe_event_t);
    size_t fits = (BLOCK - EVREC_BLOCK_HEADER - EVREC_CONTROL_SLOT) / slot +
                  (size_t)(BLOCKS - 1) * ((BLOCK - EVREC_BLOCK_HEADER) / slot);
    uint32_t seq = 0;
    for (; seq < fits; seq++) {
        cr_assert(probe_record(&h, 1, seq), "probe %u of %zu fits", seq, fits);
    }
    size_t pos = evrec_atomic_load(&h.pos);
    for (uint32_t k = 1; k <= 5; k++) {
        cr_assert_not(probe_record(&h, 1, seq + 1000u), "the ring is full");
        cr_assert_eq(evrec_stream_counts(&s).dropped, k, "one drop per refused record");
        cr_assert_eq(evrec_atomic_load(&h.pos), pos, "a refused record allocates nothing");
    }
    drain_once(&s, &c);
    cr_assert(probe_record(&h, 1, seq), "room again after the drain");
    cr_assert_eq(evrec_host_stop(&h, NULL), EVREC_OK);
    drain_to_end(&s, &c);
    seen_t seen = {0};
    evrec_srx_t *rx;
    const evrec_srx_stats_t *st = receive(&rx, &seen, &c);
    cr_assert_eq(seen.probes, fits + 1u);
    cr_assert_eq(st->lane[0].dropped, 5);
    cr_assert_eq(st->lane[0].end_dropped, 5);
    cr_assert_eq(st->lane[0].received, fits + 3u); /* Start, Stop */
    evrec_srx_free(rx);
    free(c.data);
}

/* The pause hook: at the point where a context has moved `pos` into a new block and not yet
 * published its limit, an "interrupt" records more probes than two blocks hold (it opens the next
 * two itself: so the paused context opens every third block, every block number in turn, the
 * wrap to block 0 too), at every block switch. */
static evrec_host_t *lag_host;
static uint32_t lag_seq, lag_calls, lag_wraps, lag_recorded, lag_seen_lagging;

static void lag_hook(int where)
{
    if (where != 3) {
        return;
    }
    lag_calls++;
    evrec_test_pause_hook = NULL; /* the nested records may open a block themselves */
    size_t cap = lag_host->cap, pos = evrec_atomic_load(&lag_host->pos);
    lag_seen_lagging += cap < pos;
    lag_wraps += pos < BLOCK; /* opened block 0: the numbering wrapped */
    for (int k = 0; k < 35; k++) {
        lag_recorded += (uint32_t)probe_record(lag_host, 2, lag_seq++);
    }
    evrec_test_pause_hook = lag_hook;
}

Test(stream_ring, records_made_while_the_limit_lags_land_in_the_new_block)
{
    evrec_stream_t s;
    evrec_host_t h;
    capture_t c = {0};
    start(&s, &h);
    lag_host = &h;
    lag_seq = lag_calls = lag_wraps = lag_recorded = lag_seen_lagging = 0;
    evrec_test_pause_hook = lag_hook;
    uint32_t recorded = 0;
    for (uint32_t i = 0; i < 6000; i++) {
        recorded += (uint32_t)probe_record(&h, 2, lag_seq++);
        if (i % 8u == 7u) {
            drain_once(&s, &c);
        }
    }
    evrec_test_pause_hook = NULL;
    cr_assert_gt(lag_calls, 150, "block switches paused: %u", lag_calls);
    cr_assert_gt(lag_wraps, 2, "wraps of the numbering paused: %u", lag_wraps);
    cr_assert_eq(lag_seen_lagging, lag_calls, "the limit lagged behind pos at each pause");
    cr_assert_eq(lag_recorded, lag_calls * 35u, "every nested record landed (none dropped)");
    cr_assert_eq(evrec_host_stop(&h, NULL), EVREC_OK);
    drain_to_end(&s, &c);
    seen_t seen = {0};
    evrec_srx_t *rx;
    const evrec_srx_stats_t *st = receive(&rx, &seen, &c);
    cr_assert_eq(st->lane[0].dropped, 0);
    cr_assert_eq(seen.probes, (uint64_t)recorded + lag_recorded);
    evrec_srx_free(rx);
    free(c.data);
}

Test(stream_ring, the_block_numbering_wraps_without_loss)
{
    /* 64 block numbers, a ring of 16 blocks: 300,000 probes wrap the numbering about 300 times,
     * with drains that keep up (every 8 records) and that fall behind (every 600). */
    static uint8_t recorded[300000];
    static const uint32_t every[] = {8, 600};
    for (unsigned i = 0; i < 2; i++) {
        evrec_stream_t s;
        evrec_host_t h;
        capture_t c = {0};
        start(&s, &h);
        uint64_t ok = 0;
        for (uint32_t k = 0; k < 300000u; k++) {
            recorded[k] = (uint8_t)probe_record(&h, 1, k);
            ok += recorded[k];
            if (k % every[i] == every[i] - 1u) {
                drain_once(&s, &c);
            }
        }
        cr_assert_eq(evrec_host_stop(&h, NULL), EVREC_OK);
        drain_to_end(&s, &c);
        seen_t seen = {.recorded = recorded, .seq_limit = 300000u};
        evrec_srx_t *rx;
        const evrec_srx_stats_t *st = receive(&rx, &seen, &c);
        cr_assert_eq(seen.probes, ok, "every %u: every probe the recorder took is received", every[i]);
        cr_assert_eq(st->lane[0].dropped, 300000u - ok, "every %u: dropped = probes refused", every[i]);
        cr_assert_eq(st->lane[0].end_dropped, evrec_stream_counts(&s).dropped);
        if (every[i] == 8u) {
            cr_assert_eq(ok, 300000u, "a drain that keeps up loses nothing");
        } else {
            cr_assert_gt(300000u - ok, 0, "a drain that falls behind drops");
        }
        evrec_srx_free(rx);
        free(c.data);
    }
}

/* evrec_reserve_pair(): two probes in one allocation. */
static int pair_record(evrec_host_t *h, uint32_t seq)
{
    int split;
    probe_event_t *a = evrec_reserve_pair(h, sizeof *a, sizeof *a, &split);
    if (a == NULL) {
        return split ? probe_record(h, 1, seq) + probe_record(h, 1, seq + 1u) : 0;
    }
    probe_event_t *b = a + 1;
    cr_assert_eq(b->time, a->time, "one timestamp for both");
    cr_assert_eq(a->id, EVREC_ID_PROVISIONAL(2u * sizeof *a), "the whole slot's extent");
    cr_assert_eq(b->id, EVREC_ID_PROVISIONAL(sizeof *b));
    a->source = b->source = 1;
    a->seq = seq;
    b->seq = seq + 1u;
    a->check = probe_check(1, seq);
    b->check = probe_check(1, seq + 1u);
    evrec_commit(a, PROBE_EVENT_PROBE);
    evrec_commit(b, PROBE_EVENT_PROBE);
    return 2;
}

Test(stream_ring, pairs_cross_block_boundaries_and_the_limit)
{
    /* Pairs in streaming mode: at a block's end the pair is recorded one by one (each may open
     * the next block or be dropped): every probe is received once or counted as dropped. */
    static uint8_t recorded[40000];
    evrec_stream_t s;
    evrec_host_t h;
    capture_t c = {0};
    start(&s, &h);
    uint64_t ok = 0;
    for (uint32_t k = 0; k < 40000u; k += 2u) {
        int n = pair_record(&h, k);
        recorded[k] = n >= 1;
        recorded[k + 1u] = n == 2;
        ok += (uint64_t)n;
        if (k % 700u == 698u) {
            drain_once(&s, &c);
        }
    }
    cr_assert_eq(evrec_host_stop(&h, NULL), EVREC_OK);
    drain_to_end(&s, &c);
    seen_t seen = {.recorded = recorded, .seq_limit = 40000u};
    evrec_srx_t *rx;
    const evrec_srx_stats_t *st = receive(&rx, &seen, &c);
    cr_assert_gt(40000u - ok, 0, "some pairs were dropped");
    cr_assert_eq(seen.probes, ok);
    cr_assert_eq(st->lane[0].dropped, 40000u - ok, "dropped = probes refused");
    evrec_srx_free(rx);
    free(c.data);
}

Test(stream_ring, a_oneshot_pair_that_does_not_fit_is_two_drops)
{
    /* One-shot: pairs until the buffer is full; the pair that crosses the end is two drops. */
    static _Alignas(8) uint8_t buf[EVREC_BUF_HEADER_SIZE + 512];
    evrec_recorder_t rec;
    evrec_host_t h;
    evrec_host_init(&h);
    cr_assert_eq(evrec_recorder_init(&rec, buf, sizeof buf), EVREC_OK);
    cr_assert_eq(evrec_host_start(&h, &rec, &probe_meta, 0), EVREC_OK);
    size_t room = 512u - 2u * EVREC_CONTROL_SLOT; /* Start, and the slot kept for Stop */
    size_t pairs = room / (2u * sizeof(probe_event_t));
    for (uint32_t k = 0; k < pairs; k++) {
        cr_assert_eq(pair_record(&h, 2u * k), 2);
    }
    cr_assert_gt(room - pairs * 2u * sizeof(probe_event_t), 0, "the last pair crosses the end");
    cr_assert_eq(pair_record(&h, 2u * (uint32_t)pairs), 0, "the pair that crosses the end is dropped");
    cr_assert_eq(pair_record(&h, 2u * (uint32_t)pairs + 2u), 0, "and every pair after it");
    cr_assert_eq(evrec_host_stop(&h, NULL), EVREC_OK);
    evrec_recorder_counts_t rc = evrec_recorder_counts(&rec);
    cr_assert_eq(rc.dropped, 4, "two drops per pair");
    cr_assert_eq(rc.recorded, 2u * pairs + 2u, "the pairs that fit, Start and Stop");
}
