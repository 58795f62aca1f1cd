/* SPDX-License-Identifier: Apache-2.0 */
/* Schema loading: YAML files (libyaml document API), includes, and every check of
 * schema/SCHEMA.md. Errors are collected (never stop at the first) with libyaml's marks. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load_internal.h"

const char *const gen_marker_names[16] = {
    "None", "Up",  "Down", "UpBlock", "DownBlock", "UpUp", "UpPush", "UpUpPush",
    "Push", "Inc", "Dec",  "Wait",    "Pass",      "Tick", "Stop",   "Error",
};

/* One file being read (load_internal.h). */
typedef gen_ctx_t ctx_t;

/* Files being loaded, outermost first (include cycle detection and messages). */
typedef struct load_stack {
    unsigned *items;
    size_t count, cap;
} load_stack_t;

static gen_pos_t pos_of(const ctx_t *c, const yaml_node_t *n)
{
    gen_pos_t p = {c->file, (unsigned)n->start_mark.line + 1, (unsigned)n->start_mark.column + 1};
    return p;
}

static yaml_node_t *node_at(const ctx_t *c, int index)
{
    return yaml_document_get_node(c->doc, index);
}

static const char *node_kind(const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_SCALAR_NODE: return "a scalar";
    case YAML_SEQUENCE_NODE: return "a list";
    case YAML_MAPPING_NODE: return "a mapping";
    default: return "nothing";
    }
}

/* The text of a scalar node, or NULL (error reported) when it is not a scalar or holds a NUL. */
static const char *scalar(ctx_t *c, const yaml_node_t *n, const char *what)
{
    if (n->type != YAML_SCALAR_NODE) {
        gen_error(c->s, pos_of(c, n), "expected a scalar for %s, found %s", what, node_kind(n));
        return NULL;
    }
    const char *v = (const char *)n->data.scalar.value;
    if (strlen(v) != n->data.scalar.length) {
        gen_error(c->s, pos_of(c, n), "%s contains a NUL character", what);
        return NULL;
    }
    return v;
}

int gen_parse_uint_text(const char *v, uint64_t *out)
{
    uint64_t x = 0;
    int base = 10;
    const char *p = v;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    } else if (p[0] == '0' && p[1] != '\0') {
        return 0; /* a leading zero is octal in YAML 1.1 and decimal elsewhere: refuse it */
    }
    if (!*p) {
        return 0;
    }
    for (; *p; p++) {
        unsigned d;
        if (*p >= '0' && *p <= '9') {
            d = (unsigned)(*p - '0');
        } else if (base == 16 && *p >= 'a' && *p <= 'f') {
            d = (unsigned)(*p - 'a' + 10);
        } else if (base == 16 && *p >= 'A' && *p <= 'F') {
            d = (unsigned)(*p - 'A' + 10);
        } else {
            return 0;
        }
        if (x > (UINT64_MAX - d) / (uint64_t)base) {
            return -1;
        }
        x = x * (uint64_t)base + d;
    }
    *out = x;
    return 1;
}

/* An unsigned integer: decimal, or hexadecimal with 0x. */
static int parse_uint(ctx_t *c, const yaml_node_t *n, const char *what, uint64_t *out)
{
    const char *v = scalar(c, n, what);
    if (!v) {
        return -1;
    }
    int r = gen_parse_uint_text(v, out);
    if (r < 0) {
        gen_error(c->s, pos_of(c, n), "%s '%s' is too large", what, v);
        return -1;
    }
    if (r == 0) {
        gen_error(c->s, pos_of(c, n),
                  "expected an unsigned integer (decimal, or hexadecimal with 0x) for %s, found '%s'", what, v);
        return -1;
    }
    return 0;
}

/* A C keyword (ident_rules.c's list); the _Xxx ones are reported as reserved names by name_of(). */
static int is_keyword(const char *v)
{
    return v[0] != '_' && gen_c_keyword(v);
}

/* A name: a C identifier, not a keyword, not reserved. Returns the text (also when invalid, so
 * that later references to it do not cascade) or NULL when the node is not a usable scalar.
 * `*valid` tells whether it passed. */
static const char *name_of(ctx_t *c, const yaml_node_t *n, const char *what, int *valid)
{
    *valid = 0;
    const char *v = scalar(c, n, what);
    if (!v) {
        return NULL;
    }
    int ident = v[0] != '\0' && !(v[0] >= '0' && v[0] <= '9');
    for (const char *p = v; *p && ident; p++) {
        ident = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_';
    }
    if (!ident) {
        gen_buf_t shown = {0}; /* escaped: a message is one line of printable text */
        gen_buf_c_string(&shown, v);
        gen_error(c->s, pos_of(c, n),
                  "%s '%s' is not a C identifier (letters, digits and _, not starting with a "
                  "digit)",
                  what, shown.data ? shown.data : "");
        gen_buf_free(&shown);
    } else if (is_keyword(v)) {
        gen_error(c->s, pos_of(c, n), "%s '%s' is a C keyword", what, v);
    } else if (v[0] == '_' && ((v[1] >= 'A' && v[1] <= 'Z') || v[1] == '_')) {
        gen_error(c->s, pos_of(c, n),
                  "%s '%s' is reserved in C (it starts with _ and a capital letter, or with __)", what, v);
    } else {
        *valid = 1;
    }
    return v;
}

/* ---- mappings: known keys, unknown and duplicate keys reported ---- */

typedef gen_key_t map_key_t;

/* Fill keys[i].value from mapping `n`. Returns 0 when `n` is not a mapping (error reported). */
static int read_map(ctx_t *c, const yaml_node_t *n, const char *what, map_key_t *keys, size_t nkeys)
{
    for (size_t i = 0; i < nkeys; i++) {
        keys[i].value = NULL;
        keys[i].key = NULL;
    }
    if (n->type != YAML_MAPPING_NODE) {
        gen_error(c->s, pos_of(c, n), "expected a mapping for %s, found %s", what, node_kind(n));
        return 0;
    }
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = node_at(c, p->key);
        yaml_node_t *v = node_at(c, p->value);
        if (!k || !v) {
            continue;
        }
        if (k->type != YAML_SCALAR_NODE) {
            gen_error(c->s, pos_of(c, k), "expected a scalar key in %s, found %s", what, node_kind(k));
            continue;
        }
        const char *kname = (const char *)k->data.scalar.value;
        size_t i = 0;
        while (i < nkeys && strcmp(keys[i].name, kname) != 0) {
            i++;
        }
        if (i == nkeys) {
            gen_buf_t list = {0};
            for (size_t j = 0; j < nkeys; j++) {
                gen_buf_printf(&list, "%s%s", j ? ", " : "", keys[j].name);
            }
            gen_error(c->s, pos_of(c, k), "unknown key '%s' in %s (expected %s)", kname, what, list.data);
            gen_buf_free(&list);
        } else if (keys[i].value) {
            gen_error(c->s, pos_of(c, k), "duplicate key '%s' in %s (first at %s)", kname, what,
                      gen_pos_str(c->s, pos_of(c, keys[i].key)));
        } else {
            keys[i].value = v;
            keys[i].key = k;
        }
    }
    return 1;
}

static yaml_node_t *need(ctx_t *c, const yaml_node_t *map, const map_key_t *k, const char *what)
{
    if (!k->value) {
        gen_error(c->s, pos_of(c, map), "missing key '%s' in %s", k->name, what);
    }
    return k->value;
}

/* A sequence node's items, or an error. */
static int need_list(ctx_t *c, const yaml_node_t *n, const char *what)
{
    if (n->type != YAML_SEQUENCE_NODE) {
        gen_error(c->s, pos_of(c, n), "expected a list for %s, found %s", what, node_kind(n));
        return 0;
    }
    return 1;
}

