/* SPDX-License-Identifier: Apache-2.0 */
/* SyS-T CATALOG and CLOCK messages (MIPI SyS-T 1.0: "Message Header", "Optional Message Fields",
 * "Catalog Messages", "Clock Synchronization Messages"; SYST.md for the bytes). */
#include "evrec/evrec_container.h"
#include "evrec/evrec_syst.h"
#include "syst_internal.h"

static uint8_t *put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        p[i] = (uint8_t)(v >> (8u * i));
    }
    return p + n;
}

/* __builtin_memcpy: with -ffreestanding (no builtins) memcpy would be a call per field. */
static uint32_t load(const uint8_t *p, uint8_t kind)
{
    switch (evrec_kind_width(kind)) {
    case 1: return p[0];
    case 2: {
        uint16_t v;
        __builtin_memcpy(&v, p, sizeof v);
        return v;
    }
    default: {
        uint32_t v;
        __builtin_memcpy(&v, p, sizeof v);
        return v;
    }
    }
}

/* One 32-bit little-endian argument per leaf, in walk order; returns the end. */
static uint8_t *put_struct(const evrec_meta_t *m, uint8_t *out, uint32_t sid, const uint8_t *base, unsigned depth,
                           uint32_t first)
{
    const evrec_struct_desc_t *s = &m->structs[sid];
    for (uint32_t f = first; f < s->field_count; f++) {
        const evrec_field_desc_t *fd = &s->fields[f];
        if (fd->kind == EVREC_KIND_STRUCT) {
            if (depth < EVREC_MAX_NESTING) {
                out = put_struct(m, out, fd->ref, base + fd->offset, depth + 1u, 0);
            }
        } else {
            out = put_le(out, load(base + fd->offset, fd->kind), 4);
        }
    }
    return out;
}

/* Header word, GUID, length and timestamp; returns the start of the payload. */
static uint8_t *put_front(const evrec_syst_map_t *map, uint8_t *p, uint32_t header, uint32_t payload,
                          uint64_t time64)
{
    p = put_le(p, header, 4);
    if (header & EVREC_SYST_HDR_GUID) {
        for (unsigned i = 0; i < EVREC_SYST_GUID_SIZE; i++) {
            *p++ = map->opts.guid[i];
        }
    }
    p = put_le(p, payload, 2);
    if (header & EVREC_SYST_HDR_TS) {
        p = put_le(p, time64, 8);
    }
    return p;
}

static size_t front_size(uint32_t header)
{
    return 4u + 2u + ((header & EVREC_SYST_HDR_GUID) ? EVREC_SYST_GUID_SIZE : 0u) +
           ((header & EVREC_SYST_HDR_TS) ? 8u : 0u);
}

static size_t finish(uint8_t *out, uint8_t *end, uint32_t header)
{
    if (header & EVREC_SYST_HDR_CHK) {
        uint32_t crc = evrec_crc32c(0, out, (size_t)(end - out));
        end = put_le(end, crc, 4);
    }
    return (size_t)(end - out);
}

evrec_status evrec_syst_encode_event(const evrec_syst_map_t *map, const void *native, uint64_t time64,
                                     uint8_t *out, size_t out_size, size_t *out_len)
{
    if (!map || !native || !out || !out_len) {
        return EVREC_E_ARG;
    }
    uint16_t id;
    __builtin_memcpy(&id, (const uint8_t *)native + 4, sizeof id);
    return evrec_syst_encode_id_(map, id, native, time64, out, out_size, out_len);
}

evrec_status evrec_syst_encode_id_(const evrec_syst_map_t *map, uint16_t id, const void *native, uint64_t time64,
                                   uint8_t *out, size_t out_size, size_t *out_len)
{
    const uint8_t *rec = (const uint8_t *)native;
    const evrec_meta_t *m = map->meta;
    if (id >= m->event_count) {
        return EVREC_E_BAD_ID;
    }
    const evrec_syst_event_map_t *em = &map->events[id];
    const uint32_t header = map->header | ((uint32_t)em->severity << EVREC_SYST_HDR_SEV_SHIFT);
    const unsigned idsize = map->opts.id64 ? 8u : 4u;
    const uint32_t payload = idsize + em->args;
    const size_t total = front_size(header) + payload + ((header & EVREC_SYST_HDR_CHK) ? 4u : 0u);
    if (out_size < total) {
        return EVREC_E_NO_SPACE;
    }
    uint8_t *p = put_front(map, out, header, payload, time64);
    p = put_le(p, em->id, idsize);
    p = put_struct(m, p, m->events[id].struct_id, rec, 0, 2u);
    *out_len = finish(out, p, header);
    return EVREC_OK;
}

evrec_status evrec_syst_encode_clock(const evrec_syst_map_t *map, uint64_t clock, uint64_t freq_hz, uint8_t *out,
                                     size_t out_size, size_t *out_len)
{
    if (!map || !out || !out_len) {
        return EVREC_E_ARG;
    }
    const uint32_t header = (map->header & ~(EVREC_SYST_HDR_TYPE_MASK | EVREC_SYST_HDR_SUBTYPE_MASK)) |
                            EVREC_SYST_TYPE_CLOCK |
                            (EVREC_SYST_CLOCK_TRANSPORT_SYNC << EVREC_SYST_HDR_SUBTYPE_SHIFT) |
                            (EVREC_SYST_SEV_MAX << EVREC_SYST_HDR_SEV_SHIFT);
    const size_t total = front_size(header) + 16u + ((header & EVREC_SYST_HDR_CHK) ? 4u : 0u);
    if (out_size < total) {
        return EVREC_E_NO_SPACE;
    }
    uint8_t *p = put_front(map, out, header, 16u, clock);
    p = put_le(p, clock, 8);
    p = put_le(p, freq_hz, 8);
    *out_len = finish(out, p, header);
    return EVREC_OK;
}
