/* SPDX-License-Identifier: Apache-2.0 */
/* Running statements and printing their results: an aligned table (widths from the first 1,000
 * rows, the rest streamed in those columns; text a terminal shows safely: cli_text.h), CSV
 * (RFC 4180, the bytes as they are) or JSON (an array of objects). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_text.h"
#include "sql.h"

#define TABLE_BATCH 1000

/* A field byte for byte; quoted when it holds a comma, a quote or any control character (RFC 4180
 * allows them only there: a reader then keeps the field whole). */
static void csv_field(FILE *out, const char *s)
{
    int plain = 1;
    for (const unsigned char *p = (const unsigned char *)s; *p && plain; p++) {
        plain = *p >= ' ' && *p != ',' && *p != '"' && *p != 0x7F;
    }
    if (plain) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') {
            fputc('"', out);
        }
        fputc(*s, out);
    }
    fputc('"', out);
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            fprintf(out, "\\%c", *p);
        } else if (*p < 0x20) {
            fprintf(out, "\\u%04x", *p);
        } else {
            fputc(*p, out);
        }
    }
    fputc('"', out);
}

static void json_row(sqlite3_stmt *st, FILE *out, int first)
{
    int n = sqlite3_column_count(st);
    fputs(first ? "\n  {" : ",\n  {", out);
    for (int i = 0; i < n; i++) {
        if (i) {
            fputs(", ", out);
        }
        json_string(out, sqlite3_column_name(st, i));
        fputs(": ", out);
        switch (sqlite3_column_type(st, i)) {
        case SQLITE_NULL: fputs("null", out); break;
        case SQLITE_INTEGER: fprintf(out, "%lld", (long long)sqlite3_column_int64(st, i)); break;
        case SQLITE_FLOAT: /* SQLite's own text of a real (15 digits); JSON has no Inf or NaN */
            fputs(isfinite(sqlite3_column_double(st, i)) ? (const char *)sqlite3_column_text(st, i) : "null", out);
            break;
        default: json_string(out, (const char *)sqlite3_column_text(st, i)); break;
        }
    }
    fputc('}', out);
}

/* The text of a value as the table and CSV show it ("" for NULL). */
static const char *cell(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_type(st, i) == SQLITE_NULL ? NULL : sqlite3_column_text(st, i);
    return t ? (const char *)t : "";
}

typedef struct table_out {
    int n;
    int utf8; /* the locale is UTF-8: printable UTF-8 shows as it is */
    size_t *width;
    char **batch; /* rows x n texts of the first batch */
    size_t rows;
} table_out_t;

/* `text` as the table shows it to a terminal (malloc'd, NULL when memory ran out): as it is
 * when printable and not starting with a quote, else quoted with escapes (cli_text_quote()), so
 * that a value's control characters (ESC: colours, cursor moves) or bidirectional controls never
 * reach the terminal. */
static char *shown(const table_out_t *t, const char *text)
{
    size_t n = strlen(text);
    int as_is = text[0] != '"' && cli_text_printable(text, t->utf8);
    char *s = malloc(as_is ? n + 1u : 4u * n + 3u);
    if (s && as_is) {
        memcpy(s, text, n + 1u);
    } else if (s) {
        s[cli_text_quote(s, text, t->utf8, NULL)] = 0;
    }
    return s;
}

static void table_line(const table_out_t *t, FILE *out, char *const *cells)
{
    for (int i = 0; i < t->n; i++) {
        fprintf(out, "%s%-*s", i ? "  " : "", i + 1 < t->n ? (int)t->width[i] : 0, cells[i]);
    }
    fputc('\n', out);
}

/* Print the batch (header first) and free it. */
static void table_flush(table_out_t *t, sqlite3_stmt *st, FILE *out)
{
    char **head = calloc((size_t)t->n + 1u, sizeof *head);
    int ok = head != NULL;
    for (int i = 0; ok && i < t->n; i++) {
        const char *name = sqlite3_column_name(st, i); /* NULL only when memory ran out */
        ok = (head[i] = shown(t, name ? name : "")) != NULL;
        size_t w = ok ? strlen(head[i]) : 0;
        t->width[i] = w > t->width[i] ? w : t->width[i];
    }
    if (ok) {
        table_line(t, out, head);
    }
    for (int i = 0; head && i < t->n; i++) {
        free(head[i]);
    }
    free(head);
    for (size_t r = 0; r < t->rows; r++) {
        table_line(t, out, &t->batch[r * (size_t)t->n]);
        for (int i = 0; i < t->n; i++) {
            free(t->batch[r * (size_t)t->n + (size_t)i]);
        }
    }
    t->rows = 0;
}

