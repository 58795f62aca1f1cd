/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file cli_export_perfetto.h
 * @brief `evrec export --perfetto`: a recording as a Perfetto trace (viewer-cli/perfetto/README.md).
 *
 * **Context:** host tool, one thread.
 */
#ifndef EVREC_CLI_EXPORT_PERFETTO_H
#define EVREC_CLI_EXPORT_PERFETTO_H

#include "cli.h"
#include "cli_select.h"

/** @brief Options of cli_export_perfetto(). Zero-initialise for the defaults. */
typedef struct cli_perfetto_opts {
    evrec_reader_options_t clock;     /**< --tick-hz / --time-freq (zeros: the file's clock) */
    const cli_select_spec_t *select;  /**< record selection, or NULL for every record */
    int quiet;                        /**< 1: no summary line on stderr */
    const cli_command_t *cmd;         /**< the command named in messages (`evrec export`), or
                                           NULL for ::cli_cmd_export */
    uint32_t reorder;                 /**< reorder window + 1 (records; 0: the default,
                                           EVREC_PF_DEFAULT_REORDER; 1: none) */
} cli_perfetto_opts_t;

/**
 * @brief Convert a recording into a Perfetto trace file (a perfetto.protos.Trace: one
 * length-delimited TracePacket after another), streaming, in memory bounded by the schema and the
 * lanes, not by the file's size.
 *
 * The output is written to a temporary file in the directory of `out_path` and renamed onto
 * `out_path` only when complete (also when the input is damaged: the records before the damage
 * and a "damaged" instant are in it); on any failure the temporary file is removed and
 * `out_path` is left as it was. "-" writes to standard output (refused when it is a terminal).
 * The output may not be the input file.
 *
 * @param in_path the recording (evrec container or CCore stream); "-" reads standard input.
 * @param out_path the trace file to write (conventionally `*.pftrace`), or "-".
 * @param opt options, or NULL for the defaults.
 * @retval CLI_OK written; the input was intact.
 * @retval CLI_BAD_INPUT the input is unreadable (nothing written) or damaged (written up to the
 * damage), or the output could not be written (message on stderr).
 * @retval CLI_USAGE a bad selection (unknown event, class, field), the output is the input, a
 * directory or a terminal.
 * **Context:** one thread; prints errors and (unless quiet) a summary on stderr.
 */
int cli_export_perfetto(const char *in_path, const char *out_path, const cli_perfetto_opts_t *opt);

#endif /* EVREC_CLI_EXPORT_PERFETTO_H */
