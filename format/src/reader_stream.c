/* SPDX-License-Identifier: Apache-2.0 */
/* The CCore stream as a sequence of segments: the payloads of the container's STREAM chunks,
 * each CRC-32C-checked before use (FORMAT.md sections 1-2), or blocks of a bare CCore file. */
#include <errno.h>
#include <stdlib.h>

#include "evrec/evrec_container.h"
#include "reader_internal.h"

/* Bytes asked from a bare CCore file at a time. */
#define BARE_BLOCK 65536u

static const char *chunk_type_name(uint8_t type)
{
    switch (type) {
    case EVREC_CHUNK_END: return "END";
    case EVREC_CHUNK_STREAM: return "STREAM";
    case EVREC_CHUNK_RUNTIME_ENUMS: return "RUNTIME_ENUMS";
    case EVREC_CHUNK_FIELD_INFO: return "FIELD_INFO";
    case EVREC_CHUNK_TRACKS: return "TRACKS";
    case EVREC_CHUNK_SYNC: return "SYNC";
    case EVREC_CHUNK_LANES: return "LANES";
    case EVREC_CHUNK_LANE_IDS: return "LANE_IDS";
    case EVREC_CHUNK_SEQ: return "SEQ";
    case EVREC_CHUNK_COPY: return "COPY";
    case EVREC_CHUNK_TAIL: return "TAIL";
    case EVREC_CHUNK_COUNTER_SERIES: return "COUNTER_SERIES";
    case EVREC_CHUNK_LOSSES: return "LOSSES";
    case EVREC_CHUNK_INDEX: return "INDEX";
    case EVREC_CHUNK_ATTRS: return "ATTRS";
    default: return "unknown";
    }
}

static evrec_status fail_io(evrec_reader_t *r, uint64_t off)
{
    return rd_fail(r, EVREC_E_IO, off, "read error: %s", strerror(r->src.io_errno));
}

/* 1 if the last 8 bytes of p[0..n) are a valid, empty END chunk. */
static int ends_with_end_chunk(const uint8_t *p, size_t n)
{
    if (n < EVREC_CHUNK_HEADER_SIZE) {
        return 0;
    }
    static const uint8_t zero[4] = {0, 0, 0, 0};
    const uint8_t *t = p + n - EVREC_CHUNK_HEADER_SIZE;
    return memcmp(t, zero, 4) == 0 && rd_be32(t + 4) == evrec_crc32c(0, zero, 4);
}

/* A chunk whose CRC fails, read whole: when only its header was hit, the payload is intact and
 * used. Either the stored CRC differs from the bytes' in one bit (the CRC field itself was hit;
 * a damaged payload changes about half the bits), or the CRC checks with another known chunk type
 * in the type byte. Records the damage (nothing lost), fixes h[0], returns 1. */
static int repair_in_place(evrec_reader_t *r, uint64_t off, uint8_t *h, const uint8_t *p, uint32_t len,
                           uint32_t stored, uint32_t crc)
{
    uint32_t diff = crc ^ stored;
    if ((diff & (diff - 1u)) == 0) {
        rd_damage(r, EVREC_E_CHECKSUM, off + 4, 4,
                  "chunk at offset %llu: one bit of its stored CRC-32C is flipped (0x%08X, the bytes give "
                  "0x%08X): the CRC field was hit, the payload is used",
                  (unsigned long long)off, (unsigned)stored, (unsigned)crc);
        rd_damage_nothing_lost(r);
        return 1;
    }
    for (uint8_t t = 0; t <= EVREC_CHUNK_LAST; t++) {
        uint8_t w[4] = {t, h[1], h[2], h[3]};
        if (t == h[0] || evrec_crc32c(evrec_crc32c(0, w, 4), p, len) != stored) {
            continue;
        }
        rd_damage(r, EVREC_E_CORRUPT, off, 1,
                  "chunk at offset %llu: type byte %u damaged; the CRC-32C checks with type %u (%s): repaired, "
                  "the payload is used",
                  (unsigned long long)off, (unsigned)h[0], (unsigned)t, chunk_type_name(t));
        rd_damage_nothing_lost(r);
        h[0] = t;
        return 1;
    }
    return 0;
}

/* Where the chunks go on after the damaged chunk at `off` whose length says it ends at `end`:
 * *q = that offset (UINT64_MAX: nowhere known), *trusted = 1 when its length leads there.
 * Returns 1 when the chunk's header word was repaired instead (it is read again), else 0. */
