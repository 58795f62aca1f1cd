/* SPDX-License-Identifier: Apache-2.0 */
/* Perfetto's scheduling data (sched_switch, sched_waking, ProcessTree threads) from the task
 * intervals of evrec_sched (evrec/evrec_sched.h). See perfetto_sched.h and the README's
 * "Scheduling" section.
 *
 * A switch on core c at record i joins two intervals reported at different times: the RUNNING
 * interval of the task switched out (A, ending at i) and the RUNNING interval of the task
 * switched in (B, beginning at i, reported when it ends). Its prev_state is A's next interval,
 * which begins at i and is reported when it ends. A switch-out is kept as a pending switch until
 * both are known: "paired" when the next RUNNING interval on c is reported (B when it begins at
 * i, else the swapper), "state known" when A's next interval is reported. Wake-ups are written
 * as they happen: the interval a wake-up ends (BLOCKED, SUSPENDED) is reported at its record.
 *
 * A switch-out directly followed on its core by a switch-in (no record of that lane between: the
 * FreeRTOS and ThreadX hooks record the two together) is one sched_switch, at the switch-in's
 * time; otherwise the core runs the swapper in between (two switches). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_sched.h"
#include "perfetto_sched.h"

#define PS_NONE UINT32_MAX
#define PS_NAME_MAX 64u

typedef struct ps_task {
    uint32_t task; /* RtosTask value */
    int32_t pid;   /* 0 for the idle task, else value + 1 */
    char comm[PS_NAME_MAX];
    uint32_t pend;  /* its switch-out waiting for its next interval, or PS_NONE */
    uint64_t woken; /* index of the record of its last sched_waking (UINT64_MAX: none) */
} ps_task_t;

typedef struct ps_pend {
    uint32_t prev, next; /* task indexes; next PS_NONE = the swapper */
    uint16_t cpu;
    int paired, known, used;
    int64_t state;
    uint64_t ts, index;
} ps_pend_t;

typedef struct ps_core {
    uint32_t out;      /* the pending switch-out to pair, or PS_NONE */
    int out_here;      /* its switch-out was a record of this lane (not a migration seen elsewhere) */
    int has_next;      /* a record of this lane came after it: */
    uint64_t next_rec; /* the first one's index */
} ps_core_t;

struct pf_sched {
    evrec_sched_t *model;
    int ns_known;
    int32_t tgid;
    uint64_t cur_index; /* the record being added */
    uint16_t cur_lane;
    pf_sched_write_fn fn;
    void *ctx;
    evrec_status err;
    pf_sched_stats_t st;
    ps_task_t *tasks;
    uint32_t ntasks, cap_tasks;
    uint32_t *slots; /* task value hash: index + 1, 0 = empty */
    uint32_t nslots;
    ps_core_t *cores;
    uint32_t ncores;
    ps_pend_t *pend;
    uint32_t npend;
};

static uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    return x ^ (x >> 16);
}

static int rehash(pf_sched_t *s)
{
    uint32_t n = s->nslots ? s->nslots * 2 : 64;
    uint32_t *sl = calloc(n, sizeof *sl);
    if (!sl) {
        return 0;
    }
    for (uint32_t i = 0; i < s->ntasks; i++) {
        uint32_t h = hash32(s->tasks[i].task) & (n - 1);
        while (sl[h]) {
            h = (h + 1) & (n - 1);
        }
        sl[h] = i + 1;
    }
    free(s->slots);
    s->slots = sl;
    s->nslots = n;
    return 1;
}

/* ---- packets -------------------------------------------------------------------------- */

static void write_bundle(pf_sched_t *s, uint16_t cpu, Perfetto__Protos__FtraceEvent *ev)
{
    Perfetto__Protos__FtraceEvent *evs[1] = {ev};
    Perfetto__Protos__FtraceEventBundle b = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
    b.has_cpu = 1;
    b.cpu = cpu;
    b.n_event = 1;
    b.event = evs;
    Perfetto__Protos__TracePacket p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
    p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS;
    p.ftrace_events = &b;
    s->fn(s->ctx, &p);
}

