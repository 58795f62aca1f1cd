/* SPDX-License-Identifier: Apache-2.0 */
/* Text a person reads on a terminal: which characters print as they are, and the escaped form
 * of the rest. No state and no allocation, so that the sql library shares it with the CLI. */
#ifndef EVREC_CLI_TEXT_H
#define EVREC_CLI_TEXT_H

#include <stddef.h>

/* 1 when the locale's character set (LC_CTYPE, as setlocale() left it) is UTF-8. */
int cli_text_locale_utf8(void);
/* Length in bytes of the valid UTF-8 sequence at s (n bytes available): 1 for ASCII, 2..4, or 0
 * when the bytes there are not valid UTF-8 (overlong, surrogate, above U+10FFFF, cut short). */
size_t cli_utf8_len(const unsigned char *s, size_t n);
/* Bytes (2..4) of the printable UTF-8 character at s, 0 when there is none: invalid UTF-8, a C1
 * control (U+0080..U+009F), a bidirectional control (U+061C, U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069: they reorder the rest of the line) or a line or paragraph separator (U+2028,
 * U+2029). */
size_t cli_utf8_printable(const unsigned char *s, size_t n);
/* 1 when `text` may be shown as it is: printable ASCII (the blank included) and, when `utf8`
 * (a UTF-8 locale), printable UTF-8 characters; 0 when a byte needs cli_text_quote(). */
int cli_text_printable(const char *text, int utf8);
/* `text` in double quotes, with \" \\ and every byte of a character that is not printable (as
 * cli_text_printable() judges it) as \xNN, into out (room for 4 * strlen(text) + 2 bytes; NULL:
 * count only). Returns the bytes written; *width (when not NULL): the columns it takes, one per
 * character. */
size_t cli_text_quote(char *out, const char *text, int utf8, size_t *width);

#endif
