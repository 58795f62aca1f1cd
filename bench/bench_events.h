/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file bench_events.h
 * @brief The one event type the benchmark records, in the shape `evrec-gen` emits: a native
 * struct with three fields (u32, u16, u8), its meta-info and an inline record function
 * (evrec_reserve() -> three stores -> evrec_commit()).
 */
#ifndef BENCH_EVENTS_H
#define BENCH_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_meta.h"
#include "evrec/evrec_recorder.h"

/** Event id of BenchEvent (0 is EventControl). */
#define BENCH_EVENT_ID 1u

/** @brief BenchEvent: 16 bytes native (one slot), 13 bytes saved. */
typedef struct bench_event {
    uint32_t time;
    uint16_t id;
    uint16_t b;
    uint32_t a;
    uint8_t c;
} bench_event_t;

_Static_assert(offsetof(bench_event_t, time) == 0 && offsetof(bench_event_t, id) == 4,
               "BenchEvent starts with time and id");
_Static_assert(sizeof(bench_event_t) == 16, "BenchEvent is one 16-byte slot");

/** @brief Meta-info: EventControl (event 0) and BenchEvent (event 1). Static const tables. */
extern const evrec_meta_t bench_meta;

/**
 * @brief Record BenchEvent through the inline path.
 * **Context:** any thread or signal handler; lock-free.
 */
static inline void bench_record(evrec_host_t *host, uint32_t a, uint16_t b, uint8_t c)
{
    bench_event_t *e = (bench_event_t *)evrec_reserve(host, sizeof(bench_event_t));
    if (e) {
        e->a = a;
        e->b = b;
        e->c = c;
        evrec_commit(e, BENCH_EVENT_ID);
    }
}

#endif /* BENCH_EVENTS_H */
