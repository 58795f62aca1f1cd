/* SPDX-License-Identifier: Apache-2.0 */
/* The output directory: created with its parents when missing, removed again after a failed run
 * (the files themselves are written by evrec_out_file, main.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen_internal.h"

/* Length of the parent of path[0, n): without its last component and the slashes before it
 * (0 when there is no parent, 1 for "/"). */
static size_t parent_len(const char *path, size_t n)
{
    while (n > 1 && path[n - 1] == '/') {
        n--;
    }
    while (n > 0 && path[n - 1] != '/') {
        n--;
    }
    while (n > 1 && path[n - 1] == '/') {
        n--;
    }
    return n;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int gen_mkdir_p(const char *dir, char **created)
{
    *created = NULL;
    if (is_dir(dir)) {
        return 0;
    }
    size_t len = strlen(dir);
    char *p = gen_xmalloc(len + 1);
    memcpy(p, dir, len + 1);
    /* Find the longest existing prefix, then create the components after it, outermost first. */
    size_t n = len;
    while (n > 0) {
        size_t up = parent_len(p, n);
        if (up == 0) {
            n = 0;
            break;
        }
        char c = p[up];
        p[up] = '\0';
        int exists = is_dir(p);
        p[up] = c;
        if (exists) {
            n = up;
            break;
        }
        n = up;
    }
    /* Create each component after p[0, n). */
    size_t i = n;
    for (;;) {
        while (i < len && p[i] == '/') {
            i++;
        }
        if (i >= len) {
            break;
        }
        while (i < len && p[i] != '/') {
            i++;
        }
        char c = p[i];
        p[i] = '\0';
        if (mkdir(p, 0777) != 0 && !(errno == EEXIST && is_dir(p))) {
            fprintf(stderr, "evrec-gen: cannot create directory '%s': %s\n", p, strerror(errno));
            p[i] = c;
            if (*created) {
                gen_rmdir_created(p, *created);
                free(*created);
                *created = NULL;
            }
            free(p);
            return -1;
        }
        if (!*created) {
            *created = gen_xmalloc(i + 1);
            memcpy(*created, p, i + 1);
        }
        p[i] = c;
    }
    free(p);
    return 0;
}

void gen_rmdir_created(const char *dir, const char *created)
{
    if (!created) {
        return;
    }
    size_t stop = strlen(created);
    size_t len = strlen(dir);
    char *p = gen_xmalloc(len + 1);
    memcpy(p, dir, len + 1);
    size_t n = len;
    while (n >= stop && n > 0) {
        p[n] = '\0';
        if (rmdir(p) != 0) {
            break;
        }
        n = parent_len(p, n);
    }
    free(p);
}
