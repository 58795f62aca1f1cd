/* SPDX-License-Identifier: Apache-2.0 */
/* EVREC_PORT_TIME_FREQ(), as evrec_host_start()'s documentation promises it: the POSIX port
 * measures the timestamp frequency once and caches it; the null port says "unknown" (0). This
 * file is built twice: against the POSIX port (EVREC_TEST_PORT_POSIX) and the null port. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "evrec/evrec_recorder.h"
#include "evrec_port.h"
#ifdef EVREC_TEST_PORT_POSIX
#include "evrec_posix.h"
#endif

#ifndef EVREC_PORT_TIME_FREQ
#error "the port does not define EVREC_PORT_TIME_FREQ()"
#endif

#ifdef EVREC_TEST_PORT_POSIX
Test(port_freq, posix_measures_once_and_caches)
{
    uint64_t f = EVREC_PORT_TIME_FREQ();
    cr_assert_neq(f, 0u, "the POSIX port knows its timestamp frequency");
    /* Cached: the same value every time (a new measurement would differ in the low digits on
     * x86-64, where it is rounded to kHz only). */
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(EVREC_PORT_TIME_FREQ(), f);
    }
#if !defined(__x86_64__) && !defined(__i386__)
    cr_assert_eq(f, evrec_posix_time_freq(0), "fixed-frequency counters need no calibration");
#endif
}
#else
Test(port_freq, null_port_is_unknown)
{
    cr_assert_eq(EVREC_PORT_TIME_FREQ(), 0u);
}
#endif
