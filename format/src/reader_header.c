/* SPDX-License-Identifier: Apache-2.0 */
/* The 48-byte header (FORMAT.md section 1), or its absence (a bare CCore stream); a damaged header
 * is read from its copy in the TAIL chunk (section 2.4) or passed over when intact chunks follow. */
#include <errno.h>

#include "evrec/evrec_container.h"
#include "reader_internal.h"

static evrec_status fail_io(evrec_reader_t *r, uint64_t off)
{
    return rd_fail(r, EVREC_E_IO, off, "read error: %s", strerror(r->src.io_errno));
}

/* The header is unreadable (zeroed, say): an evrec file all the same when it ends with an intact
 * TAIL chunk (FORMAT.md section 2.4), whose copy of the header then gives its fields. */
static int header_from_tail(evrec_reader_t *r, uint64_t off)
{
    rd_tail_read(r, NULL);
    if (!r->order.tail.ok) {
        return 0;
    }
    const uint8_t *t = r->order.tail.header;
    r->info.format = EVREC_FILE_CONTAINER;
    r->info.version_major = rd_be16(t + 8);
    r->info.version_minor = rd_be16(t + 10);
    r->info.flags = rd_be32(t + 12);
    r->info.schema_hash_stored = rd_be64(t + 16);
    r->info.recorded = rd_be64(t + 24);
    r->info.dropped = rd_be64(t + 32);
    r->info.overwritten = rd_be32(t + 40);
    rd_damage(r, EVREC_E_CHECKSUM, off, EVREC_HEADER_SIZE,
              "damaged header (%s; CRC-32C of bytes 0..43 does not match): its fields are taken from the copy "
              "in the TAIL chunk at offset %llu",
              off ? "magic intact" : "magic damaged", (unsigned long long)r->order.tail.off);
    rd_damage_nothing_lost(r);
    uint8_t skip[EVREC_HEADER_SIZE];
    src_read(&r->src, skip, sizeof skip);
    r->stream.container = 1;
    r->stream.seg_file_off = EVREC_HEADER_SIZE;
    r->order.mode = r->info.version_minor >= EVREC_FORMAT_MINOR_SEQ;
    r->order.known = 1;
    return 1;
}

/* The header's CRC fails, or its magic is wrong. It is an evrec file all the same when an intact
 * chunk starts right after the 48 header bytes (random-access sources). Its fields are kept when
 * the CRC checks with the true magic in place (only the magic was hit), else they are unknown. */
static evrec_status damaged_header(evrec_reader_t *r, const uint8_t *p)
{
    uint8_t h[EVREC_HEADER_SIZE];
    memcpy(h, p, sizeof h);
    memcpy(h, EVREC_MAGIC, 8);
    int fields_ok = evrec_crc32c(0, h, 44) == rd_be32(p + 44);
    int magic_ok = memcmp(p, EVREC_MAGIC, 8) == 0;
    if (!fields_ok && header_from_tail(r, magic_ok ? 44 : 0)) {
        return EVREC_OK;
    }
    r->info.format = EVREC_FILE_CONTAINER;
    r->info.version_major = fields_ok ? rd_be16(p + 8) : EVREC_FORMAT_MAJOR;
    r->info.version_minor = fields_ok ? rd_be16(p + 10) : 0;
    if (fields_ok) {
        r->info.flags = rd_be32(p + 12);
        r->info.schema_hash_stored = rd_be64(p + 16);
        r->info.recorded = rd_be64(p + 24);
        r->info.dropped = rd_be64(p + 32);
        r->info.overwritten = rd_be32(p + 40);
        rd_damage(r, EVREC_E_CORRUPT, 0, 8,
                  "damaged magic (expected 45 56 52 43 0D 0A 1A 0A); the rest of the header is intact");
    } else {
        r->info.flags = 0;
        r->info.schema_hash_stored = 0;
        r->info.recorded = UINT64_MAX;
        r->info.dropped = 0;
        r->info.overwritten = 0;
        rd_damage(r, EVREC_E_CHECKSUM, magic_ok ? 44 : 0, EVREC_HEADER_SIZE,
                  "damaged header (%s; CRC-32C of bytes 0..43 does not match): flags, schema hash, record "
                  "and drop counts unknown; the chunks after it are intact and read",
                  magic_ok ? "magic intact" : "magic damaged too");
    }
    rd_damage_nothing_lost(r);
    uint8_t skip[EVREC_HEADER_SIZE];
    src_read(&r->src, skip, sizeof skip);
    r->stream.container = 1;
    r->stream.seg_file_off = EVREC_HEADER_SIZE;
    if (fields_ok) {
        r->order.mode = r->info.version_minor >= EVREC_FORMAT_MINOR_SEQ;
        r->order.known = 1;
        rd_tail_read(r, h);
    }
    return EVREC_OK;
}

