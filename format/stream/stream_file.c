/* SPDX-License-Identifier: Apache-2.0 */
/* A container written as a stream is received (FORMAT.md section 8.3): the header with counts
 * unknown, the meta document's chunks, the MetaInfo as STREAM chunk 0, then per batch of records
 * SYNC, SEQ and STREAM chunks (sections 2.2, 2.4); at the end the End record, the INDEX chunk of
 * the SYNC chunks (section 2.5), the COPY chunks and the TAIL chunk (section 2.4: a reader takes
 * the meta-info from them when STREAM chunk 0 is damaged), END, and the header again with the
 * final counts. Every chunk is whole when written, so a file cut short between two is a truncated
 * file a reader reads to its last chunk. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_index.h"
#include "evrec/evrec_meta.h"
#include "stream_internal.h"

/* Entries of the seek index a recording keeps (32 bytes each). */
#define SFILE_INDEX_ENTRIES 4096u

struct evrec_sfile {
    FILE *f;
    uint64_t records;
    uint32_t file_id, seq;
    int first_is_start; /* the first record in the file is EventControl Start (index 0) */
    int any;
    int seekable;        /* a regular file: the header and the LOSSES chunk are written again at the end */
    uint64_t losses_off; /* where the LOSSES chunk is */
    uint64_t written;    /* bytes written: the next chunk's offset */
    evrec_index_t idx;   /* the SYNC chunks (FORMAT.md section 2.5) */
    evrec_index_entry_t entries[SFILE_INDEX_ENTRIES];
    uint8_t *doc;                        /* the meta document (malloc'd), copied at the end */
    size_t meta_off, meta_len, doc_size; /* the MetaInfo in it; the chunks follow it */
    uint64_t copies_bytes;               /* what copies() writes before TAIL: set when doc is */
    evrec_status err;
};

static void put(evrec_sfile_t *w, const void *p, size_t n)
{
    if (w->err == EVREC_OK && n && fwrite(p, 1, n, w->f) != n) {
        w->err = EVREC_E_IO;
    }
    w->written += n;
}

static int index_sink(void *ctx, const void *data, size_t len)
{
    evrec_sfile_t *w = (evrec_sfile_t *)ctx;
    put(w, data, len);
    return w->err != EVREC_OK;
}

/* Writes a chunk; returns its CRC. */
static uint32_t chunk(evrec_sfile_t *w, unsigned type, const uint8_t *payload, size_t len)
{
    uint8_t h[EVREC_CHUNK_HEADER_SIZE];
    srx_put32(h, (uint32_t)type << 24 | (uint32_t)len);
    uint32_t crc = evrec_crc32c(evrec_crc32c(0, h, 4), payload, len);
    srx_put32(h + 4, crc);
    put(w, h, sizeof h);
    put(w, payload, len);
    return crc;
}

/* One COPY chunk (section 2.4): `type`, then `payload`; returns its bytes. */
static uint64_t copy_chunk(evrec_sfile_t *w, uint8_t type, const uint8_t *payload, size_t len)
{
    uint8_t h[EVREC_CHUNK_HEADER_SIZE];
    srx_put32(h, (uint32_t)EVREC_CHUNK_COPY << 24 | (uint32_t)(len + 1u));
    srx_put32(h + 4, evrec_crc32c(evrec_crc32c(evrec_crc32c(0, h, 4), &type, 1), payload, len));
    put(w, h, sizeof h);
    put(w, &type, 1);
    put(w, payload, len);
    return EVREC_CHUNK_HEADER_SIZE + 1u + len;
}

static int pre_stream_type(uint8_t t)
{
    return t == EVREC_CHUNK_RUNTIME_ENUMS || t == EVREC_CHUNK_FIELD_INFO || t == EVREC_CHUNK_TRACKS ||
           t == EVREC_CHUNK_COUNTER_SERIES || t == EVREC_CHUNK_LANES;
}

/* The copies at the end (section 2.4): each chunk of the meta document, the MetaInfo, then TAIL
 * with the header `h` that the file keeps at offset 0. */
static void copies(evrec_sfile_t *w, const uint8_t h[EVREC_HEADER_SIZE])
{
    uint64_t bytes = 0;
    const uint8_t *c = w->doc + w->meta_off + w->meta_len;
    size_t left = w->doc_size - w->meta_off - w->meta_len;
    while (left >= EVREC_CHUNK_HEADER_SIZE) {
        size_t n = srx_be32(c) & 0xFFFFFFu;
        if (n > left - EVREC_CHUNK_HEADER_SIZE || n >= 0xFFFFFFu) {
            break; /* the document's chunks were checked when it was taken: not reached */
        }
        if (pre_stream_type(c[0])) {
            bytes += copy_chunk(w, c[0], c + EVREC_CHUNK_HEADER_SIZE, n);
        }
        c += EVREC_CHUNK_HEADER_SIZE + n;
        left -= EVREC_CHUNK_HEADER_SIZE + n;
    }
    bytes += copy_chunk(w, EVREC_CHUNK_STREAM, w->doc + w->meta_off, w->meta_len);
    uint8_t t[EVREC_TAIL_SIZE];
    srx_put64(t, bytes);
    srx_put32(t + 8, w->file_id);
    srx_put32(t + 12, w->seq);
    memcpy(t + 16, h, EVREC_HEADER_SIZE);
    (void)chunk(w, EVREC_CHUNK_TAIL, t, sizeof t);
}

