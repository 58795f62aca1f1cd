/* SPDX-License-Identifier: Apache-2.0 */
/* Declarations shared by the recorder's source files; not installed. */
#ifndef EVREC_RECORDER_INTERNAL_H
#define EVREC_RECORDER_INTERNAL_H

#include "evrec/evrec_recorder.h"

/** Native slot size of event `id`, 0 if the meta-info has no such event. */
static inline size_t evrec_slot_size_of(const evrec_meta_t *meta, uint16_t id)
{
    if (id >= meta->event_count) {
        return 0;
    }
    uint16_t sid = meta->events[id].struct_id;
    return sid < meta->struct_count ? meta->structs[sid].native_size : 0;
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
 * count): positions stay below EVREC_POS_CLOSED / 2 and a number fits the 24 bits of a stamp. */
static inline size_t evrec_block_modulus(unsigned block_shift)
{
    size_t m = (EVREC_POS_CLOSED / 2u) >> block_shift;
    return m < EVREC_SEQ_NUMBER_MASK + 1u ? m : EVREC_SEQ_NUMBER_MASK + 1u;
}

static inline uint32_t evrec_seq_stamp(size_t block, size_t back)
{
    return (uint32_t)block | (uint32_t)back << 24;
}
static inline int evrec_seq_is(uint32_t seq, size_t block)
{
    return seq != EVREC_SEQ_UNSTAMPED && (seq & EVREC_SEQ_NUMBER_MASK) == (uint32_t)block;
}

#endif
