/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_lanes.h
 * @brief Per-core (per-context) lanes: one trace buffer split into N lanes, each with its own
 * allocation offset on its own cache line and its own slice of the record area, so that contexts
 * recording on different cores never write the same cache line.
 *
 * API overview:
 * - Set up: evrec_lanes_init() (user memory for N lanes), evrec_lanes_start(), evrec_lanes_stop().
 * - Record: evrec_lane_host() (the calling core's lane), evrec_lane_host_at() (a chosen lane),
 *   then any record call on that host; evrec_lanes_tick() (periodic Tick into every lane).
 * - Counts: evrec_recorder_lane_count(), evrec_recorder_lane_counts().
 * - Configuration: EVREC_MAX_LANES, EVREC_LANE_ALIGN, EVREC_LANE_ID().
 *
 * A plain host (evrec_host_t) has one allocation offset: two threads on two cores that record
 * through it bounce that cache line on every record. A **lanes object** (::evrec_lanes_t, user
 * memory) holds N lane hosts; evrec_lanes_start() splits the record area of one recorder (one-shot
 * or cyclic) into N sub-buffers, one per lane, each with its own 128-byte header (its own drops,
 * overwrites, full time) and records, and starts the lanes one after the other.
 * evrec_lane_host() returns the calling context's lane host (by ::EVREC_LANE_ID(), the port's
 * core number by default): an ordinary `evrec_host_t *`, so generated record functions,
 * evrec_record() and evrec_reserve() work on it unchanged, at the cost of a plain host (one-shot:
 * one fetch-and-add on the lane's own line). Contexts that share a lane (more threads than
 * lanes, a thread that migrates between reading its core number and allocating) stay correct:
 * a lane's allocation is atomic like any host's.
 *
 * evrec_lanes_stop() stops the lanes one after the other; evrec_save() then merges the
 * lanes by restored time into ONE CCore stream (every existing reader reads it) and records each
 * record's lane in LANE_IDS chunks of the container (FORMAT.md sections 2.3 and 7).
 * Time rule: each lane's 32-bit times are extended on their own (FORMAT.md section 5), so every
 * lane must see a record at least every 3/4 of a timestamp wrap: evrec_lanes_tick() records
 * EventControl Tick into every lane with one timestamp (save writes it once). A one-shot lane is
 * placed on the common time axis by its Start record (stamped a little after the previous
 * lane's), a cyclic lane by its Stop record (likewise).
 *
 * Freestanding: no malloc, no stdio.
 *
 * @code
 * static uint64_t trace[(64u << 10) / 8];          // 64 KiB, 8-byte aligned
 * static evrec_recorder_t rec;
 * static evrec_lane_t lane_mem[4];                // one per core
 * static evrec_lanes_t lanes;
 *
 * void trace_start(const evrec_meta_t *meta) {
 *     evrec_recorder_init(&rec, trace, sizeof trace);
 *     evrec_lanes_init(&lanes, lane_mem, 4);
 *     evrec_lanes_start(&lanes, &rec, meta, EVREC_PORT_TIME_FREQ());
 * }
 * void on_any_core(uint8_t a) {                    // a thread or interrupt on any core
 *     my_event_t *e = evrec_reserve(evrec_lane_host(&lanes), sizeof *e);
 *     if (e) { e->a = a; e->b = 0; evrec_commit(e, MY_EVENT_ID); }
 * }
 * void timer_10hz(void) {
 *     evrec_lanes_tick(&lanes);                    // a Tick into every lane
 * }
 * void trace_stop(const evrec_sink_t *sink) {
 *     evrec_lanes_stop(&lanes, NULL);
 *     evrec_save(&rec, sink);                      // one stream, merged by time
 * }
 * @endcode
 *
 * FORMAT.md and PORTING.md, cited here by name and section, are installed with evrec in
 * share/doc/evrec/.
 */
#ifndef EVREC_LANES_H
#define EVREC_LANES_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_recorder.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most lanes of one recorder (a lane id is one byte in the file's LANE_IDS chunks). */
#define EVREC_MAX_LANES 255u

/**
 * EVREC_LANE_ALIGN (bytes, a power of two >= 8): alignment of each ::evrec_lane_t, so that lanes
 * never share a cache line. Default: ::EVREC_HOST_SPLIT_LINES when non-zero (64 on x86-64 and
 * AArch64), else 8 (MCUs without a data cache).
 */
#ifndef EVREC_LANE_ALIGN
#if EVREC_HOST_SPLIT_LINES
#define EVREC_LANE_ALIGN EVREC_HOST_SPLIT_LINES
#else
#define EVREC_LANE_ALIGN 8
#endif
#endif

/**
 * EVREC_LANE_ID(): the calling context's lane number, any unsigned value (evrec_lane_host()
 * takes it modulo the lane count). Default: EVREC_PORT_CORE_ID(), the port's core number (0 on
 * single-core ports; PORTING.md says how an SMP part defines it). Define it before
 * including this header to choose lanes otherwise (a thread-local index, an RTOS task number).
 */
#ifndef EVREC_LANE_ID
#ifdef EVREC_PORT_CORE_ID
#define EVREC_LANE_ID() EVREC_PORT_CORE_ID()
#else
#define EVREC_LANE_ID() 0u
#endif
#endif

/** @brief One lane: its host (allocation offset on its own line) and its sub-recorder. User
 * memory (an array given to evrec_lanes_init()); fields are private. */
typedef struct evrec_lane {
    _Alignas(EVREC_LANE_ALIGN) evrec_host_t host; /**< what the lane's contexts record through */
    evrec_recorder_t rec;                         /**< the lane's slice of the buffer */
} evrec_lane_t;

/** @brief A set of lanes over one recorder. User memory; fields are private. */
typedef struct evrec_lanes {
    evrec_lane_t *lane;              /**< the user's array */
    uint32_t count;                  /**< lanes in it */
    evrec_recorder_t *rec;           /**< the recorder while started */
    evrec_atomic_size_t tick_copies; /**< Tick copies beyond the first of each evrec_lanes_tick()
                                          (save writes one): taken off `recorded` at stop */
} evrec_lanes_t;

/**
 * @brief Make a lanes object over the user's array of `count` lanes; records nothing until
 * evrec_lanes_start(). Every lane host is closed (records through it are ignored, not counted).
 * @param[out] lanes the object.
 * @pre No context records through a lane of `lane` (the lanes are stopped or never started).
 * @param[out] lane array of `count` lanes (caller-owned, lives as long as lanes is used; aligned to
 *     ::EVREC_LANE_ALIGN as a static or automatic array is, or from aligned_alloc() on the heap).
 * @param[in] count 1 .. ::EVREC_MAX_LANES.
 * @retval EVREC_OK ready.
 * @retval EVREC_E_ARG NULL, misaligned, or count out of range.
 * **Context:** thread, before any context records through a lane.
 */
evrec_status evrec_lanes_init(evrec_lanes_t *lanes, evrec_lane_t *lane, uint32_t count);

/**
 * @brief Split the record area of `rec` into the lanes and start recording in every lane.
 * The recorder's buffer header becomes version 2 with `lanes` = count (FORMAT.md section
 * 7): the area after the header (and the meta-info blob of evrec_recorder_keep_meta()) is cut
 * into `count` equal sub-buffers, each a 128-byte header then the lane's records (one-shot) or
 * ring (cyclic, same block size as the recorder's, the largest power-of-two number of blocks that
 * fits). Every lane's first record is EventControl Start; the lanes start one after the other
 * (lane k's Start a little later than lane k-1's; save relies on that order).
 * @pre `lanes` is initialised and not started; `rec` is initialised and attached to no host.
 * @param[in,out] lanes an initialised lanes object, not started.
 * @param[in,out] rec a recorder initialised with evrec_recorder_init() or
 *     evrec_recorder_init_cyclic(), not attached to a host.
 * @param[in] meta validated meta-info, alive until save is done.
 * @param[in] time_freq Hz (0 unknown).
 * @retval EVREC_OK recording.
 * @retval EVREC_E_ARG NULL, or a lane would get fewer than ::EVREC_MIN_BUFFER bytes of records
 *     (one-shot) or fewer than 4 blocks (cyclic), or an event does not fit a cyclic block.
 * @retval EVREC_E_BUSY the lanes or the recorder are recording.
 * @retval EVREC_E_META meta has no EventControl event 0.
 * **Context:** thread; one caller at a time. Cost: a memset of the buffer.
 */
evrec_status evrec_lanes_start(evrec_lanes_t *lanes, evrec_recorder_t *rec, const evrec_meta_t *meta,
                               uint64_t time_freq);

/**
 * @brief Stop every lane, lane 0 first (as evrec_host_stop(): waits for records in flight,
 * writes Stop, with a one-shot lane's first-drop time when it dropped) and store the summed
 * counts in the recorder's header. evrec_save() on the recorder then writes the merged file.
 * `recorded` is the number of records that file holds: the lanes' records less the copies save
 * merges (FORMAT.md section 2.3: one Start, one Stop, each evrec_lanes_tick() once). A cyclic
 * recording whose lanes overwrote records is the exception: which Tick copies are still in the
 * rings is not known at stop, so they stay counted and `recorded` may exceed the file's count by
 * them (the saved file's header has the exact count).
 * @pre evrec_lanes_start() succeeded on `lanes`.
 * @param[in,out] lanes started lanes.
 * @param[out] rec_out optional: the recorder.
 * @retval EVREC_OK stopped.
 * @retval EVREC_E_NOT_RECORDING not started.
 * **Context:** thread, as evrec_host_stop() (spins while a context is inside a record call).
 */
evrec_status evrec_lanes_stop(evrec_lanes_t *lanes, evrec_recorder_t **rec_out);

/**
 * @brief Record EventControl Tick into every lane with one timestamp (save writes it once), so
 * that each lane's times can be extended to 64 bits on their own (FORMAT.md section 5).
 * Call it periodically (the POSIX tick thread does it at 10 Hz for lanes given to
 * evrec_posix_tick_start_lanes()).
 * @param[in,out] lanes started lanes.
 * @retval EVREC_OK recorded in every lane.
 * @retval EVREC_E_NOT_RECORDING not started.
 * @retval EVREC_E_DROPPED some lane was full (counted in that lane).
 * **Context:** lock-free; any thread or interrupt. Writes every lane's allocation line once.
 */
evrec_status evrec_lanes_tick(evrec_lanes_t *lanes);

/**
 * @brief The host of lane `k`, for a context that picks its lane itself (e.g. one lane per
 * thread, kept in the thread's state).
 * @param[in] lanes initialised lanes (evrec_lanes_init()).
 * @param[in] k lane number, 0 .. count-1 (a larger k is taken modulo the count).
 * @return the lane's host, owned by `lanes`.
 * **Context:** any, ISR-safe; plain loads.
 */
static inline evrec_host_t *evrec_lane_host_at(evrec_lanes_t *lanes, unsigned k)
{
    unsigned n = lanes->count;
    return &lanes->lane[k < n ? k : k % n].host;
}

/**
 * @brief The calling context's lane host: lane EVREC_LANE_ID() (the core number by default)
 * modulo the lane count. Give it to any record call: `my_event(evrec_lane_host(&lanes), ...)`.
 * @param[in] lanes initialised lanes (evrec_lanes_init()).
 * @return the lane's host, owned by `lanes`.
 * **Context:** any; lock-free (one read of the core number, plain loads).
 */
static inline evrec_host_t *evrec_lane_host(evrec_lanes_t *lanes)
{
    return evrec_lane_host_at(lanes, (unsigned)EVREC_LANE_ID());
}

/**
 * @brief Counts of one lane of a recorder split by evrec_lanes_start() (its sub-buffer's
 * header): `dropped` and `overwritten` are live while recording; `recorded` and `used` are
 * the lane's own (its Start and Stop included) after stop.
 * @param[in] rec the recorder.
 * @param[in] k lane number.
 * @return the counts; all zero when rec is not split into lanes or k is out of range.
 * **Context:** any; lock-free.
 */
evrec_recorder_counts_t evrec_recorder_lane_counts(const evrec_recorder_t *rec, uint32_t k);

/**
 * @brief Lanes of a recorder's buffer.
 * @param[in] rec an initialised recorder.
 * @return 1 for a plain recorder, N after evrec_lanes_start() split it into N lanes.
 * **Context:** any; reads the buffer header.
 */
uint32_t evrec_recorder_lane_count(const evrec_recorder_t *rec);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_LANES_H */
