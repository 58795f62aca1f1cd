/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file bench_stats.h
 * @brief Timing and statistics helpers of evrec-bench: a monotonic clock and order statistics
 * over repeated batches (medians, because the benchmark runs on noisy shared machines).
 */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

/** @brief CLOCK_MONOTONIC in nanoseconds. **Context:** any thread. */
uint64_t bench_now_ns(void);

/** @brief Order statistics of a sample. */
typedef struct bench_summary {
    double median;
    double q1; /**< first quartile */
    double q3; /**< third quartile */
    double min;
    double max;
} bench_summary_t;

/**
 * @brief Summarise `n` values (n >= 1). @param[in,out] v the values; sorted in place.
 * @return median, quartiles (nearest rank), min and max. **Context:** any thread.
 */
bench_summary_t bench_summarize(double *v, size_t n);

#endif /* BENCH_STATS_H */
