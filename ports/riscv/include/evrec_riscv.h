/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_riscv.h
 * @brief Services of the RISC-V port: the machine-timer tick hook (as in CCore's EventRecorder on
 * XCore, where tick() "is called from the timer interrupt").
 *
 * API overview: evrec_rv_tick_start() (arm the machine timer), evrec_rv_timer_isr() (re-arm it,
 * an EventControl Tick every `divider` interrupts). The hot-path macros are in this port's
 * evrec_port.h.
 *
 * The hook re-arms the machine timer (`mtimecmp`, CLINT/ACLINT) every `period` mtime ticks and
 * records an EventControl Tick every `divider` interrupts. Typical use, from the machine timer
 * interrupt (mcause = interrupt 7):
 * @code
 * static evrec_rv_tick_t tick;
 * evrec_rv_tick_start(&tick, &host, 10, MTIME, MTIMECMP, 10000000 / 100); // 100 Hz, Tick at 10 Hz
 * void machine_timer_irq(void) { evrec_rv_timer_isr(&tick); }
 * @endcode
 * Freestanding; no libc.
 */
#ifndef EVREC_RISCV_H
#define EVREC_RISCV_H

#include <stdint.h>

#include "evrec/evrec_recorder.h"
#include "evrec/evrec_status.h"
#include "evrec_port.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief State of the machine-timer tick hook. User memory; fields are private. */
typedef struct evrec_rv_tick {
    evrec_host_t *host;             /**< host that gets the Tick records */
    const volatile uint64_t *mtime; /**< the mtime register */
    volatile uint64_t *mtimecmp;    /**< this hart's mtimecmp register */
    uint64_t period;                /**< mtime ticks between interrupts */
    uint64_t next;                  /**< mtime of the next interrupt */
    uint32_t divider;               /**< interrupts per Tick */
    uint32_t count;                 /**< interrupts since the last Tick */
} evrec_rv_tick_t;

/**
 * @brief Arm the machine timer to interrupt every `period` mtime ticks and enable its interrupt
 * (mie.MTIE); the caller enables interrupts globally (mstatus.MIE) and routes the machine timer
 * interrupt to evrec_rv_timer_isr().
 * @param[out] t the hook state (user memory).
 * @param[in] host the host to tick (may be started and stopped at any time).
 * @param[in] divider interrupts per Tick (0 is taken as 1).
 * @param[in] mtime the mtime register.
 * @param[out] mtimecmp this hart's mtimecmp register.
 * @param[in] period mtime ticks between interrupts, >= 1.
 * @retval EVREC_OK armed.
 * @retval EVREC_E_ARG NULL register or period 0.
 * **Context:** machine mode, thread, once.
 */
evrec_status evrec_rv_tick_start(evrec_rv_tick_t *t, evrec_host_t *host, uint32_t divider,
                                 const volatile uint64_t *mtime, volatile uint64_t *mtimecmp, uint64_t period);

/**
 * @brief The machine timer interrupt hook: re-arms mtimecmp one period later (skipping periods
 * already past) and records a Tick every `divider` calls.
 * @param[in,out] t the state from evrec_rv_tick_start().
 * **Context:** the machine timer interrupt handler only. Lock-free.
 */
void evrec_rv_timer_isr(evrec_rv_tick_t *t);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_RISCV_H */
