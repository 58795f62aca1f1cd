/* SPDX-License-Identifier: Apache-2.0 */
/* Cyclic (last-is-best) trace buffer: a ring of power-of-two blocks (the ThreadX logger's ring
 * and QS's last-is-best policy, lock-free). See evrec_recorder_init_cyclic().
 *
 * Positions are virtual bytes: block number * block_size + offset. Block numbers run modulo
 * evrec_block_modulus() (a multiple of the block count, both powers of two), so positions never
 * reach EVREC_POS_CLOSED on 32-bit targets however long the recording runs.
 *
 * The allocation word `pos` also counts the records allocated in the current block, in the bits
 * above the virtual position (evrec_block_modulus()): every successful compare-and-swap adds the
 * slot size and one count (host->count_one); the opener of a block sets the count to 1 (its own
 * record). So the opener of block b+1 knows from the `pos` it replaced how many records block b
 * got, and writes that with the block's extent into its header (`closed`): reusing the block a lap
 * later adds that count to the overwritten records without walking them.
 *
 * Invariants:
 *  - A slot is cleared to 0xFF (so a slot not yet reserved reads id 0xFFFF; evrec_reserve()
 *    then writes a provisional id >= EVREC_ID_PROVISIONAL_MIN until the commit) before any record is
 *    allocated in it: the context that opens block b+1 also clears the slot of block b+2 in
 *    advance (claiming it with a compare-and-swap on the slot's `ready` word); if b+1 is not
 *    ready when needed, the opener clears it first. Meanwhile a context that needs a block
 *    another context is clearing skips it (it stays empty) or drops its event (counted); it
 *    never waits.
 *  - Only the context whose compare-and-swap on `pos` opened a block writes its header, after
 *    that compare-and-swap: `used` of the block it closed, then the `seq` stamp of the block it
 *    opened (its number and how far back the closed block is). A context that loses the race,
 *    or that was preempted for a whole lap of the ring, writes nothing: a stale context can
 *    never stamp a slot that meanwhile serves a later block.
 *  - A slot is never cleared while its block may still be written: while the opener has not
 *    stamped it or closed it, or a record in it is not committed (clear_slot()). The opener's
 *    own record is the first of the block and is committed after the stamp.
 *  - Save takes a block only when `ready` and `seq` both name it, and (while recording goes on)
 *    checks them again after reading it.
 */
#include "recorder_internal.h"

#define READY_CLEARING ((size_t)-1)

static size_t block_modulus(const evrec_host_t *h)
{
    return evrec_block_modulus(h->block_shift);
}

/* Test builds pause a context at named points of a block switch (tests/recorder/port). */
#ifndef EVREC_TEST_PAUSE
#define EVREC_TEST_PAUSE(where) ((void)0)
#endif

/* Header of the slot that holds block number `b`. */
static evrec_block_header_t *block_header(const evrec_host_t *h, size_t b)
{
    return evrec_block_at(h->buf, h->ring_mask, h->block_mask, b << h->block_shift);
}

/* The virtual position and the record count of a cyclic `pos` (below EVREC_POS_CLOSED). */
static size_t vpos_of(const evrec_host_t *h, size_t pos)
{
    return pos & (h->count_one - 1u);
}

/* The opener of block `next` closes block `full` (the block it followed, `fill` bytes and `count`
 * records allocated) and stamps `next` with its number and the distance back to `full`. Only the
 * opener calls it. */
static void close_and_stamp(const evrec_host_t *h, size_t full, size_t fill, size_t count, size_t next)
{
    __atomic_store_n(&block_header(h, full)->closed, evrec_closed_word(fill, count), __ATOMIC_RELEASE);
    size_t back = (next - full) & (block_modulus(h) - 1u);
    __atomic_store_n(&block_header(h, next)->seq, evrec_seq_stamp(next, back), __ATOMIC_RELEASE);
}

