/* SPDX-License-Identifier: Apache-2.0 */
/* The interactive prompt of `evrec sql`: libedit (BSD licence; its readline interface) for line
 * editing, its history kept in
 * $HOME/.evrec_sql_history; a statement runs when the input so far is complete
 * (sqlite3_complete(): it ends in ';'); a few dot commands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <editline/readline.h>

#include "sql.h"

static void history_path(char *out, size_t size)
{
    const char *home = getenv("HOME");
    snprintf(out, size, "%s/.evrec_sql_history", home && *home ? home : ".");
}

/* A dot command; returns 1 to leave the prompt. */
static int dot_command(sqlite3 *db, const char *line, sql_out_format_t *fmt)
{
    char arg[256] = "";
    if (strncmp(line, ".quit", 5) == 0 || strncmp(line, ".exit", 5) == 0) {
        return 1;
    }
    if (strncmp(line, ".tables", 7) == 0) {
        sql_run(db, "SELECT name, type FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name;", *fmt,
                stdout, stderr);
    } else if (sscanf(line, ".schema %255s", arg) == 1) {
        char *q = sqlite3_mprintf("SELECT name AS column, type FROM pragma_table_info(%Q);", arg);
        if (q) {
            sql_run(db, q, *fmt, stdout, stderr);
        }
        sqlite3_free(q);
    } else if (sscanf(line, ".mode %255s", arg) == 1) {
        sql_out_format_t f = strcmp(arg, "csv") == 0    ? SQL_OUT_CSV
                             : strcmp(arg, "json") == 0 ? SQL_OUT_JSON
                                                        : SQL_OUT_TABLE;
        if (f == SQL_OUT_TABLE && strcmp(arg, "table") != 0) {
            fprintf(stderr, "evrec: sql: .mode expects table, csv or json\n");
        } else {
            *fmt = f;
        }
    } else {
        fputs(".tables  .schema TABLE  .mode table|csv|json  .quit\n", stderr);
    }
    return 0;
}

/* Append `line` to the statement being typed. Returns 0 when memory ran out. */
static int append(char **stmt, size_t *len, const char *line)
{
    size_t n = strlen(line);
    char *p = realloc(*stmt, *len + n + 2);
    if (!p) {
        return 0;
    }
    memcpy(p + *len, line, n);
    p[*len + n] = '\n';
    p[*len + n + 1] = 0;
    *stmt = p;
    *len += n + 1;
    return 1;
}

int sql_shell(sqlite3 *db, sql_out_format_t fmt)
{
    char hist[4096];
    history_path(hist, sizeof hist);
    using_history();
    read_history(hist);
    char *stmt = NULL;
    size_t len = 0;
    char *line;
    while ((line = readline(len ? "   ...> " : "evrec> ")) != NULL) {
        if (len == 0 && line[0] == '.') {
            add_history(line);
            int quit = dot_command(db, line, &fmt);
            free(line);
            if (quit) {
                break;
            }
            continue;
        }
        int ok = line[0] == 0 && len == 0 ? 1 : append(&stmt, &len, line);
        free(line);
        if (ok && stmt && sqlite3_complete(stmt)) {
            stmt[len - 1] = 0; /* the last newline */
            add_history(stmt);
            sql_run(db, stmt, fmt, stdout, stderr);
            fflush(stdout);
            len = 0;
        }
    }
    free(stmt);
    write_history(hist);
    history_truncate_file(hist, 1000);
    return 0;
}
