/* SPDX-License-Identifier: Apache-2.0 */
/* The drain's conversion plan (stream_plan.c) packs every record as the table walk does
 * (evrec_save_pack_record(), FORMAT.md section 3): fields of every width, natural and scattered
 * native offsets, nested structs, runs longer than one plan run holds (64 fields), and event
 * types past the plan's room, which the drain leaves to the walk. */
#include <criterion/criterion.h>
#include <string.h>

#include "evrec/evrec_stream.h"
#include "stream_internal.h"

enum { U8 = EVREC_KIND_UINT8, U16 = EVREC_KIND_UINT16, U32 = EVREC_KIND_UINT32, E16 = EVREC_KIND_ENUM_UINT16 };

#define HDR                                                                                                       \
    {"time", U32, 0, 0},                                                                                          \
    {                                                                                                             \
        "id", U16, 0, 4                                                                                           \
    }
static const evrec_field_desc_t control[] = {HDR, {"type", U8, 0, 6}};
static const evrec_field_desc_t words[] = {HDR, {"a", U32, 0, 8}, {"b", U32, 0, 12}, {"c", U32, 0, 16}};
/* out of order, with holes and every width */
static const evrec_field_desc_t scattered[] = {HDR,
                                               {"a", U8, 0, 21},
                                               {"b", U32, 0, 8},
                                               {"c", E16, 0, 6},
                                               {"d", U8, 0, 20},
                                               {"e", U16, 0, 18},
                                               {"f", U32, 0, 12}};
static const evrec_field_desc_t inner2[] = {{"x", U8, 0, 0}, {"y", U32, 0, 4}};
static const evrec_field_desc_t inner1[] = {{"p", U16, 0, 0}, {"q", EVREC_KIND_STRUCT, 3, 4}, {"r", U8, 0, 12}};
static const evrec_field_desc_t nested[] = {
    HDR, {"in", EVREC_KIND_STRUCT, 4, 8}, {"z", U16, 0, 6}, {"in2", EVREC_KIND_STRUCT, 4, 24}};
static evrec_field_desc_t bytes[2 + 150]; /* 150 u8 fields in a row: three runs */

static const evrec_struct_desc_t structs[] = {
    {"EventControl", 3, control, 8}, {"Words", 5, words, 20},   {"Scattered", 8, scattered, 24},
    {"Inner2", 2, inner2, 8},        {"Inner1", 3, inner1, 16}, {"Nested", 5, nested, 40},
    {"Bytes", 152, bytes, 156},
};
static const evrec_event_desc_t events[] = {{0, 0}, {1, 1}, {2, 2}, {5, 3}, {6, 4}, {1, 5}, {2, 6}};

static const evrec_meta_t *meta(void)
{
    static evrec_meta_t m;
    bytes[0] = (evrec_field_desc_t){"time", U32, 0, 0};
    bytes[1] = (evrec_field_desc_t){"id", U16, 0, 4};
    for (unsigned i = 0; i < 150; i++) {
        bytes[2 + i] = (evrec_field_desc_t){"b", U8, 0, (uint16_t)(6 + i)};
    }
    m = (evrec_meta_t){
        0, 0,    NULL, sizeof structs / sizeof structs[0], structs, sizeof events / sizeof events[0], events,
        0, NULL, NULL};
    return &m;
}

static void check_event(const evrec_stream_plan_t *pl, const evrec_meta_t *m, uint16_t id)
{
    uint8_t rec[256], got[300], want[300];
    uint32_t x = 99u + id;
    for (unsigned round = 0; round < 20; round++) {
        for (size_t i = 0; i < sizeof rec; i++) {
            x = x * 1103515245u + 12345u;
            rec[i] = (uint8_t)(x >> 16);
        }
        memcpy(rec + 4, &id, 2); /* a record's id field holds its id */
        memset(got, 0xAA, sizeof got);
        memset(want, 0x55, sizeof want);
        uint8_t *g = evrec_stream_pack(pl, id, got, rec);
        uint8_t *w = evrec_save_pack_record(m, want, rec, id);
        cr_assert_eq(g - got, w - want, "event %u: %td bytes packed, the walk %td", id, g - got, w - want);
        cr_assert_arr_eq(got, want, (size_t)(w - want), "event %u: the bytes differ from the walk's", id);
    }
}

Test(stream_pack, plan_packs_as_the_table_walk)
{
    const evrec_meta_t *m = meta();
    static evrec_stream_plan_t pl;
    evrec_stream_plan_build(&pl, m);
    uint32_t planned = m->event_count < EVREC_STREAM_PLAN_EVENTS ? m->event_count : EVREC_STREAM_PLAN_EVENTS;
    cr_assert_eq(pl.events, planned, "every event type has a plan: %u of %u", pl.events, planned);
    for (uint16_t id = 0; id < pl.events; id++) {
        check_event(&pl, m, id);
    }
    /* runs merged (time and id need none): Words is one run of three u32; Bytes's 150 u8 fields
     * take 3 runs */
    cr_assert_eq(pl.first[2] - pl.first[1], 1);
    cr_assert_eq(pl.first[5] - pl.first[4], 3);
}

/* The room for runs (EVREC_STREAM_PLAN_RUNS) used up: the plan stops at the first event type
 * whose runs do not fit (it and the ones after it take the walk), the ones before pack right. */
Test(stream_pack, plan_stops_where_the_runs_end)
{
    const evrec_meta_t *base = meta();
    static evrec_event_desc_t many[EVREC_STREAM_PLAN_EVENTS + 1];
    many[0] = events[0]; /* EventControl: 1 run (its type) */
    for (size_t e = 1; e < sizeof many / sizeof many[0]; e++) {
        many[e] = (evrec_event_desc_t){2, (uint16_t)e}; /* Scattered: 6 runs each */
    }
    evrec_meta_t m = *base;
    m.events = many;
    m.event_count = sizeof many / sizeof many[0];
    static evrec_stream_plan_t pl;
    evrec_stream_plan_build(&pl, &m);
    uint32_t fit = 1u + (EVREC_STREAM_PLAN_RUNS - 1u) / 6u;
    uint32_t want = fit < m.event_count ? fit : EVREC_STREAM_PLAN_EVENTS;
    cr_assert_eq(pl.events, want, "%u event types planned, expected %u", pl.events, want);
    cr_assert_leq(pl.first[pl.events], EVREC_STREAM_PLAN_RUNS);
    for (uint16_t id = 0; id < pl.events; id++) {
        check_event(&pl, &m, id);
    }
}
