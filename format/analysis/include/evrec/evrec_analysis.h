/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_analysis.h
 * @brief Host analysis of a recording: per-event counts, rates and intervals for any file, and,
 * when the RTOS catalogue (rtos.yaml, installed in share/evrec/) is in the meta-info, CPU time per task and per
 * interrupt handler, idle time and load, interrupt-disabled spans and blocking on
 * synchronisation objects. With the file's track model (schema `spans`, `counter`): span pairing for any
 * consumer (evrec_spans_t, e.g. a timeline), span durations with percentiles per span and per
 * track, and counter fields' time-weighted means (evrec_stats_spans(), evrec_stats_counters()).
 *
 * API overview:
 * - Whole-trace analysis: evrec_stats_create(), evrec_stats_set_exact_max(), evrec_stats_add(),
 *   evrec_stats_gap(), evrec_stats_finish(), evrec_stats_free().
 * - Results of any file: evrec_stats_summary(), evrec_stats_events(), evrec_stats_addresses().
 * - Results of the RTOS catalogue: evrec_stats_rtos(), evrec_stats_mismatch().
 * - Results of the track model: evrec_stats_spans(), evrec_stats_counters().
 * - Span pairing for any consumer: evrec_spans_create(), evrec_spans_on_begin(),
 *   evrec_spans_add(), evrec_spans_cut(), evrec_spans_gap(), evrec_spans_finish(),
 *   evrec_spans_count(), evrec_spans_counts(), evrec_spans_track_leaf(), evrec_spans_free().
 *
 * Sources: the idle accounting and the interrupt disable/restore types 7/8/39/40 of the ThreadX
 * context-switch logger ("Debugging Threading issues in ThreadX circa 2011", coffeetocode.com:
 * "HOW" and its `_tx_thread_interrupt_control`), and CCore's synchronisation events
 * (`CCore/inc/task/TaskEvent.h`: task, object and `type` fields).
 *
 * **The catalogue contract** (rtos.md, installed in share/evrec/): the catalogue is recognised by its identity,
 * as a set: the meta-info must hold every one of its events (TaskSwitchIn, TaskSwitchOut,
 * IsrEnter, IsrExit, IdleSleep, IdleWake, IntControl, MutexOp, SemOp, QueueOp, EventOp) with the
 * catalogue's layout: fields in order with their names and kinds, the enums they refer to with
 * their names, kinds and values (run-time names may follow the static values of RtosTask,
 * RtosIsr and RtosObject), and the class lanes. Event ids and the schema's own name do not
 * matter, so an application schema that `include:`s the catalogue is analysed the same way,
 * while an application event that only shares a name with the catalogue's (a QueueOp of its
 * own) stays the application's. When some catalogue events are there with their layout but not
 * all, the catalogue is not used and evrec_stats_mismatch() says what differs.
 *
 * **Time** is in ticks of the recording's clock (the reader's restored 64-bit `t64`), so results
 * are exact to the tick ("cycle" on a cycle counter); convert with evrec_ticks_to_ns().
 *
 * **Model.** One CPU. The running context is a base (a task, idle, the kernel between a
 * switch-out and the next switch-in, or unknown before the first event that tells) with a stack
 * of interrupt handlers on top (nested ISRs push). Every tick between the first and the last
 * record is charged to exactly one of: a task, an ISR (exclusive time: nested handlers are
 * charged to themselves), idle, kernel, unknown. Hence their sum is `span_ticks`.
 *
 * **Trace edges.** A context that ends with no beginning in the trace (TaskSwitchOut, IdleWake
 * or IsrExit first) was running since the trace began: the time before it that could only be its
 * is charged to it, and it is flagged `open_at_start`. A context still running at the last
 * record is charged up to it and flagged `open_at_end`. Interrupt-disabled spans cut by an edge
 * are reported apart (as lower bounds) and never ranked as the longest.
 *
 * **Context:** one object per thread; host only (malloc). Keeps pointers into the reader (names):
 * close the reader after the stats object.
 *
 * FORMAT.md and SCHEMA.md, cited here by name and section, are installed with evrec in
 * share/doc/evrec/; the catalogue's page rtos.md and the catalogue rtos.yaml in share/evrec/.
 */
#ifndef EVREC_ANALYSIS_H
#define EVREC_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_reader.h"
#include "evrec/evrec_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief An opaque analysis. Create with evrec_stats_create(). */
typedef struct evrec_stats evrec_stats_t;

