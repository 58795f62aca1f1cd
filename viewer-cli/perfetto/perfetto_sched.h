/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file perfetto_sched.h
 * @brief Perfetto's own scheduling data for a kernel trace: per core (evrec_record_t::lane) an
 * FtraceEventBundle with `sched_switch` at every task switch and `sched_waking` at every wake-up,
 * and a ProcessTree thread per task, so that the Perfetto UI draws CPU tracks with task slices
 * and per-task thread states. Driven by the task-state model (evrec/evrec_sched.h): the switches,
 * their prev_state and the wake-ups are the intervals `evrec stats` and `evrec timeline` use.
 * The mapping is in viewer-cli/perfetto/README.md, "Scheduling".
 *
 * Packets are written through `fn` as soon as a switch is complete (its prev_state is the
 * switched-out task's next interval, known when that interval ends), so they are not in time
 * order; trace_processor sorts ftrace events by timestamp. Memory: one entry per task and core
 * and one pending switch per task and core, never per record.
 *
 * **Context:** host tool; one thread. Private to the Perfetto export.
 */
#ifndef EVREC_PERFETTO_SCHED_H
#define EVREC_PERFETTO_SCHED_H

#include <stdint.h>

#include "evrec/evrec_reader.h"
#include "perfetto_trace.pb-c.h"

/** Writes one TracePacket (the caller frames it; the packet is valid during the call only). */
typedef void (*pf_sched_write_fn)(void *ctx, Perfetto__Protos__TracePacket *pkt);

typedef struct pf_sched pf_sched_t;

/** What was written (final after pf_sched_finish()). */
typedef struct pf_sched_stats {
    uint64_t switches; /**< sched_switch events */
    uint64_t wakings;  /**< sched_waking events */
    uint32_t threads;  /**< ProcessTree threads (tasks other than the idle task) */
} pf_sched_stats_t;

/** prev_state values written: Linux's task state bits as trace_processor decodes them without
 * a kernel version (its 4.4 layout, src/trace_processor/types/task_state.cc). */
#define PF_STATE_RUNNABLE 0x0    /**< R: yielded, or not known */
#define PF_STATE_SLEEPING 0x1    /**< S: blocked on an object or a delay */
#define PF_STATE_STOPPED 0x4     /**< T: suspended */
#define PF_STATE_DEAD 0x10       /**< X: exited or deleted */
#define PF_STATE_PREEMPTED 0x800 /**< R+: preempted (TASK_STATE_MAX of 4.4) */
#define PF_PRIO_DEFAULT 120      /**< prev_prio/next_prio/prio: Linux's default (no priority known) */

/**
 * @brief Create the writer of the scheduling data of reader `r`.
 * @param ns_known 1: timestamps in ns (the intervals' *_ns), 0: ticks (*_t64), as the export.
 * @param tgid the pid of the process the task threads belong to (the file's process track).
 * @retval EVREC_OK ready. @retval EVREC_E_UNSUPPORTED not a kernel trace (nothing to write).
 * @retval EVREC_E_NOMEM allocation failed. @retval EVREC_E_ARG NULL argument.
 */
evrec_status pf_sched_create(pf_sched_t **out, const evrec_reader_t *r, int ns_known, int32_t tgid,
                             pf_sched_write_fn fn, void *ctx);
/** @brief Take one record in time order (a record with `gap` set first closes every state as cut).
 * @retval EVREC_OK taken. @retval EVREC_E_NOMEM allocation failed. */
evrec_status pf_sched_record(pf_sched_t *s, const evrec_record_t *rec);
/** @brief The end: open states are closed, pending switches written (next = swapper, prev_state
 * R when not known). @retval EVREC_OK done. @retval EVREC_E_NOMEM allocation failed. */
evrec_status pf_sched_finish(pf_sched_t *s);
/** @brief What was written. */
const pf_sched_stats_t *pf_sched_stats(const pf_sched_t *s);
/** @brief Free (NULL ignored). */
void pf_sched_free(pf_sched_t *s);

#endif /* EVREC_PERFETTO_SCHED_H */
