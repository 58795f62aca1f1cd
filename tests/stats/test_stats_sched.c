/* SPDX-License-Identifier: Apache-2.0 */
/* The task-state model (evrec_sched.h) on small recordings made through the FreeRTOS port's
 * schema (the RTOS catalogue plus TaskReady, TaskCreate, TaskDelete) and the fake-clock
 * recorder, one lane or two (one per core): every interval is checked (task, state, cause, core,
 * object, the records that began and ended it, flags). Each record has a time of its own, so a
 * record is named by its time; its index is looked up in the saved file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/fake_clock.h"
#include "../common/mem_sink.h"
#include "../common/test_tmp.h"

#include "evrec/evrec_lanes.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_save.h"
#include "evrec/evrec_sched.h"
#include "freertos_events.h"
#include "threadx_events.h"
#include "view_events.h"

/* A recording with one lane per core. */
typedef struct rec {
    evrec_recorder_t rec;
    evrec_lane_t lane[2];
    evrec_lanes_t lanes;
    uint64_t buf[4096];
    mem_t file;
} rec_t;

static rec_t R;
static evrec_host_t *c0, *c1;
static freertos_RtosTask_t ta, tb, tc;
static freertos_RtosObject_t sem;

static void start(unsigned cores, uint32_t t0, const evrec_meta_t *meta)
{
    memset(&R, 0, sizeof R);
    cr_assert_eq(evrec_recorder_init(&R.rec, R.buf, sizeof R.buf), EVREC_OK);
    cr_assert_eq(evrec_lanes_init(&R.lanes, R.lane, cores), EVREC_OK);
    cr_assert_eq(freertos_runtime_init(), EVREC_OK);
    at(t0);
    cr_assert_eq(evrec_lanes_start(&R.lanes, &R.rec, meta ? meta : &freertos_meta, 100000000u), EVREC_OK);
    c0 = evrec_lane_host_at(&R.lanes, 0);
    c1 = cores > 1 ? evrec_lane_host_at(&R.lanes, 1) : NULL;
    cr_assert_eq(freertos_RtosTask_alloc("a", &ta), EVREC_OK);
    cr_assert_eq(freertos_RtosTask_alloc("b", &tb), EVREC_OK);
    cr_assert_eq(freertos_RtosTask_alloc("c", &tc), EVREC_OK);
    cr_assert_eq(freertos_RtosObject_alloc("sem", &sem), EVREC_OK);
}

static void stop(uint32_t t1)
{
    at(t1);
    cr_assert_eq(evrec_lanes_stop(&R.lanes, NULL), EVREC_OK);
    cr_assert_eq(evrec_recorder_counts(&R.rec).dropped, 0);
    evrec_sink_t sink = {mem_write, &R.file};
    cr_assert_eq(evrec_save(&R.rec, &sink), EVREC_OK);
}

/* ---- the intervals the model reports ---- */

#define MAX_IV 64
typedef struct got {
    evrec_task_interval_t iv[MAX_IV];
    char name[MAX_IV][16];
    char object_name[MAX_IV][16]; /* copies: the reader is closed before the checks */
    size_t n;
    /* the saved file's records: time32 -> index, t64 */
    uint32_t time[256];
    uint64_t index[256], t64[256];
    size_t records;
    uint64_t last_index;
} got_t;

static got_t G;

static void on_iv(void *ctx, const evrec_task_interval_t *iv)
{
    got_t *g = ctx;
    cr_assert_lt(g->n, MAX_IV);
    g->iv[g->n] = *iv;
    if (iv->task_name) {
        strncpy(g->name[g->n], iv->task_name, sizeof g->name[0] - 1);
    }
    if (iv->object_name) {
        strncpy(g->object_name[g->n], iv->object_name, sizeof g->object_name[0] - 1);
    }
    g->n++;
}

/* Feed the file to a model; records with a time in [drop_from, drop_to] are lost to damage (the
 * next one carries evrec_record_t::gap, as the reader would give it). */
static void run_model(uint32_t drop_from, uint32_t drop_to)
{
    memset(&G, 0, sizeof G);
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, R.file.data, R.file.len, NULL), EVREC_OK);
    evrec_sched_t *s;
    cr_assert_eq(evrec_sched_create(&s, r, on_iv, &G), EVREC_OK);
    evrec_record_t rec;
    int lost = 0;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        cr_assert_lt(G.records, 256);
        G.time[G.records] = rec.time32;
        G.index[G.records] = rec.index;
        G.t64[G.records++] = rec.t64;
        if (rec.time32 >= drop_from && rec.time32 <= drop_to) {
            lost = 1;
            continue;
        }
        rec.gap = (uint8_t)lost;
        lost = 0;
        G.last_index = rec.index;
        cr_assert_eq(evrec_sched_add(s, &rec), EVREC_OK);
    }
    cr_assert_eq(evrec_sched_finish(s), EVREC_OK);
    cr_assert_eq(evrec_sched_anomalies(s), 0);
    evrec_sched_free(s);
    evrec_reader_close(r);
}

/* The record stamped t (exactly one). */
static size_t rec_at(uint32_t t)
{
    size_t found = SIZE_MAX;
    for (size_t i = 0; i < G.records; i++) {
        if (G.time[i] == t) {
            cr_assert_eq(found, SIZE_MAX, "two records at %u", (unsigned)t);
            found = i;
        }
    }
    cr_assert_neq(found, SIZE_MAX, "no record at %u", (unsigned)t);
    return found;
}

