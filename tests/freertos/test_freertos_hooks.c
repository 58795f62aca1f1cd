/* SPDX-License-Identifier: Apache-2.0 */
/* The FreeRTOS trace hooks without the kernel: evrec_freertos.h's macros expanded against a mock
 * of the kernel internals they read (the TCB's list items and uxTaskNumber, the delayed and
 * suspended lists, Queue_t's uxQueueNumber and ucQueueType, pxCurrentTCB), recording through
 * the fake-clock recorder; the records are read back from the buffer. */
#include <criterion/criterion.h>
#include <string.h>

/* What FreeRTOSConfig.h and FreeRTOS.h give the hooks. */
#define configUSE_TRACE_FACILITY 1
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_vTaskDelete 1
#define configIDLE_TASK_NAME "IDLE"
#define configTASK_NOTIFICATION_ARRAY_ENTRIES 2
#define tskKERNEL_VERSION_MAJOR 11 /* the waiter's end at the return hooks */
#include "evrec_freertos.h"
#include "freertos_events.h"

/* The kernel internals the macros read, with the kernel's names. */
typedef struct {
    void *pvContainer;
} ListItem_t;
typedef struct {
    int items;
} List_t;
#define listLIST_ITEM_CONTAINER(item) ((item)->pvContainer)
typedef struct {
    ListItem_t xStateListItem, xEventListItem;
    unsigned uxPriority, uxTaskNumber;
    unsigned uxTCBNumber; /* the kernel's: 1, 2, ... in creation order */
    char pcTaskName[16];
    uint32_t ulNotifiedValue[2];
    uint8_t ucNotifyState[2];
} TCB_t;
typedef unsigned UBaseType_t;
typedef struct {
    unsigned uxQueueNumber;
    uint8_t ucQueueType;
    UBaseType_t uxMessagesWaiting;
} Queue_t;
typedef struct {
    const char *pcTimerName;
    UBaseType_t uxTimerNumber;
} Timer_t;
typedef struct {
    unsigned uxEventGroupNumber;
} EventGroup_t;
typedef uint32_t TickType_t;
#define taskWAITING_NOTIFICATION ((uint8_t)1)
#define taskNOTIFICATION_RECEIVED ((uint8_t)2)
static List_t ready_list, xDelayedTaskList1, xDelayedTaskList2, xSuspendedTaskList, xTasksWaitingTermination,
    waiters;
static List_t *pxDelayedTaskList = &xDelayedTaskList1, *pxOverflowDelayedTaskList = &xDelayedTaskList2;
static TCB_t *pxCurrentTCB;

#include "freertos_recording.h"

static unsigned tcb_number; /* the kernel's TCB counter */

static void start(void)
{
    tcb_number = 0;
    recording_start();
}


/* Field values of a record of the catalogue (task, then object or type). */
#define FIELD(r, k, T) ((const T *)(const void *)(r).p[k])

static void create(TCB_t *t, const char *name, unsigned prio)
{
    memset(t, 0, sizeof *t);
    size_t n = strlen(name) < sizeof t->pcTaskName ? strlen(name) : sizeof t->pcTaskName - 1u;
    memcpy(t->pcTaskName, name, n); /* the kernel keeps configMAX_TASK_NAME_LEN - 1 */
    t->uxPriority = prio;
    t->uxTCBNumber = ++tcb_number;
    t->xStateListItem.pvContainer = &ready_list;
    traceTASK_CREATE(t);
}

static void switch_to(TCB_t *t)
{
    if (pxCurrentTCB != NULL) {
        traceTASK_SWITCHED_OUT();
    }
    pxCurrentTCB = t;
    traceTASK_SWITCHED_IN();
}

static void check_switch(recs_t r, unsigned k, uint16_t id, unsigned task, unsigned type)
{
    cr_assert_eq(r.id[k], id, "record %u: id %u, expected %u", k, r.id[k], id);
    const freertos_TaskSwitchIn_t *e = FIELD(r, k, freertos_TaskSwitchIn_t);
    cr_expect_eq(e->task, task, "record %u: task %u, expected %u", k, e->task, task);
    cr_expect_eq(e->type, type, "record %u: type %u, expected %u", k, e->type, type);
}

