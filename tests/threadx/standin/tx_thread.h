/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in for ThreadX's common/inc/tx_thread.h: the scheduler state evrec_threadx.c reads
 * (single core), defined by the test. */
#ifndef TX_THREAD_H
#define TX_THREAD_H

#include "tx_api.h"

extern TX_THREAD *_tx_thread_current_ptr;
extern TX_THREAD *_tx_thread_execute_ptr;
extern volatile ULONG _tx_thread_system_state;
extern volatile UINT _tx_thread_preempt_disable;
/* The Cortex-M ports' test of the system state also reads the IPSR: the tests set it. */
extern volatile ULONG standin_ipsr;
#define TX_THREAD_GET_SYSTEM_STATE() (_tx_thread_system_state | standin_ipsr)

#endif