static size_t block_walk(const evrec_meta_t *meta, const uint8_t *block, size_t end, size_t *stop_at)
{
    /* The tables in locals and relaxed loads of the ids with one acquire fence at the end: the
     * walk runs over a whole block at a block switch when the guard's scan saw a word that looks
     * uncommitted (clear_slot), so it is on the record path's amortised cost. A record usually
     * has the id of the one before it (one event type dominates a block): its size is then
     * taken from that record, so the step to the next record waits for no table load and the
     * walk of such a run goes at the speed of its id loads, not of their latency (the id is
     * still checked for every record). */
    const evrec_event_desc_t *events = meta->events;
    const evrec_struct_desc_t *structs = meta->structs;
    uint32_t event_count = meta->event_count, struct_count = meta->struct_count;
    size_t q = EVREC_BLOCK_HEADER, count = 0;
    uint32_t last_id = 0x10000u; /* no 16-bit id: the first record looks its size up */
    size_t n = 0;
    while (q + sizeof(evrec_record_header_t) <= end) {
        uint16_t id = __atomic_load_n(&((const evrec_record_header_t *)(const void *)(block + q))->id,
                                      EVREC_TSAN ? __ATOMIC_ACQUIRE : __ATOMIC_RELAXED);
        if (id != last_id) {
            if (id == EVREC_ID_NONE || id >= event_count) {
                break;
            }
            uint16_t sid = events[id].struct_id;
            n = sid < struct_count ? structs[sid].native_size : 0u;
            if (n == 0) {
                break;
            }
            last_id = id;
        }
        if (q + n > end) {
            break;
        }
        q += n;
        count++;
    }
#if !EVREC_TSAN                              /* TSan: acquire loads above instead (it does not model fences) */
    __atomic_thread_fence(__ATOMIC_ACQUIRE); /* the records walked are complete */
#endif
    *stop_at = q;
    return count;
}

/* Fills `n` bytes at `p` (4-byte aligned, n a multiple of 16) with 0xFF. Not memset: newlib's
 * generic memset costs about one instruction per byte on Cortex-M, and this fill runs for a whole
 * block at every block switch (steady state), so it is on the record path's amortised cost: on
 * ARMv7 two store-multiples of four registers per iteration, elsewhere four word stores. GCC would
 * turn the C loop back into a memset call. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
EVREC_NO_TSAN static void
fill_ones(uint8_t *p, size_t n)
{
    uint32_t *w = (uint32_t *)(void *)p;
#if defined(__thumb2__) || (defined(__arm__) && !defined(__thumb__))
    /* ARMv7-M/ARMv7-A: store-multiple, 32 bytes per two instructions (Cortex-M4: one cycle per
     * word, a quarter of the word-store loop's instructions). */
    uint32_t *end = w + n / 4u;
    /* four distinct registers in ascending order (not r7: Thumb's frame pointer): the values are
     * equal, so the compiler would otherwise merge them into one */
    register uint32_t a __asm__("r3") = 0xFFFFFFFFu;
    register uint32_t b __asm__("r4") = 0xFFFFFFFFu;
    register uint32_t c __asm__("r5") = 0xFFFFFFFFu;
    register uint32_t d __asm__("r6") = 0xFFFFFFFFu;
    if ((n / 16u) & 1u) {
        __asm__ volatile("stmia %0!, {%1, %2, %3, %4}" : "+r"(w) : "r"(a), "r"(b), "r"(c), "r"(d) : "memory");
    }
    while (w != end) {
        __asm__ volatile("stmia %0!, {%1, %2, %3, %4}\n\tstmia %0!, {%1, %2, %3, %4}"
                         : "+r"(w)
                         : "r"(a), "r"(b), "r"(c), "r"(d)
                         : "memory");
    }
#elif (defined(__x86_64__) || defined(__aarch64__)) && !EVREC_TSAN
    /* hosts: the C library's memset (vector stores, a few dozen instructions per block) */
    __builtin_memset(w, 0xFF, n);
#elif EVREC_TSAN
    /* ThreadSanitizer intercepts memset (and a loop a compiler turns into one) whatever this
     * function's attribute says: volatile word stores, which it leaves alone here. This is the
     * write side of the live save's validated race (see save_recorder.c). */
    volatile uint32_t *v = w;
    for (size_t i = 0; i < n / 4u; i++) {
        v[i] = 0xFFFFFFFFu;
    }
