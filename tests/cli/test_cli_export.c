/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec export` (CSV, JSON Lines, bare CCore), the output-file rules, losses, and the viewer
 * papercuts: info/stats exit 1 when standard output cannot be written, UTF-8 names and units under
 * a UTF-8 locale, frequencies with SI suffixes and exponents, the cyclic overwritten count. The
 * field-by-field comparison with `evrec dump` is check_export.py (a ctest of its own). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"
#include "reader_fixtures.h"

#define assert_has(hay, needle) cr_assert(strstr((hay), (needle)) != NULL, "missing <%s> in:\n%s", (needle), (hay))
#define assert_lacks(hay, needle)                                                                                 \
    cr_assert(strstr((hay), (needle)) == NULL, "unexpected <%s> in:\n%s", (needle), (hay))
#define run_evrec(...) cli_run(EVREC_CLI_PATH, __VA_ARGS__, (const char *)NULL)

/* Start, `n` EvSimple records (v = 1000 + k, 1 ms apart), Stop; saved as a container or bare. */
static void native_file(uint32_t n, int bare, fx_buf_t *out)
{
    fx_native_t nat = {0};
    fx_native_control(&nat, 100, EVREC_CONTROL_START);
    for (uint32_t k = 0; k < n; k++) {
        fx_native_simple(&nat, 100 + 1000 * (k + 1), 1000 + k);
    }
    fx_native_control(&nat, 100 + 1000 * (n + 1), EVREC_CONTROL_STOP);
    fx_native_save(&nat, 1000000, bare, out);
    fx_native_free(&nat);
}

static char *native_path(uint32_t n, int bare)
{
    fx_buf_t f = {0};
    native_file(n, bare, &f);
    char *path = fx_temp_file(f.p, f.len, bare ? ".bin" : ".evr");
    fx_buf_free(&f);
    return path;
}

static char *path_in(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static size_t count_of(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle)) {
        n++;
    }
    return n;
}

static size_t dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    }
    closedir(d);
    return n;
}

/* ---- usage ---- */

Test(cli_export, help_and_usage)
{
    cli_run_t r = run_evrec("export", "--help");
    cr_assert_eq(r.status, 0);
    assert_has(r.out, "usage: evrec export");
    assert_has(r.out, "--csv OUT");
    assert_has(r.out, "--jsonl OUT");
    assert_has(r.out, "--ccore OUT");
    cli_run_free(&r);
    r = run_evrec("--help");
    assert_has(r.out, "  export ");
    cli_run_free(&r);
    char *in = native_path(3, 0);
    static const char *const bad[][6] = {
        {"export", "IN", NULL},                                   /* no output */
        {"export", "--csv", "a.csv", "--jsonl", "b.jsonl", "IN"}, /* two outputs */
        {"export", "--csv", "a.csv", NULL},                       /* no input */
        {"export", "--csv", "", "IN", NULL},                      /* empty name */
        {"export", "--frobnicate", "--csv", "-", "IN", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *argv[8] = {EVREC_CLI_PATH};
        for (size_t k = 0; k < 6 && bad[i][k]; k++) {
            argv[k + 1] = strcmp(bad[i][k], "IN") == 0 ? in : bad[i][k];
        }
        r = cli_run_argv(NULL, argv);
        cr_assert_eq(r.status, 2, "case %zu: status %d, stderr %s", i, r.status, r.err);
        assert_has(r.err, "evrec export --help");
        cr_assert_eq(r.out_len, 0u);
        cli_run_free(&r);
    }
    unlink(in);
    free(in);
}

/* ---- CSV and JSONL content ---- */

Test(cli_export, csv_rows_and_columns)
{
    char *in = native_path(3, 0);
    cli_run_t r = run_evrec("export", "--csv", "-", in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* CRLF line ends; header; EventControl's `type` is an enum (name + raw), EvSimple's v a
     * number; class of EvSimple is EvAll. Time: 1 ms apart at 1 MHz. */
    /* The columns are the union over all event types of the file's meta-info (EventControl,
     * EvAll, EvSimple), in meta-info order; EvAll's `type` shares EventControl's column. */
    assert_has(r.out, "index,kind,time_ns,time_s,event,class,type,type.raw,a,b,c,color,color.raw,level,level.raw,"
                      "in.p,in.q.x,in.q.y,in.color,in.color.raw,obj,obj.raw,v,loss,loss_count,loss_offset,"
                      "loss_message\r\n");
    assert_has(r.out, "\r\n0,record,0,0.000000000,EventControl,EventControl,Start,0,,,,,,,,,,,,,,,,,,,\r\n");
    assert_has(r.out, "\r\n1,record,1000000,0.001000000,EvSimple,EvAll,,,,,,,,,,,,,,,,,1000,,,,\r\n");
    assert_has(r.out, "\r\n3,record,3000000,0.003000000,EvSimple,EvAll,,,,,,,,,,,,,,,,,1002,,,,\r\n");
    assert_has(r.out, "\r\n4,record,4000000,0.004000000,EventControl,EventControl,Stop,2,,,,,,,,,,,,,,,,,,,\r\n");
    cr_assert_eq(count_of(r.out, "\r\n"), 6u, "header + 5 records");
    cr_assert_eq(count_of(r.out, "\n"), 6u, "no bare LF");
    cli_run_free(&r);
    unlink(in);
    free(in);
}

Test(cli_export, jsonl_objects)
{
    char *in = native_path(2, 0);
    cli_run_t r = run_evrec("export", "--jsonl", "-", in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out,
               "{\"i\":0,\"t_ns\":0,\"t_s\":0.000000000,\"event\":\"EventControl\",\"class\":\"EventControl\","
               "\"fields\":{\"type\":{\"name\":\"Start\",\"value\":0}}}\n");
    assert_has(r.out, "{\"i\":2,\"t_ns\":2000000,\"t_s\":0.002000000,\"event\":\"EvSimple\",\"class\":\"EvAll\","
                      "\"fields\":{\"v\":1001}}\n");
    cr_assert_eq(count_of(r.out, "\n"), 4u);
    cli_run_free(&r);
    unlink(in);
    free(in);
}

/* Run-time enum names with a comma, a quote, a newline, UTF-8, a control character and an
 * invalid byte, recorded as EvAll.obj values. */
static const char *const odd_names[] = {"a,b",      "say \"hi\"", "line1\nline2", "\xC2\xB5s \xE2\x9C\x93",
                                        "ctl\x01x", "bad\xFFz"};
#define ODD_COUNT (sizeof odd_names / sizeof odd_names[0])

static char *odd_file(void)
{
    const evrec_meta_t *m = fx_meta_init();
    uint32_t values[ODD_COUNT];
    for (size_t i = 0; i < ODD_COUNT; i++) {
        cr_assert_eq(evrec_runtime_enum_alloc(fx_runtime_enum(), odd_names[i], &values[i]), EVREC_OK);
    }
    static uint32_t buf[4096];
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_recorder_init(&rec, buf, sizeof buf);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, m, 1000), EVREC_OK);
    for (size_t i = 0; i < ODD_COUNT; i++) {
        fx_ev_all_t e;
        fx_expect_all(1, &e);
        e.obj = (uint16_t)values[i];
        cr_assert_eq(evrec_record(&host, FX_EVENT_ALL, &e), EVREC_OK);
    }
    evrec_host_stop(&host, NULL);
    fx_buf_t f = {0};
    evrec_sink_t sink = fx_sink(&f);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    char *path = fx_temp_file(f.p, f.len, ".evr");
    fx_buf_free(&f);
    return path;
}

Test(cli_export, csv_quoting)
{
    char *in = odd_file();
    cli_run_t r = run_evrec("export", "--csv", "-", in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, ",\"a,b\",100,");
    assert_has(r.out, ",\"say \"\"hi\"\"\",101,");
    assert_has(r.out, ",\"line1\nline2\",102,");
    assert_has(r.out, ",\xC2\xB5s \xE2\x9C\x93,103,"); /* UTF-8 kept, no quotes needed */
    assert_has(r.out, ",ctl\x01x,104,");               /* RFC 4180 needs no quotes for it */
    assert_has(r.out, ",bad\xEF\xBF\xBDz,105,");       /* invalid byte -> U+FFFD */
    assert_has(r.err, "1 invalid UTF-8 sequence(s)");
    cli_run_free(&r);
    unlink(in);
    free(in);
}

Test(cli_export, json_escaping)
{
    char *in = odd_file();
    cli_run_t r = run_evrec("export", "--jsonl", "-", in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, "\"obj\":{\"name\":\"a,b\",\"value\":100}");
    assert_has(r.out, "\"obj\":{\"name\":\"say \\\"hi\\\"\",\"value\":101}");
    assert_has(r.out, "\"obj\":{\"name\":\"line1\\u000aline2\",\"value\":102}");
    assert_has(r.out, "\"obj\":{\"name\":\"\xC2\xB5s \xE2\x9C\x93\",\"value\":103}");
    assert_has(r.out, "\"obj\":{\"name\":\"ctl\\u0001x\",\"value\":104}");
    assert_has(r.out, "\"obj\":{\"name\":\"bad\\ufffdz\",\"value\":105}");
    assert_has(r.err, "1 invalid UTF-8 sequence(s)");
    cli_run_free(&r);
    unlink(in);
    free(in);
}

/* Python's csv and json modules read the odd names back exactly (invalid byte as U+FFFD). */
Test(cli_export, python_parses_odd_names)
{
    if (access("/usr/bin/python3", X_OK) != 0) {
        cr_skip_test("python3 not installed");
    }
    char *in = odd_file();
    char *dir = cli_temp_dir("export_py");
    char *csv = path_in(dir, "o.csv"), *jsonl = path_in(dir, "o.jsonl");
    cli_run_t r = run_evrec("export", "--csv", csv, in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    r = run_evrec("export", "--jsonl", jsonl, in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    static const char script[] =
        "import csv, json, sys\n"
        "want = ['a,b', 'say \"hi\"', 'line1\\nline2', '\\u00b5s \\u2713', 'ctl\\x01x', 'bad\\ufffdz']\n"
        "with open(sys.argv[1], newline='', encoding='utf-8') as f:\n"
        "    rows = list(csv.DictReader(f))\n"
        "got = [r['obj'] for r in rows if r['event'] == 'EvAll']\n"
        "assert got == want, got\n"
        "assert all(len(r) == len(rows[0]) and None not in r for r in rows)\n"
        "objs = [json.loads(l) for l in open(sys.argv[2], encoding='utf-8')]\n"
        "got = [o['fields']['obj']['name'] for o in objs if o['event'] == 'EvAll']\n"
        "assert got == want, got\n"
        "assert [o['fields']['obj']['value'] for o in objs if o['event'] == 'EvAll'] == list(range(100, 106))\n"
        "print('ok')\n";
    r = cli_run("/usr/bin/python3", "-c", script, csv, jsonl, (const char *)NULL);
    cr_assert_eq(r.status, 0, "python: %s%s", r.out, r.err);
    assert_has(r.out, "ok");
    cli_run_free(&r);
    unlink(csv);
    unlink(jsonl);
    rmdir(dir);
    free(csv);
    free(jsonl);
    free(dir);
    unlink(in);
    free(in);
}

/* ---- bare CCore ---- */

Test(cli_export, ccore_equals_the_library_bare_save)
{
    fx_buf_t bare = {0};
    native_file(50, 1, &bare);
    char *in = native_path(50, 0);
    char *dir = cli_temp_dir("export_ccore");
    char *out = path_in(dir, "o.bin");
    cli_run_t r = run_evrec("export", "--ccore", out, in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    size_t len;
    char *got = cli_read_file(out, &len);
    cr_assert_not_null(got);
    cr_assert_eq(len, bare.len);
    cr_assert(memcmp(got, bare.p, len) == 0, "the export differs from evrec_save_ex(bare_ccore)");
    free(got);
    unlink(out);
    rmdir(dir);
    free(out);
    free(dir);
    fx_buf_free(&bare);
    unlink(in);
    free(in);
}

/* A real recording (run-time names, nested structs, ticks): the exported stream read back as a
 * bare stream gives the container's records: ids, times, bytes, fields. */
Test(cli_export, ccore_reads_back_as_the_container)
{
    fx_buf_t f = {0};
    fx_record(300, 0, &f);
    char *in = fx_temp_file(f.p, f.len, ".evr");
    char *dir = cli_temp_dir("export_ccore2");
    char *out = path_in(dir, "o.bin");
    cli_run_t r = run_evrec("export", "--ccore", out, in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    size_t len;
    char *got = cli_read_file(out, &len);
    cr_assert_not_null(got);
    fx_read_t a, b;
    fx_read_all(f.p, f.len, NULL, &a);
    fx_read_all(got, len, NULL, &b);
    cr_assert_eq(a.end, EVREC_E_END);
    cr_assert_eq(b.end, EVREC_E_END, "read back: %s", b.err.message);
    cr_assert_eq(a.count, b.count);
    cr_assert_gt(a.count, 300u);
    for (size_t i = 0; i < a.count; i++) {
        cr_assert_eq(a.recs[i].r.id, b.recs[i].r.id, "record %zu", i);
        cr_assert_eq(a.recs[i].r.time32, b.recs[i].r.time32, "record %zu", i);
        cr_assert_eq(a.recs[i].r.t64, b.recs[i].r.t64, "record %zu", i);
        cr_assert_eq(a.recs[i].r.ns, b.recs[i].r.ns, "record %zu", i);
        cr_assert_eq(a.recs[i].r.size, b.recs[i].r.size, "record %zu", i);
        cr_assert(memcmp(a.recs[i].data, b.recs[i].data, a.recs[i].r.size) == 0, "record %zu", i);
    }
    /* Fields, enum names (run-time ones included): `evrec dump` of both says the same. */
    evrec_reader_t *ra, *rb;
    cr_assert_eq(evrec_reader_open_memory(&ra, f.p, f.len, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_open_memory(&rb, got, len, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_info(rb)->format, EVREC_FILE_CCORE);
    /* (The schema hashes differ: a bare stream has no RUNTIME_ENUMS ranges, only the names.) */
    cr_assert_eq(evrec_reader_meta(ra)->event_count, evrec_reader_meta(rb)->event_count);
    evrec_reader_close(ra);
    evrec_reader_close(rb);
    cli_run_t da = run_evrec("dump", in), db = run_evrec("dump", out);
    cr_assert_eq(da.status, 0);
    cr_assert_eq(db.status, 0);
    cr_assert_str_eq(da.out, db.out);
    assert_has(da.out, "Task B");
    cli_run_free(&da);
    cli_run_free(&db);
    fx_read_free(&a);
    fx_read_free(&b);
    free(got);
    unlink(out);
    rmdir(dir);
    free(out);
    free(dir);
    fx_buf_free(&f);
    unlink(in);
    free(in);
}

Test(cli_export, ccore_of_ccore_is_identical)
{
    cli_run_t r = run_evrec("export", "--ccore", "-", EVREC_TEST_DATA "/ccore/ref.bin");
    cr_assert_eq(r.status, 0, "%s", r.err);
    size_t len;
    char *ref = cli_read_file(EVREC_TEST_DATA "/ccore/ref.bin", &len);
    cr_assert_eq(r.out_len, len);
    cr_assert(memcmp(r.out, ref, len) == 0);
    free(ref);
    cli_run_free(&r);
}

/* ---- losses ---- */

/* A chunk in the middle with a bad CRC: the records before it, then a loss row/object at the
 * position of the damage with its offset; exit 1. */
Test(cli_export, damage_is_a_loss_row)
{
    fx_buf_t f = {0}, g = {0};
    native_file(200, 0, &f);
    fx_rechunk(f.p, f.len, 128, 0, &g);
    fx_chunk_t chunks[256];
    size_t n = fx_chunks(g.p, g.len, chunks, 256);
    size_t mid = 0;
    for (size_t i = n / 2; i < n; i++) {
        if (chunks[i].type == EVREC_CHUNK_STREAM) {
            mid = i;
            break;
        }
    }
    cr_assert_gt(mid, 0u);
    g.p[chunks[mid].off + EVREC_CHUNK_HEADER_SIZE + 3] ^= 0x40;
    char *in = fx_temp_file(g.p, g.len, ".evr");
    char off[32];
    snprintf(off, sizeof off, ",%llu,", (unsigned long long)chunks[mid].off);

    cli_run_t r = run_evrec("export", "--csv", "-", in);
    cr_assert_eq(r.status, 1, "%s", r.err);
    assert_has(r.err, "evrec: ");
    assert_has(r.out, ",loss,,,,");
    assert_has(r.out, ",damage,");
    assert_has(r.out, off);
    /* The loss row is the last row and its index is the count of records before it. */
    const char *loss = strstr(r.out, ",loss,,");
    cr_assert_null(strstr(loss + 1, ",record,"), "records after the damage row");
    size_t records = count_of(r.out, ",record,");
    cr_assert_gt(records, 10u);
    cr_assert_lt(records, 202u);
    const char *line = loss;
    while (line > r.out && line[-1] != '\n') {
        line--;
    }
    cr_assert_eq(strtoull(line, NULL, 10), records);
    cli_run_free(&r);

    r = run_evrec("export", "--jsonl", "-", in);
    cr_assert_eq(r.status, 1);
    char want[96];
    snprintf(want, sizeof want, "{\"kind\":\"loss\",\"i\":%zu,\"reason\":\"damage\",\"count\":null,", records);
    assert_has(r.out, want);
    snprintf(want, sizeof want, "\"position_known\":true,\"offset\":%llu,\"message\":\"",
             (unsigned long long)chunks[mid].off);
    assert_has(r.out, want);
    cli_run_free(&r);
    unlink(in);
    free(in);
    fx_buf_free(&f);
    fx_buf_free(&g);
}

/* A file cut inside its last chunk: the records of that chunk are exported, marked unverified in
 * JSON Lines, then the damage; exit 1. */
Test(cli_export, truncated_file_marks_unverified_records)
{
    fx_buf_t f = {0};
    native_file(200, 0, &f); /* one STREAM chunk */
    char *in = fx_temp_file(f.p, f.len * 2 / 3, ".evr");
    cli_run_t r = run_evrec("export", "--jsonl", "-", in);
    cr_assert_eq(r.status, 1);
    assert_has(r.out, "}},\"unverified\":true}\n");
    assert_has(r.out, "\"reason\":\"damage\"");
    assert_has(r.err, "END chunk is missing");
    cli_run_free(&r);
    unlink(in);
    free(in);
    fx_buf_free(&f);
}

/* A one-shot buffer that fills up: the dropped count is a loss at the end. */
Test(cli_export, dropped_is_a_loss_row_at_the_end)
{
    static uint64_t buf[(EVREC_BUF_HEADER_SIZE + 256) / 8]; /* 256 bytes of records: room for a few only */
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_recorder_init(&rec, buf, sizeof buf);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, fx_meta_init(), 1000), EVREC_OK);
    for (uint32_t k = 0; k < 100; k++) {
        fx_ev_simple_t *s = evrec_reserve(&host, sizeof *s);
        if (s) {
            s->v = k;
            evrec_commit(s, FX_EVENT_SIMPLE);
        }
    }
    evrec_host_stop(&host, NULL);
    cr_assert_gt(evrec_recorder_counts(&rec).dropped, 0u);
    fx_buf_t f = {0};
    evrec_sink_t sink = fx_sink(&f);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    char *in = fx_temp_file(f.p, f.len, ".evr");
    char want[96];

    cli_run_t r = run_evrec("export", "--csv", "-", in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    size_t records = count_of(r.out, ",record,");
    snprintf(want, sizeof want, "\r\n%zu,loss,", records);
    assert_has(r.out, want);
    snprintf(want, sizeof want, ",dropped,%llu,,\r\n", (unsigned long long)evrec_recorder_counts(&rec).dropped);
    assert_has(r.out, want);
    cr_assert(strcmp(r.out + r.out_len - strlen(want), want) == 0, "the dropped row is last");
    assert_has(r.err, "dropped with the trace buffer full");
    cli_run_free(&r);

    r = run_evrec("export", "--jsonl", "-", in);
    snprintf(want, sizeof want,
             "{\"kind\":\"loss\",\"i\":%zu,\"reason\":\"dropped\",\"count\":%llu,\"position_known\":false}\n",
             records, (unsigned long long)evrec_recorder_counts(&rec).dropped);
    assert_has(r.out, want);
    cli_run_free(&r);
    unlink(in);
    free(in);
    fx_buf_free(&f);
}

/* A cyclic buffer that wrapped: the overwritten count is a loss before the first record, and
 * `evrec info` shows it. */
Test(cli_export, cyclic_overwritten)
{
    size_t size = EVREC_CYCLIC_BUFFER_SIZE(4, 1024);
    void *mem = aligned_alloc(64, size);
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, size, 1024), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, fx_meta_init(), 1000), EVREC_OK);
    for (uint32_t k = 0; k < 2000; k++) {
        fx_ev_simple_t *s = evrec_reserve(&host, sizeof *s);
        cr_assert_not_null(s);
        s->v = k;
        evrec_commit(s, FX_EVENT_SIMPLE);
    }
    evrec_host_stop(&host, NULL);
    fx_buf_t f = {0};
    evrec_sink_t sink = fx_sink(&f);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    free(mem);
    char *in = fx_temp_file(f.p, f.len, ".evr");
    evrec_reader_t *rd;
    cr_assert_eq(evrec_reader_open_memory(&rd, f.p, f.len, NULL), EVREC_OK);
    uint32_t over = evrec_reader_info(rd)->overwritten;
    evrec_reader_close(rd);
    cr_assert_gt(over, 0u);
    char want[96];

    cli_run_t r = run_evrec("info", in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    snprintf(want, sizeof want, "overwritten: %u (oldest records", over);
    assert_has(r.out, want);
    cli_run_free(&r);

    r = run_evrec("export", "--csv", "-", in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, "loss_message\r\n0,loss,,,,,");
    snprintf(want, sizeof want, ",overwritten,%u,,\r\n0,record,", over);
    assert_has(r.out, want);
    cli_run_free(&r);
    r = run_evrec("export", "--jsonl", "-", in);
    snprintf(
        want, sizeof want,
        "{\"kind\":\"loss\",\"i\":0,\"reason\":\"overwritten\",\"count\":%u,\"position_known\":true}\n{\"i\":0,",
        over);
    cr_assert(strncmp(r.out, want, strlen(want)) == 0, "got %.200s", r.out);
    cli_run_free(&r);
    unlink(in);
    free(in);
    fx_buf_free(&f);
}

/* A one-shot file shows no overwritten line. */
Test(cli_export, info_one_shot_has_no_overwritten_line)
{
    char *in = native_path(3, 0);
    cli_run_t r = run_evrec("info", in);
    cr_assert_eq(r.status, 0);
    assert_lacks(r.out, "overwritten");
    cli_run_free(&r);
    unlink(in);
    free(in);
}

/* ---- output files ---- */

Test(cli_export, replaces_only_on_success_and_leaves_no_temporary)
{
    char *in = native_path(3, 0);
    char *dir = cli_temp_dir("export_out");
    char *out = path_in(dir, "keep.csv");
    cr_assert_eq(cli_write_file(out, "precious\n"), 0);
    /* Unreadable input: the output is not touched. */
    cli_run_t r = run_evrec("export", "--csv", out, "/nonexistent/x.evr");
    cr_assert_eq(r.status, 1);
    cli_run_free(&r);
    /* Damaged at open (not an evrec file): the output is not touched. */
    char *junk = path_in(dir, "junk.evr");
    cr_assert_eq(cli_write_file(junk, "this is not a recording at all\n"), 0);
    r = run_evrec("export", "--csv", out, junk);
    cr_assert_eq(r.status, 1);
    cli_run_free(&r);
    char *text = cli_read_file(out, NULL);
    cr_assert_str_eq(text, "precious\n");
    free(text);
    cr_assert_eq(dir_entries(dir), 2u, "no temporary file left");
    /* Success: replaced, nothing else left in the directory. */
    r = run_evrec("export", "--csv", out, in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    text = cli_read_file(out, NULL);
    cr_assert(strncmp(text, "index,kind,", 11) == 0);
    free(text);
    cr_assert_eq(dir_entries(dir), 2u, "no temporary file left");
    struct stat st;
    cr_assert_eq(stat(out, &st), 0);
    mode_t mask = umask(0);
    umask(mask);
    cr_assert_eq(st.st_mode & 0777, 0666 & ~mask, "a new file's mode (umask), not mkstemp's 0600");
    /* A directory that does not exist: a clear error. */
    char *nowhere = path_in(dir, "no/such/dir.csv");
    r = run_evrec("export", "--jsonl", nowhere, in);
    cr_assert_eq(r.status, 1);
    assert_has(r.err, "cannot create");
    cli_run_free(&r);
    unlink(out);
    unlink(junk);
    rmdir(dir);
    free(nowhere);
    free(junk);
    free(out);
    free(dir);
    unlink(in);
    free(in);
}

/* A symbolic link stays a link: the file it names gets the export. */
Test(cli_export, symlink_target_is_replaced)
{
    char *in = native_path(3, 0);
    char *dir = cli_temp_dir("export_link");
    char *real = path_in(dir, "real.jsonl"), *link = path_in(dir, "link.jsonl");
    cr_assert_eq(cli_write_file(real, "old\n"), 0);
    cr_assert_eq(symlink("real.jsonl", link), 0);
    cli_run_t r = run_evrec("export", "--jsonl", link, in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    struct stat st;
    cr_assert_eq(lstat(link, &st), 0);
    cr_assert(S_ISLNK(st.st_mode), "the link was replaced by a file");
    char *text = cli_read_file(real, NULL);
    cr_assert(strncmp(text, "{\"i\":0,", 7) == 0, "%s", text);
    free(text);
    cr_assert_eq(dir_entries(dir), 2u);
    unlink(link);
    unlink(real);
    rmdir(dir);
    free(real);
    free(link);
    free(dir);
    unlink(in);
    free(in);
}

/* Devices are written in place; a full device is an error with exit 1 (for stdout too). */
Test(cli_export, full_device_exits_1)
{
    char *in = native_path(3, 0);
    cli_run_t r = run_evrec("export", "--csv", "/dev/null", in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    r = run_evrec("export", "--jsonl", "/dev/full", in);
    cr_assert_eq(r.status, 1);
    assert_has(r.err, "/dev/full: cannot write: No space left on device");
    cli_run_free(&r);
    r = cli_run("/bin/sh", "-c", "exec \"$0\" export --csv - \"$1\" > /dev/full", EVREC_CLI_PATH, in,
                (const char *)NULL);
    cr_assert_eq(r.status, 1);
    assert_has(r.err, "standard output: cannot write");
    cli_run_free(&r);
    unlink(in);
    free(in);
}

Test(cli_export, info_and_stats_exit_1_when_stdout_fails)
{
    char *in = native_path(3, 0);
    static const char *const cmds[] = {"info", "stats", "dump"};
    for (size_t i = 0; i < 3; i++) {
        cli_run_t r = cli_run("/bin/sh", "-c", "exec \"$0\" \"$1\" \"$2\" > /dev/full", EVREC_CLI_PATH, cmds[i],
                              in, (const char *)NULL);
        cr_assert_eq(r.status, 1, "%s: status %d", cmds[i], r.status);
        assert_has(r.err, "writing the output failed");
        cli_run_free(&r);
        r = run_evrec(cmds[i], in);
        cr_assert_eq(r.status, 0, "%s", cmds[i]);
        cli_run_free(&r);
    }
    unlink(in);
    free(in);
}

Test(cli_export, progress_forced_and_quiet)
{
    char *in = native_path(40000, 0);
    cli_run_t r = run_evrec("export", "--progress", "--csv", "/dev/null", in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.err, "evrec export [");
    cli_run_free(&r);
    r = run_evrec("export", "--quiet", "--csv", "/dev/null", in);
    cr_assert_eq(r.status, 0);
    cr_assert_eq(r.err_len, 0u, "%s", r.err);
    cli_run_free(&r);
    unlink(in);
    free(in);
}

/* ---- UTF-8 names and units ---- */

static char *unit_file(const char *unit)
{
    static evrec_field_info_t one[1];
    one[0] = (evrec_field_info_t){FX_STRUCT_SIMPLE, 2, EVREC_DISPLAY_DEFAULT, unit, NULL};
    static evrec_field_info_table_t table;
    table = (evrec_field_info_table_t){0, 1, one};
    evrec_meta_t m = *fx_meta_init();
    m.field_info = &table;
    static uint32_t buf[256];
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_recorder_init(&rec, buf, sizeof buf);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, &m, 1000), EVREC_OK);
    uint32_t v;
    cr_assert_eq(evrec_runtime_enum_alloc(fx_runtime_enum(), "Caf\xC3\xA9", &v), EVREC_OK);
    fx_ev_all_t e;
    fx_expect_all(1, &e);
    e.obj = (uint16_t)v;
    evrec_record(&host, FX_EVENT_ALL, &e);
    fx_ev_simple_t *s = evrec_reserve(&host, sizeof *s);
    s->v = 42;
    evrec_commit(s, FX_EVENT_SIMPLE);
    evrec_host_stop(&host, NULL);
    fx_buf_t f = {0};
    evrec_sink_t sink = fx_sink(&f);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    char *path = fx_temp_file(f.p, f.len, ".evr");
    fx_buf_free(&f);
    return path;
}

Test(cli_export, utf8_units_and_names_under_a_utf8_locale)
{
    char *in = unit_file("\xC2\xB5s");
    setenv("LC_ALL", "C.UTF-8", 1);
    cli_run_t r = run_evrec("dump", in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, " v=42 \xC2\xB5s\n");
    assert_has(r.out, " obj=Caf\xC3\xA9");
    assert_lacks(r.out, "\\x");
    cli_run_free(&r);
    r = run_evrec("info", in);
    cr_assert_eq(r.status, 0);
    cli_run_free(&r);
    /* Not a UTF-8 locale: escaped as before. */
    setenv("LC_ALL", "C", 1);
    r = run_evrec("dump", in);
    cr_assert_eq(r.status, 0);
    assert_has(r.out, " v=42 \"\\xc2\\xb5s\"\n");
    assert_has(r.out, " obj=\"Caf\\xc3\\xa9\"");
    cli_run_free(&r);
    unlink(in);
    free(in);
}

/* Control characters and invalid UTF-8 stay escaped under a UTF-8 locale. */
Test(cli_export, utf8_locale_still_escapes_controls_and_invalid_bytes)
{
    char *in = odd_file();
    setenv("LC_ALL", "C.UTF-8", 1);
    cli_run_t r = run_evrec("dump", in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, " obj=\"ctl\\x01x\"");
    assert_has(r.out, " obj=\"bad\\xffz\"");
    assert_has(r.out, " obj=\"line1\\x0aline2\"");
    assert_has(r.out, " obj=\"\xC2\xB5s \xE2\x9C\x93\""); /* a blank: quoted, UTF-8 kept */
    cli_run_free(&r);
    unlink(in);
    free(in);
}

/* ---- frequencies ---- */

Test(cli_export, frequency_suffixes)
{
    char *in = native_path(3, 0);
    static const char *const good[][2] = {
        {"168M", "168000000"},     {"1e9", "1000000000"}, {"32768", "32768"},   {"1.5k", "1500"},
        {"12.288MHz", "12288000"}, {"2.5e6", "2500000"},  {"1G", "1000000000"},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        cli_run_t r = run_evrec("info", "--time-freq", good[i][0], in);
        cr_assert_eq(r.status, 0, "%s: %s", good[i][0], r.err);
        char want[64];
        snprintf(want, sizeof want, "; using %s Hz from --time-freq", good[i][1]);
        assert_has(r.out, want);
        cli_run_free(&r);
    }
    cli_run_t r = run_evrec("dump", "--tick-hz", "1k", in);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    static const char *const bad[][3] = {
        {"--time-freq", "12abc", "expected a frequency"},
        {"--time-freq", "0.5", "not a whole number"},
        {"--time-freq", "0", "above 0"},
        {"--time-freq", "-5", "expected a frequency"},
        {"--time-freq", "1e30", "too large"},
        {"--tick-hz", "2G", "too large"},
        {"--time-freq", "k", "expected a frequency"},
        {"--time-freq", "1.5.3", "expected a frequency"},
        {"--time-freq", "", "expected a frequency"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = run_evrec("info", bad[i][0], bad[i][1], in);
        cr_assert_eq(r.status, 2, "%s %s: status %d", bad[i][0], bad[i][1], r.status);
        assert_has(r.err, bad[i][2]);
        char quoted[64];
        snprintf(quoted, sizeof quoted, "not '%s'", bad[i][1]);
        assert_has(r.err, quoted);
        cli_run_free(&r);
    }
    unlink(in);
    free(in);
}
