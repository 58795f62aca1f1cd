/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_port.h (Cortex-M port)
 * @brief Hot-path macros of the Cortex-M port: timestamp, its frequency, allocation safety.
 *
 * Overview (the port contract, PORTING.md): EVREC_PORT_TIMESTAMP() (32-bit, counting up),
 * EVREC_PORT_TIME_FREQ() (Hz, 0 = unknown), EVREC_PORT_RELAX(), EVREC_PORT_CORE_ID(), and
 * allocation safety: EVREC_PORT_HAS_ATOMICS, or EVREC_PORT_CRITICAL_STATE /
 * EVREC_PORT_CRITICAL_ENTER() / EVREC_PORT_CRITICAL_EXIT().
 *
 * Timestamp sources (choose with EVREC_CM_CLOCK; all count up and wrap at 2^32):
 *  - ::EVREC_CM_CLOCK_DWT: the DWT cycle counter CYCCNT, one core clock per tick (one load).
 *    Enable it once with evrec_cm_dwt_enable(). ARMv7-M and ARMv8-M main only (Cortex-M3, M4,
 *    M7, M33, M55...). The default there.
 *  - ::EVREC_CM_CLOCK_SYSTICK: the 24-bit SysTick down-counter extended to 32 bits by the
 *    number of SysTick periods counted in evrec_cm_systick_isr(). Works on every Cortex-M,
 *    including ARMv6-M (Cortex-M0/M0+, no CYCCNT) and QEMU (whose CYCCNT reads 0). The default on
 *    ARMv6-M and ARMv8-M baseline. Ticks of the SysTick clock (the core clock when SysTick was
 *    started by evrec_cm_systick_start()). Rules: evrec_cm_systick_isr() is the first thing the
 *    SysTick handler does, SysTick has the highest priority of all exceptions that record
 *    (evrec_cm_systick_start() gives it priority 0), and interrupts are never masked for a
 *    whole SysTick period. About 15 instructions per read.
 *  - ::EVREC_CM_CLOCK_TIMER: any free-running 32-bit memory-mapped counter, e.g. a CMSDK or
 *    vendor timer reloaded with 0xFFFFFFFF: define EVREC_CM_TIMER_ADDR (its count register) and
 *    EVREC_CM_TIMER_COUNTS_DOWN (1 if it counts down: the port returns its complement).
 *
 * EVREC_CM_CLOCK_HZ: frequency of the chosen counter in Hz, any expression (a constant, or
 * CMSIS `SystemCoreClock`); 0 (the default) = unknown, and the reader derives it from the tick
 * period (`evrec dump --tick-hz`).
 *
 * Allocation: where the core has LDREX/STREX (ARMv7-M, ARMv8-M main and baseline) the recorder
 * uses C11 atomics, which GCC and Clang compile to an LDREX/STREX loop: lock-free, no interrupt
 * latency. ARMv6-M (Cortex-M0/M0+) has no exclusive accesses, so allocation takes a PRIMASK
 * critical section (MRS PRIMASK; CPSID I ... MSR PRIMASK): a few cycles with interrupts masked,
 * legal in any handler, nests. EVREC_CM_USE_PRIMASK 1 forces the critical section everywhere.
 */
#ifndef EVREC_PORT_H
#define EVREC_PORT_H

#include <stdint.h>

/** Timestamp source: DWT CYCCNT. */
#define EVREC_CM_CLOCK_DWT 1
/** Timestamp source: SysTick extended to 32 bits by evrec_cm_systick_isr(). */
#define EVREC_CM_CLOCK_SYSTICK 2
/** Timestamp source: a 32-bit memory-mapped counter at EVREC_CM_TIMER_ADDR. */
#define EVREC_CM_CLOCK_TIMER 3

/** 1 when the core has no CYCCNT: ARMv6-M and ARMv8-M baseline. */
#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
#define EVREC_CM_HAS_CYCCNT 0
#else
#define EVREC_CM_HAS_CYCCNT 1
#endif

#ifndef EVREC_CM_CLOCK
#if EVREC_CM_HAS_CYCCNT
#define EVREC_CM_CLOCK EVREC_CM_CLOCK_DWT
#else
#define EVREC_CM_CLOCK EVREC_CM_CLOCK_SYSTICK
#endif
#endif

#ifndef EVREC_CM_CLOCK_HZ
#define EVREC_CM_CLOCK_HZ 0u
#endif

/* System control space registers used by the port (ARMv7-M ARM, B3.2, C1.8; ARMv6-M ARM). */
#define EVREC_CM_REG(addr) (*(volatile uint32_t *)(uintptr_t)(addr))
#define EVREC_CM_DWT_CTRL EVREC_CM_REG(0xE0001000u)
#define EVREC_CM_DWT_CYCCNT EVREC_CM_REG(0xE0001004u)
#define EVREC_CM_DWT_LAR EVREC_CM_REG(0xE0001FB0u)
#define EVREC_CM_DEMCR EVREC_CM_REG(0xE000EDFCu)
#define EVREC_CM_SYST_CSR EVREC_CM_REG(0xE000E010u)
#define EVREC_CM_SYST_RVR EVREC_CM_REG(0xE000E014u)
#define EVREC_CM_SYST_CVR EVREC_CM_REG(0xE000E018u)
#define EVREC_CM_ICSR EVREC_CM_REG(0xE000ED04u)
#define EVREC_CM_SHPR3 EVREC_CM_REG(0xE000ED20u)
/** ICSR.PENDSTSET: a SysTick exception is pending (its handler has not started yet). */
#define EVREC_CM_ICSR_PENDSTSET (1u << 26)

