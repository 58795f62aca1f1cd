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

/* Native extent of a struct field: [offset, offset + size) must lie inside the parent. */
static uint32_t native_field_size(const evrec_meta_t *m, const evrec_field_desc_t *f)
{
    if (f->kind == EVREC_KIND_STRUCT) {
        return f->ref < m->struct_count ? m->structs[f->ref].native_size : 0;
    }
    return evrec_kind_width(f->kind);
}

/* The checks below return NULL when the item is good, else what is wrong with it. */

static const char *check_tables(const evrec_meta_t *meta)
{
    if ((meta->enum_count && !meta->enums) || (meta->struct_count && !meta->structs) || !meta->events ||
        meta->event_count == 0) {
        return "a table pointer is NULL or there are no events";
    }
    if (meta->event_count > EVREC_ID_NONE || meta->struct_count > 0xFFFFu || meta->enum_count > 0xFFFFu) {
        return "more than 65535 items in a table";
    }
    return NULL;
}

static const char *check_runtime(const evrec_enum_desc_t *e)
{
    const evrec_runtime_enum_t *r = e->runtime;
    if (!r->names || r->lim <= r->base || r->lim - 1u > kind_max(e->kind) || r->marker > EVREC_MARKER_ERROR) {
        return "run-time enum range empty, too wide for the kind, or without names";
    }
    for (uint32_t v = 0; v < e->value_count; v++) {
        if (e->values[v].value >= r->base && e->values[v].value < r->lim) {
            return "a static enum value lies in the run-time range";
        }
    }
    return NULL;
}

static const char *check_enum(const evrec_enum_desc_t *e)
{
    if (!e->name || e->kind < EVREC_KIND_ENUM_UINT8 || e->kind > EVREC_KIND_ENUM_UINT32 ||
        (e->value_count && !e->values)) {
        return "enum: missing name, kind not enum_uint8/16/32, or NULL values";
    }
    for (uint32_t v = 0; v < e->value_count; v++) {
        if (!e->values[v].name || e->values[v].value > kind_max(e->kind) ||
            e->values[v].marker > EVREC_MARKER_ERROR) {
            return "enum value: missing name, value too wide for the kind, or bad marker";
        }
        if (v && e->values[v].value <= e->values[v - 1].value) {
            return "enum values are not strictly ascending";
        }
    }
    return e->runtime ? check_runtime(e) : NULL;
}

static const char *check_field(const evrec_meta_t *meta, const evrec_struct_desc_t *s,
                               const evrec_field_desc_t *fd)
{
    if (!fd->name || fd->kind > EVREC_KIND_STRUCT) {
        return "field: missing name or unknown kind";
    }
    if (fd->kind >= EVREC_KIND_ENUM_UINT8 && fd->kind <= EVREC_KIND_ENUM_UINT32 &&
        (fd->ref >= meta->enum_count || meta->enums[fd->ref].kind != fd->kind)) {
        return "enum field: enum id out of range or of another width";
    }
    if (fd->kind == EVREC_KIND_STRUCT && fd->ref >= meta->struct_count) {
        return "struct field: struct id out of range";
    }
    if ((uint32_t)fd->offset + native_field_size(meta, fd) > s->native_size) {
        return "field lies outside its struct's native size";
    }
    return NULL;
}

static const char *check_struct(const evrec_meta_t *meta, uint32_t i)
{
    const evrec_struct_desc_t *s = &meta->structs[i];
    if (!s->name || (s->field_count && !s->fields) || s->native_size > EVREC_MAX_EVENT_SIZE) {
        return "struct: missing name, NULL fields, or native size over 256 bytes";
    }
    for (uint32_t f = 0; f < s->field_count; f++) {
        const char *why = check_field(meta, s, &s->fields[f]);
        if (why) {
            return why;
        }
    }
    if (packed_size(meta, i, 0) == 0 && s->field_count) {
        return "struct nesting is cyclic or deeper than EVREC_MAX_NESTING";
    }
    return NULL;
}

static const char *check_event(const evrec_meta_t *meta, const evrec_event_desc_t *ev)
{
    if (ev->struct_id >= meta->struct_count) {
        return "event: struct id out of range";
    }
    const evrec_struct_desc_t *s = &meta->structs[ev->struct_id];
    if (s->field_count < 2 || s->fields[0].kind != EVREC_KIND_UINT32 || s->fields[0].offset != 0 ||
        s->fields[1].kind != EVREC_KIND_UINT16 || s->fields[1].offset != 4) {
        return "event struct does not start with u32 time at 0 and u16 id at 4";
    }
    if (s->native_size % EVREC_RECORD_ALIGN || s->native_size < 8) {
        return "event struct native size is not a multiple of 4";
    }
    return NULL;
}

/* Event 0 is EventControl; *idx: the item at fault (event 0, or the enum of its type field). */
static const char *check_control(const evrec_meta_t *meta, uint32_t *idx)
{
    const evrec_struct_desc_t *c = &meta->structs[meta->events[0].struct_id];
    *idx = 0;
    if (!str_eq(c->name, "EventControl") || c->field_count != 3 || c->native_size != 8 ||
        c->fields[2].kind != EVREC_KIND_ENUM_UINT8 || c->fields[2].offset != 6) {
        return "event 0 is not EventControl {u32 time, u16 id, enum_uint8 type}";
    }
    const evrec_enum_desc_t *ce = &meta->enums[c->fields[2].ref];
    static const char *const names[4] = {"Start", "Tick", "Stop", "End"};
    *idx = c->fields[2].ref;
    if (ce->value_count != 4) {
        return "EventControlType must have exactly Start, Tick, Stop, End";
    }
    for (uint32_t v = 0; v < 4; v++) {
        if (ce->values[v].value != v || !str_eq(ce->values[v].name, names[v])) {
            return "EventControlType must have exactly Start, Tick, Stop, End";
        }
    }
    return NULL;
}

/* The first bad item: its index in *idx, what is wrong as the result; NULL when all are good. */
static const char *first_bad(const evrec_meta_t *meta, uint32_t *idx)
{
    const char *why = check_tables(meta);
    for (uint32_t i = 0; !why && i < meta->enum_count; i++) {
        why = check_enum(&meta->enums[i]);
        *idx = i;
    }
    for (uint32_t i = 0; !why && i < meta->struct_count; i++) {
        why = check_struct(meta, i);
        *idx = i;
    }
    for (uint32_t i = 0; !why && i < meta->event_count; i++) {
        why = check_event(meta, &meta->events[i]);
        *idx = i;
    }
    return why ? why : check_control(meta, idx);
}

evrec_status evrec_meta_validate(const evrec_meta_t *meta, uint32_t *bad_index, const char **what)
{
    if (!meta) {
        return EVREC_E_ARG;
    }
    uint32_t idx = 0;
    const char *why = first_bad(meta, &idx);
    if (!why) {
        return EVREC_OK;
    }
    if (bad_index) {
        *bad_index = idx;
    }
    if (what) {
        *what = why;
    }
    return EVREC_E_META;
}
