/* SPDX-License-Identifier: Apache-2.0 */
/* The ThreadX trace hooks without the kernel: evrec_threadx.c built against stand-ins of the
 * kernel's headers (standin/: the fields and constants it reads, with the kernel's names), driven
 * as the kernel drives it: TX_TRACE_IN_LINE_INSERT() expanded as in the kernel's sources, and the
 * execution-change notifications _tx_execution_thread_enter/exit, _tx_execution_isr_enter/exit.
 * Records go through the fake-clock recorder and are read back from the buffer. */
#include <criterion/criterion.h>
#include <string.h>

#include "tx_api.h"
#include "tx_thread.h"
#include "tx_trace.h"

#include "threadx_events.h"

/* The scheduler state the hooks read (the kernel's globals). */
TX_THREAD *_tx_thread_current_ptr;
TX_THREAD *_tx_thread_execute_ptr;
volatile ULONG _tx_thread_system_state;
volatile UINT _tx_thread_preempt_disable;
TX_TIMER_INTERNAL *_tx_timer_expired_timer_ptr;
volatile ULONG standin_ipsr;

VOID _tx_execution_thread_enter(void);
VOID _tx_execution_thread_exit(void);
VOID _tx_execution_isr_enter(void);
VOID _tx_execution_isr_exit(void);

static evrec_host_t host;
static evrec_recorder_t rec;
static uint32_t buf[4096];

static void start(void)
{
    evrec_host_t *hosts[1] = {&host};
    cr_assert_eq(evrec_recorder_init(&rec, buf, sizeof buf), EVREC_OK);
    evrec_host_init(&host);
    cr_assert_eq(evrec_threadx_init(hosts, 1), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &threadx_meta, 1000u), EVREC_OK);
    _tx_thread_current_ptr = NULL;
    _tx_thread_execute_ptr = NULL;
    _tx_thread_system_state = 0;
    _tx_thread_preempt_disable = 0;
    standin_ipsr = 0;
}

/* The records after Start, up to Stop: pointers into the buffer and their ids. */
typedef struct {
    const uint8_t *p[64];
    uint16_t id[64];
    unsigned n;
} recs_t;

static recs_t stop(void)
{
    recs_t r = {{0}, {0}, 0};
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    const uint8_t *p = evrec_recorder_records(&rec);
    const uint8_t *end = p + evrec_recorder_counts(&rec).used;
    while (p < end) {
        uint16_t id;
        memcpy(&id, p + 4, sizeof id);
        cr_assert_lt(id, threadx_meta.event_count);
        size_t size = threadx_meta.structs[threadx_meta.events[id].struct_id].native_size;
        if (id != 0u) { /* not EventControl */
            cr_assert_lt(r.n, 64u);
            r.p[r.n] = p;
            r.id[r.n++] = id;
        }
        p += (size + 3u) & ~(size_t)3u;
    }
    return r;
}

#define REC(r, k, T) ((const threadx_##T##_t *)(const void *)(r).p[k])

/* What tx_thread_create() does for the hooks: names the thread, then its insert point. */
static void create(TX_THREAD *t, const char *name, UINT prio)
{
    memset(t, 0, sizeof *t);
    t->tx_thread_name = (CHAR *)name;
    t->tx_thread_priority = prio;
    t->tx_thread_state = TX_SUSPENDED;
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_THREAD_CREATE, t, prio, 0, 1024, 0)
}

/* _tx_thread_system_resume(): the insert point sees the state before the resume. */
static void resume(TX_THREAD *t)
{
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_THREAD_RESUME, t, t->tx_thread_state, 0, _tx_thread_execute_ptr, 0)
    t->tx_thread_state = TX_READY;
}

