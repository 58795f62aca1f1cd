/* SPDX-License-Identifier: Apache-2.0 */
/* The reader's side of lanes (format/FORMAT.md section 2.3): the LANES chunk's per-lane counts
 * and the lane of each record from LANE_IDS chunks. */
#include <stdlib.h>

#include "evrec/evrec_container.h"
#include "reader_internal.h"

static uint64_t be64(const uint8_t *p)
{
    return (uint64_t)rd_be32(p) << 32 | rd_be32(p + 4);
}

void rd_lanes_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len)
{
    (void)off;
    if (r->lanes.counts || r->stream.started || len < 4) {
        return; /* a second chunk, or one after STREAM data: ignored (only counts are lost) */
    }
    uint32_t n = rd_be32(p);
    if (n == 0 || n > 255u || len < 4u + 24u * n) {
        return;
    }
    uint64_t *c = malloc(sizeof *c * 3u * n);
    if (!c) {
        return;
    }
    for (uint32_t k = 0; k < 3u * n; k++) {
        c[k] = be64(p + 4 + 8u * k);
    }
    r->lanes.counts = c;
    r->info.lanes = n;
}

void rd_lane_ids_chunk(evrec_reader_t *r, const uint8_t *p, uint32_t len)
{
    if (!r->lanes.counts || len < 8u) {
        return;
    }
    size_t n = len - 8u;
    if (n > r->lanes.cap) {
        uint8_t *b = realloc(r->lanes.ids, n);
        if (!b) {
            r->lanes.n = 0;
            return;
        }
        r->lanes.ids = b;
        r->lanes.cap = n;
    }
    memcpy(r->lanes.ids, p + 8, n);
    r->lanes.first = be64(p);
    r->lanes.n = n;
}

void rd_lanes_before_sync(evrec_reader_t *r, uint64_t sync_off, uint64_t index)
{
    r->lanes.n = 0;
    if (!r->lanes.counts || sync_off < EVREC_HEADER_SIZE + EVREC_CHUNK_HEADER_SIZE + 8u) {
        return;
    }
    /* The LANE_IDS chunk ends at sync_off and has one byte per record of the STREAM chunk after
     * the SYNC chunk (a record has at least 6 bytes), so it starts within the window below. Its
     * header word names type 7 and the length that ends it exactly there; the CRC and the first
     * index confirm it. */
    uint8_t sh[4];
    uint64_t next = sync_off + EVREC_CHUNK_HEADER_SIZE + EVREC_SYNC_SIZE;
    if (src_pread(&r->src, next, sh, 4) != 4) {
        return;
    }
    if (sh[0] == EVREC_CHUNK_SEQ &&
        src_pread(&r->src, next + EVREC_CHUNK_HEADER_SIZE + EVREC_SEQ_SIZE, sh, 4) != 4) {
        return; /* version 1.3: the STREAM chunk comes after its SEQ chunk (FORMAT.md section 2.4) */
    }
    uint64_t reach = EVREC_CHUNK_HEADER_SIZE + 8u + (rd_be32(sh) & 0xFFFFFFu) / 6u + 1u;
    uint64_t lo = sync_off - EVREC_HEADER_SIZE > reach ? sync_off - reach : EVREC_HEADER_SIZE;
    size_t win = (size_t)(sync_off - lo);
    uint8_t *b = malloc(win);
    if (!b || src_pread(&r->src, lo, b, win) != win) {
        free(b);
        return;
    }
    for (size_t i = win - EVREC_CHUNK_HEADER_SIZE - 8u + 1u; i-- > 0;) {
        uint32_t word = rd_be32(b + i);
        uint32_t len = (uint32_t)(win - i - EVREC_CHUNK_HEADER_SIZE);
        if (b[i] != EVREC_CHUNK_LANE_IDS || (word & 0xFFFFFFu) != len) {
            continue;
        }
        uint32_t crc = evrec_crc32c(evrec_crc32c(0, b + i, 4), b + i + EVREC_CHUNK_HEADER_SIZE, len);
        if (crc != rd_be32(b + i + 4) || be64(b + i + EVREC_CHUNK_HEADER_SIZE) != index) {
            continue;
        }
        rd_lane_ids_chunk(r, b + i + EVREC_CHUNK_HEADER_SIZE, len);
        break;
    }
    free(b);
}

void rd_lanes_free(evrec_reader_t *r)
{
    free(r->lanes.counts);
    free(r->lanes.ids);
    r->lanes.counts = NULL;
    r->lanes.ids = NULL;
}

evrec_status evrec_reader_lane(const evrec_reader_t *r, uint32_t k, evrec_lane_info_t *out)
{
    if (!r || !out) {
        return EVREC_E_ARG;
    }
    if (!r->lanes.counts) {
        if (k != 0) {
            return EVREC_E_ARG;
        }
        out->records = r->info.recorded;
        out->dropped = r->info.dropped;
        out->overwritten = r->info.overwritten;
        return EVREC_OK;
    }
    if (k >= r->info.lanes) {
        return EVREC_E_ARG;
    }
    out->records = r->lanes.counts[3u * k];
    out->dropped = r->lanes.counts[3u * k + 1u];
    out->overwritten = r->lanes.counts[3u * k + 2u];
    return EVREC_OK;
}
