/* SPDX-License-Identifier: Apache-2.0 */
/* The seek index (FORMAT.md section 2.5): the INDEX chunk, found back from the end of a
 * random-access file, loaded at the first seek, and never trusted over the records: every entry a
 * seek uses is checked against the SYNC chunk at its offset. A damaged or lying index is reported
 * (a warning: no record is lost, so not damage) and dropped; the seek then bisects over the file (section 2.2). */
#include <stdarg.h>
#include <stdlib.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_reader_seek.h"
#include "reader_internal.h"

/* Most entries a reader accepts (the writers' tables are smaller). */
#define MAX_ENTRIES 65536u

void rd_index_free(evrec_reader_t *r)
{
    free(r->index.e);
    r->index.e = NULL;
    r->index.count = 0;
}

/* An index problem: kept (the first one) for evrec_reader_index_warning(); never damage, since no
 * record is lost. */
static void warn(evrec_reader_t *r, evrec_status st, uint64_t off, const char *fmt, ...)
{
    evrec_reader_error_t *w = &r->index.warning;
    if (w->status != EVREC_OK) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->message, sizeof w->message, fmt, ap);
    va_end(ap);
    w->status = st;
    w->offset = off;
}

const evrec_reader_error_t *evrec_reader_index_warning(const evrec_reader_t *r)
{
    return r && r->index.warning.status != EVREC_OK ? &r->index.warning : NULL;
}

static void drop(evrec_reader_t *r)
{
    rd_index_free(r);
    r->index.state = -1;
}

/* Where an INDEX chunk ends when there is one: at the copies (the TAIL chunk says where), else
 * at the END chunk that ends the file. 0: no place. */
static uint64_t index_end(evrec_reader_t *r)
{
    static const uint8_t end[8] = {0, 0, 0, 0, 0x48, 0x67, 0x4B, 0xC7};
    uint8_t b[8];
    if (r->order.tail.ok) {
        return r->order.tail.copy_off;
    }
    if (r->src.size >= EVREC_HEADER_SIZE + 8u && src_pread(&r->src, r->src.size - 8u, b, 8) == 8 &&
        memcmp(b, end, 8) == 0) {
        return r->src.size - 8u;
    }
    return 0;
}

/* The payload (`len` bytes at `off` + 8, CRC good) into r->index; 0 with damage reported when its
 * contents contradict the format. */
static int parse(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len)
{
    uint32_t n = rd_be32(p + 4);
    if (n == 0 || (uint64_t)n * EVREC_INDEX_ENTRY + EVREC_INDEX_HEAD + EVREC_INDEX_TRAILER != len) {
        warn(r, EVREC_E_CORRUPT, off,
             "INDEX chunk at offset %llu: %u entries do not fill its %u payload bytes; the index is "
             "ignored, a seek searches the file",
             (unsigned long long)off, (unsigned)n, (unsigned)len);
        return 0;
    }
    r->index.e = malloc((size_t)n * sizeof *r->index.e);
    if (!r->index.e) {
        return 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *q = p + EVREC_INDEX_HEAD + (size_t)i * EVREC_INDEX_ENTRY;
        evrec_index_entry_t *e = &r->index.e[i];
        e->offset = rd_be64(q);
        e->index = rd_be64(q + 8);
        e->t64 = rd_be64(q + 16);
        e->t64_max = rd_be64(q + 24);
        const evrec_index_entry_t *prev = i ? e - 1 : NULL;
        if (e->offset < EVREC_HEADER_SIZE || e->offset + EVREC_CHUNK_HEADER_SIZE + EVREC_SYNC_SIZE > off ||
            (prev && (e->offset <= prev->offset || e->index < prev->index || e->t64_max < prev->t64_max))) {
            warn(r, EVREC_E_CORRUPT, off,
                 "INDEX chunk at offset %llu: entry %u (offset %llu, index %llu) is out of order or "
                 "outside the stream; the index is ignored, a seek searches the file",
                 (unsigned long long)off, (unsigned)i, (unsigned long long)e->offset,
                 (unsigned long long)e->index);
            return 0;
        }
    }
    r->index.count = n;
    r->index.stride = rd_be32(p);
    return 1;
}

/* Reads the chunk at `off` with payload length `len` (its header word checked); 1 when loaded. */
static int load_at(evrec_reader_t *r, uint64_t off, uint32_t len)
{
    uint8_t *p = malloc(EVREC_CHUNK_HEADER_SIZE + (size_t)len);
    if (!p || src_pread(&r->src, off, p, EVREC_CHUNK_HEADER_SIZE + (size_t)len) != EVREC_CHUNK_HEADER_SIZE + len) {
        free(p);
        return 0;
    }
    const uint8_t *pl = p + EVREC_CHUNK_HEADER_SIZE;
    uint32_t crc = evrec_crc32c(evrec_crc32c(0, p, 4), pl, len), stored = rd_be32(p + 4);
    int ok = 0;
    if (crc != stored) {
        warn(r, EVREC_E_CHECKSUM, off,
             "INDEX chunk at offset %llu (%u payload bytes): stored CRC-32C 0x%08X, the bytes give "
             "0x%08X; the index is ignored, a seek searches the file",
             (unsigned long long)off, (unsigned)len, (unsigned)stored, (unsigned)crc);
    } else {
        ok = parse(r, off, pl, len);
    }
    free(p);
    return ok;
}

/* Finds and loads the INDEX chunk once: its payload's last 4 bytes repeat its length, so it is
 * found back from where it ends. 1 when r->index holds it. */
