/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Instructions the evrec FreeRTOS hooks add to the kernel's calls (../hook-insn-count.sh). The
 * firmware calls kernel functions that run the trace macros, HOOK_N times each, with the
 * scheduler not started (no interrupts, no switch by itself), each loop between two calls of
 * insn_mark(). It is built with the hooks (HOOK_TRACE=1), without (0), and with the hooks and
 * IntControl (2: the `critical` loop below); QEMU logs
 * every executed instruction (`-singlestep -d exec,nochain`, as scripts/insn-count.sh does) and
 * the script divides each loop's difference between the two builds by HOOK_N: the hook's cost
 * inside the kernel's own code, its call site included. Loops, in order (the script's names):
 *   empty      a call of an empty function (both builds alike: a check of the method)
 *   switch     vTaskSwitchContext() between two ready tasks of the same priority:
 *              traceTASK_SWITCHED_OUT + traceTASK_SWITCHED_IN (TaskSwitchOut, TaskSwitchIn)
 *   send       xQueueSend() into a queue with room: traceQUEUE_SEND (QueueOp Send)
 *   receive    xQueueReceive() of an item: traceQUEUE_RECEIVE (QueueOp Receive)
 *   give       xSemaphoreGive() of a counting semaphore: traceQUEUE_SEND (SemOp Give)
 *   take       xSemaphoreTake() of it: traceQUEUE_RECEIVE (SemOp Take)
 *   mutex      xSemaphoreTake() then xSemaphoreGive() of a mutex: two hooks (Lock, Unlock)
 *   ready      vTaskSuspend() then vTaskResume() of a ready task: traceMOVED_TASK_TO_READY_STATE
 *   priority   vTaskPrioritySet() of a ready task: traceTASK_PRIORITY_SET and
 *              traceMOVED_TASK_TO_READY_STATE (it moves to another ready list)
 *   isr_enter  traceISR_ENTER() as the port's handlers call it (IsrEnter)
 *   isr_exit   traceISR_EXIT() (IsrExit)
 *   create     xTaskCreate(): traceTASK_CREATE (name copied, id allocated) and
 *              traceMOVED_TASK_TO_READY_STATE
 *   delete     vTaskDelete() of those tasks: traceTASK_DELETE
 *   object     xSemaphoreCreateBinary() then vSemaphoreDelete(): traceQUEUE_CREATE (id, name)
 *   same       vTaskSwitchContext() that picks the task already running (nothing recorded)
 *   notify_give  xTaskNotifyGive() of the running task (not waiting): traceTASK_NOTIFY (NotifyOp Give)
 *   notify_take  ulTaskNotifyTake(pdFALSE, 0) of those: traceRETURN_ulTaskGenericNotifyTake (NotifyOp
 *                Take; on one core with V11, else traceTASK_NOTIFY_TAKE)
 *   notify_isr   vTaskNotifyGiveFromISR() of another task: traceTASK_NOTIFY_GIVE_FROM_ISR (Give)
 *   notify_wait  xTaskNotify(eSetBits) then xTaskNotifyWait(0): traceTASK_NOTIFY and
 *                traceRETURN_xTaskGenericNotifyWait (Give, Take)
 *   group_set    xEventGroupSetBits(): traceEVENT_GROUP_SET_BITS (EventOp Set)
 *   group_wait   xEventGroupWaitBits() of bits that are set, no timeout: traceEVENT_GROUP_WAIT_BITS_END
 *                (EventOp Consume)
 *   group_create xEventGroupCreate() then vEventGroupDelete(): traceEVENT_GROUP_CREATE (id, name)
 *   critical   taskENTER_CRITICAL() then taskEXIT_CRITICAL(): no trace macro; with HOOK_TRACE=2
 *              (the hooks and EVREC_FREERTOS_INT_CONTROL, the firmware linked with
 *              --wrap=vPortEnterCritical,--wrap=vPortExitCritical) IntControl Disable and
 *              RestoreEnable, with the callers' addresses
 * Exit code 0 when everything ran (and, with the hooks, no record was dropped), else 1..3.
 */
#include <stdint.h>

#include "FreeRTOS.h"
#include "event_groups.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"

#include "semihost.h"

#if HOOK_TRACE
#include "evrec_freertos.h"
#include "freertos_events.h"
static evrec_host_t host;
static evrec_recorder_t rec;
/* 2: every kernel call records its critical sections too: room for all of them (no drop). */
static uint32_t trace[HOOK_TRACE == 2 ? 131072 : 16384] __attribute__((section(".evrec_trace")));
#endif

#ifndef HOOK_N
#define HOOK_N 32u
#endif

#define MEASURED __attribute__((noinline, noipa))
void insn_mark(void);
MEASURED void insn_mark(void)
{
    __asm__ volatile("" ::: "memory");
}

static QueueHandle_t queue, counting, mutex;
static EventGroupHandle_t group;
static TaskHandle_t task_a, task_b, task_c, created[HOOK_N];

static void never_runs(void *arg)
{
    (void)arg;
}

