/* SPDX-License-Identifier: Apache-2.0 */
/* The Zephyr trace hooks without the kernel: ports/rtos/zephyr built against a stand-in of
 * <zephyr/kernel.h> (standin/: the fields, bits and calls it reads, with the kernel's names) for
 * two CPUs (CONFIG_SMP), driven in the order Zephyr calls its CONFIG_TRACING_USER callbacks:
 * switched_out before a context switch and switched_in after it with _current the thread
 * concerned, isr_enter/isr_exit around a handler, idle before the CPU sleeps, the object
 * callbacks at a call's blocking point and exit. Records go through the fake-clock recorder into
 * one lane per CPU, are saved and read back with their lanes and run-time names. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <zephyr/kernel.h>

#include "evrec/evrec_analysis.h"
#include "evrec/evrec_lanes.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_save.h"
#include "evrec/evrec_sched.h"
#include "evrec_zephyr.h"
#include "mem_sink.h"
#include "zephyr_events.h"

extern uint32_t evrec_test_clock_now;
extern uint32_t evrec_test_clock_step;

/* ---- the kernel state the hooks read ---- */

static struct _cpu cpus[2] = {{0}, {1}};
static unsigned cpu_now;
static struct k_thread *current[2];
static bool in_isr;

struct _cpu *arch_curr_cpu(void)
{
    return &cpus[cpu_now];
}

struct k_thread *k_current_get(void)
{
    return current[cpu_now];
}

bool k_is_in_isr(void)
{
    return in_isr;
}

const char *k_thread_name_get(struct k_thread *thread)
{
    return thread->name;
}

/* ---- recording ---- */

static evrec_lanes_t lanes;
static evrec_lane_t lane[2];
static evrec_recorder_t rec;
static void *mem;

static void start(void)
{
    const size_t size = 64u << 10;
    cr_assert_eq(posix_memalign(&mem, 64, size), 0);
    memset(mem, 0, size);
    evrec_test_clock_now = 100;
    evrec_test_clock_step = 1;
    cr_assert_eq(evrec_recorder_init(&rec, mem, size), EVREC_OK);
    cr_assert_eq(evrec_lanes_init(&lanes, lane, 2), EVREC_OK);
    evrec_host_t *hosts[2] = {evrec_lane_host_at(&lanes, 0), evrec_lane_host_at(&lanes, 1)};
    cr_assert_eq(evrec_zephyr_init(hosts, 2), EVREC_OK);
    cr_assert_eq(evrec_lanes_start(&lanes, &rec, &zephyr_meta, 1000000u), EVREC_OK);
    cpu_now = 0;
    current[0] = current[1] = NULL;
    in_isr = false;
}

/* One record read back: event, lane, its first enum field (task, isr) and the next two. */
typedef struct {
    uint16_t id, lane, a, b;
    uint8_t type;
} got_t;

typedef struct {
    got_t g[128];
    unsigned n;
    char task_name[8][24]; /* RtosTask 1..7 as saved */
    char object_name[8][24];
    int catalogue;                       /* evrec stats recognised the RTOS catalogue */
    uint64_t anomalies, sched_anomalies; /* its CPU accounting's, the task-state model's */
} trace_t;

static uint16_t be16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static uint16_t enum_id(const evrec_meta_t *m, const char *name)
{
    for (uint32_t i = 0; i < m->enum_count; i++) {
        if (strcmp(m->enums[i].name, name) == 0) {
            return (uint16_t)i;
        }
    }
    cr_assert_fail("no enum %s", name);
    return 0;
}

static void read_names(evrec_reader_t *r, trace_t *t)
{
    const evrec_meta_t *m = evrec_reader_meta(r);
    uint16_t task = enum_id(m, "RtosTask"), object = enum_id(m, "RtosObject");
    for (uint32_t v = 1; v < 8; v++) {
        const char *n = evrec_reader_enum_value(r, task, v, NULL);
        snprintf(t->task_name[v], sizeof t->task_name[v], "%s", n ? n : "");
        n = evrec_reader_enum_value(r, object, v, NULL);
        snprintf(t->object_name[v], sizeof t->object_name[v], "%s", n ? n : "");
    }
}

