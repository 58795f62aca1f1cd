/* SPDX-License-Identifier: Apache-2.0 */
/* The live QS transmitter: last-is-best ring of whole frames, filters, get-block (QP/C "QS Global
 * Filter", "QS Local Filter"; QSPY manual "Last-is-Best Data Policy"; QS.md "Concurrency"). */
#include <string.h>

#include "evrec/evrec_qs_tx.h"
#include "qs_enc_inline.h"
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
    tx->fast_lim = tx->size - evrec_qs_frame_worst_(&tx->map);
    tx->plain = (uint8_t)(qs_map_plain(&tx->map) && tx->map.prog != NULL);
    return EVREC_OK;
}

/* Called by the writer when the ring is full: skip the rest of the oldest frame, up to and
 * including its flag. Only bytes of earlier frames (`w->old`) are skipped, never the frame being
 * written; the ring holds at least two worst-case frames, so an earlier frame is always there. */
/* Record id of the whole frame starting at `tail` (seq may be escaped; record ids never are). */
static uint8_t frame_rec_at(const qs_writer_t *w, size_t tail)
{
    size_t i = tail + 1u + (w->buf[tail] == EVREC_QS_ESC);
    return w->buf[i % w->size];
}

/* Skips the frame at the tail, up to and including its flag, within the bytes of earlier frames
 * (w->old); returns its bytes (0: none). A dictionary or EVREC_LOST frame skipped is queued again
 * (live dictionaries, qs_live.c). */
static size_t skip_frame(struct evrec_qs_tx *tx, qs_writer_t *w)
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
    if (k) {
        evrec_qs_tx_note_drop_(tx, w->buf, w->size, first, k); /* a lost dictionary is sent again */
    }
    w->used -= k;
    w->old -= k;
    return k;
}