Test(threadx_hooks, create_switch_sleep_idle)
{
    static TX_THREAD worker;
    start();
    create(&worker, "a thread name of 30 characters", 7);
    resume(&worker);
    _tx_thread_execute_ptr = _tx_thread_current_ptr = &worker; /* the port's scheduler */
    _tx_execution_thread_enter();
    worker.tx_thread_state = TX_SLEEP; /* tx_thread_sleep() */
    _tx_thread_execute_ptr = NULL;
    _tx_execution_thread_exit(); /* _tx_thread_system_return() */
    recs_t r = stop();

    cr_assert_eq(r.n, 5u);
    cr_assert_eq(r.id[0], threadx_ID_TaskCreate);
    uint16_t task = REC(r, 0, TaskCreate)->task;
    cr_assert_eq(task, 1u);
    cr_assert_eq(REC(r, 0, TaskCreate)->priority, 7u);
#if EVREC_THREADX_NAME_COPY
    cr_assert_str_eq(threadx_RtosTask_runtime_names[0], "a thread name of 30 cha"); /* copied: 23 + NUL */
#else
    cr_assert_eq(threadx_RtosTask_runtime_names[0], worker.tx_thread_name); /* the kernel's pointer */
#endif
    cr_assert_eq(r.id[1], threadx_ID_TaskReady);
    cr_assert_eq(REC(r, 1, TaskReady)->task, task);
    cr_assert_eq(r.id[2], threadx_ID_TaskSwitchIn);
    cr_assert_eq(REC(r, 2, TaskSwitchIn)->type, threadx_RtosResume_Start);
    cr_assert_eq(r.id[3], threadx_ID_TaskSwitchOut);
    cr_assert_eq(REC(r, 3, TaskSwitchOut)->task, task);
    cr_assert_eq(REC(r, 3, TaskSwitchOut)->type, threadx_RtosSuspend_Delay);
    cr_assert_eq(r.id[4], threadx_ID_IdleSleep); /* no thread ready */
}

/* An interrupt makes a higher-priority thread ready: the interrupted thread leaves the CPU at
 * the handler's exit (Preempted), and comes back later as ResumeFromIsr. */
Test(threadx_hooks, isr_preemption)
{
    static TX_THREAD low, high;
    start();
    create(&low, "low", 20);
    create(&high, "high", 3);
    resume(&low);
    _tx_thread_execute_ptr = _tx_thread_current_ptr = &low;
    _tx_execution_thread_enter();
    _tx_thread_system_state = 1; /* _tx_thread_context_save() */
    _tx_execution_isr_enter();
    resume(&high);
    _tx_thread_execute_ptr = &high;
    _tx_execution_isr_exit(); /* before _tx_thread_context_restore() */
    _tx_thread_system_state = 0;
    _tx_thread_current_ptr = &high;
    _tx_execution_thread_enter();
    high.tx_thread_state = TX_SUSPENDED;
    _tx_thread_execute_ptr = &low;
    _tx_execution_thread_exit();
    _tx_thread_current_ptr = &low;
    _tx_execution_thread_enter();
    recs_t r = stop();

    static const uint16_t want[] = {threadx_ID_TaskCreate,    threadx_ID_TaskCreate,    threadx_ID_TaskReady,
                                    threadx_ID_TaskSwitchIn,  threadx_ID_IsrEnter,      threadx_ID_TaskReady,
                                    threadx_ID_IsrExit,       threadx_ID_TaskSwitchOut, threadx_ID_TaskSwitchIn,
                                    threadx_ID_TaskSwitchOut, threadx_ID_TaskSwitchIn};
    cr_assert_eq(r.n, sizeof want / sizeof want[0]);
    for (unsigned k = 0; k < r.n; k++) {
        cr_assert_eq(r.id[k], want[k], "record %u: id %u, expected %u", k, r.id[k], want[k]);
    }
    cr_assert_eq(REC(r, 7, TaskSwitchOut)->task, 1u); /* low */
    cr_assert_eq(REC(r, 7, TaskSwitchOut)->type, threadx_RtosSuspend_Preempted);
    cr_assert_eq(REC(r, 8, TaskSwitchIn)->task, 2u); /* high */
    cr_assert_eq(REC(r, 9, TaskSwitchOut)->type, threadx_RtosSuspend_Suspended);
    cr_assert_eq(REC(r, 10, TaskSwitchIn)->task, 1u);
    cr_assert_eq(REC(r, 10, TaskSwitchIn)->type, threadx_RtosResume_ResumeFromIsr);
}

