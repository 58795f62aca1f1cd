/* SPDX-License-Identifier: Apache-2.0 */
/* The catalogue contract: a meta-info holds the RTOS catalogue when it holds every one of the
 * catalogue's events with the catalogue's layout (struct name, fields in order with their names
 * and kinds, the enums they refer to by name, kind and values, and the class lanes): the
 * catalogue's identity as a set, not a few event names an application may use for events of its
 * own. Its fields are then found by name. See ports/rtos/README.md. */
#include <stdio.h>
#include <string.h>

#include "analysis_internal.h"

/* ---- the catalogue as ports/rtos/rtos.yaml defines it ----
 * A change to rtos.yaml must be mirrored here (tests/stats checks that the generated catalogue
 * is recognised); a future version of the catalogue would be a second table, tried in turn. */

typedef struct cat_value {
    const char *name;
    uint32_t value;
} cat_value_t;

typedef struct cat_enum {
    const char *name;
    uint8_t kind;
    uint8_t runtime; /* 1: names allocated at run time may follow the static values in a file */
    uint8_t count;
    const cat_value_t *values;
} cat_enum_t;

enum { E_TASK, E_ISR, E_OBJECT, E_RESUME, E_SUSPEND, E_INTCTL, E_MUTEX, E_SEM, E_QUEUE, E_EVENT, E_NONE };

static const cat_value_t v_task[] = {{"Idle", 0}, {"NoTask", 0xFFFF}};
static const cat_value_t v_isr[] = {{"UnknownIsr", 0}};
static const cat_value_t v_object[] = {{"UnknownObject", 0}};
static const cat_value_t v_resume[] = {{"Resume", 2}, {"ResumeFromIsr", 3}, {"Start", 16}};
static const cat_value_t v_suspend[] = {{"Preempted", 0}, {"Yield", 1},     {"Blocked", 2},
                                        {"Delay", 3},     {"Suspended", 4}, {"Exit", 5}};
static const cat_value_t v_intctl[] = {
    {"Disable", 7}, {"Restore", 8}, {"DisableNested", 39}, {"RestoreEnable", 40}};
static const cat_value_t v_mutex[] = {{"Lock", 0}, {"Unlock", 1}, {"Block", 2}, {"Unblock", 3}, {"Timeout", 4}};
static const cat_value_t v_sem[] = {{"Give", 0}, {"Take", 1}, {"Block", 2}, {"Unblock", 3}, {"Timeout", 4}};
static const cat_value_t v_queue[] = {{"Send", 0}, {"Receive", 1}, {"Block", 2}, {"Unblock", 3}, {"Timeout", 4}};
static const cat_value_t v_event[] = {{"Set", 0}, {"Consume", 1}, {"Block", 2}, {"Unblock", 3}, {"Timeout", 4}};

#define CAT_ENUM(name, kind, rt, v)                                                                               \
    {                                                                                                             \
        name, kind, rt, (uint8_t)(sizeof v / sizeof v[0]), v                                                      \
    }
static const cat_enum_t cat_enums[] = {
    CAT_ENUM("RtosTask", EVREC_KIND_ENUM_UINT16, 1, v_task),
    CAT_ENUM("RtosIsr", EVREC_KIND_ENUM_UINT16, 1, v_isr),
    CAT_ENUM("RtosObject", EVREC_KIND_ENUM_UINT16, 1, v_object),
    CAT_ENUM("RtosResume", EVREC_KIND_ENUM_UINT8, 0, v_resume),
    CAT_ENUM("RtosSuspend", EVREC_KIND_ENUM_UINT8, 0, v_suspend),
    CAT_ENUM("RtosIntControl", EVREC_KIND_ENUM_UINT8, 0, v_intctl),
    CAT_ENUM("RtosMutexOp", EVREC_KIND_ENUM_UINT8, 0, v_mutex),
    CAT_ENUM("RtosSemOp", EVREC_KIND_ENUM_UINT8, 0, v_sem),
    CAT_ENUM("RtosQueueOp", EVREC_KIND_ENUM_UINT8, 0, v_queue),
    CAT_ENUM("RtosEventOp", EVREC_KIND_ENUM_UINT8, 0, v_event),
};

typedef struct cat_field {
    const char *name;
    uint8_t kind;
    uint8_t enum_ix; /* index in cat_enums for enum kinds, else E_NONE */
} cat_field_t;

typedef struct role_spec {
    const char *event;
    an_role role;
    const char *class_of; /* the event whose lane it shares (itself when it has its own) */
    uint32_t field_count; /* after time and id */
    cat_field_t fields[3];
} role_spec_t;

