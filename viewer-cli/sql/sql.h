/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec sql`: recordings as an SQLite database of virtual tables over the reader (docs/SQL.md).
 * sql_db_open() opens the files, registers the modules and declares every table (record, one per
 * event type, span, counter, track, loss, task_state, sched, file) in the connection's main
 * schema; queries then read the files through the reader, nothing is loaded in full. */
#ifndef EVREC_SQL_H
#define EVREC_SQL_H

#include <stddef.h>
#include <stdio.h>

#include <sqlite3.h>

#include "evrec/evrec_reader.h"

typedef struct sql_db sql_db_t;

/* Open `n` recordings (paths, caller-owned, kept until sql_db_close()) with the clock options
 * `ropt` (NULL: defaults) into an in-memory SQLite connection with every table declared.
 * Returns 0 and *out on success; else -1 with a message naming the file in err[0..err_size).
 * A damaged file opens (its intact records are rows; its damage is in `loss`); only a file whose
 * header or meta-info cannot be read fails. Context: one thread. */
int sql_db_open(sql_db_t **out, const char *const *paths, size_t n, const evrec_reader_options_t *ropt, char *err,
                size_t err_size);
/* The connection (owned by the database object). */
sqlite3 *sql_db_handle(const sql_db_t *db);
/* Close the connection and the readers. NULL is ignored. */
void sql_db_close(sql_db_t *db);

/* Output formats of sql_run(). */
typedef enum { SQL_OUT_TABLE = 0, SQL_OUT_CSV, SQL_OUT_JSON } sql_out_format_t;

/* Run every statement of `sql` and print each result to `out` in `fmt` (table: aligned
 * columns under a header; csv: RFC 4180 with a header line; json: one array of objects per
 * statement). Errors go to `err` as "evrec: sql: <message>". Returns 0 when every statement
 * ran, else -1 (the statements before the failing one have printed their rows). */
int sql_run(sqlite3 *db, const char *sql, sql_out_format_t fmt, FILE *out, FILE *err);

/* The statement sql[0, len), when it is `SELECT event, count(*) [[AS] alias] FROM record GROUP BY
 * event` (any case and spacing, an optional `;`) and `record` and `event_type` are the
 * database's own: the same query on `event_type` (one counting pass per file instead of a row per
 * record), giving the same rows and column names; sqlite3_malloc'd. NULL otherwise. */
char *sql_rewrite_count(sqlite3 *db, const char *sql, size_t len);

/* Copy every table and view of the main schema into a new SQLite file at `path` (real tables,
 * the same names and columns). The path must not exist: it is created exclusively and removed
 * again when the copy fails (an existing file is never replaced). Returns 0 on success, else -1
 * with a message in err[0..err_size). */
int sql_materialise(sqlite3 *db, const char *path, char *err, size_t err_size);

/* The interactive prompt: reads statements (ending in ';') from the terminal with line editing
 * and history (libedit; history kept in $HOME/.evrec_sql_history) and prints their results
 * as sql_run() does. Dot commands: .tables, .schema [TABLE], .mode table|csv|json, .quit.
 * Returns 0 at end of input or .quit. */
int sql_shell(sqlite3 *db, sql_out_format_t fmt);

#endif /* EVREC_SQL_H */
