/* SPDX-License-Identifier: Apache-2.0 */
/* Interrupt-disabled spans (the ThreadX logger's IntControl types 7/8/39/40) and waits on
 * synchronisation objects (CCore TaskEvent-style Block/Unblock/Timeout); see
 * ports/rtos/README.md. */
#include <string.h>

#include "analysis_internal.h"

static evrec_status close_span(evrec_stats_t *s, uint64_t t, uint32_t restore_caller)
{
    uint64_t len = t > s->span_start ? t - s->span_start : 0;
    if (s->span_open_start) {
        /* Began before the trace (or after a lost record): a lower bound, not ranked. */
        if (!s->rt.int_open_at_start) {
            s->rt.int_open_at_start = 1;
            s->rt.int_open_start_ticks = len;
        }
        return EVREC_OK;
    }
    s->rt.int_spans++;
    s->rt.int_ticks += len;
    if (s->rt.int_spans == 1 || len > s->rt.longest.ticks) {
        s->rt.longest = (evrec_stats_int_span_t){len, s->span_start, s->span_caller, restore_caller};
    }
    uint32_t idx = an_map_get(&s->site_map, s->span_caller);
    if (idx == UINT32_MAX) {
        if (an_grow((void **)&s->sites, &s->sites_cap, s->rt.int_site_count, sizeof *s->sites) != 0 ||
            an_map_put(&s->site_map, s->span_caller, s->rt.int_site_count) != 0) {
            return EVREC_E_NOMEM;
        }
        idx = s->rt.int_site_count++;
        s->sites[idx].caller = s->span_caller;
    }
    evrec_stats_int_site_t *site = &s->sites[idx];
    site->count++;
    site->total_ticks += len;
    if (len > site->max_ticks) {
        site->max_ticks = len;
    }
    return EVREC_OK;
}

evrec_status an_int_record(evrec_stats_t *s, const an_event_t *e, const evrec_record_t *rec, uint64_t t)
{
    uint32_t type = an_field_value(&e->type, rec);
    uint32_t caller = an_field_value(&e->caller, rec);
    evrec_status st = EVREC_OK;
    switch (type) {
    case AN_INT_DISABLE: /* they were enabled: a span starts */
        if (s->int_state == AN_INT_DISABLED) {
            an_anomaly(s, t, "IntControl Disable (were enabled) while interrupts were disabled since 0x%08x",
                       (unsigned)s->span_caller);
        }
        s->int_state = AN_INT_DISABLED;
        s->span_start = t;
        s->span_caller = caller;
        s->span_open_start = 0;
        break;
    case AN_INT_DISABLE_NESTED: /* they were disabled already */
        if (s->int_state == AN_INT_UNKNOWN) {
            s->int_state = AN_INT_DISABLED;
            s->span_start = s->sum.first_t64;
            s->span_caller = 0;
            s->span_open_start = 1;
        } else if (s->int_state == AN_INT_ENABLED) {
            an_anomaly(s, t, "IntControl DisableNested (were disabled) while interrupts were enabled");
            s->int_state = AN_INT_DISABLED;
            s->span_start = t;
            s->span_caller = caller;
            s->span_open_start = 1; /* its true start is lost */
        }
        break;
    case AN_INT_RESTORE: /* to enabled; they were enabled */
        if (s->int_state == AN_INT_DISABLED) {
            an_anomaly(s, t, "IntControl Restore (were enabled) while interrupts were disabled since 0x%08x",
                       (unsigned)s->span_caller);
        }
        s->int_state = AN_INT_ENABLED;
        break;
    case AN_INT_RESTORE_ENABLE: /* to enabled; they were disabled: the span ends */
        if (s->int_state == AN_INT_DISABLED) {
            st = close_span(s, t, caller);
        } else if (s->int_state == AN_INT_UNKNOWN) {
            s->span_start = s->sum.first_t64;
            s->span_open_start = 1;
            st = close_span(s, t, caller);
        } else {
            an_anomaly(s, t, "IntControl RestoreEnable (were disabled) while interrupts were enabled");
        }
        s->int_state = AN_INT_ENABLED;
        break;
    default: break; /* a value the catalogue does not define */
    }
    return st;
}

void an_int_finish(evrec_stats_t *s)
{
    if (s->int_state == AN_INT_DISABLED) {
        s->rt.int_open_at_end = 1;
        s->rt.int_open_end_ticks = s->sum.last_t64 > s->span_start ? s->sum.last_t64 - s->span_start : 0;
        s->rt.int_open_end_caller = s->span_caller;
    }
}

evrec_status an_sync_record(evrec_stats_t *s, const an_event_t *e, const evrec_record_t *rec, uint64_t t)
{
    uint32_t task = an_field_value(&e->task, rec);
    uint32_t object = an_field_value(&e->object, rec);
    uint32_t type = an_field_value(&e->type, rec);
    uint64_t key = (uint64_t)rec->id << 32 | object;
    uint32_t idx = an_map_get(&s->sync_map, key);
    if (idx == UINT32_MAX) {
        if (an_grow((void **)&s->sync, &s->sync_cap, s->rt.sync_count, sizeof *s->sync) != 0 ||
            an_map_put(&s->sync_map, key, s->rt.sync_count) != 0) {
            return EVREC_E_NOMEM;
        }
        idx = s->rt.sync_count++;
        evrec_stats_sync_t *o = &s->sync[idx];
        memset(o, 0, sizeof *o);
        o->event_id = rec->id;
        o->object = object;
        o->name = e->object.is_enum ? evrec_reader_enum_value(s->r, e->object.enum_id, object, NULL) : NULL;
    }
    evrec_stats_sync_t *o = &s->sync[idx];
    o->ops++;
    if (type < EVREC_STATS_SYNC_TYPES) {
        o->by_type[type]++;
    }
    if (type == e->block_v) {
        o->blocks++;
        uint32_t w = an_map_get(&s->wait_map, task);
        if (w == UINT32_MAX) {
            if (an_grow((void **)&s->waits, &s->waits_cap, s->waits_count, sizeof *s->waits) != 0 ||
                an_map_put(&s->wait_map, task, s->waits_count) != 0) {
                return EVREC_E_NOMEM;
            }
            w = s->waits_count++;
        }
        s->waits[w] = (an_wait_t){task, idx, t};
    } else if (type == e->unblock_v || type == e->timeout_v) {
        if (type == e->timeout_v) {
            o->timeouts++;
        }
        uint32_t w = an_map_get(&s->wait_map, task);
        if (w != UINT32_MAX && s->waits[w].sync == idx) {
            uint64_t len = t > s->waits[w].start ? t - s->waits[w].start : 0;
            o->waits++;
            o->wait_ticks += len;
            if (o->waits == 1 || len > o->wait_max) {
                o->wait_max = len;
                o->wait_max_task = task;
                o->wait_max_task_name = e->task.is_enum
                                            ? evrec_reader_enum_value(s->r, e->task.enum_id, task, NULL)
                                            : NULL;
            }
            /* Free the slot: move the last wait into it. */
            an_map_del(&s->wait_map, task);
            s->waits_count--;
            if (w != s->waits_count) {
                s->waits[w] = s->waits[s->waits_count];
                an_map_put(&s->wait_map, s->waits[w].task, w); /* replaces a key: cannot fail */
            }
        }
    }
    return EVREC_OK;
}

void an_sync_finish(evrec_stats_t *s)
{
    s->rt.still_blocked = s->waits_count;
}
