/* SPDX-License-Identifier: Apache-2.0 */
/* A stub FreeRTOS port for two cores, for the compile check of the evrec trace hooks in the SMP
 * kernel (configNUMBER_OF_CORES 2): types and port macros only, after the kernel's documentation
 * of what a port defines (include/portable.h, include/FreeRTOS.h). Nothing here runs. */
#ifndef PORTMACRO_H
#define PORTMACRO_H

#include <stdint.h>

typedef long BaseType_t;
typedef unsigned long UBaseType_t;
typedef uint32_t TickType_t;
typedef unsigned long StackType_t;
#define portSTACK_TYPE unsigned long
#define portBASE_TYPE long
#define portMAX_DELAY ((TickType_t)0xffffffffUL)
#define portTICK_TYPE_IS_ATOMIC 1
#define portSTACK_GROWTH (-1)
#define portBYTE_ALIGNMENT 8
#define portTICK_PERIOD_MS ((TickType_t)1000 / configTICK_RATE_HZ)
#define portNOP()
#define portMEMORY_BARRIER() __asm volatile("" ::: "memory")

unsigned smp_stub_core_id(void);
void smp_stub_yield(void);
void smp_stub_yield_core(BaseType_t core);
UBaseType_t smp_stub_mask(void);
void smp_stub_unmask(UBaseType_t mask);
void smp_stub_enter(void);
void smp_stub_exit(void);
BaseType_t smp_stub_in_isr(void);

#define portGET_CORE_ID() smp_stub_core_id()
#define portYIELD() smp_stub_yield()
#define portYIELD_CORE(x) smp_stub_yield_core(x)
#define portYIELD_WITHIN_API() smp_stub_yield()
#define portDISABLE_INTERRUPTS() ((void)smp_stub_mask())
#define portENABLE_INTERRUPTS() smp_stub_unmask(0)
#define portSET_INTERRUPT_MASK() smp_stub_mask()
#define portCLEAR_INTERRUPT_MASK(x) smp_stub_unmask(x)
#define portSET_INTERRUPT_MASK_FROM_ISR() smp_stub_mask()
#define portCLEAR_INTERRUPT_MASK_FROM_ISR(x) smp_stub_unmask(x)
#define portENTER_CRITICAL() smp_stub_enter()
#define portEXIT_CRITICAL() smp_stub_exit()
#define portENTER_CRITICAL_FROM_ISR() smp_stub_mask()
#define portEXIT_CRITICAL_FROM_ISR(x) smp_stub_unmask(x)
#define portCHECK_IF_IN_ISR() smp_stub_in_isr()
#define portGET_TASK_LOCK(c) ((void)(c))
#define portRELEASE_TASK_LOCK(c) ((void)(c))
#define portGET_ISR_LOCK(c) ((void)(c))
#define portRELEASE_ISR_LOCK(c) ((void)(c))
UBaseType_t smp_stub_nesting(BaseType_t core);
void smp_stub_set_nesting(BaseType_t core, UBaseType_t n);
#define portGET_CRITICAL_NESTING_COUNT(c) smp_stub_nesting(c)
#define portSET_CRITICAL_NESTING_COUNT(c, n) smp_stub_set_nesting((c), (n))
#define portINCREMENT_CRITICAL_NESTING_COUNT(c) smp_stub_set_nesting((c), smp_stub_nesting(c) + 1u)
#define portDECREMENT_CRITICAL_NESTING_COUNT(c) smp_stub_set_nesting((c), smp_stub_nesting(c) - 1u)
#define portPOINTER_SIZE_TYPE uintptr_t
#define portTASK_FUNCTION_PROTO(f, p) void f(void *p)
#define portTASK_FUNCTION(f, p) void f(void *p)

#endif /* PORTMACRO_H */
