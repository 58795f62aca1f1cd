/* SPDX-License-Identifier: Apache-2.0 */
/* The RTOS catalogue as a schema: included by an application schema (tests/stats/app/app.yaml,
 * compiled with -Wall -Wextra -Werror -std=c11 -pedantic -Wconversion), its events keep their ids
 * and names and `evrec stats` finds them next to the application's own events; the display
 * attributes (format: address) travel in the file; a meta-info with a catalogue name but other
 * fields is named as a mismatch instead of being misread; an application event that only shares
 * a name with the catalogue (a QueueOp of its own) is not taken for the catalogue's. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "app_events.h"
#include "evrec/evrec_analysis.h"
#include "evrec/evrec_hash.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_save.h"

#include "../common/fake_clock.h"
#include "../common/mem_sink.h"

/* The catalogue's events come first, in the catalogue's order, then the application's. */
_Static_assert(app_ID_TaskSwitchIn == 1, "catalogue first");
_Static_assert(app_ID_EventOp == 11, "the whole catalogue before the application");
_Static_assert(app_ID_SensorSample == 12 && app_ID_DmaDone == 13, "then the application");
_Static_assert(app_RtosIntControl_Disable == 7 && app_RtosIntControl_Restore == 8 &&
                   app_RtosIntControl_DisableNested == 39 && app_RtosIntControl_RestoreEnable == 40,
               "the ThreadX logger's interrupt control types");

Test(stats_catalogue, included_schema_is_valid)
{
    uint32_t bad = 0;
    const char *what = NULL;
    cr_assert_eq(evrec_meta_validate(&app_meta, &bad, &what), EVREC_OK, "%s (item %u)", what, bad);
    cr_assert_eq(evrec_meta_schema_hash(&app_meta), app_SCHEMA_HASH);
    cr_assert_eq(app_meta.time_freq, 48000000u);
    static const char *const names[] = {"EventControl", "TaskSwitchIn", "TaskSwitchOut", "IsrEnter", "IsrExit",
                                        "IdleSleep",    "IdleWake",     "IntControl",    "MutexOp",  "SemOp",
                                        "QueueOp",      "EventOp",      "SensorSample",  "DmaDone"};
    cr_assert_eq(app_meta.event_count, sizeof names / sizeof names[0]);
    for (uint32_t i = 0; i < app_meta.event_count; i++) {
        cr_assert_str_eq(app_meta.structs[app_meta.events[i].struct_id].name, names[i]);
    }
    /* Class ids: switch-out in the switch-in lane, ISR exit with enter, wake with sleep. */
    cr_assert_eq(app_meta.events[app_ID_TaskSwitchOut].class_id, app_ID_TaskSwitchIn);
    cr_assert_eq(app_meta.events[app_ID_IsrExit].class_id, app_ID_IsrEnter);
    cr_assert_eq(app_meta.events[app_ID_IdleWake].class_id, app_ID_IdleSleep);
    /* Record sizes: what the recording costs in the buffer. */
    cr_assert_eq(sizeof(app_TaskSwitchIn_t), 12); /* 9 bytes saved, rounded to 4 natively */
    cr_assert_eq(sizeof(app_IsrEnter_t), 12);
    cr_assert_eq(sizeof(app_IdleSleep_t), 8);
    cr_assert_eq(sizeof(app_IntControl_t), 12);
    cr_assert_eq(sizeof(app_SemOp_t), 12);
}

