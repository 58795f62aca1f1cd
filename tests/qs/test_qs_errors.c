/* SPDX-License-Identifier: Apache-2.0 */
/* Damaged streams: corrupted, dropped, merged, over-long frames and a start mid-frame are
 * counted exactly, and decoding resynchronises at the next flag. */
#include <criterion/criterion.h>
#include <string.h>

#include "evrec/evrec_qs.h"
#include "evrec/evrec_qs_decode.h"
#include "qs_test_meta.h"

#define N_EVENTS 50

typedef struct stream {
    uint8_t bytes[8192];
    size_t len;
    size_t start[N_EVENTS + 1]; /* byte offset of event frame i; start[N] = end */
    size_t session_len;
    evrec_qs_map_t map;
    evrec_qs_event_map_t entries[K_EVENT_COUNT];
} stream_t;

static stream_t *make_stream(void)
{
    stream_t *s = calloc(1, sizeof *s);
    cr_assert_eq(evrec_qs_map_init(&s->map, &k_meta, NULL, s->entries, sizeof s->entries), EVREC_OK);
    uint8_t seq;
    cr_assert_eq(evrec_qs_encode_session(&s->map, s->bytes, sizeof s->bytes, &s->len, &seq), EVREC_OK);
    s->session_len = s->len;
    for (uint32_t i = 0; i < N_EVENTS; i++) {
        sensor_event_t e = k_sensor(1000u + i, (uint8_t)(0x40 + i), (uint16_t)(0x1111u * (i % 7u)),
                                    0x01010101u * i);
        size_t n;
        s->start[i] = s->len;
        cr_assert_eq(evrec_qs_encode_event(&s->map, seq++, &e, s->bytes + s->len, sizeof s->bytes - s->len, &n),
                     EVREC_OK);
        s->len += n;
    }
    s->start[N_EVENTS] = s->len;
    return s;
}

typedef struct result {
    evrec_qs_parser_t p;
    uint64_t events;
    uint32_t ch[N_EVENTS]; /* channels of the decoded events, in order */
} result_t;

static void on_event(void *ctx, const evrec_qs_event_t *ev)
{
    result_t *r = ctx;
    r->ch[r->events++] = ev->values[0];
}

static result_t decode(const stream_t *s, const uint8_t *bytes, size_t len, size_t chunk)
{
    evrec_qs_decoder_t *d = calloc(1, sizeof *d);
    result_t r;
    memset(&r, 0, sizeof r);
    cr_assert_eq(evrec_qs_decoder_init(d, &s->map, on_event, NULL, &r), EVREC_OK);
    for (size_t at = 0; at < len; at += chunk) {
        evrec_qs_decoder_feed(d, bytes + at, len - at < chunk ? len - at : chunk);
    }
    cr_assert_eq(d->events, r.events);
    cr_assert_eq(d->mismatches, 0u);
    r.p = d->parser;
    evrec_qs_decoder_free(d);
    free(d);
    return r;
}

/* Flip one bit of a plain (not escape, not flag, not escaped) byte in frame i's timestamp area. */
static void corrupt(stream_t *s, uint8_t *bytes, size_t i)
{
    for (size_t k = s->start[i] + 2; k < s->start[i + 1] - 2; k++) {
        uint8_t b = bytes[k], x = (uint8_t)(b ^ 0x01);
        if (b != 0x7D && b != 0x7E && x != 0x7D && x != 0x7E && bytes[k - 1] != 0x7D) {
            bytes[k] = x;
            return;
        }
    }
    cr_assert_fail("no plain byte in frame %zu", i);
}

Test(qs_errors, clean_stream_in_any_chunk_size)
{
    stream_t *s = make_stream();
    for (size_t chunk = 1; chunk <= 33; chunk += 4) {
        result_t r = decode(s, s->bytes, s->len, chunk);
        cr_assert_eq(r.events, N_EVENTS);
        cr_assert_eq(r.p.bad_checksums + r.p.gaps + r.p.too_long + r.p.too_short + r.p.skipped, 0u);
        for (uint32_t i = 0; i < N_EVENTS; i++)
            cr_assert_eq(r.ch[i], 0x40 + i);
    }
    free(s);
}

Test(qs_errors, corrupted_frames_counted_exactly)
{
    stream_t *s = make_stream();
    uint8_t *b = malloc(s->len);
    memcpy(b, s->bytes, s->len);
    corrupt(s, b, 10);
    corrupt(s, b, 20);
    corrupt(s, b, 21);
    for (size_t chunk = 1; chunk <= 64; chunk *= 4) {
        result_t r = decode(s, b, s->len, chunk);
        cr_assert_eq(r.p.bad_checksums, 3u);
        cr_assert_eq(r.p.gaps, 2u, "after each run of bad frames, one discontinuity (as QSPY)");
        cr_assert_eq(r.p.frames_lost, 3u);
        cr_assert_eq(r.events, N_EVENTS - 3u);
        cr_assert_eq(r.ch[10], 0x40 + 11u, "resynchronised at the next flag");
        cr_assert_eq(r.ch[19], 0x40 + 22u);
    }
    free(b);
    free(s);
}

