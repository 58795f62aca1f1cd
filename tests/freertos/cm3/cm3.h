/* SPDX-License-Identifier: Apache-2.0 */
/* The FreeRTOS Cortex-M3 firmware's parts: the board (cm3_board.c: counter, timer interrupt,
 * assert), the workload (cm3_workload.c: tasks, objects, main) and the report
 * (cm3_report.c: the kernel's figures on the console, the trace saved through semihosting). */
#ifndef CM3_H
#define CM3_H

#include <stdint.h>

#include "FreeRTOS.h"

#if CM3_TRACE
#include "evrec/evrec_recorder.h"
/** The recording host the kernel hooks write to (cm3_workload.c). */
extern evrec_host_t cm3_host;
#endif

/** Start CMSDK TIMER1 free-running at 25 MHz: the trace's and the kernel's counter. */
void cm3_counter_start(void);
/** Make the run-time counter read 0 now (call just before vTaskStartScheduler()). */
void cm3_counter_zero(void);

/** Interrupt the CPU `hz` times per second from CMSDK TIMER0 (IRQ 8, priority 0xC0); each
 * interrupt calls cm3_timer_isr(). */
void cm3_timer_start(uint32_t hz);
/** The TIMER0 interrupt's body (cm3_workload.c): pdTRUE in *woken when a task must run. */
void cm3_timer_isr(BaseType_t *woken);

/** The reporter's work once the run is over: stop the trace, print the kernel's run-time
 * statistics (uxTaskGetSystemState()), save the trace to `path` on the host, end QEMU. */
void cm3_report(const char *path) __attribute__((noreturn));

#endif /* CM3_H */