#define NOC EVREC_SCHED_NO_CAUSE
#define NOOBJ EVREC_SCHED_NONE
enum { RS_BLOCKED = 2, RS_DELAY = 3, RS_EXIT = 5 };

/* Interval k is (task, state, cause, core, object event, object) from the record at time b to
 * the one at time e, with flags. */
static void expect(size_t k, uint32_t task, evrec_task_state_t st, unsigned cause, uint16_t core, uint16_t oev,
                   uint32_t obj, uint32_t b, uint32_t e, unsigned flags)
{
    cr_assert_lt(k, G.n, "interval %zu missing (%zu reported)", k, G.n);
    const evrec_task_interval_t *iv = &G.iv[k];
    cr_expect_eq(iv->task, task, "interval %zu: task %u", k, iv->task);
    cr_expect_eq(iv->state, st, "interval %zu: state %d, expected %d", k, iv->state, st);
    cr_expect_eq(iv->cause, cause, "interval %zu: cause %u, expected %u", k, iv->cause, cause);
    cr_expect_eq(iv->core, core, "interval %zu: core %u", k, iv->core);
    cr_expect_eq(iv->object_event, oev, "interval %zu: object event %u", k, iv->object_event);
    if (oev != NOOBJ) {
        cr_expect_eq(iv->object, obj, "interval %zu: object %u", k, iv->object);
        cr_expect_str_eq(G.object_name[k], oev == (uint16_t)freertos_ID_NotifyOp ? "notification" : "sem");
    }
    size_t ib = rec_at(b), ie = rec_at(e);
    cr_expect_eq(iv->begin_index, G.index[ib], "interval %zu: begins at #%llu, expected #%llu (t %u)", k,
                 (unsigned long long)iv->begin_index, (unsigned long long)G.index[ib], (unsigned)b);
    cr_expect_eq(iv->end_index, G.index[ie], "interval %zu: ends at #%llu, expected #%llu (t %u)", k,
                 (unsigned long long)iv->end_index, (unsigned long long)G.index[ie], (unsigned)e);
    cr_expect_eq(iv->begin_t64, G.t64[ib]);
    cr_expect_eq(iv->end_t64, G.t64[ie]);
    cr_expect_eq(iv->begin_ns, G.t64[ib] * 10u, "100 MHz: 10 ns per tick");
    cr_expect_eq(iv->end_ns, G.t64[ie] * 10u);
    cr_expect_eq(iv->flags, flags, "interval %zu: flags %u, expected %u", k, iv->flags, flags);
    if (flags & (EVREC_SCHED_AT_FINISH | EVREC_SCHED_CUT)) {
        cr_expect_eq(iv->next_state, 0, "interval %zu: next state %u at an edge", k, iv->next_state);
    } else if (st != EVREC_TASK_DEAD) {
        cr_expect_neq(iv->next_state, 0, "interval %zu: no next state", k);
    }
}

/* The state interval k's task entered at its end. */
static void expect_next(size_t k, unsigned next)
{
    cr_assert_lt(k, G.n);
    cr_expect_eq(G.iv[k].next_state, next, "interval %zu: next state %u, expected %u", k, G.iv[k].next_state,
                 next);
}

#define RUN EVREC_TASK_RUNNING
#define RDY EVREC_TASK_READY
#define BLK EVREC_TASK_BLOCKED
#define DEAD EVREC_TASK_DEAD
#define FIN EVREC_SCHED_AT_FINISH
#define SEM_EV ((uint16_t)freertos_ID_SemOp)
#define QUEUE_EV ((uint16_t)freertos_ID_QueueOp)

Test(sched, one_core_preemption_yield_delay_wake)
{
    start(1, 1000, NULL);
    at(1100), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Start);
    at(1200), freertos_record_TaskSwitchIn(c0, tb, freertos_RtosResume_Start); /* a: implied preemption */
    at(1300), freertos_record_TaskSwitchOut(c0, tb, freertos_RtosSuspend_Yield);
    at(1301), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Resume);
    at(1400), freertos_record_TaskSwitchOut(c0, ta, freertos_RtosSuspend_Delay);
    at(1401), freertos_record_TaskSwitchIn(c0, tb, freertos_RtosResume_Resume);
    at(1500), freertos_record_TaskReady(c0, ta);
    at(1550), freertos_record_TaskReady(c0, tb); /* running: nothing */
    at(1600), freertos_record_TaskSwitchOut(c0, tb, freertos_RtosSuspend_Preempted);
    at(1601), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Resume);
    stop(2000);
    run_model(1, 0);
    expect(0, ta, RUN, NOC, 0, NOOBJ, 0, 1100, 1200, 0);
    expect(1, tb, RUN, NOC, 0, NOOBJ, 0, 1200, 1300, 0);
    expect(2, ta, RDY, EVREC_READY_PREEMPTED, 0, NOOBJ, 0, 1200, 1301, 0);
    expect(3, ta, RUN, NOC, 0, NOOBJ, 0, 1301, 1400, 0);
    expect(4, tb, RDY, EVREC_READY_YIELD, 0, NOOBJ, 0, 1300, 1401, 0);
    expect(5, ta, BLK, RS_DELAY, 0, NOOBJ, 0, 1400, 1500, 0);
    expect(6, tb, RUN, NOC, 0, NOOBJ, 0, 1401, 1600, 0);
    expect(7, ta, RDY, EVREC_READY_WOKEN, 0, NOOBJ, 0, 1500, 1601, 0);
    expect(8, ta, RUN, NOC, 0, NOOBJ, 0, 1601, 2000, FIN);
    expect(9, tb, RDY, EVREC_READY_PREEMPTED, 0, NOOBJ, 0, 1600, 2000, FIN);
    cr_expect_eq(G.n, 10);
    cr_expect_str_eq(G.name[0], "a");
}