Test(freertos_hooks, names_ids_and_idle)
{
    static TCB_t idle, a, b;
    start();
    create(&a, "alpha", 3);
    create(&b, "a_very_long_task_name", 2);
    traceENTER_vTaskStartScheduler(); /* then the kernel creates the idle task */
    create(&idle, "IDLE", 0);
    traceTASK_DELETE(&a);
    strcpy(a.pcTaskName, "gone"); /* the TCB may be freed after its delete: the name was copied */
    recs_t r = stop();
    cr_assert_eq(a.uxTaskNumber, 1u);
    cr_assert_eq(b.uxTaskNumber, 2u);
    cr_assert_eq(idle.uxTaskNumber, freertos_RtosTask_Idle);
    cr_assert_str_eq(freertos_RtosTask_runtime_names[0], "alpha");
    cr_assert_eq(strlen(freertos_RtosTask_runtime_names[1]), 15u); /* NAME_LEN 16 with the NUL */
    cr_assert_eq(r.n, 4u);
    cr_assert_eq(r.id[3], freertos_ID_TaskDelete);
    cr_assert_eq(r.id[0], freertos_ID_TaskCreate);
    cr_assert_eq(FIELD(r, 0, freertos_TaskCreate_t)->priority, 3u);
    cr_assert_eq(FIELD(r, 2, freertos_TaskCreate_t)->task, freertos_RtosTask_Idle);
}

/* V11+: the idle tasks are the creates that follow traceENTER_vTaskStartScheduler(), by count
 * (configNUMBER_OF_CORES, 1 here), not by name: a task named "IDLE" before it is an ordinary
 * task, the idle task has value 0 whatever its name, the create after it its TCB number. */
Test(freertos_hooks, idle_task_by_count_after_start_scheduler)
{
    static TCB_t early, idle, timer;
    start();
    create(&early, "IDLE", 2);
    traceENTER_vTaskStartScheduler();
    create(&idle, "Idle task", 0);
    create(&timer, "Tmr Svc", 6);
    recs_t r = stop();
    cr_assert_eq(early.uxTaskNumber, 1u);
    cr_assert_eq(idle.uxTaskNumber, freertos_RtosTask_Idle);
    cr_assert_eq(timer.uxTaskNumber, 3u);
    cr_assert_str_eq(freertos_RtosTask_runtime_names[0], "IDLE");
    cr_assert_null(freertos_RtosTask_runtime_names[1]);
    cr_assert_str_eq(freertos_RtosTask_runtime_names[2], "Tmr Svc");
    cr_assert_eq(r.n, 3u);
    cr_assert_eq(FIELD(r, 1, freertos_TaskCreate_t)->task, freertos_RtosTask_Idle);
}

/* A task's name is its TCB's pcTaskName, read at the save while the task lives (the kernel never
 * rewrites it) and copied into evrec's slot at its delete (the kernel then frees the TCB, or the
 * application reuses a static one): the file names it either way. */
Test(freertos_hooks, name_read_from_the_tcb_until_the_delete_copies_it)
{
    static TCB_t a, b;
    start();
    create(&a, "first", 1);
    create(&b, "other", 1);
    cr_assert_eq(freertos_RtosTask_runtime_names[0], a.pcTaskName); /* no copy at create */
    traceTASK_DELETE(&a);
    memset(a.pcTaskName, 'x', sizeof a.pcTaskName); /* freed and reused */
    (void)stop();
    cr_assert_str_eq(freertos_RtosTask_runtime_names[0], "first");
    cr_assert_neq(freertos_RtosTask_runtime_names[0], a.pcTaskName);
    cr_assert_str_eq(freertos_RtosTask_runtime_names[1], "other");
}

/* A task's value is the kernel's TCB number (the idle task's too is counted by the kernel), past
 * 63 the catalogue's 64 without a name; the names are filled by value, and the whole run-time
 * range counts as handed out so that the saved file names every value that has a name. */
