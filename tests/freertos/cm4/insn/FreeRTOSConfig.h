/* SPDX-License-Identifier: Apache-2.0 */
/* FreeRTOS configuration of the hook instruction counts (hook_insn.c, ../hook-insn-count.sh):
 * the kernel's GCC/ARM_CM3 port built for Cortex-M4 (soft float), no scheduler started, no
 * run-time statistics, no asserts. HOOK_TRACE 1: evrec's hooks (2: and IntControl, the firmware's
 * --wrap); 0: none (the baseline). */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#ifndef HOOK_TRACE
#define HOOK_TRACE 1
#endif

#define configCPU_CLOCK_HZ 25000000
#define configTICK_RATE_HZ 1000
#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 1
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#define configMAX_PRIORITIES 8
#define configMINIMAL_STACK_SIZE 128
#define configMAX_TASK_NAME_LEN 16
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_32_BITS
#define configUSE_MUTEXES 1
#define configUSE_RECURSIVE_MUTEXES 1
#define configUSE_COUNTING_SEMAPHORES 1
#define configQUEUE_REGISTRY_SIZE 8
#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 0
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configSUPPORT_STATIC_ALLOCATION 0
#define configTOTAL_HEAP_SIZE (48 * 1024)
#define configUSE_TIMERS 0
#define configUSE_TRACE_FACILITY 1
#define configKERNEL_INTERRUPT_PRIORITY 0xE0
#define configMAX_SYSCALL_INTERRUPT_PRIORITY 0xA0
#define INCLUDE_vTaskPrioritySet 1
#define INCLUDE_vTaskDelete 1
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_vTaskDelay 1

#if HOOK_TRACE
#define EVREC_FREERTOS_ISR_VECTOR()                                                                               \
    (__extension__({                                                                                              \
        unsigned ipsr_;                                                                                           \
        __asm volatile("mrs %0, ipsr" : "=r"(ipsr_));                                                             \
        ipsr_ & 0x1FFu;                                                                                           \
    }))
#include "evrec_freertos.h"
#endif

#endif /* FREERTOS_CONFIG_H */