/** @brief Per event type numbers (any file). Times are restored ticks (evrec_record_t::t64). */
typedef struct evrec_stats_event {
    uint64_t count;         /**< records of this type */
    uint64_t first_t64;     /**< time of the first one, ticks (valid when count > 0) */
    uint64_t last_t64;      /**< time of the last one, ticks */
    uint64_t min_gap;       /**< shortest interval between consecutive records of the type, ticks (count >= 2) */
    uint64_t max_gap;       /**< longest interval, ticks (count >= 2); mean = (last - first) / (count - 1) */
    uint64_t intervals_cut; /**< intervals not measured: records lost to damage between the two
                                 (evrec_record_t::gap); min_gap and max_gap leave them out */
} evrec_stats_event_t;

/** @brief Whole-trace numbers (any file). */
typedef struct evrec_stats_summary {
    uint64_t records;   /**< records given to evrec_stats_add() */
    uint64_t first_t64; /**< time of the first record (0 for a reader's first record) */
    uint64_t last_t64;  /**< time of the last record */
    uint64_t gaps;      /**< records given with evrec_record_t::gap set: damaged ranges the reader
                             resumed after (how many records each lost: evrec_reader_damage()) */
} evrec_stats_summary_t;

/** @brief CPU time of one task or one interrupt handler. */
typedef struct evrec_stats_context {
    uint32_t value;         /**< the `task` or `isr` field's value */
    const char *name;       /**< its enum name from the file (reader-owned), or NULL */
    uint32_t vector;        /**< ISRs: the `vector` of its last entry or exit */
    uint64_t ticks;         /**< exclusive CPU time: ISRs that preempted it are not included */
    uint64_t activations;   /**< switch-ins (tasks) or entries (ISRs) seen */
    uint64_t max_ticks;     /**< longest single activation, exclusive time */
    uint64_t max_inclusive; /**< ISRs: longest entry-to-exit time, nested handlers included */
    int open_at_start;      /**< running when the trace began (ended without a beginning) */
    int open_at_end;        /**< still running at the last record */
} evrec_stats_context_t;

/** @brief One interrupt-disabled span (IntControl Disable(7) ... RestoreEnable(40)). */
typedef struct evrec_stats_int_span {
    uint64_t ticks;          /**< length, ticks */
    uint64_t start_t64;      /**< time of the Disable record */
    uint32_t disable_caller; /**< `caller` of the Disable record (an address) */
    uint32_t restore_caller; /**< `caller` of the RestoreEnable record */
} evrec_stats_int_span_t;

/** @brief Interrupt-disabled spans grouped by the address that disabled interrupts. */
typedef struct evrec_stats_int_site {
    uint32_t caller;      /**< the Disable record's `caller` */
    uint64_t count;       /**< complete spans started there */
    uint64_t total_ticks; /**< their summed length */
    uint64_t max_ticks;   /**< the longest of them */
} evrec_stats_int_site_t;

/** Sync operation values kept per object: 0 .. EVREC_STATS_SYNC_TYPES - 1 (the catalogue's). */
#define EVREC_STATS_SYNC_TYPES 8u

/** @brief Operations on one synchronisation object (one of MutexOp/SemOp/QueueOp/EventOp). */
typedef struct evrec_stats_sync {
    uint16_t event_id;                        /**< the event type (its name says the object kind) */
    uint32_t object;                          /**< the `object` field's value */
    const char *name;                         /**< its enum name (reader-owned), or NULL */
    uint64_t ops;                             /**< records for this object */
    uint64_t by_type[EVREC_STATS_SYNC_TYPES]; /**< records per `type` value (values >= 8 only in `ops`) */
    uint64_t blocks;                          /**< `Block` records */
    uint64_t timeouts;                        /**< `Timeout` records */
    uint64_t waits;                 /**< Block followed by Unblock or Timeout of the same task: completed waits */
    uint64_t wait_ticks;            /**< their summed length */
    uint64_t wait_max;              /**< the longest of them */
    uint32_t wait_max_task;         /**< the task of the longest wait */
    const char *wait_max_task_name; /**< its name (reader-owned), or NULL */
} evrec_stats_sync_t;