Test(freertos_hooks, task_values_are_the_kernels_numbers)
{
    static TCB_t idle, a, b, late;
    start();
    cr_assert_eq(freertos_RtosTask_runtime.next, freertos_RtosTask_runtime.lim);
    traceENTER_vTaskStartScheduler();
    create(&idle, "IDLE", 0); /* number 1, value 0 */
    tcb_number = 4;
    create(&a, "five", 2);
    create(&b, "six", 2);
    tcb_number = 69;
    create(&late, "seventy", 1);
    recs_t r = stop();
    cr_assert_eq(idle.uxTaskNumber, freertos_RtosTask_Idle);
    cr_assert_eq(a.uxTaskNumber, 5u);
    cr_assert_eq(b.uxTaskNumber, 6u);
    cr_assert_eq(late.uxTaskNumber, 64u);
    cr_assert_null(freertos_RtosTask_runtime_names[0]);
    cr_assert_str_eq(freertos_RtosTask_runtime_names[4], "five");
    cr_assert_str_eq(freertos_RtosTask_runtime_names[5], "six");
    cr_assert_eq(r.n, 4u);
    cr_assert_eq(FIELD(r, 1, freertos_TaskCreate_t)->task, 5u);
    cr_assert_eq(FIELD(r, 3, freertos_TaskCreate_t)->task, 64u);
}

/* Objects' default names by number, 1 to 3 digits, and past the range 128 unnamed (the digits
 * are prepared by evrec_freertos_init(): each init starts the numbers again). */
Test(freertos_hooks, default_object_names)
{
    static Queue_t q[130];
    for (int round = 0; round < 2; round++) {
        start();
        for (unsigned i = 0; i < 130u; i++) {
            q[i].ucQueueType = i == 126u ? 3u : 0u; /* 127: a binary semaphore */
            traceQUEUE_CREATE(&q[i]);
        }
        (void)stop();
        cr_assert_str_eq(freertos_RtosObject_runtime_names[0], "queue1");
        cr_assert_str_eq(freertos_RtosObject_runtime_names[9], "queue10");
        cr_assert_str_eq(freertos_RtosObject_runtime_names[98], "queue99");
        cr_assert_str_eq(freertos_RtosObject_runtime_names[99], "queue100");
        cr_assert_str_eq(freertos_RtosObject_runtime_names[126], "sem127");
        cr_assert_eq(q[126].uxQueueNumber & 0xFFFFu, 127u);
        cr_assert_eq(q[127].uxQueueNumber & 0xFFFFu, 128u);
        cr_assert_eq(q[129].uxQueueNumber & 0xFFFFu, 128u);
    }
}

Test(freertos_hooks, switch_reasons)
{
    static TCB_t a, b;
    start();
    create(&a, "a", 1);
    create(&b, "b", 1);
    pxCurrentTCB = NULL;
    switch_to(&a); /* first run: Start */
    switch_to(&a); /* re-selected (a tick): nothing */
    a.xStateListItem.pvContainer = pxDelayedTaskList;
    switch_to(&b); /* a: vTaskDelay */
    b.xStateListItem.pvContainer = pxOverflowDelayedTaskList;
    b.xEventListItem.pvContainer = &waiters;
    switch_to(&a); /* b: blocked with a timeout */
    a.xStateListItem.pvContainer = &xSuspendedTaskList;
    switch_to(&b); /* a: vTaskSuspend */
    b.xStateListItem.pvContainer = &xSuspendedTaskList;
    switch_to(&a); /* b: blocked forever (still on an event list) */
    a.xStateListItem.pvContainer = &xTasksWaitingTermination;
    switch_to(&b); /* a: deleted itself */
    b.xStateListItem.pvContainer = &ready_list;
    switch_to(&a); /* b: preempted */
    recs_t r = stop();
    cr_assert_eq(r.n, 2u + 1u + 6u * 2u);
    check_switch(r, 2, freertos_ID_TaskSwitchIn, 1, freertos_RtosResume_Start);
    check_switch(r, 3, freertos_ID_TaskSwitchOut, 1, freertos_RtosSuspend_Delay);
    check_switch(r, 4, freertos_ID_TaskSwitchIn, 2, freertos_RtosResume_Start);
    check_switch(r, 5, freertos_ID_TaskSwitchOut, 2, freertos_RtosSuspend_Blocked);
    check_switch(r, 6, freertos_ID_TaskSwitchIn, 1, freertos_RtosResume_Resume);
    check_switch(r, 7, freertos_ID_TaskSwitchOut, 1, freertos_RtosSuspend_Suspended);
    check_switch(r, 9, freertos_ID_TaskSwitchOut, 2, freertos_RtosSuspend_Blocked);
    check_switch(r, 11, freertos_ID_TaskSwitchOut, 1, freertos_RtosSuspend_Exit);
    check_switch(r, 13, freertos_ID_TaskSwitchOut, 2, freertos_RtosSuspend_Preempted);
}

