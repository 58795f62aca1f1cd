/* SPDX-License-Identifier: Apache-2.0 */
/* The seek index (format/FORMAT.md section 2.5): `evrec dump --from T` prints the same with the
 * INDEX chunk evrec_save() writes, without it (an older file), with a damaged one (a flipped
 * byte: detected and reported) and with a lying one (good CRC, wrong offsets and times: detected
 * and reported); `evrec index` gives an older file its chunk back (byte for byte what save wrote)
 * and refuses what it must; the table halves itself and doubles its stride when full. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "evrec/evrec_index.h"
#include "evrec/evrec_reader_seek.h"
#include "reader_fixtures.h"
#include "test_tmp.h"

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
    return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (56 - 8 * i));
    }
}

/* The INDEX chunk of a saved file, found independently: the TAIL chunk's copy_bytes give the
 * copies' start; the index ends there (its last 4 payload bytes are its length). */
static size_t index_chunk(const fx_buf_t *f, uint32_t *len)
{
    size_t tail = f->len - 80u, copies = tail - (size_t)be64(f->p + tail + 8);
    cr_assert_eq(f->p[tail], EVREC_CHUNK_TAIL);
    *len = be32(f->p + copies - 4u);
    size_t off = copies - 8u - *len;
    cr_assert_eq(be32(f->p + off), (uint32_t)EVREC_CHUNK_INDEX << 24 | *len, "an INDEX chunk before the copies");
    return off;
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f && fwrite(p, 1, n, f) == n);
    fclose(f);
}

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "%s", path);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    rewind(f);
    uint8_t *p = malloc(*n + 1u);
    cr_assert(fread(p, 1, *n, f) == *n);
    p[*n] = 0;
    fclose(f);
    return p;
}

/* `evrec ARGS` with stdout to dir/out, stderr to dir/err; returns the exit status. */
static int cli(const char *dir, const char *args)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' %s > '%s/out' 2> '%s/err'", EVREC_CLI, args, dir, dir);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "%s", cmd);
    return WEXITSTATUS(st);
}

static char *cli_out(const char *dir, const char *what)
{
    char p[TEST_TMP_PATH];
    snprintf(p, sizeof p, "%s/%s", dir, what);
    size_t n;
    return (char *)slurp(p, &n);
}

typedef struct files {
    char *dir;
    fx_buf_t saved; /* as evrec_save() wrote it, with its index */
    fx_buf_t old;   /* the same without the INDEX chunk */
    size_t idx_off;
    uint32_t idx_len;
    uint64_t records, t_last_ns;
} files_t;

static void make_files(files_t *fs, size_t n)
{
    memset(fs, 0, sizeof *fs);
    fs->dir = test_tmp_dir("index");
    fx_record(n, 0, &fs->saved);
    fs->idx_off = index_chunk(&fs->saved, &fs->idx_len);
    size_t cut = EVREC_CHUNK_HEADER_SIZE + fs->idx_len;
    fs->old.len = fs->saved.len - cut;
    fs->old.p = malloc(fs->old.len);
    memcpy(fs->old.p, fs->saved.p, fs->idx_off);
    memcpy(fs->old.p + fs->idx_off, fs->saved.p + fs->idx_off + cut, fs->saved.len - fs->idx_off - cut);
    fx_read_t rd;
    fx_read_all(fs->saved.p, fs->saved.len, NULL, &rd);
    cr_assert_eq(rd.end, EVREC_E_END, "%s", rd.err.message);
    fs->records = rd.count;
    fs->t_last_ns = rd.recs[rd.count - 1u].r.ns;
    fx_read_free(&rd);
}

static void path_of(char *out, const files_t *fs, const char *name)
{
    snprintf(out, TEST_TMP_PATH, "%s/%s", fs->dir, name);
}

/* The --from targets: by index (first, second, middle, last, past the end), by time (0, middle,
 * near the end, past the end). The first two and time 0 need no jump (the index is not read). */
