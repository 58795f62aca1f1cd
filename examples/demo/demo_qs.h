/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file demo_qs.h
 * @brief Live QP/Spy (QS) output of the demo (`evrec-demo --qs FILE`): a thread that follows the
 * trace buffer while the pipeline records, encodes every committed record into an evrec QS
 * transmit ring (evrec_qs_tx.h, last-is-best) and drains the ring into a file, optionally at the
 * byte rate of a UART, so that a small ring overflows the way a slow serial link does.
 *
 * Why follow the buffer instead of calling evrec_qs_record() in the record functions: the demo's
 * record functions are the generated-style ones (reserve, stores, commit) and only write RAM. The
 * follower gives the QS stream exactly the records, times and order of the RAM file, EventControl
 * Start, Tick and Stop included, which is what the live == RAM check compares. On a target the
 * same loop is the idle-loop task; code that wants QS at the record call uses evrec_qs_record().
 *
 * One thread does both the encoding and the draining, so the ring needs no lock. It encodes at
 * most DEMO_QS_BURST records between two drains: a loss shows on the host as sequence gaps of
 * fewer than 256 frames, which 8-bit sequence numbers count exactly.
 */
#ifndef DEMO_QS_H
#define DEMO_QS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "evrec/evrec_qs_tx.h"
#include "evrec/evrec_recorder.h"
#include "evrec_out_file.h"

/** Records encoded between two drains of the ring. */
#define DEMO_QS_BURST 32u

/** @brief The live QS output. Fields are private except the counters read after finish. */
typedef struct demo_qs {
    evrec_qs_tx_t tx;            /**< the transmit ring (map entries + frames in `mem`) */
    void *mem;                   /**< malloc'ed buffer of the ring */
    const evrec_recorder_t *rec; /**< the recorder whose buffer is followed */
    const evrec_meta_t *meta;
    evrec_out_file_t out; /**< the QS file (evrec_out_file.h) */
    const char *path;
    uint64_t bytes_per_s; /**< drain rate, 0 = as fast as the file takes it */
    pthread_t thread;
    atomic_size_t end;         /**< 0 while recording; then the recorder's `used` */
    size_t pos;                /**< next record offset in the trace buffer */
    int io_error;              /**< errno of a failed write, 0 = none */
    int corrupt;               /**< a record with an unknown id stopped the follower */
    uint64_t bytes;            /**< bytes written to the file */
    uint64_t events;           /**< records sent to the ring */
    uint64_t session_frames;   /**< session frames (QS_EMPTY, target info, dictionaries) */
    uint64_t dict_frames;      /**< dictionary frames sent later (new run-time names, lost ones) */
    uint64_t lost_dropped;     /**< recorder drops announced by EVREC_LOST records */
    uint64_t lost_overwritten; /**< recorder overwrites announced */
} demo_qs_t;

/**
 * @brief Create the ring (`ring` bytes, at least two worst-case frames) and the file, queue the
 * QS session and start the thread. Call after evrec_host_start() (the thread reads the buffer
 * that start filled), before the pipeline runs.
 * @param baud 0 = no rate limit; else the file is written at baud/10 bytes per second (8N1).
 * @return 0, or -1 with a message on stderr.
 */
int demo_qs_start(demo_qs_t *q, const evrec_recorder_t *rec, const evrec_meta_t *meta, const char *path,
                  size_t ring, uint64_t baud);

/**
 * @brief After evrec_host_stop(): let the thread send the records up to Stop, drain the ring,
 * close the file, join. @return 0, or -1 with a message (write error, corrupt buffer).
 */
int demo_qs_finish(demo_qs_t *q);

/** @brief Free the ring. */
void demo_qs_free(demo_qs_t *q);

#endif /* DEMO_QS_H */
