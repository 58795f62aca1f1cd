/* SPDX-License-Identifier: Apache-2.0 */
/* A save sink into a growing memory buffer, for tests that save a recording and read it back. */
#ifndef EVREC_TEST_MEM_SINK_H
#define EVREC_TEST_MEM_SINK_H

#include <stdlib.h>
#include <string.h>

/* The saved bytes: data[0..len) (malloc'd; the test frees data). */
typedef struct mem {
    unsigned char *data;
    size_t len, cap;
} mem_t;

/* evrec_sink_t write callback: append n bytes to the mem_t at ctx. 0 when done, 1 when out of
 * memory (the save then fails with EVREC_E_IO). */
static inline int mem_write(void *ctx, const void *p, size_t n)
{
    mem_t *m = ctx;
    if (m->len + n > m->cap) {
        size_t cap = (m->len + n) * 2;
        unsigned char *q = realloc(m->data, cap);
        if (!q) {
            return 1;
        }
        m->data = q;
        m->cap = cap;
    }
    memcpy(m->data + m->len, p, n);
    m->len += n;
    return 0;
}

#endif