enum { NEAR_TARGETS = 2 };
static int targets(const files_t *fs, char t[][64])
{
    int k = 0;
    uint64_t last = fs->records - 1u;
    snprintf(t[k++], 64, "'#0'");
    snprintf(t[k++], 64, "'#1'");
    snprintf(t[k++], 64, "0ns");
    snprintf(t[k++], 64, "'#%llu'", (unsigned long long)(last / 2u));
    snprintf(t[k++], 64, "'#%llu'", (unsigned long long)(last - 3u));
    snprintf(t[k++], 64, "'#%llu'", (unsigned long long)(last + 5u));
    snprintf(t[k++], 64, "%lluns", (unsigned long long)(fs->t_last_ns / 2u));
    snprintf(t[k++], 64, "%lluns", (unsigned long long)(fs->t_last_ns - fs->t_last_ns / 1000u));
    snprintf(t[k++], 64, "%lluns", (unsigned long long)(fs->t_last_ns + 1000u));
    return k;
}

/* dump --from T --limit 4 of `name` equals that of `ref` for every target; `warn`: stderr names
 * the INDEX chunk at `idx_off`, else stderr is empty and the exit status 0. */
static void same_dumps(const files_t *fs, const char *ref, const char *name, int warn)
{
    char t[16][64], a[TEST_TMP_PATH], b[TEST_TMP_PATH], args[2 * TEST_TMP_PATH + 256];
    path_of(a, fs, ref);
    path_of(b, fs, name);
    int k = targets(fs, t);
    for (int i = 0; i < k; i++) {
        snprintf(args, sizeof args, "dump --limit 4 --from %s '%s'", t[i], a);
        cr_assert_eq(cli(fs->dir, args), 0, "%s", args);
        char *want = cli_out(fs->dir, "out");
        snprintf(args, sizeof args, "dump --limit 4 --from %s '%s'", t[i], b);
        int st = cli(fs->dir, args);
        char *got = cli_out(fs->dir, "out"), *err = cli_out(fs->dir, "err");
        cr_assert_str_eq(got, want, "%s: --from %s", name, t[i]);
        char needle[64];
        snprintf(needle, sizeof needle, "INDEX chunk at offset %llu", (unsigned long long)fs->idx_off);
        if (warn && i <= NEAR_TARGETS) {
            cr_assert(!*err || strstr(err, needle), "%s --from %s: only the index may be reported: %s", name, t[i],
                      err);
        } else if (warn) {
            cr_assert(strstr(err, needle), "%s --from %s: the index is reported: %s", name, t[i], err);
            (void)st; /* 1 when the read went on to the INDEX chunk itself and found its CRC bad */
        } else {
            cr_assert_str_empty(err, "%s --from %s", name, t[i]);
            cr_assert_eq(st, 0);
        }
        free(want);
        free(got);
        free(err);
    }
}

static void put(const files_t *fs, const char *name, const uint8_t *p, size_t n)
{
    char path[TEST_TMP_PATH];
    path_of(path, fs, name);
    write_file(path, p, n);
}

/* d: a copy of the saved file whose index lies: every entry's offset moved by 40 bytes and its
 * times halved, its CRC made good (as a stale index reads after a chunk before it was resized). */
static void lie(const files_t *fs, uint8_t *d)
{
    memcpy(d, fs->saved.p, fs->saved.len);
    uint8_t *pl = d + fs->idx_off + 8u;
    uint32_t count = be32(pl + 4);
    cr_assert_gt(count, 4u, "several SYNC chunks in the index");
    for (uint32_t i = 0; i < count; i++) {
        uint8_t *e = pl + EVREC_INDEX_HEAD + i * EVREC_INDEX_ENTRY;
        put64(e, be64(e) + 40u);
        put64(e + 16, be64(e + 16) / 2u);
        put64(e + 24, be64(e + 24) / 2u);
    }
    uint32_t crc = evrec_crc32c(evrec_crc32c(0, d + fs->idx_off, 4), pl, fs->idx_len);
    d[fs->idx_off + 4] = (uint8_t)(crc >> 24);
    d[fs->idx_off + 5] = (uint8_t)(crc >> 16);
    d[fs->idx_off + 6] = (uint8_t)(crc >> 8);
    d[fs->idx_off + 7] = (uint8_t)crc;
}