/** SysTick periods completed, counted by evrec_cm_systick_isr() (the port's only global). */
extern volatile uint32_t evrec_cm_systick_periods;

#if EVREC_CM_CLOCK == EVREC_CM_CLOCK_DWT
#if !EVREC_CM_HAS_CYCCNT
#error "evrec cortex-m port: this core has no DWT CYCCNT; use EVREC_CM_CLOCK_SYSTICK or _TIMER"
#endif
/** 32-bit timestamp: DWT CYCCNT, core clock cycles. One load. */
#define EVREC_PORT_TIMESTAMP() ((uint32_t)EVREC_CM_DWT_CYCCNT)

#elif EVREC_CM_CLOCK == EVREC_CM_CLOCK_SYSTICK

/**
 * @brief SysTick time in SysTick clocks since it was started, modulo 2^32.
 *
 * A period starts when the counter reaches 0 (that is when the exception becomes pending and
 * evrec_cm_systick_isr() counts it); in it the counter shows 0, RVR, RVR-1 ... 1, that is
 * elapsed = (RVR + 1 - value) mod (RVR + 1). A period whose exception is still pending (we are
 * in a handler of higher priority, or interrupts are masked) is added from ICSR.PENDSTSET. The
 * reads are repeated if the count or the pending bit changed meanwhile.
 * @return SysTick clocks since evrec_cm_systick_start(), modulo 2^32.
 * **Context:** any, including handlers and masked interrupts (see the rules in the file doc).
 */
static inline uint32_t evrec_cm_systick_now(void)
{
    for (;;) {
        uint32_t periods = evrec_cm_systick_periods;
        uint32_t pend1 = EVREC_CM_ICSR & EVREC_CM_ICSR_PENDSTSET;
        uint32_t value = EVREC_CM_SYST_CVR;
        uint32_t pend2 = EVREC_CM_ICSR & EVREC_CM_ICSR_PENDSTSET;
        uint32_t len = EVREC_CM_SYST_RVR + 1u;
        if (pend1 == pend2 && periods == evrec_cm_systick_periods) {
            uint32_t elapsed = value ? len - value : 0u;
            return (periods + (pend1 >> 26)) * len + elapsed;
        }
    }
}
/** 32-bit timestamp: SysTick clocks (see evrec_cm_systick_now()). */
#define EVREC_PORT_TIMESTAMP() evrec_cm_systick_now()

#elif EVREC_CM_CLOCK == EVREC_CM_CLOCK_TIMER
#ifndef EVREC_CM_TIMER_ADDR
#error "evrec cortex-m port: EVREC_CM_CLOCK_TIMER needs EVREC_CM_TIMER_ADDR (count register)"
#endif
#ifndef EVREC_CM_TIMER_COUNTS_DOWN
#define EVREC_CM_TIMER_COUNTS_DOWN 1
#endif
#if EVREC_CM_TIMER_COUNTS_DOWN
/** 32-bit timestamp: complement of a down-counter reloaded with 0xFFFFFFFF. */
#define EVREC_PORT_TIMESTAMP() ((uint32_t)~EVREC_CM_REG(EVREC_CM_TIMER_ADDR))
#else
/** 32-bit timestamp: an up-counter. */
#define EVREC_PORT_TIMESTAMP() ((uint32_t)EVREC_CM_REG(EVREC_CM_TIMER_ADDR))
#endif

#else
#error "evrec cortex-m port: EVREC_CM_CLOCK must be EVREC_CM_CLOCK_DWT, _SYSTICK or _TIMER"
#endif

/** Frequency of EVREC_PORT_TIMESTAMP() in Hz, 0 = unknown. */
#define EVREC_PORT_TIME_FREQ() ((uint64_t)(EVREC_CM_CLOCK_HZ))

/** Nothing to do while evrec_host_stop() waits: a single core is interrupted, not raced. */
#define EVREC_PORT_RELAX() ((void)0)

/**
 * EVREC_PORT_CORE_ID(): the number of the core running the caller, which evrec_lane_host()
 * (evrec/evrec_lanes.h) uses to pick the caller's lane. Every Cortex-M this port targets is used
 * as a single core, so it is 0. An SMP part defines it before including this header, e.g.
 *  - RP2040 / RP2350 (two Cortex-M0+ / M33): the SIO CPUID register, 0 or 1:
 *    `#define EVREC_PORT_CORE_ID() (*(volatile const uint32_t *)0xD0000000u)`;
 *  - STM32H7 dual core (Cortex-M7 + Cortex-M4 sharing a buffer in D2/D3 SRAM): the part number
 *    in SCB->CPUID, 0 on the M7 and 1 on the M4:
 *    `#define EVREC_PORT_CORE_ID() ((((*(volatile const uint32_t *)0xE000ED00u) >> 4) & 0xFFFu) == 0xC24u)`
 *    (both images must then share the recorder, its lanes object and the same EventControl
 *    meta-info; the M7's data cache needs the buffer non-cacheable or cleaned before save).
 * Defining it also makes EVREC_PORT_UNIPROCESSOR default to 0 (below): cores that share a buffer
 * need the barriers.
 */