static int find_next_intact(evrec_reader_t *r, uint64_t off, uint64_t end, uint64_t *q, int *trusted)
{
    *q = UINT64_MAX;
    *trusted = 0;
    if (src_random_access(&r->src)) {
        if (end == r->src.size || (end < r->src.size && rd_chunk_good_at(r, end))) {
            *q = end;
            *trusted = 1;
        } else {
            *q = rd_scan_chunk(r, off + 1);
            return rd_fix_header_word(r, off, *q);
        }
    } else if (r->src.pos == end) {
        *q = end; /* a stream: the payload was read whole; the next header checks itself */
        *trusted = 1;
    }
    return 0;
}

/* What skipping a damaged chunk of `type` lost (`trusted`: its length was right, so only that
 * chunk is gone). */
static void note_skipped(evrec_reader_t *r, uint8_t type, int trusted)
{
    if (type == EVREC_CHUNK_SYNC && trusted) {
        r->resync.sync_pending = 0; /* only the SYNC point is lost, not stream bytes */
    } else if ((type == EVREC_CHUNK_LANE_IDS || type == EVREC_CHUNK_LANES) && trusted) {
        /* only lane numbers are lost (those records read EVREC_LANE_UNKNOWN), not stream bytes */
    } else if (type == EVREC_CHUNK_SEQ && trusted) {
        r->order.pending = 0;
        r->order.lost = 1; /* the next STREAM chunk is taken as the next one (FORMAT.md section 2.4) */
    } else if ((type == EVREC_CHUNK_COPY || type == EVREC_CHUNK_TAIL) && trusted) {
        /* only a copy at the end is lost (FORMAT.md section 2.4), not stream bytes */
    } else if (r->stream.started || type == EVREC_CHUNK_STREAM) {
        r->resync.discont = 1;
        /* A SYNC point read before the damage describes the chunk that was lost (or one in the
         * skipped range), not the next STREAM chunk: resume only at a SYNC chunk read after it. */
        r->resync.sync_pending = 0;
    }
    if (!r->resync.discont) {
        rd_damage_nothing_lost(r); /* a display-only chunk: no record lost */
    }
}

/* A chunk at `off` is damaged: its CRC fails (`len_trusted`: its length leads to an intact chunk
 * or to the end of the file) or its length runs past the end of a file that ends with END.
 * Records the damaged range and moves the source to the next intact chunk (FORMAT.md section 2,
 * "What a reader does with damage"). Returns 1 to go on reading chunks there, 0 when there is
 * no way on (then the reader is halted with the error set). `what` says what was wrong. */
static int skip_damaged(evrec_reader_t *r, uint64_t off, uint8_t type, uint32_t len, const char *what)
{
    uint64_t q;
    int trusted;
    if (find_next_intact(r, off, off + EVREC_CHUNK_HEADER_SIZE + (uint64_t)len, &q, &trusted)) {
        return 1;
    }
    int random = src_random_access(&r->src);
    if (!r->tables.have_meta && r->stream.started && !(trusted && type == EVREC_CHUNK_STREAM)) {
        rd_fail(r, EVREC_E_CHECKSUM, off, "%s; the meta-info continues in it, so no record can be read", what);
        return 0;
    }
    if (q == UINT64_MAX) {
        rd_damage(r, EVREC_E_CHECKSUM, off, r->src.size_known ? r->src.size - off : 0,
                  "%s; no intact chunk follows (%s)", what,
                  random ? "searched to the end of the file" : "a stream cannot be searched");
        rd_halt(r);
        return 0;
    }
    if (q == r->src.size) {
        rd_damage(r, EVREC_E_CHECKSUM, off, q - off, "%s; it is the last chunk, and the END chunk is missing",
                  what);
    } else {
        rd_damage(r, EVREC_E_CHECKSUM, off, q - off,
                  "%s; skipped %llu bytes to the next intact chunk at offset %llu", what,
                  (unsigned long long)(q - off), (unsigned long long)q);
    }
    if (random && src_seek(&r->src, q) != 0) {
        rd_halt(r);
        return 0;
    }
    note_skipped(r, type, trusted);
    return 1;
}

/* What loading a chunk leads to: a segment to serve, the end of the stream (cleanly or with the
 * error set), or the next chunk to read. */
enum { SEG_NONE = 0, SEG_SERVED = 1, SEG_AGAIN = 2 };

