/* SPDX-License-Identifier: Apache-2.0 */
/* Declarations shared by the trace buffer's source files (buffer/); not installed. */
#ifndef EVREC_RECORDER_INTERNAL_H
#define EVREC_RECORDER_INTERNAL_H

#include "evrec/evrec_recorder.h"
#include "meta_internal.h" /* common/ */
#include "evrec/evrec_atomic.h"
#include "evrec/evrec_save.h"

/** Start of a recording in rec's buffer (evrec_host_start(), evrec_lanes_start()): places the
 * meta-info blob of evrec_recorder_keep_meta() right after the header, the record area after it;
 * returns what keep_meta returns (EVREC_OK without one). */
static inline evrec_status evrec_buf_begin(evrec_recorder_t *rec, const evrec_meta_t *meta, uint64_t time_freq)
{
    /* The meta-info blob (evrec_recorder_keep_meta()) goes right after the header; the record area
     * follows it. */
    evrec_buf_header_t *h = rec->hdr;
    h->records_offset = EVREC_BUF_HEADER_SIZE;
    h->meta_offset = 0;
    h->meta_size = 0;
    h->flags &= ~(uint32_t)(EVREC_BUF_META | EVREC_BUF_LANES);
    return rec->keep_meta ? rec->keep_meta(rec, meta, time_freq) : EVREC_OK;
}

/** The recorder attached to `host`, with acquire order (on a uniprocessor port a relaxed load and
 * a compiler barrier: evrec/evrec_atomic.h, EVREC_PORT_UNIPROCESSOR). */
static inline evrec_recorder_t *evrec_host_rec_acquire(const evrec_host_t *host)
{
#if EVREC_UP_ORDER
    evrec_recorder_t *rec = __atomic_load_n(&host->rec, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_ACQUIRE);
    return rec;
#else
    return __atomic_load_n(&host->rec, __ATOMIC_ACQUIRE);
#endif
}

/** Stores an EventControl record of `type` at `slot` and commits it. */
void evrec_write_control(uint8_t *slot, uint32_t time, uint8_t type);

/** The cyclic ring's code (cyclic.c), reached only through evrec_recorder_t::cyclic so that it is
 * linked only into programs that call evrec_recorder_init_cyclic(). */
struct evrec_cyclic_ops {
    /** Part of evrec_host_start(): lays out the block headers, opens block 0 with Start.
     * @return the first free position. */
    size_t (*start)(evrec_host_t *host, evrec_recorder_t *rec, uint32_t start_time);
    /** Part of evrec_host_stop(): `end` is the position when allocation closed. Waits for
     * records in flight, writes Stop (in the next block if it does not fit), fills the counts. */
    void (*stop)(evrec_host_t *host, evrec_recorder_t *rec, size_t end, uint32_t stop_time);
    /** evrec_reserve_cyclic_switch(). */
    size_t (*reserve_switch)(evrec_host_t *host, size_t cur, size_t len);
    /** Part of evrec_recorder_recover(): finishes a ring a previous run left (counts, end);
     * `base` is the buffer's offset in the image (for the skipped slots' offsets). */
    void (*recover)(evrec_recorder_t *rec, const evrec_meta_t *meta, uint64_t base, evrec_recover_report_t *rep);
    /** Number of committed records in the block at `block` (its header), walking ids from the
     * header to `end` (offset in the block); stops at the first uncommitted or unknown slot.
     * `*stop_at` receives the offset where the walk stopped. */
    size_t (*walk)(const evrec_meta_t *meta, const uint8_t *block, size_t end, size_t *stop_at);
};

/** Header of the block slot that holds virtual position `pos`. */
static inline evrec_block_header_t *evrec_block_at(uint8_t *buf, size_t ring_mask, size_t block_mask, size_t pos)
{
    return (evrec_block_header_t *)(void *)(buf + (pos & ring_mask & ~block_mask));
}