/* Text attributes (description, unit): copied, NULL when absent. */
static char *text_of(ctx_t *c, const yaml_node_t *n, const char *what)
{
    if (!n) {
        return NULL;
    }
    const char *v = scalar(c, n, what);
    return v ? gen_xstrdup(v) : NULL;
}

/* ---- the type namespace: enums, structs and events share one set of names ---- */

typedef struct found {
    int kind; /* 0 none, 1 enum, 2 struct (incl. events) */
    size_t index;
} found_t;

static size_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) {
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    }
    return (size_t)h;
}

static const char *slot_name(const gen_schema_t *s, size_t v)
{
    size_t i = (v - 1) / 2;
    return (v - 1) % 2 ? s->structs[i].name : s->enums[i].name;
}

/* Enter item v (1 + 2 x index + is_struct): the first enum, else the first struct, of a name
 * wins, as a search of the enums, then of the structs, in order finds it. */
static void name_enter(gen_schema_t *s, size_t v)
{
    const char *name = slot_name(s, v);
    size_t k = name_hash(name) & (s->name_slots - 1);
    for (; s->name_slot[k]; k = (k + 1) & (s->name_slots - 1)) {
        size_t w = s->name_slot[k];
        if (strcmp(slot_name(s, w), name) == 0) {
            if ((w - 1) % 2 && !((v - 1) % 2)) {
                s->name_slot[k] = v; /* an enum of the name of a struct */
            }
            return;
        }
    }
    s->name_slot[k] = v;
    s->name_used++;
}

/* The enum or struct of a name: a hash table (a linear search made schemas of 65,535 items take
 * minutes), brought up to date with the items appended since the last call. */
static found_t lookup(gen_schema_t *s, const char *name)
{
    found_t f = {0, 0};
    size_t want = s->enum_count + s->struct_count;
    if (2 * want >= s->name_slots) {
        size_t n = 64;
        while (n <= 2 * want) {
            n *= 2;
        }
        free(s->name_slot);
        s->name_slot = gen_xmalloc(n * sizeof *s->name_slot);
        memset(s->name_slot, 0, n * sizeof *s->name_slot);
        s->name_slots = n;
        s->name_enums = s->name_structs = s->name_used = 0;
    }
    for (; s->name_enums < s->enum_count; s->name_enums++) {
        name_enter(s, 1 + 2 * s->name_enums);
    }
    for (; s->name_structs < s->struct_count; s->name_structs++) {
        name_enter(s, 2 + 2 * s->name_structs);
    }
    size_t k = name_hash(name) & (s->name_slots - 1);
    for (; s->name_slot[k]; k = (k + 1) & (s->name_slots - 1)) {
        size_t v = s->name_slot[k];
        if (strcmp(slot_name(s, v), name) == 0) {
            f.kind = (v - 1) % 2 ? 2 : 1;
            f.index = (v - 1) / 2;
            return f;
        }
    }
    return f;
}

static const char *item_kind(const gen_schema_t *s, found_t f)
{
    if (f.kind == 1) {
        return "enum";
    }
    return s->structs[f.index].event ? "event" : "struct";
}

/* Report a name already used by another enum, struct or event. Returns 1 if it is taken. */
static int name_taken(ctx_t *c, const yaml_node_t *n, const char *name)
{
    found_t f = lookup(c->s, name);
    if (f.kind == 0) {
        return 0;
    }
    gen_pos_t other = f.kind == 1 ? c->s->enums[f.index].pos : c->s->structs[f.index].pos;
    if (other.file == GEN_BUILTIN) {
        gen_error(c->s, pos_of(c, n), "duplicate name '%s': the built-in %s %s has it", name, item_kind(c->s, f),
                  name);
    } else {
        gen_error(c->s, pos_of(c, n), "duplicate name '%s': %s %s is already defined at %s", name,
                  item_kind(c->s, f), name, gen_pos_str(c->s, other));
    }
    return 1;
}

static uint64_t width_max(uint8_t width)
{
    return width == 1 ? 0xFFu : width == 2 ? 0xFFFFu : 0xFFFFFFFFu;
}

static const char *width_type(uint8_t width)
{
    return width == 1 ? "uint8" : width == 2 ? "uint16" : "uint32";
}

static int parse_marker(ctx_t *c, const yaml_node_t *n, uint8_t *out)
{
    const char *v = scalar(c, n, "marker");
    if (!v) {
        return -1;
    }
    for (unsigned i = 0; i < 16; i++) {
        if (strcmp(v, gen_marker_names[i]) == 0) {
            *out = (uint8_t)i;
            return 0;
        }
    }
    gen_error(c->s, pos_of(c, n),
              "unknown marker '%s' (expected None, Up, Down, UpBlock, DownBlock, UpUp, UpPush, "
              "UpUpPush, Push, Inc, Dec, Wait, Pass, Tick, Stop or Error)",
              v);
    return -1;
}

/* ---- enums ---- */

static void parse_value(ctx_t *c, gen_enum_t *e, gen_value_index_t *index, const yaml_node_t *n, int width_ok,
                        uint64_t *next)
{
    const yaml_node_t *name_node = n, *value_node = NULL, *marker_node = NULL, *desc_node = NULL;
    if (n->type == YAML_MAPPING_NODE) {
        map_key_t keys[] = {{"name", 0, 0}, {"value", 0, 0}, {"marker", 0, 0}, {"description", 0, 0}};
        read_map(c, n, "enum value", keys, 4);
        name_node = need(c, n, &keys[0], "enum value");
        value_node = keys[1].value;
        marker_node = keys[2].value;
        desc_node = keys[3].value;
        if (!name_node) {
            return;
        }
    } else if (n->type != YAML_SCALAR_NODE) {
        gen_error(c->s, pos_of(c, n), "expected a name or a mapping for an enum value, found %s", node_kind(n));
        return;
    }
    int valid;
    const char *name = name_of(c, name_node, "enum value name", &valid);
    uint64_t v = *next;
    int value_ok = 1;
    if (value_node && parse_uint(c, value_node, "value", &v) != 0) {
        value_ok = 0;
    }
    uint8_t marker = EVREC_MARKER_NONE;
    if (marker_node) {
        parse_marker(c, marker_node, &marker);
    }
    char *desc = text_of(c, desc_node, "description");
    if (!name) {
        free(desc);
        return;
    }
    gen_pos_t vpos = pos_of(c, value_node ? value_node : name_node);
    if (value_ok && width_ok && v > width_max(e->width)) {
        gen_error(c->s, vpos, "value %llu of '%s' does not fit enum %s (%s: 0..%llu)", (unsigned long long)v, name,
                  e->name, width_type(e->width), (unsigned long long)width_max(e->width));
        value_ok = 0;
    } else if (value_ok && v > 0xFFFFFFFFu) {
        gen_error(c->s, vpos, "value %llu of '%s' does not fit 32 bits", (unsigned long long)v, name);
        value_ok = 0;
    }
    *next = value_ok ? v + 1 : *next + 1;
    size_t same = gen_value_index_name(index, e, name, &c->s->value_compares);
    if (same != SIZE_MAX) {
        gen_error(c->s, pos_of(c, name_node), "duplicate name '%s' in enum %s: already defined at %s", name,
                  e->name, gen_pos_str(c->s, e->values[same].pos));
        free(desc);
        return;
    }
    same = value_ok ? gen_value_index_value(index, e, (uint32_t)v, &c->s->value_compares) : SIZE_MAX;
    if (same != SIZE_MAX) {
        gen_error(c->s, vpos, "duplicate value %llu in enum %s: '%s' and '%s' (%s)", (unsigned long long)v,
                  e->name, name, e->values[same].name, gen_pos_str(c->s, e->values[same].pos));
        value_ok = 0;
    }
    gen_value_t *val = GEN_PUSH(e->values, e->value_count, e->value_cap);
    val->name = gen_xstrdup(name);
    val->value = (uint32_t)v;
    val->marker = marker;
    val->description = desc;
    val->pos = pos_of(c, name_node);
    gen_value_index_add(index, e, e->value_count - 1, value_ok);
    (void)valid;
}