MEASURED static void op_empty(uint32_t i)
{
    __asm__ volatile("" : : "r"(i) : "memory");
}
MEASURED static void op_switch(uint32_t i)
{
    (void)i;
    vTaskSwitchContext();
}
MEASURED static void op_send(uint32_t i)
{
    (void)xQueueSend(queue, &i, 0);
}
MEASURED static void op_receive(uint32_t i)
{
    (void)xQueueReceive(queue, &i, 0);
}
MEASURED static void op_give(uint32_t i)
{
    (void)i;
    (void)xSemaphoreGive(counting);
}
MEASURED static void op_take(uint32_t i)
{
    (void)i;
    (void)xSemaphoreTake(counting, 0);
}
MEASURED static void op_mutex(uint32_t i)
{
    (void)i;
    (void)xSemaphoreTake(mutex, 0);
    (void)xSemaphoreGive(mutex);
}
MEASURED static void op_ready(uint32_t i)
{
    (void)i;
    vTaskSuspend(task_c);
    vTaskResume(task_c);
}
MEASURED static void op_priority(uint32_t i)
{
    vTaskPrioritySet(task_c, 1u + (i & 1u));
}
MEASURED static void op_isr_enter(uint32_t i)
{
    (void)i;
    traceISR_ENTER();
}
MEASURED static void op_isr_exit(uint32_t i)
{
    (void)i;
    traceISR_EXIT();
}
MEASURED static void op_create(uint32_t i)
{
    if (xTaskCreate(never_runs, "created", configMINIMAL_STACK_SIZE, NULL, 1, &created[i]) != pdPASS) {
        sh_exit(2);
    }
}
MEASURED static void op_delete(uint32_t i)
{
    vTaskDelete(created[i]);
}
MEASURED static void op_object(uint32_t i)
{
    (void)i;
    SemaphoreHandle_t s = xSemaphoreCreateBinary();
    if (s == NULL) {
        sh_exit(2);
    }
    vSemaphoreDelete(s);
}

MEASURED static void op_notify_give(uint32_t i)
{
    (void)i;
    (void)xTaskNotifyGive(task_a);
}
MEASURED static void op_notify_take(uint32_t i)
{
    (void)i;
    (void)ulTaskNotifyTake(pdFALSE, 0);
}
MEASURED static void op_notify_isr(uint32_t i)
{
    (void)i;
    vTaskNotifyGiveFromISR(task_c, NULL);
}
MEASURED static void op_notify_wait(uint32_t i)
{
    (void)xTaskNotify(task_a, 1u << (i & 7u), eSetBits);
    (void)xTaskNotifyWait(0, 0, NULL, 0);
}
MEASURED static void op_group_set(uint32_t i)
{
    (void)xEventGroupSetBits(group, 1u << (i & 3u));
}
MEASURED static void op_group_wait(uint32_t i)
{
    (void)i;
    (void)xEventGroupWaitBits(group, 1u, pdFALSE, pdFALSE, 0);
}
MEASURED static void op_group_create(uint32_t i)
{
    (void)i;
    EventGroupHandle_t g = xEventGroupCreate();
    if (g == NULL) {
        sh_exit(2);
    }
    vEventGroupDelete(g);
}
MEASURED static void op_critical(uint32_t i)
{
    (void)i;
    taskENTER_CRITICAL();
    taskEXIT_CRITICAL();
}

/* One segment: from the first insn_mark() to the second, the same code around every loop. */
static void run(void (*fn)(uint32_t))
{
    insn_mark();
    for (uint32_t i = 0; i < HOOK_N; i++) {
        fn(i);
    }
    insn_mark();
}

static void setup(void)
{
#if HOOK_TRACE
    evrec_host_t *hosts[1] = {&host};
    if (evrec_recorder_init(&rec, trace, sizeof trace) != EVREC_OK || evrec_freertos_init(hosts, 1) != 0 ||
        evrec_host_start(&host, &rec, &freertos_meta, 0) != EVREC_OK) {
        sh_exit(3);
    }
#endif
    queue = xQueueCreate(HOOK_N, sizeof(uint32_t));
    counting = xSemaphoreCreateCounting(HOOK_N, 0);
    mutex = xSemaphoreCreateMutex();
    group = xEventGroupCreate();
    if (queue == NULL || counting == NULL || mutex == NULL || group == NULL ||
        xTaskCreate(never_runs, "task_a", configMINIMAL_STACK_SIZE, NULL, 3, &task_a) != pdPASS ||
        xTaskCreate(never_runs, "task_b", configMINIMAL_STACK_SIZE, NULL, 3, &task_b) != pdPASS ||
        xTaskCreate(never_runs, "task_c", configMINIMAL_STACK_SIZE, NULL, 2, &task_c) != pdPASS) {
        sh_exit(2);
    }
}

int main(void)
{
    setup();
    run(op_empty);
    run(op_switch);
    run(op_send);
    run(op_receive);
    run(op_give);
    run(op_take);
    run(op_mutex);
    run(op_ready);
    run(op_priority);
    run(op_isr_enter);
    run(op_isr_exit);
    run(op_create);
    run(op_delete);
    run(op_object);
    vTaskSuspend(task_b); /* task_a alone at the top priority */
    run(op_switch);
    /* task_a runs (pxCurrentTCB): it notifies and takes its own notifications. */
    run(op_notify_give);
    run(op_notify_take);
    run(op_notify_isr);
    run(op_notify_wait);
    run(op_group_set);
    run(op_group_wait);
    run(op_group_create);
    run(op_critical);
#if HOOK_TRACE
    evrec_recorder_t *r = NULL;
    (void)evrec_host_stop(&host, &r);
    sh_exit(r != NULL && evrec_recorder_counts(r).dropped == 0 ? 0 : 1);
#else
    sh_exit(0);
#endif
}