/** A block's `seq` stamp: its number in bits 0..23, in bits 24..31 how many block numbers back
 * the block it followed is (the block its opener closed; 0 for the first block). */
#define EVREC_SEQ_NUMBER_MASK 0x00FFFFFFu
#define EVREC_SEQ_UNSTAMPED 0xFFFFFFFFu

/** Block numbers of a cyclic ring run modulo this (a power of two, a multiple of the block
 * count). The allocation word `pos` of a cyclic ring is count * C + virtual position, where the
 * virtual position (block number * block_size + offset) is at most M = modulus << block_shift
 * (M itself when the last block number is filled to its end), C = 2 * M (a guard bit, so that
 * position M does not carry into the count), and the count (records allocated in the current
 * block, below block_size / 8 < 2^(shift - 3)) sits in the bits above, below EVREC_POS_CLOSED: so
 * positions never reach it, and a number fits the 24 bits of a stamp. On a 32-bit target that
 * leaves 33 - 2 * shift bits for the block number. */
static inline size_t evrec_block_modulus(unsigned block_shift)
{
    unsigned bits = (unsigned)(sizeof(size_t) * 8u - 2u); /* below EVREC_POS_CLOSED, guard bit */
    unsigned count_bits = block_shift - 3u;
    unsigned nb = bits > count_bits + block_shift ? bits - count_bits - block_shift : 0u;
    size_t mod = nb >= 24u ? (size_t)EVREC_SEQ_NUMBER_MASK + 1u : (size_t)1 << nb;
#ifdef EVREC_TEST_BLOCK_NUMBERS
    /* a test build (tests/stream) that wraps the numbering after a few laps of the ring */
    mod = mod > (size_t)EVREC_TEST_BLOCK_NUMBERS ? (size_t)EVREC_TEST_BLOCK_NUMBERS : mod;
#endif
    return mod;
}

/** 1 in the count bits of a cyclic `pos`. */
static inline size_t evrec_count_one(unsigned block_shift)
{
    return evrec_block_modulus(block_shift) << (block_shift + 1u);
}

static inline uint32_t evrec_closed_word(size_t used, size_t count)
{
    return (uint32_t)used | (uint32_t)count << EVREC_CLOSED_COUNT_SHIFT;
}

/** The buffer header of a recorder. */
static inline evrec_buf_header_t *evrec_hdr(const evrec_recorder_t *rec)
{
    return rec->hdr;
}

/** The record area of a recorder. */
static inline uint8_t *evrec_records(const evrec_recorder_t *rec)
{
    return (uint8_t *)rec->hdr + rec->hdr->records_offset;
}

/** Bytes of each lane's sub-buffer of a buffer split into lanes (EVREC_BUF_LANES). */
static inline size_t evrec_lane_stride(const evrec_buf_header_t *h)
{
    return h->lanes ? (size_t)h->records_size / h->lanes : 0;
}

/** Header of lane k's sub-buffer of a buffer split into lanes. */
static inline evrec_buf_header_t *evrec_lane_hdr(const evrec_buf_header_t *h, uint32_t k)
{
    return (evrec_buf_header_t *)(void *)((uint8_t *)(uintptr_t)h + h->records_offset + k * evrec_lane_stride(h));
}

/** Recovery of the records in [q, end) of `area` (one-shot area or cyclic block; q, end 4-aligned):
 * the committed records are moved to the front, back to back, past every slot reserved and never
 * committed (skipped, noted in `rep` with its offset `base + offset in area`); the rest up to
 * `end` is filled with 0xFF. Adds the records kept to *count; returns where they end. */
size_t evrec_recover_run(const evrec_meta_t *meta, uint8_t *area, size_t q, size_t end, uint64_t base,
                         evrec_recover_report_t *rep, uint64_t *count);

/** Notes a skipped slot at `offset` (bytes from the image's start) in `rep`. */
void evrec_recover_note_skip(evrec_recover_report_t *rep, uint64_t offset);