/* What `evrec stats` makes of the file: the catalogue recognised, the anomalies of its one-CPU
 * accounting and of the task-state model (every CPU). */
static void analyse(const mem_sink_t *out, trace_t *t)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, out->data, out->len, NULL), EVREC_OK);
    evrec_stats_t *st = NULL;
    evrec_sched_t *sc = NULL;
    cr_assert_eq(evrec_stats_create(&st, r), EVREC_OK);
    cr_assert_eq(evrec_sched_create(&sc, r, NULL, NULL), EVREC_OK);
    evrec_record_t x;
    while (evrec_reader_next(r, &x) == EVREC_OK) {
        cr_assert_eq(evrec_stats_add(st, &x), EVREC_OK);
        cr_assert_eq(evrec_sched_add(sc, &x), EVREC_OK);
    }
    cr_assert_eq(evrec_stats_finish(st), EVREC_OK);
    cr_assert_eq(evrec_sched_finish(sc), EVREC_OK);
    t->catalogue = evrec_stats_mismatch(st) == NULL && evrec_stats_rtos(st) != NULL &&
                   evrec_stats_rtos(st)->has_cpu;
    t->anomalies = evrec_stats_rtos(st) != NULL ? evrec_stats_rtos(st)->anomalies : 0;
    t->sched_anomalies = evrec_sched_anomalies(sc);
    evrec_sched_free(sc);
    evrec_stats_free(st);
    evrec_reader_close(r);
}

/* Stops, saves, reads back every record but EventControl. */
static trace_t *stop(void)
{
    cr_assert_eq(evrec_lanes_stop(&lanes, NULL), EVREC_OK);
    mem_sink_t out;
    memset(&out, 0, sizeof out);
    evrec_sink_t sink = mem_sink_of(&out);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, out.data, out.len, NULL), EVREC_OK);
    trace_t *t = calloc(1, sizeof *t);
    evrec_record_t x;
    while (evrec_reader_next(r, &x) == EVREC_OK) {
        if (x.id == zephyr_ID_EventControl) {
            continue;
        }
        cr_assert_lt(t->n, 128u);
        got_t *g = &t->g[t->n++];
        g->id = x.id;
        g->lane = x.lane;
        g->a = x.size >= 8u ? be16(x.data + 6) : 0u;
        g->b = x.size >= 10u ? be16(x.data + 8) : 0u;
        g->type = x.data[x.size - 1u];
    }
    cr_assert_eq(evrec_reader_info(r)->dropped, 0);
    read_names(r, t);
    evrec_reader_close(r);
    analyse(&out, t);
    free(out.data);
    free(mem);
    return t;
}

static void expect(const trace_t *t, unsigned i, uint16_t id, uint16_t lane_k, uint16_t a, int type)
{
    cr_assert_lt(i, t->n, "record %u of %u", i, t->n);
    const got_t *g = &t->g[i];
    cr_assert_eq(g->id, id, "record %u: event %u, expected %u", i, g->id, id);
    cr_assert_eq(g->lane, lane_k, "record %u: lane %u, expected %u", i, g->lane, lane_k);
    cr_assert_eq(g->a, a, "record %u: first field %u, expected %u", i, g->a, a);
    if (type >= 0) {
        cr_assert_eq(g->type, (uint8_t)type, "record %u: type %u, expected %d", i, g->type, type);
    }
}

static void thread(struct k_thread *t, const char *name, int prio)
{
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->base.prio = (int8_t)prio;
    sys_trace_thread_create_user(t);
}

/* What the scheduler does on `cpu` when `next` replaces the thread there. */
static void switch_to(unsigned cpu, struct k_thread *next)
{
    cpu_now = cpu;
    if (current[cpu] != NULL) {
        sys_trace_thread_switched_out_user();
    }
    current[cpu] = next;
    sys_trace_thread_switched_in_user();
}

