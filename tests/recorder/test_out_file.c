/* SPDX-License-Identifier: Apache-2.0 */
/* evrec_out_file (POSIX port): the output-path rule of every evrec program, case by case: what
 * OUT is afterwards (its type, its content, its mode) and that no temporary file is left. The
 * read-only and full file system cases mount a small tmpfs and are skipped where mount(2) is
 * not allowed; the write failure is also injected with RLIMIT_FSIZE (EFBIG), which root hits. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "evrec_out_file.h"
#include "../common/test_tmp.h"

static const char NEW[] = "the new content\n";

static char dir_of_test[512]; /* each test runs in its own process */

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* After each test: the tmpfs unmounted, the test's directory removed. */
static void clean_up(void)
{
    if (dir_of_test[0]) {
        char mnt[600];
        snprintf(mnt, sizeof mnt, "%s/mnt", dir_of_test);
        (void)umount2(mnt, MNT_DETACH);
        (void)nftw(dir_of_test, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
    }
}

TestSuite(out_file, .fini = clean_up);

static char *temp_dir(void)
{
    cr_assert_eq(test_tmp_template(dir_of_test, sizeof dir_of_test, "out-file"), 0);
    cr_assert_not_null(mkdtemp(dir_of_test));
    return dir_of_test;
}

/* Entries of `dir` (without . and ..): a temporary file left behind shows here. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    }
    closedir(d);
    return n;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s: %s", path, strerror(errno));
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

/* 1 when `path` holds exactly `text`. */
static int holds(const char *path, const char *text)
{
    char buf[256] = {0};
    FILE *f = fopen(path, "rb");
    if (!f) {
        return 0;
    }
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    return n == strlen(text) && memcmp(buf, text, n) == 0;
}

/* Open, write NEW, commit: the status of the first step that fails. */
static evrec_status write_new(const char *path, evrec_out_file_t *o)
{
    evrec_status st = evrec_out_file_open(o, path, 0);
    if (st == EVREC_OK) {
        st = evrec_out_file_write(o, NEW, sizeof NEW - 1);
        st = st == EVREC_OK ? evrec_out_file_commit(o) : (evrec_out_file_abort(o), st);
    }
    return st;
}

Test(out_file, absent_path_gets_a_new_file_with_the_umask_mode)
{
    char *dir = temp_dir(), path[128];
    snprintf(path, sizeof path, "%s/new.txt", dir);
    umask(027);
    evrec_out_file_t o;
    cr_assert_eq(write_new(path, &o), EVREC_OK, "%s", evrec_out_file_message(&o));
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert(S_ISREG(st.st_mode));
    cr_assert_eq(st.st_mode & 0777, 0640, "mode %o", (unsigned)(st.st_mode & 0777));
    cr_assert(holds(path, NEW));
    cr_assert_eq(entries(dir), 1, "a temporary file is left");
}

Test(out_file, regular_file_is_replaced_and_keeps_its_mode)
{
    char *dir = temp_dir(), path[128];
    snprintf(path, sizeof path, "%s/old.txt", dir);
    put(path, "OLD");
    cr_assert_eq(chmod(path, 0600), 0);
    struct stat before, after;
    cr_assert_eq(stat(path, &before), 0);
    evrec_out_file_t o;
    cr_assert_eq(write_new(path, &o), EVREC_OK, "%s", evrec_out_file_message(&o));
    cr_assert_eq(stat(path, &after), 0);
    cr_assert(holds(path, NEW));
    cr_assert_eq(after.st_mode & 0777, 0600);
    cr_assert_neq(after.st_ino, before.st_ino, "written in place, not renamed over");
    cr_assert_eq(entries(dir), 1);
}

Test(out_file, replaced_file_keeps_its_owner_where_allowed)
{
    if (geteuid() != 0) {
        cr_skip_test("only root can give the replacement another owner");
    }
    char *dir = temp_dir(), path[128];
    snprintf(path, sizeof path, "%s/owned.txt", dir);
    put(path, "OLD");
    cr_assert_eq(chown(path, 4321, 4322), 0);
    evrec_out_file_t o;
    cr_assert_eq(write_new(path, &o), EVREC_OK, "%s", evrec_out_file_message(&o));
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_uid, 4321u);
    cr_assert_eq(st.st_gid, 4322u);
    cr_assert(holds(path, NEW));
}

Test(out_file, symlink_to_a_regular_file_replaces_the_file_and_keeps_the_link)
{
    char *dir = temp_dir(), path[128], link[128];
    snprintf(path, sizeof path, "%s/target.txt", dir);
    snprintf(link, sizeof link, "%s/link.txt", dir);
    put(path, "OLD");
    cr_assert_eq(symlink("target.txt", link), 0);
    evrec_out_file_t o;
    cr_assert_eq(write_new(link, &o), EVREC_OK, "%s", evrec_out_file_message(&o));
    struct stat st;
    cr_assert_eq(lstat(link, &st), 0);
    cr_assert(S_ISLNK(st.st_mode), "the link was replaced");
    cr_assert(holds(path, NEW));
    cr_assert_eq(entries(dir), 2);
}

