/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_qs_tx.h
 * @brief Live QS emission on the target: a transmit ring of whole frames with last-is-best
 * overwrite, global and local filters, and a get-block call that drains any chunk size.
 *
 * Implements QP/C "Observability Viewpoint" ("QS Global Filter", "QS Local Filter", "The QS Trace
 * Buffers ... store only complete HDLC frames") and the QSPY manual ("Last-is-Best Data Policy"):
 * a new frame that does
 * not fit overwrites the oldest whole frames; the host sees the loss as a sequence gap. Bytes
 * leave through evrec_qs_tx_get_block() in any chunk size (idle loop, UART or DMA interrupt).
 *
 * Concurrency (QS.md "Concurrency"): every state change happens inside the critical section of
 * evrec_qs_options_t::lock. A writer (event or session frame) holds it while it encodes one frame
 * straight into the ring (bounded: at most 2 * (map.max_payload + 3) + 1 bytes, plus skipping
 * the overwritten frames), exactly as QP's QS_BEGIN_ID/QS_END do. The reader holds it only twice
 * for a few loads and stores: it copies the bytes out between the two, and discards the copy if a
 * writer overwrote the region meanwhile (an overwrite counter, seqlock style), so the interrupt
 * latency does not grow with the chunk size. With a lock that masks interrupts (PRIMASK/BASEPRI
 * on Cortex-M, mstatus.MIE on RISC-V) every call is ISR-safe; with evrec_qs_spin_enter() it is
 * thread-safe on a multicore host but must not be used from a signal handler that can interrupt
 * a holder; with no lock, use one context only.
 *
 * Why a critical section and not the recorder's lock-free reservation: a frame's length depends
 * on its sequence number (0x7D/0x7E are escaped), the sequence numbers must appear in ring order,
 * and an overwrite moves the read position to a frame boundary that the reader may be copying:
 * three variables that change together. QP's QS makes the same choice.
 *
 * API overview:
 * - Set up: evrec_qs_tx_ring_size(), evrec_qs_tx_init(), evrec_qs_tx_session_start().
 * - Events: evrec_qs_tx_event(), evrec_qs_tx_event_ex(), evrec_qs_tx_lost(); live dictionaries:
 *   evrec_qs_tx_dict_update(), evrec_qs_tx_dict_pending().
 * - Draining: evrec_qs_tx_get_block(), evrec_qs_tx_pending().
 * - Filters: evrec_qs_tx_global_filter(), evrec_qs_tx_global_filter_all(),
 *   evrec_qs_tx_local_filter(), evrec_qs_tx_passes().
 * - A host lock: ::evrec_qs_spinlock_t, evrec_qs_spin_init(), evrec_qs_spin_enter(),
 *   evrec_qs_spin_exit(). Recording into RAM and QS at once: evrec/evrec_qs_record.h.
 *
 * Freestanding: no malloc, no stdio; the caller gives all memory.
 *
 * QS.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_QS_TX_H
#define EVREC_QS_TX_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_qs.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Set (`on` 1) or clear bits of a filter byte with one relaxed atomic update (the global
 * and local filters of the QS and SyS-T transmitters). Private to evrec's headers.
 * @param[in,out] p the filter byte.
 * @param[in] bits the bits to set or clear.
 * @param[in] on 1 set, 0 clear.
 * **Context:** any; ISR-safe.
 */
static inline void evrec_filter_bits_(uint8_t *p, uint8_t bits, int on)
{
    if (on) {
        __atomic_fetch_or(p, bits, __ATOMIC_RELAXED);
    } else {
        __atomic_fetch_and(p, (uint8_t)~bits, __ATOMIC_RELAXED);
    }
}

/**
 * @brief Bit `id` of a 32-byte filter map, one relaxed load. Private to evrec's headers.
 * @param[in] map the 32-byte map.
 * @param[in] id 0..255.
 * @return the bit, 0 or 1.
 * **Context:** any; ISR-safe.
 */
static inline int evrec_filter_test_(const uint8_t *map, uint32_t id)
{
    unsigned bits = __atomic_load_n(&map[id >> 3], __ATOMIC_RELAXED);
    return (int)((bits >> (id & 7u)) & 1u);
}

