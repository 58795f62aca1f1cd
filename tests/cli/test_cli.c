/* SPDX-License-Identifier: Apache-2.0 */
/* The `evrec` command: info and dump on good, damaged and CCore files; help; bad usage; exit
 * codes 0 / 1 / 2; errors on stderr prefixed "evrec: ". Runs the built binary. */
#include <criterion/criterion.h>

#include "cli_run.h"
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reader_fixtures.h"
#include "../common/test_tmp.h"

#define REF_PATH EVREC_TEST_DATA "/ccore/ref.bin"

/* Child processes: tests/cli/cli_run.c. */
typedef cli_run_t run_t;
#define run_prog cli_run
#define run_free cli_run_free
#define run_evrec(...) cli_run(EVREC_CLI_PATH, __VA_ARGS__, (const char *)NULL)

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++) {
        n += *s == '\n';
    }
    return n;
}

/* Every stderr line starts with "evrec: ". */
static void stderr_lines_prefixed(const run_t *r)
{
    for (const char *line = r->err; *line;) {
        cr_assert(strncmp(line, "evrec: ", 7) == 0, "stderr line without prefix: %s", line);
        const char *nl = strchr(line, '\n');
        cr_assert_not_null(nl, "stderr line without newline");
        line = nl + 1;
    }
}

#define assert_has(hay, needle) cr_assert(strstr((hay), (needle)) != NULL, "missing <%s> in:\n%s", (needle), (hay))

/* ---- help and usage ---- */

Test(cli, help)
{
    run_t r = run_evrec("--help");
    cr_assert_eq(r.status, 0);
    assert_has(r.out, "usage: evrec <command>");
    assert_has(r.out, "  info ");
    assert_has(r.out, "  dump ");
    cr_assert_eq(r.err_len, 0u);
    run_free(&r);
    r = run_evrec("help");
    cr_assert_eq(r.status, 0);
    assert_has(r.out, "commands:");
    run_free(&r);
    r = run_evrec("help", "dump");
    cr_assert_eq(r.status, 0);
    assert_has(r.out, "usage: evrec dump");
    run_free(&r);
    r = run_evrec("dump", "--help");
    cr_assert_eq(r.status, 0);
    assert_has(r.out, "--limit N");
    run_free(&r);
    r = run_evrec("info", "-h");
    cr_assert_eq(r.status, 0);
    assert_has(r.out, "usage: evrec info");
    run_free(&r);
}

/* `evrec --help`: every summary starts in the same column, also after the long command names
 * (qs-decode, syst-decode), and at least two blanks after the longest name. */
Test(cli, help_summaries_aligned)
{
    run_t r = run_evrec("--help");
    cr_assert_eq(r.status, 0);
    const char *p = strstr(r.out, "commands:\n");
    cr_assert_not_null(p);
    p += strlen("commands:\n");
    size_t column = 0, lines = 0;
    while (*p == ' ') {
        const char *nl = strchr(p, '\n');
        cr_assert_not_null(nl);
        size_t name_end = 2 + strcspn(p + 2, " ");
        size_t col = name_end + strspn(p + name_end, " ");
        cr_assert_geq(col, name_end + 2, "fewer than 2 blanks after the name: %.*s", (int)(nl - p), p);
        if (lines++ == 0) {
            column = col;
        }
        cr_assert_eq(col, column, "summary in column %zu, not %zu: %.*s", col, column, (int)(nl - p), p);
        p = nl + 1;
    }
    cr_assert_geq(lines, 12u, "the command list");
    run_free(&r);
}

