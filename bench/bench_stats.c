/* SPDX-License-Identifier: Apache-2.0 */
/* Timing and order statistics (see bench_stats.h). */
#include <stdlib.h>
#include <time.h>

#include "bench_stats.h"

uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

bench_summary_t bench_summarize(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    bench_summary_t s;
    s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    s.q1 = v[(n - 1) / 4];
    s.q3 = v[(3 * (n - 1) + 3) / 4];
    s.min = v[0];
    s.max = v[n - 1];
    return s;
}