Test(index, dump_from_is_the_same_with_without_damaged_and_lying_index)
{
    files_t fs;
    make_files(&fs, 60000);
    put(&fs, "saved.evr", fs.saved.p, fs.saved.len);
    put(&fs, "old.evr", fs.old.p, fs.old.len);
    same_dumps(&fs, "old.evr", "saved.evr", 0);

    /* A flipped byte in an entry's t64: the CRC fails. */
    uint8_t *d = malloc(fs.saved.len);
    memcpy(d, fs.saved.p, fs.saved.len);
    d[fs.idx_off + 8u + EVREC_INDEX_HEAD + 3u * EVREC_INDEX_ENTRY + 20u] ^= 0x08;
    put(&fs, "flipped.evr", d, fs.saved.len);
    same_dumps(&fs, "old.evr", "flipped.evr", 1);

    /* A lying index (good CRC, wrong offsets and times). */
    lie(&fs, d);
    put(&fs, "lying.evr", d, fs.saved.len);
    same_dumps(&fs, "old.evr", "lying.evr", 1);
    free(d);
}

/* A command that does not seek neither reads nor judges the index: with a stale (lying) INDEX
 * chunk, dump, stats, timeline, export and sql without a start say nothing about it; a seek
 * still reports it. */
Test(index, commands_that_do_not_seek_leave_a_stale_index_alone)
{
    files_t fs;
    make_files(&fs, 60000);
    uint8_t *d = malloc(fs.saved.len);
    lie(&fs, d);
    put(&fs, "lying.evr", d, fs.saved.len);
    char path[TEST_TMP_PATH], args[4 * TEST_TMP_PATH], needle[64];
    path_of(path, &fs, "lying.evr");
    snprintf(needle, sizeof needle, "INDEX chunk at offset %llu", (unsigned long long)fs.idx_off);
    static const char *const cmds[] = {"dump",
                                       "dump --limit 5",
                                       "dump --from '#0'",
                                       "dump --to 1ms",
                                       "stats",
                                       "timeline -o '%s/t.svg'",
                                       "export --jsonl '%s/out.jsonl'",
                                       "sql -c 'select count(*) from record'"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char cmd[2 * TEST_TMP_PATH];
        snprintf(cmd, sizeof cmd, cmds[i], fs.dir);
        snprintf(args, sizeof args, "%s '%s'", cmd, path);
        cr_expect_eq(cli(fs.dir, args), 0, "%s", args);
        char *err = cli_out(fs.dir, "err");
        cr_expect(!strstr(err, needle), "%s: does not seek, yet judged the index: %s", args, err);
        free(err);
    }
    snprintf(args, sizeof args, "dump --limit 1 --from '#%llu' '%s'", (unsigned long long)(fs.records / 2u), path);
    cli(fs.dir, args);
    char *err = cli_out(fs.dir, "err");
    cr_assert(strstr(err, needle), "%s: the seek reports the stale index: %s", args, err);
    free(err);

    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, d, fs.saved.len, NULL), EVREC_OK);
    evrec_record_t rec;
    cr_assert_eq(evrec_reader_next_at(r, &rec, 0, 0), EVREC_OK);
    cr_expect_null(evrec_reader_index_warning(r), "a start at record 0 needs no index");
    cr_assert_eq(evrec_reader_next_at(r, &rec, fs.records / 2u, 0), EVREC_OK);
    cr_assert_not_null(evrec_reader_index_warning(r), "a seek checks the index");
    evrec_reader_close(r);
    free(d);
}

/* Every entry of a good index names a SYNC chunk (section 2.5); `check` agrees; a second seek on
 * the same reader (the index loaded) returns what a linear read returns. */
