/* SPDX-License-Identifier: Apache-2.0 */
/* tx_user.h of the ThreadX hook instruction counts (hook_insn.c): no timer ticks are needed (the
 * loops run in threads that switch by themselves); HOOK_TRACE 1: evrec's hooks, 0: none; HOOK_KERNEL_TRACE: the kernel's
 * event trace (TX_ENABLE_EVENT_TRACE) with insert points that do nothing. */
#ifndef TX_USER_H
#define TX_USER_H
#define TX_DISABLE_ERROR_CHECKING
#define TX_TIMER_PROCESS_IN_ISR
#if HOOK_TRACE
#include "evrec_threadx.h"
#elif defined(HOOK_KERNEL_TRACE) /* TX_ENABLE_EVENT_TRACE alone: the insert points do nothing */
#define TX_TRACE_IN_LINE_INSERT(i, a, b, c, d, e)
#endif
#endif
