/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tx_user.h of the ThreadX trace test (threadx_workload.c): the README's lines for the Linux
 * ports, plus ThreadX's own accounting to check the trace against: the thread performance
 * counters and the execution profile kit (utility/execution_profile_kit), fed from the same
 * execution-change points (EVREC_THREADX_CHAIN) and stamped with the TSC, as evrec's POSIX port.
 * The kit's tx_execution_profile.c is built with its four entry points renamed tx_epk_*.
 * THREADX_TEST_KIT: the kit is built (single core only).
 */
#ifndef THREADX_TEST_TX_USER_H
#define THREADX_TEST_TX_USER_H

#define TX_THREAD_ENABLE_PERFORMANCE_INFO

#ifdef THREADX_TEST_KIT /* the single-core build (see check_threadx.py for SMP) */
#define TX_EXECUTION_PROFILE_ENABLE
#define TX_EXECUTION_TIME_SOURCE ((EXECUTION_TIME_SOURCE_TYPE)threadx_test_counter())
#define TX_EXECUTION_MAX_TIME_SOURCE 0xFFFFFFFFFFFFFFFFull

#ifndef __ASSEMBLER__
unsigned long threadx_test_counter(void);
void tx_epk_thread_enter(void);
void tx_epk_thread_exit(void);
void tx_epk_isr_enter(void);
void tx_epk_isr_exit(void);
#endif
#define EVREC_THREADX_CHAIN(what, core) ((void)(core), tx_epk_##what())
#endif

/* The README's lines for the Linux ports. */
#define EVREC_THREADX_ISR_FROM_TRACE 1
#define EVREC_THREADX_INT_CONTROL 1 /* the test also records every TX_DISABLE/TX_RESTORE */
#include "evrec_threadx.h"

#endif
