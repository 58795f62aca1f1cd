/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec sql`'s tables against the reader and the analysis on demo recordings: `record` row for
 * row as the reader returns the records (what `evrec dump` prints), every event table's columns
 * as evrec_reader_visit_fields() walks the fields (dump's field values), `span` and `counter`
 * aggregated as evrec_stats_t measures them (the numbers `evrec stats --format json` prints),
 * `track` as the reader's track model, `file` as the header says, `event_type` as evrec_reader_summarize() counts; several files form
 * one database; CCore's own recording (tests/data/ccore/ref.bin) likewise; a FreeRTOS kernel trace:
 * the same, and `task_state`/`sched` against the kernel statistics. */
#include "evrec/evrec_analysis.h"
#include "evrec/evrec_reader.h"
#include "sql_test_util.h"

/* The expected rows of each event table (by event id) and of `record`. */
typedef struct expect {
    text_t record;
    text_t *events;
} expect_t;

static int add_leaf(void *ctx, const evrec_field_view_t *f)
{
    text_t *t = ctx;
    if (f->index < 2) {
        return 0;
    }
    if (f->kind == EVREC_KIND_ENUM_UINT8 || f->kind == EVREC_KIND_ENUM_UINT16 ||
        f->kind == EVREC_KIND_ENUM_UINT32) {
        text_printf(t, "|%s|%u", f->value_name ? f->value_name : "", f->value);
    } else {
        text_printf(t, "|%u", f->value);
    }
    return 0;
}

static void read_expect(const char *path, expect_t *x, uint32_t *event_count)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK);
    *event_count = evrec_reader_meta(r)->event_count;
    x->events = calloc(*event_count, sizeof *x->events);
    for (uint32_t e = 0; e < *event_count; e++) {
        text_printf(&x->events[e], "%s", "");
    }
    text_printf(&x->record, "%s", "");
    evrec_record_t rec;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        const char *name = evrec_reader_event_name(r, rec.id);
        text_printf(&x->record, "%llu|%llu|%s|%u\n", (unsigned long long)rec.index, (unsigned long long)rec.ns,
                    name, rec.lane);
        text_t *t = &x->events[rec.id];
        text_printf(t, "%llu|%llu|%s|%u|0|%llu|%u", (unsigned long long)rec.index, (unsigned long long)rec.ns,
                    name, rec.lane, (unsigned long long)rec.t64, rec.gap);
        evrec_reader_visit_fields(r, &rec, add_leaf, t);
        text_printf(t, "\n");
    }
    evrec_reader_close(r);
}

/* `record` and every event table of `path` against the reader's walk. */
static void check_against_reader(const char *path)
{
    expect_t x = {0};
    uint32_t events;
    read_expect(path, &x, &events);
    const char *paths[] = {path};
    sql_db_t *db = open_db(paths, 1);
    sqlite3 *h = sql_db_handle(db);
    char *got = q_text(h, "SELECT idx, ts, event, lane FROM record");
    cr_assert_str_eq(got, x.record.p);
    free(got);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK);
    for (uint32_t e = 0; e < events; e++) {
        char *sql = sqlite3_mprintf("SELECT * FROM \"%w\"", evrec_reader_event_name(r, (uint16_t)e));
        got = q_text(h, sql);
        cr_assert_str_eq(got, x.events[e].p, "table %s", evrec_reader_event_name(r, (uint16_t)e));
        free(got);
        sqlite3_free(sql);
        free(x.events[e].p);
    }
    evrec_reader_close(r);
    free(x.events);
    free(x.record.p);
    sql_db_close(db);
}

Test(sql, record_and_event_tables_equal_the_reader)
{
    char path[TEST_TMP_PATH];
    make_demo(path, sizeof path, 300, "");
    check_against_reader(path);
}

/* CCore's own recording (tests/data/README.md): a bare CCore stream, a nested struct. */
Test(sql, ccore_vector)
{
    const char *path = EVREC_TEST_DATA "/ccore/ref.bin";
    check_against_reader(path);
    sql_db_t *db = open_db(&path, 1);
    char *got = q_text(sql_db_handle(db), "SELECT ts, obj, obj_raw, inner_a, inner_b FROM NestEvent");
    cr_assert_str_eq(got, "3000000|ObjB|11|90|16909060\n");
    free(got);
    got = q_text(sql_db_handle(db), "SELECT format, recorded, dropped, time_freq FROM file");
    cr_assert_str_eq(got, "ccore|||1000000\n", "a CCore stream has no header counts");
    free(got);
    sql_db_close(db);
}

/* The spans' and counters' numbers of evrec_stats_t (what `evrec stats --format json` prints). */
static void check_stats(sqlite3 *h, const char *path, int has_counters)
{
    evrec_reader_t *r = NULL;
    evrec_stats_t *s = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK);
    cr_assert_eq(evrec_stats_create(&s, r), EVREC_OK);
    evrec_record_t rec;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        cr_assert_eq(evrec_stats_add(s, &rec), EVREC_OK);
    }
    cr_assert_eq(evrec_stats_finish(s), EVREC_OK);
    uint32_t n = 0;
    const evrec_stats_span_t *sp = evrec_stats_spans(s, &n);
    cr_assert(n > 0, "the demo has spans");
    for (uint32_t i = 0; i < n; i++) {
        const evrec_stats_durations_t *d = &sp[i].all;
        char *sql = sqlite3_mprintf("SELECT count(*) || '|' || ifnull(min(dur_ticks), '') || '|' || "
                                    "ifnull(max(dur_ticks), '') || '|' || ifnull(sum(dur_ticks), 0) "
                                    "FROM span WHERE name = %Q AND flags = 0;"
                                    "SELECT count(*) FROM span WHERE name = %Q AND at_finish;"
                                    "SELECT count(*) FROM span WHERE name = %Q AND no_begin",
                                    sp[i].name, sp[i].name, sp[i].name);
        char want[200];
        snprintf(want, sizeof want, "%llu|%s|%s|%llu\n", (unsigned long long)d->count, "", "",
                 (unsigned long long)d->total);
        if (d->count) {
            snprintf(want, sizeof want, "%llu|%llu|%llu|%llu\n", (unsigned long long)d->count,
                     (unsigned long long)d->min, (unsigned long long)d->max, (unsigned long long)d->total);
        }
        char *got = q_text(h, sql);
        cr_assert_str_eq(got, want, "span %s", sp[i].name);
        free(got);
        const char *second = strchr(sql, ';') + 1;
        cr_assert_eq(q_int(h, second), (long long)d->open_at_end, "span %s open at end", sp[i].name);
        cr_assert_eq(q_int(h, strchr(second, ';') + 1), (long long)d->unmatched_end, "span %s", sp[i].name);
        sqlite3_free(sql);
    }
    const evrec_stats_counter_t *c = evrec_stats_counters(s, &n);
    cr_assert_eq(n > 0, has_counters != 0);
    for (uint32_t i = 0; i < n; i++) {
        char *sql = sqlite3_mprintf("SELECT count(*) || '|' || min(value) || '|' || max(value) FROM counter "
                                    "WHERE event = %Q AND field = %Q",
                                    evrec_reader_event_name(r, c[i].event_id), c[i].path);
        char want[100];
        snprintf(want, sizeof want, "%llu|%u|%u\n", (unsigned long long)c[i].all.samples, c[i].all.min,
                 c[i].all.max);
        char *got = q_text(h, sql);
        cr_assert_str_eq(got, want, "counter %s", c[i].path);
        free(got);
        sqlite3_free(sql);
    }
    evrec_stats_free(s);
    evrec_reader_close(r);
}

Test(sql, span_and_counter_equal_stats)
{
    char path[TEST_TMP_PATH];
    make_demo(path, sizeof path, 400, "");
    const char *paths[] = {path};
    sql_db_t *db = open_db(paths, 1);
    check_stats(sql_db_handle(db), path, 1);
    /* the track model, as the reader has it */
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK);
    const evrec_tracks_t *t = evrec_reader_tracks(r);
    char want[300];
    snprintf(want, sizeof want, "counter|%u\nspan|%u\ntrack|%u\n", t->counter_count, t->span_count,
             t->track_count);
    char *got = q_text(sql_db_handle(db), "SELECT kind, count(*) FROM track GROUP BY kind ORDER BY kind");
    cr_assert_str_eq(got, want);
    free(got);
    for (uint32_t i = 0; i < t->span_count; i++) {
        char *sql = sqlite3_mprintf("SELECT count(*) FROM track WHERE kind = 'span' AND name = %Q AND event = %Q "
                                    "AND end_event = %Q",
                                    t->spans[i].name, evrec_reader_event_name(r, t->spans[i].begin.event_id),
                                    evrec_reader_event_name(r, t->spans[i].end.event_id));
        cr_assert_eq(q_int(sql_db_handle(db), sql), 1, "span %s", t->spans[i].name);
        sqlite3_free(sql);
    }
    evrec_reader_close(r);
    sql_db_close(db);
}

Test(sql, file_table_and_several_files)
{
    char a[TEST_TMP_PATH], b[TEST_TMP_PATH];
    make_demo(a, sizeof a, 100, "");
    make_demo(b, sizeof b, 250, "--stages 3");
    const char *paths[] = {a, b};
    sql_db_t *db = open_db(paths, 2);
    sqlite3 *h = sql_db_handle(db);
    for (int f = 0; f < 2; f++) {
        evrec_reader_t *r = NULL;
        evrec_reader_summary_t s;
        cr_assert_eq(evrec_reader_open_path(&r, paths[f], NULL), EVREC_OK);
        const evrec_file_info_t *in = evrec_reader_info(r);
        char *sql = sqlite3_mprintf(
            "SELECT path, recorded, dropped, schema_hash, time_freq FROM file WHERE file = %d", f);
        char want[TEST_TMP_PATH + 200];
        snprintf(want, sizeof want, "%s|%llu|%llu|%016llx|%llu\n", paths[f], (unsigned long long)in->recorded,
                 (unsigned long long)in->dropped, (unsigned long long)in->schema_hash_stored,
                 (unsigned long long)in->time_freq);
        char *got = q_text(h, sql);
        cr_assert_str_eq(got, want);
        free(got);
        sqlite3_free(sql);
        cr_assert_eq(evrec_reader_summarize(r, &s), EVREC_OK);
        for (uint32_t e = 0; e < s.event_count; e++) {
            sql = sqlite3_mprintf("SELECT count FROM event_type WHERE file = %d AND event = %Q", f,
                                  evrec_reader_event_name(r, (uint16_t)e));
            cr_assert_eq(q_int(h, sql), (long long)s.event_counts[e]);
            sqlite3_free(sql);
        }
        sql = sqlite3_mprintf("SELECT count(*) FROM record WHERE file = %d", f);
        cr_assert_eq(q_int(h, sql), (long long)s.records);
        sqlite3_free(sql);
        sql = sqlite3_mprintf("SELECT count(*) FROM record WHERE +file = %d", f);
        cr_assert_eq(q_int(h, sql), (long long)s.records);
        sqlite3_free(sql);
        evrec_reader_close(r);
    }
    /* one file's spans in the two-file database are that file's spans alone */
    sql_db_t *one = open_db(&paths[1], 1);
    char *want = q_text(sql_db_handle(one), "SELECT ts, dur, name, track, key, flags FROM span");
    char *got = q_text(h, "SELECT ts, dur, name, track, key, flags FROM span WHERE file = 1");
    cr_assert_str_eq(got, want);
    free(got);
    got = q_text(h, "SELECT ts, dur, name, track, key, flags FROM span WHERE +file = 1");
    cr_assert_str_eq(got, want);
    free(got);
    free(want);
    sql_db_close(one);
    sql_db_close(db);
}

#ifdef EVREC_FREERTOS_WORKLOAD
#include "evrec/evrec_sched.h"

/* The kernel trace's task states against the kernel statistics (`stats --format json`'s
 * `sched`): switch-ins per task and per core, deleted tasks; `sched` is task_state's RUNNING. */
static void check_sched(sqlite3 *h, const char *path)
{
    evrec_reader_t *r = NULL;
    evrec_sched_stats_t *k = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK);
    cr_assert_eq(evrec_sched_stats_create(&k, r), EVREC_OK);
    evrec_record_t rec;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        cr_assert_eq(evrec_sched_stats_add(k, &rec), EVREC_OK);
    }
    cr_assert_eq(evrec_sched_stats_finish(k), EVREC_OK);
    const evrec_sched_result_t *res = evrec_sched_stats_result(k);
    cr_assert(res->task_count > 2 && res->core_count >= 1);
    for (uint32_t i = 0; i < res->task_count; i++) {
        const evrec_sched_task_t *t = &res->tasks[i];
        char *sql = sqlite3_mprintf("SELECT count(*) FROM task_state WHERE task = %u AND state = 'RUNNING' "
                                    "AND NOT no_begin",
                                    t->task);
        cr_assert_eq(q_int(h, sql), (long long)t->switches, "task %s", t->name);
        sqlite3_free(sql);
        sql = sqlite3_mprintf("SELECT count(*) FROM task_state WHERE task = %u AND state = 'DEAD'", t->task);
        cr_assert_eq(q_int(h, sql) > 0, t->dead != 0, "task %s", t->name);
        sqlite3_free(sql);
    }
    for (uint32_t c = 0; c < res->core_count; c++) {
        char *sql = sqlite3_mprintf("SELECT count(*) FROM sched WHERE cpu = %u AND NOT (flags & 1)",
                                    res->cores[c].core);
        cr_assert_eq(q_int(h, sql), (long long)res->cores[c].switches, "core %u", res->cores[c].core);
        sqlite3_free(sql);
    }
    char *a = q_text(h, "SELECT ts, dur, core, task FROM task_state WHERE state = 'RUNNING'");
    char *b = q_text(h, "SELECT ts, dur, cpu, task FROM sched");
    cr_assert_str_eq(a, b);
    cr_assert(strlen(a) > 100);
    free(a);
    free(b);
    evrec_sched_stats_free(k);
    evrec_reader_close(r);
}

/* The recording's attributes (FORMAT.md section 2.6), in the order they were set: the `file`
 * columns and the `attr` table; NULL and no rows for a file without them. */
Test(sql, attributes_in_file_and_attr)
{
    char a[TEST_TMP_PATH], b[TEST_TMP_PATH];
    make_demo(a, sizeof a, 20, "--device unit-9 --firmware 1.1");
    make_demo(b, sizeof b, 20, "--boot 'b 7' --firmware 1.0");
    const char *paths[] = {a, b, EVREC_TEST_DATA "/ccore/ref.bin"};
    sql_db_t *db = open_db(paths, 3);
    sqlite3 *h = sql_db_handle(db);
    char *got = q_text(h, "SELECT file, device, firmware, boot FROM file ORDER BY file");
    cr_assert_str_eq(got, "0|unit-9|1.1|\n1||1.0|b 7\n2|||\n");
    free(got);
    got = q_text(h, "SELECT file, key, value FROM attr");
    cr_assert_str_eq(got, "0|device|unit-9\n0|firmware|1.1\n1|boot|b 7\n1|firmware|1.0\n");
    free(got);
    got = q_text(
        h, "SELECT f.file FROM file f JOIN attr a USING (file) WHERE a.key = 'firmware' AND a.value = '1.0'");
    cr_assert_str_eq(got, "1\n");
    free(got);
    sql_db_close(db);
}

/* A FreeRTOS kernel trace (tests/freertos' workload on the kernel's POSIX port): every table
 * against the reader, the spans (TaskRunning ...) against evrec_stats_t, the task states. */
Test(sql, kernel_trace)
{
    char *dir = test_tmp_dir("sql-kernel");
    cr_assert_not_null(dir);
    char path[TEST_TMP_PATH + 16];
    snprintf(path, sizeof path, "%s/k.evr", dir);
    cr_assert_eq(run_cmd("'%s' '%s' '%s/k.txt' >/dev/null", EVREC_FREERTOS_WORKLOAD, path, dir), 0);
    free(dir);
    check_against_reader(path);
    const char *paths[] = {path};
    sql_db_t *db = open_db(paths, 1);
    check_stats(sql_db_handle(db), path, 0);
    check_sched(sql_db_handle(db), path);
    sql_db_close(db);
}
#endif