/* Block on an object, switch out Blocked, TaskReady, switch in: BLOCKED on the semaphore, READY
 * woken, RUNNING; the Unblock the FreeRTOS port records once the task runs again changes nothing.
 * The idle task (0) is a task here. */
Test(sched, block_on_object_ready_then_running)
{
    start(1, 1000, NULL);
    at(1100), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Start);
    at(1200), freertos_record_SemOp(c0, ta, sem, freertos_RtosSemOp_Block);
    at(1210), freertos_record_TaskSwitchOut(c0, ta, freertos_RtosSuspend_Blocked);
    at(1220), freertos_record_TaskSwitchIn(c0, freertos_RtosTask_Idle, freertos_RtosResume_Resume);
    at(1300), freertos_record_TaskReady(c0, ta);
    at(1310), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Resume);
    at(1320), freertos_record_SemOp(c0, ta, sem, freertos_RtosSemOp_Unblock);
    stop(2000);
    run_model(1, 0);
    expect(0, ta, RUN, NOC, 0, NOOBJ, 0, 1100, 1210, 0);
    expect(1, ta, BLK, RS_BLOCKED, 0, SEM_EV, sem, 1210, 1300, 0);
    expect(2, 0, RUN, NOC, 0, NOOBJ, 0, 1220, 1310, 0);
    expect(3, ta, RDY, EVREC_READY_WOKEN, 0, NOOBJ, 0, 1300, 1310, 0);
    expect(4, ta, RUN, NOC, 0, NOOBJ, 0, 1310, 2000, FIN);
    expect(5, 0, RDY, EVREC_READY_PREEMPTED, 0, NOOBJ, 0, 1310, 2000, FIN);
    cr_expect_eq(G.n, 6);
    expect_next(0, BLK);
    expect_next(1, RDY);
    expect_next(2, RDY);
    expect_next(3, RUN);
}

/* ThreadX's order: Unblock of the waiting task (then TaskReady) at the wake-up; and a Block
 * recorded after the switch-out gives the BLOCKED interval its object. */
Test(sched, unblock_op_wakes)
{
    start(1, 1000, NULL);
    at(1100), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Start);
    at(1110), freertos_record_TaskSwitchOut(c0, ta, freertos_RtosSuspend_Blocked);
    at(1120), freertos_record_QueueOp(c0, ta, sem, freertos_RtosQueueOp_Block);
    at(1130), freertos_record_TaskSwitchIn(c0, tb, freertos_RtosResume_Start);
    at(1200), freertos_record_QueueOp(c0, ta, sem, freertos_RtosQueueOp_Unblock);
    at(1201), freertos_record_TaskReady(c0, ta);
    at(1300), freertos_record_TaskSwitchOut(c0, tb, freertos_RtosSuspend_Delay);
    at(1301), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Resume);
    stop(1400);
    run_model(1, 0);
    expect(0, ta, RUN, NOC, 0, NOOBJ, 0, 1100, 1110, 0);
    expect(1, ta, BLK, RS_BLOCKED, 0, QUEUE_EV, sem, 1110, 1200, 0);
    expect(2, tb, RUN, NOC, 0, NOOBJ, 0, 1130, 1300, 0);
    expect(3, ta, RDY, EVREC_READY_WOKEN, 0, NOOBJ, 0, 1200, 1301, 0);
    expect(4, ta, RUN, NOC, 0, NOOBJ, 0, 1301, 1400, FIN);
    expect(5, tb, BLK, RS_DELAY, 0, NOOBJ, 0, 1300, 1400, FIN);
    cr_expect_eq(G.n, 6);
}

/* The FreeRTOS port's task notifications: a NotifyOp Block then a Delay switch-out (a wait with a
 * timeout: the task is on a delayed list, its event item on no object's list) or a Suspended one
 * (no timeout) is BLOCKED on "notification" with cause Blocked; the notifier's Unblock wakes it.
 * A Delay switch-out after a Take (no Block pending) stays a delay. */
