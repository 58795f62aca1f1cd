/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec sql FILE... [-c QUERY] [--format table|csv|json] [-o OUT.sqlite]`: SQL over recordings,
 * through SQLite virtual tables over the reader (viewer-cli/sql, docs/SQL.md). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "sql.h"

static const char help[] =
    "usage: evrec sql [-c QUERY] [--format table|csv|json] [-o OUT.sqlite]\n"
    "                 [--tick-hz HZ] [--time-freq HZ] FILE...\n"
    "\n"
    "SQL (SQLite) over one or more recordings. The tables are virtual, read from the files by\n"
    "each query (nothing is loaded in full): record (idx, ts in ns, event, lane, file, ticks,\n"
    "gap), one table per event type (its fields as typed columns, nested struct members as\n"
    "frame_number, enums as the value's name plus <field>_raw), span, counter, track, loss\n"
    "(drops, overwritten records, damaged ranges), task_state and the sched view (kernel traces),\n"
    "file (path, schema hash, clock, counts), event_type (records per type, one fast pass).\n"
    "Several files form one database: every table has a `file` column (the file's position on\n"
    "the command line, from 0). Filters on idx, ts, event and file are pushed down to the\n"
    "reader. Every table and column, and worked queries: SQL.md (share/doc/evrec/).\n"
    "\n"
    "options:\n"
    "  -c, --command QUERY  run QUERY (one or more statements) and print the results; without\n"
    "                       -c and -o: an interactive prompt with history (or the statements\n"
    "                       on standard input when it is not a terminal)\n"
    "  --format FMT         table (aligned columns, default), csv (RFC 4180 with a header) or\n"
    "                       json (one array of objects per statement). The table is for a\n"
    "                       terminal: a value with a control character (ESC...), a bidirectional\n"
    "                       control or bytes the locale cannot show is quoted with \\xNN escapes,\n"
    "                       as `evrec info` shows it. csv and json are for programs: csv keeps\n"
    "                       every byte (a field with a control character, comma or quote is\n"
    "                       quoted), json escapes control characters as \\u00NN\n"
    "  -o, --output FILE    write every table into a new SQLite file FILE (an existing path is\n"
    "                       refused, never replaced)\n"
    "  --tick-hz HZ         EventControl Tick was recorded at HZ: derive the timestamp frequency\n"
    "  --time-freq HZ       timestamp frequency to use instead of the file's\n"
    "  -h, --help           this text\n"
    "\n"
    "Exit status: 0 done, 1 a file that cannot be opened, a failed statement or a failed write,\n"
    "2 bad usage.\n";

typedef struct sql_opts {
    evrec_reader_options_t ropt;
    const char *query, *out;
    sql_out_format_t fmt;
} sql_opts_t;

static int parse(int argc, char **argv, sql_opts_t *o)
{
    enum { OPT_FORMAT = 256 };
    static const struct option longopts[] = {
        {"command", required_argument, NULL, 'c'},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"output", required_argument, NULL, 'o'},
        {"tick-hz", required_argument, NULL, CLI_OPT_TICK_HZ},
        {"time-freq", required_argument, NULL, CLI_OPT_TIME_FREQ},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    cli_getopt_begin();
    int c, rc;
    while ((c = getopt_long(argc, argv, ":c:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'c': o->query = optarg; break;
        case 'o': o->out = optarg; break;
        case OPT_FORMAT:
            if (strcmp(optarg, "table") == 0 || strcmp(optarg, "csv") == 0 || strcmp(optarg, "json") == 0) {
                o->fmt = optarg[0] == 't' ? SQL_OUT_TABLE : optarg[0] == 'c' ? SQL_OUT_CSV : SQL_OUT_JSON;
                break;
            }
            return cli_usage_error(&cli_cmd_sql, "--format expects table, csv or json, not '%s'", optarg);
        default:
            if ((rc = cli_common_option(&cli_cmd_sql, c, argv, &o->ropt)) >= 0) {
                return rc;
            }
            break;
        }
    }
    if (optind >= argc) {
        return cli_usage_error(&cli_cmd_sql, "missing FILE");
    }
    for (int i = optind; i < argc; i++) {
        if (strcmp(argv[i], "-") == 0) {
            return cli_usage_error(&cli_cmd_sql, "FILE '-': every query reads the files again, standard input "
                                                 "cannot be one (save it to a file first)");
        }
    }
    return -1;
}

/* The statements on standard input (not a terminal), run as one script. */
static int run_stdin(sqlite3 *db, sql_out_format_t fmt)
{
    cli_buf_t b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
        cli_buf_put(&b, chunk, n);
    }
    cli_buf_putc(&b, 0);
    int rc = sql_run(db, b.p, fmt, stdout, stderr);
    cli_buf_free(&b);
    return rc;
}

static int run(int argc, char **argv)
{
    sql_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    sql_db_t *db = NULL;
    char err[1400];
    if (sql_db_open(&db, (const char *const *)(argv + optind), (size_t)(argc - optind), &o.ropt, err,
                    sizeof err) != 0) {
        cli_error("%s", err);
        return CLI_BAD_INPUT;
    }
    sqlite3 *h = sql_db_handle(db);
    int ok = 1;
    if (o.query) {
        ok = sql_run(h, o.query, o.fmt, stdout, stderr) == 0;
    } else if (!o.out) {
        ok = (isatty(STDIN_FILENO) ? sql_shell(h, o.fmt) : run_stdin(h, o.fmt)) == 0;
    }
    if (ok && o.out && sql_materialise(h, o.out, err, sizeof err) != 0) {
        cli_error("%s", err);
        ok = 0;
    }
    sql_db_close(db);
    return cli_stdout_done(1) && ok ? CLI_OK : CLI_BAD_INPUT;
}

const cli_command_t cli_cmd_sql = {
    .name = "sql",
    .summary = "query recordings with SQL (SQLite virtual tables over the reader)",
    .help = help,
    .run = run,
};