#define F_ENUM16(n, e)                                                                                            \
    {                                                                                                             \
        n, EVREC_KIND_ENUM_UINT16, e                                                                              \
    }
#define F_ENUM8(n, e)                                                                                             \
    {                                                                                                             \
        n, EVREC_KIND_ENUM_UINT8, e                                                                               \
    }
static const role_spec_t specs[] = {
    {"TaskSwitchIn", AN_SWITCH_IN, "TaskSwitchIn", 2, {F_ENUM16("task", E_TASK), F_ENUM8("type", E_RESUME)}},
    {"TaskSwitchOut", AN_SWITCH_OUT, "TaskSwitchIn", 2, {F_ENUM16("task", E_TASK), F_ENUM8("type", E_SUSPEND)}},
    {"IsrEnter", AN_ISR_ENTER, "IsrEnter", 2, {F_ENUM16("isr", E_ISR), {"vector", EVREC_KIND_UINT16, E_NONE}}},
    {"IsrExit", AN_ISR_EXIT, "IsrEnter", 2, {F_ENUM16("isr", E_ISR), {"vector", EVREC_KIND_UINT16, E_NONE}}},
    {"IdleSleep", AN_IDLE_SLEEP, "IdleSleep", 0, {{NULL, 0, E_NONE}}},
    {"IdleWake", AN_IDLE_WAKE, "IdleSleep", 0, {{NULL, 0, E_NONE}}},
    {"IntControl",
     AN_INT_CONTROL,
     "IntControl",
     2,
     {F_ENUM8("type", E_INTCTL), {"caller", EVREC_KIND_UINT32, E_NONE}}},
    {"MutexOp",
     AN_SYNC,
     "MutexOp",
     3,
     {F_ENUM16("task", E_TASK), F_ENUM16("object", E_OBJECT), F_ENUM8("type", E_MUTEX)}},
    {"SemOp",
     AN_SYNC,
     "SemOp",
     3,
     {F_ENUM16("task", E_TASK), F_ENUM16("object", E_OBJECT), F_ENUM8("type", E_SEM)}},
    {"QueueOp",
     AN_SYNC,
     "QueueOp",
     3,
     {F_ENUM16("task", E_TASK), F_ENUM16("object", E_OBJECT), F_ENUM8("type", E_QUEUE)}},
    {"EventOp",
     AN_SYNC,
     "EventOp",
     3,
     {F_ENUM16("task", E_TASK), F_ENUM16("object", E_OBJECT), F_ENUM8("type", E_EVENT)}},
};
#define SPEC_COUNT (sizeof specs / sizeof specs[0])

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

/* A sync event's wait values by name (its type field's Block, Unblock, Timeout; UINT32_MAX when absent). */
static void wait_values(const evrec_meta_t *m, an_event_t *e)
{
    e->block_v = named_value(m, &e->type, "Block");
    e->unblock_v = named_value(m, &e->type, "Unblock");
    e->timeout_v = named_value(m, &e->type, "Timeout");
}

/* The struct of event `id` when it is named `name` with `field_count` fields, else NULL. */
static const evrec_struct_desc_t *struct_named(const evrec_meta_t *m, uint32_t id, const char *name,
                                               uint32_t field_count)
{
    if (id >= m->event_count) {
        return NULL;
    }
    uint16_t sid = m->events[id].struct_id;
    if (sid >= m->struct_count || !m->structs[sid].name || strcmp(m->structs[sid].name, name) != 0 ||
        m->structs[sid].field_count != field_count) {
        return NULL;
    }
    return &m->structs[sid];
}

static void append(char *buf, size_t size, const char *event, const char *what)
{
    size_t len = strlen(buf);
    if (len + 1 < size) {
        snprintf(buf + len, size - len, "%s%s: %s", len ? "; " : "", event, what);
    }
}

/* 1 when enum `ix` of the meta-info is the catalogue's enum `ce`. */
static int enum_is(const evrec_meta_t *m, uint32_t ix, const cat_enum_t *ce)
{
    if (ix >= m->enum_count) {
        return 0;
    }
    const evrec_enum_desc_t *ed = &m->enums[ix];
    if (!ed->name || strcmp(ed->name, ce->name) != 0 || ed->kind != ce->kind) {
        return 0;
    }
    if (ce->runtime ? ed->value_count < ce->count : ed->value_count != ce->count) {
        return 0;
    }
    for (uint32_t k = 0; k < ce->count; k++) {
        int found = 0;
        for (uint32_t i = 0; i < ed->value_count && !found; i++) {
            found = ed->values[i].value == ce->values[k].value && ed->values[i].name &&
                    strcmp(ed->values[i].name, ce->values[k].name) == 0;
        }
        if (!found) {
            return 0;
        }
    }
    return 1;
}

