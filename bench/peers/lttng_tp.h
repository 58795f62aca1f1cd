/* SPDX-License-Identifier: Apache-2.0 */
/* LTTng-UST tracepoint provider of the peer benchmark: evrec_peers:bench with the benchmark's
 * three fields (u8 c, u16 b, u32 a); LTTng adds its own event header and timestamp. */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER evrec_peers

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./lttng_tp.h"

#if !defined(PEERS_LTTNG_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define PEERS_LTTNG_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(evrec_peers, bench, LTTNG_UST_TP_ARGS(uint8_t, c, uint16_t, b, uint32_t, a),
                           LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(uint8_t, c, c)
                                                   lttng_ust_field_integer(uint16_t, b, b)
                                                       lttng_ust_field_integer(uint32_t, a, a)))

#endif /* PEERS_LTTNG_TP_H */

#include <lttng/tracepoint-event.h>
