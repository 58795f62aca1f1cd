/* SPDX-License-Identifier: Apache-2.0 */
/* Live dictionaries and loss records of the QS transmitter (QS.md "Live dictionaries", "Loss
 * records"): run-time enum names allocated after the session started, dictionary frames the ring
 * lost, and EVREC_LOST records. Freestanding. */
#include <string.h>

#include "evrec/evrec_qs_tx.h"
#include "qs_writer_internal.h"

static const char *const lost_kind_name[2] = {"dropped", "overwritten"};

/* Payload of an EVREC_LOST record: timestamp, STR kind, U32 count. Returns its length. */
static size_t lost_payload(const evrec_qs_map_t *map, uint32_t time, uint8_t kind, uint32_t count, uint8_t *p)
{
    size_t n = 0;
    for (unsigned i = 0; i < map->opts.time_size; i++) {
        p[n++] = (uint8_t)(time >> (8u * i));
    }
    p[n++] = EVREC_QS_T_STR;
    for (const char *s = lost_kind_name[kind]; *s; s++) {
        p[n++] = (uint8_t)*s;
    }
    p[n++] = 0;
    p[n++] = EVREC_QS_T_U32;
    for (unsigned i = 0; i < 4; i++) {
        p[n++] = (uint8_t)(count >> (8u * i));
    }
    return n;
}

evrec_status evrec_qs_encode_lost(const evrec_qs_map_t *map, uint8_t seq, uint32_t time, uint8_t kind,
                                  uint32_t count, uint8_t *out, size_t out_size, size_t *out_len)
{
    if (!map || !out || !out_len || kind > EVREC_QS_LOST_OVERWRITTEN) {
        return EVREC_E_ARG;
    }
    uint8_t p[32];
    size_t len = lost_payload(map, time, kind, count, p);
    size_t n = evrec_qs_frame(seq, EVREC_QS_REC_LOST, p, len, out, out_size);
    if (n == 0) {
        return EVREC_E_NO_SPACE;
    }
    *out_len = n;
    return EVREC_OK;
}

evrec_status evrec_qs_tx_lost(evrec_qs_tx_t *tx, uint32_t time, uint8_t kind, uint64_t count)
{
    if (!tx || kind > EVREC_QS_LOST_OVERWRITTEN) {
        return EVREC_E_ARG;
    }
    while (count) {
        uint32_t c = count > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)count;
        uint8_t p[32];
        size_t len = lost_payload(&tx->map, time, kind, c, p);
        evrec_status st = evrec_qs_tx_put_frame_(tx, EVREC_QS_REC_LOST, p, len);
        if (st != EVREC_OK) {
            return st;
        }
        count -= c;
    }
    return EVREC_OK;
}

/* ---- lost dictionary frames ----------------------------------------------------------------- */

/* (g, v) whose dictionary entry may not have reached the host: named inline until confirmed. */
static void unconfirm(struct evrec_qs_tx *tx, unsigned g, unsigned v)
{
    __atomic_fetch_or(&tx->dict_unconfirmed[g][v >> 3], (uint8_t)(1u << (v & 7u)), __ATOMIC_RELAXED);
    if (!__atomic_load_n(&tx->map.inline_names, __ATOMIC_RELAXED)) {
        __atomic_store_n(&tx->map.inline_names, &tx->dict_unconfirmed[0][0], __ATOMIC_RELAXED);
    }
}

/* The reader handed out a whole ENUM_DICT frame (hdr: seq, record id, value, group). */
static void confirm(struct evrec_qs_tx *tx, const uint8_t *hdr, unsigned n)
{
    if (n >= 4 && hdr[1] == EVREC_QS_REC_ENUM_DICT) {
        __atomic_fetch_and(&tx->dict_unconfirmed[hdr[3] & 7u][hdr[2] >> 3], (uint8_t) ~(1u << (hdr[2] & 7u)),
                           __ATOMIC_RELAXED);
    }
}

