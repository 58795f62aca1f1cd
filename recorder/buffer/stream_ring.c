/* SPDX-License-Identifier: Apache-2.0 */
/* Streaming mode's ring (evrec_stream_init(), evrec/evrec_stream.h): the cyclic ring's layout
 * (cyclic.c), its own record path and block switch: block b's slot is reused for block b + n (n
 * blocks) only after the drain (stream_drain.c) has sent its records and cleared it. A switch
 * that finds the next slot not given back drops the event (drop-newest) and counts it.
 *
 * The record path (evrec_reserve(), host->block_mask == EVREC_STREAM_BLOCK_MASK): `pos` is the
 * virtual position (block number << shift | offset, no record count above it), host->cap the end
 * of the block `pos` is in; a record is allocated with one compare-and-swap of `pos` when it fits
 * below cap, so no allocation ever goes past a block's end and a failed one leaves nothing to undo
 * (a fetch-and-add would: the slots of failed allocations would be holes the drain could not tell
 * from records not yet written). Everything else is stream_switch(), out of line.
 *
 * A slot's `ready` word, in streaming mode:
 *  - the block number the slot is free for (the drain stores it, release, after clearing the
 *    slot; the start stores the first lap's numbers);
 *  - once the block is opened, STREAM_OPENED | the recorder's drop count (masked) as the opener
 *    read it just after opening: the drain takes the drops between two blocks from these.
 * Neither value is ever mistaken for the other (the tag bit), so a context that read `pos` before
 * a block was opened and then sees its slot taken goes back to `pos` instead of dropping. */
#include "evrec/evrec_stream.h"
#include "recorder_internal.h"
#include "stream_internal.h"

#ifndef EVREC_TEST_PAUSE
#define EVREC_TEST_PAUSE(where) ((void)0)
#endif

static evrec_block_header_t *slot_of(const evrec_host_t *h, size_t b)
{
    return (evrec_block_header_t *)(void *)(h->buf + ((b << h->block_shift) & h->ring_mask));
}

/* The opener of `next` (its slot `nh`) marks it opened with the drops so far, closes `full` (the
 * first `fill` bytes of its slot used) and stamps `next` (the seq stamp last, with release: the
 * drain reads `ready` after seeing the stamp). `nmask`: block numbers run modulo nmask + 1. */
static EVREC_ALWAYS_INLINE void open_block(const evrec_host_t *h, size_t full, size_t fill, size_t next,
                                           evrec_block_header_t *nh, size_t nmask)
{
    const evrec_recorder_t *rec = evrec_host_rec_acquire(h);
    size_t drops = rec ? evrec_atomic_load(&rec->hdr->dropped) : 0;
    evrec_atomic_store(&nh->ready, EVREC_STREAM_OPENED | (drops & EVREC_STREAM_DROP_MASK));
    EVREC_STORE_RELEASE(&slot_of(h, full)->closed, evrec_closed_word(fill, 0));
    EVREC_STORE_RELEASE(&nh->seq, evrec_seq_stamp(next, (next - full) & nmask));
}

/* Out-of-line part of evrec_reserve() in streaming mode: the record does not fit below the
 * limit, or its compare-and-swap failed (`cur`: the allocation word it last read). Allocates in
 * the block `pos` is in (the limit may lag behind `pos` while the context that moved it is
 * preempted: the block's end is computed here), else opens the next block if the drain has given
 * its slot back, else drops the event (drop-newest, counted). Positions: block b spans
 * (b << shift) .. ((b + 1) << shift), its records start after its header; `pos` = the end of b
 * means b is full. The limit is published with a compare-and-swap from the value read before
 * `pos` moved on: a context that opened an older block and stores late finds it changed and
 * leaves it, so the limit never lies beyond the end of the block being filled. */
static size_t stream_switch(evrec_host_t *h, size_t cur, size_t len)
{
    unsigned shift = h->block_shift;
    size_t nmask = h->count_one; /* streaming: block numbers - 1 */
    for (;;) {
        if (cur >= EVREC_POS_CLOSED) {
            return EVREC_POS_CLOSED;
        }
        size_t full = (cur - 1u) >> shift;
        if (cur + len <= (full + 1u) << shift) {
            if (evrec_atomic_cas(&h->pos, &cur, cur + len)) {
                return cur;
            }
            continue;
        }
        size_t next = (full + 1u) & nmask;
        evrec_block_header_t *nh = slot_of(h, next);
        if (evrec_atomic_load_acquire(&nh->ready) != next) {
            size_t again = evrec_atomic_load(&h->pos);
            if (again != cur) {
                cur = again; /* another context opened it meanwhile */
                continue;
            }
            evrec_reserve_failed(h, cur); /* the drain is behind: drop the newest, counted */
            return EVREC_POS_CLOSED;
        }
        size_t cap = EVREC_LOAD_RELAXED(&h->cap);
        if (next == 0) {
            /* The numbering wraps: every old limit lies beyond block 0's positions. 0 sends every
             * record here until the new one is published. */
            cap = 0;
            EVREC_STORE_RELAXED(&h->cap, cap);
        }
        size_t start = (next << shift) + EVREC_BLOCK_HEADER;
        if (!evrec_atomic_cas(&h->pos, &cur, start + len)) {
            continue;
        }
        open_block(h, full, cur - (full << shift), next, nh, nmask);
        EVREC_TEST_PAUSE(3); /* `pos` in `next`, its limit not published yet */
        (void)evrec_atomic_cas((evrec_atomic_size_t *)(void *)&h->cap, &cap, (next + 1u) << shift);
        return start;
    }
}

