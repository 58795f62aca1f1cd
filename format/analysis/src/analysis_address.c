/* SPDX-License-Identifier: Apache-2.0 */
/* The most frequent values of address fields (`format: address`, and the catalogue's
 * IntControl.caller), for symbolisation by the caller. */
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"

static int is_address(const evrec_meta_t *m, uint16_t struct_id, uint32_t index)
{
    const evrec_field_info_table_t *fi = m->field_info;
    for (uint32_t i = 0; fi && fi->entries && i < fi->count; i++) {
        const evrec_field_info_t *e = &fi->entries[i];
        if (e->struct_id == struct_id && e->field_index == index) {
            return e->display == EVREC_DISPLAY_ADDRESS;
        }
    }
    return 0;
}

evrec_status an_addr_create(evrec_stats_t *s)
{
    const evrec_meta_t *m = s->m;
    s->addr_first = calloc((size_t)s->event_count + 1, sizeof *s->addr_first);
    if (!s->addr_first) {
        return EVREC_E_NOMEM;
    }
    uint32_t cap = 0;
    for (uint32_t id = 0; id < s->event_count; id++) {
        s->addr_first[id] = s->addr_count;
        uint16_t sid = m->events[id].struct_id;
        if (sid >= m->struct_count) {
            continue;
        }
        const evrec_struct_desc_t *sd = &m->structs[sid];
        for (uint32_t i = 2; i < sd->field_count; i++) {
            an_field_t f;
            int caller = s->roles[id].role == AN_INT_CONTROL && strcmp(sd->fields[i].name, "caller") == 0;
            if (!(caller || is_address(m, sid, i)) || !an_field_at(m, sd, i, &f)) {
                continue;
            }
            if (an_grow((void **)&s->addr, &cap, s->addr_count, sizeof *s->addr) != 0) {
                return EVREC_E_NOMEM;
            }
            uint32_t cap2 = cap;
            void *acc = realloc(s->addr_acc, (size_t)cap2 * sizeof *s->addr_acc);
            if (!acc) {
                return EVREC_E_NOMEM;
            }
            s->addr_acc = acc;
            memset(&s->addr_acc[s->addr_count], 0, sizeof *s->addr_acc);
            evrec_stats_address_t *a = &s->addr[s->addr_count];
            a->event_id = (uint16_t)id;
            a->field_index = i;
            a->field = sd->fields[i].name;
            s->addr_acc[s->addr_count].field = f;
            s->addr_count++;
        }
    }
    s->addr_first[s->event_count] = s->addr_count;
    return EVREC_OK;
}

evrec_status an_addr_record(evrec_stats_t *s, const evrec_record_t *rec)
{
    for (uint32_t i = s->addr_first[rec->id]; i < s->addr_first[rec->id + 1]; i++) {
        an_addr_t *acc = &s->addr_acc[i];
        evrec_stats_address_t *a = &s->addr[i];
        uint32_t v = an_field_value(&acc->field, rec);
        a->records++;
        uint32_t k = an_map_get(&acc->map, v);
        if (k == UINT32_MAX) {
            uint32_t cap = acc->cap;
            if (an_grow((void **)&acc->counts, &cap, a->distinct, sizeof *acc->counts) != 0) {
                return EVREC_E_NOMEM;
            }
            uint32_t cap2 = acc->cap;
            if (an_grow((void **)&acc->values, &cap2, a->distinct, sizeof *acc->values) != 0) {
                return EVREC_E_NOMEM;
            }
            acc->cap = cap < cap2 ? cap : cap2;
            if (an_map_put(&acc->map, v, a->distinct) != 0) {
                return EVREC_E_NOMEM;
            }
            k = a->distinct++;
            acc->values[k] = v;
            acc->counts[k] = 0;
        }
        acc->counts[k]++;
    }
    return EVREC_OK;
}

static int better(uint64_t ca, uint32_t va, uint64_t cb, uint32_t vb)
{
    return ca > cb || (ca == cb && va < vb);
}

void an_addr_finish(evrec_stats_t *s)
{
    for (uint32_t i = 0; i < s->addr_count; i++) {
        an_addr_t *acc = &s->addr_acc[i];
        evrec_stats_address_t *a = &s->addr[i];
        a->top_count = 0;
        /* Insertion into a short sorted list: O(distinct x TOP). */
        for (uint32_t k = 0; k < a->distinct; k++) {
            uint64_t c = acc->counts[k];
            uint32_t v = acc->values[k];
            uint32_t pos = a->top_count;
            while (pos > 0 && better(c, v, a->top[pos - 1].count, a->top[pos - 1].value)) {
                pos--;
            }
            if (pos >= EVREC_STATS_ADDRESS_TOP) {
                continue;
            }
            uint32_t last = a->top_count < EVREC_STATS_ADDRESS_TOP ? a->top_count : EVREC_STATS_ADDRESS_TOP - 1;
            memmove(&a->top[pos + 1], &a->top[pos], (size_t)(last - pos) * sizeof a->top[0]);
            a->top[pos] = (evrec_stats_address_value_t){v, c};
            if (a->top_count < EVREC_STATS_ADDRESS_TOP) {
                a->top_count++;
            }
        }
    }
}

void an_addr_free(evrec_stats_t *s)
{
    for (uint32_t i = 0; s->addr_acc && i < s->addr_count; i++) {
        free(s->addr_acc[i].counts);
        free(s->addr_acc[i].values);
        an_map_free(&s->addr_acc[i].map);
    }
    free(s->addr_acc);
    free(s->addr);
    free(s->addr_first);
}
