/* SPDX-License-Identifier: Apache-2.0 */
/* The count per event type, `SELECT event, count(*) FROM record GROUP BY event`, answered from
 * `event_type` (one counting pass of the reader per file, evrec_reader_summarize()) instead of
 * SQLite stepping one row per record: SQLite pushes no aggregate into a virtual table, and its
 * per-row work (about 100 ns a row on a loaded machine) was the bottleneck. Only that exact shape
 * (an optional alias, any case, any spacing) is rewritten, and only while `record` and
 * `event_type` are this database's own tables; the answer is the same rows with the same column
 * names. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sql.h"

typedef struct tok {
    const char *p;
    size_t n;
} tok_t;

/* Splits s[0, len) into words (letters, digits, _), double-quoted identifiers and single
 * characters; spaces and comments are skipped. Returns the tokens, or SIZE_MAX when there are
 * more than `max` or the text has something else (a string, a bracket-quoted name). */
static size_t lex(const char *s, size_t len, tok_t *t, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        size_t j = i + 1;
        if (isspace(c)) {
            i++;
            continue;
        }
        if (c == '-' && j < len && s[j] == '-') {
            while (i < len && s[i] != '\n') {
                i++;
            }
            continue;
        }
        if (isalnum(c) || c == '_') {
            while (j < len && (isalnum((unsigned char)s[j]) || s[j] == '_')) {
                j++;
            }
        } else if (c == '"') {
            while (j < len && s[j] != '"') {
                j++;
            }
            if (j++ >= len) {
                return SIZE_MAX;
            }
        } else if (c == '\'' || c == '[' || c == '`' || c == '/') {
            return SIZE_MAX;
        }
        if (n == max) {
            return SIZE_MAX;
        }
        t[n].p = s + i;
        t[n++].n = j - i;
        i = j;
    }
    return n;
}

static int is(const tok_t *t, const char *word)
{
    return t->n == strlen(word) && strncasecmp(t->p, word, t->n) == 0;
}

/* 1 when `record` and `event_type` name this database's scanning and derived tables (a TEMP
 * table of either name would shadow them). */
static int own_tables(sqlite3 *db)
{
    static const char q[] = "SELECT (SELECT count(*) FROM temp.sqlite_schema WHERE lower(name) IN "
                            "('record', 'event_type')) = 0 AND (SELECT count(*) FROM main.sqlite_schema "
                            "WHERE lower(name) IN ('record', 'event_type') AND sql LIKE "
                            "'CREATE VIRTUAL TABLE%USING evrec_%') = 2";
    sqlite3_stmt *st = NULL;
    int ok = sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
             sqlite3_column_int(st, 0) == 1;
    sqlite3_finalize(st);
    return ok;
}

/* 1 when the n tokens are `SELECT event , count ( * ) [[AS] alias] FROM record GROUP BY event`;
 * *alias = the alias' token (0: none), *k = the token FROM's. */
static int count_shape(const tok_t *t, size_t n, size_t *alias, size_t *k)
{
    if (n < 12 || n > 14 || !is(&t[0], "select") || !is(&t[1], "event") || !is(&t[2], ",") ||
        !is(&t[3], "count") || !is(&t[4], "(") || !is(&t[5], "*") || !is(&t[6], ")")) {
        return 0;
    }
    *k = n == 14 && is(&t[7], "as") ? 8u : 7u;
    *alias = 0;
    if (n >= 13) {
        *alias = (*k)++;
        unsigned char c = (unsigned char)t[*alias].p[0];
        if (!(isalpha(c) || c == '_' || c == '"') || is(&t[*alias], "from")) {
            return 0;
        }
    }
    return *k + 5 == n && is(&t[*k], "from") && is(&t[*k + 1], "record") && is(&t[*k + 2], "group") &&
           is(&t[*k + 3], "by") && is(&t[*k + 4], "event");
}

char *sql_rewrite_count(sqlite3 *db, const char *sql, size_t len)
{
    tok_t t[16];
    size_t n = lex(sql, len, t, 16), alias, k;
    if (n != SIZE_MAX && n > 0 && is(&t[n - 1], ";")) {
        n--;
    }
    if (n == SIZE_MAX || !count_shape(t, n, &alias, &k) || !own_tables(db)) {
        return NULL;
    }
    /* the column names SQLite gives the original: the alias, else the text of count(...) */
    if (alias) {
        return sqlite3_mprintf("SELECT %.*s, sum(count) AS %.*s FROM event_type WHERE count > 0 GROUP BY %.*s",
                               (int)t[1].n, t[1].p, (int)t[alias].n, t[alias].p, (int)t[k + 4].n, t[k + 4].p);
    }
    char *name = sqlite3_mprintf("%.*s", (int)(t[6].p + 1 - t[3].p), t[3].p);
    char *out = name ? sqlite3_mprintf("SELECT %.*s, sum(count) AS \"%w\" FROM event_type WHERE count > 0 "
                                       "GROUP BY %.*s",
                                       (int)t[1].n, t[1].p, name, (int)t[k + 4].n, t[k + 4].p)
                     : NULL;
    sqlite3_free(name);
    return out;
}
