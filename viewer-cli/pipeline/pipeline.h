/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file pipeline.h
 * @brief The viewer's one record pipeline: open the input (a file or standard input), compile
 * the selection (cli_select.h), optionally put the records in time order (the reader's ordered
 * iteration, evrec/evrec_reader_order.h), turn damage, overwritten and dropped records into loss
 * items of the stream, show progress, and write the output safely (the output-path rule of
 * evrec_out_file.h through cli_output_*()); the records go to one sink (sink.h).
 *
 * A command's run() parses its options, fills a ::cli_pipeline_opts_t, and calls
 * cli_pipeline_run() with its sink:
 *
 *     cli_pipeline_opts_t po = {.cmd = &cli_cmd_dump, .input = path, .clock = ropt, .select = &sel};
 *     return cli_pipeline_run(&po, &cli_sink_dump, &dump_options);
 *
 * The records come from a source, today the reader of a file or of standard input
 * (cli_open_reader()); a source is a function that returns the next record or a status, so a
 * source that follows a growing file can be added beside it without changing any sink.
 *
 * Messages: every failure is reported on stderr as "evrec: ..." by the step that met it (open,
 * selection, output, sink); the reader's sticky error is reported last ("evrec: FILE: offset N:
 * ...").
 *
 * **Context:** host tool, the command's one thread.
 */
#ifndef EVREC_CLI_PIPELINE_H
#define EVREC_CLI_PIPELINE_H

#include <stdint.h>

#include "cli.h"
#include "cli_select.h"
#include "sink.h"

/** How the pipeline runs. Zero-initialise, then set what the command needs. */
typedef struct cli_pipeline_opts {
    const cli_command_t *cmd;        /**< for usage errors of the selection */
    const char *input;               /**< the recording: a path, or "-" for standard input */
    evrec_reader_options_t clock;    /**< --tick-hz / --time-freq (cli_common_option()) */
    const cli_select_spec_t *select; /**< the selection options, or NULL: every record */
    int time_order;                  /**< 1: deliver the records in time order */
    /** Time order: records held back (the ordered iteration's window); 0: ::EVREC_ORDER_DEFAULT_WINDOW.
     * Larger values are cut to ::EVREC_ORDER_MAX_WINDOW. */
    uint32_t order_window;
    uint32_t reorder_window;   /**< handed to the sink (cli_sink_info_t::reorder_window) */
    int progress;              /**< progress bar on stderr: 0 when stderr is a terminal and
                                           the run takes over a second, 1 always, -1 never */
    const char *progress_what; /**< the bar's label ("evrec export") */
    /** The output file (the output-path rule; "-" is standard output), given to the sink as a
     * buffered export_out_t; NULL: the sink prints on standard output itself, which is flushed
     * and checked at the end (cli_stdout_done()). */
    const char *output;
    /** 1: the clock note (cli_sink_t::no_clock_note) is printed as soon as the input is open,
     * before the selection is compiled (`evrec dump`); 0: after it. */
    int clock_note_first;
} cli_pipeline_opts_t;

/**
 * @brief Run the pipeline: open, select, (order), deliver every loss and selected record to
 * `sink`, end it, commit the output, report the reader's error.
 * @param o what to read and how (copied where kept; the strings must live until return).
 * @param sink the consumer.
 * @param user handed to sink->begin() and sink->summary() (a command's options), may be NULL.
 * @return the command's exit code:
 * @retval CLI_OK everything read and written.
 * @retval CLI_BAD_INPUT the input could not be opened or is damaged (what could be read was
 * delivered and the damage reported), memory ran out, or the output could not be written (left
 * as it was).
 * @retval CLI_USAGE a selection that does not fit the file (an unknown event or class name, a
 * bad --where, a time bound without a clock).
 * **Context:** the command's thread; writes stderr (and stdout through sinks without `output`).
 */
int cli_pipeline_run(const cli_pipeline_opts_t *o, const cli_sink_t *sink, void *user);

#endif /* EVREC_CLI_PIPELINE_H */
