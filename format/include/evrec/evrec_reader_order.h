/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_reader_order.h
 * @brief Time-ordered iteration over the records of a reader.
 *
 * evrec_reader_next() returns records in file order: the order of the slots in the trace buffer.
 * With several writers (threads, interrupts) a record can be stamped a little earlier than the
 * one before it in the file (it took its timestamp, then lost the race for the slot; FORMAT.md
 * section 5). An ::evrec_order_t holds up to `window` records and hands out the earliest one by
 * (t64, index), so that the output is in time order as long as no record is stamped earlier than
 * a record at least `window` records before it in the file.
 *
 * **Guarantee.** Every record of the source is delivered exactly once, none is dropped. Output
 * times (t64, and so ns) are non-decreasing, and records with equal t64 keep file order, except
 * for *late* records: a record whose t64 is below the largest t64 already delivered (it came
 * from further back than the window reaches). A late record is delivered anyway, at the point
 * where it leaves the window, and flagged: evrec_order_next() reports by how many ticks it
 * steps back, and evrec_order_stats() counts it. The largest t64 delivered is not lowered by a
 * late record. A window of 1 delivers file order (every record that steps back is then late).
 *
 * What the exporters do with late records: `evrec export --perfetto` writes them at the time of
 * the record before them and annotates them with `ts_clamped_ns` (the step back, ns);
 * `evrec export --ctf` and the babeltrace2 source `source.evrec.file` give them the time of the
 * record before them and count them as clamped in their summary.
 *
 * API overview: evrec_order_create() (over a reader), evrec_order_create_source() (over a
 * callback), evrec_order_next(), evrec_order_stats(), evrec_order_close().
 *
 * **Damage.** The source's terminal status (EVREC_E_END or the reader's sticky error) is
 * returned only after every record read before it has been delivered; the records are the same
 * as evrec_reader_next() would have returned, only their order differs.
 *
 * **Memory.** At most `window` record copies (each the record struct
 * plus 256 bytes of data), allocated as the window fills (a short file never allocates the whole
 * window).
 *
 * **Context:** one object for one thread, used by the thread that uses its reader; distinct
 * objects are independent. Host only (uses malloc).
 *
 * FORMAT.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_READER_ORDER_H
#define EVREC_READER_ORDER_H

#include <stdint.h>

#include "evrec/evrec_reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Default window, records (the babeltrace2 source's and `dump --time-order`'s). */
#define EVREC_ORDER_DEFAULT_WINDOW 4096u
/** Largest window accepted, records. */
#define EVREC_ORDER_MAX_WINDOW 1048576u
/** Largest record held, bytes (the reader's limit). */
#define EVREC_ORDER_MAX_RECORD 256u

/** @brief An ordered iterator (opaque). Create with evrec_order_create(). */
typedef struct evrec_order evrec_order_t;

/**
 * @brief Where an ::evrec_order_t takes its records from when it is not a reader: called for the
 * next record in file order.
 * @param[in] ctx as given to evrec_order_create_source().
 * @param[out] rec the record on EVREC_OK; its `data` (at most ::EVREC_ORDER_MAX_RECORD bytes) needs
 *     to stay valid only until the next call.
 * @retval EVREC_OK a record.
 * @retval EVREC_E_END the source ended intact; any other status also ends it (it is not called
 *     again), and is what evrec_order_next() returns once the held records are out.
 * **Context:** called in the thread that calls evrec_order_next().
 */
typedef evrec_status (*evrec_order_source_fn)(void *ctx, evrec_record_t *rec);

/** @brief Counters of an ::evrec_order_t (final once evrec_order_next() returned non-EVREC_OK). */
typedef struct evrec_order_stats {
    uint64_t records;        /**< records delivered */
    uint64_t reordered;      /**< records read with a t64 below the largest t64 read before them
                                 (stamped earlier than a record before them in the file) */
    uint64_t late;           /**< of those, records delivered late (see the file comment) */
    uint64_t max_late_ticks; /**< largest step back of a late record, ticks (0 when none) */
    uint64_t max_late_ns;    /**< the same in ns (0 when none or the frequency is unknown) */
    uint32_t window;         /**< the window, records */
} evrec_order_stats_t;

