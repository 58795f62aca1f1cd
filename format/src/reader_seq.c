/* SPDX-License-Identifier: Apache-2.0 */
/* The order of STREAM chunks (FORMAT.md section 2.4, version 1.3): each STREAM chunk comes right
 * after a SEQ chunk that names the recording (file id), the chunk's number and its CRC, and the
 * CRC of the SYNC chunk before it. A STREAM chunk that is out of order, a duplicate, from another
 * recording or not the one its SEQ chunk names is skipped, so that no record is shown under
 * another record's index or time; missing chunks are a gap. Also the TAIL chunk at the end. */
#include "evrec/evrec_container.h"
#include "reader_internal.h"

int rd_seq_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len)
{
    r->order.mode = 1;
    if (len < EVREC_SEQ_SIZE) {
        r->order.pending = 0;
        return 0;
    }
    r->order.seq.file_id = rd_be32(p);
    r->order.seq.seq = rd_be32(p + 4);
    r->order.seq.stream_crc = rd_be32(p + 8);
    r->order.seq.sync_crc = rd_be32(p + 12);
    r->order.seq.off = off;
    r->order.pending = 1;
    return 1;
}

/* Skipped without loss: a chunk that is not part of this place of the stream. */
static int skip_extra(evrec_reader_t *r, uint64_t off, uint32_t len, const char *why)
{
    uint64_t size = EVREC_CHUNK_HEADER_SIZE + (uint64_t)len;
    rd_damage(r, EVREC_E_CORRUPT, off, size,
              "STREAM chunk at offset %llu (%u payload bytes) %s; its records are "
              "skipped",
              (unsigned long long)off, (unsigned)len, why);
    if (!r->resync.discont) {
        rd_damage_nothing_lost(r);
    }
    r->resync.sync_pending = 0;
    return 0;
}

/* Stream bytes were lost before this chunk: records resume at a SYNC point. */
static void lost_before(evrec_reader_t *r, uint64_t off, uint32_t len, const char *fmt, uint32_t a, uint32_t b)
{
    char why[160];
    snprintf(why, sizeof why, fmt, (unsigned)a, (unsigned)b);
    rd_damage(r, EVREC_E_CORRUPT, off, EVREC_CHUNK_HEADER_SIZE + (uint64_t)len,
              "STREAM chunk at offset %llu: %s; records resume at the next SYNC point", (unsigned long long)off,
              why);
    r->resync.discont = 1;
}

/* The SEQ chunk names the SYNC chunk before it by its CRC (0: none). A SYNC chunk that is not
 * the named one (moved or copied from elsewhere) is not used: its index and time would be wrong. */
static void check_sync(evrec_reader_t *r)
{
    if (r->resync.sync_pending && r->order.seq.sync_crc != r->resync.sync.crc) {
        rd_damage(r, EVREC_E_CORRUPT, r->resync.sync.off, EVREC_CHUNK_HEADER_SIZE + EVREC_SYNC_SIZE,
                  "SYNC chunk at offset %llu is not the one the SEQ chunk at offset %llu names (CRC-32C 0x%08X, "
                  "expected 0x%08X): moved or copied from elsewhere, not used",
                  (unsigned long long)r->resync.sync.off, (unsigned long long)r->order.seq.off,
                  (unsigned)r->resync.sync.crc, (unsigned)r->order.seq.sync_crc);
        if (!r->resync.discont) {
            rd_damage_nothing_lost(r);
        }
        r->resync.sync_pending = 0;
    }
}

/* The number in the next intact SEQ chunk after `from` (random-access sources: a walk over at
 * most 4 chunk headers, CRC-checked): 1 with *seq set; 0 when there is none (END, TAIL or COPY
 * come first, or damage, or the source cannot be read ahead). */
static int next_seq(evrec_reader_t *r, uint64_t from, uint32_t *seq)
{
    if (!src_random_access(&r->src)) {
        return 0;
    }
    for (int i = 0; i < 4; i++) {
        uint8_t b[EVREC_CHUNK_HEADER_SIZE + EVREC_SEQ_SIZE];
        if (src_pread(&r->src, from, b, EVREC_CHUNK_HEADER_SIZE) != EVREC_CHUNK_HEADER_SIZE) {
            return 0;
        }
        uint8_t type = b[0];
        uint32_t len = rd_be32(b) & 0xFFFFFFu;
        if (type == EVREC_CHUNK_SEQ && len == EVREC_SEQ_SIZE) {
            if (src_pread(&r->src, from, b, sizeof b) != sizeof b ||
                evrec_crc32c(evrec_crc32c(0, b, 4), b + 8, EVREC_SEQ_SIZE) != rd_be32(b + 4)) {
                return 0;
            }
            *seq = rd_be32(b + 12);
            return 1;
        }
        if (type != EVREC_CHUNK_SYNC && type != EVREC_CHUNK_LANE_IDS && type != EVREC_CHUNK_STREAM) {
            return 0;
        }
        from += EVREC_CHUNK_HEADER_SIZE + (uint64_t)len;
    }
    return 0;
}

