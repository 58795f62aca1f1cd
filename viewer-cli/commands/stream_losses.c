/* SPDX-License-Identifier: Apache-2.0 */
/* The losses of a recording made from a stream in `evrec info` and `evrec stats` text (FORMAT.md
 * section 8.4): records the target dropped (its buffer full), records lost in transport, damaged
 * input bytes, each told apart; a lossy recording says so on the first line. */
#include <stdio.h>

#include "stream_losses.h"

int cli_losses_lossy(const evrec_reader_t *r)
{
    const evrec_stream_losses_t *l = evrec_reader_stream_losses(r);
    return l && (!l->final || l->lost || l->damaged_bytes);
}

/* Sums over the lanes: the target's drops and the records lost in transport. */
static void sums(const evrec_stream_losses_t *l, uint64_t *dropped, uint64_t *lost)
{
    *dropped = *lost = 0;
    for (uint32_t k = 0; k < l->lanes; k++) {
        *dropped += l->lane[k].dropped;
        *lost += l->lane[k].lost_transport;
    }
}

void cli_losses_headline(const evrec_reader_t *r)
{
    if (!cli_losses_lossy(r)) {
        return;
    }
    const evrec_stream_losses_t *l = evrec_reader_stream_losses(r);
    if (!l->final) {
        printf("LOSSY?       losses unknown: the recorder did not finish this file (killed, or written to a "
               "pipe)\n");
        return;
    }
    uint64_t dropped, lost;
    sums(l, &dropped, &lost);
    printf("LOSSY:       %s%llu records lost: %llu dropped by the target (buffer full), %s%llu lost in "
           "transport; %llu damaged input bytes\n",
           l->ended ? "" : "at least ", (unsigned long long)(dropped + lost), (unsigned long long)dropped,
           l->ended ? "" : "at least ", (unsigned long long)lost, (unsigned long long)l->damaged_bytes);
}

/* One line per lane that lost something. */
static void lane_lines(const evrec_stream_losses_t *l, const char **label)
{
    for (uint32_t k = 0; k < l->lanes; k++) {
        const evrec_lane_losses_t *x = &l->lane[k];
        if (!x->dropped && !x->lost_transport) {
            continue;
        }
        printf("%s lane %u: %llu dropped by the target (buffer full) at %llu place(s); %s%llu lost in transport "
               "in %llu gap(s) (at least %llu frame(s))\n",
               *label, (unsigned)k, (unsigned long long)x->dropped, (unsigned long long)x->drop_places,
               l->ended ? "" : "at least ", (unsigned long long)x->lost_transport,
               (unsigned long long)x->transport_gaps, (unsigned long long)x->transport_gaps);
        *label = "            ";
    }
}

void cli_losses_detail(const evrec_reader_t *r)
{
    const evrec_stream_losses_t *l = evrec_reader_stream_losses(r);
    if (!l) {
        return;
    }
    if (!l->final) {
        printf("losses:      unknown (the file was made from a stream and not finished: its recorder was killed "
               "or wrote to a pipe)\n");
        return;
    }
    if (!l->lost && !l->damaged_bytes) {
        printf("losses:      none (made from a stream%s)\n",
               l->ended ? ": every record sent was received" : "; its end was not received");
        return;
    }
    const char *label = "losses:     ";
    lane_lines(l, &label);
    if (l->damaged_ranges) {
        printf("%s input: %llu damaged range(s), %llu bytes in no intact frame", label,
               (unsigned long long)l->damaged_ranges, (unsigned long long)l->damaged_bytes);
        for (uint32_t i = 0; i < l->listed && i < 5u; i++) {
            printf("%s %llu+%llu", i ? "," : ":", (unsigned long long)l->range[i].offset,
                   (unsigned long long)l->range[i].bytes);
        }
        printf("%s\n", l->damaged_ranges > 5u ? ", ..." : "");
        label = "            ";
    }
    printf("%s %s\n", label,
           l->ended
               ? "exact: the stream's end was received"
               : "lower bounds: the stream's end was not received (frames after the last one are not counted)");
}
