/* SPDX-License-Identifier: Apache-2.0 */
/* One pass over the records: counts per event type, ticks, first/last time, damage. */
#include <stdlib.h>

#include "reader_internal.h"

evrec_status evrec_reader_summarize(evrec_reader_t *r, evrec_reader_summary_t *s)
{
    if (!r || !s) {
        return EVREC_E_ARG;
    }
    memset(s, 0, sizeof *s);
    if (r->tables.have_meta) {
        if (!r->event_counts) {
            r->event_counts = calloc(r->tables.meta.event_count, sizeof *r->event_counts);
            if (!r->event_counts) {
                return EVREC_E_NOMEM;
            }
        }
        s->event_count = r->tables.meta.event_count;
        s->event_counts = r->event_counts;
    }
    evrec_record_t rec;
    evrec_status st;
    int saved = r->time.no_prepass;
    r->time.no_prepass = 1; /* the ticks of this very pass give the frequency if needed */
    while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        if (s->records == 0) {
            s->first_time32 = rec.time32;
        }
        s->records++;
        s->unverified += rec.unverified != 0;
        s->last_time32 = rec.time32;
        s->last_t64 = rec.t64;
        r->event_counts[rec.id]++;
    }
    r->time.no_prepass = saved;
    if (r->opened) {
        rd_resolve_freq_from_own_ticks(r);
    }
    s->ticks = r->iter.ticks;
    s->time_freq = r->time.freq;
    s->time_source = r->time.source;
    s->last_ns = evrec_ticks_to_ns(s->last_t64, r->time.freq);
    s->end_seen = st == EVREC_E_END;
    if (st != EVREC_E_END) {
        s->damage = r->errs.first;
    }
    return EVREC_OK;
}
