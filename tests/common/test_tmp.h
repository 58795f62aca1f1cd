/* SPDX-License-Identifier: Apache-2.0 */
/* Scratch files and folders for tests, removed when the test process ends.
 *
 * Criterion runs every test in a process of its own, and a failed assertion ends that process
 * through exit(): a folder registered with test_tmp_remove_at_exit() is removed after a passing
 * and after a failing test alike (not after a crash: a signal runs no exit handlers). Folders
 * go under $TMPDIR (default /tmp), so that a run with a private TMPDIR sees what is left behind.
 * Only the process that registered a folder removes it: a forked child that calls exit() does
 * not take its parent's folder away. */
#ifndef EVREC_TEST_TMP_H
#define EVREC_TEST_TMP_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

enum { TEST_TMP_PATH = 4096 };

static char **test_tmp_paths; /* malloc'd copies; test_tmp_count of them */
static size_t test_tmp_count;
static pid_t test_tmp_owner;

/* Removes `path` and, when it is a folder, everything under it (symbolic links are removed,
 * not followed). Errors are ignored: what cannot be removed stays. */
static inline void test_tmp_rm_rf(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
                continue;
            }
            char *sub = malloc(strlen(path) + strlen(e->d_name) + 2);
            if (sub) {
                sprintf(sub, "%s/%s", path, e->d_name);
                test_tmp_rm_rf(sub);
                free(sub);
            }
        }
        if (d) {
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

static inline void test_tmp_cleanup(void)
{
    if (getpid() != test_tmp_owner) {
        return;
    }
    for (size_t i = 0; i < test_tmp_count; i++) {
        test_tmp_rm_rf(test_tmp_paths[i]);
        free(test_tmp_paths[i]);
    }
    free(test_tmp_paths);
    test_tmp_paths = NULL;
    test_tmp_count = 0;
}

/* Registers `path` (a file or a folder) for removal when this process exits (the path is
 * copied). Returns 0, or -1 when out of memory. */
static inline int test_tmp_remove_at_exit(const char *path)
{
    if (test_tmp_owner != getpid()) {
        test_tmp_owner = getpid(); /* a forked child starts its own list */
        test_tmp_paths = NULL;     /* (the parent's, not freed: the child does not own it) */
        test_tmp_count = 0;
        atexit(test_tmp_cleanup);
    }
    char **grown = realloc(test_tmp_paths, (test_tmp_count + 1) * sizeof *grown);
    if (!grown) {
        return -1;
    }
    test_tmp_paths = grown;
    char *copy = strdup(path);
    if (!copy) {
        return -1;
    }
    test_tmp_paths[test_tmp_count++] = copy;
    return 0;
}

/* Takes `path` off the list: it stays after the process (a failure's files kept for a look).
 * Returns 0, or -1 when it was not on the list. */
static inline int test_tmp_keep(const char *path)
{
    for (size_t i = 0; test_tmp_owner == getpid() && i < test_tmp_count; i++) {
        if (strcmp(test_tmp_paths[i], path) == 0) {
            free(test_tmp_paths[i]);
            test_tmp_paths[i] = test_tmp_paths[--test_tmp_count];
            return 0;
        }
    }
    return -1;
}

/* The mkstemp()/mkdtemp() template "$TMPDIR/evrec-<tag>-XXXXXX" in buf[size]; 0, or -1 when
 * it does not fit. */
static inline int test_tmp_template(char *buf, size_t size, const char *tag)
{
    const char *t = getenv("TMPDIR");
    int n = snprintf(buf, size, "%s/evrec-%s-XXXXXX", t && *t ? t : "/tmp", tag);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

/* A new folder "$TMPDIR/evrec-<tag>-XXXXXX", removed with its content at exit. Returns the path
 * (malloc'd, the caller may free it), or NULL on failure. */
static inline char *test_tmp_dir(const char *tag)
{
    char *p = malloc(TEST_TMP_PATH);
    if (!p || test_tmp_template(p, TEST_TMP_PATH, tag) != 0 || !mkdtemp(p)) {
        free(p);
        return NULL;
    }
    test_tmp_remove_at_exit(p);
    return p;
}

/* A new empty file "$TMPDIR/evrec-<tag>-XXXXXX" (mkstemp(): mode 0600), removed at exit; the
 * path goes to buf[size]. Returns the open descriptor, or -1 on failure. */
static inline int test_tmp_file(char *buf, size_t size, const char *tag)
{
    if (test_tmp_template(buf, size, tag) != 0) {
        return -1;
    }
    int fd = mkstemp(buf);
    if (fd >= 0) {
        test_tmp_remove_at_exit(buf);
    }
    return fd;
}

#endif
