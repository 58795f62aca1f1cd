/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the stream tests: a growing capture of drained frames, and a receiver sink that checks
 * every probe record it is given (FORMAT.md section 8). */
#ifndef EVREC_TEST_STREAM_HARNESS_H
#define EVREC_TEST_STREAM_HARNESS_H

#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_stream_rx.h"
#include "probe_meta.h"

typedef struct capture {
    uint8_t *data;
    size_t len, cap;
    size_t frames;
} capture_t;

static inline void capture_put(capture_t *c, const void *p, size_t n)
{
    if (c->len + n > c->cap) {
        c->cap = (c->len + n) * 2u + 4096u;
        c->data = realloc(c->data, c->cap);
    }
    memcpy(c->data + c->len, p, n);
    c->len += n;
}

static inline uint32_t t_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t t_be64(const uint8_t *p)
{
    return (uint64_t)t_be32(p) << 32 | t_be32(p + 4);
}

/* What a checking sink saw. */
typedef struct seen {
    uint64_t records, probes, bad, out_of_order, meta;
    int64_t last_seq;    /* -1: none yet */
    uint64_t t64_errors; /* records whose restored time is not `step` per record (time tests) */
    uint64_t time_step;  /* ticks between two records; 0: not checked */
    uint64_t t64_last;
    const uint8_t *recorded; /* when set: recorded[seq] is 1 for every probe the recorder took */
    uint8_t *got;            /* when set: got[seq] is set for every probe received */
    uint64_t seq_limit;      /* entries of recorded / got */
} seen_t;

/* Probe records carry (source, seq, check); seq must grow (no duplicate, nothing out of order). */
static inline int seen_records(void *ctx, unsigned lane, const uint8_t *d, size_t size, uint64_t count,
                               const uint8_t state[36])
{
    seen_t *s = (seen_t *)ctx;
    (void)lane;
    uint64_t t64 = t_be64(state + 8);
    uint32_t prev = t_be32(state + 32);
    uint64_t index = t_be64(state);
    size_t q = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint16_t id = (uint16_t)(d[q + 4] << 8 | d[q + 5]);
        uint32_t t32 = t_be32(d + q);
        uint32_t step = t32 - prev;
        if (index + i > 0) {
            t64 += step;
        }
        prev = t32;
        if (s->time_step && index + i > 0 && t64 != s->t64_last + s->time_step) {
            s->t64_errors++;
        }
        s->t64_last = t64;
        s->records++;
        if (id == PROBE_EVENT_PROBE) {
            uint16_t src = (uint16_t)(d[q + 6] << 8 | d[q + 7]);
            uint32_t seq = t_be32(d + q + 8), check = t_be32(d + q + 12);
            s->bad += check != probe_check(src, seq);
            s->out_of_order += (int64_t)seq <= s->last_seq;
            if (s->recorded && (seq >= s->seq_limit || !s->recorded[seq])) {
                s->bad++; /* shown, never recorded */
            }
            if (s->got && seq < s->seq_limit) {
                s->got[seq] = 1;
            }
            s->last_seq = seq;
            s->probes++;
            q += 16;
        } else if (id == PROBE_EVENT_CONTROL) {
            q += 7;
        } else {
            q += 64;
        }
    }
    s->bad += q != size;
    return 0;
}

static inline int seen_meta(void *ctx, const uint8_t *doc, size_t size)
{
    (void)doc;
    (void)size;
    ((seen_t *)ctx)->meta++;
    return 0;
}

static inline evrec_srx_sink_t seen_sink(seen_t *s)
{
    s->last_seq = -1;
    evrec_srx_sink_t k = {seen_meta, seen_records, NULL, s};
    return k;
}

#endif