/* The payload p[0..len) of the chunk at `off` becomes the segment. */
static void serve(evrec_reader_t *r, uint64_t off, const uint8_t *p, size_t len)
{
    r->stream.seg = p;
    r->stream.seg_len = len;
    r->stream.seg_file_off = off + EVREC_CHUNK_HEADER_SIZE;
    r->stream.seg_chunk_off = off;
}

/* The next block of a bare CCore file. */
static int next_bare_block(evrec_reader_t *r)
{
    size_t got;
    const uint8_t *p = src_view(&r->src, BARE_BLOCK, &got, &r->stream.buf, &r->stream.buf_cap);
    if (!p) {
        rd_fail(r, EVREC_E_NOMEM, r->src.pos, "out of memory for a read buffer");
        return SEG_NONE;
    }
    if (r->src.io_errno) {
        fail_io(r, r->src.pos);
        return SEG_NONE;
    }
    if (got == 0) {
        r->stream.over = 1;
        return SEG_NONE;
    }
    r->stream.seg = p;
    r->stream.seg_len = got;
    r->stream.seg_file_off = r->src.pos - got;
    return SEG_SERVED;
}

/* The 8-byte header of the chunk at `off` (the source position) into h, a repaired header word
 * applied. 0 when the file ends or fails there (the error is set). */
static int read_chunk_header(evrec_reader_t *r, uint64_t off, uint8_t *h)
{
    size_t k = src_read(&r->src, h, EVREC_CHUNK_HEADER_SIZE);
    if (r->src.io_errno) {
        fail_io(r, off);
        return 0;
    }
    r->stream.over = 1; /* until a good chunk says otherwise */
    if (k == 0) {
        rd_fail(r, EVREC_E_TRUNCATED, off,
                "file ends at offset %llu without the END chunk (expected a chunk header)",
                (unsigned long long)off);
        return 0;
    }
    if (k < EVREC_CHUNK_HEADER_SIZE) {
        rd_fail(r, EVREC_E_TRUNCATED, off,
                "file ends inside the chunk header at offset %llu (%u of 8 bytes present)",
                (unsigned long long)off, (unsigned)k);
        return 0;
    }
    if (r->stream.fix_pending && off == r->stream.fix_off) {
        memcpy(h, r->stream.fix_word, 4); /* a header word repaired by skip_damaged() */
        r->stream.fix_pending = 0;
    }
    return 1;
}

/* The chunk at `off` declares more bytes than the file holds, yet the file ends with a valid END
 * chunk: its length is damaged. Repaired, or skipped to the next intact chunk. */
static int length_damaged(evrec_reader_t *r, uint64_t off, uint8_t type, uint32_t len)
{
    char what[200];
    snprintf(what, sizeof what,
             "%s chunk at offset %llu declares %u payload bytes, past the end of the file, "
             "yet the file ends with a valid END chunk: the chunk length is damaged",
             chunk_type_name(type), (unsigned long long)off, (unsigned)len);
    uint64_t q = src_random_access(&r->src) ? rd_scan_chunk(r, off + 1) : UINT64_MAX;
    if (rd_fix_header_word(r, off, q)) {
        r->stream.over = 0;
        return SEG_AGAIN;
    }
    if (q == UINT64_MAX || (!r->tables.have_meta && r->stream.started)) {
        rd_fail(r, EVREC_E_CORRUPT, off, "%s", what);
        return SEG_NONE;
    }
    rd_damage(r, EVREC_E_CORRUPT, off, q - off, "%s; skipped %llu bytes to the next intact chunk at offset %llu",
              what, (unsigned long long)(q - off), (unsigned long long)q);
    if (src_seek(&r->src, q) != 0) {
        rd_halt(r);
        return SEG_NONE;
    }
    if (r->stream.started) {
        r->resync.discont = 1;
    }
    r->stream.over = 0;
    return SEG_AGAIN;
}

/* The file ends inside the chunk at `off` (`got` of its `len` payload bytes p are there). */
static int short_chunk(evrec_reader_t *r, uint64_t off, uint8_t type, uint32_t len, const uint8_t *p, size_t got)
{
    if (ends_with_end_chunk(p, got)) {
        return length_damaged(r, off, type, len);
    }
    if (type != EVREC_CHUNK_STREAM || got == 0) {
        rd_fail(r, EVREC_E_TRUNCATED, off,
                "file ends at offset %llu inside the %s chunk at offset %llu, which declares "
                "%u payload bytes (%u present); expected the rest of it and an END chunk",
                (unsigned long long)r->src.pos, chunk_type_name(type), (unsigned long long)off, (unsigned)len,
                (unsigned)got);
        return SEG_NONE;
    }
    /* A save cut short: serve what is there, unverified; report at the next load. */
    r->stream.over = 0;
    r->stream.started = 1;
    serve(r, off, p, got);
    r->stream.seg_unverified = 1;
    r->stream.trunc_declared = len;
    return SEG_SERVED;
}

