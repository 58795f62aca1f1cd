/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file peers.h
 * @brief evrec-bench-peers: the contender interface. Every contender records the same event
 * (a timestamp and three fields: u8 c, u16 b, u32 a) into memory; the harness (peers_main.c)
 * times its loop in rounds next to every other contender, in one process.
 *
 * Adding a contender is one file with one peer_contender_t and one line in contenders.c.
 */
#ifndef PEERS_H
#define PEERS_H

#include <stddef.h>
#include <stdint.h>

/** Threads the harness runs at most (one per core of the 2-core measurement). */
#define PEERS_MAX_THREADS 2

/**
 * @brief One contender. Every function but run() is outside the timed part.
 *
 * The harness calls setup() once, then per measurement prepare(), run() on each of `threads`
 * threads at once (thread 0..threads-1, each timed on its own), check(); finally teardown().
 * A function pointer may be NULL when there is nothing to do.
 */
typedef struct peer_contender {
    const char *key;  /**< short name for --only and the machine-readable output */
    const char *name; /**< row label of the table */
    /** Allocate for `n` records per thread on up to PEERS_MAX_THREADS threads.
     * @return 0, or -1 with a reason in *why (a static string): the contender is left out. */
    int (*setup)(size_t n, const char **why);
    /** Reset the buffers for a measurement of `n` records on `threads` threads. @return 0 or -1. */
    int (*prepare)(size_t n, int threads);
    /** The timed loop: `n` records of the event from thread `thread` (0-based). Values of record
     * i: c = (uint8_t)i, b = (uint16_t)i, a = (uint32_t)i. **Context:** its own thread. */
    void (*run)(int thread, size_t n);
    /** After the measurement: 0 when all n * threads records are in the buffer (none dropped),
     * else -1 with a reason in *why. */
    int (*check)(size_t n, int threads, const char **why);
    /** Bytes of recorded data per record of the last one-thread measurement (0 = not reported). */
    double (*bytes_per_record)(void);
    /** Free what setup() took. */
    void (*teardown)(void);
} peer_contender_t;

/** @brief The contenders, the floor first; terminated by a NULL key. */
extern const peer_contender_t *const peers_contenders[];

/** @brief CLOCK_MONOTONIC in ns. **Context:** any thread. */
uint64_t peers_now_ns(void);

/** @brief Ticks per second of EVREC_PORT_TIMESTAMP() (calibrated once). */
uint64_t peers_time_freq(void);

#endif /* PEERS_H */