/* No SEQ chunk right before the STREAM chunk at `off`. */
static int without_seq(evrec_reader_t *r, uint64_t off, uint32_t len)
{
    if (r->order.lost) {
        /* Its SEQ chunk was damaged (reported): taken as the next chunk, unless a SYNC chunk
         * before it says it does not continue the records read so far. */
        r->order.lost = 0;
        r->order.expected++;
        if (!r->resync.sync_pending || r->resync.discont || r->resync.sync.index == r->iter.index) {
            return 1;
        }
    } else if (!r->stream.started || r->resync.discont) {
        r->order.known = 0; /* the first chunk, or after damage that took its SEQ chunk */
        return 1;
    }
    r->order.known = 0;
    r->resync.discont = 1;
    return skip_extra(r, off, len, "has no SEQ chunk before it (moved or copied from elsewhere)");
}

int rd_seq_stream(evrec_reader_t *r, uint64_t off, uint32_t len, uint32_t crc)
{
    if (!r->order.mode) {
        return 1; /* a version 1.0 to 1.2 file: no order to check */
    }
    if (!r->order.pending) {
        return without_seq(r, off, len);
    }
    r->order.pending = 0;
    r->order.lost = 0;
    uint32_t place = r->order.phys++;
    const rd_seq_t *s = &r->order.seq;
    if (s->stream_crc != crc) {
        /* The named chunk is gone from here (this one was moved or copied here). */
        r->order.expected = s->seq + 1u;
        r->order.known = 1;
        r->resync.discont = 1;
        return skip_extra(r, off, len,
                          "is not the one the SEQ chunk before it names (moved or copied from "
                          "elsewhere; the chunk it names is lost)");
    }
    if (!r->order.file_id_known) {
        r->order.file_id = s->file_id;
        r->order.file_id_known = 1;
    } else if (s->file_id != r->order.file_id) {
        return skip_extra(r, off, len,
                          "belongs to another recording (file id differs: a foreign or appended chunk)");
    }
    check_sync(r);
    if (r->order.known && s->seq < r->order.expected) {
        char why[120];
        snprintf(why, sizeof why, "is number %u, after number %u: a duplicate or a chunk moved back",
                 (unsigned)s->seq, (unsigned)(r->order.expected - 1u));
        return skip_extra(r, off, len, why);
    }
    uint32_t after;
    if ((!r->order.known || (s->seq > r->order.expected && s->seq != place)) &&
        next_seq(r, off + EVREC_CHUNK_HEADER_SIZE + len, &after) && after != s->seq + 1u) {
        /* Not in its place in the file (or the place is not known: after a seek or damage at the
         * start) and not continued by the chunks after it: it was moved forward, or copied. */
        char why[120];
        snprintf(why, sizeof why, "is number %u, %s, and number %u follows: a chunk moved or copied",
                 (unsigned)s->seq, r->order.known ? "ahead of its place" : "where the place is not known",
                 (unsigned)after);
        return skip_extra(r, off, len, why);
    }
    if (r->order.known && s->seq > r->order.expected && !r->resync.discont) {
        lost_before(r, off, len, "STREAM chunks number %u to %u are missing before it (removed or moved)",
                    r->order.expected, s->seq - 1u);
    } else if (!r->order.known && !r->stream.started && s->seq != 0) {
        lost_before(r, off, len, "the first STREAM chunk is number %u (expected %u): chunks are missing", s->seq,
                    0);
    }
    r->order.expected = s->seq + 1u;
    r->order.known = 1;
    return 1;
}

void rd_tail_read(evrec_reader_t *r, const uint8_t *header)
{
    enum { N = 2 * EVREC_CHUNK_HEADER_SIZE + EVREC_TAIL_SIZE };
    uint8_t b[N];
    if (!src_random_access(&r->src) || r->src.size < EVREC_HEADER_SIZE + N ||
        src_pread(&r->src, r->src.size - N, b, N) != N) {
        return;
    }
    static const uint8_t end[8] = {0, 0, 0, 0, 0x48, 0x67, 0x4B, 0xC7};
    const uint8_t *t = b + EVREC_CHUNK_HEADER_SIZE;
    if (memcmp(b + N - 8, end, 8) != 0 || rd_be32(b) != ((uint32_t)EVREC_CHUNK_TAIL << 24 | EVREC_TAIL_SIZE) ||
        evrec_crc32c(evrec_crc32c(0, b, 4), t, EVREC_TAIL_SIZE) != rd_be32(b + 4) ||
        evrec_crc32c(0, t + 16, 44) != rd_be32(t + 16 + 44) || memcmp(t + 16, EVREC_MAGIC, 8) != 0) {
        return;
    }
    r->order.tail.ok = 1;
    r->order.tail.off = r->src.size - N;
    uint64_t copy_bytes = rd_be64(t);
    r->order.tail.copy_off = copy_bytes <= r->order.tail.off ? r->order.tail.off - copy_bytes : 0;
    r->order.tail.file_id = rd_be32(t + 8);
    r->order.tail.stream_chunks = rd_be32(t + 12);
    memcpy(r->order.tail.header, t + 16, sizeof r->order.tail.header);
    if (r->order.tail.copy_off < EVREC_HEADER_SIZE || r->order.tail.copy_off > r->order.tail.off ||
        (header && memcmp(header, r->order.tail.header, EVREC_HEADER_SIZE) != 0)) {
        /* not this recording's (another one appended), or a copy past its own end */
        r->order.tail.ok = 0;
        return;
    }
    r->order.file_id = r->order.tail.file_id;
    r->order.file_id_known = 1;
}
