/* SPDX-License-Identifier: Apache-2.0 */
/* RowBinary as `evrec export --clickhouse` writes it (viewer-cli/export/clickhouse_rows.c), byte
 * for byte: ClickHouse's documentation ("Formats: RowBinary"): integers little-endian, String =
 * unsigned LEB128 length then the bytes, Array = LEB128 count then the elements. Checked here
 * without a server (the fleet test sends them to one). */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "clickhouse.h"

void cli_error(const char *fmt, ...)
{
    (void)fmt;
}

static void expect(const ch_buf_t *b, const void *bytes, size_t n)
{
    cr_assert_eq(b->len, n, "%zu bytes written, %zu expected", b->len, n);
    cr_assert_arr_eq(b->p, bytes, n);
}

Test(rowbinary, leb128_lengths)
{
    static const struct {
        uint64_t v;
        uint8_t bytes[10];
        size_t n;
    } cases[] = {
        {0, {0x00}, 1},
        {1, {0x01}, 1},
        {127, {0x7F}, 1},
        {128, {0x80, 0x01}, 2},
        {300, {0xAC, 0x02}, 2},
        {16384, {0x80, 0x80, 0x01}, 3},
        {UINT64_MAX, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}, 10},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ch_buf_t b = {0};
        ch_varuint(&b, cases[i].v);
        expect(&b, cases[i].bytes, cases[i].n);
        free(b.p);
    }
}

Test(rowbinary, integers_little_endian)
{
    ch_buf_t b = {0};
    ch_u8(&b, 0xA1);
    ch_u16(&b, 0xB2B1);
    ch_u32(&b, 0xC4C3C2C1u);
    ch_u64(&b, UINT64_C(0xD8D7D6D5D4D3D2D1));
    static const uint8_t want[] = {0xA1, 0xB1, 0xB2, 0xC1, 0xC2, 0xC3, 0xC4, 0xD1,
                                   0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8};
    expect(&b, want, sizeof want);
    free(b.p);
}

Test(rowbinary, strings_and_the_row_head)
{
    ch_buf_t b = {0};
    ch_str(&b, "fw");
    ch_str(&b, NULL);
    ch_tags_t tags = {.device = "d", .fw = "1.1", .boot = ""};
    ch_row_head(&b, 0x0102030405060708u, &tags);
    static const uint8_t want[] = {2, 'f', 'w', 0, 8, 7, 6, 5, 4, 3, 2, 1, 1, 'd', 3, '1', '.', '1', 0};
    expect(&b, want, sizeof want);
    cr_assert_eq(b.rows, 1, "the head of a row counts the row");
    free(b.p);
}

Test(rowbinary, a_long_string_grows_the_buffer)
{
    ch_buf_t b = {0};
    char *s = malloc(200000);
    cr_assert_not_null(s);
    memset(s, 'x', 199999);
    s[199999] = 0;
    ch_str(&b, s);
    cr_assert_eq(b.len, 3 + 199999u);
    static const uint8_t len[] = {0xBF, 0x9A, 0x0C}; /* 199999 */
    cr_assert_arr_eq(b.p, len, 3);
    cr_assert_eq(b.p[b.len - 1], 'x');
    free(s);
    free(b.p);
}
