/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel statistics over the task-state model (evrec_sched.h): the model's intervals give the
 * switches, the ready-to-running latencies and the blocked time per object; the CPU time is
 * charged per core between records (each core: its innermost context, an interrupt handler or
 * its running task, idle, or unknown), so several cores (lanes) are accounted at once. */
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"
#include "evrec/evrec_sched.h"

#define NONE UINT32_MAX

typedef struct ks_task {
    evrec_sched_task_t pub;
    an_dur_t woken, pre;
} ks_task_t;

typedef struct ks_core {
    evrec_sched_core_t pub;
    uint32_t running; /* task value, or NONE */
    uint32_t isr_depth;
    int known;          /* a switch or idle record seen on it since the start or the last gap */
    int sleeping;       /* between IdleSleep and IdleWake */
    uint64_t claimable; /* unknown ticks since the model's first record or gap: a task's first
                           switch-out (NO_BEGIN) claims them */
} ks_core_t;

struct evrec_sched_stats {
    const evrec_reader_t *r;
    evrec_sched_t *model;
    an_event_t *cat; /* per event: the catalogue's roles */
    uint32_t event_count;
    ks_task_t *tasks;
    uint32_t task_count, task_cap;
    an_map_t task_map;
    evrec_sched_wait_t *waits;
    uint32_t wait_count, wait_cap;
    an_map_t wait_map;
    ks_core_t *cores;
    uint32_t core_count, core_cap;
    evrec_sched_core_task_t *ct;
    uint32_t ct_count, ct_cap;
    an_map_t ct_map;
    an_budget_t budget;
    uint64_t first_t, last_t;
    int have_t, finished, nomem;
    evrec_sched_task_t *pub_tasks;
    evrec_sched_core_t *pub_cores;
    evrec_sched_result_t res;
};

static ks_task_t *task_of(evrec_sched_stats_t *k, uint32_t value, const char *name)
{
    uint32_t ix = an_map_get(&k->task_map, value);
    if (ix == UINT32_MAX) {
        if (an_grow((void **)&k->tasks, &k->task_cap, k->task_count, sizeof *k->tasks) != 0 ||
            an_map_put(&k->task_map, value, k->task_count) != 0) {
            k->nomem = 1;
            return NULL;
        }
        ix = k->task_count++;
        ks_task_t *t = &k->tasks[ix];
        memset(t, 0, sizeof *t);
        t->pub.task = value;
        t->woken.store = t->pre.store = !k->budget.sketch;
    }
    ks_task_t *t = &k->tasks[ix];
    if (name && !t->pub.name) {
        t->pub.name = name;
    }
    return t;
}

static evrec_sched_core_task_t *core_task(evrec_sched_stats_t *k, uint16_t core, uint32_t task)
{
    uint64_t key = (uint64_t)core << 32 | task;
    uint32_t ix = an_map_get(&k->ct_map, key);
    if (ix == UINT32_MAX) {
        if (an_grow((void **)&k->ct, &k->ct_cap, k->ct_count, sizeof *k->ct) != 0 ||
            an_map_put(&k->ct_map, key, k->ct_count) != 0) {
            k->nomem = 1;
            return NULL;
        }
        ix = k->ct_count++;
        memset(&k->ct[ix], 0, sizeof k->ct[ix]);
        k->ct[ix].core = core;
        k->ct[ix].task = task;
    }
    return &k->ct[ix];
}

static ks_core_t *core_of(evrec_sched_stats_t *k, uint16_t core)
{
    while (k->core_count <= core) {
        if (an_grow((void **)&k->cores, &k->core_cap, k->core_count, sizeof *k->cores) != 0) {
            k->nomem = 1;
            return NULL;
        }
        ks_core_t *c = &k->cores[k->core_count];
        memset(c, 0, sizeof *c);
        c->pub.core = (uint16_t)k->core_count++;
        c->running = NONE;
    }
    return &k->cores[core];
}

