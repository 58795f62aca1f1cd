/* SPDX-License-Identifier: Apache-2.0 */
/* FreeRTOS configuration of the Cortex-M3 run on QEMU mps2-an385 (the kernel's
 * portable/GCC/ARM_CM3 port, heap_4): 25 MHz core, 1 kHz tick, run-time statistics on the
 * counter evrec stamps records with (CMSDK TIMER1, free-running at 25 MHz: cm3_board.c), and the
 * evrec trace hooks unless the firmware is built with CM3_TRACE=0 (the overhead baseline). */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#ifndef CM3_TRACE
#define CM3_TRACE 1
#endif

#define configCPU_CLOCK_HZ 25000000
#define configTICK_RATE_HZ 1000
#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 1
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#define configMAX_PRIORITIES 8
#define configMINIMAL_STACK_SIZE 256
#define configMAX_TASK_NAME_LEN 16
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_32_BITS
#define configIDLE_SHOULD_YIELD 1
#define configUSE_MUTEXES 1
#define configUSE_RECURSIVE_MUTEXES 1
#define configUSE_COUNTING_SEMAPHORES 1
#define configQUEUE_REGISTRY_SIZE 16
#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 1
#define configUSE_MALLOC_FAILED_HOOK 0
#define configCHECK_FOR_STACK_OVERFLOW 0
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configSUPPORT_STATIC_ALLOCATION 0
#define configTOTAL_HEAP_SIZE (64 * 1024)
#define configUSE_TIMERS 1
#define configTIMER_TASK_PRIORITY 6
#define configTIMER_QUEUE_LENGTH 16
#define configTIMER_TASK_STACK_DEPTH 256
#define configUSE_TASK_NOTIFICATIONS 1
#define configUSE_TRACE_FACILITY 1
#define configUSE_STATS_FORMATTING_FUNCTIONS 0

/* Interrupt priorities (the top bits of the 8-bit priority field; the port reads how many the
 * NVIC implements). The CMSDK TIMER0 handler, which gives a semaphore, runs at 0xC0: below the
 * syscall ceiling 0xA0, above the kernel's SysTick and PendSV (lowest). */
#define configKERNEL_INTERRUPT_PRIORITY 0xE0
#define configMAX_SYSCALL_INTERRUPT_PRIORITY 0xA0

/* The port's handlers are the vector table's entries (examples/firmware's start-up code names
 * them SVC_Handler, PendSV_Handler, SysTick_Handler). */
#define vPortSVCHandler SVC_Handler
#define xPortPendSVHandler PendSV_Handler
#define xPortSysTickHandler SysTick_Handler

/* Run-time statistics on the trace's counter, minus its value when the scheduler starts (the
 * kernel charges the first task from 0). 25 MHz, 32 bits: a run must stay under 171 s. */
#define configGENERATE_RUN_TIME_STATS 1
#define configRUN_TIME_COUNTER_TYPE uint32_t
#ifndef __ASSEMBLER__
#include <stdint.h>
uint32_t cm3_run_time_counter(void);
void cm3_assert_failed(const char *file, int line);
#endif
#define portCONFIGURE_TIMER_FOR_RUN_TIME_STATS() ((void)0)
#define portGET_RUN_TIME_COUNTER_VALUE() cm3_run_time_counter()

#define INCLUDE_vTaskPrioritySet 1
#define INCLUDE_uxTaskPriorityGet 1
#define INCLUDE_vTaskDelete 1
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_vTaskDelayUntil 1
#define INCLUDE_vTaskDelay 1
#define INCLUDE_xTaskGetSchedulerState 1
#define INCLUDE_xTaskGetCurrentTaskHandle 1
#define INCLUDE_xTaskGetIdleTaskHandle 1

#define configASSERT(x)                                                                                           \
    do {                                                                                                          \
        if (!(x)) {                                                                                               \
            cm3_assert_failed(__FILE__, __LINE__);                                                                \
        }                                                                                                         \
    } while (0)

#if CM3_TRACE
/* IsrEnter/IsrExit carry the exception number from the IPSR (15 SysTick, 24 TIMER0). */
#define EVREC_FREERTOS_ISR_VECTOR()                                                                               \
    (__extension__({                                                                                              \
        unsigned ipsr_;                                                                                           \
        __asm volatile("mrs %0, ipsr" : "=r"(ipsr_));                                                             \
        ipsr_ & 0x1FFu;                                                                                           \
    }))
#include "evrec_freertos.h"
#endif

#endif /* FREERTOS_CONFIG_H */
