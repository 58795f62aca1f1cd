/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file sink.h
 * @brief The consumer end of the viewer's record pipeline (pipeline.h): every command that
 * prints or writes what it reads (`dump`, `stats`, `export --csv/--jsonl/--ccore/--perfetto`) is
 * a ::cli_sink_t, a table of callbacks that cli_pipeline_run() drives:
 *
 *     state = sink->begin(user, out, &info)     once, before any record (after the selection
 *                                               compiled and the output opened)
 *     sink->loss(state, &loss)                  0..n times, where the records were lost
 *     sink->record(state, &rec, late)           once per selected record
 *     sink->end(state, &end)                    once; the pipeline then commits the output
 *     sink->summary(state, &end, result)        once, last (optional): notes after the output
 *                                               is committed and the reader's error reported
 *
 * Losses are items of the stream, not something a sink asks for: the records a cyclic buffer
 * overwrote before the save come before the first record (they were older than it); damage in
 * the middle of a file (the reader resumes at the next SYNC point, format/FORMAT.md section 2.2)
 * comes before the first record read after the damaged range, with the count of records lost
 * and `before` = the first lost index; damage the reader stopped at (a truncated end, a version
 * 1.0 file) comes after the last record, count unknown; damage that lost no record (a repaired
 * chunk header, a display-only or SYNC chunk) comes at the end with count 0, count_known 1 and
 * position_known 0; events dropped with the buffer full come at the end (the file does not say
 * where they were dropped). In time order (pipeline.h) a loss is delivered when it is read,
 * which may be before records the ordering still holds back; `before` says where it was.
 *
 * A new output format = one file implementing a sink + one line in commands/cmd_export.c's table.
 *
 * **Context:** host tool; the pipeline calls a sink from the command's one thread, never
 * re-entrantly. Sinks keep their state in what begin() returns (no globals).
 */
#ifndef EVREC_CLI_SINK_H
#define EVREC_CLI_SINK_H

#include <stdint.h>

#include "evrec/evrec_reader.h"
#include "evrec/evrec_reader_order.h"

/** The buffered output of a sink that writes a file (export/export.h). */
typedef struct export_out export_out_t;

/** What a sink knows before the first record. Everything is owned by the pipeline and valid
 * until end() returns. */
typedef struct cli_sink_info {
    const char *input;             /**< the input path as given ("-": standard input) */
    evrec_reader_t *reader;        /**< for names, enum values, field walks (read-only use) */
    const evrec_meta_t *meta;      /**< evrec_reader_meta() */
    const evrec_file_info_t *info; /**< evrec_reader_info(): header counts, the file's time_freq */
    uint64_t time_freq;            /**< effective frequency, Hz, used for record ns; 0 = unknown */
    uint32_t reorder_window;       /**< --reorder-window N (records); 0 = the sink's default */
} cli_sink_info_t;

/** Why records are missing. */
typedef enum cli_loss_kind {
    CLI_LOSS_OVERWRITTEN = 1, /**< cyclic buffer: oldest records overwritten before the save */
    CLI_LOSS_DAMAGE = 2,      /**< a damaged range: records lost there, or (at the end) the rest */
    CLI_LOSS_DROPPED = 3      /**< events dropped because the trace buffer was full */
} cli_loss_kind_t;

/** One loss item of the stream (see the file comment for where each kind comes). */
typedef struct cli_loss {
    cli_loss_kind_t kind;
    const char *reason;  /**< "overwritten", "damage", "dropped" */
    uint64_t count;      /**< records lost; 0 with count_known 0: unknown (damage the reader
                              stopped at) */
    uint64_t before;     /**< records of the file read before the loss's position: the loss lies
                              between record before-1 and record `before` (file indices) */
    int position_known;  /**< 0: delivered at the end because the file does not say where */
    uint64_t offset;     /**< damage: byte offset in the file; else 0 */
    const char *message; /**< damage: the reader's message (reader-owned); else NULL */
    evrec_status status; /**< damage: the reader's status; else EVREC_OK */
    int count_known;     /**< 1: `count` is known even when 0 (damage that lost no record) */
} cli_loss_t;

/** A loss's count is known (writers print it; else empty/null). */
static inline int cli_loss_count_known(const cli_loss_t *l)
{
    return l->count != 0 || l->count_known;
}

/** How the stream ended, for end() and summary(). */
typedef struct cli_sink_end {
    uint64_t records;    /**< records given to record() and accepted */
    uint64_t read;       /**< records read from the file (selected or not) */
    uint64_t last_index; /**< file index of the last record read (0 when none) */
    int limit_hit;       /**< 1: reading stopped because --limit records were selected */
    int stopped;         /**< 1: reading stopped before the input's end (--limit, past the
                               window, a sink or the output gave up) */
    /** EVREC_E_END: the file ended intact; EVREC_OK: reading stopped early (--limit, past the
     * window, a sink or the output gave up); else the reader's sticky error (damage). */
    evrec_status status;
    /** Not EVREC_OK: the time ordering failed (EVREC_E_NOMEM, EVREC_E_ARG); nothing more was read. */
    evrec_status order_status;
    /** Time order: the ordering's counts (late records and the window), else NULL. */
    const evrec_order_stats_t *order;
    int abandoned;     /**< 1: a sink call failed or the output failed: write no trailer */
    int output_failed; /**< (summary() only) 1: the output could not be written or was given up */
} cli_sink_end_t;