/* The durations are past the budget: every group goes to its sketch. */
static void to_sketch(evrec_sched_stats_t *k)
{
    k->budget.sketch = 1;
    for (uint32_t i = 0; i < k->task_count; i++) {
        an_dur_t *g[2] = {&k->tasks[i].woken, &k->tasks[i].pre};
        for (int j = 0; j < 2; j++) {
            if (an_dur_sketch_from(g[j], NULL, 0) != 0) {
                k->nomem = 1;
            }
            an_dur_drop_values(g[j], &k->budget);
            g[j]->store = 0;
        }
    }
}

static void add_latency(evrec_sched_stats_t *k, an_dur_t *g, const evrec_task_interval_t *iv)
{
    evrec_span_t sp;
    memset(&sp, 0, sizeof sp);
    sp.begin_index = iv->begin_index;
    sp.end_index = iv->end_index;
    sp.begin_t64 = iv->begin_t64;
    sp.end_t64 = iv->end_t64;
    uint64_t d = iv->end_t64 > iv->begin_t64 ? iv->end_t64 - iv->begin_t64 : 0;
    int rc = an_dur_add(g, &k->budget, d, &sp);
    if (rc == 1) {
        to_sketch(k);
        rc = an_dur_add(g, &k->budget, d, &sp);
    }
    if (rc != 0) {
        k->nomem = 1;
    }
}

static void add_wait(evrec_sched_stats_t *k, const evrec_task_interval_t *iv)
{
    uint64_t key = (uint64_t)(iv->task & 0xFFFFu) << 48 | (uint64_t)iv->object_event << 32 |
                   (iv->object_event == EVREC_SCHED_NONE ? (uint64_t)iv->cause << 8 | iv->state : iv->object);
    uint32_t ix = an_map_get(&k->wait_map, key);
    if (ix == UINT32_MAX) {
        if (an_grow((void **)&k->waits, &k->wait_cap, k->wait_count, sizeof *k->waits) != 0 ||
            an_map_put(&k->wait_map, key, k->wait_count) != 0) {
            k->nomem = 1;
            return;
        }
        ix = k->wait_count++;
        evrec_sched_wait_t *w = &k->waits[ix];
        memset(w, 0, sizeof *w);
        w->task = iv->task;
        w->task_name = iv->task_name;
        w->what = iv->state;
        w->cause = iv->cause;
        w->object_event = iv->object_event;
        w->object = iv->object_event == EVREC_SCHED_NONE ? 0 : iv->object;
        w->object_name = iv->object_name;
    }
    evrec_sched_wait_t *w = &k->waits[ix];
    uint64_t d = iv->end_t64 > iv->begin_t64 ? iv->end_t64 - iv->begin_t64 : 0;
    if (w->count == 0 || d > w->max_ticks) {
        w->max_ticks = d;
        w->max_begin_index = iv->begin_index;
    }
    w->count++;
    w->total_ticks += d;
}

/* A RUNNING interval: a switch-in unless inferred; an inferred one claims its core's unknown time. */
static void on_running(evrec_sched_stats_t *k, ks_task_t *t, const evrec_task_interval_t *iv)
{
    ks_core_t *c = iv->core != EVREC_LANE_UNKNOWN ? core_of(k, iv->core) : NULL;
    evrec_sched_core_task_t *ct = c && iv->task != 0 ? core_task(k, iv->core, iv->task) : NULL;
    if (!c) {
        return;
    }
    if (iv->flags & EVREC_SCHED_NO_BEGIN) {
        if (ct) {
            ct->cpu_ticks += c->claimable;
            c->pub.task_ticks += c->claimable;
        } else {
            c->pub.idle_ticks += c->claimable;
        }
        c->pub.unknown_ticks -= c->claimable;
        c->claimable = 0;
        return;
    }
    c->pub.switches++;
    if (ct) {
        ct->switches++;
        t->pub.switches++;
    }
}

