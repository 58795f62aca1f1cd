/* SPDX-License-Identifier: Apache-2.0 */
/* Tracks, spans and counters in the schema language (schema/SCHEMA.md section 2, "Tracks, spans
 * and counters"): `spans:` parsing, resolution of `track:` and span paths against the events
 * (leaf numbers: 0 time, 1 id, then the fields depth first), and the track tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_internal.h"

/* ---- parsing `spans:` (the YAML document exists only while its file is read) ---- */

static char *dup_scalar(gen_ctx_t *c, const yaml_node_t *n, const char *what, gen_pos_t *pos)
{
    if (!n) {
        return NULL;
    }
    const char *v = gen_ld_scalar(c, n, what);
    if (!v) {
        return NULL;
    }
    *pos = gen_ld_pos(c, n);
    return gen_xstrdup(v);
}

/* `begin:` / `end:`: an event name, or {event, field, value, key}. 0 when unusable. */
static int parse_end(gen_ctx_t *c, const yaml_node_t *n, const char *what, gen_span_end_t *e)
{
    memset(e, 0, sizeof *e);
    e->pos = gen_ld_pos(c, n);
    if (n->type == YAML_SCALAR_NODE) {
        e->event = dup_scalar(c, n, "event", &e->event_pos);
        return e->event != NULL;
    }
    gen_key_t keys[] = {{"event", 0, 0}, {"field", 0, 0}, {"value", 0, 0}, {"key", 0, 0}};
    if (n->type != YAML_MAPPING_NODE) {
        gen_error(c->s, e->pos, "expected an event name or a mapping {event, field, value, key} for %s, found %s",
                  what, n->type == YAML_SEQUENCE_NODE ? "a list" : "nothing");
        return 0;
    }
    gen_ld_map(c, n, what, keys, 4);
    const yaml_node_t *ev = gen_ld_need(c, n, &keys[0], what);
    e->event = dup_scalar(c, ev, "event", &e->event_pos);
    e->field = dup_scalar(c, keys[1].value, "field", &e->field_pos);
    e->value = dup_scalar(c, keys[2].value, "value", &e->value_pos);
    e->key = dup_scalar(c, keys[3].value, "key", &e->key_pos);
    if ((keys[1].value != NULL) != (keys[2].value != NULL)) {
        gen_error(c->s, e->pos, "%s: field and value go together (the end matches when the field has the value)",
                  what);
        return 0;
    }
    return e->event != NULL;
}

static void free_end(gen_span_end_t *e)
{
    free(e->event);
    free(e->field);
    free(e->value);
    free(e->key);
}

static void parse_span(gen_ctx_t *c, const yaml_node_t *n)
{
    gen_key_t keys[] = {{"name", 0, 0}, {"begin", 0, 0}, {"end", 0, 0}, {"key", 0, 0}, {"track", 0, 0}};
    if (!gen_ld_map(c, n, "span", keys, 5)) {
        return;
    }
    const yaml_node_t *nn = gen_ld_need(c, n, &keys[0], "span");
    const yaml_node_t *bn = gen_ld_need(c, n, &keys[1], "span");
    const yaml_node_t *en = gen_ld_need(c, n, &keys[2], "span");
    int valid = 0;
    const char *name = nn ? gen_ld_name(c, nn, "span name", &valid) : NULL;
    gen_span_t sp;
    memset(&sp, 0, sizeof sp);
    sp.pos = gen_ld_pos(c, nn ? nn : n);
    int ok = name && valid;
    char wb[300], we[300];
    snprintf(wb, sizeof wb, "begin of span %s", name ? name : "?");
    snprintf(we, sizeof we, "end of span %s", name ? name : "?");
    ok = (bn && parse_end(c, bn, wb, &sp.begin)) && ok;
    ok = (en && parse_end(c, en, we, &sp.end)) && ok;
    sp.key = dup_scalar(c, keys[3].value, "key", &sp.key_pos);
    sp.track = dup_scalar(c, keys[4].value, "track", &sp.track_pos);
    for (size_t i = 0; ok && i < c->s->span_count; i++) {
        if (strcmp(c->s->spans[i].name, name) == 0) {
            gen_error(c->s, sp.pos, "duplicate span name '%s': already defined at %s", name,
                      gen_pos_str(c->s, c->s->spans[i].pos));
            ok = 0;
        }
    }
    if (!ok) {
        free_end(&sp.begin);
        free_end(&sp.end);
        free(sp.key);
        free(sp.track);
        return;
    }
    sp.name = gen_xstrdup(name);
    sp.track_leaf = EVREC_TRACKS_NONE;
    *GEN_PUSH(c->s->spans, c->s->span_count, c->s->span_cap) = sp;
}