Test(sched, notification_wait_is_blocked)
{
    const uint16_t NOTIFY_EV = (uint16_t)freertos_ID_NotifyOp;
    start(1, 1000, NULL);
    at(1100), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Start);
    at(1200), freertos_record_NotifyOp(c0, ta, ta, freertos_RtosNotifyOp_Block, 0);
    at(1210), freertos_record_TaskSwitchOut(c0, ta, freertos_RtosSuspend_Delay);
    at(1220), freertos_record_TaskSwitchIn(c0, tb, freertos_RtosResume_Start);
    at(1300), freertos_record_NotifyOp(c0, ta, tb, freertos_RtosNotifyOp_Unblock, 0);
    at(1301), freertos_record_TaskReady(c0, ta);
    at(1310), freertos_record_TaskSwitchOut(c0, tb, freertos_RtosSuspend_Preempted);
    at(1311), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Resume);
    at(1320), freertos_record_NotifyOp(c0, ta, ta, freertos_RtosNotifyOp_Take, 0);
    at(1330), freertos_record_NotifyOp(c0, ta, ta, freertos_RtosNotifyOp_Block, 1);
    at(1340), freertos_record_TaskSwitchOut(c0, ta, freertos_RtosSuspend_Suspended);
    at(1350), freertos_record_TaskSwitchIn(c0, tb, freertos_RtosResume_Resume);
    at(1400), freertos_record_NotifyOp(c0, ta, freertos_RtosTask_NoTask, freertos_RtosNotifyOp_Unblock, 1);
    at(1410), freertos_record_TaskSwitchOut(c0, tb, freertos_RtosSuspend_Preempted);
    at(1411), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Resume);
    at(1420), freertos_record_NotifyOp(c0, ta, ta, freertos_RtosNotifyOp_Take, 1);
    at(1430), freertos_record_TaskSwitchOut(c0, ta, freertos_RtosSuspend_Delay);
    stop(2000);
    run_model(1, 0);
    expect(0, ta, RUN, NOC, 0, NOOBJ, 0, 1100, 1210, 0);
    expect_next(0, BLK);
    expect(1, ta, BLK, RS_BLOCKED, 0, NOTIFY_EV, 0, 1210, 1300, 0);
    expect(2, tb, RUN, NOC, 0, NOOBJ, 0, 1220, 1310, 0);
    expect(3, ta, RDY, EVREC_READY_WOKEN, 0, NOOBJ, 0, 1300, 1311, 0);
    expect(4, ta, RUN, NOC, 0, NOOBJ, 0, 1311, 1340, 0);
    expect_next(4, BLK);
    expect(5, tb, RDY, EVREC_READY_PREEMPTED, 0, NOOBJ, 0, 1310, 1350, 0);
    expect(6, ta, BLK, RS_BLOCKED, 0, NOTIFY_EV, 0, 1340, 1400, 0);
    expect(7, tb, RUN, NOC, 0, NOOBJ, 0, 1350, 1410, 0);
    expect(8, ta, RDY, EVREC_READY_WOKEN, 0, NOOBJ, 0, 1400, 1411, 0);
    expect(9, ta, RUN, NOC, 0, NOOBJ, 0, 1411, 1430, 0);
    expect(10, ta, BLK, RS_DELAY, 0, NOOBJ, 0, 1430, 2000, FIN);
    expect(11, tb, RDY, EVREC_READY_PREEMPTED, 0, NOOBJ, 0, 1410, 2000, FIN);
    cr_expect_eq(G.n, 12);
}

/* The ThreadX port's pool operations (threadx.yaml PoolOp): a Block on a pool then a Blocked
 * switch-out is BLOCKED on that pool, by name; the Unblock a release gives it wakes the task. */
Test(sched, threadx_pool_wait_is_blocked)
{
    start(1, 1000, &threadx_meta);
    threadx_RtosTask_t a, b;
    threadx_RtosObject_t pool;
    cr_assert_eq(threadx_runtime_init(), EVREC_OK);
    cr_assert_eq(threadx_RtosTask_alloc("a", &a), EVREC_OK);
    cr_assert_eq(threadx_RtosTask_alloc("b", &b), EVREC_OK);
    cr_assert_eq(threadx_RtosObject_alloc("msg_pool", &pool), EVREC_OK);
    at(1100), threadx_record_TaskSwitchIn(c0, a, threadx_RtosResume_Start);
    at(1150), threadx_record_PoolOp(c0, a, pool, threadx_RtosPoolOp_Allocate);
    at(1200), threadx_record_PoolOp(c0, a, pool, threadx_RtosPoolOp_Block);
    at(1210), threadx_record_TaskSwitchOut(c0, a, threadx_RtosSuspend_Blocked);
    at(1220), threadx_record_TaskSwitchIn(c0, b, threadx_RtosResume_Start);
    at(1300), threadx_record_PoolOp(c0, b, pool, threadx_RtosPoolOp_Release);
    at(1301), threadx_record_PoolOp(c0, a, pool, threadx_RtosPoolOp_Unblock);
    at(1302), threadx_record_TaskReady(c0, a);
    at(1310), threadx_record_TaskSwitchOut(c0, b, threadx_RtosSuspend_Preempted);
    at(1311), threadx_record_TaskSwitchIn(c0, a, threadx_RtosResume_Resume);
    stop(2000);
    run_model(1, 0);
    expect(0, a, RUN, NOC, 0, NOOBJ, 0, 1100, 1210, 0);
    expect_next(0, BLK);
    cr_assert_lt(1u, G.n);
    const evrec_task_interval_t *blocked = &G.iv[1];
    cr_expect_eq(blocked->task, a);
    cr_expect_eq(blocked->state, BLK);
    cr_expect_eq(blocked->cause, RS_BLOCKED);
    cr_expect_eq(blocked->object_event, (uint16_t)threadx_ID_PoolOp, "blocked on event %u", blocked->object_event);
    cr_expect_eq(blocked->object, pool);
    cr_expect_str_eq(G.object_name[1], "msg_pool");
    cr_expect_eq(blocked->begin_index, G.index[rec_at(1210)]);
    cr_expect_eq(blocked->end_index, G.index[rec_at(1301)], "woken by the Unblock");
    expect(2, b, RUN, NOC, 0, NOOBJ, 0, 1220, 1310, 0);
    expect(3, a, RDY, EVREC_READY_WOKEN, 0, NOOBJ, 0, 1301, 1311, 0);
    cr_expect_eq(G.n, 6);
}

