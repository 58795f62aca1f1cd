/* SPDX-License-Identifier: Apache-2.0 */
/* The live QS transmitter: last-is-best ring of whole frames, filters, get-block (QP/C "QS Global
 * Filter", "QS Local Filter"; QSPY manual "Last-is-Best Data Policy"; QS.md "Concurrency"). */
#include <string.h>

#include "evrec/evrec_qs_tx.h"
#include "qs_writer_internal.h"

static inline uint32_t lock_enter(const evrec_qs_tx_t *tx)
{
    return tx->map.opts.lock.enter ? tx->map.opts.lock.enter(tx->map.opts.lock.ctx) : 0u;
}

static inline void lock_exit(const evrec_qs_tx_t *tx, uint32_t state)
{
    if (tx->map.opts.lock.exit) {
        tx->map.opts.lock.exit(tx->map.opts.lock.ctx, state);
    }
}

size_t evrec_qs_tx_ring_size(const evrec_qs_map_t *map, size_t frames)
{
    return map ? frames * (2u * ((size_t)map->max_payload + 3u) + 1u) : 0u;
}

evrec_status evrec_qs_tx_init(evrec_qs_tx_t *tx, const evrec_meta_t *meta, void *buf, size_t size,
                              const evrec_qs_options_t *opts)
{
    if (!tx || !meta || !buf || ((uintptr_t)buf % 4u) != 0) {
        return EVREC_E_ARG;
    }
    if (opts && (!opts->lock.enter) != (!opts->lock.exit)) {
        return EVREC_E_ARG;
    }
    memset(tx, 0, sizeof *tx);
    size_t entries = (evrec_qs_map_entries_size(meta) + 3u) & ~(size_t)3u;
    if (size <= entries) {
        return EVREC_E_ARG;
    }
    evrec_status st = evrec_qs_map_init(&tx->map, meta, opts, buf, entries);
    if (st != EVREC_OK) {
        return st;
    }
    tx->ring = (uint8_t *)buf + entries;
    tx->size = size - entries;
    if (tx->size < evrec_qs_tx_ring_size(&tx->map, 2)) {
        return EVREC_E_ARG;
    }
    memset(tx->local_filter, 0xFF, sizeof tx->local_filter);
    return EVREC_OK;
}

/* Called by the writer when the ring is full: skip the rest of the oldest frame, up to and
 * including its flag. Only bytes of earlier frames (`w->old`) are skipped, never the frame being
 * written; the ring holds at least two worst-case frames, so an earlier frame is always there. */
int evrec_qs_tx_drop_oldest_(struct evrec_qs_tx *tx, qs_writer_t *w)
{
    size_t tail = (w->head + w->size - w->used) % w->size;
    const size_t first = tail;
    size_t k = 0;
    while (k < w->old) {
        uint8_t b = w->buf[tail];
        k++;
        if (++tail == w->size) {
            tail = 0;
        }
        if (b == EVREC_QS_FLAG) {
            break;
        }
    }
    if (k == 0) {
        return 0;
    }
    evrec_qs_tx_note_drop_(tx, w->buf, w->size, first, k); /* a lost dictionary is sent again */
    w->used -= k;
    w->old -= k;
    tx->overwrites++;
    if (tx->reader_mid) {
        /* The reader has sent the start of this frame: it closes it with a flag. When only the
         * flag was left, the frame arrives whole and is not lost. */
        if (k > 1) {
            tx->frames_cut++;
        }
        tx->need_flag = 1;
        tx->reader_mid = 0;
    } else {
        tx->frames_lost++;
    }
    return 1;
}

static inline void writer_open(evrec_qs_tx_t *tx, qs_writer_t *w)
{
    w->buf = tx->ring;
    w->size = tx->size;
    w->head = tx->head;
    w->used = tx->used;
    w->old = tx->used;
    w->tx = tx;
    w->sum = 0;
    w->overflow = 0;
}

static inline void writer_close(evrec_qs_tx_t *tx, const qs_writer_t *w)
{
    tx->head = w->head;
    __atomic_store_n(&tx->used, w->used, __ATOMIC_RELAXED);
    tx->frames++;
}

