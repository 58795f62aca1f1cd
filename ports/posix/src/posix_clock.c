/* SPDX-License-Identifier: Apache-2.0 */
/* POSIX port: frequency of the timestamp counter (TSC calibration on x86). */
#include <pthread.h>
#include <time.h>

#include "evrec_posix.h"

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t evrec_posix_time_freq(unsigned calib_ms)
{
#if defined(__x86_64__) || defined(__i386__)
    if (calib_ms == 0) {
        calib_ms = 20;
    }
    uint64_t n0 = mono_ns();
    uint64_t c0 = __rdtsc();
    uint64_t n1, c1;
    do {
        n1 = mono_ns();
        c1 = __rdtsc();
    } while (n1 - n0 < (uint64_t)calib_ms * 1000000u);
    /* Round to kHz: calibration is not more precise than that. */
    uint64_t hz = (c1 - c0) * 1000000000u / (n1 - n0);
    hz = (hz + 500u) / 1000u * 1000u;
    return hz ? hz : 1;
#elif defined(__aarch64__)
    (void)calib_ms;
    uint64_t f;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(f));
    return f;
#else
    (void)calib_ms;
    return 1000000000u;
#endif
}

static uint64_t cached_freq;
static pthread_once_t cached_once = PTHREAD_ONCE_INIT;

static void measure_once(void)
{
    cached_freq = evrec_posix_time_freq(0);
}

uint64_t evrec_posix_port_time_freq(void)
{
    pthread_once(&cached_once, measure_once);
    return cached_freq;
}