/* Event id whose struct is named `name`, or -1. */
static int64_t event_named(const evrec_meta_t *m, const char *name)
{
    for (uint32_t id = 0; id < m->event_count; id++) {
        uint16_t sid = m->events[id].struct_id;
        if (sid < m->struct_count && m->structs[sid].name && strcmp(m->structs[sid].name, name) == 0) {
            return id;
        }
    }
    return -1;
}

/* NULL when event `id` has the layout of `spec`, else what differs. */
static const char *layout_differs(const evrec_meta_t *m, uint32_t id, const role_spec_t *spec)
{
    const evrec_struct_desc_t *sd = &m->structs[m->events[id].struct_id];
    if (sd->field_count != 2u + spec->field_count) {
        return "other fields than the catalogue's";
    }
    if (!sd->fields[0].name || strcmp(sd->fields[0].name, "time") != 0 ||
        sd->fields[0].kind != EVREC_KIND_UINT32 || !sd->fields[1].name || strcmp(sd->fields[1].name, "id") != 0 ||
        sd->fields[1].kind != EVREC_KIND_UINT16) {
        return "not an event struct (time, id first)";
    }
    for (uint32_t j = 0; j < spec->field_count; j++) {
        const evrec_field_desc_t *f = &sd->fields[2u + j];
        const cat_field_t *cf = &spec->fields[j];
        if (!f->name || strcmp(f->name, cf->name) != 0 || f->kind != cf->kind) {
            return "other fields than the catalogue's";
        }
        if (cf->enum_ix != E_NONE && !enum_is(m, f->ref, &cat_enums[cf->enum_ix])) {
            return "a field's enum is not the catalogue's";
        }
    }
    uint16_t cls = m->events[id].class_id;
    uint16_t csid = cls < m->event_count ? m->events[cls].struct_id : 0xFFFFu;
    if (csid >= m->struct_count || !m->structs[csid].name || strcmp(m->structs[csid].name, spec->class_of) != 0) {
        return "another class than the catalogue's";
    }
    return NULL;
}

