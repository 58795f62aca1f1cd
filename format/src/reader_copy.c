/* SPDX-License-Identifier: Apache-2.0 */
/* The copies at the end of a version 1.3 file (FORMAT.md section 2.4): when the start of the
 * file is damaged (the header, the first STREAM chunk that holds the meta-info, or its SEQ chunk),
 * the meta-info and the chunks before the stream are read from the COPY chunks that the TAIL
 * chunk points to, and the records resume at the first SYNC point after the damage. */
#include <stdlib.h>

#include "evrec/evrec_container.h"
#include "reader_internal.h"

static int pre_stream_type(uint8_t t)
{
    return t == EVREC_CHUNK_RUNTIME_ENUMS || t == EVREC_CHUNK_FIELD_INFO || t == EVREC_CHUNK_TRACKS ||
           t == EVREC_CHUNK_COUNTER_SERIES || t == EVREC_CHUNK_LANES;
}

/* Reads the chunk at `off` whole: 1 when its CRC checks (*p malloc'd: the payload). */
static int read_chunk(evrec_reader_t *r, uint64_t off, uint8_t *type, uint32_t *len, uint8_t **p)
{
    uint8_t h[EVREC_CHUNK_HEADER_SIZE];
    *p = NULL;
    if (src_pread(&r->src, off, h, sizeof h) != sizeof h) {
        return 0;
    }
    *type = h[0];
    *len = rd_be32(h) & 0xFFFFFFu;
    if (off + EVREC_CHUNK_HEADER_SIZE + *len > r->src.size) {
        return 0;
    }
    *p = malloc(*len ? *len : 1u);
    if (!*p || src_pread(&r->src, off + EVREC_CHUNK_HEADER_SIZE, *p, *len) != *len ||
        evrec_crc32c(evrec_crc32c(0, h, 4), *p, *len) != rd_be32(h + 4)) {
        free(*p);
        *p = NULL;
        return 0;
    }
    return 1;
}

/* A damaged chunk at `off` whose length leads nowhere: 1 when only its header word was hit (the
 * CRC checks with a known type and the length that ends it where the next intact chunk starts:
 * the reader repairs it, FORMAT.md section 2). */
static int header_word_only(evrec_reader_t *r, uint64_t off)
{
    uint64_t q = rd_scan_chunk(r, off + 1u);
    uint8_t h[EVREC_CHUNK_HEADER_SIZE];
    if (q == UINT64_MAX || q - off - EVREC_CHUNK_HEADER_SIZE > 0xFFFFFFu ||
        src_pread(&r->src, off, h, sizeof h) != sizeof h) {
        return 0;
    }
    uint32_t len = (uint32_t)(q - off - EVREC_CHUNK_HEADER_SIZE);
    uint8_t *p = malloc(len ? len : 1u);
    int ok = 0;
    if (p && src_pread(&r->src, off + EVREC_CHUNK_HEADER_SIZE, p, len) == len) {
        for (uint32_t t = 0; t <= EVREC_CHUNK_LAST && !ok; t++) {
            uint8_t w[4] = {(uint8_t)t, (uint8_t)(len >> 16), (uint8_t)(len >> 8), (uint8_t)len};
            ok = evrec_crc32c(evrec_crc32c(0, w, 4), p, len) == rd_be32(h + 4);
        }
    }
    free(p);
    return ok;
}

/* Walks the chunks from `off` to the first STREAM chunk: UINT64_MAX when it is intact and is the
 * recording's chunk number 0 (its SEQ chunk, when intact, says so and names its CRC); else the
 * offset of the first problem. Damaged chunks before it that lose nothing are passed over. */
static uint64_t first_stream_damage(evrec_reader_t *r, uint64_t off)
{
    uint32_t want_crc = 0;
    int have_seq = 0;
    for (;;) {
        uint8_t type, *p;
        uint32_t len;
        int good = read_chunk(r, off, &type, &len, &p);
        uint64_t next = off + EVREC_CHUNK_HEADER_SIZE + (uint64_t)len;
        if (!good) {
            free(p);
            if (next < r->src.size && rd_chunk_good_at(r, next) && type != EVREC_CHUNK_STREAM) {
                off = next; /* a display-only chunk or a SEQ chunk: the reader reports it */
                continue;
            }
            if (header_word_only(r, off)) {
                return UINT64_MAX; /* the reader repairs the header word: nothing is lost */
            }
            return off; /* the meta-info's chunk, or damage whose extent is unknown */
        }
        if (type == EVREC_CHUNK_SEQ && len >= EVREC_SEQ_SIZE) {
            if (rd_be32(p + 4) != 0 || (r->order.file_id_known && rd_be32(p) != r->order.file_id)) {
                free(p);
                return off; /* not the recording's first STREAM chunk */
            }
            have_seq = 1;
            want_crc = rd_be32(p + 8);
        }
        free(p);
        if (type == EVREC_CHUNK_STREAM) {
            uint8_t h[EVREC_CHUNK_HEADER_SIZE];
            return src_pread(&r->src, off, h, sizeof h) == sizeof h && (!have_seq || rd_be32(h + 4) == want_crc)
                       ? UINT64_MAX
                       : off;
        }
        if (type == EVREC_CHUNK_END || type == EVREC_CHUNK_SYNC || type == EVREC_CHUNK_COPY ||
            type == EVREC_CHUNK_TAIL) {
            return off;
        }
        off = next;
    }
}

