/* SPDX-License-Identifier: Apache-2.0 */
/* Memory helpers and the text buffer used to build generated files and messages. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"

static void out_of_memory(void)
{
    fputs("evrec-gen: out of memory\n", stderr);
    exit(1);
}

void *gen_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        out_of_memory();
    }
    return p;
}

void *gen_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        out_of_memory();
    }
    return q;
}

char *gen_xstrndup(const char *s, size_t n)
{
    char *d = gen_xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *gen_xstrdup(const char *s)
{
    return gen_xstrndup(s, strlen(s));
}

void gen_buf_put(gen_buf_t *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t c = b->cap ? b->cap : 256;
        while (c < b->len + n + 1) {
            c *= 2;
        }
        b->data = gen_xrealloc(b->data, c);
        b->cap = c;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void gen_buf_puts(gen_buf_t *b, const char *s)
{
    gen_buf_put(b, s, strlen(s));
}

void gen_buf_printf(gen_buf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        va_end(ap2);
        return;
    }
    char *tmp = gen_xmalloc((size_t)n + 1);
    vsnprintf(tmp, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    gen_buf_put(b, tmp, (size_t)n);
    free(tmp);
}

void gen_buf_free(gen_buf_t *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

size_t gen_buf_column(const gen_buf_t *b)
{
    size_t i = b->len;
    while (i > 0 && b->data[i - 1] != '\n') {
        i--;
    }
    return b->len - i;
}

void gen_buf_c_string(gen_buf_t *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': gen_buf_puts(b, "\\\""); break;
        case '\\': gen_buf_puts(b, "\\\\"); break;
        case '\n': gen_buf_puts(b, "\\n"); break;
        case '\t': gen_buf_puts(b, "\\t"); break;
        case '?': /* no trigraph: no two ? in a row (`??=` becomes `\?\?=`) */
            gen_buf_puts(b, p[1] == '?' || (p != (const unsigned char *)s && p[-1] == '?') ? "\\?" : "?");
            break;
        default:
            if (*p < 0x20 || *p == 0x7F) {
                gen_buf_printf(b, "\\%03o", *p);
            } else {
                /* UTF-8 bytes pass through; the file is UTF-8. */
                gen_buf_put(b, (const char *)p, 1);
            }
        }
    }
}

/* Append one line of a comment, words wrapped so that no line passes GEN_COLUMNS (a word longer
 * than the room stays whole on its own line). `lead` is what starts each line. */
static void comment_words(gen_buf_t *b, const char *lead, const char *text, size_t len, int *first_line,
                          const char *first_lead)
{
    size_t i = 0;
    int line_has_words = 0;
    size_t col = 0;
    while (i < len) {
        while (i < len && text[i] == ' ') {
            i++;
        }
        size_t j = i;
        while (j < len && text[j] != ' ') {
            j++;
        }
        if (j == i) {
            break;
        }
        size_t wlen = j - i;
        if (!line_has_words) {
            const char *l = *first_line ? first_lead : lead;
            gen_buf_puts(b, l);
            col = strlen(l);
            *first_line = 0;
        } else if (col + 1 + wlen > GEN_COLUMNS) {
            gen_buf_puts(b, "\n");
            gen_buf_puts(b, lead);
            col = strlen(lead);
            line_has_words = 0;
        }
        if (line_has_words) {
            gen_buf_puts(b, " ");
            col++;
        }
        /* Defuse comment delimiters inside the text (-Wcomment). */
        for (size_t k = i; k < j; k++) {
            gen_buf_put(b, &text[k], 1);
            if ((text[k] == '*' || text[k] == '/') && k + 1 < j && text[k + 1] == (text[k] == '*' ? '/' : '*')) {
                gen_buf_puts(b, " ");
                col++;
            }
        }
        col += wlen;
        line_has_words = 1;
        i = j;
    }
    if (!line_has_words) {
        const char *l = *first_line ? first_lead : lead;
        /* An empty line of text: the lead without trailing space. */
        size_t n = strlen(l);
        while (n > 0 && l[n - 1] == ' ') {
            n--;
        }
        gen_buf_put(b, l, n);
        *first_line = 0;
    }
}

/* The text of a comment made safe (malloc'd): a control character becomes a space (a lone CR is
 * a line end to some compilers), and the trigraph `??/` (a backslash) becomes `?? /`: at a line's
 * end it would splice the next line, which -Wtrigraphs refuses. Other trigraphs are harmless in a
 * comment and stay. */
static char *comment_safe(const char *text)
{
    gen_buf_t t = {0};
    gen_buf_put(&t, "", 0);
    for (const char *p = text; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if ((ch < 0x20 && ch != '\n') || ch == 0x7F) {
            gen_buf_put(&t, " ", 1);
        } else if (ch == '?' && p[1] == '?' && p[2] == '/') {
            gen_buf_put(&t, "?? ", 3);
            p++;
        } else {
            gen_buf_put(&t, p, 1);
        }
    }
    return t.data;
}

void gen_buf_comment(gen_buf_t *b, unsigned indent, int doc, const char *raw)
{
    char *text = comment_safe(raw);
    char lead[128], first[128];
    unsigned ind = indent < 64 ? indent : 64;
    snprintf(first, sizeof first, "%*s%s ", (int)ind, "", doc ? "/**" : "/*");
    snprintf(lead, sizeof lead, "%*s * ", (int)ind, "");
    /* Single line when it fits: "/ ** text * /". */
    if (!strchr(text, '\n') && strlen(first) + strlen(text) + 3 <= GEN_COLUMNS && !strstr(text, "*/") &&
        !strstr(text, "/*")) {
        gen_buf_printf(b, "%s%s */\n", first, text);
        free(text);
        return;
    }
    int first_line = 1;
    const char *p = text;
    for (;;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        comment_words(b, lead, p, len, &first_line, first);
        if (!nl) {
            break;
        }
        gen_buf_puts(b, "\n");
        p = nl + 1;
    }
    gen_buf_printf(b, "\n%*s */\n", (int)ind, "");
    free(text);
}