/** @brief What the catalogue analysis found. All arrays are owned by the stats object. */
typedef struct evrec_stats_rtos {
    int has_cpu;  /**< task/ISR/idle events present: the CPU accounting below is meaningful */
    int has_int;  /**< IntControl present */
    int has_sync; /**< at least one of MutexOp/SemOp/QueueOp/EventOp present */
    /** NULL: the catalogue is recognised as a whole (every event matched), so nothing is left
     * over; kept for source compatibility. A partial catalogue is reported by
     * evrec_stats_mismatch() instead. */
    const char *mismatch;

    uint64_t span_ticks;    /**< last record - first record */
    uint64_t task_ticks;    /**< sum over `tasks` */
    uint64_t isr_ticks;     /**< sum over `isrs` */
    uint64_t idle_ticks;    /**< between IdleSleep and IdleWake, or in task 0, with no ISR running */
    uint64_t kernel_ticks;  /**< after a switch-out or a wake, before the next switch-in */
    uint64_t unknown_ticks; /**< before the first event that says what ran (not claimed by an edge rule) */
    int idle_open_at_start; /**< the trace began in idle (IdleWake first) */
    int idle_open_at_end;   /**< the trace ended in idle */

    uint32_t task_count;                /**< entries in `tasks` (idle not included) */
    const evrec_stats_context_t *tasks; /**< by descending ticks */
    uint32_t isr_count;
    const evrec_stats_context_t *isrs; /**< by descending ticks */
    uint32_t max_isr_depth;            /**< deepest ISR nesting seen */
    uint64_t anomalies; /**< records that contradict the state (an exit of an ISR that is not running ...) */
    const char *first_anomaly; /**< what the first one was (stats-owned), or NULL */
    uint64_t first_anomaly_t64;

    uint64_t int_spans;             /**< complete interrupt-disabled spans */
    uint64_t int_ticks;             /**< their summed length */
    evrec_stats_int_span_t longest; /**< the longest complete span (int_spans > 0) */
    int int_open_at_start; /**< a span was open when the trace began (RestoreEnable or DisableNested first) */
    uint64_t int_open_start_ticks; /**< its length within the trace: a lower bound */
    int int_open_at_end;           /**< interrupts were still disabled at the last record */
    uint64_t int_open_end_ticks;   /**< its length within the trace: a lower bound */
    uint32_t int_open_end_caller;  /**< who disabled them */
    uint32_t int_site_count;
    const evrec_stats_int_site_t *int_sites; /**< by descending max_ticks, then address */

    uint32_t sync_count;
    const evrec_stats_sync_t *sync; /**< by event id, then object value */
    uint64_t still_blocked;         /**< tasks blocked (Block without Unblock/Timeout) at the end */
} evrec_stats_rtos_t;

/** Values kept per address field in evrec_stats_address_t::top. */
#define EVREC_STATS_ADDRESS_TOP 8u

/** @brief One value of an address field and how often it was recorded. */
typedef struct evrec_stats_address_value {
    uint32_t value; /**< the address */
    uint64_t count; /**< records with it */
} evrec_stats_address_value_t;

/**
 * @brief The most frequent values of one address field: a top-level integer field whose display
 * attribute is `format: address` (the file's FIELD_INFO, through evrec_meta_t::field_info), and
 * the catalogue's IntControl.caller in any case. Symbolise the values with evrec_symbols.h.
 */
typedef struct evrec_stats_address {
    uint16_t event_id;    /**< the event type */
    uint32_t field_index; /**< index in the event's struct fields */
    const char *field;    /**< the field's name (reader-owned) */
    uint64_t records;     /**< records of the event seen */
    uint32_t distinct;    /**< distinct values */
    uint32_t top_count;   /**< entries in `top` (at most ::EVREC_STATS_ADDRESS_TOP) */
    evrec_stats_address_value_t top[EVREC_STATS_ADDRESS_TOP]; /**< by descending count, then value */
} evrec_stats_address_t;

/**
 * @brief Prepare an analysis of the records of `r`: finds the catalogue's events and fields in
 * its meta-info.
 * @param[out] out the new object (NULL on failure).
 * @param[in] r an open reader (its meta-info is read; it must outlive the object).
 * @retval EVREC_OK ready.
 * @retval EVREC_E_ARG NULL argument or a reader without meta-info.
 * @retval EVREC_E_NOMEM allocation failed.
 * **Context:** thread.
 * @code
 * evrec_stats_t *s;
 * evrec_record_t rec;
 * evrec_stats_create(&s, r);
 * while (evrec_reader_next(r, &rec) == EVREC_OK) { evrec_stats_add(s, &rec); }
 * evrec_stats_finish(s);
 * const evrec_stats_rtos_t *rt = evrec_stats_rtos(s);   // NULL without the catalogue
 * evrec_stats_free(s);
 * @endcode
 */
evrec_status evrec_stats_create(evrec_stats_t **out, const evrec_reader_t *r);

/**
 * @brief Account one record. Records must come in file order (as evrec_reader_next() gives them).
 * A record with evrec_record_t::gap set (records lost to damage before it; a caller that skips
 * records keeps the flag for the next one it gives) is counted in the summary's `gaps`; no
 * interval of an event is measured across it (evrec_stats_event_t::intervals_cut) and the spans
 * open then are cut, not paired across it (::EVREC_SPAN_CUT, `cut_by_damage`).
 * @param[in,out] s the analysis.
 * @param[in] rec the record (from the reader given to evrec_stats_create()).
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG NULL, or a record id outside the meta-info.
 * @retval EVREC_E_BUSY called after evrec_stats_finish().
 * @retval EVREC_E_NOMEM allocation failed (the object stays usable, the record is not fully
 * counted).
 * **Context:** thread.
 */
