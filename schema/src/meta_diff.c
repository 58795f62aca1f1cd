/* SPDX-License-Identifier: Apache-2.0 */
/* Compare two meta-infos item by item, as the schema hash sees them (evrec_meta_diff() in
 * evrec/evrec_schema.h): what `evrec check` explains when a file does not match a schema. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_schema.h"
#include "gen_internal.h"
#include "meta_diff_tracks.h"

typedef struct dctx {
    const evrec_meta_t *e, *a;
    const char *en, *an; /* "the schema", "the file" */
    int bare;
    evrec_diff_fn fn;
    void *ctx;
    size_t count;
    int *e_is_event, *a_is_event; /* per struct: the event id using it, or -1 */
    int *enum_map, *struct_map;   /* expected id -> actual id (same name, or renamed), or -1 */
    struct name_ix *ix[4];        /* names sorted: enums of e, of a, structs of e, of a */
} dctx_t;

/* Names sorted (ties by id), so that an item is found by name in O(log n), not O(n): tables of
 * 65,535 structs made the comparison quadratic. */
typedef struct name_ix {
    const char *name;
    uint32_t id;
} name_ix_t;

static int ix_cmp(const void *a, const void *b)
{
    const name_ix_t *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->id < y->id ? -1 : x->id > y->id;
}

static name_ix_t *ix_build(const evrec_meta_t *m, int structs)
{
    uint32_t n = structs ? m->struct_count : m->enum_count;
    name_ix_t *ix = gen_xmalloc((n + 1) * sizeof *ix);
    for (uint32_t i = 0; i < n; i++) {
        ix[i].name = structs ? m->structs[i].name : m->enums[i].name;
        ix[i].id = i;
    }
    qsort(ix, n, sizeof *ix, ix_cmp);
    return ix;
}

/* The first id named `name` (as a linear search from 0 finds it), or -1. */
static int ix_find(const name_ix_t *ix, uint32_t n, const char *name)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (strcmp(ix[mid].name, name) < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < n && strcmp(ix[lo].name, name) == 0 ? (int)ix[lo].id : -1;
}