void evrec_qs_tx_note_lost_(struct evrec_qs_tx *tx, const uint8_t *hdr, unsigned n)
{
    if (n < 2 || (n == 2 && hdr[1] == EVREC_QS_REC_ENUM_DICT)) {
        /* a frame cut before its value left the ring: name every run-time value again */
        for (unsigned g = 0; g < EVREC_QS_ENUM_GROUPS; g++) {
            __atomic_store_n(&tx->rt_announced[g], 0, __ATOMIC_RELAXED);
        }
    } else if (n >= 3 && hdr[1] == EVREC_QS_REC_ENUM_DICT) {
        /* the value; the group too when the reader had handed it out, else every group */
        for (unsigned g = 0; g < EVREC_QS_ENUM_GROUPS; g++) {
            if (n < 4 || g == (hdr[3] & 7u)) {
                __atomic_fetch_or(&tx->dict_pending[g][hdr[2] >> 3], (uint8_t)(1u << (hdr[2] & 7u)),
                                  __ATOMIC_RELAXED);
                unconfirm(tx, g, hdr[2]);
            }
        }
        __atomic_store_n(&tx->dict_any, 1, __ATOMIC_RELAXED);
    } else if (n >= 3 && hdr[1] == EVREC_QS_REC_USR_DICT && hdr[2] >= EVREC_QS_REC_USER &&
               hdr[2] < EVREC_QS_REC_USER + 32u) {
        __atomic_fetch_or(&tx->usr_pending, 1u << (hdr[2] - EVREC_QS_REC_USER), __ATOMIC_RELAXED);
        __atomic_store_n(&tx->dict_any, 1, __ATOMIC_RELAXED);
    }
}

/* Un-escapes up to 4 bytes from p[0..len) into hdr[*n..4), *esc carrying an escape between calls. */
static void take_header(const uint8_t *p, size_t len, uint8_t *hdr, uint8_t *n, uint8_t *esc)
{
    for (size_t i = 0; i < len && *n < 4u; i++) {
        uint8_t b = p[i];
        if (*esc) {
            hdr[(*n)++] = (uint8_t)(b ^ EVREC_QS_ESC_XOR);
            *esc = 0;
        } else if (b == EVREC_QS_ESC) {
            *esc = 1;
        } else {
            hdr[(*n)++] = b;
        }
    }
}

