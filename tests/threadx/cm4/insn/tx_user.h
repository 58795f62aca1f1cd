/* SPDX-License-Identifier: Apache-2.0 */
/* tx_user.h of the ThreadX hook instruction counts (hook_insn.c): no timer ticks are needed (the
 * loops run in threads that switch by themselves); HOOK_TRACE 1: evrec's hooks, 0: none. */
#ifndef TX_USER_H
#define TX_USER_H
#define TX_DISABLE_ERROR_CHECKING
#define TX_TIMER_PROCESS_IN_ISR
#if HOOK_TRACE
#include "evrec_threadx.h"
#endif
#endif
