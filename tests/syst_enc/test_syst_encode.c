/* SPDX-License-Identifier: Apache-2.0 */
/* SyS-T encoder: CRC-32C, catalog ids and canonical texts, and the exact bytes of CATALOG and
 * CLOCK messages with each header option alone and all together (expected bytes written by
 * hand from the MIPI SyS-T header layout, format/syst/SYST.md). */
#include <criterion/criterion.h>
#include <string.h>

#include "../qs/qs_test_meta.h"
#include "evrec/evrec_container.h"
#include "evrec/evrec_syst.h"

static uint64_t fnv1a64(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    while (*s) {
        h = (h ^ (uint8_t)*s++) * 0x100000001b3ull;
    }
    return h;
}

typedef struct map_mem {
    evrec_syst_map_t map;
    uint64_t entries[64];
} map_mem_t;

static void build(map_mem_t *m, const evrec_meta_t *meta, const evrec_syst_options_t *o)
{
    cr_assert_leq(evrec_syst_map_entries_size(meta), sizeof m->entries);
    uint32_t bad = 999;
    cr_assert_eq(evrec_syst_map_init(&m->map, meta, o, m->entries, sizeof m->entries, &bad), EVREC_OK);
    cr_assert_eq(bad, 999u);
}

static const char sensor_text[] = "Sensor(ch:u8,raw:u16,value:u32)";

Test(syst, crc32c_check_value)
{
    cr_assert_eq(evrec_crc32c(0, "123456789", 9), 0xE3069283u);
}

Test(syst, canonical_text_and_ids)
{
    char text[512];
    cr_assert_eq(evrec_syst_canonical_text(&k_meta, K_SENSOR, text, sizeof text), strlen(sensor_text));
    cr_assert_str_eq(text, sensor_text);
    const char *mixed = "Mixed(u8:u8,color:e8,state:e16,task:u16,mode:e32,obj:u32,fn:u32,u32:u32,"
                        "box:Box{a:Point{x:u16,y:u16},color:e8,b:Point{x:u16,y:u16}})";
    cr_assert_eq(evrec_syst_canonical_text(&k_meta, K_MIXED, text, sizeof text), strlen(mixed));
    cr_assert_str_eq(text, mixed);
    cr_assert_eq(evrec_syst_canonical_text(&k_meta, K_CONTROL, text, sizeof text), 21u);
    cr_assert_str_eq(text, "EventControl(type:e8)");
    /* cut like snprintf */
    cr_assert_eq(evrec_syst_canonical_text(&k_meta, K_SENSOR, text, 7), strlen(sensor_text));
    cr_assert_str_eq(text, "Sensor");
    cr_assert_eq(evrec_syst_canonical_text(&k_meta, 99, text, sizeof text), 0u);

    uint64_t id64, id32;
    cr_assert_eq(evrec_syst_catalog_id(&k_meta, K_SENSOR, 1, &id64), EVREC_OK);
    cr_assert_eq(evrec_syst_catalog_id(&k_meta, K_SENSOR, 0, &id32), EVREC_OK);
    uint64_t h = fnv1a64(sensor_text);
    cr_assert_eq(id64, h);
    cr_assert_eq(id32, (uint32_t)(h ^ (h >> 32)));
    /* golden: a change of the rule changes these (and every deployed collateral) */
    cr_assert_eq(id64, UINT64_C(0x83f1292320c24957), "id64 %#llx", (unsigned long long)id64);
    cr_assert_eq(evrec_syst_catalog_id(&k_meta, 99, 0, &id32), EVREC_E_BAD_ID);
    cr_assert_eq(evrec_syst_catalog_id(NULL, 0, 0, &id32), EVREC_E_ARG);
}