evrec_status evrec_stats_add(evrec_stats_t *s, const evrec_record_t *rec);

/**
 * @brief End the trace at the last record added: charges what still runs, closes the edges,
 * sorts the tables. Call once, after the last evrec_stats_add().
 * @param[in,out] s the analysis.
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG NULL.
 * @retval EVREC_E_BUSY already finished.
 * @retval EVREC_E_NOMEM allocation failed for the tables of spans or counters (the object is
 * finished all the same; the per-event, address and catalogue results are complete).
 * **Context:** thread.
 */
evrec_status evrec_stats_finish(evrec_stats_t *s);

/**
 * @brief Per event id numbers, indexed by event id.
 * @param[in] s the analysis.
 * @param[out] count the meta-info's event count (0 for NULL `s`); may be NULL.
 * @return stats-owned array valid until evrec_stats_free(); NULL for NULL `s`.
 * **Context:** thread; reads only.
 */
const evrec_stats_event_t *evrec_stats_events(const evrec_stats_t *s, uint32_t *count);

/**
 * @brief The address fields, by event id then field index.
 * @param[in] s the analysis.
 * @param[out] count entries (0 when NULL is returned); may be NULL.
 * @return stats-owned array valid until evrec_stats_free(); NULL before evrec_stats_finish() or
 * for NULL `s`.
 * **Context:** thread; reads only.
 */
const evrec_stats_address_t *evrec_stats_addresses(const evrec_stats_t *s, uint32_t *count);

/**
 * @brief Whole-trace numbers (updated by each evrec_stats_add()).
 * @param[in] s the analysis.
 * @return stats-owned numbers valid until evrec_stats_free(); NULL for NULL `s`.
 * **Context:** thread; reads only.
 */
const evrec_stats_summary_t *evrec_stats_summary(const evrec_stats_t *s);

/**
 * @brief The catalogue analysis, or NULL when the meta-info does not hold the whole catalogue
 * (see the contract above) or before evrec_stats_finish(); evrec_stats_mismatch() then says why
 * when part of it is there.
 * @param[in] s the analysis.
 * @return stats-owned results valid until evrec_stats_free(); NULL without the whole catalogue,
 * before evrec_stats_finish() or for NULL `s`.
 * **Context:** thread; reads only.
 */
const evrec_stats_rtos_t *evrec_stats_rtos(const evrec_stats_t *s);

/**
 * @brief Why the catalogue was not used although some of its events are in the meta-info with
 * its layout.
 * @param[in] s the analysis.
 * @return stats-owned text, valid until evrec_stats_free() (it names the catalogue by its path
 * in the evrec sources: "not the whole catalogue of ports/rtos/rtos.yaml: IsrEnter: other
 * fields than the catalogue's; ..."), or NULL (recognised, no part of it there, or NULL `s`).
 * **Context:** thread; reads only.
 */
const char *evrec_stats_mismatch(const evrec_stats_t *s);

/**
 * @brief Free the object and its tables (the reader is not touched).
 * @param[in] s the analysis, or NULL (ignored).
 * **Context:** thread.
 */
void evrec_stats_free(evrec_stats_t *s);

/* ============================================================================================
 * Spans and counters (the file's TRACKS: schema keys `spans`, `track`, `counter`; SCHEMA.md
 * "Tracks, spans and counters", FORMAT.md section 2.1).
 * ========================================================================================== */