Test(out_file, dangling_symlink_is_refused)
{
    char *dir = temp_dir(), link[128], target[128];
    snprintf(link, sizeof link, "%s/link.txt", dir);
    snprintf(target, sizeof target, "%s/nowhere", dir);
    cr_assert_eq(symlink("nowhere", link), 0);
    evrec_out_file_t o;
    cr_assert_eq(evrec_out_file_open(&o, link, 0), EVREC_E_IO);
    cr_assert_not_null(strstr(evrec_out_file_message(&o), "symbolic link names no file"), "%s",
                       evrec_out_file_message(&o));
    struct stat st;
    cr_assert_eq(lstat(link, &st), 0);
    cr_assert(S_ISLNK(st.st_mode));
    cr_assert_eq(access(target, F_OK), -1, "a file was created through the link");
    cr_assert_eq(entries(dir), 1);
}

Test(out_file, character_device_is_written_in_place)
{
    /* As root a null device node of our own (mknod), else /dev/null itself. */
    char *dir = temp_dir(), path[128];
    snprintf(path, sizeof path, "%s/null", dir);
    if (mknod(path, S_IFCHR | 0666, makedev(1, 3)) != 0) {
        snprintf(path, sizeof path, "/dev/null");
    }
    evrec_out_file_t o;
    cr_assert_eq(write_new(path, &o), EVREC_OK, "%s", evrec_out_file_message(&o));
    struct stat st;
    cr_assert_eq(lstat(path, &st), 0);
    cr_assert(S_ISCHR(st.st_mode), "the device node was replaced");
    cr_assert_eq(major(st.st_rdev), 1);
    cr_assert_eq(minor(st.st_rdev), 3);
    cr_assert_eq(o.bytes, sizeof NEW - 1);
}

Test(out_file, fifo_is_written_in_place_and_its_reader_gets_the_bytes)
{
    char *dir = temp_dir(), path[128];
    snprintf(path, sizeof path, "%s/fifo", dir);
    cr_assert_eq(mkfifo(path, 0600), 0);
    int rd = open(path, O_RDONLY | O_NONBLOCK); /* the reader: opening for writing does not wait */
    cr_assert_geq(rd, 0);
    evrec_out_file_t o;
    cr_assert_eq(write_new(path, &o), EVREC_OK, "%s", evrec_out_file_message(&o));
    char buf[64] = {0};
    cr_assert_eq(read(rd, buf, sizeof buf), (ssize_t)(sizeof NEW - 1));
    cr_assert_str_eq(buf, NEW);
    close(rd);
    struct stat st;
    cr_assert_eq(lstat(path, &st), 0);
    cr_assert(S_ISFIFO(st.st_mode));
    cr_assert_eq(entries(dir), 1);
}

Test(out_file, named_output_of_a_fifo_is_copied_into_it)
{
    char *dir = temp_dir(), path[128];
    snprintf(path, sizeof path, "%s/fifo", dir);
    cr_assert_eq(mkfifo(path, 0600), 0);
    int rd = open(path, O_RDONLY | O_NONBLOCK);
    cr_assert_geq(rd, 0);
    setenv("TMPDIR", dir, 1);
    evrec_out_file_t o;
    cr_assert_eq(evrec_out_file_open(&o, path, EVREC_OUT_FILE_NAMED), EVREC_OK);
    const char *tmp = evrec_out_file_temp_path(&o);
    cr_assert_not_null(tmp);
    cr_assert_eq(strncmp(tmp, dir, strlen(dir)), 0, "%s is not in TMPDIR", tmp);
    put(tmp, NEW);
    cr_assert_eq(evrec_out_file_commit(&o), EVREC_OK, "%s", evrec_out_file_message(&o));
    char buf[64] = {0};
    cr_assert_eq(read(rd, buf, sizeof buf), (ssize_t)(sizeof NEW - 1));
    close(rd);
    struct stat st;
    cr_assert_eq(lstat(path, &st), 0);
    cr_assert(S_ISFIFO(st.st_mode));
    cr_assert_eq(entries(dir), 1, "the named temporary file is left");
}

Test(out_file, directory_is_refused)
{
    char *dir = temp_dir(), path[128];
    snprintf(path, sizeof path, "%s/sub", dir);
    cr_assert_eq(mkdir(path, 0755), 0);
    evrec_out_file_t o;
    cr_assert_eq(evrec_out_file_open(&o, path, 0), EVREC_E_IO);
    cr_assert_eq(o.err, EISDIR);
    cr_assert_not_null(strstr(evrec_out_file_message(&o), "is a directory"));
    struct stat st;
    cr_assert_eq(lstat(path, &st), 0);
    cr_assert(S_ISDIR(st.st_mode));
    cr_assert_eq(entries(dir), 1);
}

Test(out_file, socket_is_refused)
{
    char *dir = temp_dir();
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s/sock", dir);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    cr_assert_geq(s, 0);
    cr_assert_eq(bind(s, (const struct sockaddr *)&sa, sizeof sa), 0);
    evrec_out_file_t o;
    cr_assert_eq(evrec_out_file_open(&o, sa.sun_path, 0), EVREC_E_IO);
    cr_assert_not_null(strstr(evrec_out_file_message(&o), "socket"));
    struct stat st;
    cr_assert_eq(lstat(sa.sun_path, &st), 0);
    cr_assert(S_ISSOCK(st.st_mode));
    close(s);
}