static void check_op(recs_t r, unsigned k, uint16_t id, unsigned task, unsigned object, unsigned type)
{
    cr_assert_eq(r.id[k], id, "record %u: id %u, expected %u", k, r.id[k], id);
    const freertos_QueueOp_t *e = FIELD(r, k, freertos_QueueOp_t); /* same layout for all three */
    cr_expect_eq(e->task, task, "record %u: task %u, expected %u", k, e->task, task);
    cr_expect_eq(e->object, object, "record %u: object %u, expected %u", k, e->object, object);
    cr_expect_eq(e->type, type, "record %u: type %u, expected %u", k, e->type, type);
}

Test(freertos_hooks, objects_waits_and_isr)
{
    static TCB_t a;
    static Queue_t q = {0, 0, 0}, m = {0, 1, 0}, s = {0, 3, 0};
    start();
    create(&a, "a", 1);
    traceQUEUE_CREATE(&q);
    traceQUEUE_CREATE(&m);
    traceQUEUE_CREATE(&s);
    traceQUEUE_REGISTRY_ADD(&q, "rx_queue");
    cr_assert_str_eq(freertos_RtosObject_runtime_names[0], "rx_queue");
    cr_assert_str_eq(freertos_RtosObject_runtime_names[1], "mutex2");
    cr_assert_str_eq(freertos_RtosObject_runtime_names[2], "sem3");
    pxCurrentTCB = NULL;
    switch_to(&a);
    traceBLOCKING_ON_QUEUE_RECEIVE(&q);
    traceBLOCKING_ON_QUEUE_RECEIVE(&q); /* the retry loop blocks again: one wait */
    traceQUEUE_RECEIVE(&q);             /* woken with an item: Unblock, Receive */
    traceQUEUE_RECEIVE_FAILED(&q);      /* a poll that found nothing: no record */
    traceBLOCKING_ON_QUEUE_RECEIVE(&s);
    traceQUEUE_RECEIVE_FAILED(&s); /* it had blocked: Timeout */
    traceQUEUE_RECEIVE(&m);        /* mutex taken: Lock */
    traceQUEUE_SEND(&m);           /* given back: Unlock */
    traceQUEUE_SEND_FROM_ISR(&s);  /* given from an interrupt */
    traceISR_ENTER();
    traceISR_EXIT();
    recs_t r = stop();
    cr_assert_eq(r.n, 1u + 1u + 10u);
    check_op(r, 2, freertos_ID_QueueOp, 1, 1, freertos_RtosQueueOp_Block);
    check_op(r, 3, freertos_ID_QueueOp, 1, 1, freertos_RtosQueueOp_Unblock);
    check_op(r, 4, freertos_ID_QueueOp, 1, 1, freertos_RtosQueueOp_Receive);
    check_op(r, 5, freertos_ID_SemOp, 1, 3, freertos_RtosSemOp_Block);
    check_op(r, 6, freertos_ID_SemOp, 1, 3, freertos_RtosSemOp_Timeout);
    check_op(r, 7, freertos_ID_MutexOp, 1, 2, freertos_RtosMutexOp_Lock);
    check_op(r, 8, freertos_ID_MutexOp, 1, 2, freertos_RtosMutexOp_Unlock);
    check_op(r, 9, freertos_ID_SemOp, freertos_RtosTask_NoTask, 3, freertos_RtosSemOp_Give);
    cr_assert_eq(r.id[10], freertos_ID_IsrEnter);
    cr_assert_eq(r.id[11], freertos_ID_IsrExit);
}