static void isr(unsigned cpu)
{
    cpu_now = cpu;
    in_isr = true;
    sys_trace_isr_enter_user();
    sys_trace_isr_exit_user();
    in_isr = false;
}

Test(zephyr_hooks, init_rejects_bad_arguments)
{
    evrec_host_t *hosts[3] = {NULL, NULL, NULL};
    cr_assert_eq(evrec_zephyr_init(NULL, 1), EVREC_E_ARG);
    cr_assert_eq(evrec_zephyr_init(hosts, 0), EVREC_E_ARG);
    cr_assert_eq(evrec_zephyr_init(hosts, 3), EVREC_E_ARG, "two CPUs in this build");
    cr_assert_eq(evrec_zephyr_init(hosts, 2), EVREC_OK);
    cr_assert_eq(evrec_zephyr_isr_name(256, "x"), EVREC_E_ARG);
    cr_assert_eq(evrec_zephyr_isr_name(3, NULL), EVREC_E_ARG);
    cr_assert_eq(evrec_zephyr_object_name(NULL, "x"), EVREC_E_ARG);
    /* a CPU without a host records nothing and does not crash */
    struct k_thread t;
    thread(&t, "quiet", 3);
    switch_to(0, &t);
    isr(1);
    sys_trace_idle_user();
}

/* Thread switches on two CPUs: Start, the reasons from thread_state, a preemption by an
 * interrupt (ResumeFromIsr), the idle thread as task 0 with IdleSleep/IdleWake, each CPU's
 * records in its lane, the names as the file gives them. */