/* The chunk at `off` fails its CRC (stored CRC `stored`, the bytes give `crc`). */
static int bad_crc_chunk(evrec_reader_t *r, uint64_t off, uint8_t type, uint32_t len, const uint8_t *p,
                         uint32_t stored, uint32_t crc)
{
    if (type == EVREC_CHUNK_TRACKS && !r->stream.started) {
        /* Tracks, spans, counters are optional and come before the stream: a bad TRACKS chunk
         * loses only itself (deferred error). Were its length damaged, the next chunk header
         * would fail its own CRC. */
        rd_tracks_damaged(r, off, len, stored, crc);
        r->stream.over = 0;
        return SEG_AGAIN;
    }
    if (type == EVREC_CHUNK_COUNTER_SERIES && !r->stream.started) {
        rd_counter_series_damaged(r, off, len, stored, crc); /* loses only the counters' series */
        r->stream.over = 0;
        return SEG_AGAIN;
    }
    char what[200];
    snprintf(what, sizeof what,
             "%s chunk at offset %llu (%u payload bytes): stored CRC-32C 0x%08X, the bytes give 0x%08X",
             chunk_type_name(type), (unsigned long long)off, (unsigned)len, (unsigned)stored, (unsigned)crc);
    if (type == EVREC_CHUNK_STREAM && !r->tables.have_meta &&
        (!src_random_access(&r->src) || r->src.pos == r->src.size || rd_chunk_good_at(r, r->src.pos))) {
        /* The meta-info is in it: read it anyway and check it against the header's schema
         * hash once parsed (reader_open.c); the chunk's records are then skipped. */
        rd_damage(r, EVREC_E_CHECKSUM, off, EVREC_CHUNK_HEADER_SIZE + (uint64_t)len, "%s; its records are skipped",
                  what);
        r->stream.meta_damaged = 1;
        r->stream.meta_damage_off = off;
        r->stream.seg_damaged = 1;
        r->stream.over = 0;
        r->stream.started = 1;
        serve(r, off, p, len);
        r->resync.sync_pending = 0;
        r->order.pending = 0;
        return SEG_SERVED;
    }
    if (!skip_damaged(r, off, type, len, what)) {
        return SEG_NONE;
    }
    r->stream.over = 0;
    return SEG_AGAIN;
}

/* A CRC-good STREAM chunk at `off`. */
static int stream_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len, uint32_t stored)
{
    r->stream.over = 0;
    if (!rd_seq_stream(r, off, len, stored)) {
        return SEG_AGAIN; /* out of order, a duplicate or foreign (FORMAT.md section 2.4) */
    }
    r->stream.started = 1;
    if (len == 0) {
        return SEG_AGAIN;
    }
    serve(r, off, p, len);
    r->resync.seg_sync = r->resync.sync_pending;
    r->resync.sync_pending = 0;
    if (r->resync.discont) {
        if (!r->resync.seg_sync) {
            /* After a gap, records resume only where a SYNC chunk says where a record starts and
             * what its index and time are: this chunk is lost too. */
            rd_damage_extend(r, r->src.pos);
            r->stream.seg_len = 0; /* not served: seg points into the buffer the next chunk reuses */
            return SEG_AGAIN;
        }
        r->resync.discont = 0;
        r->resync.resuming = 1; /* the item being read is lost; records restart here */
    } else {
        r->resync.sync_time = r->resync.seg_sync; /* applied before its first record's time */
    }
    return SEG_SERVED;
}

/* A CRC-good chunk of a type other than STREAM; RUNTIME_ENUMS, FIELD_INFO, TRACKS and LANES before
 * the stream, LANE_IDS, SYNC, SEQ beside it. */
