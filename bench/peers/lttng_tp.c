/* SPDX-License-Identifier: Apache-2.0 */
/* The probes of the LTTng-UST provider (lttng_tp.h), built into evrec-bench-peers. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "lttng_tp.h"
