/* SPDX-License-Identifier: Apache-2.0 */
/* Run-time enum names (CCore EventEnumValue): the RUNTIME_ENUMS chunk (FORMAT.md section 2) is kept
 * as ranges until the meta-info is read, then attached to the enums it names. */
#include <stdlib.h>

#include "evrec/evrec_container.h"
#include "reader_internal.h"

evrec_status rd_runtime_ranges_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len)
{
    if (r->tables.rt_ranges) {
        /* written twice, or another recording's (FORMAT.md section 2, "Chunks out of place"): which
         * names are right is not known, so none are used; a record is never lost for them */
        rd_damage(r, EVREC_E_CORRUPT, off, EVREC_CHUNK_HEADER_SIZE + (uint64_t)len,
                  "a second RUNTIME_ENUMS chunk at offset %llu (expected at most one): the run-time enum names "
                  "are not used, every record is read",
                  (unsigned long long)off);
        rd_damage_nothing_lost(r);
        r->tables.rt_count = 0;
        return EVREC_OK;
    }
    uint32_t count = len >= 4 ? rd_be32(p) : 0;
    if (len < 4 || (uint64_t)len != 4u + 12u * (uint64_t)count) {
        return rd_fail(r, EVREC_E_CORRUPT, off,
                       "RUNTIME_ENUMS chunk has %u payload bytes; expected 4 + 12 x its count (%u)", (unsigned)len,
                       (unsigned)count);
    }
    r->tables.rt_ranges = malloc(count ? 12u * (size_t)count : 1u);
    if (!r->tables.rt_ranges) {
        return rd_fail(r, EVREC_E_NOMEM, off, "out of memory for %u run-time enum ranges", (unsigned)count);
    }
    for (uint32_t i = 0; i < 3u * count; i++) {
        r->tables.rt_ranges[i] = rd_be32(p + 4 + 4u * i);
    }
    r->tables.rt_count = count;
    r->tables.rt_offset = off;
    return EVREC_OK;
}

/* The dense name arrays (names[v - base], as the writer's tables hold them) are sized by the
 * highest named value, so a few named values far apart would make them much larger than the
 * file: together they may hold at most EVREC_READER_MAX_RUNTIME_SPAN entries plus 4 per named
 * value. Returns that budget. */
static uint64_t runtime_budget(const evrec_reader_t *r)
{
    uint64_t budget = EVREC_READER_MAX_RUNTIME_SPAN;
    for (uint32_t i = 0; i < r->tables.rt_count; i++) {
        uint32_t id = r->tables.rt_ranges[3 * i], base = r->tables.rt_ranges[3 * i + 1],
                 lim = r->tables.rt_ranges[3 * i + 2];
        for (uint32_t v = 0; id < r->tables.meta.enum_count && v < r->tables.renums[id].all_count; v++) {
            uint32_t x = r->tables.renums[id].all[v].value;
            budget += x >= base && x < lim ? 4u : 0u;
        }
    }
    return budget;
}

/* One past the highest named value of e in [base, lim) (base when none); the marker of the first
 * one becomes the run-time values' marker. */
static uint32_t range_top(rd_enum_t *e, uint32_t base, uint32_t lim)
{
    uint32_t top = base;
    int marker_set = 0;
    for (uint32_t v = 0; v < e->all_count; v++) {
        uint32_t x = e->all[v].value;
        if (x >= base && x < lim) {
            top = x + 1 > top ? x + 1 : top;
            if (!marker_set) {
                e->runtime.marker = e->all[v].marker;
                marker_set = 1;
            }
        }
    }
    return top;
}

/* Range i: its enum's runtime object and name array. 0 on a problem (the reader is halted). */
static int attach_range(evrec_reader_t *r, uint32_t i, uint64_t budget, uint64_t *used)
{
    uint32_t id = r->tables.rt_ranges[3 * i], base = r->tables.rt_ranges[3 * i + 1],
             lim = r->tables.rt_ranges[3 * i + 2];
    uint64_t off = r->tables.rt_offset + 8 + 4 + 12u * (uint64_t)i;
    if (id >= r->tables.meta.enum_count) {
        return rd_fail(r, EVREC_E_BAD_ID, off, "RUNTIME_ENUMS range %u: enum id %u; the file has %u enums",
                       (unsigned)i, (unsigned)id, (unsigned)r->tables.meta.enum_count) == EVREC_OK;
    }
    rd_enum_t *e = &r->tables.renums[id];
    if (e->has_runtime || lim <= base) {
        return rd_fail(r, EVREC_E_CORRUPT, off,
                       "RUNTIME_ENUMS range %u: enum %u listed twice or empty range [%u, %u)", (unsigned)i,
                       (unsigned)id, (unsigned)base, (unsigned)lim) == EVREC_OK;
    }
    e->has_runtime = 1;
    uint32_t top = range_top(e, base, lim);
    if (top - base > EVREC_READER_MAX_RUNTIME_SPAN) {
        return rd_fail(r, EVREC_E_UNSUPPORTED, off,
                       "run-time enum %s: named values span %u values; this reader keeps at most %u",
                       r->tables.enums[id].name, (unsigned)(top - base),
                       (unsigned)EVREC_READER_MAX_RUNTIME_SPAN) == EVREC_OK;
    }
    *used += top - base + 1u;
    if (*used > budget) {
        return rd_fail(r, EVREC_E_UNSUPPORTED, off,
                       "run-time enum %s: the run-time enums' named values span %llu values in all, but "
                       "only %llu values are named; this reader keeps at most %llu (%u plus 4 per name)",
                       r->tables.enums[id].name, (unsigned long long)*used,
                       (unsigned long long)(budget - EVREC_READER_MAX_RUNTIME_SPAN) / 4u,
                       (unsigned long long)budget, (unsigned)EVREC_READER_MAX_RUNTIME_SPAN) == EVREC_OK;
    }
    e->rt_names = calloc(top - base + 1u, sizeof *e->rt_names);
    if (!e->rt_names) {
        return rd_fail(r, EVREC_E_NOMEM, off, "out of memory") == EVREC_OK;
    }
    for (uint32_t v = 0; v < e->all_count; v++) {
        uint32_t x = e->all[v].value;
        if (x >= base && x < lim && !e->rt_names[x - base]) {
            e->rt_names[x - base] = e->all[v].name;
        }
    }
    e->runtime.base = base;
    e->runtime.lim = lim;
    e->runtime.names = e->rt_names;
    e->runtime.next = top;
    return 1;
}

/* Run-time ranges: which values are run-time names, and the exposed runtime objects. */
int rd_runtime_attach(evrec_reader_t *r)
{
    uint64_t budget = runtime_budget(r), used = 0;
    for (uint32_t i = 0; i < r->tables.rt_count; i++) {
        if (!attach_range(r, i, budget, &used)) {
            return 0;
        }
    }
    return 1;
}
