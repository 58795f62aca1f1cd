/* SPDX-License-Identifier: Apache-2.0 */
/* The `evrec` command: the command table entry type and helpers shared by the subcommands.
 * Adding a subcommand = one file cmd_<name>.c defining a cli_command_t + one line in main.c. */
#ifndef EVREC_CLI_H
#define EVREC_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "evrec/evrec_reader.h"
#include "cli_text.h"
#include "evrec_out_file.h"

/* Exit codes of every subcommand. */
enum { CLI_OK = 0, CLI_BAD_INPUT = 1, CLI_USAGE = 2 };

typedef struct cli_command {
    const char *name;    /* as typed: "info" */
    const char *summary; /* one line for `evrec --help` */
    const char *help;    /* full text for `evrec <name> --help`, starting with the usage line */
    /* argv[0] is the command name; returns an exit code. */
    int (*run)(int argc, char **argv);
} cli_command_t;

extern const cli_command_t cli_cmd_info;
extern const cli_command_t cli_cmd_dump;
extern const cli_command_t cli_cmd_stats;
extern const cli_command_t cli_cmd_schema;
extern const cli_command_t cli_cmd_check;
extern const cli_command_t cli_cmd_export;
extern const cli_command_t cli_cmd_timeline;
extern const cli_command_t cli_cmd_syst;
extern const cli_command_t cli_cmd_syst_decode;
extern const cli_command_t cli_cmd_recover;
extern const cli_command_t cli_cmd_record;
extern const cli_command_t cli_cmd_sql;
extern const cli_command_t cli_cmd_index;
extern const cli_command_t cli_cmd_diff;