Test(index, the_saved_index_checks_and_seeks_agree_with_a_linear_read)
{
    files_t fs;
    make_files(&fs, 60000);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, fs.saved.p, fs.saved.len, NULL), EVREC_OK);
    evrec_index_info_t info;
    cr_assert_eq(evrec_reader_index_check(r, &info), EVREC_OK);
    cr_assert_eq(info.offset, fs.idx_off);
    cr_assert_eq(info.stride, 1u, "fewer SYNC chunks than the host table holds");
    fx_read_t rd;
    fx_read_all(fs.saved.p, fs.saved.len, NULL, &rd);
    for (uint64_t want = 7; want < rd.count; want += rd.count / 5u) {
        evrec_record_t rec;
        cr_assert_eq(evrec_reader_next_at(r, &rec, want, 0), EVREC_OK);
        cr_assert_eq(rec.index, want);
        cr_assert_eq(rec.t64, rd.recs[want].r.t64);
        cr_assert_eq(rec.offset, rd.recs[want].r.offset);
    }
    cr_assert_eq(evrec_reader_damage_count(r), 0);
    fx_read_free(&rd);
    evrec_reader_close(r);
}

Test(index, evrec_index_gives_an_old_file_the_chunk_save_writes)
{
    files_t fs;
    make_files(&fs, 60000);
    char old[TEST_TMP_PATH], args[TEST_TMP_PATH + 64];
    path_of(old, &fs, "old.evr");
    put(&fs, "old.evr", fs.old.p, fs.old.len);
    put(&fs, "ref.evr", fs.old.p, fs.old.len);
    cr_assert_eq(chmod(old, 0640), 0);
    snprintf(args, sizeof args, "index --check '%s'", old);
    cr_assert_eq(cli(fs.dir, args), 1, "no index yet");
    snprintf(args, sizeof args, "index '%s'", old);
    cr_assert_eq(cli(fs.dir, args), 0, "%s", cli_out(fs.dir, "err"));
    size_t n;
    uint8_t *got = slurp(old, &n);
    cr_assert_eq(n, fs.saved.len);
    cr_assert(memcmp(got, fs.saved.p, n) == 0, "byte for byte the file save wrote (same stride, same entries)");
    free(got);
    struct stat st;
    cr_assert_eq(stat(old, &st), 0);
    cr_assert_eq(st.st_mode & 07777, 0640, "the mode is kept");
    snprintf(args, sizeof args, "index --check '%s'", old);
    cr_assert_eq(cli(fs.dir, args), 0);
    same_dumps(&fs, "ref.evr", "old.evr", 0);
    /* Again: the index is rebuilt, the file the same. */
    snprintf(args, sizeof args, "index '%s'", old);
    cr_assert_eq(cli(fs.dir, args), 0);
    got = slurp(old, &n);
    cr_assert(n == fs.saved.len && memcmp(got, fs.saved.p, n) == 0);
    free(got);
}

/* Files in dir (the temporary file must not stay behind). */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        n += e->d_name[0] != '.' && strcmp(e->d_name, "out") != 0 && strcmp(e->d_name, "err") != 0;
    }
    closedir(d);
    return n;
}

/* `evrec index FILE` on `p`: refused (status `want`), the file unchanged, nothing left beside it. */
static void refused(const files_t *fs, const uint8_t *p, size_t n, int want, const char *why)
{
    char path[TEST_TMP_PATH], args[TEST_TMP_PATH + 64];
    path_of(path, fs, "bad.evr");
    write_file(path, p, n);
    int before = entries(fs->dir);
    snprintf(args, sizeof args, "index '%s'", path);
    cr_assert_eq(cli(fs->dir, args), want, "%s", why);
    char *err = cli_out(fs->dir, "err");
    cr_assert(strlen(err) > 0, "%s: a reason", why);
    free(err);
    size_t m;
    uint8_t *got = slurp(path, &m);
    cr_assert(m == n && memcmp(got, p, n) == 0, "%s: the file is untouched", why);
    free(got);
    cr_assert_eq(entries(fs->dir), before, "%s: no temporary file left", why);
}

Test(index, evrec_index_refuses_damage_bare_streams_and_bad_usage)
{
    files_t fs;
    make_files(&fs, 20000);
    uint8_t *d = malloc(fs.old.len);
    memcpy(d, fs.old.p, fs.old.len);
    d[fs.old.len / 2u] ^= 0x40; /* inside a STREAM chunk */
    refused(&fs, d, fs.old.len, 1, "a damaged STREAM chunk");
    refused(&fs, fs.old.p, fs.old.len - 100u, 1, "a truncated file");
    fx_buf_t bare = {0};
    fx_record(2000, 1, &bare);
    refused(&fs, bare.p, bare.len, 1, "a bare CCore stream");
    fx_buf_free(&bare);
    char args[TEST_TMP_PATH + 64];
    snprintf(args, sizeof args, "index '%s/none.evr'", fs.dir);
    cr_assert_eq(cli(fs.dir, args), 1, "a missing file");
    cr_assert_eq(cli(fs.dir, "index -"), 2, "standard input");
    cr_assert_eq(cli(fs.dir, "index"), 2, "no operand");
    cr_assert_eq(cli(fs.dir, "index --help"), 0);
    free(d);
}

