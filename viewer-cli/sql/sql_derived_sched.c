/* SPDX-License-Identifier: Apache-2.0 */
/* The `task_state` table of a kernel trace: every interval of the task-state model
 * (evrec_sched.h: RUNNING, READY, BLOCKED, SUSPENDED, DEAD); the `sched` view keeps its RUNNING
 * rows. A file without the RTOS catalogue has no rows. */
#include "evrec/evrec_sched.h"
#include "sql_derived.h"

static const char *state_name(unsigned s)
{
    switch (s) {
    case EVREC_TASK_RUNNING: return "RUNNING";
    case EVREC_TASK_READY: return "READY";
    case EVREC_TASK_BLOCKED: return "BLOCKED";
    case EVREC_TASK_SUSPENDED: return "SUSPENDED";
    case EVREC_TASK_DEAD: return "DEAD";
    default: return NULL;
    }
}

/* READY: how it began; BLOCKED, SUSPENDED, DEAD: the RtosSuspend value of the switch-out. */
static const char *cause_name(const evrec_task_interval_t *iv)
{
    if (iv->state == EVREC_TASK_READY) {
        return iv->cause == EVREC_READY_WOKEN       ? "woken"
               : iv->cause == EVREC_READY_PREEMPTED ? "preempted"
               : iv->cause == EVREC_READY_YIELD     ? "yield"
                                                    : NULL;
    }
    switch (iv->cause) {
    case 2: return "Blocked";
    case 3: return "Delay";
    case 4: return "Suspended";
    case 5: return "Exit";
    default: return NULL;
    }
}

static void on_interval(void *ctx, const evrec_task_interval_t *iv)
{
    sql_pump_t *p = ctx;
    sql_val_t *v = sql_pump_row(p);
    if (!v) {
        return;
    }
    sql_set_u64(&v[1], iv->begin_ns);
    sql_set_int(&v[2], (int64_t)(iv->end_ns - iv->begin_ns));
    sql_set_int(&v[3], iv->task);
    sql_set_text(&v[4], iv->task_name);
    sql_set_text(&v[5], state_name(iv->state));
    sql_set_text(&v[6], cause_name(iv));
    if (iv->core != EVREC_LANE_UNKNOWN) {
        sql_set_int(&v[7], iv->core);
    }
    if (iv->object_event != EVREC_SCHED_NONE) {
        sql_set_text(&v[8], evrec_reader_event_name(p->r, iv->object_event));
        sql_set_int(&v[9], iv->object);
        sql_set_text(&v[10], iv->object_name);
    }
    sql_set_u64(&v[11], iv->begin_index);
    sql_set_u64(&v[12], iv->end_index);
    sql_set_u64(&v[13], iv->begin_t64);
    sql_set_int(&v[14], (int64_t)(iv->end_t64 - iv->begin_t64));
    sql_set_int(&v[15], iv->flags);
    sql_set_int(&v[16], (iv->flags & EVREC_SCHED_NO_BEGIN) != 0);
    sql_set_int(&v[17], (iv->flags & EVREC_SCHED_AT_FINISH) != 0);
    sql_set_int(&v[18], (iv->flags & EVREC_SCHED_CUT) != 0);
    sql_set_text(&v[19], state_name(iv->next_state));
}

static int ts_begin(sql_pump_t *p)
{
    evrec_sched_t *s = NULL;
    if (evrec_sched_create(&s, p->r, on_interval, p) != EVREC_OK) {
        return -1;
    }
    p->state = s;
    return 0;
}

static void ts_add(sql_pump_t *p, const evrec_record_t *rec)
{
    (void)evrec_sched_add(p->state, rec);
}

static void ts_finish(sql_pump_t *p)
{
    (void)evrec_sched_finish(p->state);
}

static void ts_end(sql_pump_t *p)
{
    evrec_sched_free(p->state);
}

const sql_derived_def_t sql_table_task_state = {
    .name = "task_state",
    .columns = "ts INTEGER, dur INTEGER, task INTEGER, task_name TEXT, state TEXT, cause TEXT, core INTEGER, "
               "object_event TEXT, object INTEGER, object_name TEXT, begin_idx INTEGER, end_idx INTEGER, "
               "ticks INTEGER, dur_ticks INTEGER, flags INTEGER, no_begin INTEGER, at_finish INTEGER, "
               "cut INTEGER, next_state TEXT",
    .reads_records = 1,
    .begin = ts_begin,
    .add = ts_add,
    .finish = ts_finish,
    .end = ts_end,
};
