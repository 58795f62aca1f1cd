/* SPDX-License-Identifier: Apache-2.0 */
/* Board part of the FreeRTOS Cortex-M3 firmware on QEMU mps2-an385 (25 MHz):
 *  - CMSDK TIMER1 (0x40001000) reloaded with 0xFFFFFFFF and never stopped: evrec's Cortex-M
 *    port reads it as its timestamp (EVREC_CM_CLOCK_TIMER: QEMU's Cortex-M3 has no DWT cycle
 *    counter, and the port's SysTick clock needs SysTick to be the most urgent recording
 *    exception, while FreeRTOS runs SysTick at the lowest priority), and the kernel's run-time
 *    statistics read the same register (portGET_RUN_TIME_COUNTER_VALUE);
 *  - CMSDK TIMER0 (0x40000000, IRQ 8): the application's periodic interrupt, traced with the
 *    kernel's traceISR_ENTER/EXIT like the port's own SysTick handler: it calls traceISR_ENTER()
 *    and ends with portYIELD_FROM_ISR(), whose ARM_CM3 definition (portEND_SWITCHING_ISR) calls
 *    traceISR_EXIT() or traceISR_EXIT_TO_SCHEDULER() itself. */
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"

#include "cm3.h"
#include "evrec_port.h"
#include "semihost.h"

#define CMSDK_TIMER0 0x40000000u
#define CMSDK_TIMER1 0x40001000u
#define TIMER_CTRL(base) EVREC_CM_REG((base) + 0x00u)
#define TIMER_VALUE(base) EVREC_CM_REG((base) + 0x04u)
#define TIMER_RELOAD(base) EVREC_CM_REG((base) + 0x08u)
#define TIMER_INTCLEAR(base) EVREC_CM_REG((base) + 0x0Cu)
#define TIMER_CTRL_ENABLE 1u
#define TIMER_CTRL_IRQ 8u
#define NVIC_ISER0 EVREC_CM_REG(0xE000E100u)
#define NVIC_IPR_BYTE(irq) (*(volatile uint8_t *)(uintptr_t)(0xE000E400u + (irq)))
#define TIMER0_IRQ 8u
#define TIMER0_PRIORITY 0xC0u

static uint32_t counter_base;

void Irq8_Handler(void);

void cm3_counter_start(void)
{
    TIMER_CTRL(CMSDK_TIMER1) = 0;
    TIMER_RELOAD(CMSDK_TIMER1) = 0xFFFFFFFFu;
    TIMER_VALUE(CMSDK_TIMER1) = 0xFFFFFFFFu;
    TIMER_CTRL(CMSDK_TIMER1) = TIMER_CTRL_ENABLE;
}

void cm3_counter_zero(void)
{
    counter_base = EVREC_PORT_TIMESTAMP();
}

uint32_t cm3_run_time_counter(void)
{
    return EVREC_PORT_TIMESTAMP() - counter_base;
}

void cm3_timer_start(uint32_t hz)
{
    TIMER_CTRL(CMSDK_TIMER0) = 0;
    TIMER_RELOAD(CMSDK_TIMER0) = configCPU_CLOCK_HZ / hz - 1u;
    TIMER_VALUE(CMSDK_TIMER0) = configCPU_CLOCK_HZ / hz - 1u;
    TIMER_INTCLEAR(CMSDK_TIMER0) = 1u;
    NVIC_IPR_BYTE(TIMER0_IRQ) = TIMER0_PRIORITY;
    NVIC_ISER0 = 1u << TIMER0_IRQ;
    TIMER_CTRL(CMSDK_TIMER0) = TIMER_CTRL_ENABLE | TIMER_CTRL_IRQ;
}

void Irq8_Handler(void)
{
    BaseType_t woken = pdFALSE;
    traceISR_ENTER();
    TIMER_INTCLEAR(CMSDK_TIMER0) = 1u;
    cm3_timer_isr(&woken);
    portYIELD_FROM_ISR(woken); /* the ARM_CM3 port's: records traceISR_EXIT(_TO_SCHEDULER) */
}

void cm3_assert_failed(const char *file, int line)
{
    sh_puts("fw: configASSERT failed at ");
    sh_puts(file);
    sh_puts(":");
    sh_put_u32((uint32_t)line);
    sh_puts("\n");
    sh_exit(4);
}
