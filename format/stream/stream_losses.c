/* SPDX-License-Identifier: Apache-2.0 */
/* The LOSSES chunk of a file written from a stream (FORMAT.md section 8.4): what the receiver
 * counted, per lane (records the target dropped, records lost in transport) and for the input
 * (damaged byte ranges), so that a file tells these apart. */
#include <string.h>

#include "stream_internal.h"

void evrec_srx_losses(const struct evrec_srx *rx, const evrec_srx_stats_t *base, uint32_t flags,
                      uint8_t out[SRX_LOSSES_SIZE])
{
    static const evrec_srx_stats_t zero;
    memset(out, 0, SRX_LOSSES_SIZE);
    const evrec_srx_stats_t *st = rx ? &rx->st : NULL;
    const evrec_srx_stats_t *b = base ? base : &zero;
    if (st && st->ended) {
        flags |= EVREC_LOSSES_ENDED;
    }
    srx_put32(out, flags);
    srx_put32(out + 4, EVREC_SRX_LANES);
    srx_put32(out + 8, SRX_DAMAGE_LIST);
    if (!st) {
        return;
    }
    /* The ranges since the base that the receiver's list holds (it keeps the input's first ones). */
    uint64_t first = b->damaged_ranges,
             kept = st->damaged_ranges < SRX_DAMAGE_LIST ? st->damaged_ranges : SRX_DAMAGE_LIST;
    uint64_t listed = kept > first ? kept - first : 0;
    srx_put32(out + 12, (uint32_t)listed);
    srx_put64(out + 16, st->damaged_bytes - b->damaged_bytes);
    srx_put64(out + 24, st->damaged_ranges - b->damaged_ranges);
    uint8_t *q = out + EVREC_LOSSES_HEAD;
    for (unsigned k = 0; k < EVREC_SRX_LANES; k++, q += EVREC_LOSSES_LANE) {
        const evrec_srx_lane_t *ln = &st->lane[k], *bl = &b->lane[k];
        srx_put64(q, ln->dropped - bl->dropped);
        srx_put64(q + 8, ln->drop_places - bl->drop_places);
        srx_put64(q + 16, ln->lost_transport - bl->lost_transport);
        srx_put64(q + 24, ln->transport_gaps - bl->transport_gaps);
    }
    for (uint64_t i = first; i < first + listed; i++, q += EVREC_LOSSES_RANGE) {
        srx_put64(q, rx->dmg_list[i][0]);
        srx_put64(q + 8, rx->dmg_list[i][1]);
    }
}
