/* SPDX-License-Identifier: Apache-2.0 */
/* RowBinary, ClickHouse's binary row format: integers little-endian, String = LEB128 length +
 * bytes, Array = LEB128 count + elements (ClickHouse's documentation, "Formats: RowBinary"). */
#include <stdlib.h>
#include <string.h>

#include "clickhouse.h"

void ch_put(ch_buf_t *b, const void *s, size_t n)
{
    if (b->cap - b->len < n) {
        size_t cap = b->cap ? b->cap : 64 * 1024;
        while (cap - b->len < n) {
            cap *= 2;
        }
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            cli_error("out of memory");
            exit(CLI_BAD_INPUT);
        }
        b->p = p;
        b->cap = cap;
    }
    if (n) { /* an empty string may come as NULL */
        memcpy(b->p + b->len, s, n);
    }
    b->len += n;
}

static void put_le(ch_buf_t *b, uint64_t v, unsigned n)
{
    uint8_t x[8];
    for (unsigned i = 0; i < n; i++) {
        x[i] = (uint8_t)(v >> (8 * i));
    }
    ch_put(b, x, n);
}

void ch_u8(ch_buf_t *b, uint8_t v)
{
    put_le(b, v, 1);
}
void ch_u16(ch_buf_t *b, uint16_t v)
{
    put_le(b, v, 2);
}
void ch_u32(ch_buf_t *b, uint32_t v)
{
    put_le(b, v, 4);
}
void ch_u64(ch_buf_t *b, uint64_t v)
{
    put_le(b, v, 8);
}

void ch_varuint(ch_buf_t *b, uint64_t v)
{
    uint8_t x[10];
    unsigned n = 0;
    do {
        x[n] = (uint8_t)(v & 0x7F);
        v >>= 7;
        x[n++] |= v ? 0x80 : 0;
    } while (v);
    ch_put(b, x, n);
}

void ch_str(ch_buf_t *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    ch_varuint(b, n);
    ch_put(b, s, n);
}

void ch_row_head(ch_buf_t *b, uint64_t recording_id, const ch_tags_t *tags)
{
    ch_u64(b, recording_id);
    ch_str(b, tags->device);
    ch_str(b, tags->fw);
    ch_str(b, tags->boot);
    b->rows++;
}