static void announce(pf_sched_t *s, const ps_task_t *t, uint64_t ts)
{
    Perfetto__Protos__ProcessTree__Thread th = PERFETTO__PROTOS__PROCESS_TREE__THREAD__INIT;
    Perfetto__Protos__ProcessTree__Thread *ths[1] = {&th};
    th.has_tid = 1;
    th.tid = t->pid;
    th.has_tgid = 1;
    th.tgid = s->tgid;
    th.name = (char *)t->comm;
    Perfetto__Protos__ProcessTree pt = PERFETTO__PROTOS__PROCESS_TREE__INIT;
    pt.n_threads = 1;
    pt.threads = ths;
    Perfetto__Protos__TracePacket p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
    p.has_timestamp = 1;
    p.timestamp = ts;
    p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE;
    p.process_tree = &pt;
    s->fn(s->ctx, &p);
    s->st.threads++;
}

static const ps_task_t swapper = {0, 0, "swapper", PS_NONE, UINT64_MAX};

static void emit_switch(pf_sched_t *s, uint16_t cpu, uint64_t ts, const ps_task_t *a, int64_t state,
                        const ps_task_t *b)
{
    if (a->pid == 0 && b->pid == 0) {
        return; /* the idle task and "no task" are both the swapper */
    }
    Perfetto__Protos__SchedSwitchFtraceEvent sw = PERFETTO__PROTOS__SCHED_SWITCH_FTRACE_EVENT__INIT;
    sw.prev_comm = (char *)a->comm;
    sw.has_prev_pid = sw.has_prev_prio = sw.has_prev_state = 1;
    sw.prev_pid = a->pid;
    sw.prev_prio = PF_PRIO_DEFAULT;
    sw.prev_state = state;
    sw.next_comm = (char *)b->comm;
    sw.has_next_pid = sw.has_next_prio = 1;
    sw.next_pid = b->pid;
    sw.next_prio = PF_PRIO_DEFAULT;
    Perfetto__Protos__FtraceEvent ev = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
    ev.has_timestamp = ev.has_pid = 1;
    ev.timestamp = ts;
    ev.pid = (uint32_t)a->pid;
    ev.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH;
    ev.sched_switch = &sw;
    write_bundle(s, cpu, &ev);
    s->st.switches++;
}

static int32_t pid_of(uint32_t task)
{
    return task == 0 ? 0 : (int32_t)(task + 1u);
}

/* A wake-up of `t` at `ts`, recorded on core `cpu` while task `waker` ran there (UINT32_MAX:
 * none known: the swapper); `target` the core it last ran on. */
static void emit_waking(pf_sched_t *s, uint16_t cpu, uint64_t ts, const ps_task_t *t, uint32_t waker,
                        uint16_t target)
{
    Perfetto__Protos__SchedWakingFtraceEvent wk = PERFETTO__PROTOS__SCHED_WAKING_FTRACE_EVENT__INIT;
    wk.comm = (char *)t->comm;
    wk.has_pid = wk.has_prio = wk.has_success = wk.has_target_cpu = 1;
    wk.pid = t->pid;
    wk.prio = PF_PRIO_DEFAULT;
    wk.success = 1;
    wk.target_cpu = target;
    Perfetto__Protos__FtraceEvent ev = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
    ev.has_timestamp = ev.has_pid = 1;
    ev.timestamp = ts;
    ev.pid = (uint32_t)(waker == UINT32_MAX ? 0 : pid_of(waker)); /* trace_processor's waker */
    ev.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKING;
    ev.sched_waking = &wk;
    write_bundle(s, cpu, &ev);
    s->st.wakings++;
}

/* ---- tasks, cores, pending switches ------------------------------------------------------ */