#else
    for (size_t i = 0; i < n / 4u; i += 4u) {
        w[i] = 0xFFFFFFFFu;
        w[i + 1u] = 0xFFFFFFFFu;
        w[i + 2u] = 0xFFFFFFFFu;
        w[i + 3u] = 0xFFFFFFFFu;
    }
#endif
}

#if EVREC_CYCLIC_GUARD
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* 1 when the first halfword of some 4-byte word in [p, p + n) is >= EVREC_ID_PROVISIONAL_MIN (n
 * a multiple of 4, p 8-aligned): where an uncommitted record's id (0xFFFF or provisional) would
 * be (records are 4-aligned, the id is at offset 4). Data can look like that too; the caller then walks. Plain loads: it runs only over a
 * block that closed a lap ago (a stale writer is the case it looks for; its stores race with
 * these loads harmlessly, and a record it commits meanwhile is seen by the walk). SSE2: 16 bytes
 * per compare; else 8 bytes per step (two 32-bit lanes, the "has a zero lane" trick). Not seen by
 * ThreadSanitizer (EVREC_NO_TSAN): those races are the point. */
EVREC_NO_TSAN static int maybe_uncommitted(const uint8_t *p, size_t n)
{
    size_t i = 0;
#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* h | 0x003F == 0xFFFF exactly when h >= 0xFFC0 */
    __m128i ones = _mm_set1_epi32(-1), low = _mm_set1_epi16((short)(0xFFFFu - EVREC_ID_PROVISIONAL_MIN));
    __m128i acc = _mm_setzero_si128(), acc2 = _mm_setzero_si128();
    /* 64 bytes per step, two accumulators: a block is scanned at every block switch */
    for (; i + 64u <= n; i += 64u) {
        __m128i v0 = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        __m128i v1 = _mm_loadu_si128((const __m128i *)(const void *)(p + i + 16u));
        __m128i v2 = _mm_loadu_si128((const __m128i *)(const void *)(p + i + 32u));
        __m128i v3 = _mm_loadu_si128((const __m128i *)(const void *)(p + i + 48u));
        __m128i c0 = _mm_cmpeq_epi16(_mm_or_si128(v0, low), ones),
                c1 = _mm_cmpeq_epi16(_mm_or_si128(v1, low), ones);
        __m128i c2 = _mm_cmpeq_epi16(_mm_or_si128(v2, low), ones),
                c3 = _mm_cmpeq_epi16(_mm_or_si128(v3, low), ones);
        acc = _mm_or_si128(acc, _mm_or_si128(c0, c1));
        acc2 = _mm_or_si128(acc2, _mm_or_si128(c2, c3));
    }
    for (; i + 16u <= n; i += 16u) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        acc = _mm_or_si128(acc, _mm_cmpeq_epi16(_mm_or_si128(v, low), ones));
    }
    if (_mm_movemask_epi8(_mm_or_si128(acc, acc2)) &
        0x3333) { /* bytes 0-1, 4-5, 8-9, 12-13: each word's first halfword */
        return 1;
    }
#endif
    uint64_t acc64 = 0;
    for (; i + 8u <= n; i += 8u) {
        uint64_t w;
        __builtin_memcpy(&w, p + i, 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        uint64_t x = ~w & 0x0000FFC00000FFC0ull; /* 0 in a lane whose halfword is >= 0xFFC0 */
#else
        uint64_t x = (~w >> 16) & 0x0000FFC00000FFC0ull;
#endif
        acc64 |= (x - 0x0000000100000001ull) & 0x8000000080000000ull; /* a lane was 0 */
    }
    if (i < n) {
        uint16_t h;
        __builtin_memcpy(&h, p + i, 2);
        acc64 |= h >= EVREC_ID_PROVISIONAL_MIN;
    }
    return acc64 != 0;
}
#endif

/* Clears the slot of block `c` for reuse (the caller has claimed it: ready == CLEARING), counting
 * the records of the block it held (`old`) as overwritten. A block that was closed (the usual
 * case) says how many records it got: no walk. Returns 0 without clearing if that block may still
 * be written: its opener has not stamped or closed it yet, or (a context preempted for a whole
 * lap of the ring) a record in it is not committed (checked when EVREC_CYCLIC_GUARD is 1), or the
 * host was stopped meanwhile. Its slot is then skipped. A block that was never opened (skipped itself) is empty and unstamped. */
