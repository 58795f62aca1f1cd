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
#include <sys/wait.h>
#include <unistd.h>

#include "evrec/evrec_reader.h"
#include "evrec/evrec_stream.h"
#include "stream_harness.h"
#include "test_tmp.h"

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
    cr_assert_eq(fwrite(p, 1, n, f), n);
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

/* Records the reader returns whole (not `unverified`) from the file as it stands. */
static uint64_t whole_records(const char *path)
{
    evrec_reader_t *r = NULL;
    uint64_t n = 0;
    evrec_record_t rec;
    if (evrec_reader_open_path(&r, path, NULL) == EVREC_OK) {
        while (evrec_reader_next(r, &rec) == EVREC_OK && !rec.unverified) {
            n++;
        }
    }
    evrec_reader_close(r);
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
