/* SPDX-License-Identifier: Apache-2.0 */
/* Encode -> decode round trips for every field kind, the element formats on the wire, the
 * session records, and schemas with more than 22 event types. */
#include <criterion/criterion.h>
#include <string.h>

#include "evrec/evrec_qs.h"
#include "evrec/evrec_qs_decode.h"
#include "qs_test_meta.h"

typedef struct got {
    evrec_qs_event_t ev[64];
    size_t n;
    size_t mismatches;
    const char *what;
} got_t;

static void on_event(void *ctx, const evrec_qs_event_t *ev)
{
    got_t *g = ctx;
    cr_assert_lt(g->n, 64u);
    g->ev[g->n++] = *ev;
}

static void on_item(void *ctx, const evrec_qs_item_t *it)
{
    got_t *g = ctx;
    if (it->kind == EVREC_QS_ITEM_MISMATCH) {
        g->mismatches++;
        g->what = it->what;
    }
}

/* Session + the given native records, encoded, then decoded. */
static void roundtrip(const evrec_qs_map_t *map, const void *const *recs, const size_t *sizes, size_t n, got_t *g,
                      evrec_qs_decoder_t *d)
{
    static uint8_t stream[1 << 16];
    size_t at = 0;
    uint8_t seq;
    cr_assert_eq(evrec_qs_encode_session(map, stream, sizeof stream, &at, &seq), EVREC_OK);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        cr_assert_eq(evrec_qs_encode_event(map, seq++, recs[i], stream + at, sizeof stream - at, &len), EVREC_OK);
        at += len;
    }
    (void)sizes;
    cr_assert_eq(evrec_qs_decoder_init(d, map, on_event, on_item, g), EVREC_OK);
    evrec_qs_decoder_feed(d, stream, at);
    cr_assert_eq(d->parser.bad_checksums, 0u);
    cr_assert_eq(d->parser.gaps, 0u);
}

static mixed_event_t mixed(uint32_t t, uint8_t color, uint16_t state, uint32_t mode)
{
    mixed_event_t m;
    memset(&m, 0, sizeof m);
    m.time = t;
    m.id = K_MIXED;
    m.u8 = 0xFE;
    m.color = color;
    m.state = state;
    m.task = 7;
    m.mode = mode;
    m.obj = 0x20001000u;
    m.fn = 0x08000101u;
    m.u32 = 0x7E7D7E7Du; /* bytes that need escaping */
    m.box.a.x = 1;
    m.box.a.y = 0x7D7E;
    m.box.color = 2;
    m.box.b.x = 65535;
    m.box.b.y = 0;
    return m;
}

Test(qs_roundtrip, every_field_kind_native_record_back)
{
    evrec_qs_map_t map;
    evrec_qs_event_map_t entries[K_EVENT_COUNT];
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.field_display = k_display;
    o.objects = k_objects;
    o.object_count = 2;
    o.functions = k_functions;
    o.function_count = 1;
    cr_assert_eq(evrec_qs_map_init(&map, &k_meta, &o, entries, sizeof entries), EVREC_OK);
    cr_assert_eq(map.classes, 0);
    uint32_t bad;
    const char *what = "";
    cr_assert_eq(evrec_meta_validate(&k_meta, &bad, &what), EVREC_OK, "%s", what);
    /* Groups (QS.md "Enums"): Color (2 fields) 0, then State and Mode (1 field each, by id),
     * EventControlType last; State's 300 and Mode's values above 255 are sent as names. */
    cr_assert_eq(evrec_qs_map_enum_group(&map, K_ENUM_COLOR), 0);
    cr_assert_eq(evrec_qs_map_enum_group(&map, K_ENUM_STATE), 1);
    cr_assert_eq(evrec_qs_map_enum_group(&map, K_ENUM_MODE), 2);
    cr_assert_eq(evrec_qs_map_enum_group(&map, K_ENUM_CONTROL), 3);

    sensor_event_t s = k_sensor(0xA1B2C3D4u, 3, 0x7E7D, 0xDEADBEEFu);
    mixed_event_t m1 = mixed(5, 1, 5, 2);
    mixed_event_t m2 = mixed(6, 200, 300, 0x12345); /* enum values outside their names / a byte */
    evrec_control_event_t c;
    memset(&c, 0, sizeof c); /* padding byte 7 compared too */
    c.time = 77;
    c.id = K_CONTROL;
    c.type = EVREC_CONTROL_TICK;
    const void *recs[] = {&s, &m1, &m2, &c};
    const size_t sizes[] = {sizeof s, sizeof m1, sizeof m2, sizeof c};
    got_t *g = calloc(1, sizeof *g);
    evrec_qs_decoder_t *d = calloc(1, sizeof *d);
    roundtrip(&map, recs, sizes, 4, g, d);
    cr_assert_eq(g->mismatches, 0u, "%s", g->what ? g->what : "");
    cr_assert_eq(g->n, 4u);
    for (size_t i = 0; i < 4; i++) {
        cr_assert_eq(memcmp(g->ev[i].native, recs[i], sizes[i]), 0, "native record %zu back byte for byte", i);
    }
    cr_assert_eq(g->ev[0].field_count, 3u);
    cr_assert_eq(g->ev[0].values[2], 0xDEADBEEFu);
    cr_assert_eq(g->ev[1].field_count, 8u + 5u, "struct fields flattened");
    /* Dictionaries announced by the session. */
    cr_assert_str_eq(d->dict.usr[100], "EventControl");
    cr_assert_str_eq(d->dict.usr[101], "Sensor");
    cr_assert_str_eq(d->dict.usr[102], "Mixed");
    cr_assert_str_eq(d->dict.enums[0][2], "Blue");
    cr_assert_str_eq(d->dict.enums[2][1], "ModeA");
    cr_assert_str_eq(d->dict.enums[3][1], "Tick");
    cr_assert_null(d->dict.enums[1][300 & 0xFF], "State's 300 is not in a one-byte group");
    cr_assert_str_eq(d->dict.usr[EVREC_QS_REC_LOST], "EVREC_LOST");
    cr_assert_str_eq(evrec_qs_dict_obj(&d->dict, 0x20002000u), "l_uart");
    cr_assert_str_eq(evrec_qs_dict_fun(&d->dict, 0x08000101u), "Motor_isr");
    cr_assert_eq(d->dict.cfg.time_size, 4);
    cr_assert_eq(d->dict.cfg.version, 740);
    cr_assert(d->dict.cfg.reset);
    evrec_qs_decoder_free(d);
    free(d);
    free(g);
}

