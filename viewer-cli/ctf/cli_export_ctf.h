/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file cli_export_ctf.h
 * @brief CTF export of a recording: `evrec export --ctf DIR FILE` calls cli_export_ctf(). Runs a babeltrace2 graph in-process:
 * the evrec source (viewer-cli/ctf/evrec_bt_source.h) into babeltrace2's `sink.ctf.fs`, which
 * writes a CTF 1.8 trace (`metadata` and one stream file) into DIR. viewer-cli/ctf/README.md
 * documents the mapping.
 */
#ifndef EVREC_CLI_EXPORT_CTF_H
#define EVREC_CLI_EXPORT_CTF_H

#include <stdint.h>

#include "cli.h"

/** @brief Options of cli_export_ctf(). Zero-initialise for the defaults. */
typedef struct cli_export_ctf_options {
    evrec_reader_options_t clock; /**< --tick-hz / --time-freq, as `evrec dump` takes them */
    uint32_t reorder_window;      /**< records held to restore time order; 0 = the default (4096) */
    int quiet;                    /**< 1: no summary on stdout (errors still go to stderr) */
} cli_export_ctf_options_t;

/**
 * @brief Convert the recording `in_path` into a CTF 1.8 trace in the directory `out_dir`.
 *
 * `out_dir` must not exist (it is created, its parent must exist) or be an empty directory; a
 * non-empty directory or another kind of file is refused before anything is written. Nothing is
 * ever deleted except `out_dir` itself when this call created it and it is still empty after a
 * failure. A damaged recording is converted up to the damage (the loss becomes a discarded-events
 * record in the trace), the damage is reported on stderr, and the result is CLI_BAD_INPUT.
 * Prints a summary on stdout (events, losses, reordered records) unless `opt->quiet`.
 *
 * @param in_path recording (.evr container or bare CCore stream). @param out_dir output directory.
 * @param opt options, or NULL for the defaults.
 * @retval CLI_OK the trace was written and the recording is intact.
 * @retval CLI_BAD_INPUT unreadable or damaged input, DIR refused or not writable, babeltrace2's
 * ctf plugin missing, or this evrec was built without libbabeltrace2 (message on stderr).
 * **Context:** thread; not reentrant with other babeltrace2 use in the same thread (babeltrace2
 * keeps one error object per thread).
 */
int cli_export_ctf(const char *in_path, const char *out_dir, const cli_export_ctf_options_t *opt);

#endif /* EVREC_CLI_EXPORT_CTF_H */