/**
 * @brief Span pairing, streaming: **the one definition of a span** for every consumer of a
 * file's track model: `evrec stats` (evrec_stats_t measures what it reports), the timeline (draws it)
 * and the Perfetto export (writes its slices). One object pairs the begin and end records of
 * every span of the track model and hands each pair to a callback. Memory grows with the spans open at
 * once, never with the records.
 *
 * **Pairing rule.** A record opens a span when it matches the span's `begin` (its event, and the
 * match field's value when there is one), and closes the open span of the same **identity** when
 * it matches `end`. The identity is the key value (the end's own key leaf when the ends have
 * different keys, e.g. RTOS TaskSwitch `to` opens and `from` closes) and, when both ends have the
 * track field (the span's `track`, else the begin event's, found by the same path in the end
 * event) and the key is the same path in both ends, the track value too: so the Start and Done
 * of frame 7 pair on each stage's thread, even when two stages hold frame 7 at once. With a
 * per-end key the track is left out (one TaskSwitch record belongs to two tasks).
 * - **Overlap**: different identities are independent (any number open at once).
 * - **Nesting** (Perfetto's slice semantics): a begin for an identity that is already open
 *   *nests* in it: an end closes the innermost open instance of its identity (last in, first
 *   out), and the outer one stays open for the next end. Each instance has a **depth**: the
 *   instances of its identity open when it began (0 = none, 1 = nested in one ...). So a handler
 *   that re-enters itself (IsrEnter dma, IsrEnter dma, IsrExit dma, IsrExit dma) gives two
 *   spans, the inner at depth 1, as Perfetto draws them. When an end was lost instead (two
 *   TaskSwitchIn of one task without the TaskSwitchOut between), the outer instance closes at the
 *   next end of that identity or stays open to the end (::EVREC_SPAN_AT_FINISH): nothing tells a
 *   lost end from nesting in the records, and a stack never pairs an end with a begin that
 *   follows an unclosed one of the same identity.
 * - **An end that closes nothing** is reported as unmatched (::EVREC_SPAN_NO_BEGIN, its
 *   `begin_*` the first record given, or the first after the last cut: the span began before
 *   the records given, at an unknown time). Every such end is reported. When one record
 *   matches the end of several spans (the demo's QueueWait Woken ends QueueSleep and
 *   QueueFullSleep), it is unmatched only if it closed none of them, and is then reported for
 *   each.
 * - A record that is both an end and a begin (of one span or two) closes first, then opens.
 * - **Open at the end**: evrec_spans_finish() reports every span still open (::EVREC_SPAN_NO_END
 *   | ::EVREC_SPAN_AT_FINISH, `end_*` the last record given). A consumer with a window draws it
 *   to the window's end.
 * - **A window** (--from/--to, any selection): give only its records. A span begun before the
 *   window ends in it as an unmatched end; one open when the window ends is open at the end.
 * - **Drops**: a file does not say where a recorder dropped events. A one-shot buffer drops
 *   everything after it filled (no record follows the first drop: spans open then are reported
 *   at finish, and evrec_stats_t says that their ends were dropped); a cyclic buffer loses its
 *   oldest blocks (ends without begins at the start). A caller that knows records are missing
 *   at a point calls evrec_spans_gap(): every span open then is reported with
 *   ::EVREC_SPAN_ACROSS_GAP when it closes, and evrec_stats_t does not measure it (its duration
 *   includes an unknown stretch), only counts it.
 * - **Damage**: a record with evrec_record_t::gap set follows records lost to a damaged range
 *   (FORMAT.md section 2, "What a reader does with damage"). Spans are not paired across it:
 *   every span open then is cut, reported with ::EVREC_SPAN_NO_END | ::EVREC_SPAN_CUT (`end_*` =
 *   the last record before the gap) and counted in `cut_by_damage`; an end after the gap that
 *   finds nothing open is an unmatched end (NO_BEGIN, `begin_*` = the first record after the
 *   gap). A caller that reads records it does not give (a window) calls evrec_spans_cut() where
 *   it meets the gap.
 *
 * **Context:** one object per thread; host only (malloc). Keeps a pointer to the reader.
 */
typedef struct evrec_spans evrec_spans_t;

/** Flags of an ::evrec_span_t. 0 = a complete span. */
#define EVREC_SPAN_ACROSS_GAP 0x1u /**< complete, but evrec_spans_gap() was called while it was open */
#define EVREC_SPAN_NO_BEGIN 0x2u   /**< an end that closed nothing; begin_* = the first record given */
#define EVREC_SPAN_NO_END 0x4u     /**< a begin never closed: open at finish (AT_FINISH) or cut (CUT) */
#define EVREC_SPAN_AT_FINISH 0x8u /**< with NO_END: still open at evrec_spans_finish() (end_* = the last record) */
#define EVREC_SPAN_CUT                                                                                            \
    0x10u /**< with NO_END: open when records were lost to damage (the next
                                        record has evrec_record_t::gap); end_* = the last record before */
#define EVREC_SPAN_BEGIN                                                                                          \
    0x20u /**< only to the evrec_spans_on_begin() callback: the span opens at
                                        this record (end_* = begin_*) */

/** ::evrec_span_t::instance of an unmatched end (no instance was open). */
#define EVREC_SPAN_NO_INSTANCE UINT32_MAX

