/* SPDX-License-Identifier: Apache-2.0 */
/* CPU accounting over the catalogue's context events: a base context (task, idle, kernel or
 * unknown) with a stack of interrupt handlers on top; every tick is charged to exactly one of
 * them (the ThreadX logger's idle accounting, generalised to tasks and nested ISRs; see
 * ports/rtos/README.md). */
#include <stdio.h>
#include <string.h>

#include "analysis_internal.h"

/* The context of `value` in the table (tasks or ISRs), created on first sight. */
static uint32_t context_of(evrec_stats_t *s, int isr, uint32_t value, uint16_t enum_id, int is_enum)
{
    an_map_t *map = isr ? &s->isr_map : &s->task_map;
    uint32_t idx = an_map_get(map, value);
    if (idx != UINT32_MAX) {
        return idx;
    }
    evrec_stats_context_t **arr = isr ? &s->isrs : &s->tasks;
    uint32_t *cap = isr ? &s->isrs_cap : &s->tasks_cap;
    uint32_t *count = isr ? &s->rt.isr_count : &s->rt.task_count;
    if (an_grow((void **)arr, cap, *count, sizeof **arr) != 0 || an_map_put(map, value, *count) != 0) {
        return UINT32_MAX;
    }
    idx = (*count)++;
    evrec_stats_context_t *c = &(*arr)[idx];
    memset(c, 0, sizeof *c);
    c->value = value;
    c->name = is_enum ? evrec_reader_enum_value(s->r, enum_id, value, NULL) : NULL;
    return idx;
}

void an_cpu_charge(evrec_stats_t *s, uint64_t t)
{
    if (t <= s->last_t) {
        return; /* a small step back of a stamp (FORMAT.md section 5): nothing to charge */
    }
    uint64_t d = t - s->last_t;
    s->last_t = t;
    if (s->depth > 0) {
        an_frame_t *f = &s->frames[s->depth - 1];
        f->self += d;
        s->isrs[f->isr].ticks += d;
        s->rt.isr_ticks += d;
        return;
    }
    switch (s->base) {
    case AN_BASE_TASK:
        s->tasks[s->base_task].ticks += d;
        s->rt.task_ticks += d;
        s->base_run += d;
        break;
    case AN_BASE_IDLE: s->rt.idle_ticks += d; break;
    case AN_BASE_KERNEL: s->rt.kernel_ticks += d; break;
    default:
        s->rt.unknown_ticks += d;
        s->pending += d;
        break;
    }
}

/* The base leaves a task: its run is complete. */
static void end_run(evrec_stats_t *s)
{
    if (s->base == AN_BASE_TASK) {
        evrec_stats_context_t *c = &s->tasks[s->base_task];
        if (s->base_run > c->max_ticks) {
            c->max_ticks = s->base_run;
        }
    }
    s->base_run = 0;
}

/* The unknown-base time so far can only have been `ticks`' owner's: move it there. */
static uint64_t claim_pending(evrec_stats_t *s)
{
    uint64_t p = s->pending;
    s->rt.unknown_ticks -= p;
    s->pending = 0;
    return p;
}

static void enter_idle(evrec_stats_t *s)
{
    if (s->base == AN_BASE_TASK) {
        end_run(s);
    }
    s->base = AN_BASE_IDLE;
}

static void leave_idle(evrec_stats_t *s, uint64_t t, const char *what)
{
    if (s->base == AN_BASE_IDLE) {
        s->base = AN_BASE_KERNEL;
    } else if (s->base == AN_BASE_UNKNOWN) {
        s->rt.idle_ticks += claim_pending(s);
        s->rt.idle_open_at_start = 1;
        s->base = AN_BASE_KERNEL;
    } else {
        an_anomaly(s, t, "%s while not idle", what);
    }
}

/* Pop the top ISR frame at time t (its exit, or the exit of an ISR below it). */
static void pop_frame(evrec_stats_t *s, uint64_t t)
{
    an_frame_t *f = &s->frames[--s->depth];
    evrec_stats_context_t *c = &s->isrs[f->isr];
    if (f->self > c->max_ticks) {
        c->max_ticks = f->self;
    }
    if (t - f->enter_t > c->max_inclusive) {
        c->max_inclusive = t - f->enter_t;
    }
}

static const char *label(const evrec_stats_context_t *c, char *buf, size_t size)
{
    if (c->name) {
        return c->name;
    }
    snprintf(buf, size, "%u", (unsigned)c->value);
    return buf;
}