Test(cli, bad_usage_exits_2)
{
    static const char *const cases[][4] = {
        {"frobnicate", REF_PATH, NULL, NULL}, {"info", NULL, NULL, NULL},
        {"info", REF_PATH, REF_PATH, NULL},   {"dump", "--limit", "ten", REF_PATH},
        {"dump", "--nope", REF_PATH, NULL},   {"dump", "--tick-hz", "0", REF_PATH},
        {"dump", REF_PATH, "--limit", NULL},  {"help", "nothing", NULL, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_t r = run_prog(EVREC_CLI_PATH, cases[i][0], cases[i][1], cases[i][2], cases[i][3], (const char *)NULL);
        cr_assert_eq(r.status, 2, "case %zu: exit %d", i, r.status);
        cr_assert_eq(count_lines(r.err), 1u, "case %zu: %s", i, r.err);
        stderr_lines_prefixed(&r);
        cr_assert_eq(r.out_len, 0u, "case %zu", i);
        run_free(&r);
    }
    run_t r = run_prog(EVREC_CLI_PATH, (const char *)NULL);
    cr_assert_eq(r.status, 2);
    assert_has(r.err, "usage:");
    run_free(&r);
}

/* ---- ref.bin (bare CCore) ---- */

Test(cli, info_ccore)
{
    run_t r = run_evrec("info", REF_PATH);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, "format:      ccore");
    assert_has(r.out, "time_freq:   1000000 Hz\n");
    assert_has(r.out, "event types: 3\n");
    assert_has(r.out, "      0  EventControl  -                    7               3\n");
    assert_has(r.out, "      1  NestEvent     ObjEvent            13               1\n");
    assert_has(r.out, "      2  ObjEvent      -                    9               2\n");
    assert_has(r.out, "records:     6\n");
    assert_has(r.out, "duration:    0.005000000 s (5000 ticks)\n");
    assert_has(r.out, "first time:  0xFFFFF000");
    assert_has(r.out, "last time:   0x00000388");
    assert_has(r.out, "damage:      intact\n");
    cr_assert_eq(r.err_len, 0u);
    run_free(&r);
}

Test(cli, dump_ccore_exact)
{
    run_t r = run_evrec("dump", REF_PATH);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.out,
                     "     0.000000000  EventControl            type=Start [Push]\n"
                     "     0.001000000  ObjEvent                obj=ObjA type=Lock [Up]\n"
                     "     0.002000000  EventControl            type=Tick [Tick]\n"
                     "     0.003000000  NestEvent     ObjEvent  obj=ObjB inner.a=90 inner.b=16909060 [Push]\n"
                     "     0.004000000  ObjEvent                obj=ObjA type=Unlock [Down]\n"
                     "     0.005000000  EventControl            type=Stop [Stop]\n");
    cr_assert_eq(r.err_len, 0u);
    run_free(&r);
    r = run_evrec("dump", "--limit", "2", "--hex", "--offsets", REF_PATH);
    cr_assert_eq(r.status, 0);
    cr_assert_str_eq(r.out, "         426       0.000000000  EventControl            type=Start [Push]\n"
                            "         433       0.001000000  ObjEvent                obj=ObjA type=Lock [Up]\n");
    run_free(&r);
    /* options may also follow the file, as in the README's quick start */
    r = run_evrec("dump", REF_PATH, "--limit", "2", "--offsets");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(count_lines(r.out), 2u);
    run_free(&r);
    r = run_evrec("info", REF_PATH, "--help");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    r = run_evrec("dump", "-x", "-n", "4", REF_PATH);
    assert_has(r.out, "inner.a=0x5A inner.b=0x01020304 [Push]\n");
    run_free(&r);
}

/* ---- recorded containers ---- */

static char *recorded_file(size_t n, int bare, uint64_t *recorded, fx_buf_t *keep)
{
    fx_buf_t f = {0};
    uint64_t rc = fx_record(n, bare, &f);
    if (recorded) {
        *recorded = rc;
    }
    char *path = fx_temp_file(f.p, f.len, ".evr");
    if (keep) {
        *keep = f;
    } else {
        fx_buf_free(&f);
    }
    return path;
}