/* A receive on an empty queue records nothing at the call; the suspension is the Block, the
 * resume with TX_SUCCESS the Unblock; a timeout ends the next wait. A put with no waiter is
 * a Give, a mutex get of a free mutex a Lock. */
Test(threadx_hooks, queue_wait_and_objects)
{
    static TX_THREAD rx;
    static TX_QUEUE q;
    static TX_SEMAPHORE sem;
    static TX_MUTEX mtx;
    start();
    q.tx_queue_name = (CHAR *)"rx_queue";
    sem.tx_semaphore_name = (CHAR *)"sem";
    mtx.tx_mutex_name = (CHAR *)"mtx";
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_QUEUE_CREATE, &q, 1, 0, 64, 0)
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_SEMAPHORE_CREATE, &sem, 0, 0, 0, 0)
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_MUTEX_CREATE, &mtx, 1, 0, 0, 0)
    create(&rx, "rx", 5);
    _tx_thread_current_ptr = &rx;
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_QUEUE_RECEIVE, &q, 0, 100, 0u, 0) /* empty */
    rx.tx_thread_state = TX_QUEUE_SUSP;
    rx.tx_thread_suspend_control_block = &q;
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_THREAD_SUSPEND, &rx, TX_QUEUE_SUSP, 0, 0, 0)
    rx.tx_thread_suspend_status = TX_SUCCESS; /* a sender gave it a message */
    resume(&rx);
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_SEMAPHORE_PUT, &sem, 0u, 0u, 0, 0)
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_MUTEX_GET, &mtx, 100, 0, 0, 0)
    rx.tx_thread_state = TX_SEMAPHORE_SUSP;
    rx.tx_thread_suspend_control_block = &sem;
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_THREAD_SUSPEND, &rx, TX_SEMAPHORE_SUSP, 0, 0, 0)
    rx.tx_thread_suspend_status = TX_NO_INSTANCE; /* the timeout */
    resume(&rx);
    recs_t r = stop();

    cr_assert_str_eq(threadx_RtosObject_runtime_names[0], "rx_queue");
    cr_assert_str_eq(threadx_RtosObject_runtime_names[1], "sem");
    static const uint16_t want[] = {threadx_ID_TaskCreate, threadx_ID_QueueOp, threadx_ID_QueueOp,
                                    threadx_ID_TaskReady,  threadx_ID_SemOp,   threadx_ID_MutexOp,
                                    threadx_ID_SemOp,      threadx_ID_SemOp,   threadx_ID_TaskReady};
    cr_assert_eq(r.n, sizeof want / sizeof want[0]);
    for (unsigned k = 0; k < r.n; k++) {
        cr_assert_eq(r.id[k], want[k], "record %u: id %u, expected %u", k, r.id[k], want[k]);
    }
    cr_assert_eq(REC(r, 1, QueueOp)->type, threadx_RtosQueueOp_Block);
    cr_assert_eq(REC(r, 1, QueueOp)->object, 1u);
    cr_assert_eq(REC(r, 2, QueueOp)->type, threadx_RtosQueueOp_Unblock);
    cr_assert_eq(REC(r, 4, SemOp)->type, threadx_RtosSemOp_Give);
    cr_assert_eq(REC(r, 5, MutexOp)->type, threadx_RtosMutexOp_Lock);
    cr_assert_eq(REC(r, 6, SemOp)->type, threadx_RtosSemOp_Block);
    cr_assert_eq(REC(r, 7, SemOp)->type, threadx_RtosSemOp_Timeout);
    cr_assert_eq(REC(r, 7, SemOp)->task, 1u);
}

Test(threadx_hooks, init_arguments)
{
    evrec_host_t *hosts[1] = {&host};
    cr_assert_eq(evrec_threadx_init(NULL, 1), EVREC_E_ARG);
    cr_assert_eq(evrec_threadx_init(hosts, 0), EVREC_E_ARG);
    cr_assert_eq(evrec_threadx_init(hosts, 2), EVREC_E_ARG); /* built for one core */
    cr_assert_eq(evrec_threadx_isr_name(256, "x"), EVREC_E_ARG);
    cr_assert_eq(evrec_threadx_isr_name(3, NULL), EVREC_E_ARG);
}