static void on_interval(void *ctx, const evrec_task_interval_t *iv)
{
    evrec_sched_stats_t *k = ctx;
    ks_task_t *t = task_of(k, iv->task, iv->task_name);
    if (!t) {
        return;
    }
    switch (iv->state) {
    case EVREC_TASK_RUNNING: on_running(k, t, iv); break;
    case EVREC_TASK_READY:
        if (iv->flags == 0 && iv->next_state == EVREC_TASK_RUNNING) {
            add_latency(k, iv->cause == EVREC_READY_WOKEN ? &t->woken : &t->pre, iv);
        }
        break;
    case EVREC_TASK_BLOCKED:
    case EVREC_TASK_SUSPENDED:
        if (iv->flags == 0) {
            add_wait(k, iv);
        }
        break;
    case EVREC_TASK_DEAD: t->pub.dead = 1; break;
    }
}

/* Charge the time since the last record to each core's context. */
static void charge(evrec_sched_stats_t *k, uint64_t t)
{
    if (!k->have_t) {
        k->first_t = k->last_t = t;
        k->have_t = 1;
        return;
    }
    if (t <= k->last_t) {
        return; /* a small step back of a stamp (FORMAT.md section 5) */
    }
    uint64_t d = t - k->last_t;
    k->last_t = t;
    for (uint32_t i = 0; i < k->core_count; i++) {
        ks_core_t *c = &k->cores[i];
        if (c->isr_depth > 0) {
            c->pub.isr_ticks += d;
        } else if (c->running != NONE && c->running != 0) {
            evrec_sched_core_task_t *ct = core_task(k, c->pub.core, c->running);
            if (ct) {
                ct->cpu_ticks += d;
            }
            c->pub.task_ticks += d;
        } else if (c->running == 0 || (c->known && c->sleeping)) {
            c->pub.idle_ticks += d;
        } else if (c->known) {
            c->pub.kernel_ticks += d;
        } else {
            c->pub.unknown_ticks += d;
            c->claimable += d;
        }
    }
}

/* Interrupt nesting and what is known of the record's core. */
static void core_record(evrec_sched_stats_t *k, const evrec_record_t *rec)
{
    if (rec->lane == EVREC_LANE_UNKNOWN || rec->id >= k->event_count) {
        return;
    }
    an_role role = k->cat[rec->id].role;
    if (role == AN_NONE || role == AN_SYNC || role == AN_INT_CONTROL) {
        return;
    }
    ks_core_t *c = core_of(k, rec->lane);
    if (!c) {
        return;
    }
    if (role == AN_ISR_ENTER) {
        c->isr_depth++;
    } else if (role == AN_ISR_EXIT) {
        c->isr_depth -= c->isr_depth > 0;
    } else if (role == AN_IDLE_WAKE && !c->known) { /* asleep since the state became unknown */
        c->pub.idle_ticks += c->claimable;
        c->pub.unknown_ticks -= c->claimable;
        c->claimable = 0;
    }
    if (role != AN_ISR_ENTER && role != AN_ISR_EXIT) {
        c->known = 1; /* a switch, or idle sleep or wake */
        c->sleeping = role == AN_IDLE_SLEEP;
    }
}

evrec_status evrec_sched_stats_add(evrec_sched_stats_t *k, const evrec_record_t *rec)
{
    if (!k || !rec) {
        return EVREC_E_ARG;
    }
    k->nomem = 0;
    if (rec->lane != EVREC_LANE_UNKNOWN) {
        (void)core_of(k, rec->lane);
    }
    if (rec->gap) { /* what ran across the lost records is unknown, and no task's to claim */
        evrec_sched_gap(k->model);
        for (uint32_t i = 0; i < k->core_count; i++) {
            k->cores[i].running = NONE;
            k->cores[i].isr_depth = 0;
            k->cores[i].known = 0;
            k->cores[i].sleeping = 0;
        }
        charge(k, rec->t64);
        for (uint32_t i = 0; i < k->core_count; i++) {
            k->cores[i].claimable = 0;
        }
    }
    charge(k, rec->t64);
    core_record(k, rec);
    if (evrec_sched_add(k->model, rec) != EVREC_OK) {
        k->nomem = 1;
    }
    for (uint32_t i = 0; i < k->core_count; i++) {
        k->cores[i].running = evrec_sched_running(k->model, (uint16_t)i);
    }
    return k->nomem ? EVREC_E_NOMEM : EVREC_OK;
}

