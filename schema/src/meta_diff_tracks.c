/* SPDX-License-Identifier: Apache-2.0 */
/* evrec_meta_diff(), continued: tracks, spans and counters (meta->tracks), compared by name (event
 * names, span names, Struct.field), so that `evrec check` says which one was added, removed or
 * changed. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"
#include "meta_diff_tracks.h"

typedef struct vd {
    const evrec_meta_t *e, *a;
    const char *en, *an;
    evrec_diff_fn fn;
    void *ctx;
    size_t count;
} vd_t;

static void say(vd_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(vd_t *d, const char *fmt, ...)
{
    d->count++;
    if (!d->fn) {
        return;
    }
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    d->fn(d->ctx, line);
}

static const char *ev_name(const evrec_meta_t *m, uint32_t id)
{
    if (id >= m->event_count || m->events[id].struct_id >= m->struct_count) {
        return "?";
    }
    return m->structs[m->events[id].struct_id].name;
}

static void path(const evrec_meta_t *m, uint32_t ev, uint32_t leaf, char *out, size_t n)
{
    evrec_leaf_info_t li;
    snprintf(out, n, "leaf %u", (unsigned)leaf);
    if (evrec_meta_leaf(m, ev, leaf, &li) != EVREC_OK) {
        return;
    }
    size_t k = 0;
    for (unsigned d = 0; d <= li.depth && k < n; d++) {
        int w = snprintf(out + k, n - k, "%s%s", d ? "." : "",
                         m->structs[li.path_struct[d]].fields[li.path_field[d]].name);
        if (w < 0) {
            break;
        }
        k += (size_t)w;
    }
}

/* Events by name (ties by id), so that the comparison is O(n log n) for 65,535 events. */
typedef struct ev_ix {
    const char *name;
    uint32_t id;
} ev_ix_t;

static int ev_ix_cmp(const void *a, const void *b)
{
    const ev_ix_t *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->id < y->id ? -1 : x->id > y->id;
}

static ev_ix_t *ev_ix_build(const evrec_meta_t *m)
{
    ev_ix_t *ix = gen_xmalloc(((size_t)m->event_count + 1) * sizeof *ix);
    for (uint32_t i = 0; i < m->event_count; i++) {
        ix[i].name = ev_name(m, i);
        ix[i].id = i;
    }
    qsort(ix, m->event_count, sizeof *ix, ev_ix_cmp);
    return ix;
}

/* The first event of that name, or -1. */
static int ev_ix_find(const ev_ix_t *ix, uint32_t n, const char *name)
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

/* Per event: its track's leaf (the first track listed for the event wins). */
static uint16_t *tracks_by_event(const evrec_meta_t *m)
{
    uint16_t *t = gen_xmalloc(((size_t)m->event_count + 1) * sizeof *t);
    for (uint32_t i = 0; i < m->event_count; i++) {
        t[i] = EVREC_TRACKS_NONE;
    }
    const evrec_tracks_t *v = m->tracks;
    for (uint32_t i = v ? v->track_count : 0; i-- > 0;) {
        if (v->tracks[i].event_id < m->event_count) {
            t[v->tracks[i].event_id] = v->tracks[i].leaf;
        }
    }
    return t;
}

static void diff_tracks(vd_t *d)
{
    char pe[1024], pa[1024];
    if ((!d->e->tracks || d->e->tracks->track_count == 0) && (!d->a->tracks || d->a->tracks->track_count == 0)) {
        return;
    }
    ev_ix_t *ix[2] = {ev_ix_build(d->e), ev_ix_build(d->a)};
    uint16_t *tr[2] = {tracks_by_event(d->e), tracks_by_event(d->a)};
    for (int side = 0; side < 2; side++) {
        const evrec_meta_t *m = side ? d->a : d->e, *o = side ? d->e : d->a;
        for (uint32_t i = 0; i < m->event_count; i++) {
            uint16_t lm = tr[side][i];
            int j = ev_ix_find(ix[!side], o->event_count, ev_name(m, i));
            if (j < 0) {
                continue; /* the event itself differs: said by the event comparison */
            }
            uint16_t lo = tr[!side][j];
            if (lm == EVREC_TRACKS_NONE && lo == EVREC_TRACKS_NONE) {
                continue;
            }
            path(m, i, lm, pe, sizeof pe);
            path(o, (uint32_t)j, lo, pa, sizeof pa);
            if (lo == EVREC_TRACKS_NONE) {
                say(d, "event %s: track %s in %s, none in %s (track %s)", ev_name(m, i), pe, side ? d->an : d->en,
                    side ? d->en : d->an, side ? "added" : "removed");
            } else if (side == 0 && lm != EVREC_TRACKS_NONE && strcmp(pe, pa) != 0) {
                say(d, "event %s: track %s in %s, %s in %s (track changed)", ev_name(m, i), pe, d->en, pa, d->an);
            }
        }
    }
    for (int side = 0; side < 2; side++) {
        free(ix[side]);
        free(tr[side]);
    }
}