/* An object call from an interrupt handler is NoTask's, from the thread its own. On Cortex-M the
 * kernel does not raise _tx_thread_system_state in a handler: its TX_THREAD_GET_SYSTEM_STATE()
 * also reads the IPSR, which the hooks must use too. */
Test(threadx_hooks, object_call_in_isr)
{
    static TX_THREAD worker;
    static TX_SEMAPHORE sem;
    start();
    sem.tx_semaphore_name = (CHAR *)"sem";
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_SEMAPHORE_CREATE, &sem, 0, 0, 0, 0)
    create(&worker, "worker", 5);
    _tx_thread_execute_ptr = _tx_thread_current_ptr = &worker;
    _tx_execution_thread_enter();
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_SEMAPHORE_PUT, &sem, 0u, 0u, 0, 0)
    standin_ipsr = 16u + 8u; /* IRQ 8; _tx_thread_system_state stays 0, as on Cortex-M */
    _tx_execution_isr_enter();
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_SEMAPHORE_PUT, &sem, 1u, 0u, 0, 0)
    _tx_execution_isr_exit();
    standin_ipsr = 0;
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_SEMAPHORE_GET, &sem, 0, 2u, 0, 0)
    recs_t r = stop();

    static const uint16_t want[] = {threadx_ID_TaskCreate, threadx_ID_TaskSwitchIn, threadx_ID_SemOp,
                                    threadx_ID_IsrEnter,   threadx_ID_SemOp,        threadx_ID_IsrExit,
                                    threadx_ID_SemOp};
    cr_assert_eq(r.n, sizeof want / sizeof want[0]);
    for (unsigned k = 0; k < r.n; k++) {
        cr_assert_eq(r.id[k], want[k], "record %u: id %u, expected %u", k, r.id[k], want[k]);
    }
    cr_assert_eq(REC(r, 2, SemOp)->task, 1u);
    cr_assert_eq(REC(r, 2, SemOp)->object, 1u);
    cr_assert_eq(REC(r, 4, SemOp)->task, threadx_RtosTask_NoTask);
    cr_assert_eq(REC(r, 4, SemOp)->type, threadx_RtosSemOp_Give);
    cr_assert_eq(REC(r, 6, SemOp)->task, 1u);
    cr_assert_eq(REC(r, 6, SemOp)->type, threadx_RtosSemOp_Take);
}

/* What tx_semaphore_create() and tx_semaphore_delete() do for the hooks. */
static void sem_create(TX_SEMAPHORE *s, const char *name)
{
    memset(s, 0, sizeof *s);
    s->tx_semaphore_name = (CHAR *)name;
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_SEMAPHORE_CREATE, s, 0, 0, 0, 0)
}
static void sem_delete(TX_SEMAPHORE *s)
{
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_SEMAPHORE_DELETE, s, 0, 0, 0, 0)
}
static void thread_delete(TX_THREAD *t){TX_TRACE_IN_LINE_INSERT(TX_TRACE_THREAD_DELETE, t, 0, 0, 0, 0)}

/* Names in memory the application reuses after the delete (EVREC_THREADX_NAME_COPY 0: kept as
 * the kernel's pointer, copied at delete; 1: copied at create): the saved names are still the
 * names the thread and the object had, and every thread and object is named. */
Test(threadx_hooks, names_after_delete_and_reuse)
{
    static TX_THREAD worker, other;
    static TX_SEMAPHORE sem;
    static char thread_name[16], sem_name[16];
    start();
    strcpy(thread_name, "worker-1");
    strcpy(sem_name, "sem-1");
    create(&worker, thread_name, 5);
    sem_create(&sem, sem_name);
    create(&other, "other", 6);
    thread_delete(&worker);
    sem_delete(&sem);
    strcpy(thread_name, "reused");
    strcpy(sem_name, "reused");
    recs_t r = stop();

    cr_assert_eq(r.n, 3u);
    cr_assert_eq(r.id[2], threadx_ID_TaskDelete);
    cr_assert_eq(REC(r, 2, TaskDelete)->task, 1u);
    cr_assert_eq(REC(r, 2, TaskDelete)->priority, 5u);
    cr_assert_str_eq(threadx_RtosTask_runtime_names[0], "worker-1");
    cr_assert_str_eq(threadx_RtosTask_runtime_names[1], "other");
    cr_assert_str_eq(threadx_RtosObject_runtime_names[0], "sem-1");
}

