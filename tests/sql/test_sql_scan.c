/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec sql`: constraints pushed down to the reader give the rows of a full scan (the same
 * constraint written `+column` is not pushed down, SQLite filters it); a damaged, a truncated
 * and a dropping recording have `loss` rows naming what was lost; the command line: -c with
 * --format csv, statements on standard input, -o writes a new SQLite file and never replaces an
 * existing one; an upper bound on `ts` ends the scan. */
#include <sys/stat.h>

#include "evrec/evrec_reader.h"
#include "reader_fixtures.h"
#include "sql_internal.h"
#include "sql_test_util.h"

/* `select` with `where` pushed down and not: the same rows in the same order. */
static void same_rows(sqlite3 *h, const char *select, const char *where_pushed, const char *where_plain)
{
    char *a = sqlite3_mprintf("%s WHERE %s", select, where_pushed);
    char *b = sqlite3_mprintf("%s WHERE %s", select, where_plain);
    char *ra = q_text(h, a), *rb = q_text(h, b);
    cr_assert_str_eq(ra, rb, "%s", a);
    free(ra);
    free(rb);
    sqlite3_free(a);
    sqlite3_free(b);
}

Test(sql, pushdown_gives_the_rows_of_a_full_scan)
{
    char path[TEST_TMP_PATH];
    make_demo(path, sizeof path, 300, "");
    const char *paths[] = {path, path};
    sql_db_t *db = open_db(paths, 2);
    sqlite3 *h = sql_db_handle(db);
    long long n = q_int(h, "SELECT count(*) FROM record WHERE +file = 0");
    cr_assert(n > 1000, "%lld records", n);
    char *sql = sqlite3_mprintf("SELECT ts FROM record WHERE +idx = %lld AND +file = 0", n / 2);
    long long mid = q_int(h, sql);
    sqlite3_free(sql);
    cr_assert(mid > 0);
    static const char *const clauses[] = {
        "ts >= %1$lld",
        "ts > %1$lld",
        "ts = %1$lld",
        "ts < %1$lld",
        "ts <= %1$lld",
        "ts >= %1$lld AND ts < %1$lld + 50000",
        "ts >= %1$lld.5",
        "ts > -3",
        "ts >= 'x'",
        "ts <= 'x'",
        "ts = NULL",
        "idx >= 100",
        "idx > 100 AND idx < 200",
        "idx = 5",
        "idx <= 7",
        "idx > 1.5",
        "idx < -1",
        "idx = 2.5",
        "event = 'QueueEvent'",
        "event = 'NoSuchEvent'",
        "event = 'QueueEvent' AND ts >= %1$lld AND idx < 5000",
        "file = 1 AND idx >= 4000",
        "file = 7",
        "ts >= %1$lld AND file = 0",
    };
    for (size_t i = 0; i < sizeof clauses / sizeof clauses[0]; i++) {
        char pushed[300], plain[300], fmt[300];
        snprintf(pushed, sizeof pushed, clauses[i], mid);
        /* the plain form: every column reference as +column */
        snprintf(fmt, sizeof fmt, "%s", clauses[i]);
        size_t o = 0;
        for (const char *s = pushed; *s && o + 2 < sizeof plain; s++) {
            int word_start = s == pushed || s[-1] == ' ';
            if (word_start && (strncmp(s, "ts ", 3) == 0 || strncmp(s, "idx ", 4) == 0 ||
                               strncmp(s, "event ", 6) == 0 || strncmp(s, "file ", 5) == 0)) {
                plain[o++] = '+';
            }
            plain[o++] = *s;
        }
        plain[o] = 0;
        same_rows(h, "SELECT file, idx, ts, event, lane FROM record", pushed, plain);
        same_rows(h, "SELECT * FROM QueueEvent", pushed, plain);
    }
    /* the count per event type (answered by a counting pass) and the same through a full scan */
    char *a = q_text(h, "SELECT event, count(*) FROM record GROUP BY event");
    char *b = q_text(h, "SELECT event, count(*) FROM record WHERE +idx >= 0 GROUP BY event ORDER BY event");
    cr_assert_str_eq(a, b);
    free(a);
    free(b);
    cr_assert_eq(q_int(h, "SELECT count(*) FROM record"), 2 * n);
    /* joins on idx: one look-up per span, ascending (the parked reader goes on), descending
     * (opened again) and across the two files */
    static const char *const joins[][2] = {
        {"SELECT s.file, s.begin_idx, q.idx, q.ts, q.thread_raw FROM span s JOIN QueueWait q ON q.file = s.file "
         "AND q.idx = s.begin_idx WHERE s.name = 'QueueSleep' AND s.begin_idx < 1500",
         "SELECT s.file, s.begin_idx, q.idx, q.ts, q.thread_raw FROM span s JOIN QueueWait q ON +q.file = s.file "
         "AND +q.idx = s.begin_idx WHERE s.name = 'QueueSleep' AND s.begin_idx < 1500"},
        {"SELECT s.file, r.idx, r.event FROM (SELECT * FROM span ORDER BY end_idx DESC LIMIT 60) s JOIN record r "
         "ON r.file = s.file AND r.idx = s.end_idx",
         "SELECT s.file, r.idx, r.event FROM (SELECT * FROM span ORDER BY end_idx DESC LIMIT 60) s JOIN record r "
         "ON +r.file = s.file AND +r.idx = s.end_idx"},
        {"SELECT r.idx, r.event FROM record r WHERE r.idx IN (3, 4, 4, 9, 2, 5000, 5001) AND file = 1",
         "SELECT r.idx, r.event FROM record r WHERE +r.idx IN (3, 4, 4, 9, 2, 5000, 5001) AND +file = 1"},
    };
    for (size_t i = 0; i < sizeof joins / sizeof joins[0]; i++) {
        a = q_text(h, joins[i][0]);
        b = q_text(h, joins[i][1]);
        cr_assert_str_eq(a, b, "%s", joins[i][0]);
        cr_assert(strlen(a) > 10);
        free(a);
        free(b);
    }
    /* `event` alone without an order: rows in file order, as a scan gives them */
    a = q_text(h, "SELECT event FROM record LIMIT 20");
    b = q_text(h, "SELECT event FROM record WHERE +idx >= 0 LIMIT 20");
    cr_assert_str_eq(a, b);
    free(a);
    free(b);
    sql_db_close(db);
}

/* Write `size` bytes of `data` to `path`. */
static void write_file(const char *path, const unsigned char *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(data, 1, size, f), size);
    cr_assert_eq(fclose(f), 0);
}

static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    rewind(f);
    unsigned char *p = malloc(*size);
    cr_assert_eq(fread(p, 1, *size, f), *size);
    fclose(f);
    return p;
}

/* The records the reader returns, and its damage as loss rows ("offset|length|records_lost"). */
static long long reader_damage(const char *path, text_t *damage, evrec_reader_error_t *err)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK);
    evrec_record_t rec;
    long long n = 0;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        n++;
    }
    text_printf(damage, "%s", "");
    for (uint64_t i = 0; i < evrec_reader_damage_count(r); i++) {
        const evrec_damage_t *d = evrec_reader_damage(r, i);
        text_printf(damage, "%llu|%llu|", (unsigned long long)d->offset, (unsigned long long)d->length);
        if (d->records_lost != UINT64_MAX) {
            text_printf(damage, "%llu", (unsigned long long)d->records_lost);
        }
        text_printf(damage, "\n");
    }
    *err = *evrec_reader_error(r);
    evrec_reader_close(r);
    return n;
}

Test(sql, loss_names_the_damage)
{
    char path[TEST_TMP_PATH], bad[TEST_TMP_PATH + 8], cut[TEST_TMP_PATH + 8];
    make_demo(path, sizeof path, 300, "");
    size_t size;
    unsigned char *data = read_all(path, &size);
    snprintf(bad, sizeof bad, "%s.bad", path);
    snprintf(cut, sizeof cut, "%s.cut", path);
    data[size / 2] ^= 0x5A; /* inside a STREAM chunk: its CRC fails */
    write_file(bad, data, size);
    write_file(cut, data, size * 3 / 4); /* damaged and truncated */
    free(data);
    const char *paths[] = {bad, cut};
    sql_db_t *db = open_db(paths, 2);
    sqlite3 *h = sql_db_handle(db);
    for (int f = 0; f < 2; f++) {
        text_t want = {0};
        evrec_reader_error_t e;
        long long n = reader_damage(paths[f], &want, &e);
        cr_assert(want.len > 0, "%s: the reader found damage", paths[f]);
        char *sql = sqlite3_mprintf(
            "SELECT offset, length, records_lost FROM loss WHERE file = %d AND kind = 'damaged'", f);
        char *got = q_text(h, sql);
        cr_assert_str_eq(got, want.p, "file %d", f);
        free(got);
        sqlite3_free(sql);
        sql = sqlite3_mprintf(
            "SELECT count(*) FROM loss WHERE file = %d AND offset = %llu AND message IS NOT NULL", f,
            (unsigned long long)e.offset);
        cr_assert(q_int(h, sql) >= 1, "file %d: the error at offset %llu is a loss row", f,
                  (unsigned long long)e.offset);
        sqlite3_free(sql);
        sql = sqlite3_mprintf("SELECT count(*) FROM record WHERE file = %d", f);
        cr_assert_eq(q_int(h, sql), n, "every intact record is a row");
        sqlite3_free(sql);
        free(want.p);
    }
    sql_db_close(db);
}

Test(sql, loss_counts_the_drops)
{
    char path[TEST_TMP_PATH];
    make_demo(path, sizeof path, 300, "--buffer 16K");
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK);
    long long dropped = (long long)evrec_reader_info(r)->dropped;
    evrec_reader_close(r);
    cr_assert(dropped > 0, "a 16 KiB buffer drops");
    const char *paths[] = {path};
    sql_db_t *db = open_db(paths, 1);
    cr_assert_eq(q_int(sql_db_handle(db), "SELECT count FROM loss WHERE kind = 'dropped'"), dropped);
    sql_db_close(db);
}

Test(sql, command_line_output_file_is_new_only)
{
    char path[TEST_TMP_PATH], out[TEST_TMP_PATH + 16], csv[TEST_TMP_PATH + 16];
    make_demo(path, sizeof path, 100, "");
    snprintf(out, sizeof out, "%s.sqlite", path);
    snprintf(csv, sizeof csv, "%s.csv", path);
    cr_assert_eq(run_cmd("'%s' sql '%s' -o '%s'", EVREC_CLI_PATH, path, out), 0);
    sqlite3 *h = NULL;
    cr_assert_eq(sqlite3_open_v2(out, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    const char *paths[] = {path};
    sql_db_t *db = open_db(paths, 1);
    const char *q = "SELECT (SELECT count(*) FROM record) || '|' || (SELECT count(*) FROM span) || '|' || "
                    "(SELECT count(*) FROM counter) || '|' || (SELECT group_concat(path) FROM file) || '|' || "
                    "(SELECT count(*) FROM QueueEvent)";
    char *a = q_text(h, q), *b = q_text(sql_db_handle(db), q);
    cr_assert_str_eq(a, b);
    free(a);
    free(b);
    sqlite3_close(h);
    sql_db_close(db);
    struct stat before, after;
    cr_assert_eq(stat(out, &before), 0);
    cr_assert_eq(run_cmd("'%s' sql '%s' -o '%s' 2>/dev/null", EVREC_CLI_PATH, path, out), 1,
                 "an existing path is refused");
    cr_assert_eq(stat(out, &after), 0);
    cr_assert_eq(before.st_size, after.st_size);
    cr_assert_eq(before.st_ino, after.st_ino);
    cr_assert_eq(
        run_cmd("'%s' sql '%s' --format csv -c \"SELECT 'a,b' AS x, 2 AS y\" > '%s'", EVREC_CLI_PATH, path, csv),
        0);
    size_t n;
    unsigned char *text = read_all(csv, &n);
    cr_assert_eq(n, strlen("x,y\n\"a,b\",2\n"));
    cr_assert_eq(memcmp(text, "x,y\n\"a,b\",2\n", n), 0);
    free(text);
    cr_assert_eq(run_cmd("'%s' sql '%s' -c 'SELECT * FROM nosuchtable' 2>/dev/null", EVREC_CLI_PATH, path), 1);
    cr_assert_eq(run_cmd("'%s' sql 2>/dev/null", EVREC_CLI_PATH), 2, "no FILE: bad usage");
    /* statements on standard input when it is not a terminal */
    cr_assert_eq(run_cmd("printf 'SELECT 40 + 2 AS a;\\nSELECT count(*) AS n FROM file;\\n' | '%s' sql '%s' "
                         "--format csv > '%s'",
                         EVREC_CLI_PATH, path, csv),
                 0);
    text = read_all(csv, &n);
    cr_assert_eq(n, strlen("a\n42\nn\n1\n"));
    cr_assert_eq(memcmp(text, "a\n42\nn\n1\n", n), 0);
    free(text);
}

/* A hand-timed recording at 1 GHz: Start, then `n` EvSimple records 1 ms (10^6 ticks) apart,
 * with a Tick every 100; written to a scratch file, its path in out[size]. */
static void make_timed(char *out, size_t size, uint32_t n)
{
    fx_native_t nat = {0};
    fx_native_control(&nat, 0, EVREC_CONTROL_START);
    for (uint32_t i = 1; i <= n; i++) {
        uint32_t t = (uint32_t)((uint64_t)i * 1000000u); /* wraps every 4.29 s: restored by the reader */
        fx_native_simple(&nat, t, i);
        if (i % 100 == 0) {
            fx_native_control(&nat, t, EVREC_CONTROL_TICK);
        }
    }
    fx_native_control(&nat, (uint32_t)((uint64_t)(n + 1) * 1000000u), EVREC_CONTROL_STOP);
    fx_buf_t file = {0};
    fx_native_save(&nat, 1000000000u, 0, &file);
    char *dir = test_tmp_dir("sql-timed");
    cr_assert_not_null(dir);
    snprintf(out, size, "%s/timed.evr", dir);
    free(dir);
    FILE *f = fopen(out, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(file.p, 1, file.len, f), file.len);
    fclose(f);
    fx_buf_free(&file);
    fx_native_free(&nat);
}

/* An upper bound on `ts` ends the file's scan once the records are 2^30 ticks past it (FORMAT.md
 * section 5: restored time steps back by less), as one on `idx` does: it reads a part of the
 * file, not all of it, and gives the rows of the full scan. */
Test(sql, ts_upper_bound_stops_the_scan)
{
    char path[TEST_TMP_PATH];
    make_timed(path, sizeof path, 10000); /* 10 s */
    const char *paths[] = {path};
    sql_db_t *db = open_db(paths, 1);
    sqlite3 *h = sql_db_handle(db);
    static const char *const bounds[][2] = {
        {"ts < 2000000000", "+ts < 2000000000"},
        {"ts BETWEEN 1000000000 AND 2000000000", "+ts BETWEEN 1000000000 AND 2000000000"},
        {"ts <= 2000000000 AND idx < 9000", "+ts <= 2000000000 AND +idx < 9000"},
    };
    uint64_t total = 10000 + 10000 / 100 + 2;
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
        db->scanned = 0;
        same_rows(h, "SELECT idx, ts, event, v FROM EvSimple", bounds[i][0], bounds[i][1]);
        cr_assert_gt(db->scanned, total, "the +ts form reads every record");
        db->scanned = 0;
        char *sql = sqlite3_mprintf("SELECT count(*) FROM record WHERE %s", bounds[i][0]);
        long long rows = q_int(h, sql);
        sqlite3_free(sql);
        cr_assert_geq(rows, 1000);
        /* 2 s plus 2^30 ticks (1.07 s) of records at most, of 10 s */
        cr_assert_lt(db->scanned, total / 3, "%s: %llu records read of %llu", bounds[i][0],
                     (unsigned long long)db->scanned, (unsigned long long)total);
    }
    sql_db_close(db);
}

/* Every row of `sql` prepared as written (no rewrite), with its column names first. */
static char *rows_and_names(sqlite3 *h, const char *sql)
{
    sqlite3_stmt *st = NULL;
    cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(h));
    text_t t = {0};
    text_printf(&t, "%s", "");
    for (int i = 0; i < sqlite3_column_count(st); i++) {
        text_printf(&t, "%s%s", i ? "|" : "", sqlite3_column_name(st, i));
    }
    text_printf(&t, "\n");
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            text_printf(&t, "%s%s:%d", i ? "|" : "", (const char *)sqlite3_column_text(st, i),
                        sqlite3_column_type(st, i));
        }
        text_printf(&t, "\n");
    }
    sqlite3_finalize(st);
    return t.p;
}

/* The count per event type is rewritten to event_type: the same rows, types and column names as
 * SQLite's own answer, over two files; other shapes, or a TEMP table called record, are not. */
Test(sql, count_per_event_rewrite_gives_the_same_answer)
{
    char a[TEST_TMP_PATH], b[TEST_TMP_PATH];
    make_demo(a, sizeof a, 200, "");
    make_timed(b, sizeof b, 3000);
    const char *paths[] = {a, b};
    sql_db_t *db = open_db(paths, 2);
    sqlite3 *h = sql_db_handle(db);
    static const char *const same[] = {
        "SELECT event, count(*) FROM record GROUP BY event",
        "select EVENT,COUNT( * ) from RECORD group by Event ;",
        "SELECT event, count(*) n FROM record GROUP BY event",
        "SELECT event, count(*) AS \"per event\" FROM record\n  GROUP BY event -- note",
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        char *fast = sql_rewrite_count(h, same[i], strlen(same[i]));
        cr_assert_not_null(fast, "%s is rewritten", same[i]);
        char *want = rows_and_names(h, same[i]), *got = rows_and_names(h, fast);
        cr_assert_str_eq(got, want, "%s", fast);
        cr_assert(strstr(want, "\nEvSimple:3|3000:1\n"), "%s", want);
        free(want);
        free(got);
        sqlite3_free(fast);
    }
    static const char *const other[] = {
        "SELECT event, count(*) FROM record WHERE idx > 5 GROUP BY event",
        "SELECT event, count(*) FROM record GROUP BY event ORDER BY 2",
        "SELECT event, count(lane) FROM record GROUP BY event",
        "SELECT event, count(*) FROM EvSimple GROUP BY event",
        "SELECT event, count(*) FROM 'record' GROUP BY event",
        "SELECT event, count(*) from FROM record GROUP BY event",
    };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        cr_assert_null(sql_rewrite_count(h, other[i], strlen(other[i])), "%s", other[i]);
    }
    cr_assert_eq(sqlite3_exec(h, "CREATE TEMP TABLE record(event TEXT)", NULL, NULL, NULL), SQLITE_OK);
    cr_assert_null(sql_rewrite_count(h, same[0], strlen(same[0])), "record is the TEMP table now");
    sql_db_close(db);
}
