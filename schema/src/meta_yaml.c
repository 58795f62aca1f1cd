/* SPDX-License-Identifier: Apache-2.0 */
/* Meta-info tables -> a YAML schema that evrec-gen accepts and that gives the same tables
 * (schema/SCHEMA.md; evrec_schema_to_yaml() in evrec/evrec_schema.h). The reverse of
 * schema_load.c + meta_build.c, for `evrec schema FILE`. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_hash.h"
#include "evrec/evrec_schema.h"
#include "gen_internal.h"

/* Work state. */
typedef struct ym {
    const evrec_meta_t *m;
    const evrec_yaml_options_t *opt;
    evrec_yaml_t *out;
    int skip_enum_id, skip_struct_id; /* EventControlType, EventControl (built in); -1 if absent */
    int32_t *event_of_struct;         /* per struct: the first event using it, -1 if none */
    const evrec_field_info_t **info;  /* per leaf field of every struct */
    uint8_t *counter; /* per field of every struct: 1 + its series (evrec_counter_desc_t) when a counter, else 0 */
    uint32_t *info_base;         /* per struct */
    uint32_t *segment_of_struct; /* per struct: its file (0-based segment) */
    uint32_t segments;
    uint16_t *track_leaf; /* per event: its track's leaf, EVREC_TRACKS_NONE if none */
    size_t *note_slot;    /* open addressing: 1 + index into out->notes, 0 = empty */
    size_t note_slots;    /* a power of two, more than twice note_count */
    size_t note_cap;
} ym_t;

static uint64_t text_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) {
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    }
    return h;
}

static void note_add(ym_t *y, int changes_hash, const char *fmt, va_list ap)
{
    char tmp[1024];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    evrec_yaml_t *o = y->out;
    if (2 * (o->note_count + 1) >= y->note_slots) { /* rehash: the notes are said once, in O(1) */
        size_t n = y->note_slots ? 2 * y->note_slots : 64;
        free(y->note_slot);
        y->note_slot = gen_xmalloc(n * sizeof *y->note_slot);
        memset(y->note_slot, 0, n * sizeof *y->note_slot);
        y->note_slots = n;
        for (size_t i = 0; i < o->note_count; i++) {
            size_t k = (size_t)text_hash(o->notes[i]) & (n - 1);
            while (y->note_slot[k]) {
                k = (k + 1) & (n - 1);
            }
            y->note_slot[k] = i + 1;
        }
    }
    size_t k = (size_t)text_hash(tmp) & (y->note_slots - 1);
    for (; y->note_slot[k]; k = (k + 1) & (y->note_slots - 1)) {
        if (strcmp(o->notes[y->note_slot[k] - 1], tmp) == 0) {
            return; /* said once */
        }
    }
    if (o->note_count == y->note_cap) {
        y->note_cap = y->note_cap ? 2 * y->note_cap : 16;
        o->notes = gen_xrealloc(o->notes, y->note_cap * sizeof *o->notes);
    }
    o->notes[o->note_count++] = gen_xstrdup(tmp);
    y->note_slot[k] = o->note_count;
    o->hash_note_count += changes_hash != 0;
}

/* Something evrec-gen refuses, or makes another hash from. */
static void note(ym_t *y, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(ym_t *y, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    note_add(y, 1, fmt, ap);
    va_end(ap);
}

/* Something the schema hash does not see (display attributes, an unused range's marker). */
static void note_info(ym_t *y, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_info(ym_t *y, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    note_add(y, 0, fmt, ap);
    va_end(ap);
}

static int is_ident(const char *s)
{
    if (!s || !*s || (*s >= '0' && *s <= '9')) {
        return 0;
    }
    for (; *s; s++) {
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_')) {
            return 0;
        }
    }
    return 1;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || (n == 2 && c < 0xC2)) {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] >> 6) != 2) {
            return 0;
        }
    }
    if ((n == 3 && c == 0xE0 && s[1] < 0xA0) || (n == 3 && c == 0xED && s[1] >= 0xA0) ||
        (n == 4 && c == 0xF0 && s[1] < 0x90) || (n == 4 && (c > 0xF4 || (c == 0xF4 && s[1] >= 0x90)))) {
        return 0; /* overlong, surrogate, above U+10FFFF */
    }
    return n;
}

/* A YAML double-quoted scalar holding exactly the bytes of s (when they are UTF-8). */
static void put_quoted(ym_t *y, gen_buf_t *b, const char *s)
{
    gen_buf_puts(b, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        unsigned c = *p;
        if (c == '"' || c == '\\') {
            gen_buf_printf(b, "\\%c", c);
            p++;
        } else if (c == '\n') {
            gen_buf_puts(b, "\\n");
            p++;
        } else if (c == '\t') {
            gen_buf_puts(b, "\\t");
            p++;
        } else if (c < 0x20 || c == 0x7F) {
            gen_buf_printf(b, "\\x%02X", c);
            p++;
        } else {
            size_t n = utf8_len(p);
            if (n == 0) {
                note_info(y, "the text \"%s\" is not valid UTF-8: its byte 0x%02X is written as U+00%02X", s, c,
                          c);
                gen_buf_printf(b, "\\x%02X", c);
                p++;
            } else {
                gen_buf_put(b, (const char *)p, n);
                p += n;
            }
        }
    }
    gen_buf_puts(b, "\"");
}

