/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_port.h (Zephyr port)
 * @brief The recorder's port for any Zephyr target (the port contract: PORTING.md): the kernel's
 * 32-bit hardware cycle counter, its frequency, the CPU number for the lanes, and Zephyr's
 * interrupt lock where the core has no atomics.
 *
 * Overview:
 * - EVREC_PORT_TIMESTAMP(): k_cycle_get_32(), hardware cycles (the system timer's clock, e.g.
 *   SysTick's core clock on Cortex-M, 1 MHz... on native_sim), counting up, wrapping at 2^32;
 *   callable from threads and ISRs.
 * - EVREC_PORT_TIME_FREQ(): sys_clock_hw_cycles_per_sec(), Hz.
 * - EVREC_PORT_CORE_ID(): the CPU (arch_curr_cpu()->id) with CONFIG_SMP, else 0.
 * - ARMv6-M and ARMv8-M Baseline (no LDREX/STREX): a critical section with arch_irq_lock().
 */
#ifndef EVREC_PORT_H
#define EVREC_PORT_H

#include <stdint.h>
#include <zephyr/kernel.h>

#define EVREC_PORT_TIMESTAMP() ((uint32_t)k_cycle_get_32())
#define EVREC_PORT_TIME_FREQ() ((uint64_t)sys_clock_hw_cycles_per_sec())
#define EVREC_PORT_RELAX() ((void)0)

#ifdef CONFIG_SMP
#define EVREC_PORT_CORE_ID() ((unsigned)arch_curr_cpu()->id)
#define EVREC_PORT_UNIPROCESSOR 0
#else
#define EVREC_PORT_CORE_ID() 0u
#define EVREC_PORT_UNIPROCESSOR 1
#endif

#ifdef CONFIG_ARMV6_M_ARMV8_M_BASELINE
#define EVREC_PORT_HAS_ATOMICS 0
#define EVREC_PORT_CRITICAL_STATE unsigned int evrec_zephyr_irq_key_
#define EVREC_PORT_CRITICAL_ENTER() (evrec_zephyr_irq_key_ = arch_irq_lock())
#define EVREC_PORT_CRITICAL_EXIT() arch_irq_unlock(evrec_zephyr_irq_key_)
#endif

#endif /* EVREC_PORT_H */