/** @brief One span (or one unmatched end of one), as given to an ::evrec_span_fn. */
typedef struct evrec_span {
    uint32_t span;        /**< index in evrec_reader_tracks()->spans */
    uint32_t key;         /**< the key value (0 when the span has no key) */
    uint32_t track;       /**< the lane's value (the track field's), when has_track */
    int has_track;        /**< 0: no track field: the lane of the begin event's class (for an
                               unmatched end: the end event has no field at the track's path) */
    uint64_t begin_index; /**< record index (evrec_record_t::index) of the begin */
    uint64_t end_index;   /**< record index of the end */
    uint64_t begin_t64;   /**< restored time of the begin, ticks */
    uint64_t end_t64;     /**< restored time of the end, ticks (>= begin_t64 but for clock steps back) */
    unsigned flags;       /**< 0 or ::EVREC_SPAN_ACROSS_GAP, ::EVREC_SPAN_NO_BEGIN, ::EVREC_SPAN_NO_END ... */
    uint32_t depth;    /**< instances of its identity open when it began: 0, or its nesting level (see the rule) */
    uint32_t instance; /**< a number for the instance, the same at its begin (evrec_spans_on_begin())
                               and at its close, reused after it (small: at most the spans open at
                               once); ::EVREC_SPAN_NO_INSTANCE for an unmatched end */
    uint64_t begin_ns; /**< evrec_record_t::ns of the begin (0 when the clock is unknown) */
    uint64_t end_ns;   /**< evrec_record_t::ns of the end */
} evrec_span_t;

/** @brief Called once per span closed (or unmatched end or begin); `span` is valid during the call. */
typedef void (*evrec_span_fn)(void *ctx, const evrec_span_t *span);

/** @brief What the pairing of one span found (see the pairing rule of ::evrec_spans_t). */
typedef struct evrec_spans_counts {
    uint64_t complete;      /**< begin and end paired, no gap inside */
    uint64_t across_gap;    /**< paired across an evrec_spans_gap() */
    uint64_t begun_again;   /**< 0: a begin of an open identity nests (`nested`); kept for source compatibility */
    uint64_t open_at_end;   /**< begins still open at evrec_spans_finish() */
    uint64_t unmatched_end; /**< ends that closed nothing */
    uint64_t max_open;      /**< most instances open at once */
    uint64_t cut_by_damage; /**< begins open when records were lost to damage (EVREC_SPAN_CUT) */
    uint64_t nested;        /**< begins while their identity was open (depth > 0) */
    uint64_t not_opened;    /**< begins not opened: memory ran out (evrec_spans_add() said EVREC_E_NOMEM) */
} evrec_spans_counts_t;

/**
 * @brief Prepare the pairing of the spans of `r`'s track model (evrec_reader_tracks()).
 * @param[out] out the new object (NULL on failure).
 * @param[in] r an open reader; it must outlive the object.
 * @param[in] fn called per span closed (may be NULL: only counts).
 * @param[in] ctx given to fn.
 * @retval EVREC_OK ready (a file without a track model gives an object with no span).
 * @retval EVREC_E_ARG NULL out or r, or a reader without meta-info.
 * @retval EVREC_E_BAD_ID a span names a leaf the reader cannot resolve.
 * @retval EVREC_E_NOMEM allocation failed.
 * **Context:** thread.
 */
evrec_status evrec_spans_create(evrec_spans_t **out, const evrec_reader_t *r, evrec_span_fn fn, void *ctx);

/**
 * @brief Pair one record (file order, as evrec_reader_next() gives them; the records of a
 * selection may be given instead: spans are then paired among them). Calls fn for what closes.
 * @param[in,out] p the pairing.
 * @param[in] rec the record (from the reader given to evrec_spans_create()).
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG NULL, or a record id outside the meta-info.
 * @retval EVREC_E_BUSY after evrec_spans_finish().
 * @retval EVREC_E_NOMEM the open table could not grow (the begin is not opened: counted in
 * `not_opened`; its end will be an unmatched end).
 * **Context:** thread.
 */
evrec_status evrec_spans_add(evrec_spans_t *p, const evrec_record_t *rec);

/**
 * @brief Also call `fn` when a span opens, with ::EVREC_SPAN_BEGIN (a writer that streams, such
 * as the Perfetto export, starts the slice there; its close comes to the create() callback with
 * the same `instance`).
 * @param[in,out] p the pairing, or NULL (ignored).
 * @param[in] fn called per span opened; NULL: no call.
 * @param[in] ctx given to fn.
 * **Context:** thread.
 */
void evrec_spans_on_begin(evrec_spans_t *p, evrec_span_fn fn, void *ctx);

