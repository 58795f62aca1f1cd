/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the stream tests that run the target's streaming ring against the receiver: the ring,
 * drains into a capture, feeding a receiver, a recording run of probes, and a capture damaged
 * frame by frame (cuts, flipped bytes, duplicates, reordering, garbage). One copy per test file
 * (static). */
#ifndef EVREC_TEST_STREAM_RUN_H
#define EVREC_TEST_STREAM_RUN_H

#include <criterion/criterion.h>

#include "evrec/evrec_stream.h"
#include "stream_harness.h"

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

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

/* The probes a clean S_RECORDS frame holds: the first one's seq and their count (0 for another
 * frame type). */
static void frame_probes(const uint8_t *f, size_t len, uint32_t *first, uint32_t *count)
{
    *count = 0;
    if ((t_be32(f + 4) >> 24) != EVREC_FRAME_RECORDS) {
        return;
    }
    size_t q = EVREC_STREAM_FRAME_HEADER + EVREC_FRAME_RECORDS_HEAD;
    while (q < len) {
        uint16_t id = (uint16_t)(f[q + 4] << 8 | f[q + 5]);
        if (id == PROBE_EVENT_PROBE) {
            if ((*count)++ == 0) {
                *first = t_be32(f + q + 8);
            }
            q += 16;
        } else {
            q += 7;
        }
    }
}

/* The frames of `c` into `bad`, about 8% of them cut short, hit by a flipped byte, duplicated,
 * swapped with the next or preceded by garbage (never the first four, the meta document, nor the
 * last, S_END); hit[seq] is set for every probe of a frame whose records are lost that way (a
 * frame swapped with the next comes late: lost). Returns the frames. */
static size_t damage_capture(const capture_t *c, capture_t *bad, uint8_t *hit, size_t *hit_probes)
{
    size_t frames = 0;
    size_t q = 0;
    while (q < c->len) {
        size_t len = EVREC_STREAM_FRAME_HEADER + (t_be32(c->data + q + 4) & 0xFFFFFFu);
        uint8_t *f = c->data + q;
        uint32_t first = 0, count = 0;
        frame_probes(f, len, &first, &count);
        uint32_t op = frames < 4 || q + len == c->len ? 100 : rnd(100); /* not the document, not END */
        int lost = 0;
        if (op < 2) { /* cut short */
            size_t cut = rnd((uint32_t)len);
            while (cut && f[cut] == 0xEB) {
                cut--; /* else the next frame's magic could complete it: the cut frame would come
                          whole (its CRC checks) and the next one lose its first byte */
            }
            capture_put(bad, f, cut);
            lost = 1;
        } else if (op < 4) { /* one byte flipped */
            size_t at = bad->len + rnd((uint32_t)len);
            capture_put(bad, f, len);
            bad->data[at] ^= (uint8_t)(1u << rnd(8));
            lost = 1;
        } else if (op < 5) { /* duplicated */
            capture_put(bad, f, len);
            capture_put(bad, f, len);
        } else if (op < 6 && q + len < c->len) { /* swapped with the next: comes late */
            size_t len2 = EVREC_STREAM_FRAME_HEADER + (t_be32(f + len + 4) & 0xFFFFFFu);
            if (q + len + len2 < c->len) {
                capture_put(bad, f + len, len2);
                capture_put(bad, f, len);
                lost = 1;
                q += len2;
                frames++;
            } else {
                capture_put(bad, f, len);
            }
        } else if (op < 8) { /* garbage before it */
            uint8_t g[64];
            uint32_t n = 1 + rnd(64);
            for (uint32_t k = 0; k < n; k++) {
                g[k] = (uint8_t)rnd(256);
            }
            g[0] = 0xEB; /* a false start, now and then a magic */
            if (n >= 4 && rnd(2)) {
                memcpy(g, EVREC_STREAM_MAGIC, 4);
            }
            capture_put(bad, g, n);
            capture_put(bad, f, len);
        } else {
            capture_put(bad, f, len);
        }
        if (lost) {
            for (uint32_t k = 0; k < count; k++) {
                hit[first + k] = 1;
            }
            *hit_probes += count;
        }
        q += len;
        frames++;
    }
    return frames;
}

/* A host and a stream over the shared ring (blocks of 256 bytes, a meta document every
 * `meta_every` frames of records), started with the probe meta-info at `time_freq` Hz and stream
 * id `id` (0: made by the stream). */
static void stream_begin(evrec_stream_t *s, evrec_host_t *h, uint32_t meta_every, uint64_t time_freq, uint32_t id)
{
    evrec_host_init(h);
    cr_assert_eq(evrec_stream_init(s, ring, sizeof ring, 256, meta_every), EVREC_OK);
    cr_assert_eq(evrec_stream_start(s, h, &probe_meta, time_freq, id), EVREC_OK);
}

/* The damaged-stream run both stream tests make: `probes` probes streamed (blocks of 256 bytes,
 * a meta document every `meta_every` frames, 0: at start only) and drained every `every` records
 * in frames of one smallest drain into `c` (recorded[k]: probe k was recorded), the capture then
 * damaged frame by frame into `bad` (hit[k]: probe k's frame was hit). Returns the frames. */
static size_t damaged_run(evrec_stream_t *s, uint32_t probes, uint32_t every, uint32_t meta_every,
                          uint8_t *recorded, capture_t *c, capture_t *bad, uint8_t *hit, size_t *hit_probes)
{
    evrec_host_t h;
    stream_begin(s, &h, meta_every, 1000, 0);
    record_run(s, &h, c, probes, every, EVREC_STREAM_MIN_CAP, recorded, 1);
    return damage_capture(c, bad, hit, hit_probes);
}

/* What a damaged run received must show: only probes that were recorded, none twice or out of
 * order; every probe of a frame not hit; the stream's end; records received + lost in transport =
 * records sent, and the target's drops exact. */
static void check_damaged_run(const evrec_srx_stats_t *st, const seen_t *seen, uint32_t probes,
                              const uint8_t *recorded, const uint8_t *got, const uint8_t *hit)
{
    cr_assert_eq(seen->bad, 0, "only records that were recorded are shown");
    cr_assert_eq(seen->out_of_order, 0, "none twice, none out of order");
    uint64_t missing = 0;
    for (uint32_t k = 0; k < probes; k++) {
        missing += recorded[k] && !hit[k] && !got[k];
    }
    cr_assert_eq(missing, 0, "every probe of a frame not hit is received");
    cr_assert(st->ended);
    const evrec_srx_lane_t *ln = &st->lane[0];
    cr_assert_eq(ln->received + ln->lost_transport, ln->end_sent, "no loss undetected");
    cr_assert_eq(ln->dropped, ln->end_dropped);
}

#endif