static int side_chunk(evrec_reader_t *r, uint64_t off, uint8_t type, const uint8_t *p, uint32_t len,
                      uint32_t stored)
{
    if (type == EVREC_CHUNK_RUNTIME_ENUMS) {
        r->resync.sync_pending = 0;
        if (r->stream.started) {
            /* out of place (another recording's): its names cannot apply any more; no record lost */
            rd_damage(
                r, EVREC_E_CORRUPT, off, EVREC_CHUNK_HEADER_SIZE + (uint64_t)len,
                "RUNTIME_ENUMS chunk at offset %llu comes after STREAM data (expected before the first STREAM "
                "chunk): skipped, every record is read",
                (unsigned long long)off);
            rd_damage_nothing_lost(r);
        } else if (rd_runtime_ranges_chunk(r, off, p, len) != EVREC_OK) {
            return SEG_NONE;
        }
    } else if (type == EVREC_CHUNK_SYNC) {
        r->resync.sync_pending = rd_sync_parse(&r->resync.sync, off, p, len);
        r->resync.sync.crc = stored;
    } else if (type == EVREC_CHUNK_SEQ) {
        rd_seq_chunk(r, off, p, len);
    } else if (type == EVREC_CHUNK_FIELD_INFO) {
        rd_field_info_chunk(r, off, p, len); /* display attributes: a problem is deferred, never fatal */
    } else if (type == EVREC_CHUNK_TRACKS) {
        rd_tracks_chunk(r, off, p, len); /* tracks, spans, counters: like FIELD_INFO */
    } else if (type == EVREC_CHUNK_COUNTER_SERIES) {
        rd_counter_series_chunk(r, off, p, len);
    } else if (type == EVREC_CHUNK_LANES) {
        rd_lanes_chunk(r, off, p, len);
    } else if (type == EVREC_CHUNK_LANE_IDS) {
        rd_lane_ids_chunk(r, p, len);
    } else if (type == EVREC_CHUNK_LOSSES) {
        rd_losses_chunk(r, off, p, len);
    } else if (type == EVREC_CHUNK_ATTRS) {
        rd_attrs_chunk(r, off, p, len);
    } /* else a chunk type of a newer minor version: skipped */
    r->stream.over = 0;
    return SEG_AGAIN;
}

/* A CRC-good chunk. */
static int good_chunk(evrec_reader_t *r, uint64_t off, uint8_t type, const uint8_t *p, uint32_t len,
                      uint32_t stored)
{
    if (type == EVREC_CHUNK_STREAM) {
        return stream_chunk(r, off, p, len, stored);
    }
    if (type != EVREC_CHUNK_END) {
        return side_chunk(r, off, type, p, len, stored);
    }
    if (len != 0) {
        rd_fail(r, EVREC_E_CORRUPT, off, "END chunk at offset %llu has %u payload bytes (expected 0)",
                (unsigned long long)off, (unsigned)len);
        return SEG_NONE;
    }
    r->stream.end_chunk_off = off;
    r->stream.end_chunk_seen = 1;
    return SEG_NONE;
}

/* Read the chunk at the source position: its header, its payload, its CRC. */
static int next_chunk(evrec_reader_t *r)
{
    uint64_t off = r->src.pos;
    uint8_t h[EVREC_CHUNK_HEADER_SIZE];
    if (!read_chunk_header(r, off, h)) {
        return SEG_NONE;
    }
    uint8_t type = h[0];
    uint32_t len = rd_be32(h) & 0xFFFFFFu;
    uint32_t stored = rd_be32(h + 4);
    size_t got = 0;
    const uint8_t *p = src_view(&r->src, len, &got, &r->stream.buf, &r->stream.buf_cap);
    if (!p) {
        rd_fail(r, EVREC_E_NOMEM, off, "out of memory for a chunk of %u bytes", (unsigned)len);
        return SEG_NONE;
    }
    if (r->src.io_errno) {
        fail_io(r, off + 8 + got);
        return SEG_NONE;
    }
    if (got < len) {
        return short_chunk(r, off, type, len, p, got);
    }
    uint32_t crc = evrec_crc32c(evrec_crc32c(0, h, 4), p, len);
    if (crc != stored && repair_in_place(r, off, h, p, len, stored, crc)) {
        type = h[0];
        crc = stored;
    }
    if (crc != stored) {
        return bad_crc_chunk(r, off, type, len, p, stored, crc);
    }
    return good_chunk(r, off, type, p, len, stored);
}

/* Load the next segment of stream bytes. Returns 1 when seg holds at least one new byte; 0 when
 * the stream is over, cleanly (END chunk or end of a bare file) or not (then the error is set). */