evrec_status evrec_sched_stats_create(evrec_sched_stats_t **out, const evrec_reader_t *r)
{
    if (out) {
        *out = NULL;
    }
    const evrec_meta_t *m = r ? evrec_reader_meta(r) : NULL;
    if (!out || !m) {
        return EVREC_E_ARG;
    }
    evrec_sched_stats_t *k = calloc(1, sizeof *k);
    if (!k || !(k->cat = calloc(m->event_count ? m->event_count : 1u, sizeof *k->cat))) {
        free(k);
        return EVREC_E_NOMEM;
    }
    k->r = r;
    k->event_count = m->event_count;
    k->budget.max = EVREC_STATS_EXACT_MAX;
    (void)an_catalogue_find(m, k->cat, NULL, 0);
    evrec_status st = evrec_sched_create(&k->model, r, on_interval, k);
    const evrec_file_info_t *fi = evrec_reader_info(r);
    uint32_t lanes = fi && fi->lanes > 0 && fi->lanes < EVREC_LANE_UNKNOWN ? fi->lanes : 1u;
    if (st == EVREC_OK && !core_of(k, (uint16_t)(lanes - 1u))) {
        st = EVREC_E_NOMEM; /* every core of the file is accounted from the first record */
    }
    if (st != EVREC_OK) {
        evrec_sched_stats_free(k);
        return st;
    }
    *out = k;
    return EVREC_OK;
}

static int by_cpu(const void *a, const void *b)
{
    const evrec_sched_task_t *x = a, *y = b;
    if (x->cpu_ticks != y->cpu_ticks) {
        return x->cpu_ticks > y->cpu_ticks ? -1 : 1;
    }
    return x->task < y->task ? -1 : x->task > y->task;
}

static int by_core_cpu(const void *a, const void *b)
{
    const evrec_sched_core_task_t *x = a, *y = b;
    if (x->core != y->core) {
        return x->core < y->core ? -1 : 1;
    }
    if (x->cpu_ticks != y->cpu_ticks) {
        return x->cpu_ticks > y->cpu_ticks ? -1 : 1;
    }
    return x->task < y->task ? -1 : x->task > y->task;
}

typedef struct ranked_wait {
    uint32_t rank; /* the task's position in the sorted tasks (idle: after them) */
    evrec_sched_wait_t w;
} ranked_wait_t;

static int by_rank_total(const void *a, const void *b)
{
    const ranked_wait_t *x = a, *y = b;
    if (x->rank != y->rank) {
        return x->rank < y->rank ? -1 : 1;
    }
    if (x->w.total_ticks != y->w.total_ticks) {
        return x->w.total_ticks > y->w.total_ticks ? -1 : 1;
    }
    return x->w.object_event != y->w.object_event ? (x->w.object_event < y->w.object_event ? -1 : 1)
                                                  : (x->w.object < y->w.object ? -1 : x->w.object > y->w.object);
}

/* Waits by task (in the order of the sorted tasks), then descending total. */
static int sort_waits(evrec_sched_stats_t *k)
{
    ranked_wait_t *v = calloc(k->wait_count ? k->wait_count : 1u, sizeof *v);
    if (!v) {
        return -1;
    }
    for (uint32_t i = 0; i < k->wait_count; i++) {
        v[i].rank = k->res.task_count;
        for (uint32_t j = 0; j < k->res.task_count; j++) {
            if (k->res.tasks[j].task == k->waits[i].task) {
                v[i].rank = j;
                break;
            }
        }
        v[i].w = k->waits[i];
    }
    qsort(v, k->wait_count, sizeof *v, by_rank_total);
    for (uint32_t i = 0; i < k->wait_count; i++) {
        k->waits[i] = v[i].w;
    }
    free(v);
    return 0;
}