/* The id changes with every part of the layout: names, kinds, order, nested members. */
Test(syst, ids_are_layout_sensitive)
{
    uint64_t base;
    cr_assert_eq(evrec_syst_catalog_id(&k_meta, K_MIXED, 1, &base), EVREC_OK);
    evrec_field_desc_t mixed[11], point[2];
    evrec_struct_desc_t structs[5];
    memcpy(structs, k_structs, sizeof structs);
    evrec_meta_t meta = k_meta;
    meta.structs = structs;
    for (int variant = 0; variant < 7; variant++) {
        memcpy(mixed, k_mixed_fields, sizeof mixed);
        memcpy(point, k_point_fields, sizeof point);
        memcpy(structs, k_structs, sizeof structs);
        structs[K_STRUCT_MIXED].fields = mixed;
        structs[K_STRUCT_POINT].fields = point;
        switch (variant) {
        case 0: break; /* a copy: the same id */
        case 1: mixed[2].name = "u9"; break;
        case 2: mixed[2].kind = EVREC_KIND_UINT16; break;
        case 3: mixed[3].kind = EVREC_KIND_ENUM_UINT16; break;
        case 4: {
            evrec_field_desc_t t = mixed[2];
            mixed[2] = mixed[3];
            mixed[3] = t;
        } break;
        case 5: point[1].kind = EVREC_KIND_UINT32; break;       /* nested member */
        case 6: structs[K_STRUCT_MIXED].name = "Mixed2"; break; /* the event's name */
        }
        uint64_t id;
        cr_assert_eq(evrec_syst_catalog_id(&meta, K_MIXED, 1, &id), EVREC_OK);
        if (variant == 0) {
            cr_assert_eq(id, base);
        } else {
            cr_assert_neq(id, base, "variant %d", variant);
        }
    }
    /* offsets are not part of the id (the packed arguments do not depend on them) */
    memcpy(mixed, k_mixed_fields, sizeof mixed);
    memcpy(structs, k_structs, sizeof structs);
    structs[K_STRUCT_MIXED].fields = mixed;
    mixed[2].offset = 7;
    uint64_t id;
    cr_assert_eq(evrec_syst_catalog_id(&meta, K_MIXED, 1, &id), EVREC_OK);
    cr_assert_eq(id, base);
}

Test(syst, map_lookup_and_arguments)
{
    map_mem_t m;
    build(&m, &k_meta, NULL);
    for (uint32_t e = 0; e < K_EVENT_COUNT; e++) {
        uint64_t id;
        cr_assert_eq(evrec_syst_catalog_id(&k_meta, e, 0, &id), EVREC_OK);
        cr_assert_eq(m.map.events[e].id, id);
        cr_assert_eq(evrec_syst_map_event(&m.map, id), (int32_t)e);
        cr_assert_eq(m.map.events[e].severity, EVREC_SYST_SEV_INFO);
    }
    cr_assert_eq(m.map.events[K_SENSOR].args, 12u);
    cr_assert_eq(m.map.events[K_MIXED].args, 4u * 13u);
    cr_assert_eq(m.map.events[K_CONTROL].args, 4u);
    cr_assert_eq(m.map.max_args, 52u);
    cr_assert_eq(evrec_syst_map_event(&m.map, 12345), -1);
    cr_assert_eq(evrec_syst_map_event(&m.map, m.map.events[K_SENSOR].id | (1ull << 40)), -1);
}

Test(syst, map_rejects)
{
    map_mem_t m;
    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.severity = 8;
    cr_assert_eq(evrec_syst_map_init(&m.map, &k_meta, &o, m.entries, sizeof m.entries, NULL), EVREC_E_ARG);
    o.severity = 4;
    o.module = 128;
    cr_assert_eq(evrec_syst_map_init(&m.map, &k_meta, &o, m.entries, sizeof m.entries, NULL), EVREC_E_ARG);
    o.module = 0;
    o.unit = 16;
    cr_assert_eq(evrec_syst_map_init(&m.map, &k_meta, &o, m.entries, sizeof m.entries, NULL), EVREC_E_ARG);
    o.use_guid = 1;
    cr_assert_eq(evrec_syst_map_init(&m.map, &k_meta, &o, m.entries, sizeof m.entries, NULL), EVREC_OK);
    o.unit = 2048;
    cr_assert_eq(evrec_syst_map_init(&m.map, &k_meta, &o, m.entries, sizeof m.entries, NULL), EVREC_E_ARG);
    cr_assert_eq(evrec_syst_map_init(&m.map, &k_meta, NULL, m.entries, 3 * 18 - 1, NULL), EVREC_E_ARG);
    cr_assert_eq(evrec_syst_map_init(&m.map, &k_meta, NULL, (uint8_t *)m.entries + 4, 100, NULL), EVREC_E_ARG);
    const uint8_t sev[K_EVENT_COUNT] = {0xFF, 9, 0};
    memset(&o, 0, sizeof o);
    o.event_severity = sev;
    cr_assert_eq(evrec_syst_map_init(&m.map, &k_meta, &o, m.entries, sizeof m.entries, NULL), EVREC_E_ARG);
}

