/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file bench_record.h
 * @brief The record-path measurements of evrec-bench: one batch of each kind, timed as a whole
 * and returned as nanoseconds per record. The caller repeats batches and takes medians.
 *
 * - floor: what any recorder must do per record: one EVREC_PORT_TIMESTAMP(), one atomic
 *   fetch-and-add on a shared offset, and the stores of the 3-field record into a buffer;
 * - inline: bench_record() (evrec_reserve -> stores -> evrec_commit) into an attached host;
 * - generic: evrec_record() from a prepared struct (table lookup + memcpy);
 * - two threads: the inline path from two threads at once into one host, and the floor from
 *   two threads at once on one shared offset (what any shared-buffer recorder pays).
 *
 * Every batch writes into a buffer of the same size, pre-filled right before the batch (the
 * recorder's evrec_host_start() does that itself), so that the cache state is the same for all.
 */
#ifndef BENCH_RECORD_H
#define BENCH_RECORD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "bench_events.h"

/** @brief State of the record benchmarks. Large (holds the host); keep it static. */
typedef struct bench_record_ctx {
    size_t records;     /**< records per batch (per thread in the two-thread batch) */
    uint8_t *buf;       /**< trace buffer for 2 * records, 64-byte aligned */
    size_t buf_size;    /**< bytes of buf */
    uint64_t time_freq; /**< EVREC_PORT_TIMESTAMP() ticks per second */
    _Alignas(64) _Atomic size_t floor_pos;
    _Alignas(64) evrec_host_t host;
    evrec_recorder_t rec;
    pthread_t peer;
    pthread_barrier_t go;
    pthread_barrier_t done;
    int quit;
    int two_floor; /**< what the peer runs in the next two-thread batch: 1 floor, 0 inline */
    uint64_t peer_ns;
    const char *error; /**< set when a batch's recording came out wrong (then returns < 0) */
} bench_record_ctx_t;

/**
 * @brief Allocate the buffer and start the peer thread of the two-thread batch.
 * @param[out] c the context. @param records records per batch, >= 1000.
 * @retval 0 ready. @retval -1 out of memory or no thread.
 */
int bench_record_init(bench_record_ctx_t *c, size_t records, uint64_t time_freq);

/** @brief Stop the peer thread and free the buffer. */
void bench_record_free(bench_record_ctx_t *c);

/** @brief One floor batch. @return ns per record. */
double bench_floor_batch(bench_record_ctx_t *c);

/** @brief One batch of the inline path, one thread. @return ns per record, or -1 (c->error). */
double bench_inline_batch(bench_record_ctx_t *c);

/** @brief One batch of the inline path into a cyclic ring (1 KiB blocks, 256 KiB) after one
 * unmeasured lap, one thread: every block switch reuses a block. @return ns per record, or -1. */
double bench_cyclic_batch(bench_record_ctx_t *c);

/** @brief One batch of evrec_record(), one thread. @return ns per record, or -1 (c->error). */
double bench_generic_batch(bench_record_ctx_t *c);

/**
 * @brief One batch of the inline path on two threads at once (the caller and the peer), each
 * recording `records` events. @return mean over the two threads of ns per record, or -1.
 */
double bench_two_thread_batch(bench_record_ctx_t *c);

/**
 * @brief One floor batch on two threads at once sharing one offset and one buffer.
 * @return mean over the two threads of ns per record.
 */
double bench_two_thread_floor_batch(bench_record_ctx_t *c);

#endif /* BENCH_RECORD_H */
