/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec timeline`: the task states of a kernel trace (SystemView's view). Every record read
 * feeds the task-state model evrec_sched (evrec/evrec_sched.h: the intervals `evrec stats` and
 * the Perfetto export use); each interval it reports is added to its task lane's state bins
 * (running per core, ready, blocked, suspended), to the lane's totals in the window, and, when
 * blocked on a named object, to a bounded list of the longest such waits (labelled in the picture
 * when wide enough, a tooltip in the SVG). Task priorities come from TaskCreate and TaskPriority
 * records (the kernel ports' schemas) for the lane order. */
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

/* The packed offsets of `task` (leaf 2) and `priority` (leaf 3) of a TaskCreate/TaskPriority. */
static int prio_event(tl_model_t *m, const char *name, unsigned k)
{
    tl_states_t *s = &m->st;
    for (uint32_t id = 0; id < m->meta->event_count; id++) {
        const char *n = evrec_reader_event_name(m->r, (uint16_t)id);
        evrec_leaf_info_t t, p;
        if (!n || strcmp(n, name) != 0 || evrec_reader_leaf(m->r, (uint16_t)id, 2, &t, NULL, 0) != EVREC_OK ||
            evrec_reader_leaf(m->r, (uint16_t)id, 3, &p, NULL, 0) != EVREC_OK ||
            t.kind != EVREC_KIND_ENUM_UINT16 || p.kind != EVREC_KIND_UINT16) {
            continue;
        }
        s->prio_id[k] = (uint16_t)id;
        s->prio_task_off[k] = t.packed_offset;
        s->prio_off[k] = p.packed_offset;
        const evrec_field_info_t *fi = evrec_reader_field_info(m->r, p.struct_id, p.field_index);
        if (fi && fi->description && strstr(fi->description, "0 is the highest")) {
            s->prio_low_first = 1; /* ThreadX's schema says so; FreeRTOS: larger is higher */
        }
        return 1;
    }
    s->prio_id[k] = UINT16_MAX;
    return 0;
}

static void on_interval(void *ctx, const evrec_task_interval_t *iv);

int tl_states_prepare(tl_model_t *m)
{
    tl_states_t *s = &m->st;
    evrec_status st = evrec_sched_create(&s->sched, m->r, on_interval, m);
    if (st == EVREC_E_UNSUPPORTED) {
        return 0; /* not a kernel trace: lanes as before */
    }
    if (st != EVREC_OK) {
        return -1;
    }
    s->switch_in = UINT16_MAX;
    for (uint32_t id = 0; id < m->meta->event_count; id++) {
        const char *n = evrec_reader_event_name(m->r, (uint16_t)id);
        if (n && strcmp(n, "TaskSwitchIn") == 0 && m->ev[id].track_leaf != EVREC_TRACKS_NONE) {
            s->switch_in = (uint16_t)id;
            s->task_group = m->ev[id].group;
        }
    }
    if (s->switch_in == UINT16_MAX) {
        evrec_sched_free(s->sched);
        s->sched = NULL;
        return 0;
    }
    prio_event(m, "TaskCreate", 0);
    prio_event(m, "TaskPriority", 1);
    return 0;
}

/* ---- priorities ---- */

/* The first priority recorded for a task (TaskCreate or TaskPriority), kept for the lane order. */
static void note_priority(tl_model_t *m, const evrec_record_t *rec)
{
    tl_states_t *s = &m->st;
    for (unsigned k = 0; k < 2; k++) {
        if (rec->id != s->prio_id[k] || s->prio_off[k] + 2u > rec->size || s->nprio >= TL_MAX_ROWS) {
            continue;
        }
        uint32_t task = tl_be(rec->data + s->prio_task_off[k], 2), prio = tl_be(rec->data + s->prio_off[k], 2);
        for (unsigned i = 0; i < s->nprio; i++) {
            if (s->prio[i].task == task) {
                return;
            }
        }
        s->prio[s->nprio].task = task;
        s->prio[s->nprio].prio = prio;
        s->nprio++;
    }
}

int tl_states_priority(const tl_model_t *m, const tl_row_t *row, long *rank)
{
    const tl_states_t *s = &m->st;
    if (!s->sched || row->kind != TL_ROW_LANE || row->group != s->task_group) {
        return 0;
    }
    for (unsigned i = 0; i < s->nprio; i++) {
        if (s->prio[i].task == row->value) {
            /* rank: smaller = drawn higher = the more important task */
            *rank = s->prio_low_first ? (long)s->prio[i].prio : -(long)s->prio[i].prio;
            return 1;
        }
    }
    return 0;
}

/* ---- intervals ---- */

static tl_tbin_t *state_bins(tl_model_t *m, tl_row_t *row)
{
    if (!row->tb) {
        row->tb = calloc(m->nbins, sizeof *row->tb);
        for (uint32_t b = 0; row->tb && b < m->nbins; b++) {
            row->tb[b].core = TL_NO_CORE;
        }
    }
    return row->tb;
}

/* Add [t0, t1) in state `st` (running on `core`) to the row's bins. */
static void cover_state(tl_model_t *m, tl_row_t *row, unsigned st, uint16_t core, uint64_t t0, uint64_t t1)
{
    tl_tbin_t *tb = state_bins(m, row);
    if (!tb) {
        return;
    }
    uint32_t b1 = tl_agg_bin(m, t1); /* first: it may widen the bins */
    uint32_t b0 = tl_agg_bin(m, t0);
    for (uint32_t b = b0; b <= b1; b++) {
        uint64_t lo = m->t_from + (uint64_t)b * m->bw, hi = lo + m->bw;
        uint64_t a = t0 > lo ? t0 : lo, z = t1 < hi ? t1 : hi;
        float f = z > a ? (float)((double)(z - a) / (double)m->bw) : 0.0f;
        if (st == TL_ST_RUNNING && (tb[b].core == TL_NO_CORE || f > tb[b].cov[TL_ST_RUNNING])) {
            tb[b].core = core;
        }
        tb[b].cov[st] += f;
    }
}

/* Keep a wait on a named object among the TL_MAX_BLOCKS longest. */
static void keep_block(tl_model_t *m, int row, const evrec_task_interval_t *iv, uint64_t t0, uint64_t t1)
{
    tl_states_t *s = &m->st;
    unsigned at = s->nblocks;
    if (s->nblocks == TL_MAX_BLOCKS) {
        at = 0;
        for (unsigned i = 1; i < s->nblocks; i++) {
            at = s->blocks[i].t1 - s->blocks[i].t0 < s->blocks[at].t1 - s->blocks[at].t0 ? i : at;
        }
        if (s->blocks[at].t1 - s->blocks[at].t0 >= t1 - t0) {
            return;
        }
    } else {
        s->nblocks++;
    }
    tl_block_t *b = &s->blocks[at];
    b->row = row;
    b->t0 = t0;
    b->t1 = t1;
    b->object = iv->object_name;
    b->op = iv->object_event;
}

static unsigned state_index(evrec_task_state_t st)
{
    switch (st) {
    case EVREC_TASK_RUNNING: return TL_ST_RUNNING;
    case EVREC_TASK_READY: return TL_ST_READY;
    case EVREC_TASK_BLOCKED: return TL_ST_BLOCKED;
    case EVREC_TASK_SUSPENDED: return TL_ST_SUSPENDED;
    default: return TL_ST_COUNT;
    }
}

/* An interval of the model: clipped to the window, into its task lane. */
static void on_interval(void *ctx, const evrec_task_interval_t *iv)
{
    tl_model_t *m = ctx;
    unsigned st = state_index(iv->state);
    uint64_t t0 = m->ns_known ? iv->begin_ns : iv->begin_t64, t1 = m->ns_known ? iv->end_ns : iv->end_t64;
    if ((iv->flags & EVREC_SCHED_AT_FINISH) && m->t_end > t1) {
        t1 = m->t_end; /* still open at the end: up to the window's end, as open spans */
    }
    if (st == TL_ST_COUNT || (!m->started && !m->from_fixed)) {
        return; /* DEAD (no duration), or before the window */
    }
    t0 = t0 < m->t_from ? m->t_from : t0;
    t1 = m->to_fixed && t1 > m->t_to ? m->t_to : t1;
    if (t1 <= t0) {
        return;
    }
    int r = tl_lanes_row(m, TL_ROW_LANE, m->st.task_group, iv->task, iv->begin_index);
    if (r < 0 || !m->rows[r].ib) {
        return;
    }
    tl_row_t *row = &m->rows[r];
    if (iv->task != 0 || st != TL_ST_READY) {
        cover_state(m, row, st, iv->core, t0, t1); /* the idle task, always ready, is not hatched */
    }
    row->st_time[st] += t1 - t0;
    if (st == TL_ST_RUNNING && iv->core < 32) {
        row->cores |= 1u << iv->core;
        m->st.cores |= 1u << iv->core;
    }
    m->st.seen |= 1u << st;
    if (st == TL_ST_BLOCKED && iv->object_name) {
        keep_block(m, r, iv, t0, t1);
    }
}

void tl_states_read(tl_model_t *m, const evrec_record_t *rec)
{
    if (!m->st.sched) {
        return;
    }
    note_priority(m, rec);
    if (evrec_sched_add(m->st.sched, rec) == EVREC_E_NOMEM) {
        m->st.nomem = 1;
    }
}

void tl_states_finish(tl_model_t *m)
{
    if (m->st.sched) {
        (void)evrec_sched_finish(m->st.sched);
    }
}

void tl_states_merge(tl_tbin_t *o, const tl_tbin_t *a, const tl_tbin_t *b)
{
    tl_tbin_t r;
    for (unsigned k = 0; k < TL_ST_COUNT; k++) {
        r.cov[k] = (a->cov[k] + b->cov[k]) * 0.5f;
    }
    r.core = a->core == TL_NO_CORE                            ? b->core
             : b->core == TL_NO_CORE                          ? a->core
             : a->cov[TL_ST_RUNNING] >= b->cov[TL_ST_RUNNING] ? a->core
                                                              : b->core;
    *o = r;
}

void tl_states_free(tl_model_t *m)
{
    evrec_sched_free(m->st.sched);
    m->st.sched = NULL;
}
