/* SPDX-License-Identifier: Apache-2.0 */
/* evrec_save_file() and evrec_save_path(): evrec_save_ex() to a stdio stream, and to a path
 * by the output-path rule of evrec_out_file.h. */
#include <errno.h>
#include <string.h>

#include "evrec_out_file.h"
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

static int out_write(void *ctx, const void *data, size_t len)
{
    return evrec_out_file_write((evrec_out_file_t *)ctx, data, len) != EVREC_OK;
}

evrec_status evrec_save_path_ex(const evrec_recorder_t *rec, const char *path, const evrec_save_options_t *opt,
                                uint64_t *bytes)
{
    if (bytes) {
        *bytes = 0;
    }
    if (!rec || !path || !*path) {
        return EVREC_E_ARG;
    }
    evrec_out_file_t out; /* the output-path rule of evrec_out_file.h */
    evrec_status st = evrec_out_file_open(&out, path, 0);
    if (st != EVREC_OK) {
        errno = out.err;
        return st;
    }
    evrec_sink_t sink = {out_write, &out};
    st = evrec_save_ex(rec, &sink, opt);
    if (st != EVREC_OK) {
        int e = out.err;
        evrec_out_file_abort(&out);
        if (e) {
            errno = e;
        }
        return st;
    }
    uint64_t n = out.bytes;
    st = evrec_out_file_commit(&out);
    if (st != EVREC_OK) {
        errno = out.err;
    } else if (bytes) {
        *bytes = n;
    }
    return st;
}

evrec_status evrec_save_path(const evrec_recorder_t *rec, const char *path)
{
    return evrec_save_path_ex(rec, path, NULL, NULL);
}
