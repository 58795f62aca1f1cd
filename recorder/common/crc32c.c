/* SPDX-License-Identifier: Apache-2.0 */
/* CRC-32C (Castagnoli) of the container chunks: table-driven, 1 KiB of const table. A port that
 * has a CRC instruction defines EVREC_PORT_CRC32C(crc, data, len) in its evrec_port.h (the POSIX
 * port does on x86-64 with SSE4.2) and this file uses it instead. */
#include "evrec/evrec_save.h"
#include "evrec_port.h"

/* The table is a compile-time constant (in ROM), built by the preprocessor with the standard
 * reflected algorithm for polynomial 0x82F63B78: entry n = n shifted through 8 rounds. */
#ifndef EVREC_PORT_CRC32C
#define P 0x82F63B78u
#define R1(c) (((c)&1u) ? (((c) >> 1) ^ P) : ((c) >> 1))
#define R8(c) R1(R1(R1(R1(R1(R1(R1(R1(c))))))))
#define T4(n) R8((uint32_t)(n)), R8((uint32_t)(n) + 1u), R8((uint32_t)(n) + 2u), R8((uint32_t)(n) + 3u)
#define T16(n) T4(n), T4((n) + 4u), T4((n) + 8u), T4((n) + 12u)
#define T64(n) T16(n), T16((n) + 16u), T16((n) + 32u), T16((n) + 48u)
static const uint32_t crc_table[256] = {T64(0u), T64(64u), T64(128u), T64(192u)};
#endif

uint32_t evrec_crc32c(uint32_t crc, const void *data, size_t len)
{
#ifdef EVREC_PORT_CRC32C
    return EVREC_PORT_CRC32C(crc, data, len);
#else
    const uint8_t *p = (const uint8_t *)data;
    crc = ~crc;
    while (len--) {
        crc = crc_table[(crc ^ *p++) & 0xFFu] ^ (crc >> 8);
    }
    return ~crc;
#endif
}
