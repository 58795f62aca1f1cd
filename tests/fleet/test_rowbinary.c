/* SPDX-License-Identifier: Apache-2.0 */
/* RowBinary as `evrec export --clickhouse` writes it (viewer-cli/export/clickhouse_rows.c), byte
 * for byte: ClickHouse's documentation ("Formats: RowBinary"): integers little-endian, String =
 * unsigned LEB128 length then the bytes, Array = LEB128 count then the elements. Checked here
 * without a server (the fleet test sends them to one). */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clickhouse.h"
#include "evrec/evrec_container.h"
#include "reader_fixtures.h"

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

/* A recording with 40 attributes (FORMAT.md section 2.6 allows 64), `device` the 36th: every
 * attribute is a tag, and --tag options still apply over them (a table of 32 dropped the
 * attributes after the 32nd, device among them, and then every --tag). */
Test(rowbinary, tags_keep_every_attribute_and_every_tag_option)
{
    fx_buf_t f = {0};
    fx_record(200, 0, &f);
    uint8_t pl[1024];
    size_t n = 1;
    pl[0] = 40;
    for (int i = 0; i < 40; i++) {
        char k[16], v[16];
        snprintf(k, sizeof k, i == 35 ? "device" : "k%02d", i);
        snprintf(v, sizeof v, "v%d", i);
        pl[n++] = (uint8_t)strlen(k);
        memcpy(pl + n, k, strlen(k));
        n += strlen(k);
        pl[n++] = (uint8_t)strlen(v);
        memcpy(pl + n, v, strlen(v));
        n += strlen(v);
    }
    /* The ATTRS chunk right after the header. */
    uint8_t *file = malloc(f.len + 8u + n);
    memcpy(file, f.p, EVREC_HEADER_SIZE);
    uint8_t *c = file + EVREC_HEADER_SIZE;
    uint32_t word = (uint32_t)EVREC_CHUNK_ATTRS << 24 | (uint32_t)n;
    for (int i = 0; i < 4; i++) {
        c[i] = (uint8_t)(word >> (24 - 8 * i));
    }
    memcpy(c + 8, pl, n);
    uint32_t crc = evrec_crc32c(evrec_crc32c(0, c, 4), pl, n);
    for (int i = 0; i < 4; i++) {
        c[4 + i] = (uint8_t)(crc >> (24 - 8 * i));
    }
    memcpy(c + 8 + n, f.p + EVREC_HEADER_SIZE, f.len - EVREC_HEADER_SIZE);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, file, f.len + 8u + n, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_attr_count(r), 40u, "the reader keeps the 40 attributes");
    ch_tags_t given = {.count = 2, .keys = {"fw", "boot"}, .values = {"9.9", "b7"}}, t;
    ch_file_tags(&t, &given, r);
    cr_assert_eq(t.count, 42u);
    cr_assert_str_eq(t.device, "v35", "the 36th attribute");
    cr_assert_str_eq(t.fw, "9.9", "--tag fw");
    cr_assert_str_eq(t.boot, "b7", "--tag boot");
    evrec_reader_close(r);
    free(file);
    fx_buf_free(&f);
}
