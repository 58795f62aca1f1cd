/* SPDX-License-Identifier: Apache-2.0 */
/* The task-state model (evrec_sched.h): one state per task, one running task per core, intervals
 * reported when they end. The rules are in the header. */
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"
#include "evrec/evrec_sched.h"

enum { RS_BLOCKED = 2, RS_DELAY = 3, RS_SUSPENDED = 4, RS_EXIT = 5, RS_PREEMPTED = 0, RS_YIELD = 1 };
#define NO_TASK_VALUE 0xFFFFu
#define NONE UINT32_MAX

typedef struct sc_point {
    uint64_t index, t64, ns;
} sc_point_t;

typedef struct sc_task {
    uint32_t value;
    const char *name;
    int open; /* an interval is open (state below); 0: unknown or DEAD */
    int dead;
    evrec_task_state_t state;
    unsigned cause;
    uint16_t core; /* RUNNING: its core; else the last one it ran on */
    uint16_t obj_event;
    uint32_t object;
    sc_point_t begin;
    unsigned flags;
    int dying;           /* deleted while running */
    uint16_t pend_event; /* a Block seen while it ran: the object of its next BLOCKED */
    uint32_t pend_object;
} sc_task_t;

typedef struct sc_role {
    an_role role; /* from the catalogue */
    an_life life; /* lifecycle events */
    an_field_t task;
    int notify; /* the FreeRTOS port's NotifyOp: its Block is a wait on "notification" */
} sc_role_t;

/* The object name of a wait on a task notification (it has no object). */
static const char notification_name[] = "notification";

struct evrec_sched {
    const evrec_reader_t *r;
    const evrec_meta_t *m;
    evrec_task_interval_fn fn;
    void *ctx;
    an_event_t *cat;    /* per event: the catalogue's roles and fields */
    sc_role_t *roles;   /* per event */
    uint16_t task_enum; /* the RtosTask enum id (names) */
    uint16_t object_enum;
    int has_object_enum;
    sc_task_t *tasks;
    uint32_t task_count, task_cap;
    an_map_t task_map;
    uint32_t *running; /* per core: index in tasks, or NONE */
    uint32_t core_cap;
    sc_point_t since; /* the first record since the state became unknown */
    sc_point_t last;
    int have_since;
    uint64_t anomalies;
    int nomem;
};

static void report(evrec_sched_t *s, sc_task_t *t, const sc_point_t *end, unsigned flags, unsigned next)
{
    if (!t->open) {
        return;
    }
    t->open = 0;
    if (!s->fn) {
        return;
    }
    evrec_task_interval_t iv;
    memset(&iv, 0, sizeof iv);
    iv.task = t->value;
    iv.task_name = t->name;
    iv.state = t->state;
    iv.cause = t->cause;
    iv.core = t->core;
    iv.object_event = t->obj_event;
    iv.object = t->object;
    if (t->obj_event != EVREC_SCHED_NONE && s->roles[t->obj_event].notify) {
        iv.object_name = notification_name;
    } else if (t->obj_event != EVREC_SCHED_NONE && s->has_object_enum) {
        iv.object_name = evrec_reader_enum_value(s->r, s->object_enum, t->object, NULL);
    }
    iv.begin_index = t->begin.index;
    iv.begin_t64 = t->begin.t64;
    iv.begin_ns = t->begin.ns;
    iv.end_index = end->index;
    iv.end_t64 = end->t64;
    iv.end_ns = end->ns;
    iv.flags = t->flags | flags;
    iv.next_state = next;
    s->fn(s->ctx, &iv);
}

/* Open a state at `at` (the current interval must be closed). */
static void enter(sc_task_t *t, evrec_task_state_t st, unsigned cause, const sc_point_t *at, unsigned flags)
{
    t->open = 1;
    t->dead = 0;
    t->state = st;
    t->cause = cause;
    t->obj_event = EVREC_SCHED_NONE;
    t->object = 0;
    t->begin = *at;
    t->flags = flags;
}

/* DEAD: reported at once, begin = end. */
static void die(evrec_sched_t *s, sc_task_t *t, const sc_point_t *at)
{
    report(s, t, at, 0, EVREC_TASK_DEAD);
    enter(t, EVREC_TASK_DEAD, RS_EXIT, at, 0);
    report(s, t, at, 0, 0);
    t->dead = 1;
    t->dying = 0;
    t->pend_event = EVREC_SCHED_NONE;
}