Test(cli, info_and_dump_container)
{
    uint64_t recorded;
    char *path = recorded_file(30, 0, &recorded, NULL);
    run_t r = run_evrec("info", path);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, "format:      evrec container v1.3");
    char want[128];
    snprintf(want, sizeof want, "schema hash: 0x%016llx (matches the meta-info)\n",
             (unsigned long long)fx_meta_init()->schema_hash);
    assert_has(r.out, want);
    snprintf(want, sizeof want, "records:     %llu; header: %llu recorded\n", (unsigned long long)recorded,
             (unsigned long long)recorded);
    assert_has(r.out, want);
    assert_has(r.out, "dropped:     0\n");
    assert_has(r.out, "      2  EvSimple      EvAll               10              15\n");
    assert_has(r.out, "damage:      intact\n");
    run_free(&r);

    r = run_evrec("dump", path);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(count_lines(r.out), recorded);
    cr_assert_eq(r.err_len, 0u);
    /* Times come from the TSC; the rest of each line is exact. Columns: name padded to the
     * longest event name (EventControl), class column only for events of another class. */
    assert_has(r.out, "0.000000000  EventControl         type=Start [Push]\n");
    assert_has(r.out, "  EvAll                a=0 b=0 c=0 color=Red level=Info type=High in.p=48879 in.q.x=1 "
                      "in.q.y=4294967295 in.color=Green obj=TaskA [Wait]\n");
    assert_has(r.out, "  EvSimple      EvAll  v=2768281143\n");
    /* type=2 has no name: no marker although color=Blue has one (the `type` field wins). */
    assert_has(r.out,
               "  EvAll                a=14 b=62 c=1013904226 color=Blue level=2 type=2 in.p=48877 in.q.x=3 "
               "in.q.y=4294967293 in.color=Plain obj=TaskC\n");
    assert_has(r.out, " obj=\"Task B\"");
    assert_has(r.out, "  EventControl         type=Tick [Tick]\n");
    assert_has(r.out, "  EventControl         type=Stop [Stop]\n");
    run_free(&r);
    unlink(path);
    free(path);
}

/* ---- damaged files ---- */

Test(cli, damaged_container_exit_1_good_records_printed)
{
    fx_buf_t f;
    uint64_t recorded;
    char *path = recorded_file(3000, 0, &recorded, &f);
    fx_chunk_t ch[32];
    size_t n = fx_chunks(f.p, f.len, ch, 32);
    cr_assert_geq(n, 6u);
    /* Flip a byte in the second STREAM chunk (not the last one). */
    size_t k = 0, streams = 0;
    for (size_t i = 0; i < n; i++) {
        if (ch[i].type == EVREC_CHUNK_STREAM && ++streams == 2) {
            k = i;
        }
    }
    cr_assert_geq(streams, 3u);
    uint64_t bad_chunk = ch[k].off;
    f.p[bad_chunk + 50] ^= 0xFF;
    char *bad = fx_temp_file(f.p, f.len, ".evr");
    fx_read_t rd;
    fx_read_all(f.p, f.len, NULL, &rd);
    size_t good = rd.count;
    size_t before = 0;
    while (before < rd.count && rd.recs[before].r.offset < bad_chunk) {
        before++;
    }
    fx_read_free(&rd);
    cr_assert_gt(before, 100u);
    cr_assert_gt(good, before);
    cr_assert_lt(good, recorded);

    run_t r = run_evrec("dump", bad);
    cr_assert_eq(r.status, 1);
    cr_assert_eq(count_lines(r.out), good);
    assert_has(r.out, " records lost)\n");
    cr_assert_eq(count_lines(r.err), 1u);
    stderr_lines_prefixed(&r);
    char want[256];
    snprintf(want, sizeof want, "evrec: %s: offset %llu: STREAM chunk at offset %llu", bad,
             (unsigned long long)bad_chunk, (unsigned long long)bad_chunk);
    assert_has(r.err, want);
    run_free(&r);

    r = run_evrec("info", bad);
    cr_assert_eq(r.status, 1);
    snprintf(want, sizeof want, "damage:      offset %llu: STREAM chunk", (unsigned long long)bad_chunk);
    assert_has(r.out, want);
    snprintf(want, sizeof want, "records:     %zu; header: %llu recorded", good, (unsigned long long)recorded);
    assert_has(r.out, want);
    cr_assert_eq(count_lines(r.err), 1u);
    stderr_lines_prefixed(&r);
    run_free(&r);

    /* Truncated: the records of the cut chunk are printed, flagged unverified. */
    char *cut = fx_temp_file(f.p, (size_t)bad_chunk + 2000, ".evr");
    r = run_evrec("dump", cut);
    cr_assert_eq(r.status, 1);
    cr_assert_gt(count_lines(r.out), before);
    assert_has(r.out, " (unverified)\n");
    snprintf(want, sizeof want, "evrec: %s: offset %llu: file ends at offset %llu inside the STREAM chunk", cut,
             (unsigned long long)bad_chunk, (unsigned long long)bad_chunk + 2000);
    assert_has(r.err, want);
    run_free(&r);

    unlink(bad);
    unlink(cut);
    unlink(path);
    free(bad);
    free(cut);
    free(path);
    fx_buf_free(&f);
}

