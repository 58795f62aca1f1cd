/* SPDX-License-Identifier: Apache-2.0 */
/* The generated code of tests/gen/pass/full/full.yaml (built by evrec_generate() with
 * -Wall -Wextra -Werror -std=c11 -pedantic) recording every event type through the real
 * recorder (fake-clock port, so times are pinned), saved with evrec_save to memory and read back
 * with the format reader; and the bare CCore stream compared with evrec_save_ccore() of the same
 * records built by hand. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "demo_events.h"
#include "evrec/evrec_hash.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_save.h"

extern uint32_t evrec_test_clock_now;
extern uint32_t evrec_test_clock_step;

/* The generated EventControlType is the recorder's. */
_Static_assert((int)demo_EventControlType_Start == (int)EVREC_CONTROL_START, "Start");
_Static_assert((int)demo_EventControlType_Tick == (int)EVREC_CONTROL_TICK, "Tick");
_Static_assert((int)demo_EventControlType_Stop == (int)EVREC_CONTROL_STOP, "Stop");
_Static_assert((int)demo_EventControlType_End == (int)EVREC_CONTROL_END, "End");
_Static_assert(demo_ID_EventControl == EVREC_CONTROL_EVENT_ID, "event 0");
_Static_assert(sizeof(demo_EventControl_t) == sizeof(evrec_control_event_t), "control size");

#include "../common/mem_sink.h"

static _Alignas(8) unsigned char trace[4096];
static evrec_host_t host;
static evrec_recorder_t rec;
static demo_TaskId_t task_main, task_worker;
static demo_Channel_t chan_usb;

static const demo_Packet_t packet = {
    .channel = 100, .length = 200, .origin = {.x = 0x1234, .y = 0xFEDC}, .crc = 0xCAFEBABEu};

/* Record one event of every type (Start at t=1000, then one per 10 ticks). */
static void record_all(void)
{
    evrec_test_clock_now = 1000;
    evrec_test_clock_step = 10;
    cr_assert_eq(demo_runtime_init(), EVREC_OK);
    cr_assert_eq(evrec_recorder_init(&rec, trace, sizeof trace), EVREC_OK);
    evrec_host_init(&host);
    /* Detached: nothing happens, nothing is counted. */
    demo_record_Heartbeat(&host);
    evrec_test_clock_now = 1000;
    cr_assert_eq(evrec_host_start(&host, &rec, &demo_meta, demo_meta.time_freq), EVREC_OK);
    cr_assert_eq(demo_TaskId_alloc("main", &task_main), EVREC_OK);
    cr_assert_eq(demo_TaskId_alloc("worker", &task_worker), EVREC_OK);
    cr_assert_eq(demo_Channel_alloc("usb", &chan_usb), EVREC_OK);
    cr_assert_eq(task_main, 1);
    cr_assert_eq(task_worker, 2);
    cr_assert_eq(chan_usb, 100);
    demo_record_TaskSwitch(&host, task_main, task_worker, demo_TaskState_Blocked);
    demo_record_IsrEnter(&host, 7);
    demo_record_IsrExit(&host, 7, 0xA1B2C3D4u);
    demo_record_PhaseChange(&host, demo_Phase_Busy);
    demo_record_Sent(&host, packet, 0x20001000u);
    demo_record_Fault(&host, demo_ErrorCode_Fatal, 0x08000F00u, 65535, 0x5A);
    demo_record_Heartbeat(&host);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    cr_assert_eq(evrec_recorder_counts(&rec).recorded, 9); /* Start, 7 events, Stop */
    cr_assert_eq(evrec_recorder_counts(&rec).dropped, 0);
}