/* Adds `count` lost records of `kind` to send again (saturating), with the first one's time. */
static void lost_pend(struct evrec_qs_tx *tx, unsigned kind, uint32_t time, uint32_t count)
{
    uint32_t old = __atomic_load_n(&tx->lost_pending[kind], __ATOMIC_RELAXED), nv;
    do {
        if (old == 0) {
            tx->lost_time[kind] = time;
        }
        nv = old + count < old ? 0xFFFFFFFFu : old + count;
    } while (
        !__atomic_compare_exchange_n(&tx->lost_pending[kind], &old, nv, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    __atomic_store_n(&tx->dict_any, 1, __ATOMIC_RELAXED);
}

/* Un-escapes the k dropped bytes at ring[first..] (wrapping at size) up to the flag into f (cap
 * bytes). Returns the bytes, or 0 when they do not fit (not a frame lost_payload() made). */
static size_t unescape_dropped(const uint8_t *ring, size_t size, size_t first, size_t k, uint8_t *f, size_t cap)
{
    size_t n = 0;
    int esc = 0;
    for (size_t i = 0; i < k; i++) {
        uint8_t b = ring[(first + i) % size];
        if (b == EVREC_QS_FLAG) {
            break;
        }
        if (esc) {
            b ^= EVREC_QS_ESC_XOR;
            esc = 0;
        } else if (b == EVREC_QS_ESC) {
            esc = 1;
            continue;
        }
        if (n == cap) {
            return 0;
        }
        f[n++] = b;
    }
    return n;
}

/* A whole EVREC_LOST frame (k escaped bytes at ring[first..], flag included) is overwritten before
 * it was read: its count is kept to be sent again by evrec_qs_tx_dict_update(). */
static void lost_frame_dropped(struct evrec_qs_tx *tx, const uint8_t *ring, size_t size, size_t first, size_t k)
{
    uint8_t f[40];
    size_t n = unescape_dropped(ring, size, first, k, f, sizeof f);
    /* seq, id, timestamp, STR kind \0, U32 count, checksum */
    size_t ts = tx->map.opts.time_size, at = 2u + ts;
    if (n < at + 2u || f[at] != EVREC_QS_T_STR) {
        return;
    }
    unsigned kind = f[at + 1u] == 'o' ? EVREC_QS_LOST_OVERWRITTEN : EVREC_QS_LOST_DROPPED;
    size_t z = at + 1u;
    while (z < n && f[z] != 0) {
        z++;
    }
    if (z + 6u > n || f[z + 1u] != EVREC_QS_T_U32) {
        return;
    }
    uint32_t count = (uint32_t)f[z + 2u] | (uint32_t)f[z + 3u] << 8 | (uint32_t)f[z + 4u] << 16 |
                     (uint32_t)f[z + 5u] << 24;
    uint32_t time = 0;
    for (size_t i = 0; i < ts; i++) {
        time |= (uint32_t)f[2u + i] << (8u * i);
    }
    lost_pend(tx, kind, time, count);
}

void evrec_qs_tx_note_lost_written_(struct evrec_qs_tx *tx, uint8_t seq, const uint8_t *payload, size_t len)
{
    /* payload: timestamp, STR kind \0, U32 count (lost_payload()) */
    size_t at = tx->map.opts.time_size;
    if (len < at + 7u) {
        return;
    }
    unsigned slot = tx->lost_next++ & 3u; /* the last four LOST frames written */
    tx->lost_recent[slot].seq = seq;
    tx->lost_recent[slot].kind = payload[at + 1u] == 'o' ? EVREC_QS_LOST_OVERWRITTEN : EVREC_QS_LOST_DROPPED;
    tx->lost_recent[slot].count = (uint32_t)payload[len - 4u] | (uint32_t)payload[len - 3u] << 8 |
                                  (uint32_t)payload[len - 2u] << 16 | (uint32_t)payload[len - 1u] << 24;
    tx->lost_recent[slot].used = 1;
}

/* An EVREC_LOST frame cut while being read: the host rejects the cut frame (its checksum never
 * passes, QS.md 5), so its count, kept when the frame was written, goes out again. `seq` is the
 * frame's sequence number (the first byte the reader kept). */
static void lost_cut(struct evrec_qs_tx *tx, uint8_t seq)
{
    unsigned slot = 0;
    while (slot < 4u && !(tx->lost_recent[slot].used && tx->lost_recent[slot].seq == seq)) {
        slot++;
    }
    if (slot == 4u) {
        return; /* four or more LOST frames later: not kept (the gap shows the loss) */
    }
    tx->lost_recent[slot].used = 0;
    uint32_t time = 0;
    for (unsigned i = 0; i < tx->map.opts.time_size && 2u + i < tx->read_hdr_n; i++) {
        time |= (uint32_t)tx->read_hdr[2u + i] << (8u * i);
    }
    lost_pend(tx, tx->lost_recent[slot].kind, time, tx->lost_recent[slot].count);
}

void evrec_qs_tx_note_drop_(struct evrec_qs_tx *tx, const uint8_t *ring, size_t size, size_t first, size_t k)
{
    if (tx->reader_mid) {
        if (k > 1 && tx->read_hdr_n >= 2u && tx->read_hdr[1] == EVREC_QS_REC_LOST) {
            lost_cut(tx, tx->read_hdr[0]);
        }
        if (k > 1) { /* cut while being read: the reader kept its first bytes */
            evrec_qs_tx_note_lost_(tx, tx->read_hdr, tx->read_hdr_n);
        } else { /* only its flag was left: the reader sends one, the frame arrives whole */
            confirm(tx, tx->read_hdr, tx->read_hdr_n);
        }
        tx->read_hdr_n = 0;
        tx->read_esc = 0;
        return;
    }
    uint8_t hdr[4] = {0, 0, 0, 0}, n = 0, esc = 0;
    for (size_t i = 0; i < k && i < 8u && n < 4u; i++) {
        uint8_t b = ring[(first + i) % size];
        take_header(&b, 1, hdr, &n, &esc);
    }
    if (n >= 2 && hdr[1] == EVREC_QS_REC_LOST) {
        lost_frame_dropped(tx, ring, size, first, k);
        return;
    }
    evrec_qs_tx_note_lost_(tx, hdr, n);
}

void evrec_qs_tx_note_read_(struct evrec_qs_tx *tx, const uint8_t *p, size_t len)
{
    if (len == 0) {
        return;
    }
    if (__atomic_load_n(&tx->map.inline_names, __ATOMIC_RELAXED)) {
        /* Names are sent inline until their dictionary frame is read out: walk every frame. */
        if (!tx->reader_mid) {
            tx->read_hdr_n = 0;
            tx->read_esc = 0;
        }
        for (size_t i = 0; i < len; i++) {
            if (p[i] == EVREC_QS_FLAG) {
                confirm(tx, tx->read_hdr, tx->read_hdr_n);
                tx->read_hdr_n = 0;
                tx->read_esc = 0;
            } else if (tx->read_hdr_n < 4u) {
                take_header(p + i, 1, tx->read_hdr, &tx->read_hdr_n, &tx->read_esc);
            }
        }
        return;
    }
    if (p[len - 1] == EVREC_QS_FLAG) {
        tx->read_hdr_n = 0; /* ends on a frame boundary */
        tx->read_esc = 0;
        return;
    }
    size_t start = len - 1;
    while (start > 0 && p[start - 1] != EVREC_QS_FLAG) {
        start--;
    }
    if (start > 0 || !tx->reader_mid) { /* a frame starts in this chunk */
        tx->read_hdr_n = 0;
        tx->read_esc = 0;
    }
    take_header(p + start, len - start, tx->read_hdr, &tx->read_hdr_n, &tx->read_esc);
}

/* ---- dictionary update ------------------------------------------------------------------------ */

/* Name of value v in group g for its QS_ENUM_DICT record, or NULL. */
static const char *dict_name(const evrec_qs_map_t *map, unsigned g, uint32_t v)
{
    const evrec_meta_t *m = map->meta;
    if (g == map->type_group) {
        return v < m->event_count ? m->structs[m->events[v].struct_id].name : NULL;
    }
    uint16_t eid = map->group_enum[g];
    if (eid >= m->enum_count) {
        return NULL;
    }
    const evrec_enum_desc_t *e = &m->enums[eid];
    const evrec_runtime_enum_t *rt = e->runtime;
    if (rt && v >= rt->base && v < rt->lim) {
        size_t next = evrec_atomic_load_acquire(&rt->next);
        return v < next ? __atomic_load_n(&rt->names[v - rt->base], __ATOMIC_ACQUIRE) : NULL;
    }
    for (uint32_t i = 0; i < e->value_count && e->values[i].value <= v; i++) {
        if (e->values[i].value == v) {
            return e->values[i].name;
        }
    }
    return NULL;
}

/* Whether a dictionary frame may go into the ring now (QS.md 8.1, "Re-sending without starving
 * the link"): always while the ring has never lost a frame (the stream stays as it was); once it
 * has, only while at most 1/EVREC_QS_DICT_ROOM_DIV of it is waiting to be read. A frame queued
 * into a ring that overflows is mostly lost again, and each one pushes an event out; the values
 * it would name are named inline meanwhile, and the frame goes when the link catches up. Relaxed
 * loads: a heuristic, a stale value only moves a frame to the next call. */
#define EVREC_QS_DICT_ROOM_DIV 4u

static int dict_room(const evrec_qs_tx_t *tx)
{
    if (!__atomic_load_n(&tx->overwrites, __ATOMIC_RELAXED)) {
        return 1;
    }
    return __atomic_load_n(&tx->used, __ATOMIC_RELAXED) <= tx->size / EVREC_QS_DICT_ROOM_DIV;
}

/* The session's USR_DICT record of `rec_id` (rare: only after the ring lost one). */
static uint32_t resend_usr(evrec_qs_tx_t *tx, uint8_t rec_id, uint8_t *payload)
{
    evrec_qs_session_cursor_t cur = {0, 0, 0};
    uint8_t rec;
    size_t len;
    while (evrec_qs_session_next(&tx->map, &cur, &rec, payload, &len) == EVREC_OK) {
        if (rec == EVREC_QS_REC_USR_DICT && payload[0] == rec_id) {
            return evrec_qs_tx_put_frame_(tx, rec, payload, len) == EVREC_OK ? 1u : 0u;
        }
    }
    return 0;
}

int evrec_qs_tx_dict_pending(const evrec_qs_tx_t *tx)
{
    if (!tx) {
        return 0;
    }
    if (__atomic_load_n(&tx->dict_any, __ATOMIC_RELAXED) ||
        __atomic_load_n(&tx->lost_pending[0], __ATOMIC_RELAXED) ||
        __atomic_load_n(&tx->lost_pending[1], __ATOMIC_RELAXED)) {
        return 1;
    }
    const evrec_qs_map_t *map = &tx->map;
    const evrec_meta_t *m = map->meta;
    for (unsigned g = 0; g < map->group_count; g++) { /* names handed out and not announced yet */
        uint16_t eid = map->group_enum[g];
        const evrec_runtime_enum_t *rt = eid < m->enum_count ? m->enums[eid].runtime : NULL;
        if (rt) {
            size_t next = evrec_atomic_load_acquire(&rt->next);
            size_t top = next < rt->lim ? next : rt->lim;
            if (top > rt->base && __atomic_load_n(&tx->rt_announced[g], __ATOMIC_RELAXED) < top - rt->base) {
                return 1;
            }
        }
    }
    return 0;
}

/* 1. Run-time names handed out since the last call: pending. */
static void note_runtime_names(evrec_qs_tx_t *tx)
{
    const evrec_qs_map_t *map = &tx->map;
    const evrec_meta_t *m = map->meta;
    for (unsigned g = 0; g < map->group_count; g++) {
        uint16_t eid = map->group_enum[g];
        if (eid >= m->enum_count || !m->enums[eid].runtime) {
            continue;
        }
        const evrec_runtime_enum_t *rt = m->enums[eid].runtime;
        size_t next = evrec_atomic_load_acquire(&rt->next);
        size_t top = next < rt->lim ? next : rt->lim;
        uint32_t handed = top > rt->base ? (uint32_t)(top - rt->base) : 0u;
        uint32_t k = __atomic_load_n(&tx->rt_announced[g], __ATOMIC_RELAXED);
        while (k < handed) {
            const char *name = __atomic_load_n(&rt->names[k], __ATOMIC_ACQUIRE);
            if (!name) {
                break; /* allocated, name not stored yet: next call */
            }
            uint32_t v = rt->base + k;
            if (v <= 0xFFu) {
                __atomic_fetch_or(&tx->dict_pending[g][v >> 3], (uint8_t)(1u << (v & 7u)), __ATOMIC_RELAXED);
                __atomic_store_n(&tx->dict_any, 1, __ATOMIC_RELAXED);
            }
            k++;
        }
        __atomic_store_n(&tx->rt_announced[g], k, __ATOMIC_RELAXED);
    }
}

/* Room in the ring for dictionary frames: *room turns 0 (and *deferred 1) at the first "no". */
static int dict_room_left(evrec_qs_tx_t *tx, int *room, int *deferred)
{
    if (*room && !(*room = dict_room(tx))) {
        *deferred = 1;
    }
    return *room;
}

/* 2a. The pending enum values of byte i of group g (values i x 8 .. i x 8 + 7). Returns the
 * frames sent. */
static uint32_t send_enum_byte(evrec_qs_tx_t *tx, unsigned g, unsigned i, int *room, int *deferred,
                               uint8_t *payload)
{
    const evrec_qs_map_t *map = &tx->map;
    uint32_t sent = 0;
    uint8_t bits = __atomic_exchange_n(&tx->dict_pending[g][i], 0, __ATOMIC_RELAXED);
    for (unsigned b = 0; bits; b++, bits >>= 1) {
        if (!(bits & 1u)) {
            continue;
        }
        uint32_t v = i * 8u + b;
        const char *name = g < map->group_count ? dict_name(map, g, v) : NULL;
        if (!name) {
            continue;
        }
        if (!dict_room_left(tx, room, deferred)) {
            /* the ring is too full: later, and named inline until then */
            __atomic_fetch_or(&tx->dict_pending[g][i], (uint8_t)(1u << b), __ATOMIC_RELAXED);
            unconfirm(tx, g, v);
            continue;
        }
        payload[0] = (uint8_t)v;
        payload[1] = (uint8_t)g;
        size_t len = qs_put_name(payload, 2, name);
        if (__atomic_load_n(&tx->overwrites, __ATOMIC_RELAXED)) {
            /* a lossy ring (it overwrote frames): named inline until read out */
            unconfirm(tx, g, v);
        }
        sent += evrec_qs_tx_put_frame_(tx, EVREC_QS_REC_ENUM_DICT, payload, len) == EVREC_OK ? 1u : 0u;
    }
    return sent;
}

/* 2b. The pending user record names. Returns the frames sent. */
static uint32_t send_usr_names(evrec_qs_tx_t *tx, int *room, int *deferred, uint8_t *payload)
{
    uint32_t sent = 0;
    uint32_t usr = __atomic_exchange_n(&tx->usr_pending, 0, __ATOMIC_RELAXED);
    for (unsigned b = 0; usr; b++, usr >>= 1) {
        if (!(usr & 1u)) {
            continue;
        }
        if (!dict_room_left(tx, room, deferred)) {
            __atomic_fetch_or(&tx->usr_pending, 1u << b, __ATOMIC_RELAXED);
        } else {
            sent += resend_usr(tx, (uint8_t)(EVREC_QS_REC_USER + b), payload);
        }
    }
    return sent;
}

/* 3. EVREC_LOST records the ring overwrote: their counts again, one record per kind. */
static uint32_t resend_lost(evrec_qs_tx_t *tx)
{
    uint32_t sent = 0;
    for (unsigned kind = 0; kind < 2u; kind++) {
        uint32_t c = __atomic_exchange_n(&tx->lost_pending[kind], 0, __ATOMIC_RELAXED);
        if (c && evrec_qs_tx_lost(tx, tx->lost_time[kind], (uint8_t)kind, c) == EVREC_OK) {
            tx->lost_resent++;
            sent++;
        }
    }
    return sent;
}

uint32_t evrec_qs_tx_dict_update(evrec_qs_tx_t *tx)
{
    if (!tx) {
        return 0;
    }
    note_runtime_names(tx);
    /* 2. Send what is pending: new names and dictionary frames the ring lost. */
    if (!__atomic_exchange_n(&tx->dict_any, 0, __ATOMIC_RELAXED)) {
        return 0;
    }
    uint8_t payload[EVREC_QS_MAX_PAYLOAD];
    uint32_t sent = 0;
    int room = 1, deferred = 0;
    for (unsigned g = 0; g < EVREC_QS_ENUM_GROUPS; g++) {
        for (unsigned i = 0; i < 32u; i++) {
            sent += send_enum_byte(tx, g, i, &room, &deferred, payload);
        }
    }
    sent += send_usr_names(tx, &room, &deferred, payload);
    if (deferred) {
        __atomic_store_n(&tx->dict_any, 1, __ATOMIC_RELAXED);
    }
    tx->dict_sent += sent;
    return sent + resend_lost(tx);
}
