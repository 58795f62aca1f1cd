/* SPDX-License-Identifier: Apache-2.0 */
/* evrec_crc32c() of a port without a CRC instruction, in each EVREC_CRC32C_TABLE setting (the
 * file built three times, its function renamed: evrec_crc32c_t0 bit by bit, _t1 byte-wise,
 * _t4 slice-by-4), equals a bitwise reference at every start alignment and length class. */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdint.h>

uint32_t evrec_crc32c_t0(uint32_t crc, const void *data, size_t len);
uint32_t evrec_crc32c_t1(uint32_t crc, const void *data, size_t len);
uint32_t evrec_crc32c_t4(uint32_t crc, const void *data, size_t len);

static uint32_t crc_reference(uint32_t crc, const unsigned char *p, size_t n)
{
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++) {
            crc = (crc & 1u) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
        }
    }
    return ~crc;
}

static void check(uint32_t (*fn)(uint32_t, const void *, size_t), const char *name)
{
    static unsigned char b[4200];
    uint32_t x = 777;
    for (size_t i = 0; i < sizeof b; i++) {
        x = x * 1103515245u + 12345u;
        b[i] = (unsigned char)(x >> 16);
    }
    static const size_t lens[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 64, 255, 1000, 4096};
    static const uint32_t inits[] = {0, 0xFFFFFFFFu, 0xE3069283u};
    for (size_t a = 0; a < 8; a++) {
        for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            for (size_t j = 0; j < 3; j++) {
                cr_assert_eq(fn(inits[j], b + a, lens[i]), crc_reference(inits[j], b + a, lens[i]),
                             "%s: start +%zu, len %zu, init %08x", name, a, lens[i], (unsigned)inits[j]);
            }
        }
    }
    cr_assert_eq(fn(0, "123456789", 9), 0xE3069283u, "%s: the check value", name);
}

Test(crc_table, bitwise)
{
    check(evrec_crc32c_t0, "EVREC_CRC32C_TABLE 0");
}

Test(crc_table, bytewise)
{
    check(evrec_crc32c_t1, "EVREC_CRC32C_TABLE 1");
}

Test(crc_table, slice_by_4)
{
    check(evrec_crc32c_t4, "EVREC_CRC32C_TABLE 4");
}