/**
 * @brief Records were lost to damage after the last record given (the caller met a record with
 * evrec_record_t::gap that it does not give, e.g. outside its window): every span open now is
 * cut (::EVREC_SPAN_NO_END | ::EVREC_SPAN_CUT, end_* = the last record given), and an end that
 * closes nothing after it begins at the next record given. Giving the flagged record itself does
 * the same. Before any record or after finish: nothing.
 * @param[in,out] p the pairing, or NULL (ignored).
 * **Context:** thread.
 */
void evrec_spans_cut(evrec_spans_t *p);

/**
 * @brief Records may be missing between the last record given and the next: the spans open now
 * will be reported with ::EVREC_SPAN_ACROSS_GAP. O(1).
 * @param[in,out] p the pairing, or NULL (ignored).
 * **Context:** thread.
 */
void evrec_spans_gap(evrec_spans_t *p);

/**
 * @brief The end of the records: reports every span still open (NO_END | AT_FINISH), in order of
 * span, then of begin. Call once.
 * @param[in,out] p the pairing.
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG NULL.
 * @retval EVREC_E_BUSY already finished.
 * **Context:** thread.
 */
evrec_status evrec_spans_finish(evrec_spans_t *p);

/**
 * @brief The leaf that gives span `span`'s track (its lane, and part of its identity; see the
 * pairing rule): the span's own `track`, else its begin event's track field.
 * @param[in] r an open reader with a track model.
 * @param[in] span an index in evrec_reader_tracks()->spans.
 * @return a leaf index of the begin event (evrec_reader_leaf()), or EVREC_TRACKS_NONE: no track
 * (the begin event's class lane), no track model, NULL `r` or `span` out of range.
 * **Context:** thread; reads only.
 */
uint16_t evrec_spans_track_leaf(const evrec_reader_t *r, uint32_t span);

/**
 * @brief Number of spans of the track model.
 * @param[in] p the pairing.
 * @return evrec_reader_tracks()->span_count; 0 without a track model, or for NULL `p`.
 * **Context:** thread; reads only.
 */
uint32_t evrec_spans_count(const evrec_spans_t *p);

/**
 * @brief The counts of span `span`.
 * @param[in] p the pairing.
 * @param[in] span an index in evrec_reader_tracks()->spans.
 * @return object-owned counts, valid until evrec_spans_free(); NULL for NULL `p` or an index out
 * of range.
 * **Context:** thread; reads only.
 */
const evrec_spans_counts_t *evrec_spans_counts(const evrec_spans_t *p, uint32_t span);

/**
 * @brief Free the object (the reader is not touched).
 * @param[in] p the pairing, or NULL (ignored).
 * **Context:** thread.
 */
void evrec_spans_free(evrec_spans_t *p);

/**
 * Durations kept for exact percentiles, all spans together (16 Mi: 128 MiB). Past it every
 * span's percentiles come from a log-bucket sketch (DDSketch: Masson, Rim and Lee, "DDSketch: a
 * fast and fully-mergeable quantile sketch with relative-error guarantees", VLDB 2019) with
 * relative accuracy ::EVREC_STATS_SKETCH_ERROR.
 */
#define EVREC_STATS_EXACT_MAX (UINT64_C(1) << 24)

/** Relative error of a sketched percentile: |reported - exact| <= 1% of exact, + 0.5 tick (rounding). */
#define EVREC_STATS_SKETCH_ERROR 0.01

/**
 * @brief Durations of one span (all tracks, or one track). Percentiles are nearest-rank: pN is
 * the smallest duration d with at least N% of the durations <= d (the ceil(N n / 100)-th
 * smallest). Ticks of the recording's clock. Only complete spans (flags 0) are measured.
 */
typedef struct evrec_stats_durations {
    uint64_t count;             /**< complete spans measured */
    uint64_t total;             /**< sum of their durations, ticks (saturates at UINT64_MAX) */
    uint64_t min, max;          /**< ticks (count > 0) */
    double mean;                /**< ticks */
    uint64_t p50, p90, p99;     /**< ticks */
    int exact;                  /**< 1: percentiles from the sorted durations; 0: from the sketch */
    uint64_t worst_begin_index; /**< record index of the begin of the longest (the first of equals) */
    uint64_t worst_end_index;   /**< record index of its end */
    uint64_t worst_begin_t64;   /**< its begin time, ticks */
    uint64_t begun_again;       /**< 0: a begin again nests (see the pairing rule); kept for the JSON output */
    uint64_t open_at_end;       /**< unmatched begins: still open at the last record */
    uint64_t unmatched_end;     /**< ends that closed nothing (per track: the end's track value) */
    uint64_t across_gap;        /**< paired across a gap (evrec_spans_gap()): not measured */
    uint64_t cut_by_damage;     /**< unmatched begins: open when records were lost to damage */
} evrec_stats_durations_t;