/** What record(), loss() and end() return. */
enum {
    CLI_SINK_GO_ON = 0,    /**< done; go on */
    CLI_SINK_FAILED = 1,   /**< failed: the pipeline says "the NAME export failed" and leaves the
                               output as it was */
    CLI_SINK_STOP = 2,     /**< (record() only) stop reading; no failure: end() follows */
    CLI_SINK_REPORTED = 3, /**< failed, and the sink reported it: the output is left as it was */
    /** failed (reported by the sink), but what was written is kept: reading stops, the output is
     * committed, the exit status is 1 */
    CLI_SINK_KEEP_FAILED = 4
};

/** Behaviour flags of a sink (cli_sink_t::flags). */
enum {
    /** The sink writes losses into its output (the export table's text writers): every record
     * is read (no jump to the `--from` window, so losses before it are delivered), damage read
     * before the selection stopped still makes the input damaged, and overwritten and dropped
     * records are also noted on stderr. */
    CLI_SINK_WRITES_LOSSES = 1u << 0,
    /** The output cannot carry losses: the stderr notes say so (the bare CCore stream). */
    CLI_SINK_LOSSES_NOT_KEPT = 1u << 1,
    /** The records go through the reader's ordered iteration (time order) whatever the command
     * asks (the Perfetto trace). */
    CLI_SINK_TIME_ORDER = 1u << 2,
    /** Damage read before reading stopped early (--limit, past the window) makes the input
     * damaged (the timeline hatches it). */
    CLI_SINK_DAMAGE_PAST_STOP = 1u << 3,
    /** The reader's error is reported before end() (the timeline: before the picture is
     * written), not after the output is committed. */
    CLI_SINK_REPORT_FIRST = 1u << 4,
};

/** A consumer of the pipeline. Tables of these are `static const`; `user` (given to
 * cli_pipeline_run()) carries a command's options to begin(). */
typedef struct cli_sink {
    const char *name;   /**< "csv": in messages ("the csv export failed") */
    const char *option; /**< the `evrec export` option that picks it ("--csv"), or NULL */
    unsigned flags;     /**< CLI_SINK_* flags */
    /** Printed after "INPUT: note: time_freq is 0 and fewer than 2 ticks were recorded: " when
     * the clock is unknown ("times are in ticks"); NULL: no note. */
    const char *no_clock_note;
    /**
     * @brief Prepare and write any header.
     * @param user the pointer given to cli_pipeline_run() (the command's options), or NULL.
     * @param out the buffered output file when the pipeline has one (pipeline option `output`),
     * else NULL: the sink writes standard output itself.
     * @return the sink's state (owned by the sink, freed by end()); NULL after reporting an
     * error on stderr ("evrec: ...").
     */
    void *(*begin)(void *user, export_out_t *out, const cli_sink_info_t *info);
    /**
     * @brief One selected record (reader-owned bytes, valid during the call).
     * @param late 0, or by how many ticks the record steps back behind one already delivered
     * (time order, evrec_order_next()).
     * @retval CLI_SINK_GO_ON taken.
     * @retval CLI_SINK_FAILED failed: reading stops, the output is left as it was.
     * @retval CLI_SINK_STOP reading stops; end() follows as after the input's end.
     * @retval CLI_SINK_REPORTED failed and reported by the sink.
     * @retval CLI_SINK_KEEP_FAILED failed and reported; what was written is kept.
     */
    int (*record)(void *state, const evrec_record_t *rec, uint64_t late);
    /** @brief Optional (NULL): every record read, selected or not, before the selection decides
     * (file order), for sinks that follow the file itself (the timeline draws a gap strip from the
     * last record read before the damage). */
    void (*read)(void *state, const evrec_record_t *rec);
    /**
     * @brief One loss at the current position (see the file comment). Optional (NULL: ignored).
     * @retval CLI_SINK_GO_ON taken.
     * @retval CLI_SINK_FAILED failed: reading stops, the output is left as it was.
     */
    int (*loss)(void *state, const cli_loss_t *loss);
    /**
     * @brief Write any trailer (unless end->abandoned) and free the state (always).
     * @retval CLI_SINK_GO_ON done: the pipeline commits the output.
     * @retval CLI_SINK_FAILED failed: the output is left as it was.
     * @retval CLI_SINK_REPORTED failed and reported by the sink.
     * @retval CLI_SINK_KEEP_FAILED failed and reported; the output is committed, exit status 1.
     */
    int (*end)(void *state, const cli_sink_end_t *end);
    /** @brief Optional (NULL): notes printed last, after end(), the output's commit and the
     * reader's error; `result` is the command's exit code so far. The state was freed by end():
     * sinks that have a summary keep it in `user`. */
    void (*summary)(void *user, const cli_sink_end_t *end, int result);
    /** @brief Optional (NULL): invalid UTF-8 sequences the sink wrote as U+FFFD, for a note
     * before end(); 0 when none. */
    uint64_t (*invalid_utf8)(void *state);
} cli_sink_t;

#endif /* EVREC_CLI_SINK_H */
