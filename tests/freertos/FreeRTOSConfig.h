/* SPDX-License-Identifier: Apache-2.0 */
/* FreeRTOS configuration of the kernel trace test: the kernel's POSIX port
 * (portable/ThirdParty/GCC/Posix), run-time statistics on the counter evrec stamps records with
 * (the TSC: evrec's POSIX port takes its low 32 bits), and the evrec trace hooks. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#include <stdint.h>

#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 1
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#define configTICK_RATE_HZ 1000
#define configMAX_PRIORITIES 8
#define configMINIMAL_STACK_SIZE 4096
#define configMAX_TASK_NAME_LEN 16
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_32_BITS
#define configIDLE_SHOULD_YIELD 1
#define configUSE_MUTEXES 1
#define configUSE_RECURSIVE_MUTEXES 1
#define configUSE_COUNTING_SEMAPHORES 1
#define configQUEUE_REGISTRY_SIZE 16
#define configUSE_IDLE_HOOK 1
#define configUSE_TICK_HOOK 1
#define configUSE_MALLOC_FAILED_HOOK 0
#define configCHECK_FOR_STACK_OVERFLOW 0
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configSUPPORT_STATIC_ALLOCATION 0
#define configTOTAL_HEAP_SIZE (1024 * 1024)
#define configUSE_TIMERS 1
#define configTIMER_TASK_PRIORITY 6
#define configTIMER_QUEUE_LENGTH 16
#define configTIMER_TASK_STACK_DEPTH 4096
#define configUSE_TASK_NOTIFICATIONS 1
#define configUSE_TRACE_FACILITY 1
#define configUSE_STATS_FORMATTING_FUNCTIONS 0

/* Run-time statistics: the full 64-bit TSC minus its value when the scheduler starts (the kernel
 * charges the first task from counter value 0). Same unit as evrec's timestamps. The POSIX
 * port's portmacro.h defines portGET_RUN_TIME_COUNTER_VALUE() (process CPU time in clock ticks)
 * unconditionally; tasks.c prefers portALT_GET_RUN_TIME_COUNTER_VALUE() when it is defined. */
#define configGENERATE_RUN_TIME_STATS 1
#define configRUN_TIME_COUNTER_TYPE uint64_t
uint64_t freertos_test_counter(void);
#define portALT_GET_RUN_TIME_COUNTER_VALUE(dest) ((dest) = freertos_test_counter())

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
            freertos_test_assert(__FILE__, __LINE__);                                                             \
        }                                                                                                         \
    } while (0)
void freertos_test_assert(const char *file, int line);

#include "evrec_freertos.h"

#endif /* FREERTOS_CONFIG_H */
