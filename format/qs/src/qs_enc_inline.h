/* SPDX-License-Identifier: Apache-2.0 */
/* Private: the fast event encoder, inlined into the transmit ring's event path (qs_tx.c) and the
 * flat encoder (qs_encode.c). Not installed.
 *
 * It writes a whole frame into contiguous memory that has room for the worst case (every byte
 * escaped: evrec_qs_frame_worst_()), so no byte checks room; the write position and the checksum
 * stay in registers. The fields come from the event's field program (built by qs_map.c: record
 * id, format bytes and their sum precomputed; two words per leaf field, nested structs
 * flattened), not from the field descriptors. Values are stored whole (one store per field) and
 * only tested for bytes 0x7C..0x7F (qs_esc_acc()); the checksum adds a word's bytes at once
 * (USADA8 on cores with the DSP extension). When a byte may need escaping, the frame is encoded
 * again from its start by the per-byte writer (evrec_qs_enc_event_esc_()). Format bytes (01 03
 * 05 0B 0C F1 F3 F5, 8x..Fx) and record ids (100..123) never need escaping; seq and the checksum
 * are escaped in place. The bytes equal those of the per-byte writer of qs_writer_internal.h
 * (tests/qs/test_qs_frame.c compares them on random events). */
#ifndef EVREC_QS_ENC_INLINE_H
#define EVREC_QS_ENC_INLINE_H

#include "qs_writer_internal.h"

#define QS_INLINE static inline __attribute__((always_inline))

/* Bits 0x80 of a byte set if that byte of v may be 0x7D/0x7E (0x7C..0x7F; false positives only
 * above a true hit), before the final AND with 0x80808080. */
QS_INLINE uint32_t qs_esc_bits(uint32_t v)
{
    uint32_t x = (v ^ 0x7C7C7C7Cu) & 0xFCFCFCFCu;
    return (x - 0x01010101u) & ~x;
}

/* Running sum + the bytes of v (modulo 256 is what counts). */
QS_INLINE uint32_t qs_add_bytes(uint32_t sum, uint32_t v)
{
#if defined(__ARM_FEATURE_SIMD32) && __ARM_FEATURE_SIMD32
    uint32_t r;
    __asm__("usada8 %0, %1, %2, %3" : "=r"(r) : "r"(v), "r"(0u), "r"(sum));
    return r;
#else
    uint32_t t = (v & 0x00FF00FFu) + ((v >> 8) & 0x00FF00FFu);
    return sum + t + (t >> 16); /* the high lane's weight 65536 is 0 modulo 256 */
#endif
}

/* The escape test of a whole frame, accumulated value by value: qs_esc_hit() is true when some
 * byte of some value is 0x7C..0x7F (a superset of 0x7D/0x7E: a false positive only costs the
 * per-byte writer). With the DSP extension three instructions per value (EOR, UADD8 sets a GE
 * flag per byte in that range, SEL clears those bytes of the accumulator), else the "has a zero
 * byte" bit trick (qs_esc_bits()). */
#if defined(__ARM_FEATURE_SIMD32) && __ARM_FEATURE_SIMD32
#define QS_ESC_INIT 0xFFFFFFFFu
QS_INLINE uint32_t qs_esc_acc(uint32_t acc, uint32_t v)
{
    uint32_t t;
    __asm__("eor %1, %2, #0x83838383\n\tuadd8 %1, %1, %3\n\tsel %0, %4, %0"
            : "+r"(acc), "=&r"(t)
            : "r"(v), "r"(0x04040404u), "r"(0u));
    return acc;
}
#define qs_esc_hit(acc) ((acc) != 0xFFFFFFFFu)
#define qs_esc_force(acc) ((acc) = 0u)
#else
#define QS_ESC_INIT 0u
QS_INLINE uint32_t qs_esc_acc(uint32_t acc, uint32_t v)
{
    return acc | qs_esc_bits(v);
}
#define qs_esc_hit(acc) (((acc)&0x80808080u) != 0u)
#define qs_esc_force(acc) ((acc) |= 0x80u)
#endif

QS_INLINE void qs_store_le(uint8_t *p, uint32_t v, unsigned n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v) >> (8u * (4u - n));
#endif
    if (n == 1) {
        p[0] = (uint8_t)v;
    } else if (n == 2) {
        uint16_t h = (uint16_t)v;
        __builtin_memcpy(p, &h, 2);
    } else {
        __builtin_memcpy(p, &v, 4);
    }
}

