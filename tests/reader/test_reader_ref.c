/* SPDX-License-Identifier: Apache-2.0 */
/* tests/data/ccore/ref.bin, written by CCore's own recorder, read as a bare CCore stream:
 * every name, value, class, marker, offset and restored time of the table in tests/data/README.md
 * (the times EventView's loader read from the same file). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_hash.h"
#include "evrec/evrec_reader.h"

#define REF_PATH EVREC_TEST_DATA "/ccore/ref.bin"

typedef struct field_list {
    char text[512];
} field_list_t;

static int collect(void *ctx, const evrec_field_view_t *f)
{
    field_list_t *l = ctx;
    char item[128];
    if (f->value_name) {
        snprintf(item, sizeof item, "%s%s=%s(%u)", l->text[0] ? " " : "", f->path, f->value_name, f->value);
    } else {
        snprintf(item, sizeof item, "%s%s=%u", l->text[0] ? " " : "", f->path, f->value);
    }
    strncat(l->text, item, sizeof l->text - strlen(l->text) - 1);
    return 0;
}

Test(ref, meta_info)
{
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_path(&r, REF_PATH, NULL), EVREC_OK, "%s", evrec_reader_error(r)->message);
    const evrec_file_info_t *fi = evrec_reader_info(r);
    cr_assert_eq(fi->format, EVREC_FILE_CCORE);
    cr_assert_eq(fi->time_freq, 1000000u);
    cr_assert_eq(fi->file_size, 485u);
    cr_assert_eq(fi->meta_offset, 0u);
    cr_assert_eq(fi->records_offset, 0x1AAu);
    cr_assert_eq(fi->schema_hash_stored, 0u);
    const evrec_meta_t *m = evrec_reader_meta(r);
    cr_assert_not_null(m);
    cr_assert_eq(fi->schema_hash_computed, evrec_meta_schema_hash(m));

    cr_assert_eq(m->enum_count, 3u);
    cr_assert_str_eq(m->enums[0].name, "ObjNumber");
    cr_assert_eq(m->enums[0].kind, EVREC_KIND_ENUM_UINT16);
    cr_assert_eq(m->enums[0].value_count, 3u); /* no RUNTIME_ENUMS: all values are static */
    cr_assert_eq(m->enums[0].values[0].value, 1u);
    cr_assert_str_eq(m->enums[0].values[0].name, "Special");
    cr_assert_eq(m->enums[0].values[0].marker, EVREC_MARKER_UP);
    cr_assert_eq(m->enums[0].values[1].value, 10u);
    cr_assert_str_eq(m->enums[0].values[1].name, "ObjA");
    cr_assert_eq(m->enums[0].values[1].marker, EVREC_MARKER_PUSH);
    cr_assert_eq(m->enums[0].values[2].value, 11u);
    cr_assert_str_eq(m->enums[0].values[2].name, "ObjB");
    cr_assert_null(m->enums[0].runtime);
    cr_assert_str_eq(m->enums[1].name, "EventControlType");
    cr_assert_eq(m->enums[1].kind, EVREC_KIND_ENUM_UINT8);
    static const char *const ctl[4] = {"Start", "Tick", "Stop", "End"};
    static const uint8_t ctl_marker[4] = {EVREC_MARKER_PUSH, EVREC_MARKER_TICK, EVREC_MARKER_STOP,
                                          EVREC_MARKER_NONE};
    cr_assert_eq(m->enums[1].value_count, 4u);
    for (unsigned i = 0; i < 4; i++) {
        cr_assert_eq(m->enums[1].values[i].value, i);
        cr_assert_str_eq(m->enums[1].values[i].name, ctl[i]);
        cr_assert_eq(m->enums[1].values[i].marker, ctl_marker[i]);
    }
    cr_assert_str_eq(m->enums[2].name, "ObjEventType");
    cr_assert_eq(m->enums[2].value_count, 2u);
    cr_assert_str_eq(m->enums[2].values[0].name, "Lock");
    cr_assert_eq(m->enums[2].values[0].marker, EVREC_MARKER_UP);
    cr_assert_str_eq(m->enums[2].values[1].name, "Unlock");
    cr_assert_eq(m->enums[2].values[1].marker, EVREC_MARKER_DOWN);

    cr_assert_eq(m->struct_count, 4u);
    static const char *const sn[4] = {"EventControl", "Inner", "NestEvent", "ObjEvent"};
    static const uint32_t fc[4] = {3, 2, 4, 4};
    static const uint16_t packed[4] = {7, 5, 13, 9};
    for (unsigned i = 0; i < 4; i++) {
        cr_assert_str_eq(m->structs[i].name, sn[i]);
        cr_assert_eq(m->structs[i].field_count, fc[i]);
        cr_assert_eq(m->structs[i].native_size, packed[i], "struct %u", i); /* packed, documented */
    }
    cr_assert_str_eq(m->structs[2].fields[2].name, "obj");
    cr_assert_eq(m->structs[2].fields[2].kind, EVREC_KIND_ENUM_UINT16);
    cr_assert_eq(m->structs[2].fields[2].ref, 0u);
    cr_assert_eq(m->structs[2].fields[2].offset, 6u);
    cr_assert_str_eq(m->structs[2].fields[3].name, "inner");
    cr_assert_eq(m->structs[2].fields[3].kind, EVREC_KIND_STRUCT);
    cr_assert_eq(m->structs[2].fields[3].ref, 1u);
    cr_assert_eq(m->structs[2].fields[3].offset, 8u);
    cr_assert_eq(m->structs[1].fields[1].offset, 1u);

    cr_assert_eq(m->event_count, 3u);
    static const uint16_t st[3] = {0, 2, 3}, cl[3] = {0, 2, 2};
    static const uint32_t len[3] = {7, 13, 9};
    for (unsigned i = 0; i < 3; i++) {
        cr_assert_eq(m->events[i].struct_id, st[i]);
        cr_assert_eq(m->events[i].class_id, cl[i]);
        cr_assert_eq(evrec_reader_event_size(r, (uint16_t)i), len[i]);
    }
    cr_assert_str_eq(evrec_reader_event_name(r, 1), "NestEvent");
    cr_assert_null(evrec_reader_event_name(r, 3));
    cr_assert_eq(fi->control_event, 0u);
    cr_assert_str_eq(evrec_reader_enum_value(r, 0, 11, NULL), "ObjB");
    cr_assert_null(evrec_reader_enum_value(r, 0, 12, NULL));
    cr_assert_null(evrec_reader_enum_value(r, 7, 0, NULL));
    evrec_reader_close(r);
}