static int next_segment(evrec_reader_t *r)
{
    r->stream.seg_file_off += r->stream.seg_len; /* an empty segment at the end of the last one */
    r->stream.seg_len = r->stream.seg_pos = 0;
    r->stream.seg_damaged = 0;
    if (r->stream.over || r->errs.halt) {
        return 0;
    }
    if (r->stream.seg_unverified) {
        /* The truncated chunk served so far: now report it. */
        r->stream.over = 1;
        rd_fail(r, EVREC_E_TRUNCATED, r->stream.seg_chunk_off,
                "file ends at offset %llu inside the STREAM chunk at offset %llu, which declares %u "
                "payload bytes; its records were used unverified, and the END chunk is missing",
                (unsigned long long)r->src.pos, (unsigned long long)r->stream.seg_chunk_off,
                (unsigned)r->stream.trunc_declared);
        return 0;
    }
    if (!r->stream.container) {
        return next_bare_block(r);
    }
    int k;
    while ((k = next_chunk(r)) == SEG_AGAIN) {
    }
    return k;
}

const uint8_t *rd_need_slow(evrec_reader_t *r, size_t n, uint8_t *dst, const char *what, uint64_t item_off,
                            size_t before)
{
    size_t got = 0;
    for (;;) {
        size_t avail = r->stream.seg_len - r->stream.seg_pos;
        size_t take = avail < n - got ? avail : n - got;
        if (take) { /* seg is NULL before the first segment */
            memcpy(dst + got, r->stream.seg + r->stream.seg_pos, take);
        }
        r->stream.seg_pos += take;
        got += take;
        if (got == n) {
            return dst;
        }
        if (!next_segment(r)) {
            break;
        }
        if (r->resync.resuming) {
            return NULL; /* a gap: the item straddled into damage; the caller restarts */
        }
    }
    if (!r->errs.halt && r->resync.discont) {
        const evrec_damage_t *d = rd_damage_last(r);
        rd_fail(r, EVREC_E_TRUNCATED, item_off,
                "the rest of the stream, its End record included, was lost: no SYNC chunk follows the damaged "
                "range at offset %llu to resume at",
                (unsigned long long)(d ? d->offset : item_off));
    } else if (!r->errs.halt) {
        uint64_t end = rd_stream_offset(r);
        if (r->stream.container) {
            end = r->stream.end_chunk_seen ? r->stream.end_chunk_off : r->src.pos;
        }
        if (got + before == 0) {
            rd_fail(r, EVREC_E_TRUNCATED, item_off, "expected %s at offset %llu, but the stream ends there%s",
                    what, (unsigned long long)item_off, r->stream.container ? " (END chunk)" : " (end of file)");
        } else {
            rd_fail(r, EVREC_E_TRUNCATED, item_off,
                    "%s at offset %llu: %u bytes expected, but the stream ends at offset %llu after %u", what,
                    (unsigned long long)item_off, (unsigned)(n + before), (unsigned long long)end,
                    (unsigned)(got + before));
        }
    }
    return NULL;
}

int rd_next_segment(evrec_reader_t *r)
{
    return next_segment(r);
}

evrec_status rd_finish_stream(evrec_reader_t *r, uint64_t end_off)
{
    if (r->stream.seg_pos < r->stream.seg_len || next_segment(r)) {
        uint64_t off = rd_stream_offset(r);
        return rd_fail(r, EVREC_E_CORRUPT, off,
                       "data at offset %llu after the End record at offset %llu (expected %s)",
                       (unsigned long long)off, (unsigned long long)end_off,
                       r->stream.container ? "the END chunk" : "the end of the file");
    }
    if (r->errs.halt) {
        return r->errs.first.status;
    }
    if (r->stream.container) {
        /* next_segment() stopped at a good END chunk: nothing may follow it. */
        uint8_t b[8];
        size_t got = src_read(&r->src, b, sizeof b);
        if (got != 0) {
            uint64_t off = r->stream.end_chunk_off + EVREC_CHUNK_HEADER_SIZE;
            if (got == sizeof b && memcmp(b, EVREC_MAGIC, 8) == 0) {
                return rd_fail(r, EVREC_E_CORRUPT, off,
                               "another evrec recording starts at offset %llu, after the END chunk (two files "
                               "concatenated): it is not read; this file's records end here",
                               (unsigned long long)off);
            }
            return rd_fail(r, EVREC_E_CORRUPT, off,
                           "data at offset %llu after the END chunk (expected the end of the file)",
                           (unsigned long long)off);
        }
        if (r->src.io_errno) {
            return fail_io(r, r->src.pos);
        }
    }
    return EVREC_OK;
}
