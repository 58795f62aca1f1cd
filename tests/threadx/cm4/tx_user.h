/* SPDX-License-Identifier: Apache-2.0 */
/* tx_user.h of the Cortex-M4 compile check: the README's line for a port that calls the
 * execution-change notifications (the kernel is built with TX_ENABLE_EXECUTION_CHANGE_NOTIFY). */
#ifndef TX_USER_H
#define TX_USER_H
#include "evrec_threadx.h"
#endif
