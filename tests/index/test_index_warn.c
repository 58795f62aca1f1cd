/* SPDX-License-Identifier: Apache-2.0 */
/* Every command that seeks through the INDEX chunk (FORMAT.md section 2.5) says so when the index
 * lies, in the words of `evrec dump --from`, once per file: `evrec sql` (a lower bound on idx
 * seeks) and `evrec dump -f` (each look after the first seeks to the first record not printed). */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_reader.h"
#include "reader_fixtures.h"
#include "test_tmp.h"
#include "whole_records.h"

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
    return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        p[i] = (uint8_t)(v >> (24 - 8 * i));
    }
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)(v >> 32));
    put32(p + 4, (uint32_t)v);
}

/* A saved recording of `n` records whose INDEX chunk lies: every entry's offset moved by 40 bytes,
 * the CRC made good. Returns the INDEX chunk's offset. */
static size_t lying_file(size_t n, fx_buf_t *f)
{
    fx_record(n, 0, f);
    size_t tail = f->len - 80u, copies = tail - (size_t)be64(f->p + tail + 8);
    cr_assert_eq(f->p[tail], EVREC_CHUNK_TAIL);
    uint32_t len = be32(f->p + copies - 4u);
    size_t off = copies - 8u - len;
    cr_assert_eq(be32(f->p + off), (uint32_t)EVREC_CHUNK_INDEX << 24 | len, "an INDEX chunk before the copies");
    uint8_t *pl = f->p + off + 8u;
    uint32_t count = be32(pl + 4);
    cr_assert_gt(count, 4u, "several SYNC chunks in the index");
    for (uint32_t i = 0; i < count; i++) {
        uint8_t *e = pl + EVREC_INDEX_HEAD + i * EVREC_INDEX_ENTRY;
        put64(e, be64(e) + 40u);
    }
    put32(f->p + off + 4, evrec_crc32c(evrec_crc32c(0, f->p + off, 4), pl, len));
    return off;
}

static void write_file(const char *path, const char *mode, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, mode);
    cr_assert(f && (n == 0 || fwrite(p, 1, n, f) == n), "%s", path);
    fclose(f);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "%s", path);
    fseek(f, 0, SEEK_END);
    size_t n = (size_t)ftell(f);
    rewind(f);
    char *p = malloc(n + 1u);
    cr_assert(fread(p, 1, n, f) == n);
    p[n] = 0;
    fclose(f);
    return p;
}

static size_t count_of(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p += strlen(needle)) {
        n++;
    }
    return n;
}

/* `evrec ARGS` with stderr to dir/err (stdout to dir/out); the stderr text (caller frees). */
static char *cli_err(const char *dir, const char *args)
{
    char cmd[4096], path[TEST_TMP_PATH + 8];
    snprintf(cmd, sizeof cmd, "'%s' %s > '%s/out' 2> '%s/err'", EVREC_CLI, args, dir, dir);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "%s", cmd);
    snprintf(path, sizeof path, "%s/err", dir);
    return slurp(path);
}

/* The warning `evrec dump --from '#FROM'` prints for the lying file: one line, naming the INDEX chunk. */
static char *reference_warning(const char *dir, const char *file, size_t idx_off, size_t from)
{
    char args[TEST_TMP_PATH + 64], needle[64];
    snprintf(args, sizeof args, "dump --limit 1 --from '#%zu' '%s'", from, file);
    char *err = cli_err(dir, args);
    snprintf(needle, sizeof needle, "INDEX chunk at offset %llu", (unsigned long long)idx_off);
    cr_assert(strstr(err, needle) && count_of(err, "\n") == 1, "dump --from warns once: %s", err);
    return err;
}

Test(index_warn, sql_says_what_dump_from_says_once)
{
    char *dir = test_tmp_dir("index-warn");
    fx_buf_t f = {0};
    size_t idx = lying_file(60000, &f);
    char path[TEST_TMP_PATH], args[2 * TEST_TMP_PATH];
    snprintf(path, sizeof path, "%s/lying.evr", dir);
    write_file(path, "wb", f.p, f.len);
    char *want = reference_warning(dir, path, idx, 30000);
    /* two scans, each with a lower bound on idx: two seeks through the index */
    snprintf(args, sizeof args,
             "sql '%s' -c 'SELECT (SELECT count(*) FROM record WHERE idx >= 30000)"
             " + (SELECT count(*) FROM record WHERE idx >= 45000)'",
             path);
    char *err = cli_err(dir, args);
    cr_assert_str_eq(err, want, "evrec sql: the same words, once");
    free(err);
    free(want);
    fx_buf_free(&f);
    free(dir);
}

/* Waits (at most a minute: a bound, not a measure) until `path` holds `n` lines, or `text`. */
static int wait_for(const char *path, size_t n, const char *text)
{
    for (int i = 0; i < 6000; i++) {
        char *s = slurp(path);
        int done = text ? strstr(s, text) != NULL : count_of(s, "\n") >= n;
        free(s);
        if (done) {
            return 1;
        }
        usleep(10000);
    }
    return 0;
}

Test(index_warn, dump_follow_says_what_dump_from_says_once)
{
    char *dir = test_tmp_dir("index-warn");
    fx_buf_t f = {0};
    size_t idx = lying_file(60000, &f);
    char path[TEST_TMP_PATH], grow[TEST_TMP_PATH], out[TEST_TMP_PATH + 8], err[TEST_TMP_PATH + 8];
    snprintf(path, sizeof path, "%s/lying.evr", dir);
    snprintf(grow, sizeof grow, "%s/grow.evr", dir);
    snprintf(out, sizeof out, "%s/fout", dir);
    snprintf(err, sizeof err, "%s/ferr", dir);
    write_file(path, "wb", f.p, f.len);
    size_t half = f.len / 2u;
    write_file(grow, "wb", f.p, half);
    size_t whole = whole_records(grow);
    cr_assert_gt(whole, 1000u);
    /* the second look seeks to the first record not printed: record `whole` */
    char *want = reference_warning(dir, path, idx, whole);
    write_file(out, "wb", NULL, 0);
    write_file(err, "wb", NULL, 0);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        int o = open(out, O_WRONLY), e = open(err, O_WRONLY);
        dup2(o, 1);
        dup2(e, 2);
        execl(EVREC_CLI, EVREC_CLI, "dump", "-f", grow, (char *)NULL);
        _exit(127);
    }
    cr_assert(wait_for(out, whole, NULL), "the first half is printed");
    write_file(grow, "ab", f.p + half, f.len - half); /* the rest, with the lying INDEX chunk */
    cr_assert(wait_for(err, 0, "the recording is complete"), "dump -f read to the End record");
    int status = 0;
    kill(pid, SIGINT);
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "evrec dump -f: status %d", status);
    char *got = slurp(err);
    /* dump --from names its operand; the follower names the file it follows */
    const char *words = strstr(want, ": warning: ");
    cr_assert(words, "%s", want);
    cr_assert_eq(count_of(got, words), 1, "evrec dump -f: the same words, once: %s", got);
    free(got);
    free(want);
    fx_buf_free(&f);
    free(dir);
}