static void check_notify(recs_t r, unsigned k, unsigned task, unsigned giver, unsigned type, unsigned index)
{
    cr_assert_eq(r.id[k], freertos_ID_NotifyOp, "record %u: id %u, expected NotifyOp", k, r.id[k]);
    const freertos_NotifyOp_t *e = FIELD(r, k, freertos_NotifyOp_t);
    cr_expect_eq(e->task, task, "record %u: task %u, expected %u", k, e->task, task);
    cr_expect_eq(e->giver, giver, "record %u: giver %u, expected %u", k, e->giver, giver);
    cr_expect_eq(e->type, type, "record %u: type %u, expected %u", k, e->type, type);
    cr_expect_eq(e->index, index, "record %u: index %u, expected %u", k, e->index, index);
}

/* The notifier's side: Unblock when the task waited (the kernel's ucOriginalNotifyState), else
 * Give; the giver is the running task, NoTask from an interrupt. The waiter's side: Block; after
 * the wait Take when it got one (Take: the count; Wait: the state), Timeout when it could wait,
 * nothing for a poll. */
Test(freertos_hooks, notifications)
{
    static TCB_t a, b;
    TCB_t *pxTCB = &a;
    uint8_t ucOriginalNotifyState = taskWAITING_NOTIFICATION;
    TickType_t xTicksToWait = 5;
    start();
    create(&a, "a", 2);
    create(&b, "b", 1);
    pxCurrentTCB = NULL;
    switch_to(&a);
    traceTASK_NOTIFY_TAKE_BLOCK(0);
    a.xStateListItem.pvContainer = pxDelayedTaskList;
    switch_to(&b);
    traceTASK_NOTIFY(0); /* a waited: Unblock, given by b */
    ucOriginalNotifyState = 0;
    traceTASK_NOTIFY_GIVE_FROM_ISR(1); /* a did not wait on index 1: Give, from an interrupt */
    traceTASK_NOTIFY_FROM_ISR(0);
    a.xStateListItem.pvContainer = &ready_list;
    switch_to(&a);
    /* The waiter's end as the kernel calls it: the macro in the critical section, then the return
     * hook with the value the function returns (the hook uses its parameter uxIndexToWaitOn). */
    UBaseType_t uxIndexToWaitOn = 0;
    a.ulNotifiedValue[0] = 2;
    traceTASK_NOTIFY_TAKE(0); /* got one: Take */
    traceRETURN_ulTaskGenericNotifyTake(2u);
    a.ulNotifiedValue[0] = 0;
    traceTASK_NOTIFY_TAKE(0); /* none after a wait: Timeout */
    traceRETURN_ulTaskGenericNotifyTake(0u);
    uxIndexToWaitOn = 1;
    a.ucNotifyState[1] = taskNOTIFICATION_RECEIVED;
    traceTASK_NOTIFY_WAIT_BLOCK(1);
    traceTASK_NOTIFY_WAIT(1);              /* received: Take */
    traceRETURN_xTaskGenericNotifyWait(1); /* pdTRUE */
    a.ucNotifyState[1] = taskWAITING_NOTIFICATION;
    traceTASK_NOTIFY_WAIT(1); /* none: Timeout */
    traceRETURN_xTaskGenericNotifyWait(0);
    xTicksToWait = 0;
    uxIndexToWaitOn = 0;
    traceTASK_NOTIFY_TAKE(0); /* a poll that found none: nothing */
    traceRETURN_ulTaskGenericNotifyTake(0u);
    uxIndexToWaitOn = 1;
    traceTASK_NOTIFY_WAIT(1);
    traceRETURN_xTaskGenericNotifyWait(0);
    recs_t r = stop();
    cr_assert_eq(r.n, 2u + 14u, "%u records", r.n);
    check_notify(r, 3, 1, 1, freertos_RtosNotifyOp_Block, 0);
    check_switch(r, 4, freertos_ID_TaskSwitchOut, 1, freertos_RtosSuspend_Delay);
    check_notify(r, 6, 1, 2, freertos_RtosNotifyOp_Unblock, 0);
    check_notify(r, 7, 1, freertos_RtosTask_NoTask, freertos_RtosNotifyOp_Give, 1);
    check_notify(r, 8, 1, freertos_RtosTask_NoTask, freertos_RtosNotifyOp_Give, 0);
    check_switch(r, 10, freertos_ID_TaskSwitchIn, 1, freertos_RtosResume_Resume);
    check_notify(r, 11, 1, 1, freertos_RtosNotifyOp_Take, 0);
    check_notify(r, 12, 1, 1, freertos_RtosNotifyOp_Timeout, 0);
    check_notify(r, 13, 1, 1, freertos_RtosNotifyOp_Block, 1);
    check_notify(r, 14, 1, 1, freertos_RtosNotifyOp_Take, 1);
    check_notify(r, 15, 1, 1, freertos_RtosNotifyOp_Timeout, 1);
    (void)pxTCB;
}