/* Applies one COPY chunk's payload (u8 type, then the chunk's payload). 0 on a fatal problem. */
static int apply_copy(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len)
{
    const uint8_t *q = p + 1;
    uint32_t n = len - 1u;
    switch (p[0]) {
    case EVREC_CHUNK_STREAM:
        free(r->copy.meta);
        r->copy.meta = malloc(n ? n : 1u);
        if (!r->copy.meta) {
            return 0;
        }
        memcpy(r->copy.meta, q, n);
        r->copy.meta_len = n;
        r->copy.meta_off = off + EVREC_CHUNK_HEADER_SIZE + 1u;
        return 1;
    case EVREC_CHUNK_RUNTIME_ENUMS: return rd_runtime_ranges_chunk(r, off, q, n) == EVREC_OK;
    case EVREC_CHUNK_FIELD_INFO: rd_field_info_chunk(r, off, q, n); return 1;
    case EVREC_CHUNK_TRACKS: rd_tracks_chunk(r, off, q, n); return 1;
    case EVREC_CHUNK_COUNTER_SERIES: rd_counter_series_chunk(r, off, q, n); return 1;
    case EVREC_CHUNK_LANES: rd_lanes_chunk(r, off, q, n); return 1;
    default: return 1; /* a copy of a chunk type this reader does not know */
    }
}

/* Reads the COPY chunks between tail.copy_off and the TAIL chunk. 1 when the meta-info was among
 * them. */
static int load_copies(evrec_reader_t *r)
{
    for (uint64_t off = r->order.tail.copy_off; off < r->order.tail.off;) {
        uint8_t type, *p;
        uint32_t len;
        if (!read_chunk(r, off, &type, &len, &p) || type != EVREC_CHUNK_COPY || len == 0) {
            free(p);
            return 0; /* a damaged copy: the start of the file was damaged too */
        }
        int ok = apply_copy(r, off, p, len);
        free(p);
        if (!ok) {
            return 0;
        }
        off += EVREC_CHUNK_HEADER_SIZE + (uint64_t)len;
    }
    return r->copy.meta != NULL;
}

int rd_copy_use(evrec_reader_t *r)
{
    if (!r->stream.container || !r->order.tail.ok || r->src.pos != EVREC_HEADER_SIZE) {
        return 0;
    }
    uint64_t bad = first_stream_damage(r, EVREC_HEADER_SIZE);
    if (bad == UINT64_MAX) {
        return 0;
    }
    /* Where the records go on: the first intact chunk after the damage that is not one of the
     * chunks before the stream. */
    uint64_t q = rd_chunk_good_at(r, bad) ? bad : rd_scan_chunk(r, bad + 1u); /* intact: a later chunk's */
    uint8_t h[EVREC_CHUNK_HEADER_SIZE];
    while (q < r->order.tail.copy_off && src_pread(&r->src, q, h, sizeof h) == sizeof h &&
           (pre_stream_type(h[0]) || (q == bad && h[0] == EVREC_CHUNK_STREAM))) {
        q = rd_scan_chunk(r, q + 1u);
    }
    if (q > r->order.tail.copy_off) {
        q = r->order.tail.copy_off;
    }
    if (!load_copies(r) || src_seek(&r->src, q) != 0) {
        return 0;
    }
    rd_damage(r, EVREC_E_CHECKSUM, bad, q - bad,
              "the start of the stream is damaged at offset %llu (the meta-info's STREAM chunk or a chunk "
              "before it): the meta-info and the chunks before the stream are read from their copies at "
              "offset %llu, and the records resume at the first SYNC point after offset %llu",
              (unsigned long long)bad, (unsigned long long)r->order.tail.copy_off, (unsigned long long)q);
    r->stream.seg = r->copy.meta;
    r->stream.seg_len = r->copy.meta_len;
    r->stream.seg_pos = 0;
    r->stream.seg_file_off = r->copy.meta_off;
    r->stream.seg_chunk_off = r->copy.meta_off - EVREC_CHUNK_HEADER_SIZE - 1u;
    r->stream.started = 1;
    r->resync.discont = 1;
    r->order.known = 0;
    return 1;
}
