/* SPDX-License-Identifier: Apache-2.0 */
/* Meta-info of the benchmark's event (see bench_events.h). */
#include "bench_events.h"

static const evrec_enum_desc_t enums[] = {
    {"EventControlType", EVREC_KIND_ENUM_UINT8, 4, evrec_control_enum_values, NULL},
};

#define F(name, kind)                                                                                             \
    {                                                                                                             \
#name, (kind), 0, (uint16_t)offsetof(bench_event_t, name)                                                 \
    }
static const evrec_field_desc_t bench_fields[] = {
    F(time, EVREC_KIND_UINT32), F(id, EVREC_KIND_UINT16), F(a, EVREC_KIND_UINT32),
    F(b, EVREC_KIND_UINT16),    F(c, EVREC_KIND_UINT8),
};

static const evrec_struct_desc_t structs[] = {
    {"EventControl", 3, evrec_control_fields_enum0, (uint16_t)sizeof(evrec_control_event_t)},
    {"BenchEvent", 5, bench_fields, (uint16_t)sizeof(bench_event_t)},
};

static const evrec_event_desc_t events[] = {{0, 0}, {1, 1}};

const evrec_meta_t bench_meta = {
    .time_freq = 0,
    .enum_count = 1,
    .enums = enums,
    .struct_count = 2,
    .structs = structs,
    .event_count = 2,
    .events = events,
    .schema_hash = 0,
};