static int clear_slot(evrec_host_t *h, evrec_block_header_t *hdr, size_t c, size_t old)
{
    size_t bsize = h->block_mask + 1u;
    uint32_t seq = __atomic_load_n(&hdr->seq, __ATOMIC_ACQUIRE);
    uint32_t closed = __atomic_load_n(&hdr->closed, __ATOMIC_ACQUIRE);
    size_t used = closed & EVREC_CLOSED_USED_MASK;
    /* One load: evrec_host_stop() may have cleared it since this context's switch began. */
    const evrec_recorder_t *rec = __atomic_load_n(&h->rec, __ATOMIC_ACQUIRE);
    if (rec == NULL) {
        return 0; /* stopped: leave the slot as it is */
    }
    evrec_buf_header_t *bh = rec->hdr;
    if (used != 0 && evrec_seq_is(seq, old)) {
        size_t count = closed >> EVREC_CLOSED_COUNT_SHIFT;
#if EVREC_CYCLIC_GUARD
        /* The scan's plain loads and the fence below make every commit in the block happen
         * before the clearing and the reuse; ThreadSanitizer models neither (the scan is not
         * instrumented, fences are not modelled) and would report the next lap's writes to these
         * bytes as racing with this lap's: under TSan the walk (acquire loads of every id) always
         * runs, which is the same synchronisation made visible to it. */
        if (EVREC_TSAN ||
            maybe_uncommitted((const uint8_t *)hdr + EVREC_BLOCK_HEADER, used - EVREC_BLOCK_HEADER)) {
            size_t stop;
            if (block_walk(h->meta, (const uint8_t *)hdr, used, &stop) != count || stop != used) {
                return 0; /* a record in flight */
            }
        }
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
#endif
        evrec_atomic_fetch_add(&bh->overwritten, count);
    } else {
        /* Not closed, or not stamped: rare (a block skipped, or its opener preempted). */
        size_t end = used >= EVREC_BLOCK_HEADER && used <= bsize ? used : bsize;
        size_t stop;
        size_t n = block_walk(h->meta, (const uint8_t *)hdr, end, &stop);
        if ((used != 0 && stop < end) || (used == 0 && n != 0)) {
            return 0; /* a record in flight, or a block still open */
        }
        if (evrec_seq_is(seq, old)) {
            evrec_atomic_fetch_add(&bh->overwritten, n);
        } else if (used != 0) {
            return 0; /* opened and closed, but its opener has not stamped it yet */
        }
    }
    uint8_t *p = (uint8_t *)hdr;
    fill_ones(p + EVREC_BLOCK_HEADER, bsize - EVREC_BLOCK_HEADER);
    __atomic_store_n(&hdr->seq, EVREC_SEQ_UNSTAMPED, __ATOMIC_RELAXED);
    __atomic_store_n(&hdr->closed, 0u, __ATOMIC_RELAXED);
    evrec_atomic_store(&hdr->ready, c);
    return 1;
}

/* Makes sure the slot of block `c` is cleared for it. Returns 1 when it is ready, 0 when another
 * context is clearing it right now, -1 when the slot already serves a later block (the caller's
 * position was stale). The slot's `ready` word only moves forward (older block -> CLEARING -> c),
 * and the claim requires an older block: a stale caller can never clear a live block. A slot may
 * lag several laps behind (its clearing was preempted for a whole lap and its blocks skipped). */
static int prepare_block(evrec_host_t *h, size_t c)
{
    size_t mod = block_modulus(h);
    evrec_block_header_t *hdr = block_header(h, c);
    size_t r = evrec_atomic_load_acquire(&hdr->ready);
    for (;;) {
        if (r == c) {
            return 1;
        }
        if (r == READY_CLEARING) {
            return 0;
        }
        if (((c - r) & (mod - 1u)) >= mod / 2u) {
            return -1; /* r is ahead of c */
        }
        if (evrec_atomic_cas(&hdr->ready, &r, READY_CLEARING)) {
            if (clear_slot(h, hdr, c, r)) {
                return 1;
            }
            evrec_atomic_store(&hdr->ready, r); /* busy: give the slot back untouched */
            return 0;
        }
    }
}