/* The exact bytes of a Sensor record: format bytes from the display table. */
Test(qs_roundtrip, element_formats_on_the_wire)
{
    evrec_qs_map_t map;
    evrec_qs_event_map_t entries[K_EVENT_COUNT];
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.field_display = k_display;
    o.time_size = 2;
    cr_assert_eq(evrec_qs_map_init(&map, &k_meta, &o, entries, sizeof entries), EVREC_OK);
    sensor_event_t s = k_sensor(0x00051234u, 3, 0x0102, 0xDEADBEEFu);
    uint8_t out[64];
    size_t n;
    cr_assert_eq(evrec_qs_encode_event(&map, 9, &s, out, sizeof out, &n), EVREC_OK);
    /* seq 09, rec 0x65, time 34 12 (2 bytes), U8 01 03, U16 hex F3 02 01, U32 hex F5 EF BE AD DE */
    const uint8_t body[] = {0x09, 0x65, 0x34, 0x12, 0x01, 0x03, 0xF3, 0x02, 0x01, 0xF5, 0xEF, 0xBE, 0xAD, 0xDE};
    uint8_t sum = 0;
    for (size_t i = 0; i < sizeof body; i++)
        sum = (uint8_t)(sum + body[i]);
    cr_assert_eq(n, sizeof body + 2);
    cr_assert_arr_eq(out, body, sizeof body);
    cr_assert_eq(out[sizeof body], (uint8_t)~sum);
    cr_assert_eq(out[sizeof body + 1], 0x7E);

    /* Without a display table the same fields are decimal: 01, 03, 05. */
    evrec_qs_options_t o2;
    memset(&o2, 0, sizeof o2);
    cr_assert_eq(evrec_qs_map_init(&map, &k_meta, &o2, entries, sizeof entries), EVREC_OK);
    cr_assert_eq(evrec_qs_encode_event(&map, 9, &s, out, sizeof out, &n), EVREC_OK);
    cr_assert_eq(out[6], 0x01);
    cr_assert_eq(out[8], 0x03);
    cr_assert_eq(out[11], 0x05);
}

