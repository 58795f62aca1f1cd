/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec qs` and `evrec qs-decode` end to end: the QS test vector (tests/data/qs) decodes to
 * QSPY 7.4's own lines; a demo recording converted to QS decodes with every record named and no error,
 * and back to the same records; the demo's live QS stream (--qs) decodes to the RAM file's
 * records; a lossy live stream reports its losses and keeps only intact records; damage and a
 * cut stream are reported with offsets; bad usage exits 2. Runs the built binaries. */
#include <criterion/criterion.h>

#include "cli_run.h"
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "evrec/evrec_reader.h"
#include "../common/test_tmp.h"

#define SAMPLE EVREC_TEST_DATA "/qs/sample.bin"
#define SAMPLE_TXT EVREC_TEST_DATA "/qs/sample.qspy.txt"

/* Child processes (standard input from a file or /dev/null): tests/cli/cli_run.c. */
typedef cli_run_t proc_t;
#define evrec(...) cli_run_in(NULL, EVREC_CLI_PATH, __VA_ARGS__, (const char *)NULL)
#define evrec_stdin(in, ...) cli_run_in((in), EVREC_CLI_PATH, __VA_ARGS__, (const char *)NULL)
#define run_in cli_run_in
#define proc_free cli_run_free

#define assert_has(hay, needle) cr_assert(strstr((hay), (needle)) != NULL, "missing <%s> in:\n%s", (needle), (hay))

/* A fresh directory for one test's files. */
static const char *tmpdir(void)
{
    static char dir[256];
    snprintf(dir, sizeof dir, "%s/test-cli-qs-XXXXXX", EVREC_BINARY_DIR);
    cr_assert_not_null(mkdtemp(dir));
    test_tmp_remove_at_exit(dir); /* removed when the test's process ends */
    return dir;
}

static char *path_in(const char *dir, const char *name)
{
    static char p[8][512];
    static int k;
    char *s = p[k++ % 8];
    snprintf(s, 512, "%s/%s", dir, name);
    return s;
}

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)n + 1);
    cr_assert_eq(fread(p, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return p;
}

static void write_all(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(p, 1, n, f), n);
    fclose(f);
}

/* The number after `key` in text (e.g. "dropped: " -> 12); asserts it is there. */
static unsigned long long number_after(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    cr_assert_not_null(p, "missing <%s> in:\n%s", key, text);
    return strtoull(p + strlen(key), NULL, 10);
}

/* ---- records of two files ---------------------------------------------------------------- */

typedef struct recs {
    size_t n;
    uint16_t *id;
    uint32_t *time;
    uint8_t (*data)[EVREC_MAX_EVENT_SIZE];
    uint32_t *size;
    uint64_t recorded, dropped, hash;
} recs_t;

/* Every record (id, raw time, packed bytes = every field value) of an intact file. */
static recs_t load_records(const char *path)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK, "%s does not open", path);
    recs_t s = {0};
    size_t cap = 0;
    evrec_record_t rec;
    evrec_status st;
    while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        if (s.n == cap) {
            cap = cap ? cap * 2 : 1024;
            s.id = realloc(s.id, cap * sizeof *s.id);
            s.time = realloc(s.time, cap * sizeof *s.time);
            s.data = realloc(s.data, cap * sizeof *s.data);
            s.size = realloc(s.size, cap * sizeof *s.size);
        }
        s.id[s.n] = rec.id;
        s.time[s.n] = rec.time32;
        s.size[s.n] = rec.size;
        memcpy(s.data[s.n], rec.data, rec.size);
        s.n++;
    }
    cr_assert_eq(st, EVREC_E_END, "%s is not intact: %s", path, evrec_reader_error(r)->message);
    const evrec_file_info_t *fi = evrec_reader_info(r);
    s.recorded = fi->recorded;
    s.dropped = fi->dropped;
    s.hash = fi->schema_hash_stored;
    evrec_reader_close(r);
    return s;
}

static void recs_free(recs_t *s)
{
    free(s->id);
    free(s->time);
    free(s->data);
    free(s->size);
}

static int same_record(const recs_t *a, size_t i, const recs_t *b, size_t j)
{
    return a->id[i] == b->id[j] && a->time[i] == b->time[j] && a->size[i] == b->size[j] &&
           memcmp(a->data[i], b->data[j], a->size[i]) == 0;
}

static void assert_same_records(const recs_t *a, const recs_t *b)
{
    cr_assert_eq(a->n, b->n, "%zu records vs %zu", a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        cr_assert(same_record(a, i, b, i), "record %zu differs (id %u/%u, time %u/%u)", i, a->id[i], b->id[i],
                  a->time[i], b->time[i]);
    }
    cr_assert_eq(a->hash, b->hash, "schema hash");
}

/* Every record of `part` is a record of `all`, in the same order. */
static void assert_subsequence(const recs_t *part, const recs_t *all)
{
    size_t j = 0;
    for (size_t i = 0; i < part->n; i++) {
        while (j < all->n && !same_record(part, i, all, j)) {
            j++;
        }
        cr_assert_lt(j, all->n, "decoded record %zu (id %u, time %u) is not in the RAM file (or out of order)", i,
                     part->id[i], part->time[i]);
        j++;
    }
}

/* ---- the QSPY test vector (not evrec-made) ------------------------------------------------- */

/* QSPY's lines for sample.bin: the body between "File Opened" and the blank line. */
static char *qspy_body(void)
{
    size_t n;
    char *txt = (char *)read_all(SAMPLE_TXT, &n);
    txt[n] = 0;
    char *start = strstr(txt, "File     Opened");
    cr_assert_not_null(start);
    start = strchr(start, '\n') + 1;
    char *end = strstr(start, "\n\n");
    cr_assert_not_null(end);
    end[1] = 0;
    char *body = strdup(start);
    free(txt);
    return body;
}

Test(cli_qs, sample_decodes_like_qspy)
{
    char *want = qspy_body();
    proc_t p = evrec("qs-decode", SAMPLE);
    cr_assert_str_eq(p.out, want);
    cr_assert_eq(p.status, 1, "a stream with a bad checksum and gaps is damaged input");
    assert_has(p.err, "401 bytes, 18 frames");
    assert_has(p.err, "1 bad checksums, 2 sequence gaps (4 frames lost)");
    proc_free(&p);
    /* the same from standard input (a live pipe) */
    p = evrec_stdin(SAMPLE, "qs-decode", "-");
    cr_assert_str_eq(p.out, want);
    assert_has(p.err, "1 bad checksums, 2 sequence gaps (4 frames lost)");
    proc_free(&p);
    free(want);
}

Test(cli_qs, sample_errors_fed_byte_by_byte_through_a_pipe)
{
    /* A pipe delivers the stream in pieces of any size: the result is the same. */
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    size_t n;
    uint8_t *bin = read_all(SAMPLE, &n);
    pid_t w = fork();
    if (w == 0) {
        close(fds[0]);
        for (size_t i = 0; i < n; i++) {
            if (write(fds[1], bin + i, 1) != 1) {
                _exit(1);
            }
            if (i % 50 == 0) {
                nanosleep(&(struct timespec){0, 1000000L}, NULL);
            }
        }
        _exit(0);
    }
    close(fds[1]);
    char fdpath[64];
    snprintf(fdpath, sizeof fdpath, "/dev/fd/%d", fds[0]);
    proc_t p = evrec_stdin(fdpath, "qs-decode", "-");
    close(fds[0]);
    waitpid(w, NULL, 0);
    char *want = qspy_body();
    cr_assert_str_eq(p.out, want);
    proc_free(&p);
    free(want);
    free(bin);
}

/* ---- bad usage ------------------------------------------------------------------------------ */

Test(cli_qs, usage_errors)
{
    proc_t p = evrec("qs", "x.evr");
    cr_assert_eq(p.status, 2);
    assert_has(p.err, "missing -o");
    proc_free(&p);
    p = evrec("qs", "--time-size", "3", "-o", "x.qs", "x.evr");
    cr_assert_eq(p.status, 2);
    proc_free(&p);
    p = evrec("qs-decode", "-o", "x.evr", SAMPLE);
    cr_assert_eq(p.status, 2);
    assert_has(p.err, "-o needs --meta");
    proc_free(&p);
    p = evrec("qs-decode");
    cr_assert_eq(p.status, 2);
    proc_free(&p);
    p = evrec("qs-decode", "/nonexistent/stream.qs");
    cr_assert_eq(p.status, 1);
    assert_has(p.err, "No such file");
    proc_free(&p);
    p = evrec("qs", "-o", "/tmp/never-written.qs", "/nonexistent/file.evr");
    cr_assert_eq(p.status, 1);
    proc_free(&p);
    p = evrec("help", "qs-decode");
    cr_assert_eq(p.status, 0);
    assert_has(p.out, "usage: evrec qs-decode");
    proc_free(&p);
}

#ifdef EVREC_DEMO_PATH

#define demo(...) run_in(NULL, EVREC_DEMO_PATH, __VA_ARGS__, (const char *)NULL)

static void run_demo(const char *evr, const char *qs, const char *ring, const char *baud, proc_t *out)
{
    proc_t p = qs ? demo("--frames", "150", "--fps", "1000", "-o", evr, "--qs", qs, "--qs-ring", ring, "--qs-baud",
                         baud)
                  : demo("--frames", "60", "--fps", "1000", "-o", evr);
    cr_assert_eq(p.status, 0, "demo failed:\n%s%s", p.out, p.err);
    assert_has(p.out, " 0 dropped (buffer full)");
    *out = p;
}

/* ---- offline: evrec qs, then back --------------------------------------------------------- */

Test(cli_qs, demo_file_to_qs_is_named_without_errors_and_decodes_back, .timeout = 120)
{
    const char *dir = tmpdir();
    const char *evr = path_in(dir, "demo.evr"), *qs = path_in(dir, "demo.qs"), *back = path_in(dir, "back.evr");
    proc_t d;
    run_demo(evr, NULL, NULL, NULL, &d);
    proc_free(&d);
    proc_t p = evrec("qs", evr, "-o", qs);
    cr_assert_eq(p.status, 0, "%s", p.err);
    assert_has(p.out, "one record id per event type");
    proc_free(&p);

    /* QSPY's tracks: every application record named by the user dictionary, no error line. */
    p = evrec("qs-decode", qs);
    cr_assert_eq(p.status, 0, "%s", p.err);
    cr_assert_null(strstr(p.out, "ERROR"), "error lines:\n%s", p.out);
    cr_assert_null(strstr(p.out, "USER+"), "unnamed records");
    assert_has(p.out, "Trg-RST  QP-Ver=740");
    assert_has(p.out, "Usr-Dict 00000101->FrameEvent");
    /* Every enum by name (QS.md "Enums"): LockType in the last group, EventControl's type and
     * FrameNumber's `none` as STR elements. */
    assert_has(p.out, "Enum-Dic 001,Grp=7->Blocked");
    assert_has(p.out, " EventControl Start\n");
    assert_has(p.out, " none 0x");
    size_t app = 0;
    for (const char *l = p.out; *l; l = strchr(l, '\n') + 1) {
        if (l[0] >= '0' && l[0] <= '9') {
            app++;
            cr_assert(strncmp(l + 11, "EventControl ", 13) == 0 || strncmp(l + 11, "FrameEvent ", 11) == 0 ||
                          strncmp(l + 11, "FrameDrop ", 10) == 0 || strncmp(l + 11, "QueueEvent ", 11) == 0 ||
                          strncmp(l + 11, "QueueWait ", 10) == 0 || strncmp(l + 11, "LockEvent ", 10) == 0,
                      "record line without a known name: %.60s", l);
        }
    }
    proc_free(&p);

    /* Back to evrec: the same records, field for field. */
    p = evrec("qs-decode", qs, "--meta", evr, "-o", back);
    cr_assert_eq(p.status, 0, "%s", p.err);
    assert_has(p.err, "0 bad checksums, 0 sequence gaps (0 frames lost)");
    proc_free(&p);
    recs_t a = load_records(evr), b = load_records(back);
    cr_assert_eq(app, a.n, "one QS application record per recorded record");
    assert_same_records(&a, &b);
    cr_assert_eq(b.recorded, a.recorded);
    cr_assert_eq(b.dropped, 0u);
    recs_free(&a);
    recs_free(&b);

    /* The event types from the YAML schema instead of a recording: the same records again. */
    const char *back2 = path_in(dir, "back2.evr");
    p = evrec("qs-decode", qs, "--schema", EVREC_DEMO_SCHEMA, "-o", back2);
    cr_assert_eq(p.status, 0, "%s", p.err);
    assert_has(p.err, "0 bad checksums, 0 sequence gaps (0 frames lost)");
    proc_free(&p);
    a = load_records(evr);
    b = load_records(back2);
    assert_same_records(&a, &b);
    recs_free(&a);
    recs_free(&b);
    p = evrec("check", back2, "--schema", EVREC_DEMO_SCHEMA);
    cr_assert_eq(p.status, 0, "%s%s", p.out, p.err);
    proc_free(&p);

    /* Printed like dump: the same lines as 'evrec dump' of the recording. */
    proc_t want = evrec("dump", evr);
    p = evrec("qs-decode", "--meta", evr, qs);
    cr_assert_eq(p.status, 0);
    cr_assert_str_eq(p.out, want.out);
    proc_free(&p);
    proc_free(&want);
}

Test(cli_qs, damage_resynchronises_and_a_cut_stream_is_reported, .timeout = 120)
{
    const char *dir = tmpdir();
    const char *evr = path_in(dir, "demo.evr"), *qs = path_in(dir, "demo.qs"), *bad = path_in(dir, "bad.qs"),
               *back = path_in(dir, "back.evr");
    proc_t d;
    run_demo(evr, NULL, NULL, NULL, &d);
    proc_free(&d);
    proc_t p = evrec("qs", evr, "-o", qs);
    cr_assert_eq(p.status, 0);
    proc_free(&p);
    size_t n;
    uint8_t *s = read_all(qs, &n);
    /* Change one data byte in the middle of the stream (not a flag or escape, nor into one). */
    size_t at = n / 2;
    while (s[at] == 0x7E || s[at] == 0x7D || s[at - 1] == 0x7D || (s[at] ^ 0x01) == 0x7E ||
           (s[at] ^ 0x01) == 0x7D) {
        at++;
    }
    s[at] ^= 0x01;
    write_all(bad, s, n);
    p = evrec("qs-decode", bad, "--meta", evr, "-o", back);
    cr_assert_eq(p.status, 1, "damage is reported in the exit status");
    assert_has(p.err, "bad checksum");
    assert_has(p.err, "1 bad checksums, 1 sequence gaps (1 frames lost)");
    assert_has(p.err, "1 counted as dropped");
    proc_free(&p);
    recs_t a = load_records(evr), b = load_records(back);
    cr_assert_eq(b.n, a.n - 1, "exactly the damaged frame is lost");
    assert_subsequence(&b, &a);
    cr_assert_eq(b.dropped, 1u);
    recs_free(&b);

    /* Cut in the middle of a frame: everything before is kept, the cut is reported. */
    s[at] ^= 0x01;
    size_t cut = n / 3;
    while (s[cut - 1] == 0x7E) {
        cut--;
    }
    write_all(bad, s, cut);
    p = evrec("qs-decode", bad, "--meta", evr, "-o", back);
    cr_assert_eq(p.status, 1);
    assert_has(p.err, "the stream ends inside a frame");
    proc_free(&p);
    b = load_records(back);
    cr_assert_gt(b.n, 0u);
    for (size_t i = 0; i < b.n; i++) {
        cr_assert(same_record(&b, i, &a, i), "record %zu", i);
    }
    recs_free(&a);
    recs_free(&b);
    free(s);
}

/* ---- live emission ------------------------------------------------------------------------- */

Test(cli_qs, live_stream_decodes_to_the_ram_file, .timeout = 120)
{
    const char *dir = tmpdir();
    const char *evr = path_in(dir, "live.evr"), *qs = path_in(dir, "live.qs"), *back = path_in(dir, "back.evr");
    proc_t d;
    run_demo(evr, qs, "16M", "0", &d);
    assert_has(d.out, " 0 frames lost and 0 cut");
    proc_free(&d);
    proc_t p = evrec("qs-decode", "--meta", evr, "-o", back, qs);
    cr_assert_eq(p.status, 0, "%s", p.err);
    assert_has(p.err, "0 bad checksums, 0 sequence gaps (0 frames lost), 0 too short, 0 too long, 0 not fitting");
    proc_free(&p);
    recs_t a = load_records(evr), b = load_records(back);
    cr_assert_gt(a.n, 1000u);
    assert_same_records(&a, &b); /* ids, times and every field value, Start/Tick/Stop included */
    cr_assert_eq(b.recorded, a.recorded);
    cr_assert_eq(b.dropped, 0u);
    recs_free(&a);
    recs_free(&b);
    /* The same through standard input. */
    p = evrec_stdin(qs, "qs-decode", "--meta", evr, "-o", back, "-");
    cr_assert_eq(p.status, 0, "%s", p.err);
    proc_free(&p);
    a = load_records(evr);
    b = load_records(back);
    assert_same_records(&a, &b);
    recs_free(&a);
    recs_free(&b);
}

Test(cli_qs, lossy_live_stream_counts_its_losses, .timeout = 120)
{
    const char *dir = tmpdir();
    const char *evr = path_in(dir, "lossy.evr"), *qs = path_in(dir, "lossy.qs"), *back = path_in(dir, "back.evr");
    proc_t d;
    /* A 2 KiB ring drained at 1 Mbaud cannot keep up with the pipeline: frames are overwritten. */
    run_demo(evr, qs, "2K", "1000000", &d);
    unsigned long long lost = number_after(d.out, "events), "), cut = number_after(d.out, " frames lost and ");
    cr_assert_gt(lost + cut, 0u, "the ring should have overflowed:\n%s", d.out);
    /* Dictionary frames sent after the session (new thread names, lost ones sent again) go
     * through the same ring: count those that arrived (QSPY view, after the session). */
    unsigned long long dict_sent = number_after(d.out, "dictionary frames later: ");
    proc_free(&d);
    proc_t v = evrec("qs-decode", "--max-errors", "0", qs);
    unsigned long long dict_got = 0;
    const char *session_end = strstr(v.out, "Usr-Dict 00000122->EVREC_LOST"); /* the session's last record */
    cr_assert_not_null(session_end, "%s", v.out);
    for (const char *l = session_end; (l = strstr(l, "Enum-Dic ")) != NULL; l++) {
        dict_got++;
    }
    proc_free(&v);
    cr_assert_gt(dict_sent, 0u, "the thread names are allocated after the session");
    proc_t p = evrec("qs-decode", "--meta", evr, "-o", back, "--max-errors", "3", qs);
    cr_assert_eq(p.status, 1, "losses are reported in the exit status");
    assert_has(p.err, "sequence gap");
    assert_has(p.err, "further errors not shown");
    unsigned long long bad = number_after(p.err, "events; ");
    unsigned long long host_lost = number_after(p.err, "sequence gaps (");
    unsigned long long shorts = number_after(p.err, "frames lost), ");
    unsigned long long misfit = number_after(p.err, "too long, ");
    proc_free(&p);
    /* Each frame cut while being sent is one bad frame on the host (checksum, or a rare
     * too-short frame, or a prefix whose checksum happens to be right but does not fit). */
    cr_assert_eq(bad + shorts + misfit, cut, "bad %llu + short %llu + misfit %llu vs cut %llu", bad, shorts,
                 misfit, cut);
    recs_t a = load_records(evr), b = load_records(back);
    /* The host counts lost frames from 8-bit sequence numbers: exact modulo 256. */
    cr_assert_eq(b.dropped % 256u, (lost + cut) % 256u, "dropped %llu vs target lost %llu + cut %llu",
                 (unsigned long long)b.dropped, lost, cut);
    cr_assert_leq(b.dropped, lost + cut);
    cr_assert_eq(b.dropped, host_lost + misfit);
    /* What arrived is intact and in order. */
    cr_assert_gt(b.n, 0u);
    assert_subsequence(&b, &a);
    /* The session is drained before any event is sent, so every lost or cut frame is an event
     * or a later dictionary frame. */
    cr_assert_eq(b.n + lost + cut, a.n + dict_sent - dict_got,
                 "events + dictionary frames sent = received + lost + cut");
    recs_free(&a);
    recs_free(&b);
}

/* The demo names its threads at run time, after the session started: the names reach the host
 * as QS_ENUM_DICT records (and inline `name#value` elements on a lossy link). With event types
 * that have no run-time names (the YAML schema), qs-decode's dump lines and its -o file still name
 * every thread, from the stream alone. */