/* `evrec index LINK` indexes the file the link names and leaves the link a link (a rename over
 * the link's path would replace the link with a regular file and leave its target unindexed). */
Test(index, evrec_index_through_a_symbolic_link_rewrites_its_target)
{
    files_t fs;
    make_files(&fs, 20000);
    char sub[TEST_TMP_PATH], target[TEST_TMP_PATH], link[TEST_TMP_PATH], args[TEST_TMP_PATH + 64];
    path_of(sub, &fs, "real");
    cr_assert_eq(mkdir(sub, 0755), 0);
    path_of(target, &fs, "real/t.evr");
    path_of(link, &fs, "link.evr");
    write_file(target, fs.old.p, fs.old.len);
    cr_assert_eq(symlink("real/t.evr", link), 0);
    snprintf(args, sizeof args, "index '%s'", link);
    cr_assert_eq(cli(fs.dir, args), 0, "%s", cli_out(fs.dir, "err"));
    struct stat st;
    cr_assert_eq(lstat(link, &st), 0);
    cr_assert(S_ISLNK(st.st_mode), "the link is still a link");
    size_t n;
    uint8_t *got = slurp(target, &n);
    cr_assert(n == fs.saved.len && memcmp(got, fs.saved.p, n) == 0, "its target got the index save writes");
    free(got);
    cr_assert_eq(entries(fs.dir), 2, "the link and the folder: no temporary file left");
}

/* A read-only file is refused, untouched (even for root, who may write it). */
Test(index, evrec_index_refuses_a_read_only_file)
{
    files_t fs;
    make_files(&fs, 20000);
    char path[TEST_TMP_PATH], args[TEST_TMP_PATH + 64];
    path_of(path, &fs, "ro.evr");
    write_file(path, fs.old.p, fs.old.len);
    cr_assert_eq(chmod(path, 0444), 0);
    snprintf(args, sizeof args, "index '%s'", path);
    cr_assert_eq(cli(fs.dir, args), 1, "refused");
    char *err = cli_out(fs.dir, "err");
    cr_assert(strstr(err, "read-only"), "%s", err);
    free(err);
    size_t n;
    uint8_t *got = slurp(path, &n);
    cr_assert(n == fs.old.len && memcmp(got, fs.old.p, n) == 0, "untouched");
    free(got);
    cr_assert_eq(entries(fs.dir), 1, "no temporary file left");
}

/* A FIFO is refused before it is opened (an open for reading would wait for a writer: `timeout`
 * ends such a wait with status 124). */
Test(index, evrec_index_refuses_a_fifo_without_waiting)
{
    files_t fs;
    make_files(&fs, 2000);
    char path[TEST_TMP_PATH], args[3 * TEST_TMP_PATH + 128];
    path_of(path, &fs, "fifo.evr");
    cr_assert_eq(mkfifo(path, 0644), 0);
    snprintf(args, sizeof args, "timeout 30 '%s' index '%s' > '%s/out' 2> '%s/err'", EVREC_CLI, path, fs.dir,
             fs.dir);
    int st = system(args);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1, "refused at once: status %d", WEXITSTATUS(st));
    char *err = cli_out(fs.dir, "err");
    cr_assert(strstr(err, "not a regular file"), "%s", err);
    free(err);
}

/* A full disk, simulated by a file-size limit (ulimit -f, in 512-byte blocks): the write of the
 * temporary file fails; the command says so and exits 1 (it is not killed by SIGXFSZ), the file is
 * untouched and the temporary file removed. */