/* Percentiles, names and the sorted public tasks (idle left out). */
static int publish_tasks(evrec_sched_stats_t *k)
{
    k->pub_tasks = calloc(k->task_count ? k->task_count : 1u, sizeof *k->pub_tasks);
    if (!k->pub_tasks) {
        return -1;
    }
    int exact = !k->budget.sketch;
    uint32_t n = 0;
    for (uint32_t i = 0; i < k->task_count; i++) {
        ks_task_t *t = &k->tasks[i];
        an_dur_percentiles(&t->woken, t->woken.vals, t->woken.n, exact);
        an_dur_percentiles(&t->pre, t->pre.vals, t->pre.n, exact);
        t->pub.woken = t->woken.d;
        t->pub.preempted = t->pre.d;
        t->pub.cpu_ticks = 0;
        if (t->pub.task != 0) {
            k->pub_tasks[n++] = t->pub;
        }
    }
    for (uint32_t j = 0; j < k->ct_count; j++) {
        evrec_sched_core_task_t *ct = &k->ct[j];
        uint32_t ix = an_map_get(&k->task_map, ct->task);
        ct->name = ix != UINT32_MAX ? k->tasks[ix].pub.name : NULL;
        for (uint32_t i = 0; i < n; i++) {
            if (k->pub_tasks[i].task == ct->task) {
                k->pub_tasks[i].cpu_ticks += ct->cpu_ticks;
            }
        }
    }
    qsort(k->pub_tasks, n, sizeof *k->pub_tasks, by_cpu);
    qsort(k->ct, k->ct_count, sizeof *k->ct, by_core_cpu);
    k->res.task_count = n;
    k->res.tasks = k->pub_tasks;
    k->res.exact = exact;
    return 0;
}

evrec_status evrec_sched_stats_finish(evrec_sched_stats_t *k)
{
    if (!k) {
        return EVREC_E_ARG;
    }
    k->nomem = 0;
    (void)evrec_sched_finish(k->model);
    if (k->nomem || publish_tasks(k) != 0) {
        return EVREC_E_NOMEM;
    }
    k->pub_cores = calloc(k->core_count ? k->core_count : 1u, sizeof *k->pub_cores);
    if (!k->pub_cores) {
        return EVREC_E_NOMEM;
    }
    for (uint32_t i = 0; i < k->core_count; i++) {
        k->pub_cores[i] = k->cores[i].pub;
    }
    for (uint32_t j = 0; j < k->ct_count; j++) {
        k->pub_cores[k->ct[j].core].task_count++;
    }
    if (sort_waits(k) != 0) {
        return EVREC_E_NOMEM;
    }
    k->res.span_ticks = k->have_t ? k->last_t - k->first_t : 0;
    k->res.wait_count = k->wait_count;
    k->res.waits = k->waits;
    k->res.core_count = k->core_count;
    k->res.cores = k->pub_cores;
    k->res.core_task_count = k->ct_count;
    k->res.core_tasks = k->ct;
    k->res.anomalies = evrec_sched_anomalies(k->model);
    k->finished = 1;
    return EVREC_OK;
}

const evrec_sched_result_t *evrec_sched_stats_result(const evrec_sched_stats_t *k)
{
    return k && k->finished ? &k->res : NULL;
}

void evrec_sched_stats_free(evrec_sched_stats_t *k)
{
    if (!k) {
        return;
    }
    for (uint32_t i = 0; i < k->task_count; i++) {
        an_dur_free(&k->tasks[i].woken);
        an_dur_free(&k->tasks[i].pre);
    }
    evrec_sched_free(k->model);
    free(k->cat);
    free(k->tasks);
    free(k->waits);
    free(k->cores);
    free(k->ct);
    free(k->pub_tasks);
    free(k->pub_cores);
    an_map_free(&k->task_map);
    an_map_free(&k->wait_map);
    an_map_free(&k->ct_map);
    free(k);
}