/* One byte, escaped if needed (seq and checksum). */
QS_INLINE uint8_t *qs_put_byte(uint8_t *p, uint32_t b)
{
    if ((uint8_t)(b - EVREC_QS_ESC) <= 1u) {
        p[0] = (uint8_t)EVREC_QS_ESC;
        p[1] = (uint8_t)(b ^ EVREC_QS_ESC_XOR);
        return p + 2;
    }
    p[0] = (uint8_t)b;
    return p + 1;
}

/* The per-event field program (built by evrec_qs_map_init() in the map's user memory, after the
 * event entries; map->prog, NULL when the memory was too small): one header per event type, then
 * one 32-bit op per leaf field (nested structs flattened depth first, as the per-byte writer walks
 * them). Everything that does not depend on the values is computed once: the record id, the
 * format bytes (display and enum group included) and their sum, the event-type element. */
typedef struct qs_prog_hdr {
    uint8_t flags;  /* QS_PROG_* */
    uint8_t rec;    /* record id */
    uint8_t csum;   /* record id + pre bytes + every format byte, modulo 256 */
    uint8_t npre;   /* bytes of the event-type element (0, 2 or 3) */
    uint8_t pre[4]; /* the event-type element, un-escaped (never needs escaping, else SLOW) */
    uint32_t ops;   /* byte offset of the first op from this header */
    uint32_t nops;  /* leaf fields */
} qs_prog_hdr_t;

/* The frame always goes to the per-byte writer (an enum without group that may be a STR
 * element, an event-type byte to escape, an offset above 65535). */
#define QS_PROG_SLOW 0x01u
/* Has an ENUM element: the per-byte writer while map->inline_names is set. */
#define QS_PROG_GENUM 0x02u
/* Has an ENUM element of a field wider than a byte: its value is checked (<= 255). */
#define QS_PROG_WENUM 0x04u

/* ops, two 32-bit words per leaf field: w0 = right shift (32 - 8 x field bytes; bits 0..7) |
 * QS_OP_ENUM | byte offset of the 4-byte word that ends at the field's last byte (bits 16..31);
 * w1 = format byte (bits 0..7) | element bytes incl. the format byte (bits 8..31). */
#define QS_OP_ENUM 0x100u /* a grouped enum: one byte element, the value must be <= 255 */

/* Bytes of user memory the programs of `meta` take (qs_map.c), at 4-byte alignment. */
size_t evrec_qs_prog_size_(const evrec_meta_t *meta);

/* The elements of the leaf fields: `nops` ops at `op` (QS_OP_*), values from the native record
 * at `base`; check 1: some op may be a grouped enum wider than a byte (QS_PROG_WENUM). */
