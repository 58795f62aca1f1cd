/* SPDX-License-Identifier: Apache-2.0 */
/* Byte sources of the reader: a FILE* (opened from a path or given) or a memory buffer, with
 * 64-bit offsets and a small look-ahead for the header probe. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "evrec/evrec_stream_rx.h"
#include "reader_internal.h"

/* Size and seekability of a FILE*, from its current position. */
static void probe_file(rd_source_t *s)
{
    struct stat st;
    s->file_start = ftello(s->f);
    if (s->file_start >= 0 && fstat(fileno(s->f), &st) == 0 && S_ISREG(st.st_mode)) {
        s->seekable = 1;
        s->size_known = 1;
        s->size = (uint64_t)st.st_size > (uint64_t)s->file_start ? (uint64_t)st.st_size - (uint64_t)s->file_start
                                                                 : 0;
    }
}

/* A regular file that is a captured stream (FORMAT.md section 8.3) is read as the container it
 * converts to, in a temporary file (offsets are then that file's); anything else is read as is. */
static void capture_to_file(rd_source_t *s)
{
    struct stat st;
    uint8_t head[4];
    if (fstat(fileno(s->f), &st) != 0 || !S_ISREG(st.st_mode)) {
        return;
    }
    size_t n = fread(head, 1, sizeof head, s->f);
    rewind(s->f);
    FILE *tmp = evrec_srx_is_capture(head, n) ? tmpfile() : NULL;
    if (!tmp) {
        return;
    }
    if (evrec_srx_convert(s->f, tmp) != EVREC_OK) {
        fclose(tmp); /* read as it is: the reader says why it is not a recording */
        rewind(s->f);
        return;
    }
    fclose(s->f);
    rewind(tmp);
    s->f = tmp;
}

int src_open_path(rd_source_t *s, const char *path)
{
    s->kind = SRC_FILE;
    s->path = malloc(strlen(path) + 1);
    if (!s->path) {
        return 1;
    }
    strcpy(s->path, path);
    s->f = fopen(path, "rb");
    if (!s->f) {
        return 2;
    }
    s->own_file = 1;
    capture_to_file(s);
    probe_file(s);
    return 0;
}

void src_open_file(rd_source_t *s, FILE *f)
{
    s->kind = SRC_FILE;
    s->f = f;
    probe_file(s);
}

void src_open_memory(rd_source_t *s, const void *data, size_t size)
{
    static const uint8_t empty[1] = {0};
    s->kind = SRC_MEMORY;
    s->mem = data ? (const uint8_t *)data : empty;
    s->mem_size = size;
    s->size = size;
    s->size_known = 1;
}

void src_close(rd_source_t *s)
{
    if (s->own_file && s->f) {
        fclose(s->f);
    }
    free(s->path);
}

uint64_t src_remaining(const rd_source_t *s)
{
    if (!s->size_known) {
        return UINT64_MAX;
    }
    return s->pos < s->size ? s->size - s->pos : 0;
}

/* Raw read below the look-ahead. */
static size_t raw_read(rd_source_t *s, void *dst, size_t n)
{
    if (n == 0) {
        return 0;
    }
    if (s->kind == SRC_MEMORY) {
        size_t left = s->raw_pos < s->mem_size ? s->mem_size - (size_t)s->raw_pos : 0;
        size_t k = n < left ? n : left;
        memcpy(dst, s->mem + s->raw_pos, k);
        s->raw_pos += k;
        return k;
    }
    size_t got = 0;
    while (got < n) {
        size_t k = fread((uint8_t *)dst + got, 1, n - got, s->f);
        got += k;
        if (k == 0) {
            if (ferror(s->f)) {
                s->io_errno = errno ? errno : EIO;
            }
            break;
        }
    }
    return got;
}

