/* SPDX-License-Identifier: Apache-2.0 */
/* Output files: written to a temporary file next to the target and renamed, so that a failed
 * or interrupted run never leaves a partial file behind. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen_internal.h"

int gen_write_file_atomic(const char *path, const gen_buf_t *data, char **tmp_out)
{
    size_t n = strlen(path);
    char *tmp = gen_xmalloc(n + 16);
    snprintf(tmp, n + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "evrec-gen: cannot create '%s': %s\n", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        fprintf(stderr, "evrec-gen: cannot write '%s': %s\n", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    size_t len = data->len;
    int ok = (len == 0 || fwrite(data->data, 1, len, f) == len);
    ok = (fflush(f) == 0) && ok;
    int err = errno;
    ok = (fclose(f) == 0) && ok;
    if (!ok) {
        fprintf(stderr, "evrec-gen: cannot write '%s': %s\n", tmp, strerror(err ? err : errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    /* mkstemp makes 0600; generated sources get the usual 0666 & ~umask. */
    mode_t mask = umask(0);
    umask(mask);
    chmod(tmp, 0666 & ~mask);
    *tmp_out = tmp;
    return 0;
}

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
