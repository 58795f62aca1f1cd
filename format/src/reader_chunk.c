/* SPDX-License-Identifier: Apache-2.0 */
/* Chunks read at a given offset, without moving the stream (FORMAT.md sections 2 and 2.2): is an
 * intact chunk there, where is the next one, a damaged header word that the CRC-32C repairs, and
 * the SYNC chunks (parse one, find the next one). Random-access sources only, except rd_sync_parse. */
#include <stdlib.h>

#include "evrec/evrec_container.h"
#include "reader_internal.h"

/* Longest chunk payload a scan checks (the format's limit). */
#define MAX_CHUNK_LEN 0xFFFFFFu
/* Bytes scanned per read while looking for the next chunk. */
#define SCAN_WINDOW 65536u

int rd_sync_parse(rd_sync_t *s, uint64_t off, const uint8_t *p, uint32_t len)
{
    if (len < EVREC_SYNC_SIZE) {
        return 0;
    }
    s->index = rd_be64(p);
    s->t64 = rd_be64(p + 8);
    s->t64_max = rd_be64(p + 16);
    s->ticks = rd_be64(p + 24);
    s->prev32 = rd_be32(p + 32);
    s->off = off;
    return 1;
}

/* Plausible chunk header at p (8 bytes) for a chunk at `off` of a file of `size` bytes: a known
 * type, a length that fits. */
static int plausible(const uint8_t *p, uint64_t off, uint64_t size, uint32_t *len)
{
    uint8_t type = p[0];
    uint32_t n = rd_be32(p) & 0xFFFFFFu;
    if (type > EVREC_CHUNK_LAST || off + EVREC_CHUNK_HEADER_SIZE + n > size) {
        return 0;
    }
    if ((type == EVREC_CHUNK_END && n != 0) || (type == EVREC_CHUNK_STREAM && n == 0) ||
        (type == EVREC_CHUNK_SYNC && n < EVREC_SYNC_SIZE) || (type == EVREC_CHUNK_LANE_IDS && n < 8u)) {
        return 0;
    }
    *len = n;
    return 1;
}

/* CRC of the chunk at `off` with header h and payload length n, read in pieces. */
static int crc_good(evrec_reader_t *r, uint64_t off, const uint8_t *h, uint32_t n)
{
    uint8_t buf[8192];
    uint32_t crc = evrec_crc32c(0, h, 4);
    uint64_t p = off + EVREC_CHUNK_HEADER_SIZE;
    uint32_t left = n;
    while (left) {
        size_t k = left < sizeof buf ? left : sizeof buf;
        if (src_pread(&r->src, p, buf, k) != k) {
            return 0;
        }
        crc = evrec_crc32c(crc, buf, k);
        p += k;
        left -= (uint32_t)k;
    }
    return crc == rd_be32(h + 4);
}

int rd_fix_header_word(evrec_reader_t *r, uint64_t off, uint64_t q)
{
    if (q == UINT64_MAX || q < off + EVREC_CHUNK_HEADER_SIZE ||
        q - off - EVREC_CHUNK_HEADER_SIZE > MAX_CHUNK_LEN) {
        return 0;
    }
    uint8_t h[EVREC_CHUNK_HEADER_SIZE];
    if (src_pread(&r->src, off, h, sizeof h) != sizeof h) {
        return 0;
    }
    uint32_t len = (uint32_t)(q - off - EVREC_CHUNK_HEADER_SIZE);
    for (uint32_t t = 0; t <= EVREC_CHUNK_LAST; t++) {
        uint8_t w[EVREC_CHUNK_HEADER_SIZE];
        uint32_t word = t << 24 | len;
        w[0] = (uint8_t)(word >> 24);
        w[1] = (uint8_t)(word >> 16);
        w[2] = (uint8_t)(word >> 8);
        w[3] = (uint8_t)word;
        memcpy(w + 4, h + 4, 4);
        uint32_t n;
        if (!plausible(w, off, r->src.size, &n) || !crc_good(r, off, w, len)) {
            continue;
        }
        rd_damage(r, EVREC_E_CORRUPT, off, 4,
                  "chunk header word at offset %llu damaged (type %u, length %u read; the CRC-32C checks with "
                  "type %u, length %u, where the next intact chunk starts): repaired, nothing lost",
                  (unsigned long long)off, (unsigned)h[0], (unsigned)(rd_be32(h) & 0xFFFFFFu), (unsigned)t,
                  (unsigned)len);
        rd_damage_nothing_lost(r);
        r->stream.fix_pending = 1;
        r->stream.fix_off = off;
        memcpy(r->stream.fix_word, w, 4);
        return src_seek(&r->src, off) == 0;
    }
    return 0;
}

