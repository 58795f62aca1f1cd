/* SPDX-License-Identifier: Apache-2.0 */
/* CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) of the container chunks and stream
 * frames. A port that has a CRC instruction defines EVREC_PORT_CRC32C(crc, data, len) in its
 * evrec_port.h (the POSIX port does on x86-64 with SSE4.2) and this file uses it instead.
 * Otherwise EVREC_CRC32C_TABLE (evrec_config.h) chooses: slice-by-4 (4 KiB of const tables),
 * byte-wise (1 KiB) or bit by bit (no table). */
#include "evrec/evrec_save.h"
#include "evrec_port.h"

#if EVREC_CRC32C_TABLE != 0 && EVREC_CRC32C_TABLE != 1 && EVREC_CRC32C_TABLE != 4
#error "EVREC_CRC32C_TABLE must be 0, 1 or 4"
#endif

#define P 0x82F63B78u
#define R1(c) (((c)&1u) ? (((c) >> 1) ^ P) : ((c) >> 1))

#if !defined(EVREC_PORT_CRC32C) && EVREC_CRC32C_TABLE != 0
/* The tables are compile-time constants (in ROM), built by the preprocessor. The CRC is linear:
 * the entry of byte x is the XOR of the entries of x's set bits, and the entry of bit i is
 * 1 << i shifted through 8 rounds (table 0, the byte-wise table; its entry of bit 7 is the
 * polynomial) or, for slice-by-4's table k, through 8(k + 1) rounds (the bit followed by k zero
 * bytes). Those 32 constants are below; tests/recorder/test_crc_table.c checks every setting
 * against a bitwise reference. */
#define BITS(x, k0, k1, k2, k3, k4, k5, k6, k7)                                                                   \
    ((((x)&1u) ? k0 : 0u) ^ (((x)&2u) ? k1 : 0u) ^ (((x)&4u) ? k2 : 0u) ^ (((x)&8u) ? k3 : 0u) ^                  \
     (((x)&16u) ? k4 : 0u) ^ (((x)&32u) ? k5 : 0u) ^ (((x)&64u) ? k6 : 0u) ^ (((x)&128u) ? k7 : 0u))
#define B0(x) BITS(x, 0xF26B8303u, 0xE13B70F7u, 0xC79A971Fu, 0x8AD958CFu, 0x105EC76Fu, 0x20BD8EDEu, 0x417B1DBCu, P)
#define B1(x)                                                                                                     \
    BITS(x, 0x13A29877u, 0x274530EEu, 0x4E8A61DCu, 0x9D14C3B8u, 0x3FC5F181u, 0x7F8BE302u, 0xFF17C604u, 0xFBC3FAF9u)
#define B2(x)                                                                                                     \
    BITS(x, 0xA541927Eu, 0x4F6F520Du, 0x9EDEA41Au, 0x38513EC5u, 0x70A27D8Au, 0xE144FB14u, 0xC76580D9u, 0x8B277743u)
#define B3(x)                                                                                                     \
    BITS(x, 0xDD45AAB8u, 0xBF672381u, 0x7B2231F3u, 0xF64463E6u, 0xE964B13Du, 0xD725148Bu, 0xABA65FE7u, 0x52A0C93Fu)
#define T4(R, n) R((uint32_t)(n)), R((uint32_t)(n) + 1u), R((uint32_t)(n) + 2u), R((uint32_t)(n) + 3u)
#define T16(R, n) T4(R, n), T4(R, (n) + 4u), T4(R, (n) + 8u), T4(R, (n) + 12u)
#define T64(R, n) T16(R, n), T16(R, (n) + 16u), T16(R, (n) + 32u), T16(R, (n) + 48u)
#define T256(R)                                                                                                   \
    {                                                                                                             \
        T64(R, 0u), T64(R, 64u), T64(R, 128u), T64(R, 192u)                                                       \
    }
#if EVREC_CRC32C_TABLE == 4
static const uint32_t crc_table[4][256] = {T256(B0), T256(B1), T256(B2), T256(B3)};
#else
static const uint32_t crc_table[1][256] = {T256(B0)};
#endif

static uint32_t crc_bytes(uint32_t crc, const uint8_t *p, size_t len)
{
    while (len--) {
        crc = crc_table[0][(crc ^ *p++) & 0xFFu] ^ (crc >> 8);
    }
    return crc;
}
#endif

#if !defined(EVREC_PORT_CRC32C) && EVREC_CRC32C_TABLE == 4 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Slice-by-4: the bytes up to a 4-aligned address one by one, then a word per step (its four
 * bytes through the four tables), then the rest. */
static uint32_t crc_words(uint32_t crc, const uint8_t *p, size_t len)
{
    size_t head = (size_t)(-(uintptr_t)p & 3u);
    head = head < len ? head : len;
    crc = crc_bytes(crc, p, head);
    p += head;
    len -= head;
    for (; len >= 4u; p += 4, len -= 4u) {
        uint32_t w;
        __builtin_memcpy(&w, p, 4);
        crc ^= w;
        crc = crc_table[3][crc & 0xFFu] ^ crc_table[2][(crc >> 8) & 0xFFu] ^ crc_table[1][(crc >> 16) & 0xFFu] ^
              crc_table[0][crc >> 24];
    }
    return crc_bytes(crc, p, len);
}
#define CRC_RUN crc_words
#elif !defined(EVREC_PORT_CRC32C) && EVREC_CRC32C_TABLE != 0
#define CRC_RUN crc_bytes /* a big-endian target takes the byte-wise table (table 0) */
#elif !defined(EVREC_PORT_CRC32C)
/* Bit by bit: no table; 8 rounds per byte. */
static uint32_t crc_bits(uint32_t crc, const uint8_t *p, size_t len)
{
    while (len--) {
        crc ^= *p++;
        for (unsigned k = 0; k < 8u; k++) {
            crc = R1(crc);
        }
    }
    return crc;
}
#define CRC_RUN crc_bits
#endif

uint32_t evrec_crc32c(uint32_t crc, const void *data, size_t len)
{
#ifdef EVREC_PORT_CRC32C
    return EVREC_PORT_CRC32C(crc, data, len);
#else
    return ~CRC_RUN(~crc, (const uint8_t *)data, len);
#endif
}
