/* SPDX-License-Identifier: Apache-2.0 */
#define _XOPEN_SOURCE 700 /* realpath */
/* The output-path rule of evrec_out_file.h: a temporary file next to OUT renamed over it, or a
 * device or FIFO written in place. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "evrec_out_file.h"

static evrec_status fail(evrec_out_file_t *o, int err, const char *fmt, ...)
{
    if (!o->err) {
        o->err = err ? err : EIO;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(o->message, sizeof o->message,
                     "%s: ", strcmp(o->path, "-") == 0 ? "standard output" : o->path);
    if (n > 0 && (size_t)n < sizeof o->message) {
        vsnprintf(o->message + n, sizeof o->message - (size_t)n, fmt, ap);
    }
    va_end(ap);
    return err == ENOMEM ? EVREC_E_NOMEM : EVREC_E_IO;
}

/* Six name characters that differ between calls, processes and runs (the O_EXCL create makes
 * a collision harmless: the caller tries again). */
static void fill_random(char *x, unsigned attempt)
{
    static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static atomic_uint counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t v = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 20) ^
                 ((uint64_t)atomic_fetch_add(&counter, 1u) << 8) ^ attempt;
    v *= 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 6; i++) {
        x[i] = set[(v >> (58 - 6 * i)) % (sizeof set - 1)];
    }
}

/* Create DIR/.BASE.XXXXXX for `file` (DIR of `file` unless `dir` is given) with O_EXCL and mode
 * 0666 (the umask applies); sets o->tmp and returns its descriptor, or -1 after fail(). */
static int create_temp(evrec_out_file_t *o, const char *file, const char *dir)
{
    const char *slash = strrchr(file, '/');
    const char *base = slash ? slash + 1 : file;
    size_t dir_len = dir ? strlen(dir) + 1 : slash ? (size_t)(slash - file) + 1 : 0;
    size_t n = dir_len + strlen(base) + 10;
    o->tmp = malloc(n);
    if (!o->tmp) {
        fail(o, ENOMEM, "out of memory");
        return -1;
    }
    if (dir) {
        snprintf(o->tmp, n, "%s/.%s.XXXXXX", dir, base);
    } else {
        snprintf(o->tmp, n, "%.*s.%s.XXXXXX", (int)dir_len, file, base);
    }
    int fd = -1;
    for (unsigned attempt = 0; attempt < 100 && fd < 0; attempt++) {
        fill_random(o->tmp + strlen(o->tmp) - 6, attempt);
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) {
            break;
        }
    }
    if (fd < 0) {
        int e = errno;
        const char *end = strrchr(o->tmp, '/');
        int n_dir = end ? (int)(end - o->tmp) + (end == o->tmp) : 1;
        fail(o, e, "cannot write: cannot create a temporary file in %.*s: %s", n_dir, end ? o->tmp : ".",
             strerror(e));
        free(o->tmp);
        o->tmp = NULL;
    }
    return fd;
}

/* OUT is a device or FIFO (or a link to one): open it for writing without truncating it. */
static evrec_status open_in_place(evrec_out_file_t *o)
{
    if (o->flags & EVREC_OUT_FILE_NAMED) {
        const char *td = getenv("TMPDIR");
        int fd = create_temp(o, "evrec-out", td && *td ? td : "/tmp");
        if (fd < 0) {
            return EVREC_E_IO;
        }
        close(fd);
        return EVREC_OK;
    }
    if (strcmp(o->path, "-") == 0) {
        o->fd = STDOUT_FILENO;
        return EVREC_OK;
    }
    o->fd = open(o->path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (o->fd < 0) {
        int e = errno;
        return fail(o, e, "cannot open it for writing: %s", strerror(e));
    }
    return EVREC_OK;
}

/* OUT is absent (`st` NULL) or a regular file (`st` its stat), or a link to one. */
static evrec_status open_replacing(evrec_out_file_t *o, const struct stat *st, int is_link)
{
    if (is_link) {
        o->target = realpath(o->path, NULL);
        if (!o->target) {
            int e = errno;
            return fail(o, e, "cannot resolve the symbolic link: %s", strerror(e));
        }
    } else {
        o->target = strdup(o->path);
        if (!o->target) {
            return fail(o, ENOMEM, "out of memory");
        }
    }
    int fd = create_temp(o, o->target, NULL);
    if (fd < 0) {
        free(o->target);
        o->target = NULL;
        return o->err == ENOMEM ? EVREC_E_NOMEM : EVREC_E_IO;
    }
    if (st) {
        /* The replacement keeps OUT's owner (where allowed: root) and permissions. */
        (void)fchown(fd, st->st_uid, st->st_gid);
        (void)fchmod(fd, st->st_mode & 07777);
    }
    if (o->flags & EVREC_OUT_FILE_NAMED) {
        close(fd);
    } else {
        o->fd = fd;
    }
    return EVREC_OK;
}

evrec_status evrec_out_file_open(evrec_out_file_t *o, const char *path, unsigned flags)
{
    if (!o) {
        return EVREC_E_ARG;
    }
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->flags = flags;
    o->path = path ? path : "";
    if (!path || !*path) {
        fail(o, EINVAL, "an empty output path");
        return EVREC_E_ARG;
    }
    if (strcmp(path, "-") == 0) {
        return open_in_place(o);
    }
    struct stat lst, st;
    if (lstat(path, &lst) != 0) {
        int e = errno;
        if (e != ENOENT) {
            return fail(o, e, "cannot create: %s", strerror(e));
        }
        return open_replacing(o, NULL, 0);
    }
    int is_link = S_ISLNK(lst.st_mode);
    if (stat(path, &st) != 0) {
        int e = errno;
        return fail(o, e,
                    is_link ? "the symbolic link names no file (%s): nothing is created through it"
                            : "cannot create: %s",
                    strerror(e));
    }
    if (S_ISREG(st.st_mode)) {
        return open_replacing(o, &st, is_link);
    }
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode)) {
        return open_in_place(o);
    }
    if (S_ISDIR(st.st_mode)) {
        return fail(o, EISDIR, "is a directory: give a file name");
    }
    return fail(o, ENXIO, "is a socket (or another special file): cannot write to it");
}