/* A name: plain when it is a C identifier that no YAML reads as a boolean or null. */
static void put_name(ym_t *y, gen_buf_t *b, const char *s, const char *what)
{
    static const char *const special[] = {"null", "true", "false", "yes", "no", "on", "off", "y", "n"};
    int plain = is_ident(s);
    if (!plain && strcmp(what, "field path") == 0) {
        /* a.b.c: each component an identifier */
        char tmp[2048];
        snprintf(tmp, sizeof tmp, "%s", s);
        plain = tmp[0] != '\0';
        for (char *tok = tmp, *dot; plain && tok; tok = dot ? dot + 1 : NULL) {
            dot = strchr(tok, '.');
            if (dot) {
                *dot = '\0';
            }
            plain = is_ident(tok);
        }
    }
    if (!plain) {
        note(y, "%s \"%s\" is not a C identifier: evrec-gen refuses it", what, s);
    }
    for (size_t i = 0; plain && i < sizeof special / sizeof special[0]; i++) {
        plain = strcasecmp(s, special[i]) != 0;
    }
    if (plain) {
        gen_buf_puts(b, s);
    } else {
        put_quoted(y, b, s);
    }
}

/* ---- tracks, spans, counters (meta->tracks) ---- */

/* Dotted path of a leaf of an event into `out` ("?" when it has none). */
static void leaf_path(const evrec_meta_t *m, uint32_t ev, uint32_t leaf, char *out, size_t n)
{
    evrec_leaf_info_t li;
    snprintf(out, n, "?");
    if (evrec_meta_leaf(m, ev, leaf, &li) != EVREC_OK) {
        return;
    }
    size_t k = 0;
    out[0] = '\0';
    for (unsigned d = 0; d <= li.depth && k < n; d++) {
        int w = snprintf(out + k, n - k, "%s%s", d ? "." : "",
                         m->structs[li.path_struct[d]].fields[li.path_field[d]].name);
        if (w < 0) {
            break;
        }
        k += (size_t)w;
    }
}

static void put_path(ym_t *y, gen_buf_t *b, uint32_t ev, uint32_t leaf)
{
    char path[2048];
    leaf_path(y->m, ev, leaf, path, sizeof path);
    put_name(y, b, path, "field path"); /* dots: noted as not an identifier, so check them here */
}

static uint16_t track_of(const ym_t *y, uint32_t ev)
{
    return ev < y->m->event_count ? y->track_leaf[ev] : EVREC_TRACKS_NONE;
}

static int is_counter(const ym_t *y, uint32_t sid, uint32_t f)
{
    return y->counter[y->info_base[sid] + f];
}

static void event_name_text(const ym_t *y, uint32_t e, char *out, size_t n)
{
    uint32_t sid = y->m->events[e].struct_id;
    if (y->event_of_struct[sid] == (int32_t)e) {
        snprintf(out, n, "%s", y->m->structs[sid].name);
    } else {
        snprintf(out, n, "%s_%u", y->m->structs[sid].name, (unsigned)e);
    }
}

static void put_span_end(ym_t *y, gen_buf_t *b, const evrec_span_end_t *e, int with_key)
{
    char name[2048];
    event_name_text(y, e->event_id, name, sizeof name);
    if (e->match_leaf == EVREC_TRACKS_NONE && !with_key) {
        put_name(y, b, name, "event name");
        return;
    }
    gen_buf_puts(b, "{event: ");
    put_name(y, b, name, "event name");
    if (e->match_leaf != EVREC_TRACKS_NONE) {
        gen_buf_puts(b, ", field: ");
        put_path(y, b, e->event_id, e->match_leaf);
        evrec_leaf_info_t li;
        const char *vname = NULL;
        if (evrec_meta_leaf(y->m, e->event_id, e->match_leaf, &li) == EVREC_OK &&
            li.kind >= EVREC_KIND_ENUM_UINT8 && li.kind <= EVREC_KIND_ENUM_UINT32 && li.ref < y->m->enum_count) {
            const evrec_enum_desc_t *en = &y->m->enums[li.ref];
            for (uint32_t i = 0; i < en->value_count && !vname; i++) {
                vname = en->values[i].value == e->match_value ? en->values[i].name : NULL;
            }
        }
        gen_buf_puts(b, ", value: ");
        if (vname) {
            put_name(y, b, vname, "enum value name");
        } else {
            gen_buf_printf(b, "%lu", (unsigned long)e->match_value);
        }
    }
    if (with_key && e->key_leaf != EVREC_TRACKS_NONE) {
        gen_buf_puts(b, ", key: ");
        put_path(y, b, e->event_id, e->key_leaf);
    }
    gen_buf_puts(b, "}");
}

