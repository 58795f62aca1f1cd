/* SPDX-License-Identifier: Apache-2.0 */
/* The drain's conversion plan (evrec_stream_plan_t, evrec/evrec_stream.h): each event type's
 * fields, in schema order with nested structs flattened, as runs of one width at consecutive
 * native offsets; made once by evrec_stream_start(), used by evrec_stream_pack() for every record
 * (FORMAT.md section 3: the packed record is the fields big-endian, one after the other). */
#include "evrec/evrec_stream.h"
#include "stream_internal.h"

#if EVREC_STREAM_PLAN_EVENTS > 0

/* Appends a field of 1 << code bytes at native offset `off` to the runs from `first` on: it
 * extends the last run when it follows it at the same width. 0 when the runs are used up. */
static int plan_field(evrec_stream_plan_t *pl, uint32_t *n, uint32_t first, uint32_t off, unsigned code)
{
    if (off + (1u << code) > EVREC_MAX_EVENT_SIZE) {
        return 0;
    }
    if (*n > first) {
        uint8_t *last = pl->run[*n - 1u];
        uint32_t fields = (last[1] & 63u) + 1u;
        if ((unsigned)(last[1] >> 6) == code && fields < 64u && last[0] + (fields << code) == off) {
            last[1]++;
            return 1;
        }
    }
    if (*n >= EVREC_STREAM_PLAN_RUNS) {
        return 0;
    }
    pl->run[*n][0] = (uint8_t)off;
    pl->run[*n][1] = (uint8_t)(code << 6);
    (*n)++;
    return 1;
}

/* Appends the runs of struct `sid` at native offset `base`, its fields from `from` on. 0 when
 * they do not fit (or the struct is nested deeper than EVREC_MAX_NESTING: the table walk then
 * gives its bytes). */
static int plan_struct(evrec_stream_plan_t *pl, uint32_t *n, uint32_t first, const evrec_meta_t *m, uint32_t sid,
                       uint32_t base, unsigned depth, uint32_t from)
{
    if (depth > EVREC_MAX_NESTING || sid >= m->struct_count) {
        return 0;
    }
    const evrec_struct_desc_t *st = &m->structs[sid];
    for (uint32_t f = from; f < st->field_count; f++) {
        const evrec_field_desc_t *fd = &st->fields[f];
        uint32_t off = base + fd->offset, w = evrec_kind_width(fd->kind);
        int ok = fd->kind == EVREC_KIND_STRUCT ? plan_struct(pl, n, first, m, fd->ref, off, depth + 1, 0)
                 : w != 0                      ? plan_field(pl, n, first, off, w == 4u ? 2u : w - 1u)
                                               : 0;
        if (!ok) {
            return 0;
        }
    }
    return 1;
}

/* Whether struct `sid` starts with the record header every event has (DESIGN: u32 time at 0,
 * u16 id at 4), which evrec_stream_pack() writes without a run. */
static int header_first(const evrec_meta_t *m, uint32_t sid)
{
    if (sid >= m->struct_count || m->structs[sid].field_count < 2u) {
        return 0;
    }
    const evrec_field_desc_t *f = m->structs[sid].fields;
    return evrec_kind_width(f[0].kind) == 4u && f[0].offset == 0u && evrec_kind_width(f[1].kind) == 2u &&
           f[1].offset == 4u;
}

void evrec_stream_plan_build(evrec_stream_plan_t *pl, const evrec_meta_t *m)
{
    uint32_t n = 0, e = 0;
    for (; e < m->event_count && e < EVREC_STREAM_PLAN_EVENTS; e++) {
        uint32_t sid = m->events[e].struct_id;
        pl->first[e] = (uint16_t)n;
        if (!header_first(m, sid) || !plan_struct(pl, &n, n, m, sid, 0, 0, 2)) {
            n = pl->first[e]; /* this one and the ones after it take the table walk */
            break;
        }
    }
    pl->events = (uint16_t)e;
    pl->first[e] = (uint16_t)n;
}

#endif /* EVREC_STREAM_PLAN_EVENTS > 0 */
