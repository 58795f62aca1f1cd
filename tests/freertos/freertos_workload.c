/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The FreeRTOS kernel, POSIX port, traced by evrec: eight tasks of six priorities exchanging
 * items through a queue, a mutex, a binary semaphore given from the tick hook (the periodic
 * "interrupt"), a counting semaphore given by a software timer and task notifications (given by
 * the producer and from the tick hook), an event group whose two bits two tasks set and a third
 * waits for, plus a low-priority CPU hog.
 * After run_ms of kernel time (environment FREERTOS_RUN_MS, default 10000) the reporter task
 * stops the recording, reads the kernel's own accounting (uxTaskGetSystemState(),
 * configGENERATE_RUN_TIME_STATS on the TSC), ends the scheduler, and main saves the trace.
 *
 * Usage: freertos_workload OUT.evr OUT-kernel.txt
 * OUT-kernel.txt: "counter_start <tsc>", "total <ticks>", then "task <name> <ticks>" per task.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "event_groups.h"
#include "task.h"
#include "timers.h"

#include "evrec_freertos.h"
#include "evrec_save_file.h"
#include "freertos_events.h"

static unsigned long run_ms = 10000ul; /* FREERTOS_RUN_MS */
#define MAX_TASKS 16u

static evrec_host_t host;
static evrec_recorder_t rec;
static uint32_t trace[6u * 1024u * 1024u]; /* 24 MB */

static QueueHandle_t work_q;
static TaskHandle_t notified_task;
static EventGroupHandle_t flags;
#define FLAG_LOCK 1u
#define FLAG_ITEM 2u
static SemaphoreHandle_t shared_mtx, tick_sem, timer_sem;
static volatile uint32_t sink;

static uint64_t counter_base;
static TaskStatus_t status[MAX_TASKS];
static UBaseType_t status_count;
static configRUN_TIME_COUNTER_TYPE status_total;

uint64_t freertos_test_counter(void)
{
    return __rdtsc() - counter_base;
}

void freertos_test_assert(const char *file, int line)
{
    fprintf(stderr, "configASSERT failed at %s:%d\n", file, line);
    abort();
}

/* Spin for about `n` thousand iterations: CPU time the trace and the kernel both see. */
static void burn(uint32_t n)
{
    for (uint32_t i = 0; i < n * 1000u; i++) {
        sink += i;
    }
}

static void producer(void *arg)
{
    (void)arg;
    for (uint32_t k = 0;; k++) {
        burn(200);
        xQueueSend(work_q, &k, portMAX_DELAY);
        if (k % 3u == 0u) {
            xTaskNotifyGive(notified_task);
        }
        vTaskDelay(2);
    }
}

static void consumer(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t k;
        if (xQueueReceive(work_q, &k, pdMS_TO_TICKS(50)) == pdPASS) {
            burn(100 + (k % 4u) * 100u);
            xEventGroupSetBits(flags, FLAG_ITEM);
        }
    }
}

static void locker(void *arg)
{
    TickType_t pause = (TickType_t)(uintptr_t)arg;
    for (;;) {
        xSemaphoreTake(shared_mtx, portMAX_DELAY);
        burn(150);
        xSemaphoreGive(shared_mtx);
        xEventGroupSetBits(flags, FLAG_LOCK);
        vTaskDelay(pause);
    }
}

static void tick_waiter(void *arg)
{
    (void)arg;
    for (;;) {
        if (xSemaphoreTake(tick_sem, portMAX_DELAY) == pdPASS) {
            burn(60);
        }
    }
}

static void timer_waiter(void *arg)
{
    (void)arg;
    for (;;) {
        if (xSemaphoreTake(timer_sem, pdMS_TO_TICKS(20)) == pdPASS) {
            burn(80);
        }
    }
}

/* Waits for notifications (a count) with a timeout shorter than their period: some waits end
 * by a notification (Unblock, Take), others by the timeout; those that arrive during the delay
 * (Give) are taken by the poll after it. */
static void notified(void *arg)
{
    (void)arg;
    for (;;) {
        if (ulTaskNotifyTake(pdTRUE, pdMS_TO_TICKS(3)) != 0u) {
            burn(40);
        }
        vTaskDelay(1);
        if (ulTaskNotifyTake(pdTRUE, 0) != 0u) {
            burn(20);
        }
    }
}

/* Waits for both bits (cleared on exit), with a timeout; then polls for one (often already set). */
static void flag_waiter(void *arg)
{
    (void)arg;
    for (;;) {
        EventBits_t got = xEventGroupWaitBits(flags, FLAG_LOCK | FLAG_ITEM, pdTRUE, pdTRUE, pdMS_TO_TICKS(4));
        burn((got & (FLAG_LOCK | FLAG_ITEM)) == (FLAG_LOCK | FLAG_ITEM) ? 50 : 10);
        vTaskDelay(1);
        (void)xEventGroupWaitBits(flags, FLAG_LOCK, pdTRUE, pdFALSE, 0);
    }
}