void gen_tracks_parse_spans(gen_ctx_t *c, const yaml_node_t *n)
{
    if (!gen_ld_list(c, n, "spans")) {
        return;
    }
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        yaml_node_t *item = gen_ld_node(c, *it);
        if (item) {
            parse_span(c, item);
        }
    }
}

/* ---- resolution ---- */

static uint32_t leaf_count(const gen_schema_t *s, size_t sid, unsigned depth)
{
    uint32_t n = 0;
    const gen_struct_t *st = &s->structs[sid];
    for (size_t f = 0; f < st->field_count && depth <= EVREC_MAX_NESTING; f++) {
        n += st->fields[f].type == GEN_T_STRUCT ? leaf_count(s, st->fields[f].ref, depth + 1) : 1u;
    }
    return n;
}

/* Path "a.b.c" in event `ev`: its leaf number and field. `what` names the use in messages
 * ("track", "key of span S"...). report = 0: say nothing on failure. 0 on success. */
static int resolve_path(gen_schema_t *s, size_t ev, const char *path, gen_pos_t pos, const char *what, int report,
                        uint16_t *leaf, const gen_field_t **field)
{
    const gen_struct_t *event = &s->structs[s->events[ev].struct_id];
    size_t sid = s->events[ev].struct_id;
    uint32_t n = 0;
    const char *p = path;
    for (unsigned depth = 0;; depth++) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        const gen_struct_t *st = &s->structs[sid];
        size_t i = 0;
        while (i < st->field_count &&
               !(strlen(st->fields[i].name) == len && strncmp(st->fields[i].name, p, len) == 0)) {
            i++;
        }
        if (i == st->field_count) {
            if (report) {
                gen_error(s, pos, "%s: %s %s has no field '%.*s' (in path '%s')", what, depth ? "struct" : "event",
                          st->name, (int)len, p, path);
            }
            return -1;
        }
        for (size_t k = 0; k < i; k++) {
            n += st->fields[k].type == GEN_T_STRUCT ? leaf_count(s, st->fields[k].ref, depth + 1) : 1u;
        }
        const gen_field_t *f = &st->fields[i];
        if (dot) {
            if (f->type != GEN_T_STRUCT) {
                if (report) {
                    gen_error(s, pos, "%s: field '%.*s' of %s is not a struct (in path '%s')", what, (int)len, p,
                              st->name, path);
                }
                return -1;
            }
            sid = f->ref;
            p = dot + 1;
            continue;
        }
        if (f->type == GEN_T_STRUCT) {
            if (report) {
                /* The struct may have no field left (its fields had errors). */
                const gen_struct_t *inner = &s->structs[f->ref];
                if (inner->field_count > 0) {
                    gen_error(s, pos, "%s: '%s' of event %s is a struct %s; name one of its fields ('%s.%s')",
                              what, path, event->name, inner->name, path, inner->fields[0].name);
                } else {
                    gen_error(s, pos, "%s: '%s' of event %s is a struct %s, which has no field", what, path,
                              event->name, inner->name);
                }
            }
            return -1;
        }
        if (n < 2) {
            if (report) {
                gen_error(s, pos, "%s: '%s' is the %s every event has; name a field of event %s", what, path,
                          n == 0 ? "timestamp" : "event id", event->name);
            }
            return -1;
        }
        if (n >= EVREC_TRACKS_NONE) {
            if (report) {
                gen_error(s, pos, "%s: '%s' is leaf %u of event %s, beyond the %u that the tables can number",
                          what, path, (unsigned)n, event->name, (unsigned)EVREC_TRACKS_NONE - 1);
            }
            return -1;
        }
        *leaf = (uint16_t)n;
        if (field) {
            *field = f;
        }
        return 0;
    }
}

static int find_event(const gen_schema_t *s, const char *name, size_t *ev)
{
    for (size_t i = 0; i < s->event_count; i++) {
        if (strcmp(s->structs[s->events[i].struct_id].name, name) == 0) {
            *ev = i;
            return 1;
        }
    }
    return 0;
}

