/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec dump` / `evrec stats` record selection through the built binary: time windows with every
 * unit and both ends included, record indices, --limit, --where with --from, standard input,
 * the --index column, errors (column and caret on stderr, unknown names, unknown clock) and the
 * help texts. The recording is hand-timed (1 GHz clock), so every window's records are known. */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "reader_fixtures.h"

#define run_evrec(...) cli_run(EVREC_CLI_PATH, __VA_ARGS__, (const char *)NULL)
#define assert_has(hay, needle) cr_assert(strstr((hay), (needle)) != NULL, "missing <%s> in:\n%s", (needle), (hay))

/* Start at 0, v=1 at 500 ns, 2 at 1 us, 3 at 2.5 us, 4 at 1 ms, 5 at 1.5 ms, 6 at 2 s, Stop at 3 s
 * (times since the first record; the first stamp is 1000 ticks). */
static char *timed_file(uint64_t time_freq)
{
    static const uint32_t at[] = {500, 1000, 2500, 1000000, 1500000, 2000000000u};
    fx_native_t n = {0};
    fx_native_control(&n, 1000, EVREC_CONTROL_START);
    for (uint32_t k = 0; k < 6; k++) {
        fx_native_simple(&n, 1000 + at[k], k + 1);
    }
    fx_native_control(&n, 1000 + 3000000000u, EVREC_CONTROL_STOP);
    fx_buf_t f = {0};
    fx_native_save(&n, time_freq, 0, &f);
    fx_native_free(&n);
    char *path = fx_temp_file(f.p, f.len, ".evr");
    fx_buf_free(&f);
    return path;
}

/* The records of dump's output in short: S (Start), E (Stop), or the v value; blank-separated. */
static char *shorten(const char *out)
{
    char *s = calloc(1, strlen(out) + 2);
    for (const char *line = out; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%.*s", (int)len, line);
        const char *v = strstr(tmp, " v=");
        if (*s) {
            strcat(s, " ");
        }
        if (strstr(tmp, "type=Start")) {
            strcat(s, "S");
        } else if (strstr(tmp, "type=Stop")) {
            strcat(s, "E");
        } else if (v) {
            strncat(s, v + 3, strspn(v + 3, "0123456789"));
        } else {
            strcat(s, "?");
        }
        line = nl ? nl + 1 : line + len;
    }
    return s;
}

static void expect_window(const char *path, const char *want, const char *a1, const char *a2, const char *a3,
                          const char *a4)
{
    cli_run_t r = run_evrec("dump", path, a1, a2, a3, a4);
    cr_assert_eq(r.status, 0, "dump %s %s %s %s: status %d\n%s", a1, a2 ? a2 : "", a3 ? a3 : "", a4 ? a4 : "",
                 r.status, r.err);
    char *got = shorten(r.out);
    cr_assert_str_eq(got, want, "dump %s %s %s %s: got <%s>, want <%s>", a1, a2 ? a2 : "", a3 ? a3 : "",
                     a4 ? a4 : "", got, want);
    free(got);
    cli_run_free(&r);
}

Test(cli_select, time_windows_every_unit)
{
    char *p = timed_file(1000000000u);
    expect_window(p, "S 1 2 3 4 5 6 E", "--from", "0", NULL, NULL);
    expect_window(p, "5 6 E", "--from", "1.5ms", NULL, NULL);
    expect_window(p, "2 3", "--from", "1us", "--to", "2.5us");
    expect_window(p, "S 1", "--to", "500ns", NULL, NULL);
    expect_window(p, "S", "--to", "499ns", NULL, NULL);
    expect_window(p, "6 E", "--from", "2s", NULL, NULL);
    expect_window(p, "1 2 3 4", "--from", "0.5us", "--to", "0.001s");
    expect_window(p, "4", "--from", "1ms", "--to", "1ms"); /* both ends included */
    expect_window(p, "", "--from", "1.0001ms", "--to", "1.4999ms");
    expect_window(p, "6", "--from", "1.6ms", "--to", "2.5s");
    unlink(p);
    free(p);
}

Test(cli_select, record_indices_and_limit)
{
    char *p = timed_file(1000000000u);
    expect_window(p, "2 3 4", "--from", "#2", "--to", "#4");
    expect_window(p, "6 E", "--from", "#6", NULL, NULL);
    expect_window(p, "S", "--to", "#0", NULL, NULL);
    expect_window(p, "", "--from", "#8", NULL, NULL);           /* past the last record */
    expect_window(p, "1 2 3", "--from", "#1", "--to", "2.5us"); /* index and time mixed */
    expect_window(p, "S 1", "--limit", "2", NULL, NULL);
    expect_window(p, "3 4", "--from", "#3", "-n", "2");
    expect_window(p, "", "--limit", "0", NULL, NULL);
    expect_window(p, "5 6", "--from", "1ms", "--where", "v >= 5");
    expect_window(p, "2 4", "--where", "v == 2 or v == 4", "--event", "EvSimple");
    cli_run_t r = run_evrec("dump", p, "--from", "#4", "--to", "#4", "--index");
    cr_assert_eq(r.status, 0);
    cr_assert(strncmp(r.out, "#4 ", 3) == 0, "index column: %s", r.out);
    assert_has(r.out, "v=4");
    cli_run_free(&r);
    unlink(p);
    free(p);
}

Test(cli_select, stdin)
{
    char *p = timed_file(1000000000u);
    cli_run_t r = cli_run_in(p, EVREC_CLI_PATH, "dump", "-", (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *got = shorten(r.out);
    cr_assert_str_eq(got, "S 1 2 3 4 5 6 E");
    free(got);
    cli_run_free(&r);
    r = cli_run_in(p, EVREC_CLI_PATH, "dump", "--from", "1ms", "--to", "#5", "-", (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    got = shorten(r.out);
    cr_assert_str_eq(got, "4 5");
    free(got);
    cli_run_free(&r);
    r = cli_run_in(p, EVREC_CLI_PATH, "stats", "-", "--from", "1ms", (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, "records:     4;");
    cli_run_free(&r);
    unlink(p);
    free(p);
}

Test(cli_select, stats_of_a_window)
{
    char *p = timed_file(1000000000u);
    cli_run_t r = run_evrec("stats", p, "--from", "1ms", "--to", "1.5ms");
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, "records:     2;");
    /* record 6 (2 s) is more than 2^30 ticks past --to: reading stops there */
    assert_has(r.out, "selection:   2 record(s) (reading stopped at record #6: past the window)");
    assert_has(r.out, "duration:    0.000500000 s");
    cli_run_free(&r);
    r = run_evrec("stats", p, "--event", "EventControl");
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, "records:     2;");
    cli_run_free(&r);
    unlink(p);
    free(p);
}

/* Every stderr line starts with "evrec: "; the caret sits under the column. */
Test(cli_select, where_error_shows_column)
{
    char *p = timed_file(1000000000u);
    cli_run_t r = run_evrec("dump", p, "--where", "v == 1 and");
    cr_assert_eq(r.status, 2);
    cr_assert_eq(r.out_len, 0u);
    cr_assert_str_eq(r.err, "evrec: dump: --where: column 11: expected a field name, '(' or 'not', found the end\n"
                            "evrec:   v == 1 and\n"
                            "evrec:             ^\n");
    cli_run_free(&r);
    r = run_evrec("stats", p, "--where", "v == 1 and w > 2");
    cr_assert_eq(r.status, 2);
    assert_has(r.err, "evrec: stats: --where: column 12: no event type has a field 'w'; fields: ");
    assert_has(r.err, "\nevrec:              ^\n");
    cli_run_free(&r);
    r = run_evrec("dump", p, "--where", "type == Tock");
    cr_assert_eq(r.status, 2);
    assert_has(r.err, "column 9: 'Tock' is not a value of enum EventControlType");
    assert_has(r.err, "values: Start, Tick, Stop, End");
    cli_run_free(&r);
    unlink(p);
    free(p);
}

Test(cli_select, bad_options)
{
    char *p = timed_file(1000000000u);
    static const char *const cases[][3] = {
        {"--from", "1.5", "--from expects a time with a unit"},
        {"--to", "#x", "--to expects a time with a unit"},
        {"--limit", "-1", "--limit expects a record count"},
        {"--event", "Nope", "--event: no event type 'Nope' in this file; it has: EventControl, EvAll, EvSimple"},
        {"--class", "EvSimple", "--class: no class 'EvSimple' in this file; it has: EventControl, EvAll"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_run_t r = run_evrec("dump", p, cases[i][0], cases[i][1]);
        cr_assert_eq(r.status, 2, "%s %s: %d", cases[i][0], cases[i][1], r.status);
        assert_has(r.err, cases[i][2]);
        cli_run_free(&r);
    }
    cli_run_t r = run_evrec("dump", p, "--where", "v == 1", "--where", "v == 2");
    cr_assert_eq(r.status, 2);
    assert_has(r.err, "--where given twice");
    cli_run_free(&r);
    unlink(p);
    free(p);
    /* time_freq 0 and no ticks: no time base for a time window; a record index still works */
    p = timed_file(0);
    r = run_evrec("dump", p, "--from", "1ms");
    cr_assert_eq(r.status, 2);
    assert_has(r.err, "clock is unknown");
    cli_run_free(&r);
    expect_window(p, "5 6 E", "--from", "#5", NULL, NULL);
    unlink(p);
    free(p);
}

Test(cli_select, help_texts)
{
    cli_run_t r = run_evrec("dump", "--help");
    cr_assert_eq(r.status, 0);
    assert_has(r.out, "in file order");
    assert_has(r.out, "--where EXPR");
    assert_has(r.out, "--from T, --to T");
    assert_has(r.out, "-n, --limit N");
    assert_has(r.out, "--event NAME");
    assert_has(r.out, "--class NAME");
    assert_has(r.out, "standard input");
    cli_run_free(&r);
    r = run_evrec("stats", "--help");
    cr_assert_eq(r.status, 0);
    assert_has(r.out, "--where EXPR");
    assert_has(r.out, "--from T, --to T");
    cli_run_free(&r);
}