uint32_t an_catalogue_find(const evrec_meta_t *m, an_event_t *roles, char *mismatch, size_t mismatch_size)
{
    for (uint32_t id = 0; id < m->event_count; id++) {
        memset(&roles[id], 0, sizeof roles[id]);
    }
    /* The catalogue is there when all of its events are, each with its layout. */
    int64_t ids[SPEC_COUNT];
    uint32_t same = 0;
    char why[512];
    why[0] = '\0';
    for (size_t k = 0; k < SPEC_COUNT; k++) {
        ids[k] = event_named(m, specs[k].event);
        const char *d = ids[k] < 0 ? "missing" : layout_differs(m, (uint32_t)ids[k], &specs[k]);
        if (d) {
            append(why, sizeof why, specs[k].event, d);
            ids[k] = -1;
        } else {
            same++;
        }
    }
    if (same != SPEC_COUNT) {
        /* Events that only share names with the catalogue are the application's own: say
         * nothing unless part of the catalogue is really there. */
        if (same > 0 && mismatch_size) {
            snprintf(mismatch, mismatch_size, "not the whole catalogue of ports/rtos/rtos.yaml: %s", why);
        }
        return 0;
    }
    for (size_t k = 0; k < SPEC_COUNT; k++) {
        uint32_t id = (uint32_t)ids[k];
        const evrec_struct_desc_t *sd = &m->structs[m->events[id].struct_id];
        an_event_t e;
        memset(&e, 0, sizeof e);
        for (uint32_t j = 0; j < specs[k].field_count; j++) {
            const char *fname = specs[k].fields[j].name;
            (void)find_field(m, sd, fname, field_slot(&e, fname)); /* the layout says it is there */
        }
        e.role = specs[k].role;
        wait_values(m, &e);
        roles[id] = e;
    }
    return SPEC_COUNT;
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

/* ---- the kernel ports' task lifecycle events (ports/rtos/freertos/freertos.yaml,
 * ports/rtos/threadx/threadx.yaml): TaskReady {task}, TaskCreate/TaskDelete {task, priority} ---- */

/* 1 when event `id` is named `name` and has the fields time, id, task: RtosTask, then `extra`
 * more uint16 fields named `priority`; the task field into *task. */
static int lifecycle_is(const evrec_meta_t *m, uint32_t id, const char *name, uint32_t extra, an_field_t *task)
{
    uint16_t sid = m->events[id].struct_id;
    if (sid >= m->struct_count || !m->structs[sid].name || strcmp(m->structs[sid].name, name) != 0) {
        return 0;
    }
    const evrec_struct_desc_t *sd = &m->structs[sid];
    if (sd->field_count != 3u + extra || !sd->fields[0].name || strcmp(sd->fields[0].name, "time") != 0 ||
        !sd->fields[1].name || strcmp(sd->fields[1].name, "id") != 0) {
        return 0;
    }
    const evrec_field_desc_t *f = &sd->fields[2];
    if (!f->name || strcmp(f->name, "task") != 0 || !enum_is(m, f->ref, &cat_enums[E_TASK]) ||
        f->kind != EVREC_KIND_ENUM_UINT16) {
        return 0;
    }
    if (extra && (!sd->fields[3].name || strcmp(sd->fields[3].name, "priority") != 0 ||
                  sd->fields[3].kind != EVREC_KIND_UINT16)) {
        return 0;
    }
    return an_field_at(m, sd, 2, task);
}

an_life an_catalogue_lifecycle(const evrec_meta_t *m, uint32_t id, an_field_t *task)
{
    if (id >= m->event_count) {
        return AN_LIFE_NONE;
    }
    if (lifecycle_is(m, id, "TaskReady", 0, task)) {
        return AN_LIFE_READY;
    }
    if (lifecycle_is(m, id, "TaskCreate", 1, task)) {
        return AN_LIFE_CREATE;
    }
    if (lifecycle_is(m, id, "TaskDelete", 1, task)) {
        return AN_LIFE_DELETE;
    }
    return AN_LIFE_NONE;
}

/* ---- the FreeRTOS port's task notifications (ports/rtos/freertos/freertos.yaml NotifyOp) ---- */

/* 1 when field `ix` of `sd` is named `name`, of kind `kind`, and (enum_name not NULL) refers to
 * the enum so named. */
static int field_is(const evrec_meta_t *m, const evrec_struct_desc_t *sd, uint32_t ix, const char *name,
                    uint8_t kind, const char *enum_name)
{
    const evrec_field_desc_t *f = &sd->fields[ix];
    if (!f->name || strcmp(f->name, name) != 0 || f->kind != kind) {
        return 0;
    }
    if (!enum_name) {
        return 1;
    }
    return f->ref < m->enum_count && m->enums[f->ref].name && strcmp(m->enums[f->ref].name, enum_name) == 0;
}

int an_catalogue_notify(const evrec_meta_t *m, uint32_t id, an_event_t *out)
{
    const evrec_struct_desc_t *sd = struct_named(m, id, "NotifyOp", 6u);
    if (!sd || !field_is(m, sd, 0, "time", EVREC_KIND_UINT32, NULL) ||
        !field_is(m, sd, 1, "id", EVREC_KIND_UINT16, NULL) ||
        !field_is(m, sd, 2, "task", EVREC_KIND_ENUM_UINT16, "RtosTask") ||
        !field_is(m, sd, 3, "giver", EVREC_KIND_ENUM_UINT16, "RtosTask") ||
        !field_is(m, sd, 4, "type", EVREC_KIND_ENUM_UINT8, "RtosNotifyOp") ||
        !field_is(m, sd, 5, "index", EVREC_KIND_UINT8, NULL)) {
        return 0;
    }
    memset(out, 0, sizeof *out);
    if (!an_field_at(m, sd, 2, &out->task) || !an_field_at(m, sd, 4, &out->type)) {
        return 0;
    }
    out->role = AN_SYNC;
    wait_values(m, out);
    return 1;
}

/* ---- the ThreadX port's pool operations (ports/rtos/threadx/threadx.yaml PoolOp) ---- */

int an_catalogue_pool(const evrec_meta_t *m, uint32_t id, an_event_t *out)
{
    const evrec_struct_desc_t *sd = struct_named(m, id, "PoolOp", 5u);
    if (!sd || !field_is(m, sd, 0, "time", EVREC_KIND_UINT32, NULL) ||
        !field_is(m, sd, 1, "id", EVREC_KIND_UINT16, NULL) ||
        !field_is(m, sd, 2, "task", EVREC_KIND_ENUM_UINT16, "RtosTask") ||
        !field_is(m, sd, 3, "object", EVREC_KIND_ENUM_UINT16, "RtosObject") ||
        !field_is(m, sd, 4, "type", EVREC_KIND_ENUM_UINT8, "RtosPoolOp")) {
        return 0;
    }
    memset(out, 0, sizeof *out);
    if (!an_field_at(m, sd, 2, &out->task) || !an_field_at(m, sd, 3, &out->object) ||
        !an_field_at(m, sd, 4, &out->type)) {
        return 0;
    }
    out->role = AN_SYNC;
    wait_values(m, out);
    return 1;
}