/** Local-filter ids 0..255 (QS-IDs); id 0 is always enabled, ids >= 256 always pass. */
#define EVREC_QS_LOCAL_IDS 256u

/**
 * @brief The live QS transmitter: ring buffer, sequence number, filters and id map.
 * User memory; see evrec_qs_tx_init(). Fields are private except the counters, which may be read
 * (without the lock they can be momentarily stale).
 */
typedef struct evrec_qs_tx {
    evrec_qs_map_t map;  /**< id map, groups, options, global filter bits */
    uint8_t *ring;       /**< frame storage (the part of the user buffer after the map) */
    size_t size;         /**< bytes in ring */
    size_t head;         /**< next byte written */
    size_t used;         /**< bytes waiting to be read, from tail = head - used */
    size_t fast_lim;     /**< size - worst-case frame: head and used at most this = room (private) */
    uint32_t overwrites; /**< bumped by every overwrite (reader copy validation) */
    uint8_t seq;         /**< sequence number of the last frame */
    uint8_t reader_mid;  /**< the reader has handed out part of the frame at the tail */
    uint8_t need_flag;   /**< that frame was overwritten: the reader first sends 0x7E (1), or
                                   a filler byte and 0x7E (2: it was cut) */
    uint8_t rd_sum;      /**< reader: un-escaped sum of the part of the frame handed out */
    uint8_t rd_esc;      /**< reader: the last byte handed out was an open escape (0x7D) */
    uint8_t plain;       /**< private: 4-byte stamps, no type element, no display table */
    uint8_t local_filter[EVREC_QS_LOCAL_IDS / 8u]; /**< 1 bit per local id, 1 = enabled */
    uint64_t frames;                               /**< frames written */
    uint64_t frames_lost;                          /**< whole frames overwritten before they were read */
    uint64_t frames_cut;                           /**< frames overwritten while partly read (sent cut short) */
    uint64_t too_big;                              /**< session records skipped: larger than the ring can hold */
    evrec_qs_time_sync_t sync;                     /**< 1- and 2-byte timestamps: the last time sync (private) */
    uint64_t time_syncs;                           /**< time-sync records written (QS.md 4.1) */
    /* Live dictionaries (QS.md "Live dictionaries"); private except the counter. */
    uint8_t dict_pending[EVREC_QS_ENUM_GROUPS][32]; /**< 1 bit per (group, value): ENUM_DICT to send */
    uint32_t usr_pending;                           /**< 1 bit per record id 100..131: USR_DICT to send */
    uint8_t dict_any;                               /**< some pending bit may be set */
    uint8_t read_hdr[4];                            /**< first un-escaped bytes of the frame the reader is in */
    uint8_t read_hdr_n;                             /**< bytes in read_hdr */
    uint8_t read_esc;                               /**< the reader's last byte was an escape */
    uint32_t rt_announced[EVREC_QS_ENUM_GROUPS];    /**< run-time values of the group's enum seen */
    uint64_t dict_sent;       /**< ENUM_DICT/USR_DICT frames sent by evrec_qs_tx_dict_update() */
    uint32_t lost_pending[2]; /**< counts of EVREC_LOST records the ring overwrote, per kind, to
                                   send again (private; saturates at 2^32 - 1) */
    uint32_t lost_time[2];    /**< timestamp of the first of them, per kind (private) */
    uint64_t lost_resent;     /**< EVREC_LOST records sent again by evrec_qs_tx_dict_update() */
    /** The last EVREC_LOST frames written (private): seq, kind and count, so that one cut while
     * being read (its count already partly sent) is sent again whole. */
    struct {
        uint32_t count;
        uint8_t seq, kind, used;
    } lost_recent[4];
    uint8_t lost_next;                                  /**< next lost_recent entry to write (private) */
    uint8_t dict_unconfirmed[EVREC_QS_ENUM_GROUPS][32]; /**< (group, value) whose ENUM_DICT frame was
                                   lost or, once the ring lost frames, is not read out yet */
} evrec_qs_tx_t;

/**
 * @brief Ring bytes needed to hold `frames` event frames of the worst case (all bytes escaped).
 * @param[in] map a built map (or the tx's `map`).
 * @param[in] frames how many.
 * @return bytes for the ring part of evrec_qs_tx_init()'s buffer.
 * **Context:** any; pure.
 */
