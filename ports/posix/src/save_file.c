/* SPDX-License-Identifier: Apache-2.0 */
#define _XOPEN_SOURCE 700 /* realpath */
/* evrec_save_file() and evrec_save_path(): evrec_save_ex() to a stdio stream, and to a path
 * through a temporary file in the same directory renamed over it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evrec_save_file.h"

typedef struct file_sink {
    FILE *f;
    uint64_t bytes;
    int err; /* errno of the first failed write */
} file_sink_t;

static int file_write(void *ctx, const void *data, size_t len)
{
    file_sink_t *s = (file_sink_t *)ctx;
    size_t n = fwrite(data, 1, len, s->f);
    s->bytes += n;
    if (n != len) {
        s->err = errno ? errno : EIO;
        return 1;
    }
    return 0;
}

evrec_status evrec_save_file_ex(const evrec_recorder_t *rec, FILE *f, const evrec_save_options_t *opt,
                                uint64_t *bytes)
{
    if (bytes) {
        *bytes = 0;
    }
    if (!rec || !f) {
        return EVREC_E_ARG;
    }
    file_sink_t s = {f, 0, 0};
    evrec_sink_t sink = {file_write, &s};
    errno = 0;
    evrec_status st = evrec_save_ex(rec, &sink, opt);
    if (fflush(f) != 0 && st == EVREC_OK) {
        st = EVREC_E_IO;
        s.err = errno ? errno : EIO;
    }
    if (bytes) {
        *bytes = s.bytes;
    }
    if (st == EVREC_E_IO && s.err) {
        errno = s.err;
    }
    return st;
}

evrec_status evrec_save_file(const evrec_recorder_t *rec, FILE *f)
{
    return evrec_save_file_ex(rec, f, NULL, NULL);
}

/* "DIR/.NAME.XXXXXX" for path "DIR/NAME" (malloc'd), or NULL. */
static char *temp_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1u : 0u;
    const char *base = path + dir_len;
    size_t n = strlen(path) + 16u;
    char *t = malloc(n);
    if (t) {
        memcpy(t, path, dir_len);
        snprintf(t + dir_len, n - dir_len, ".%s.XXXXXX", base);
    }
    return t;
}

evrec_status evrec_save_path_ex(const evrec_recorder_t *rec, const char *path,
                                const evrec_save_options_t *opt, uint64_t *bytes)
{
    if (bytes) {
        *bytes = 0;
    }
    if (!rec || !path || !*path) {
        return EVREC_E_ARG;
    }
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        if (S_ISDIR(sb.st_mode)) {
            errno = EISDIR;
            return EVREC_E_IO;
        }
        /* A device or FIFO (/dev/null, a pipe, a serial line): written in place, never replaced. */
        FILE *dev = fopen(path, "wb");
        if (!dev) {
            return EVREC_E_IO;
        }
        evrec_status ds = evrec_save_file_ex(rec, dev, opt, bytes);
        int e = errno;
        if (fclose(dev) != 0 && ds == EVREC_OK) {
            ds = EVREC_E_IO;
            e = errno;
        }
        errno = e;
        return ds;
    }
    /* A symbolic link: the file it names is replaced, not the link. */
    char *real = realpath(path, NULL);
    if (real) {
        path = real;
    }
    char *tmp = temp_name(path);
    if (!tmp) {
        free(real);
        return EVREC_E_NOMEM;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        errno = e;
        return EVREC_E_IO;
    }
    /* mkstemp makes 0600; a saved trace gets the mode fopen() would give a new file. */
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask);
    FILE *f = fdopen(fd, "wb");
    evrec_status st;
    int err = 0;
    uint64_t n = 0;
    if (!f) {
        err = errno;
        close(fd);
        st = EVREC_E_IO;
    } else {
        st = evrec_save_file_ex(rec, f, opt, &n);
        if (st == EVREC_E_IO) {
            err = errno;
        }
        if (st == EVREC_OK && fsync(fileno(f)) != 0) {
            st = EVREC_E_IO;
            err = errno;
        }
        if (fclose(f) != 0 && st == EVREC_OK) {
            st = EVREC_E_IO;
            err = errno;
        }
    }
    if (st == EVREC_OK && rename(tmp, path) != 0) {
        st = EVREC_E_IO;
        err = errno;
    }
    if (st != EVREC_OK) {
        unlink(tmp); /* the only file this call created; `path` is untouched */
    } else if (bytes) {
        *bytes = n;
    }
    free(tmp);
    free(real);
    if (err) {
        errno = err;
    }
    return st;
}

evrec_status evrec_save_path(const evrec_recorder_t *rec, const char *path)
{
    return evrec_save_path_ex(rec, path, NULL, NULL);
}