/* An event group: its object value and default name at creation; Set; a wait that found its bits
 * (Consume), a poll that did not (nothing); Block, then Unblock or Timeout after the wait (the
 * kernel's xTicksToWait is not 0: it blocked), once the task runs again. */
Test(freertos_hooks, event_groups)
{
    static TCB_t a, b;
    static EventGroup_t g;
    TickType_t xTicksToWait = 0; /* the kernel's: zeroed when the bits were there */
    start();
    create(&a, "a", 2);
    create(&b, "b", 1);
    traceEVENT_GROUP_CREATE(&g);
    cr_assert_eq(g.uxEventGroupNumber, 1u);
    cr_assert_str_eq(freertos_RtosObject_runtime_names[0], "group1");
    evrec_freertos_object_name((uint16_t)g.uxEventGroupNumber, "flags");
    cr_assert_str_eq(freertos_RtosObject_runtime_names[0], "flags");
    pxCurrentTCB = NULL;
    switch_to(&a);
    traceEVENT_GROUP_SET_BITS(&g, 1u);
    traceEVENT_GROUP_WAIT_BITS_END(&g, 1u, 0); /* the bits were there: Consume */
    traceEVENT_GROUP_WAIT_BITS_END(&g, 1u, 1); /* a poll that found them missing: nothing */
    traceEVENT_GROUP_WAIT_BITS_BLOCK(&g, 2u);
    a.xStateListItem.pvContainer = pxDelayedTaskList;
    a.xEventListItem.pvContainer = &waiters;
    switch_to(&b);
    traceEVENT_GROUP_SET_BITS(&g, 2u);
    a.xStateListItem.pvContainer = &ready_list;
    a.xEventListItem.pvContainer = NULL;
    switch_to(&a);
    xTicksToWait = 5;
    traceEVENT_GROUP_WAIT_BITS_END(&g, 2u, 0); /* woken by the bits: Unblock */
    traceEVENT_GROUP_SYNC_BLOCK(&g, 1u, 2u);
    traceEVENT_GROUP_SYNC_END(&g, 1u, 2u, 1); /* Timeout */
    recs_t r = stop();
    cr_assert_eq(r.n, 2u + 12u, "%u records", r.n);
    check_op(r, 3, freertos_ID_EventOp, 1, 1, freertos_RtosEventOp_Set);
    check_op(r, 4, freertos_ID_EventOp, 1, 1, freertos_RtosEventOp_Consume);
    check_op(r, 5, freertos_ID_EventOp, 1, 1, freertos_RtosEventOp_Block);
    check_switch(r, 6, freertos_ID_TaskSwitchOut, 1, freertos_RtosSuspend_Blocked);
    check_op(r, 8, freertos_ID_EventOp, 2, 1, freertos_RtosEventOp_Set);
    check_switch(r, 10, freertos_ID_TaskSwitchIn, 1, freertos_RtosResume_Resume);
    check_op(r, 11, freertos_ID_EventOp, 1, 1, freertos_RtosEventOp_Unblock);
    check_op(r, 12, freertos_ID_EventOp, 1, 1, freertos_RtosEventOp_Block);
    check_op(r, 13, freertos_ID_EventOp, 1, 1, freertos_RtosEventOp_Timeout);
}