/* A byte flipped in a STREAM chunk in the middle: the reader resumes at the next SYNC point.
 * export puts the loss between the last record before the gap and the first after it, with the
 * count and the first lost index; stats lists the range; timeline draws a gap strip there. */
Test(cli, damage_in_the_middle_export_stats_timeline)
{
    fx_buf_t f;
    char *path = recorded_file(3000, 0, NULL, &f);
    fx_chunk_t ch[32];
    size_t n = fx_chunks(f.p, f.len, ch, 32);
    size_t k = 0, streams = 0;
    for (size_t i = 0; i < n; i++) {
        if (ch[i].type == EVREC_CHUNK_STREAM && ++streams == 2) {
            k = i;
        }
    }
    cr_assert_geq(streams, 3u);
    uint64_t bad_chunk = ch[k].off;
    f.p[bad_chunk + 50] ^= 0xFF;
    char *bad = fx_temp_file(f.p, f.len, ".evr");
    /* the reader's tracks: the first record after the gap and the records lost */
    fx_read_t rd;
    fx_read_all(f.p, f.len, NULL, &rd);
    uint64_t after = UINT64_MAX, prev = 0;
    for (size_t i = 1; i < rd.count; i++) {
        if (rd.recs[i].r.gap) {
            after = rd.recs[i].r.index;
            prev = rd.recs[i - 1].r.index;
        }
    }
    fx_read_free(&rd);
    cr_assert_neq(after, UINT64_MAX, "no record flagged after the gap");
    uint64_t lost = after - prev - 1;
    cr_assert_gt(lost, 0u);

    /* CSV: the loss row right after record prev and right before record after */
    run_t r = run_evrec("export", "--csv", "-", bad);
    cr_assert_eq(r.status, 1);
    char want[256], prev_row[64], after_row[64];
    snprintf(want, sizeof want, "\r\n%llu,loss,", (unsigned long long)(prev + 1));
    const char *loss = strstr(r.out, want);
    cr_assert_not_null(loss, "no loss row at %llu:\n%.2000s", (unsigned long long)(prev + 1), r.out);
    const char *eol = strstr(loss + 2, "\r\n");
    cr_assert_not_null(eol);
    snprintf(want, sizeof want, ",damage,%llu,%llu,", (unsigned long long)lost, (unsigned long long)bad_chunk);
    cr_assert(strstr(loss, want) && strstr(loss, want) < eol, "loss row without <%s>: %.300s", want, loss);
    snprintf(after_row, sizeof after_row, "\r\n%llu,record,", (unsigned long long)after);
    cr_assert_eq(strncmp(eol, after_row, strlen(after_row)), 0, "the loss row is not followed by record %llu",
                 (unsigned long long)after);
    snprintf(prev_row, sizeof prev_row, "\r\n%llu,record,", (unsigned long long)prev);
    const char *p = strstr(r.out, prev_row);
    cr_assert(p && strstr(p + 2, "\r\n") == loss, "the loss row does not follow record %llu",
              (unsigned long long)prev);
    cr_assert_null(strstr(eol, ",loss,"), "a second loss row (the damage is reported once)");
    run_free(&r);

    /* JSON Lines: the same object, count and i */
    r = run_evrec("export", "--jsonl", "-", bad);
    cr_assert_eq(r.status, 1);
    snprintf(want, sizeof want,
             "{\"kind\":\"loss\",\"i\":%llu,\"reason\":\"damage\",\"count\":%llu,\"position_known\":true,",
             (unsigned long long)(prev + 1), (unsigned long long)lost);
    assert_has(r.out, want);
    run_free(&r);

    /* stats: the range in text and JSON */
    r = run_evrec("stats", bad);
    cr_assert_eq(r.status, 1);
    snprintf(want, sizeof want, "damage:      1 damaged range, %llu records lost", (unsigned long long)lost);
    assert_has(r.out, want);
    snprintf(want, sizeof want, "offset %llu +", (unsigned long long)bad_chunk);
    assert_has(r.out, want);
    run_free(&r);
    r = run_evrec("stats", "--format", "json", bad);
    cr_assert_eq(r.status, 1);
    snprintf(want, sizeof want, "\"damage\":{\"ranges\":1,\"records_lost\":%llu,\"stopped\":false,",
             (unsigned long long)lost);
    assert_has(r.out, want);
    snprintf(want, sizeof want, "\"records_lost\":%llu,\"index_after\":%llu,", (unsigned long long)lost,
             (unsigned long long)after);
    assert_has(r.out, want);
    run_free(&r);

    /* timeline: a gap strip with the count; no strip at the end (the reader read on) */
    char lay[64], png[64];
    snprintf(lay, sizeof lay, "%s.layout", bad);
    snprintf(png, sizeof png, "%s.png", bad);
    r = run_evrec("timeline", "--layout", lay, "-o", png, bad);
    cr_assert_eq(r.status, 1);
    run_free(&r);
    char *text = cli_read_file(lay, NULL);
    cr_assert_not_null(text);
    snprintf(want, sizeof want, " %llu\n", (unsigned long long)lost);
    const char *gl = strstr(text, "\ngap ");
    cr_assert(gl && strstr(gl, want), "no gap line with %llu records lost:\n%s", (unsigned long long)lost, text);
    assert_has(text, "\ngaps 0 0\n");
    free(text);
    unlink(lay);
    unlink(png);

    /* cut at the gap chunk: the reader stops there; the loss goes to the end, count unknown */
    char *cut = fx_temp_file(f.p, (size_t)bad_chunk + 100, ".evr");
    r = run_evrec("export", "--jsonl", "-", cut);
    cr_assert_eq(r.status, 1);
    assert_has(r.out, "\"reason\":\"damage\",\"count\":null,\"position_known\":true,");
    run_free(&r);
    snprintf(lay, sizeof lay, "%s.layout", cut);
    snprintf(png, sizeof png, "%s.png", cut);
    r = run_evrec("timeline", "--layout", lay, "-o", png, cut);
    cr_assert_eq(r.status, 1);
    run_free(&r);
    text = cli_read_file(lay, NULL);
    cr_assert_not_null(text);
    cr_assert_null(strstr(text, "\ngap "), "a gap strip in a file that ends at the damage:\n%s", text);
    cr_assert_null(strstr(text, "\ngaps 0 0\n"), "no strip at the end of a file the reader stopped in:\n%s", text);
    free(text);
    unlink(lay);
    unlink(png);

    unlink(cut);
    unlink(bad);
    unlink(path);
    free(cut);
    free(bad);
    free(path);
    fx_buf_free(&f);
}

