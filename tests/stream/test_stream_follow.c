/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec dump -f FILE` against a file that grows in pieces cut anywhere (inside the header, the
 * meta-info, a chunk, a frame): what it prints in the end is exactly what `evrec dump` prints of
 * the whole file (every record once, in order, none half-written), and a file cut shorter is
 * reported. Nothing is timed: after each piece the test waits (bounded) until dump -f has printed
 * the records that piece completed, counted by the reader on the file as it stands. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "evrec/evrec_reader.h"
#include "evrec/evrec_stream.h"
#include "stream_harness.h"
#include "test_tmp.h"
#include "whole_records.h"

static _Alignas(8) uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(16, 4096)];

/* A capture of `n` probes, Start to End, drained every 200 records (the ring holds more: nothing
 * is dropped), so that frames and the container's STREAM chunks hold many records each and the
 * pieces end inside them. */
static void make_capture(capture_t *c, uint32_t n)
{
    evrec_stream_t s;
    evrec_host_t h;
    uint8_t buf[4096];
    evrec_host_init(&h);
    cr_assert_eq(evrec_stream_init(&s, ring, sizeof ring, 4096, 50), EVREC_OK);
    cr_assert_eq(evrec_stream_start(&s, &h, &probe_meta, 1000, 0), EVREC_OK);
    for (uint32_t i = 0; i < n; i++) {
        cr_assert(probe_record(&h, 1, i));
        for (size_t k; i % 200u == 199u && (k = evrec_stream_drain(&s, buf, sizeof buf)) != 0;) {
            capture_put(c, buf, k);
        }
    }
    cr_assert_eq(evrec_host_stop(&h, NULL), EVREC_OK);
    for (int guard = 0; !evrec_stream_done(&s) && guard < 100000; guard++) {
        capture_put(c, buf, evrec_stream_drain(&s, buf, sizeof buf));
    }
    cr_assert(evrec_stream_done(&s));
}

static void put_file(const char *path, const char *mode, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, mode);
    cr_assert_not_null(f, "%s", path);
    cr_assert(n == 0 || fwrite(p, 1, n, f) == n);
    cr_assert_eq(fclose(f), 0);
}

static uint8_t *get_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    rewind(f);
    uint8_t *p = malloc(*n + 1);
    cr_assert_eq(fread(p, 1, *n, f), *n);
    p[*n] = 0;
    fclose(f);
    return p;
}

static size_t lines_in(const char *path)
{
    size_t n = 0, len;
    uint8_t *p = get_file(path, &len);
    for (size_t i = 0; i < len; i++) {
        n += p[i] == '\n';
    }
    free(p);
    return n;
}

/* Waits (at most a minute: a bound, not a measure) until `path` has `n` lines. */
static size_t wait_lines(const char *path, size_t n)
{
    size_t got = 0;
    for (int i = 0; i < 6000 && (got = lines_in(path)) < n; i++) {
        usleep(10000);
    }
    return got;
}

static pid_t spawn_follow(const char *path, const char *out, const char *err)
{
    put_file(out, "wb", NULL, 0);
    put_file(err, "wb", NULL, 0);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        int o = open(out, O_WRONLY), e = open(err, O_WRONLY);
        dup2(o, 1);
        dup2(e, 2);
        execl(EVREC_CLI, EVREC_CLI, "dump", "-f", path, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static void stop_follow(pid_t pid)
{
    int status = 0;
    kill(pid, SIGINT);
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "evrec dump -f: status %d", status);
}

/* `evrec dump FILE` into `out`. */
static void dump_to(const char *file, const char *out)
{
    char cmd[3 * TEST_TMP_PATH];
    snprintf(cmd, sizeof cmd, "'%s' dump '%s' >'%s'", EVREC_CLI, file, out);
    int status = system(cmd);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", cmd);
}

static void assert_same_text(const char *a, const char *b)
{
    size_t na, nb;
    uint8_t *pa = get_file(a, &na), *pb = get_file(b, &nb);
    cr_assert_gt(na, 0);
    cr_assert(na == nb && memcmp(pa, pb, na) == 0, "%s (%zu bytes) differs from %s (%zu bytes)", a, na, b, nb);
    free(pa);
    free(pb);
}

/* Writes `bytes` into `grow` in pieces cut at odd places while dump -f follows it; after each
 * piece waits until dump -f has printed what is whole. Returns the follower (still running). */
static pid_t grow_followed(const char *grow, const char *out, const char *err, const uint8_t *bytes, size_t len)
{
    size_t q = len / 40u; /* inside the meta-info: nothing to print yet */
    put_file(grow, "wb", bytes, q);
    pid_t pid = spawn_follow(grow, out, err);
    for (unsigned k = 1; q < len; k++) {
        size_t cut = q + len / 9u + k * 37u; /* never on a chunk or frame boundary on purpose */
        cut = cut > len ? len : cut;
        put_file(grow, "ab", bytes + q, cut - q);
        q = cut;
        uint64_t whole = whole_records(grow);
        cr_assert_eq(wait_lines(out, whole), whole, "after %zu of %zu bytes: %llu records printed", q, len,
                     (unsigned long long)whole);
    }
    return pid;
}

/* The follower's output of a file that grew = the dump of the whole file. */
static void follow_case(const char *name, const uint8_t *bytes, size_t len)
{
    char *dir = test_tmp_dir("follow");
    char full[TEST_TMP_PATH], grow[TEST_TMP_PATH], out[TEST_TMP_PATH], err[TEST_TMP_PATH], want[TEST_TMP_PATH];
    snprintf(full, sizeof full, "%s/full-%s", dir, name);
    snprintf(grow, sizeof grow, "%s/grow-%s", dir, name);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(err, sizeof err, "%s/err.txt", dir);
    snprintf(want, sizeof want, "%s/want.txt", dir);
    put_file(full, "wb", bytes, len);
    dump_to(full, want);
    pid_t pid = grow_followed(grow, out, err, bytes, len);
    stop_follow(pid);
    assert_same_text(out, want);
    free(dir);
}

Test(stream_follow, a_growing_capture_is_printed_once_in_order)
{
    capture_t c = {0};
    make_capture(&c, 4000);
    follow_case("capture.bin", c.data, c.len);
    free(c.data);
}

Test(stream_follow, a_growing_container_is_printed_once_in_order)
{
    capture_t c = {0};
    make_capture(&c, 4000);
    char *dir = test_tmp_dir("follow");
    char cap[TEST_TMP_PATH], evr[TEST_TMP_PATH];
    snprintf(cap, sizeof cap, "%s/c.bin", dir);
    snprintf(evr, sizeof evr, "%s/c.evr", dir);
    put_file(cap, "wb", c.data, c.len);
    FILE *in = fopen(cap, "rb"), *o = fopen(evr, "wb+");
    cr_assert_eq(evrec_srx_convert(in, o), EVREC_OK); /* the container `evrec record` writes */
    fclose(in);
    fclose(o);
    size_t len;
    uint8_t *bytes = get_file(evr, &len);
    follow_case("container.evr", bytes, len);
    free(bytes);
    free(c.data);
    free(dir);
}

Test(stream_follow, a_file_cut_shorter_is_reported_and_read_again)
{
    capture_t c = {0};
    make_capture(&c, 2000);
    char *dir = test_tmp_dir("follow");
    char grow[TEST_TMP_PATH], out[TEST_TMP_PATH], err[TEST_TMP_PATH];
    snprintf(grow, sizeof grow, "%s/cut.bin", dir);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(err, sizeof err, "%s/err.txt", dir);
    pid_t pid = grow_followed(grow, out, err, c.data, c.len);
    uint64_t all = whole_records(grow);
    cr_assert_eq(truncate(grow, (off_t)(c.len / 2u)), 0);
    uint64_t half = whole_records(grow);
    cr_assert_gt(half, 0);
    cr_assert_eq(wait_lines(out, all + half), all + half, "the cut file printed again from its start");
    stop_follow(pid);
    size_t n;
    char *text = (char *)get_file(err, &n);
    cr_assert_not_null(strstr(text, "truncated"), "stderr: %s", text);
    free(text);
    free(c.data);
    free(dir);
}

/* Runs `evrec record -q ARGS -o OUT CAPTURE > STDOUT`; returns the exit status. */
static int record_capture(const char *args, const char *out, const char *capture, const char *stdout_path)
{
    char cmd[5 * TEST_TMP_PATH];
    snprintf(cmd, sizeof cmd, "'%s' record -q %s -o '%s' '%s' >'%s' 2>/dev/null", EVREC_CLI, args, out, capture,
             stdout_path);
    int status = system(cmd);
    cr_assert(WIFEXITED(status), "%s", cmd);
    return WEXITSTATUS(status);
}

static void append_text(const char *to, const char *from)
{
    size_t n;
    uint8_t *p = get_file(from, &n);
    put_file(to, "ab", p, n);
    free(p);
}

/* A capture of `n` probes in DIR/capture.bin. */
static void capture_file(const char *dir, uint32_t n, char path[TEST_TMP_PATH])
{
    capture_t c = {0};
    make_capture(&c, n);
    snprintf(path, TEST_TMP_PATH, "%s/capture.bin", dir);
    put_file(path, "wb", c.data, c.len);
    free(c.data);
}

Test(stream_follow, record_show_prints_what_dump_prints_of_the_file)
{
    char *dir = test_tmp_dir("follow");
    char cap[TEST_TMP_PATH], out[TEST_TMP_PATH], shown[TEST_TMP_PATH], want[TEST_TMP_PATH];
    capture_file(dir, 5000, cap);
    snprintf(out, sizeof out, "%s/shown.evr", dir);
    snprintf(shown, sizeof shown, "%s/shown.txt", dir);
    snprintf(want, sizeof want, "%s/want.txt", dir);
    cr_assert_eq(record_capture("--show", out, cap, shown), 0);
    dump_to(out, want);
    cr_assert_eq(lines_in(want), 5002, "Start, 5000 probes, Stop");
    assert_same_text(shown, want);
    free(dir);
}

/* Reads split file `path`: intact, its header's count right; marks the probes it has in `got`
 * (each once, in order after `*last`). Returns its records. */
static uint64_t read_split(const char *path, uint8_t *got, uint32_t n, int64_t *last)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK, "%s opens", path);
    evrec_record_t rec;
    evrec_status st;
    uint64_t records = 0;
    while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        records++;
        if (rec.id == PROBE_EVENT_PROBE) {
            uint32_t seq = t_be32(rec.data + 8);
            cr_assert_lt(seq, n);
            cr_assert_eq(got[seq], 0, "probe %u once", seq);
            cr_assert_gt((int64_t)seq, *last, "in order");
            got[seq] = 1;
            *last = seq;
        }
    }
    cr_assert_eq(st, EVREC_E_END, "%s: a complete file: %s", path, evrec_reader_error(r)->message);
    cr_assert_eq(evrec_reader_info(r)->recorded, records, "%s: its own count", path);
    evrec_reader_close(r);
    return records;
}

Test(stream_follow, split_files_each_read_back_and_hold_every_record_once)
{
    enum { N = 60000 };
    char *dir = test_tmp_dir("follow");
    char cap[TEST_TMP_PATH], out[TEST_TMP_PATH], shown[TEST_TMP_PATH], want[TEST_TMP_PATH], part[TEST_TMP_PATH];
    capture_file(dir, N, cap);
    snprintf(out, sizeof out, "%s/rec.evr", dir);
    snprintf(shown, sizeof shown, "%s/shown.txt", dir);
    snprintf(want, sizeof want, "%s/want.txt", dir);
    cr_assert_eq(record_capture("--split-size 100000 --show", out, cap, shown), 0);
    static uint8_t got[N];
    memset(got, 0, sizeof got);
    int64_t last = -1;
    uint64_t records = 0;
    unsigned files = 0;
    put_file(want, "wb", NULL, 0);
    for (unsigned k = 1;; k++) {
        char path[TEST_TMP_PATH];
        snprintf(path, sizeof path, "%s/rec-%04u.evr", dir, k);
        if (access(path, F_OK) != 0) {
            break;
        }
        struct stat st;
        cr_assert_eq(stat(path, &st), 0);
        cr_assert_leq(st.st_size, 100000, "%s: %lld bytes", path, (long long)st.st_size);
        records += read_split(path, got, N, &last);
        snprintf(part, sizeof part, "%s/part.txt", dir);
        dump_to(path, part);
        append_text(want, part);
        files++;
    }
    cr_assert_gt(files, 5, "%u files", files);
    cr_assert_eq(records, N + 2u, "Start, the probes and Stop, once");
    for (uint32_t i = 0; i < N; i++) {
        cr_assert(got[i], "probe %u is in a file", i);
    }
    assert_same_text(shown, want); /* --show across the files = their dumps one after the other */
    free(dir);
}

Test(stream_follow, keep_removes_only_files_of_its_run_and_never_replaces_one)
{
    char *dir = test_tmp_dir("follow");
    char cap[TEST_TMP_PATH], out[TEST_TMP_PATH], devnull[] = "/dev/null", mine[TEST_TMP_PATH];
    capture_file(dir, 60000, cap);
    snprintf(out, sizeof out, "%s/k.evr", dir);
    snprintf(mine, sizeof mine, "%s/k-0005.evr", dir);
    put_file(mine, "wb", (const uint8_t *)"mine", 4);
    cr_assert_eq(record_capture("--split-size 100000 --keep 2", out, cap, devnull), 1,
                 "stops at a file it did not make");
    for (unsigned k = 1; k <= 4; k++) {
        char path[TEST_TMP_PATH];
        snprintf(path, sizeof path, "%s/k-%04u.evr", dir, k);
        cr_assert_eq(access(path, F_OK) == 0, k >= 3, "%s: only the last two kept", path);
    }
    size_t n;
    char *text = (char *)get_file(mine, &n);
    cr_assert_str_eq(text, "mine", "the file it did not make is left as it was");
    free(text);
    free(dir);
}

Test(stream_follow, a_file_replaced_is_reported_and_read_from_its_start)
{
    capture_t c = {0};
    make_capture(&c, 2000);
    char *dir = test_tmp_dir("follow");
    char grow[TEST_TMP_PATH], other[TEST_TMP_PATH], out[TEST_TMP_PATH], err[TEST_TMP_PATH];
    snprintf(grow, sizeof grow, "%s/f.bin", dir);
    snprintf(other, sizeof other, "%s/other.bin", dir);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(err, sizeof err, "%s/err.txt", dir);
    pid_t pid = grow_followed(grow, out, err, c.data, c.len);
    uint64_t all = whole_records(grow);
    put_file(other, "wb", c.data, c.len / 3u);
    uint64_t third = whole_records(other);
    cr_assert_gt(third, 0);
    cr_assert_eq(rename(other, grow), 0); /* another file (inode) under the same name */
    cr_assert_eq(wait_lines(out, all + third), all + third, "the new file printed from its start");
    stop_follow(pid);
    size_t n;
    char *text = (char *)get_file(err, &n);
    cr_assert_not_null(strstr(text, "replaced by another file"), "stderr: %s", text);
    free(text);
    free(c.data);
    free(dir);
}

Test(stream_follow, record_show_into_a_pipe_closed_early_still_records_everything)
{
    enum { N = 60000 };
    char *dir = test_tmp_dir("follow");
    char cap[TEST_TMP_PATH], out[TEST_TMP_PATH], cmd[4 * TEST_TMP_PATH];
    capture_file(dir, N, cap);
    snprintf(out, sizeof out, "%s/closed.evr", dir);
    snprintf(cmd, sizeof cmd, "'%s' record --show -q -o '%s' '%s' 2>/dev/null | head -n 1 >/dev/null", EVREC_CLI,
             out, cap);
    int status = system(cmd);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", cmd);
    static uint8_t got[N];
    int64_t last = -1;
    cr_assert_eq(read_split(out, got, N, &last), N + 2u, "every record in a complete file");
    free(dir);
}
