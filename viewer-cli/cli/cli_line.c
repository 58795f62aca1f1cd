/* SPDX-License-Identifier: Apache-2.0 */
/* The dump line's layout (cli_line.h). */
#include <stdio.h>

#include "cli_line.h"

/* The time column is 16 characters, then two blanks. */
#define TIME_COLUMN 18u

size_t cli_line_time(cli_buf_t *b, int ns_known, uint64_t ns, uint64_t t64)
{
    size_t start = b->len;
    if (ns_known) {
        cli_buf_seconds(b, ns, 16);
    } else {
        char t[32];
        snprintf(t, sizeof t, "%16llu", (unsigned long long)t64);
        cli_buf_puts(b, t);
    }
    cli_buf_put(b, "  ", 2);
    return start;
}

void cli_line_after_name(cli_buf_t *b, size_t start, size_t wname, size_t wclass)
{
    cli_buf_pad(b, start + TIME_COLUMN + wname + (wclass ? 2u : 0u));
}

void cli_line_after_class(cli_buf_t *b, size_t start, size_t wname, size_t wclass)
{
    if (wclass) {
        cli_buf_pad(b, start + TIME_COLUMN + wname + 2u + wclass);
    }
    cli_buf_putc(b, ' ');
}

void cli_line_field_name(cli_buf_t *b, const char *path)
{
    cli_buf_putc(b, ' ');
    cli_buf_name(b, path);
    cli_buf_putc(b, '=');
}

void cli_line_field(cli_buf_t *b, const char *path, uint8_t kind, uint32_t value, const char *vname,
                    const evrec_field_info_t *info, int hex)
{
    cli_line_field_name(b, path);
    cli_buf_field_value(b, kind, value, vname, info, hex);
}

void cli_line_end(cli_buf_t *b, size_t start)
{
    while (b->len > start && b->p[b->len - 1] == ' ') {
        b->len--;
    }
    cli_buf_putc(b, '\n');
}