QS_INLINE uint8_t *qs_prog_fields(uint8_t *p, const uint32_t *op, uint32_t nops, const uint8_t *base,
                                  uint32_t *sump, uint32_t *accp, const int check)
{
    uint32_t sum = *sump, acc = *accp;
    /* Two words per leaf field (QS_OP_*): the field's value is the word that ends at its last
     * byte (never before the record: the map checks), shifted right; the format byte and the
     * whole value word are stored (the worst-case room covers the extra bytes), then p advances
     * by the element's length. */
    for (; nops; nops--, op += 2) {
        const uint32_t w0 = op[0], w1 = op[1];
        uint32_t v;
        __builtin_memcpy(&v, base + (w0 >> 16), 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = (v << (w0 & 0x1Fu)) >> (w0 & 0x1Fu);
#elif defined(__arm__) || defined(__thumb__)
        __asm__("lsr %0, %0, %1" : "+r"(v) : "r"(w0)); /* the shift is w0's low byte */
#else
        v >>= w0 & 0x1Fu;
#endif
        if (check && (w0 & QS_OP_ENUM) != 0u && v > 0xFFu) {
            qs_esc_force(acc); /* a grouped enum value above 255: the per-byte writer decides */
        }
        p[0] = (uint8_t)w1;
        qs_store_le(p + 1, v, 4);
        p += w1 >> 8;
        sum = qs_add_bytes(sum, v);
        acc = qs_esc_acc(acc, v);
    }
    *sump = sum;
    *accp = acc;
    return p;
}

/* One whole event frame at p (room for evrec_qs_frame_worst_()) from the event's program;
 * returns the end, or NULL when the per-byte writer must write it (a value may need escaping,
 * a grouped enum value above 255, an event marked SLOW, inline names on). plain 1: the caller
 * knows that the map has 4-byte timestamps and no event-type element (qs_map_plain()). */
uint8_t *evrec_qs_enc_event_checked_(const evrec_qs_map_t *map, uint8_t *p, uint8_t seq, uint16_t id,
                                     uint32_t time, const void *native);

QS_INLINE uint8_t *qs_prog_event_as(const evrec_qs_map_t *map, uint8_t *p, uint8_t seq, uint16_t id, uint32_t time,
                                    const void *native, const int plain, const int check)
{
    const qs_prog_hdr_t *h = (const qs_prog_hdr_t *)map->prog + id;
    const uint32_t hf = h->flags;
    if (__builtin_expect(hf != 0, 0) && !check) {
        if ((hf & QS_PROG_SLOW) ||
            ((hf & QS_PROG_GENUM) && __atomic_load_n(&map->inline_names, __ATOMIC_RELAXED) != NULL)) {
            return NULL;
        }
        if (hf & QS_PROG_WENUM) { /* rare: the instance that checks enum values */
            return evrec_qs_enc_event_checked_(map, p, seq, id, time, native);
        }
    }
    const uint32_t *op = (const uint32_t *)(const void *)((const uint8_t *)h + h->ops);
    uint32_t nops = h->nops;
    uint32_t sum = (uint32_t)seq + h->csum;
    uint32_t acc;
    p = qs_put_byte(p, seq);
    *p++ = h->rec;
    if (plain) {
        qs_store_le(p, time, 4);
        p += 4;
        sum = qs_add_bytes(sum, time);
        acc = qs_esc_acc(QS_ESC_INIT, time);
    } else {
        const unsigned ts = map->opts.time_size;
        if (ts != 4u) {
            time &= ts == 1u ? 0xFFu : 0xFFFFu;
        }
        qs_store_le(p, time, 4); /* room for the worst case: the extra bytes are overwritten */
        p += ts;
        sum = qs_add_bytes(sum, time);
        acc = qs_esc_acc(QS_ESC_INIT, time);
        __builtin_memcpy(p, h->pre, 4);
        p += h->npre;
    }
    p = qs_prog_fields(p, op, nops, (const uint8_t *)native, &sum, &acc, check);
    if (qs_esc_hit(acc)) {
        return NULL;
    }
    /* the checksum and the flag; ~sum is 7D or 7E (escaped) when the low byte of sum + 0x7F is
     * 0 or 1 */
    const uint32_t chk = ~sum & 0xFFu;
    if (__builtin_expect(((sum + 0x7Fu) & 0xFEu) == 0u, 0)) {
        p[0] = (uint8_t)EVREC_QS_ESC;
        p++;
        qs_store_le(p, (chk ^ EVREC_QS_ESC_XOR) | (uint32_t)EVREC_QS_FLAG << 8, 2);
    } else {
        qs_store_le(p, chk | (uint32_t)EVREC_QS_FLAG << 8, 2);
    }
    return p + 2;
}

/* The instance for the common case: the plain one or not, enum values not checked (an event
 * with QS_PROG_WENUM goes to evrec_qs_enc_event_checked_()). */
QS_INLINE uint8_t *qs_prog_event(const evrec_qs_map_t *map, uint8_t *p, uint8_t seq, uint16_t id, uint32_t time,
                                 const void *native, const int plain)
{
    return qs_prog_event_as(map, p, seq, id, time, native, plain, 0);
}

/* Whether the plain instance applies to the map: 4-byte timestamps, no event-type element. */
static inline int qs_map_plain(const evrec_qs_map_t *map)
{
    return map->opts.time_size == 4u && !map->classes;
}

/* The per-byte writer into room for the worst case (qs_encode.c). */
uint8_t *evrec_qs_enc_event_esc_(const evrec_qs_map_t *map, uint8_t *p, uint8_t seq, uint16_t id, uint32_t time,
                                 const void *native) __attribute__((noinline));

#endif /* EVREC_QS_ENC_INLINE_H */
