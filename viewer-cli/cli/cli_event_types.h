/* SPDX-License-Identifier: Apache-2.0 */
/* Where a command takes its event types from, shared by `evrec check` (--schema), `evrec
 * qs-decode` and `evrec syst-decode` (--meta FILE.evr or --schema S.yaml): loading a YAML schema
 * with its errors on stderr as "evrec: file:line:column: message", opening a recording for its
 * meta-info, and the options the stream decoders share. */
#ifndef EVREC_CLI_EVENT_TYPES_H
#define EVREC_CLI_EVENT_TYPES_H

#include <getopt.h>
#include <stdint.h>

#include "cli.h"
#include "evrec/evrec_schema.h"

/**
 * @brief Load a YAML schema (with its includes) through evrec-gen's loader; each line the loader
 * reports (file:line:column: message) is printed on stderr after "evrec: ".
 * @param[out] s the schema (the caller frees it with evrec_schema_free(), also after a failure).
 * @retval EVREC_OK loaded.
 * @retval other what evrec_schema_load() returns (reported).
 * **Context:** one thread; writes stderr.
 */
evrec_status cli_schema_load(const char *path, evrec_schema_t **s);

/** The event types of a run: a recording's meta-info or a schema's (one of r, schema is set). */
typedef struct cli_event_types {
    evrec_reader_t *r;        /**< --meta FILE: the open recording (owned) */
    evrec_schema_t *schema;   /**< --schema S.yaml: the loaded schema (owned) */
    const evrec_meta_t *meta; /**< the tables, owned by r or schema */
} cli_event_types_t;

/**
 * @brief Take the event types from `path`: a YAML schema (`is_schema`) or an evrec or CCore
 * recording (its meta-info; the recording is opened with the default clock).
 * @param[out] t zeroed, then filled; free with cli_event_types_free() (also after a failure).
 * @retval 0 loaded.
 * @retval -1 the file could not be read or is no schema (reported on stderr).
 * **Context:** one thread.
 */
int cli_event_types_load(cli_event_types_t *t, const char *path, int is_schema);
/**
 * @brief Close the recording or free the schema; `t` is zeroed.
 * **Context:** one thread.
 */
void cli_event_types_free(cli_event_types_t *t);

/* ---- the options of the stream decoders (qs-decode, syst-decode) -------------------------- */

/** What every stream decoder takes. */
typedef struct cli_decode_opts {
    const char *stream;           /**< STREAM: a file, or "-" for standard input */
    const char *meta_path;        /**< --meta FILE.evr or --schema S.yaml, or NULL */
    int meta_is_schema;           /**< 1: --schema */
    const char *out;              /**< -o OUT.evr, or NULL */
    evrec_reader_options_t clock; /**< --time-freq only */
    uint64_t max_errors;          /**< --max-errors N (default 20) */
} cli_decode_opts_t;

/** getopt_long codes of the decoder options. */
enum { CLI_OPT_META = 0x1200, CLI_OPT_SCHEMA, CLI_OPT_MAX_ERRORS };

/** The decoder options' entries of a `struct option` table (with -o, --time-freq and --help);
 * the short options are ":o:h". */
#define CLI_DECODE_LONGOPTS                                                                                       \
    {"meta", required_argument, NULL, CLI_OPT_META}, {"schema", required_argument, NULL, CLI_OPT_SCHEMA},         \
        {"output", required_argument, NULL, 'o'}, {"time-freq", required_argument, NULL, CLI_OPT_TIME_FREQ},      \
        {"max-errors", required_argument, NULL, CLI_OPT_MAX_ERRORS},                                              \
    {                                                                                                             \
        "help", no_argument, NULL, 'h'                                                                            \
    }

/**
 * @brief Zero `o`, set the defaults, restart getopt_long.
 * **Context:** one thread.
 */
void cli_decode_begin(cli_decode_opts_t *o);
/**
 * @brief An option getopt_long returned (`c`, with optarg) that the command does not handle itself.
 * @retval -1 taken.
 * @retval CLI_OK --help: the help was printed.
 * @retval CLI_USAGE a usage error (reported): --meta and --schema both given, a bad count, an
 * unknown option or a missing value.
 * **Context:** one thread.
 */
int cli_decode_option(const cli_command_t *cmd, cli_decode_opts_t *o, int c, char **argv);
/**
 * @brief After the options: the one STREAM operand, and -o only with --meta or --schema.
 * @retval -1 fine.
 * @retval CLI_USAGE a usage error (reported).
 * **Context:** one thread.
 */
int cli_decode_end(const cli_command_t *cmd, cli_decode_opts_t *o, int argc, char **argv);

/**
 * @brief One problem of a decoded stream on stderr ("evrec: STREAM: ..."), the first
 * o->max_errors of them; the next one says that further ones are not shown.
 * @param[in] o the decoder's options (stream name, --max-errors).
 * @param[in,out] shown problems seen so far (the caller's counter, starts at 0).
 * @param[in] fmt printf format of the message, then its arguments.
 * **Context:** one thread.
 */
void cli_decode_error(const cli_decode_opts_t *o, uint64_t *shown, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* EVREC_CLI_EVENT_TYPES_H */