/* The entry of a task, made (and its thread written) on first sight; PS_NONE out of memory. */
static uint32_t task_of(pf_sched_t *s, const evrec_task_interval_t *iv, uint64_t ts)
{
    if ((s->ntasks + 1) * 2 > s->nslots && !rehash(s)) {
        return PS_NONE;
    }
    uint32_t h = hash32(iv->task) & (s->nslots - 1);
    for (; s->slots[h]; h = (h + 1) & (s->nslots - 1)) {
        if (s->tasks[s->slots[h] - 1].task == iv->task) {
            return s->slots[h] - 1;
        }
    }
    if (s->ntasks == s->cap_tasks) {
        uint32_t cap = s->cap_tasks ? s->cap_tasks * 2 : 16;
        ps_task_t *p = realloc(s->tasks, cap * sizeof *p);
        if (!p) {
            return PS_NONE;
        }
        s->tasks = p;
        s->cap_tasks = cap;
    }
    ps_task_t *t = &s->tasks[s->ntasks];
    t->task = iv->task;
    t->pid = pid_of(iv->task);
    t->pend = PS_NONE;
    t->woken = UINT64_MAX;
    if (t->pid == 0) {
        snprintf(t->comm, sizeof t->comm, "swapper");
    } else if (iv->task_name) {
        snprintf(t->comm, sizeof t->comm, "%s", iv->task_name);
    } else {
        snprintf(t->comm, sizeof t->comm, "Task %lu", (unsigned long)iv->task);
    }
    s->slots[h] = s->ntasks + 1;
    if (t->pid != 0) {
        announce(s, t, ts);
    }
    return s->ntasks++;
}

static int core_grow(pf_sched_t *s, uint16_t core)
{
    if (core < s->ncores) {
        return 1;
    }
    ps_core_t *p = realloc(s->cores, ((size_t)core + 1) * sizeof *p);
    if (!p) {
        return 0;
    }
    for (uint32_t c = s->ncores; c <= core; c++) {
        p[c].out = PS_NONE;
        p[c].out_here = 0;
        p[c].has_next = 0;
    }
    s->cores = p;
    s->ncores = (uint32_t)core + 1;
    return 1;
}

static uint32_t pend_new(pf_sched_t *s)
{
    for (uint32_t i = 0; i < s->npend; i++) {
        if (!s->pend[i].used) {
            return i;
        }
    }
    ps_pend_t *p = realloc(s->pend, ((size_t)s->npend + 1) * sizeof *p);
    if (!p) {
        return PS_NONE;
    }
    s->pend = p;
    return s->npend++;
}

/* Write pending switch `i` when it is paired and its state known, and free it. */
static void pend_try(pf_sched_t *s, uint32_t i)
{
    ps_pend_t *p = &s->pend[i];
    if (!p->used || !p->paired || !p->known) {
        return;
    }
    ps_task_t *a = &s->tasks[p->prev];
    emit_switch(s, p->cpu, p->ts, a, p->state, p->next == PS_NONE ? &swapper : &s->tasks[p->next]);
    if (a->pend == i) {
        a->pend = PS_NONE;
    }
    p->used = 0;
}

static int64_t state_of(const evrec_task_interval_t *iv)
{
    switch (iv->state) {
    case EVREC_TASK_READY: return iv->cause == EVREC_READY_PREEMPTED ? PF_STATE_PREEMPTED : PF_STATE_RUNNABLE;
    case EVREC_TASK_BLOCKED: return PF_STATE_SLEEPING;
    case EVREC_TASK_SUSPENDED: return PF_STATE_STOPPED;
    case EVREC_TASK_DEAD: return PF_STATE_DEAD;
    default: return PF_STATE_RUNNABLE;
    }
}

static uint64_t iv_begin(const pf_sched_t *s, const evrec_task_interval_t *iv)
{
    return s->ns_known ? iv->begin_ns : iv->begin_t64;
}

