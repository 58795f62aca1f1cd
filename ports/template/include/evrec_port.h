/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_port.h (template port)
 * @brief Copy this folder to ports/<yours>/ and fill in the macros. Nothing in the core changes.
 *
 * Overview (the port contract, PORTING.md): EVREC_PORT_TIMESTAMP() (32-bit, counting up),
 * EVREC_PORT_TIME_FREQ() (Hz, 0 = unknown), EVREC_PORT_RELAX(), EVREC_PORT_CORE_ID(), and
 * allocation safety: EVREC_PORT_HAS_ATOMICS, or EVREC_PORT_CRITICAL_STATE /
 * EVREC_PORT_CRITICAL_ENTER() / EVREC_PORT_CRITICAL_EXIT().
 *
 * Required:
 *  - EVREC_PORT_TIMESTAMP(): a uint32_t free-running counter, counting up, in ticks of a known
 *    frequency. Must be callable from any context including interrupts, and cheap (it is read
 *    once per record). Describe its unit in words here.
 *  - EVREC_PORT_RELAX(): what evrec_host_stop() does while it waits for a record in flight
 *    (a pause/yield instruction, or nothing).
 * Recommended: EVREC_PORT_TIME_FREQ(), the counter's frequency in Hz (0 = unknown).
 * Allocation safety: by default the core uses C11 atomics on size_t (see evrec/evrec_atomic.h).
 * A core without them (ARMv6-M, RV32 without A) defines EVREC_PORT_HAS_ATOMICS 0 and a critical
 * section legal in an interrupt, as three parts: EVREC_PORT_CRITICAL_STATE (a declaration),
 * EVREC_PORT_CRITICAL_ENTER() and EVREC_PORT_CRITICAL_EXIT(). Optional: EVREC_PORT_CRC32C(crc,
 * data, len) for a hardware CRC-32C. The whole contract: PORTING.md.
 *
 * PORTING.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_PORT_H
#define EVREC_PORT_H

#include <stdint.h>

#error "template port: copy ports/template to ports/<yours> and define the macros below"

#define EVREC_PORT_TIMESTAMP() ((uint32_t)0)
#define EVREC_PORT_RELAX() ((void)0)
/** Core running the caller, for evrec_lane_host() (evrec/evrec_lanes.h): 0 on a single core. */
#define EVREC_PORT_CORE_ID() 0u
#define EVREC_PORT_TIME_FREQ() ((uint64_t)0) /* the counter's frequency in Hz; 0 = unknown */

#endif /* EVREC_PORT_H */
