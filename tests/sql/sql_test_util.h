/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers of the `evrec sql` tests: recordings made by the demo, queries as text. */
#ifndef EVREC_SQL_TEST_UTIL_H
#define EVREC_SQL_TEST_UTIL_H

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../common/test_tmp.h"
#include "sql.h"

/* A growing text. */
typedef struct text {
    char *p;
    size_t len, cap;
} text_t;

static inline void text_printf(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void text_printf(text_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    cr_assert(n >= 0);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = (t->len + (size_t)n + 1) * 2;
        t->p = realloc(t->p, t->cap);
        cr_assert_not_null(t->p);
    }
    va_start(ap, fmt);
    vsnprintf(t->p + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* Every row of `sql` as "a|b|c\n" (NULL as an empty field); "" when no row. Caller frees. */
static inline char *q_text(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db));
    text_t t = {0};
    text_printf(&t, "%s", "");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            const unsigned char *v = sqlite3_column_text(st, i);
            text_printf(&t, "%s%s", i ? "|" : "", v ? (const char *)v : "");
        }
        text_printf(&t, "\n");
    }
    cr_assert_eq(rc, SQLITE_DONE, "%s: %s", sql, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return t.p;
}

/* The one integer `sql` gives. */
static inline long long q_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s: no row", sql);
    long long v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* Run a command line through the shell; its exit status. */
static inline int run_cmd(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int run_cmd(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A demo recording of `frames` frames at 1,000 frames/s (a free-running demo on a loaded machine
 * may drop most frames and record few events) in a new scratch folder: its path in out[size].
 * `extra`: more options of the demo, or "". */
static inline void make_demo(char *out, size_t size, unsigned frames, const char *extra)
{
    char *dir = test_tmp_dir("sql");
    cr_assert_not_null(dir);
    snprintf(out, size, "%s/demo.evr", dir);
    free(dir);
    cr_assert_eq(run_cmd("'%s' -o '%s' --frames %u --fps 1000 %s >/dev/null", EVREC_DEMO_PATH, out, frames, extra),
                 0);
}

/* The database over `n` files. */
static inline sql_db_t *open_db(const char *const *paths, size_t n)
{
    sql_db_t *db = NULL;
    char err[1024];
    cr_assert_eq(sql_db_open(&db, paths, n, NULL, err, sizeof err), 0, "%s", err);
    return db;
}

#endif /* EVREC_SQL_TEST_UTIL_H */