Test(out_file, abort_leaves_the_file_and_removes_the_temporary_one)
{
    char *dir = temp_dir(), path[128];
    snprintf(path, sizeof path, "%s/keep.txt", dir);
    put(path, "OLD");
    evrec_out_file_t o;
    cr_assert_eq(evrec_out_file_open(&o, path, 0), EVREC_OK);
    cr_assert_eq(evrec_out_file_write(&o, NEW, sizeof NEW - 1), EVREC_OK);
    cr_assert_eq(entries(dir), 2, "the temporary file is in OUT's directory");
    evrec_out_file_abort(&o);
    cr_assert(holds(path, "OLD"));
    cr_assert_eq(entries(dir), 1);
}

/* Write 64 KiB to a file holding "OLD" and expect the write to fail with `err`; `files` entries
 * of `dir` afterwards (OUT and what the test put there). */
static void expect_write_failure(const char *dir, const char *path, int err, int files)
{
    static char big[1 << 16];
    memset(big, 'x', sizeof big);
    evrec_out_file_t o;
    cr_assert_eq(evrec_out_file_open(&o, path, 0), EVREC_OK, "%s", evrec_out_file_message(&o));
    cr_assert_eq(evrec_out_file_write(&o, big, sizeof big), EVREC_E_IO);
    cr_assert_eq(o.err, err, "errno %d (%s)", o.err, strerror(o.err));
    cr_assert_eq(evrec_out_file_write(&o, "y", 1), EVREC_E_IO, "a write after a failure succeeded");
    cr_assert_eq(evrec_out_file_commit(&o), EVREC_E_IO);
    cr_assert_not_null(strstr(evrec_out_file_message(&o), "cannot write"), "%s", evrec_out_file_message(&o));
    cr_assert(holds(path, "OLD"), "OUT was changed by a failed run");
    cr_assert_eq(entries(dir), files, "the temporary file is left");
}

Test(out_file, failed_write_efbig_leaves_the_file)
{
    char *dir = temp_dir(), path[128];
    snprintf(path, sizeof path, "%s/keep.txt", dir);
    put(path, "OLD");
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {4096, 4096};
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
    expect_write_failure(dir, path, EFBIG, 1);
}

/* A 64 KiB tmpfs at DIR/mnt, or skip the test where mount(2) is not allowed. */
static void mount_small_tmpfs(const char *dir, char *mnt, size_t n)
{
    snprintf(mnt, n, "%s/mnt", dir);
    cr_assert_eq(mkdir(mnt, 0755), 0);
    if (mount("tmpfs", mnt, "tmpfs", 0, "size=64k") != 0) {
        cr_skip_test("mount tmpfs: %s (needs root or CAP_SYS_ADMIN)", strerror(errno));
    }
}

Test(out_file, full_disk_enospc_leaves_the_file)
{
    char *dir = temp_dir(), mnt[128], path[160], fill[160];
    mount_small_tmpfs(dir, mnt, sizeof mnt);
    snprintf(path, sizeof path, "%s/keep.txt", mnt);
    snprintf(fill, sizeof fill, "%s/filler", mnt);
    put(path, "OLD");
    int fd = open(fill, O_WRONLY | O_CREAT, 0600);
    char page[4096] = {0};
    while (write(fd, page, sizeof page) > 0) {
    }
    close(fd);
    expect_write_failure(mnt, path, ENOSPC, 2);
}

Test(out_file, read_only_file_system_is_refused_and_leaves_the_file)
{
    char *dir = temp_dir(), mnt[128], path[160];
    mount_small_tmpfs(dir, mnt, sizeof mnt);
    snprintf(path, sizeof path, "%s/keep.txt", mnt);
    put(path, "OLD");
    cr_assert_eq(mount("tmpfs", mnt, "tmpfs", MS_REMOUNT | MS_RDONLY, "size=64k"), 0, "%s", strerror(errno));
    evrec_out_file_t o;
    cr_assert_eq(evrec_out_file_open(&o, path, 0), EVREC_E_IO);
    cr_assert_eq(o.err, EROFS);
    cr_assert_not_null(strstr(evrec_out_file_message(&o), "cannot create a temporary file"), "%s",
                       evrec_out_file_message(&o));
    cr_assert(holds(path, "OLD"));
}

Test(out_file, bad_arguments)
{
    evrec_out_file_t o;
    cr_assert_eq(evrec_out_file_open(NULL, "x", 0), EVREC_E_ARG);
    cr_assert_eq(evrec_out_file_open(&o, NULL, 0), EVREC_E_ARG);
    cr_assert_eq(evrec_out_file_open(&o, "", 0), EVREC_E_ARG);
    cr_assert_eq(evrec_out_file_commit(NULL), EVREC_E_ARG);
    evrec_out_file_abort(NULL);
}