/* SEQ then STREAM (section 2.4). */
static void stream_chunk(evrec_sfile_t *w, const uint8_t *data, size_t len, uint32_t sync_crc)
{
    uint8_t h[4];
    srx_put32(h, (uint32_t)EVREC_CHUNK_STREAM << 24 | (uint32_t)len);
    uint8_t seq[EVREC_SEQ_SIZE];
    srx_put32(seq, w->file_id);
    srx_put32(seq + 4, w->seq++);
    srx_put32(seq + 8, evrec_crc32c(evrec_crc32c(0, h, 4), data, len));
    srx_put32(seq + 12, sync_crc);
    (void)chunk(w, EVREC_CHUNK_SEQ, seq, sizeof seq);
    (void)chunk(w, EVREC_CHUNK_STREAM, data, len);
}

/* The copies' bytes (as copies() writes them), from the meta document: walked once, at open. */
static uint64_t copies_size(const evrec_sfile_t *w)
{
    uint64_t bytes = EVREC_CHUNK_HEADER_SIZE + 1u + (uint64_t)w->meta_len;
    const uint8_t *c = w->doc + w->meta_off + w->meta_len;
    size_t left = w->doc_size - w->meta_off - w->meta_len;
    while (left >= EVREC_CHUNK_HEADER_SIZE) {
        size_t n = srx_be32(c) & 0xFFFFFFu;
        if (n > left - EVREC_CHUNK_HEADER_SIZE || n >= 0xFFFFFFu) {
            break;
        }
        bytes += pre_stream_type(c[0]) ? EVREC_CHUNK_HEADER_SIZE + 1u + n : 0u;
        c += EVREC_CHUNK_HEADER_SIZE + n;
        left -= EVREC_CHUNK_HEADER_SIZE + n;
    }
    return bytes;
}

static void header(uint8_t h[EVREC_HEADER_SIZE], uint32_t flags, uint64_t recorded, uint64_t dropped)
{
    memset(h, 0, EVREC_HEADER_SIZE);
    memcpy(h, EVREC_MAGIC, 8);
    h[9] = (uint8_t)EVREC_FORMAT_MAJOR;
    h[11] = (uint8_t)EVREC_FORMAT_MINOR;
    srx_put32(h + 12, flags);
    srx_put64(h + 24, recorded);
    srx_put64(h + 32, dropped);
    srx_put32(h + 44, evrec_crc32c(0, h, 44));
}

evrec_status evrec_sfile_open(evrec_sfile_t **out, FILE *f, const uint8_t *doc, size_t size)
{
    uint32_t *sl = malloc(65536u * sizeof *sl);
    evrec_sfile_t *w = calloc(1, sizeof *w);
    uint8_t *copy = malloc(size ? size : 1u);
    size_t off = 0, len = 0;
    evrec_status st = !sl || !w || !copy ? EVREC_E_NOMEM : evrec_srx_doc_events(doc, size, sl, &off, &len);
    free(sl);
    if (st != EVREC_OK) {
        free(copy);
        free(w);
        return st;
    }
    memcpy(copy, doc, size);
    w->doc = copy;
    w->doc_size = size;
    w->meta_off = off;
    w->meta_len = len;
    w->copies_bytes = copies_size(w);
    struct stat fs;
    w->f = f;
    w->seekable = fstat(fileno(f), &fs) == 0 && S_ISREG(fs.st_mode);
    w->file_id = evrec_crc32c(0, doc, size) | 1u;
    evrec_index_init(&w->idx, w->entries, SFILE_INDEX_ENTRIES);
    uint8_t h[EVREC_HEADER_SIZE];
    header(h, 0, UINT64_MAX, 0);
    put(w, h, sizeof h);
    put(w, doc + off + len, size - off - len); /* the chunks before the stream, whole */
    uint8_t losses[SRX_LOSSES_SIZE];
    evrec_srx_losses(NULL, NULL, 0, losses); /* not final: what a pipe or a killed recorder leaves */
    w->losses_off = EVREC_HEADER_SIZE + (size - off - len);
    (void)chunk(w, EVREC_CHUNK_LOSSES, losses, sizeof losses);
    stream_chunk(w, doc + off, len, 0);
    *out = w;
    return w->err;
}

evrec_status evrec_sfile_records(evrec_sfile_t *w, const uint8_t *data, size_t size, uint64_t count,
                                 const uint8_t state[36])
{
    if (!w->any) {
        w->any = 1;
        w->first_is_start = srx_be64(state) == 0;
    }
    uint8_t sync[EVREC_SYNC_SIZE];
    memcpy(sync, state, sizeof sync);
    srx_put64(sync, w->records);
    evrec_index_entry_t e = {w->written, w->records, srx_be64(sync + 8), srx_be64(sync + 16)};
    evrec_index_add(&w->idx, &e);
    uint32_t sync_crc = chunk(w, EVREC_CHUNK_SYNC, sync, sizeof sync);
    stream_chunk(w, data, size, sync_crc);
    w->records += count;
    return w->err;
}