size_t evrec_qs_tx_ring_size(const evrec_qs_map_t *map, size_t frames);

/**
 * @brief Prepare a transmitter. `buf` is split: the first evrec_qs_map_entries_size(meta) bytes
 * (rounded up to 4) hold the per-event map, filter bits and the fast encoder's field programs
 * (16 bytes per event type + 8 per leaf field), the rest is the frame ring.
 * @param[out] tx the object (user memory).
 * @param[in] meta validated meta-info, kept alive.
 * @param[in] buf user memory, 4-byte aligned, owned by the caller while tx is used.
 * @param[in] size bytes in buf.
 * @param[in] opts options (copied; NULL = defaults, no lock).
 * @retval EVREC_OK ready; all event types and local ids enabled; nothing in the ring.
 * @retval EVREC_E_ARG NULL pointer, misaligned buf, bad option, or a ring smaller than two
 *         worst-case event frames (evrec_qs_tx_ring_size(map, 2)).
 * @retval EVREC_E_META see evrec_qs_map_init().
 * **Context:** thread, before any other call on tx.
 * @code
 * static uint8_t qs_buf[2048] __attribute__((aligned(4)));
 * static evrec_qs_tx_t qs;
 * evrec_qs_options_t o = {0};
 * o.time_size = 4;
 * o.lock = (evrec_qs_lock_t){my_irq_save, my_irq_restore, NULL};
 * evrec_qs_tx_init(&qs, &my_meta, qs_buf, sizeof qs_buf, &o);
 * evrec_qs_tx_session_start(&qs);
 * ...
 * uint8_t chunk[16];
 * size_t n = evrec_qs_tx_get_block(&qs, chunk, sizeof chunk);
 * uart_send(chunk, n);
 * @endcode
 */
evrec_status evrec_qs_tx_init(evrec_qs_tx_t *tx, const evrec_meta_t *meta, void *buf, size_t size,
                              const evrec_qs_options_t *opts);

/**
 * @brief Start a QS session: restart the sequence at 1 and queue QS_EMPTY, the target info
 * (reset) and the dictionaries (evrec_qs_session_next()), one frame per critical section.
 * Frames already queued stay before them. Call it again whenever QSPY is (re)attached.
 * @param[in,out] tx the transmitter.
 * @retval EVREC_OK all queued and none overwritten yet.
 * @retval EVREC_E_DROPPED the ring is too small for the whole session: the oldest session frames
 *         were overwritten (or a record was larger than the ring, counted in too_big); drain
 *         while starting, or give a larger buffer.
 * @retval EVREC_E_ARG tx is NULL.
 * **Context:** thread (not from an ISR: it may take several hundred frames); concurrent
 * events are allowed and interleave with the dictionaries.
 */
evrec_status evrec_qs_tx_session_start(evrec_qs_tx_t *tx);

/**
 * @brief Encode one native event record into the ring (unless filtered).
 *
 * Cost when filtered: one id bound check, one relaxed byte load (global filter), and for events
 * that pass it one more (local filter). Otherwise one critical section in which the frame is
 * encoded into the ring, overwriting the oldest frames when full (counted in frames_lost).
 * With 1- or 2-byte timestamps a time-sync record goes first when evrec_qs_time_sync_due() says
 * so, or when the last one was overwritten or cut (QS.md 4.1); then the ring first makes room
 * for two worst-case frames, and overwriting a time-sync record overwrites the frames that
 * depend on it too (up to the next time sync), so that the host never gets an event whose
 * time it cannot restore.
 * @param[in,out] tx the transmitter.
 * @param[in] native native event struct: u32 time at 0, u16 id at 4, fields at their offsets.
 * @retval EVREC_OK queued, or filtered out (nothing queued).
 * @retval EVREC_E_BAD_ID the id is not an event of the meta-info.
 * @retval EVREC_E_ARG NULL pointer.
 * **Context:** any thread or ISR under the rules of the lock (file comment).
 */
evrec_status evrec_qs_tx_event(evrec_qs_tx_t *tx, const void *native);

