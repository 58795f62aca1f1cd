/* SPDX-License-Identifier: Apache-2.0 */
/* QS framing: the QP/Spy protocol's worked example, escaping at every position, checksum, seq
 * wrap. */
#include <criterion/criterion.h>
#include <string.h>

#include "evrec/evrec_qs.h"
#include "evrec/evrec_qs_decode.h"
#include "evrec/evrec_qs_tx.h"
#include "qs_test_meta.h"

/* Collects parser items. */
typedef struct items {
    evrec_qs_item_t it[64];
    uint8_t payload[64][EVREC_QS_MAX_PAYLOAD];
    size_t n;
} items_t;

static void collect(void *ctx, const evrec_qs_item_t *it)
{
    items_t *c = ctx;
    cr_assert_lt(c->n, 64u);
    c->it[c->n] = *it;
    if (it->kind == EVREC_QS_ITEM_RECORD) {
        memcpy(c->payload[c->n], it->payload, it->len);
        c->it[c->n].payload = c->payload[c->n];
    }
    c->n++;
}

Test(qs_frame, protocol_worked_example_byte_for_byte)
{
    /* QP/C "Observability Viewpoint": record 0x7D, data 7D 08 01, seq 0x7E -> checksum 0x7E. */
    const uint8_t data[] = {0x7D, 0x08, 0x01};
    const uint8_t want[] = {0x7D, 0x5E, 0x7D, 0x5D, 0x7D, 0x5D, 0x08, 0x01, 0x7D, 0x5E, 0x7E};
    uint8_t out[32];
    size_t n = evrec_qs_frame(0x7E, 0x7D, data, sizeof data, out, sizeof out);
    cr_assert_eq(n, sizeof want);
    cr_assert_arr_eq(out, want, sizeof want);
    cr_assert_eq((uint8_t) ~(0x7E + 0x7D + 0x7D + 0x08 + 0x01), 0x7E);

    items_t *c = calloc(1, sizeof *c);
    evrec_qs_parser_t p;
    evrec_qs_parser_init(&p);
    evrec_qs_parser_feed(&p, out, n, collect, c);
    cr_assert_eq(c->n, 1u);
    cr_assert_eq(c->it[0].kind, EVREC_QS_ITEM_RECORD);
    cr_assert_eq(c->it[0].seq, 0x7E);
    cr_assert_eq(c->it[0].rec_id, 0x7D);
    cr_assert_eq(c->it[0].len, 3u);
    cr_assert_arr_eq(c->payload[0], data, 3);
    free(c);
}

Test(qs_frame, qs_empty_is_01_00_FE_7E)
{
    uint8_t out[8];
    const uint8_t want[] = {0x01, 0x00, 0xFE, 0x7E};
    cr_assert_eq(evrec_qs_frame(1, EVREC_QS_REC_EMPTY, NULL, 0, out, sizeof out), 4u);
    cr_assert_arr_eq(out, want, 4);
}

/* Unescape by hand (independent of the parser) and check sum and content. */
static size_t unescape(const uint8_t *in, size_t n, uint8_t *out)
{
    size_t k = 0;
    cr_assert_eq(in[n - 1], 0x7E, "frame must end with the flag");
    for (size_t i = 0; i + 1 < n; i++) {
        cr_assert_neq(in[i], 0x7E, "flag inside a frame at %zu", i);
        if (in[i] == 0x7D) {
            cr_assert(i + 2 < n);
            i++;
            cr_assert(in[i] == 0x5E || in[i] == 0x5D);
            out[k++] = (uint8_t)(in[i] ^ 0x20);
        } else {
            out[k++] = in[i];
        }
    }
    return k;
}

