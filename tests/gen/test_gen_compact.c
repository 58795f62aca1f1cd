/* SPDX-License-Identifier: Apache-2.0 */
/* The compact native layout of tests/gen/pass/compact/compact.yaml: event structs that schema
 * order would pad are laid out without avoidable padding, while the meta-info lists the fields
 * in schema order. A recording made through the generated record functions saves to exactly the
 * bytes of the same records in schema-order structs (so the file, `evrec dump` and every reader
 * are unchanged), and the reader returns the fields in schema order. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "compact_events.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_save.h"

#include "../common/mem_sink.h"

extern uint32_t evrec_test_clock_now;
extern uint32_t evrec_test_clock_step;

/* No avoidable padding: header (6 bytes) plus the field widths, rounded up to 4. */
_Static_assert(sizeof(compact_Mixed_t) == 16, "Mixed: 6 + 4 + 2 + 4");
_Static_assert(sizeof(compact_Spread_t) == 20, "Spread: 6 + 4 + 1 + 4 + 1 + 4");
_Static_assert(sizeof(compact_Nested_t) == 16, "Nested: 6 + 1 + 8 + 1");
_Static_assert(sizeof(compact_Tight_t) == 12, "Tight: 6 + 2 + 4");
_Static_assert(offsetof(compact_Mixed_t, b) == 6, "the u16 fills the gap after id");
/* A struct used as a field type keeps schema order. */
_Static_assert(offsetof(compact_Pair_t, lo) == 0 && offsetof(compact_Pair_t, hi) == 4, "Pair");

/* The same events as schema order lays them out (what the generator emitted before). */
typedef struct so_mixed {
    uint32_t time;
    uint16_t id;
    uint32_t a;
    uint16_t b;
    uint32_t c;
} so_mixed_t;
typedef struct so_spread {
    uint32_t time;
    uint16_t id;
    uint32_t a;
    uint8_t b;
    uint32_t c;
    uint8_t d;
    uint32_t e;
} so_spread_t;
typedef struct so_nested {
    uint32_t time;
    uint16_t id;
    uint8_t tag;
    compact_Pair_t p;
    uint8_t k;
} so_nested_t;
_Static_assert(sizeof(so_mixed_t) == 20 && sizeof(so_spread_t) == 28 && sizeof(so_nested_t) == 20,
               "schema order pads these");

static uint32_t struct_id_of(const evrec_meta_t *m, const char *name)
{
    for (uint32_t i = 0; i < m->struct_count; i++) {
        if (strcmp(m->structs[i].name, name) == 0) {
            return i;
        }
    }
    cr_assert_fail("no struct %s", name);
    return 0;
}

static const char *const schema_order[][6] = {
    {"time", "id", "a", "b", "c", NULL},
    {"time", "id", "a", "b", "c", "d"},
    {"time", "id", "tag", "p", "k", NULL},
    {"time", "id", "a", "b", NULL, NULL},
};
static const char *const event_names[] = {"Mixed", "Spread", "Nested", "Tight"};

Test(gen_compact, meta_info_keeps_schema_order)
{
    for (int e = 0; e < 4; e++) {
        const evrec_struct_desc_t *s = &compact_meta.structs[struct_id_of(&compact_meta, event_names[e])];
        for (uint32_t f = 0; f < 6 && schema_order[e][f]; f++) {
            cr_assert_lt(f, s->field_count);
            cr_assert_str_eq(s->fields[f].name, schema_order[e][f], "%s field %u", event_names[e], f);
        }
    }
}

static const compact_Pair_t pair = {.lo = 0xBEEF, .hi = 0x01234567u};

/* Start, one record of each event, Stop; times 1000, 1010, ... */
static mem_t record_and_save(void)
{
    static _Alignas(8) unsigned char trace[1024];
    static evrec_host_t host;
    static evrec_recorder_t rec;
    evrec_test_clock_now = 1000;
    evrec_test_clock_step = 10;
    cr_assert_eq(evrec_recorder_init(&rec, trace, sizeof trace), EVREC_OK);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, &compact_meta, 0), EVREC_OK);
    compact_record_Mixed(&host, 0xA1A2A3A4u, 0xB1B2, 0xC1C2C3C4u);
    compact_record_Spread(&host, 0x11223344u, compact_Level_High, 0x55667788u, 0x99, 0xAABBCCDDu);
    compact_record_Nested(&host, 0x7E, pair, 0x7F);
    compact_record_Tight(&host, 0x1234, 0x56789ABCu);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    mem_t got = {0};
    evrec_sink_t sink = {mem_write, &got};
    evrec_save_options_t opt = {0, 1};
    cr_assert_eq(evrec_save_ex(&rec, &sink, &opt), EVREC_OK);
    return got;
}