Test(ref, records_names_values_markers_times)
{
    static const struct {
        uint64_t offset;
        uint16_t id;
        uint32_t time32;
        uint64_t t64;
        const char *fields;
        uint8_t marker;
        uint16_t class_id;
    } want[] = {
        {0x1AA, 0, 0xFFFFF000u, 0, "time=4294963200 id=0 type=Start(0)", EVREC_MARKER_PUSH, 0},
        {0x1B1, 2, 0xFFFFF3E8u, 1000, "time=4294964200 id=2 obj=ObjA(10) type=Lock(0)", EVREC_MARKER_UP, 2},
        {0x1BA, 0, 0xFFFFF7D0u, 2000, "time=4294965200 id=0 type=Tick(1)", EVREC_MARKER_TICK, 0},
        {0x1C1, 1, 0xFFFFFBB8u, 3000, "time=4294966200 id=1 obj=ObjB(11) inner.a=90 inner.b=16909060",
         EVREC_MARKER_PUSH, 2},
        {0x1CE, 2, 0xFFFFFFA0u, 4000, "time=4294967200 id=2 obj=ObjA(10) type=Unlock(1)", EVREC_MARKER_DOWN, 2},
        {0x1D7, 0, 0x00000388u, 5000, "time=904 id=0 type=Stop(2)", EVREC_MARKER_STOP, 0},
    };
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_path(&r, REF_PATH, NULL), EVREC_OK);
    evrec_record_t rec;
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
        cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK, "record %u: %s", i, evrec_reader_error(r)->message);
        cr_assert_eq(rec.index, i);
        cr_assert_eq(rec.offset, want[i].offset, "record %u at %llu", i, (unsigned long long)rec.offset);
        cr_assert_eq(rec.id, want[i].id);
        cr_assert_eq(rec.time32, want[i].time32);
        cr_assert_eq(rec.t64, want[i].t64);
        cr_assert_eq(rec.ns, want[i].t64 * 1000u); /* 1 MHz: 1 tick = 1000 ns */
        cr_assert_eq(rec.size, evrec_reader_event_size(r, rec.id));
        cr_assert_eq(rec.unverified, 0);
        field_list_t l = {{0}};
        cr_assert_eq(evrec_reader_visit_fields(r, &rec, collect, &l), EVREC_OK);
        cr_assert_str_eq(l.text, want[i].fields, "record %u", i);
        cr_assert_eq(evrec_reader_record_marker(r, &rec), want[i].marker, "record %u", i);
        cr_assert_eq(evrec_reader_meta(r)->events[rec.id].class_id, want[i].class_id);
    }
    cr_assert_eq(evrec_reader_next(r, &rec), EVREC_E_END, "%s", evrec_reader_error(r)->message);
    cr_assert_eq(evrec_reader_next(r, &rec), EVREC_E_END);
    cr_assert_eq(evrec_reader_error(r)->status, EVREC_OK);
    evrec_time_source src;
    cr_assert_eq(evrec_reader_time_freq(r, &src), 1000000u);
    cr_assert_eq(src, EVREC_TIME_FILE);
    evrec_reader_close(r);
}