/* Two event types with the same name and layout have the same id: refused, naming the second. */
Test(syst, map_refuses_colliding_ids)
{
    static const evrec_event_desc_t events[] = {
        {K_STRUCT_CONTROL, 0}, {K_STRUCT_SENSOR, 1}, {K_STRUCT_MIXED, 2}, {K_STRUCT_SENSOR, 3}};
    evrec_meta_t meta = k_meta;
    meta.events = events;
    meta.event_count = 4;
    map_mem_t m;
    uint32_t bad = 0;
    cr_assert_eq(evrec_syst_map_init(&m.map, &meta, NULL, m.entries, sizeof m.entries, &bad), EVREC_E_META);
    cr_assert_eq(bad, 3u);
}

Test(syst, severities)
{
    const uint8_t sev[K_EVENT_COUNT] = {EVREC_SYST_SEV_DEFAULT, EVREC_SYST_SEV_ERROR, EVREC_SYST_SEV_DEBUG};
    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.severity = EVREC_SYST_SEV_WARNING;
    o.event_severity = sev;
    map_mem_t m;
    build(&m, &k_meta, &o);
    cr_assert_eq(m.map.events[0].severity, EVREC_SYST_SEV_WARNING);
    cr_assert_eq(m.map.events[1].severity, EVREC_SYST_SEV_ERROR);
    cr_assert_eq(m.map.events[2].severity, EVREC_SYST_SEV_DEBUG);
}

/* ---- exact bytes -------------------------------------------------------------------------- */

static const uint8_t guid[16] = {0x8F, 0x6A, 0x3C, 0x2E, 0x1B, 0x4D, 0x4E, 0x5F,
                                 0x9A, 0x0B, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66};

static size_t encode_sensor(const evrec_syst_options_t *o, uint8_t *out, size_t size)
{
    map_mem_t m;
    build(&m, &k_meta, o);
    sensor_event_t e = k_sensor(0xAABBCCDDu, 0x12, 0x3456, 0x789ABCDEu);
    size_t n = 0;
    cr_assert_eq(evrec_syst_encode_event(&m.map, &e, UINT64_C(0x0102030405060708), out, size, &n), EVREC_OK);
    cr_assert_leq(n, size);
    return n;
}

static void expect(const uint8_t *got, size_t n, const uint8_t *want, size_t wn)
{
    cr_assert_eq(n, wn, "length %zu, expected %zu", n, wn);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(got[i], want[i], "byte %zu: %02X, expected %02X", i, got[i], want[i]);
    }
}

/* Sensor: id32 of "Sensor(ch:u8,raw:u16,value:u32)", arguments 0x12, 0x3456, 0x789ABCDE. */
#define ID32 0x74, 0x60, 0x33, 0xA3
#define ID64 0x57, 0x49, 0xC2, 0x20, 0x23, 0x29, 0xF1, 0x83
#define ARGS 0x12, 0, 0, 0, 0x56, 0x34, 0, 0, 0xDE, 0xBC, 0x9A, 0x78
#define GUID 0x8F, 0x6A, 0x3C, 0x2E, 0x1B, 0x4D, 0x4E, 0x5F, 0x9A, 0x0B, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66
#define TS 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01

Test(syst, header_default)
{
    uint64_t id;
    cr_assert_eq(evrec_syst_catalog_id(&k_meta, K_SENSOR, 0, &id), EVREC_OK);
    cr_assert_eq(id, 0xA3336074u, "id32 %#llx", (unsigned long long)id);
    uint8_t out[EVREC_SYST_MAX_MESSAGE];
    /* type 3, severity 4 (0x40), LEN (0x200), subtype 1 << 24: 0x01000243 */
    const uint8_t want[] = {0x43, 0x02, 0x00, 0x01, 16, 0, ID32, ARGS};
    expect(out, encode_sensor(NULL, out, sizeof out), want, sizeof want);
}

Test(syst, header_origin_module_unit)
{
    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.severity = EVREC_SYST_SEV_INFO;
    o.module = 0x12;
    o.unit = 3;
    uint8_t out[EVREC_SYST_MAX_MESSAGE];
    /* module 0x12 at bits 16..22, unit 3 at bits 12..15: 0x01123243 */
    const uint8_t want[] = {0x43, 0x32, 0x12, 0x01, 16, 0, ID32, ARGS};
    expect(out, encode_sensor(&o, out, sizeof out), want, sizeof want);
}

