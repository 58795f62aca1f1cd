/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec dump --time-order`: records in time order through the reader's ordered iteration; a
 * record from further back than the window is printed late and flagged. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "reader_fixtures.h"

static char *save_times(const uint32_t *t, size_t n)
{
    fx_native_t nat = {0};
    fx_native_control(&nat, 0, EVREC_CONTROL_START);
    uint32_t last = 0;
    for (size_t i = 0; i < n; i++) {
        fx_native_simple(&nat, t[i], (uint32_t)i);
        last = t[i] > last ? t[i] : last;
    }
    fx_native_control(&nat, last + 1u, EVREC_CONTROL_STOP);
    fx_buf_t f = {0};
    fx_native_save(&nat, 1000u, 0, &f);
    fx_native_free(&nat);
    char *path = fx_temp_file(f.p, f.len, ".evr");
    fx_buf_free(&f);
    return path;
}

/* The `#N` index at the start of each line of `out`, up to max. */
static size_t indices(const char *out, uint64_t *idx, size_t max)
{
    size_t n = 0;
    for (const char *p = out; *p && n < max;) {
        cr_assert_eq(*p, '#', "line without --index: %.40s", p);
        idx[n++] = strtoull(p + 1, NULL, 10);
        const char *nl = strchr(p, '\n');
        if (!nl) {
            break;
        }
        p = nl + 1;
    }
    return n;
}

Test(cli_order, dump_time_order_sorts_within_the_window)
{
    const uint32_t t[] = {100, 200, 150, 300, 400, 250, 500};
    char *path = save_times(t, 7);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "dump", "--index", "--time-order", path, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    uint64_t idx[16];
    size_t n = indices(r.out, idx, 16);
    const uint64_t expect[] = {0, 1, 3, 2, 6, 4, 5, 7, 8};
    cr_assert_eq(n, 9u, "%s", r.out);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(idx[i], expect[i], "line %zu:\n%s", i, r.out);
    }
    cr_assert_null(strstr(r.out, "late"));
    cli_run_free(&r);
    /* without the option: file order */
    r = cli_run(EVREC_CLI_PATH, "dump", "--index", path, NULL);
    cr_assert_eq(r.status, 0);
    n = indices(r.out, idx, 16);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(idx[i], i);
    }
    cli_run_free(&r);
    /* selection first (file order), then time order */
    r = cli_run(EVREC_CLI_PATH, "dump", "--index", "--time-order", "--from", "#2", "--limit", "3", path, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    n = indices(r.out, idx, 16);
    cr_assert_eq(n, 3u, "%s", r.out);
    cr_assert_eq(idx[0], 3u);
    cr_assert_eq(idx[1], 2u);
    cr_assert_eq(idx[2], 4u);
    cli_run_free(&r);
    remove(path);
    free(path);
}

Test(cli_order, dump_time_order_flags_a_late_record)
{
    /* 5000 records 1 tick apart; the one at position 4600 is stamped at tick 10: 4590 records
     * back, beyond the 4096-record window. */
    enum { N = 5000 };
    uint32_t *t = malloc(N * sizeof *t);
    for (uint32_t i = 0; i < N; i++) {
        t[i] = 1000u + i;
    }
    t[4600] = 10u;
    char *path = save_times(t, N);
    free(t);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "dump", "--index", "--time-order", path, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *late = strstr(r.out, "(late by ");
    cr_assert_not_null(late, "no late record flagged");
    cr_assert_null(strstr(late + 1, "(late by "), "one late record only");
    const char *line = late;
    while (line > r.out && line[-1] != '\n') {
        line--;
    }
    cr_assert_eq(strtoull(line + 1, NULL, 10), 4601u, "the late record is #4601 (Start is #0)");
    /* When it is read, the window holds #506..#4601: #505 (tick 1504) was the last one printed,
     * so at 1 kHz it is 1494 ms late. */
    cr_assert_not_null(strstr(late, "(late by 1494000000 ns)"), "%.60s", late);
    cr_assert_not_null(strstr(r.err, "1 records were stamped earlier"), "%s", r.err);
    size_t lines = 0;
    for (const char *p = r.out; *p; p++) {
        lines += *p == '\n';
    }
    cr_assert_eq(lines, N + 2u, "every record printed");
    cli_run_free(&r);
    remove(path);
    free(path);
}
