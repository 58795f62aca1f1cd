/* SPDX-License-Identifier: Apache-2.0 */
/* POSIX port: lane selection for evrec/evrec_lanes.h (the caller's CPU, or a lane per thread). */
#define _GNU_SOURCE
#include <sched.h>

#include "evrec_port.h"

_Thread_local unsigned evrec_posix_lane_tls;

static unsigned next_lane;

unsigned evrec_posix_cpu_slow(void)
{
    int c = sched_getcpu();
    return c < 0 ? 0u : (unsigned)c;
}

unsigned evrec_posix_thread_lane_assign(void)
{
    unsigned k = __atomic_fetch_add(&next_lane, 1u, __ATOMIC_RELAXED);
    evrec_posix_lane_tls = k + 1u;
    return k;
}