#if defined(EVREC_PORT_CORE_ID) && !defined(EVREC_PORT_UNIPROCESSOR)
#define EVREC_PORT_UNIPROCESSOR 0 /* the user says which core records: several do */
#endif
#ifndef EVREC_PORT_CORE_ID
#define EVREC_PORT_CORE_ID() 0u
#endif

/* ---- allocation safety ---- */
#ifndef EVREC_CM_USE_PRIMASK
#if defined(__ARM_FEATURE_LDREX) && (__ARM_FEATURE_LDREX & 4)
#define EVREC_CM_USE_PRIMASK 0
#else
#define EVREC_CM_USE_PRIMASK 1
#endif
#endif

#if EVREC_CM_USE_PRIMASK
/** No lock-free word atomics (ARMv6-M): evrec_atomic.h uses the critical section below. */
#define EVREC_PORT_HAS_ATOMICS 0

/**
 * @brief Save PRIMASK and mask interrupts (MRS PRIMASK; CPSID I).
 * @return the previous PRIMASK.
 * **Context:** any, thread or handler; nests.
 */
static inline uint32_t evrec_cm_irq_save(void)
{
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
    return primask;
}

/**
 * @brief Restore PRIMASK saved by evrec_cm_irq_save() (MSR PRIMASK).
 * @param[in] primask what evrec_cm_irq_save() returned.
 * **Context:** the context that called evrec_cm_irq_save().
 */
static inline void evrec_cm_irq_restore(uint32_t primask)
{
    __asm__ volatile("msr primask, %0" : : "r"(primask) : "memory");
}

#define EVREC_PORT_CRITICAL_STATE uint32_t evrec_cm_primask_
#define EVREC_PORT_CRITICAL_ENTER() (evrec_cm_primask_ = evrec_cm_irq_save())
#define EVREC_PORT_CRITICAL_EXIT() evrec_cm_irq_restore(evrec_cm_primask_)
#else
/** LDREX/STREX through C11 atomics. */
#define EVREC_PORT_HAS_ATOMICS 1

/**
 * @brief The record path's compare-and-swap (evrec_reserve() in cyclic and streaming mode, used
 * when EVREC_PORT_UNIPROCESSOR is 1): LDREX, compare, STREX, with a branch where GCC's expansion of
 * the C11 operation puts an IT block (one instruction less per record).
 * @param[in,out] p the allocation word.
 * @param[in] expected the value `*p` must hold.
 * @param[in] desired the value stored if it does.
 * @return 0 when `desired` was stored; nonzero when `*p` held another value or the exclusive
 *     monitor was lost (an exception came in between): the caller takes its slow path.
 * **Context:** any, thread or handler. Relaxed order with a compiler barrier: correct only when
 * every context that records runs on this core (EVREC_PORT_UNIPROCESSOR).
 */
static inline size_t evrec_cm_cas_failed(volatile size_t *p, size_t expected, size_t desired)
{
    size_t fail;
    __asm__ volatile("ldrex %0, [%1]\n\t"
                     "subs %0, %0, %2\n\t"
                     "bne 1f\n\t"
                     "strex %0, %3, [%1]\n"
                     "1:"
                     : "=&r"(fail)
                     : "r"(p), "r"(expected), "r"(desired)
                     : "cc", "memory");
    return fail;
}
#define EVREC_PORT_CAS_FAILED(p, expected, desired)                                                               \
    evrec_cm_cas_failed((volatile size_t *)(uintptr_t)(p), (expected), (desired))
#endif

/** All recording contexts run on this one core (evrec_atomic.h): acquire/release orders compile
 * to compiler barriers, not DMB instructions (3 fewer instructions per record on Cortex-M4). A
 * multi-core part whose cores record into the same buffer (RP2040, dual-core STM32H7 with a
 * shared buffer) defines EVREC_PORT_UNIPROCESSOR 0 before this header (e.g. with
 * `-DEVREC_PORT_UNIPROCESSOR=0`). */
#ifndef EVREC_PORT_UNIPROCESSOR
#define EVREC_PORT_UNIPROCESSOR 1
#endif

/* A cyclic ring reuses a block on the strength of its record count, without reading it:
 * bare-metal recording contexts (interrupts) never last a lap of the ring. An RTOS whose
 * preemptive threads record sets 1 (evrec_config.h). */
#ifndef EVREC_CYCLIC_GUARD
#define EVREC_CYCLIC_GUARD 0
#endif

#endif /* EVREC_PORT_H */