/**
 * @brief Create an ordered iterator over the records of an open reader (those evrec_reader_next()
 * has not yet returned).
 * @param[out] out the iterator (free with evrec_order_close()); NULL on failure.
 * @param[in] r an open reader; it stays the caller's, who keeps it open until evrec_order_close()
 *     and does not read it directly meanwhile.
 * @param[in] window records held, 1..::EVREC_ORDER_MAX_WINDOW.
 * @retval EVREC_OK created.
 * @retval EVREC_E_ARG NULL argument or window out of range.
 * @retval EVREC_E_NOMEM allocation failed.
 * **Context:** thread.
 * @code
 * evrec_order_t *o;
 * evrec_record_t rec;
 * uint64_t late;
 * evrec_status st = evrec_order_create(&o, r, EVREC_ORDER_DEFAULT_WINDOW);
 * while (st == EVREC_OK && (st = evrec_order_next(o, &rec, &late)) == EVREC_OK) {
 *     printf("%llu ns id %u%s\n", (unsigned long long)rec.ns, rec.id, late ? " (late)" : "");
 * }
 * // st: EVREC_E_END (intact) or the reader's error (evrec_reader_error(r))
 * evrec_order_close(o);
 * @endcode
 */
evrec_status evrec_order_create(evrec_order_t **out, evrec_reader_t *r, uint32_t window);

/**
 * @brief As evrec_order_create() over records given by a callback (for instance the records a
 * selection lets through), in the order the callback gives them.
 * @param[out] out the iterator; NULL on failure.
 * @param[in] window 1..::EVREC_ORDER_MAX_WINDOW.
 * @param[in] fn the source (see ::evrec_order_source_fn).
 * @param[in] ctx passed to fn.
 * @retval EVREC_OK created.
 * @retval EVREC_E_ARG NULL out or fn, or window out of range.
 * @retval EVREC_E_NOMEM allocation failed.
 * **Context:** thread.
 */
evrec_status evrec_order_create_source(evrec_order_t **out, uint32_t window, evrec_order_source_fn fn, void *ctx);

/**
 * @brief The next record in time order.
 * @param[in,out] o the iterator.
 * @param[out] rec filled on EVREC_OK; its `data` points into the iterator and stays valid until
 *     the next call or evrec_order_close().
 * @param[out] late optional: on EVREC_OK, 0 for a record in time order, else how many ticks its
 *     t64 lies below the largest t64 delivered before it (a late record, see the file comment).
 * @retval EVREC_OK a record.
 * @retval EVREC_E_NOMEM the window could not grow: no record is lost (those read are held);
 *     call again, or give up; or the reader's own allocation failure (sticky).
 * @retval EVREC_E_ARG NULL argument, or the source gave a record of more than 256 bytes (then
 *     sticky, after the records before it).
 * @retval EVREC_E_END the source ended intact and every record has been delivered (sticky).
 * The source's error (a reader's sticky error, evrec_reader_error()) is returned once every
 * record read before it was delivered, and is sticky:
 * @retval EVREC_E_TRUNCATED the file ends early.
 * @retval EVREC_E_CHECKSUM damage was skipped.
 * @retval EVREC_E_CORRUPT bytes that contradict the format.
 * @retval EVREC_E_BAD_ID a record with an unknown event id.
 * @retval EVREC_E_UNSUPPORTED a reader limit exceeded.
 * @retval EVREC_E_IO reading the file failed.
 * Another status a source callback returns ends it the same way.
 * **Context:** thread.
 */
evrec_status evrec_order_next(evrec_order_t *o, evrec_record_t *rec, uint64_t *late);

/**
 * @brief The counters so far.
 * @param[in] o the iterator.
 * @return a pointer into the iterator, never NULL for non-NULL `o`.
 * **Context:** thread; reads only.
 */
const evrec_order_stats_t *evrec_order_stats(const evrec_order_t *o);

/**
 * @brief Free the iterator and its held records (not the reader). NULL is ignored.
 * @param[in] o the iterator, or NULL.
 * **Context:** thread.
 */
void evrec_order_close(evrec_order_t *o);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_READER_ORDER_H */