Test(index, evrec_index_on_a_full_disk_keeps_the_file_and_leaves_no_temporary)
{
    files_t fs;
    make_files(&fs, 20000);
    char path[TEST_TMP_PATH], args[3 * TEST_TMP_PATH + 128];
    path_of(path, &fs, "full.evr");
    write_file(path, fs.old.p, fs.old.len);
    cr_assert_gt(fs.old.len, 64u * 512u);
    snprintf(args, sizeof args, "ulimit -f 64 && '%s' index '%s' > '%s/out' 2> '%s/err'", EVREC_CLI, path, fs.dir,
             fs.dir);
    int st = system(args);
    cr_assert(WIFEXITED(st), "not killed by a signal (%d)", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    cr_assert_eq(WEXITSTATUS(st), 1);
    char *err = cli_out(fs.dir, "err");
    cr_assert(strstr(err, "cannot write the temporary file"), "the reason is given: '%s'", err);
    free(err);
    size_t n;
    uint8_t *got = slurp(path, &n);
    cr_assert(n == fs.old.len && memcmp(got, fs.old.p, n) == 0, "untouched");
    free(got);
    cr_assert_eq(entries(fs.dir), 1, "no temporary file left");
}

/* The table: full, it keeps every other entry and doubles the stride; the entries are always the
 * SYNC chunks number 0, s, 2s, ... */
Test(index, table_halves_and_doubles_its_stride)
{
    evrec_index_entry_t e[6];
    evrec_index_t x;
    evrec_index_init(&x, e, 7); /* rounded down to 6 */
    cr_assert_eq(x.capacity, 6u);
    for (uint64_t k = 0; k < 100; k++) {
        evrec_index_entry_t s = {1000u + 10u * k, k, 2u * k, 2u * k + 1u};
        evrec_index_add(&x, &s);
        cr_assert_leq(x.count, 6u);
        for (uint32_t i = 0; i < x.count; i++) {
            cr_assert_eq(e[i].index, (uint64_t)i * x.stride, "entry %u after %llu adds", i, (unsigned long long)k);
        }
        cr_assert_eq(e[x.count - 1u].index + x.stride > k, 1, "the last entry is the latest multiple");
    }
    cr_assert_eq(x.stride, 32u, "100 SYNC chunks in 6 entries: stride 32 (0, 32, 64, 96)");
    cr_assert_eq(x.count, 4u);
}

/* A save with more SYNC chunks than the table holds (host: 512 entries) writes a stride > 1 index
 * whose entries are every stride-th SYNC chunk, all checked. */
Test(index, a_long_save_doubles_the_stride)
{
    fx_buf_t f = {0};
    fx_record(900000, 0, &f);
    size_t max = f.len / 8u + 1u, syncs = 0;
    fx_chunk_t *ch = malloc(max * sizeof *ch);
    size_t n = fx_chunks(f.p, f.len, ch, max);
    uint64_t *sync_off = malloc(n * sizeof *sync_off);
    for (size_t i = 0; i < n; i++) {
        if (ch[i].type == EVREC_CHUNK_SYNC) {
            sync_off[syncs++] = ch[i].off;
        }
    }
    uint32_t len;
    size_t off = index_chunk(&f, &len);
    const uint8_t *pl = f.p + off + 8u;
    uint32_t stride = be32(pl), count = be32(pl + 4);
    cr_assert_gt(stride, 1u, "%zu SYNC chunks: more than the table holds", syncs);
    cr_assert_leq(count, 512u, "the host's EVREC_SAVE_INDEX_ENTRIES");
    cr_assert_eq(count, (uint32_t)((syncs + stride - 1u) / stride), "every stride-th SYNC chunk");
    for (uint32_t i = 0; i < count; i++) {
        cr_assert_eq(be64(pl + EVREC_INDEX_HEAD + (size_t)i * EVREC_INDEX_ENTRY), sync_off[(size_t)i * stride]);
    }
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, f.p, f.len, NULL), EVREC_OK);
    evrec_index_info_t info;
    cr_assert_eq(evrec_reader_index_check(r, &info), EVREC_OK);
    cr_assert_eq(info.entries, count);
    evrec_reader_close(r);
    free(sync_off);
    free(ch);
    fx_buf_free(&f);
}