int evrec_qs_tx_drop_oldest_(struct evrec_qs_tx *tx, qs_writer_t *w)
{
    size_t tail = (w->head + w->size - w->used) % w->size;
    if (w->old && !tx->reader_mid && tx->map.opts.time_size < 4u &&
        frame_rec_at(w, tail) == EVREC_QS_REC_TIME_SYNC) {
        /* A time sync goes, and with it the frames that depend on it, up to the next time sync:
         * the host must never get an event whose full time it cannot know (QS.md 4.1). */
        skip_frame(tx, w);
        tx->overwrites++;
        tx->frames_lost++;
        while (w->old) {
            tail = (w->head + w->size - w->used) % w->size;
            if (frame_rec_at(w, tail) == EVREC_QS_REC_TIME_SYNC) {
                break;
            }
            skip_frame(tx, w);
            tx->frames_lost++;
        }
        if (!w->old) {
            tx->sync.valid = 0; /* it was the last one: the next event sends a new one */
        }
        return 1;
    }
    size_t k = skip_frame(tx, w); /* (before reader_mid changes: note_drop_ reads it) */
    if (k == 0) {
        return 0;
    }
    tx->overwrites++;
    if (tx->reader_mid) {
        /* The reader has sent the start of this frame: it closes it with a flag. When only the
         * flag was left, the frame arrives whole and is not lost. */
        if (k > 1) {
            tx->frames_cut++;
            tx->need_flag = 2;  /* cut: a filler byte, then the flag */
            tx->sync.valid = 0; /* the host forgets its time sync at a bad frame (QS.md 4.1) */
        } else {
            tx->need_flag = 1; /* only the flag was left: the frame is whole */
        }
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
    tx->sync.valid = 0; /* a new session: the first event brings a time sync */
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
    if (rec == EVREC_QS_REC_LOST) {
        evrec_qs_tx_note_lost_written_(tx, tx->seq, payload, len);
    }
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

/* Frames encoded on the stack when the ring has no contiguous room for the worst case (near its
 * end, or full): up to this many bytes (larger maps use the per-byte writer then). */
#define QS_SCRATCH 128u

/* Appends a whole encoded frame to the ring, overwriting the oldest frames as needed (the ring
 * holds two worst-case frames, so the earlier frames always make room). */
static void ring_append(evrec_qs_tx_t *tx, const uint8_t *frame, size_t n)
{
    qs_writer_t w;
    writer_open(tx, &w);
    while (w.size - w.used < n && evrec_qs_tx_drop_oldest_(tx, &w)) {
    }
    size_t first = w.size - w.head < n ? w.size - w.head : n;
    memcpy(w.buf + w.head, frame, first);
    memcpy(w.buf, frame + first, n - first);
    w.head += n;
    if (w.head >= w.size) {
        w.head -= w.size;
    }
    w.used += n;
    writer_close(tx, &w);
}

/* The event frame when the fast path cannot take it. */
static void put_event_slow(evrec_qs_tx_t *tx, uint8_t seq, uint16_t id, uint32_t time, const void *native)
    __attribute__((noinline));
static void put_event_slow(evrec_qs_tx_t *tx, uint8_t seq, uint16_t id, uint32_t time, const void *native)
{
    if (evrec_qs_frame_worst_(&tx->map) <= QS_SCRATCH) {
        uint8_t tmp[QS_SCRATCH];
        ring_append(tx, tmp, (size_t)(evrec_qs_enc_event_(&tx->map, tmp, seq, id, time, native) - tmp));
        return;
    }
    qs_writer_t w;
    writer_open(tx, &w);
    qs_begin(&w, seq, (uint8_t)(EVREC_QS_REC_USER + tx->map.events[id].slot));
    evrec_qs_put_event_(&tx->map, &w, native, id, time);
    qs_end(&w);
    writer_close(tx, &w);
}

/* One event frame, under the lock. Fast path: room for the worst case, contiguous. */
static inline __attribute__((always_inline)) void put_event_as(evrec_qs_tx_t *tx, uint16_t id, uint32_t time,
                                                               const void *native, const int plain)
{
    uint8_t seq = ++tx->seq;
    size_t lim = tx->fast_lim;
    if (__builtin_expect(tx->used <= lim && tx->head <= lim, 1)) { /* room for the worst case, contiguous */
        uint8_t *p = tx->ring + tx->head;
        uint8_t *end = (plain || tx->map.prog) ? qs_prog_event(&tx->map, p, seq, id, time, native, plain) : NULL;
        if (__builtin_expect(end == NULL, 0)) {
            end = evrec_qs_enc_event_esc_(&tx->map, p, seq, id, time, native);
        }
        /* the frame's stores may alias *tx: read the state again rather than keep it live */
        size_t head = (size_t)(end - tx->ring);
        __atomic_store_n(&tx->used, tx->used + (head - tx->head), __ATOMIC_RELAXED);
        tx->head = head == tx->size ? 0u : head;
        tx->frames++;
        return;
    }
    put_event_slow(tx, seq, id, time, native);
}

static void put_event(evrec_qs_tx_t *tx, uint16_t id, uint32_t time, const void *native)
{
    put_event_as(tx, id, time, native, 0);
}

/* 1- and 2-byte timestamps: room for a time sync and the event first (the overwrites may take
 * the last time sync), then the time sync when due, then the event. */
static void put_event_short(evrec_qs_tx_t *tx, uint16_t id, uint32_t time, const void *native)
    __attribute__((noinline));
static void put_event_short(evrec_qs_tx_t *tx, uint16_t id, uint32_t time, const void *native)
{
    qs_writer_t w;
    writer_open(tx, &w);
    while (w.size - w.used < 2u * evrec_qs_frame_worst_(&tx->map) && evrec_qs_tx_drop_oldest_(tx, &w)) {
    }
    __atomic_store_n(&tx->used, w.used, __ATOMIC_RELAXED);
    if (evrec_qs_time_sync_due(&tx->map, &tx->sync, time)) {
        uint8_t f[32];
        size_t n = 0;
        (void)evrec_qs_encode_time_sync(&tx->map, ++tx->seq, time, f, sizeof f, &n);
        ring_append(tx, f, n);
        tx->sync.time = time;
        tx->sync.valid = 1;
        tx->time_syncs++;
    }
    put_event(tx, id, time, native);
}

evrec_status evrec_qs_tx_event_ex(evrec_qs_tx_t *tx, uint16_t event_id, uint32_t time, const void *native)
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
    if (__builtin_expect(tx->plain, 1)) {
        put_event_as(tx, event_id, time, native, 1);
    } else if (tx->map.opts.time_size == 4u) {
        put_event(tx, event_id, time, native);
    } else {
        put_event_short(tx, event_id, time, native);
    }
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

/* Reader side (only the reader touches rd_*): the un-escaped sum of the part of the current
 * frame handed out so far, and whether its last byte was an open escape (7D). Only the bytes
 * after the chunk's last flag matter. */
static void reader_track(evrec_qs_tx_t *tx, const uint8_t *b, size_t len)
{
    size_t i = len;
    while (i > 0 && b[i - 1] != EVREC_QS_FLAG) {
        i--;
    }
    uint8_t sum = i > 0 ? 0u : tx->rd_sum;
    uint8_t esc = i > 0 ? 0u : tx->rd_esc;
    for (; i < len; i++) {
        if (esc) {
            sum = (uint8_t)(sum + (b[i] ^ EVREC_QS_ESC_XOR));
            esc = 0;
        } else if (b[i] == EVREC_QS_ESC) {
            esc = 1;
        } else {
            sum = (uint8_t)(sum + b[i]);
        }
    }
    tx->rd_sum = sum;
    tx->rd_esc = esc;
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
        if (tx->need_flag == 2 && n < max) {
            /* End a cut frame so that QSPY resynchronises at the next frame and never takes it
             * for a good one. QSPY's un-escaping (qspy.c, QSPY_parse) XORs the byte after a 7D
             * with 0x20 whatever it is, a 7E included: after a cut right behind a 7D a bare flag
             * would be eaten and the next frame merged into the cut one. A filler byte (00 or
             * 01, never 7D/7E) completes the escape when one is open, and is chosen so that
             * the cut frame's checksum cannot come out good (an un-escaped sum of 0xFF). */
            uint8_t add = tx->rd_esc ? (uint8_t)EVREC_QS_ESC_XOR : 0u;
            dst[n++] = (uint8_t)((uint8_t)(tx->rd_sum + add) == EVREC_QS_GOOD_SUM ? 1u : 0u);
            tx->rd_esc = 0;
            tx->need_flag = 1;
        }
        if (tx->need_flag == 1 && n < max) {
            dst[n++] = EVREC_QS_FLAG;
            tx->need_flag = 0;
            tx->rd_sum = 0;
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
            reader_track(tx, dst + n, take);
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
