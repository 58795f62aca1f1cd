/* SPDX-License-Identifier: Apache-2.0 */
/* Text a person reads on a terminal (cli_text.h): UTF-8 sequences, the characters that print as
 * they are, and the quoted form with \xNN escapes of the others. */
#include <langinfo.h>
#include <stdint.h>
#include <string.h>

#include "cli_text.h"

int cli_text_locale_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

size_t cli_utf8_len(const unsigned char *s, size_t n)
{
    if (n == 0) {
        return 0;
    }
    unsigned c = s[0];
    if (c < 0x80u) {
        return 1;
    }
    size_t len;
    uint32_t cp, min;
    if (c >= 0xC2u && c <= 0xDFu) {
        len = 2, cp = c & 0x1Fu, min = 0x80u;
    } else if (c >= 0xE0u && c <= 0xEFu) {
        len = 3, cp = c & 0x0Fu, min = 0x800u;
    } else if (c >= 0xF0u && c <= 0xF4u) {
        len = 4, cp = c & 0x07u, min = 0x10000u;
    } else {
        return 0; /* a continuation byte, an overlong lead (C0, C1) or above U+10FFFF (F5..FF) */
    }
    if (n < len) {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0u) != 0x80u) {
            return 0;
        }
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFFu || (cp >= 0xD800u && cp <= 0xDFFFu)) {
        return 0; /* overlong, too large, or a UTF-16 surrogate */
    }
    return len;
}

/* The bidirectional controls and the line and paragraph separators, as UTF-8 (valid at s):
 * U+061C = D8 9C; U+200E, U+200F = E2 80 8E..8F; U+2028..U+202E = E2 80 A8..AE; U+2066..U+2069 =
 * E2 81 A6..A9 (Unicode's UAX #9 lists the controls). */
static int reorders(const unsigned char *s, size_t len)
{
    if (len == 2) {
        return s[0] == 0xD8u && s[1] == 0x9Cu;
    }
    if (len != 3 || s[0] != 0xE2u) {
        return 0;
    }
    if (s[1] == 0x80u) {
        return s[2] == 0x8Eu || s[2] == 0x8Fu || (s[2] >= 0xA8u && s[2] <= 0xAEu);
    }
    return s[1] == 0x81u && s[2] >= 0xA6u && s[2] <= 0xA9u;
}

size_t cli_utf8_printable(const unsigned char *s, size_t n)
{
    size_t len = cli_utf8_len(s, n);
    if (len < 2 || (len == 2 && s[0] == 0xC2u && s[1] < 0xA0u) || reorders(s, len)) {
        return 0;
    }
    return len;
}

int cli_text_printable(const char *text, int utf8)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t n = strlen(text);
    for (size_t i = 0; i < n;) {
        size_t len = s[i] >= ' ' && s[i] < 0x7F ? 1 : s[i] >= 0x80u && utf8 ? cli_utf8_printable(s + i, n - i) : 0;
        if (len == 0) {
            return 0;
        }
        i += len;
    }
    return 1;
}

size_t cli_text_quote(char *out, const char *text, int utf8, size_t *width)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)text;
    size_t n = strlen(text), o = 0, w = 2, len;
    char *const put = out;
#define PUT(c) (put ? (void)(put[o] = (char)(c)) : (void)0, o++)
    PUT('"');
    for (size_t i = 0; i < n; w++) { /* (PUT evaluates its argument only when out is not NULL) */
        unsigned char c = s[i];
        if (c == '"' || c == '\\') {
            PUT('\\');
            PUT(c);
            w++;
            i++;
        } else if (c >= ' ' && c < 0x7F) {
            PUT(c);
            i++;
        } else if (c >= 0x80u && utf8 && (len = cli_utf8_printable(s + i, n - i)) != 0) {
            for (size_t k = 0; k < len; k++) {
                PUT(s[i + k]);
            }
            i += len;
        } else {
            PUT('\\');
            PUT('x');
            PUT(hex[c >> 4]);
            PUT(hex[c & 15]);
            w += 3;
            i++;
        }
    }
    PUT('"');
#undef PUT
    if (width) {
        *width = w;
    }
    return o;
}