Test(cli, unreadable_inputs_exit_1)
{
    run_t r = run_evrec("info", "/nonexistent/file.evr");
    cr_assert_eq(r.status, 1);
    assert_has(r.err, "evrec: /nonexistent/file.evr: cannot open: No such file or directory\n");
    cr_assert_eq(r.out_len, 0u);
    run_free(&r);
    char *text = fx_temp_file("hello world, this is not a trace\n", 33, ".txt");
    r = run_evrec("dump", text);
    cr_assert_eq(r.status, 1);
    assert_has(r.err, ": offset 8: no evrec magic, and not a valid CCore stream: enum count");
    cr_assert_eq(count_lines(r.err), 1u);
    run_free(&r);
    unlink(text);
    free(text);
}

/* time_freq 0: seconds from the ticks at 10 Hz, or at the rate given with --tick-hz. */
Test(cli, tick_derived_time)
{
    fx_native_t n = {0};
    fx_native_control(&n, 0, EVREC_CONTROL_START);
    for (uint32_t k = 1; k <= 4; k++) {
        fx_native_simple(&n, k * 1000u - 500u, k);
        fx_native_control(&n, k * 1000u, EVREC_CONTROL_TICK);
    }
    fx_native_control(&n, 4100u, EVREC_CONTROL_STOP);
    fx_buf_t f = {0};
    fx_native_save(&n, 0, 0, &f);
    char *path = fx_temp_file(f.p, f.len, ".evr");
    run_t r = run_evrec("dump", path);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, "     0.050000000  EvSimple      EvAll  v=1\n");
    assert_has(r.out, "     0.400000000  EventControl         type=Tick [Tick]\n");
    assert_has(r.out, "     0.410000000  EventControl         type=Stop [Stop]\n");
    run_free(&r);
    r = run_evrec("dump", "--tick-hz", "1000", path);
    assert_has(r.out, "     0.004000000  EventControl         type=Tick [Tick]\n");
    run_free(&r);
    r = run_evrec("info", path);
    assert_has(r.out, "time_freq:   0 (unknown); using 10000 Hz derived from the ticks\n");
    assert_has(r.out, "ticks:       4\n");
    run_free(&r);
    unlink(path);
    free(path);
    fx_buf_free(&f);
    fx_native_free(&n);
}

