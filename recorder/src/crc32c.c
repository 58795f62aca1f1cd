/* CRC-32C (Castagnoli) of the container chunks: table-driven, 1 KiB of const table. A port may
 * replace it with hardware (see ports/posix/src/crc32c_hw.c) by defining EVREC_CRC32C_HW. */
#include "evrec/evrec_save.h"

#ifdef EVREC_CRC32C_HW
uint32_t evrec_crc32c_hw(uint32_t crc, const void *data, size_t len, int *done);
#endif

/* The table is a compile-time constant (in ROM), built by the preprocessor with the standard
 * reflected algorithm for polynomial 0x82F63B78: entry n = n shifted through 8 rounds. */
#define P 0x82F63B78u
#define R1(c) (((c) & 1u) ? (((c) >> 1) ^ P) : ((c) >> 1))
#define R8(c) R1(R1(R1(R1(R1(R1(R1(R1(c))))))))
#define T4(n) R8((uint32_t)(n)), R8((uint32_t)(n) + 1u), R8((uint32_t)(n) + 2u), R8((uint32_t)(n) + 3u)
#define T16(n) T4(n), T4((n) + 4u), T4((n) + 8u), T4((n) + 12u)
#define T64(n) T16(n), T16((n) + 16u), T16((n) + 32u), T16((n) + 48u)
static const uint32_t crc_table[256] = {T64(0u), T64(64u), T64(128u), T64(192u)};

uint32_t evrec_crc32c(uint32_t crc, const void *data, size_t len)
{
    const uint8_t *p = (const uint8_t *)data;
#ifdef EVREC_CRC32C_HW
    int done = 0;
    uint32_t h = evrec_crc32c_hw(crc, data, len, &done);
    if (done) {
        return h;
    }
#endif
    crc = ~crc;
    while (len--) {
        crc = crc_table[(crc ^ *p++) & 0xFFu] ^ (crc >> 8);
    }
    return ~crc;
}
