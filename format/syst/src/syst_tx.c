/* SPDX-License-Identifier: Apache-2.0 */
/* The live SyS-T transmitter: last-is-best ring of whole messages, filters, get-block (the QS
 * transmitter's design, format/qs/QS.md "Concurrency"; the differences in evrec_syst_tx.h).
 * No <string.h>: builtins only, so that it builds with a toolchain without a C library. */
#include "evrec/evrec_syst_tx.h"
#include "syst_internal.h"

static inline uint32_t lock_enter(const evrec_syst_tx_t *tx)
{
    return tx->lock.enter ? tx->lock.enter(tx->lock.ctx) : 0u;
}

static inline void lock_exit(const evrec_syst_tx_t *tx, uint32_t state)
{
    if (tx->lock.exit) {
        tx->lock.exit(tx->lock.ctx, state);
    }
}

/* Bytes of a message besides its payload, and where its length field is. */
static void layout(const evrec_syst_options_t *o, uint32_t *fixed, uint32_t *len_at)
{
    *len_at = 4u + (o->use_guid ? EVREC_SYST_GUID_SIZE : 0u);
    *fixed = *len_at + 2u + (o->timestamp ? 8u : 0u) + (o->crc ? 4u : 0u);
}

static size_t largest_message(const evrec_syst_map_t *map, uint32_t fixed)
{
    size_t ev = fixed + (map->opts.id64 ? 8u : 4u) + map->max_args;
    size_t clk = fixed + 16u;
    return ev > clk ? ev : clk;
}

size_t evrec_syst_tx_overhead(const evrec_meta_t *meta, const evrec_syst_options_t *opts)
{
    if (!meta) {
        return 0;
    }
    evrec_syst_options_t o = {{0}, 0, 0, 0, EVREC_SYST_SEV_INFO, 0, 0, 0, NULL};
    if (opts) {
        o = *opts;
    }
    uint32_t fixed, len_at;
    layout(&o, &fixed, &len_at);
    uint32_t max_leaves = 0;
    for (uint32_t e = 0; e < meta->event_count; e++) {
        uint32_t sid = meta->events[e].struct_id;
        uint32_t n = sid < meta->struct_count ? meta->structs[sid].native_size : 0u; /* >= leaves */
        max_leaves = n > max_leaves ? n : max_leaves;
    }
    size_t entries = (evrec_syst_map_entries_size(meta) + 7u) & ~(size_t)7u;
    size_t msg = fixed + (o.id64 ? 8u : 4u) + (size_t)max_leaves * EVREC_SYST_ARG_SIZE;
    return entries + ((msg + 7u) & ~(size_t)7u);
}

evrec_status evrec_syst_tx_init(evrec_syst_tx_t *tx, const evrec_meta_t *meta, void *buf, size_t size,
                                const evrec_syst_options_t *opts, const evrec_qs_lock_t *lock)
{
    if (!tx || !meta || !buf || ((uintptr_t)buf % 8u) != 0 || (lock && (!lock->enter) != (!lock->exit))) {
        return EVREC_E_ARG;
    }
    __builtin_memset(tx, 0, sizeof *tx);
    size_t over = evrec_syst_tx_overhead(meta, opts);
    size_t entries = (evrec_syst_map_entries_size(meta) + 7u) & ~(size_t)7u;
    if (size <= over) {
        return EVREC_E_ARG;
    }
    evrec_status st = evrec_syst_map_init(&tx->map, meta, opts, buf, entries, NULL);
    if (st != EVREC_OK) {
        return st;
    }
    if (lock) {
        tx->lock = *lock;
    }
    layout(&tx->map.opts, &tx->fixed, &tx->len_at);
    tx->scratch = (uint8_t *)buf + entries;
    tx->scratch_size = over - entries;
    tx->ring = (uint8_t *)buf + over;
    tx->size = size - over;
    if (tx->size < 2u * largest_message(&tx->map, tx->fixed)) {
        return EVREC_E_ARG;
    }
    __builtin_memset(tx->local_filter, 0xFF, sizeof tx->local_filter);
    return EVREC_OK;
}