/* Escaped length of a frame, without writing it. */
static size_t frame_length(uint8_t seq, uint8_t rec, const uint8_t *payload, size_t len)
{
    size_t n = 1; /* flag */
    uint8_t sum = 0;
    uint8_t b;
#define COUNT(x) (b = (x), sum = (uint8_t)(sum + b), n += (b == EVREC_QS_FLAG || b == EVREC_QS_ESC) ? 2u : 1u)
    COUNT(seq);
    COUNT(rec);
    for (size_t i = 0; i < len; i++) {
        COUNT(payload[i]);
    }
    b = (uint8_t)~sum;
    n += (b == EVREC_QS_FLAG || b == EVREC_QS_ESC) ? 2u : 1u;
#undef COUNT
    return n;
}

evrec_status evrec_qs_tx_session_start(evrec_qs_tx_t *tx)
{
    if (!tx) {
        return EVREC_E_ARG;
    }
    uint8_t payload[EVREC_QS_MAX_PAYLOAD];
    uint8_t rec;
    size_t len;
    /* 1. Size of the whole session (seq from 1) against the ring. */
    evrec_qs_session_cursor_t cur = {0, 0, 0};
    size_t total = 0;
    uint8_t seq = 0;
    int too_big = 0;
    while (evrec_qs_session_next(&tx->map, &cur, &rec, payload, &len) == EVREC_OK) {
        size_t n = frame_length(++seq, rec, payload, len);
        if (2u * (len + 3u) + 1u > tx->size) {
            too_big = 1;
        } else {
            total += n;
        }
    }
    /* 2. The frames, one critical section each. */
    uint32_t state = lock_enter(tx);
    tx->seq = 0;
    lock_exit(tx, state);
    cur = (evrec_qs_session_cursor_t){0, 0, 0};
    while (evrec_qs_session_next(&tx->map, &cur, &rec, payload, &len) == EVREC_OK) {
        state = lock_enter(tx);
        if (2u * (len + 3u) + 1u > tx->size) {
            tx->too_big++; /* cannot be held by the ring; QSPY would refuse it anyway */
            tx->seq++;     /* the host sees the gap */
        } else {
            qs_writer_t w;
            writer_open(tx, &w);
            qs_begin(&w, ++tx->seq, rec);
            for (size_t i = 0; i < len; i++) {
                qs_put(&w, payload[i]);
            }
            qs_end(&w);
            writer_close(tx, &w);
        }
        lock_exit(tx, state);
    }
    return (too_big || total > tx->size) ? EVREC_E_DROPPED : EVREC_OK;
}

evrec_status evrec_qs_tx_put_frame_(evrec_qs_tx_t *tx, uint8_t rec, const uint8_t *payload, size_t len)
{
    if (2u * (len + 3u) + 1u > tx->size) {
        return EVREC_E_NO_SPACE;
    }
    uint32_t state = lock_enter(tx);
    qs_writer_t w;
    writer_open(tx, &w);
    qs_begin(&w, ++tx->seq, rec);
    for (size_t i = 0; i < len; i++) {
        qs_put(&w, payload[i]);
    }
    qs_end(&w);
    writer_close(tx, &w);
    lock_exit(tx, state);
    return EVREC_OK;
}

static inline int passes(const evrec_qs_tx_t *tx, const evrec_qs_event_map_t *em, const void *native)
{
    if (!(__atomic_load_n(&em->flags, __ATOMIC_RELAXED) & EVREC_QS_EV_ENABLED)) {
        return 0;
    }
    uint32_t lid = qs_local_id(em, native);
    if (lid == 0 || lid >= EVREC_QS_LOCAL_IDS) {
        return 1;
    }
    return evrec_filter_test_(tx->local_filter, lid);
}

evrec_status evrec_qs_tx_event_ex(evrec_qs_tx_t *tx, uint16_t event_id, uint32_t time,
                                  const void *native)
{
    if (!tx || !native) {
        return EVREC_E_ARG;
    }
    if (event_id >= tx->map.meta->event_count) {
        return EVREC_E_BAD_ID;
    }
    const evrec_qs_event_map_t *em = &tx->map.events[event_id];
    if (!passes(tx, em, native)) {
        return EVREC_OK;
    }
    uint32_t state = lock_enter(tx);
    qs_writer_t w;
    writer_open(tx, &w);
    qs_begin(&w, ++tx->seq, (uint8_t)(EVREC_QS_REC_USER + em->slot));
    evrec_qs_put_event_(&tx->map, &w, native, event_id, time);
    qs_end(&w);
    writer_close(tx, &w);
    lock_exit(tx, state);
    return EVREC_OK;
}