static size_t cut_frames(const stream_t *s, uint8_t *out, const size_t *drop, size_t ndrop)
{
    size_t n = 0;
    memcpy(out, s->bytes, s->session_len);
    n = s->session_len;
    for (size_t i = 0; i < N_EVENTS; i++) {
        int skip = 0;
        for (size_t k = 0; k < ndrop; k++)
            skip |= drop[k] == i;
        if (!skip) {
            memcpy(out + n, s->bytes + s->start[i], s->start[i + 1] - s->start[i]);
            n += s->start[i + 1] - s->start[i];
        }
    }
    return n;
}

Test(qs_errors, dropped_frames_counted_exactly)
{
    stream_t *s = make_stream();
    uint8_t *b = malloc(s->len);
    const size_t drop[] = {5, 6, 7, 30, 49};
    size_t n = cut_frames(s, b, drop, 5);
    result_t r = decode(s, b, n, 7);
    cr_assert_eq(r.p.bad_checksums, 0u);
    cr_assert_eq(r.p.gaps, 2u, "frame 49 was the last: no later frame reveals it");
    cr_assert_eq(r.p.frames_lost, 4u);
    cr_assert_eq(r.events, N_EVENTS - 5u);
    free(b);
    free(s);
}

Test(qs_errors, lost_flag_merges_two_frames)
{
    stream_t *s = make_stream();
    uint8_t *b = malloc(s->len);
    size_t flag = s->start[13] - 1;
    cr_assert_eq(s->bytes[flag], 0x7E);
    memcpy(b, s->bytes, flag);
    memcpy(b + flag, s->bytes + flag + 1, s->len - flag - 1);
    result_t r = decode(s, b, s->len - 1, 5);
    cr_assert_eq(r.p.bad_checksums, 1u);
    cr_assert_eq(r.p.gaps, 1u);
    cr_assert_eq(r.p.frames_lost, 2u);
    cr_assert_eq(r.events, N_EVENTS - 2u);
    free(b);
    free(s);
}

Test(qs_errors, start_mid_frame_is_skipped_silently)
{
    stream_t *s = make_stream();
    size_t from = s->start[3] + 4;
    result_t r = decode(s, s->bytes + from, s->len - from, 3);
    cr_assert_eq(r.p.skipped, s->start[4] - from);
    cr_assert_eq(r.p.bad_checksums, 0u);
    cr_assert_eq(r.p.gaps, 0u);
    cr_assert_eq(r.events, N_EVENTS - 4u);
    cr_assert_eq(r.ch[0], 0x40 + 4u);
    free(s);
}

Test(qs_errors, over_long_frame_then_resync)
{
    stream_t *s = make_stream();
    uint8_t *b = malloc(s->len + 700);
    size_t at = s->start[20];
    memcpy(b, s->bytes, at);
    memset(b + at, 0x11, 700);
    memcpy(b + at + 700, s->bytes + at, s->len - at);
    result_t r = decode(s, b, s->len + 700, 64);
    cr_assert_eq(r.p.too_long, 1u);
    cr_assert_eq(r.p.bad_checksums, 0u);
    cr_assert_eq(r.p.gaps, 1u, "frame 20 is swallowed by the over-long run");
    cr_assert_eq(r.p.frames_lost, 1u);
    cr_assert_eq(r.events, N_EVENTS - 1u);
    free(b);
    free(s);
}

Test(qs_errors, record_not_matching_schema_is_reported)
{
    stream_t *s = make_stream();
    /* A Sensor record (id 101) with one element missing. */
    const uint8_t payload[] = {0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x03, 0x02, 0x01};
    uint8_t frame[64];
    size_t n = evrec_qs_frame(0x33, 101, payload, sizeof payload, frame, sizeof frame);
    evrec_qs_decoder_t *d = calloc(1, sizeof *d);
    cr_assert_eq(evrec_qs_decoder_init(d, &s->map, NULL, NULL, NULL), EVREC_OK);
    evrec_qs_decoder_feed(d, frame, n);
    cr_assert_eq(d->mismatches, 1u);
    cr_assert_eq(d->events, 0u);
    evrec_qs_decoder_free(d);
    free(d);
    free(s);
}

/* An output buffer that is too small is EVREC_E_NO_SPACE (nothing was lost, unlike
 * EVREC_E_DROPPED, a full trace buffer): for one event frame and for the session. */
Test(qs_errors, output_buffer_too_small_is_no_space)
{
    stream_t *s = make_stream();
    sensor_event_t e = k_sensor(7u, 0x41, 0x2222u, 0x03030303u);
    uint8_t out[8192];
    size_t n = 0, full = 0;
    cr_assert_eq(evrec_qs_encode_event(&s->map, 1, &e, out, sizeof out, &full), EVREC_OK);
    cr_assert_eq(evrec_qs_encode_event(&s->map, 1, &e, out, full - 1u, &n), EVREC_E_NO_SPACE);
    uint8_t seq;
    cr_assert_eq(evrec_qs_encode_session(&s->map, out, s->session_len - 1u, &n, &seq), EVREC_E_NO_SPACE);
    cr_assert_str_eq(evrec_strerror(EVREC_E_NO_SPACE), "output buffer too small");
    cr_assert_str_neq(evrec_strerror(EVREC_E_NO_SPACE), evrec_strerror(EVREC_E_DROPPED));
    free(s);
}
