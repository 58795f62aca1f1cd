/* SPDX-License-Identifier: Apache-2.0 */
/* The arena that holds the names read from the file (meta-info, span names): blocks of 64 KiB
 * or more, freed together with the reader. */
#include <stdlib.h>

#include "reader_internal.h"

char *rd_name_dup(evrec_reader_t *r, const uint8_t *s, size_t len)
{
    rd_block_t *b = r->tables.names;
    if (!b || b->cap - b->used < len + 1) {
        size_t cap = len + 1 > 65536 ? len + 1 : 65536;
        b = malloc(sizeof *b + cap);
        if (!b) {
            return NULL;
        }
        b->next = r->tables.names;
        b->used = 0;
        b->cap = cap;
        r->tables.names = b;
    }
    char *d = b->data + b->used;
    memcpy(d, s, len);
    d[len] = 0;
    b->used += len + 1;
    return d;
}

void rd_names_free(evrec_reader_t *r)
{
    while (r->tables.names) {
        rd_block_t *n = r->tables.names->next;
        free(r->tables.names);
        r->tables.names = n;
    }
}