static void resolve_value(gen_schema_t *s, gen_span_end_t *e, const gen_field_t *f, const char *what)
{
    uint64_t v = 0;
    if (f->type == GEN_T_ENUM) {
        const gen_enum_t *en = &s->enums[f->ref];
        for (size_t i = 0; i < en->value_count; i++) {
            if (strcmp(en->values[i].name, e->value) == 0) {
                e->r.match_value = en->values[i].value;
                return;
            }
        }
        uint64_t max = en->width == 1 ? 0xFFu : en->width == 2 ? 0xFFFFu : 0xFFFFFFFFu;
        if (gen_parse_uint_text(e->value, &v) == 1 && v <= max) {
            e->r.match_value = (uint32_t)v;
            return;
        }
        gen_buf_t list = {0};
        for (size_t i = 0; i < en->value_count; i++) {
            gen_buf_printf(&list, "%s%s", i ? ", " : "", en->values[i].name);
        }
        gen_error(s, e->value_pos, "%s: unknown value '%s' of enum %s (expected %s%s)", what, e->value, en->name,
                  list.data ? list.data : "", list.data ? ", or a number that fits it" : "a number that fits it");
        gen_buf_free(&list);
        return;
    }
    uint64_t max = f->type == GEN_T_U8 ? 0xFFu : f->type == GEN_T_U16 ? 0xFFFFu : 0xFFFFFFFFu;
    if (gen_parse_uint_text(e->value, &v) != 1 || v > max) {
        gen_error(s, e->value_pos, "%s: value '%s' for field %s (uint%u): expected an unsigned integer up to %llu",
                  what, e->value, f->name,
                  f->type == GEN_T_U8    ? 8u
                  : f->type == GEN_T_U16 ? 16u
                                         : 32u,
                  (unsigned long long)max);
        return;
    }
    e->r.match_value = (uint32_t)v;
}

static int resolve_end(gen_schema_t *s, const gen_span_t *sp, gen_span_end_t *e, const char *which, size_t *ev)
{
    char what[300];
    snprintf(what, sizeof what, "%s of span %s", which, sp->name);
    e->r.event_id = 0;
    e->r.match_leaf = EVREC_TRACKS_NONE;
    e->r.match_value = 0;
    e->r.key_leaf = EVREC_TRACKS_NONE;
    if (!find_event(s, e->event, ev)) {
        gen_error(s, e->event_pos, "%s: unknown event '%s'", what, e->event);
        return 0;
    }
    e->r.event_id = (uint16_t)*ev;
    int ok = 1;
    if (e->field) {
        const gen_field_t *f = NULL;
        if (resolve_path(s, *ev, e->field, e->field_pos, what, 1, &e->r.match_leaf, &f) == 0) {
            resolve_value(s, e, f, what);
        } else {
            ok = 0;
        }
    }
    const char *key = e->key ? e->key : sp->key;
    if (key) {
        char kw[340];
        snprintf(kw, sizeof kw, "key of %s", what);
        ok &= resolve_path(s, *ev, key, e->key ? e->key_pos : sp->key_pos, kw, 1, &e->r.key_leaf, NULL) == 0;
    }
    return ok;
}

/* Counters' `series:` keys: a sibling field (same struct), integer or enum, not the counter. */
static void resolve_series(gen_schema_t *s)
{
    for (size_t i = 0; i < s->struct_count; i++) {
        gen_struct_t *st = &s->structs[i];
        for (size_t f = 0; f < st->field_count; f++) {
            gen_field_t *fd = &st->fields[f];
            if (!fd->series) {
                continue;
            }
            size_t k = 0;
            while (k < st->field_count && strcmp(st->fields[k].name, fd->series) != 0) {
                k++;
            }
            if (k == st->field_count || k == f || st->fields[k].type == GEN_T_STRUCT || (st->event && k < 2)) {
                gen_error(s, fd->series_pos,
                          "series of counter %s.%s: '%s' is not another integer or enum field of %s "
                          "(the field whose value separates the series, e.g. a queue)",
                          st->name, fd->name, fd->series, st->name);
                continue;
            }
            fd->series_of = (uint16_t)(k + 1);
        }
    }
}

void gen_tracks_resolve(gen_schema_t *s)
{
    resolve_series(s);
    /* Own tracks, then class defaults (an event without one takes its class event's path when it
     * has a field there). */
    for (size_t i = 0; i < s->event_count; i++) {
        gen_event_t *ev = &s->events[i];
        if (ev->track) {
            (void)resolve_path(s, i, ev->track, ev->track_pos, "track", 1, &ev->track_leaf, NULL);
        }
    }
    for (size_t i = 0; i < s->event_count; i++) {
        gen_event_t *ev = &s->events[i];
        const gen_event_t *cls = &s->events[ev->class_id];
        if (!ev->track && ev->class_id != i && cls->track && cls->track_leaf != EVREC_TRACKS_NONE) {
            (void)resolve_path(s, i, cls->track, cls->track_pos, "track", 0, &ev->track_leaf, NULL);
        }
    }
    for (size_t i = 0; i < s->span_count; i++) {
        gen_span_t *sp = &s->spans[i];
        size_t bev = 0, eev = 0;
        int ok = resolve_end(s, sp, &sp->begin, "begin", &bev);
        ok &= resolve_end(s, sp, &sp->end, "end", &eev);
        if (ok && (sp->begin.r.key_leaf == EVREC_TRACKS_NONE) != (sp->end.r.key_leaf == EVREC_TRACKS_NONE)) {
            gen_error(s, sp->pos, "span %s: only its %s has a key; give both ends one (or the span a key)",
                      sp->name, sp->begin.r.key_leaf != EVREC_TRACKS_NONE ? "begin" : "end");
        }
        if (ok && sp->track) {
            char what[300];
            snprintf(what, sizeof what, "track of span %s (a field of its begin event)", sp->name);
            (void)resolve_path(s, bev, sp->track, sp->track_pos, what, 1, &sp->track_leaf, NULL);
        }
    }
}