/* How many blocks being cleared by others a switch may skip: at most half the ring less one
 * (never onto the block in use), and at most 8. */
static size_t skip_limit(const evrec_host_t *h)
{
    size_t nblocks = (h->ring_mask + 1u) >> h->block_shift;
    size_t k = nblocks / 2u - 1u;
    return k < 8u ? k : 8u;
}

static size_t reserve_switch(evrec_host_t *h, size_t cur, size_t len)
{
    size_t bsize = h->block_mask + 1u;
    size_t mod = block_modulus(h);
    for (;;) {
        if (cur >= EVREC_POS_CLOSED) {
            return EVREC_POS_CLOSED;
        }
        size_t off = cur & h->block_mask;
        if (off >= EVREC_BLOCK_HEADER && off + len <= bsize) {
            if (evrec_atomic_cas(&h->pos, &cur, cur + len + h->count_one)) {
                return cur;
            }
            continue;
        }
        size_t vcur = vpos_of(h, cur);
        size_t count = cur / h->count_one;           /* records allocated in `full` */
        size_t full = (vcur - 1u) >> h->block_shift; /* the block holding the last allocation */
        size_t fill = vcur - (full << h->block_shift);
        size_t next = (full + 1u) & (mod - 1u);
        /* A block another context is clearing right now (it may have been preempted while doing
         * so) is skipped: it stays empty (never stamped) and save passes over it. */
        int ready = prepare_block(h, next);
        for (size_t skip = 1; ready == 0 && skip <= skip_limit(h); skip++) {
            next = (full + 1u + skip) & (mod - 1u);
            ready = prepare_block(h, next);
        }
        if (ready < 0) {
            cur = evrec_atomic_load(&h->pos); /* stale: others moved on */
            continue;
        }
        if (ready == 0) {
            evrec_reserve_failed(h, cur); /* counted as a drop */
            return EVREC_POS_CLOSED;
        }
        size_t start = (next << h->block_shift) + EVREC_BLOCK_HEADER;
        EVREC_TEST_PAUSE(1); /* prepared `next`, not yet taken */
        if (!evrec_atomic_cas(&h->pos, &cur, start + len + h->count_one)) {
            continue;
        }
        /* This context opened `next`: close `full`, stamp `next`, clear one block ahead. Nobody
         * else writes these headers, and neither slot can be cleared before this is done. */
        EVREC_TEST_PAUSE(2); /* opened `next`, not yet closed `full` nor stamped `next` */
        close_and_stamp(h, full, fill, count, next);
        (void)prepare_block(h, (next + 1u) & (mod - 1u));
        return start;
    }
}

static size_t cyclic_start(evrec_host_t *host, evrec_recorder_t *rec, uint32_t start_time)
{
    evrec_buf_header_t *bh = rec->hdr;
    size_t n = bh->block_count, bsize = bh->block_size;
    uint8_t *records = evrec_records(rec);
    /* The buffer is all 0xFF; every slot is ready for its first-lap block. */
    for (size_t s = 0; s < n; s++) {
        evrec_block_header_t *hdr = (evrec_block_header_t *)(void *)(records + s * bsize);
        hdr->closed = 0;
        evrec_atomic_store(&hdr->ready, s);
    }
    evrec_block_header_t *h0 = (evrec_block_header_t *)(void *)records;
    h0->seq = evrec_seq_stamp(0, 0);
    evrec_write_control(records + EVREC_BLOCK_HEADER, start_time, EVREC_CONTROL_START);
    unsigned shift = evrec_log2(bsize);
    size_t count_one = evrec_count_one(shift);
    /* Read by contexts that may be recording (see evrec_reserve()): relaxed atomic stores,
     * published by the release store of pos in evrec_host_start(). */
    EVREC_STORE_RELAXED(&host->block_mask, bsize - 1u);
    EVREC_STORE_RELAXED(&host->ring_mask, n * bsize - 1u);
    EVREC_STORE_RELAXED(&host->block_shift, shift);
    EVREC_STORE_RELAXED(&host->count_one, count_one);
    return EVREC_BLOCK_HEADER + EVREC_CONTROL_SLOT + count_one; /* Start: one record */
}