/**
 * @brief As evrec_qs_tx_event(), with the id and time given apart (the record's own `time` and
 * `id` members are not read): for an event struct filled on the stack before the timestamp.
 * @param[in,out] tx the transmitter.
 * @param[in] event_id event type.
 * @param[in] time timestamp, port ticks.
 * @param[in] native the event struct (fields at their offsets).
 * @retval EVREC_OK queued or filtered.
 * @retval EVREC_E_BAD_ID unknown id.
 * @retval EVREC_E_ARG NULL.
 * **Context:** as evrec_qs_tx_event().
 */
evrec_status evrec_qs_tx_event_ex(evrec_qs_tx_t *tx, uint16_t event_id, uint32_t time, const void *native);

/**
 * @brief Take up to `max` bytes of whole frames from the ring, oldest first, in any chunk size
 * (a frame may be split across calls). If a frame was overwritten while partly taken, the next
 * call first returns a filler byte and 0x7E so that the host drops the cut frame alone (QSPY:
 * one bad checksum, then a sequence gap): the filler closes an escape the cut left open (QSPY
 * would otherwise un-escape the flag and merge the next frame) and makes the cut frame's
 * checksum bad for certain.
 * @param[in,out] tx the transmitter.
 * @param[out] dst bytes.
 * @param[in] max room in dst.
 * @return bytes written to dst (0 = nothing to send).
 * **Context:** one reader at a time (idle loop, or a UART/DMA interrupt); any context with
 * respect to writers, under the rules of the lock.
 */
size_t evrec_qs_tx_get_block(evrec_qs_tx_t *tx, uint8_t *dst, size_t max);

/**
 * @brief Bytes waiting in the ring.
 * @param[in] tx the transmitter.
 * @return bytes.
 * **Context:** any; a snapshot without the lock.
 */
size_t evrec_qs_tx_pending(const evrec_qs_tx_t *tx);

/**
 * @brief Global filter (QP/C "QS Global Filter"): enable or disable one event type.
 * @param[in,out] tx the transmitter.
 * @param[in] event_id event type.
 * @param[in] on 1 enable, 0 disable.
 * @retval EVREC_OK done.
 * @retval EVREC_E_BAD_ID unknown id.
 * @retval EVREC_E_ARG tx NULL.
 * **Context:** any thread or ISR; one atomic byte update, effective for the next event.
 */
evrec_status evrec_qs_tx_global_filter(evrec_qs_tx_t *tx, uint16_t event_id, int on);

/**
 * @brief Global filter for all event types at once (QS_GLB_FILTER(QS_ALL_RECORDS)).
 * @param[in,out] tx the transmitter.
 * @param[in] on 1 enable all, 0 disable all.
 * **Context:** any; one atomic byte update per event type.
 */
void evrec_qs_tx_global_filter_all(evrec_qs_tx_t *tx, int on);

/**
 * @brief Local filter (QP/C "QS Local Filter"): enable or disable one local id. An event's
 * local id is the value of its options.local_id_field when it has that field, else its class id.
 * Id 0 is always enabled; ids >= ::EVREC_QS_LOCAL_IDS are never filtered.
 * @param[in,out] tx the transmitter.
 * @param[in] local_id 1..255.
 * @param[in] on 1 enable, 0 disable.
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG tx NULL, or local_id is 0 or >= 256.
 * **Context:** any thread or ISR; one atomic byte update.
 */
evrec_status evrec_qs_tx_local_filter(evrec_qs_tx_t *tx, uint32_t local_id, int on);

/**
 * @brief Whether an event record would pass both filters now (what evrec_qs_tx_event() tests).
 * @param[in] tx the transmitter.
 * @param[in] native the native event struct (u16 id at offset 4, fields at their offsets).
 * @return 1 pass, 0 filtered or unknown id.
 * **Context:** any.
 */
int evrec_qs_tx_passes(const evrec_qs_tx_t *tx, const void *native);