/* A span as text with names, for comparison and messages. */
static void end_text(const evrec_meta_t *m, const evrec_span_end_t *e, char *out, size_t n)
{
    size_t k = (size_t)snprintf(out, n, "%s", ev_name(m, e->event_id));
    char p[1024];
    if (e->match_leaf != EVREC_TRACKS_NONE && k < n) {
        path(m, e->event_id, e->match_leaf, p, sizeof p);
        evrec_leaf_info_t li;
        const char *vn = NULL;
        if (evrec_meta_leaf(m, e->event_id, e->match_leaf, &li) == EVREC_OK && li.kind >= EVREC_KIND_ENUM_UINT8 &&
            li.kind <= EVREC_KIND_ENUM_UINT32 && li.ref < m->enum_count) {
            const evrec_enum_desc_t *en = &m->enums[li.ref];
            for (uint32_t i = 0; i < en->value_count && !vn; i++) {
                vn = en->values[i].value == e->match_value ? en->values[i].name : NULL;
            }
        }
        if (vn) {
            k += (size_t)snprintf(out + k, n - k, " %s=%s", p, vn);
        } else {
            k += (size_t)snprintf(out + k, n - k, " %s=%lu", p, (unsigned long)e->match_value);
        }
    }
    if (e->key_leaf != EVREC_TRACKS_NONE && k < n) {
        path(m, e->event_id, e->key_leaf, p, sizeof p);
        snprintf(out + k, n - k, " [key %s]", p);
    }
}

static void span_text(const evrec_meta_t *m, const evrec_span_desc_t *s, char *out, size_t n)
{
    char b[1200], e[1200], t[1024] = "";
    end_text(m, &s->begin, b, sizeof b);
    end_text(m, &s->end, e, sizeof e);
    if (s->track_leaf != EVREC_TRACKS_NONE) {
        char p[1000];
        path(m, s->begin.event_id, s->track_leaf, p, sizeof p);
        snprintf(t, sizeof t, ", track %s", p);
    }
    snprintf(out, n, "%s -> %s%s", b, e, t);
}

static int find_span(const evrec_meta_t *m, const char *name)
{
    const evrec_tracks_t *v = m->tracks;
    for (uint32_t i = 0; v && i < v->span_count; i++) {
        if (strcmp(v->spans[i].name, name) == 0) {
            return (int)i;
        }
    }
    return -1;
}

static void diff_spans(vd_t *d)
{
    const evrec_tracks_t *ve = d->e->tracks, *va = d->a->tracks;
    uint32_t ne = ve ? ve->span_count : 0, na = va ? va->span_count : 0;
    char te[3500], ta[3500];
    size_t before = d->count;
    for (uint32_t i = 0; i < ne; i++) {
        const evrec_span_desc_t *s = &ve->spans[i];
        int j = find_span(d->a, s->name);
        span_text(d->e, s, te, sizeof te);
        if (j < 0) {
            say(d, "span %s: %s in %s, not in %s (span removed)", s->name, te, d->en, d->an);
            continue;
        }
        span_text(d->a, &va->spans[j], ta, sizeof ta);
        if (strcmp(te, ta) != 0) {
            say(d, "span %s: %s in %s, %s in %s (span changed)", s->name, te, d->en, ta, d->an);
        }
    }
    for (uint32_t j = 0; j < na; j++) {
        if (find_span(d->e, va->spans[j].name) < 0) {
            span_text(d->a, &va->spans[j], ta, sizeof ta);
            say(d, "span %s: %s in %s, not in %s (span added)", va->spans[j].name, ta, d->an, d->en);
        }
    }
    if (d->count == before && ne == na) {
        for (uint32_t i = 0; i < ne; i++) {
            if (strcmp(ve->spans[i].name, va->spans[i].name) != 0) {
                say(d, "span %s is span %u in %s, %d in %s (order changed)", ve->spans[i].name, (unsigned)i, d->en,
                    find_span(d->a, ve->spans[i].name), d->an);
            }
        }
    }
}

static int find_counter(const evrec_meta_t *m, const char *sname, const char *fname)
{
    const evrec_tracks_t *v = m->tracks;
    for (uint32_t i = 0; v && i < v->counter_count; i++) {
        const evrec_struct_desc_t *st = &m->structs[v->counters[i].struct_id];
        if (strcmp(st->name, sname) == 0 && strcmp(st->fields[v->counters[i].field_index].name, fname) == 0) {
            return (int)i;
        }
    }
    return -1;
}

/* A counter in both: its series field (by name; none = one series). */
static void diff_series(vd_t *d, const char *fname, const evrec_struct_desc_t *es, uint16_t e,
                        const evrec_struct_desc_t *as, uint16_t a)
{
    const char *en = e && e - 1u < es->field_count ? es->fields[e - 1u].name : NULL;
    const char *an = a && a - 1u < as->field_count ? as->fields[a - 1u].name : NULL;
    if ((en || an) && (!en || !an || strcmp(en, an) != 0)) {
        say(d, "counter %s.%s: series %s in %s, %s in %s", es->name, fname, en ? en : "(none)", d->en,
            an ? an : "(none)", d->an);
    }
}

static void diff_counters(vd_t *d)
{
    for (int side = 0; side < 2; side++) {
        const evrec_meta_t *m = side ? d->a : d->e, *o = side ? d->e : d->a;
        const evrec_tracks_t *v = m->tracks;
        for (uint32_t i = 0; v && i < v->counter_count; i++) {
            const evrec_struct_desc_t *st = &m->structs[v->counters[i].struct_id];
            const char *fname = st->fields[v->counters[i].field_index].name;
            int k = find_counter(o, st->name, fname);
            if (k < 0) {
                say(d, "counter %s.%s: in %s, not in %s (counter %s)", st->name, fname, side ? d->an : d->en,
                    side ? d->en : d->an, side ? "added" : "removed");
            } else if (!side) {
                diff_series(d, fname, st, v->counters[i].series, &o->structs[o->tracks->counters[k].struct_id],
                            o->tracks->counters[k].series);
            }
        }
    }
}

size_t gen_tracks_diff(const evrec_meta_t *expected, const evrec_meta_t *actual, const char *en, const char *an,
                       evrec_diff_fn fn, void *ctx)
{
    vd_t d = {expected, actual, en, an, fn, ctx, 0};
    diff_tracks(&d);
    diff_spans(&d);
    diff_counters(&d);
    return d.count;
}