evrec_status evrec_sfile_flush(evrec_sfile_t *w)
{
    if (w->err == EVREC_OK && fflush(w->f) != 0) {
        w->err = EVREC_E_IO;
    }
    return w->err;
}

/* Writes `len` bytes at file offset `at`, then goes back to the end. */
static void put_at(evrec_sfile_t *w, uint64_t at, const uint8_t *p, size_t len)
{
    if (w->err == EVREC_OK && (fflush(w->f) != 0 || fseeko(w->f, (off_t)at, SEEK_SET) != 0)) {
        w->err = EVREC_E_IO;
    }
    put(w, p, len);
    if (w->err == EVREC_OK && (fflush(w->f) != 0 || fseeko(w->f, 0, SEEK_END) != 0)) {
        w->err = EVREC_E_IO;
    }
}

/* The End record, the copies and TAIL, END, and (a regular file) the header with the final
 * counts and the LOSSES chunk `losses` (NULL: left as written first); frees w. */
static evrec_status finish(evrec_sfile_t *w, uint64_t dropped, const uint8_t *losses)
{
    static const uint8_t end_record[7] = {0, 0, 0, 0, 0, EVREC_CONTROL_EVENT_ID, EVREC_CONTROL_END};
    stream_chunk(w, end_record, sizeof end_record, 0);
    evrec_sink_t sink = {index_sink, w};
    (void)evrec_index_write(&w->idx, &sink); /* an error is in w->err */
    uint8_t h[EVREC_HEADER_SIZE];
    if (w->seekable) {
        /* a capture that did not start at the recording's Start says so as a cyclic one does */
        header(h, w->any && !w->first_is_start ? 1u : 0u, w->records, dropped);
    } else {
        header(h, 0, UINT64_MAX, 0); /* a pipe or a device keeps the header written first */
    }
    copies(w, h);
    (void)chunk(w, EVREC_CHUNK_END, NULL, 0);
    free(w->doc);
    if (!w->seekable) {
        evrec_status st = evrec_sfile_flush(w);
        free(w);
        return st; /* a pipe or a device: the header stays as written first (counts unknown) */
    }
    if (losses) {
        uint8_t c[EVREC_CHUNK_HEADER_SIZE + SRX_LOSSES_SIZE];
        srx_put32(c, (uint32_t)EVREC_CHUNK_LOSSES << 24 | SRX_LOSSES_SIZE);
        srx_put32(c + 4, evrec_crc32c(evrec_crc32c(0, c, 4), losses, SRX_LOSSES_SIZE));
        memcpy(c + EVREC_CHUNK_HEADER_SIZE, losses, SRX_LOSSES_SIZE);
        put_at(w, w->losses_off, c, sizeof c);
    }
    put_at(w, 0, h, sizeof h);
    evrec_status st = w->err;
    free(w);
    return st;
}

evrec_status evrec_sfile_close(evrec_sfile_t *w, uint64_t dropped)
{
    return w ? finish(w, dropped, NULL) : EVREC_OK;
}

evrec_status evrec_sfile_close_part(evrec_sfile_t *w, const evrec_srx_t *rx, const evrec_srx_stats_t *base)
{
    if (!w) {
        return EVREC_OK;
    }
    static const evrec_srx_stats_t zero;
    const evrec_srx_stats_t *b = base ? base : &zero;
    uint8_t losses[SRX_LOSSES_SIZE];
    evrec_srx_losses(rx, base, EVREC_LOSSES_FINAL, losses);
    uint64_t dropped = 0;
    for (unsigned k = 0; k < EVREC_SRX_LANES; k++) {
        /* the target's drops only (FORMAT.md section 1) */
        dropped += evrec_srx_stats(rx)->lane[k].dropped - b->lane[k].dropped;
    }
    return finish(w, dropped, losses);
}

evrec_status evrec_sfile_close_rx(evrec_sfile_t *w, const evrec_srx_t *rx)
{
    return evrec_sfile_close_part(w, rx, NULL);
}

uint64_t evrec_sfile_records_written(const evrec_sfile_t *w)
{
    return w->records;
}

uint64_t evrec_sfile_end_size(const evrec_sfile_t *w)
{
    const uint64_t end_record = 2u * EVREC_CHUNK_HEADER_SIZE + EVREC_SEQ_SIZE + 7u; /* SEQ + STREAM */
    /* the INDEX chunk with one more entry (the next SYNC chunk) */
    uint64_t index = EVREC_CHUNK_HEADER_SIZE + EVREC_INDEX_HEAD +
                     ((uint64_t)w->idx.count + 1u) * EVREC_INDEX_ENTRY + EVREC_INDEX_TRAILER;
    return end_record + index + w->copies_bytes + EVREC_CHUNK_HEADER_SIZE + EVREC_TAIL_SIZE +
           EVREC_CHUNK_HEADER_SIZE; /* TAIL, END */
}
