/* SPDX-License-Identifier: Apache-2.0 */
/* The POSIX port's hardware CRC-32C (three-lane crc32 with lane combination) equals a bitwise
 * reference at every length class, including several lane triples and odd tails. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "evrec/evrec_save.h"

static uint32_t crc_bitwise(uint32_t crc, const unsigned char *p, size_t n)
{
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++)
            crc = (crc & 1u) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
    }
    return ~crc;
}

Test(crc_posix, equals_bitwise_reference)
{
    const size_t max = 70000;
    unsigned char *b = malloc(max);
    uint32_t x = 12345;
    for (size_t i = 0; i < max; i++) {
        x = x * 1103515245u + 12345u;
        b[i] = (unsigned char)(x >> 16);
    }
    static const size_t lens[] = {0,     1,     7,     8,     9,     4095,  12287, 12288,
                                  12289, 12295, 24576, 24583, 36864, 40000, 69999, 70000};
    static const uint32_t inits[] = {0, 0xFFFFFFFFu, 0xE3069283u};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        for (size_t j = 0; j < 3; j++)
            cr_assert_eq(evrec_crc32c(inits[j], b + 1, lens[i] - (lens[i] == max)),
                         crc_bitwise(inits[j], b + 1, lens[i] - (lens[i] == max)), "len %zu init %u", lens[i],
                         inits[j]);
    cr_assert_eq(evrec_crc32c(0, "123456789", 9), 0xE3069283u);
    free(b);
}
