/* SPDX-License-Identifier: Apache-2.0 */
/* make_large_trace (the tool that makes the multi-GB files of the reader's measurements): the
 * streamed way (a 4 MiB ring drained into the stream receiver and file writer, what it takes past
 * the recorder's 4 GiB - 1 byte buffer) gives the records of the saved way, every one, none
 * dropped; --bare past the limit is refused at once with the limit named, and no file is made. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "evrec/evrec_reader.h"
#include "test_tmp.h"

/* `make_large_trace ARGS` with stdout and stderr to dir/out; the exit status. */
static int run(const char *dir, const char *args)
{
    char cmd[3 * TEST_TMP_PATH];
    snprintf(cmd, sizeof cmd, "'%s' %s > '%s/out' 2>&1", MAKE_LARGE_TRACE, args, dir);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "%s", cmd);
    return WEXITSTATUS(st);
}

static char *out_of(const char *dir)
{
    char path[TEST_TMP_PATH + 8];
    snprintf(path, sizeof path, "%s/out", dir);
    FILE *f = fopen(path, "rb");
    cr_assert(f);
    static char text[4096];
    size_t n = fread(text, 1, sizeof text - 1u, f);
    text[n] = 0;
    fclose(f);
    return text;
}

/* Both files hold the same records (id and payload; the times are the real clock's) and are intact. */
static uint64_t same_records(const char *a, const char *b)
{
    evrec_reader_t *ra = NULL, *rb = NULL;
    cr_assert_eq(evrec_reader_open_path(&ra, a, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_open_path(&rb, b, NULL), EVREC_OK);
    evrec_record_t x, y;
    evrec_status sa, sb;
    uint64_t n = 0;
    while ((sa = evrec_reader_next(ra, &x)) == EVREC_OK) {
        sb = evrec_reader_next(rb, &y);
        cr_assert_eq(sb, EVREC_OK, "record %llu: %s", (unsigned long long)n, evrec_reader_error(rb)->message);
        cr_assert_eq(x.id, y.id, "record %llu", (unsigned long long)n);
        cr_assert_eq(x.size, y.size);
        cr_assert(memcmp(x.data + 4, y.data + 4, x.size - 4u) == 0, "record %llu: the payload",
                  (unsigned long long)n);
        n++;
    }
    cr_assert_eq(sa, EVREC_E_END, "%s", evrec_reader_error(ra)->message);
    cr_assert_eq(evrec_reader_next(rb, &y), EVREC_E_END, "%s", evrec_reader_error(rb)->message);
    cr_assert_eq(evrec_reader_info(rb)->dropped, 0);
    evrec_reader_close(ra);
    evrec_reader_close(rb);
    return n;
}

Test(make_large_trace, streamed_records_are_the_saved_ones)
{
    enum { N = 30000 };
    const unsigned long long want = N + N / 1000u + 2u; /* the events, a Tick per 1000, Start and Stop */
    char *dir = test_tmp_dir("mlt");
    char a[TEST_TMP_PATH + 16], b[TEST_TMP_PATH + 16], args[2 * TEST_TMP_PATH], line[128];
    snprintf(a, sizeof a, "%s/saved.evr", dir);
    snprintf(b, sizeof b, "%s/streamed.evr", dir);
    snprintf(args, sizeof args, "'%s' %d", a, N);
    cr_assert_eq(run(dir, args), 0, "%s", out_of(dir));
    snprintf(args, sizeof args, "'%s' %d --stream", b, N);
    cr_assert_eq(run(dir, args), 0, "%s", out_of(dir));
    snprintf(line, sizeof line, "%llu records (0 dropped) streamed", want);
    cr_assert(strstr(out_of(dir), line), "%s", out_of(dir));
    cr_assert_eq(same_records(a, b), want, "every record the tool counted");
    free(dir);
}

Test(make_large_trace, bare_past_the_buffer_limit_is_refused_with_the_limit)
{
    char *dir = test_tmp_dir("mlt");
    char f[TEST_TMP_PATH + 16], args[2 * TEST_TMP_PATH];
    snprintf(f, sizeof f, "%s/bare.bin", dir);
    snprintf(args, sizeof args, "'%s' 200000000 --bare", f);
    cr_assert_eq(run(dir, args), 1);
    cr_assert(strstr(out_of(dir), "over the recorder's limit of 4294967295 (4 GiB - 1)"), "%s", out_of(dir));
    struct stat st;
    cr_assert_neq(stat(f, &st), 0, "no file is made");
    snprintf(args, sizeof args, "'%s' 1000 --raw", f);
    cr_assert_eq(run(dir, args), 2, "an unknown option");
    free(dir);
}