/* Waits until the opener of block `b` has stamped it; returns the stamp, or EVREC_SEQ_UNSTAMPED
 * if the slot no longer serves `b` (an older lap). */
static uint32_t wait_opened(evrec_host_t *h, size_t b)
{
    evrec_block_header_t *hdr = block_header(h, b);
    for (;;) {
        uint32_t s = __atomic_load_n(&hdr->seq, __ATOMIC_ACQUIRE);
        if (evrec_seq_is(s, b)) {
            return s;
        }
        if (evrec_atomic_load_acquire(&hdr->ready) != b) {
            return EVREC_SEQ_UNSTAMPED;
        }
        EVREC_PORT_RELAX();
    }
}

/* Waits until every record allocated in [HDR, end) of block `b` is committed. */
static void wait_committed(evrec_host_t *h, size_t b, size_t end)
{
    const uint8_t *blk = (const uint8_t *)block_header(h, b);
    size_t q = EVREC_BLOCK_HEADER;
    while (q + sizeof(evrec_record_header_t) <= end) {
        const evrec_record_header_t *r = (const evrec_record_header_t *)(const void *)(blk + q);
        uint16_t id;
        while ((id = __atomic_load_n(&r->id, __ATOMIC_ACQUIRE)) >= EVREC_ID_PROVISIONAL_MIN) {
            EVREC_PORT_RELAX(); /* not reserved yet, or reserved and not committed */
        }
        size_t n = evrec_slot_size_of(h->meta, id);
        if (n == 0) {
            return; /* overwritten by the application: nothing more to wait for */
        }
        q += n;
    }
}

/* The records a save of the stopped ring writes: those of the intact blocks (the same blocks and
 * extents as save's ring view), and their native bytes (block headers and unused tails
 * excluded). `pos` is a virtual position (no count bits). */
static void count_intact(const evrec_host_t *h, size_t n, size_t pos, uint64_t *records, size_t *bytes)
{
    size_t mod = block_modulus(h);
    size_t bsize = h->block_mask + 1u;
    size_t newest = (pos - 1u) >> h->block_shift;
    size_t fill = pos - (newest << h->block_shift);
    uint64_t count = 0;
    size_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        size_t b = (newest + mod - (n - 1u) + i) & (mod - 1u);
        const evrec_block_header_t *hdr = block_header(h, b);
        if (evrec_atomic_load_acquire(&hdr->ready) != b ||
            !evrec_seq_is(__atomic_load_n(&hdr->seq, __ATOMIC_ACQUIRE), b)) {
            continue; /* skipped, or its slot serves another block */
        }
        uint32_t used = __atomic_load_n(&hdr->closed, __ATOMIC_ACQUIRE) & EVREC_CLOSED_USED_MASK;
        size_t end = used ? used : (b == newest ? fill : bsize);
        if (end <= EVREC_BLOCK_HEADER) {
            continue;
        }
        size_t stop;
        count += block_walk(h->meta, (const uint8_t *)hdr, end, &stop);
        sum += stop - EVREC_BLOCK_HEADER;
    }
    *records = count;
    *bytes = sum;
}

