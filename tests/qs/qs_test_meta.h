/* SPDX-License-Identifier: Apache-2.0 */
/* Schemas shared by the QS tests: one with every field kind (and nested structs, enums with and
 * without a QS group, hex/OBJ/FUN display), and generated schemas with more than 22 event types. */
#ifndef EVREC_TEST_QS_META_H
#define EVREC_TEST_QS_META_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_meta.h"
#include "evrec/evrec_qs.h"

/* ---- schema "kinds": every field kind ----------------------------------------------------- */

typedef struct sensor_event {
    uint32_t time;
    uint16_t id;
    uint8_t ch;
    uint8_t pad;
    uint16_t raw;
    uint16_t pad2;
    uint32_t value;
} sensor_event_t;
typedef struct point {
    uint16_t x;
    uint16_t y;
} point_t;
typedef struct box {
    point_t a;
    uint8_t color;
    uint8_t pad[3];
    point_t b;
} box_t; /* nested twice */
typedef struct mixed_event {
    uint32_t time;
    uint16_t id;
    uint8_t u8;
    uint8_t color;  /* enum_uint8, grouped */
    uint16_t state; /* enum_uint16 with a value > 255: no group */
    uint16_t task;  /* local-filter object id */
    uint32_t mode;  /* enum_uint32, values fit a byte: grouped */
    uint32_t obj;   /* OBJ display */
    uint32_t fn;    /* FUN display */
    uint32_t u32;
    box_t box;
} mixed_event_t;

enum { K_CONTROL, K_SENSOR, K_MIXED, K_EVENT_COUNT };
enum { K_ENUM_CONTROL, K_ENUM_COLOR, K_ENUM_STATE, K_ENUM_MODE };
enum { K_STRUCT_CONTROL, K_STRUCT_SENSOR, K_STRUCT_MIXED, K_STRUCT_POINT, K_STRUCT_BOX };

static const evrec_enum_value_t k_control_values[] = {EVREC_CONTROL_ENUM_VALUES};
static const evrec_enum_value_t k_color_values[] = {{0, "Red", 0}, {1, "Green", 0}, {2, "Blue", 0}};
static const evrec_enum_value_t k_state_values[] = {{0, "Idle", 0}, {5, "Busy", 0}, {300, "Huge", 0}};
static const evrec_enum_value_t k_mode_values[] = {{1, "ModeA", 0}, {2, "ModeB", 0}};
static const evrec_enum_desc_t k_enums[] = {{"EventControlType", EVREC_KIND_ENUM_UINT8, 4, k_control_values, NULL},
                                            {"Color", EVREC_KIND_ENUM_UINT8, 3, k_color_values, NULL},
                                            {"State", EVREC_KIND_ENUM_UINT16, 3, k_state_values, NULL},
                                            {"Mode", EVREC_KIND_ENUM_UINT32, 2, k_mode_values, NULL}};
static const evrec_field_desc_t k_control_fields[] = {EVREC_CONTROL_FIELDS(0)};
static const evrec_field_desc_t k_sensor_fields[] = {
    {"time", EVREC_KIND_UINT32, 0, 0},
    {"id", EVREC_KIND_UINT16, 0, 4},
    {"ch", EVREC_KIND_UINT8, 0, offsetof(sensor_event_t, ch)},
    {"raw", EVREC_KIND_UINT16, 0, offsetof(sensor_event_t, raw)},
    {"value", EVREC_KIND_UINT32, 0, offsetof(sensor_event_t, value)}};
static const evrec_field_desc_t k_point_fields[] = {{"x", EVREC_KIND_UINT16, 0, offsetof(point_t, x)},
                                                    {"y", EVREC_KIND_UINT16, 0, offsetof(point_t, y)}};
static const evrec_field_desc_t k_box_fields[] = {
    {"a", EVREC_KIND_STRUCT, K_STRUCT_POINT, offsetof(box_t, a)},
    {"color", EVREC_KIND_ENUM_UINT8, K_ENUM_COLOR, offsetof(box_t, color)},
    {"b", EVREC_KIND_STRUCT, K_STRUCT_POINT, offsetof(box_t, b)}};
static const evrec_field_desc_t k_mixed_fields[] = {
    {"time", EVREC_KIND_UINT32, 0, 0},
    {"id", EVREC_KIND_UINT16, 0, 4},
    {"u8", EVREC_KIND_UINT8, 0, offsetof(mixed_event_t, u8)},
    {"color", EVREC_KIND_ENUM_UINT8, K_ENUM_COLOR, offsetof(mixed_event_t, color)},
    {"state", EVREC_KIND_ENUM_UINT16, K_ENUM_STATE, offsetof(mixed_event_t, state)},
    {"task", EVREC_KIND_UINT16, 0, offsetof(mixed_event_t, task)},
    {"mode", EVREC_KIND_ENUM_UINT32, K_ENUM_MODE, offsetof(mixed_event_t, mode)},
    {"obj", EVREC_KIND_UINT32, 0, offsetof(mixed_event_t, obj)},
    {"fn", EVREC_KIND_UINT32, 0, offsetof(mixed_event_t, fn)},
    {"u32", EVREC_KIND_UINT32, 0, offsetof(mixed_event_t, u32)},
    {"box", EVREC_KIND_STRUCT, K_STRUCT_BOX, offsetof(mixed_event_t, box)}};