/* The timer task: a timer's value and name at creation, TimerExpired; its wait on the command
 * queue (vQueueWaitForMessageRestricted(), which has no BLOCKING hook) is a Block on the queue
 * when the queue is empty, nothing when it is not; the receive that follows the wait records
 * Timeout (nothing came) or Unblock. */
Test(freertos_hooks, timer_task)
{
    static TCB_t t;
    static Queue_t cmd = {0, 0, 0};
    static Timer_t blink = {"blink", 0}, anon = {NULL, 0};
    start();
    create(&t, "Tmr Svc", 6);
    traceQUEUE_CREATE(&cmd);
    traceTIMER_CREATE(&blink);
    traceTIMER_CREATE(&anon);
    cr_assert_eq(blink.uxTimerNumber, 2u);
    cr_assert_str_eq(freertos_RtosObject_runtime_names[1], "blink");
    cr_assert_str_eq(freertos_RtosObject_runtime_names[2], "timer3");
    pxCurrentTCB = NULL;
    switch_to(&t);
    traceENTER_vQueueWaitForMessageRestricted(&cmd, 5, 0); /* empty: Block */
    traceQUEUE_RECEIVE_FAILED(&cmd);                       /* woken by the time: Timeout */
    traceTIMER_EXPIRED(&blink);
    cmd.uxMessagesWaiting = 1;
    traceENTER_vQueueWaitForMessageRestricted(&cmd, 5, 0); /* a command waits: no Block */
    traceQUEUE_RECEIVE(&cmd);                              /* Receive alone */
    cmd.uxMessagesWaiting = 0;
    traceENTER_vQueueWaitForMessageRestricted(&cmd, 5, 1);
    traceQUEUE_RECEIVE(&cmd); /* woken by a command: Unblock, Receive */
    recs_t r = stop();
    cr_assert_eq(r.n, 1u + 1u + 7u, "%u records", r.n);
    check_op(r, 2, freertos_ID_QueueOp, 1, 1, freertos_RtosQueueOp_Block);
    check_op(r, 3, freertos_ID_QueueOp, 1, 1, freertos_RtosQueueOp_Timeout);
    cr_assert_eq(r.id[4], freertos_ID_TimerExpired);
    cr_expect_eq(FIELD(r, 4, freertos_TimerExpired_t)->task, 1u);
    cr_expect_eq(FIELD(r, 4, freertos_TimerExpired_t)->timer, 2u);
    check_op(r, 5, freertos_ID_QueueOp, 1, 1, freertos_RtosQueueOp_Receive);
    check_op(r, 6, freertos_ID_QueueOp, 1, 1, freertos_RtosQueueOp_Block);
    check_op(r, 7, freertos_ID_QueueOp, 1, 1, freertos_RtosQueueOp_Unblock);
    check_op(r, 8, freertos_ID_QueueOp, 1, 1, freertos_RtosQueueOp_Receive);
}

/* The queue hooks read the running task's wait from its core's copy, which every switch-in
 * refreshes: a task that blocked, was switched out and runs again gets its Unblock (also when the
 * task that ran in between blocked on another object); that task, which never waited on the first
 * object, gets none for it. */
