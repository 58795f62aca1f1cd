/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The FreeRTOS kernel on an emulated Cortex-M3 (QEMU mps2-an385, portable/GCC/ARM_CM3), traced
 * by evrec: the workload of tests/freertos/freertos_workload.c (the POSIX run) on real
 * interrupts. Seven tasks of six priorities exchange items through a queue, a mutex, a binary
 * semaphore given from the CMSDK TIMER0 interrupt and a counting semaphore given by a software
 * timer, plus a low-priority CPU hog. The periodic tasks wake at fixed ticks (xTaskDelayUntil) and
 * nothing saturates the CPU, so the work per second is the same with and without tracing.
 * After RUN_MS of kernel time the reporter task stops the
 * recording, prints the kernel's own accounting (uxTaskGetSystemState(), run-time statistics on
 * the trace's counter) and saves the trace through semihosting (cm3_report.c).
 *
 * Built with CM3_TRACE=0 it runs the same workload without the hooks: the idle task's run-time
 * counter of both builds gives the tracing overhead.
 */
#include <stdint.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#include "timers.h"

#include "cm3.h"
#include "semihost.h"

#if CM3_TRACE
#include "evrec_freertos.h"
#include "freertos_events.h"
#endif

#ifndef RUN_MS
#define RUN_MS 2000u
#endif
#ifndef CM3_TIMER_HZ
#define CM3_TIMER_HZ 200u
#endif
#ifndef CM3_TRACE_BYTES
#define CM3_TRACE_BYTES (1536u * 1024u)
#endif
#define STACK_WORDS 256u
#define REPORTER_STACK_WORDS 2048u

#if CM3_TRACE
evrec_host_t cm3_host;
static evrec_recorder_t rec;
static uint32_t trace[CM3_TRACE_BYTES / 4u] __attribute__((section(".evrec_trace")));
#endif

static QueueHandle_t work_q;
static SemaphoreHandle_t shared_mtx, tick_sem, timer_sem;
static volatile uint32_t sink;

/* Spin for `n` times 10 iterations (about 60 instructions): CPU time the trace and the kernel
 * both see. */
static void burn(uint32_t n)
{
    for (uint32_t i = 0; i < n * 10u; i++) {
        sink += i;
    }
}

static void producer(void *arg)
{
    (void)arg;
    TickType_t last = xTaskGetTickCount();
    for (uint32_t k = 0;; k++) {
        burn(200);
        xQueueSend(work_q, &k, portMAX_DELAY);
        xTaskDelayUntil(&last, 2);
    }
}

static void consumer(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t k;
        if (xQueueReceive(work_q, &k, pdMS_TO_TICKS(50)) == pdPASS) {
            burn(100 + (k % 4u) * 100u);
        }
    }
}

static void locker(void *arg)
{
    TickType_t period = (TickType_t)(uintptr_t)arg;
    TickType_t last = xTaskGetTickCount();
    for (;;) {
        xSemaphoreTake(shared_mtx, portMAX_DELAY);
        burn(150);
        xSemaphoreGive(shared_mtx);
        xTaskDelayUntil(&last, period);
    }
}

static void irq_waiter(void *arg)
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

static void hog(void *arg)
{
    (void)arg;
    TickType_t last = xTaskGetTickCount();
    for (;;) {
        burn(1000);
        xTaskDelayUntil(&last, 4);
    }
}

static void on_timer(TimerHandle_t t)
{
    (void)t;
    burn(20);
    xSemaphoreGive(timer_sem);
}

/* Highest priority: sleeps RUN_MS, then reports (does not return). */
static void reporter(void *arg)
{
    (void)arg;
    vTaskDelay(pdMS_TO_TICKS(RUN_MS));
    cm3_report("freertos_cm3.evr");
}

void cm3_timer_isr(BaseType_t *woken)
{
    xSemaphoreGiveFromISR(tick_sem, woken);
}

void vApplicationTickHook(void)
{
#if CM3_TRACE
    static uint32_t n;
    if (++n % 100u == 0u) {
        evrec_tick(&cm3_host); /* EventControl Tick every 100 ms */
    }
#endif
}

static void create(TaskFunction_t fn, const char *name, UBaseType_t prio, void *arg)
{
    /* The reporter saves the trace: evrec_save() keeps its staging buffers on the stack. */
    uint32_t words = fn == reporter ? REPORTER_STACK_WORDS : STACK_WORDS;
    if (xTaskCreate(fn, name, words, arg, prio, NULL) != pdPASS) {
        sh_puts("fw: xTaskCreate failed\n");
        sh_exit(2);
    }
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
    TimerHandle_t t = xTimerCreate("blink", pdMS_TO_TICKS(7), pdTRUE, NULL, on_timer);
    xTimerStart(t, 0);
}

static void trace_start(void)
{
#if CM3_TRACE
    evrec_host_t *hosts[1] = {&cm3_host};
    if (evrec_recorder_init(&rec, trace, sizeof trace) != EVREC_OK || evrec_freertos_init(hosts, 1) != 0 ||
        evrec_freertos_isr_name(15, "SysTick") != 0 || evrec_freertos_isr_name(24, "TIMER0") != 0 ||
        evrec_host_start(&cm3_host, &rec, &freertos_meta, EVREC_PORT_TIME_FREQ()) != EVREC_OK) {
        sh_puts("fw: evrec: cannot start recording\n");
        sh_exit(2);
    }
#endif
}

int main(void)
{
    cm3_counter_start();
    trace_start();
    objects();
    create(producer, "producer", 3, NULL);
    create(consumer, "consumer", 2, NULL);
    create(locker, "lock_fast", 4, (void *)(uintptr_t)3);
    create(locker, "lock_slow", 2, (void *)(uintptr_t)5);
    create(irq_waiter, "irq_waiter", 5, NULL);
    create(timer_waiter, "timer_waiter", 4, NULL);
    create(hog, "hog", 1, NULL);
    create(reporter, "reporter", 7, NULL);
    cm3_timer_start(CM3_TIMER_HZ);
    cm3_counter_zero();
    vTaskStartScheduler();
    sh_puts("fw: the scheduler returned\n");
    sh_exit(2);
}
