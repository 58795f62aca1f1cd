/**
 * @file evrec_port.h (template port)
 * @brief Copy this folder to ports/<yours>/ and fill in the macros. Nothing in the core changes.
 *
 * Required:
 *  - EVREC_PORT_TIMESTAMP(): a uint32_t free-running counter, counting up, in ticks of a known
 *    frequency. Must be callable from any context including interrupts, and cheap (it is read
 *    once per record). Describe its unit in words here.
 *  - EVREC_PORT_RELAX(): what evrec_host_stop() does while it waits for a record in flight
 *    (a pause/yield instruction, or nothing).
 * The recorder uses C11 atomics (fetch_add on size_t, 16-bit release store); a target without
 * them provides the GCC __atomic builtins through libatomic or its own critical section.
 */
#ifndef EVREC_PORT_H
#define EVREC_PORT_H

#include <stdint.h>

#error "template port: copy ports/template to ports/<yours> and define the macros below"

#define EVREC_PORT_TIMESTAMP() ((uint32_t)0)
#define EVREC_PORT_RELAX() ((void)0)

#endif /* EVREC_PORT_H */
