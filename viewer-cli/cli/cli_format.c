/* SPDX-License-Identifier: Apache-2.0 */
/* Text output helpers: a growable line buffer, numbers, times and names as the user sees them. */
#include <locale.h>
#include <stdarg.h>
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

void cli_buf_printf(cli_buf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        return;
    }
    if (!b->p || (size_t)n >= b->cap - b->len) {
        cli_buf_grow(b, (size_t)n + 1);
        va_start(ap, fmt);
        vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
    }
    b->len += (size_t)n;
}

static const char dec_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Decimal digits of v (1..20). */
static inline size_t dec_len(uint64_t v)
{
    size_t n = 1;
    uint64_t p = 10u;
    while (n < 20u && v >= p) {
        n++;
        p *= 10u;
    }
    return n;
}

/* Writes v in decimal so that its last digit is end[-1]; returns where it starts. Two digits per
 * step, written in place (no copy: a copy of a variable length is a libc call per number). */
static inline char *dec_backward(char *end, uint64_t v)
{
    while (v >= 100u) {
        unsigned d = (unsigned)(v % 100u) * 2u;
        v /= 100u;
        *--end = dec_pairs[d + 1];
        *--end = dec_pairs[d];
    }
    if (v >= 10u) {
        *--end = dec_pairs[v * 2u + 1];
        *--end = dec_pairs[v * 2u];
    } else {
        *--end = (char)('0' + v);
    }
    return end;
}

size_t cli_u64_dec(char out[20], uint64_t v)
{
    size_t n = dec_len(v);
    (void)dec_backward(out + n, v);
    return n;
}

void cli_buf_u64(cli_buf_t *b, uint64_t v)
{
    size_t n = dec_len(v);
    cli_buf_reserve(b, n);
    (void)dec_backward(b->p + b->len + n, v);
    b->len += n;
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

/* 1 when names may print their UTF-8 as is (set once by cli_text_init()). */
static int utf8_out;

void cli_text_init(void)
{
    setlocale(LC_CTYPE, "");
    utf8_out = cli_text_locale_utf8();
}

int cli_text_utf8(void)
{
    return utf8_out;
}

static int plain_char(unsigned char c)
{
    return c > ' ' && c < 0x7F && c != '"' && c != '=' && c != '\\';
}

/* plain_char() as a table, for the one-pass copy of cli_buf_name(). */
#define PLAIN(c) ((c) > ' ' && (c) < 0x7F && (c) != '"' && (c) != '=' && (c) != '\\')
static const unsigned char plain_table[256] = {
#define P4(c) PLAIN(c), PLAIN((c) + 1), PLAIN((c) + 2), PLAIN((c) + 3)
#define P16(c) P4(c), P4((c) + 4), P4((c) + 8), P4((c) + 12)
#define P64(c) P16(c), P16((c) + 16), P16((c) + 32), P16((c) + 48)
    P64(0), P64(64), P64(128), P64(192)
#undef P64
#undef P16
#undef P4
#undef PLAIN
};

/* Plain: printable ASCII without blanks, '=', quotes or backslashes, and, under a UTF-8 locale,
 * printable UTF-8 characters. */
static int is_plain(const char *name)
{
    const unsigned char *s = (const unsigned char *)name;
    size_t n = strlen(name);
    if (n == 0) {
        return 0;
    }
    for (size_t i = 0; i < n;) {
        if (s[i] < 0x80u) {
            if (!plain_char(s[i])) {
                return 0;
            }
            i++;
        } else {
            size_t len = utf8_out ? cli_utf8_printable(s + i, n - i) : 0;
            if (len == 0) {
                return 0;
            }
            i += len;
        }
    }
    return 1;
}

/* Escapes `name` into b (when b is not NULL); returns the displayed width (one column per
 * character). */
static size_t quoted(cli_buf_t *b, const char *name)
{
    size_t w;
    if (!b) {
        cli_text_quote(NULL, name, utf8_out, &w);
        return w;
    }
    cli_buf_reserve(b, 4u * strlen(name) + 2u);
    b->len += cli_text_quote(b->p + b->len, name, utf8_out, &w);
    return w;
}

/* Columns of a plain name: one per character. */
static size_t plain_width(const char *name)
{
    size_t w = 0;
    for (const unsigned char *s = (const unsigned char *)name; *s; s++) {
        w += (*s & 0xC0u) != 0x80u;
    }
    return w;
}

void cli_buf_name(cli_buf_t *b, const char *name)
{
    /* Fast path, one pass: a name of plain ASCII characters only is copied as it is. */
    const unsigned char *s = (const unsigned char *)name;
    size_t n = 0;
    while (plain_table[s[n]]) {
        n++;
    }
    if (s[n] == 0 && n) {
        cli_buf_put(b, name, n);
        return;
    }
    if (is_plain(name)) {
        cli_buf_puts(b, name);
        return;
    }
    quoted(b, name);
}

size_t cli_name_width(const char *name)
{
    return is_plain(name) ? plain_width(name) : quoted(NULL, name);
}

void cli_buf_seconds(cli_buf_t *b, uint64_t ns, unsigned width)
{
    uint32_t frac = (uint32_t)(ns % 1000000000u);
    uint64_t sec = ns / 1000000000u;
    size_t n = 10 + dec_len(sec); /* seconds, '.', nine fraction digits */
    size_t pad = n < width ? width - n : 0;
    cli_buf_reserve(b, pad + n);
    char *p = b->p + b->len;
    memset(p, ' ', pad);
    char *f = p + pad + n - 9;
    /* Nine fraction digits: the last one, then four pairs (32-bit divisions). */
    f[8] = (char)('0' + frac % 10u);
    frac /= 10u;
    for (int i = 3; i >= 0; i--) {
        unsigned d = (frac % 100u) * 2u;
        frac /= 100u;
        f[2 * i] = dec_pairs[d];
        f[2 * i + 1] = dec_pairs[d + 1];
    }
    f[-1] = '.';
    (void)dec_backward(f - 1, sec);
    b->len += pad + n;
}

char *cli_buf_take(cli_buf_t *b)
{
    char *p = b->p;
    if (p && b->len < b->cap) {
        char *q = realloc(p, b->len ? b->len : 1);
        p = q ? q : p; /* a failed shrink keeps the larger block */
    }
    b->p = NULL;
    b->len = b->cap = 0;
    return p;
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
