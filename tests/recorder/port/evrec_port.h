/* SPDX-License-Identifier: Apache-2.0 */
/* Test port: the timestamp comes from a variable the test sets (pins time for golden output). */
#ifndef EVREC_PORT_H
#define EVREC_PORT_H

#include <stdint.h>

/** Current fake time; each read returns it and then adds evrec_test_clock_step. */
extern uint32_t evrec_test_clock_now;
extern uint32_t evrec_test_clock_step;

static inline uint32_t evrec_test_clock(void)
{
    uint32_t t = __atomic_load_n(&evrec_test_clock_now, __ATOMIC_RELAXED);
    __atomic_store_n(&evrec_test_clock_now, t + evrec_test_clock_step, __ATOMIC_RELAXED);
    return t;
}

/** Called at the named points of a cyclic block switch when set (tests stall a context there). */
extern void (*volatile evrec_test_pause_hook)(int where);
#define EVREC_TEST_PAUSE(where)                                                                                   \
    do {                                                                                                          \
        if (evrec_test_pause_hook) evrec_test_pause_hook(where);                                                  \
    } while (0)

#define EVREC_PORT_TIMESTAMP() evrec_test_clock()
#define EVREC_PORT_RELAX() ((void)0)

#endif
