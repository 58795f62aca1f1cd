/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_sched.h
 * @brief The task-state model of a kernel trace: the intervals each task spends RUNNING (on which
 * core), READY (woken, preempted or yielding), BLOCKED (on which object, or a delay), SUSPENDED,
 * and when it died, computed from the RTOS catalogue's records (ports/rtos/rtos.yaml and its page
 * rtos.md) on one CPU or several (a file with lanes, one per core: evrec_record_t::lane = core).
 *
 * API overview: evrec_sched_create(), evrec_sched_add() (records in file order), evrec_sched_gap(),
 * evrec_sched_finish(), evrec_sched_free(); queries during the run: evrec_sched_running(),
 * evrec_sched_anomalies(). Each interval is given to the callback once, when it ends.
 * Statistics built on it (`evrec stats` of a kernel trace): evrec_sched_stats_create(),
 * evrec_sched_stats_add(), evrec_sched_stats_finish(), evrec_sched_stats_result(),
 * evrec_sched_stats_free().
 *
 * **Events** are recognised like evrec_stats_create() does (the whole catalogue with its layout),
 * plus, when present with the layout of the kernel ports' schemas (ports/rtos/freertos/freertos.yaml,
 * ports/rtos/threadx/threadx.yaml: a struct named so whose only field after time and id is
 * `task: RtosTask`, or `task` then `priority: uint16`), TaskReady, TaskCreate and TaskDelete. A
 * file without them works; fewer wake-ups are known (a BLOCKED interval then ends at the
 * switch-in, not at the wake-up).
 *
 * **Rules** (r = the record, c = r's lane, the core; A, B tasks):
 * - `TaskSwitchIn(B)` on c (FreeRTOS traceTASK_SWITCHED_IN, ThreadX's context switch to a thread):
 *   B's current interval ends at r and B is RUNNING on c from r. If another task A is RUNNING on c
 *   (no `TaskSwitchOut` of it was recorded), A's RUNNING ends at r and A is READY with cause
 *   EVREC_READY_PREEMPTED. If B is RUNNING on another core, that RUNNING ends at r (B migrated; the
 *   switch-out on the other core was not recorded). A switch-in of the task already running on c
 *   (a return from an interrupt, ThreadX's ISR return) changes nothing.
 * - `TaskSwitchOut(A, why)` on c (traceTASK_SWITCHED_OUT): A's interval ends at r; then by `why`
 *   (RtosSuspend): Preempted -> READY cause PREEMPTED; Yield -> READY cause YIELD; Blocked ->
 *   BLOCKED (on the object of A's pending `Block` operation, if any); Delay -> BLOCKED with no
 *   object (a delay); Suspended -> SUSPENDED; Exit -> DEAD. `cause` of BLOCKED/SUSPENDED/DEAD is
 *   the RtosSuspend value. Nothing runs on c afterwards until the next switch-in.
 * - A sync operation `Block` (MutexOp/SemOp/QueueOp/EventOp, FreeRTOS traceBLOCKING_ON_QUEUE_*,
 *   ThreadX's suspension on an object) of A: remembered for A's next switch-out; if A is already
 *   BLOCKED with no object, its interval gets this object.
 * - The FreeRTOS port's task notifications (`NotifyOp {task, giver, type: RtosNotifyOp, index}` of
 *   ports/rtos/freertos/freertos.yaml, recognised by name and layout) count as a sync operation
 *   without object: its `Block` is remembered like the others, and A's next switch-out with
 *   `Delay` or `Suspended` (what the port reports for a notification wait: the task's event item
 *   is on no object's list) makes A BLOCKED with cause Blocked on it (object_event = NotifyOp's
 *   id, object 0, object_name "notification"); its Unblock and Timeout wake A like the others'.
 * - The ThreadX port's block and byte pool operations (`PoolOp {task, object: RtosObject, type:
 *   RtosPoolOp}` of ports/rtos/threadx/threadx.yaml, recognised by name and layout) are a sync
 *   operation like the catalogue's: A's `Block` on a pool makes its next `Blocked` switch-out
 *   BLOCKED on that pool (object_event = PoolOp's id, object_name the pool's name); its Unblock
 *   and Timeout wake A.
 * - `TaskReady(A)` (FreeRTOS traceMOVED_TASK_TO_READY_STATE, ThreadX TX_TRACE_THREAD_RESUME), or
 *   `Unblock`/`Timeout` naming A: when A is BLOCKED or SUSPENDED, that interval ends at r and A is
 *   READY cause EVREC_READY_WOKEN from r; when A is READY or RUNNING it changes nothing (FreeRTOS
 *   records Unblock in the woken task's context after it runs again; a priority change re-queues a
 *   ready task). A task whose state is unknown becomes READY WOKEN from r.
 * - `TaskDelete(A)`: A is DEAD at r (cause Exit); a task deleting itself while RUNNING stays
 *   RUNNING until its switch-out (or a switch-in on its core), then is DEAD.
 * - DEAD has no end: it is reported once, at r, with begin = end (duration 0). A dead task that
 *   switches in again (an id reused) starts a new life.
 * - Task 0 (`Idle`) is a task like the others here (its RUNNING time on a core is the core's idle
 *   time); `NoTask` (0xFFFF, an operation from an interrupt handler) is never a task.
 *
 * **Trace edges and damage.** Before the first record (and after records lost to damage) every
 * task's state is unknown. A task's first `TaskSwitchOut` with no `TaskSwitchIn` before it was
 * RUNNING since the state became unknown: that RUNNING interval is reported with
 * EVREC_SCHED_NO_BEGIN and begins at the first record the model saw (or the first record after the
 * gap). No other earlier state is inferred (a first switch-in says nothing of how long the task was
 * ready). At evrec_sched_finish() the open intervals end at the last record (EVREC_SCHED_AT_FINISH);
 * at a gap they end at the last record before it (EVREC_SCHED_CUT) and the state is unknown again.
 * An interval may carry both NO_BEGIN and AT_FINISH or CUT.
 *
 * Records that contradict the state (a switch-out of a task that is not running, a switch-out on
 * another core than the task runs on) are applied as they say and counted
 * (evrec_sched_anomalies()).
 *
 * **Context:** one object per thread; host only (malloc). Keeps pointers into the reader (names):
 * free the model before closing the reader.
 */
#ifndef EVREC_SCHED_H
#define EVREC_SCHED_H

#include <stdint.h>

#include "evrec/evrec_analysis.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief An opaque task-state model. Create with evrec_sched_create(). */
typedef struct evrec_sched evrec_sched_t;

/** @brief A task's state. */
typedef enum evrec_task_state {
    EVREC_TASK_RUNNING = 1, /**< on a CPU (core = the lane of its TaskSwitchIn) */
    EVREC_TASK_READY,       /**< runnable, waiting for a CPU */
    EVREC_TASK_BLOCKED,     /**< waiting: on an object (object_event set) or a delay */
    EVREC_TASK_SUSPENDED,   /**< suspended (TaskSwitchOut Suspended) */
    EVREC_TASK_DEAD         /**< exited or deleted (no end: reported once, duration 0) */
} evrec_task_state_t;

/** @brief How a READY interval began. */
typedef enum evrec_ready_cause {
    EVREC_READY_WOKEN = 1, /**< TaskReady, or an Unblock/Timeout naming it: a wake-up */
    EVREC_READY_PREEMPTED, /**< TaskSwitchOut Preempted, or another task switched in on its core without a switch-out */
    EVREC_READY_YIELD      /**< TaskSwitchOut Yield */
} evrec_ready_cause_t;

/** evrec_task_interval_t::cause when nothing says why (BLOCKED/SUSPENDED/DEAD). */
#define EVREC_SCHED_NO_CAUSE 0xFFFFFFFFu
/** evrec_task_interval_t::object_event when the interval is on no object. */
#define EVREC_SCHED_NONE 0xFFFFu

/** evrec_task_interval_t::flags: the state was inferred; begin = the first record the model saw
 * (or the first after a gap), not a record that began it. */
#define EVREC_SCHED_NO_BEGIN 1u
/** evrec_task_interval_t::flags: still open at evrec_sched_finish(): end = the last record. */
#define EVREC_SCHED_AT_FINISH 2u
/** evrec_task_interval_t::flags: records were lost to damage while open: end = the last record
 * before the gap. */
#define EVREC_SCHED_CUT 4u

/** @brief One interval of one task in one state. Valid during the callback only. */
typedef struct evrec_task_interval {
    uint32_t task;         /**< the RtosTask value (0 = Idle) */
    const char *task_name; /**< its enum name (reader-owned), or NULL */
    evrec_task_state_t state;
    unsigned cause;          /**< READY: an ::evrec_ready_cause_t; BLOCKED/SUSPENDED/DEAD: the
                                 RtosSuspend value (Blocked 2, Delay 3, Suspended 4, Exit 5), or
                                 ::EVREC_SCHED_NO_CAUSE; RUNNING: ::EVREC_SCHED_NO_CAUSE */
    uint16_t core;           /**< RUNNING: its core (the record's lane); other states: the core it
                                 last ran on, or ::EVREC_LANE_UNKNOWN */
    uint16_t object_event;   /**< BLOCKED on an object: the event id of its Block record (MutexOp,
                                 SemOp, QueueOp or EventOp); else ::EVREC_SCHED_NONE */
    uint32_t object;         /**< the `object` value (valid with object_event) */
    const char *object_name; /**< its enum name (reader-owned), "notification" (static) for a
                                notification wait, or NULL */
    uint64_t begin_index;    /**< evrec_record_t::index of the record that began the state */
    uint64_t end_index;      /**< ... and of the one that ended it */
    uint64_t begin_t64;      /**< evrec_record_t::t64 of those records, ticks */
    uint64_t end_t64;
    uint64_t begin_ns; /**< evrec_record_t::ns of those records (0 when the frequency is unknown) */
    uint64_t end_ns;
    unsigned flags;      /**< EVREC_SCHED_NO_BEGIN, EVREC_SCHED_AT_FINISH, EVREC_SCHED_CUT */
    unsigned next_state; /**< the ::evrec_task_state_t the task entered at end_index (RUNNING for a
                              READY interval that ended in a switch-in); 0 when it ended at a gap
                              or at the finish */
} evrec_task_interval_t;

/** @brief Receives each interval once, when it ends. @p iv is valid during the call only. */
typedef void (*evrec_task_interval_fn)(void *ctx, const evrec_task_interval_t *iv);

/**
 * @brief Create a task-state model for the records of reader @p r.
 * @param[out] out the model (free with evrec_sched_free()); NULL on error.
 * @param[in] r the reader; it must outlive the model (names, meta-info). Not modified.
 * @param[in] fn called once per interval, when it ends (may be NULL: count only).
 * @param[in] ctx passed to @p fn.
 * @retval EVREC_OK created.
 * @retval EVREC_E_ARG @p out or @p r is NULL.
 * @retval EVREC_E_UNSUPPORTED the file is not a kernel trace: its meta-info does not hold the RTOS
 *     catalogue with its layout (TaskSwitchIn ... EventOp, see the file comment).
 * @retval EVREC_E_NOMEM out of memory.
 * **Context:** thread; host only (malloc).
 *
 * @code
 * static void on_interval(void *ctx, const evrec_task_interval_t *iv) {
 *     if (iv->state == EVREC_TASK_RUNNING) ((uint64_t *)ctx)[iv->core & 3] += iv->end_t64 - iv->begin_t64;
 * }
 * uint64_t busy[4] = {0};
 * evrec_sched_t *s;
 * if (evrec_sched_create(&s, r, on_interval, busy) == EVREC_OK) {
 *     evrec_record_t rec;
 *     while (evrec_reader_next(r, &rec) == EVREC_OK) evrec_sched_add(s, &rec);
 *     evrec_sched_finish(s);
 *     evrec_sched_free(s);
 * }
 * @endcode
 */
evrec_status evrec_sched_create(evrec_sched_t **out, const evrec_reader_t *r, evrec_task_interval_fn fn,
                                void *ctx);

/**
 * @brief Apply one record (any event; those of the catalogue change states).
 * @param[in,out] s the model.
 * @param[in] rec the next record in file (time) order; rec->lane is its core. A record with
 *     evrec_record_t::gap set first closes everything as evrec_sched_gap() does.
 * @retval EVREC_OK applied (or ignored: not a task event, NoTask, a lane of ::EVREC_LANE_UNKNOWN
 *     for a switch).
 * @retval EVREC_E_ARG @p s or @p rec is NULL.
 * @retval EVREC_E_NOMEM out of memory (the model stays usable; the record's effect may be lost).
 * **Context:** thread; calls the interval callback.
 */
evrec_status evrec_sched_add(evrec_sched_t *s, const evrec_record_t *rec);

/**
 * @brief Records were lost (damage): end every open interval at the last record seen, flagged
 * EVREC_SCHED_CUT; every state is unknown afterwards. Calling it twice in a row is harmless.
 * @param[in,out] s the model (NULL: nothing).
 * **Context:** thread; calls the interval callback.
 */
void evrec_sched_gap(evrec_sched_t *s);

/**
 * @brief End of the records: report the open intervals (ending at the last record, flagged
 * EVREC_SCHED_AT_FINISH). Further records start afresh.
 * @param[in,out] s the model.
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG @p s is NULL.
 * **Context:** thread; calls the interval callback.
 */
evrec_status evrec_sched_finish(evrec_sched_t *s);

/**
 * @brief The task RUNNING on @p core now (after the records added so far).
 * @param[in] s the model.
 * @param[in] core a lane.
 * @return its RtosTask value, or UINT32_MAX when no task is known to run there.
 * **Context:** thread; reads only.
 */
uint32_t evrec_sched_running(const evrec_sched_t *s, uint16_t core);

/**
 * @brief Records that contradicted the state (see the file comment), so far.
 * @param[in] s the model (NULL: 0).
 * @return their count.
 * **Context:** thread; reads only.
 */
uint64_t evrec_sched_anomalies(const evrec_sched_t *s);

/**
 * @brief Free the model (open intervals are not reported: call evrec_sched_finish() first).
 * @param[in] s the model, or NULL.
 * **Context:** thread.
 */
void evrec_sched_free(evrec_sched_t *s);

/* ---- kernel statistics built on the model (what `evrec stats` prints for a kernel trace) ---- */

/** @brief An opaque kernel statistics object. Create with evrec_sched_stats_create(). */
typedef struct evrec_sched_stats evrec_sched_stats_t;

/** @brief One task (idle, task 0, is not listed: its time is its cores' idle time). */
typedef struct evrec_sched_task {
    uint32_t task;      /**< the RtosTask value */
    const char *name;   /**< its enum name (reader-owned), or NULL */
    uint64_t cpu_ticks; /**< RUNNING time on any core, minus the interrupt handlers that ran on
                               its core meanwhile (exclusive CPU time, as evrec_stats_context_t) */
    uint64_t switches;  /**< switch-ins (RUNNING intervals begun in the trace) */
    /** READY intervals that began with a wake-up and ended in RUNNING (complete: flags 0): the
     * scheduling latency. Durations in ticks; percentiles as evrec_stats_durations_t says
     * (nearest rank, exact while the analysis keeps at most ::EVREC_STATS_EXACT_MAX durations,
     * else within ::EVREC_STATS_SKETCH_ERROR); worst_begin_index/worst_end_index = the READY
     * interval's first and last record. */
    evrec_stats_durations_t woken;
    /** READY intervals begun by a preemption or a yield, ended in RUNNING: waiting for the CPU back. */
    evrec_stats_durations_t preempted;
    int dead; /**< deleted or exited in the trace */
} evrec_sched_task_t;

/** @brief Complete BLOCKED or SUSPENDED intervals of one task on one object (or a delay). */
typedef struct evrec_sched_wait {
    uint32_t task;         /**< the RtosTask value */
    const char *task_name; /**< reader-owned, or NULL */
    unsigned what;         /**< EVREC_TASK_BLOCKED or EVREC_TASK_SUSPENDED */
    unsigned
        cause; /**< the RtosSuspend value of the switch-out (Blocked 2, Delay 3, Suspended 4), or ::EVREC_SCHED_NO_CAUSE */
    uint16_t
        object_event; /**< the Block record's event id, or ::EVREC_SCHED_NONE (a delay, or no Block recorded) */
    uint32_t object;  /**< the object's value (with object_event) */
    const char *object_name;  /**< its enum name (reader-owned), or NULL */
    uint64_t count;           /**< complete intervals */
    uint64_t total_ticks;     /**< their summed length */
    uint64_t max_ticks;       /**< the longest */
    uint64_t max_begin_index; /**< record index where the longest began */
} evrec_sched_wait_t;

/** @brief One core: one lane of the file (a file without lanes has core 0 only). Every core is
 * accounted over the whole trace (first to last record): task + isr + idle + kernel + unknown =
 * span. Load = 100% - idle / (span - unknown), as the one-CPU table's. */
typedef struct evrec_sched_core {
    uint16_t core;          /**< the lane */
    uint64_t task_ticks;    /**< time a task other than idle ran there, interrupt handlers excluded */
    uint64_t isr_ticks;     /**< time in interrupt handlers there (IsrEnter to IsrExit, nesting included) */
    uint64_t idle_ticks;    /**< the idle task (0) running, or the core asleep (IdleSleep to IdleWake) */
    uint64_t kernel_ticks;  /**< no task running, not asleep: the scheduler between a switch-out and
                                 the next switch-in or IdleSleep */
    uint64_t unknown_ticks; /**< before the first record that tells what ran there (and after
                                 damage), not claimed by a task's first switch-out or an IdleWake */
    uint64_t switches;      /**< switch-ins there (a return to the task already running not counted) */
    uint32_t task_count;    /**< tasks (idle not included) that ran there: entries of
                                 evrec_sched_result_t::core_tasks */
} evrec_sched_core_t;

/** @brief A task's time on one core. */
typedef struct evrec_sched_core_task {
    uint16_t core;
    uint32_t task;
    const char *name;   /**< reader-owned, or NULL */
    uint64_t cpu_ticks; /**< as evrec_sched_task_t::cpu_ticks, on this core */
    uint64_t switches;  /**< switch-ins on this core */
} evrec_sched_core_task_t;

/** @brief What evrec_sched_stats_finish() computed. Arrays are owned by the statistics object. */
typedef struct evrec_sched_result {
    uint64_t span_ticks; /**< last record - first record */
    uint32_t task_count;
    const evrec_sched_task_t *tasks; /**< by descending cpu_ticks, then value */
    uint32_t wait_count;
    const evrec_sched_wait_t *waits; /**< by task (in the order of `tasks`), then descending total_ticks */
    uint32_t core_count;
    const evrec_sched_core_t *cores; /**< by core */
    uint32_t core_task_count;
    const evrec_sched_core_task_t *core_tasks; /**< by core, then descending cpu_ticks */
    uint64_t anomalies;                        /**< evrec_sched_anomalies() of the model */
    int exact;                                 /**< 1: every percentile is exact (see evrec_sched_task_t::woken) */
} evrec_sched_result_t;

/**
 * @brief Create kernel statistics over the task-state model: per task CPU time, switches,
 * ready-to-running latency (woken, preempted), blocked time per object; per core busy, idle and
 * switches. Correct on several cores (one lane per core).
 * @param[out] out the object (free with evrec_sched_stats_free()); NULL on error.
 * @param[in] r the reader; it must outlive the object.
 * @retval EVREC_OK created.
 * @retval EVREC_E_ARG @p out or @p r is NULL.
 * @retval EVREC_E_UNSUPPORTED not a kernel trace (see evrec_sched_create()).
 * @retval EVREC_E_NOMEM out of memory.
 * **Context:** thread; host only (malloc).
 */
evrec_status evrec_sched_stats_create(evrec_sched_stats_t **out, const evrec_reader_t *r);

/**
 * @brief Account one record (file order; rec->lane = core; rec->gap = records lost before it).
 * @param[in,out] k the statistics.
 * @param[in] rec the record.
 * @retval EVREC_OK accounted.
 * @retval EVREC_E_ARG @p k or @p rec is NULL.
 * @retval EVREC_E_NOMEM out of memory (the figures may miss this record).
 * **Context:** thread.
 */
evrec_status evrec_sched_stats_add(evrec_sched_stats_t *k, const evrec_record_t *rec);

/**
 * @brief End of the records: close the model, sort, compute the percentiles.
 * @param[in,out] k the statistics.
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG @p k is NULL.
 * @retval EVREC_E_NOMEM out of memory.
 * **Context:** thread.
 */
evrec_status evrec_sched_stats_finish(evrec_sched_stats_t *k);

/**
 * @brief The results (valid after evrec_sched_stats_finish(), until evrec_sched_stats_free()).
 * @param[in] k the statistics.
 * @return the results, or NULL when @p k is NULL or not finished.
 * **Context:** thread; reads only.
 */
const evrec_sched_result_t *evrec_sched_stats_result(const evrec_sched_stats_t *k);

/**
 * @brief Free the statistics.
 * @param[in] k the statistics, or NULL.
 * **Context:** thread.
 */
void evrec_sched_stats_free(evrec_sched_stats_t *k);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_SCHED_H */
