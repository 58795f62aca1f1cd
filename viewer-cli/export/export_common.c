/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec export`: the buffered output, the JSON and CSV string encoders and the per-event field
 * layout shared by the writers. */
#include <stdlib.h>

#include "export.h"

void export_out_flush(export_out_t *o)
{
    if (o->len) {
        cli_output_write(o->file, o->p, o->len);
        o->len = 0;
    }
}

char *export_out_take(export_out_t *o)
{
    char *p = o->p;
    if (p && o->len < o->cap) {
        char *q = realloc(p, o->len ? o->len : 1);
        p = q ? q : p;
    }
    o->p = NULL;
    o->len = o->cap = 0;
    return p;
}

void export_out_grow(export_out_t *o, size_t n)
{
    if (o->file) {
        export_out_flush(o);
    }
    if (o->p && o->cap - o->len >= n) {
        return;
    }
    size_t c = o->cap ? o->cap : (o->file ? EXPORT_OUT_BLOCK : 4096u);
    while (c - o->len < n) {
        c *= 2;
    }
    char *p = realloc(o->p, c);
    if (!p) {
        cli_error("out of memory");
        exit(CLI_BAD_INPUT);
    }
    o->p = p;
    o->cap = c;
}

void export_u64(export_out_t *o, uint64_t v)
{
    char *d = export_out_room(o, 20);
    o->len += cli_u64_dec(d, v);
}

void export_seconds(export_out_t *o, uint64_t ns)
{
    export_u64(o, ns / 1000000000u);
    char *d = export_out_room(o, 10);
    uint32_t frac = (uint32_t)(ns % 1000000000u);
    d[0] = '.';
    for (int i = 9; i >= 1; i--) {
        d[i] = (char)('0' + frac % 10u);
        frac /= 10u;
    }
    o->len += 10;
}

/* 1 for bytes the JSON encoder must look at: controls, quote, backslash, DEL, non-ASCII. */
static inline int json_special(unsigned char c)
{
    return c < 0x20u || c == '"' || c == '\\' || c >= 0x7Fu;
}

void export_json_string(export_out_t *o, const char *s, size_t n, export_text_stats_t *st)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;
    /* Worst case 6 bytes per input byte, plus the quotes. */
    char *d = export_out_room(o, 6 * n + 2);
    char *d0 = d;
    *d++ = '"';
    for (size_t i = 0; i < n;) {
        unsigned char c = u[i];
        if (!json_special(c)) {
            *d++ = (char)c;
            i++;
        } else if (c == '"' || c == '\\') {
            *d++ = '\\';
            *d++ = (char)c;
            i++;
        } else if (c < 0x80u) { /* a control character or DEL */
            memcpy(d, "\\u00", 4);
            d[4] = hex[c >> 4];
            d[5] = hex[c & 15u];
            d += 6;
            i++;
        } else {
            size_t len = cli_utf8_len(u + i, n - i);
            if (len) {
                memcpy(d, u + i, len);
                d += len;
                i += len;
            } else {
                memcpy(d, "\\ufffd", 6);
                d += 6;
                i++;
                if (st) {
                    st->invalid_utf8++;
                }
            }
        }
    }
    *d++ = '"';
    o->len += (size_t)(d - d0);
}

void export_csv_field(export_out_t *o, const char *s, size_t n, export_text_stats_t *st)
{
    const unsigned char *u = (const unsigned char *)s;
    int quote = 0, plain = 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = u[i];
        if (c == ',' || c == '"' || c == '\r' || c == '\n') {
            quote = 1;
        }
        if (c >= 0x80u) {
            plain = 0;
        }
    }
    if (!quote && plain) {
        export_put(o, s, n);
        return;
    }
    /* Worst case 3 bytes per input byte (an invalid byte becomes U+FFFD), plus the quotes. */
    char *d = export_out_room(o, 3 * n + 2);
    char *d0 = d;
    if (quote) {
        *d++ = '"';
    }
    for (size_t i = 0; i < n;) {
        unsigned char c = u[i];
        if (c < 0x80u) {
            if (c == '"') {
                *d++ = '"';
            }
            *d++ = (char)c;
            i++;
            continue;
        }
        size_t len = cli_utf8_len(u + i, n - i);
        if (len) {
            memcpy(d, u + i, len);
            d += len;
            i += len;
        } else {
            memcpy(d, "\xEF\xBF\xBD", 3);
            d += 3;
            i++;
            if (st) {
                st->invalid_utf8++;
            }
        }
    }
    if (quote) {
        *d++ = '"';
    }
    o->len += (size_t)(d - d0);
}

/* ---- a hash set of names ---- */

static uint32_t hash_str(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h = (h ^ (unsigned char)*s) * 16777619u;
    }
    return h;
}

static int names_rehash(export_names_t *c, uint32_t nslots)
{
    uint32_t *s = calloc(nslots, sizeof *s);
    if (!s) {
        return -1;
    }
    for (uint32_t i = 0; i < c->count; i++) {
        uint32_t h = hash_str(c->names[i]) & (nslots - 1);
        while (s[h]) {
            h = (h + 1) & (nslots - 1);
        }
        s[h] = i + 1;
    }
    free(c->slots);
    c->slots = s;
    c->nslots = nslots;
    return 0;
}

uint32_t export_names_get(export_names_t *c, char *name, int *oom)
{
    if (c->count * 2 + 2 > c->nslots && names_rehash(c, c->nslots ? c->nslots * 2 : 64) != 0) {
        *oom = 1;
        free(name);
        return 0;
    }
    uint32_t h = hash_str(name) & (c->nslots - 1);
    while (c->slots[h]) {
        if (strcmp(c->names[c->slots[h] - 1], name) == 0) {
            free(name);
            return c->slots[h] - 1;
        }
        h = (h + 1) & (c->nslots - 1);
    }
    if (c->count == c->cap) {
        uint32_t cap = c->cap ? c->cap * 2 : 32;
        char **p = realloc(c->names, cap * sizeof *p);
        if (!p) {
            *oom = 1;
            free(name);
            return 0;
        }
        c->names = p;
        c->cap = cap;
    }
    c->names[c->count] = name;
    c->slots[h] = c->count + 1;
    return c->count++;
}

void export_names_free(export_names_t *c)
{
    for (uint32_t i = 0; i < c->count; i++) {
        free(c->names[i]);
    }
    free(c->names);
    free(c->slots);
}

/* ---- layout ---- */

typedef struct walk {
    export_leaf_t *leaves;
    uint32_t n, cap;
    int oom;
} walk_t;

static uint8_t width_of(uint8_t kind)
{
    return kind == EVREC_KIND_UINT8 || kind == EVREC_KIND_ENUM_UINT8     ? 1
           : kind == EVREC_KIND_UINT16 || kind == EVREC_KIND_ENUM_UINT16 ? 2
                                                                         : 4;
}

/* Appends the leaves of struct `sid` at packed offset `base`; returns the offset after it. */
static uint32_t walk_struct(walk_t *w, const evrec_meta_t *m, uint32_t sid, const char *prefix, uint32_t base,
                            unsigned depth)
{
    if (sid >= m->struct_count || depth > EVREC_MAX_NESTING) {
        return base; /* the reader checked the tables; this only guards the recursion */
    }
    const evrec_struct_desc_t *s = &m->structs[sid];
    size_t plen = strlen(prefix);
    for (uint32_t f = 0; f < s->field_count && !w->oom; f++) {
        const evrec_field_desc_t *fd = &s->fields[f];
        size_t nlen = strlen(fd->name);
        char *path = malloc(plen + nlen + 2);
        if (!path) {
            w->oom = 1;
            return base;
        }
        if (plen) {
            memcpy(path, prefix, plen);
            path[plen] = '.';
            memcpy(path + plen + 1, fd->name, nlen + 1);
        } else {
            memcpy(path, fd->name, nlen + 1);
        }
        if (fd->kind == EVREC_KIND_STRUCT) {
            base = walk_struct(w, m, fd->ref, path, base, depth + 1);
            free(path);
            continue;
        }
        if (w->n == w->cap) {
            uint32_t c = w->cap ? w->cap * 2 : 16;
            export_leaf_t *p = realloc(w->leaves, c * sizeof *p);
            if (!p) {
                free(path);
                w->oom = 1;
                return base;
            }
            w->leaves = p;
            w->cap = c;
        }
        export_leaf_t *l = &w->leaves[w->n++];
        memset(l, 0, sizeof *l);
        l->path = path;
        l->kind = fd->kind;
        l->width = width_of(fd->kind);
        l->enum_id = export_kind_is_enum(fd->kind) ? fd->ref : 0;
        l->offset = base;
        base += l->width;
    }
    return base;
}

int export_leaf_cache(export_leaf_t *l, uint32_t value, const char *text, size_t len)
{
    if (!l->memo && !(l->memo = calloc(1, sizeof *l->memo))) {
        return -1;
    }
    export_leaf_memo_t *c = l->memo;
    if (len > c->cap) {
        size_t cap = len < 64u ? 64u : len;
        char *p = realloc(c->text, cap);
        if (!p) {
            free(c->text);
            free(c);
            l->memo = NULL;
            return -1;
        }
        c->text = p;
        c->cap = cap;
    }
    memcpy(c->text, text, len);
    c->len = len;
    c->value = value;
    return 0;
}

int export_leaves_of_struct(const evrec_meta_t *m, uint32_t sid, export_leaf_t **leaves, uint32_t *count)
{
    walk_t w = {0};
    walk_struct(&w, m, sid, "", 0, 0);
    if (w.leaves && w.n < w.cap) { /* trim the doubling */
        export_leaf_t *p = realloc(w.leaves, (w.n ? w.n : 1) * sizeof *p);
        w.leaves = p ? p : w.leaves;
    }
    if (w.oom) {
        export_leaves_free(w.leaves, w.n);
        *leaves = NULL;
        *count = 0;
        return -1;
    }
    *leaves = w.leaves;
    *count = w.n;
    return 0;
}

void export_leaves_free(export_leaf_t *leaves, uint32_t count)
{
    for (uint32_t i = 0; leaves && i < count; i++) {
        free(leaves[i].path);
        if (leaves[i].memo) {
            free(leaves[i].memo->text);
            free(leaves[i].memo);
        }
    }
    free(leaves);
}

int export_layout_build(export_layout_t *l, const evrec_meta_t *m)
{
    memset(l, 0, sizeof *l);
    l->meta = m;
    l->event_count = m->event_count;
    size_t n = m->event_count ? m->event_count : 1;
    l->leaf_count = calloc(n, sizeof *l->leaf_count);
    l->leaves = calloc(n, sizeof *l->leaves);
    l->owner = calloc(n, sizeof *l->owner);
    l->built = calloc(n, sizeof *l->built);
    uint32_t *first = calloc(m->struct_count ? m->struct_count : 1, sizeof *first); /* 1 + event id */
    if (!l->leaf_count || !l->leaves || !l->owner || !l->built || !first) {
        free(first);
        cli_error("out of memory");
        export_layout_free(l);
        return -1;
    }
    for (uint32_t e = 0; e < m->event_count; e++) {
        uint16_t sid = m->events[e].struct_id;
        if (sid < m->struct_count && first[sid]) {
            l->owner[e] = first[sid] - 1;
            continue;
        }
        if (sid < m->struct_count) {
            first[sid] = e + 1;
        }
        l->owner[e] = e;
    }
    free(first);
    return 0;
}

int export_layout_event(export_layout_t *l, uint32_t id)
{
    if (id >= l->event_count) {
        cli_error("record of event id %u: no such event type", (unsigned)id);
        return -1;
    }
    uint32_t o = l->owner[id];
    int built_now = 0;
    if (!l->built[o]) {
        if (export_leaves_of_struct(l->meta, l->meta->events[o].struct_id, &l->leaves[o], &l->leaf_count[o]) !=
            0) {
            cli_error("out of memory");
            return -1;
        }
        l->built[o] = 1;
        built_now = 1;
    }
    if (!l->leaves[id]) {
        l->leaves[id] = l->leaves[o];
        l->leaf_count[id] = l->leaf_count[o];
    }
    return built_now;
}

void export_layout_free(export_layout_t *l)
{
    for (uint32_t e = 0; l->leaves && e < l->event_count; e++) {
        if (l->owner && l->owner[e] != e) {
            continue; /* shared with the owner */
        }
        export_leaves_free(l->leaves[e], l->leaf_count[e]);
    }
    free(l->leaves);
    free(l->leaf_count);
    free(l->owner);
    free(l->built);
    memset(l, 0, sizeof *l);
}