static int table_row(table_out_t *t, sqlite3_stmt *st, FILE *out, int streaming)
{
    for (int i = 0; i < t->n; i++) {
        char *s = shown(t, cell(st, i));
        if (!s) {
            for (int k = 0; !streaming && k < i; k++) {
                free(t->batch[t->rows * (size_t)t->n + (size_t)k]); /* this row's cells so far */
            }
            return -1;
        }
        if (streaming) {
            fprintf(out, "%s%-*s", i ? "  " : "", i + 1 < t->n ? (int)t->width[i] : 0, s);
            free(s);
            continue;
        }
        size_t w = strlen(s);
        t->batch[t->rows * (size_t)t->n + (size_t)i] = s;
        t->width[i] = w > t->width[i] ? w : t->width[i];
    }
    if (streaming) {
        fputc('\n', out);
        return 0;
    }
    t->rows++;
    return 0;
}

static void csv_row(sqlite3_stmt *st, FILE *out, int header)
{
    int n = sqlite3_column_count(st);
    for (int i = 0; header && i < n; i++) {
        fputs(i ? "," : "", out);
        csv_field(out, sqlite3_column_name(st, i));
    }
    fputs(header && n ? "\n" : "", out);
    for (int i = 0; i < n; i++) {
        fputs(i ? "," : "", out);
        csv_field(out, cell(st, i));
    }
    fputc('\n', out);
}

/* One row in `fmt`; `count` rows came before it. Returns 0, or -1 when memory ran out. */
static int print_row(sqlite3_stmt *st, sql_out_format_t fmt, FILE *out, table_out_t *t, uint64_t count)
{
    if (fmt == SQL_OUT_CSV) {
        csv_row(st, out, count == 0);
    } else if (fmt == SQL_OUT_JSON) {
        json_row(st, out, count == 0);
    } else if (table_row(t, st, out, count >= TABLE_BATCH) != 0) {
        return -1;
    } else if (count + 1 == TABLE_BATCH) {
        table_flush(t, st, out);
    }
    return 0;
}

/* Step one prepared statement to its end, printing its rows. */
static int print_rows(sqlite3_stmt *st, sql_out_format_t fmt, FILE *out)
{
    int n = sqlite3_column_count(st), rc;
    table_out_t t = {n, cli_text_locale_utf8(), calloc((size_t)n + 1, sizeof(size_t)), NULL, 0};
    t.batch = fmt == SQL_OUT_TABLE ? calloc((size_t)TABLE_BATCH * (size_t)(n ? n : 1), sizeof(char *)) : NULL;
    if (!t.width || (fmt == SQL_OUT_TABLE && !t.batch)) {
        free(t.width);
        free(t.batch);
        return SQLITE_NOMEM;
    }
    uint64_t count = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (print_row(st, fmt, out, &t, count++) != 0) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    if (fmt == SQL_OUT_TABLE && count < TABLE_BATCH && n > 0 && (count > 0 || rc == SQLITE_DONE)) {
        table_flush(&t, st, out);
    } else if (fmt == SQL_OUT_JSON && n > 0) {
        fputs(count == 0 ? "]\n" : "\n]\n", out); /* sql_run() wrote the '[' */
    }
    for (size_t i = 0; i < t.rows * (size_t)n; i++) {
        free(t.batch[i]); /* a batch cut short by a failure */
    }
    free(t.width);
    free(t.batch);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int sql_run(sqlite3 *db, const char *sql, sql_out_format_t fmt, FILE *out, FILE *err)
{
    const char *tail = sql;
    while (tail && *tail) {
        sqlite3_stmt *st = NULL;
        const char *next = NULL;
        int rc = sqlite3_prepare_v2(db, tail, -1, &st, &next);
        char *fast = rc == SQLITE_OK && st ? sql_rewrite_count(db, tail, (size_t)(next - tail)) : NULL;
        if (fast) { /* a count per event type: from the counting pass (sql_rewrite.c) */
            sqlite3_finalize(st);
            st = NULL;
            rc = sqlite3_prepare_v2(db, fast, -1, &st, NULL);
            sqlite3_free(fast);
        }
        if (rc == SQLITE_OK && st) {
            if (fmt == SQL_OUT_JSON && sqlite3_column_count(st) > 0) {
                fputc('[', out);
            }
            rc = print_rows(st, fmt, out);
        }
        sqlite3_finalize(st);
        if (rc != SQLITE_OK) {
            fprintf(err, "evrec: sql: %s\n", sqlite3_errmsg(db));
            return -1;
        }
        tail = next;
    }
    return 0;
}