Test(qs_frame, escapes_every_special_position)
{
    /* For each of 0x7D and 0x7E: in seq, in record id, in the payload (first, middle, last) and
     * as the checksum (the last payload byte is chosen so that ~sum hits the value). */
    const uint8_t specials[2] = {0x7D, 0x7E};
    for (int s = 0; s < 2; s++) {
        uint8_t sp = specials[s];
        for (int pos = 0; pos < 6; pos++) {
            uint8_t seq = 0x10, rec = 0x64;
            uint8_t pl[4] = {0x01, 0x02, 0x03, 0x00};
            if (pos == 0) seq = sp;
            if (pos == 1) rec = sp;
            if (pos == 2) pl[0] = sp;
            if (pos == 3) pl[1] = sp;
            if (pos == 4) pl[3] = sp;
            if (pos == 5) { /* checksum == sp */
                uint8_t sum = (uint8_t)(seq + rec + pl[0] + pl[1] + pl[2]);
                pl[3] = (uint8_t)((uint8_t)~sp - sum);
            }
            uint8_t frame[32], raw[32];
            size_t n = evrec_qs_frame(seq, rec, pl, 4, frame, sizeof frame);
            cr_assert_gt(n, 0u);
            size_t k = unescape(frame, n, raw);
            cr_assert_eq(k, 7u, "special 0x%02X at position %d", sp, pos);
            cr_assert_eq(raw[0], seq);
            cr_assert_eq(raw[1], rec);
            cr_assert_arr_eq(raw + 2, pl, 4);
            uint8_t sum = 0;
            for (size_t i = 0; i < k; i++)
                sum = (uint8_t)(sum + raw[i]);
            cr_assert_eq(sum, 0xFF, "checksum rule: all un-escaped bytes sum to 0xFF");
            if (pos == 5) {
                cr_assert_eq(raw[6], sp);
                cr_assert_eq(frame[n - 3], 0x7D, "checksum 0x%02X escaped", sp);
                cr_assert_eq(frame[n - 2], sp ^ 0x20);
            }
            /* Count escapes: exactly one special byte in the frame. */
            cr_assert_eq(n, 7u + 1u + 1u);
        }
    }
}

Test(qs_frame, too_small_output_returns_zero)
{
    const uint8_t data[] = {0x7E, 0x7E};
    uint8_t out[8];
    /* seq 1, rec 100, two escaped bytes, checksum, flag = 1+1+4+1+1 = 8 */
    cr_assert_eq(evrec_qs_frame(1, 100, data, 2, out, 7), 0u);
    cr_assert_eq(evrec_qs_frame(1, 100, data, 2, out, 8), 8u);
}

Test(qs_frame, sequence_wraps_255_to_0_without_gap)
{
    static uint8_t buf[16384] __attribute__((aligned(4)));
    evrec_qs_tx_t tx;
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    cr_assert_eq(evrec_qs_tx_init(&tx, &k_meta, buf, sizeof buf, &o), EVREC_OK);
    cr_assert_eq(evrec_qs_tx_session_start(&tx), EVREC_OK);
    evrec_qs_parser_t p;
    evrec_qs_parser_init(&p);
    uint8_t chunk[64];
    int saw_wrap = 0;
    uint8_t last = 0;
    for (uint32_t i = 0; i < 600; i++) {
        sensor_event_t e = k_sensor(i, (uint8_t)i, (uint16_t)i, i * 7u);
        cr_assert_eq(evrec_qs_tx_event(&tx, &e), EVREC_OK);
        size_t n;
        while ((n = evrec_qs_tx_get_block(&tx, chunk, sizeof chunk)) > 0) {
            evrec_qs_parser_feed(&p, chunk, n, NULL, NULL);
        }
        if (p.last_seq == 0 && last == 255) saw_wrap = 1;
        last = p.last_seq;
    }
    cr_assert(saw_wrap, "the sequence went 255 -> 0");
    cr_assert_eq(p.gaps, 0u);
    cr_assert_eq(p.bad_checksums, 0u);
    cr_assert_eq(p.records, tx.frames);
    cr_assert_eq(p.last_seq, (uint8_t)tx.frames);
}

/* The fast encoder (whole values, one room check) against the per-byte writer, which
 * evrec_qs_encode_event() uses when the output has less room than the worst case: every event
 * kind of the test meta-info (nested structs, grouped and ungrouped enums, OBJ/FUN/hex display),
 * 1-, 2- and 4-byte timestamps, class mode, and values full of 0x7C..0x7F bytes (the fast path's
 * escape test and its fallback) and of ordinary bytes. */
