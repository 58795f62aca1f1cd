/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file sink_perfetto.h
 * @brief `evrec export --perfetto OUT`: the Perfetto trace writer (export_perfetto.h) as a sink
 * of the record pipeline (pipeline/sink.h): a perfetto.protos.Trace, one length-delimited
 * TracePacket after another, streamed in memory bounded by the schema and the lanes, not by the
 * file's size (viewer-cli/perfetto/README.md).
 *
 * The records come in time order (the sink has ::CLI_SINK_TIME_ORDER: the pipeline's ordered
 * iteration, a window of `--reorder-window` + 1 records, by default ::EVREC_PF_DEFAULT_REORDER +
 * 1). The pipeline writes the output by the output-path rule: a temporary file renamed onto OUT
 * only when complete (also when the input is damaged: the records before the damage and a
 * "damaged" instant are in it); "-" writes to standard output.
 *
 * **Context:** host tool, one thread.
 */
#ifndef EVREC_CLI_SINK_PERFETTO_H
#define EVREC_CLI_SINK_PERFETTO_H

#include "cli.h"
#include "evrec/evrec_reader.h"
#include "export_perfetto.h"
#include "sink.h"

/** @brief The sink's user pointer: options in, the writer's counts out. Zero-initialise. */
typedef struct cli_perfetto_run {
    const char *out_path;   /**< OUT as given ("-": standard output), for messages */
    int quiet;              /**< 1: no summary lines on stderr */
    int written;            /**< set by the sink: the trace was finished (the summary's counts hold) */
    evrec_pf_stats_t stats; /**< set by the sink: the writer's counts, copied at the end */
} cli_perfetto_run_t;

/**
 * @brief Refuse an output the trace cannot go to, before anything is read: a terminal ("-" on a
 * tty), a directory, the input file itself.
 * @param cmd the command named in usage errors.
 * @param in_path the input as given.
 * @param out_path OUT as given.
 * @retval -1 the output may be written.
 * @retval CLI_USAGE refused (the message is printed).
 * **Context:** one thread.
 */
int cli_perfetto_check_output(const cli_command_t *cmd, const char *in_path, const char *out_path);

/** The sink; its user pointer is a ::cli_perfetto_run_t. */
extern const cli_sink_t cli_sink_perfetto;

#endif /* EVREC_CLI_SINK_PERFETTO_H */
