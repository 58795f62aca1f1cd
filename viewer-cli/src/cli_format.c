/* SPDX-License-Identifier: Apache-2.0 */
/* Text output helpers: a growable line buffer, numbers, times and names as the user sees them. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_buf_grow(cli_buf_t *b, size_t more)
{
    size_t c = b->cap ? b->cap : 4096;
    while (c - b->len < more) {
        c *= 2;
    }
    char *p = realloc(b->p, c);
    if (!p) {
        cli_error("out of memory");
        exit(CLI_BAD_INPUT);
    }
    b->p = p;
    b->cap = c;
}

void cli_buf_u64(cli_buf_t *b, uint64_t v)
{
    static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                   "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                   "8081828384858687888990919293949596979899";
    char t[20];
    size_t n = 0;
    while (v >= 100u) {
        unsigned d = (unsigned)(v % 100u) * 2u;
        v /= 100u;
        t[sizeof t - 1 - n++] = pairs[d + 1];
        t[sizeof t - 1 - n++] = pairs[d];
    }
    if (v >= 10u) {
        t[sizeof t - 1 - n++] = pairs[v * 2u + 1];
        t[sizeof t - 1 - n++] = pairs[v * 2u];
    } else {
        t[sizeof t - 1 - n++] = (char)('0' + v);
    }
    cli_buf_put(b, t + sizeof t - n, n);
}

void cli_buf_hex(cli_buf_t *b, uint32_t v, unsigned digits)
{
    static const char hex[] = "0123456789ABCDEF";
    cli_buf_reserve(b, 2 + digits);
    b->p[b->len++] = '0';
    b->p[b->len++] = 'x';
    for (unsigned i = digits; i--;) {
        b->p[b->len++] = hex[(v >> (4 * i)) & 15u];
    }
}

void cli_buf_marker(cli_buf_t *b, uint8_t marker)
{
    if (marker == EVREC_MARKER_NONE) {
        return;
    }
    const char *mn = evrec_marker_name(marker);
    cli_buf_puts(b, " [");
    if (mn) {
        cli_buf_puts(b, mn);
    } else {
        cli_buf_puts(b, "marker ");
        cli_buf_u64(b, marker);
    }
    cli_buf_putc(b, ']');
}

void cli_buf_address(cli_buf_t *b, uint32_t v)
{
    static const char hex[] = "0123456789abcdef";
    cli_buf_reserve(b, 10);
    b->p[b->len++] = '0';
    b->p[b->len++] = 'x';
    for (unsigned i = 8; i--;) {
        b->p[b->len++] = hex[(v >> (4 * i)) & 15u];
    }
}

void cli_buf_field_value(cli_buf_t *b, uint8_t kind, uint32_t value, const char *value_name,
                         const evrec_field_info_t *info, int hex)
{
    if (value_name) {
        cli_buf_name(b, value_name);
        return; /* a named enum value: no unit */
    }
    /* A format applies to plain integers only (the generator allows no other). */
    uint8_t display = info && kind <= EVREC_KIND_UINT32 ? info->display : EVREC_DISPLAY_DEFAULT;
    if (display == EVREC_DISPLAY_DEFAULT && hex && kind <= EVREC_KIND_UINT32) {
        display = EVREC_DISPLAY_HEX;
    }
    switch (display) {
    case EVREC_DISPLAY_HEX:
        cli_buf_hex(b, value, kind == EVREC_KIND_UINT8 ? 2 : kind == EVREC_KIND_UINT16 ? 4 : 8);
        break;
    case EVREC_DISPLAY_ADDRESS: cli_buf_address(b, value); break;
    default: cli_buf_u64(b, value); break;
    }
    if (info && info->unit) {
        cli_buf_putc(b, ' ');
        cli_buf_name(b, info->unit);
    }
}

const evrec_field_info_t *cli_field_info(const evrec_meta_t *m, uint32_t struct_id, uint32_t field_index)
{
    const evrec_field_info_table_t *t = m ? m->field_info : NULL;
    for (uint32_t i = 0; t && t->entries && i < t->count; i++) {
        if (t->entries[i].struct_id == struct_id && t->entries[i].field_index == field_index) {
            return &t->entries[i];
        }
    }
    return NULL;
}

void cli_buf_pad(cli_buf_t *b, size_t target_len)
{
    if (b->len < target_len) {
        size_t n = target_len - b->len;
        cli_buf_reserve(b, n);
        memset(b->p + b->len, ' ', n);
        b->len += n;
    }
}

static int plain_char(unsigned char c) { return c > ' ' && c < 0x7F && c != '"' && c != '=' && c != '\\'; }

static int is_plain(const char *s)
{
    if (!*s) {
        return 0;
    }
    for (; *s; s++) {
        if (!plain_char((unsigned char)*s)) {
            return 0;
        }
    }
    return 1;
}

void cli_buf_name(cli_buf_t *b, const char *name)
{
    if (is_plain(name)) {
        cli_buf_puts(b, name);
        return;
    }
    cli_buf_putc(b, '"');
    for (const unsigned char *s = (const unsigned char *)name; *s; s++) {
        if (*s == '"' || *s == '\\') {
            cli_buf_putc(b, '\\');
            cli_buf_putc(b, (char)*s);
        } else if (*s >= ' ' && *s < 0x7F) {
            cli_buf_putc(b, (char)*s);
        } else {
            static const char hex[] = "0123456789abcdef";
            char e[4] = {'\\', 'x', hex[*s >> 4], hex[*s & 15]};
            cli_buf_put(b, e, 4);
        }
    }
    cli_buf_putc(b, '"');
}

size_t cli_name_width(const char *name)
{
    if (is_plain(name)) {
        return strlen(name);
    }
    size_t w = 2;
    for (const unsigned char *s = (const unsigned char *)name; *s; s++) {
        w += (*s == '"' || *s == '\\') ? 2 : (*s >= ' ' && *s < 0x7F) ? 1 : 4;
    }
    return w;
}

void cli_buf_seconds(cli_buf_t *b, uint64_t ns, unsigned width)
{
    char t[32];
    size_t n = 0;
    uint64_t frac = ns % 1000000000u, sec = ns / 1000000000u;
    for (int i = 0; i < 9; i++) {
        t[sizeof t - 1 - n++] = (char)('0' + frac % 10u);
        frac /= 10u;
    }
    t[sizeof t - 1 - n++] = '.';
    do {
        t[sizeof t - 1 - n++] = (char)('0' + sec % 10u);
        sec /= 10u;
    } while (sec);
    if (n < width) {
        size_t pad = width - n;
        cli_buf_reserve(b, pad);
        memset(b->p + b->len, ' ', pad);
        b->len += pad;
    }
    cli_buf_put(b, t + sizeof t - n, n);
}

void cli_buf_free(cli_buf_t *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

void cli_buf_class(cli_buf_t *b, const evrec_reader_t *r, uint16_t class_id)
{
    const char *name = evrec_reader_event_name(r, class_id);
    if (name) {
        cli_buf_name(b, name);
    } else {
        cli_buf_puts(b, "class#");
        cli_buf_u64(b, class_id);
    }
}