/* "evrec: <fmt>\n" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Usage error of a command: message, then a hint at its --help; returns CLI_USAGE. */
int cli_usage_error(const cli_command_t *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The reader's sticky error as "evrec: FILE: offset N: message". */
void cli_report_reader_error(const char *path, const evrec_reader_t *r);
/* The problem a seek found in the INDEX chunk (evrec_reader_index_warning()), when there is one,
 * as "evrec: FILE: warning: offset N: message" (N: the INDEX chunk's offset); returns 1 when it
 * printed it, else 0. `evrec sql` prints the same words (sql_db.c). */
int cli_report_index_warning(const char *path, const evrec_reader_t *r);
/* The damaged range a record with `gap` set follows: the entry of evrec_reader_damage() whose
 * index_after is `index` (its position in *k when k is not NULL); NULL when the reader kept none
 * (more than 1,000 ranges). */
const evrec_damage_t *cli_damage_before(const evrec_reader_t *r, uint64_t index, uint64_t *k);
/* Records lost before the record `index` that has `gap` set, `next` being the index the record
 * read before it would have been followed by (0 when none): the damage entry's count when it
 * knows it, else index - next. */
uint64_t cli_damage_lost(const evrec_reader_t *r, uint64_t index, uint64_t next);
/* The reader stopped on damage before the End record: the last damaged range is not followed by
 * a record (index_after UINT64_MAX) and lost part of the stream (records_lost != 0). */
int cli_damage_stopped(const evrec_reader_t *r);

/* Parse an unsigned decimal number (no sign, no junk, fits in max). 1 on success. */
int cli_parse_u64(const char *s, uint64_t max, uint64_t *out);
/* Parse a frequency in Hz: digits with an optional fraction and exponent, then an optional SI
 * suffix k, M or G and an optional "Hz": "32768", "168M", "1e9", "1.5k", "12.288MHz". The value
 * must be a whole number of Hz in 1..max. Returns 1 on success, else 0 with a reason for the
 * user in *why (a static string). */
int cli_parse_freq(const char *s, uint64_t max, uint64_t *out, const char **why);

/* ---- option parsing (getopt_long) shared by the subcommands --------------------------------
 * A command's parse() calls cli_getopt_begin(), handles its own options in a switch whose
 * default is cli_common_option(), then takes its operand with cli_one_operand(). These return
 * -1 to go on, else the exit code parse() returns (the run() convention of every command). */

/* getopt_long option codes of the clock options; in a command's struct option table as
 * {"tick-hz", required_argument, NULL, CLI_OPT_TICK_HZ}, {"time-freq", ..., CLI_OPT_TIME_FREQ}. */
enum { CLI_OPT_TICK_HZ = 0x1000, CLI_OPT_TIME_FREQ };

/* Restart getopt_long for argv (optind = 1) with its own messages off (opterr = 0). */
void cli_getopt_begin(void);
/* What getopt_long returned (`c`) when the command does not handle it itself: --tick-hz HZ and
 * --time-freq HZ into *clock (when `clock` is not NULL; out-of-range values are usage errors),
 * -h/--help (prints cmd->help on stdout: CLI_OK), a missing value (':'), an unknown option.
 * argv and optind as getopt_long left them. Returns -1 when the option was taken. */
int cli_common_option(const cli_command_t *cmd, int c, char **argv, evrec_reader_options_t *clock);
/* Exactly one operand must be left after the options (argv[optind]): stores it in *out and
 * returns -1, else a usage error "missing WHAT" / "expected one WHAT, got N arguments". */
int cli_one_operand(const cli_command_t *cmd, int argc, char **argv, const char *what, const char **out);

/* ---- files ------------------------------------------------------------------------------- */

/* Open a recording (evrec container or CCore stream) with `ropt` (NULL: defaults); path "-" is
 * standard input (read as a stream: a frequency derived from ticks needs a file). On failure
 * reports it (cli_report_reader_error) and returns NULL. Close with evrec_reader_close(). */
evrec_reader_t *cli_open_reader(const char *path, const evrec_reader_options_t *ropt);
/* Read the remaining records of `r` (for commands that use only the meta-info but must not call
 * a damaged file good). Returns EVREC_E_END when the file is intact to its end, else the
 * reader's sticky error (not reported: the caller does, e.g. with cli_report_reader_error()). */
evrec_status cli_read_to_end(evrec_reader_t *r);

/* An output file of a command, by the output-path rule of every evrec program
 * (ports/posix/include/evrec_out_file.h): a regular file (or a new path, or the file a symbolic
 * link names) is written to a temporary file in its directory that replaces it by rename() only
 * when cli_output_commit() succeeds; cli_output_abort() removes only that temporary file. A
 * device or FIFO (/dev/null, a pipe) is written in place; "-" is standard output; a directory,
 * socket or dangling link is refused. SIGINT, SIGTERM and SIGHUP remove the temporary file
 * before they end the command. */
typedef struct cli_output {
    evrec_out_file_t file;
    const char *path; /* as given */
    int err;          /* errno of the first failure, 0 while none; a caller may set it (a write
                         it made itself failed): cli_output_commit() then gives up */
    uint64_t bytes;   /* written so far */
} cli_output_t;
/* Open PATH as above. On failure reports "evrec: PATH: ..." and returns 0. */
int cli_output_open(cli_output_t *o, const char *path);
/* Open PATH for a writer that takes a file name (cairo): it writes the file cli_output_name()
 * gives, a temporary file (for a device or FIFO one in $TMPDIR, copied into it by
 * cli_output_commit()). Not with cli_output_write() or cli_output_stream(). Returns 0 after a
 * failure (reported), else 1. */
int cli_output_open_named(cli_output_t *o, const char *path);
/* The file to write for cli_output_open_named() (owned by `o`, valid until commit or abort). */
const char *cli_output_name(const cli_output_t *o);
/* Write all n bytes (retries short writes and EINTR). Returns 0 after a failure (remembered in
 * o->err; later writes do nothing), else 1. */
int cli_output_write(cli_output_t *o, const void *p, size_t n);
/* Finish: close, then rename the temporary file over PATH. On any failure (an earlier write,
 * close, rename) reports "evrec: PATH: cannot write: ...", removes the temporary file and
 * returns 0; 1 when PATH holds the whole output. */
int cli_output_commit(cli_output_t *o);
/* Give up: close and remove the temporary file (PATH is left as it was). */
void cli_output_abort(cli_output_t *o);
/* A stdio stream on an opened output, for writers that take a FILE * (stdout for "-"). The
 * stream owns the descriptor from then on: end it with cli_output_stream_close() before
 * cli_output_commit() or cli_output_abort(). NULL on failure (reported). */
FILE *cli_output_stream(cli_output_t *o);
/* Flush and close the stream of cli_output_stream() (stdout is only flushed); a failure is kept
 * in o->err, which cli_output_commit() reports. Returns 0 after a failure, else 1. */
int cli_output_stream_close(cli_output_t *o, FILE *f);

/* A progress bar on stderr for long commands: shown when stderr is a terminal and the work has
 * taken more than a second (`mode` 0), always (1, --progress) or never (-1, --quiet). */
typedef struct cli_progress {
    int mode;
    int shown;
    int tty;
    double start, next;
    const char *what;
} cli_progress_t;
void cli_progress_begin(cli_progress_t *p, int mode, const char *what);
/* `done` of `total` (bytes, say; total 0 = unknown); cheap enough to call every few thousand
 * items. */
void cli_progress_update(cli_progress_t *p, uint64_t done, uint64_t total);
/* Erase the bar (terminal) or end its line. */
void cli_progress_end(cli_progress_t *p);
/* End of the command's output on stdout: flushes it; when that fails or `ok` is 0 (an earlier
 * write failed) reports "writing the output failed". Returns 1 when everything was written. */
int cli_stdout_done(int ok);

/* A growable output line. */
typedef struct cli_buf {
    char *p;
    size_t len, cap;
} cli_buf_t;
/* Grow so that `more` bytes fit (exits with CLI_BAD_INPUT when memory runs out). */
void cli_buf_grow(cli_buf_t *b, size_t more);
/* The buffer's bytes in a block of exactly `len` bytes (the 4 KiB first capacity trimmed), for
 * tables that keep one short text per event type or field; the caller owns it (free()). The
 * buffer is left empty. NULL when it holds nothing. */
char *cli_buf_take(cli_buf_t *b);
static inline void cli_buf_reserve(cli_buf_t *b, size_t more)
{
    if (b->cap - b->len < more) {
        cli_buf_grow(b, more);
    }
}
static inline void cli_buf_put(cli_buf_t *b, const char *s, size_t n)
{
    cli_buf_reserve(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
}
static inline void cli_buf_puts(cli_buf_t *b, const char *s)
{
    cli_buf_put(b, s, strlen(s));
}
static inline void cli_buf_putc(cli_buf_t *b, char c)
{
    cli_buf_reserve(b, 1);
    b->p[b->len++] = c;
}
void cli_buf_u64(cli_buf_t *b, uint64_t v);
/* `v` in decimal into out[0..n), no terminator; returns n (1..20). */
size_t cli_u64_dec(char out[20], uint64_t v);
/** Append printf-formatted text (no size limit: the buffer grows). */
void cli_buf_printf(cli_buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_buf_hex(cli_buf_t *b, uint32_t v, unsigned digits);
/* A record's marker as CCore EventView draws it, after a blank: " [Push]", " [marker 9]" when it
 * has no name; nothing for EVREC_MARKER_NONE. */
void cli_buf_marker(cli_buf_t *b, uint8_t marker);
/* A 32-bit target address as nm and objdump print it: 0x and 8 lower-case digits. */
void cli_buf_address(cli_buf_t *b, uint32_t v);
/* A leaf field's value as `evrec dump` shows it: the enum value's name when it has one, else the
 * number in the field's display format (`info`: its FIELD_INFO entry, or NULL; `hex`: integers
 * without a format of their own in hex), then the unit after a space. */
void cli_buf_field_value(cli_buf_t *b, uint8_t kind, uint32_t value, const char *value_name,
                         const evrec_field_info_t *info, int hex);
/* The FIELD_INFO entry of a field in a meta-info's table (linear search), or NULL. */
const evrec_field_info_t *cli_field_info(const evrec_meta_t *m, uint32_t struct_id, uint32_t field_index);
void cli_buf_pad(cli_buf_t *b, size_t target_len);
/* A name as the user should see it: plain when it is made of printable characters without
 * spaces, '=' or quotes; else in double quotes with \" \\ and \xNN escapes. */
void cli_buf_name(cli_buf_t *b, const char *name);
/* Look at the locale (LC_CTYPE from the environment) once at start: under a UTF-8 locale names
 * and units print their printable UTF-8 characters as they are; else, and for control characters,
 * bidirectional controls and invalid UTF-8 always (cli_utf8_printable()), cli_buf_name() escapes
 * bytes as \xNN. */
void cli_text_init(void);
/* 1 when cli_text_init() found a UTF-8 locale. */
int cli_text_utf8(void);
/* Displayed width of cli_buf_name(name). */
size_t cli_name_width(const char *name);
/* Seconds with nanosecond precision, right-aligned in `width`: "     1.234567890". */
void cli_buf_seconds(cli_buf_t *b, uint64_t ns, unsigned width);
void cli_buf_free(cli_buf_t *b);

/* Class display name of an event: the name of the event its class id designates. Writes to b. */
void cli_buf_class(cli_buf_t *b, const evrec_reader_t *r, uint16_t class_id);

#endif /* EVREC_CLI_H */
