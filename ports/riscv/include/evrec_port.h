/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_port.h (RISC-V port)
 * @brief Hot-path macros of the RISC-V port (RV32 and RV64): timestamp, its frequency,
 * allocation safety.
 *
 * Overview (the port contract, PORTING.md): EVREC_PORT_TIMESTAMP() (32-bit, counting up),
 * EVREC_PORT_TIME_FREQ() (Hz, 0 = unknown), EVREC_PORT_RELAX(), EVREC_PORT_CORE_ID(), and
 * allocation safety: EVREC_PORT_HAS_ATOMICS, or EVREC_PORT_CRITICAL_STATE /
 * EVREC_PORT_CRITICAL_ENTER() / EVREC_PORT_CRITICAL_EXIT().
 *
 * Timestamp sources (choose with EVREC_RV_CLOCK; the low 32 bits of a 64-bit up-counter):
 *  - ::EVREC_RV_CLOCK_MCYCLE: the `mcycle` CSR, core clock cycles. Machine mode (bare-metal
 *    firmware, most RTOSes). The default.
 *  - ::EVREC_RV_CLOCK_CYCLE: the `cycle` CSR (`rdcycle`), the same counter readable from S/U
 *    mode when the more privileged mode allows it (mcounteren/scounteren.CY).
 *  - ::EVREC_RV_CLOCK_TIME: the `time` CSR (`rdtime`), the platform timer (mtime) at its fixed
 *    frequency: steady when the core clock changes. Where `time` traps (many M-mode-only cores
 *    do not implement it), use the next one.
 *  - ::EVREC_RV_CLOCK_MTIME: a load of the low word of the memory-mapped `mtime` register at
 *    EVREC_RV_MTIME_ADDR (CLINT/ACLINT: base + 0xBFF8 on most SoCs and on QEMU `virt`).
 * Each read is one instruction (two for MTIME: address and load). Reading the low 32 bits of a
 * 64-bit counter needs no high/low retry loop: the 32-bit wrap is what the reader expects.
 *
 * EVREC_RV_CLOCK_HZ: frequency of the chosen counter in Hz (an expression); 0 = unknown, and the
 * reader derives it from the tick period.
 *
 * Allocation: with the A extension (`__riscv_atomic`, e.g. rv32imac, rv64imac) the recorder uses
 * C11 atomics, compiled to one `amoadd.w.aq` / `amoadd.d.aq`: lock-free, and safe across harts.
 * Without it (rv32imc, rv32ec) allocation takes an `mstatus.MIE` critical section
 * (`csrrci mstatus, 8` ... `csrs mstatus` of the saved bit): legal in any trap handler, nests,
 * but machine mode only and one hart only. EVREC_RV_USE_MIE 1 forces it.
 *
 * Toolchains with binutils >= 2.38 need the Zicsr extension named in -march for the CSR reads
 * (`-march=rv32imac_zicsr`); see cmake/toolchains/riscv64-unknown-elf.cmake.
 */
#ifndef EVREC_PORT_H
#define EVREC_PORT_H

#include <stdint.h>

/** Timestamp source: `mcycle` (machine mode). */
#define EVREC_RV_CLOCK_MCYCLE 1
/** Timestamp source: `cycle` (rdcycle). */
#define EVREC_RV_CLOCK_CYCLE 2
/** Timestamp source: `time` (rdtime). */
#define EVREC_RV_CLOCK_TIME 3
/** Timestamp source: memory-mapped mtime at EVREC_RV_MTIME_ADDR. */
#define EVREC_RV_CLOCK_MTIME 4

#ifndef EVREC_RV_CLOCK
#define EVREC_RV_CLOCK EVREC_RV_CLOCK_MCYCLE
#endif
#ifndef EVREC_RV_CLOCK_HZ
#define EVREC_RV_CLOCK_HZ 0u
#endif

