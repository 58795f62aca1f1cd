/* SPDX-License-Identifier: Apache-2.0 */
/* Private: the fast event encoder, inlined into the transmit ring's event path (qs_tx.c) and the
 * flat encoder (qs_encode.c). Not installed.
 *
 * It writes a whole frame into contiguous memory that has room for the worst case (every byte
 * escaped: evrec_qs_frame_worst_()), so no byte checks room; the write position and the checksum
 * stay in registers (the struct walk uses an explicit stack, not recursion). First pass: values
 * are stored whole (one store per field) and only tested for bytes 0x7C..0x7F, the test results
 * OR-ed together (the classic "has a zero byte" trick on v ^ 0x7C7C7C7C with the low two bits
 * cleared); the checksum adds a word's bytes at once (USADA8 on cores with the DSP extension).
 * When a byte may need escaping, the frame is encoded again from its start by the per-byte
 * writer (evrec_qs_enc_event_esc_()). Format bytes (01 03 05 0B 0C F1 F3 F5,
 * 8x..Fx) and record ids (100..123) never need escaping; seq and the checksum are escaped
 * in place. The bytes equal those of the per-byte writer of qs_writer_internal.h
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

/* The n (1, 2 or 4) low bytes of v, little-endian. esc 0: stored whole, *flag collects the test;
 * esc 1: each byte escaped. */
QS_INLINE uint8_t *qs_put_value(uint8_t *p, uint32_t v, unsigned n, const int esc, uint32_t *flag)
{
    if (!esc) {
        *flag |= qs_esc_bits(v);
        qs_store_le(p, v, n);
        return p + n;
    }
    for (unsigned i = 0; i < n; i++, v >>= 8) {
        p = qs_put_byte(p, v & 0xFFu);
    }
    return p;
}

