/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the streaming mode's ring (stream_ring.c), its drain (stream_drain.c) and the drain's
 * conversion plan (stream_plan.c); not installed. */
#ifndef EVREC_STREAM_INTERNAL_H
#define EVREC_STREAM_INTERNAL_H

#include <stddef.h>

#include "evrec/evrec_stream.h"
#include "save_internal.h" /* common/ */

/** Tag of a slot's `ready` word once its block is opened (stream_ring.c): the top bit. */
#define EVREC_STREAM_OPENED (((size_t)-1) / 2u + 1u)
/** The drop count kept beside the tag. */
#define EVREC_STREAM_DROP_MASK (EVREC_STREAM_OPENED - 1u)

#if EVREC_STREAM_PLAN_EVENTS > 0
/** The plan of the event types of `m` (stream_plan.c): the first ones whose runs fit. */
void evrec_stream_plan_build(evrec_stream_plan_t *pl, const evrec_meta_t *m);

/** The native record at `s`, of event `id` (< pl->events), packed big-endian at `d`: its time and
 * id, then its other fields by its runs; returns the end of the bytes written (the same bytes as
 * evrec_save_pack_record()). */
EVREC_NO_TSAN static inline uint8_t *evrec_stream_pack(const evrec_stream_plan_t *pl, uint16_t id, uint8_t *d,
                                                       const uint8_t *s)
{
    uint32_t t;
    __builtin_memcpy(&t, s, 4);
    evrec_put_be32(d, t);
    d[4] = (uint8_t)(id >> 8);
    d[5] = (uint8_t)id;
    d += 6;
    for (uint32_t r = pl->first[id], end = pl->first[id + 1u]; r < end; r++) {
        const uint8_t *p = s + pl->run[r][0];
        uint32_t k = (pl->run[r][1] & 63u) + 1u;
        switch (pl->run[r][1] >> 6) {
        case 2:
            do {
                uint32_t v;
                __builtin_memcpy(&v, p, 4);
                evrec_put_be32(d, v);
                p += 4;
                d += 4;
            } while (--k);
            break;
        case 1:
            do {
                uint16_t v;
                __builtin_memcpy(&v, p, 2);
                d[0] = (uint8_t)(v >> 8);
                d[1] = (uint8_t)v;
                p += 2;
                d += 2;
            } while (--k);
            break;
        default:
            while (k--) {
                *d++ = *p++;
            }
        }
    }
    return d;
}
#endif

#endif /* EVREC_STREAM_INTERNAL_H */
