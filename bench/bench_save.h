/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file bench_save.h
 * @brief Save throughput of evrec-bench: a full trace buffer of 16-byte BenchEvent records saved
 * with evrec_save() (container: chunks with CRC-32C) and evrec_save_ex() bare (the CCore stream
 * alone) into a memory sink that copies into a preallocated buffer, next to a plain memcpy of
 * the same bytes. Throughput is trace-buffer bytes (evrec_recorder_counts(rec).used) per second.
 */
#ifndef BENCH_SAVE_H
#define BENCH_SAVE_H

#include <stddef.h>
#include <stdint.h>

#include "bench_events.h"

/** @brief State of the save benchmark. */
typedef struct bench_save_ctx {
    uint8_t *trace; /**< the full trace buffer */
    size_t trace_size;
    evrec_host_t host;
    evrec_recorder_t rec; /**< stopped, full */
    uint8_t *out;         /**< the sink's destination, preallocated and faulted in */
    size_t out_cap;
    size_t out_len; /**< bytes the last save wrote */
} bench_save_ctx_t;

/**
 * @brief Allocate `trace_size` bytes of trace buffer, fill it completely (none dropped), stop,
 * and allocate the output buffer.
 * @param mixed 0: BenchEvent records only (16-byte slots). 1: BenchEvent and EventControl Tick
 * (8-byte slots) in pseudo-random order, half each: a save loop that relies on the next record
 * looking like the last one is seen at its worst.
 * @retval 0 ready. @retval -1 out of memory or the recording came out wrong (message printed).
 */
int bench_save_init(bench_save_ctx_t *c, size_t trace_size, uint64_t time_freq, int mixed);

/** @brief Free both buffers. */
void bench_save_free(bench_save_ctx_t *c);

/**
 * @brief Time one save. @param bare 0: evrec_save() (container); 1: the bare CCore stream.
 * @return MB/s (10^6 bytes) of trace-buffer bytes, or -1 when the save failed.
 */
double bench_save_batch(bench_save_ctx_t *c, int bare);

/** @brief Time one memcpy of evrec_recorder_counts(&rec).used bytes from the trace to the output. @return MB/s. */
double bench_memcpy_batch(bench_save_ctx_t *c);

#endif /* BENCH_SAVE_H */
