/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec dump -f FILE`: follow a recording as it grows (a container written by `evrec record`, or
 * a raw capture of the stream being appended to, format/FORMAT.md section 8.3), like `tail -f`. */
#ifndef EVREC_CLI_DUMP_FOLLOW_H
#define EVREC_CLI_DUMP_FOLLOW_H

#include "cli.h"
#include "cli_select.h"
#include "sink_dump.h"

/** What `evrec dump -f` follows and how it prints (all pointers the caller's, alive during the run). */
typedef struct cli_follow_opts {
    const char *path;                  /**< the file (not "-") */
    evrec_reader_options_t clock;      /**< --tick-hz / --time-freq */
    const cli_select_spec_t *select;   /**< --event, --class, --where (no window, no limit), or NULL */
    const cli_dump_display_t *display; /**< the dump sink's options */
    unsigned interval_ms;              /**< how often the file is looked at, ms (100) */
    int quiet;                         /**< 1: no notes (waiting, complete): `evrec record --show` */
} cli_follow_opts_t;

/** A follower (opaque): what cli_dump_follow() runs, for `evrec record --show` to drive. */
typedef struct cli_follow cli_follow_t;

/**
 * @brief A follower of `o->path`, nothing read yet.
 * @param[in] o what to follow (kept: it must outlive the follower).
 * @return the follower (free with cli_follow_free()), or NULL when out of memory.
 * **Context:** the command's thread.
 */
cli_follow_t *cli_follow_new(const cli_follow_opts_t *o);

/**
 * @brief One look: when the file changed, print the records added since the last look (on
 * standard output, flushed), and say on stderr what happened to the file.
 * @param[in,out] f the follower.
 * @retval -1 go on.
 * @retval CLI_BAD_INPUT the file is not a recording, or writing standard output failed (said).
 * @retval CLI_USAGE the selection does not fit the file (said).
 * **Context:** the command's thread.
 */
int cli_follow_step(cli_follow_t *f);

/**
 * @brief Follow another file from its start, without a note (the next file of a split series).
 * @param[in,out] f the follower.
 * @param[in] path the file (the caller's; it must outlive the follower or the next switch).
 * **Context:** the command's thread.
 */
void cli_follow_switch(cli_follow_t *f, const char *path);

/** The file followed now (o->path, or the last given to cli_follow_switch()). */
const char *cli_follow_path(const cli_follow_t *f);

/** Free a follower (NULL is ignored). **Context:** the command's thread. */
void cli_follow_free(cli_follow_t *f);

/**
 * @brief Print the records of `o->path` already there, then each record appended to it, once and
 * in file order, until SIGINT, SIGTERM or SIGHUP. A record is printed once its chunk (or frame) is
 * whole: a half-written one waits for the rest. The file being replaced (another inode), cut
 * shorter, removed or damaged is reported on stderr; a replaced or cut file is followed again
 * from its start. A file that does not exist yet (or has no complete meta-info yet) is waited for.
 * @param[in] o what to follow.
 * @retval CLI_OK stopped by a signal.
 * @retval CLI_BAD_INPUT the file is not a recording, or writing standard output failed.
 * @retval CLI_USAGE the selection does not fit the file (unknown name, bad --where).
 * **Context:** the command's thread; installs handlers for SIGINT, SIGTERM and SIGHUP while it runs.
 */
int cli_dump_follow(const cli_follow_opts_t *o);

#endif /* EVREC_CLI_DUMP_FOLLOW_H */
