/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec sql` on a kernel trace (FreeRTOS on its POSIX port, tests/freertos): `task_state` and
 * the `sched` view against the kernel statistics of `evrec stats` (evrec_sched_stats_t: the
 * `sched` object of `stats --format json`): switch-ins per task and per core, deleted tasks. */
#include "evrec/evrec_reader.h"
#include "evrec/evrec_sched.h"
#include "sql_test_util.h"

Test(sql, kernel_trace_task_state_equals_sched_stats)
{
    char *dir = test_tmp_dir("sql-kernel");
    cr_assert_not_null(dir);
    char path[TEST_TMP_PATH + 16];
    snprintf(path, sizeof path, "%s/k.evr", dir);
    cr_assert_eq(run_cmd("'%s' '%s' '%s/k.txt' >/dev/null", EVREC_FREERTOS_WORKLOAD, path, dir), 0);
    free(dir);
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
    const char *paths[] = {path};
    sql_db_t *db = open_db(paths, 1);
    sqlite3 *h = sql_db_handle(db);
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
    sql_db_close(db);
    evrec_sched_stats_free(k);
    evrec_reader_close(r);
}
