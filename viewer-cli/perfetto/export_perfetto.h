/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file export_perfetto.h
 * @brief Streaming writer of a Perfetto trace (perfetto.protos.Trace, the format of
 * ui.perfetto.dev and trace_processor) from the records of an evrec reader.
 *
 * The output is a sequence of length-delimited TracePackets (Trace.packet is field 1: each packet
 * is the byte 0x0A, its length as a varint, its bytes), so a file of concatenated packets is a
 * valid Trace. One packet is built and written at a time: memory is bounded by the schema (event
 * types, leaves, spans, counters) and by the lanes and open spans, never by the number of
 * records. The mapping (tracks, slices, instants, counters, debug annotations, flows, losses) is
 * described in viewer-cli/perfetto/README.md.
 *
 * Use: evrec_pf_open() on an opened reader, evrec_pf_record() for each record in time order
 * (the reader's ordered iteration, evrec/evrec_reader_order.h, with a window of
 * ::EVREC_PF_DEFAULT_REORDER + 1 records by default), evrec_pf_finish() with the reader's sticky
 * error, evrec_pf_close(). Timestamps written never go back: a record stamped earlier than one
 * already written (a late record of the ordered iteration, or any step back in file order) is
 * written at that one's time, counted in `clamped`, with the difference in its `ts_clamped_ns`
 * argument.
 *
 * **Context:** host tool; one writer is used by one thread. Distinct writers are independent.
 */
#ifndef EVREC_EXPORT_PERFETTO_H
#define EVREC_EXPORT_PERFETTO_H

#include <stdint.h>
#include <stdio.h>

#include "evrec/evrec_analysis.h"
#include "evrec/evrec_reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief What a writer produced (filled as it goes; final after evrec_pf_finish()). */
typedef struct evrec_pf_stats {
    uint64_t records;        /**< records given to evrec_pf_record() */
    uint64_t instants;       /**< TYPE_INSTANT events made from records */
    uint64_t begins;         /**< TYPE_SLICE_BEGIN events (span begins) */
    uint64_t ends;           /**< TYPE_SLICE_END events (span ends) */
    uint64_t counters;       /**< TYPE_COUNTER events (one per counter field of a record) */
    uint64_t losses;         /**< instants on the "losses" track (drops, overwritten, damage) */
    uint64_t open_at_end;    /**< spans begun and never ended (left open: "did not end") */
    uint64_t unmatched_ends; /**< records matching a span end with no open span (made instants) */
    uint64_t refused_begins; /**< span begins beyond the limits (open spans, slots per lane),
                                  made instants with an annotation saying so */
    uint64_t reordered;      /**< records written after a record that follows them in the file
                                  (the ordered iteration put them in time order) */
    uint64_t clamped;        /**< records whose time was raised to keep timestamps monotonic
                                  (stamped earlier than a record already written) */
    uint64_t max_clamp_ns;   /**< the largest such raise, ns */
    uint32_t lanes;          /**< lanes (child tracks of the file's track) */
    uint32_t tracks;         /**< TrackDescriptors written (all kinds) */
    uint64_t packets;        /**< TracePackets written */
    uint64_t bytes;          /**< bytes written */
    uint64_t cut_by_damage;  /**< spans open when records were lost to damage (evrec_record_t::gap):
                                  ended at the last record before the gap (a TYPE_SLICE_END with
                                  the annotation cut_by_damage, no record), never across it */
    uint64_t sched_switches; /**< kernel trace: sched_switch events (README "Scheduling"); else 0 */
    uint64_t sched_wakings;  /**< kernel trace: sched_waking events */
    uint32_t sched_threads;  /**< kernel trace: tasks described as ProcessTree threads */
} evrec_pf_stats_t;

/** Default `--reorder-window` of `evrec export --perfetto`: records held back besides the one
 * written (an ordered iteration window of this + 1 records). */
#define EVREC_PF_DEFAULT_REORDER 1024u
/** Largest reorder window, records (each holds up to 256 bytes of record). */
#define EVREC_PF_MAX_REORDER 1048576u

/** @brief An opaque writer. */
typedef struct evrec_pf_writer evrec_pf_writer_t;

/**
 * @brief Create a writer for the records of `r` and write the first packet (the file's track).
 * @param[out] out the writer (free with evrec_pf_close()); NULL on failure.
 * @param r an open reader (its meta-info, tracks and clock are read here and while writing); the
 * caller keeps it open until evrec_pf_close() and keeps reading records from it.
 * @param f the output stream, open for binary writing; not closed by the writer.
 * @param trace_name the name of the file's track (e.g. the input's base name); copied.
 * @retval EVREC_OK ready. @retval EVREC_E_ARG NULL argument or a reader without meta-info.
 * @retval EVREC_E_NOMEM allocation failed. @retval EVREC_E_IO writing failed.
 * **Context:** thread.
 */
evrec_status evrec_pf_open(evrec_pf_writer_t **out, evrec_reader_t *r, FILE *f, const char *trace_name);

/**
 * @brief Convert one record (in time order, see the file comment) into packets: a slice begin or
 * end for each span it opens or closes, else an instant; a counter event for each counter field;
 * track descriptors and interned names the first time they are needed. A record stamped earlier
 * than the last one written is written at that one's time (`clamped`, `ts_clamped_ns`).
 * @param rec a record of the writer's reader (its bytes are read during the call only).
 * @retval EVREC_OK written. @retval EVREC_E_ARG NULL argument. @retval EVREC_E_NOMEM allocation
 * failed. @retval EVREC_E_IO writing failed (then every later call fails too).
 * **Context:** thread.
 */
evrec_status evrec_pf_record(evrec_pf_writer_t *w, const evrec_record_t *rec);

/**
 * @brief Write the losses known at the end (the reader's damage, records the header counts but
 * the file lacks) and flush the stream.
 * @param damage the reader's sticky error (evrec_reader_error()), or NULL when the stream ended
 * intact (status EVREC_OK or EVREC_E_END counts as intact too).
 * @retval EVREC_OK done. @retval EVREC_E_IO a write or the flush failed.
 * **Context:** thread.
 */
evrec_status evrec_pf_finish(evrec_pf_writer_t *w, const evrec_reader_error_t *damage);

/** @brief What the writer has produced so far. @return writer-owned, valid until close. */
const evrec_pf_stats_t *evrec_pf_stats(const evrec_pf_writer_t *w);

/** A counter value as written: counter index (evrec_reader_tracks()->counters), its series value
 * (UINT32_MAX: the counter has no series field), the value. */
typedef void (*evrec_pf_counter_fn)(void *ctx, uint32_t counter, uint32_t series, uint32_t value);

/**
 * @brief Introspection for tests: call `fn` for every counter value written (the counter model
 * agreement test compares it with stats and the timeline).
 * @param[in,out] w the writer.
 * @param[in] fn the hook, or NULL (none).
 * @param[in] ctx given to fn.
 * **Context:** thread; before the first record.
 */
void evrec_pf_set_counter_hook(evrec_pf_writer_t *w, evrec_pf_counter_fn fn, void *ctx);

/**
 * @brief Introspection for tests: `fn` is called once per span the trace holds as it is ended
 * (a slice end, a cut at damage), at evrec_pf_finish() for each span left open, and once per
 * unmatched end made an instant. NULL removes it. **Context:** thread.
 */
void evrec_pf_set_span_hook(evrec_pf_writer_t *w, evrec_span_fn fn, void *ctx);

/** @brief Free a writer (not its stream, not its reader). NULL is ignored. **Context:** thread. */
void evrec_pf_close(evrec_pf_writer_t *w);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_EXPORT_PERFETTO_H */