/* Length of the whole message that starts at ring offset `pos`: its payload length field. */
static size_t message_at(const evrec_syst_tx_t *tx, size_t pos)
{
    size_t p = pos + tx->len_at;
    uint8_t lo = tx->ring[p % tx->size];
    uint8_t hi = tx->ring[(p + 1u) % tx->size];
    return tx->fixed + ((size_t)hi << 8 | lo);
}

/* Inside the lock: make room for n bytes by dropping the oldest whole messages, never one the
 * reader has partly taken. Returns 0 when there is no room (the new message is dropped). */
static int make_room(evrec_syst_tx_t *tx, size_t n)
{
    while (tx->size - tx->used < n) {
        if (tx->tail_rem != 0 || tx->used == 0) {
            return 0;
        }
        size_t tail = (tx->head + tx->size - tx->used) % tx->size;
        size_t k = message_at(tx, tail);
        tx->used -= k;
        tx->overwrites++;
        tx->messages_lost++;
    }
    return 1;
}

/* Inside the lock: the message in scratch (n bytes) into the ring. */
static evrec_status queue(evrec_syst_tx_t *tx, size_t n)
{
    if (!make_room(tx, n)) {
        tx->messages_dropped++;
        return EVREC_E_DROPPED;
    }
    size_t first = tx->size - tx->head < n ? tx->size - tx->head : n;
    __builtin_memcpy(tx->ring + tx->head, tx->scratch, first);
    __builtin_memcpy(tx->ring, tx->scratch + first, n - first);
    tx->head = (tx->head + n) % tx->size;
    __atomic_store_n(&tx->used, tx->used + n, __ATOMIC_RELAXED);
    tx->messages++;
    return EVREC_OK;
}

evrec_status evrec_syst_tx_clock(evrec_syst_tx_t *tx, uint64_t clock, uint64_t freq_hz)
{
    if (!tx) {
        return EVREC_E_ARG;
    }
    uint32_t state = lock_enter(tx);
    size_t n = 0;
    evrec_status st = evrec_syst_encode_clock(&tx->map, clock, freq_hz, tx->scratch, tx->scratch_size, &n);
    if (st == EVREC_OK) {
        st = queue(tx, n);
    }
    lock_exit(tx, state);
    return st;
}

static inline int passes(const evrec_syst_tx_t *tx, const evrec_syst_event_map_t *em)
{
    if (!(__atomic_load_n(&em->flags, __ATOMIC_RELAXED) & EVREC_SYST_EV_ENABLED)) {
        return 0;
    }
    uint32_t c = em->class_id;
    if (c >= EVREC_SYST_LOCAL_IDS) {
        return 1;
    }
    return evrec_filter_test_(tx->local_filter, c);
}