size_t src_peek(rd_source_t *s, size_t n, const uint8_t **p)
{
    if (n > sizeof s->peek) {
        n = sizeof s->peek;
    }
    /* Only used at the very start: the look-ahead is then empty or already holds the bytes. */
    if (s->peek_pos == 0 && s->peek_len < n) {
        s->peek_len += raw_read(s, s->peek + s->peek_len, n - s->peek_len);
    }
    *p = s->peek + s->peek_pos;
    size_t have = s->peek_len - s->peek_pos;
    return have < n ? have : n;
}

size_t src_read(rd_source_t *s, void *dst, size_t n)
{
    size_t got = 0;
    if (s->peek_pos < s->peek_len) {
        size_t k = s->peek_len - s->peek_pos;
        if (k > n) {
            k = n;
        }
        memcpy(dst, s->peek + s->peek_pos, k);
        s->peek_pos += k;
        got = k;
    }
    got += raw_read(s, (uint8_t *)dst + got, n - got);
    s->pos += got;
    return got;
}

const uint8_t *src_view(rd_source_t *s, size_t n, size_t *got, uint8_t **buf, size_t *cap)
{
    if (s->kind == SRC_MEMORY && s->peek_pos == s->peek_len) {
        size_t left = s->raw_pos < s->mem_size ? s->mem_size - (size_t)s->raw_pos : 0;
        *got = n < left ? n : left;
        const uint8_t *p = s->mem + s->raw_pos;
        s->raw_pos += *got;
        s->pos += *got;
        return p;
    }
    /* Read in steps, never asking for more than the file still has and, when the size cannot be
     * learnt (a pipe), at most 1 MiB at a time: a bogus length then costs memory only as far as
     * bytes actually arrive. */
    size_t total = 0;
    while (total < n) {
        size_t step = n - total;
        uint64_t rem = src_remaining(s);
        if (rem == 0) {
            break;
        }
        if ((uint64_t)step > rem) {
            step = (size_t)rem;
        }
        if (!s->size_known && step > (1u << 20)) {
            step = 1u << 20;
        }
        if (total + step > *cap) {
            size_t c = *cap * 2 > total + step ? *cap * 2 : total + step;
            uint8_t *b = realloc(*buf, c);
            if (!b) {
                *got = total;
                return NULL;
            }
            *buf = b;
            *cap = c;
        }
        size_t k = src_read(s, *buf + total, step);
        total += k;
        if (k < step) {
            break;
        }
    }
    *got = total;
    return *buf ? *buf : (const uint8_t *)"";
}

int src_random_access(const rd_source_t *s)
{
    return s->kind == SRC_MEMORY || (s->seekable && s->size_known);
}

size_t src_pread(rd_source_t *s, uint64_t off, void *dst, size_t n)
{
    if (!src_random_access(s) || off >= s->size) {
        return 0;
    }
    if ((uint64_t)n > s->size - off) {
        n = (size_t)(s->size - off);
    }
    if (s->kind == SRC_MEMORY) {
        memcpy(dst, s->mem + off, n);
        return n;
    }
    size_t got = 0;
    while (got < n) {
        ssize_t k = pread(fileno(s->f), (uint8_t *)dst + got, n - got,
                          (off_t)((uint64_t)s->file_start + off + got));
        if (k < 0 && errno == EINTR) {
            continue;
        }
        if (k <= 0) {
            if (k < 0) {
                s->io_errno = errno;
            }
            break;
        }
        got += (size_t)k;
    }
    return got;
}

int src_seek(rd_source_t *s, uint64_t off)
{
    if (!src_random_access(s) || off > s->size) {
        return -1;
    }
    if (s->kind == SRC_FILE) {
        clearerr(s->f);
        if (fseeko(s->f, (off_t)((uint64_t)s->file_start + off), SEEK_SET) != 0) {
            s->io_errno = errno ? errno : EIO;
            return -1;
        }
    }
    s->peek_pos = s->peek_len = 0; /* the look-ahead is only used for the header probe */
    s->raw_pos = off;
    s->pos = off;
    return 0;
}
