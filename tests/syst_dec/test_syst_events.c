/* SPDX-License-Identifier: Apache-2.0 */
/* Events back from evrec's SyS-T CATALOG messages (evrec_syst_decoder_t): every field kind and
 * nested structs through the encoder and back, 32- and 64-bit ids, the CLOCK frequency; an
 * unknown catalog id, too few or too many argument bytes and an argument wider than its field,
 * each reported at its offset and not decoded. */
#include "syst_test_util.h"

#include "../qs/qs_test_meta.h"

typedef struct map_mem {
    evrec_syst_map_t map;
    uint64_t entries[64];
} map_mem_t;

static void build(map_mem_t *m, int id64, int ts, int crc)
{
    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.severity = EVREC_SYST_SEV_INFO;
    o.id64 = (uint8_t)id64;
    o.timestamp = (uint8_t)ts;
    o.crc = (uint8_t)crc;
    uint32_t bad = 0;
    cr_assert_leq(evrec_syst_map_entries_size(&k_meta), sizeof m->entries);
    cr_assert_eq(evrec_syst_map_init(&m->map, &k_meta, &o, m->entries, sizeof m->entries, &bad), EVREC_OK);
}

typedef struct evs {
    evrec_syst_event_t ev[16];
    size_t n;
} evs_t;

static void on_ev(void *ctx, const evrec_syst_event_t *ev)
{
    evs_t *e = ctx;
    cr_assert_lt(e->n, 16);
    e->ev[e->n++] = *ev;
}

typedef struct both {
    evs_t evs;
    got_t got;
} both_t;

static void on_ev2(void *ctx, const evrec_syst_event_t *ev)
{
    on_ev(&((both_t *)ctx)->evs, ev);
}

static void on_item2(void *ctx, const evrec_syst_item_t *it)
{
    got_fn(&((both_t *)ctx)->got, it);
}

static mixed_event_t a_mixed(void)
{
    mixed_event_t e;
    memset(&e, 0, sizeof e);
    e.time = 0x11223344u;
    e.id = K_MIXED;
    e.u8 = 0xAB;
    e.color = 2;
    e.state = 300;
    e.task = 0xBEEF;
    e.mode = 2;
    e.obj = 0x20001000u;
    e.fn = 0x08000101u;
    e.u32 = 0xFFFFFFFFu;
    e.box.a.x = 1;
    e.box.a.y = 0xFFFF;
    e.box.color = 1;
    e.box.b.x = 3;
    e.box.b.y = 4;
    return e;
}

static void decode(const evrec_syst_map_t *m32, const evrec_syst_map_t *m64, const uint8_t *b, size_t len,
                   both_t *out, evrec_syst_decoder_t *d)
{
    memset(out, 0, sizeof *out);
    cr_assert_eq(evrec_syst_decoder_init(d, m32, m64, EVREC_SYST_BINARY, on_ev2, on_item2, out), EVREC_OK);
    evrec_syst_decoder_feed(d, b, len);
    evrec_syst_decoder_finish(d);
}

Test(syst_events, round_trip_every_kind)
{
    for (int id64 = 0; id64 < 2; id64++) {
        map_mem_t m32, m64;
        build(&m32, 0, 1, 1);
        build(&m64, 1, 1, 1);
        const evrec_syst_map_t *enc = id64 ? &m64.map : &m32.map;
        uint8_t b[4096];
        size_t len = 0, n;
        cr_assert_eq(evrec_syst_encode_clock(enc, 0, 32768, b, sizeof b - len, &n), EVREC_OK);
        len += n;
        sensor_event_t s = k_sensor(0x01020304u, 7, 0x1234, 0xCAFEF00Du);
        cr_assert_eq(evrec_syst_encode_event(enc, &s, 0x500000000ull + s.time, b + len, sizeof b - len, &n),
                     EVREC_OK);
        size_t sensor_at = len;
        len += n;
        mixed_event_t x = a_mixed();
        cr_assert_eq(evrec_syst_encode_event(enc, &x, x.time, b + len, sizeof b - len, &n), EVREC_OK);
        size_t mixed_at = len;
        len += n;
        evrec_syst_decoder_t *d = malloc(sizeof *d);
        both_t r;
        decode(&m32.map, &m64.map, b, len, &r, d);
        cr_assert_eq(r.evs.n, 2);
        cr_assert_eq(d->events, 2);
        cr_assert_eq(d->clocks, 1);
        cr_assert_eq(d->clock_freq, 32768);
        cr_assert_eq(d->parser.good, 3);
        /* sensor: native bytes equal (padding 0 in both) */
        const evrec_syst_event_t *e = &r.evs.ev[0];
        cr_assert_eq(e->id, K_SENSOR);
        cr_assert_eq(e->offset, sensor_at);
        cr_assert_eq(e->timestamp, 0x500000000ull + s.time);
        cr_assert(e->has_ts);
        cr_assert_eq(e->field_count, 3);
        cr_assert_eq(memcmp(e->native, &s, sizeof s), 0);
        e = &r.evs.ev[1];
        cr_assert_eq(e->id, K_MIXED);
        cr_assert_eq(e->offset, mixed_at);
        cr_assert_eq(memcmp(e->native, &x, sizeof x), 0);
        cr_assert_eq(e->field_count, 13); /* 8 fields and box: a.x, a.y, color, b.x, b.y */
        free(d);
        got_free(&r.got);
    }
}

