/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers of the SyS-T decoder tests: files, hex lines, and the items a parser reported (copied,
 * since the parser's pointers live only during its callback). */
#ifndef EVREC_TEST_SYST_UTIL_H
#define EVREC_TEST_SYST_UTIL_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_syst_decode.h"

#define SYST_DATA EVREC_TEST_DATA "/syst/"

typedef struct got_item {
    evrec_syst_problem problem;
    uint64_t offset, line, index;
    size_t size;
    int has_msg;
    evrec_syst_msg_t msg; /* pointers cleared */
    uint8_t bytes[1024];  /* the message (first 1024 bytes) */
    size_t nbytes;
    char csv[4096]; /* evrec_syst_format_item() */
    char what[128];
} got_item_t;

typedef struct got {
    got_item_t *items;
    size_t n, cap;
} got_t;

static inline void got_fn(void *ctx, const evrec_syst_item_t *it)
{
    got_t *g = ctx;
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 16;
        g->items = realloc(g->items, g->cap * sizeof *g->items);
        cr_assert_not_null(g->items);
    }
    got_item_t *o = &g->items[g->n++];
    memset(o, 0, sizeof *o);
    o->problem = it->problem;
    o->offset = it->offset;
    o->line = it->line;
    o->index = it->index;
    o->size = it->size;
    snprintf(o->what, sizeof o->what, "%s", it->what ? it->what : "");
    evrec_syst_format_item(it, o->csv, sizeof o->csv);
    if (it->msg) {
        o->has_msg = 1;
        o->msg = *it->msg;
        o->nbytes = it->msg->size < sizeof o->bytes ? it->msg->size : sizeof o->bytes;
        if (it->msg->bytes) {
            memcpy(o->bytes, it->msg->bytes, o->nbytes);
        }
        o->msg.bytes = NULL;
        o->msg.payload = NULL;
    }
}

static inline void got_free(got_t *g)
{
    free(g->items);
    memset(g, 0, sizeof *g);
}

static inline char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)n + 1);
    cr_assert_eq(fread(p, 1, (size_t)n, f), (size_t)n);
    p[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return p;
}

/* The messages of a printer text file, concatenated as a binary stream (`sizes` gets each). */
static inline size_t text_to_binary(const char *text, uint8_t *out, size_t cap, size_t *sizes, size_t max)
{
    size_t len = 0, k = 0;
    const char *p = text;
    while ((p = strstr(p, "SYS-T RAW DATA: ")) != NULL) {
        p += 16;
        size_t start = len;
        while ((p[0] >= '0' && p[0] <= '9') || (p[0] >= 'A' && p[0] <= 'F')) {
            unsigned v;
            cr_assert_eq(sscanf(p, "%2x", &v), 1);
            cr_assert_lt(len, cap);
            out[len++] = (uint8_t)v;
            p += 2;
        }
        if (k < max) {
            sizes[k++] = len - start;
        }
    }
    return len;
}

#endif
