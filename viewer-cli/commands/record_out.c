/* SPDX-License-Identifier: Apache-2.0 */
/* The files of `evrec record` (record_out.h): created with O_EXCL (an existing file is never
 * replaced; a FIFO or a device is written in place), split into a numbered series on request,
 * each split file a whole container (FORMAT.md section 8.3: header, meta-info, records, End, END,
 * the header again with its own counts), the oldest beyond --keep removed when still the file
 * this run made. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "record_out.h"

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

uint64_t record_lost_total(const evrec_srx_stats_t *s, uint64_t *dropped)
{
    uint64_t lost = 0, d = 0;
    for (unsigned k = 0; k < EVREC_SRX_LANES; k++) {
        d += s->lane[k].dropped;
        lost += s->lane[k].lost_transport;
    }
    *dropped = d;
    return lost;
}

static int splitting(const record_out_t *o)
{
    return o->split_size || o->split_time;
}

/* Split file `n` of `path`: "rec.evr" and "rec" both give "rec-0001.evr" (malloc'd). */
static char *split_name(const char *path, unsigned n)
{
    size_t len = strlen(path);
    if (len > 4 && strcmp(path + len - 4, ".evr") == 0) {
        len -= 4;
    }
    char *s = malloc(len + 32);
    if (s) {
        snprintf(s, len + 32, "%.*s-%04u.evr", (int)len, path, n);
    }
    return s;
}

/* 1 when `path` may be written: it does not exist (created later, O_EXCL), or (`in_place`) it is
 * "-", a FIFO or a character device. An existing file (or a link) is never replaced. */
static int path_allowed(const char *path, int in_place)
{
    struct stat st;
    if (in_place && strcmp(path, "-") == 0) {
        return 1;
    }
    if (lstat(path, &st) != 0) {
        return errno == ENOENT ? 1 : (cli_error("%s: %s", path, strerror(errno)), 0);
    }
    if (in_place && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
        return 1;
    }
    cli_error("%s: exists; evrec record writes a new file and never replaces one (choose another name)", path);
    return 0;
}

int record_out_check(record_out_t *o)
{
    if (!splitting(o)) {
        return path_allowed(o->path, 1);
    }
    struct stat st;
    if (strcmp(o->path, "-") == 0 || (stat(o->path, &st) == 0 && !S_ISREG(st.st_mode))) {
        cli_error("%s: --split-size and --split-time write a series of files: -o must name a file", o->path);
        return 0;
    }
    char *first = split_name(o->path, 1);
    int ok = first && path_allowed(first, 0);
    free(first);
    return ok;
}

