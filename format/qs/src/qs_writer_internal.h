/* SPDX-License-Identifier: Apache-2.0 */
/* Private: the byte writer shared by the flat encoders and the transmit ring (not installed).
 * It escapes and checksums as it writes (QP/C "Observability Viewpoint": the checksum is computed
 * over the un-escaped bytes; 0x7E and 0x7D are sent as 0x7D, byte ^ 0x20). */
#ifndef EVREC_QS_WRITER_INTERNAL_H
#define EVREC_QS_WRITER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "evrec/evrec_qs.h"

struct evrec_qs_tx;

typedef struct qs_writer {
    uint8_t *buf;           /* flat buffer, or the ring's storage */
    size_t size;            /* bytes in buf */
    size_t head;            /* next byte to write */
    size_t used;            /* bytes held (ring: from tail to head) */
    size_t old;             /* ring: bytes of earlier frames at the start of `used` */
    struct evrec_qs_tx *tx; /* NULL = flat (overflow when full); else the ring drops old frames */
    uint8_t sum;            /* running sum of un-escaped bytes of the current frame */
    uint8_t overflow;       /* flat buffer ran out of room */
} qs_writer_t;

/* Ring only (qs_tx.c): drop the oldest frame to make room. Returns 0 if there is none. */
int evrec_qs_tx_drop_oldest_(struct evrec_qs_tx *tx, qs_writer_t *w);

static inline void qs_raw(qs_writer_t *w, uint8_t b)
{
    if (w->used == w->size) {
        if (!w->tx || !evrec_qs_tx_drop_oldest_(w->tx, w)) {
            w->overflow = 1;
            return;
        }
    }
    w->buf[w->head] = b;
    if (++w->head == w->size) {
        w->head = 0;
    }
    w->used++;
}

/* One un-escaped byte of seq/record id/payload: summed, then escaped if needed. */
static inline void qs_put(qs_writer_t *w, uint8_t b)
{
    w->sum = (uint8_t)(w->sum + b);
    if (b == EVREC_QS_FLAG || b == EVREC_QS_ESC) {
        qs_raw(w, (uint8_t)EVREC_QS_ESC);
        qs_raw(w, (uint8_t)(b ^ EVREC_QS_ESC_XOR));
    } else {
        qs_raw(w, b);
    }
}

static inline void qs_put_le(qs_writer_t *w, uint32_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        qs_put(w, (uint8_t)(v >> (8u * i)));
    }
}

static inline void qs_begin(qs_writer_t *w, uint8_t seq, uint8_t rec_id)
{
    w->sum = 0;
    qs_put(w, seq);
    qs_put(w, rec_id);
}

/* Checksum (ones' complement of the sum, escaped like any byte) and the flag. */
static inline void qs_end(qs_writer_t *w)
{
    uint8_t chk = (uint8_t)~w->sum;
    qs_put(w, chk);
    qs_raw(w, (uint8_t)EVREC_QS_FLAG);
}

/* Writes the payload of an event record (after seq and record id). Returns EVREC_E_BAD_ID if
 * the record's id is not an event of the map's meta-info (nothing written then). */
evrec_status evrec_qs_put_event_(const evrec_qs_map_t *map, qs_writer_t *w, const void *native, uint16_t id,
                                 uint32_t time);

/* Bytes a frame of the map's largest record may take on the wire: every byte escaped, + flag. */
static inline size_t evrec_qs_frame_worst_(const evrec_qs_map_t *map)
{
    return 2u * ((size_t)map->max_payload + 3u) + 1u;
}

/* The fast encoder (qs_encode.c): one whole event frame (seq .. flag) at p, which must have room
 * for evrec_qs_frame_worst_(map) bytes; `id` must be an event of the map. Returns the end. */
uint8_t *evrec_qs_enc_event_(const evrec_qs_map_t *map, uint8_t *p, uint8_t seq, uint16_t id, uint32_t time,
                             const void *native);

/* One enum field's element (qs_map.c; QS.md "Enums"): ENUM of its group, STR with its name, or an
 * integer of `size` bytes shown as `disp`. */
void evrec_qs_put_enum_(const evrec_qs_map_t *map, qs_writer_t *w, uint16_t enum_id, uint32_t v, unsigned size,
                        uint8_t disp);

/* Live dictionaries (qs_live.c): what a frame dropped from the ring held (ENUM_DICT/USR_DICT
 * frames are queued again by evrec_qs_tx_dict_update()); `hdr` holds its first n un-escaped
 * bytes (seq, record id, payload...). */
void evrec_qs_tx_note_lost_(struct evrec_qs_tx *tx, const uint8_t *hdr, unsigned n);
/* Called by the ring (inside the lock) when it drops the k bytes at ring[first..] (wrapping at
 * size), before reader_mid is updated. */
void evrec_qs_tx_note_drop_(struct evrec_qs_tx *tx, const uint8_t *ring, size_t size, size_t first, size_t k);
/* Called by the reader (inside the lock) for the `len` bytes it just handed out, before
 * reader_mid is updated: keeps the first bytes of a frame left half-read. */
void evrec_qs_tx_note_read_(struct evrec_qs_tx *tx, const uint8_t *p, size_t len);
/* Called by evrec_qs_tx_put_frame_() (inside the lock) for an EVREC_LOST frame it wrote with
 * sequence number `seq` (qs_live.c). */
void evrec_qs_tx_note_lost_written_(struct evrec_qs_tx *tx, uint8_t seq, const uint8_t *payload, size_t len);
/* One whole frame (next seq) into the ring, in one critical section (qs_tx.c). EVREC_E_NO_SPACE
 * when it could never fit. */
evrec_status evrec_qs_tx_put_frame_(struct evrec_qs_tx *tx, uint8_t rec, const uint8_t *payload, size_t len);

/* Appends `name` NUL-terminated at payload[at..], cut to fit the QSPY record limit (QS.md
 * section 1); returns the payload length after it. */
static inline size_t qs_put_name(uint8_t *payload, size_t at, const char *name)
{
    size_t n = 0;
    while (name[n] && at + n < EVREC_QS_MAX_PAYLOAD - 1u) {
        payload[at + n] = (uint8_t)name[n];
        n++;
    }
    payload[at + n] = 0;
    return at + n + 1;
}

/* Local-filter id of a native record of event `id` (QS.md "Filters"). */
static inline uint32_t qs_local_id(const evrec_qs_event_map_t *e, const void *native)
{
    unsigned src = (e->flags >> EVREC_QS_EV_LOCAL_SHIFT) & 3u;
    if (__builtin_expect(src == 0u, 1)) {
        return e->local; /* the class id */
    }
    const uint8_t *p = (const uint8_t *)native + e->local;
    switch (src) {
    case 1: return p[0];
    case 2: {
        uint16_t v;
        __builtin_memcpy(&v, p, sizeof v); /* native byte order, any alignment */
        return v;
    }
    case 3: {
        uint32_t v;
        __builtin_memcpy(&v, p, sizeof v);
        return v;
    }
    default: return e->local;
    }
}

#endif /* EVREC_QS_WRITER_INTERNAL_H */