static void put_spans(ym_t *y, gen_buf_t *b)
{
    const evrec_tracks_t *v = y->m->tracks;
    if (!v || v->span_count == 0) {
        return;
    }
    gen_buf_puts(b, "\nspans:\n");
    for (uint32_t i = 0; i < v->span_count; i++) {
        const evrec_span_desc_t *sp = &v->spans[i];
        char bk[2048] = "", ek[2048] = "";
        if (sp->begin.key_leaf != EVREC_TRACKS_NONE) {
            leaf_path(y->m, sp->begin.event_id, sp->begin.key_leaf, bk, sizeof bk);
        }
        if (sp->end.key_leaf != EVREC_TRACKS_NONE) {
            leaf_path(y->m, sp->end.event_id, sp->end.key_leaf, ek, sizeof ek);
        }
        int common = bk[0] && strcmp(bk, ek) == 0;
        if ((sp->begin.key_leaf == EVREC_TRACKS_NONE) != (sp->end.key_leaf == EVREC_TRACKS_NONE)) {
            note(y, "span %s has a key on one end only: evrec-gen refuses it", sp->name);
        }
        gen_buf_puts(b, "  - name: ");
        put_name(y, b, sp->name, "span name");
        gen_buf_puts(b, "\n    begin: ");
        put_span_end(y, b, &sp->begin, !common);
        gen_buf_puts(b, "\n    end: ");
        put_span_end(y, b, &sp->end, !common);
        gen_buf_puts(b, "\n");
        if (common) {
            gen_buf_puts(b, "    key: ");
            put_name(y, b, bk, "field path");
            gen_buf_puts(b, "\n");
        }
        if (sp->track_leaf != EVREC_TRACKS_NONE) {
            gen_buf_puts(b, "    track: ");
            put_path(y, b, sp->begin.event_id, sp->track_leaf);
            gen_buf_puts(b, "\n");
        }
    }
}

static const char *width_type(uint8_t kind)
{
    return kind == EVREC_KIND_ENUM_UINT8 || kind == EVREC_KIND_UINT8     ? "uint8"
           : kind == EVREC_KIND_ENUM_UINT16 || kind == EVREC_KIND_UINT16 ? "uint16"
                                                                         : "uint32";
}

static int is_control_enum(const evrec_enum_desc_t *e)
{
    static const char *const names[4] = {"Start", "Tick", "Stop", "End"};
    static const uint8_t markers[4] = {EVREC_MARKER_PUSH, EVREC_MARKER_TICK, EVREC_MARKER_STOP, EVREC_MARKER_NONE};
    if (strcmp(e->name, "EventControlType") != 0 || e->kind != EVREC_KIND_ENUM_UINT8 || e->value_count != 4 ||
        e->runtime) {
        return 0;
    }
    for (uint32_t v = 0; v < 4; v++) {
        if (e->values[v].value != v || strcmp(e->values[v].name, names[v]) != 0 ||
            e->values[v].marker != markers[v]) {
            return 0;
        }
    }
    return 1;
}

/* ---- analysis: built-ins, events per struct, display attributes, files ---- */

/* The built-ins: which enum and struct are EventControl's (skipped), and how the tables differ
 * from what evrec-gen makes of them. */
static void find_builtins(ym_t *y)
{
    const evrec_meta_t *m = y->m;
    y->skip_enum_id = y->skip_struct_id = -1;
    for (uint32_t i = 0; i < m->enum_count; i++) {
        if (strcmp(m->enums[i].name, "EventControlType") == 0) {
            y->skip_enum_id = (int)i;
            if (!is_control_enum(&m->enums[i])) {
                note(y, "enum EventControlType differs from the built-in one (Start, Tick, Stop, End): the "
                        "built-in is used");
            }
            if (i != 0) {
                note(y,
                     "EventControlType is enum %u in the tables; evrec-gen makes it enum 0, so enum ids "
                     "differ",
                     (unsigned)i);
            }
            break;
        }
    }
    for (uint32_t i = 0; i < m->struct_count; i++) {
        if (strcmp(m->structs[i].name, "EventControl") == 0) {
            y->skip_struct_id = (int)i;
            if (i != 0) {
                note(y,
                     "EventControl is struct %u in the tables; evrec-gen makes it struct 0, so struct "
                     "ids differ",
                     (unsigned)i);
            }
            break;
        }
    }
    if (m->event_count && (int)m->events[0].struct_id != y->skip_struct_id) {
        note(y, "event 0 is not EventControl: evrec-gen makes EventControl event 0, so event ids differ");
    }
}

