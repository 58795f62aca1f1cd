/* SPDX-License-Identifier: Apache-2.0 */
/* What the instruction counts of the QS and SyS-T encode paths share (tests/qs/m4/qs_insn.c,
 * tests/syst_enc/m4/syst_insn.c): the 3-field event (u8, u16, u32) and its meta-info, the
 * insn_mark() the counter brackets loops with, and a PRIMASK lock. */
#ifndef EVREC_INSN_SENSOR_H
#define EVREC_INSN_SENSOR_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_meta.h"

#ifndef QS_INSN_N
#define QS_INSN_N 64
#endif

typedef struct sensor_event {
    uint32_t time;
    uint16_t id;
    uint8_t ch;
    uint8_t pad;
    uint16_t raw;
    uint16_t pad2;
    uint32_t value;
} sensor_event_t;

static const evrec_field_desc_t sensor_fields[] = {
    {"time", EVREC_KIND_UINT32, 0, 0},
    {"id", EVREC_KIND_UINT16, 0, 4},
    {"ch", EVREC_KIND_UINT8, 0, offsetof(sensor_event_t, ch)},
    {"raw", EVREC_KIND_UINT16, 0, offsetof(sensor_event_t, raw)},
    {"value", EVREC_KIND_UINT32, 0, offsetof(sensor_event_t, value)},
};
static const evrec_enum_desc_t enums[] = {
    {"EventControlType", EVREC_KIND_ENUM_UINT8, 4, evrec_control_enum_values, NULL},
};
static const evrec_struct_desc_t structs[] = {
    {"EventControl", 3, evrec_control_fields_enum0, sizeof(evrec_control_event_t)},
    {"Sensor", 5, sensor_fields, sizeof(sensor_event_t)},
};
static const evrec_event_desc_t events[] = {{0, 0}, {1, 1}};
static const evrec_meta_t meta = {0, 1, enums, 2, structs, 2, events, 0, NULL, NULL};

void insn_mark(void) __attribute__((noinline));
void insn_mark(void)
{
    __asm__ volatile("" ::: "memory");
}

static uint32_t irq_save(void *ctx)
{
    (void)ctx;
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n cpsid i" : "=r"(primask)::"memory");
    return primask;
}

static void irq_restore(void *ctx, uint32_t primask)
{
    (void)ctx;
    __asm__ volatile("msr primask, %0" ::"r"(primask) : "memory");
}

#endif /* EVREC_INSN_SENSOR_H */
