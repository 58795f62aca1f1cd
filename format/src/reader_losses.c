/* SPDX-License-Identifier: Apache-2.0 */
/* The LOSSES chunk (FORMAT.md section 8.4): what a recording made from a stream lost, per lane
 * (records the target dropped, records lost in transport) and in its input (damaged ranges).
 * Display-only: a bad chunk is a damaged range that lost no record. */
#include <stdlib.h>

#include "evrec/evrec_container.h"
#include "reader_internal.h"

/* Checks the counts against the chunk's bytes; NULL when they fit, else what was expected. */
static const char *losses_shape(const uint8_t *p, uint32_t len)
{
    if (len < EVREC_LOSSES_HEAD) {
        return "at least 32 bytes";
    }
    uint64_t lanes = rd_be32(p + 4), slots = rd_be32(p + 8), listed = rd_be32(p + 12);
    if (lanes > 256u) {
        return "at most 256 lanes";
    }
    if (listed > slots) {
        return "listed ranges <= range slots";
    }
    if ((uint64_t)len != EVREC_LOSSES_HEAD + lanes * EVREC_LOSSES_LANE + slots * EVREC_LOSSES_RANGE) {
        return "a length of 32 + 32 x lanes + 16 x range slots bytes";
    }
    return NULL;
}

/* a + b, at most UINT64_MAX: counts that a file merely claims never wrap to "nothing lost". */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

/* The chunk's counts into r->losses (its arrays made for them). */
static void fill(rd_losses_t *rl, const uint8_t *p)
{
    evrec_stream_losses_t *l = &rl->pub;
    l->final = (rd_be32(p) & EVREC_LOSSES_FINAL) != 0;
    l->ended = (rd_be32(p) & EVREC_LOSSES_ENDED) != 0;
    l->damaged_bytes = rd_be64(p + 16);
    l->damaged_ranges = rd_be64(p + 24);
    const uint8_t *q = p + EVREC_LOSSES_HEAD;
    for (uint32_t k = 0; k < l->lanes; k++, q += EVREC_LOSSES_LANE) {
        evrec_lane_losses_t *ln = &rl->lane[k];
        ln->dropped = rd_be64(q);
        ln->drop_places = rd_be64(q + 8);
        ln->lost_transport = rd_be64(q + 16);
        ln->transport_gaps = rd_be64(q + 24);
        l->lost = sat_add(sat_add(l->lost, ln->dropped), ln->lost_transport);
    }
    for (uint32_t i = 0; i < l->listed; i++, q += EVREC_LOSSES_RANGE) {
        rl->range[i].offset = rd_be64(q);
        rl->range[i].bytes = rd_be64(q + 8);
    }
    l->lane = rl->lane;
    l->range = rl->range;
}

void rd_losses_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len)
{
    if (r->losses.have) {
        return; /* the first one counts (a writer writes one) */
    }
    const char *want = losses_shape(p, len);
    if (want) {
        rd_damage(r, EVREC_E_CORRUPT, off, EVREC_CHUNK_HEADER_SIZE + (uint64_t)len,
                  "LOSSES chunk at offset %llu: %u bytes do not fit its counts (expected %s); what the stream "
                  "lost is not known, every record is read",
                  (unsigned long long)off, (unsigned)len, want);
        rd_damage_nothing_lost(r);
        return;
    }
    uint32_t lanes = rd_be32(p + 4), listed = rd_be32(p + 12); /* bounded by len (checked) */
    r->losses.lane = calloc(lanes ? lanes : 1u, sizeof *r->losses.lane);
    r->losses.range = calloc(listed ? listed : 1u, sizeof *r->losses.range);
    if (!r->losses.lane || !r->losses.range) {
        rd_losses_free(r);
        return; /* out of memory: shown as no LOSSES chunk */
    }
    memset(&r->losses.pub, 0, sizeof r->losses.pub);
    r->losses.pub.lanes = lanes;
    r->losses.pub.listed = listed;
    fill(&r->losses, p);
    r->losses.have = 1;
}

void rd_losses_free(evrec_reader_t *r)
{
    free(r->losses.lane);
    free(r->losses.range);
    r->losses.lane = NULL;
    r->losses.range = NULL;
    r->losses.have = 0;
}

const evrec_stream_losses_t *evrec_reader_stream_losses(const evrec_reader_t *r)
{
    return r && r->losses.have ? &r->losses.pub : NULL;
}