/* One sensor message without CRC (so that the bytes can be edited); returns its size. */
static size_t sensor_msg(const evrec_syst_map_t *map, uint8_t *b, size_t cap)
{
    sensor_event_t s = k_sensor(100, 1, 2, 3);
    size_t n;
    cr_assert_eq(evrec_syst_encode_event(map, &s, 100, b, cap, &n), EVREC_OK);
    return n; /* header 4, LEN 2, id 4, 3 args of 4: 22 */
}

Test(syst_events, problems_at_their_offsets)
{
    map_mem_t m32;
    build(&m32, 0, 0, 0);
    uint8_t b[512];
    size_t len = 0;
    size_t n = sensor_msg(&m32.map, b, sizeof b);
    cr_assert_eq(n, 22);
    len = n;
    /* 22: an unknown catalog id */
    len += sensor_msg(&m32.map, b + len, sizeof b - len);
    b[22 + 6] ^= 0x5A;
    /* 44: one argument too many (LEN + 4) */
    size_t at = len;
    len += sensor_msg(&m32.map, b + len, sizeof b - len);
    b[at + 4] += 4;
    memset(b + len, 0, 4);
    len += 4;
    /* 70: one argument too few (LEN - 4) */
    at = len;
    len += sensor_msg(&m32.map, b + len, sizeof b - len);
    b[at + 4] -= 4;
    len -= 4;
    /* 88: the u8 field `ch` sent as 0x100 */
    at = len;
    len += sensor_msg(&m32.map, b + len, sizeof b - len);
    b[at + 11] = 0x01;
    /* 110: a good one */
    len += sensor_msg(&m32.map, b + len, sizeof b - len);
    evrec_syst_decoder_t *d = malloc(sizeof *d);
    both_t r;
    decode(&m32.map, NULL, b, len, &r, d);
    cr_assert_eq(r.got.n, 6);
    const struct {
        evrec_syst_problem p;
        uint64_t offset;
    } want[] = {{EVREC_SYST_OK, 0},      {EVREC_SYST_P_UNKNOWN_ID, 22}, {EVREC_SYST_P_ARGS, 44},
                {EVREC_SYST_P_ARGS, 70}, {EVREC_SYST_P_ARGS, 88},       {EVREC_SYST_OK, 110}};
    for (size_t i = 0; i < 6; i++) {
        cr_assert_eq(r.got.items[i].problem, want[i].p, "message %zu: %s (%s)", i,
                     evrec_syst_problem_name(r.got.items[i].problem), r.got.items[i].what);
        cr_assert_eq(r.got.items[i].offset, want[i].offset, "message %zu", i);
    }
    cr_assert_str_eq(r.got.items[2].what, "more argument bytes than the event packs");
    cr_assert_str_eq(r.got.items[3].what, "fewer argument bytes than the event packs");
    cr_assert_str_eq(r.got.items[4].what, "an argument wider than its field");
    cr_assert_eq(r.evs.n, 2);
    cr_assert_eq(d->unknown_ids, 1);
    cr_assert_eq(d->bad_args, 3);
    cr_assert_eq(d->events, 2);
    /* the id width follows the subtype: a 64-bit id is looked up in the 64-bit map only */
    got_free(&r.got);
    map_mem_t m64;
    build(&m64, 1, 0, 0);
    sensor_event_t s = k_sensor(1, 2, 3, 4);
    cr_assert_eq(evrec_syst_encode_event(&m64.map, &s, 1, b, sizeof b, &n), EVREC_OK);
    decode(&m32.map, NULL, b, n, &r, d);
    cr_assert_eq(r.got.n, 1);
    cr_assert_eq(r.got.items[0].problem, EVREC_SYST_P_UNKNOWN_ID);
    got_free(&r.got);
    decode(&m32.map, &m64.map, b, n, &r, d);
    cr_assert_eq(r.evs.n, 1);
    got_free(&r.got);
    free(d);
}

Test(syst_events, decode_catalog_refuses_other_messages)
{
    map_mem_t m32;
    build(&m32, 0, 0, 0);
    const uint8_t short32[] = {0x61, 0x45, 0x23, 0x01};
    evrec_syst_msg_t m;
    cr_assert_eq(evrec_syst_msg_parse(short32, 4, 1, &m, NULL), EVREC_SYST_OK);
    evrec_syst_event_t ev;
    const char *what = NULL;
    cr_assert_eq(evrec_syst_decode_catalog(&m32.map, &m, &ev, &what), EVREC_SYST_P_UNKNOWN_TYPE);
    cr_assert_not_null(what);
    evrec_syst_decoder_t d;
    cr_assert_eq(evrec_syst_decoder_init(&d, NULL, NULL, EVREC_SYST_BINARY, NULL, NULL, NULL), EVREC_E_ARG);
}
