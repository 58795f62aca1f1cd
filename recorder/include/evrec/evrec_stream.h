/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_stream.h
 * @brief Streaming mode: the trace buffer is a ring that a transport drains continuously, as
 * frames of the stream format (FORMAT.md section 8).
 *
 * The record path is the usual evrec_reserve() + evrec_commit(), lock-free: one compare-and-swap
 * of the allocation offset against a limit, the end of the block being filled (so nothing is ever
 * allocated beyond it, and a failed allocation leaves nothing to undo); the block switch is out
 * of line. The buffer is a ring of blocks, as in cyclic mode, except that a block is reused only
 * after evrec_stream_drain() has sent its records. When the ring is full the newest
 * event is dropped (drop-newest) and counted; the count goes out in an S_LOSS frame as soon as the
 * drain has room for it, placed before the records that follow the drops.
 *
 * API overview:
 * - The stream: evrec_stream_init() (the ring), evrec_stream_start() (recording through a host;
 *   stop with evrec_host_stop()), evrec_stream_counts().
 * - The transport's side: evrec_stream_drain() (whole frames into the caller's buffer),
 *   evrec_stream_done() (the last frame went out).
 * - The bytes: evrec/evrec_stream_format.h; the host's receiver: evrec/evrec_stream_rx.h.
 *
 * Typical use:
 * @code
 * static evrec_stream_t stream;
 * static uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(16, 1024)] __attribute__((aligned(8)));
 * static uint8_t tx[512];
 * evrec_stream_init(&stream, ring, sizeof ring, 1024, 64);
 * evrec_stream_start(&stream, &host, &my_meta, EVREC_PORT_TIME_FREQ(), 0);
 * // idle loop, timer or DMA-complete interrupt:
 * size_t n = evrec_stream_drain(&stream, tx, sizeof tx);   // whole frames
 * if (n) { uart_send(tx, n); }
 * // at the end:
 * evrec_host_stop(&host, NULL);
 * while (!evrec_stream_done(&stream)) { n = evrec_stream_drain(&stream, tx, sizeof tx); uart_send(tx, n); }
 * @endcode
 *
 * Context rules: evrec_stream_drain() is a single consumer: call it from one context at a time
 * (an idle loop, a timer or a DMA-complete interrupt; never from two at once, and not from an
 * interrupt that may preempt another call of it). It never waits for a recording context: a
 * record reserved and not yet committed simply ends the batch (it goes out with the next call),
 * so it may run at any priority, also above the contexts that record. Recording contexts never
 * wait for it either. evrec_host_stop() may be called from a thread while drains go on.
 *
 * Freestanding: no malloc, no stdio. FORMAT.md is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_STREAM_H
#define EVREC_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_recorder.h"
#include "evrec/evrec_stream_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Smallest `cap` evrec_stream_drain() can use, bytes: a frame of one largest record. */
#define EVREC_STREAM_MIN_CAP (EVREC_STREAM_FRAME_HEADER + EVREC_FRAME_RECORDS_HEAD + EVREC_MAX_EVENT_SIZE)

#if EVREC_STREAM_PLAN_EVENTS < 0 || EVREC_STREAM_PLAN_EVENTS > 4095
#error "EVREC_STREAM_PLAN_EVENTS must be in 0..4095"
#endif
#if EVREC_STREAM_PLAN_EVENTS > 0
#if EVREC_STREAM_PLAN_RUNS < 1 || EVREC_STREAM_PLAN_RUNS > 65535
#error "EVREC_STREAM_PLAN_RUNS must be in 1..65535"
#endif
/**
 * @brief How the drain packs each event type's records (FORMAT.md section 3: the fields in schema
 * order, big-endian): runs of fields of one width at consecutive native offsets, made by
 * evrec_stream_start() from the meta-info (evrec_config.h: EVREC_STREAM_PLAN_EVENTS,
 * EVREC_STREAM_PLAN_RUNS). Part of ::evrec_stream_t; private.
 */
typedef struct evrec_stream_plan {
    uint16_t events;                              /**< ids below this have runs; the others
                                                       are converted by the table walk */
    uint16_t first[EVREC_STREAM_PLAN_EVENTS + 1]; /**< event e's runs: run[first[e] .. first[e + 1]) */
    uint8_t run[EVREC_STREAM_PLAN_RUNS][2];       /**< native offset; width (bits 7-6: 0 one byte,
                                                       1 two, 2 four) and fields - 1 (bits 5-0) */
} evrec_stream_plan_t;
#endif

/**
 * @brief A trace buffer in streaming mode and the state of its drain. User memory; fields are
 * private (read the counts with evrec_stream_counts()).
 */
