/* SPDX-License-Identifier: Apache-2.0 */
/* The fake-clock recorder (evrec_recorder_testclock) as the tests drive it: each record is
 * stamped at a time the test sets. */
#ifndef EVREC_TEST_FAKE_CLOCK_H
#define EVREC_TEST_FAKE_CLOCK_H

#include <stdint.h>

extern uint32_t evrec_test_clock_now;  /* the timestamp of the next record, ticks */
extern uint32_t evrec_test_clock_step; /* ticks added after each timestamp read */

/* Pin the clock: the next record is stamped `t` (ticks), and the ones after it too. */
static inline void at(uint32_t t)
{
    evrec_test_clock_now = t;
    evrec_test_clock_step = 0;
}

#endif
