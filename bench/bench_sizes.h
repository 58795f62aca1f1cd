/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file bench_sizes.h
 * @brief Save throughput by record size: one event type per native size (every multiple of 4
 * from 8 to ::EVREC_MAX_EVENT_SIZE bytes, fields u8/u16/u32 in a fixed mix, natural C layout in
 * schema order), a full trace buffer of each size saved with evrec_save() next to a memcpy of the
 * same bytes, and one buffer of all sizes in pseudo-random order. Times are thread CPU time
 * (CLOCK_THREAD_CPUTIME_ID), so that other processes on a loaded machine do not count.
 */
#ifndef BENCH_SIZES_H
#define BENCH_SIZES_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_meta.h"

/** Number of record sizes: 8, 12, ..., EVREC_MAX_EVENT_SIZE. */
#define BENCH_SIZE_COUNT ((EVREC_MAX_EVENT_SIZE - 8u) / 4u + 1u)

/** @brief The meta-info of the size benchmark: event 0 EventControl, event k (1..BENCH_SIZE_COUNT)
 * of native size 4 + 4k bytes. Built once by bench_sizes_meta(); static storage. */
const evrec_meta_t *bench_sizes_meta(void);

/** @brief Packed (saved) size of event `k` in bytes. */
uint32_t bench_sizes_packed(uint32_t k);

/** @brief Buffers of the by-size benchmark (opaque). */
typedef struct bench_sizes_ctx bench_sizes_ctx_t;

/** @brief One measured case: MB/s (10^6 trace-buffer bytes per second of thread CPU time) and
 * the ratio to memcpy of the same bytes, medians and quartiles over the repetitions. */
typedef struct bench_sizes_row {
    uint32_t native; /**< native record size in bytes; 0 for the random mix */
    uint32_t packed; /**< saved size in bytes; 0 for the random mix */
    double mbs, mbs_q1, mbs_q3;
    double ratio; /**< median of the per-repetition ratios save / memcpy */
} bench_sizes_row_t;

/** @brief Allocate a `mib` MiB trace buffer and its output buffer. @return NULL when out of
 * memory (message printed). Free with bench_sizes_close(). */
bench_sizes_ctx_t *bench_sizes_open(size_t mib);

/** @brief Free what bench_sizes_open() allocated (NULL: nothing). */
void bench_sizes_close(bench_sizes_ctx_t *c);

/**
 * @brief Fill the buffer with event `k` only (1..BENCH_SIZE_COUNT: native size 4 + 4k bytes), or
 * with every size in pseudo-random order when k == 0, then time `reps` (1..101) container saves,
 * each paired with a memcpy of the same bytes, after one warm-up save.
 * @retval 0 `row` filled. @retval -1 filling or a save failed (message printed).
 */
int bench_sizes_measure(bench_sizes_ctx_t *c, uint32_t k, unsigned reps, uint64_t time_freq,
                        bench_sizes_row_t *row);

/**
 * @brief Measure and print the by-size table: container save of a `mib` MiB buffer of each
 * record size and of a random mix of all sizes, `reps` repetitions each, paired with a memcpy of
 * the same bytes; ratios are medians of per-repetition ratios. `only_size` 0: every size; else
 * only that native size (and the mix).
 * @retval 0 measured (whatever the figures). @retval -1 out of memory or a save failed.
 */
int bench_sizes_report(size_t mib, unsigned reps, unsigned only_size, uint64_t time_freq, double target,
                       double mix_target);

#endif /* BENCH_SIZES_H */
