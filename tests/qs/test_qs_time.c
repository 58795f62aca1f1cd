/* SPDX-License-Identifier: Apache-2.0 */
/* Short timestamps (1 and 2 bytes) with time-sync records (format/qs/QS.md 4.1): exact 32-bit
 * times over many wraps of the short stamp, offline and through a lossy transmit ring; events
 * whose time cannot be restored are reported, never given a wrong time. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_qs_decode.h"
#include "evrec/evrec_qs_tx.h"
#include "qs_test_meta.h"

#define N_EVENTS 20000u

typedef struct got {
    evrec_qs_decoder_t dec;
    uint32_t *want; /* time of event #value */
    uint64_t n, wrong, not_exact;
} got_t;

static void on_event(void *ctx, const evrec_qs_event_t *ev)
{
    got_t *g = ctx;
    if (ev->id != K_SENSOR) {
        return;
    }
    uint32_t k = ev->values[2];
    g->n++;
    g->not_exact += !ev->time_exact;
    if (k >= N_EVENTS || ev->time != g->want[k]) {
        g->wrong++;
    }
}

static uint32_t rng = 1u;
static uint32_t rnd(void)
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 7;
}

/* Times that wrap the short stamp many times: steps of 0, small, around half and the whole
 * short range, large jumps, and small steps back (concurrent contexts). */
static void make_times(uint32_t *t, unsigned ts)
{
    uint32_t range = 1u << (8u * ts), half = range / 2u;
    uint32_t now = 0xFFFFF000u; /* the 32-bit time wraps too */
    for (uint32_t i = 0; i < N_EVENTS; i++) {
        switch (rnd() % 10u) {
        case 0: break;
        case 1: now += half - 1u; break;
        case 2: now += half; break;
        case 3: now += half + 1u; break;
        case 4: now += range + rnd() % 3u; break;
        case 5: now += rnd() % (1u << 20); break;
        case 6: now -= 1u + rnd() % (half / 2u); break;
        default: now += rnd() % (half / 4u + 1u); break;
        }
        t[i] = now;
    }
}

static got_t *got_new(const evrec_qs_map_t *map, uint32_t *want)
{
    got_t *g = calloc(1, sizeof *g);
    cr_assert_not_null(g);
    cr_assert_eq(evrec_qs_decoder_init(&g->dec, map, on_event, NULL, g), EVREC_OK);
    g->want = want;
    return g;
}

static void offline(unsigned ts)
{
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.time_size = (uint8_t)ts;
    evrec_qs_map_t map;
    evrec_qs_event_map_t ents[K_EVENT_COUNT];
    cr_assert_eq(evrec_qs_map_init(&map, &k_meta, &o, ents, sizeof ents), EVREC_OK);
    static uint32_t times[N_EVENTS];
    make_times(times, ts);
    size_t cap = (size_t)N_EVENTS * 2u * 64u + 65536u, at = 0;
    uint8_t *s = malloc(cap);
    cr_assert_not_null(s);
    uint8_t seq = 1;
    cr_assert_eq(evrec_qs_encode_session(&map, s, cap, &at, &seq), EVREC_OK);
    evrec_qs_time_sync_t sync = {0, 0};
    uint64_t syncs = 0, wraps = 0;
    for (uint32_t i = 0; i < N_EVENTS; i++) {
        size_t n = 0;
        if (evrec_qs_time_sync_due(&map, &sync, times[i])) {
            cr_assert_eq(evrec_qs_encode_time_sync(&map, seq++, times[i], s + at, cap - at, &n), EVREC_OK);
            at += n;
            sync.time = times[i];
            sync.valid = 1;
            syncs++;
        }
        if (i > 0 && (times[i] >> (8u * ts)) != (times[i - 1] >> (8u * ts))) {
            wraps++;
        }
        sensor_event_t e = k_sensor(times[i], (uint8_t)i, (uint16_t)(i * 7u), i);
        cr_assert_eq(evrec_qs_encode_event(&map, seq++, &e, s + at, cap - at, &n), EVREC_OK);
        at += n;
    }
    cr_assert_gt(wraps, N_EVENTS / 4u, "the short stamp wraps often (%llu)", (unsigned long long)wraps);
    cr_assert_lt(syncs, N_EVENTS, "not one time sync per event");
    got_t *g = got_new(&map, times);
    evrec_qs_decoder_feed(&g->dec, s, at);
    cr_assert_eq(g->n, N_EVENTS, "every event decoded (%llu)", (unsigned long long)g->n);
    cr_assert_eq(g->wrong, 0u, "%llu wrong times", (unsigned long long)g->wrong);
    cr_assert_eq(g->not_exact, 0u);
    cr_assert_eq(g->dec.time_syncs, syncs);
    cr_assert_eq(g->dec.mismatches + g->dec.parser.bad_checksums + g->dec.parser.gaps, 0u);
    evrec_qs_decoder_free(&g->dec);
    free(g);
    free(s);
}

Test(qs_time, two_byte_stamps_restore_exact_times_offline)
{
    offline(2);
}
Test(qs_time, one_byte_stamps_restore_exact_times_offline)
{
    offline(1);
}

/* Through a small transmit ring drained in random chunks, often too late: frames are
 * overwritten and cut. Every event that arrives has its exact time; the others are counted. */
