/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_syst_tx.h
 * @brief Live SyS-T emission on the target: a transmit ring of whole messages with last-is-best
 * overwrite, global (per event type) and local (per class id) filters, and a get-block call that
 * drains any chunk size (SYST.md "On the target").
 *
 * The model is the QS transmitter (evrec_qs_tx.h, QS.md "Concurrency"), with the same
 * lock (::evrec_qs_lock_t, e.g. PRIMASK on Cortex-M, or evrec_qs_spin_enter() on a host): every
 * state change happens inside it; a writer encodes its message and copies it into the ring
 * inside it; the reader holds it twice for a few loads and stores and copies the bytes out
 * between the two, discarding the copy when a writer overwrote the region meanwhile.
 *
 * Differences from QS: SyS-T messages carry their length (LEN is always set) and have no start
 * marker, so a message cut short cannot be resynchronised on. The ring therefore never
 * overwrites a message the reader has partly taken: a new message that finds no room then is
 * dropped itself (counted in messages_dropped); otherwise the oldest whole messages make room
 * (counted in messages_lost). The host sees no sequence numbers: losses show as time gaps only,
 * and in these counters.
 *
 * API overview:
 * - Set up: evrec_syst_tx_overhead(), evrec_syst_tx_init(), evrec_syst_tx_clock().
 * - Messages: evrec_syst_tx_event(); recording into RAM and SyS-T at once:
 *   evrec/evrec_syst_record.h.
 * - Draining: evrec_syst_tx_get_block(), evrec_syst_tx_pending().
 * - Filters: evrec_syst_tx_global_filter(), evrec_syst_tx_local_filter().
 *
 * A transmitter locked by the target's interrupt mask; events from any context, and a
 * background loop that drains the ring in chunks of the UART's size:
 * @code
 * static uint8_t syst_buf[4096] __attribute__((aligned(8)));
 * static evrec_syst_tx_t syst;
 * evrec_syst_options_t o = {0};
 * o.severity = EVREC_SYST_SEV_INFO;
 * o.timestamp = 1;
 * evrec_qs_lock_t lock = {my_irq_save, my_irq_restore, NULL};
 * evrec_syst_tx_init(&syst, &my_meta, syst_buf, sizeof syst_buf, &o, &lock);
 * evrec_syst_tx_clock(&syst, 0, 1000000u);
 * my_event_t ev = {.a = 1, .b = 2};
 * evrec_syst_tx_event(&syst, MY_EVENT_ID, 1234u, &ev);
 * ...
 * uint8_t chunk[16];
 * size_t n = evrec_syst_tx_get_block(&syst, chunk, sizeof chunk);
 * uart_send(chunk, n);
 * @endcode
 *
 * Freestanding: no malloc, no stdio; the caller gives all memory.
 *
 * QS.md and SYST.md, cited here by name and section, are installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_SYST_TX_H
#define EVREC_SYST_TX_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_qs_tx.h" /* evrec_qs_lock_t, evrec_qs_spin_enter() */
#include "evrec/evrec_syst.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Local-filter ids (class ids) 0..255; ids >= 256 always pass. */
#define EVREC_SYST_LOCAL_IDS 256u

/**
 * @brief The live SyS-T transmitter. User memory; see evrec_syst_tx_init(). Fields are private
 * except the counters, which may be read (without the lock they can be momentarily stale).
 */
typedef struct evrec_syst_tx {
    evrec_syst_map_t map; /**< ids, severities, options, global filter bits */
    evrec_qs_lock_t lock; /**< the critical section (zero = none: one context only) */
    uint8_t *scratch;     /**< one message being encoded (inside the lock) */
    size_t scratch_size;  /**< bytes at scratch: the largest message */
    uint8_t *ring;        /**< message storage */
    size_t size;          /**< bytes in ring */
    size_t head;          /**< next byte written */
    size_t used;          /**< bytes waiting to be read, from tail = head - used */
    size_t tail_rem;      /**< bytes left of the message at the tail that the reader has
                                   partly taken; 0 = the tail is at a message boundary */
    uint32_t fixed;       /**< bytes of a message besides its payload (header, GUID, LEN, TS, CRC) */
    uint32_t len_at;      /**< offset of the length field in a message */
    uint32_t overwrites;  /**< bumped by every overwrite (reader copy validation) */
    uint32_t time_hi;     /**< 64-bit time extension of 32-bit record times: high word */
    uint32_t time_lo;     /**< the latest low word seen */
    uint32_t time_seen;   /**< 0 until the first event: its low word starts the epoch 0 */
    uint8_t local_filter[EVREC_SYST_LOCAL_IDS / 8u]; /**< 1 bit per class id, 1 = enabled */
    uint64_t messages;                               /**< messages queued */
    uint64_t messages_lost;                          /**< queued messages overwritten before they were read */
    uint64_t messages_dropped; /**< new messages not queued: no room without cutting a message */
} evrec_syst_tx_t;