static void cyclic_stop(evrec_host_t *h, evrec_recorder_t *rec, size_t end_word, uint32_t stop_time)
{
    evrec_buf_header_t *bh = rec->hdr;
    size_t mod = block_modulus(h);
    size_t bsize = h->block_mask + 1u;
    size_t end = vpos_of(h, end_word);
    size_t count = end_word / h->count_one; /* records allocated in the current block */
    size_t cur_block = (end - 1u) >> h->block_shift;
    size_t fill = end - (cur_block << h->block_shift);
    /* The block holding `end - 1` was opened by a context that may still be writing its header.
     * Follow the chain of opened blocks back (each stamp says which block its opener closed,
     * skipped blocks are not in it) and wait for the records of the last few. */
    uint32_t s = wait_opened(h, cur_block);
    size_t b = cur_block;
    for (size_t k = 0; k <= skip_limit(h) && s != EVREC_SEQ_UNSTAMPED && (s >> 24) != 0; k++) {
        size_t prev = (b + mod - (s >> 24)) & (mod - 1u);
        evrec_block_header_t *ph = block_header(h, prev);
        if (evrec_atomic_load_acquire(&ph->ready) != prev) {
            break; /* an older lap */
        }
        /* closed before `b` was stamped */
        wait_committed(h, prev, __atomic_load_n(&ph->closed, __ATOMIC_ACQUIRE) & EVREC_CLOSED_USED_MASK);
        b = prev;
        s = wait_opened(h, prev);
    }
    wait_committed(h, cur_block, fill);
    /* Stop goes after the last record, or opens the next block. */
    size_t pos = end;
    if (fill + EVREC_CONTROL_SLOT > bsize) {
        size_t next = (cur_block + 1u) & (mod - 1u);
        while (prepare_block(h, next) != 1) {
            EVREC_PORT_RELAX(); /* another context is clearing it: it will finish */
        }
        close_and_stamp(h, cur_block, fill, count, next);
        pos = (next << h->block_shift) + EVREC_BLOCK_HEADER;
        count = 0;
    }
    evrec_write_control(h->buf + (pos & h->ring_mask), stop_time, EVREC_CONTROL_STOP);
    pos += EVREC_CONTROL_SLOT;
    evrec_block_header_t *last = evrec_block_at(h->buf, h->ring_mask, h->block_mask, pos - 1u);
    __atomic_store_n(&last->closed, evrec_closed_word(pos - ((pos - 1u) & ~h->block_mask), count + 1u),
                     __ATOMIC_RELEASE);
    bh->end_pos = pos;
    size_t used;
    count_intact(h, bh->block_count, pos, &bh->recorded, &used);
    bh->used = used;
}

/* A host over a ring that no host records into (recovery): what block_header(), count_intact()
 * and block_walk() read. */
static void ring_host(evrec_host_t *h, evrec_recorder_t *rec, const evrec_meta_t *meta)
{
    evrec_buf_header_t *bh = rec->hdr;
    __builtin_memset(h, 0, sizeof *h);
    h->buf = evrec_records(rec);
    h->block_mask = bh->block_size - 1u;
    h->ring_mask = (size_t)bh->block_count * bh->block_size - 1u;
    h->block_shift = evrec_log2(bh->block_size);
    h->count_one = evrec_count_one(h->block_shift);
    h->meta = meta;
    h->rec = rec;
}

/* The newest stamped block of a ring no host records into (block numbers are compared modulo the
 * numbering: all live ones are within half of it); 0 when none is. */
static int newest_block(const evrec_host_t *h, size_t n, size_t bsize, size_t *newest)
{
    size_t mod = block_modulus(h);
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        const evrec_block_header_t *hdr = (const evrec_block_header_t *)(const void *)(h->buf + i * bsize);
        size_t r = evrec_atomic_load(&hdr->ready);
        if (r >= mod || !evrec_seq_is(hdr->seq, r)) {
            continue; /* being cleared, or never opened since */
        }
        if (!found || (((r - *newest) & (mod - 1u)) != 0 && ((r - *newest) & (mod - 1u)) < mod / 2u)) {
            *newest = r;
            found = 1;
        }
    }
    return found;
}

/* A slot cleared for block `r` (ready == r) but never stamped, whose records area is not all
 * 0xFF: its block was opened (only an opener's compare-and-swap lets records in) and the opener
 * died before stamping it, while other contexts already committed records in it. Stamped here
 * (the distance back is not known: 1), so that those records are recovered. */
static void stamp_opened(const evrec_host_t *h, size_t n, size_t bsize)
{
    size_t mod = block_modulus(h);
    for (size_t i = 0; i < n; i++) {
        evrec_block_header_t *hdr = (evrec_block_header_t *)(void *)(h->buf + i * bsize);
        size_t r = evrec_atomic_load(&hdr->ready);
        if (r >= mod || hdr->seq != EVREC_SEQ_UNSTAMPED || (r & (n - 1u)) != i) {
            continue;
        }
        const uint32_t *w = (const uint32_t *)(const void *)((const uint8_t *)hdr + EVREC_BLOCK_HEADER);
        size_t k = 0;
        while (k < (bsize - EVREC_BLOCK_HEADER) / 4u && w[k] == 0xFFFFFFFFu) {
            k++;
        }
        if (k < (bsize - EVREC_BLOCK_HEADER) / 4u) {
            hdr->seq = evrec_seq_stamp(r, 1);
        }
    }
}

