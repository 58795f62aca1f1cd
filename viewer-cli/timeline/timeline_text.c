/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec timeline`: text through cairo's toy API as valid UTF-8. A name from a file may hold any
 * bytes; cairo_show_text() and cairo_text_extents() put the context into a permanent error state
 * on invalid UTF-8 (CAIRO_STATUS_INVALID_STRING): nothing is drawn after it, and every
 * cairo_get_source() on the context then returns a new pattern that nobody frees. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "timeline.h"

/* `s` as valid UTF-8: itself when it is, else a copy in buf (or *heap, when longer) with each
 * byte that starts no valid character replaced by U+FFFD. */
static const char *valid_utf8(const char *s, char *buf, size_t size, char **heap)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s), i = 0, k;
    while (i < n && (k = cli_utf8_len(u + i, n - i)) != 0) {
        i += k;
    }
    if (i == n) {
        return s;
    }
    char *d = n * 3 + 1 <= size ? buf : (*heap = malloc(n * 3 + 1));
    if (!d) {
        return "?";
    }
    size_t o = 0;
    for (i = 0; i < n; i += k ? k : 1) {
        k = cli_utf8_len(u + i, n - i);
        memcpy(d + o, k ? s + i : "\xEF\xBF\xBD", k ? k : 3);
        o += k ? k : 3;
    }
    d[o] = 0;
    return d;
}

void tl_show_text(cairo_t *cr, const char *s)
{
    char buf[512], *heap = NULL;
    cairo_show_text(cr, valid_utf8(s, buf, sizeof buf, &heap));
    free(heap);
}

void tl_text_extents(cairo_t *cr, const char *s, cairo_text_extents_t *te)
{
    char buf[512], *heap = NULL;
    cairo_text_extents(cr, valid_utf8(s, buf, sizeof buf, &heap), te);
    free(heap);
}
