/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_port.h (null port)
 * @brief A port that compiles anywhere: every timestamp is 0, frequency unknown. Use it to build
 * the library for a new target before writing its port, or for tests that pin time.
 * A test may define EVREC_NULL_PORT_TIMESTAMP() to a function of its own before this header.
 *
 * Overview (the port contract, PORTING.md): EVREC_PORT_TIMESTAMP() (32-bit, counting up),
 * EVREC_PORT_TIME_FREQ() (Hz, 0 = unknown), EVREC_PORT_RELAX(), EVREC_PORT_CORE_ID(), and
 * allocation safety: EVREC_PORT_HAS_ATOMICS, or EVREC_PORT_CRITICAL_STATE /
 * EVREC_PORT_CRITICAL_ENTER() / EVREC_PORT_CRITICAL_EXIT().
 *
 * Recording with it (every record has time 0 and the file says the frequency is unknown):
 * @code
 * evrec_host_start(&host, &rec, &app_meta, EVREC_PORT_TIME_FREQ());
 * my_event_t *e = evrec_reserve(&host, sizeof(my_event_t));
 * if (e) {
 *     e->a = 1;
 *     evrec_commit(e, MY_EVENT_ID);
 * }
 * @endcode
 */
#ifndef EVREC_PORT_H
#define EVREC_PORT_H

#include <stdint.h>

#ifdef EVREC_NULL_PORT_TIMESTAMP
#define EVREC_PORT_TIMESTAMP() EVREC_NULL_PORT_TIMESTAMP()
#else
#define EVREC_PORT_TIMESTAMP() ((uint32_t)0)
#endif
#define EVREC_PORT_RELAX() ((void)0)
/** Core running the caller, for evrec_lane_host() (evrec/evrec_lanes.h): 0 on a single core. */
#define EVREC_PORT_CORE_ID() 0u
/** Timestamp frequency in Hz for evrec_host_start(): 0, unknown (the timestamps are not a clock). */
#define EVREC_PORT_TIME_FREQ() ((uint64_t)0)

#endif /* EVREC_PORT_H */
