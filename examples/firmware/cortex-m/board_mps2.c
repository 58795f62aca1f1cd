/* SPDX-License-Identifier: Apache-2.0 */
/* Board glue of the example firmware for Arm MPS2 (AN385/AN386 and, for size builds, any
 * Cortex-M): 25 MHz core and peripheral clock; SysTick at FW_SYSTICK_HZ drives the port's tick
 * hook; CMSDK APB TIMER0 (0x40000000, IRQ 8) is the application's periodic interrupt; CMSDK
 * TIMER1 (0x40001000) is the timestamp when the port uses EVREC_CM_CLOCK_TIMER. */
#include <stdint.h>

#include "evrec_cortex_m.h"
#include "fw_board.h"

#ifndef FW_CORE_HZ
#define FW_CORE_HZ 25000000u
#endif
#ifndef FW_SYSTICK_HZ
#define FW_SYSTICK_HZ 1000u
#endif
#ifndef FW_TICK_HZ
#define FW_TICK_HZ 100u
#endif

#define CMSDK_TIMER0 0x40000000u
#define CMSDK_TIMER1 0x40001000u
#define TIMER_CTRL(base) EVREC_CM_REG((base) + 0x00u)
#define TIMER_RELOAD(base) EVREC_CM_REG((base) + 0x08u)
#define TIMER_VALUE(base) EVREC_CM_REG((base) + 0x04u)
#define TIMER_INTCLEAR(base) EVREC_CM_REG((base) + 0x0Cu)
#define TIMER_CTRL_ENABLE 1u
#define TIMER_CTRL_IRQ 8u
#define NVIC_ISER0 EVREC_CM_REG(0xE000E100u)
#define NVIC_ICER0 EVREC_CM_REG(0xE000E180u)
#define TIMER0_IRQ 8u

#if EVREC_CM_CLOCK == EVREC_CM_CLOCK_SYSTICK
const char fw_board_name[] = "mps2 (timestamp: SysTick)";
#elif EVREC_CM_CLOCK == EVREC_CM_CLOCK_TIMER
const char fw_board_name[] = "mps2 (timestamp: CMSDK TIMER1)";
#else
const char fw_board_name[] = "mps2 (timestamp: DWT CYCCNT)";
#endif

static evrec_cm_tick_t tick;

void SysTick_Handler(void);
void Irq8_Handler(void);

/* The application's SysTick work (app/fw_stream_main.c has one); none by default. */
__attribute__((weak)) void fw_systick_hook(void)
{
}

void SysTick_Handler(void)
{
    evrec_cm_systick_isr(&tick);
    fw_systick_hook();
}

void Irq8_Handler(void)
{
    TIMER_INTCLEAR(CMSDK_TIMER0) = 1u;
    fw_timer_isr();
}

int board_init(evrec_host_t *host)
{
#if EVREC_CM_CLOCK == EVREC_CM_CLOCK_DWT
    if (evrec_cm_dwt_enable() != EVREC_OK) {
        return 1;
    }
#elif EVREC_CM_CLOCK == EVREC_CM_CLOCK_TIMER
    TIMER_CTRL(CMSDK_TIMER1) = 0;
    TIMER_RELOAD(CMSDK_TIMER1) = 0xFFFFFFFFu;
    TIMER_VALUE(CMSDK_TIMER1) = 0xFFFFFFFFu;
    TIMER_CTRL(CMSDK_TIMER1) = TIMER_CTRL_ENABLE;
#endif
    evrec_cm_tick_init(&tick, host, FW_SYSTICK_HZ / FW_TICK_HZ);
    return evrec_cm_systick_start(FW_CORE_HZ / FW_SYSTICK_HZ) != EVREC_OK;
}

uint64_t board_time_freq(void)
{
    return EVREC_PORT_TIME_FREQ();
}

void board_timer_start(uint32_t hz)
{
    TIMER_CTRL(CMSDK_TIMER0) = 0;
    TIMER_RELOAD(CMSDK_TIMER0) = FW_CORE_HZ / hz - 1u;
    TIMER_VALUE(CMSDK_TIMER0) = FW_CORE_HZ / hz - 1u;
    TIMER_INTCLEAR(CMSDK_TIMER0) = 1u;
    NVIC_ISER0 = 1u << TIMER0_IRQ;
    TIMER_CTRL(CMSDK_TIMER0) = TIMER_CTRL_ENABLE | TIMER_CTRL_IRQ;
}

void board_timer_stop(void)
{
    TIMER_CTRL(CMSDK_TIMER0) = 0;
    NVIC_ICER0 = 1u << TIMER0_IRQ;
}

void board_wait_change(const volatile uint32_t *counter, uint32_t seen)
{
    /* Check and sleep with interrupts masked: WFI still wakes on a pending interrupt, which is
     * taken as soon as they are unmasked. No wake-up is lost between the check and the WFI. */
    __asm__ volatile("cpsid i" ::: "memory");
    while (*counter == seen) {
        __asm__ volatile("wfi\n\tcpsie i\n\tisb\n\tcpsid i" ::: "memory");
    }
    __asm__ volatile("cpsie i" ::: "memory");
}