Test(zephyr_hooks, switches_per_cpu_with_reasons_and_names)
{
    start();
    struct k_thread prod, cons, idle0, main_thread;
    thread(&prod, "producer", 5);
    thread(&cons, "consumer", 7);
    memset(&idle0, 0, sizeof idle0);
    idle0.base.prio = K_IDLE_PRIO;
    memset(&main_thread, 0, sizeof main_thread); /* made before init: named when first seen */
    snprintf(main_thread.name, sizeof main_thread.name, "main");
    main_thread.base.prio = 0;
    cr_assert_eq(evrec_zephyr_isr_name(0, "timer_isr"), EVREC_OK);

    switch_to(0, &prod); /* 2: Start on CPU 0 */
    switch_to(1, &cons); /* 3: Start on CPU 1 */
    cpu_now = 0;
    in_isr = true;
    sys_trace_isr_enter_user();                      /* 4 */
    sys_trace_thread_sched_ready_user(&main_thread); /* 5: the handler makes main ready */
    sys_trace_isr_exit_user();                       /* 6 */
    in_isr = false;
    switch_to(0, &main_thread); /* 7 out Preempted, 8 in Start */
    prod.base.thread_state = 0;
    main_thread.base.thread_state = (uint8_t)_THREAD_SLEEPING;
    switch_to(0, &prod); /* 9 out Delay, 10 in ResumeFromIsr */
    cons.base.thread_state = (uint8_t)_THREAD_PENDING;
    switch_to(1, &idle0); /* 11 out Blocked, 12 in Idle */
    cpu_now = 1;
    sys_trace_idle_user(); /* 13 IdleSleep */
    isr(1);                /* 14 IdleWake, 15, 16 */
    prod.base.thread_state = 0;
    cpu_now = 0;
    sys_trace_k_thread_yield_user();
    switch_to(0, &main_thread); /* 17 out Yield, 18 in Resume */
    snprintf(cons.name, sizeof cons.name, "renamed");
    sys_trace_thread_name_set_user(&cons);
    sys_trace_thread_priority_set_user(&prod, -2); /* 19 */
    prod.base.thread_state = (uint8_t)_THREAD_DEAD;
    sys_trace_thread_abort_user(&prod); /* 20 */

    trace_t *t = stop();
    const uint16_t P = 1, C = 2, M = 3;
    expect(t, 0, zephyr_ID_TaskCreate, 0, P, -1);
    cr_assert_eq(t->g[0].b, 5, "priority");
    expect(t, 1, zephyr_ID_TaskCreate, 0, C, -1);
    expect(t, 2, zephyr_ID_TaskSwitchIn, 0, P, zephyr_RtosResume_Start);
    expect(t, 3, zephyr_ID_TaskSwitchIn, 1, C, zephyr_RtosResume_Start);
    expect(t, 4, zephyr_ID_IsrEnter, 0, 1, -1);
    expect(t, 5, zephyr_ID_TaskReady, 0, M, -1);
    expect(t, 6, zephyr_ID_IsrExit, 0, 1, -1);
    expect(t, 7, zephyr_ID_TaskSwitchOut, 0, P, zephyr_RtosSuspend_Preempted);
    expect(t, 8, zephyr_ID_TaskSwitchIn, 0, M, zephyr_RtosResume_Start);
    expect(t, 9, zephyr_ID_TaskSwitchOut, 0, M, zephyr_RtosSuspend_Delay);
    expect(t, 10, zephyr_ID_TaskSwitchIn, 0, P, zephyr_RtosResume_ResumeFromIsr);
    expect(t, 11, zephyr_ID_TaskSwitchOut, 1, C, zephyr_RtosSuspend_Blocked);
    expect(t, 12, zephyr_ID_TaskSwitchIn, 1, zephyr_RtosTask_Idle, zephyr_RtosResume_Resume); /* idle: no Start */
    expect(t, 13, zephyr_ID_IdleSleep, 1, 0, -1);
    expect(t, 14, zephyr_ID_IdleWake, 1, 0, -1);
    expect(t, 15, zephyr_ID_IsrEnter, 1, 1, -1);
    expect(t, 16, zephyr_ID_IsrExit, 1, 1, -1);
    expect(t, 17, zephyr_ID_TaskSwitchOut, 0, P, zephyr_RtosSuspend_Yield);
    expect(t, 18, zephyr_ID_TaskSwitchIn, 0, M, zephyr_RtosResume_Resume);
    expect(t, 19, zephyr_ID_TaskPriority, 0, P, -1);
    cr_assert_eq(t->g[19].b, 0xFFFEu, "-2 as two's complement");
    expect(t, 20, zephyr_ID_TaskDelete, 0, P, -1);
    cr_assert_eq(t->n, 21u);
    cr_assert_str_eq(t->task_name[P], "producer");
    cr_assert_str_eq(t->task_name[C], "renamed");
    cr_assert_str_eq(t->task_name[M], "main");
    cr_assert(t->catalogue, "evrec stats recognises the RTOS catalogue");
    cr_assert_eq(t->sched_anomalies, 0, "the task-state model finds every switch consistent");
    free(t);
}

/* k_sem, k_mutex, k_msgq, k_event: an operation that succeeds at once, a wait that ends in
 * Unblock or in Timeout, a call from an ISR (NoTask), names given or by kind and number. */