Test(stats_catalogue, application_trace_is_analysed)
{
    static _Alignas(8) unsigned char buf[4096];
    evrec_host_t host;
    evrec_recorder_t rec;
    cr_assert_eq(app_runtime_init(), EVREC_OK);
    cr_assert_eq(evrec_recorder_init(&rec, buf, sizeof buf), EVREC_OK);
    evrec_host_init(&host);
    app_RtosTask_t t_sensor;
    app_RtosIsr_t i_adc;
    cr_assert_eq(app_RtosTask_alloc("sensor", &t_sensor), EVREC_OK);
    cr_assert_eq(app_RtosIsr_alloc("adc", &i_adc), EVREC_OK);
    evrec_test_clock_step = 0;
    evrec_test_clock_now = 0xFFFFF000u; /* the 32-bit clock wraps inside the trace */
    cr_assert_eq(evrec_host_start(&host, &rec, &app_meta, app_meta.time_freq), EVREC_OK);
    evrec_test_clock_now = 0xFFFFF100u;
    app_record_TaskSwitchIn(&host, t_sensor, app_RtosResume_Start);
    evrec_test_clock_now = 0xFFFFFF00u;
    app_record_IsrEnter(&host, i_adc, 18);
    evrec_test_clock_now = 0x00000040u;
    app_record_DmaDone(&host, 0x20000400u, 64);
    evrec_test_clock_now = 0x00000100u;
    app_record_IsrExit(&host, i_adc, 18);
    evrec_test_clock_now = 0x00000180u;
    app_record_SensorSample(&host, app_SensorChannel_Pressure, 1234);
    evrec_test_clock_now = 0x00000200u;
    app_record_IntControl(&host, app_RtosIntControl_Disable, 0x08000100u);
    evrec_test_clock_now = 0x00000260u;
    app_record_IntControl(&host, app_RtosIntControl_RestoreEnable, 0x08000120u);
    evrec_test_clock_now = 0x00000300u;
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    mem_t file = {0};
    evrec_sink_t sink = {mem_write, &file};
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);

    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, file.data, file.len, NULL), EVREC_OK);
    evrec_stats_t *s;
    cr_assert_eq(evrec_stats_create(&s, r), EVREC_OK);
    evrec_record_t rr;
    while (evrec_reader_next(r, &rr) == EVREC_OK) {
        cr_assert_eq(evrec_stats_add(s, &rr), EVREC_OK);
    }
    cr_assert_eq(evrec_stats_finish(s), EVREC_OK);
    const evrec_stats_rtos_t *rt = evrec_stats_rtos(s);
    cr_assert_not_null(rt);
    cr_assert_eq(rt->span_ticks, 0x1300);
    cr_assert_eq(rt->unknown_ticks, 0x100);
    cr_assert_eq(rt->task_count, 1);
    cr_assert_str_eq(rt->tasks[0].name, "sensor");
    cr_assert_eq(rt->tasks[0].ticks, (0xFFFFFF00u - 0xFFFFF100u) + (0x300u - 0x100u));
    cr_assert_eq(rt->isr_count, 1);
    cr_assert_str_eq(rt->isrs[0].name, "adc");
    cr_assert_eq(rt->isrs[0].ticks, 0x200);
    cr_assert_eq(rt->longest.ticks, 0x60);
    uint32_t n;
    const evrec_stats_event_t *ev = evrec_stats_events(s, &n);
    cr_assert_eq(ev[app_ID_SensorSample].count, 1);
    cr_assert_eq(ev[app_ID_DmaDone].count, 1);
    /* Address fields: IntControl.caller (contract) and DmaDone.buffer (FIELD_INFO from the file). */
    const evrec_stats_address_t *ad = evrec_stats_addresses(s, &n);
    cr_assert_eq(n, 2);
    cr_assert_eq(ad[0].event_id, app_ID_IntControl);
    cr_assert_eq(ad[1].event_id, app_ID_DmaDone);
    cr_assert_str_eq(ad[1].field, "buffer");
    cr_assert_eq(ad[1].top_count, 1);
    cr_assert_eq(ad[1].top[0].value, 0x20000400u);
    evrec_stats_free(s);
    evrec_reader_close(r);
    free(file.data);
}

/* The catalogue is recognised by its identity (every one of its events with its layout), not
 * by event names: an application event named like one of the catalogue's is the application's. */

/* Stats over a bare CCore stream of `recs` under meta-info `m` (the records are not analysed
 * here, only what the meta-info says). */
static evrec_stats_t *stats_of(const evrec_meta_t *m, const void *recs, size_t size, mem_t *file,
                               evrec_reader_t **r)
{
    memset(file, 0, sizeof *file);
    evrec_sink_t sink = {mem_write, file};
    cr_assert_eq(evrec_save_ccore(m, 1000, recs, size, &sink), EVREC_OK);
    cr_assert_eq(evrec_reader_open_memory(r, file->data, file->len, NULL), EVREC_OK);
    evrec_stats_t *s;
    cr_assert_eq(evrec_stats_create(&s, *r), EVREC_OK);
    evrec_record_t rr;
    while (evrec_reader_next(*r, &rr) == EVREC_OK) {
        cr_assert_eq(evrec_stats_add(s, &rr), EVREC_OK);
    }
    cr_assert_eq(evrec_stats_finish(s), EVREC_OK);
    return s;
}

static void stats_done(evrec_stats_t *s, evrec_reader_t *r, mem_t *file)
{
    evrec_stats_free(s);
    evrec_reader_close(r);
    free(file->data);
}

static const uint32_t start_only[2] = {0, 0}; /* EventControl Start at time 0 */

/* An application's own QueueOp (task, object and type fields, plus a length): not the
 * catalogue's QueueOp, and nothing is said about a catalogue. */