Test(cli_qs, live_runtime_names_reach_dump_lines_and_the_output_file, .timeout = 120)
{
    const char *dir = tmpdir();
    const char *evr = path_in(dir, "names.evr"), *qs = path_in(dir, "names.qs"), *back = path_in(dir, "back.evr");
    proc_t d;
    run_demo(evr, qs, "16M", "0", &d);
    assert_has(d.out, " 0 frames lost and 0 cut");
    cr_assert_gt(number_after(d.out, "dictionary frames later: "), 0u, "names allocated after the session:\n%s",
                 d.out);
    proc_free(&d);
    proc_t info = evrec("info", evr);
    char freq[32];
    snprintf(freq, sizeof freq, "%llu", number_after(info.out, "time_freq:"));
    proc_free(&info);
    proc_t want = evrec("dump", evr);
    cr_assert_eq(want.status, 0);
    assert_has(want.out, " thread=capture ");
    proc_t p = evrec("qs-decode", "--schema", EVREC_DEMO_SCHEMA, "--time-freq", freq, "-o", back, qs);
    cr_assert_eq(p.status, 0, "%s", p.err);
    proc_free(&p);
    proc_t got = evrec("dump", back);
    cr_assert_eq(got.status, 0, "%s", got.err);
    cr_assert_str_eq(got.out, want.out);
    proc_free(&got);
    p = evrec("qs-decode", "--schema", EVREC_DEMO_SCHEMA, "--time-freq", freq, qs);
    cr_assert_eq(p.status, 0, "%s", p.err);
    cr_assert_str_eq(p.out, want.out);
    proc_free(&p);
    proc_free(&want);

    /* A lossy link: what arrives names every thread (dictionary records or inline names). */
    run_demo(evr, qs, "2K", "1000000", &d);
    proc_free(&d);
    p = evrec("qs-decode", "--schema", EVREC_DEMO_SCHEMA, "-o", back, "--max-errors", "0", qs);
    cr_assert_eq(p.status, 1, "%s", p.err);
    proc_free(&p);
    got = evrec("dump", back);
    cr_assert_eq(got.status, 0, "%s", got.err);
    size_t lines = 0;
    for (const char *l = got.out; (l = strstr(l, " thread=")) != NULL; l += 8) {
        lines++;
        cr_assert(!(l[8] >= '0' && l[8] <= '9'), "a thread shown as a number: %.60s", l);
    }
    cr_assert_gt(lines, 0u);
    proc_free(&got);
}

#endif /* EVREC_DEMO_PATH */