Test(gen_compact, file_is_that_of_schema_order_structs)
{
    mem_t got = record_and_save();

    /* Schema-order tables: the generated ones with the offsets and sizes of the so_ structs. */
    static evrec_struct_desc_t structs[16];
    static evrec_field_desc_t fields[3][8];
    cr_assert_leq(compact_meta.struct_count, 16);
    memcpy(structs, compact_meta.structs, compact_meta.struct_count * sizeof structs[0]);
    static const uint16_t offs[3][7] = {
        {0, 4, offsetof(so_mixed_t, a), offsetof(so_mixed_t, b), offsetof(so_mixed_t, c)},
        {0, 4, offsetof(so_spread_t, a), offsetof(so_spread_t, b), offsetof(so_spread_t, c),
         offsetof(so_spread_t, d), offsetof(so_spread_t, e)},
        {0, 4, offsetof(so_nested_t, tag), offsetof(so_nested_t, p), offsetof(so_nested_t, k)}};
    static const uint16_t sizes[3] = {sizeof(so_mixed_t), sizeof(so_spread_t), sizeof(so_nested_t)};
    for (int e = 0; e < 3; e++) {
        uint32_t sid = struct_id_of(&compact_meta, event_names[e]);
        const evrec_struct_desc_t *s = &compact_meta.structs[sid];
        cr_assert_leq(s->field_count, 7);
        memcpy(fields[e], s->fields, s->field_count * sizeof fields[e][0]);
        for (uint32_t f = 0; f < s->field_count; f++) {
            fields[e][f].offset = offs[e][f];
        }
        structs[sid].fields = fields[e];
        structs[sid].native_size = sizes[e];
    }
    evrec_meta_t so_meta = compact_meta;
    so_meta.structs = structs;
    cr_assert_eq(evrec_meta_validate(&so_meta, NULL, NULL), EVREC_OK);

    static _Alignas(8) unsigned char buf[512];
    size_t n = 0;
    uint32_t t = 1000;
#define PUT(x) (memcpy(buf + n, &(x), sizeof(x)), n += sizeof(x))
    evrec_control_event_t start = {.time = t, .id = 0, .type = EVREC_CONTROL_START};
    PUT(start);
    so_mixed_t m = {.time = t += 10, .id = compact_ID_Mixed, .a = 0xA1A2A3A4u, .b = 0xB1B2, .c = 0xC1C2C3C4u};
    PUT(m);
    so_spread_t sp = {.time = t += 10,
                      .id = compact_ID_Spread,
                      .a = 0x11223344u,
                      .b = compact_Level_High,
                      .c = 0x55667788u,
                      .d = 0x99,
                      .e = 0xAABBCCDDu};
    PUT(sp);
    so_nested_t ne = {.time = t += 10, .id = compact_ID_Nested, .tag = 0x7E, .p = pair, .k = 0x7F};
    PUT(ne);
    compact_Tight_t ti = {.time = t += 10, .id = compact_ID_Tight, .a = 0x1234, .b = 0x56789ABCu};
    PUT(ti);
    evrec_control_event_t stop = {.time = t += 10, .id = 0, .type = EVREC_CONTROL_STOP};
    PUT(stop);
#undef PUT
    mem_t want = {0};
    evrec_sink_t sink = {mem_write, &want};
    cr_assert_eq(evrec_save_ccore(&so_meta, 0, buf, n, &sink), EVREC_OK);
    cr_assert_eq(got.len, want.len);
    cr_assert(memcmp(got.data, want.data, got.len) == 0, "the compact layout changed the file");
    free(got.data);
    free(want.data);
}

typedef struct collect {
    char names[8][32];
    uint32_t values[8];
    int n;
} collect_t;

static int collect(void *ctx, const evrec_field_view_t *f)
{
    collect_t *c = ctx;
    if (c->n < 8) {
        snprintf(c->names[c->n], sizeof c->names[c->n], "%s", f->path);
        c->values[c->n++] = f->value;
    }
    return 0;
}

Test(gen_compact, reader_returns_schema_order)
{
    mem_t got = record_and_save();
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, got.data, got.len, NULL), EVREC_OK);
    evrec_record_t rec;
    cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK); /* Start */
    cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK);
    collect_t c = {0};
    evrec_reader_visit_fields(r, &rec, collect, &c);
    cr_assert_eq(c.n, 5);
    static const char *const mixed[] = {"time", "id", "a", "b", "c"};
    for (int i = 0; i < 5; i++) {
        cr_assert_str_eq(c.names[i], mixed[i]);
    }
    cr_assert_eq(c.values[2], 0xA1A2A3A4u);
    cr_assert_eq(c.values[3], 0xB1B2u);
    cr_assert_eq(c.values[4], 0xC1C2C3C4u);
    cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK);
    memset(&c, 0, sizeof c);
    evrec_reader_visit_fields(r, &rec, collect, &c);
    static const char *const spread[] = {"time", "id", "a", "b", "c", "d", "e"};
    static const uint32_t spread_v[] = {0, 0, 0x11223344u, compact_Level_High, 0x55667788u, 0x99, 0xAABBCCDDu};
    cr_assert_eq(c.n, 7);
    for (int i = 0; i < 7; i++) {
        cr_assert_str_eq(c.names[i], spread[i]);
        if (i >= 2) {
            cr_assert_eq(c.values[i], spread_v[i], "Spread.%s", spread[i]);
        }
    }
    cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK);
    memset(&c, 0, sizeof c);
    evrec_reader_visit_fields(r, &rec, collect, &c);
    static const char *const nested[] = {"time", "id", "tag", "p.lo", "p.hi", "k"};
    static const uint32_t nested_v[] = {0, 0, 0x7E, 0xBEEF, 0x01234567u, 0x7F};
    cr_assert_eq(c.n, 6);
    for (int i = 0; i < 6; i++) {
        cr_assert_str_eq(c.names[i], nested[i]);
        if (i >= 2) {
            cr_assert_eq(c.values[i], nested_v[i], "Nested.%s", nested[i]);
        }
    }
    evrec_reader_close(r);
    free(got.data);
}