static void parse_runtime(ctx_t *c, gen_enum_t *e, const yaml_node_t *n, int width_ok)
{
    map_key_t keys[] = {{"base", 0, 0}, {"lim", 0, 0}, {"marker", 0, 0}};
    if (!read_map(c, n, "runtime", keys, 3)) {
        return;
    }
    const yaml_node_t *bn = need(c, n, &keys[0], "runtime");
    const yaml_node_t *ln = need(c, n, &keys[1], "runtime");
    uint64_t base = 0, lim = 0;
    int ok = bn && ln;
    if (bn && parse_uint(c, bn, "base", &base) != 0) {
        ok = 0;
    }
    if (ln && parse_uint(c, ln, "lim", &lim) != 0) {
        ok = 0;
    }
    uint8_t marker = EVREC_MARKER_NONE;
    if (keys[2].value) {
        parse_marker(c, keys[2].value, &marker);
    }
    if (!ok) {
        return;
    }
    if (lim <= base) {
        gen_error(c->s, pos_of(c, ln),
                  "run-time range of enum %s is empty: lim %llu must be greater than base %llu", e->name,
                  (unsigned long long)lim, (unsigned long long)base);
        return;
    }
    if (width_ok && lim - 1 > width_max(e->width)) {
        gen_error(c->s, pos_of(c, ln), "run-time range [%llu, %llu) does not fit enum %s (%s: lim at most %llu)",
                  (unsigned long long)base, (unsigned long long)lim, e->name, width_type(e->width),
                  (unsigned long long)width_max(e->width) + 1);
        return;
    }
    if (lim - 1 > 0xFFFFFFFFu) {
        gen_error(c->s, pos_of(c, ln), "lim %llu does not fit 32 bits", (unsigned long long)lim);
        return;
    }
    e->has_runtime = 1;
    e->rt_base = (uint32_t)base;
    e->rt_lim = (uint32_t)lim;
    e->rt_marker = marker;
}

static void parse_enum(ctx_t *c, const yaml_node_t *n)
{
    map_key_t keys[] = {
        {"name", 0, 0}, {"type", 0, 0}, {"description", 0, 0}, {"values", 0, 0}, {"runtime", 0, 0}};
    if (!read_map(c, n, "enum", keys, 5)) {
        return;
    }
    const yaml_node_t *name_node = need(c, n, &keys[0], "enum");
    const yaml_node_t *type_node = need(c, n, &keys[1], "enum");
    int valid = 0;
    const char *name = name_node ? name_of(c, name_node, "enum name", &valid) : NULL;
    gen_enum_t tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.name = gen_xstrdup(name ? name : "?");
    tmp.pos = pos_of(c, name_node ? name_node : n);
    tmp.width = 4;
    int width_ok = 0;
    if (type_node) {
        const char *t = scalar(c, type_node, "enum type");
        if (t && strcmp(t, "uint8") == 0) {
            tmp.width = 1;
            width_ok = 1;
        } else if (t && strcmp(t, "uint16") == 0) {
            tmp.width = 2;
            width_ok = 1;
        } else if (t && strcmp(t, "uint32") == 0) {
            tmp.width = 4;
            width_ok = 1;
        } else if (t) {
            gen_error(c->s, pos_of(c, type_node),
                      "unknown type '%s' for enum %s (expected uint8, uint16 or uint32)", t, tmp.name);
        }
    }
    tmp.description = text_of(c, keys[2].value, "description");
    if (keys[3].value && need_list(c, keys[3].value, "values")) {
        uint64_t next = 0;
        gen_value_index_t index = {0};
        const yaml_node_t *vl = keys[3].value;
        for (yaml_node_item_t *it = vl->data.sequence.items.start; it < vl->data.sequence.items.top; it++) {
            yaml_node_t *vn = node_at(c, *it);
            if (vn) {
                parse_value(c, &tmp, &index, vn, width_ok, &next);
            }
        }
        gen_value_index_free(&index);
    }
    if (keys[4].value) {
        parse_runtime(c, &tmp, keys[4].value, width_ok);
    }
    if (tmp.has_runtime) {
        for (size_t i = 0; i < tmp.value_count; i++) {
            if (tmp.values[i].value >= tmp.rt_base && tmp.values[i].value < tmp.rt_lim) {
                gen_error(c->s, tmp.values[i].pos,
                          "value %lu of '%s' lies in the run-time range [%lu, %lu) of enum %s",
                          (unsigned long)tmp.values[i].value, tmp.values[i].name, (unsigned long)tmp.rt_base,
                          (unsigned long)tmp.rt_lim, tmp.name);
            }
        }
    }
    if (!name || name_taken(c, name_node, name)) {
        for (size_t i = 0; i < tmp.value_count; i++) {
            free(tmp.values[i].name);
            free(tmp.values[i].description);
        }
        free(tmp.values);
        free(tmp.name);
        free(tmp.description);
        return;
    }
    (void)valid;
    *GEN_PUSH(c->s->enums, c->s->enum_count, c->s->enum_cap) = tmp;
}

/* ---- structs and events ---- */

static uint32_t type_size(uint8_t t)
{
    return t == GEN_T_U8 ? 1 : t == GEN_T_U16 ? 2 : 4;
}

static void add_field(gen_struct_t *st, const char *name, int type, size_t ref, gen_pos_t pos)
{
    gen_field_t *f = GEN_PUSH(st->fields, st->field_count, st->field_cap);
    memset(f, 0, sizeof *f);
    f->name = gen_xstrdup(name);
    f->type = type;
    f->ref = ref;
    f->pos = pos;
}

/* The name of a field of `st` at name_node, checked: reserved, colliding with C, duplicate. NULL
 * when it cannot be used (after a message, unless `valid` is 0: name_of() gave one). */
static const char *field_name(ctx_t *c, const gen_struct_t *st, const yaml_node_t *name_node, const char *name,
                              int valid)
{
    char what[256];
    const char *clash;
    if (!name || !valid) {
        return name;
    }
    if (st->event && (strcmp(name, "time") == 0 || strcmp(name, "id") == 0)) {
        gen_error(c->s, pos_of(c, name_node), "field name '%s' is reserved: every event starts with time and id",
                  name);
    } else if ((clash = gen_ident_collision(name, 0, what, sizeof what)) != NULL) {
        gen_error(c->s, pos_of(c, name_node), "field name '%s' collides with %s", name, clash);
    } else {
        for (size_t i = 0; i < st->field_count; i++) {
            if (strcmp(st->fields[i].name, name) == 0) {
                gen_error(c->s, pos_of(c, name_node), "duplicate name '%s' in %s %s: already defined at %s", name,
                          st->event ? "event" : "struct", st->name, gen_pos_str(c->s, st->fields[i].pos));
                return NULL;
            }
        }
    }
    return name;
}

/* The type of field `name` at type_node: GEN_T_*, its enum or struct id in *ref; -1 when none. */
static int field_type(ctx_t *c, const yaml_node_t *type_node, const char *name, size_t *ref)
{
    const char *t = scalar(c, type_node, "field type");
    if (!t) {
        return -1;
    }
    if (strcmp(t, "uint8") == 0) {
        return GEN_T_U8;
    }
    if (strcmp(t, "uint16") == 0) {
        return GEN_T_U16;
    }
    if (strcmp(t, "uint32") == 0) {
        return GEN_T_U32;
    }
    found_t f = lookup(c->s, t);
    *ref = f.index;
    if (f.kind == 1) {
        return GEN_T_ENUM;
    }
    if (f.kind == 2 && !c->s->structs[f.index].event) {
        return GEN_T_STRUCT;
    }
    if (f.kind == 2) {
        gen_error(c->s, pos_of(c, type_node),
                  "type '%s' of field %s is an event; a field can be a struct, not an event", t,
                  name ? name : "?");
    } else if (!c->s->incomplete) {
        gen_error(c->s, pos_of(c, type_node),
                  "unknown type '%s' for field %s (expected uint8, uint16, uint32, or an "
                  "enum or struct declared before it)",
                  t, name ? name : "?");
    }
    *ref = 0;
    return -1;
}