/** @brief One track (lane) of a span: its value and durations. */
typedef struct evrec_stats_span_track {
    uint32_t value;   /**< the track field's value */
    const char *name; /**< its enum name (reader-owned), or NULL */
    evrec_stats_durations_t d;
} evrec_stats_span_track_t;

/**
 * @brief One span of the track model: its durations over all tracks and per track. Per key (a frame
 * number, a task id) there would be one line per frame in the demo: the breakdown is per track
 * (per thread, hence per pipeline stage, in the demo; per task for RTOS TaskRunning).
 */
typedef struct evrec_stats_span {
    const char *name;        /**< the span's name (reader-owned) */
    const char *track_field; /**< the track field's path in the begin event ("thread"), or NULL */
    evrec_stats_durations_t all;
    uint32_t track_count;                   /**< entries in tracks (0 without a track field) */
    const evrec_stats_span_track_t *tracks; /**< by value */
} evrec_stats_span_t;

/** @brief One series of a counter field: samples and their time-weighted mean. */
typedef struct evrec_stats_series {
    uint32_t value;    /**< the series field's value (per-series entries; 0 in `all`) */
    const char *name;  /**< its enum name (reader-owned), or NULL */
    uint64_t samples;  /**< records carrying the field */
    uint32_t min, max; /**< of the samples */
    double mean;       /**< of the samples */
    /** Each sample's value held until the next sample of the series, the last one until the last
     * record given, divided by that time (first sample to last record). When no time passes: the
     * mean of the samples. */
    double time_weighted_mean;
    uint64_t first_t64, last_t64; /**< times of the first and last sample */
} evrec_stats_series_t;

/**
 * @brief A counter field (schema `counter: true`) as carried by one event (a counter in a struct
 * appears once per event containing it). The series `all` takes every record of the event; when
 * the counter has a series field (schema `series:`, evrec_meta_counter_series_leaf()), the
 * per-series entries split them by that field's value (one queue depth per queue), as the
 * timeline's plots and the Perfetto export's counter tracks do. Without one (older files
 * too) there is one series: `all`. Named track_field/tracks in evrec 0.3, where they split by the
 * event's track field (a per-thread queue depth, which misleads).
 */
typedef struct evrec_stats_counter {
    uint16_t event_id;        /**< the event carrying it */
    const char *path;         /**< the field's path in the event ("depth", "stats.level"), stats-owned */
    const char *unit;         /**< its FIELD_INFO unit (reader-owned), or NULL */
    const char *series_field; /**< the series field's path in the event (stats-owned), or NULL: one series */
    evrec_stats_series_t all;
    uint32_t series_count;
    const evrec_stats_series_t *series; /**< by value; NULL when series_count is 0 */
    uint32_t counter;                   /**< its index in evrec_reader_tracks()->counters */
} evrec_stats_counter_t;

/**
 * @brief Set how many durations the exact percentiles may keep (all spans together) before the
 * sketch takes over; 0 = sketch from the start. Default ::EVREC_STATS_EXACT_MAX.
 * @param[in,out] s the analysis.
 * @param[in] max_durations durations kept at most, all spans together.
 * @retval EVREC_OK set.
 * @retval EVREC_E_ARG NULL.
 * @retval EVREC_E_BUSY records were added already.
 * **Context:** thread.
 */
evrec_status evrec_stats_set_exact_max(evrec_stats_t *s, uint64_t max_durations);

/**
 * @brief A span whose duration may include lost records: call between the records where the gap
 * is (see evrec_spans_gap()); the spans open then are counted in `across_gap`, not measured.
 * @param[in,out] s the analysis, or NULL (ignored).
 * **Context:** thread.
 */
void evrec_stats_gap(evrec_stats_t *s);

/**
 * @brief The spans' durations, in the track model's order, after evrec_stats_finish().
 * @param[in] s the analysis.
 * @param[out] count entries (0 when NULL is returned); may be NULL.
 * @return stats-owned array valid until evrec_stats_free(); NULL before finish, for a file without
 * spans, or for NULL `s`.
 * **Context:** thread; reads only.
 */
const evrec_stats_span_t *evrec_stats_spans(const evrec_stats_t *s, uint32_t *count);

/**
 * @brief The counter fields, by event id then leaf order, after evrec_stats_finish().
 * @param[in] s the analysis.
 * @param[out] count entries (0 when NULL is returned); may be NULL.
 * @return stats-owned array valid until evrec_stats_free(); NULL before finish, for a file without
 * counters, or for NULL `s`.
 * **Context:** thread; reads only.
 */
const evrec_stats_counter_t *evrec_stats_counters(const evrec_stats_t *s, uint32_t *count);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_ANALYSIS_H */