/* The event of each struct (-1: a reusable struct), noting structs shared or out of order. */
static void map_events(ym_t *y)
{
    const evrec_meta_t *m = y->m;
    y->event_of_struct = gen_xmalloc((m->struct_count + 1) * sizeof *y->event_of_struct);
    for (uint32_t i = 0; i < m->struct_count; i++) {
        y->event_of_struct[i] = -1;
    }
    uint32_t prev_struct = 0;
    for (uint32_t e = 0; e < m->event_count; e++) {
        uint16_t sid = m->events[e].struct_id;
        if ((int)sid == y->skip_struct_id) {
            continue;
        }
        if (y->event_of_struct[sid] >= 0) {
            note(y,
                 "events %u and %u share struct %s; evrec-gen gives every event its own struct: event %u "
                 "is written as %s_%u",
                 (unsigned)y->event_of_struct[sid], (unsigned)e, m->structs[sid].name, (unsigned)e,
                 m->structs[sid].name, (unsigned)e);
            continue;
        }
        y->event_of_struct[sid] = (int32_t)e;
        if (sid < prev_struct) {
            note(y,
                 "event %u uses struct %u, before the struct of an earlier event: evrec-gen lays events' "
                 "structs out in event order, so struct ids differ",
                 (unsigned)e, (unsigned)sid);
        }
        prev_struct = sid;
    }
}

/* The track model's counters by struct and field, and its track leaf by event. */
static void map_view(ym_t *y)
{
    const evrec_meta_t *m = y->m;
    y->track_leaf = gen_xmalloc((m->event_count + 1) * sizeof *y->track_leaf);
    for (uint32_t e = 0; e < m->event_count; e++) {
        y->track_leaf[e] = EVREC_TRACKS_NONE;
    }
    const evrec_tracks_t *v = m->tracks;
    for (uint32_t i = 0; v && i < v->counter_count; i++) {
        const evrec_counter_desc_t *c = &v->counters[i];
        if (c->struct_id < m->struct_count && c->field_index < m->structs[c->struct_id].field_count) {
            y->counter[y->info_base[c->struct_id] + c->field_index] = (uint8_t)(1u + (c->series < 255u ? c->series
                                                                                                       : 0u));
        }
    }
    for (uint32_t i = v ? v->track_count : 0; i-- > 0;) { /* the first of an event's wins */
        if (v->tracks[i].event_id < m->event_count) {
            y->track_leaf[v->tracks[i].event_id] = v->tracks[i].leaf;
        }
    }
}

/* Display attributes and counters by struct and field. */
static void map_fields(ym_t *y)
{
    const evrec_meta_t *m = y->m;
    uint64_t total = 0;
    y->info_base = gen_xmalloc((m->struct_count + 1) * sizeof *y->info_base);
    for (uint32_t s = 0; s < m->struct_count; s++) {
        y->info_base[s] = (uint32_t)total;
        total += m->structs[s].field_count;
    }
    y->info = gen_xmalloc((size_t)(total + 1) * sizeof *y->info);
    memset(y->info, 0, (size_t)(total + 1) * sizeof *y->info);
    y->counter = gen_xmalloc((size_t)(total + 1));
    memset(y->counter, 0, (size_t)(total + 1));
    map_view(y);
    const evrec_field_info_table_t *fi = m->field_info;
    for (uint32_t i = 0; fi && fi->entries && i < fi->count; i++) {
        const evrec_field_info_t *e = &fi->entries[i];
        if (e->struct_id < m->struct_count && e->field_index < m->structs[e->struct_id].field_count) {
            y->info[y->info_base[e->struct_id] + e->field_index] = e;
        }
    }
}

/* Files: a reusable struct after an event's struct starts the next file (evrec-gen lays out each
 * file as reusable structs, then events' structs). */
static void map_files(ym_t *y)
{
    const evrec_meta_t *m = y->m;
    y->segment_of_struct = gen_xmalloc((m->struct_count + 1) * sizeof *y->segment_of_struct);
    uint32_t seg = 0;
    int in_events = 0;
    for (uint32_t s = 0; s < m->struct_count; s++) {
        if ((int)s == y->skip_struct_id) {
            y->segment_of_struct[s] = 0;
            continue;
        }
        int is_event = y->event_of_struct[s] >= 0;
        if (!is_event && in_events) {
            seg++;
            in_events = 0;
        }
        in_events |= is_event;
        y->segment_of_struct[s] = seg;
    }
    y->segments = seg + 1;
}

static void analyse(ym_t *y)
{
    find_builtins(y);
    map_events(y);
    map_fields(y);
    map_files(y);
}

/* ---- invariants evrec-gen enforces but a file need not keep (each noted, in O(n log n)) ---- */

typedef struct named {
    const char *name;
    uint32_t index;
    uint8_t what; /* 0 enum, 1 struct or event; or the value of an enum value */
} named_t;

static int named_cmp(const void *a, const void *b)
{
    const named_t *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->index < y->index ? -1 : x->index > y->index;
}

static int value_cmp(const void *a, const void *b)
{
    const evrec_enum_value_t *x = a, *y = b;
    return x->value < y->value ? -1 : x->value > y->value;
}

/* Nesting levels of struct s (1 + the deepest nested struct), at most EVREC_MAX_NESTING + 2. */
static unsigned struct_depth(const evrec_meta_t *m, uint8_t *memo, uint32_t s, unsigned guard)
{
    if (memo[s] || guard > EVREC_MAX_NESTING + 1) {
        return memo[s] ? memo[s] : EVREC_MAX_NESTING + 2;
    }
    unsigned d = 1;
    for (uint32_t f = 0; f < m->structs[s].field_count; f++) {
        const evrec_field_desc_t *fd = &m->structs[s].fields[f];
        if (fd->kind == EVREC_KIND_STRUCT && fd->ref < m->struct_count) {
            unsigned c = struct_depth(m, memo, fd->ref, guard + 1) + 1;
            d = c > d ? c : d;
        }
    }
    if (d > EVREC_MAX_NESTING + 2) {
        d = EVREC_MAX_NESTING + 2;
    }
    memo[s] = (uint8_t)d;
    return d;
}