/* Two cores: a task preempted on core 0 resumes on core 1, then moves back to core 0 with no
 * switch-out recorded on core 1 (its RUNNING on core 1 ends where it starts on core 0). */
Test(sched, two_cores_migration)
{
    start(2, 1000, NULL);
    at(1100), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Start);
    at(1110), freertos_record_TaskSwitchIn(c1, tb, freertos_RtosResume_Start);
    at(1200), freertos_record_TaskSwitchOut(c0, ta, freertos_RtosSuspend_Preempted);
    at(1201), freertos_record_TaskSwitchIn(c0, tc, freertos_RtosResume_Start);
    at(1300), freertos_record_TaskSwitchOut(c1, tb, freertos_RtosSuspend_Delay);
    at(1301), freertos_record_TaskSwitchIn(c1, ta, freertos_RtosResume_Resume);
    at(1400), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Resume);
    stop(1500);
    run_model(1, 0);
    expect(0, ta, RUN, NOC, 0, NOOBJ, 0, 1100, 1200, 0);
    expect(1, tb, RUN, NOC, 1, NOOBJ, 0, 1110, 1300, 0);
    expect(2, ta, RDY, EVREC_READY_PREEMPTED, 0, NOOBJ, 0, 1200, 1301, 0);
    expect(3, tc, RUN, NOC, 0, NOOBJ, 0, 1201, 1400, 0);
    expect(4, ta, RUN, NOC, 1, NOOBJ, 0, 1301, 1400, 0);
    /* core 1 is free now (nothing known runs there); the model says so */
    expect(5, ta, RUN, NOC, 0, NOOBJ, 0, 1400, 1500, FIN);
    expect(6, tb, BLK, RS_DELAY, 1, NOOBJ, 0, 1300, 1500, FIN);
    expect(7, tc, RDY, EVREC_READY_PREEMPTED, 0, NOOBJ, 0, 1400, 1500, FIN);
    cr_expect_eq(G.n, 8);
}

/* A trace that starts mid-run: a's first record is its switch-out (RUNNING since the first
 * record, NO_BEGIN); b's first is a switch-in (nothing before it is inferred). */
Test(sched, starts_mid_run)
{
    start(1, 1000, NULL);
    at(1100), freertos_record_SemOp(c0, ta, sem, freertos_RtosSemOp_Block);
    at(1110), freertos_record_TaskSwitchOut(c0, ta, freertos_RtosSuspend_Blocked);
    at(1111), freertos_record_TaskSwitchIn(c0, tb, freertos_RtosResume_Resume);
    stop(1200);
    run_model(1, 0);
    expect(0, ta, RUN, NOC, 0, NOOBJ, 0, 1000, 1110, EVREC_SCHED_NO_BEGIN);
    expect(1, ta, BLK, RS_BLOCKED, 0, SEM_EV, sem, 1110, 1200, FIN);
    expect(2, tb, RUN, NOC, 0, NOOBJ, 0, 1111, 1200, FIN);
    cr_expect_eq(G.n, 3);
}

/* Records lost to damage while intervals are open: they end at the last record before the gap
 * (CUT); after it every state is unknown again (a's first switch-out after it: NO_BEGIN from the
 * gap's record). */
Test(sched, gap_while_open)
{
    start(1, 1000, NULL);
    at(1100), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Start);
    at(1200), freertos_record_TaskSwitchOut(c0, ta, freertos_RtosSuspend_Preempted);
    at(1201), freertos_record_TaskSwitchIn(c0, tb, freertos_RtosResume_Start);
    at(1300), freertos_record_TaskSwitchOut(c0, tb, freertos_RtosSuspend_Blocked); /* lost */
    at(1301), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Resume);    /* lost */
    at(1400), freertos_record_TaskSwitchOut(c0, ta, freertos_RtosSuspend_Delay);   /* gap */
    at(1401), freertos_record_TaskSwitchIn(c0, tb, freertos_RtosResume_Resume);
    stop(2000);
    run_model(1300, 1301);
    expect(0, ta, RUN, NOC, 0, NOOBJ, 0, 1100, 1200, 0);
    expect(1, ta, RDY, EVREC_READY_PREEMPTED, 0, NOOBJ, 0, 1200, 1201, EVREC_SCHED_CUT);
    expect(2, tb, RUN, NOC, 0, NOOBJ, 0, 1201, 1201, EVREC_SCHED_CUT);
    expect(3, ta, RUN, NOC, 0, NOOBJ, 0, 1400, 1400, EVREC_SCHED_NO_BEGIN);
    expect(4, ta, BLK, RS_DELAY, 0, NOOBJ, 0, 1400, 2000, FIN);
    expect(5, tb, RUN, NOC, 0, NOOBJ, 0, 1401, 2000, FIN);
    cr_expect_eq(G.n, 6);
}

/* TaskDelete of a ready task: DEAD at once (begin = end); of the running task (it deletes
 * itself): RUNNING until its switch-out, then DEAD. */
