/* SPDX-License-Identifier: Apache-2.0 */
/* evrec_save_file() / evrec_save_path() (POSIX port): the same bytes as evrec_save() through a
 * sink; write failures are a status; the path variant replaces the file atomically and never
 * truncates, removes or creates anything when it fails. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evrec_save_file.h"
#include "mem_sink.h"
#include "probe_meta.h"
#include "../common/test_tmp.h"

static uint32_t trace_mem[4096];

/* A stopped recorder with a few probes, and its bytes saved through a memory sink. */
static void record(evrec_recorder_t *rec, mem_sink_t *expected)
{
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init(rec, trace_mem, sizeof trace_mem), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, rec, &probe_meta, 1000000u), EVREC_OK);
    for (uint32_t i = 0; i < 100; i++) {
        cr_assert(probe_record(&host, 1, i));
    }
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    memset(expected, 0, sizeof *expected);
    evrec_sink_t sink = mem_sink_of(expected);
    cr_assert_eq(evrec_save(rec, &sink), EVREC_OK);
    cr_assert_gt(expected->len, 100u * 12u);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *d = malloc(1 << 20);
    *len = fread(d, 1, 1 << 20, f);
    fclose(f);
    return d;
}

static char *temp_dir(void)
{
    char *d = test_tmp_dir("save-file"); /* removed at exit also when the test fails */
    cr_assert_not_null(d);
    return d;
}

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    }
    closedir(d);
    return n;
}

static void remove_dir(char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[1024];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            if (remove(p) != 0) rmdir(p);
        }
    }
    closedir(d);
    rmdir(dir);
    free(dir);
}

Test(save_file, stream_gets_the_same_bytes_as_a_sink)
{
    evrec_recorder_t rec;
    mem_sink_t expected;
    record(&rec, &expected);
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    cr_assert_eq(evrec_save_file(&rec, f), EVREC_OK);
    long n = ftell(f);
    cr_assert_eq((size_t)n, expected.len);
    rewind(f);
    char *got = malloc(expected.len);
    cr_assert_eq(fread(got, 1, expected.len, f), expected.len);
    cr_assert_eq(memcmp(got, expected.data, expected.len), 0);
    fclose(f);
    /* Options and the byte count. */
    f = tmpfile();
    uint64_t bytes = 0;
    evrec_save_options_t bare = {0, 1};
    cr_assert_eq(evrec_save_file_ex(&rec, f, &bare, &bytes), EVREC_OK);
    cr_assert_eq(bytes, (uint64_t)ftell(f));
    cr_assert_lt(bytes, expected.len, "the bare stream has no container around it");
    fclose(f);
    free(got);
    free(expected.data);
}

Test(save_file, stream_write_failure_is_io)
{
    evrec_recorder_t rec;
    mem_sink_t expected;
    record(&rec, &expected);
    FILE *f = fopen("/dev/full", "wb");
    if (!f) cr_skip_test("no /dev/full");
    errno = 0;
    cr_assert_eq(evrec_save_file(&rec, f), EVREC_E_IO);
    cr_assert_eq(errno, ENOSPC);
    fclose(f);
    cr_assert_eq(evrec_save_file(NULL, stdout), EVREC_E_ARG);
    cr_assert_eq(evrec_save_file(&rec, NULL), EVREC_E_ARG);
    free(expected.data);
}

Test(save_file, path_creates_and_replaces_the_file)
{
    evrec_recorder_t rec;
    mem_sink_t expected;
    record(&rec, &expected);
    char *dir = temp_dir();
    char path[512];
    snprintf(path, sizeof path, "%s/trace.evrec", dir);
    cr_assert_eq(evrec_save_path(&rec, path), EVREC_OK);
    size_t len = 0;
    char *got = read_all(path, &len);
    cr_assert_not_null(got);
    cr_assert_eq(len, expected.len);
    cr_assert_eq(memcmp(got, expected.data, len), 0);
    free(got);
    /* An existing file (longer than the trace) is replaced as a whole. */
    FILE *f = fopen(path, "wb");
    for (int i = 0; i < 100000; i++)
        fputc('x', f);
    fclose(f);
    uint64_t bytes = 0;
    cr_assert_eq(evrec_save_path_ex(&rec, path, NULL, &bytes), EVREC_OK);
    cr_assert_eq(bytes, expected.len);
    got = read_all(path, &len);
    cr_assert_eq(len, expected.len);
    cr_assert_eq(memcmp(got, expected.data, len), 0);
    cr_assert_eq(entries(dir), 1, "no temporary file is left");
    free(got);
    free(expected.data);
    remove_dir(dir);
}

Test(save_file, path_failure_leaves_the_existing_file_and_no_other)
{
    evrec_recorder_t rec;
    mem_sink_t expected;
    record(&rec, &expected);
    char *dir = temp_dir();
    char path[512];
    snprintf(path, sizeof path, "%s/keep.evrec", dir);
    FILE *f = fopen(path, "wb");
    fputs("precious", f);
    fclose(f);
    /* A recorder that is not stopped: save fails after the temporary file was created. */
    rec.hdr->state = EVREC_BUF_RECORDING;
    cr_assert_eq(evrec_save_path(&rec, path), EVREC_E_BUSY);
    rec.hdr->state = EVREC_BUF_STOPPED;
    size_t len = 0;
    char *got = read_all(path, &len);
    cr_assert_eq(len, 8u, "the existing file was truncated");
    cr_assert_eq(memcmp(got, "precious", 8), 0);
    free(got);
    cr_assert_eq(entries(dir), 1, "the temporary file was not removed");
    /* Nothing is created for a failed save to a new name. */
    char fresh[600];
    snprintf(fresh, sizeof fresh, "%s/new.evrec", dir);
    rec.hdr->state = EVREC_BUF_RECORDING;
    cr_assert_eq(evrec_save_path(&rec, fresh), EVREC_E_BUSY);
    rec.hdr->state = EVREC_BUF_STOPPED;
    cr_assert_eq(access(fresh, F_OK), -1);
    cr_assert_eq(entries(dir), 1);
    /* A directory in the way: an I/O error, the directory and its content stay. */
    char sub[600], inside[700];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    cr_assert_eq(mkdir(sub, 0777), 0);
    snprintf(inside, sizeof inside, "%s/file", sub);
    f = fopen(inside, "wb");
    fclose(f);
    cr_assert_eq(evrec_save_path(&rec, sub), EVREC_E_IO);
    cr_assert_eq(access(inside, F_OK), 0);
    cr_assert_eq(entries(dir), 2);
    /* A missing directory: an I/O error (ENOENT), nothing created. */
    char missing[700];
    snprintf(missing, sizeof missing, "%s/no/such/dir/t.evrec", dir);
    errno = 0;
    cr_assert_eq(evrec_save_path(&rec, missing), EVREC_E_IO);
    cr_assert_eq(errno, ENOENT);
    cr_assert_eq(entries(dir), 2);
    cr_assert_eq(evrec_save_path(&rec, ""), EVREC_E_ARG);
    cr_assert_eq(evrec_save_path(NULL, path), EVREC_E_ARG);
    free(expected.data);
    unlink(inside);
    remove_dir(dir);
}