evrec_status evrec_syst_tx_event(evrec_syst_tx_t *tx, uint16_t event_id, uint32_t time, const void *native)
{
    if (!tx || !native) {
        return EVREC_E_ARG;
    }
    if (event_id >= tx->map.meta->event_count) {
        return EVREC_E_BAD_ID;
    }
    if (!passes(tx, &tx->map.events[event_id])) {
        return EVREC_OK;
    }
    uint32_t state = lock_enter(tx);
    /* 64-bit time: a low word that moved forward (by less than 2^31) may have wrapped */
    if (!tx->time_seen) {
        tx->time_seen = 1;
        tx->time_lo = time;
    }
    uint32_t hi = tx->time_hi;
    if ((uint32_t)(time - tx->time_lo) < 0x80000000u) {
        if (time < tx->time_lo) {
            hi = ++tx->time_hi;
        }
        tx->time_lo = time;
    } else if (time > tx->time_lo) {
        hi--; /* a late record from before the latest wrap */
    }
    /* The message length is known before encoding: make room, then encode straight into the
     * ring when the room is contiguous, else into the scratch and copy it around the end. */
    size_t n = tx->fixed + (tx->map.opts.id64 ? 8u : 4u) + tx->map.events[event_id].args;
    evrec_status st = EVREC_E_DROPPED;
    if (!make_room(tx, n)) {
        tx->messages_dropped++;
    } else if (tx->size - tx->head >= n) {
        size_t k = 0;
        st = evrec_syst_encode_id_(&tx->map, event_id, native, (uint64_t)hi << 32 | time, tx->ring + tx->head, n,
                                   &k);
        if (st == EVREC_OK) {
            tx->head = (tx->head + n) % tx->size;
            __atomic_store_n(&tx->used, tx->used + n, __ATOMIC_RELAXED);
            tx->messages++;
        }
    } else {
        size_t k = 0;
        st = evrec_syst_encode_id_(&tx->map, event_id, native, (uint64_t)hi << 32 | time, tx->scratch,
                                   tx->scratch_size, &k);
        if (st == EVREC_OK) {
            st = queue(tx, k);
        }
    }
    lock_exit(tx, state);
    return st;
}

size_t evrec_syst_tx_get_block(evrec_syst_tx_t *tx, uint8_t *dst, size_t max)
{
    if (!tx || !dst || max == 0) {
        return 0;
    }
    /* A copy is retried when a writer overwrote the region meanwhile; under a storm of
     * overwrites give up after a few tries (the caller simply calls again). */
    for (unsigned attempt = 0; attempt < 8u; attempt++) {
        uint32_t state = lock_enter(tx);
        size_t take = tx->used < max ? tx->used : max;
        size_t tail = (tx->head + tx->size - tx->used) % tx->size;
        uint32_t seen = tx->overwrites;
        lock_exit(tx, state);
        if (take == 0) {
            return 0;
        }
        size_t first = tx->size - tail < take ? tx->size - tail : take;
        __builtin_memcpy(dst, tx->ring + tail, first);
        __builtin_memcpy(dst + first, tx->ring, take - first);
        state = lock_enter(tx);
        if (seen == tx->overwrites) {
            /* where the taken bytes end: inside a message (its rest stays) or at a boundary */
            size_t r = tx->tail_rem, pos = tail, left = take;
            while (left) {
                if (r == 0) {
                    r = message_at(tx, pos);
                }
                size_t k = left < r ? left : r;
                left -= k;
                r -= k;
                pos = (pos + k) % tx->size;
            }
            tx->tail_rem = r;
            __atomic_store_n(&tx->used, tx->used - take, __ATOMIC_RELAXED);
            lock_exit(tx, state);
            return take;
        }
        lock_exit(tx, state);
    }
    return 0;
}

size_t evrec_syst_tx_pending(const evrec_syst_tx_t *tx)
{
    return tx ? __atomic_load_n(&tx->used, __ATOMIC_RELAXED) : 0u;
}

evrec_status evrec_syst_tx_global_filter(evrec_syst_tx_t *tx, uint16_t event_id, int on)
{
    if (!tx) {
        return EVREC_E_ARG;
    }
    if (event_id >= tx->map.meta->event_count) {
        return EVREC_E_BAD_ID;
    }
    evrec_filter_bits_(&tx->map.events[event_id].flags, EVREC_SYST_EV_ENABLED, on);
    return EVREC_OK;
}

evrec_status evrec_syst_tx_local_filter(evrec_syst_tx_t *tx, uint32_t class_id, int on)
{
    if (!tx || class_id >= EVREC_SYST_LOCAL_IDS) {
        return EVREC_E_ARG;
    }
    evrec_filter_bits_(&tx->local_filter[class_id >> 3], (uint8_t)(1u << (class_id & 7u)), on);
    return EVREC_OK;
}