static int plain_integer(int type)
{
    return type == GEN_T_U8 || type == GEN_T_U16 || type == GEN_T_U32;
}

/* The field's format: (key) 0 none, 1 decimal, 2 hex, 3 address. */
static uint8_t field_display(ctx_t *c, const yaml_node_t *node, int type)
{
    uint8_t display = 0;
    const char *fmt = scalar(c, node, "format");
    if (fmt && strcmp(fmt, "decimal") == 0) {
        display = 1;
    } else if (fmt && strcmp(fmt, "hex") == 0) {
        display = 2;
    } else if (fmt && strcmp(fmt, "address") == 0) {
        display = 3;
    } else if (fmt) {
        gen_error(c->s, pos_of(c, node), "unknown format '%s' (expected decimal, hex or address)", fmt);
    }
    if (display && type != -1 && !plain_integer(type)) {
        gen_error(c->s, pos_of(c, node), "format applies to uint8, uint16 and uint32 fields only");
        display = 0;
    }
    return display;
}

/* The field's `counter:` key: 1 when true. */
static int field_counter(ctx_t *c, const yaml_node_t *node, int type)
{
    int counter = 0;
    const char *cv = scalar(c, node, "counter");
    if (cv && strcmp(cv, "true") == 0) {
        counter = 1;
    } else if (cv && strcmp(cv, "false") != 0) {
        gen_error(c->s, pos_of(c, node), "expected true or false for counter, found '%s'", cv);
    }
    if (counter && type != -1 && !plain_integer(type)) {
        gen_error(c->s, pos_of(c, node),
                  "counter applies to uint8, uint16 and uint32 fields only (a value to plot)");
        counter = 0;
    }
    return counter;
}

/* The field's `series:` key: the name of the sibling field that separates a counter's series
 * (resolved against the struct's fields in schema_tracks.c). Only with `counter: true`. */
static void field_series(ctx_t *c, gen_field_t *f, const yaml_node_t *node)
{
    if (!node) {
        return;
    }
    int valid = 0;
    const char *name = name_of(c, node, "series field", &valid);
    if (!valid) {
        return;
    }
    if (!f->counter) {
        gen_error(c->s, pos_of(c, node), "series applies to a counter (counter: true) only");
        return;
    }
    f->series = gen_xstrdup(name);
    f->series_pos = pos_of(c, node);
}

/* Parse one field into `st`. *layout_ok becomes 0 when the field cannot be laid out. */
static void parse_field(ctx_t *c, gen_struct_t *st, const yaml_node_t *n, int *layout_ok)
{
    map_key_t keys[] = {{"name", 0, 0}, {"type", 0, 0},    {"description", 0, 0}, {"format", 0, 0},
                        {"unit", 0, 0}, {"counter", 0, 0}, {"series", 0, 0}};
    if (!read_map(c, n, "field", keys, 7)) {
        *layout_ok = 0;
        return;
    }
    const yaml_node_t *name_node = need(c, n, &keys[0], "field");
    const yaml_node_t *type_node = need(c, n, &keys[1], "field");
    int valid = 0;
    const char *name = name_node ? name_of(c, name_node, "field name", &valid) : NULL;
    name = field_name(c, st, name_node, name, valid);
    size_t ref = 0;
    int type = type_node ? field_type(c, type_node, name, &ref) : -1;
    uint8_t display = keys[3].value ? field_display(c, keys[3].value, type) : 0;
    int counter = keys[5].value ? field_counter(c, keys[5].value, type) : 0;
    char *desc = text_of(c, keys[2].value, "description");
    char *unit = text_of(c, keys[4].value, "unit");
    if (!name || type < 0) {
        free(desc);
        free(unit);
        *layout_ok = 0;
        return;
    }
    add_field(st, name, type, ref, pos_of(c, name_node));
    gen_field_t *f = &st->fields[st->field_count - 1];
    f->description = desc;
    f->unit = unit;
    f->display = display;
    f->counter = counter;
    field_series(c, f, keys[6].value);
}

/* Native layout. A struct used as a field type: natural C layout in schema order (users write
 * its values as initialisers). An event struct: the same, unless the compact layout is smaller:
 * `time` and `id` stay at 0 and 4 (the record header every reader of the trace buffer relies
 * on); the other fields are placed largest
 * alignment first (in schema order among equals), each at the lowest offset of its alignment
 * where it fits, so smaller fields fill the holes that alignment left (the 2 bytes after `id`).
 * The size is rounded up to the struct's alignment. Declared in offset order (emit.c), the C
 * struct has exactly these offsets under every C11 ABI we target (natural alignment of
 * uint8/16/32); the generated _Static_asserts check it. The fields keep schema order in
 * `st->fields` (and so in the meta-info, the file and every reader); only offsets change. */
typedef struct hole {
    uint64_t at, end;
} hole_t;

static void layout(gen_schema_t *s, gen_struct_t *st)
{
    uint64_t off = 0;
    uint32_t align = 1;
    unsigned depth = 1;
    for (size_t i = 0; i < st->field_count; i++) {
        gen_field_t *f = &st->fields[i];
        if (f->type == GEN_T_STRUCT) {
            f->size = (uint32_t)(s->structs[f->ref].size > 0xFFFFFFFFu ? 0xFFFFFFFFu : s->structs[f->ref].size);
            f->align = s->structs[f->ref].align;
            if (s->structs[f->ref].depth + 1 > depth) {
                depth = s->structs[f->ref].depth + 1;
            }
        } else if (f->type == GEN_T_ENUM) {
            f->size = f->align = s->enums[f->ref].width;
        } else {
            f->size = f->align = type_size((uint8_t)f->type);
        }
        if (f->align > align) {
            align = f->align;
        }
    }
    /* Natural layout in schema order first. */
    for (size_t i = 0; i < st->field_count; i++) {
        gen_field_t *f = &st->fields[i];
        off = (off + f->align - 1) / f->align * f->align;
        f->offset = (uint32_t)(off > 0xFFFFFFFFu ? 0xFFFFFFFFu : off);
        off += f->size;
    }
    st->size = (off + align - 1) / align * align;
    st->align = align;
    st->depth = depth;
    if (!st->event || st->field_count <= 3) {
        return;
    }
    /* An event struct: the compact layout, kept only when it is smaller. */
    uint32_t *natural = gen_xmalloc(st->field_count * sizeof *natural);
    for (size_t i = 0; i < st->field_count; i++) {
        natural[i] = st->fields[i].offset;
    }
    off = 0;
    size_t fixed = st->field_count < 2 ? st->field_count : 2; /* time, id */
    hole_t *holes = st->field_count ? gen_xmalloc(st->field_count * 2 * sizeof *holes) : NULL;
    size_t nholes = 0;
    for (size_t i = 0; i < fixed; i++) {
        st->fields[i].offset = (uint32_t)off;
        off += st->fields[i].size;
    }
    for (uint32_t a = align; a >= 1; a /= 2) {
        for (size_t i = fixed; i < st->field_count; i++) {
            gen_field_t *f = &st->fields[i];
            if (f->align != a) {
                continue;
            }
            uint64_t at = UINT64_MAX;
            size_t best = 0;
            for (size_t h = 0; h < nholes; h++) { /* the lowest place in a hole */
                uint64_t x = (holes[h].at + a - 1) / a * a;
                if (x + f->size <= holes[h].end && x < at) {
                    at = x;
                    best = h;
                }
            }
            if (at != UINT64_MAX) { /* split the hole around the field */
                hole_t after = {at + f->size, holes[best].end};
                holes[best].end = at;
                if (after.end > after.at) {
                    holes[nholes++] = after;
                }
            } else {
                at = (off + a - 1) / a * a;
                if (at > off) {
                    holes[nholes++] = (hole_t){off, at};
                }
                off = at + f->size;
            }
            f->offset = (uint32_t)(at > 0xFFFFFFFFu ? 0xFFFFFFFFu : at);
        }
        if (a == 1) {
            break;
        }
    }
    free(holes);
    uint64_t compact = (off + align - 1) / align * align;
    if (compact < st->size) {
        st->size = compact;
    } else {
        for (size_t i = 0; i < st->field_count; i++) {
            st->fields[i].offset = natural[i];
        }
    }
    free(natural);
}