/* What tx_byte_allocate() does after a successful search of the pool: its extension, with the
 * kernel's local names. */
static void byte_allocated(TX_BYTE_POOL *pool_ptr)
{
    TX_INTERRUPT_SAVE_AREA
    static unsigned char memory[16];
    unsigned char *work_ptr = memory;
    TX_BYTE_ALLOCATE_EXTENSION
}

/* A block allocation with a free block is an Allocate, one without records nothing at the call:
 * the suspension is the Block, the resume with TX_SUCCESS (a release gave it the block) the
 * Unblock; every release is a Release; a byte allocation is recorded at its search's end. */
Test(threadx_hooks, pools)
{
    static TX_THREAD user;
    static TX_BLOCK_POOL blocks;
    static TX_BYTE_POOL bytes;
    start();
    blocks.tx_block_pool_name = (CHAR *)"blocks";
    bytes.tx_byte_pool_name = (CHAR *)"bytes";
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_BLOCK_POOL_CREATE, &blocks, 0, 4, 32, 0)
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_BYTE_POOL_CREATE, &bytes, 0, 1024, 0, 0)
    create(&user, "user", 5);
    _tx_thread_execute_ptr = _tx_thread_current_ptr = &user;
    _tx_execution_thread_enter();
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_BLOCK_ALLOCATE, &blocks, 0, 100, 1u, 0) /* one block free */
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_BLOCK_ALLOCATE, &blocks, 0, 100, 0u, 0) /* none: it waits */
    user.tx_thread_state = TX_BLOCK_MEMORY;
    user.tx_thread_suspend_control_block = &blocks;
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_THREAD_SUSPEND, &user, TX_BLOCK_MEMORY, 0, 0, 0)
    user.tx_thread_suspend_status = TX_SUCCESS;
    resume(&user);
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_BLOCK_RELEASE, &blocks, 0, 0u, 0, 0)
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_BYTE_ALLOCATE, &bytes, 0, 64u, 100, 0) /* nothing: not known yet */
    byte_allocated(&bytes);
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_BYTE_RELEASE, &bytes, 0, 1u, 512u, 0) /* a thread waits: still a Release */
    recs_t r = stop();

    cr_assert_str_eq(threadx_RtosObject_runtime_names[0], "blocks");
    cr_assert_str_eq(threadx_RtosObject_runtime_names[1], "bytes");
    static const uint8_t want[] = {threadx_RtosPoolOp_Allocate, threadx_RtosPoolOp_Block,
                                   threadx_RtosPoolOp_Unblock,  threadx_RtosPoolOp_Release,
                                   threadx_RtosPoolOp_Allocate, threadx_RtosPoolOp_Release};
    static const uint16_t object[] = {1u, 1u, 1u, 1u, 2u, 2u};
    /* TaskCreate, TaskSwitchIn, the pool records with TaskReady after the Unblock */
    cr_assert_eq(r.n, 2u + 6u + 1u);
    for (unsigned k = 2, op = 0; k < r.n; k++) {
        if (r.id[k] == threadx_ID_TaskReady) {
            cr_assert_eq(op, 3u, "TaskReady after the Unblock");
            continue;
        }
        cr_assert_eq(r.id[k], threadx_ID_PoolOp, "record %u", k);
        cr_assert_eq(REC(r, k, PoolOp)->type, want[op], "record %u: op %u, expected %u", k,
                     REC(r, k, PoolOp)->type, want[op]);
        cr_assert_eq(REC(r, k, PoolOp)->object, object[op]);
        cr_assert_eq(REC(r, k, PoolOp)->task, 1u);
        op++;
    }
}

static ULONG expired_with;
static unsigned expired_count;
static VOID on_expiry(ULONG param)
{
    expired_with = param;
    expired_count++;
}

/* The kernel's timer thread calling a timer's expiration function, as tx_timer_thread_entry()
 * does: with _tx_timer_expired_timer_ptr set to it. */
