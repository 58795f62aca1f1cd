/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec diff` end to end on synthetic recordings with known distributions (diff.yaml, the
 * fake-clock recorder): span Step on three tracks, Step[Shifted] B = A + SHIFT ticks, Step[Same]
 * uniform on both sides, Step[Noisy] exponential (a long tail) on both sides, drawn from a
 * seeded generator so that every run is the same. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/cli_run.h"
#include "../common/fake_clock.h"
#include "../common/mem_sink.h"
#include "difftest_events.h"
#include "evrec/evrec_save.h"

#define SHIFT 30u  /* ticks = us (time_freq 1 MHz) */
#define SPANS 600u /* per track and side (a p99 interval needs about 500) */

static uint64_t rnd(uint64_t *s) /* xorshift64* */
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static uint32_t duration(uint64_t *s, int which, uint32_t shift)
{
    if (which == difftest_Which_Noisy) {
        double u = ((double)(rnd(s) >> 11) + 0.5) / 9007199254740992.0;
        return 50u + (uint32_t)(-500.0 * log(u));
    }
    return 100u + (uint32_t)(rnd(s) % 100u) + (which == difftest_Which_Shifted ? shift : 0u);
}

/* Record one side into `path`: SPANS spans per track, then `drops` Drop events. */
static void record_side(const char *path, uint64_t seed, uint32_t shift, unsigned drops)
{
    static uint32_t buf[1u << 16];
    evrec_recorder_t rec;
    evrec_host_t host;
    cr_assert_eq(evrec_recorder_init(&rec, buf, sizeof buf), EVREC_OK);
    evrec_host_init(&host);
    at(0);
    cr_assert_eq(evrec_host_start(&host, &rec, &difftest_meta, 1000000u), EVREC_OK);
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    uint32_t t = 10;
    for (uint32_t i = 0; i < SPANS; i++) {
        for (int w = 0; w < 3; w++) {
            uint32_t d = duration(&s, w, shift);
            at(t);
            difftest_record_Op(&host, (difftest_Which_t)w, difftest_Phase_Start, i * 3u + (uint32_t)w);
            at(t + d);
            difftest_record_Op(&host, (difftest_Which_t)w, difftest_Phase_Done, i * 3u + (uint32_t)w);
            t += d + 10;
        }
    }
    for (unsigned i = 0; i < drops; i++) {
        at(t++);
        difftest_record_Drop(&host, 1);
    }
    at(t);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    mem_t m = {NULL, 0, 0};
    evrec_sink_t sink = {mem_write, &m};
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(m.data, 1, m.len, f), m.len);
    cr_assert_eq(fclose(f), 0);
    free(m.data);
}

typedef struct pair {
    char *dir;
    char a[512], b[512];
} pair_t;

/* A and B of one seed (B with Step[Shifted] shifted, `drops_b` Drop events). */
static void make_pair(pair_t *p, uint64_t seed, unsigned drops_b)
{
    p->dir = cli_temp_dir("diff");
    snprintf(p->a, sizeof p->a, "%s/a.evr", p->dir);
    snprintf(p->b, sizeof p->b, "%s/b.evr", p->dir);
    record_side(p->a, 2 * seed, 0, 0);
    record_side(p->b, 2 * seed + 1, SHIFT, drops_b);
}

/* The JSON row of span `name` (one row per line): its line, NUL-terminated in a static buffer. */
static const char *json_row(const char *out, const char *name)
{
    static char line[4096];
    char key[128];
    snprintf(key, sizeof key, "{\"kind\":\"span\",\"name\":\"%s\",", name);
    const char *p = strstr(out, key);
    cr_assert_not_null(p, "no row %s in\n%s", name, out);
    size_t n = strcspn(p, "\n");
    cr_assert_lt(n, sizeof line);
    memcpy(line, p, n);
    line[n] = 0;
    return line;
}

static double json_num(const char *row, const char *member)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\":", member);
    const char *p = strstr(row, key);
    cr_assert_not_null(p, "no %s in %s", member, row);
    return strtod(p + strlen(key), NULL);
}

/* The p99 change interval of a row contains x. */
static int ci_has(const char *row, double x)
{
    const char *p = strstr(row, "\"p99_change_ci\":[");
    cr_assert_not_null(p, "no p99 interval: %s", row);
    char *end;
    double lo = strtod(p + strlen("\"p99_change_ci\":["), &end);
    double hi = strtod(end + 1, NULL);
    return lo <= x && x <= hi;
}

static int significant(const char *row)
{
    return strstr(row, "\"significant\":true") != NULL;
}

Test(diff, shifted_found_unchanged_and_noisy_not_over_100_seeds)
{
    unsigned fp_same = 0, fp_noisy = 0, found = 0, ci_shift = 0, ci_same = 0, ci_noisy = 0;
    for (uint64_t seed = 1; seed <= 100; seed++) {
        pair_t p;
        make_pair(&p, seed, 0);
        cli_run_t r = cli_run(EVREC_CLI_PATH, "diff", "--format", "json", p.a, p.b, NULL);
        cr_assert_eq(r.status, 0, "%s", r.err);
        const char *row = json_row(r.out, "Step[Shifted]");
        found += significant(row);
        double change = json_num(row, "change"); /* p50, ns */
        cr_assert(change > (SHIFT - 15) * 1000.0 && change < (SHIFT + 15) * 1000.0,
                  "seed %llu: p50 change %g ns, expected about %u us", (unsigned long long)seed, change, SHIFT);
        ci_shift += ci_has(row, SHIFT * 1000.0) && !ci_has(row, 0);
        fp_same += significant(json_row(r.out, "Step[Same]"));
        fp_noisy += significant(json_row(r.out, "Step[Noisy]"));
        ci_same += ci_has(json_row(r.out, "Step[Same]"), 0);
        ci_noisy += ci_has(json_row(r.out, "Step[Noisy]"), 0);
        cli_run_free(&r);
        free(p.dir);
    }
    cr_log_info("shift found in %u of 100 seeds; false positives: unchanged %u, noisy %u (alpha 0.01)", found,
                fp_same, fp_noisy);
    cr_log_info("p99 change intervals: shifted holds +%u us and not 0 in %u of 100, unchanged holds 0 in %u, "
                "noisy in %u",
                SHIFT, ci_shift, ci_same, ci_noisy);
    cr_assert_eq(found, 100u, "the shift was found in %u of 100 seeds", found);
    cr_assert_geq(ci_shift, 90u, "the p99 interval held the shift (and not 0) in %u of 100 seeds", ci_shift);
    cr_assert_geq(ci_same, 90u, "the p99 interval of the unchanged held 0 in %u of 100 seeds", ci_same);
    cr_assert_geq(ci_noisy, 90u, "the p99 interval of the noisy held 0 in %u of 100 seeds", ci_noisy);
    cr_assert_leq(fp_same, 5u, "unchanged reported significant in %u of 100 seeds", fp_same);
    cr_assert_leq(fp_noisy, 5u, "noisy reported significant in %u of 100 seeds", fp_noisy);
}

/* ---- budgets: exit 0 within, 1 over (one line each, with the record to look at), 2 bad ---- */

static cli_run_t diff_run(const pair_t *p, const char *o1, const char *o2, const char *o3, const char *o4)
{
    const char *argv[12] = {EVREC_CLI_PATH, "diff"};
    int n = 2;
    const char *opts[4] = {o1, o2, o3, o4};
    for (int i = 0; i < 4 && opts[i]; i++) {
        argv[n++] = opts[i];
    }
    argv[n++] = p->a;
    argv[n++] = p->b;
    argv[n] = NULL;
    return cli_run_argv(NULL, argv);
}

Test(diff, budgets_pass_and_fail_with_their_exit_codes)
{
    pair_t p;
    make_pair(&p, 7, 3);
    cli_run_t r = diff_run(&p, "--max", "span Step[Same] p99: +10%", "--max", "span Step[Shifted] p50: +50%");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.out, "budget: 2 rule(s), 0 over budget"), "%s", r.out);
    cr_assert_null(strstr(r.out, "over budget:"), "%s", r.out);
    cli_run_free(&r);

    r = diff_run(&p, "--max", "span Step[Shifted] p50: +10%", "--max", "event Drop count: 0");
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    char want[1200];
    snprintf(want, sizeof want, "over budget: span Step[Shifted] p50: +10%%: ");
    cr_assert_not_null(strstr(r.out, want), "%s", r.out);
    snprintf(want, sizeof want, "; worst: evrec dump %s --from '#", p.b);
    cr_assert_not_null(strstr(r.out, want), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "over budget: event Drop count: 0: 0 -> 3"), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "budget: 2 rule(s), 2 over budget"), "%s", r.out);
    cli_run_free(&r);

    r = diff_run(&p, "--max", "span Step[Noisy] max: 1us", NULL, NULL);
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cli_run_free(&r);
    free(p.dir);
}

Test(diff, a_rule_on_something_absent_or_malformed_is_an_error)
{
    pair_t p;
    make_pair(&p, 8, 0);
    static const char *const bad[] = {"span Nope p99: +5%",  "span Step[Nope] p50: +5%", "span Step p99 +5%",
                                      "span Step cpu: +1pt", "task Step p99: 5furlongs", "gizmo Step p99: +5%",
                                      "event Drop p99: 1us", "span Step p99: 5%"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cli_run_t r = diff_run(&p, "--max", bad[i], NULL, NULL);
        cr_assert_eq(r.status, 2, "'%s': status %d\n%s%s", bad[i], r.status, r.out, r.err);
        cr_assert_not_null(strstr(r.err, "budget rule"), "'%s': %s", bad[i], r.err);
        cli_run_free(&r);
    }
    char missing[600];
    snprintf(missing, sizeof missing, "%s/none.evr", p.dir);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "diff", p.a, missing, NULL);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cli_run_free(&r);
    free(p.dir);
}

Test(diff, budget_file)
{
    pair_t p;
    make_pair(&p, 9, 1);
    char path[600], bad[600];
    snprintf(path, sizeof path, "%s/budget.yaml", p.dir);
    snprintf(bad, sizeof bad, "%s/bad.yaml", p.dir);
    cr_assert_eq(cli_write_file(path, "# SPDX-License-Identifier: Apache-2.0\n"
                                      "span Step[Same] p99: +10%\n"
                                      "span Step[Shifted] p50: +5%\n"
                                      "event Drop count: 0\n"),
                 0);
    cr_assert_eq(cli_write_file(bad, "span Step p99: +5%\n- oops\n"), 0);
    cli_run_t r = diff_run(&p, "--budget", path, NULL, NULL);
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.out, "budget: 3 rule(s), 2 over budget"), "%s", r.out);
    cli_run_free(&r);
    r = diff_run(&p, "--budget", bad, NULL, NULL);
    cr_assert_eq(r.status, 2, "%s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.err, "bad.yaml:2:"), "%s", r.err);
    cli_run_free(&r);
    free(p.dir);
}

/* ---- outputs: the JSON parses (python3's json.tool), the Markdown is one well-formed table ---- */

Test(diff, json_parses_and_markdown_is_a_table)
{
    pair_t p;
    make_pair(&p, 10, 2);
    cli_run_t r = diff_run(&p, "--format", "json", NULL, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char path[600];
    snprintf(path, sizeof path, "%s/out.json", p.dir);
    cr_assert_eq(cli_write_file(path, r.out), 0);
    cli_run_free(&r);
#ifdef EVREC_PYTHON3
    r = cli_run(EVREC_PYTHON3, "-m", "json.tool", path, NULL);
    cr_assert_eq(r.status, 0, "python3 -m json.tool: %s", r.err);
    cli_run_free(&r);
#else
    cr_log_warn("no python3: the JSON was not parsed");
#endif

    r = diff_run(&p, "--format", "markdown", NULL, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    int rows = 0, cols = -1;
    for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] != '|') {
            cr_assert_eq(rows, 0, "text after the table: %s", line);
            continue;
        }
        int n = 0;
        for (const char *c = line; *c; c++) {
            n += *c == '|';
        }
        cr_assert_eq(line[strlen(line) - 1], '|', "%s", line);
        cr_assert(cols < 0 || n == cols, "%d cells, the header has %d: %s", n, cols, line);
        cols = n;
        cr_assert(rows != 1 || strspn(line, "|-") == strlen(line), "not a separator line: %s", line);
        rows++;
    }
    cr_assert_geq(rows, 2 + 4, "header, separator, Step and its 3 tracks, the events");
    cli_run_free(&r);
    free(p.dir);
}

/* ---- a lossy side: said first, before the table; the comparison is still made ---- */

Test(diff, losses_come_first)
{
    pair_t p;
    make_pair(&p, 11, 0);
    size_t len;
    char *data = cli_read_file(p.b, &len);
    cr_assert_not_null(data);
    FILE *f = fopen(p.b, "wb"); /* cut: the reader stops at the damage */
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(data, 1, len * 2 / 3, f), len * 2 / 3);
    cr_assert_eq(fclose(f), 0);
    free(data);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "diff", p.a, p.b, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *lossy = strstr(r.out, "THIS COMPARISON IS LOSSY: records are missing on B");
    const char *damage = strstr(r.out, "losses B: 1 damaged range(s)");
    const char *table = strstr(r.out, "\nKIND ");
    cr_assert(lossy && damage && table && damage < table && lossy < table, "%s", r.out);
    cr_assert_not_null(strstr(r.out, "losses A: none"), "%s", r.out);
    cli_run_free(&r);
    free(p.dir);
}