evrec_status evrec_qs_tx_event(evrec_qs_tx_t *tx, const void *native)
{
    if (!tx || !native) {
        return EVREC_E_ARG;
    }
    evrec_record_header_t h;
    __builtin_memcpy(&h, native, sizeof h);
    return evrec_qs_tx_event_ex(tx, h.id, h.time, native);
}

int evrec_qs_tx_passes(const evrec_qs_tx_t *tx, const void *native)
{
    if (!tx || !native) {
        return 0;
    }
    evrec_record_header_t h;
    __builtin_memcpy(&h, native, sizeof h);
    return h.id < tx->map.meta->event_count && passes(tx, &tx->map.events[h.id], native);
}

size_t evrec_qs_tx_get_block(evrec_qs_tx_t *tx, uint8_t *dst, size_t max)
{
    if (!tx || !dst || max == 0) {
        return 0;
    }
    size_t n = 0;
    /* A copy is retried when a writer overwrote the region meanwhile; under a storm of
     * overwrites give up after a few tries (the caller simply calls again). */
    for (unsigned attempt = 0; attempt < 8u; attempt++) {
        uint32_t state = lock_enter(tx);
        if (tx->need_flag && n < max) {
            dst[n++] = EVREC_QS_FLAG;
            tx->need_flag = 0;
        }
        size_t take = tx->used < max - n ? tx->used : max - n;
        size_t tail = (tx->head + tx->size - tx->used) % tx->size;
        uint32_t seen = tx->overwrites;
        lock_exit(tx, state);
        if (take == 0) {
            return n;
        }
        size_t first = tx->size - tail < take ? tx->size - tail : take;
        memcpy(dst + n, tx->ring + tail, first);
        memcpy(dst + n + first, tx->ring, take - first);
        state = lock_enter(tx);
        if (seen == tx->overwrites) {
            __atomic_store_n(&tx->used, tx->used - take, __ATOMIC_RELAXED);
            evrec_qs_tx_note_read_(tx, dst + n, take); /* header of a frame left half-read */
            tx->reader_mid = dst[n + take - 1] != EVREC_QS_FLAG;
            lock_exit(tx, state);
            return n + take;
        }
        lock_exit(tx, state);
    }
    return n;
}

size_t evrec_qs_tx_pending(const evrec_qs_tx_t *tx)
{
    return tx ? __atomic_load_n(&tx->used, __ATOMIC_RELAXED) : 0u;
}

evrec_status evrec_qs_tx_global_filter(evrec_qs_tx_t *tx, uint16_t event_id, int on)
{
    if (!tx) {
        return EVREC_E_ARG;
    }
    if (event_id >= tx->map.meta->event_count) {
        return EVREC_E_BAD_ID;
    }
    evrec_filter_bits_(&tx->map.events[event_id].flags, EVREC_QS_EV_ENABLED, on);
    return EVREC_OK;
}

void evrec_qs_tx_global_filter_all(evrec_qs_tx_t *tx, int on)
{
    if (!tx) {
        return;
    }
    for (uint32_t e = 0; e < tx->map.meta->event_count; e++) {
        (void)evrec_qs_tx_global_filter(tx, (uint16_t)e, on);
    }
}

evrec_status evrec_qs_tx_local_filter(evrec_qs_tx_t *tx, uint32_t local_id, int on)
{
    if (!tx || local_id == 0 || local_id >= EVREC_QS_LOCAL_IDS) {
        return EVREC_E_ARG;
    }
    evrec_filter_bits_(&tx->local_filter[local_id >> 3], (uint8_t)(1u << (local_id & 7u)), on);
    return EVREC_OK;
}

void evrec_qs_spin_init(evrec_qs_spinlock_t *s)
{
    atomic_flag_clear_explicit(&s->flag, memory_order_relaxed);
}

uint32_t evrec_qs_spin_enter(void *spinlock)
{
    evrec_qs_spinlock_t *s = (evrec_qs_spinlock_t *)spinlock;
    while (atomic_flag_test_and_set_explicit(&s->flag, memory_order_acquire)) {
    }
    return 0;
}

void evrec_qs_spin_exit(void *spinlock, uint32_t state)
{
    (void)state;
    atomic_flag_clear_explicit(&((evrec_qs_spinlock_t *)spinlock)->flag, memory_order_release);
}