Test(ref, raw_bytes_of_nest_event)
{
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_path(&r, REF_PATH, NULL), EVREC_OK);
    evrec_record_t rec;
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK);
    }
    static const uint8_t want[13] = {0xFF, 0xFF, 0xFB, 0xB8, 0x00, 0x01, 0x00, 0x0B, 0x5A, 0x01, 0x02, 0x03, 0x04};
    cr_assert_eq(rec.size, 13u);
    cr_assert_arr_eq(rec.data, want, 13);
    evrec_reader_close(r);
}

Test(ref, summary)
{
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_path(&r, REF_PATH, NULL), EVREC_OK);
    evrec_reader_summary_t s;
    cr_assert_eq(evrec_reader_summarize(r, &s), EVREC_OK);
    cr_assert_eq(s.records, 6u);
    cr_assert_eq(s.ticks, 1u);
    cr_assert_eq(s.event_count, 3u);
    cr_assert_eq(s.event_counts[0], 3u);
    cr_assert_eq(s.event_counts[1], 1u);
    cr_assert_eq(s.event_counts[2], 2u);
    cr_assert_eq(s.first_time32, 0xFFFFF000u);
    cr_assert_eq(s.last_time32, 0x388u);
    cr_assert_eq(s.last_t64, 5000u);
    cr_assert_eq(s.last_ns, 5000000u);
    cr_assert_eq(s.time_freq, 1000000u);
    cr_assert_eq(s.end_seen, 1);
    cr_assert_eq(s.damage.status, EVREC_OK);
    evrec_reader_close(r);
}

/* With --tick-hz the frequency comes from the ticks; ref.bin has one tick only: unknown. */
Test(ref, tick_rate_with_one_tick_gives_unknown_frequency)
{
    evrec_reader_options_t o = {0, 10};
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_path(&r, REF_PATH, &o), EVREC_OK);
    evrec_time_source src;
    cr_assert_eq(evrec_reader_time_freq(r, &src), 0u);
    cr_assert_eq(src, EVREC_TIME_UNKNOWN);
    evrec_record_t rec;
    cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK);
    cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK);
    cr_assert_eq(rec.t64, 1000u);
    cr_assert_eq(rec.ns, 0u);
    evrec_reader_close(r);
}