Test(syst, header_guid)
{
    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.severity = EVREC_SYST_SEV_INFO;
    o.use_guid = 1;
    o.unit = 0x5A5; /* 11 bits at 12..22 */
    memcpy(o.guid, guid, 16);
    uint8_t out[EVREC_SYST_MAX_MESSAGE];
    /* 0x01000243 | GUID 0x00800000 | 0x5A5 << 12 = 0x01DA5243 */
    const uint8_t want[] = {0x43, 0x52, 0xDA, 0x01, GUID, 16, 0, ID32, ARGS};
    expect(out, encode_sensor(&o, out, sizeof out), want, sizeof want);
}

Test(syst, header_timestamp)
{
    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.severity = EVREC_SYST_SEV_ERROR;
    o.timestamp = 1;
    uint8_t out[EVREC_SYST_MAX_MESSAGE];
    /* severity 2 (0x20), LEN | TS (0xA00): 0x01000A23; length before timestamp */
    const uint8_t want[] = {0x23, 0x0A, 0x00, 0x01, 16, 0, TS, ID32, ARGS};
    expect(out, encode_sensor(&o, out, sizeof out), want, sizeof want);
}

Test(syst, header_id64)
{
    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.severity = EVREC_SYST_SEV_INFO;
    o.id64 = 1;
    uint8_t out[EVREC_SYST_MAX_MESSAGE];
    /* subtype 2 (ID64_P32): 0x02000243; payload 8 + 12 */
    const uint8_t want[] = {0x43, 0x02, 0x00, 0x02, 20, 0, ID64, ARGS};
    expect(out, encode_sensor(&o, out, sizeof out), want, sizeof want);
}

Test(syst, header_crc)
{
    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.severity = EVREC_SYST_SEV_INFO;
    o.crc = 1;
    uint8_t out[EVREC_SYST_MAX_MESSAGE];
    /* CHK (0x400): 0x01000643, then the CRC-32C of every byte before it, little-endian */
    const uint8_t body[] = {0x43, 0x06, 0x00, 0x01, 16, 0, ID32, ARGS};
    uint32_t crc = evrec_crc32c(0, body, sizeof body);
    uint8_t want[sizeof body + 4];
    memcpy(want, body, sizeof body);
    for (int i = 0; i < 4; i++) {
        want[sizeof body + (size_t)i] = (uint8_t)(crc >> (8 * i));
    }
    expect(out, encode_sensor(&o, out, sizeof out), want, sizeof want);
}

Test(syst, header_all_options)
{
    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.severity = EVREC_SYST_SEV_DEBUG;
    o.use_guid = 1;
    o.unit = 1;
    memcpy(o.guid, guid, 16);
    o.id64 = 1;
    o.timestamp = 1;
    o.crc = 1;
    uint8_t out[EVREC_SYST_MAX_MESSAGE];
    /* sev 7 (0x70) type 3, LEN|CHK|TS (0xE00), unit 1 (0x1000), GUID, subtype 2: 0x02801E73 */
    const uint8_t body[] = {0x73, 0x1E, 0x80, 0x02, GUID, 20, 0, TS, ID64, ARGS};
    uint32_t crc = evrec_crc32c(0, body, sizeof body);
    uint8_t want[sizeof body + 4];
    memcpy(want, body, sizeof body);
    for (int i = 0; i < 4; i++) {
        want[sizeof body + (size_t)i] = (uint8_t)(crc >> (8 * i));
    }
    size_t n = encode_sensor(&o, out, sizeof out);
    expect(out, n, want, sizeof want);
    /* room: one byte short is refused */
    map_mem_t m;
    build(&m, &k_meta, &o);
    sensor_event_t e = k_sensor(1, 2, 3, 4);
    size_t n2 = 0;
    cr_assert_eq(evrec_syst_encode_event(&m.map, &e, 0, out, n - 1, &n2), EVREC_E_NO_SPACE);
    cr_assert_eq(evrec_syst_encode_event(&m.map, &e, 0, out, n, &n2), EVREC_OK);
    cr_assert_eq(n2, n);
    e.id = 3;
    cr_assert_eq(evrec_syst_encode_event(&m.map, &e, 0, out, sizeof out, &n2), EVREC_E_BAD_ID);
}