int rd_chunk_good_at(evrec_reader_t *r, uint64_t off)
{
    uint8_t h[EVREC_CHUNK_HEADER_SIZE];
    uint32_t n;
    if (src_pread(&r->src, off, h, sizeof h) != sizeof h || !plausible(h, off, r->src.size, &n)) {
        return 0;
    }
    return crc_good(r, off, h, n);
}

uint64_t rd_scan_chunk(evrec_reader_t *r, uint64_t from)
{
    if (!src_random_access(&r->src)) {
        return UINT64_MAX;
    }
    uint64_t size = r->src.size;
    uint8_t *win = malloc(SCAN_WINDOW + EVREC_CHUNK_HEADER_SIZE);
    if (!win) {
        return UINT64_MAX;
    }
    uint64_t found = UINT64_MAX;
    for (uint64_t base = from; base + EVREC_CHUNK_HEADER_SIZE <= size; base += SCAN_WINDOW) {
        size_t got = src_pread(&r->src, base, win, SCAN_WINDOW + EVREC_CHUNK_HEADER_SIZE);
        if (got < EVREC_CHUNK_HEADER_SIZE) {
            break;
        }
        size_t last = got - EVREC_CHUNK_HEADER_SIZE;
        for (size_t i = 0; i <= last && i < SCAN_WINDOW; i++) {
            uint32_t n;
            uint64_t off = base + i;
            if (!plausible(win + i, off, size, &n)) {
                continue;
            }
            /* Cheap second filter: the chunk is followed by a plausible header or ends the file. */
            uint64_t next = off + EVREC_CHUNK_HEADER_SIZE + n;
            if (next != size) {
                uint8_t h2[EVREC_CHUNK_HEADER_SIZE];
                uint32_t n2;
                if (src_pread(&r->src, next, h2, sizeof h2) != sizeof h2 || !plausible(h2, next, size, &n2)) {
                    continue;
                }
            }
            if (crc_good(r, off, win + i, n)) {
                found = off;
                goto out;
            }
        }
    }
out:
    free(win);
    return found;
}

/* The first intact SYNC chunk that starts at or after `from` and before `limit` (its header
 * word 05 00 00 24 and a CRC-32C that checks over its 36 payload bytes: a false match needs
 * both); 1 with *out filled, 0 when there is none. */
int rd_find_sync(evrec_reader_t *r, uint64_t from, uint64_t limit, rd_sync_t *out)
{
    enum { WIN = 65536, REC = EVREC_CHUNK_HEADER_SIZE + EVREC_SYNC_SIZE };
    static const uint8_t word[4] = {EVREC_CHUNK_SYNC, 0, 0, EVREC_SYNC_SIZE};
    uint8_t *win = malloc(WIN + REC);
    if (!win) {
        return 0;
    }
    int found = 0;
    for (uint64_t base = from; base < limit && !found; base += WIN) {
        size_t got = src_pread(&r->src, base, win, WIN + REC);
        if (got < REC) {
            break;
        }
        for (size_t i = 0; i + REC <= got && i < WIN && base + i < limit; i++) {
            if (win[i] != word[0] || memcmp(win + i, word, 4) != 0) {
                continue;
            }
            const uint8_t *c = win + i;
            uint32_t crc = evrec_crc32c(evrec_crc32c(0, c, 4), c + EVREC_CHUNK_HEADER_SIZE, EVREC_SYNC_SIZE);
            if (crc == rd_be32(c + 4) &&
                rd_sync_parse(out, base + i, c + EVREC_CHUNK_HEADER_SIZE, EVREC_SYNC_SIZE)) {
                out->crc = crc;
                found = 1;
                break;
            }
        }
    }
    free(win);
    return found;
}