static const evrec_struct_desc_t k_structs[] = {{"EventControl", 3, k_control_fields, 8},
                                                {"Sensor", 5, k_sensor_fields, sizeof(sensor_event_t)},
                                                {"Mixed", 11, k_mixed_fields, sizeof(mixed_event_t)},
                                                {"Point", 2, k_point_fields, sizeof(point_t)},
                                                {"Box", 3, k_box_fields, sizeof(box_t)}};
static const evrec_event_desc_t k_events[] = {{K_STRUCT_CONTROL, 0}, {K_STRUCT_SENSOR, 1}, {K_STRUCT_MIXED, 2}};
static const evrec_meta_t k_meta = {1000000, 4, k_enums, 5, k_structs, K_EVENT_COUNT, k_events, 0, NULL, NULL};

/* Display: Sensor.value hex, Sensor.raw hex; Mixed.obj OBJ, Mixed.fn FUN, Mixed.u32 hex. */
static const uint8_t k_disp_sensor[] = {0, 0, EVREC_QS_DISPLAY_DEC, EVREC_QS_DISPLAY_HEX, EVREC_QS_DISPLAY_HEX};
static const uint8_t k_disp_mixed[] = {
    0, 0, 0, 0, 0, 0, 0, EVREC_QS_DISPLAY_OBJ, EVREC_QS_DISPLAY_FUN, EVREC_QS_DISPLAY_HEX, 0};
static const uint8_t *const k_display[] = {NULL, k_disp_sensor, k_disp_mixed, NULL, NULL};
static const evrec_qs_name_t k_objects[] = {{0x20001000u, "l_motor"}, {0x20002000u, "l_uart"}};
static const evrec_qs_name_t k_functions[] = {{0x08000101u, "Motor_isr"}};

static inline sensor_event_t k_sensor(uint32_t time, uint8_t ch, uint16_t raw, uint32_t value)
{
    sensor_event_t e;
    memset(&e, 0, sizeof e);
    e.time = time;
    e.id = K_SENSOR;
    e.ch = ch;
    e.raw = raw;
    e.value = value;
    return e;
}

/* ---- generated schemas with many event types ----------------------------------------------- */

/* Event struct of every generated event type: two fields. */
typedef struct gen_event {
    uint32_t time;
    uint16_t id;
    uint8_t kind;
    uint8_t pad;
    uint32_t n;
} gen_event_t;

typedef struct gen_schema {
    evrec_meta_t meta;
    evrec_struct_desc_t *structs;
    evrec_event_desc_t *events;
    char (*names)[16];
} gen_schema_t;

static const evrec_field_desc_t gen_fields[] = {{"time", EVREC_KIND_UINT32, 0, 0},
                                                {"id", EVREC_KIND_UINT16, 0, 4},
                                                {"kind", EVREC_KIND_UINT8, 0, offsetof(gen_event_t, kind)},
                                                {"n", EVREC_KIND_UINT32, 0, offsetof(gen_event_t, n)}};

/* `count` event types (event 0 = EventControl); event e > 0 has class id e / per_class. */
static inline void gen_schema_make(gen_schema_t *g, uint32_t count, uint32_t per_class)
{
    g->structs = calloc(count, sizeof *g->structs);
    g->events = calloc(count, sizeof *g->events);
    g->names = calloc(count, sizeof *g->names);
    g->structs[0] = (evrec_struct_desc_t){"EventControl", 3, k_control_fields, 8};
    g->events[0] = (evrec_event_desc_t){0, 0};
    for (uint32_t e = 1; e < count; e++) {
        snprintf(g->names[e], sizeof g->names[e], "Ev%03u", (unsigned)e);
        g->structs[e] = (evrec_struct_desc_t){g->names[e], 4, gen_fields, sizeof(gen_event_t)};
        g->events[e] = (evrec_event_desc_t){(uint16_t)e, (uint16_t)(e / per_class)};
    }
    g->meta = (evrec_meta_t){0, 1, k_enums, count, g->structs, count, g->events, 0, NULL, NULL};
}

static inline void gen_schema_free(gen_schema_t *g)
{
    free(g->structs);
    free(g->events);
    free(g->names);
}

#endif