Test(gen_record, tables_are_valid_and_hash_matches)
{
    uint32_t bad = 0;
    const char *what = NULL;
    cr_assert_eq(evrec_meta_validate(&demo_meta, &bad, &what), EVREC_OK, "%s (item %u)", what, bad);
    cr_assert_eq(demo_meta.schema_hash, demo_SCHEMA_HASH);
    cr_assert_eq(evrec_meta_schema_hash(&demo_meta), demo_SCHEMA_HASH,
                 "the generator's hash is not the one the tables give at run time");
    cr_assert_eq(demo_meta.event_count, demo_EVENT_COUNT);
    cr_assert_eq(demo_meta.time_freq, 1000000u);
    cr_assert_str_eq(demo_SCHEMA_VERSION, "1.0");
    /* Event i's struct is the generated type: sizes and the saved lengths. */
    static const struct {
        uint16_t id;
        size_t native;
        uint32_t packed;
        uint16_t class_id;
    } ev[] = {
        {demo_ID_EventControl, sizeof(demo_EventControl_t), 7, 0},
        {demo_ID_TaskSwitch, sizeof(demo_TaskSwitch_t), 11, demo_ID_TaskSwitch},
        {demo_ID_IsrEnter, sizeof(demo_IsrEnter_t), 7, demo_ID_IsrEnter},
        {demo_ID_IsrExit, sizeof(demo_IsrExit_t), 11, demo_ID_IsrEnter},
        {demo_ID_PhaseChange, sizeof(demo_PhaseChange_t), 7, demo_ID_PhaseChange},
        {demo_ID_Sent, sizeof(demo_Sent_t), 6 + 2 + 1 + 4 + 4 + 4, demo_ID_PhaseChange},
        {demo_ID_Fault, sizeof(demo_Fault_t), 6 + 4 + 4 + 2 + 1, demo_ID_Fault},
        {demo_ID_Heartbeat, sizeof(demo_Heartbeat_t), 6, demo_ID_Heartbeat},
    };
    for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++) {
        const evrec_event_desc_t *e = &demo_meta.events[ev[i].id];
        cr_assert_eq(demo_meta.structs[e->struct_id].native_size, ev[i].native, "event %zu", i);
        cr_assert_eq(evrec_meta_packed_size(&demo_meta, e->struct_id), ev[i].packed, "event %zu", i);
        cr_assert_eq(e->class_id, ev[i].class_id, "event %zu", i);
    }
    /* Enum values ascend in the table even when the schema lists them otherwise. */
    cr_assert_str_eq(demo_meta.enums[5].name, "Channel");
    cr_assert_str_eq(demo_meta.enums[5].values[0].name, "Can");
    cr_assert_eq(demo_meta.enums[5].runtime, &demo_Channel_runtime);
    cr_assert_eq(demo_Channel_runtime.base, 100);
    cr_assert_eq(demo_Channel_runtime.lim, 110);
    cr_assert_eq(demo_Channel_runtime.marker, EVREC_MARKER_INC);
    cr_assert_eq(demo_ErrorCode_Fatal, 0xFFFFFFFFu);
}

Test(gen_record, field_info_table)
{
    cr_assert_eq(demo_field_info.schema_hash, demo_SCHEMA_HASH);
    cr_assert_eq(demo_field_info.count, 11);
    const evrec_field_info_t *e = demo_field_info.entries;
    for (uint32_t i = 1; i < demo_field_info.count; i++) {
        cr_assert(e[i - 1].struct_id < e[i].struct_id ||
                      (e[i - 1].struct_id == e[i].struct_id && e[i - 1].field_index < e[i].field_index),
                  "entries not sorted at %u", i);
    }
    /* Sent.buffer: address format with a description. */
    int found = 0;
    for (uint32_t i = 0; i < demo_field_info.count; i++) {
        const evrec_struct_desc_t *s = &demo_meta.structs[e[i].struct_id];
        const char *fname = s->fields[e[i].field_index].name;
        if (strcmp(s->name, "Sent") == 0 && strcmp(fname, "buffer") == 0) {
            cr_assert_eq(e[i].display, EVREC_DISPLAY_ADDRESS);
            cr_assert_str_eq(e[i].description, "Where the bytes were.");
            cr_assert_null(e[i].unit);
            found++;
        }
        if (strcmp(s->name, "IsrExit") == 0 && strcmp(fname, "cycles") == 0) {
            cr_assert_str_eq(e[i].unit, "cycles");
            found++;
        }
        if (strcmp(s->name, "Packet") == 0 && strcmp(fname, "crc") == 0) {
            cr_assert_eq(e[i].display, EVREC_DISPLAY_HEX);
            found++;
        }
    }
    cr_assert_eq(found, 3);
}

/* Field values of one record, as the reader walks them. */
typedef struct seen {
    char text[2048];
} seen_t;

static int visit(void *ctx, const evrec_field_view_t *f)
{
    seen_t *s = ctx;
    size_t n = strlen(s->text);
    if (f->index < 2) {
        return 0; /* time and id are checked separately */
    }
    snprintf(s->text + n, sizeof s->text - n, "%s%s=%lu%s%s", n ? " " : "", f->path, (unsigned long)f->value,
             f->value_name ? ":" : "", f->value_name ? f->value_name : "");
    return 0;
}