/* The fields list of `st` (an event's or a struct's, `what`); 0 when it cannot be laid out. */
static int parse_fields(ctx_t *c, gen_struct_t *st, const yaml_node_t *fields, const char *what)
{
    int layout_ok = 1;
    for (yaml_node_item_t *it = fields->data.sequence.items.start; it < fields->data.sequence.items.top; it++) {
        yaml_node_t *fn = node_at(c, *it);
        if (fn && st->field_count == EVREC_MAX_EVENT_SIZE) {
            /* every field takes a byte: the struct is too big already, and the duplicate
             * check, pairwise over a struct's fields, stays bounded */
            gen_error(c->s, pos_of(c, fn),
                      "%s %s has more than %u fields (it holds at most %u "
                      "bytes); the fields from here on are not read",
                      what, st->name, (unsigned)EVREC_MAX_EVENT_SIZE - (st->event ? 2u : 0u),
                      (unsigned)EVREC_MAX_EVENT_SIZE);
            return 0;
        }
        if (fn) {
            parse_field(c, st, fn, &layout_ok);
        }
    }
    if (!st->event && st->field_count == 0 &&
        fields->data.sequence.items.start == fields->data.sequence.items.top) {
        gen_error(c->s, pos_of(c, fields), "struct %s has no fields (C has no empty structs)", st->name);
    }
    return layout_ok;
}

/* Lays `st` out and checks its size and nesting. */
static void layout_checked(ctx_t *c, gen_struct_t *st, int layout_ok, const char *what)
{
    layout(c->s, st);
    if (layout_ok && st->size > EVREC_MAX_EVENT_SIZE) {
        gen_error(c->s, st->pos, "%s %s is %llu bytes (as a C struct), more than the %u-byte limit", what,
                  st->name, (unsigned long long)st->size, (unsigned)EVREC_MAX_EVENT_SIZE);
    }
    /* An event is level 0; a struct of depth d occupies levels 1..d: at most EVREC_MAX_NESTING. */
    if (!st->event && st->depth > EVREC_MAX_NESTING) {
        gen_error(c->s, st->pos, "struct %s nests structs %u levels deep, more than %u", st->name, st->depth,
                  (unsigned)EVREC_MAX_NESTING);
    }
}

/* A copy of an event's optional scalar key (class:, track:), its position in *pos; NULL when
 * absent. */
static char *optional_text(ctx_t *c, const yaml_node_t *node, const char *key, gen_pos_t *pos)
{
    const char *v = node ? scalar(c, node, key) : NULL;
    if (!v) {
        return NULL;
    }
    *pos = pos_of(c, node);
    return gen_xstrdup(v);
}

static void struct_free(gen_struct_t *st)
{
    for (size_t i = 0; i < st->field_count; i++) {
        free(st->fields[i].name);
        free(st->fields[i].description);
        free(st->fields[i].unit);
        free(st->fields[i].series);
    }
    free(st->fields);
    free(st->name);
    free(st->description);
}

/* Adds the event of struct `st` (the next struct id) to the schema. */
static void add_event(gen_schema_t *s, gen_struct_t *st, char *class_name, gen_pos_t class_pos, char *track,
                      gen_pos_t track_pos)
{
    st->event_id = s->event_count;
    gen_event_t *ev = GEN_PUSH(s->events, s->event_count, s->event_cap);
    ev->struct_id = s->struct_count;
    ev->class_name = class_name;
    ev->class_pos = class_pos;
    ev->class_id = st->event_id;
    ev->track = track;
    ev->track_pos = track_pos;
    ev->track_leaf = EVREC_TRACKS_NONE;
}

static void parse_struct(ctx_t *c, const yaml_node_t *n, int event)
{
    const char *what = event ? "event" : "struct";
    map_key_t keys[] = {{"name", 0, 0}, {"description", 0, 0}, {"fields", 0, 0}, {"class", 0, 0}, {"track", 0, 0}};
    if (!read_map(c, n, what, keys, event ? 5 : 3)) {
        return;
    }
    const yaml_node_t *name_node = need(c, n, &keys[0], what);
    const yaml_node_t *fields = event ? keys[2].value : need(c, n, &keys[2], what);
    int valid = 0;
    const char *name = name_node ? name_of(c, name_node, event ? "event name" : "struct name", &valid) : NULL;
    gen_struct_t st;
    memset(&st, 0, sizeof st);
    st.event = event;
    st.name = gen_xstrdup(name ? name : "?");
    st.pos = pos_of(c, name_node ? name_node : n);
    st.description = text_of(c, keys[1].value, "description");
    if (event) {
        add_field(&st, "time", GEN_T_U32, 0, st.pos);
        add_field(&st, "id", GEN_T_U16, 0, st.pos);
    }
    int layout_ok = fields && need_list(c, fields, "fields") ? parse_fields(c, &st, fields, what) : 1;
    layout_checked(c, &st, layout_ok, what);
    gen_pos_t class_pos = st.pos, track_pos = st.pos;
    char *class_name = event ? optional_text(c, keys[3].value, "class", &class_pos) : NULL;
    char *track = event ? optional_text(c, keys[4].value, "track", &track_pos) : NULL;
    if (!name || name_taken(c, name_node, name)) {
        free(track);
        struct_free(&st);
        free(class_name);
        return;
    }
    if (event) {
        add_event(c->s, &st, class_name, class_pos, track, track_pos);
    }
    *GEN_PUSH(c->s->structs, c->s->struct_count, c->s->struct_cap) = st;
}

/* ---- files ---- */

static void load_file(gen_schema_t *s, load_stack_t *stack, const char *path, const char *as_written,
                      gen_pos_t from, int is_main);

static char *join_path(const char *including, const char *inc)
{
    if (inc[0] == '/') {
        return gen_xstrdup(inc);
    }
    const char *slash = strrchr(including, '/');
    if (!slash) {
        return gen_xstrdup(inc);
    }
    size_t dl = (size_t)(slash - including) + 1;
    char *p = gen_xmalloc(dl + strlen(inc) + 1);
    memcpy(p, including, dl);
    strcpy(p + dl, inc);
    return p;
}

/* The file an `include:` names: next to the including file when it is there (or the path is
 * absolute), else the first of the include directories (evrec-gen -I, then the catalogue
 * directory of the installation, gen_catalogue_dirs()) that has it. Not found anywhere: the path
 * next to the including file, whose opening then reports the error. */
static char *resolve_include(const gen_schema_t *s, const char *including, const char *inc)
{
    char *near = join_path(including, inc);
    if (inc[0] == '/' || access(near, F_OK) == 0) {
        return near;
    }
    const char *dirs[GEN_MAX_INCLUDE_DIRS + 4];
    size_t n = 0;
    for (size_t i = 0; i < s->include_dir_count && n < GEN_MAX_INCLUDE_DIRS; i++) {
        dirs[n++] = s->include_dirs[i];
    }
    n += gen_catalogue_dirs(dirs + n, 4);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(dirs[i]) + strlen(inc) + 2;
        char *cand = gen_xmalloc(len);
        snprintf(cand, len, "%s/%s", dirs[i], inc);
        if (access(cand, F_OK) == 0) {
            free(near);
            return cand;
        }
        free(cand);
    }
    return near;
}