/* 1 when the 48 bytes at p look like a damaged evrec header followed by an intact chunk. */
static int looks_like_damaged_header(evrec_reader_t *r, const uint8_t *p)
{
    if (!src_random_access(&r->src) || r->src.size < EVREC_HEADER_SIZE + EVREC_CHUNK_HEADER_SIZE) {
        return 0;
    }
    uint8_t h[EVREC_HEADER_SIZE];
    memcpy(h, p, sizeof h);
    memcpy(h, EVREC_MAGIC, 8);
    int magic_hits = 0;
    for (int i = 0; i < 8; i++) {
        magic_hits += p[i] == (uint8_t)EVREC_MAGIC[i];
    }
    /* Most of the magic, or a header whose CRC checks with the true magic. */
    if (magic_hits < 6 && evrec_crc32c(0, h, 44) != rd_be32(p + 44)) {
        return 0;
    }
    return rd_chunk_good_at(r, EVREC_HEADER_SIZE);
}

evrec_status rd_open_container_or_ccore(evrec_reader_t *r)
{
    const uint8_t *p;
    size_t n = src_peek(&r->src, EVREC_HEADER_SIZE, &p);
    if (r->src.io_errno) {
        return fail_io(r, 0);
    }
    if (n == 0) {
        return rd_fail(r, EVREC_E_TRUNCATED, 0,
                       "empty file: expected an evrec header or a CCore stream (meta-info)");
    }
    int magic = memcmp(p, EVREC_MAGIC, n < 8 ? n : 8) == 0;
    if (!magic) {
        if (n == EVREC_HEADER_SIZE && looks_like_damaged_header(r, p)) {
            return damaged_header(r, p);
        }
        if (n == EVREC_HEADER_SIZE && header_from_tail(r, 0)) {
            return EVREC_OK;
        }
        r->stream.container = 0;
        r->info.format = EVREC_FILE_CCORE;
        return EVREC_OK;
    }
    if (n < EVREC_HEADER_SIZE) {
        return rd_fail(r, EVREC_E_TRUNCATED, 0, "file ends after %u bytes, inside the %u-byte evrec header",
                       (unsigned)n, (unsigned)EVREC_HEADER_SIZE);
    }
    uint32_t crc = evrec_crc32c(0, p, 44);
    if (crc != rd_be32(p + 44)) {
        if (src_random_access(&r->src) && rd_chunk_good_at(r, EVREC_HEADER_SIZE)) {
            return damaged_header(r, p);
        }
        if (header_from_tail(r, 44)) {
            return EVREC_OK;
        }
        return rd_fail(r, EVREC_E_CHECKSUM, 44,
                       "header CRC-32C: stored 0x%08X, bytes 0..43 give 0x%08X (damaged header)",
                       (unsigned)rd_be32(p + 44), (unsigned)crc);
    }
    r->info.format = EVREC_FILE_CONTAINER;
    r->info.version_major = rd_be16(p + 8);
    r->info.version_minor = rd_be16(p + 10);
    if (r->info.version_major != EVREC_FORMAT_MAJOR) {
        return rd_fail(r, EVREC_E_UNSUPPORTED, 8, "container version %u.%u; this reader reads version %u.x",
                       (unsigned)r->info.version_major, (unsigned)r->info.version_minor,
                       (unsigned)EVREC_FORMAT_MAJOR);
    }
    r->info.flags = rd_be32(p + 12);
    r->info.schema_hash_stored = rd_be64(p + 16);
    r->info.recorded = rd_be64(p + 24);
    r->info.dropped = rd_be64(p + 32);
    r->info.overwritten = rd_be32(p + 40);
    uint8_t h[EVREC_HEADER_SIZE];
    src_read(&r->src, h, sizeof h);
    r->stream.container = 1;
    r->stream.seg_file_off = EVREC_HEADER_SIZE;
    r->order.mode = r->info.version_minor >= EVREC_FORMAT_MINOR_SEQ;
    r->order.known = 1; /* the first STREAM chunk is number 0 */
    rd_tail_read(r, h);
    return EVREC_OK;
}
