/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec index`: copy an intact container chunk by chunk (format/FORMAT.md section 2), note its
 * SYNC chunks (section 2.2) in a seek index table, leave older INDEX chunks out and write the new
 * one where section 2.5 puts it: right before the copies (the TAIL chunk says where they start),
 * or before the END chunk in a file without a TAIL chunk. Atomic: a temporary file beside the
 * original, fsync, rename. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "index_write.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "cli.h"
#include "evrec/evrec_container.h"
#include "evrec/evrec_index.h"

/* Entries of the table `evrec index` keeps (32 bytes each). */
#define INDEX_ENTRIES 4096u

typedef struct walk {
    const char *path; /* as given: for messages */
    char *target;     /* the file itself (symbolic links resolved): rewritten in place */
    FILE *in, *out;
    uint64_t size;             /* of the input */
    uint64_t insert_at;        /* input offset the new INDEX chunk goes before */
    uint64_t old_off, old_end; /* the old INDEX chunk at the index's place (old_end 0: none) */
    uint64_t out_off;          /* bytes written */
    uint8_t *buf;              /* one chunk */
    evrec_index_t idx;
    index_result_t *res;
    int werr; /* errno of the first failed write of the temporary file, 0: none */
} walk_t;

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
    return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static int read_at(walk_t *w, uint64_t off, void *dst, size_t n)
{
    return fseeko(w->in, (off_t)off, SEEK_SET) == 0 && fread(dst, 1, n, w->in) == n;
}

static int out_write(void *ctx, const void *data, size_t len)
{
    walk_t *w = (walk_t *)ctx;
    w->out_off += len;
    if (w->werr == 0 && fwrite(data, 1, len, w->out) != len) {
        w->werr = errno ? errno : EIO;
    }
    return w->werr != 0;
}

/* Where the new INDEX chunk goes (FORMAT.md section 2.5); 0 with the reason reported. */
static int find_place(walk_t *w)
{
    enum { N = 2 * EVREC_CHUNK_HEADER_SIZE + EVREC_TAIL_SIZE };
    static const uint8_t end[8] = {0, 0, 0, 0, 0x48, 0x67, 0x4B, 0xC7};
    uint8_t b[N], m[8];
    if (w->size < EVREC_HEADER_SIZE + 8u || !read_at(w, 0, m, 8) || memcmp(m, EVREC_MAGIC, 8) != 0) {
        cli_error("%s: not an evrec container (no magic at offset 0): only a container holds an index", w->path);
        return 0;
    }
    if (!read_at(w, w->size - 8u, m, 8) || memcmp(m, end, 8) != 0) {
        cli_error("%s: does not end with an END chunk at offset %llu (cut short?): records could be lost", w->path,
                  (unsigned long long)(w->size - 8u));
        return 0;
    }
    w->insert_at = w->size - 8u;
    const uint8_t *t = b + EVREC_CHUNK_HEADER_SIZE;
    if (w->size >= EVREC_HEADER_SIZE + N && read_at(w, w->size - N, b, N) &&
        be32(b) == ((uint32_t)EVREC_CHUNK_TAIL << 24 | EVREC_TAIL_SIZE) &&
        evrec_crc32c(evrec_crc32c(0, b, 4), t, EVREC_TAIL_SIZE) == be32(b + 4) &&
        be64(t) <= w->size - N - EVREC_HEADER_SIZE) {
        w->insert_at = w->size - N - be64(t); /* the first COPY chunk */
    }
    return 1;
}

/* Writes the new INDEX chunk. */
static int put_index(walk_t *w)
{
    evrec_sink_t sink = {out_write, w};
    w->res->entries = w->idx.count;
    w->res->stride = w->idx.stride;
    return evrec_index_write(&w->idx, &sink) == EVREC_OK;
}

/* One chunk at `off` (its header h): checked, noted, copied or left out; 0 with the reason. */
static int one_chunk(walk_t *w, uint64_t off, const uint8_t *h, uint32_t len)
{
    if (!read_at(w, off + EVREC_CHUNK_HEADER_SIZE, w->buf, len)) {
        cli_error("%s: offset %llu: cannot read the %u payload bytes of the chunk there", w->path,
                  (unsigned long long)off, (unsigned)len);
        return 0;
    }
    int good = evrec_crc32c(evrec_crc32c(0, h, 4), w->buf, len) == be32(h + 4);
    if (h[0] == EVREC_CHUNK_INDEX && off + EVREC_CHUNK_HEADER_SIZE + len == w->insert_at) {
        w->old_off = off; /* the old index, damaged or not: replaced */
        w->old_end = w->insert_at;
        w->res->old_index++;
        return 1;
    }
    if (!good) {
        cli_error("%s: offset %llu: chunk of type %u fails its CRC-32C: the file is damaged, records could be "
                  "lost; not rewritten",
                  w->path, (unsigned long long)off, (unsigned)h[0]);
        return 0;
    }
    if (h[0] == EVREC_CHUNK_INDEX) {
        w->res->old_index++; /* an index out of its place: left out */
        return 1;
    }
    if (h[0] == EVREC_CHUNK_SYNC && len >= EVREC_SYNC_SIZE) {
        evrec_index_entry_t e = {w->out_off, be64(w->buf), be64(w->buf + 8), be64(w->buf + 16)};
        evrec_index_add(&w->idx, &e);
        w->res->sync_chunks++;
    }
    return out_write(w, h, EVREC_CHUNK_HEADER_SIZE) == 0 && out_write(w, w->buf, len) == 0;
}

/* The header, then every chunk up to END, the new index at its place. */
static int copy_chunks(walk_t *w)
{
    uint8_t h[EVREC_HEADER_SIZE];
    if (!read_at(w, 0, h, sizeof h) || out_write(w, h, sizeof h) != 0) {
        return 0;
    }
    uint64_t off = EVREC_HEADER_SIZE;
    while (off < w->size) {
        if (off == w->insert_at && !put_index(w)) {
            return 0;
        }
        if (!read_at(w, off, h, EVREC_CHUNK_HEADER_SIZE)) {
            cli_error("%s: offset %llu: cannot read a chunk header", w->path, (unsigned long long)off);
            return 0;
        }
        uint32_t len = be32(h) & 0xFFFFFFu;
        if (off + EVREC_CHUNK_HEADER_SIZE + len > w->size ||
            (off < w->insert_at && off + 8u + len > w->insert_at)) {
            cli_error("%s: offset %llu: a chunk of %u payload bytes runs past %s: the file is damaged; not "
                      "rewritten",
                      w->path, (unsigned long long)off, (unsigned)len,
                      off < w->insert_at ? "the copies' start that the TAIL chunk gives" : "the end of the file");
            return 0;
        }
        if (!one_chunk(w, off, h, len)) {
            return 0;
        }
        off += EVREC_CHUNK_HEADER_SIZE + (uint64_t)len;
    }
    return ferror(w->out) == 0;
}

/* Damage the reader found anywhere but in the old INDEX chunk refuses the file. */
static int reader_clean(const walk_t *w, const evrec_reader_t *r)
{
    for (uint64_t i = 0; i < evrec_reader_damage_count(r); i++) {
        const evrec_damage_t *d = evrec_reader_damage(r, i);
        if (!d || d->offset < w->old_off || d->offset >= w->old_end) {
            cli_error("%s: offset %llu: %s: the file is damaged and a copy would lose what the reader skipped; "
                      "not rewritten",
                      w->path, (unsigned long long)(d ? d->offset : 0), d ? d->message : "damage");
            return 0;
        }
    }
    return 1;
}

/* Makes the file durable and puts it in place of `path` (then the folder's entry). */
static int commit(walk_t *w, const char *tmp)
{
    if (fflush(w->out) != 0 || fsync(fileno(w->out)) != 0) {
        cli_error("%s: %s", tmp, strerror(errno));
        return 0;
    }
    if (rename(tmp, w->target) != 0) {
        cli_error("%s: cannot rename over it: %s", w->path, strerror(errno));
        return 0;
    }
    char dir[4096];
    const char *slash = strrchr(w->target, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - w->target) + 1 : 1, slash ? w->target : ".");
    int fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    return 1;
}

static int rewrite(walk_t *w, const evrec_reader_t *r, const struct stat *st)
{
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.index-XXXXXX", w->target) >= sizeof tmp) {
        cli_error("%s: path too long", w->path);
        return 0;
    }
    int fd = mkstemp(tmp); /* O_CREAT | O_EXCL */
    if (fd < 0 || fchmod(fd, st->st_mode & 07777) != 0 || !(w->out = fdopen(fd, "wb"))) {
        cli_error("%s: cannot create a temporary file beside it: %s", w->path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return 0;
    }
    int ok = copy_chunks(w) && reader_clean(w, r) && commit(w, tmp);
    w->res->size = w->out_off;
    if (fclose(w->out) != 0 && ok) {
        cli_error("%s: %s", tmp, strerror(errno));
        ok = 0;
    }
    if (w->werr != 0) {
        cli_error("%s: cannot write the temporary file %s: %s; not rewritten", w->path, tmp, strerror(w->werr));
    }
    if (!ok) {
        unlink(tmp);
    }
    return ok;
}

/* Opens the file `w->path` names (a symbolic link followed: the file it names is rewritten, the
 * link stays) and refuses what must not be rewritten: not a regular file, or read-only (no write
 * permission for the caller, or none for anyone: root may write any file, but a file made
 * read-only is not one to replace). 1 with w->in, w->target (malloc'd) and *st, else 0 reported. */
static int open_input(walk_t *w, struct stat *st)
{
    char *real = realpath(w->path, NULL);
    if (!real) {
        cli_error("%s: %s", w->path, strerror(errno));
        return 0;
    }
    w->target = real;
    w->in = fopen(real, "rb");
    if (!w->in || fstat(fileno(w->in), st) != 0) {
        cli_error("%s: %s", w->path, strerror(errno));
        return 0;
    }
    if (!S_ISREG(st->st_mode)) {
        cli_error("%s: not a regular file", w->path);
        return 0;
    }
    if (access(real, W_OK) != 0 || (st->st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0) {
        cli_error("%s: read-only (mode %04o): not rewritten; make it writable to add an index", w->path,
                  (unsigned)(st->st_mode & 07777));
        return 0;
    }
    w->size = (uint64_t)st->st_size;
    return 1;
}

int index_rewrite(const char *path, const evrec_reader_t *r, index_result_t *res)
{
    walk_t w;
    memset(&w, 0, sizeof w);
    memset(res, 0, sizeof *res);
    w.path = path;
    w.res = res;
    struct stat st;
    evrec_index_entry_t *e = NULL;
    int ok = 0;
    /* A write past the file-size limit (ulimit -f) fails with EFBIG instead of killing the
     * process with the temporary file left behind. */
    void (*xfsz)(int) = signal(SIGXFSZ, SIG_IGN);
    if (open_input(&w, &st)) {
        e = malloc(INDEX_ENTRIES * sizeof *e);
        w.buf = malloc(EVREC_CHUNK_HEADER_SIZE + 0xFFFFFFu);
        if (!e || !w.buf) {
            cli_error("%s: out of memory", path);
        } else if (find_place(&w)) {
            evrec_index_init(&w.idx, e, INDEX_ENTRIES);
            ok = rewrite(&w, r, &st);
        }
    }
    if (xfsz != SIG_ERR) {
        signal(SIGXFSZ, xfsz);
    }
    free(e);
    free(w.buf);
    free(w.target);
    if (w.in) {
        fclose(w.in);
    }
    return ok;
}
