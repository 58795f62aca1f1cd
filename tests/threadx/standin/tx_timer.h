/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in for ThreadX's common/inc/tx_timer.h: the expiring timer evrec_threadx.c reads, defined
 * by the test. */
#ifndef TX_TIMER_H
#define TX_TIMER_H

#include "tx_api.h"

extern TX_TIMER_INTERNAL *_tx_timer_expired_timer_ptr;

#endif