Test(zephyr_hooks, object_operations_and_waits)
{
    start();
    struct k_thread a;
    thread(&a, "worker", 4);
    switch_to(0, &a);
    struct k_sem sem, other_sem;
    struct k_mutex mtx;
    struct k_msgq q;
    struct k_event ev;
    const k_timeout_t forever = {-1};
    sys_trace_k_sem_init_user(&sem, 0);
    cr_assert_eq(evrec_zephyr_object_name(&sem, "tick_sem"), EVREC_OK);
    sys_trace_k_mutex_init_user(&mtx, 0);
    cr_assert_eq(evrec_zephyr_object_name(&q, "work_q"), EVREC_OK, "named before it is seen");

    sys_trace_k_sem_take_exit_user(&sem, forever, 0);            /* 2 Take */
    sys_trace_k_sem_take_blocking_user(&sem, forever);           /* 3 Block */
    sys_trace_k_sem_take_exit_user(&sem, forever, 0);            /* 4 Unblock */
    sys_trace_k_sem_take_blocking_user(&sem, forever);           /* 5 Block */
    sys_trace_k_sem_take_exit_user(&sem, forever, -11);          /* 6 Timeout */
    sys_trace_k_sem_take_exit_user(&sem, (k_timeout_t){0}, -16); /* no wait, failed: nothing */
    in_isr = true;
    sys_trace_k_sem_give_enter_user(&other_sem); /* 7 Give from an ISR */
    in_isr = false;
    sys_trace_k_mutex_lock_exit_user(&mtx, forever, 0); /* 8 Lock */
    sys_trace_k_mutex_unlock_exit_user(&mtx, 0);        /* 9 Unlock */
    sys_trace_k_mutex_unlock_exit_user(&mtx, -1);       /* not the owner: nothing */
    sys_trace_k_msgq_put_exit_user(&q, forever, 0);     /* 10 Send */
    sys_trace_k_msgq_get_blocking_user(&q, forever);    /* 11 Block */
    sys_trace_k_msgq_get_exit_user(&q, forever, 0);     /* 12 Unblock */
    sys_trace_k_event_init_user(&ev);
    sys_trace_k_event_post_exit_user(&ev, 1u, 1u);              /* 13 Set */
    sys_trace_k_event_wait_exit_user(&ev, 1u, 1);               /* 14 Consume */
    sys_trace_k_event_wait_blocking_user(&ev, 2u, 0u, forever); /* 15 Block */
    sys_trace_k_event_wait_exit_user(&ev, 2u, 0);               /* 16 Timeout (nothing received) */

    trace_t *t = stop();
    const uint16_t W = 1, SEM = 1, MTX = 2, Q = 3, OTHER = 4, EV = 5, NO = zephyr_RtosTask_NoTask;
    struct {
        uint16_t id, task, object;
        uint8_t type;
    } want[] = {
        {zephyr_ID_SemOp, W, SEM, zephyr_RtosSemOp_Take},
        {zephyr_ID_SemOp, W, SEM, zephyr_RtosSemOp_Block},
        {zephyr_ID_SemOp, W, SEM, zephyr_RtosSemOp_Unblock},
        {zephyr_ID_SemOp, W, SEM, zephyr_RtosSemOp_Block},
        {zephyr_ID_SemOp, W, SEM, zephyr_RtosSemOp_Timeout},
        {zephyr_ID_SemOp, NO, OTHER, zephyr_RtosSemOp_Give},
        {zephyr_ID_MutexOp, W, MTX, zephyr_RtosMutexOp_Lock},
        {zephyr_ID_MutexOp, W, MTX, zephyr_RtosMutexOp_Unlock},
        {zephyr_ID_QueueOp, W, Q, zephyr_RtosQueueOp_Send},
        {zephyr_ID_QueueOp, W, Q, zephyr_RtosQueueOp_Block},
        {zephyr_ID_QueueOp, W, Q, zephyr_RtosQueueOp_Unblock},
        {zephyr_ID_EventOp, W, EV, zephyr_RtosEventOp_Set},
        {zephyr_ID_EventOp, W, EV, zephyr_RtosEventOp_Consume},
        {zephyr_ID_EventOp, W, EV, zephyr_RtosEventOp_Block},
        {zephyr_ID_EventOp, W, EV, zephyr_RtosEventOp_Timeout},
    };
    const unsigned first = 2; /* TaskCreate, TaskSwitchIn */
    cr_assert_eq(t->n, first + sizeof want / sizeof want[0]);
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
        expect(t, first + i, want[i].id, 0, want[i].task, want[i].type);
        cr_assert_eq(t->g[first + i].b, want[i].object, "record %u: object %u, expected %u", first + i,
                     t->g[first + i].b, want[i].object);
    }
    cr_assert_str_eq(t->object_name[SEM], "tick_sem");
    cr_assert_str_eq(t->object_name[MTX], "mutex1");
    cr_assert_str_eq(t->object_name[Q], "work_q");
    cr_assert_str_eq(t->object_name[OTHER], "sem2", "tick_sem was sem1 until named");
    cr_assert_str_eq(t->object_name[EV], "event1");
    cr_assert(t->catalogue);
    cr_assert_eq(t->sched_anomalies, 0);
    free(t);
}
