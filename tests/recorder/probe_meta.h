/* SPDX-License-Identifier: Apache-2.0 */
/* A test event type whose records check themselves: `check` is a function of (source, seq). */
#ifndef EVREC_TEST_PROBE_META_H
#define EVREC_TEST_PROBE_META_H

#include <stddef.h>

#include "evrec/evrec_meta.h"
#include "evrec/evrec_recorder.h"

typedef struct probe_event {
    uint32_t time;
    uint16_t id;
    uint16_t source;
    uint32_t seq;
    uint32_t check;
} probe_event_t;
typedef struct big_event {
    uint32_t time;
    uint16_t id;
    uint16_t pad;
    uint32_t words[14];
} big_event_t; /* 64 bytes */

enum { PROBE_EVENT_CONTROL, PROBE_EVENT_PROBE, PROBE_EVENT_BIG };

static const evrec_enum_value_t probe_control_values[] = {EVREC_CONTROL_ENUM_VALUES};
static const evrec_enum_desc_t probe_enums[] = {
    {"EventControlType", EVREC_KIND_ENUM_UINT8, 4, probe_control_values, NULL}};
static const evrec_field_desc_t probe_control_fields[] = {EVREC_CONTROL_FIELDS(0)};
static const evrec_field_desc_t probe_fields[] = {
    {"time", EVREC_KIND_UINT32, 0, 0},
    {"id", EVREC_KIND_UINT16, 0, 4},
    {"source", EVREC_KIND_UINT16, 0, offsetof(probe_event_t, source)},
    {"seq", EVREC_KIND_UINT32, 0, offsetof(probe_event_t, seq)},
    {"check", EVREC_KIND_UINT32, 0, offsetof(probe_event_t, check)}};
static const evrec_field_desc_t big_fields[] = {{"time", EVREC_KIND_UINT32, 0, 0},
                                                {"id", EVREC_KIND_UINT16, 0, 4},
                                                {"pad", EVREC_KIND_UINT16, 0, 6},
                                                {"w0", EVREC_KIND_UINT32, 0, 8}};
static const evrec_struct_desc_t probe_structs[] = {{"EventControl", 3, probe_control_fields, 8},
                                                    {"Probe", 5, probe_fields, sizeof(probe_event_t)},
                                                    {"Big", 4, big_fields, sizeof(big_event_t)}};
static const evrec_event_desc_t probe_events[] = {{0, 0}, {1, 1}, {2, 2}};
static const evrec_meta_t probe_meta = {0, 1, probe_enums, 3, probe_structs, 3, probe_events, 0, NULL, NULL};

static inline uint32_t probe_check(uint16_t source, uint32_t seq)
{
    uint32_t x = seq * 2654435761u ^ ((uint32_t)source << 16) ^ 0xA5A5A5A5u;
    return x ^ (x >> 15);
}

/* The generated-code shape: reserve, store fields, commit. Returns 1 if recorded. */
static inline int probe_record(evrec_host_t *host, uint16_t source, uint32_t seq)
{
    probe_event_t *e = (probe_event_t *)evrec_reserve(host, sizeof(probe_event_t));
    if (!e) return 0;
    e->source = source;
    e->seq = seq;
    e->check = probe_check(source, seq);
    evrec_commit(e, PROBE_EVENT_PROBE);
    return 1;
}

/* Walks a stopped recorder's buffer. Calls fn for each probe record; returns the record count,
 * or -1 (with *why) if the buffer is not a clean Start .. Stop sequence of intact records. */
typedef void (*probe_fn)(const probe_event_t *e, void *ctx);
static inline long probe_walk(const evrec_recorder_t *rec, probe_fn fn, void *ctx, const char **why)
{
    size_t q = 0;
    long n = 0;
    while (q < evrec_recorder_counts(rec).used) {
        const evrec_record_header_t *h =
            (const evrec_record_header_t *)(const void *)(evrec_recorder_records(rec) + q);
        size_t len;
        if (h->id == PROBE_EVENT_CONTROL) {
            const evrec_control_event_t *c = (const evrec_control_event_t *)(const void *)h;
            int want = q == 0
                           ? EVREC_CONTROL_START
                           : (q + 8 == evrec_recorder_counts(rec).used ? EVREC_CONTROL_STOP : EVREC_CONTROL_TICK);
            if (c->type != want) {
                *why = "control record of the wrong type at its position";
                return -1;
            }
            len = 8;
        } else if (h->id == PROBE_EVENT_PROBE) {
            const probe_event_t *p = (const probe_event_t *)(const void *)h;
            if (p->check != probe_check(p->source, p->seq)) {
                *why = "probe record damaged";
                return -1;
            }
            if (fn) fn(p, ctx);
            len = sizeof(probe_event_t);
        } else if (h->id == PROBE_EVENT_BIG) {
            len = sizeof(big_event_t);
        } else {
            *why = "unknown id in the buffer (uncommitted or overwritten slot)";
            return -1;
        }
        q += len;
        n++;
    }
    if (q != evrec_recorder_counts(rec).used) {
        *why = "walk overran the used size";
        return -1;
    }
    return n;
}

#endif