Test(gen_record, every_event_type_round_trips_through_the_reader)
{
    record_all();
    mem_t m = {0};
    evrec_sink_t sink = {mem_write, &m};
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);

    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, m.data, m.len, NULL), EVREC_OK, "%s",
                 r ? evrec_reader_error(r)->message : "");
    const evrec_file_info_t *info = evrec_reader_info(r);
    cr_assert_eq(info->schema_hash_stored, demo_SCHEMA_HASH);
    cr_assert_eq(info->schema_hash_computed, demo_SCHEMA_HASH);
    cr_assert_eq(info->time_freq, 1000000u);
    cr_assert_eq(info->recorded, 9);
    const evrec_meta_t *fm = evrec_reader_meta(r);
    cr_assert_eq(fm->event_count, demo_EVENT_COUNT);
    cr_assert_str_eq(evrec_reader_event_name(r, demo_ID_Sent), "Sent");
    cr_assert_str_eq(evrec_reader_enum_value(r, 2, 1, NULL), "main");
    cr_assert_str_eq(evrec_reader_enum_value(r, 2, 2, NULL), "worker");
    cr_assert_str_eq(evrec_reader_enum_value(r, 5, 100, NULL), "usb");
    uint8_t marker = 0;
    cr_assert_str_eq(evrec_reader_enum_value(r, 5, 100, &marker), "usb");
    cr_assert_eq(marker, EVREC_MARKER_INC);

    static const struct {
        uint16_t id;
        const char *fields;
    } expected[] = {
        {demo_ID_EventControl, "type=0:Start"},
        {demo_ID_TaskSwitch, "from=1:main to=2:worker state=2:Blocked"},
        {demo_ID_IsrEnter, "irq=7"},
        {demo_ID_IsrExit, "irq=7 cycles=2712847316"},
        {demo_ID_PhaseChange, "phase=1:Busy"},
        {demo_ID_Sent, "packet.channel=100:usb packet.length=200 packet.origin.x=4660 "
                       "packet.origin.y=65244 packet.crc=3405691582 buffer=536875008"},
        {demo_ID_Fault, "code=4294967295:Fatal where=134221568 count=65535 level=90"},
        {demo_ID_Heartbeat, ""},
        {demo_ID_EventControl, "type=2:Stop"},
    };
    evrec_record_t rc;
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        cr_assert_eq(evrec_reader_next(r, &rc), EVREC_OK, "record %zu: %s", i, evrec_reader_error(r)->message);
        cr_assert_eq(rc.id, expected[i].id, "record %zu", i);
        cr_assert_eq(rc.time32, 1000u + 10u * (uint32_t)i, "record %zu", i);
        seen_t s;
        s.text[0] = '\0';
        cr_assert_eq(evrec_reader_visit_fields(r, &rc, visit, &s), EVREC_OK);
        cr_assert_str_eq(s.text, expected[i].fields, "record %zu", i);
    }
    cr_assert_eq(evrec_reader_next(r, &rc), EVREC_E_END);
    evrec_reader_close(r);
    free(m.data);
}

/* Append one native record to a hand-built buffer. */
static size_t put(unsigned char *buf, size_t at, const void *record, size_t size)
{
    memcpy(buf + at, record, size);
    return at + size;
}