static void parse_list(ctx_t *c, const yaml_node_t *n, const char *what,
                       void (*each)(ctx_t *, const yaml_node_t *, int), int arg)
{
    if (!n || !need_list(c, n, what)) {
        return;
    }
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        yaml_node_t *item = node_at(c, *it);
        if (item) {
            each(c, item, arg);
        }
    }
}

static void each_enum(ctx_t *c, const yaml_node_t *n, int arg)
{
    (void)arg;
    parse_enum(c, n);
}

static void each_struct(ctx_t *c, const yaml_node_t *n, int event)
{
    parse_struct(c, n, event);
}

static int version_ok(const char *v)
{
    int parts = 0;
    const char *p = v;
    for (;;) {
        if (!(*p >= '0' && *p <= '9')) {
            return 0;
        }
        while (*p >= '0' && *p <= '9') {
            p++;
        }
        parts++;
        if (*p == '\0') {
            return parts <= 3;
        }
        if (*p != '.') {
            return 0;
        }
        p++;
    }
}

static void parse_root(ctx_t *c, load_stack_t *stack, const yaml_node_t *root)
{
    gen_schema_t *s = c->s;
    map_key_t keys[] = {{"schema", 0, 0},  {"version", 0, 0}, {"description", 0, 0}, {"time_freq", 0, 0},
                        {"include", 0, 0}, {"enums", 0, 0},   {"structs", 0, 0},     {"events", 0, 0},
                        {"spans", 0, 0},   {"syst", 0, 0}};
    if (!read_map(c, root, "the schema", keys, 10)) {
        return;
    }
    /* Includes first: their items come before this file's (ids in load order). */
    if (keys[4].value && need_list(c, keys[4].value, "include")) {
        const yaml_node_t *l = keys[4].value;
        for (yaml_node_item_t *it = l->data.sequence.items.start; it < l->data.sequence.items.top; it++) {
            yaml_node_t *in = node_at(c, *it);
            const char *inc = in ? scalar(c, in, "include") : NULL;
            if (!inc) {
                continue;
            }
            if (inc[0] == '\0') {
                gen_error(s, pos_of(c, in), "empty include path");
                continue;
            }
            char *path = resolve_include(s, s->files[c->file].path, inc);
            load_file(s, stack, path, inc, pos_of(c, in), 0);
            free(path);
        }
    }
    const yaml_node_t *name_node = need(c, root, &keys[0], "the schema");
    const yaml_node_t *ver_node = need(c, root, &keys[1], "the schema");
    int valid = 0;
    const char *name = name_node ? name_of(c, name_node, "schema name", &valid) : NULL;
    const char *ver = ver_node ? scalar(c, ver_node, "version") : NULL;
    if (ver && !version_ok(ver)) {
        gen_error(s, pos_of(c, ver_node), "version '%s' is not of the form 1, 1.2 or 1.2.3", ver);
        ver = NULL;
    }
    if (c->is_main) {
        s->name = name && valid ? gen_xstrdup(name) : NULL;
        if (name_node) {
            s->name_pos = pos_of(c, name_node);
        }
        s->version = ver ? gen_xstrdup(ver) : NULL;
        s->description = text_of(c, keys[2].value, "description");
    }
    if (keys[3].value) {
        uint64_t f = 0;
        if (!c->is_main) {
            gen_error(s, pos_of(c, keys[3].key),
                      "time_freq belongs to the top-level schema, not to an included one");
        } else if (parse_uint(c, keys[3].value, "time_freq", &f) == 0) {
            s->time_freq = f;
        }
    }
    parse_list(c, keys[5].value, "enums", each_enum, 0);
    parse_list(c, keys[6].value, "structs", each_struct, 0);
    parse_list(c, keys[7].value, "events", each_struct, 1);
    if (keys[8].value) {
        gen_tracks_parse_spans(c, keys[8].value);
    }
    if (keys[9].value) {
        if (!c->is_main) {
            gen_error(s, pos_of(c, keys[9].key), "syst belongs to the top-level schema, not to an included one");
        } else {
            gen_syst_parse(c, keys[9].value);
        }
    }
}

static void syntax_error(gen_schema_t *s, unsigned file, const yaml_parser_t *p)
{
    gen_pos_t pos = {file, (unsigned)p->problem_mark.line + 1, (unsigned)p->problem_mark.column + 1};
    if (p->error == YAML_READER_ERROR) {
        /* The reader reports a byte offset, not a mark. */
        gen_pos_t first = {file, 1, 1};
        gen_error(s, first, "YAML: %s at byte offset %lu", p->problem ? p->problem : "read error",
                  (unsigned long)p->problem_offset);
        return;
    }
    if (p->error == YAML_MEMORY_ERROR) {
        gen_pos_t first = {file, 1, 1};
        gen_error(s, first, "YAML: out of memory");
        return;
    }
    if (p->context) {
        gen_error(s, pos, "YAML: %s (%s started at line %u)", p->problem ? p->problem : "syntax error", p->context,
                  (unsigned)p->context_mark.line + 1);
    } else {
        gen_error(s, pos, "YAML: %s", p->problem ? p->problem : "syntax error");
    }
}

/* A schema is one YAML document: a second one is a mistake, not ignored. */
static void load_no_second_document(gen_schema_t *s, unsigned index, yaml_parser_t *parser)
{
    yaml_document_t more;
    memset(&more, 0, sizeof more);
    if (!yaml_parser_load(parser, &more)) {
        syntax_error(s, index, parser);
        return;
    }
    yaml_node_t *r2 = yaml_document_get_root_node(&more);
    if (r2) {
        gen_pos_t p2 = {index, (unsigned)more.start_mark.line + 1, (unsigned)more.start_mark.column + 1};
        gen_error(s, p2, "a second YAML document; a schema file holds one");
    }
    yaml_document_delete(&more);
}

/* Parse one file's text (read whole, so that the nesting is checked before libyaml's loader, which
 * is quadratic in it, sees the file) and the schema it holds. */