static void check_invariants(ym_t *y)
{
    const evrec_meta_t *m = y->m;
    /* Enums, structs and events share one namespace (an event is named by its struct). */
    size_t n = 0, cap = (size_t)m->enum_count + m->struct_count + 1;
    named_t *all = gen_xmalloc(cap * sizeof *all);
    for (uint32_t i = 0; i < m->enum_count; i++) {
        all[n++] = (named_t){m->enums[i].name, i, 0};
    }
    for (uint32_t i = 0; i < m->struct_count; i++) {
        all[n++] = (named_t){m->structs[i].name, i, 1};
    }
    qsort(all, n, sizeof *all, named_cmp);
    for (size_t i = 1; i < n; i++) {
        if (strcmp(all[i - 1].name, all[i].name) == 0) {
            note(y, "%s %u and %s %u are both named %s: evrec-gen refuses a duplicate name",
                 all[i - 1].what ? "struct" : "enum", (unsigned)all[i - 1].index, all[i].what ? "struct" : "enum",
                 (unsigned)all[i].index, all[i].name);
        }
    }
    /* Fields within a struct; plain fields' type id. */
    uint8_t *memo = gen_xmalloc(m->struct_count + 1u);
    memset(memo, 0, m->struct_count + 1u);
    for (uint32_t s = 0; s < m->struct_count; s++) {
        const evrec_struct_desc_t *st = &m->structs[s];
        if (st->field_count > cap) {
            cap = st->field_count;
            all = gen_xrealloc(all, cap * sizeof *all);
        }
        for (uint32_t f = 0; f < st->field_count; f++) {
            all[f] = (named_t){st->fields[f].name, f, 0};
            if (st->fields[f].kind <= EVREC_KIND_UINT32 && st->fields[f].ref != 0) {
                note(y, "field %s.%s is a plain integer with type id %u; evrec-gen writes 0, so the hash differs",
                     st->name, st->fields[f].name, (unsigned)st->fields[f].ref);
            }
        }
        qsort(all, st->field_count, sizeof *all, named_cmp);
        for (uint32_t f = 1; f < st->field_count; f++) {
            if (strcmp(all[f - 1].name, all[f].name) == 0) {
                note(y, "struct %s has two fields named %s: evrec-gen refuses a duplicate name", st->name,
                     all[f].name);
            }
        }
        if (y->event_of_struct[s] < 0 && (int)s != y->skip_struct_id &&
            struct_depth(m, memo, s, 0) > EVREC_MAX_NESTING) {
            note(y, "struct %s nests structs more than %u levels deep: evrec-gen refuses it", st->name,
                 (unsigned)EVREC_MAX_NESTING);
        }
    }
    free(memo);
    /* Values within an enum: names, values, order. */
    for (uint32_t i = 0; i < m->enum_count; i++) {
        const evrec_enum_desc_t *e = &m->enums[i];
        if (e->value_count == 0 || !e->values) {
            continue;
        }
        if (e->value_count > cap) {
            cap = e->value_count;
            all = gen_xrealloc(all, cap * sizeof *all);
        }
        int ascending = 1;
        for (uint32_t v = 0; v < e->value_count; v++) {
            all[v] = (named_t){e->values[v].name, v, 0};
            ascending &= v == 0 || e->values[v - 1].value < e->values[v].value;
        }
        qsort(all, e->value_count, sizeof *all, named_cmp);
        for (uint32_t v = 1; v < e->value_count; v++) {
            if (strcmp(all[v - 1].name, all[v].name) == 0) {
                note(y, "enum %s names two values %s: evrec-gen refuses a duplicate name", e->name, all[v].name);
            }
        }
        if (ascending) {
            continue;
        }
        evrec_enum_value_t *sorted = gen_xmalloc(e->value_count * sizeof *sorted);
        memcpy(sorted, e->values, e->value_count * sizeof *sorted);
        qsort(sorted, e->value_count, sizeof *sorted, value_cmp);
        int dup = 0;
        for (uint32_t v = 1; v < e->value_count; v++) {
            if (sorted[v - 1].value == sorted[v].value) {
                note(y, "enum %s has value %lu twice (%s and %s): evrec-gen refuses a duplicate value", e->name,
                     (unsigned long)sorted[v].value, sorted[v - 1].name, sorted[v].name);
                dup = 1;
            }
        }
        if (!dup) {
            note(y, "the values of enum %s are not in ascending order; evrec-gen sorts them, so the hash differs",
                 e->name);
        }
        free(sorted);
    }
    free(all);
}

/* ---- writing ---- */