static void hog(void *arg)
{
    (void)arg;
    for (;;) {
        burn(2000);
        vTaskDelay(1);
    }
}

static void on_timer(TimerHandle_t t)
{
    (void)t;
    burn(20);
    xSemaphoreGive(timer_sem);
}

/* Highest priority: sleeps run_ms, then stops the trace and reads the kernel's figures at once,
 * so both cover the same run. */
static void reporter(void *arg)
{
    (void)arg;
    vTaskDelay(pdMS_TO_TICKS(run_ms));
    evrec_host_stop(&host, NULL);
    status_count = uxTaskGetSystemState(status, MAX_TASKS, &status_total);
    vTaskEndScheduler();
    for (;;) {
        vTaskDelay(1000);
    }
}

void vApplicationTickHook(void)
{
    static uint32_t n;
    BaseType_t woken = pdFALSE;
    if (++n % 5u == 0u) {
        xSemaphoreGiveFromISR(tick_sem, &woken);
    }
    if (n % 7u == 0u && notified_task != NULL) {
        vTaskNotifyGiveFromISR(notified_task, &woken);
    }
    if (n % 100u == 0u) {
        evrec_tick(&host); /* EventControl Tick: no gap of a 32-bit wrap */
    }
    (void)woken; /* the POSIX port's tick handler switches when needed */
}

void vApplicationIdleHook(void)
{
}

static void create_as(TaskFunction_t fn, const char *name, UBaseType_t prio, void *arg, TaskHandle_t *handle)
{
    if (xTaskCreate(fn, name, configMINIMAL_STACK_SIZE, arg, prio, handle) != pdPASS) {
        fprintf(stderr, "xTaskCreate %s failed\n", name);
        exit(1);
    }
}

static void create(TaskFunction_t fn, const char *name, UBaseType_t prio, void *arg)
{
    create_as(fn, name, prio, arg, NULL);
}

static void objects(void)
{
    work_q = xQueueCreate(8, sizeof(uint32_t));
    shared_mtx = xSemaphoreCreateMutex();
    tick_sem = xSemaphoreCreateBinary();
    timer_sem = xSemaphoreCreateCounting(10, 0);
    vQueueAddToRegistry(work_q, "work_q");
    vQueueAddToRegistry(shared_mtx, "shared_mtx");
    vQueueAddToRegistry(tick_sem, "tick_sem");
    vQueueAddToRegistry(timer_sem, "timer_sem");
    flags = xEventGroupCreate();
    if (flags == NULL) {
        fprintf(stderr, "xEventGroupCreate failed\n");
        exit(1);
    }
    evrec_freertos_object_name((uint16_t)uxEventGroupGetNumber(flags), "ev_flags");
    TimerHandle_t t = xTimerCreate("blink", pdMS_TO_TICKS(7), pdTRUE, NULL, on_timer);
    xTimerStart(t, 0);
}

static int write_kernel(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return -1;
    }
    fprintf(f, "total %llu\n", (unsigned long long)status_total);
    for (UBaseType_t i = 0; i < status_count; i++) {
        fprintf(f, "task %s %llu\n", status[i].pcTaskName, (unsigned long long)status[i].ulRunTimeCounter);
    }
    return fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s OUT.evr OUT-kernel.txt\n", argv[0]);
        return 2;
    }
    const char *ms = getenv("FREERTOS_RUN_MS");
    if (ms != NULL && strtoul(ms, NULL, 10) > 0) {
        run_ms = strtoul(ms, NULL, 10);
    }
    evrec_host_t *hosts[1] = {&host};
    if (evrec_recorder_init(&rec, trace, sizeof trace) != EVREC_OK || evrec_freertos_init(hosts, 1) != 0 ||
        evrec_host_start(&host, &rec, &freertos_meta, EVREC_PORT_TIME_FREQ()) != EVREC_OK) {
        fprintf(stderr, "evrec: cannot start recording\n");
        return 1;
    }
    objects();
    create(producer, "producer", 3, NULL);
    create(consumer, "consumer", 2, NULL);
    create(locker, "lock_fast", 4, (void *)(uintptr_t)3);
    create(locker, "lock_slow", 2, (void *)(uintptr_t)5);
    create(tick_waiter, "tick_waiter", 5, NULL);
    create(timer_waiter, "timer_waiter", 4, NULL);
    create_as(notified, "notified", 5, NULL, &notified_task);
    create(flag_waiter, "flag_waiter", 3, NULL);
    create(hog, "hog", 1, NULL);
    create(reporter, "reporter", 7, NULL);
    counter_base = __rdtsc();
    vTaskStartScheduler();

    evrec_recorder_counts_t c = evrec_recorder_counts(&rec);
    printf("records: %llu recorded, %llu dropped\n", (unsigned long long)c.recorded,
           (unsigned long long)c.dropped);
    if (evrec_save_path(&rec, argv[1]) != EVREC_OK || write_kernel(argv[2]) != 0) {
        fprintf(stderr, "cannot write %s or %s\n", argv[1], argv[2]);
        return 1;
    }
    return 0;
}