evrec_status an_cpu_record(evrec_stats_t *s, const an_event_t *e, const evrec_record_t *rec, uint64_t t)
{
    an_cpu_charge(s, t);
    char nb[16];
    switch (e->role) {
    case AN_SWITCH_IN: {
        uint32_t v = an_field_value(&e->task, rec);
        if (v == 0) { /* the idle task */
            enter_idle(s);
            break;
        }
        uint32_t idx = context_of(s, 0, v, e->task.enum_id, e->task.is_enum);
        if (idx == UINT32_MAX) {
            return EVREC_E_NOMEM;
        }
        if (s->base == AN_BASE_TASK && s->base_task == idx) {
            break; /* back to the task that ran (return from an interrupt): not a new run */
        }
        end_run(s);
        s->base = AN_BASE_TASK;
        s->base_task = idx;
        s->tasks[idx].activations++;
        break;
    }
    case AN_SWITCH_OUT: {
        uint32_t v = an_field_value(&e->task, rec);
        if (v == 0) {
            leave_idle(s, t, "TaskSwitchOut of the idle task");
            break;
        }
        uint32_t idx = context_of(s, 0, v, e->task.enum_id, e->task.is_enum);
        if (idx == UINT32_MAX) {
            return EVREC_E_NOMEM;
        }
        evrec_stats_context_t *c = &s->tasks[idx];
        if (s->base == AN_BASE_TASK && s->base_task == idx) {
            end_run(s);
        } else if (s->base == AN_BASE_UNKNOWN) {
            /* Running since before the trace: the unknown base time was this task's. */
            uint64_t p = claim_pending(s);
            c->ticks += p;
            s->rt.task_ticks += p;
            c->activations++;
            c->open_at_start = 1;
        } else {
            an_anomaly(s, t, "TaskSwitchOut of task %s, which is not running", label(c, nb, sizeof nb));
            end_run(s);
        }
        s->base = AN_BASE_KERNEL;
        break;
    }
    case AN_IDLE_SLEEP: enter_idle(s); break;
    case AN_IDLE_WAKE: leave_idle(s, t, "IdleWake"); break;
    case AN_ISR_ENTER: {
        uint32_t idx = context_of(s, 1, an_field_value(&e->isr, rec), e->isr.enum_id, e->isr.is_enum);
        if (idx == UINT32_MAX || an_grow((void **)&s->frames, &s->frames_cap, s->depth, sizeof *s->frames) != 0) {
            return EVREC_E_NOMEM;
        }
        evrec_stats_context_t *c = &s->isrs[idx];
        c->activations++;
        if (e->vector.present) {
            c->vector = an_field_value(&e->vector, rec);
        }
        s->frames[s->depth++] = (an_frame_t){idx, t, 0};
        if (s->depth > s->rt.max_isr_depth) {
            s->rt.max_isr_depth = s->depth;
        }
        break;
    }
    case AN_ISR_EXIT: {
        uint32_t idx = context_of(s, 1, an_field_value(&e->isr, rec), e->isr.enum_id, e->isr.is_enum);
        if (idx == UINT32_MAX) {
            return EVREC_E_NOMEM;
        }
        evrec_stats_context_t *c = &s->isrs[idx];
        if (e->vector.present) {
            c->vector = an_field_value(&e->vector, rec);
        }
        uint32_t k = s->depth;
        while (k > 0 && s->frames[k - 1].isr != idx) {
            k--;
        }
        if (k > 0) {
            if (k < s->depth) {
                an_anomaly(s, t, "IsrExit of %s while %u handler(s) that preempted it had not exited",
                           label(c, nb, sizeof nb), (unsigned)(s->depth - k));
            }
            while (s->depth >= k) { /* pops the handlers above it (exits lost), then it */
                pop_frame(s, t);
            }
        } else if (s->depth == 0 && s->base == AN_BASE_UNKNOWN) {
            /* Entered before the trace began: everything on the unknown base was inside it. */
            uint64_t p = claim_pending(s);
            c->ticks += p;
            s->rt.isr_ticks += p;
            c->activations++;
            c->open_at_start = 1;
        } else {
            an_anomaly(s, t, "IsrExit of %s, which is not running", label(c, nb, sizeof nb));
        }
        break;
    }
    default: break;
    }
    return EVREC_OK;
}

void an_cpu_finish(evrec_stats_t *s)
{
    an_cpu_charge(s, s->sum.last_t64);
    for (uint32_t i = 0; i < s->depth; i++) {
        s->isrs[s->frames[i].isr].open_at_end = 1;
    }
    if (s->base == AN_BASE_TASK) {
        s->tasks[s->base_task].open_at_end = 1;
    } else if (s->base == AN_BASE_IDLE) {
        s->rt.idle_open_at_end = 1;
    }
}