/** @brief Read a CSR by name (`csrr`). */
#define EVREC_RV_CSR_READ(csr)                                                                                    \
    __extension__({                                                                                               \
        unsigned long evrec_rv_v_;                                                                                \
        __asm__ volatile("csrr %0, " #csr : "=r"(evrec_rv_v_));                                                   \
        evrec_rv_v_;                                                                                              \
    })

#if EVREC_RV_CLOCK == EVREC_RV_CLOCK_MCYCLE
/**
 * @brief The timestamp: low 32 bits of mcycle (with EVREC_RV_CLOCK_CYCLE: of cycle; with
 * EVREC_RV_CLOCK_TIME: of time), one CSR read.
 * @return the counter's low 32 bits, ticks of its clock.
 * **Context:** machine mode (cycle and time: any mode the CSR is readable in); any context.
 */
static inline uint32_t evrec_rv_timestamp(void)
{
    return (uint32_t)EVREC_RV_CSR_READ(mcycle);
}
#elif EVREC_RV_CLOCK == EVREC_RV_CLOCK_CYCLE
static inline uint32_t evrec_rv_timestamp(void)
{
    return (uint32_t)EVREC_RV_CSR_READ(cycle);
}
#elif EVREC_RV_CLOCK == EVREC_RV_CLOCK_TIME
static inline uint32_t evrec_rv_timestamp(void)
{
    return (uint32_t)EVREC_RV_CSR_READ(time);
}
#elif EVREC_RV_CLOCK == EVREC_RV_CLOCK_MTIME
#ifndef EVREC_RV_MTIME_ADDR
#error "evrec riscv port: EVREC_RV_CLOCK_MTIME needs EVREC_RV_MTIME_ADDR (e.g. 0x0200BFF8u)"
#endif
static inline uint32_t evrec_rv_timestamp(void)
{
    return *(volatile const uint32_t *)(uintptr_t)(EVREC_RV_MTIME_ADDR); /* little-endian low */
}
#else
#error "evrec riscv port: EVREC_RV_CLOCK must be EVREC_RV_CLOCK_MCYCLE, _CYCLE, _TIME or _MTIME"
#endif

/** 32-bit timestamp in ticks of the chosen counter. */
#define EVREC_PORT_TIMESTAMP() evrec_rv_timestamp()
/** Frequency of EVREC_PORT_TIMESTAMP() in Hz, 0 = unknown. */
#define EVREC_PORT_TIME_FREQ() ((uint64_t)(EVREC_RV_CLOCK_HZ))
/** Nothing to do while evrec_host_stop() waits (a `pause` hint would need Zihintpause). */
#define EVREC_PORT_RELAX() ((void)0)

#ifndef EVREC_RV_USE_MIE
#if defined(__riscv_atomic)
#define EVREC_RV_USE_MIE 0
#else
#define EVREC_RV_USE_MIE 1
#endif
#endif

#if EVREC_RV_USE_MIE
/** No A extension: evrec_atomic.h uses the critical section below. */
#define EVREC_PORT_HAS_ATOMICS 0

/**
 * @brief Clear mstatus.MIE (CSRRCI).
 * @return the previous mstatus.MIE bit (0 or 8).
 * **Context:** machine mode, thread or handler; nests.
 */
static inline unsigned long evrec_rv_irq_save(void)
{
    unsigned long old;
    __asm__ volatile("csrrci %0, mstatus, 8" : "=r"(old) : : "memory");
    return old & 8u;
}

/**
 * @brief Set mstatus.MIE again if evrec_rv_irq_save() found it set (CSRS).
 * @param[in] mie what evrec_rv_irq_save() returned.
 * **Context:** the context that called evrec_rv_irq_save().
 */
static inline void evrec_rv_irq_restore(unsigned long mie)
{
    __asm__ volatile("csrs mstatus, %0" : : "r"(mie) : "memory");
}

#define EVREC_PORT_CRITICAL_STATE unsigned long evrec_rv_mie_
#define EVREC_PORT_CRITICAL_ENTER() (evrec_rv_mie_ = evrec_rv_irq_save())
#define EVREC_PORT_CRITICAL_EXIT() evrec_rv_irq_restore(evrec_rv_mie_)
#else
/** A extension: C11 atomics (amoadd). */
#define EVREC_PORT_HAS_ATOMICS 1
#endif

/**
 * EVREC_PORT_CORE_ID(): the caller's hart, which evrec_lane_host() (evrec/evrec_lanes.h) uses
 * to pick the caller's lane. The `mhartid` CSR is readable in machine mode only (an S- or
 * U-mode read traps), so the port reads it only when EVREC_RV_MHARTID is 1 (firmware that
 * records in M-mode on several harts); by default it returns 0 (one hart, or code that cannot
 * know: S/U-mode code defines EVREC_PORT_CORE_ID itself, e.g. from a per-hart variable its
 * kernel keeps in `tp`, or uses the POSIX port under Linux, whose sched_getcpu() works).
 */
#ifndef EVREC_PORT_CORE_ID
#if defined(EVREC_RV_MHARTID) && EVREC_RV_MHARTID
/**
 * @brief The `mhartid` CSR: the hart running the caller.
 * @return the hart id.
 * **Context:** machine mode only (an S- or U-mode read traps); any context.
 */
static inline unsigned evrec_rv_mhartid(void)
{
    unsigned long h;
    __asm__ volatile("csrr %0, mhartid" : "=r"(h));
    return (unsigned)h;
}
#define EVREC_PORT_CORE_ID() evrec_rv_mhartid()
#else
#define EVREC_PORT_CORE_ID() 0u
#endif
#endif

/** All recording contexts run on this one hart (evrec_atomic.h; the port's critical section
 * masks this hart's interrupts only): a hart sees its own memory accesses in program order
 * (RISC-V Unprivileged ISA, "RVWMO Memory Consistency Model": its ordering rules concern what
 * other harts observe), so acquire/release orders compile to compiler barriers, not FENCE or
 * .aq/.rl instructions. A multi-hart part whose harts record into the same buffer defines
 * EVREC_PORT_UNIPROCESSOR 0 before this header. */
#ifndef EVREC_PORT_UNIPROCESSOR
#if defined(EVREC_RV_MHARTID) && EVREC_RV_MHARTID
#define EVREC_PORT_UNIPROCESSOR 0 /* several harts record: keep the fences */
#else
#define EVREC_PORT_UNIPROCESSOR 1
#endif
#endif

/* A cyclic ring reuses a block on the strength of its record count, without reading it:
 * bare-metal recording contexts (interrupts) never last a lap of the ring. An RTOS whose
 * preemptive threads record sets 1 (evrec_config.h). */
#ifndef EVREC_CYCLIC_GUARD
#define EVREC_CYCLIC_GUARD 0
#endif

#endif /* EVREC_PORT_H */