static void load_text(gen_schema_t *s, load_stack_t *stack, unsigned index, const gen_buf_t *text, int is_main)
{
    unsigned line, col;
    if (gen_yaml_too_deep(text->data, text->len, &line, &col)) {
        gen_pos_t at = {index, line, col};
        gen_error(s, at, "collections nested more than %u levels deep (the limit of a schema file)",
                  GEN_MAX_DEPTH);
        s->files[index].failed = 1;
        s->incomplete = 1;
        return;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    memset(&doc, 0, sizeof doc);
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text->data, text->len);
    if (!yaml_parser_load(&parser, &doc)) {
        syntax_error(s, index, &parser);
        s->files[index].failed = 1;
        s->incomplete = 1;
    } else {
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        ctx_t c = {s, index, &doc, is_main};
        if (!root) {
            gen_pos_t first = {index, 1, 1};
            gen_error(s, first, "empty schema (expected a mapping with schema, version, ...)");
        } else {
            parse_root(&c, stack, root);
            load_no_second_document(s, index, &parser);
        }
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
}

static void load_file(gen_schema_t *s, load_stack_t *stack, const char *path, const char *as_written,
                      gen_pos_t from, int is_main)
{
    char *real = realpath(path, NULL);
    if (!real) {
        int err = errno;
        if (is_main) {
            fprintf(stderr, "evrec-gen: cannot open schema '%s': %s\n", path, strerror(err));
            s->incomplete = 1;
            return;
        }
        gen_error(s, from, "cannot open included schema '%s': %s", as_written, strerror(err));
        s->incomplete = 1;
        return;
    }
    for (size_t i = 0; i < s->file_count; i++) {
        if (s->files[i].real && strcmp(s->files[i].real, real) == 0) {
            if (s->files[i].loading) {
                gen_buf_t chain = {0};
                size_t k = 0;
                while (k < stack->count && stack->items[k] != i) {
                    k++;
                }
                for (; k < stack->count; k++) {
                    gen_buf_printf(&chain, "%s -> ", s->files[stack->items[k]].path);
                }
                gen_buf_puts(&chain, s->files[i].path);
                gen_error(s, from, "include cycle: %s", chain.data);
                gen_buf_free(&chain);
                s->incomplete = 1;
            }
            free(real);
            return; /* already loaded (or loading): items are not repeated */
        }
    }
    unsigned index = (unsigned)s->file_count;
    gen_file_t *f = GEN_PUSH(s->files, s->file_count, s->file_cap);
    f->path = gen_xstrdup(path);
    f->real = real;
    f->loading = 1;
    f->failed = 0;
    FILE *in = fopen(path, "rb");
    if (!in) {
        int err = errno;
        if (is_main) {
            fprintf(stderr, "evrec-gen: cannot open schema '%s': %s\n", path, strerror(err));
        } else {
            gen_error(s, from, "cannot open included schema '%s': %s", as_written, strerror(err));
        }
        s->files[index].failed = 1;
        s->files[index].loading = 0;
        s->incomplete = 1;
        return;
    }
    gen_buf_t text = {0};
    int read_failed = gen_read_all(in, &text) != 0;
    int err = errno;
    fclose(in);
    if (read_failed) {
        gen_pos_t first = {index, 1, 1};
        gen_error(s, first, "cannot read schema '%s': %s", as_written, strerror(err));
        s->files[index].failed = 1;
        s->incomplete = 1;
    } else {
        *GEN_PUSH(stack->items, stack->count, stack->cap) = index;
        load_text(s, stack, index, &text, is_main);
        stack->count--;
    }
    gen_buf_free(&text);
    s->files[index].loading = 0;
}

/* ---- after loading: classes, limits, generated identifiers ---- */

static void resolve_classes(gen_schema_t *s)
{
    for (size_t i = 0; i < s->event_count; i++) {
        gen_event_t *ev = &s->events[i];
        if (!ev->class_name) {
            continue;
        }
        found_t f = lookup(s, ev->class_name);
        if (f.kind == 2 && s->structs[f.index].event) {
            ev->class_id = s->structs[f.index].event_id;
        } else if (!s->incomplete) {
            gen_error(s, ev->class_pos,
                      "unknown event '%s' for class (a class names the event type whose id "
                      "groups this one, as CCore classId)",
                      ev->class_name);
        }
    }
}

static void add_ident(gen_schema_t *s, const char *what, const char *name, gen_pos_t pos, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void add_ident(gen_schema_t *s, const char *what, const char *name, gen_pos_t pos, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (2 * (s->ident_count + 1) >= s->ident_slots) { /* grow: a hash table, not a linear search */
        size_t n = s->ident_slots ? 2 * s->ident_slots : 256;
        free(s->ident_slot);
        s->ident_slot = gen_xmalloc(n * sizeof *s->ident_slot);
        memset(s->ident_slot, 0, n * sizeof *s->ident_slot);
        s->ident_slots = n;
        for (size_t i = 0; i < s->ident_count; i++) {
            size_t k = name_hash(s->idents[i].ident) & (n - 1);
            while (s->ident_slot[k]) {
                k = (k + 1) & (n - 1);
            }
            s->ident_slot[k] = i + 1;
        }
    }
    char with[256];
    const char *clash = gen_ident_collision(buf, 1, with, sizeof with);
    if (clash) {
        if (s->ident_refused != name) { /* once per schema name, not for each identifier */
            gen_error(s, pos, "%s '%s' generates the C identifier '%s', which collides with %s", what, name, buf,
                      clash);
            s->ident_refused = name;
        }
        return;
    }
    size_t k = name_hash(buf) & (s->ident_slots - 1);
    for (; s->ident_slot[k]; k = (k + 1) & (s->ident_slots - 1)) {
        size_t i = s->ident_slot[k] - 1;
        if (strcmp(s->idents[i].ident, buf) == 0) {
            gen_error(s, pos,
                      "duplicate name: %s '%s' generates the C identifier '%s', which %s '%s' (%s) "
                      "generates too",
                      what, name, buf, s->idents[i].what, s->idents[i].name, gen_pos_str(s, s->idents[i].pos));
            return;
        }
    }
    s->ident_slot[k] = s->ident_count + 1;
    gen_ident_t *id = GEN_PUSH(s->idents, s->ident_count, s->ident_cap);
    id->ident = gen_xstrdup(buf);
    id->what = what;
    id->name = name;
    id->pos = pos;
}

/* Index of the generated identifier `id` in s->idents, or SIZE_MAX. */
static size_t ident_find(const gen_schema_t *s, const char *id)
{
    if (!s->ident_slots) {
        return SIZE_MAX;
    }
    size_t k = name_hash(id) & (s->ident_slots - 1);
    for (; s->ident_slot[k]; k = (k + 1) & (s->ident_slots - 1)) {
        if (strcmp(s->idents[s->ident_slot[k] - 1].ident, id) == 0) {
            return s->ident_slot[k] - 1;
        }
    }
    return SIZE_MAX;
}

/* A field name is written bare (a member, a parameter next to the generated types and macros):
 * it must not be one of the generated identifiers. */
static void check_field_idents(gen_schema_t *s)
{
    for (size_t i = 0; i < s->struct_count; i++) {
        const gen_struct_t *st = &s->structs[i];
        for (size_t f = 0; f < st->field_count && !st->builtin; f++) {
            size_t k = ident_find(s, st->fields[f].name);
            if (k != SIZE_MAX) {
                const gen_ident_t *id = &s->idents[k];
                gen_error(s, st->fields[f].pos,
                          "field name '%s' collides with the C identifier %s '%s' (%s) generates",
                          st->fields[f].name, id->what, id->name, gen_pos_str(s, id->pos));
            }
        }
    }
}

/* Every identifier the generated files declare, so that two schema names can never make the
 * same C identifier (the generated code always compiles). */
static void check_idents(gen_schema_t *s)
{
    const char *p = s->name;
    gen_pos_t top = s->name_pos;
    char guard[512];
    size_t g = 0;
    for (; p[g] && g < sizeof guard - 1; g++) {
        guard[g] = p[g] >= 'a' && p[g] <= 'z' ? (char)(p[g] - 'a' + 'A') : p[g];
    }
    guard[g] = '\0';
    /* A schema name whose prefix collides makes every identifier collide: said once. */
    char probe[600], with[256];
    const char *forms[3][2] = {{p, "_Item_t"}, {p, "_meta"}, {guard, "_EVENTS_H"}};
    for (size_t i = 0; i < 3; i++) {
        snprintf(probe, sizeof probe, "%s%s", forms[i][0], forms[i][1]);
        const char *clash = gen_ident_collision(probe, 1, with, sizeof with);
        if (clash) {
            gen_error(s, top,
                      "schema name '%s' starts every generated identifier: it makes '%s' "
                      "(as for a type Item), which collides with %s",
                      p, probe, clash);
            return;
        }
    }
    add_ident(s, "the include guard of schema", p, top, "%s_EVENTS_H", guard);
    static const char *const fixed[] = {"meta",           "field_info",         "EVENT_COUNT", "SCHEMA_HASH",
                                        "SCHEMA_VERSION", "runtime_init",       "enums",       "structs",
                                        "events",         "field_info_entries", "track_model", "tracks",
                                        "spans",          "counters",           "SYST_MODULE", "SYST_UNIT",
                                        "SYST_SEVERITY",  "SYST_USE_GUID",      "SYST_GUID",   "syst_severity"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        add_ident(s, "schema", p, top, "%s_%s", p, fixed[i]);
    }
    for (size_t i = 0; i < s->enum_count; i++) {
        const gen_enum_t *e = &s->enums[i];
        add_ident(s, "enum", e->name, e->pos, "%s_%s_t", p, e->name);
        add_ident(s, "enum", e->name, e->pos, "%s_%s", p, e->name); /* the enum's tag */
        add_ident(s, "enum", e->name, e->pos, "%s_values_%zu", p, i);
        for (size_t v = 0; v < e->value_count; v++) {
            add_ident(s, "value", e->values[v].name, e->values[v].pos, "%s_%s_%s", p, e->name, e->values[v].name);
        }
        if (e->has_runtime) {
            add_ident(s, "enum", e->name, e->pos, "%s_%s_runtime", p, e->name);
            add_ident(s, "enum", e->name, e->pos, "%s_%s_runtime_names", p, e->name);
            add_ident(s, "enum", e->name, e->pos, "%s_%s_alloc", p, e->name);
        }
    }
    for (size_t i = 0; i < s->struct_count; i++) {
        const gen_struct_t *st = &s->structs[i];
        const char *what = st->event ? "event" : "struct";
        add_ident(s, what, st->name, st->pos, "%s_%s_t", p, st->name);
        add_ident(s, what, st->name, st->pos, "%s_%s", p, st->name); /* the struct's tag */
        add_ident(s, what, st->name, st->pos, "%s_fields_%zu", p, i);
        if (st->event) {
            add_ident(s, what, st->name, st->pos, "%s_ID_%s", p, st->name);
            add_ident(s, what, st->name, st->pos, "%s_record_%s", p, st->name);
        }
    }
    check_field_idents(s);
}

int gen_schema_load(gen_schema_t *s, const char *path)
{
    /* Built-in items: EventControlType (enum 0), EventControl (struct 0, event 0). */
    gen_pos_t bi = {GEN_BUILTIN, 0, 0};
    gen_enum_t *ce = GEN_PUSH(s->enums, s->enum_count, s->enum_cap);
    memset(ce, 0, sizeof *ce);
    ce->name = gen_xstrdup("EventControlType");
    ce->width = 1;
    ce->builtin = 1;
    ce->pos = bi;
    ce->description = gen_xstrdup("Type of an EventControl record (built in).");
    static const uint8_t markers[4] = {EVREC_MARKER_PUSH, EVREC_MARKER_TICK, EVREC_MARKER_STOP, EVREC_MARKER_NONE};
    static const char *const names[4] = {"Start", "Tick", "Stop", "End"};
    for (uint32_t v = 0; v < 4; v++) {
        gen_value_t *val = GEN_PUSH(ce->values, ce->value_count, ce->value_cap);
        memset(val, 0, sizeof *val);
        val->name = gen_xstrdup(names[v]);
        val->value = v;
        val->marker = markers[v];
        val->pos = bi;
    }
    gen_struct_t *cs = GEN_PUSH(s->structs, s->struct_count, s->struct_cap);
    memset(cs, 0, sizeof *cs);
    cs->name = gen_xstrdup("EventControl");
    cs->event = 1;
    cs->builtin = 1;
    cs->pos = bi;
    cs->description = gen_xstrdup("Start, Tick, Stop and End of a recording (built in, event 0).");
    add_field(cs, "time", GEN_T_U32, 0, bi);
    add_field(cs, "id", GEN_T_U16, 0, bi);
    add_field(cs, "type", GEN_T_ENUM, 0, bi);
    layout(s, cs);
    gen_event_t *ev = GEN_PUSH(s->events, s->event_count, s->event_cap);
    memset(ev, 0, sizeof *ev);
    ev->track_leaf = EVREC_TRACKS_NONE;

    load_stack_t stack = {0};
    gen_pos_t none = {GEN_BUILTIN, 0, 0};
    load_file(s, &stack, path, path, none, 1);
    free(stack.items);
    if (s->file_count == 0) {
        return -1; /* the schema itself could not be opened: already said */
    }
    resolve_classes(s);
    if (!s->incomplete) {
        gen_tracks_resolve(s);
        gen_syst_resolve(s);
    }
    if (s->event_count > EVREC_ID_NONE || s->struct_count > 0xFFFF || s->enum_count > 0xFFFF) {
        gen_pos_t top = {0, 1, 1};
        gen_error(s, top, "more than 65535 events, structs or enums");
    }
    if (s->name) {
        check_idents(s);
    }
    if (!s->files[0].failed && !s->name && s->diags.count == 0) {
        gen_pos_t top = {0, 1, 1};
        gen_error(s, top, "the schema has no usable name");
    }
    return s->diags.count == 0 && !s->incomplete && s->name ? 0 : -1;
}

void gen_schema_free(gen_schema_t *s)
{
    gen_syst_free(&s->syst);
    free(s->name_slot);
    s->name_slot = NULL;
    free(s->ident_slot);
    s->ident_slot = NULL;
    s->ident_slots = 0;
    s->name_slots = s->name_enums = s->name_structs = s->name_used = 0;
    for (size_t i = 0; i < s->enum_count; i++) {
        gen_enum_t *e = &s->enums[i];
        for (size_t v = 0; v < e->value_count; v++) {
            free(e->values[v].name);
            free(e->values[v].description);
        }
        free(e->values);
        free(e->name);
        free(e->description);
    }
    free(s->enums);
    for (size_t i = 0; i < s->struct_count; i++) {
        gen_struct_t *st = &s->structs[i];
        for (size_t f = 0; f < st->field_count; f++) {
            free(st->fields[f].name);
            free(st->fields[f].description);
            free(st->fields[f].unit);
            free(st->fields[f].series);
        }
        free(st->fields);
        free(st->name);
        free(st->description);
    }
    free(s->structs);
    for (size_t i = 0; i < s->event_count; i++) {
        free(s->events[i].class_name);
        free(s->events[i].track);
    }
    gen_tracks_free(s);
    free(s->events);
    for (size_t i = 0; i < s->file_count; i++) {
        free(s->files[i].path);
        free(s->files[i].real);
    }
    free(s->files);
    for (size_t i = 0; i < s->ident_count; i++) {
        free(s->idents[i].ident);
    }
    free(s->idents);
    for (size_t i = 0; i < s->diags.count; i++) {
        free(s->diags.items[i].msg);
    }
    free(s->diags.items);
    free(s->name);
    free(s->version);
    free(s->description);
    memset(s, 0, sizeof *s);
}

/* ---- the helpers above, for schema_tracks.c (load_internal.h) ---- */

gen_pos_t gen_ld_pos(const gen_ctx_t *c, const yaml_node_t *n)
{
    return pos_of(c, n);
}
yaml_node_t *gen_ld_node(const gen_ctx_t *c, int index)
{
    return node_at(c, index);
}
const char *gen_ld_scalar(gen_ctx_t *c, const yaml_node_t *n, const char *what)
{
    return scalar(c, n, what);
}
int gen_ld_map(gen_ctx_t *c, const yaml_node_t *n, const char *what, gen_key_t *keys, size_t nkeys)
{
    return read_map(c, n, what, keys, nkeys);
}
yaml_node_t *gen_ld_need(gen_ctx_t *c, const yaml_node_t *map, const gen_key_t *k, const char *what)
{
    return need(c, map, k, what);
}
int gen_ld_list(gen_ctx_t *c, const yaml_node_t *n, const char *what)
{
    return need_list(c, n, what);
}
const char *gen_ld_name(gen_ctx_t *c, const yaml_node_t *n, const char *what, int *valid)
{
    return name_of(c, n, what, valid);
}