static void put_field_type(ym_t *y, gen_buf_t *b, const evrec_struct_desc_t *st, const evrec_field_desc_t *f)
{
    const evrec_meta_t *m = y->m;
    if (f->kind <= EVREC_KIND_UINT32) {
        gen_buf_puts(b, width_type(f->kind));
    } else if (f->kind == EVREC_KIND_STRUCT && f->ref < m->struct_count) {
        if (y->event_of_struct[f->ref] >= 0 || (int)f->ref == y->skip_struct_id) {
            note(y, "field %s.%s has the type of event %s; a field can be a struct, not an event", st->name,
                 f->name, m->structs[f->ref].name);
        }
        put_name(y, b, m->structs[f->ref].name, "struct name");
    } else if (f->kind >= EVREC_KIND_ENUM_UINT8 && f->kind <= EVREC_KIND_ENUM_UINT32 && f->ref < m->enum_count) {
        const evrec_enum_desc_t *e = &m->enums[f->ref];
        if (e->kind != f->kind) {
            note(y,
                 "field %s.%s is %s but its enum %s is %s: evrec-gen stores an enum field at its enum's "
                 "width",
                 st->name, f->name, width_type(f->kind), e->name, width_type(e->kind));
        }
        put_name(y, b, e->name, "enum name");
    } else {
        note(y, "field %s.%s has kind %u and id %u, which name no type", st->name, f->name, (unsigned)f->kind,
             (unsigned)f->ref);
        gen_buf_puts(b, width_type(f->kind));
    }
}

static void put_fields(ym_t *y, gen_buf_t *b, uint32_t sid, uint32_t first)
{
    const evrec_struct_desc_t *st = &y->m->structs[sid];
    static const char *const formats[4] = {NULL, "decimal", "hex", "address"};
    if (first >= st->field_count) {
        return;
    }
    gen_buf_puts(b, "    fields:\n");
    for (uint32_t f = first; f < st->field_count; f++) {
        const evrec_field_desc_t *fd = &st->fields[f];
        gen_buf_puts(b, "      - {name: ");
        put_name(y, b, fd->name, "field name");
        gen_buf_puts(b, ", type: ");
        put_field_type(y, b, st, fd);
        const evrec_field_info_t *fi = y->info[y->info_base[sid] + f];
        if (fi) {
            if (fi->display >= 1 && fi->display <= 3) {
                if (fd->kind <= EVREC_KIND_UINT32) {
                    gen_buf_printf(b, ", format: %s", formats[fi->display]);
                } else {
                    note_info(y, "field %s.%s has format %s, which applies to plain integers only: left out",
                              st->name, fd->name, formats[fi->display]);
                }
            }
            if (fi->unit && *fi->unit) {
                gen_buf_puts(b, ", unit: ");
                put_quoted(y, b, fi->unit);
            }
            if (fi->description && *fi->description) {
                gen_buf_puts(b, ", description: ");
                put_quoted(y, b, fi->description);
            }
        }
        if (is_counter(y, sid, f)) {
            gen_buf_puts(b, ", counter: true");
            uint32_t series = y->counter[y->info_base[sid] + f] - 1u;
            if (series && series - 1u < st->field_count) {
                gen_buf_printf(b, ", series: %s", st->fields[series - 1u].name);
            }
        }
        gen_buf_puts(b, "}\n");
    }
}

static void put_enums(ym_t *y, gen_buf_t *b)
{
    const evrec_meta_t *m = y->m;
    int any = 0;
    for (uint32_t i = 0; i < m->enum_count; i++) {
        if ((int)i == y->skip_enum_id) {
            continue;
        }
        const evrec_enum_desc_t *e = &m->enums[i];
        if (!any) {
            gen_buf_puts(b, "\nenums:\n");
            any = 1;
        }
        gen_buf_puts(b, "  - name: ");
        put_name(y, b, e->name, "enum name");
        gen_buf_printf(b, "\n    type: %s\n", width_type(e->kind));
        if (e->value_count) {
            gen_buf_puts(b, "    values:\n");
        }
        for (uint32_t v = 0; v < e->value_count; v++) {
            const evrec_enum_value_t *val = &e->values[v];
            gen_buf_puts(b, "      - {name: ");
            put_name(y, b, val->name, "enum value name");
            gen_buf_printf(b, ", value: %lu", (unsigned long)val->value);
            if (val->marker > EVREC_MARKER_ERROR) {
                note(y, "value %s of enum %s has marker %u, which has no name: None written", val->name, e->name,
                     (unsigned)val->marker);
            } else if (val->marker) {
                gen_buf_printf(b, ", marker: %s", gen_marker_names[val->marker]);
            }
            gen_buf_puts(b, "}\n");
        }
        if (e->runtime) {
            const evrec_runtime_enum_t *rt = e->runtime;
            uint8_t marker = rt->marker <= EVREC_MARKER_ERROR ? rt->marker : EVREC_MARKER_NONE;
            if (evrec_atomic_load(&rt->next) <= rt->base) {
                note_info(y,
                          "no value of the run-time enum %s was named, so the file does not say the marker of its "
                          "range: None written",
                          e->name);
            }
            gen_buf_printf(b, "    runtime: {base: %lu, lim: %lu, marker: %s}\n", (unsigned long)rt->base,
                           (unsigned long)rt->lim, gen_marker_names[marker]);
        }
    }
}