static int load(evrec_reader_t *r)
{
    if (r->index.state != 0) {
        return r->index.state > 0;
    }
    r->index.state = -1;
    uint64_t end = index_end(r);
    uint8_t b[4];
    if (end < EVREC_HEADER_SIZE + EVREC_CHUNK_HEADER_SIZE + 4u || src_pread(&r->src, end - 4u, b, 4) != 4) {
        return 0;
    }
    uint32_t len = rd_be32(b);
    uint64_t max = EVREC_INDEX_HEAD + (uint64_t)MAX_ENTRIES * EVREC_INDEX_ENTRY + EVREC_INDEX_TRAILER;
    if (len < EVREC_INDEX_HEAD + EVREC_INDEX_TRAILER || len > max ||
        end - EVREC_HEADER_SIZE < EVREC_CHUNK_HEADER_SIZE + (uint64_t)len) {
        return 0; /* no INDEX chunk there (an older file) */
    }
    uint64_t off = end - EVREC_CHUNK_HEADER_SIZE - len;
    if (src_pread(&r->src, off, b, 4) != 4 || rd_be32(b) != ((uint32_t)EVREC_CHUNK_INDEX << 24 | len)) {
        return 0;
    }
    r->index.off = off;
    if (!load_at(r, off, len)) {
        drop(r);
        return 0;
    }
    r->index.state = 1;
    return 1;
}

/* Entry i checked against the SYNC chunk at its offset (header word, CRC, index, t64, t64_max);
 * 1 with *s filled, else damage reported and the index dropped. */
static int verify(evrec_reader_t *r, uint32_t i, rd_sync_t *s)
{
    const evrec_index_entry_t *e = &r->index.e[i];
    uint8_t c[EVREC_CHUNK_HEADER_SIZE + EVREC_SYNC_SIZE];
    const char *why = NULL;
    if (src_pread(&r->src, e->offset, c, sizeof c) != sizeof c ||
        rd_be32(c) != ((uint32_t)EVREC_CHUNK_SYNC << 24 | EVREC_SYNC_SIZE)) {
        why = "no SYNC chunk there";
    } else if (evrec_crc32c(evrec_crc32c(0, c, 4), c + EVREC_CHUNK_HEADER_SIZE, EVREC_SYNC_SIZE) !=
               rd_be32(c + 4)) {
        why = "the SYNC chunk there fails its CRC-32C";
    } else if (!rd_sync_parse(s, e->offset, c + EVREC_CHUNK_HEADER_SIZE, EVREC_SYNC_SIZE) ||
               s->index != e->index || s->t64 != e->t64 || s->t64_max != e->t64_max) {
        why = "the SYNC chunk there has another index or time";
    }
    if (why) {
        warn(r, EVREC_E_CORRUPT, r->index.off,
             "INDEX chunk at offset %llu: entry %u names a SYNC chunk at offset %llu (index %llu, t64 %llu) "
             "but %s; the index is ignored, a seek searches the file",
             (unsigned long long)r->index.off, (unsigned)i, (unsigned long long)e->offset,
             (unsigned long long)e->index, (unsigned long long)e->t64, why);
        drop(r);
        return 0;
    }
    s->crc = rd_be32(c + 4);
    return 1;
}

static int qualifies(const evrec_index_entry_t *e, uint64_t min_index, uint64_t min_t64)
{
    return e->index <= min_index || e->t64_max < min_t64;
}

void rd_index_bounds(evrec_reader_t *r, uint64_t min_index, uint64_t min_t64, uint64_t *a, uint64_t *b,
                     rd_sync_t *best, int *have)
{
    if (!load(r)) {
        return;
    }
    /* k: entries [0, k) qualify (both keys grow along the file). */
    uint32_t lo = 0, hi = r->index.count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (qualifies(&r->index.e[mid], min_index, min_t64)) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    rd_sync_t s_lo, s_hi;
    int use_lo = lo > 0 && r->index.e[lo - 1u].offset >= *a;
    int use_hi = lo < r->index.count && r->index.e[lo].offset > *a;
    if ((use_lo && !verify(r, lo - 1u, &s_lo)) || (use_hi && !verify(r, lo, &s_hi))) {
        return; /* reported; the bounds stay */
    }
    if (use_lo) {
        *best = s_lo;
        *have = 1;
        *a = s_lo.off + 1u;
    }
    if (use_hi && s_hi.off < *b) {
        *b = s_hi.off;
    } else if (!use_hi && lo == r->index.count && r->index.off < *b) {
        *b = r->index.off; /* no SYNC chunk after the index's place */
    }
}

evrec_status evrec_reader_index_check(evrec_reader_t *r, evrec_index_info_t *info)
{
    if (!r || !info || !r->opened) {
        return EVREC_E_ARG;
    }
    memset(info, 0, sizeof *info);
    if (!r->stream.container || !src_random_access(&r->src)) {
        return EVREC_E_END;
    }
    r->index.warning.status = EVREC_OK;
    r->index.state = 0; /* look again: a check always reads the chunk */
    rd_index_free(r);
    int ok = load(r);
    info->offset = r->index.off;
    info->entries = r->index.count;
    info->stride = r->index.stride;
    for (uint32_t i = 0; ok && i < r->index.count; i++) {
        rd_sync_t s;
        ok = verify(r, i, &s);
    }
    if (ok) {
        return EVREC_OK;
    }
    return r->index.warning.status != EVREC_OK ? r->index.warning.status : EVREC_E_END;
}