Test(sched, delete)
{
    start(1, 1000, NULL);
    at(1100), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Start);
    at(1110), freertos_record_TaskReady(c0, tb);
    at(1120), freertos_record_TaskDelete(c0, tb, 3);
    at(1130), freertos_record_TaskDelete(c0, ta, 3);
    at(1140), freertos_record_TaskSwitchOut(c0, ta, freertos_RtosSuspend_Exit);
    at(1150), freertos_record_TaskSwitchIn(c0, tc, freertos_RtosResume_Start);
    stop(1200);
    run_model(1, 0);
    expect(0, tb, RDY, EVREC_READY_WOKEN, EVREC_LANE_UNKNOWN, NOOBJ, 0, 1110, 1120, 0);
    expect(1, tb, DEAD, RS_EXIT, EVREC_LANE_UNKNOWN, NOOBJ, 0, 1120, 1120, 0);
    expect(2, ta, RUN, NOC, 0, NOOBJ, 0, 1100, 1140, 0);
    expect(3, ta, DEAD, RS_EXIT, 0, NOOBJ, 0, 1140, 1140, 0);
    expect(4, tc, RUN, NOC, 0, NOOBJ, 0, 1150, 1200, FIN);
    cr_expect_eq(G.n, 5);
    expect_next(0, DEAD);
    expect_next(1, 0);
    expect_next(2, DEAD);
}

/* A file without the catalogue is not a kernel trace. */
Test(sched, not_a_kernel_trace)
{
    start(1, 1000, &view_meta);
    stop(1100);
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, R.file.data, R.file.len, NULL), EVREC_OK);
    evrec_sched_t *s = (evrec_sched_t *)&r;
    cr_expect_eq(evrec_sched_create(&s, r, on_iv, &G), EVREC_E_UNSUPPORTED);
    cr_expect_null(s);
    cr_expect_eq(evrec_sched_create(NULL, r, on_iv, &G), EVREC_E_ARG);
    evrec_reader_close(r);
}

/* ---- the statistics over the model ---- */

static const evrec_sched_task_t *stask(const evrec_sched_result_t *res, uint32_t task)
{
    for (uint32_t i = 0; i < res->task_count; i++) {
        if (res->tasks[i].task == task) {
            return &res->tasks[i];
        }
    }
    cr_assert_fail("no task %u", (unsigned)task);
    return NULL;
}

/* Two cores, an interrupt, a wake-up across cores, a migration; CPU time per task and core to
 * the tick (the comments give each interval). */
/* The two-core scenario of the statistics tests. */
static void record_two_cores(void)
{
    freertos_RtosIsr_t isr;
    start(2, 1000, NULL);
    cr_assert_eq(freertos_RtosIsr_alloc("tim", &isr), EVREC_OK);
    at(1100), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Start); /* c0 [1000,1100) unknown */
    at(1110), freertos_record_TaskSwitchIn(c1, tb, freertos_RtosResume_Start); /* c1 [1000,1110) unknown */
    at(1200), freertos_record_IsrEnter(c0, isr, 9);                            /* a 100 */
    at(1250), freertos_record_IsrExit(c0, isr, 9);                             /* isr 50 */
    at(1300), freertos_record_SemOp(c0, ta, sem, freertos_RtosSemOp_Block);
    at(1310), freertos_record_TaskSwitchOut(c0, ta, freertos_RtosSuspend_Blocked); /* a 60 */
    at(1311), freertos_record_TaskSwitchIn(c0, freertos_RtosTask_Idle, freertos_RtosResume_Resume);
    at(1400), freertos_record_TaskReady(c1, ta);                                 /* blocked 90 */
    at(1450), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Resume);  /* idle 139, woken 50 */
    at(1500), freertos_record_TaskSwitchOut(c1, tb, freertos_RtosSuspend_Delay); /* b 390 */
    at(1501), freertos_record_TaskSwitchIn(c1, tc, freertos_RtosResume_Start);
    at(1600), freertos_record_TaskReady(c1, tb);                                     /* delay 100 */
    at(1700), freertos_record_TaskSwitchOut(c0, ta, freertos_RtosSuspend_Preempted); /* a 250 */
    at(1701), freertos_record_TaskSwitchIn(c0, tb, freertos_RtosResume_Resume);      /* woken 101 */
    at(1800), freertos_record_TaskSwitchOut(c1, tc, freertos_RtosSuspend_Yield);     /* c 299 */
    at(1801), freertos_record_TaskSwitchIn(c1, ta, freertos_RtosResume_Resume);      /* preempted 101 */
    stop(2000);                                                                      /* b 299 on c0, a 199 on c1 */
}

