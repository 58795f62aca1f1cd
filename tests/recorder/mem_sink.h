/* SPDX-License-Identifier: Apache-2.0 */
/* A growable memory sink for tests, with optional fault injection. */
#ifndef EVREC_TEST_MEM_SINK_H
#define EVREC_TEST_MEM_SINK_H

#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_save.h"

typedef struct mem_sink {
    unsigned char *data;
    size_t len, cap;
    size_t fail_after; /* fail the write that would pass this many bytes (0 = never) */
    size_t calls;
} mem_sink_t;

static inline int mem_sink_write(void *ctx, const void *p, size_t n)
{
    mem_sink_t *m = (mem_sink_t *)ctx;
    m->calls++;
    if (m->fail_after && m->len + n > m->fail_after) {
        return -1;
    }
    if (m->len + n > m->cap) {
        size_t c = m->cap ? m->cap * 2 : 4096;
        while (c < m->len + n)
            c *= 2;
        m->data = (unsigned char *)realloc(m->data, c);
        m->cap = c;
    }
    memcpy(m->data + m->len, p, n);
    m->len += n;
    return 0;
}

static inline evrec_sink_t mem_sink_of(mem_sink_t *m)
{
    evrec_sink_t s = {mem_sink_write, m};
    return s;
}

static inline unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = (unsigned char *)malloc((size_t)n + 1);
    *len = fread(b, 1, (size_t)n, f);
    fclose(f);
    return b;
}

#endif
