/* SPDX-License-Identifier: Apache-2.0 */
/* A small u64 -> u32 hash map and array growth for the analysis tables. */
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"

static size_t slot_of(uint64_t key, size_t cap)
{
    /* Fibonacci hashing: keys are small dense integers (enum values, addresses). */
    return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & (cap - 1);
}

uint32_t an_map_get(const an_map_t *m, uint64_t key)
{
    if (m->cap == 0) {
        return UINT32_MAX;
    }
    for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (m->vals[i] == UINT32_MAX) {
            return UINT32_MAX;
        }
        if (m->keys[i] == key) {
            return m->vals[i];
        }
    }
}

static int rehash(an_map_t *m, size_t cap)
{
    uint64_t *keys = malloc(cap * sizeof *keys);
    uint32_t *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    memset(vals, 0xFF, cap * sizeof *vals);
    for (size_t j = 0; j < m->cap; j++) {
        if (m->vals[j] != UINT32_MAX) {
            size_t i = slot_of(m->keys[j], cap);
            while (vals[i] != UINT32_MAX) {
                i = (i + 1) & (cap - 1);
            }
            keys[i] = m->keys[j];
            vals[i] = m->vals[j];
        }
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 0;
}

int an_map_put(an_map_t *m, uint64_t key, uint32_t val)
{
    if (m->cap != 0) { /* replacing a key never grows the table */
        for (size_t i = slot_of(key, m->cap); m->vals[i] != UINT32_MAX; i = (i + 1) & (m->cap - 1)) {
            if (m->keys[i] == key) {
                m->vals[i] = val;
                return 0;
            }
        }
    }
    if ((m->used + 1) * 10 > m->cap * 7 && rehash(m, m->cap ? m->cap * 2 : 16) != 0) {
        return -1;
    }
    size_t i = slot_of(key, m->cap);
    while (m->vals[i] != UINT32_MAX && m->keys[i] != key) {
        i = (i + 1) & (m->cap - 1);
    }
    if (m->vals[i] == UINT32_MAX) {
        m->used++;
    }
    m->keys[i] = key;
    m->vals[i] = val;
    return 0;
}

void an_map_del(an_map_t *m, uint64_t key)
{
    if (m->cap == 0) {
        return;
    }
    size_t i = slot_of(key, m->cap);
    while (m->vals[i] != UINT32_MAX && m->keys[i] != key) {
        i = (i + 1) & (m->cap - 1);
    }
    if (m->vals[i] == UINT32_MAX) {
        return;
    }
    m->vals[i] = UINT32_MAX;
    m->used--;
    /* Re-insert the rest of the cluster so that lookups do not stop at the hole. */
    for (size_t j = (i + 1) & (m->cap - 1); m->vals[j] != UINT32_MAX; j = (j + 1) & (m->cap - 1)) {
        uint64_t k = m->keys[j];
        uint32_t v = m->vals[j];
        m->vals[j] = UINT32_MAX;
        size_t h = slot_of(k, m->cap);
        while (m->vals[h] != UINT32_MAX) {
            h = (h + 1) & (m->cap - 1);
        }
        m->keys[h] = k;
        m->vals[h] = v;
    }
}

void an_map_free(an_map_t *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

int an_grow(void **arr, uint32_t *cap, uint32_t n, size_t size)
{
    if (n < *cap) {
        return 0;
    }
    if (n >= UINT32_MAX / 2) {
        return -1;
    }
    uint32_t c = *cap ? *cap : 8;
    while (c <= n) {
        c *= 2;
    }
    void *p = realloc(*arr, (size_t)c * size);
    if (!p) {
        return -1;
    }
    memset((char *)p + (size_t)*cap * size, 0, (size_t)(c - *cap) * size);
    *arr = p;
    *cap = c;
    return 0;
}