Test(sched_stats, two_cores_to_the_tick)
{
    record_two_cores();
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, R.file.data, R.file.len, NULL), EVREC_OK);
    evrec_sched_stats_t *k;
    cr_assert_eq(evrec_sched_stats_create(&k, r), EVREC_OK);
    evrec_record_t rec;
    memset(&G, 0, sizeof G);
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        G.time[G.records] = rec.time32;
        G.index[G.records++] = rec.index;
        cr_assert_eq(evrec_sched_stats_add(k, &rec), EVREC_OK);
    }
    cr_assert_null(evrec_sched_stats_result(k));
    cr_assert_eq(evrec_sched_stats_finish(k), EVREC_OK);
    const evrec_sched_result_t *res = evrec_sched_stats_result(k);
    cr_assert_not_null(res);
    cr_expect_eq(res->span_ticks, 1000);
    cr_expect_eq(res->anomalies, 0);
    cr_expect(res->exact);
    cr_assert_eq(res->task_count, 3, "idle is not listed");
    cr_expect_eq(res->tasks[0].task, tb, "by descending CPU time");
    cr_expect_eq(res->tasks[1].task, ta);
    cr_expect_eq(res->tasks[2].task, tc);
    const evrec_sched_task_t *a = stask(res, ta), *b = stask(res, tb), *c = stask(res, tc);
    cr_expect_eq(a->cpu_ticks, 100 + 60 + 250 + 199, "the interrupt's 50 ticks are not a's");
    cr_expect_eq(b->cpu_ticks, 390 + 299);
    cr_expect_eq(c->cpu_ticks, 299);
    cr_expect_str_eq(a->name, "a");
    cr_expect_eq(a->switches, 3);
    cr_expect_eq(b->switches, 2);
    cr_expect_eq(c->switches, 1);
    cr_expect_eq(a->woken.count, 1);
    cr_expect_eq(a->woken.max, 50);
    cr_expect_eq(a->woken.p50, 50);
    cr_expect_eq(a->woken.p99, 50);
    cr_expect_eq(a->woken.worst_begin_index, G.index[rec_at(1400)]);
    cr_expect_eq(a->woken.worst_end_index, G.index[rec_at(1450)]);
    cr_expect_eq(a->preempted.count, 1);
    cr_expect_eq(a->preempted.max, 101);
    cr_expect_eq(a->preempted.worst_begin_index, G.index[rec_at(1700)]);
    cr_expect_eq(b->woken.count, 1);
    cr_expect_eq(b->woken.max, 101);
    cr_expect_eq(b->preempted.count, 0);
    cr_expect_eq(c->woken.count + c->preempted.count, 0, "c's yield is still open at the end");

    cr_assert_eq(res->wait_count, 2);
    const evrec_sched_wait_t *w0 = &res->waits[0], *w1 = &res->waits[1];
    cr_expect_eq(w0->task, tb, "b first: the tasks' order");
    cr_expect_eq(w0->object_event, EVREC_SCHED_NONE);
    cr_expect_eq(w0->cause, RS_DELAY);
    cr_expect_eq(w0->total_ticks, 100);
    cr_expect_eq(w1->task, ta);
    cr_expect_eq(w1->object_event, SEM_EV);
    cr_expect_eq(w1->object, sem);
    cr_expect_str_eq(w1->object_name, "sem");
    cr_expect_eq(w1->count, 1);
    cr_expect_eq(w1->total_ticks, 90);
    cr_expect_eq(w1->max_ticks, 90);
    cr_expect_eq(w1->max_begin_index, G.index[rec_at(1310)]);

    cr_assert_eq(res->core_count, 2);
    const evrec_sched_core_t *k0 = &res->cores[0], *k1 = &res->cores[1];
    cr_expect_eq(k0->task_ticks, 100 + 60 + 250 + 299);
    cr_expect_eq(k0->isr_ticks, 50);
    cr_expect_eq(k0->idle_ticks, 139, "the idle task");
    cr_expect_eq(k0->kernel_ticks, 1 + 1, "between a switch-out and the next switch-in");
    cr_expect_eq(k0->unknown_ticks, 100);
    cr_expect_eq(k0->switches, 4);
    cr_expect_eq(k0->task_count, 2);
    cr_expect_eq(k1->task_ticks, 390 + 299 + 199);
    cr_expect_eq(k1->isr_ticks, 0);
    cr_expect_eq(k1->idle_ticks, 0);
    cr_expect_eq(k1->kernel_ticks, 2);
    cr_expect_eq(k1->unknown_ticks, 110, "core 1 unknown %llu", (unsigned long long)k1->unknown_ticks);
    cr_expect_eq(k1->switches, 3);
    cr_expect_eq(k1->task_count, 3);
    cr_assert_eq(res->core_task_count, 5);
    const evrec_sched_core_task_t *ct = res->core_tasks;
    cr_expect(ct[0].core == 0 && ct[0].task == ta && ct[0].cpu_ticks == 410 && ct[0].switches == 2);
    cr_expect(ct[1].core == 0 && ct[1].task == tb && ct[1].cpu_ticks == 299 && ct[1].switches == 1);
    cr_expect(ct[2].core == 1 && ct[2].task == tb && ct[2].cpu_ticks == 390);
    cr_expect(ct[3].core == 1 && ct[3].task == tc && ct[3].cpu_ticks == 299);
    cr_expect(ct[4].core == 1 && ct[4].task == ta && ct[4].cpu_ticks == 199);
    cr_expect_str_eq(ct[4].name, "a");
    evrec_sched_stats_free(k);
    evrec_reader_close(r);
}