Test(freertos_hooks, waits_follow_the_switches)
{
    static TCB_t a, b;
    static Queue_t q = {0, 0, 0}, p = {0, 0, 0};
    start();
    create(&a, "a", 2);
    create(&b, "b", 1);
    traceQUEUE_CREATE(&q);
    traceQUEUE_CREATE(&p);
    pxCurrentTCB = NULL;
    switch_to(&a);
    traceBLOCKING_ON_QUEUE_RECEIVE(&q);
    a.xStateListItem.pvContainer = pxDelayedTaskList; /* blocked with a timeout */
    a.xEventListItem.pvContainer = &waiters;
    switch_to(&b);
    traceQUEUE_SEND(&q); /* b never waited on q: no Unblock */
    traceBLOCKING_ON_QUEUE_RECEIVE(&p);
    b.xStateListItem.pvContainer = pxDelayedTaskList;
    b.xEventListItem.pvContainer = &waiters;
    a.xStateListItem.pvContainer = &ready_list;
    a.xEventListItem.pvContainer = NULL;
    switch_to(&a);
    traceQUEUE_RECEIVE(&q); /* a waited on q: Unblock, then Receive */
    traceQUEUE_RECEIVE(&q); /* its wait ended: Receive alone */
    recs_t r = stop();
    cr_assert_eq(r.n, 13u);
    check_op(r, 3, freertos_ID_QueueOp, 1, 1, freertos_RtosQueueOp_Block);
    check_switch(r, 4, freertos_ID_TaskSwitchOut, 1, freertos_RtosSuspend_Blocked);
    check_switch(r, 5, freertos_ID_TaskSwitchIn, 2, freertos_RtosResume_Start);
    check_op(r, 6, freertos_ID_QueueOp, 2, 1, freertos_RtosQueueOp_Send);
    check_op(r, 7, freertos_ID_QueueOp, 2, 2, freertos_RtosQueueOp_Block);
    check_switch(r, 8, freertos_ID_TaskSwitchOut, 2, freertos_RtosSuspend_Blocked);
    check_switch(r, 9, freertos_ID_TaskSwitchIn, 1, freertos_RtosResume_Resume);
    check_op(r, 10, freertos_ID_QueueOp, 1, 1, freertos_RtosQueueOp_Unblock);
    check_op(r, 11, freertos_ID_QueueOp, 1, 1, freertos_RtosQueueOp_Receive);
    check_op(r, 12, freertos_ID_QueueOp, 1, 1, freertos_RtosQueueOp_Receive);
}

/* A task's wait and its "has run" mark share one byte: ending the wait (Unblock, Timeout) keeps
 * the mark, so the task's next switch-in is a Resume, not a second Start. */
Test(freertos_hooks, a_wait_ending_keeps_the_task_started)
{
    static TCB_t a, b;
    static Queue_t q = {0, 0, 0};
    start();
    create(&a, "a", 1);
    create(&b, "b", 1);
    traceQUEUE_CREATE(&q);
    pxCurrentTCB = NULL;
    switch_to(&a);
    traceBLOCKING_ON_QUEUE_RECEIVE(&q);
    traceQUEUE_RECEIVE_FAILED(&q); /* Timeout: the wait ends */
    switch_to(&b);
    traceBLOCKING_ON_QUEUE_SEND(&q);
    traceQUEUE_SEND(&q); /* Unblock: the wait ends */
    switch_to(&a);
    switch_to(&b);
    recs_t r = stop();
    cr_assert_eq(r.n, 2u + 1u + 2u + 2u + 3u + 2u + 2u);
    check_op(r, 4, freertos_ID_QueueOp, 1, 1, freertos_RtosQueueOp_Timeout);
    check_switch(r, 6, freertos_ID_TaskSwitchIn, 2, freertos_RtosResume_Start);
    check_op(r, 8, freertos_ID_QueueOp, 2, 1, freertos_RtosQueueOp_Unblock);
    check_switch(r, 11, freertos_ID_TaskSwitchIn, 1, freertos_RtosResume_Resume);
    check_switch(r, 13, freertos_ID_TaskSwitchIn, 2, freertos_RtosResume_Resume);
}

Test(freertos_hooks, init_refuses_bad_arguments)
{
    evrec_host_t *hosts[2] = {&host, &host};
    cr_assert_eq(evrec_freertos_init(NULL, 1), EVREC_E_ARG);
    cr_assert_eq(evrec_freertos_init(hosts, 0), EVREC_E_ARG);
    cr_assert_eq(evrec_freertos_init(hosts, 2), EVREC_E_ARG); /* built for one core */
    cr_assert_eq(evrec_freertos_isr_name(256, "x"), EVREC_E_ARG);
}
