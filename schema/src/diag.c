/* SPDX-License-Identifier: Apache-2.0 */
/* Schema errors: collected during the whole run, printed sorted as file:line:col: error: msg. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen_internal.h"

/* A message is one line of text: a control character that a schema's text brought in (a key
 * or type holding a line break) is shown as '?' (names are escaped by the loader itself). */
static void one_line(char *msg)
{
    for (unsigned char *p = (unsigned char *)msg; *p; p++) {
        if (*p < 0x20 || *p == 0x7F) {
            *p = '?';
        }
    }
}

void gen_error(gen_schema_t *s, gen_pos_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = gen_xmalloc(n > 0 ? (size_t)n + 1 : 1);
    va_start(ap, fmt);
    vsnprintf(msg, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
    va_end(ap);
    one_line(msg);
    gen_diags_t *d = &s->diags;
    gen_diag_t *e = GEN_PUSH(d->items, d->count, d->cap);
    e->pos = pos;
    e->seq = d->count - 1;
    e->msg = msg;
}

static int diag_cmp(const void *a, const void *b)
{
    const gen_diag_t *x = a, *y = b;
    if (x->pos.file != y->pos.file) {
        return x->pos.file < y->pos.file ? -1 : 1;
    }
    if (x->pos.line != y->pos.line) {
        return x->pos.line < y->pos.line ? -1 : 1;
    }
    if (x->pos.col != y->pos.col) {
        return x->pos.col < y->pos.col ? -1 : 1;
    }
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

const char *gen_pos_str(const gen_schema_t *s, gen_pos_t pos)
{
    static char bufs[4][512];
    static unsigned next;
    char *b = bufs[next++ % 4];
    if (pos.file == GEN_BUILTIN || pos.file >= s->file_count) {
        snprintf(b, sizeof bufs[0], "<built-in>");
    } else {
        snprintf(b, sizeof bufs[0], "%s:%u:%u", s->files[pos.file].path, pos.line, pos.col);
    }
    return b;
}

void gen_diags_print(const gen_schema_t *s, FILE *out)
{
    gen_diag_t *items = s->diags.items;
    size_t n = s->diags.count;
    if (n == 0) {
        return;
    }
    qsort(items, n, sizeof *items, diag_cmp);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%s: error: %s\n", gen_pos_str(s, items[i].pos), items[i].msg);
    }
}
