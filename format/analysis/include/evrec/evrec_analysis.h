/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_analysis.h
 * @brief Host analysis of a recording: per-event counts, rates and intervals for any file, and,
 * when the RTOS catalogue (ports/rtos/rtos.yaml) is in the meta-info, CPU time per task and per
 * interrupt handler, idle time and load, interrupt-disabled spans and blocking on
 * synchronisation objects.
 *
 * Sources: the idle accounting and the interrupt disable/restore types 7/8/39/40 of the ThreadX
 * context-switch logger ("Debugging Threading issues in ThreadX circa 2011", coffeetocode.com:
 * "HOW" and its `_tx_thread_interrupt_control`), and CCore's synchronisation events
 * (`CCore/inc/task/TaskEvent.h`: task, object and `type` fields).
 *
 * **The catalogue contract** (ports/rtos/README.md): the catalogue is recognised by its identity,
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
    uint64_t count;     /**< records of this type */
    uint64_t first_t64; /**< time of the first one, ticks (valid when count > 0) */
    uint64_t last_t64;  /**< time of the last one, ticks */
    uint64_t min_gap;   /**< shortest interval between consecutive records of the type, ticks (count >= 2) */
    uint64_t max_gap;   /**< longest interval, ticks (count >= 2); mean = (last - first) / (count - 1) */
} evrec_stats_event_t;

/** @brief Whole-trace numbers (any file). */
typedef struct evrec_stats_summary {
    uint64_t records;   /**< records given to evrec_stats_add() */
    uint64_t first_t64; /**< time of the first record (0 for a reader's first record) */
    uint64_t last_t64;  /**< time of the last record */
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
    uint16_t event_id;      /**< the event type (its name says the object kind) */
    uint32_t object;        /**< the `object` field's value */
    const char *name;       /**< its enum name (reader-owned), or NULL */
    uint64_t ops;           /**< records for this object */
    uint64_t by_type[EVREC_STATS_SYNC_TYPES]; /**< records per `type` value (values >= 8 only in `ops`) */
    uint64_t blocks;        /**< `Block` records */
    uint64_t timeouts;      /**< `Timeout` records */
    uint64_t waits;         /**< Block followed by Unblock or Timeout of the same task: completed waits */
    uint64_t wait_ticks;    /**< their summed length */
    uint64_t wait_max;      /**< the longest of them */
    uint32_t wait_max_task; /**< the task of the longest wait */
    const char *wait_max_task_name; /**< its name (reader-owned), or NULL */
} evrec_stats_sync_t;

/** @brief What the catalogue analysis found. All arrays are owned by the stats object. */
typedef struct evrec_stats_rtos {
    int has_cpu;   /**< task/ISR/idle events present: the CPU accounting below is meaningful */
    int has_int;   /**< IntControl present */
    int has_sync;  /**< at least one of MutexOp/SemOp/QueueOp/EventOp present */
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

    uint32_t task_count;                 /**< entries in `tasks` (idle not included) */
    const evrec_stats_context_t *tasks;  /**< by descending ticks */
    uint32_t isr_count;
    const evrec_stats_context_t *isrs;   /**< by descending ticks */
    uint32_t max_isr_depth;              /**< deepest ISR nesting seen */
    uint64_t anomalies;     /**< records that contradict the state (an exit of an ISR that is not running ...) */
    const char *first_anomaly; /**< what the first one was (stats-owned), or NULL */
    uint64_t first_anomaly_t64;

    uint64_t int_spans;            /**< complete interrupt-disabled spans */
    uint64_t int_ticks;            /**< their summed length */
    evrec_stats_int_span_t longest; /**< the longest complete span (int_spans > 0) */
    int int_open_at_start;         /**< a span was open when the trace began (RestoreEnable or DisableNested first) */
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
    uint16_t event_id;     /**< the event type */
    uint32_t field_index;  /**< index in the event's struct fields */
    const char *field;     /**< the field's name (reader-owned) */
    uint64_t records;      /**< records of the event seen */
    uint32_t distinct;     /**< distinct values */
    uint32_t top_count;    /**< entries in `top` (at most ::EVREC_STATS_ADDRESS_TOP) */
    evrec_stats_address_value_t top[EVREC_STATS_ADDRESS_TOP]; /**< by descending count, then value */
} evrec_stats_address_t;

/**
 * @brief Prepare an analysis of the records of `r`: finds the catalogue's events and fields in
 * its meta-info.
 * @param[out] out the new object (NULL on failure). @param[in] r an open reader (its meta-info
 * is read; it must outlive the object).
 * @retval EVREC_OK ready. @retval EVREC_E_ARG NULL argument or a reader without meta-info.
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
 * @retval EVREC_OK done. @retval EVREC_E_ARG NULL, or a record id outside the meta-info.
 * @retval EVREC_E_BUSY called after evrec_stats_finish(). @retval EVREC_E_NOMEM allocation failed
 * (the object stays usable, the record is not fully counted).
 * **Context:** thread.
 */
evrec_status evrec_stats_add(evrec_stats_t *s, const evrec_record_t *rec);

/**
 * @brief End the trace at the last record added: charges what still runs, closes the edges,
 * sorts the tables. Call once, after the last evrec_stats_add().
 * @retval EVREC_OK done. @retval EVREC_E_ARG NULL. @retval EVREC_E_BUSY already finished.
 * @retval EVREC_E_NOMEM allocation failed.
 */
evrec_status evrec_stats_finish(evrec_stats_t *s);

/** @brief Per event id numbers; `*count` = the meta-info's event count. Valid until free. */
const evrec_stats_event_t *evrec_stats_events(const evrec_stats_t *s, uint32_t *count);

/** @brief The address fields, by event id then field index (valid after evrec_stats_finish()). */
const evrec_stats_address_t *evrec_stats_addresses(const evrec_stats_t *s, uint32_t *count);

/** @brief Whole-trace numbers. */
const evrec_stats_summary_t *evrec_stats_summary(const evrec_stats_t *s);

/**
 * @brief The catalogue analysis, or NULL when the meta-info does not hold the whole catalogue
 * (see the contract above) or before evrec_stats_finish(); evrec_stats_mismatch() then says why
 * when part of it is there.
 */
const evrec_stats_rtos_t *evrec_stats_rtos(const evrec_stats_t *s);

/** @brief Why the catalogue was not used although some of its events are in the meta-info with
 * its layout ("not the whole catalogue of ports/rtos/rtos.yaml: IsrEnter: other fields than the
 * catalogue's; ..."; stats-owned text), or NULL (recognised, or no part of it there). */
const char *evrec_stats_mismatch(const evrec_stats_t *s);

/** @brief Free the object and its tables. NULL is ignored. */
void evrec_stats_free(evrec_stats_t *s);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_ANALYSIS_H */
