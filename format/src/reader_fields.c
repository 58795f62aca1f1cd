/* SPDX-License-Identifier: Apache-2.0 */
/* Field walk, enum value names and event markers (CCore's EventRecorder documentation: "By
 * convention, the marker from an enum field with a non-null markers is used to mark an event.
 * The field with the name type is preferred over others."). */
#include "reader_internal.h"

const char *evrec_marker_name(uint8_t marker)
{
    static const char *const names[16] = {"None",   "Up",       "Down", "UpBlock", "DownBlock", "UpUp",
                                          "UpPush", "UpUpPush", "Push", "Inc",     "Dec",       "Wait",
                                          "Pass",   "Tick",     "Stop", "Error"};
    return marker < 16 ? names[marker] : NULL;
}

const char *evrec_kind_name(uint8_t kind)
{
    static const char *const names[7] = {"uint8",       "uint16",      "uint32", "enum_uint8",
                                         "enum_uint16", "enum_uint32", "struct"};
    return kind < 7 ? names[kind] : NULL;
}

const char *evrec_reader_enum_value(const evrec_reader_t *r, uint16_t enum_id, uint32_t value, uint8_t *marker)
{
    if (marker) {
        *marker = EVREC_MARKER_NONE;
    }
    if (!r || !r->tables.have_meta || enum_id >= r->tables.meta.enum_count) {
        return NULL;
    }
    const rd_enum_t *e = &r->tables.renums[enum_id];
    /* Most enums are dense (values v0, v0 + 1, ...): try the index the value would have there
     * first, then search. */
    if (e->all_count) {
        uint32_t guess = value - e->all[e->sorted[0]].value; /* wraps when below: out of range */
        if (guess < e->all_count && e->all[e->sorted[guess]].value == value &&
            (guess == 0 || e->all[e->sorted[guess - 1]].value < value)) { /* the first of equals */
            const evrec_enum_value_t *v = &e->all[e->sorted[guess]];
            if (marker) {
                *marker = v->marker;
            }
            return v->name;
        }
    }
    /* First index (in value order) whose value is >= value. */
    uint32_t lo = 0, hi = e->all_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (e->all[e->sorted[mid]].value < value) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == e->all_count || e->all[e->sorted[lo]].value != value) {
        return NULL;
    }
    const evrec_enum_value_t *v = &e->all[e->sorted[lo]];
    if (marker) {
        *marker = v->marker;
    }
    return v->name;
}

int evrec_reader_enum_has_markers(const evrec_reader_t *r, uint16_t enum_id)
{
    return r && r->tables.have_meta && enum_id < r->tables.meta.enum_count &&
           r->tables.renums[enum_id].has_markers;
}

static int record_ok(const evrec_reader_t *r, const evrec_record_t *rec)
{
    return r && rec && r->tables.have_meta && rec->data && rec->id < r->tables.meta.event_count &&
           rec->size == r->tables.save_len[rec->id];
}

uint8_t evrec_reader_record_marker(const evrec_reader_t *r, const evrec_record_t *rec)
{
    if (!record_ok(r, rec)) {
        return EVREC_MARKER_NONE;
    }
    const rd_marker_field_t *m = &r->tables.markers[rec->id];
    if (m->offset < 0) {
        return EVREC_MARKER_NONE;
    }
    uint8_t marker;
    evrec_reader_enum_value(r, m->enum_id, rd_load(rec->data + m->offset, m->kind), &marker);
    return marker;
}

typedef struct walk {
    const evrec_reader_t *r;
    const evrec_record_t *rec;
    evrec_field_visitor_t fn;
    void *ctx;
    uint32_t index;
    char path[(EVREC_MAX_NESTING + 1) * (EVREC_READER_MAX_NAME + 1) + 1];
} walk_t;

/* Returns non-zero when the visitor asked to stop. */
static int walk_struct(walk_t *w, uint32_t sid, uint32_t base, unsigned depth, size_t plen)
{
    const evrec_struct_desc_t *s = &w->r->tables.structs[sid];
    for (uint32_t f = 0; f < s->field_count && depth <= EVREC_MAX_NESTING; f++) {
        const evrec_field_desc_t *fd = &s->fields[f];
        size_t at = plen;
        if (plen) {
            w->path[at++] = '.';
        }
        /* One pass (copy up to and with the NUL) instead of strlen() then memcpy(): this runs for
         * every field of every record. */
        size_t nlen = 0;
        while ((w->path[at + nlen] = fd->name[nlen]) != 0) {
            nlen++;
        }
        if (fd->kind == EVREC_KIND_STRUCT) {
            if (walk_struct(w, fd->ref, base + fd->offset, depth + 1, at + nlen)) {
                return 1;
            }
            continue;
        }
        evrec_field_view_t v;
        v.path = w->path;
        v.name = w->path + at;
        v.index = w->index++;
        v.depth = depth;
        v.kind = fd->kind;
        v.offset = base + fd->offset;
        v.value = 0;
        v.enum_id = 0;
        v.value_name = NULL;
        v.marker = EVREC_MARKER_NONE;
        v.struct_id = (uint16_t)sid;
        v.field_index = f;
        v.info = evrec_reader_field_info(w->r, (uint16_t)sid, f);
        if (v.offset + evrec_kind_width(fd->kind) > w->rec->size) {
            return 1; /* cannot happen for a record of this reader: sizes were checked */
        }
        v.value = rd_load(w->rec->data + v.offset, fd->kind);
        if (rd_kind_is_enum(fd->kind)) {
            v.enum_id = fd->ref;
            v.value_name = evrec_reader_enum_value(w->r, fd->ref, v.value, &v.marker);
        }
        if (w->fn(w->ctx, &v)) {
            return 1;
        }
    }
    return 0;
}

evrec_status evrec_reader_visit_fields(const evrec_reader_t *r, const evrec_record_t *rec,
                                       evrec_field_visitor_t fn, void *ctx)
{
    if (!record_ok(r, rec) || !fn) {
        return EVREC_E_ARG;
    }
    walk_t w;
    w.r = r;
    w.rec = rec;
    w.fn = fn;
    w.ctx = ctx;
    w.index = 0;
    w.path[0] = 0;
    walk_struct(&w, r->tables.events[rec->id].struct_id, 0, 0, 0);
    return EVREC_OK;
}