/**
 * @brief Live dictionaries (QS.md "Live dictionaries"): queue a QS_ENUM_DICT record for every
 * run-time enum value named since the last call (of the enums with a QS group, values <= 255),
 * and again every ENUM_DICT or USR_DICT record the ring lost (overwritten whole, or cut while
 * being read), so that QSPY names run-time values allocated after the session started and learns
 * a lost dictionary entry again; likewise an EVREC_LOST record the ring overwrote whole (its count,
 * per kind, goes out again in one record with the first lost one's timestamp), so that the
 * recorder's losses are announced even when the link itself is lossy. Call it after
 * evrec_qs_tx_session_start() and then often (the drain loop, before a burst of events, or right
 * after evrec_runtime_enum_alloc()); a call with nothing to do costs one acquire load per grouped
 * run-time enum.
 * Once the ring has lost a frame, a dictionary frame (new name or sent again) is queued only while
 * at most a quarter of the ring waits to be read; the others stay pending, their values named
 * inline (`name#value`, QS.md 8.1) until their frame is read out, and go in a later call once the
 * link keeps up (so a drain loop should keep calling it while evrec_qs_tx_dict_pending() is 1).
 * @param[in,out] tx the transmitter.
 * @return frames queued.
 * **Context:** a writer context under the rules of the lock (as evrec_qs_tx_event()); one frame
 * per critical section.
 */
uint32_t evrec_qs_tx_dict_update(evrec_qs_tx_t *tx);

/**
 * @brief Whether evrec_qs_tx_dict_update() has work left: a run-time name not announced yet, a
 * dictionary frame to send (again; deferred while the ring was too full), or an EVREC_LOST count
 * the ring overwrote. A drain loop that ends when the ring is empty should also wait for 0 here
 * (calling evrec_qs_tx_dict_update() and draining), so that every name reaches the host.
 * @param[in] tx the transmitter.
 * @return 1 work left, 0 none (or tx NULL).
 * **Context:** any; relaxed and acquire loads only (a stale answer is corrected by the next call).
 */
int evrec_qs_tx_dict_pending(const evrec_qs_tx_t *tx);

/**
 * @brief Announce lost records (QS.md "Loss records"): one EVREC_LOST record (id 122,
 * "EVREC_LOST" in QS_USR_DICT) with `kind` and `count`, so that QSPY shows where data is
 * missing and `evrec qs-decode` counts them as dropped. Counts above 2^32 - 1 take several records.
 * @param[in,out] tx the transmitter.
 * @param[in] time timestamp, port ticks (e.g. of the last record sent).
 * @param[in] kind ::EVREC_QS_LOST_DROPPED (recorder buffer full) or ::EVREC_QS_LOST_OVERWRITTEN
 *     (cyclic overwrite).
 * @param[in] count records lost (0: nothing sent).
 * @retval EVREC_OK queued.
 * @retval EVREC_E_ARG tx NULL or unknown kind.
 * **Context:** as evrec_qs_tx_event().
 */
evrec_status evrec_qs_tx_lost(evrec_qs_tx_t *tx, uint32_t time, uint8_t kind, uint64_t count);

/** @brief A host spinlock usable as evrec_qs_lock_t (ctx = pointer to it); zero = unlocked. */
typedef struct evrec_qs_spinlock {
    atomic_flag flag; /**< initialise with ATOMIC_FLAG_INIT or evrec_qs_spin_init() */
} evrec_qs_spinlock_t;

/**
 * @brief Make a spinlock unlocked.
 * @param[out] s the spinlock (user memory).
 * **Context:** before any thread uses it.
 */
void evrec_qs_spin_init(evrec_qs_spinlock_t *s);
/**
 * @brief evrec_qs_lock_t::enter for a ::evrec_qs_spinlock_t: spins until it holds the lock.
 * @param[in,out] spinlock the ::evrec_qs_spinlock_t (the lock's ctx).
 * @return 0 (no state to restore).
 * **Context:** threads (not ISR/signal handlers that may interrupt a holder on the same core: they
 * would spin forever).
 */
uint32_t evrec_qs_spin_enter(void *spinlock);
/**
 * @brief evrec_qs_lock_t::exit for a ::evrec_qs_spinlock_t: releases the lock.
 * @param[in,out] spinlock the ::evrec_qs_spinlock_t (the lock's ctx).
 * @param[in] state what evrec_qs_spin_enter() returned (unused).
 * **Context:** the holder.
 */
void evrec_qs_spin_exit(void *spinlock, uint32_t state);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_QS_TX_H */