/** Validates a header against this target (magic, version) and `size`: 0 when usable. */
int evrec_hdr_check(const evrec_buf_header_t *h, size_t size);

/** log2 of a power of two. */
static inline unsigned evrec_log2(size_t v)
{
    unsigned s = 0;
    while (((size_t)1 << s) < v) {
        s++;
    }
    return s;
}

static inline uint32_t evrec_seq_stamp(size_t block, size_t back)
{
    return (uint32_t)block | (uint32_t)back << 24;
}
static inline int evrec_seq_is(uint32_t seq, size_t block)
{
    return seq != EVREC_SEQ_UNSTAMPED && (seq & EVREC_SEQ_NUMBER_MASK) == (uint32_t)block;
}

/* ---- the save of a recorder (save_recorder.c, save_lanes.c) ---- */

/** A cyclic ring as a save reads it. */
typedef struct evrec_ring_view {
    size_t newest;  /* block number holding the last allocation */
    size_t fill;    /* bytes allocated in `newest` (its offset of the first free byte) */
    size_t modulus; /* block numbers run modulo this */
    int concurrent; /* recording goes on: check every block after reading it */
} evrec_ring_view_t;

/** The slot of block number `b` in rec's ring. */
static inline const uint8_t *evrec_ring_block(const evrec_recorder_t *rec, size_t b)
{
    const evrec_buf_header_t *bh = rec->hdr;
    return (const uint8_t *)evrec_block_at((uint8_t *)evrec_records(rec), bh->records_size - 1u,
                                           bh->block_size - 1u, b * bh->block_size);
}

/** Whether the slot of block `b` holds block `b` (not an older or newer one). */
static inline int evrec_ring_block_same(const evrec_recorder_t *rec, size_t b)
{
    const evrec_block_header_t *h = (const evrec_block_header_t *)(const void *)evrec_ring_block(rec, b);
    return evrec_atomic_load_acquire(&h->ready) == b &&
           evrec_seq_is(__atomic_load_n(&h->seq, __ATOMIC_ACQUIRE), b);
}

/** Extent of block `b` in the track model: 0 when the slot no longer (or not yet) holds it. */
static inline size_t evrec_ring_block_end(const evrec_recorder_t *rec, const evrec_ring_view_t *v, size_t b)
{
    const evrec_block_header_t *h = (const evrec_block_header_t *)(const void *)evrec_ring_block(rec, b);
    if (evrec_atomic_load_acquire(&h->ready) != b ||
        !evrec_seq_is(__atomic_load_n(&h->seq, __ATOMIC_ACQUIRE), b)) {
        return 0;
    }
    uint32_t used = __atomic_load_n(&h->closed, __ATOMIC_ACQUIRE) & EVREC_CLOSED_USED_MASK;
    if (b == v->newest) {
        return used ? used : v->fill;
    }
    return used ? used : rec->hdr->block_size; /* closing in flight: the walk stops at 0xFFFF ids */
}

/** The recording's id for SEQ and TAIL chunks (evrec_save_source_t::file_id); `ctx` is a struct
 * whose first member is the `const evrec_recorder_t *` saved. */
uint32_t evrec_save_file_id(const void *ctx, const uint8_t *header);

/** The save of a recorder split into lanes (save_lanes.c); `schema_hash` for the header. */
evrec_status evrec_save_lanes(const evrec_recorder_t *rec, const evrec_sink_t *sink, int container,
                              uint64_t schema_hash);

/** Records the save of a stopped recorder split into lanes writes (save_lanes.c): the lanes'
 * records less the copies it merges (one Start, one Stop, each Tick of evrec_lanes_tick() once;
 * FORMAT.md section 2.3); UINT64_MAX when save would refuse it (more lanes than EVREC_SAVE_LANES,
 * or a build with EVREC_SAVE_LANES 0). No heap; about 140 bytes of stack per lane of
 * EVREC_SAVE_LANES. */
uint64_t evrec_lanes_file_records(const evrec_recorder_t *rec);

#endif