#ifdef EVREC_DEMO_PATH
/* End to end: the demo program's file through info and dump. */
Test(cli, demo_file)
{
    char path[256];
    int fd = test_tmp_file(path, sizeof path, "demo"); /* removed at exit, also on failure */
    cr_assert(fd >= 0);
    close(fd);
    run_t d = run_prog(EVREC_DEMO_PATH, "-o", path, "--frames", "20", (const char *)NULL);
    cr_assert_eq(d.status, 0, "evrec-demo failed: %s%s", d.out, d.err);
    run_free(&d);
    run_t r = run_evrec("info", path);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, "format:      evrec container v1.");
    assert_has(r.out, "(matches the meta-info)");
    assert_has(r.out, "damage:      intact\n");
    run_free(&r);
    r = run_evrec("dump", path);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_gt(count_lines(r.out), 20u);
    assert_has(r.out, "EventControl");
    assert_has(r.out, "type=Start [Push]\n");
    assert_has(r.out, "type=Stop [Stop]\n");
    run_free(&r);
    unlink(path);
}
#endif

/* qs-decode and syst-decode --schema: the schema loader's errors are stderr lines like every
 * other, "evrec: FILE:LINE:COLUMN: ..." (they came through unprefixed). */
Test(cli, decoders_schema_errors_prefixed)
{
    char *dir = cli_temp_dir("bad-schema");
    char path[4096];
    snprintf(path, sizeof path, "%s/bad.yaml", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("schema: bad\nversion: 1.0\nevents:\n  - name: A\n    fields:\n      - {name: x, type: nosuchtype}\n",
          f);
    fclose(f);
    static const char *const cmds[] = {"qs-decode", "syst-decode"};
    for (size_t i = 0; i < 2; i++) {
        run_t r = run_evrec(cmds[i], "--schema", path, EVREC_TEST_DATA "/qs/sample.bin");
        cr_assert_eq(r.status, 1, "%s: %s", cmds[i], r.err);
        assert_has(r.err, "bad.yaml:6:25: error: unknown type 'nosuchtype'");
        stderr_lines_prefixed(&r);
        run_free(&r);
    }
    remove(path);
    rmdir(dir);
    free(dir);
}