static void diff(dctx_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void diff(dctx_t *d, const char *fmt, ...)
{
    d->count++;
    if (!d->fn) {
        return;
    }
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    d->fn(d->ctx, line);
}

static int find_enum(const dctx_t *d, const evrec_meta_t *m, const char *name)
{
    return ix_find(d->ix[m == d->e ? 0 : 1], m->enum_count, name);
}

static int find_struct(const dctx_t *d, const evrec_meta_t *m, const char *name)
{
    return ix_find(d->ix[m == d->e ? 2 : 3], m->struct_count, name);
}

static const evrec_enum_value_t *find_value_name(const evrec_enum_desc_t *e, const char *name)
{
    for (uint32_t v = 0; v < e->value_count; v++) {
        if (strcmp(e->values[v].name, name) == 0) {
            return &e->values[v];
        }
    }
    return NULL;
}

static const evrec_enum_value_t *find_value_number(const evrec_enum_desc_t *e, uint32_t value)
{
    for (uint32_t v = 0; v < e->value_count; v++) {
        if (e->values[v].value == value) {
            return &e->values[v];
        }
    }
    return NULL;
}

static const char *width(uint8_t kind)
{
    return kind == EVREC_KIND_ENUM_UINT8 ? "uint8" : kind == EVREC_KIND_ENUM_UINT16 ? "uint16" : "uint32";
}

static const char *marker(uint8_t m)
{
    return m < 16 ? gen_marker_names[m] : "?";
}

/* A value of `actual` that a bare CCore stream lists but that `expected` names at run time. */
static int runtime_name_in_bare(const dctx_t *d, const evrec_enum_desc_t *ee, uint32_t value)
{
    return d->bare && ee->runtime && value >= ee->runtime->base && value < ee->runtime->lim;
}

/* Same kind and same values (name, number, marker): the enum was renamed, nothing else. */
static int same_enum_body(const evrec_enum_desc_t *x, const evrec_enum_desc_t *y)
{
    if (x->kind != y->kind || x->value_count != y->value_count || (!x->runtime) != (!y->runtime)) {
        return 0;
    }
    for (uint32_t v = 0; v < x->value_count; v++) {
        if (x->values[v].value != y->values[v].value || strcmp(x->values[v].name, y->values[v].name) != 0 ||
            x->values[v].marker != y->values[v].marker) {
            return 0;
        }
    }
    return 1;
}

static void diff_values(dctx_t *d, const evrec_enum_desc_t *ee, const evrec_enum_desc_t *ae)
{
    for (uint32_t v = 0; v < ee->value_count; v++) {
        const evrec_enum_value_t *x = &ee->values[v];
        const evrec_enum_value_t *y = find_value_name(ae, x->name);
        if (!y) {
            const evrec_enum_value_t *same = find_value_number(ae, x->value);
            if (same && !find_value_name(ee, same->name)) {
                diff(d, "enum %s: value %lu is called %s in %s, %s in %s (renamed)", ee->name,
                     (unsigned long)x->value, x->name, d->en, same->name, d->an);
            } else {
                diff(d, "enum %s: value %s (%lu) is in %s, not in %s (removed)", ee->name, x->name,
                     (unsigned long)x->value, d->en, d->an);
            }
            continue;
        }
        if (x->value != y->value) {
            diff(d, "enum %s: value %s is %lu in %s, %lu in %s (value changed)", ee->name, x->name,
                 (unsigned long)x->value, d->en, (unsigned long)y->value, d->an);
        }
        if (x->marker != y->marker) {
            diff(d, "enum %s: value %s has marker %s in %s, %s in %s (marker changed)", ee->name, x->name,
                 marker(x->marker), d->en, marker(y->marker), d->an);
        }
    }
    for (uint32_t v = 0; v < ae->value_count; v++) {
        const evrec_enum_value_t *y = &ae->values[v];
        if (find_value_name(ee, y->name) || runtime_name_in_bare(d, ee, y->value)) {
            continue;
        }
        const evrec_enum_value_t *same = find_value_number(ee, y->value);
        if (same && !find_value_name(ae, same->name)) {
            continue; /* reported as a rename above */
        }
        diff(d, "enum %s: value %s (%lu) is in %s, not in %s (added)", ee->name, y->name, (unsigned long)y->value,
             d->an, d->en);
    }
    /* The common values in the same relative order? The hash sees the order (evrec-gen sorts
     * them ascending; a file need not). */
    int64_t last = -1;
    for (uint32_t v = 0; v < ee->value_count; v++) {
        const evrec_enum_value_t *x = &ee->values[v];
        const evrec_enum_value_t *y = find_value_number(ae, x->value);
        if (!y) {
            continue;
        }
        int64_t g = y - ae->values;
        if (g < last) {
            diff(d, "enum %s: the values are in another order (value %lu comes earlier in %s than in %s)",
                 ee->name, (unsigned long)x->value, d->an, d->en);
            break;
        }
        last = g;
    }
    const evrec_runtime_enum_t *er = ee->runtime, *ar = ae->runtime;
    if (er && ar && (er->base != ar->base || er->lim != ar->lim)) {
        diff(d, "enum %s: run-time range [%lu, %lu) in %s, [%lu, %lu) in %s (range changed)", ee->name,
             (unsigned long)er->base, (unsigned long)er->lim, d->en, (unsigned long)ar->base,
             (unsigned long)ar->lim, d->an);
    } else if (er && !ar && !d->bare) {
        diff(d, "enum %s: run-time range [%lu, %lu) in %s, none in %s", ee->name, (unsigned long)er->base,
             (unsigned long)er->lim, d->en, d->an);
    } else if (!er && ar) {
        diff(d, "enum %s: no run-time range in %s, [%lu, %lu) in %s", ee->name, d->en, (unsigned long)ar->base,
             (unsigned long)ar->lim, d->an);
    }
}

static void diff_enums(dctx_t *d)
{
    const evrec_meta_t *e = d->e, *a = d->a;
    char *renamed = gen_xmalloc(a->enum_count + 1);
    memset(renamed, 0, a->enum_count + 1);
    for (uint32_t i = 0; i < e->enum_count; i++) {
        const evrec_enum_desc_t *ee = &e->enums[i];
        int j = find_enum(d, a, ee->name);
        if (j < 0) {
            if (i < a->enum_count && find_enum(d, e, a->enums[i].name) < 0 && same_enum_body(ee, &a->enums[i])) {
                diff(d, "enum %s (id %u) is called %s in %s (renamed)", ee->name, (unsigned)i, a->enums[i].name,
                     d->an);
                renamed[i] = 1;
                d->enum_map[i] = (int)i;
            } else {
                diff(d, "enum %s (id %u) is in %s, not in %s (removed)", ee->name, (unsigned)i, d->en, d->an);
            }
            continue;
        }
        const evrec_enum_desc_t *ae = &a->enums[j];
        d->enum_map[i] = j;
        if ((uint32_t)j != i) {
            diff(d, "enum %s is id %u in %s, id %u in %s (order changed)", ee->name, (unsigned)i, d->en,
                 (unsigned)j, d->an);
        }
        if (ee->kind != ae->kind) {
            diff(d, "enum %s is %s in %s, %s in %s (type changed)", ee->name, width(ee->kind), d->en,
                 width(ae->kind), d->an);
        }
        diff_values(d, ee, ae);
    }
    for (uint32_t j = 0; j < a->enum_count; j++) {
        if (!renamed[j] && find_enum(d, e, a->enums[j].name) < 0) {
            diff(d, "enum %s (id %u) is in %s, not in %s (added)", a->enums[j].name, (unsigned)j, d->an, d->en);
        }
    }
    free(renamed);
}

/* The type of a field as text: "uint16", "enum Color (uint8)", "struct Point". */
static void type_text(const evrec_meta_t *m, const evrec_field_desc_t *f, char *buf, size_t n)
{
    static const char *const plain[3] = {"uint8", "uint16", "uint32"};
    if (f->kind <= EVREC_KIND_UINT32) {
        snprintf(buf, n, "%s", plain[f->kind]);
    } else if (f->kind == EVREC_KIND_STRUCT) {
        snprintf(buf, n, "struct %s", f->ref < m->struct_count ? m->structs[f->ref].name : "?");
    } else {
        snprintf(buf, n, "enum %s (%s)", f->ref < m->enum_count ? m->enums[f->ref].name : "?", width(f->kind));
    }
}

/* Same kind, and a reference to the matching item (same name, or the renamed one). */
static int same_type(const dctx_t *d, const evrec_field_desc_t *x, const evrec_field_desc_t *y)
{
    if (x->kind != y->kind) {
        return 0;
    }
    if (x->kind == EVREC_KIND_STRUCT) {
        return x->ref < d->e->struct_count && d->struct_map[x->ref] == (int)y->ref;
    }
    if (x->kind >= EVREC_KIND_ENUM_UINT8) {
        return x->ref < d->e->enum_count && d->enum_map[x->ref] == (int)y->ref;
    }
    return 1;
}

static int find_field(const evrec_struct_desc_t *s, const char *name)
{
    for (uint32_t f = 0; f < s->field_count; f++) {
        if (strcmp(s->fields[f].name, name) == 0) {
            return (int)f;
        }
    }
    return -1;
}

static const char *item(const dctx_t *d, int expected_side, uint32_t sid)
{
    const int *ev = expected_side ? d->e_is_event : d->a_is_event;
    return ev[sid] >= 0 ? "event" : "struct";
}

static void diff_fields(dctx_t *d, uint32_t es, uint32_t as)
{
    const evrec_struct_desc_t *x = &d->e->structs[es], *y = &d->a->structs[as];
    const char *what = item(d, 1, es);
    char tx[1200], ty[1200];
    for (uint32_t f = 0; f < x->field_count; f++) {
        const evrec_field_desc_t *fx = &x->fields[f];
        int g = find_field(y, fx->name);
        if (g < 0) {
            if (f < y->field_count && find_field(x, y->fields[f].name) < 0) {
                diff(d, "%s %s: field %u is called %s in %s, %s in %s (renamed)", what, x->name, (unsigned)f,
                     fx->name, d->en, y->fields[f].name, d->an);
            } else {
                diff(d, "%s %s: field %s is in %s, not in %s (removed)", what, x->name, fx->name, d->en, d->an);
            }
            continue;
        }
        const evrec_field_desc_t *fy = &y->fields[g];
        type_text(d->e, fx, tx, sizeof tx);
        type_text(d->a, fy, ty, sizeof ty);
        if (!same_type(d, fx, fy)) {
            diff(d, "%s %s: field %s is %s in %s, %s in %s (type changed)", what, x->name, fx->name, tx, d->en, ty,
                 d->an);
        } else if (fx->kind <= EVREC_KIND_UINT32 && fx->ref != fy->ref) {
            /* FORMAT.md section 3: 0 for plain integers; the hash sees the id all the same. */
            diff(d, "%s %s: field %s (%s) has type id %u in %s, %u in %s (a plain integer's type id is 0)", what,
                 x->name, fx->name, tx, (unsigned)fx->ref, d->en, (unsigned)fy->ref, d->an);
        }
    }
    int order_differs = 0;
    for (uint32_t f = 0; f < y->field_count; f++) {
        const char *n = y->fields[f].name;
        int g = find_field(x, n);
        if (g < 0) {
            if (!(f < x->field_count && find_field(y, x->fields[f].name) < 0)) {
                diff(d, "%s %s: field %s is in %s, not in %s (added)", what, x->name, n, d->an, d->en);
            }
            order_differs = 1; /* shifts the others, but that is said by the addition */
        }
    }
    if (!order_differs) {
        /* The common fields in the same relative order? */
        int last = -1;
        for (uint32_t f = 0; f < x->field_count; f++) {
            int g = find_field(y, x->fields[f].name);
            if (g < 0) {
                continue;
            }
            if (g < last) {
                diff(d, "%s %s: the fields are in another order (field %s comes earlier in %s than in %s)", what,
                     x->name, x->fields[f].name, d->an, d->en);
                break;
            }
            last = g;
        }
    }
}

static void diff_structs(dctx_t *d)
{
    const evrec_meta_t *e = d->e, *a = d->a;
    char *renamed = gen_xmalloc(a->struct_count + 1);
    memset(renamed, 0, a->struct_count + 1);
    for (uint32_t i = 0; i < e->struct_count; i++) {
        const evrec_struct_desc_t *x = &e->structs[i];
        const char *what = item(d, 1, i);
        int j = find_struct(d, a, x->name);
        if (j < 0) {
            if (i < a->struct_count && find_struct(d, e, a->structs[i].name) < 0 &&
                (d->e_is_event[i] >= 0) == (d->a_is_event[i] >= 0) &&
                x->field_count == a->structs[i].field_count) {
                diff(d, "%s %s (struct id %u) is called %s in %s (renamed)", what, x->name, (unsigned)i,
                     a->structs[i].name, d->an);
                renamed[i] = 1;
                d->struct_map[i] = (int)i;
            } else {
                diff(d, "%s %s is in %s, not in %s (removed)", what, x->name, d->en, d->an);
            }
            continue;
        }
        if ((d->e_is_event[i] >= 0) != (d->a_is_event[j] >= 0)) {
            diff(d, "%s is %s in %s, %s in %s", x->name, d->e_is_event[i] >= 0 ? "an event" : "a struct", d->en,
                 d->a_is_event[j] >= 0 ? "an event" : "a struct", d->an);
        }
        d->struct_map[i] = j;
        if ((uint32_t)j != i) {
            diff(d, "%s %s is struct id %u in %s, %u in %s (order changed)", what, x->name, (unsigned)i, d->en,
                 (unsigned)j, d->an);
        }
    }
    /* Fields once every struct is matched (a field's type compares through the matches). */
    for (uint32_t i = 0; i < e->struct_count; i++) {
        if (d->struct_map[i] >= 0) {
            diff_fields(d, i, (uint32_t)d->struct_map[i]);
        }
    }
    for (uint32_t j = 0; j < a->struct_count; j++) {
        if (!renamed[j] && find_struct(d, e, a->structs[j].name) < 0) {
            diff(d, "%s %s is in %s, not in %s (added)", item(d, 0, j), a->structs[j].name, d->an, d->en);
        }
    }
    free(renamed);
}

/* Name of the event of id `id` (its struct's name), or NULL. */
static const char *event_name(const evrec_meta_t *m, uint32_t id)
{
    if (id >= m->event_count || m->events[id].struct_id >= m->struct_count) {
        return NULL;
    }
    return m->structs[m->events[id].struct_id].name;
}

static void diff_events(dctx_t *d)
{
    const evrec_meta_t *e = d->e, *a = d->a;
    for (uint32_t i = 0; i < e->event_count; i++) {
        const char *name = event_name(e, i);
        if (!name) {
            continue;
        }
        int sa = find_struct(d, a, name);
        if (sa < 0 || d->a_is_event[sa] < 0) {
            /* Said by the struct comparison, or renamed: compare the event of the same id. */
            if (!(i < a->event_count && event_name(a, i) && find_struct(d, e, event_name(a, i)) < 0)) {
                continue;
            }
            sa = a->events[i].struct_id;
        }
        uint32_t j = (uint32_t)d->a_is_event[sa];
        if (j != i) {
            diff(d, "event %s is event id %u in %s, %u in %s (order changed)", name, (unsigned)i, d->en,
                 (unsigned)j, d->an);
        }
        const char *ce = event_name(e, e->events[i].class_id), *ca = event_name(a, a->events[j].class_id);
        int own_e = e->events[i].class_id == i, own_a = a->events[j].class_id == j;
        if (own_e != own_a || (!own_e && (!ce || !ca || strcmp(ce, ca) != 0))) {
            diff(d, "event %s: class %s in %s, %s in %s (class changed)", name,
                 own_e ? "its own"
                 : ce  ? ce
                       : "?",
                 d->en,
                 own_a ? "its own"
                 : ca  ? ca
                       : "?",
                 d->an);
        }
    }
}

static int *events_of_structs(const evrec_meta_t *m)
{
    int *ev = gen_xmalloc((m->struct_count + 1) * sizeof *ev);
    for (uint32_t s = 0; s < m->struct_count; s++) {
        ev[s] = -1;
    }
    for (uint32_t i = 0; i < m->event_count; i++) {
        if (m->events[i].struct_id < m->struct_count && ev[m->events[i].struct_id] < 0) {
            ev[m->events[i].struct_id] = (int)i;
        }
    }
    return ev;
}

size_t evrec_meta_diff(const evrec_meta_t *expected, const evrec_meta_t *actual, const evrec_diff_options_t *opt,
                       evrec_diff_fn fn, void *ctx)
{
    if (!expected || !actual) {
        return 0;
    }
    dctx_t d;
    memset(&d, 0, sizeof d);
    d.e = expected;
    d.a = actual;
    d.en = opt && opt->expected_name ? opt->expected_name : "expected";
    d.an = opt && opt->actual_name ? opt->actual_name : "actual";
    d.bare = opt && opt->actual_bare_ccore;
    d.fn = fn;
    d.ctx = ctx;
    d.e_is_event = events_of_structs(expected);
    d.a_is_event = events_of_structs(actual);
    d.enum_map = gen_xmalloc((expected->enum_count + 1) * sizeof *d.enum_map);
    d.struct_map = gen_xmalloc((expected->struct_count + 1) * sizeof *d.struct_map);
    for (uint32_t i = 0; i < expected->enum_count; i++) {
        d.enum_map[i] = -1;
    }
    for (uint32_t i = 0; i < expected->struct_count; i++) {
        d.struct_map[i] = -1;
    }
    d.ix[0] = ix_build(expected, 0);
    d.ix[1] = ix_build(actual, 0);
    d.ix[2] = ix_build(expected, 1);
    d.ix[3] = ix_build(actual, 1);
    diff_enums(&d);
    diff_structs(&d);
    diff_events(&d);
    if (!d.bare) { /* a bare CCore stream carries no tracks, spans or counters */
        d.count += gen_tracks_diff(expected, actual, d.en, d.an, fn, ctx);
    }
    free(d.e_is_event);
    free(d.a_is_event);
    free(d.enum_map);
    free(d.struct_map);
    for (int i = 0; i < 4; i++) {
        free(d.ix[i]);
    }
    return d.count;
}