static uint64_t iv_end(const pf_sched_t *s, const evrec_task_interval_t *iv)
{
    return s->ns_known ? iv->end_ns : iv->end_t64;
}

/* ---- intervals -------------------------------------------------------------------------- */

/* A RUNNING interval of task `ti` on its core: the switch-in at its begin (paired with the core's
 * pending switch-out at the same record, else from the swapper), then its own switch-out
 * pending (none when still running at the end). 0 out of memory. */
static int on_running(pf_sched_t *s, const evrec_task_interval_t *iv, uint32_t ti)
{
    uint16_t c = iv->core;
    if (!core_grow(s, c)) {
        return 0;
    }
    ps_core_t *cr = &s->cores[c];
    uint32_t o = cr->out;
    int joined = o != PS_NONE && !(iv->flags & EVREC_SCHED_NO_BEGIN) &&
                 (s->pend[o].index == iv->begin_index ||
                  (cr->out_here && cr->has_next && cr->next_rec == iv->begin_index));
    cr->out = PS_NONE;
    if (o != PS_NONE) {
        s->pend[o].paired = 1;
        s->pend[o].next = joined ? ti : PS_NONE;
        if (joined) {
            s->pend[o].ts = iv_begin(s, iv);
        }
        pend_try(s, o);
    }
    if (!joined) {
        emit_switch(s, c, iv_begin(s, iv), &swapper, PF_STATE_RUNNABLE, &s->tasks[ti]);
    }
    ps_task_t *t = &s->tasks[ti];
    if (t->pend != PS_NONE) { /* it ran again with no other state between: it had migrated */
        s->pend[t->pend].known = 1;
        s->pend[t->pend].state = PF_STATE_RUNNABLE;
        pend_try(s, t->pend);
        t->pend = PS_NONE;
    }
    if (iv->flags & EVREC_SCHED_AT_FINISH) {
        return 1;
    }
    uint32_t i = pend_new(s);
    if (i == PS_NONE) {
        return 0;
    }
    t = &s->tasks[ti];
    ps_pend_t *p = &s->pend[i];
    memset(p, 0, sizeof *p);
    p->used = 1;
    p->prev = ti;
    p->next = PS_NONE;
    p->cpu = c;
    p->ts = iv_end(s, iv);
    p->index = iv->end_index;
    if (t->pid == 0 || (iv->flags & EVREC_SCHED_CUT)) {
        p->known = 1; /* the swapper is always runnable; after a cut the next state is not known */
        p->state = PF_STATE_RUNNABLE;
    } else {
        t->pend = i;
    }
    if (iv->flags & EVREC_SCHED_CUT) {
        p->paired = 1; /* to the swapper: what ran in the gap is not known */
        pend_try(s, i);
    } else {
        s->cores[c].out = i;
        s->cores[c].out_here = s->cur_lane == c;
        s->cores[c].has_next = 0;
    }
    return 1;
}

/* Any other interval: the state of the task's pending switch-out when it begins there; a
 * wake-up when it ends in READY at the record being added (the waker is the task running on that
 * record's core), or, when that was not seen (the task's state was unknown), when a READY interval
 * begun by a wake-up is reported (the waker then unknown). */
static void on_other(pf_sched_t *s, const evrec_task_interval_t *iv, uint32_t ti)
{
    ps_task_t *t = &s->tasks[ti];
    uint32_t i = t->pend;
    if (i != PS_NONE && !(iv->flags & EVREC_SCHED_NO_BEGIN)) {
        ps_pend_t *p = &s->pend[i];
        p->known = 1;
        p->state = p->index == iv->begin_index ? state_of(iv) : PF_STATE_RUNNABLE;
        t->pend = PS_NONE;
        pend_try(s, i);
    }
    uint16_t last = iv->core == EVREC_LANE_UNKNOWN ? 0 : iv->core;
    if (t->pid == 0) {
        return; /* the idle task is the swapper, never woken */
    }
    if (iv->next_state == EVREC_TASK_READY && iv->end_index == s->cur_index && s->cur_lane != EVREC_LANE_UNKNOWN) {
        uint16_t target = iv->core == EVREC_LANE_UNKNOWN ? s->cur_lane : iv->core;
        emit_waking(s, s->cur_lane, iv_end(s, iv), t, evrec_sched_running(s->model, s->cur_lane), target);
        t->woken = iv->end_index;
    } else if (iv->state == EVREC_TASK_READY && iv->cause == EVREC_READY_WOKEN && t->woken != iv->begin_index &&
               !(iv->flags & EVREC_SCHED_NO_BEGIN)) {
        emit_waking(s, last, iv_begin(s, iv), t, UINT32_MAX, last);
    }
}