/* Event name: its struct's, or struct_id for a second event on a shared struct. */
static void put_event(ym_t *y, gen_buf_t *b, uint32_t e)
{
    const evrec_meta_t *m = y->m;
    uint32_t sid = m->events[e].struct_id;
    const evrec_struct_desc_t *st = &m->structs[sid];
    gen_buf_puts(b, "  - name: ");
    if (y->event_of_struct[sid] == (int32_t)e) {
        put_name(y, b, st->name, "event name");
    } else {
        char tmp[2048];
        snprintf(tmp, sizeof tmp, "%s_%u", st->name, (unsigned)e);
        put_name(y, b, tmp, "event name");
    }
    gen_buf_puts(b, "\n");
    uint16_t cls = m->events[e].class_id;
    if (cls != e) {
        if (cls < m->event_count && m->events[cls].struct_id < m->struct_count &&
            (int)m->events[cls].struct_id != y->skip_struct_id) {
            gen_buf_puts(b, "    class: ");
            put_name(y, b, m->structs[m->events[cls].struct_id].name, "class name");
            gen_buf_puts(b, "\n");
        } else {
            note(y, "event %s has class id %u, which is %s: left out (its own class)", st->name, (unsigned)cls,
                 cls == 0 ? "EventControl's" : "no event's");
        }
    }
    uint16_t track = track_of(y, e);
    if (track != EVREC_TRACKS_NONE) {
        gen_buf_puts(b, "    track: ");
        put_path(y, b, e, track);
        gen_buf_puts(b, "\n");
    } else if (cls != e && cls < m->event_count && track_of(y, cls) != EVREC_TRACKS_NONE) {
        /* evrec-gen gives an event without `track` its class's when it has that field. */
        char want[2048], have[2048];
        leaf_path(m, cls, track_of(y, cls), want, sizeof want);
        evrec_leaf_info_t li;
        for (uint32_t leaf = 2; evrec_meta_leaf(m, e, leaf, &li) == EVREC_OK; leaf++) {
            leaf_path(m, e, leaf, have, sizeof have);
            if (strcmp(have, want) == 0) {
                note(y,
                     "event %s has no track, but its class's track %s names a field of it too: evrec-gen "
                     "would give it that track",
                     st->name, want);
                break;
            }
        }
    }
    uint32_t first = 0;
    if (st->field_count >= 2 && strcmp(st->fields[0].name, "time") == 0 &&
        st->fields[0].kind == EVREC_KIND_UINT32 && strcmp(st->fields[1].name, "id") == 0 &&
        st->fields[1].kind == EVREC_KIND_UINT16) {
        first = 2;
    } else {
        note(y, "event %s does not start with u32 time, u16 id", st->name);
    }
    for (uint32_t f = 0; f < first; f++) {
        if (y->info[y->info_base[sid] + f]) {
            note_info(y,
                      "event %s: the display attributes of its field %s (written by every event) cannot be given "
                      "in a schema",
                      st->name, st->fields[f].name);
        }
    }
    put_fields(y, b, sid, first);
}

/* The items of file `seg` (enums go to the first). */
static void put_items(ym_t *y, gen_buf_t *b, uint32_t seg)
{
    const evrec_meta_t *m = y->m;
    if (seg == 0) {
        put_enums(y, b);
    }
    int any = 0;
    for (uint32_t s = 0; s < m->struct_count; s++) {
        if ((int)s == y->skip_struct_id || y->event_of_struct[s] >= 0 || y->segment_of_struct[s] != seg) {
            continue;
        }
        if (!any) {
            gen_buf_puts(b, "\nstructs:\n");
            any = 1;
        }
        gen_buf_puts(b, "  - name: ");
        put_name(y, b, m->structs[s].name, "struct name");
        gen_buf_puts(b, "\n");
        if (m->structs[s].field_count == 0) {
            note(y, "struct %s has no fields: evrec-gen refuses empty structs", m->structs[s].name);
        }
        put_fields(y, b, s, 0);
    }
    any = 0;
    for (uint32_t e = 0; e < m->event_count; e++) {
        uint32_t sid = m->events[e].struct_id;
        if ((int)sid == y->skip_struct_id || y->segment_of_struct[sid] != seg) {
            continue;
        }
        if (!any) {
            gen_buf_puts(b, "\nevents:\n");
            any = 1;
        }
        put_event(y, b, e);
    }
}

static void put_comment(gen_buf_t *b, const char *text)
{
    /* Wrapped at about 98 columns, each line "# ". */
    const char *p = text;
    while (*p) {
        size_t n = strlen(p);
        if (n > 96) {
            n = 96;
            while (n > 40 && p[n] != ' ') {
                n--;
            }
            if (p[n] != ' ') {
                n = 96;
            }
        }
        gen_buf_puts(b, "# ");
        for (size_t i = 0; i < n; i++) {
            char c = p[i];
            gen_buf_put(b, c == '\n' ? " " : &p[i], 1);
        }
        gen_buf_puts(b, "\n");
        p += n;
        while (*p == ' ') {
            p++;
        }
    }
}

