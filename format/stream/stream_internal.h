/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the stream receiver's files (format/stream/); not installed. */
#ifndef EVREC_STREAM_RX_INTERNAL_H
#define EVREC_STREAM_RX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_stream_rx.h"

/** Damaged input ranges a receiver lists (the first ones; all are counted). */
#define SRX_DAMAGE_LIST 16u

/** The receiver (evrec_stream_rx.h). */
struct evrec_srx {
    evrec_srx_sink_t sink;
    uint8_t *buf; /* input not consumed yet: buf[0] is input offset `base` */
    size_t len, cap;
    uint64_t base;
    uint64_t dmg_from; /* start of the damaged range being passed over; SRX_NONE: none */
    evrec_status failed;
    evrec_srx_stats_t st;
    uint8_t *doc; /* the meta document being assembled, then the one in use */
    uint32_t doc_crc, doc_size, doc_filled;
    uint32_t *save_len;             /* 65536 packed sizes, once the document is in use */
    uint32_t prev_crc, prev_run;    /* S_PREV_BOOT: the file's CRC-32C, and that of the bytes handed out */
    evrec_srx_prev_boot_fn prev_fn; /* where its pieces go; NULL: counted only */
    void *prev_ctx;
    uint64_t next[EVREC_SRX_LANES];        /* each lane's next expected sequence number */
    uint64_t dmg_list[SRX_DAMAGE_LIST][2]; /* the first damaged ranges: offset, bytes */
};

#define SRX_NONE UINT64_MAX

/** Bytes of the LOSSES chunk payload a receiver makes (stream_losses.c): 16 lanes, 16 ranges. */
#define SRX_LOSSES_SIZE                                                                                           \
    (EVREC_LOSSES_HEAD + EVREC_SRX_LANES * EVREC_LOSSES_LANE + SRX_DAMAGE_LIST * EVREC_LOSSES_RANGE)

/** The LOSSES chunk payload (FORMAT.md section 8.4) of a receiver's counts so far, less those of
 * `base` (an earlier evrec_srx_stats() copy; NULL: none); rx NULL: all zero (the chunk a file
 * starts with). `flags`: EVREC_LOSSES_FINAL or 0; ENDED is added here. */
void evrec_srx_losses(const struct evrec_srx *rx, const evrec_srx_stats_t *base, uint32_t flags,
                      uint8_t out[SRX_LOSSES_SIZE]);

/** Handles one intact frame (stream_rx.c): its type, payload and length. */
void evrec_srx_frame(struct evrec_srx *rx, unsigned type, const uint8_t *p, size_t len);

static inline uint32_t srx_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t srx_be64(const uint8_t *p)
{
    return (uint64_t)srx_be32(p) << 32 | srx_be32(p + 4);
}

static inline void srx_put32(uint8_t *d, uint32_t v)
{
    d[0] = (uint8_t)(v >> 24);
    d[1] = (uint8_t)(v >> 16);
    d[2] = (uint8_t)(v >> 8);
    d[3] = (uint8_t)v;
}

static inline void srx_put64(uint8_t *d, uint64_t v)
{
    srx_put32(d, (uint32_t)(v >> 32));
    srx_put32(d + 4, (uint32_t)v);
}

/** FORMAT.md section 5's rule on a SYNC payload (section 2.2): the state after a record whose
 * time field is t32 and which is (or is not) an EventControl Tick. */
static inline void srx_time_step(uint8_t state[36], uint32_t t32, int tick)
{
    uint64_t index = srx_be64(state), t64 = srx_be64(state + 8), t64_max = srx_be64(state + 16);
    uint32_t step = t32 - srx_be32(state + 32);
    if (step >= 0xC0000000u) {
        uint64_t back = 0x100000000ull - step;
        t64 = t64 > back ? t64 - back : 0;
    } else if (index) {
        t64 += step;
    }
    srx_put64(state, index + 1u);
    srx_put64(state + 8, t64);
    srx_put64(state + 16, t64 > t64_max ? t64 : t64_max);
    srx_put64(state + 24, srx_be64(state + 24) + (tick ? 1u : 0u));
    srx_put32(state + 32, t32);
}

#endif /* EVREC_STREAM_RX_INTERNAL_H */