evrec_status evrec_out_file_write(evrec_out_file_t *o, const void *data, size_t len)
{
    if (!o || (!data && len) || (o->flags & EVREC_OUT_FILE_NAMED)) {
        return EVREC_E_ARG;
    }
    const char *c = data;
    while (len && !o->err) {
        ssize_t k = write(o->fd, c, len);
        if (k < 0 && errno == EINTR) {
            continue;
        }
        if (k <= 0) {
            int e = k < 0 ? errno : EIO;
            return fail(o, e, "cannot write: %s", strerror(e));
        }
        c += k;
        len -= (size_t)k;
        o->bytes += (uint64_t)k;
    }
    return o->err ? EVREC_E_IO : EVREC_OK;
}

void evrec_out_file_fail(evrec_out_file_t *o, int err)
{
    if (o && !o->err) {
        err = err ? err : EIO;
        fail(o, err, "cannot write: %s", strerror(err));
    }
}

/* Copy the named temporary file into the device or FIFO OUT. */
static void copy_into_place(evrec_out_file_t *o)
{
    int in = open(o->tmp, O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        int e = errno;
        fail(o, e, "cannot read back %s: %s", o->tmp, strerror(e));
        return;
    }
    unsigned saved = o->flags;
    o->flags &= ~EVREC_OUT_FILE_NAMED;
    if (open_in_place(o) == EVREC_OK) {
        char buf[1 << 14];
        ssize_t n;
        while (!o->err && (n = read(in, buf, sizeof buf)) != 0) {
            if (n < 0 && errno != EINTR) {
                int e = errno;
                fail(o, e, "cannot read back %s: %s", o->tmp, strerror(e));
            } else if (n > 0) {
                evrec_out_file_write(o, buf, (size_t)n);
            }
        }
    }
    o->flags = saved;
    close(in);
}

/* 1 when o->fd is this output's own descriptor (not standard output for "-"). */
static int owns_fd(const evrec_out_file_t *o)
{
    return o->fd >= 0 && strcmp(o->path, "-") != 0;
}

static void end(evrec_out_file_t *o)
{
    if (owns_fd(o)) {
        close(o->fd);
    }
    o->fd = -1;
    if (o->tmp) {
        unlink(o->tmp);
    }
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
}

evrec_status evrec_out_file_commit(evrec_out_file_t *o)
{
    if (!o) {
        return EVREC_E_ARG;
    }
    if (!o->err && o->tmp && !o->target) {
        copy_into_place(o); /* a named output of a device or FIFO */
    }
    if (!o->err && o->target && o->fd >= 0 && fsync(o->fd) != 0) {
        int e = errno;
        fail(o, e, "cannot write (fsync): %s", strerror(e));
    }
    if (!o->err && o->target && o->fd < 0) { /* named: reopen to sync what the library wrote */
        int fd = open(o->tmp, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || fsync(fd) != 0) {
            int e = errno;
            fail(o, e, "cannot write (fsync): %s", strerror(e));
        }
        if (fd >= 0) {
            close(fd);
        }
    }
    if (owns_fd(o) && close(o->fd) != 0 && !o->err) {
        int e = errno;
        fail(o, e, "cannot write (close): %s", strerror(e));
    }
    o->fd = -1;
    if (!o->err && o->target && rename(o->tmp, o->target) != 0) {
        int e = errno;
        fail(o, e, "cannot replace it with %s: %s", o->tmp, strerror(e));
    }
    if (!o->err && o->target) {
        free(o->tmp); /* renamed: nothing to remove */
        o->tmp = NULL;
    }
    end(o);
    return o->err ? EVREC_E_IO : EVREC_OK;
}

void evrec_out_file_abort(evrec_out_file_t *o)
{
    if (o) {
        end(o);
    }
}

const char *evrec_out_file_temp_path(const evrec_out_file_t *o)
{
    return o && (o->flags & EVREC_OUT_FILE_NAMED) ? o->tmp : NULL;
}

const char *evrec_out_file_message(const evrec_out_file_t *o)
{
    return o ? o->message : "";
}