static uint32_t rnd_state = 12345u;
static uint32_t rnd(void)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return rnd_state >> 8;
}

static uint32_t rnd_word(void)
{
    static const uint8_t hot[] = {0x7C, 0x7D, 0x7E, 0x7F, 0x5D, 0x5E, 0x00, 0xFF, 0x20, 0x01};
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t b = (rnd() & 3u) ? hot[rnd() % sizeof hot] : (uint8_t)rnd();
        v |= (uint32_t)b << (8 * i);
    }
    return v;
}

Test(qs_frame, fast_encoder_equals_per_byte_writer)
{
    static const uint8_t sizes[] = {1, 2, 4};
    /* AUTO: Mixed's State may be a STR element (the whole frame per byte); GROUPS and INT: the
     * field programs take Mixed too (GROUPS: Mode is a checked 4-byte grouped enum) */
    static const uint8_t enum_as[] = {EVREC_QS_ENUM_AS_AUTO, EVREC_QS_ENUM_AS_GROUPS, EVREC_QS_ENUM_AS_INT};
    for (int variant = 0; variant < 36; variant++) {
        evrec_qs_options_t o;
        memset(&o, 0, sizeof o);
        o.time_size = sizes[variant % 3];
        o.force_classes = (uint8_t)((variant / 3) & 1);
        if ((variant / 6) & 1) {
            o.field_display = k_display;
        }
        o.enum_as = enum_as[variant / 12];
        evrec_qs_map_t map;
        static uint32_t ents[1024]; /* the entries and the fast encoder's field programs */
        cr_assert_leq(evrec_qs_map_entries_size(&k_meta), sizeof ents);
        cr_assert_eq(evrec_qs_map_init(&map, &k_meta, &o, ents, evrec_qs_map_entries_size(&k_meta)), EVREC_OK);
        cr_assert_not_null(map.prog, "the fast encoder has its programs");
        evrec_qs_map_t small; /* 4 bytes per event type: no programs, the same bytes */
        evrec_qs_event_map_t small_ents[K_EVENT_COUNT];
        cr_assert_eq(evrec_qs_map_init(&small, &k_meta, &o, small_ents, sizeof small_ents), EVREC_OK);
        cr_assert_null(small.prog);
        size_t worst = 2u * ((size_t)map.max_payload + 3u) + 1u;
        for (int i = 0; i < 3000; i++) {
            uint8_t native[EVREC_MAX_EVENT_SIZE];
            for (size_t k = 0; k < sizeof native; k += 4) {
                uint32_t w = rnd_word();
                memcpy(native + k, &w, 4);
            }
            uint16_t id = (uint16_t)(1u + rnd() % 2u); /* Sensor, Mixed: any bit pattern is valid */
            memcpy(native + 4, &id, 2);
            if (i % 5 == 0) { /* small enum values: grouped ENUM elements */
                memset(native + 6, (int)(rnd() % 3u), 8);
            }
            uint8_t seq = (uint8_t)rnd();
            uint8_t fast[1100], slow[1100];
            size_t nf = 0, ns = 0;
            cr_assert_eq(evrec_qs_encode_event(&map, seq, native, fast, worst, &nf), EVREC_OK);
            cr_assert_lt(nf, worst + 1);
            /* exactly the frame's length is less than the worst case: the per-byte writer */
            cr_assert_eq(evrec_qs_encode_event(&map, seq, native, slow, nf, &ns), EVREC_OK);
            cr_assert_eq(ns, nf, "variant %d event %d: %zu vs %zu bytes", variant, i, nf, ns);
            cr_assert_arr_eq(fast, slow, nf, "variant %d event %d: bytes differ", variant, i);
            uint8_t plain[1100];
            size_t np = 0;
            cr_assert_eq(evrec_qs_encode_event(&small, seq, native, plain, worst, &np), EVREC_OK);
            cr_assert_eq(np, nf);
            cr_assert_arr_eq(plain, fast, nf, "variant %d event %d: no programs, other bytes", variant, i);
        }
    }
}
