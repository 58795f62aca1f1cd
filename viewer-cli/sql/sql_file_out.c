/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec sql -o OUT.sqlite`: every table and view copied into a new SQLite file as real tables.
 * The path is created with O_EXCL, so that an existing file is never replaced, and removed again
 * when the copy fails. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sql.h"

/* The names of the tables and views of the main schema, as one SQL statement per name. */
static int copy_all(sqlite3 *db, char *err, size_t err_size)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db,
                                "SELECT name FROM main.sqlite_schema WHERE type IN ('table', 'view') "
                                "AND name NOT LIKE 'sqlite_%' ORDER BY name",
                                -1, &st, NULL);
    while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        char *sql = sqlite3_mprintf("CREATE TABLE out.\"%w\" AS SELECT * FROM main.\"%w\"", name, name);
        rc = sql ? sqlite3_exec(db, sql, NULL, NULL, NULL) : SQLITE_NOMEM;
        sqlite3_free(sql);
        if (rc != SQLITE_OK) {
            snprintf(err, err_size, "table %s: %s", name, sqlite3_errmsg(db));
        }
    }
    if (rc != SQLITE_OK && !err[0]) {
        snprintf(err, err_size, "%s", sqlite3_errmsg(db));
    }
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? 0 : -1;
}

int sql_materialise(sqlite3 *db, const char *path, char *err, size_t err_size)
{
    err[0] = 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0) {
        snprintf(err, err_size, "%s: %s%s", path, strerror(errno),
                 errno == EEXIST ? " (evrec sql -o writes a new file only)" : "");
        return -1;
    }
    close(fd);
    char *sql = sqlite3_mprintf("ATTACH %Q AS out", path);
    int rc = sql ? sqlite3_exec(db, sql, NULL, NULL, NULL) : SQLITE_NOMEM;
    sqlite3_free(sql);
    int ok = rc == SQLITE_OK && sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK &&
             copy_all(db, err, err_size) == 0 && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
    if (!ok && !err[0]) {
        snprintf(err, err_size, "%s: %s", path, sqlite3_errmsg(db));
    }
    if (!ok) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    }
    if (rc == SQLITE_OK) {
        sqlite3_exec(db, "DETACH out", NULL, NULL, NULL);
    }
    if (!ok) {
        unlink(path);
        char extra[1100];
        snprintf(extra, sizeof extra, "%s-journal", path);
        unlink(extra);
    }
    return ok ? 0 : -1;
}