static const evrec_enum_value_t ctl_values[] = {EVREC_CONTROL_ENUM_VALUES};
static const evrec_enum_desc_t user_enums[] = {{"EventControlType", EVREC_KIND_ENUM_UINT8, 4, ctl_values, NULL}};
static const evrec_field_desc_t user_queue_fields[] = {
    {"time", EVREC_KIND_UINT32, 0, 0},   {"id", EVREC_KIND_UINT16, 0, 4},   {"task", EVREC_KIND_UINT16, 0, 6},
    {"object", EVREC_KIND_UINT16, 0, 8}, {"type", EVREC_KIND_UINT8, 0, 10}, {"length", EVREC_KIND_UINT32, 0, 12}};
static const evrec_field_desc_t user_sw_fields[] = {
    {"time", EVREC_KIND_UINT32, 0, 0}, {"id", EVREC_KIND_UINT16, 0, 4}, {"task", EVREC_KIND_UINT16, 0, 6}};
static const evrec_struct_desc_t user_structs[] = {
    {"EventControl", 3, evrec_control_fields_enum0, 8},
    {"QueueOp", 6, user_queue_fields, 16},
    {"TaskSwitchIn", 3, user_sw_fields, 8},
};
static const evrec_event_desc_t user_events[] = {{0, 0}, {1, 1}, {2, 2}};
static const evrec_meta_t user_meta = {1000, 1, user_enums, 3, user_structs, 3, user_events, 0, NULL, NULL};

Test(stats_catalogue, user_events_named_like_the_catalogue_are_not_taken)
{
    struct {
        uint32_t time;
        uint16_t id, task, object;
        uint8_t type, pad;
        uint32_t length;
        uint32_t t2;
        uint16_t id2, task2;
    } recs = {10, 1, 3, 4, 2, 0, 100, 20, 2, 3};
    uint8_t all[8 + sizeof recs];
    memcpy(all, start_only, 8);
    memcpy(all + 8, &recs, sizeof recs);
    mem_t file;
    evrec_reader_t *r;
    evrec_stats_t *s = stats_of(&user_meta, all, sizeof all, &file, &r);
    cr_assert_null(evrec_stats_rtos(s), "a user QueueOp/TaskSwitchIn was taken for the catalogue");
    cr_assert_null(evrec_stats_mismatch(s), "the application's own events are not a broken catalogue");
    uint32_t n;
    const evrec_stats_event_t *ev = evrec_stats_events(s, &n);
    cr_assert_eq(ev[1].count, 1, "still counted as an event of the file");
    stats_done(s, r, &file);

    /* The catalogue included by an application schema is recognised as it is. */
    s = stats_of(&app_meta, start_only, sizeof start_only, &file, &r);
    cr_assert_not_null(evrec_stats_rtos(s));
    cr_assert_null(evrec_stats_mismatch(s));
    stats_done(s, r, &file);
}

/* The application's meta-info with one catalogue event altered: the catalogue is not used (its
 * other events are there, so the file says why). */
static void altered_case(int which, const char *expected)
{
    evrec_meta_t m = app_meta;
    m.field_info = NULL;
    evrec_struct_desc_t *structs = calloc(m.struct_count, sizeof *structs);
    evrec_enum_desc_t *enums = calloc(m.enum_count, sizeof *enums);
    memcpy(structs, app_meta.structs, m.struct_count * sizeof *structs);
    memcpy(enums, app_meta.enums, m.enum_count * sizeof *enums);
    evrec_field_desc_t fields[8];
    if (which == 0) { /* IsrEnter with `irq` instead of `isr` */
        evrec_struct_desc_t *sd = &structs[m.events[app_ID_IsrEnter].struct_id];
        cr_assert_leq(sd->field_count, 8);
        memcpy(fields, sd->fields, sd->field_count * sizeof *fields);
        fields[2].name = "irq";
        sd->fields = fields;
    } else { /* QueueOp's type enum lacks Timeout */
        const evrec_struct_desc_t *sd = &structs[m.events[app_ID_QueueOp].struct_id];
        evrec_enum_desc_t *ed = &enums[sd->fields[4].ref];
        cr_assert_str_eq(ed->name, "RtosQueueOp");
        ed->value_count--;
    }
    m.structs = structs;
    m.enums = enums;
    mem_t file;
    evrec_reader_t *r;
    evrec_stats_t *s = stats_of(&m, start_only, sizeof start_only, &file, &r);
    cr_assert_null(evrec_stats_rtos(s));
    cr_assert_not_null(evrec_stats_mismatch(s));
    cr_assert_str_eq(evrec_stats_mismatch(s), expected);
    stats_done(s, r, &file);
    free(structs);
    free(enums);
}

Test(stats_catalogue, an_altered_catalogue_is_named_and_not_used)
{
    altered_case(0,
                 "not the whole catalogue of ports/rtos/rtos.yaml: IsrEnter: other fields than the catalogue's");
    altered_case(
        1, "not the whole catalogue of ports/rtos/rtos.yaml: QueueOp: a field's enum is not the catalogue's");
}