evrec_status evrec_schema_to_yaml(const evrec_meta_t *meta, const evrec_yaml_options_t *opt, evrec_yaml_t *out)
{
    if (!out) {
        return EVREC_E_ARG;
    }
    memset(out, 0, sizeof *out);
    if (!meta || !opt || !opt->name || !is_ident(opt->name)) {
        return EVREC_E_ARG;
    }
    const char *version = opt->version ? opt->version : "0";
    const char *prefix = opt->part_prefix ? opt->part_prefix : opt->name;
    ym_t y;
    memset(&y, 0, sizeof y);
    y.m = meta;
    y.opt = opt;
    y.out = out;
    analyse(&y);
    check_invariants(&y);

    /* Bodies first (they collect the notes), then each file's header. */
    gen_buf_t *bodies = gen_xmalloc(y.segments * sizeof *bodies);
    memset(bodies, 0, y.segments * sizeof *bodies);
    for (uint32_t s = 0; s < y.segments; s++) {
        put_items(&y, &bodies[s], s);
    }
    put_spans(&y, &bodies[y.segments - 1]); /* spans name events of any part: the top-level file */
    out->count = y.segments;
    out->files = gen_xmalloc(out->count * sizeof *out->files);
    uint64_t hash = evrec_meta_schema_hash(meta);
    for (uint32_t s = 0; s < y.segments; s++) {
        /* files[0] is the top-level file, holding the last segment; parts 1..n-1 the others. */
        uint32_t seg = s == 0 ? y.segments - 1 : s - 1;
        gen_buf_t h = {0};
        char *part_name = NULL;
        if (s == 0) {
            gen_buf_t t = {0};
            gen_buf_printf(&t,
                           "Schema written by `evrec schema` from the meta-info of %s. evrec-gen makes "
                           "tables with schema hash 0x%016llx from it%s.",
                           opt->source ? opt->source : "a recording", (unsigned long long)hash,
                           out->note_count ? ", unless a note below says otherwise" : "");
            put_comment(&h, t.data);
            gen_buf_free(&t);
            put_comment(&h, "A recording does not carry the schema's name and version (given here), the "
                            "descriptions of enums, values, structs and events, nor how the schema was split "
                            "into files.");
            if (opt->bare_ccore) {
                put_comment(&h, "A bare CCore stream carries no run-time enum ranges (values named while "
                                "recording appear as ordinary values) and no display attributes (format, unit, "
                                "description of fields).");
            }
            if (y.segments > 1) {
                put_comment(&h, "The tables interleave events' structs and reusable structs (the schema "
                                "had includes): the included parts keep the ids.");
            }
            for (size_t i = 0; i < out->note_count; i++) {
                gen_buf_t nt = {0};
                gen_buf_printf(&nt, "NOTE: %s.", out->notes[i]);
                put_comment(&h, nt.data);
                gen_buf_free(&nt);
            }
            gen_buf_printf(&h, "schema: %s\nversion: %s\n", opt->name, version);
            if (meta->time_freq) {
                gen_buf_printf(&h, "time_freq: %llu\n", (unsigned long long)meta->time_freq);
            }
            if (y.segments > 1) {
                gen_buf_puts(&h, "include:\n");
                for (uint32_t k = 1; k < y.segments; k++) {
                    gen_buf_printf(&h, "  - %s.part%u.yaml\n", prefix, (unsigned)k);
                }
            }
            part_name = gen_xstrdup("");
        } else {
            gen_buf_t t = {0};
            gen_buf_printf(&t, "Part %u of the schema %s written by `evrec schema`; included by it.", (unsigned)s,
                           opt->name);
            put_comment(&h, t.data);
            gen_buf_free(&t);
            gen_buf_printf(&h, "schema: %s_part%u\nversion: %s\n", opt->name, (unsigned)s, version);
            gen_buf_t n = {0};
            gen_buf_printf(&n, "%s.part%u.yaml", prefix, (unsigned)s);
            part_name = n.data;
        }
        gen_buf_put(&h, bodies[seg].data ? bodies[seg].data : "", bodies[seg].len);
        out->files[s].name = part_name;
        out->files[s].text = h.data ? h.data : gen_xstrdup("");
        gen_buf_free(&bodies[seg]);
    }
    free(bodies);
    free(y.event_of_struct);
    free(y.info);
    free(y.info_base);
    free(y.segment_of_struct);
    free(y.counter);
    free(y.track_leaf);
    free(y.note_slot);
    return EVREC_OK;
}

void evrec_yaml_free(evrec_yaml_t *y)
{
    if (!y) {
        return;
    }
    for (size_t i = 0; i < y->count; i++) {
        free(y->files[i].name);
        free(y->files[i].text);
    }
    for (size_t i = 0; i < y->note_count; i++) {
        free(y->notes[i]);
    }
    free(y->files);
    free(y->notes);
    memset(y, 0, sizeof *y);
}
