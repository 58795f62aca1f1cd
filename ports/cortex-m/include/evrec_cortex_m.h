/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_cortex_m.h
 * @brief Services of the Cortex-M port: enabling the timestamp counter and the SysTick tick hook
 * (as in CCore's EventRecorder on XCore, where tick() "is called from the timer interrupt").
 *
 * API overview: evrec_cm_dwt_enable() (DWT CYCCNT on), evrec_cm_systick_start() (SysTick at a
 * period, priority 0), evrec_cm_tick_init() and evrec_cm_systick_isr() (an EventControl Tick every
 * N SysTick interrupts). The hot-path macros are in this port's evrec_port.h.
 *
 * Typical use, with SysTick at 1 kHz and an EventControl Tick every 100 ms:
 * @code
 * static evrec_host_t host;
 * static evrec_cm_tick_t tick;
 * void SysTick_Handler(void) { evrec_cm_systick_isr(&tick); ... the RTOS tick ... }
 * int main(void) {
 *     evrec_cm_dwt_enable();                       // EVREC_CM_CLOCK_DWT only
 *     evrec_cm_tick_init(&tick, &host, 100);
 *     evrec_cm_systick_start(SystemCoreClock / 1000u);
 *     evrec_host_start(&host, &rec, &app_meta, EVREC_PORT_TIME_FREQ());
 * }
 * @endcode
 * Freestanding; no libc.
 */
#ifndef EVREC_CORTEX_M_H
#define EVREC_CORTEX_M_H

#include <stdint.h>

#include "evrec/evrec_recorder.h"
#include "evrec/evrec_status.h"
#include "evrec_port.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Turn on the DWT cycle counter: DEMCR.TRCENA, the DWT lock (Cortex-M7), CYCCNTENA.
 * Then checks that CYCCNT advances.
 * @retval EVREC_OK counting.
 * @retval EVREC_E_UNSUPPORTED the core has no cycle counter (ARMv6-M, DWT_CTRL.NOCYCCNT) or it does
 *     not advance (QEMU reads it as 0; a debugger owns it): use EVREC_CM_CLOCK_SYSTICK or
 *     EVREC_CM_CLOCK_TIMER instead.
 * **Context:** thread, once at boot. Does not reset CYCCNT.
 */
evrec_status evrec_cm_dwt_enable(void);

/**
 * @brief Start SysTick on the processor clock with its interrupt, at priority 0 (highest), and
 * reset the period count of EVREC_CM_CLOCK_SYSTICK.
 * @param[in] reload_ticks SysTick period in processor clocks, 2..2^24 (e.g. core Hz / 1000 for
 * 1 kHz). Skip this function if an RTOS already runs SysTick; then the SysTick handler must
 * still call evrec_cm_systick_isr() first, and for EVREC_CM_CLOCK_SYSTICK its priority must be
 * the highest of all exceptions that record.
 * @retval EVREC_OK running.
 * @retval EVREC_E_ARG reload_ticks out of range.
 * **Context:** thread, before recording starts.
 */
evrec_status evrec_cm_systick_start(uint32_t reload_ticks);

/** @brief State of the tick hook. User memory; fields are private. */
typedef struct evrec_cm_tick {
    evrec_host_t *host; /**< host that gets the EventControl Tick records */
    uint32_t divider;   /**< SysTick periods per Tick */
    uint32_t count;     /**< periods since the last Tick */
} evrec_cm_tick_t;

/**
 * @brief Prepare the tick hook: one EventControl Tick every `divider` SysTick periods.
 * @param[out] t the hook state (user memory, e.g. a static).
 * @param[in] host the host to tick; it may be started and stopped at any time (ticks while detached
 *     are ignored).
 * @param[in] divider SysTick periods per Tick, >= 1 (0 is taken as 1). Ticks must come at least
 * once per 2^32 timestamp ticks (43 s at 100 MHz); 10 Hz is usual.
 * **Context:** thread, before SysTick runs.
 */
void evrec_cm_tick_init(evrec_cm_tick_t *t, evrec_host_t *host, uint32_t divider);

/**
 * @brief The SysTick hook: counts the period for EVREC_CM_CLOCK_SYSTICK and records a Tick every
 * `divider` calls. Call it first in SysTick_Handler.
 * @param[in,out] t the state from evrec_cm_tick_init(), or NULL to count the period only.
 * **Context:** the SysTick handler only (not reentrant). Lock-free.
 */
void evrec_cm_systick_isr(evrec_cm_tick_t *t);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_CORTEX_M_H */