static void expire(TX_TIMER *t)
{
    _tx_timer_expired_timer_ptr = &t->tx_timer_internal;
    t->tx_timer_internal.tx_timer_internal_timeout_function(t->tx_timer_internal.tx_timer_internal_timeout_param);
    _tx_timer_expired_timer_ptr = NULL;
}

/* tx_timer_create(): the hooks wrap the expiration function; each expiry is a TimerExpired of
 * the named timer, by the timer thread, then the application's function with its parameter. */
Test(threadx_hooks, timer_expiry)
{
    static TX_THREAD timer_thread;
    static TX_TIMER timer;
    start();
    create(&timer_thread, "System Timer Thread", 0);
    memset(&timer, 0, sizeof timer);
    timer.tx_timer_name = (CHAR *)"blink";
    timer.tx_timer_internal.tx_timer_internal_timeout_function = on_expiry;
    timer.tx_timer_internal.tx_timer_internal_timeout_param = 42u;
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_TIMER_CREATE, &timer, 3, 3, 1, 0)
    cr_assert_neq((void *)timer.tx_timer_internal.tx_timer_internal_timeout_function, (void *)on_expiry);
    _tx_thread_execute_ptr = _tx_thread_current_ptr = &timer_thread;
    _tx_execution_thread_enter();
    expire(&timer);
    expire(&timer);
    recs_t r = stop();

    cr_assert_eq(expired_count, 2u);
    cr_assert_eq(expired_with, 42u);
    cr_assert_str_eq(threadx_RtosObject_runtime_names[0], "blink");
    cr_assert_eq(r.n, 4u);
    for (unsigned k = 2; k < 4u; k++) {
        cr_assert_eq(r.id[k], threadx_ID_TimerExpired);
        cr_assert_eq(REC(r, k, TimerExpired)->task, 1u);
        cr_assert_eq(REC(r, k, TimerExpired)->timer, 1u);
    }
    /* Deleted and created again at the same address: wrapped once, still its own function. */
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_TIMER_DELETE, &timer, 0, 0, 0, 0)
    timer.tx_timer_internal.tx_timer_internal_timeout_function = on_expiry;
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_TIMER_CREATE, &timer, 3, 3, 1, 0)
    expire(&timer);
    cr_assert_eq(expired_count, 3u);
}

/* Pools and timers keep their names as the other objects do: the kernel's pointer, copied at
 * delete (EVREC_THREADX_NAME_COPY 0) or at create (1): a name buffer the application rewrites
 * after the delete does not rename them. */
Test(threadx_hooks, pool_and_timer_names_after_delete_and_reuse)
{
    static TX_BLOCK_POOL blocks;
    static TX_BYTE_POOL bytes;
    static TX_TIMER timer;
    static char block_name[16], byte_name[16], timer_name[16];
    start();
    strcpy(block_name, "blocks-1");
    strcpy(byte_name, "bytes-1");
    strcpy(timer_name, "timer-1");
    memset(&timer, 0, sizeof timer);
    blocks.tx_block_pool_name = block_name;
    bytes.tx_byte_pool_name = byte_name;
    timer.tx_timer_name = timer_name;
    timer.tx_timer_internal.tx_timer_internal_timeout_function = on_expiry;
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_BLOCK_POOL_CREATE, &blocks, 0, 4, 32, 0)
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_BYTE_POOL_CREATE, &bytes, 0, 1024, 0, 0)
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_TIMER_CREATE, &timer, 3, 3, 1, 0)
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_BLOCK_POOL_DELETE, &blocks, 0, 0, 0, 0)
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_BYTE_POOL_DELETE, &bytes, 0, 0, 0, 0)
    TX_TRACE_IN_LINE_INSERT(TX_TRACE_TIMER_DELETE, &timer, 0, 0, 0, 0)
    strcpy(block_name, "reused");
    strcpy(byte_name, "reused");
    strcpy(timer_name, "reused");
    (void)stop();

    cr_assert_str_eq(threadx_RtosObject_runtime_names[0], "blocks-1");
    cr_assert_str_eq(threadx_RtosObject_runtime_names[1], "bytes-1");
    cr_assert_str_eq(threadx_RtosObject_runtime_names[2], "timer-1");
}
