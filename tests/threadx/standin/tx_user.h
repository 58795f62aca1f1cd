/* SPDX-License-Identifier: Apache-2.0 */
/* tx_user.h of the hooks test: the README's one line. */
#ifndef TX_USER_H
#define TX_USER_H
#include "evrec_threadx.h"
#endif
