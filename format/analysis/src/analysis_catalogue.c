/* SPDX-License-Identifier: Apache-2.0 */
/* The catalogue contract: which events of a meta-info are the RTOS catalogue's (by struct name)
 * and where their fields are (by field name). See ports/rtos/README.md. */
#include <stdio.h>
#include <string.h>

#include "analysis_internal.h"

typedef struct role_spec {
    const char *event;
    an_role role;
    const char *fields[3]; /* required top-level integer fields */
} role_spec_t;

static const role_spec_t specs[] = {
    {"TaskSwitchIn", AN_SWITCH_IN, {"task", NULL, NULL}},
    {"TaskSwitchOut", AN_SWITCH_OUT, {"task", NULL, NULL}},
    {"IsrEnter", AN_ISR_ENTER, {"isr", NULL, NULL}},
    {"IsrExit", AN_ISR_EXIT, {"isr", NULL, NULL}},
    {"IdleSleep", AN_IDLE_SLEEP, {NULL, NULL, NULL}},
    {"IdleWake", AN_IDLE_WAKE, {NULL, NULL, NULL}},
    {"IntControl", AN_INT_CONTROL, {"type", "caller", NULL}},
    {"MutexOp", AN_SYNC, {"task", "object", "type"}},
    {"SemOp", AN_SYNC, {"task", "object", "type"}},
    {"QueueOp", AN_SYNC, {"task", "object", "type"}},
    {"EventOp", AN_SYNC, {"task", "object", "type"}},
};


int an_field_at(const evrec_meta_t *m, const evrec_struct_desc_t *sd, uint32_t index, an_field_t *out)
{
    if (index >= sd->field_count) {
        return 0;
    }
    const evrec_field_desc_t *f = &sd->fields[index];
    uint8_t size = (uint8_t)evrec_kind_width(f->kind);
    if (size == 0) {
        return 0;
    }
    memset(out, 0, sizeof *out);
    out->present = 1;
    out->offset = f->offset;
    out->size = size;
    out->kind = f->kind;
    out->is_enum = f->kind >= EVREC_KIND_ENUM_UINT8 && f->ref < m->enum_count;
    out->enum_id = out->is_enum ? f->ref : 0;
    return 1;
}

/* Find a top-level field by name: 1 found and usable, 0 absent, -1 present but not an integer. */
static int find_field(const evrec_meta_t *m, const evrec_struct_desc_t *sd, const char *name, an_field_t *out)
{
    for (uint32_t i = 0; i < sd->field_count; i++) {
        const evrec_field_desc_t *f = &sd->fields[i];
        if (strcmp(f->name, name) != 0) {
            continue;
        }
        uint8_t size = (uint8_t)evrec_kind_width(f->kind);
        if (size == 0) {
            return -1;
        }
        out->present = 1;
        out->offset = f->offset; /* packed offset in tables read from a file */
        out->size = size;
        out->kind = f->kind;
        out->is_enum = f->kind >= EVREC_KIND_ENUM_UINT8;
        out->enum_id = out->is_enum && f->ref < m->enum_count ? f->ref : 0;
        if (out->is_enum && f->ref >= m->enum_count) {
            out->is_enum = 0;
        }
        return 1;
    }
    return 0;
}

static an_field_t *field_slot(an_event_t *e, const char *name)
{
    if (strcmp(name, "task") == 0) return &e->task;
    if (strcmp(name, "isr") == 0) return &e->isr;
    if (strcmp(name, "vector") == 0) return &e->vector;
    if (strcmp(name, "type") == 0) return &e->type;
    if (strcmp(name, "caller") == 0) return &e->caller;
    return &e->object;
}

static uint32_t named_value(const evrec_meta_t *m, const an_field_t *f, const char *name)
{
    if (!f->is_enum) {
        return UINT32_MAX;
    }
    const evrec_enum_desc_t *ed = &m->enums[f->enum_id];
    for (uint32_t i = 0; i < ed->value_count; i++) {
        if (strcmp(ed->values[i].name, name) == 0) {
            return ed->values[i].value;
        }
    }
    return UINT32_MAX;
}

static void append(char *buf, size_t size, const char *event, const char *what, const char *field)
{
    size_t len = strlen(buf);
    if (len + 1 < size) {
        snprintf(buf + len, size - len, "%s%s: %s '%s'", len ? "; " : "", event, what, field);
    }
}

uint32_t an_catalogue_find(const evrec_meta_t *m, an_event_t *roles, char *mismatch, size_t mismatch_size)
{
    uint32_t found = 0;
    for (uint32_t id = 0; id < m->event_count; id++) {
        memset(&roles[id], 0, sizeof roles[id]);
        uint16_t sid = m->events[id].struct_id;
        if (sid >= m->struct_count) {
            continue;
        }
        const evrec_struct_desc_t *sd = &m->structs[sid];
        for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
            if (strcmp(sd->name, specs[k].event) != 0) {
                continue;
            }
            an_event_t e;
            memset(&e, 0, sizeof e);
            int ok = 1;
            for (int j = 0; j < 3 && specs[k].fields[j]; j++) {
                const char *fname = specs[k].fields[j];
                int rc = find_field(m, sd, fname, field_slot(&e, fname));
                if (rc <= 0) {
                    append(mismatch, mismatch_size, sd->name,
                           rc == 0 ? "has no field" : "is not an integer or enum of at most 32 bits:", fname);
                    ok = 0;
                }
            }
            if (!ok) {
                break;
            }
            if (specs[k].role == AN_ISR_ENTER || specs[k].role == AN_ISR_EXIT) {
                if (find_field(m, sd, "vector", &e.vector) < 0) {
                    e.vector.present = 0;
                }
            }
            e.role = specs[k].role;
            e.block_v = named_value(m, &e.type, "Block");
            e.unblock_v = named_value(m, &e.type, "Unblock");
            e.timeout_v = named_value(m, &e.type, "Timeout");
            roles[id] = e;
            found++;
            break;
        }
    }
    return found;
}

uint32_t an_field_value(const an_field_t *f, const evrec_record_t *rec)
{
    if (!f->present || (uint64_t)f->offset + f->size > rec->size) {
        return 0;
    }
    const uint8_t *p = rec->data + f->offset;
    switch (f->size) {
    case 1: return p[0];
    case 2: return (uint32_t)p[0] << 8 | p[1];
    default: return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    }
}