/* Creates `path` (O_EXCL), or opens a FIFO or device checked by path_allowed() in place. */
static FILE *open_new(const char *path, int in_place)
{
    if (in_place && strcmp(path, "-") == 0) {
        return stdout;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST && in_place) {
        fd = open(path, O_WRONLY | O_CLOEXEC);
        struct stat st;
        if (fd >= 0 && (fstat(fd, &st) != 0 || S_ISREG(st.st_mode))) {
            close(fd); /* it became a regular file meanwhile: not ours */
            errno = EEXIST;
            fd = -1;
        }
    }
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (f) {
        setvbuf(f, NULL, _IOFBF, 1u << 20); /* written out when pushed (every 50 ms), not per 4 KiB */
    } else {
        cli_error("%s: cannot create: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
    }
    return f;
}

/* --keep: removes the oldest files made beyond the count, each only if it is still ours. */
static void keep_last(record_out_t *o)
{
    while (o->keep && o->made_count - o->removed > o->keep) {
        record_made_t *m = &o->made[o->removed++];
        struct stat st;
        if (lstat(m->name, &st) == 0 && st.st_dev == m->dev && st.st_ino == m->ino && unlink(m->name) != 0) {
            cli_error("%s: cannot remove (--keep): %s", m->name, strerror(errno));
        }
    }
}

/* Notes a split file made in this run (its identity, for keep_last()); the list owns `name`. */
static int note_made(record_out_t *o, char *name)
{
    struct stat st;
    record_made_t *m = realloc(o->made, (o->made_count + 1) * sizeof *m);
    if (!m) {
        return 0;
    }
    o->made = m;
    if (fstat(fileno(o->f), &st) != 0) {
        return 0;
    }
    o->made[o->made_count++] = (record_made_t){name, st.st_dev, st.st_ino};
    return 1;
}

/* Opens the next file (the first, or the next of the series) and writes its meta-info. */
static int open_next(record_out_t *o)
{
    int split = splitting(o);
    char *name = split ? split_name(o->path, ++o->number) : NULL;
    if (split && !name) {
        cli_error("out of memory");
        return 0;
    }
    o->f = open_new(split ? name : o->path, !split);
    if (!o->f) {
        free(name);
        return 0;
    }
    if (split && !note_made(o, name)) {
        cli_error("%s: %s", name, strerror(errno));
        free(name);
        return 0;
    }
    o->name = split ? name : (char *)o->path;
    o->opened = mono_s();
    /* the first file: also what was lost before it */
    memset(&o->at_open, 0, sizeof o->at_open);
    if (o->number > 1 && o->rx) {
        o->at_open = *evrec_srx_stats(o->rx);
    }
    if (evrec_sfile_open(&o->w, o->f, o->doc, o->doc_size) != EVREC_OK) {
        cli_error("%s: cannot write: %s", o->name, strerror(errno));
        return 0;
    }
    keep_last(o);
    return 1;
}

/* Ends the file being written: End, END, its header with its own counts. */
static int close_current(record_out_t *o)
{
    int ok = 1;
    if (o->w) {
        off_t at = ftello(o->f);
        o->bytes_closed += at > 0 ? (uint64_t)at : 0;
        o->records_closed += evrec_sfile_records_written(o->w);
        ok = (o->rx ? evrec_sfile_close_part(o->w, o->rx, &o->at_open) : evrec_sfile_close(o->w, 0)) == EVREC_OK;
        o->w = NULL;
    }
    if (o->f && o->f != stdout) {
        ok &= fclose(o->f) == 0;
    } else if (o->f) {
        ok &= fflush(stdout) == 0;
    }
    o->f = NULL;
    if (!ok) {
        cli_error("%s: cannot write: %s", o->name, strerror(errno));
    }
    return ok;
}

int record_out_meta(void *ctx, const uint8_t *doc, size_t size)
{
    record_out_t *o = ctx;
    evrec_status st = evrec_srx_doc_tag(doc, size, o->tags, o->ntags, &o->doc, &o->doc_size);
    if (st != EVREC_OK) {
        cli_error("%s", st == EVREC_E_NO_SPACE ? "--tag: more than 64 attributes with the target's"
                        : st == EVREC_E_NOMEM  ? "out of memory"
                                               : "the meta document is not a valid one");
        o->failed = 1;
        return 1;
    }
    o->failed = !open_next(o);
    return o->failed;
}

/* 1 when the file being written is full (--split-size: these `size` bytes would pass it) or old
 * (--split-time), and has records. */
static int split_due(const record_out_t *o, size_t size)
{
    if (!splitting(o) || evrec_sfile_records_written(o->w) == 0) {
        return 0;
    }
    off_t at = ftello(o->f);
    uint64_t bytes = at > 0 ? (uint64_t)at : 0;
    /* a batch costs its SYNC, SEQ and STREAM chunk headers too (under 128 bytes) */
    uint64_t need = bytes + size + 128u + evrec_sfile_end_size(o->w);
    return (o->split_size && need > o->split_size) ||
           (o->split_time && mono_s() - o->opened >= (double)o->split_time);
}

int record_out_records(void *ctx, unsigned lane, const uint8_t *data, size_t size, uint64_t count,
                       const uint8_t state[36])
{
    record_out_t *o = ctx;
    (void)lane;
    if (split_due(o, size)) {
        char *closed = o->name;
        o->failed = !close_current(o);
        if (!o->failed && o->closed) {
            o->closed(o->closed_ctx, closed);
        }
        o->failed = o->failed || !open_next(o);
    }
    if (!o->failed && evrec_sfile_records(o->w, data, size, count, state) != EVREC_OK) {
        cli_error("%s: cannot write: %s", o->name, strerror(errno));
        o->failed = 1;
    }
    return o->failed;
}

int record_out_flush(record_out_t *o)
{
    if (o->w && evrec_sfile_flush(o->w) != EVREC_OK) {
        cli_error("%s: cannot write: %s", o->name, strerror(errno));
        o->failed = 1;
    }
    return !o->failed;
}

uint64_t record_out_bytes(const record_out_t *o)
{
    off_t at = o->f && o->f != stdout ? ftello(o->f) : 0;
    return o->bytes_closed + (at > 0 ? (uint64_t)at : 0);
}

uint64_t record_out_count(const record_out_t *o)
{
    return o->records_closed + (o->w ? evrec_sfile_records_written(o->w) : 0);
}

int record_out_close(record_out_t *o)
{
    int ok = o->f ? close_current(o) : 1;
    for (size_t i = 0; i < o->made_count; i++) {
        free(o->made[i].name);
    }
    free(o->made);
    free(o->doc);
    o->made = NULL;
    o->doc = NULL;
    return ok && !o->failed;
}