static void on_interval(void *ctx, const evrec_task_interval_t *iv)
{
    pf_sched_t *s = ctx;
    if (s->err != EVREC_OK) {
        return;
    }
    uint32_t ti = task_of(s, iv, iv_begin(s, iv));
    if (ti == PS_NONE || (iv->state == EVREC_TASK_RUNNING && !on_running(s, iv, ti))) {
        s->err = EVREC_E_NOMEM;
        return;
    }
    if (iv->state != EVREC_TASK_RUNNING) {
        on_other(s, iv, ti);
    }
}

/* ---- API -------------------------------------------------------------------------------- */

evrec_status pf_sched_create(pf_sched_t **out, const evrec_reader_t *r, int ns_known, int32_t tgid,
                             pf_sched_write_fn fn, void *ctx)
{
    if (!out || !r || !fn) {
        return EVREC_E_ARG;
    }
    *out = NULL;
    pf_sched_t *s = calloc(1, sizeof *s);
    if (!s) {
        return EVREC_E_NOMEM;
    }
    s->ns_known = ns_known;
    s->tgid = tgid;
    s->fn = fn;
    s->ctx = ctx;
    evrec_status st = evrec_sched_create(&s->model, r, on_interval, s);
    if (st != EVREC_OK) {
        free(s);
        return st;
    }
    *out = s;
    return EVREC_OK;
}

evrec_status pf_sched_record(pf_sched_t *s, const evrec_record_t *rec)
{
    s->cur_index = rec->index;
    s->cur_lane = rec->lane;
    evrec_status st = evrec_sched_add(s->model, rec);
    if (st == EVREC_E_NOMEM) {
        s->err = st;
    }
    ps_core_t *cr = rec->lane < s->ncores ? &s->cores[rec->lane] : NULL;
    if (cr && cr->out != PS_NONE && !cr->has_next && rec->index > s->pend[cr->out].index) {
        cr->has_next = 1; /* the first record of the lane after its last switch-out */
        cr->next_rec = rec->index;
    }
    return s->err;
}

evrec_status pf_sched_finish(pf_sched_t *s)
{
    if (evrec_sched_finish(s->model) == EVREC_E_NOMEM) {
        s->err = EVREC_E_NOMEM;
    }
    for (uint32_t c = 0; c < s->ncores; c++) {
        if (s->cores[c].out != PS_NONE) {
            s->pend[s->cores[c].out].paired = 1; /* nothing ran there after it */
            s->cores[c].out = PS_NONE;
        }
    }
    for (uint32_t i = 0; i < s->npend; i++) {
        if (s->pend[i].used && !s->pend[i].known) {
            s->pend[i].known = 1; /* its next state never ended nor was reported */
            s->pend[i].state = PF_STATE_RUNNABLE;
        }
        pend_try(s, i);
    }
    return s->err;
}

const pf_sched_stats_t *pf_sched_stats(const pf_sched_t *s)
{
    return &s->st;
}

void pf_sched_free(pf_sched_t *s)
{
    if (!s) {
        return;
    }
    evrec_sched_free(s->model);
    free(s->tasks);
    free(s->slots);
    free(s->cores);
    free(s->pend);
    free(s);
}