static void lossy(unsigned ts)
{
    static uint8_t buf[4096] __attribute__((aligned(4)));
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.time_size = (uint8_t)ts;
    evrec_qs_tx_t tx;
    /* a ring of 400 - 4 x K_EVENT_COUNT bytes after the map's entries and field programs */
    size_t entries = (evrec_qs_map_entries_size(&k_meta) + 3u) & ~(size_t)3u;
    cr_assert_eq(evrec_qs_tx_init(&tx, &k_meta, buf, entries + 400u - 4u * K_EVENT_COUNT, &o), EVREC_OK);
    static uint32_t times[N_EVENTS];
    make_times(times, ts);
    got_t *g = got_new(&tx.map, times);
    uint8_t chunk[64];
    size_t n = 0;
    (void)evrec_qs_tx_session_start(&tx); /* the ring may be too small for all of it */
    for (uint32_t i = 0; i < N_EVENTS; i++) {
        sensor_event_t e = k_sensor(times[i], (uint8_t)i, (uint16_t)(i * 7u), i);
        cr_assert_eq(evrec_qs_tx_event(&tx, &e), EVREC_OK);
        if (rnd() % 3u == 0) {
            n = evrec_qs_tx_get_block(&tx, chunk, 1u + rnd() % sizeof chunk);
            evrec_qs_decoder_feed(&g->dec, chunk, n);
        }
    }
    while ((n = evrec_qs_tx_get_block(&tx, chunk, sizeof chunk)) > 0) {
        evrec_qs_decoder_feed(&g->dec, chunk, n);
    }
    cr_log_info("%u-byte stamps: %u events, %llu delivered with their exact time, %llu reported as time "
                "unknown, target: %llu frames lost, %llu cut, %llu time syncs",
                ts, N_EVENTS, (unsigned long long)g->n, (unsigned long long)g->dec.time_unknown,
                (unsigned long long)tx.frames_lost, (unsigned long long)tx.frames_cut,
                (unsigned long long)tx.time_syncs);
    cr_assert_gt(tx.frames_lost, 0u);
    cr_assert_gt(tx.frames_cut, 0u);
    cr_assert_eq(g->wrong, 0u, "%llu events with a wrong time", (unsigned long long)g->wrong);
    cr_assert_eq(g->not_exact, 0u);
    cr_assert_gt(g->n, N_EVENTS / 10u, "events arrive (%llu)", (unsigned long long)g->n);
    /* each event is delivered, skipped with a known time-unknown report, or lost on the target */
    cr_assert_leq(g->n + g->dec.time_unknown, N_EVENTS);
    evrec_qs_decoder_free(&g->dec);
    free(g);
}

Test(qs_time, two_byte_stamps_exact_through_a_lossy_ring)
{
    lossy(2);
}
Test(qs_time, one_byte_stamps_exact_through_a_lossy_ring)
{
    lossy(1);
}

/* A stream with 2-byte stamps and no time sync (made before time syncs existed, or joined
 * after the last one was lost): its events are reported, not given a guessed time. */
Test(qs_time, short_stamps_without_a_time_sync_are_reported_not_guessed)
{
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.time_size = 2;
    evrec_qs_map_t map;
    evrec_qs_event_map_t ents[K_EVENT_COUNT];
    cr_assert_eq(evrec_qs_map_init(&map, &k_meta, &o, ents, sizeof ents), EVREC_OK);
    uint8_t s[4096];
    size_t at = 0, n = 0;
    uint8_t seq = 1;
    cr_assert_eq(evrec_qs_encode_session(&map, s, sizeof s, &at, &seq), EVREC_OK);
    static uint32_t times[N_EVENTS];
    for (uint32_t i = 0; i < 5; i++) {
        times[i] = 0x12340000u + i * 40000u;
        sensor_event_t e = k_sensor(times[i], 1, 2, i);
        cr_assert_eq(evrec_qs_encode_event(&map, seq++, &e, s + at, sizeof s - at, &n), EVREC_OK);
        at += n;
    }
    /* then a time sync, and an event after it */
    cr_assert_eq(evrec_qs_encode_time_sync(&map, seq++, 0x20000000u, s + at, sizeof s - at, &n), EVREC_OK);
    at += n;
    times[5] = 0x20000010u;
    sensor_event_t e = k_sensor(times[5], 1, 2, 5);
    cr_assert_eq(evrec_qs_encode_event(&map, seq++, &e, s + at, sizeof s - at, &n), EVREC_OK);
    at += n;
    got_t *g = got_new(&map, times);
    evrec_qs_decoder_feed(&g->dec, s, at);
    cr_assert_eq(g->dec.time_unknown, 5u);
    cr_assert_eq(g->dec.mismatches, 5u);
    cr_assert_eq(g->n, 1u);
    cr_assert_eq(g->wrong, 0u);
    evrec_qs_decoder_free(&g->dec);
    free(g);
}

/* The bridge records' ids: events use 100..121; 22 event types still map directly. */
Test(qs_time, bridge_records_reserve_ids_122_and_123)
{
    cr_assert_eq(EVREC_QS_REC_USER + EVREC_QS_EVENT_IDS, EVREC_QS_REC_LOST);
    cr_assert_eq(EVREC_QS_REC_LOST + 1u, EVREC_QS_REC_TIME_SYNC);
    cr_assert_eq(EVREC_QS_REC_TIME_SYNC, EVREC_QS_REC_USER + EVREC_QS_USER_IDS - 1u);
}