static size_t stream_start(evrec_host_t *host, evrec_recorder_t *rec, uint32_t start_time)
{
    evrec_buf_header_t *bh = rec->hdr;
    size_t n = bh->block_count, bsize = bh->block_size;
    uint8_t *records = evrec_records(rec);
    for (size_t s = 0; s < n; s++) {
        evrec_block_header_t *hdr = (evrec_block_header_t *)(void *)(records + s * bsize);
        hdr->closed = 0;
        evrec_atomic_store(&hdr->ready, s);
    }
    evrec_block_header_t *h0 = (evrec_block_header_t *)(void *)records;
    evrec_atomic_store(&h0->ready, EVREC_STREAM_OPENED); /* opened, no drops before it */
    h0->seq = evrec_seq_stamp(0, 0);
    evrec_write_control(records + EVREC_BLOCK_HEADER, start_time, EVREC_CONTROL_START);
    EVREC_STORE_RELAXED(&host->block_mask, EVREC_STREAM_BLOCK_MASK);
    EVREC_STORE_RELAXED(&host->ring_mask, n * bsize - 1u);
    EVREC_STORE_RELAXED(&host->block_shift, evrec_log2(bsize));
    /* count_one: block numbers - 1; cap: the end of block 0; pos: after Start */
    EVREC_STORE_RELAXED(&host->count_one, evrec_block_modulus(evrec_log2(bsize)) - 1u);
    EVREC_STORE_RELAXED(&host->cap, bsize);
    return EVREC_BLOCK_HEADER + EVREC_CONTROL_SLOT;
}

/* Stop goes after the last allocation, or opens the next block when it does not fit and the
 * drain has given that slot back; otherwise it is dropped (counted). The last block is closed, so
 * the drain knows where the stream ends (end_pos). Records still being written are not waited
 * for: the drain sends them once committed. */
static void stream_stop(evrec_host_t *h, evrec_recorder_t *rec, size_t end, uint32_t stop_time)
{
    evrec_buf_header_t *bh = rec->hdr;
    size_t bsize = (size_t)1 << h->block_shift;
    size_t nmask = h->count_one;
    size_t cur = (end - 1u) >> h->block_shift;
    size_t fill = end - (cur << h->block_shift);
    size_t pos = end;
    if (fill + EVREC_CONTROL_SLOT > bsize) {
        size_t next = (cur + 1u) & nmask;
        evrec_block_header_t *nh = slot_of(h, next);
        if (evrec_atomic_load_acquire(&nh->ready) != next) {
            evrec_atomic_fetch_add(&bh->dropped, 1); /* no room for Stop */
            __atomic_store_n(&slot_of(h, cur)->closed, evrec_closed_word(fill, 0), __ATOMIC_RELEASE);
            bh->end_pos = end;
            return;
        }
        open_block(h, cur, fill, next, nh, nmask);
        pos = (next << h->block_shift) + EVREC_BLOCK_HEADER;
    }
    evrec_write_control(h->buf + (pos & h->ring_mask), stop_time, EVREC_CONTROL_STOP);
    pos += EVREC_CONTROL_SLOT;
    size_t last = (pos - 1u) >> h->block_shift;
    __atomic_store_n(&slot_of(h, last)->closed, evrec_closed_word(pos - (last << h->block_shift), 0),
                     __ATOMIC_RELEASE);
    bh->end_pos = pos;
}

static const struct evrec_cyclic_ops stream_ops = {stream_start, stream_stop, stream_switch, NULL, NULL};

evrec_status evrec_stream_init(evrec_stream_t *s, void *buf, size_t size, size_t block_size, uint32_t meta_every)
{
    if (!s) {
        return EVREC_E_ARG;
    }
    __builtin_memset(s, 0, sizeof *s);
    evrec_status st = evrec_recorder_init_cyclic(&s->rec, buf, size, block_size);
    if (st != EVREC_OK) {
        return st;
    }
    s->rec.cyclic = &stream_ops;
    s->rec.hdr->flags |= EVREC_BUF_STREAM;
    s->meta_every = meta_every;
    return EVREC_OK;
}