Test(qs_roundtrip, enum_elements_grouped_and_not)
{
    evrec_qs_map_t map;
    evrec_qs_event_map_t entries[K_EVENT_COUNT];
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.field_display = k_display;
    cr_assert_eq(evrec_qs_map_init(&map, &k_meta, &o, entries, sizeof entries), EVREC_OK);
    mixed_event_t m = mixed(1, 2, 5, 0x100);
    uint8_t out[256];
    size_t n;
    cr_assert_eq(evrec_qs_encode_event(&map, 1, &m, out, sizeof out, &n), EVREC_OK);
    evrec_qs_parser_t p;
    evrec_qs_parser_init(&p);
    struct {
        evrec_qs_elem_t el[32];
        size_t n;
    } *r = calloc(1, sizeof *r);
    /* parse the one record */
    uint8_t payload[256];
    size_t plen = 0;
    for (size_t i = 2, esc = 0; i + 2 < n;
         i++) { /* naive unescape; no escapes expected before the checksum here */
        if (out[i] == 0x7D) {
            esc = 1;
            continue;
        }
        payload[plen++] = esc ? (uint8_t)(out[i] ^ 0x20) : out[i];
        esc = 0;
    }
    evrec_qs_target_info_t cfg;
    evrec_qs_target_info_default(&cfg);
    uint32_t t;
    cr_assert_eq(evrec_qs_parse_user(payload, plen, &cfg, &t, r->el, 32, &r->n, NULL), EVREC_OK);
    cr_assert_eq(r->n, 13u);
    cr_assert_eq(r->el[0].fmt, 0x01);            /* u8 */
    cr_assert_eq(r->el[1].fmt, 0x80 | (0 << 4)); /* Color: ENUM group 0 */
    cr_assert_eq(r->el[1].u, 2u);
    cr_assert_eq(r->el[2].fmt, 0x80 | (1 << 4)); /* State 5: ENUM group 1 */
    cr_assert_eq(r->el[3].fmt, 0x03);            /* task */
    cr_assert_eq(r->el[4].fmt, 0x05, "Mode value 0x100 is unnamed and above a QS enum byte: U32");
    cr_assert_eq(r->el[4].u, 0x100u);
    cr_assert_eq(r->el[5].fmt, 0x0B);             /* OBJ */
    cr_assert_eq(r->el[6].fmt, 0x0C);             /* FUN */
    cr_assert_eq(r->el[7].fmt, 0xF5);             /* hex U32 */
    cr_assert_eq(r->el[10].fmt, 0x80 | (0 << 4)); /* nested Box.color */
    free(r);
}

typedef struct gen_check {
    uint32_t next, bad;
} gen_check_t;

static void gen_on_event(void *ctx, const evrec_qs_event_t *ev)
{
    gen_check_t *x = ctx;
    uint32_t e = x->next++;
    if (ev->id != e || ev->time != e * 3u || ev->field_count != 2 || ev->values[0] != (uint8_t)(e * 5u) ||
        ev->values[1] != e * 1000003u) {
        x->bad++;
    }
}

static void check_many(uint32_t count, uint32_t per_class, int want_enum_type)
{
    gen_schema_t g;
    gen_schema_make(&g, count, per_class);
    uint32_t bad;
    const char *what;
    cr_assert_eq(evrec_meta_validate(&g.meta, &bad, &what), EVREC_OK, "%s", what);
    evrec_qs_map_t map;
    evrec_qs_event_map_t *entries = calloc(count, sizeof *entries);
    cr_assert_eq(evrec_qs_map_init(&map, &g.meta, NULL, entries, count * sizeof *entries), EVREC_OK);
    cr_assert_eq(map.classes, 1);
    cr_assert_eq(map.type_group, want_enum_type ? 0 : EVREC_QS_NO_GROUP);
    cr_assert_leq(map.slot_count, EVREC_QS_EVENT_IDS);
    for (uint32_t e = 0; e < count; e++) {
        uint8_t r = evrec_qs_map_record_id(&map, (uint16_t)e);
        cr_assert(r >= 100 && r <= 121, "event %u -> record %u: 122 and 123 are evrec's own records", e, r);
    }
    /* Every event type once, encoded and decoded back. */
    static uint8_t stream[1 << 20];
    size_t at = 0;
    uint8_t seq;
    cr_assert_eq(evrec_qs_encode_session(&map, stream, sizeof stream, &at, &seq), EVREC_OK);
    for (uint32_t e = 1; e < count; e++) {
        gen_event_t ev = {e * 3u, (uint16_t)e, (uint8_t)(e * 5u), 0, e * 1000003u};
        size_t len;
        cr_assert_eq(evrec_qs_encode_event(&map, seq++, &ev, stream + at, sizeof stream - at, &len), EVREC_OK);
        at += len;
    }
    evrec_qs_decoder_t *d = calloc(1, sizeof *d);
    gen_check_t x = {1, 0};
    cr_assert_eq(evrec_qs_decoder_init(d, &map, gen_on_event, NULL, &x), EVREC_OK);
    evrec_qs_decoder_feed(d, stream, at);
    cr_assert_eq(d->mismatches, 0u);
    cr_assert_eq(d->events, count - 1u);
    cr_assert_eq(x.next, count, "every event type once, in order");
    cr_assert_eq(x.bad, 0u);
    cr_assert_eq(d->parser.gaps, 0u);
    evrec_qs_decoder_free(d);
    free(d);
    free(entries);
    gen_schema_free(&g);
}

Test(qs_roundtrip, more_than_24_event_types_by_class)
{
    check_many(40, 4, 1); /* 11 classes: one record id each */
    check_many(23, 1, 1); /* 23 event types: more than the 22 event record ids, so classes */
}

Test(qs_roundtrip, more_than_24_classes_share_ids)
{
    check_many(60, 1, 1); /* 60 classes folded onto 22 ids */
}

Test(qs_roundtrip, more_than_256_event_types_u16_type)
{
    check_many(300, 20, 0);
}