/* A trace that starts while a task runs: its first switch-out claims the time before it. */
Test(sched_stats, running_at_start_claims_the_unknown_time)
{
    start(1, 1000, NULL);
    at(1100), freertos_record_TaskSwitchOut(c0, ta, freertos_RtosSuspend_Delay);
    at(1101), freertos_record_TaskSwitchIn(c0, tb, freertos_RtosResume_Resume);
    stop(1200);
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, R.file.data, R.file.len, NULL), EVREC_OK);
    evrec_sched_stats_t *k;
    cr_assert_eq(evrec_sched_stats_create(&k, r), EVREC_OK);
    evrec_record_t rec;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        cr_assert_eq(evrec_sched_stats_add(k, &rec), EVREC_OK);
    }
    cr_assert_eq(evrec_sched_stats_finish(k), EVREC_OK);
    const evrec_sched_result_t *res = evrec_sched_stats_result(k);
    cr_expect_eq(stask(res, ta)->cpu_ticks, 100);
    cr_expect_eq(stask(res, ta)->switches, 0);
    cr_expect_eq(stask(res, tb)->cpu_ticks, 99);
    cr_expect_eq(res->cores[0].unknown_ticks, 0);
    cr_expect_eq(res->cores[0].idle_ticks, 0);
    cr_expect_eq(res->cores[0].kernel_ticks, 1);
    evrec_sched_stats_free(k);
    evrec_reader_close(r);
}

/* ---- evrec stats end to end ---- */

static char *run_cli(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", EVREC_CLI_PATH, args);
    fflush(NULL);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t cap = 1 << 16, n = 0, k;
    char *out = malloc(cap);
    cr_assert_not_null(out);
    while ((k = fread(out + n, 1, cap - 1 - n, p)) > 0) {
        n += k;
        if (n + 1 == cap) {
            cap *= 2;
            out = realloc(out, cap);
            cr_assert_not_null(out);
        }
    }
    out[n] = 0;
    int st = pclose(p);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s", out);
    return out;
}

/* The text and JSON of the two-core scenario (100 MHz: 1 tick = 10 ns). */
Test(sched_stats, cli_text_and_json)
{
    record_two_cores();
    char path[256];
    int fd = test_tmp_file(path, sizeof path, "sched"); /* removed at exit, also on failure */
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, R.file.data, R.file.len), (ssize_t)R.file.len);
    close(fd);
    char args[512];
    snprintf(args, sizeof args, "stats '%s'", path);
    char *out = run_cli(args);
    cr_expect(strstr(out, "tasks (task-state model, 2 cores, 10.0 us): CPU time excludes interrupt handlers"),
              "%s", out);
    cr_expect(strstr(out, "\n  b           6.9 us   68.90%          2\n"), "%s", out);
    cr_expect(strstr(out, "\n  a           6.1 us   60.90%          3\n"), "%s", out);
    cr_expect(strstr(out, "\n  a     wake-up           1      500 ns      500 ns      500 ns  #8\n"), "%s", out);
    cr_expect(
        strstr(out,
               "\n  b     delay                                1        1.0 us      1.0 us      1.0 us  #10\n"),
        "%s", out);
    cr_expect(
        strstr(out,
               "\n     0       7.1 us       500 ns       1.4 us        20 ns       1.0 us   84.56%         4  a "
               "41.00%, b 29.90%\n"),
        "%s", out);
    free(out);
    snprintf(args, sizeof args, "stats --format json '%s'", path);
    out = run_cli(args);
    cr_expect(
        strstr(out, "\"sched\":{\"span_ticks\":1000,\"span_ns\":10000,\"percentiles\":\"exact\",\"anomalies\":0,"),
        "%s", out);
    cr_expect(strstr(out, "{\"task\":1,\"name\":\"a\",\"cpu_ticks\":609,\"cpu_ns\":6090,"), "%s", out);
    cr_expect(strstr(out, "{\"core\":1,\"task_ticks\":888,\"task_ns\":8880,\"isr_ticks\":0,"), "%s", out);
    free(out);
}

/* A kernel without an idle task (ThreadX): IdleSleep to IdleWake is idle, the scheduler's time
 * between a switch-out and the sleep is kernel time; a first IdleWake claims the time before it. */
Test(sched_stats, idle_sleep_and_kernel_time)
{
    start(1, 1000, NULL);
    at(1100), freertos_record_IdleWake(c0);                                      /* idle 100 */
    at(1101), freertos_record_TaskSwitchIn(c0, ta, freertos_RtosResume_Start);   /* kernel 1 */
    at(1200), freertos_record_TaskSwitchOut(c0, ta, freertos_RtosSuspend_Delay); /* a 99 */
    at(1210), freertos_record_IdleSleep(c0);                                     /* kernel 10 */
    at(1300), freertos_record_IdleWake(c0);                                      /* idle 90 */
    at(1310), freertos_record_TaskSwitchIn(c0, tb, freertos_RtosResume_Start);   /* kernel 10 */
    stop(1400);                                                                  /* b 90 */
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, R.file.data, R.file.len, NULL), EVREC_OK);
    evrec_sched_stats_t *k;
    cr_assert_eq(evrec_sched_stats_create(&k, r), EVREC_OK);
    evrec_record_t rec;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        cr_assert_eq(evrec_sched_stats_add(k, &rec), EVREC_OK);
    }
    cr_assert_eq(evrec_sched_stats_finish(k), EVREC_OK);
    const evrec_sched_result_t *res = evrec_sched_stats_result(k);
    const evrec_sched_core_t *c = &res->cores[0];
    cr_expect_eq(c->idle_ticks, 100 + 90);
    cr_expect_eq(c->kernel_ticks, 1 + 10 + 10);
    cr_expect_eq(c->unknown_ticks, 0);
    cr_expect_eq(c->task_ticks, 99 + 90);
    cr_expect_eq(stask(res, ta)->cpu_ticks, 99);
    cr_expect_eq(stask(res, tb)->cpu_ticks, 90);
    evrec_sched_stats_free(k);
    evrec_reader_close(r);
}
