/* SPDX-License-Identifier: Apache-2.0 */
/* Meta-info checks and sizes, and the shared EventControl tables (CCore EventRecorder.h). */
#include "evrec/evrec_meta.h"

const evrec_enum_value_t evrec_control_enum_values[4] = {EVREC_CONTROL_ENUM_VALUES};
const evrec_field_desc_t evrec_control_fields_enum0[3] = {EVREC_CONTROL_FIELDS(0)};


static uint32_t packed_size(const evrec_meta_t *m, uint32_t sid, unsigned depth)
{
    if (sid >= m->struct_count || depth > EVREC_MAX_NESTING) {
        return 0;
    }
    const evrec_struct_desc_t *s = &m->structs[sid];
    uint32_t total = 0;
    for (uint32_t i = 0; i < s->field_count; i++) {
        const evrec_field_desc_t *f = &s->fields[i];
        uint32_t n = f->kind == EVREC_KIND_STRUCT ? packed_size(m, f->ref, depth + 1) : evrec_kind_width(f->kind);
        if (n == 0) {
            return 0;
        }
        total += n;
    }
    return total;
}

uint32_t evrec_meta_packed_size(const evrec_meta_t *meta, uint32_t struct_id)
{
    return meta ? packed_size(meta, struct_id, 0) : 0;
}

static int str_eq(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

static uint32_t kind_max(uint8_t kind)
{
    switch (kind) {
    case EVREC_KIND_ENUM_UINT8: return 0xFFu;
    case EVREC_KIND_ENUM_UINT16: return 0xFFFFu;
    default: return 0xFFFFFFFFu;
    }
}

#define FAIL(idx, text)                                                                            \
    do {                                                                                           \
        if (bad_index) *bad_index = (idx);                                                         \
        if (what) *what = (text);                                                                  \
        return EVREC_E_META;                                                                       \
    } while (0)

/* Native extent of a struct field: [offset, offset + size) must lie inside the parent. */
static uint32_t native_field_size(const evrec_meta_t *m, const evrec_field_desc_t *f)
{
    if (f->kind == EVREC_KIND_STRUCT) {
        return f->ref < m->struct_count ? m->structs[f->ref].native_size : 0;
    }
    return evrec_kind_width(f->kind);
}

evrec_status evrec_meta_validate(const evrec_meta_t *meta, uint32_t *bad_index, const char **what)
{
    if (!meta) {
        return EVREC_E_ARG;
    }
    if ((meta->enum_count && !meta->enums) || (meta->struct_count && !meta->structs) ||
        !meta->events || meta->event_count == 0) {
        FAIL(0, "a table pointer is NULL or there are no events");
    }
    if (meta->event_count > EVREC_ID_NONE || meta->struct_count > 0xFFFFu || meta->enum_count > 0xFFFFu) {
        FAIL(0, "more than 65535 items in a table");
    }
    for (uint32_t i = 0; i < meta->enum_count; i++) {
        const evrec_enum_desc_t *e = &meta->enums[i];
        if (!e->name || e->kind < EVREC_KIND_ENUM_UINT8 || e->kind > EVREC_KIND_ENUM_UINT32 ||
            (e->value_count && !e->values)) {
            FAIL(i, "enum: missing name, kind not enum_uint8/16/32, or NULL values");
        }
        for (uint32_t v = 0; v < e->value_count; v++) {
            if (!e->values[v].name || e->values[v].value > kind_max(e->kind) ||
                e->values[v].marker > EVREC_MARKER_ERROR) {
                FAIL(i, "enum value: missing name, value too wide for the kind, or bad marker");
            }
            if (v && e->values[v].value <= e->values[v - 1].value) {
                FAIL(i, "enum values are not strictly ascending");
            }
        }
        if (e->runtime) {
            const evrec_runtime_enum_t *r = e->runtime;
            if (!r->names || r->lim <= r->base || r->lim - 1u > kind_max(e->kind) ||
                r->marker > EVREC_MARKER_ERROR) {
                FAIL(i, "run-time enum range empty, too wide for the kind, or without names");
            }
            for (uint32_t v = 0; v < e->value_count; v++) {
                if (e->values[v].value >= r->base && e->values[v].value < r->lim) {
                    FAIL(i, "a static enum value lies in the run-time range");
                }
            }
        }
    }
    for (uint32_t i = 0; i < meta->struct_count; i++) {
        const evrec_struct_desc_t *s = &meta->structs[i];
        if (!s->name || (s->field_count && !s->fields) || s->native_size > EVREC_MAX_EVENT_SIZE) {
            FAIL(i, "struct: missing name, NULL fields, or native size over 256 bytes");
        }
        for (uint32_t f = 0; f < s->field_count; f++) {
            const evrec_field_desc_t *fd = &s->fields[f];
            if (!fd->name || fd->kind > EVREC_KIND_STRUCT) {
                FAIL(i, "field: missing name or unknown kind");
            }
            if (fd->kind >= EVREC_KIND_ENUM_UINT8 && fd->kind <= EVREC_KIND_ENUM_UINT32 &&
                (fd->ref >= meta->enum_count || meta->enums[fd->ref].kind != fd->kind)) {
                FAIL(i, "enum field: enum id out of range or of another width");
            }
            if (fd->kind == EVREC_KIND_STRUCT && fd->ref >= meta->struct_count) {
                FAIL(i, "struct field: struct id out of range");
            }
            uint32_t n = native_field_size(meta, fd);
            if ((uint32_t)fd->offset + n > s->native_size) {
                FAIL(i, "field lies outside its struct's native size");
            }
        }
        if (packed_size(meta, i, 0) == 0 && s->field_count) {
            FAIL(i, "struct nesting is cyclic or deeper than EVREC_MAX_NESTING");
        }
    }
    for (uint32_t i = 0; i < meta->event_count; i++) {
        const evrec_event_desc_t *ev = &meta->events[i];
        if (ev->struct_id >= meta->struct_count) {
            FAIL(i, "event: struct id out of range");
        }
        const evrec_struct_desc_t *s = &meta->structs[ev->struct_id];
        if (s->field_count < 2 || s->fields[0].kind != EVREC_KIND_UINT32 || s->fields[0].offset != 0 ||
            s->fields[1].kind != EVREC_KIND_UINT16 || s->fields[1].offset != 4) {
            FAIL(i, "event struct does not start with u32 time at 0 and u16 id at 4");
        }
        if (s->native_size % EVREC_RECORD_ALIGN || s->native_size < 8) {
            FAIL(i, "event struct native size is not a multiple of 4");
        }
    }
    /* Event 0 is EventControl. */
    const evrec_struct_desc_t *c = &meta->structs[meta->events[0].struct_id];
    if (!str_eq(c->name, "EventControl") || c->field_count != 3 || c->native_size != 8 ||
        c->fields[2].kind != EVREC_KIND_ENUM_UINT8 || c->fields[2].offset != 6) {
        FAIL(0, "event 0 is not EventControl {u32 time, u16 id, enum_uint8 type}");
    }
    const evrec_enum_desc_t *ce = &meta->enums[c->fields[2].ref];
    static const char *const names[4] = {"Start", "Tick", "Stop", "End"};
    if (ce->value_count != 4) {
        FAIL(c->fields[2].ref, "EventControlType must have exactly Start, Tick, Stop, End");
    }
    for (uint32_t v = 0; v < 4; v++) {
        if (ce->values[v].value != v || !str_eq(ce->values[v].name, names[v])) {
            FAIL(c->fields[2].ref, "EventControlType must have exactly Start, Tick, Stop, End");
        }
    }
    return EVREC_OK;
}