/* evrec_recorder_recover() of a ring: every intact block of the last block_count numbers has its
 * committed records compacted past the slots never committed (evrec_recover_run()) and its
 * `closed` word rewritten with the result (a block still open, or whose closing was cut short,
 * is read to its end); then the counts. `base`: the ring's buffer's offset in the image. */
static void cyclic_recover(evrec_recorder_t *rec, const evrec_meta_t *meta, uint64_t base,
                           evrec_recover_report_t *rep)
{
    evrec_buf_header_t *bh = rec->hdr;
    evrec_host_t h;
    ring_host(&h, rec, meta);
    size_t mod = block_modulus(&h), n = bh->block_count, bsize = bh->block_size;
    size_t newest = 0;
    size_t pos = EVREC_BLOCK_HEADER;
    stamp_opened(&h, n, bsize);
    if (newest_block(&h, n, bsize, &newest)) {
        for (size_t i = 0; i < n; i++) {
            size_t b = (newest + mod - (n - 1u) + i) & (mod - 1u);
            evrec_block_header_t *hdr = block_header(&h, b);
            if (evrec_atomic_load(&hdr->ready) != b || !evrec_seq_is(hdr->seq, b)) {
                continue;
            }
            uint32_t closed = hdr->closed;
            size_t used = closed & EVREC_CLOSED_USED_MASK;
            size_t end = used >= EVREC_BLOCK_HEADER && used <= bsize ? used : bsize;
            uint64_t count = 0, skipped = rep->skipped;
            size_t at = (size_t)((uint8_t *)hdr - h.buf);
            size_t stop = evrec_recover_run(meta, (uint8_t *)hdr, EVREC_BLOCK_HEADER, end,
                                            base + bh->records_offset + at, rep, &count);
            /* A closed block says how many records were allocated in it: slots at its end whose
             * header was never written (all 0xFF, like free space) are counted from that. */
            size_t allocated = end == used ? closed >> EVREC_CLOSED_COUNT_SHIFT : 0;
            for (uint64_t k = count + rep->skipped - skipped; k < allocated; k++) {
                evrec_recover_note_skip(rep, base + bh->records_offset + at + stop);
            }
            hdr->closed = evrec_closed_word(stop, (size_t)count);
            if (b == newest) {
                pos = (newest << h.block_shift) + stop;
            }
        }
    }
    bh->end_pos = pos;
    size_t used;
    count_intact(&h, n, pos, &bh->recorded, &used);
    bh->used = used;
}

static const struct evrec_cyclic_ops cyclic_ops = {cyclic_start, cyclic_stop, reserve_switch, cyclic_recover,
                                                   block_walk};

void evrec_recorder_init_ring(evrec_recorder_t *rec, void *buf, size_t size, size_t block_size, size_t block_count,
                              const struct evrec_cyclic_ops *ops);

evrec_status evrec_recorder_init_cyclic(evrec_recorder_t *rec, void *buf, size_t size, size_t block_size)
{
    if (!rec || !buf || ((uintptr_t)buf % 8u) != 0 || block_size < 256u || block_size > 65536u ||
        (block_size & (block_size - 1u)) != 0 || size < EVREC_BUF_HEADER_SIZE || size > 0xFFFFFFFFu) {
        return EVREC_E_ARG;
    }
    size_t n = (size - EVREC_BUF_HEADER_SIZE) / block_size;
    if (n < 4) {
        return EVREC_E_ARG;
    }
    while (n & (n - 1u)) {
        n &= n - 1u; /* largest power of two that fits */
    }
    if (n > evrec_block_modulus(evrec_log2(block_size)) / 4u) {
        return EVREC_E_ARG; /* block numbers must not wrap within a few laps */
    }
    evrec_recorder_init_ring(rec, buf, size, block_size, n, &cyclic_ops);
    return EVREC_OK;
}

/* For evrec_recorder_recover() of a header that says cyclic. */
const struct evrec_cyclic_ops *evrec_cyclic_ops_get(void);
const struct evrec_cyclic_ops *evrec_cyclic_ops_get(void)
{
    return &cyclic_ops;
}