int gen_tracks_present(const gen_schema_t *s)
{
    if (s->span_count) {
        return 1;
    }
    for (size_t i = 0; i < s->event_count; i++) {
        if (s->events[i].track_leaf != EVREC_TRACKS_NONE) {
            return 1;
        }
    }
    for (size_t i = 0; i < s->struct_count; i++) {
        for (size_t f = 0; f < s->structs[i].field_count; f++) {
            if (s->structs[i].fields[f].counter) {
                return 1;
            }
        }
    }
    return 0;
}

void gen_tracks_build(const gen_schema_t *s, gen_meta_t *m)
{
    size_t nt = 0, nc = 0;
    for (size_t i = 0; i < s->event_count; i++) {
        nt += s->events[i].track_leaf != EVREC_TRACKS_NONE;
    }
    for (size_t i = 0; i < s->struct_count; i++) {
        for (size_t f = 0; f < s->structs[i].field_count; f++) {
            nc += s->structs[i].fields[f].counter != 0;
        }
    }
    m->tracks = gen_xmalloc((nt ? nt : 1) * sizeof *m->tracks);
    m->spans = gen_xmalloc((s->span_count ? s->span_count : 1) * sizeof *m->spans);
    m->counters = gen_xmalloc((nc ? nc : 1) * sizeof *m->counters);
    size_t k = 0;
    for (size_t i = 0; i < s->event_count; i++) {
        if (s->events[i].track_leaf != EVREC_TRACKS_NONE) {
            m->tracks[k].event_id = (uint16_t)i;
            m->tracks[k].leaf = s->events[i].track_leaf;
            k++;
        }
    }
    for (size_t i = 0; i < s->span_count; i++) {
        m->spans[i].name = s->spans[i].name;
        m->spans[i].begin = s->spans[i].begin.r;
        m->spans[i].end = s->spans[i].end.r;
        m->spans[i].track_leaf = s->spans[i].track_leaf;
    }
    k = 0;
    for (size_t i = 0; i < s->struct_count; i++) {
        for (size_t f = 0; f < s->structs[i].field_count; f++) {
            if (s->structs[i].fields[f].counter) {
                m->counters[k].struct_id = (uint16_t)i;
                m->counters[k].field_index = (uint16_t)f;
                m->counters[k].series = s->structs[i].fields[f].series_of;
                k++;
            }
        }
    }
    m->model.track_count = (uint32_t)nt;
    m->model.tracks = nt ? m->tracks : NULL;
    m->model.span_count = (uint32_t)s->span_count;
    m->model.spans = s->span_count ? m->spans : NULL;
    m->model.counter_count = (uint32_t)nc;
    m->model.counters = nc ? m->counters : NULL;
    m->meta.tracks = gen_tracks_present(s) ? &m->model : NULL;
}

void gen_tracks_free(gen_schema_t *s)
{
    for (size_t i = 0; i < s->span_count; i++) {
        free(s->spans[i].name);
        free_end(&s->spans[i].begin);
        free_end(&s->spans[i].end);
        free(s->spans[i].key);
        free(s->spans[i].track);
    }
    free(s->spans);
    s->spans = NULL;
    s->span_count = s->span_cap = 0;
}

static int path_walk(const gen_schema_t *s, size_t sid, uint32_t *left, gen_buf_t *b, unsigned depth)
{
    const gen_struct_t *st = &s->structs[sid];
    for (size_t f = 0; f < st->field_count && depth <= EVREC_MAX_NESTING; f++) {
        const gen_field_t *fd = &st->fields[f];
        size_t mark = b->len;
        gen_buf_printf(b, "%s%s", depth ? "." : "", fd->name);
        if (fd->type == GEN_T_STRUCT) {
            if (path_walk(s, fd->ref, left, b, depth + 1)) {
                return 1;
            }
        } else if ((*left)-- == 0) {
            return 1;
        }
        b->len = mark;
        b->data[mark] = '\0';
    }
    return 0;
}

const char *gen_leaf_path(const gen_schema_t *s, size_t ev, uint16_t leaf)
{
    static char bufs[4][512];
    static unsigned turn;
    char *out = bufs[turn++ % 4];
    gen_buf_t b = {0};
    uint32_t left = leaf;
    if (path_walk(s, s->events[ev].struct_id, &left, &b, 0) && b.data) {
        snprintf(out, 512, "%s", b.data);
    } else {
        snprintf(out, 512, "?");
    }
    gen_buf_free(&b);
    return out;
}
