/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file cli_select.h
 * @brief Record selection shared by the viewer's commands (`dump`, `stats`, and the commands
 * that read a window of a recording): event types (`--event`), classes (`--class`), a field
 * expression (`--where`), a window by time or record index (`--from`, `--to`) and a count
 * (`--limit`).
 *
 * Use: add ::CLI_SELECT_LONGOPTS to the command's getopt_long table and "n:" to its short
 * options; pass every option code to cli_select_option() first; after opening the reader,
 * cli_select_compile(); then read with cli_select_next() (which skips to the window's start) and
 * ask cli_select_check() per record (and cli_select_full() before reading the next one). The `--where` text is parsed once into a small tree and compiled against the
 * file's meta-info: every field path is resolved per event type once (packed offset, width, the
 * constant an enum value name stands for), so the check of a record neither allocates nor
 * compares strings.
 *
 * **Context:** host tool, one thread.
 */
#ifndef EVREC_CLI_SELECT_H
#define EVREC_CLI_SELECT_H

#include <stdint.h>

#include "cli.h"

/** getopt_long codes of the selection options (`--limit` is 'n', also `-n N`). */
enum { CLI_OPT_EVENT = 0x1100, CLI_OPT_CLASS, CLI_OPT_WHERE, CLI_OPT_FROM, CLI_OPT_TO };

/** The selection options' entries of a `struct option` table. */
#define CLI_SELECT_LONGOPTS                                                                                       \
    {"event", required_argument, NULL, CLI_OPT_EVENT}, {"class", required_argument, NULL, CLI_OPT_CLASS},         \
        {"where", required_argument, NULL, CLI_OPT_WHERE}, {"from", required_argument, NULL, CLI_OPT_FROM},       \
        {"to", required_argument, NULL, CLI_OPT_TO},                                                              \
    {                                                                                                             \
        "limit", required_argument, NULL, 'n'                                                                     \
    }

/** The options' text for a command's --help (a string literal, to be concatenated). */
#define CLI_SELECT_HELP                                                                                           \
    "selection (a record is shown when it passes all of them):\n"                                                 \
    "  --event NAME,...  only these event types (repeatable)\n"                                                   \
    "  --class NAME,...  only events of these classes (the class's event name; repeatable)\n"                     \
    "  --where EXPR      only records whose fields satisfy EXPR: comparisons FIELD OP VALUE\n"                    \
    "                    with OP one of == != < <= > >=, FIELD a field or a dotted struct member\n"               \
    "                    (frame.number), VALUE a number (42, 0x2A) or an enum value name (also\n"                 \
    "                    those named at run time; \"quoted\" when it has blanks), combined with\n"                \
    "                    and, or, not and parentheses. A record without the field does not match\n"               \
    "                    (not even with != or under not). Example:\n"                                             \
    "                      --where 'stage == Encode and not (frame.number < 10 or type == Start)'\n"              \
    "  --from T, --to T  only records in the window, both ends included. T is a time since the\n"                 \
    "                    first record (the time base dump prints) with a unit: 1.5s, 20ms, 250us,\n"              \
    "                    800ns; or #N, the record index (0-based, Start included)\n"                              \
    "  -n, --limit N     stop after N selected records\n"

/** One end of the window: a time (ns since the first record) or a 0-based record index. */
typedef struct cli_bound {
    int set;          /**< 0: open end */
    int is_index;     /**< 1: `#N` */
    uint64_t value;   /**< ns, or the record index */
    const char *text; /**< as typed, for messages */
} cli_bound_t;

#define CLI_SELECT_MAX_LISTS 32u

/** What the options asked for (filled by cli_select_option(); zero-initialise). */
typedef struct cli_select_spec {
    const char *events[CLI_SELECT_MAX_LISTS]; /**< --event values (comma lists) */
    unsigned event_lists;
    const char *classes[CLI_SELECT_MAX_LISTS]; /**< --class values */
    unsigned class_lists;
    const char *where; /**< --where EXPR, or NULL */
    cli_bound_t from, to;
    uint64_t limit; /**< --limit N (has_limit) */
    int has_limit;
} cli_select_spec_t;

/** Parsed `--where` (opaque). */
typedef struct cli_where cli_where_t;
/** Compiled selection (opaque). */
typedef struct cli_select cli_select_t;

/** A problem in a `--where` text: 1-based byte column and an English message. */
typedef struct cli_where_error {
    unsigned column;
    char message[512];
} cli_where_error_t;

/**
 * @brief Take a selection option, if `c` is one. Syntax of values is checked here (a bad
 * `--from` is a usage error at once); names and fields are checked by cli_select_compile().
 * `arg` (getopt's optarg, pointing into argv) is kept, not copied.
 * @retval -1 taken.
 * @retval -2 `c` is not a selection option.
 * @retval CLI_USAGE a bad value, or a list option given more than ::CLI_SELECT_MAX_LISTS times
 * (the message is printed). **Context:** one thread.
 */
int cli_select_option(const cli_command_t *cmd, cli_select_spec_t *spec, int c, const char *arg);