static uint32_t task_index(evrec_sched_t *s, uint32_t value)
{
    uint32_t ix = an_map_get(&s->task_map, value);
    if (ix != UINT32_MAX) {
        return ix;
    }
    if (an_grow((void **)&s->tasks, &s->task_cap, s->task_count, sizeof *s->tasks) != 0 ||
        an_map_put(&s->task_map, value, s->task_count) != 0) {
        s->nomem = 1;
        return NONE;
    }
    sc_task_t *t = &s->tasks[s->task_count];
    memset(t, 0, sizeof *t);
    t->value = value;
    t->name = evrec_reader_enum_value(s->r, s->task_enum, value, NULL);
    t->core = EVREC_LANE_UNKNOWN;
    t->obj_event = EVREC_SCHED_NONE;
    t->pend_event = EVREC_SCHED_NONE;
    return s->task_count++;
}

/* The running slot of a core (grown on demand); NULL when out of memory. */
static uint32_t *core_slot(evrec_sched_t *s, uint16_t core)
{
    if (core >= s->core_cap) {
        uint32_t cap = (uint32_t)core + 1u;
        uint32_t *p = realloc(s->running, cap * sizeof *p);
        if (!p) {
            s->nomem = 1;
            return NULL;
        }
        for (uint32_t k = s->core_cap; k < cap; k++) {
            p[k] = NONE;
        }
        s->running = p;
        s->core_cap = cap;
    }
    return &s->running[core];
}

/* A task leaves RUNNING (at `at`) into `st`; its core is freed. */
static void leave_running(evrec_sched_t *s, sc_task_t *t, uint32_t ix, const sc_point_t *at, unsigned next)
{
    if (t->open && t->state == EVREC_TASK_RUNNING && t->core < s->core_cap && s->running[t->core] == ix) {
        s->running[t->core] = NONE;
    }
    report(s, t, at, 0, next);
}

static int waits_notification(const evrec_sched_t *s, const sc_task_t *t, unsigned why);

/* The state a switch-out reason leads to. */
static unsigned next_of(const evrec_sched_t *s, const sc_task_t *t, unsigned why)
{
    if (t->dying || why == RS_EXIT) {
        return EVREC_TASK_DEAD;
    }
    switch (why) {
    case RS_PREEMPTED:
    case RS_YIELD: return EVREC_TASK_READY;
    case RS_SUSPENDED: return waits_notification(s, t, why) ? EVREC_TASK_BLOCKED : EVREC_TASK_SUSPENDED;
    default: return EVREC_TASK_BLOCKED;
    }
}

/* A Delay or Suspended switch-out after a notification's Block (the task's state list is a delayed
 * or the suspended list, its event item on no object's list): Blocked on the notification. */
static int waits_notification(const evrec_sched_t *s, const sc_task_t *t, unsigned why)
{
    return (why == RS_DELAY || why == RS_SUSPENDED) && t->pend_event != EVREC_SCHED_NONE &&
           s->roles[t->pend_event].notify;
}

static void after_switch_out(evrec_sched_t *s, sc_task_t *t, unsigned why, const sc_point_t *at)
{
    if (t->dying || why == RS_EXIT) {
        die(s, t, at);
        return;
    }
    if (waits_notification(s, t, why)) {
        why = RS_BLOCKED;
    }
    switch (why) {
    case RS_PREEMPTED: enter(t, EVREC_TASK_READY, EVREC_READY_PREEMPTED, at, 0); break;
    case RS_YIELD: enter(t, EVREC_TASK_READY, EVREC_READY_YIELD, at, 0); break;
    case RS_SUSPENDED: enter(t, EVREC_TASK_SUSPENDED, why, at, 0); break;
    case RS_BLOCKED:
        enter(t, EVREC_TASK_BLOCKED, why, at, 0);
        t->obj_event = t->pend_event;
        t->object = t->pend_object;
        break;
    case RS_DELAY: enter(t, EVREC_TASK_BLOCKED, why, at, 0); break;
    default: enter(t, EVREC_TASK_BLOCKED, EVREC_SCHED_NO_CAUSE, at, 0); break;
    }
    t->pend_event = EVREC_SCHED_NONE;
}

static void on_switch_in(evrec_sched_t *s, uint32_t value, uint16_t core, const sc_point_t *at)
{
    uint32_t *slot = core_slot(s, core);
    uint32_t ix = task_index(s, value);
    if (!slot || ix == NONE) {
        return;
    }
    if (*slot == ix) {
        return; /* already running here: a return from an interrupt */
    }
    if (*slot != NONE) { /* the previous task was switched out without a record: preempted */
        uint32_t prev = *slot;
        sc_task_t *p = &s->tasks[prev];
        leave_running(s, p, prev, at, next_of(s, p, RS_PREEMPTED));
        after_switch_out(s, p, RS_PREEMPTED, at);
    }
    sc_task_t *t = &s->tasks[ix];
    if (t->open && t->state == EVREC_TASK_RUNNING) {
        leave_running(s, t, ix, at,
                      EVREC_TASK_RUNNING); /* it migrated: its switch-out on the other core is missing */
    }
    report(s, t, at, 0, EVREC_TASK_RUNNING);
    enter(t, EVREC_TASK_RUNNING, EVREC_SCHED_NO_CAUSE, at, 0);
    t->core = core;
    s->running[core] = ix;
}