/**
 * @brief Bytes of `buf` evrec_syst_tx_init() needs besides the ring: the map entries and one
 * message of scratch (the largest event message of `meta` with `opts`).
 * @param[in] meta validated meta-info.
 * @param[in] opts options (NULL = defaults).
 * @return bytes, or 0 for a NULL meta.
 * **Context:** any; pure.
 */
size_t evrec_syst_tx_overhead(const evrec_meta_t *meta, const evrec_syst_options_t *opts);

/**
 * @brief Prepare a transmitter. `buf` is split: the map entries (evrec_syst_map_entries_size(),
 * rounded up to 8), one message of scratch, then the ring (the rest).
 * @param[out] tx the object (user memory).
 * @param[in] meta validated meta-info, kept alive.
 * @param[in] buf user memory, 8-byte aligned, owned by the caller while tx is used.
 * @param[in] size bytes in buf.
 * @param[in] opts options (copied; NULL = defaults).
 * @param[in] lock the lock (copied; NULL = none: use one context only).
 * @retval EVREC_OK ready; every event type and class id enabled; nothing queued.
 * @retval EVREC_E_ARG NULL pointer, misaligned buf, a bad option, a lock with only one of its
 *         functions, or a ring smaller than two of the largest messages.
 * @retval EVREC_E_META see evrec_syst_map_init().
 * **Context:** thread, before any other call on tx.
 */
evrec_status evrec_syst_tx_init(evrec_syst_tx_t *tx, const evrec_meta_t *meta, void *buf, size_t size,
                                const evrec_syst_options_t *opts, const evrec_qs_lock_t *lock);

/**
 * @brief Queue the CLOCK message (at the start of a stream, and whenever a decoder attaches).
 * @param[in,out] tx the transmitter.
 * @param[in] clock clock value, ticks.
 * @param[in] freq_hz ticks per second.
 * @retval EVREC_OK queued.
 * @retval EVREC_E_DROPPED no room without cutting a message (counted).
 * @retval EVREC_E_ARG tx NULL.
 * **Context:** any, under the rules of the lock.
 */
evrec_status evrec_syst_tx_clock(evrec_syst_tx_t *tx, uint64_t clock, uint64_t freq_hz);

/**
 * @brief Encode one native event record as a CATALOG message into the ring (unless filtered).
 * The 64-bit message timestamp extends the 32-bit `time` (wraps counted inside the lock; a
 * record up to 2^31 ticks older than the latest one keeps its own epoch).
 * @param[in,out] tx the transmitter.
 * @param[in] event_id event type.
 * @param[in] time the record's 32-bit timestamp, ticks.
 * @param[in] native the event struct (fields at their offsets; its own time and id members are not
 *     read).
 * @retval EVREC_OK queued, or filtered out.
 * @retval EVREC_E_DROPPED not queued: the reader is in the middle of the only message that could
 *     make room (counted in messages_dropped).
 * @retval EVREC_E_BAD_ID unknown id.
 * @retval EVREC_E_ARG NULL pointer.
 * **Context:** any thread or ISR under the rules of the lock.
 */
evrec_status evrec_syst_tx_event(evrec_syst_tx_t *tx, uint16_t event_id, uint32_t time, const void *native);

/**
 * @brief Take up to `max` bytes of queued messages, oldest first; a message may be split across
 * calls (the ring then keeps its rest until taken).
 * @param[in,out] tx the transmitter.
 * @param[out] dst bytes.
 * @param[in] max room in dst.
 * @return bytes written (0 = nothing to send).
 * **Context:** one reader at a time; any context with respect to writers, under the rules of the
 * lock.
 */
size_t evrec_syst_tx_get_block(evrec_syst_tx_t *tx, uint8_t *dst, size_t max);

/**
 * @brief Bytes waiting in the ring.
 * @param[in] tx the transmitter.
 * @return bytes.
 * **Context:** any; a snapshot without the lock.
 */
size_t evrec_syst_tx_pending(const evrec_syst_tx_t *tx);

/**
 * @brief Global filter: enable or disable one event type.
 * @param[in,out] tx the transmitter.
 * @param[in] event_id the event type.
 * @param[in] on 1 enable, 0 disable.
 * @retval EVREC_OK done.
 * @retval EVREC_E_BAD_ID unknown id.
 * @retval EVREC_E_ARG tx NULL.
 * **Context:** any thread or ISR; one atomic byte update.
 */
evrec_status evrec_syst_tx_global_filter(evrec_syst_tx_t *tx, uint16_t event_id, int on);

/**
 * @brief Local filter: enable or disable the events of one class id (ids >= 256 always pass).
 * @param[in,out] tx the transmitter.
 * @param[in] class_id 0..255.
 * @param[in] on 1 enable, 0 disable.
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG tx NULL or class_id >= 256.
 * **Context:** any thread or ISR; one atomic byte update.
 */
evrec_status evrec_syst_tx_local_filter(evrec_syst_tx_t *tx, uint32_t class_id, int on);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_SYST_TX_H */