Test(syst, nested_fields_flatten_in_walk_order)
{
    map_mem_t m;
    build(&m, &k_meta, NULL);
    mixed_event_t e;
    memset(&e, 0, sizeof e);
    e.id = K_MIXED;
    e.u8 = 1;
    e.color = 2;
    e.state = 300;
    e.task = 4;
    e.mode = 5;
    e.obj = 6;
    e.fn = 7;
    e.u32 = 8;
    e.box.a.x = 9;
    e.box.a.y = 10;
    e.box.color = 11;
    e.box.b.x = 12;
    e.box.b.y = 13;
    uint8_t out[EVREC_SYST_MAX_MESSAGE];
    size_t n = 0;
    cr_assert_eq(evrec_syst_encode_event(&m.map, &e, 0, out, sizeof out, &n), EVREC_OK);
    cr_assert_eq(n, 4u + 2u + 4u + 52u);
    const uint32_t want[13] = {1, 2, 300, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
    for (int i = 0; i < 13; i++) {
        const uint8_t *p = out + 10 + 4 * i;
        uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        cr_assert_eq(v, want[i], "argument %d", i);
    }
}

Test(syst, clock_message)
{
    map_mem_t m;
    build(&m, &k_meta, NULL);
    uint8_t out[EVREC_SYST_MAX_CLOCK];
    size_t n = 0;
    cr_assert_eq(evrec_syst_encode_clock(&m.map, 0x123456789ull, 1000000u, out, sizeof out, &n), EVREC_OK);
    /* type 8, severity MAX, LEN, subtype 1: 0x01000208; payload clock u64, frequency u64 */
    const uint8_t want[] = {0x08, 0x02, 0x00, 0x01, 16,   0,    0x89, 0x67, 0x45, 0x23, 0x01,
                            0,    0,    0,    0x40, 0x42, 0x0F, 0,    0,    0,    0,    0};
    expect(out, n, want, sizeof want);
    cr_assert_eq(evrec_syst_encode_clock(&m.map, 1, 2, out, n - 1, &n), EVREC_E_NO_SPACE);
    /* the same options as the catalog messages: GUID, timestamp (= the clock value), CRC */
    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.use_guid = 1;
    memcpy(o.guid, guid, 16);
    o.timestamp = 1;
    o.crc = 1;
    o.id64 = 1;
    build(&m, &k_meta, &o);
    cr_assert_eq(evrec_syst_encode_clock(&m.map, 0x0102030405060708ull, 32768u, out, sizeof out, &n), EVREC_OK);
    cr_assert_eq(n, (size_t)EVREC_SYST_MAX_CLOCK);
    const uint8_t body[] = {0x08, 0x0E, 0x80, 0x01, GUID, 16, 0, TS, TS, 0x00, 0x80, 0, 0, 0, 0, 0, 0};
    cr_assert_eq(n, sizeof body + 4);
    expect(out, sizeof body, body, sizeof body);
    uint32_t crc = evrec_crc32c(0, body, sizeof body);
    cr_assert_eq(out[n - 4] | out[n - 3] << 8 | out[n - 2] << 16 | (uint32_t)out[n - 1] << 24, crc);
}

Test(syst, guid_text)
{
    uint8_t g[16];
    cr_assert_eq(evrec_syst_parse_guid("{8F6A3C2E-1B4D-4E5F-9A0B-112233445566}", g), EVREC_OK);
    cr_assert_eq(memcmp(g, guid, 16), 0);
    cr_assert_eq(evrec_syst_parse_guid("8f6a3c2e-1b4d-4e5f-9a0b-112233445566", g), EVREC_OK);
    cr_assert_eq(memcmp(g, guid, 16), 0);
    char text[39];
    evrec_syst_format_guid(g, text);
    cr_assert_str_eq(text, "{8F6A3C2E-1B4D-4E5F-9A0B-112233445566}");
    const char *bad[] = {"",
                         "{8F6A3C2E-1B4D-4E5F-9A0B-112233445566",
                         "8F6A3C2E-1B4D-4E5F-9A0B-11223344556",
                         "{8F6A3C2E-1B4D-4E5F-9A0B-1122334455667}",
                         "8F6A3C2E1B4D-4E5F-9A0B-112233445566",
                         "{8F6A3C2E-1B4D-4E5F-9A0B-11223344556G}",
                         "8F6A3C2E-1B4D-4E5F-9A0B-112233445566}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(evrec_syst_parse_guid(bad[i], g), EVREC_E_ARG, "'%s'", bad[i]);
    }
}