static void on_switch_out(evrec_sched_t *s, uint32_t value, unsigned why, uint16_t core, const sc_point_t *at)
{
    uint32_t ix = task_index(s, value);
    uint32_t *slot = core_slot(s, core);
    if (ix == NONE || !slot) {
        return;
    }
    sc_task_t *t = &s->tasks[ix];
    if (t->dead && why == RS_EXIT) {
        return; /* deleted already (TaskDelete of a task that was not known to run) */
    }
    if (!t->open && !t->dead) { /* running since the state became unknown */
        if (*slot != NONE) {
            s->anomalies++; /* another task is known to run on that core */
        } else {
            enter(t, EVREC_TASK_RUNNING, EVREC_SCHED_NO_CAUSE, &s->since, EVREC_SCHED_NO_BEGIN);
            t->core = core;
        }
    } else if (!t->open || t->state != EVREC_TASK_RUNNING || t->core != core) {
        s->anomalies++;
    }
    if (t->open && t->state == EVREC_TASK_RUNNING) {
        leave_running(s, t, ix, at, next_of(s, t, why));
    } else {
        report(s, t, at, 0, next_of(s, t, why));
    }
    if (*slot == ix) {
        *slot = NONE;
    }
    after_switch_out(s, t, why, at);
}

/* TaskReady, Unblock or Timeout naming the task: a wake-up when it waits. */
static void on_wake(evrec_sched_t *s, uint32_t value, const sc_point_t *at)
{
    uint32_t ix = task_index(s, value);
    if (ix == NONE) {
        return;
    }
    sc_task_t *t = &s->tasks[ix];
    t->pend_event = EVREC_SCHED_NONE;
    if (t->open && (t->state == EVREC_TASK_READY || t->state == EVREC_TASK_RUNNING)) {
        return;
    }
    report(s, t, at, 0, EVREC_TASK_READY);
    enter(t, EVREC_TASK_READY, EVREC_READY_WOKEN, at, 0);
}

static void on_block(evrec_sched_t *s, uint32_t value, uint16_t event, uint32_t object)
{
    uint32_t ix = task_index(s, value);
    if (ix == NONE) {
        return;
    }
    sc_task_t *t = &s->tasks[ix];
    if (t->open && t->state == EVREC_TASK_BLOCKED && t->obj_event == EVREC_SCHED_NONE) {
        t->obj_event = event; /* recorded after the switch-out */
        t->object = object;
        return;
    }
    t->pend_event = event;
    t->pend_object = object;
}

static void on_delete(evrec_sched_t *s, uint32_t value, const sc_point_t *at)
{
    uint32_t ix = task_index(s, value);
    if (ix == NONE) {
        return;
    }
    sc_task_t *t = &s->tasks[ix];
    if (t->open && t->state == EVREC_TASK_RUNNING) {
        t->dying = 1; /* it deletes itself: dead at its switch-out */
        return;
    }
    if (!t->dead) {
        die(s, t, at);
    }
}

/* A catalogue sync operation. */
static void on_sync(evrec_sched_t *s, const an_event_t *e, const evrec_record_t *rec, const sc_point_t *at)
{
    uint32_t task = an_field_value(&e->task, rec);
    if (task == NO_TASK_VALUE) {
        return;
    }
    uint32_t type = an_field_value(&e->type, rec);
    if (type == e->block_v) {
        on_block(s, task, rec->id, an_field_value(&e->object, rec));
    } else if (type == e->unblock_v || type == e->timeout_v) {
        on_wake(s, task, at);
    }
}

static void apply(evrec_sched_t *s, const evrec_record_t *rec, const sc_point_t *at)
{
    const an_event_t *e = &s->cat[rec->id];
    const sc_role_t *ro = &s->roles[rec->id];
    switch (e->role) {
    case AN_SWITCH_IN:
        if (rec->lane != EVREC_LANE_UNKNOWN) {
            on_switch_in(s, an_field_value(&e->task, rec), rec->lane, at);
        }
        return;
    case AN_SWITCH_OUT:
        if (rec->lane != EVREC_LANE_UNKNOWN) {
            on_switch_out(s, an_field_value(&e->task, rec), an_field_value(&e->type, rec), rec->lane, at);
        }
        return;
    case AN_SYNC: on_sync(s, e, rec, at); return;
    default: break;
    }
    uint32_t task = an_field_value(&ro->task, rec);
    if (ro->life == AN_LIFE_NONE || task == NO_TASK_VALUE) {
        return;
    }
    if (ro->life == AN_LIFE_READY) {
        on_wake(s, task, at);
    } else if (ro->life == AN_LIFE_DELETE) {
        on_delete(s, task, at);
    }
}