Test(gen_record, bare_stream_equals_hand_built_records)
{
    record_all();
    mem_t got = {0};
    evrec_sink_t sink = {mem_write, &got};
    evrec_save_options_t opt = {0, 1};
    cr_assert_eq(evrec_save_ex(&rec, &sink, &opt), EVREC_OK);

    /* The same records written without the generated record functions. */
    static _Alignas(8) unsigned char buf[1024];
    size_t n = 0;
    uint32_t t = 1000;
    demo_EventControl_t start = {t, demo_ID_EventControl, EVREC_CONTROL_START};
    n = put(buf, n, &start, sizeof start);
    demo_TaskSwitch_t ts = {t += 10, demo_ID_TaskSwitch, 1, 2, demo_TaskState_Blocked};
    n = put(buf, n, &ts, sizeof ts);
    demo_IsrEnter_t ie = {t += 10, demo_ID_IsrEnter, 7};
    n = put(buf, n, &ie, sizeof ie);
    demo_IsrExit_t ix = {t += 10, demo_ID_IsrExit, 7, 0xA1B2C3D4u};
    n = put(buf, n, &ix, sizeof ix);
    demo_PhaseChange_t pc = {t += 10, demo_ID_PhaseChange, demo_Phase_Busy};
    n = put(buf, n, &pc, sizeof pc);
    demo_Sent_t se = {t += 10, demo_ID_Sent, packet, 0x20001000u};
    n = put(buf, n, &se, sizeof se);
    demo_Fault_t fa = {t += 10, demo_ID_Fault, demo_ErrorCode_Fatal, 0x08000F00u, 65535, 0x5A};
    n = put(buf, n, &fa, sizeof fa);
    demo_Heartbeat_t hb = {t += 10, demo_ID_Heartbeat};
    n = put(buf, n, &hb, sizeof hb);
    demo_EventControl_t stop = {t += 10, demo_ID_EventControl, EVREC_CONTROL_STOP};
    n = put(buf, n, &stop, sizeof stop);
    cr_assert_eq(n, evrec_recorder_counts(&rec).used);

    mem_t want = {0};
    evrec_sink_t sink2 = {mem_write, &want};
    cr_assert_eq(evrec_save_ccore(&demo_meta, demo_meta.time_freq, buf, n, &sink2), EVREC_OK);
    cr_assert_eq(got.len, want.len);
    cr_assert(memcmp(got.data, want.data, got.len) == 0, "the streams differ");
    /* Spot-check the packed Sent record near the end of the stream: 7 bytes End, 7 Stop,
     * 6 Heartbeat, 17 Fault, before them the 21 bytes of Sent (big-endian, no padding). */
    const unsigned char *sent = got.data + got.len - 7 - 7 - 6 - 17 - 21;
    static const unsigned char sent_bytes[25] = {0x00, 0x00, 0x04, 0x1A, 0x00, 0x05, /* time 1050, id 5 */
                                                 0x00, 0x64, 0xC8, /* packet.channel 100, packet.length 200 */
                                                 0x12, 0x34, 0xFE, 0xDC,  /* packet.origin x, y */
                                                 0xCA, 0xFE, 0xBA, 0xBE,  /* packet.crc */
                                                 0x20, 0x00, 0x10, 0x00,  /* buffer */
                                                 0x00, 0x00, 0x04, 0x24}; /* then Fault's time, 1060 */
    cr_assert(memcmp(sent, sent_bytes, sizeof sent_bytes) == 0, "packed Sent record");
    free(got.data);
    free(want.data);
}

Test(gen_record, full_buffer_counts_drops)
{
    evrec_test_clock_now = 0;
    evrec_test_clock_step = 1;
    static _Alignas(8) unsigned char small[EVREC_BUF_HEADER_SIZE + EVREC_MIN_BUFFER];
    evrec_recorder_t r;
    evrec_host_t h;
    cr_assert_eq(evrec_recorder_init(&r, small, sizeof small), EVREC_OK);
    evrec_host_init(&h);
    cr_assert_eq(evrec_host_start(&h, &r, &demo_meta, 0), EVREC_OK);
    /* 256 bytes - 8 Start - 8 kept for Stop = 240 = 10 Sent records of 24 bytes. */
    for (int i = 0; i < 15; i++) {
        demo_record_Sent(&h, packet, (uint32_t)i);
    }
    cr_assert_eq(evrec_host_stop(&h, NULL), EVREC_OK);
    cr_assert_eq(evrec_recorder_counts(&r).recorded, 12);
    cr_assert_eq(evrec_recorder_counts(&r).dropped, 5);
}

/* The other golden schemas, compiled with the same flags: their tables are valid too. */
extern const evrec_meta_t minimal_meta;
extern const evrec_meta_t a_rather_long_schema_name_meta;

Test(gen_record, other_golden_schemas_validate)
{
    const evrec_meta_t *m[] = {&minimal_meta, &a_rather_long_schema_name_meta};
    for (size_t i = 0; i < 2; i++) {
        const char *what = NULL;
        cr_assert_eq(evrec_meta_validate(m[i], NULL, &what), EVREC_OK, "%s", what);
        cr_assert_eq(evrec_meta_schema_hash(m[i]), m[i]->schema_hash);
    }
    cr_assert_eq(minimal_meta.event_count, 1);
    cr_assert_eq(a_rather_long_schema_name_meta.event_count, 3);
}
