/* SPDX-License-Identifier: Apache-2.0 */
/* The meta-info of tests/data/ccore/ref.bin (listed in tests/data/README.md), hand-written as static
 * tables. */
#ifndef EVREC_TEST_REF_META_H
#define EVREC_TEST_REF_META_H

#include <stddef.h>

#include "evrec/evrec_meta.h"

typedef struct inner {
    uint8_t a;
    uint32_t b;
} inner_t;
typedef struct nest_event {
    uint32_t time;
    uint16_t id;
    uint16_t obj;
    inner_t inner;
} nest_event_t;
typedef struct obj_event {
    uint32_t time;
    uint16_t id;
    uint16_t obj;
    uint8_t type;
} obj_event_t;

enum { REF_ENUM_OBJ_NUMBER, REF_ENUM_CONTROL, REF_ENUM_OBJ_EVENT_TYPE };
enum { REF_STRUCT_CONTROL, REF_STRUCT_INNER, REF_STRUCT_NEST, REF_STRUCT_OBJ };
enum { REF_EVENT_CONTROL, REF_EVENT_NEST, REF_EVENT_OBJ };

static const evrec_enum_value_t ref_obj_number_values[] = {{1, "Special", EVREC_MARKER_UP}};
static const evrec_enum_value_t ref_control_values[] = {EVREC_CONTROL_ENUM_VALUES};
static const evrec_enum_value_t ref_obj_event_type_values[] = {{0, "Lock", EVREC_MARKER_UP},
                                                               {1, "Unlock", EVREC_MARKER_DOWN}};

static const evrec_field_desc_t ref_control_fields[] = {EVREC_CONTROL_FIELDS(REF_ENUM_CONTROL)};
static const evrec_field_desc_t ref_inner_fields[] = {{"a", EVREC_KIND_UINT8, 0, offsetof(inner_t, a)},
                                                      {"b", EVREC_KIND_UINT32, 0, offsetof(inner_t, b)}};
static const evrec_field_desc_t ref_nest_fields[] = {
    {"time", EVREC_KIND_UINT32, 0, offsetof(nest_event_t, time)},
    {"id", EVREC_KIND_UINT16, 0, offsetof(nest_event_t, id)},
    {"obj", EVREC_KIND_ENUM_UINT16, REF_ENUM_OBJ_NUMBER, offsetof(nest_event_t, obj)},
    {"inner", EVREC_KIND_STRUCT, REF_STRUCT_INNER, offsetof(nest_event_t, inner)}};
static const evrec_field_desc_t ref_obj_fields[] = {
    {"time", EVREC_KIND_UINT32, 0, offsetof(obj_event_t, time)},
    {"id", EVREC_KIND_UINT16, 0, offsetof(obj_event_t, id)},
    {"obj", EVREC_KIND_ENUM_UINT16, REF_ENUM_OBJ_NUMBER, offsetof(obj_event_t, obj)},
    {"type", EVREC_KIND_ENUM_UINT8, REF_ENUM_OBJ_EVENT_TYPE, offsetof(obj_event_t, type)}};

static const evrec_struct_desc_t ref_structs[] = {
    {"EventControl", 3, ref_control_fields, sizeof(evrec_control_event_t)},
    {"Inner", 2, ref_inner_fields, sizeof(inner_t)},
    {"NestEvent", 4, ref_nest_fields, sizeof(nest_event_t)},
    {"ObjEvent", 4, ref_obj_fields, sizeof(obj_event_t)}};

static const evrec_event_desc_t ref_events[] = {
    {REF_STRUCT_CONTROL, REF_EVENT_CONTROL}, {REF_STRUCT_NEST, REF_EVENT_OBJ}, {REF_STRUCT_OBJ, REF_EVENT_OBJ}};

/* Builds the enum table around a caller-provided run-time enum (ObjNumber, base 10, Push). */
#define REF_ENUMS(runtime_ptr)                                                                                    \
    {                                                                                                             \
        {"ObjNumber", EVREC_KIND_ENUM_UINT16, 1, ref_obj_number_values, (runtime_ptr)},                           \
            {"EventControlType", EVREC_KIND_ENUM_UINT8, 4, ref_control_values, NULL},                             \
        {                                                                                                         \
            "ObjEventType", EVREC_KIND_ENUM_UINT8, 2, ref_obj_event_type_values, NULL                             \
        }                                                                                                         \
    }

#endif