evrec_status evrec_sched_add(evrec_sched_t *s, const evrec_record_t *rec)
{
    if (!s || !rec) {
        return EVREC_E_ARG;
    }
    if (rec->gap) {
        evrec_sched_gap(s);
    }
    sc_point_t at = {rec->index, rec->t64, rec->ns};
    if (!s->have_since) {
        s->since = at;
        s->have_since = 1;
    }
    s->last = at;
    s->nomem = 0;
    if (rec->id < s->m->event_count) {
        apply(s, rec, &at);
    }
    return s->nomem ? EVREC_E_NOMEM : EVREC_OK;
}

/* End every open interval at the last record with `flags`; every state unknown afterwards. */
static void close_all(evrec_sched_t *s, unsigned flags)
{
    for (uint32_t i = 0; i < s->task_count; i++) {
        sc_task_t *t = &s->tasks[i];
        report(s, t, &s->last, flags, 0);
        t->dying = 0;
        t->pend_event = EVREC_SCHED_NONE;
        t->dead = 0;
    }
    for (uint32_t k = 0; k < s->core_cap; k++) {
        s->running[k] = NONE;
    }
    s->have_since = 0;
}

void evrec_sched_gap(evrec_sched_t *s)
{
    if (s && s->have_since) {
        close_all(s, EVREC_SCHED_CUT);
    }
}

evrec_status evrec_sched_finish(evrec_sched_t *s)
{
    if (!s) {
        return EVREC_E_ARG;
    }
    if (s->have_since) {
        close_all(s, EVREC_SCHED_AT_FINISH);
    }
    return EVREC_OK;
}

uint32_t evrec_sched_running(const evrec_sched_t *s, uint16_t core)
{
    if (!s || core >= s->core_cap || s->running[core] == NONE) {
        return UINT32_MAX;
    }
    return s->tasks[s->running[core]].value;
}

uint64_t evrec_sched_anomalies(const evrec_sched_t *s)
{
    return s ? s->anomalies : 0;
}

/* The enum a catalogue field refers to (task or object), for names. */
static void find_enums(evrec_sched_t *s)
{
    for (uint32_t id = 0; id < s->m->event_count; id++) {
        const an_event_t *e = &s->cat[id];
        if (e->role == AN_SWITCH_IN && e->task.is_enum) {
            s->task_enum = e->task.enum_id;
        }
        if (e->role == AN_SYNC && e->object.is_enum) {
            s->object_enum = e->object.enum_id;
            s->has_object_enum = 1;
        }
    }
}

evrec_status evrec_sched_create(evrec_sched_t **out, const evrec_reader_t *r, evrec_task_interval_fn fn, void *ctx)
{
    if (out) {
        *out = NULL;
    }
    const evrec_meta_t *m = r ? evrec_reader_meta(r) : NULL;
    if (!out || !m) {
        return EVREC_E_ARG;
    }
    evrec_sched_t *s = calloc(1, sizeof *s);
    uint32_t n = m->event_count ? m->event_count : 1u;
    if (!s || !(s->cat = calloc(n, sizeof *s->cat)) || !(s->roles = calloc(n, sizeof *s->roles))) {
        evrec_sched_free(s);
        return EVREC_E_NOMEM;
    }
    s->r = r;
    s->m = m;
    s->fn = fn;
    s->ctx = ctx;
    if (an_catalogue_find(m, s->cat, NULL, 0) == 0) {
        evrec_sched_free(s);
        return EVREC_E_UNSUPPORTED;
    }
    for (uint32_t id = 0; id < m->event_count; id++) {
        if (s->cat[id].role == AN_NONE && an_catalogue_notify(m, id, &s->cat[id])) {
            s->roles[id].notify = 1; /* a sync operation without object for the rules */
        } else if (s->cat[id].role == AN_NONE) {
            (void)an_catalogue_pool(m, id, &s->cat[id]); /* a wait on a pool, as on a queue */
        }
        s->roles[id].role = s->cat[id].role;
        s->roles[id].life = an_catalogue_lifecycle(m, id, &s->roles[id].task);
    }
    find_enums(s);
    *out = s;
    return EVREC_OK;
}

void evrec_sched_free(evrec_sched_t *s)
{
    if (!s) {
        return;
    }
    free(s->cat);
    free(s->roles);
    free(s->tasks);
    free(s->running);
    an_map_free(&s->task_map);
    free(s);
}