/**
 * @brief Parse a time or record index: `#N`, or a decimal number with a unit `s`, `ms`, `us`,
 * `ns` ("1.5ms", "20us"; `0` alone is allowed). At most ns precision.
 * @param[out] out the bound (value in ns, or the index); `text` is kept as a pointer, not copied.
 * @retval 1 parsed.
 * @retval 0 not a time with a unit or `#N`, finer than 1 ns, or above 2^64-1.
 * **Context:** pure.
 */
int cli_parse_bound(const char *text, cli_bound_t *out);

/**
 * @brief Parse a `--where` expression. Grammar: `or := and ("or" and)*`, `and := not ("and"
 * not)*`, `not := "not" not | "(" or ")" | FIELD OP VALUE`; FIELD is a dotted path
 * (`frame.number`), OP one of == != < <= > >=, VALUE a number (decimal, 0x hex), an enum value
 * name, or a "quoted" name. `&&`, `||`, `!` are accepted for and, or, not.
 * @param[out] out the tree (free with cli_where_free()), NULL on failure.
 * At most 256 comparisons and operators, nested at most 64 deep.
 * @param[out] out the tree (the caller owns it: cli_where_free()), NULL on failure.
 * @param[out] err on failure: the 1-based byte column and what was expected there.
 * @retval 1 parsed.
 * @retval 0 syntax error (or out of memory: column 0).
 * **Context:** pure (allocates).
 */
int cli_where_parse(const char *expr, cli_where_t **out, cli_where_error_t *err);
/**
 * @brief Free a parsed expression; NULL is ignored.
 * **Context:** one thread.
 */
void cli_where_free(cli_where_t *w);

/**
 * @brief Print a `--where` problem as "evrec: CMD: --where: column N: message", then the
 * expression and a caret line under the column (every line starts with "evrec: "); a column
 * of 0 prints the message alone. **Context:** writes stderr.
 */
void cli_where_report(const cli_command_t *cmd, const char *expr, const cli_where_error_t *err);

/**
 * @brief Compile a selection against an open reader (its meta-info and clock).
 * A time bound needs the clock: this may make the reader derive it from the ticks (a pre-pass,
 * as evrec_reader_time_freq()). `spec` may be freed afterwards.
 * @param[out] out the selection (the caller owns it: cli_select_free()); NULL on failure.
 * @retval -1 ready.
 * @retval CLI_USAGE an unknown event or class name (the message lists those that exist), a bad
 * `--where` (syntax, a field no selected event has, an enum value name the field's enum lacks:
 * printed with its column), a time bound on a recording whose clock is unknown.
 * @retval CLI_BAD_INPUT out of memory.
 * **Context:** one thread; prints its errors on stderr.
 */
int cli_select_compile(const cli_command_t *cmd, const cli_select_spec_t *spec, evrec_reader_t *r,
                       cli_select_t **out);
/**
 * @brief Free a selection; NULL is ignored.
 * **Context:** one thread.
 */
void cli_select_free(cli_select_t *s);

/** Answer of cli_select_check(). */
enum { CLI_SEL_NO = 0, CLI_SEL_YES = 1, CLI_SEL_STOP = 2 };

/**
 * @brief Is this record selected? Counts it toward --limit when it is.
 * @retval CLI_SEL_YES selected.
 * @retval CLI_SEL_NO not selected.
 * @retval CLI_SEL_STOP no later record can be selected (past `--to #N`, or far enough past a
 * `--to` time: see the file's note on steps back): stop reading.
 * No allocation, no string compare. **Context:** one thread.
 */
int cli_select_check(cli_select_t *s, const evrec_record_t *rec);

/**
 * @brief The next record to give cli_select_check(): evrec_reader_next(), except that the first
 * call fast-forwards to the start of the window (evrec_reader_next_at(): the records before it
 * are read but not returned).
 * @retval EVREC_OK a record in `rec` (reader-owned, valid until the next call).
 * @retval EVREC_E_END the stream ended intact.
 * @retval other the reader's sticky error.
 * **Context:** one thread.
 */
evrec_status cli_select_next(cli_select_t *s, evrec_reader_t *r, evrec_record_t *rec);

/**
 * @brief 1 when --limit records have been selected: read no more.
 * **Context:** one thread.
 */
int cli_select_full(const cli_select_t *s);

/** @brief What cli_select_source_next() reads: a compiled selection over its reader. */
typedef struct cli_select_source {
    cli_select_t *sel;
    evrec_reader_t *r;
} cli_select_source_t;

/**
 * @brief The next selected record in file order, as an evrec_order_source_fn (evrec_reader_order.h)
 * with a ::cli_select_source_t as `ctx`: the loop cli_select_next() / cli_select_check() /
 * cli_select_full() of the file comment, for commands that print in time order.
 * @retval EVREC_OK a selected record.
 * @retval EVREC_E_END --limit reached, no later record can be
 * selected, or the recording ended intact. @retval other the reader's sticky error.
 * **Context:** one thread.
 */
evrec_status cli_select_source_next(void *ctx, evrec_record_t *rec);

/** @brief 1 when anything narrows the selection (for the commands' "selection:" line).
 * **Context:** pure. */
int cli_select_active(const cli_select_spec_t *spec);

#endif /* EVREC_CLI_SELECT_H */