typedef struct evrec_stream {
    evrec_recorder_t rec;         /**< the ring (its buffer is the user's) */
    const evrec_meta_t *meta;     /**< meta-info of the running stream */
    uint64_t time_freq;           /**< Hz, as given to evrec_stream_start() */
    uint32_t stream_id;           /**< FORMAT.md section 8.2 */
    uint32_t meta_every;          /**< frames of records between two meta documents */
    uint32_t doc_size;            /**< bytes of the meta document */
    uint32_t doc_crc;             /**< its CRC-32C */
    uint32_t meta_len;            /**< bytes of its MetaInfo part */
    uint32_t doc_pos;             /**< next document byte to send; doc_size when none is due */
    uint32_t since_meta;          /**< frames of records since the last document was complete */
    size_t block;                 /**< block number the drain reads */
    size_t offset;                /**< offset in that block of the next record to send */
    size_t snapshot;              /**< drop count (masked) as of the block the drain is in */
    int block_seen;               /**< the drops before `block` are accounted */
    int ended;                    /**< S_END sent */
    uint64_t loss_pending;        /**< drops counted, not sent yet */
    uint64_t loss_sent;           /**< drops sent in S_LOSS frames (the lane's `total`) */
    uint64_t index;               /**< records sent (the lane's sequence number) */
    uint64_t t64, t64_max, ticks; /**< time state after the records sent (FORMAT.md section 2.2) */
    uint32_t prev32;              /**< time field of the last record sent */
#if EVREC_STREAM_PLAN_EVENTS > 0
    evrec_stream_plan_t plan; /**< the records' conversion, made at start */
#endif
} evrec_stream_t;

/** @brief What a stream has sent: evrec_stream_counts(). */
typedef struct evrec_stream_counts {
    uint64_t sent;    /**< records sent in S_RECORDS frames (Start and Stop included) */
    uint64_t dropped; /**< records dropped because the ring was full (sent in S_LOSS or not yet) */
} evrec_stream_counts_t;

/**
 * @brief Give a stream its ring: a ring of `block_size` blocks in `buf`, as
 * evrec_recorder_init_cyclic() lays it out (EVREC_CYCLIC_BUFFER_SIZE(n, block_size) bytes give
 * n blocks), in streaming mode.
 * @pre The stream's recorder is attached to no host.
 * @param[out] s the stream (user memory).
 * @param[in] buf the ring, 8-byte aligned, owned by the caller while the stream is used.
 * @param[in] size bytes of buf, header included.
 * @param[in] block_size bytes per block, a power of two 256 .. 65536; the drain releases a block
 *     once all its records are sent, so smaller blocks return room sooner.
 * @param[in] meta_every frames of records between two meta documents (FORMAT.md section 8.2):
 *     a host that joins late decodes after at most that many frames; 0 sends it only at start.
 * @retval EVREC_OK ready.
 * @retval EVREC_E_ARG NULL, misaligned, block_size out of range, or fewer than 4 blocks fit.
 * **Context:** thread, not while the stream records.
 */
evrec_status evrec_stream_init(evrec_stream_t *s, void *buf, size_t size, size_t block_size, uint32_t meta_every);

/**
 * @brief Start recording into the stream through `host` (evrec_host_start() on its ring) and
 * reset the drain: the next drains send the meta document first.
 * @param[in,out] s an initialised stream, not recording.
 * @param[in,out] host the host code records through.
 * @param[in] meta validated meta-info, kept alive until the stream is done.
 * @param[in] time_freq timestamp frequency, Hz (0 = unknown).
 * @param[in] stream_id the id in every frame; 0: one is made from the timestamp and the address
 *     of the buffer.
 * @retval EVREC_OK recording.
 * @retval EVREC_E_ARG NULL pointer, or the stream was not initialised.
 * @retval EVREC_E_BUSY the host already has a recorder.
 * @retval EVREC_E_META as evrec_host_start().
 * @retval EVREC_E_IO the meta document is larger than 2^32 - 1 bytes (cannot happen with
 *     evrec-gen tables).
 * **Context:** thread.
 */
evrec_status evrec_stream_start(evrec_stream_t *s, evrec_host_t *host, const evrec_meta_t *meta,
                                uint64_t time_freq, uint32_t stream_id);

/**
 * @brief Take whole frames out of the stream: the meta document when due, S_LOSS when records
 * were dropped, S_RECORDS with every committed record not sent yet (as many as fit), S_END once
 * the recording is stopped and everything was sent. Blocks whose records are all sent are given
 * back to the recording.
 * @param[in,out] s a started stream.
 * @param[out] buf where the frames go (caller's memory).
 * @param[in] cap bytes of buf; at least ::EVREC_STREAM_MIN_CAP, else nothing is written. Larger
 *     frames cost less framing (FORMAT.md section 8.1).
 * @return bytes of whole frames written to buf; 0 when there is nothing to send now.
 * **Context:** single consumer (see the file's description): any one context at a time, ISR-safe,
 * never waits. Cost: the conversion of the records sent and, per frame, a CRC-32C of it.
 */
size_t evrec_stream_drain(evrec_stream_t *s, void *buf, size_t cap);

/**
 * @brief Whether the stream has sent its S_END frame (the recording was stopped with
 * evrec_host_stop() and every record and count went out).
 * @param[in] s the stream.
 * @return 1 when done, else 0.
 * **Context:** any; plain loads.
 */
int evrec_stream_done(const evrec_stream_t *s);

/**
 * @brief Counts of a stream.
 * @param[in] s the stream.
 * @return records sent and dropped so far (all zero for NULL).
 * **Context:** any; plain and atomic loads.
 */
evrec_stream_counts_t evrec_stream_counts(const evrec_stream_t *s);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_STREAM_H */