QS_INLINE uint32_t qs_load(const uint8_t *p, unsigned size)
{
    if (size == 1) {
        return p[0];
    }
    if (size == 2) {
        uint16_t v;
        __builtin_memcpy(&v, p, sizeof v);
        return v;
    }
    uint32_t v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

/* Format byte by display (DEC, HEX, OBJ, FUN) of U8, U16 and U32 elements. */
static const uint8_t qs_fmt8[4] = {EVREC_QS_T_U8, 0xF0u | EVREC_QS_T_U8, EVREC_QS_T_U8, EVREC_QS_T_U8};
static const uint8_t qs_fmt16[4] = {EVREC_QS_T_U16, 0xF0u | EVREC_QS_T_U16, EVREC_QS_T_U16, EVREC_QS_T_U16};
static const uint8_t qs_fmt32[4] = {EVREC_QS_T_U32, 0xF0u | EVREC_QS_T_U32, EVREC_QS_T_OBJ, EVREC_QS_T_FUN};

static uint8_t *qs_enc_nested(const evrec_qs_map_t *map, uint8_t *p, uint32_t *sump, uint32_t *flag,
                              uint32_t sid, const uint8_t *base, unsigned depth, int with_disp, int esc);

/* The fields of struct `sid` at `base`, from field `from` (2 at the top level: time and id are
 * not elements); nested structs are flattened depth first through qs_enc_nested() (entered while
 * depth < EVREC_MAX_NESTING, as the per-byte writer does), so that the loop's few variables stay
 * in registers. with_disp 0: the map has no display table, every element decimal. */
QS_INLINE uint8_t *qs_enc_fields(const evrec_qs_map_t *map, uint8_t *p, uint32_t *sump, uint32_t *flag,
                                 uint32_t sid, const uint8_t *base, uint32_t from, unsigned depth,
                                 const int with_disp, const int esc)
{
    const evrec_struct_desc_t *s = &map->meta->structs[sid];
    const evrec_field_desc_t *first = s->fields;
    const evrec_field_desc_t *fd = first + from, *end = first + s->field_count;
    const uint8_t *disp = with_disp ? map->opts.field_display[sid] : NULL;
    uint32_t sum = *sump, fl = *flag;
    for (; fd < end; fd++) {
        const uint8_t *q = base + fd->offset;
        unsigned d = (with_disp && disp) ? disp[fd - first] & 3u : 0u;
        uint32_t v;
        uint8_t fmt;
        switch (fd->kind) {
        case EVREC_KIND_UINT8:
            v = q[0];
            fmt = with_disp ? qs_fmt8[d] : (uint8_t)EVREC_QS_T_U8;
            p[0] = fmt;
            sum += fmt + v;
            p = qs_put_value(p + 1, v, 1, esc, &fl);
            break;
        case EVREC_KIND_UINT16:
            v = qs_load(q, 2);
            fmt = with_disp ? qs_fmt16[d] : (uint8_t)EVREC_QS_T_U16;
            p[0] = fmt;
            sum = qs_add_bytes(sum + fmt, v);
            p = qs_put_value(p + 1, v, 2, esc, &fl);
            break;
        case EVREC_KIND_UINT32:
            v = qs_load(q, 4);
            fmt = with_disp ? qs_fmt32[d] : (uint8_t)EVREC_QS_T_U32;
            p[0] = fmt;
            sum = qs_add_bytes(sum + fmt, v);
            p = qs_put_value(p + 1, v, 4, esc, &fl);
            break;
        case EVREC_KIND_ENUM_UINT8:
        case EVREC_KIND_ENUM_UINT16:
        case EVREC_KIND_ENUM_UINT32: {
            unsigned kind = fd->kind;
            unsigned n = kind == EVREC_KIND_ENUM_UINT8 ? 1u : kind == EVREC_KIND_ENUM_UINT16 ? 2u : 4u;
            v = qs_load(q, n);
            uint8_t g = evrec_qs_map_enum_group(map, fd->ref);
            if (g != EVREC_QS_NO_GROUP && v <= 0xFFu) {
                fmt = (uint8_t)(0x80u | ((unsigned)g << 4) | EVREC_QS_T_I8_ENUM);
                n = 1;
                /* a lossy live stream may name the value inline (QS.md "Live dictionaries"):
                 * evrec_qs_put_enum_() in the per-byte writer decides */
                if (__builtin_expect(__atomic_load_n(&map->inline_names, __ATOMIC_RELAXED) != NULL, 0)) {
                    fl |= 0x80u;
                }
            } else {
                fmt = n == 1 ? qs_fmt8[d] : n == 2 ? qs_fmt16[d] : qs_fmt32[d];
                /* a named value outside the groups is a STR element with its name (QS.md
                 * "Enums"): the per-byte writer writes it */
                if (map->opts.enum_as == EVREC_QS_ENUM_AS_AUTO || map->opts.enum_as == EVREC_QS_ENUM_AS_STRINGS) {
                    fl |= 0x80u;
                }
            }
            p[0] = fmt;
            sum = qs_add_bytes(sum + fmt, v);
            p = qs_put_value(p + 1, v, n, esc, &fl);
            break;
        }
        case EVREC_KIND_STRUCT:
            if (depth < EVREC_MAX_NESTING) {
                uint32_t s2 = sum, f2 = fl; /* only these two go through memory */
                p = qs_enc_nested(map, p, &s2, &f2, fd->ref, q, depth + 1, with_disp, esc);
                sum = s2;
                fl = f2;
            }
            break;
        default: break; /* not a kind (the map refuses such a meta-info) */
        }
    }
    *sump = sum;
    *flag = fl;
    return p;
}

static uint8_t *qs_enc_nested(const evrec_qs_map_t *map, uint8_t *p, uint32_t *sump, uint32_t *flag,
                              uint32_t sid, const uint8_t *base, unsigned depth, int with_disp, int esc)
    __attribute__((noinline, unused));
static uint8_t *qs_enc_nested(const evrec_qs_map_t *map, uint8_t *p, uint32_t *sump, uint32_t *flag,
                              uint32_t sid, const uint8_t *base, unsigned depth, int with_disp, int esc)
{
    (void)esc; /* 0: the escaping encoder is the per-byte writer */
    return with_disp ? qs_enc_fields(map, p, sump, flag, sid, base, 0, depth, 1, 0)
                     : qs_enc_fields(map, p, sump, flag, sid, base, 0, depth, 0, 0);
}

/* One whole event frame at p (room for evrec_qs_frame_worst_()); returns the end, or NULL when
 * a value may have needed escaping (the frame is then wrong and must be written again by the
 * per-byte writer). plain 1: the caller knows that the map has 4-byte timestamps, no event-type
 * element and no display table (qs_map_plain()), so none of the three is tested. */
QS_INLINE uint8_t *qs_enc_event_body(const evrec_qs_map_t *map, uint8_t *p, uint8_t seq, uint16_t id,
                                     uint32_t time, const void *native, const int plain)
{
    const int esc = 0;
    uint32_t fbits = 0;
    uint32_t *flag = &fbits;
    const evrec_qs_event_map_t *em = &map->events[id];
    const unsigned ts = plain ? 4u : map->opts.time_size;
    const uint8_t rec = (uint8_t)(EVREC_QS_REC_USER + em->slot);
    uint32_t sum = (uint32_t)seq + rec;
    p = qs_put_byte(p, seq);
    *p++ = rec;
    if (__builtin_expect(ts == 4, 1)) {
        sum = qs_add_bytes(sum, time);
        p = qs_put_value(p, time, 4, esc, flag);
    } else {
        time &= ts == 1 ? 0xFFu : 0xFFFFu;
        sum = qs_add_bytes(sum, time);
        p = qs_put_value(p, time, ts == 1 ? 1u : 2u, esc, flag);
    }
    if (!plain && (em->flags & EVREC_QS_EV_TYPED)) {
        if (map->type_group != EVREC_QS_NO_GROUP) {
            uint8_t f = (uint8_t)(0x80u | ((unsigned)map->type_group << 4) | EVREC_QS_T_I8_ENUM);
            p[0] = f;
            sum += f + (id & 0xFFu);
            p = qs_put_value(p + 1, id & 0xFFu, 1, esc, flag);
        } else {
            p[0] = EVREC_QS_T_U16;
            sum = qs_add_bytes(sum + EVREC_QS_T_U16, id);
            p = qs_put_value(p + 1, id, 2, esc, flag);
        }
    }
    uint32_t sid = map->meta->events[id].struct_id;
    if (!plain && map->opts.field_display) {
        p = qs_enc_fields(map, p, &sum, flag, sid, (const uint8_t *)native, 2, 0, 1, esc);
    } else {
        p = qs_enc_fields(map, p, &sum, flag, sid, (const uint8_t *)native, 2, 0, 0, esc);
    }
    if (fbits & 0x80808080u) {
        return NULL;
    }
    p = qs_put_byte(p, (uint8_t)~sum);
    *p++ = (uint8_t)EVREC_QS_FLAG;
    return p;
}

/* Whether the plain instance applies to the map: 4-byte timestamps, no event-type element, no
 * display table. */
static inline int qs_map_plain(const evrec_qs_map_t *map)
{
    return map->opts.time_size == 4u && !map->classes && !map->opts.field_display;
}

/* The per-byte writer into room for the worst case (qs_encode.c). */
uint8_t *evrec_qs_enc_event_esc_(const evrec_qs_map_t *map, uint8_t *p, uint8_t seq, uint16_t id,
                                 uint32_t time, const void *native);
/* The fast instances (qs_encode.c): NULL when the frame needs the per-byte writer. seq_id = seq |
 * event id << 8 (five arguments). _plain_: only for maps where qs_map_plain() holds. */
uint8_t *evrec_qs_enc_event_fast_(const evrec_qs_map_t *map, uint8_t *p, uint32_t seq_id, uint32_t time,
                                  const void *native);
uint8_t *evrec_qs_enc_event_plain_(const evrec_qs_map_t *map, uint8_t *p, uint32_t seq_id, uint32_t time,
                                   const void *native);

/* One whole event frame at p (room for evrec_qs_frame_worst_(map)); `id` an event of the map;
 * plain = qs_map_plain(map) (a cached copy). Returns the end of the frame. */
QS_INLINE uint8_t *qs_enc_event(const evrec_qs_map_t *map, int plain, uint8_t *p, uint8_t seq, uint16_t id,
                                uint32_t time, const void *native)
{
    uint8_t *end = plain ? evrec_qs_enc_event_plain_(map, p, seq | (uint32_t)id << 8, time, native)
                         : evrec_qs_enc_event_fast_(map, p, seq | (uint32_t)id << 8, time, native);
    if (__builtin_expect(end == NULL, 0)) {
        end = evrec_qs_enc_event_esc_(map, p, seq, id, time, native);
    }
    return end;
}

#endif /* EVREC_QS_ENC_INLINE_H */
