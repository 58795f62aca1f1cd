/* SPDX-License-Identifier: Apache-2.0 */
/* The names and the values of the enum being read, in two open-addressing hash tables (xxHash's
 * XXH3), so that a duplicate is found in constant expected time: a pairwise check of every new
 * value against the earlier ones took 17 s (CPU) for an enum of 70,000 values. */
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "gen_internal.h"

/* Slot values: 0 empty, else 1 + the index in e->values. */

static size_t name_home(const gen_value_index_t *x, const char *name)
{
    return (size_t)XXH3_64bits(name, strlen(name)) & (x->slots - 1);
}

static size_t value_home(const gen_value_index_t *x, uint32_t v)
{
    return (size_t)XXH3_64bits(&v, sizeof v) & (x->slots - 1);
}

/* Enter value i by its name, and by its number when `with_value`. */
static void enter(gen_value_index_t *x, const gen_enum_t *e, size_t i, int with_value)
{
    size_t k = name_home(x, e->values[i].name);
    while (x->name_slot[k]) {
        k = (k + 1) & (x->slots - 1);
    }
    x->name_slot[k] = i + 1;
    if (!with_value) {
        return;
    }
    k = value_home(x, e->values[i].value);
    while (x->value_slot[k]) {
        k = (k + 1) & (x->slots - 1);
    }
    x->value_slot[k] = i + 1;
}

void gen_value_index_add(gen_value_index_t *x, const gen_enum_t *e, size_t i, int with_value)
{
    if (2 * (x->count + 1) > x->slots) { /* at most half full: short probe runs */
        size_t n = x->slots ? 2 * x->slots : 64;
        free(x->name_slot);
        free(x->value_slot);
        x->name_slot = gen_xmalloc(n * sizeof *x->name_slot);
        x->value_slot = gen_xmalloc(n * sizeof *x->value_slot);
        memset(x->name_slot, 0, n * sizeof *x->name_slot);
        memset(x->value_slot, 0, n * sizeof *x->value_slot);
        x->slots = n;
        for (size_t j = 0; j < x->count; j++) {
            enter(x, e, x->entered[j] / 2, (int)(x->entered[j] % 2));
        }
    }
    *GEN_PUSH(x->entered, x->count, x->cap) = 2 * i + (with_value != 0);
    enter(x, e, i, with_value);
}

size_t gen_value_index_name(const gen_value_index_t *x, const gen_enum_t *e, const char *name, size_t *compares)
{
    if (!x->slots) {
        return SIZE_MAX;
    }
    for (size_t k = name_home(x, name); x->name_slot[k]; k = (k + 1) & (x->slots - 1)) {
        size_t i = x->name_slot[k] - 1;
        ++*compares;
        if (strcmp(e->values[i].name, name) == 0) {
            return i;
        }
    }
    return SIZE_MAX;
}

size_t gen_value_index_value(const gen_value_index_t *x, const gen_enum_t *e, uint32_t v, size_t *compares)
{
    if (!x->slots) {
        return SIZE_MAX;
    }
    for (size_t k = value_home(x, v); x->value_slot[k]; k = (k + 1) & (x->slots - 1)) {
        size_t i = x->value_slot[k] - 1;
        ++*compares;
        if (e->values[i].value == v) {
            return i;
        }
    }
    return SIZE_MAX;
}

void gen_value_index_free(gen_value_index_t *x)
{
    free(x->name_slot);
    free(x->value_slot);
    free(x->entered);
    memset(x, 0, sizeof *x);
}
