/* SPDX-License-Identifier: Apache-2.0 */
/* evrec events back from the CATALOG messages of evrec's SyS-T encoder: the catalog id through
 * the map of evrec_syst.h, one 32-bit argument per leaf field in table order (nested structs
 * flattened), exact argument length; CLOCK TRANSPORT_SYNC gives the frequency. Host code. */
#include <string.h>

#include "evrec/evrec_syst_decode.h"
#include "syst_decode_internal.h"

typedef struct walk {
    const evrec_meta_t *meta;
    const uint8_t *args;
    size_t count, next; /* arguments, and the next to use */
    evrec_syst_event_t *ev;
    const char *what;
} walk_t;

static int walk_struct(walk_t *w, uint32_t sid, size_t base, unsigned depth, uint32_t first)
{
    const evrec_meta_t *m = w->meta;
    if (sid >= m->struct_count) {
        w->what = "a struct the meta-info does not have";
        return 0;
    }
    const evrec_struct_desc_t *s = &m->structs[sid];
    for (uint32_t f = first; f < s->field_count; f++) {
        const evrec_field_desc_t *fd = &s->fields[f];
        size_t off = base + fd->offset;
        if (fd->kind == EVREC_KIND_STRUCT) {
            /* as the encoder: nesting deeper than EVREC_MAX_NESTING is not sent */
            if (depth < EVREC_MAX_NESTING && !walk_struct(w, fd->ref, off, depth + 1u, 0)) {
                return 0;
            }
            continue;
        }
        unsigned size = evrec_kind_width(fd->kind);
        if (w->next >= w->count) {
            w->what = "fewer arguments than the event's fields";
            return 0;
        }
        uint32_t v = evrec_syst_le32(w->args + 4u * w->next++);
        if (size < 4 && (v >> (8u * size)) != 0) {
            w->what = "an argument wider than its field";
            return 0;
        }
        if (size == 0 || off + size > EVREC_MAX_EVENT_SIZE) {
            w->what = "a field outside the native record";
            return 0;
        }
        for (unsigned i = 0; i < size; i++) { /* host order, as the native struct */
            uint8_t b = (uint8_t)(v >> (8u * i));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
            w->ev->native[off + size - 1u - i] = b;
#else
            w->ev->native[off + i] = b;
#endif
        }
        w->ev->field_count++;
    }
    return 1;
}

#define FAIL(p, text)                                                                                             \
    do {                                                                                                          \
        if (what) {                                                                                               \
            *what = (text);                                                                                       \
        }                                                                                                         \
        return (p);                                                                                               \
    } while (0)

evrec_syst_problem evrec_syst_decode_catalog(const evrec_syst_map_t *map, const evrec_syst_msg_t *m,
                                             evrec_syst_event_t *ev, const char **what)
{
    if (what) {
        *what = NULL;
    }
    if (m->type != SYST_TYPE_CATALOG || m->is_short || !m->payload) {
        FAIL(EVREC_SYST_P_UNKNOWN_TYPE, "not a CATALOG message");
    }
    size_t idsize = (m->subtype == 2 || m->subtype == 6) ? 8u : 4u;
    if (m->payload_len < idsize) {
        FAIL(EVREC_SYST_P_LENGTH, "a catalog payload shorter than its catalog id");
    }
    uint64_t id = idsize == 8 ? evrec_syst_le64(m->payload) : evrec_syst_le32(m->payload);
    int32_t e = map ? evrec_syst_map_event(map, id) : -1;
    if (e < 0 || (uint32_t)e >= map->meta->event_count) {
        FAIL(EVREC_SYST_P_UNKNOWN_ID, "a catalog id that no event type of the meta-info has");
    }
    const evrec_meta_t *meta = map->meta;
    const evrec_syst_event_map_t *em = &map->events[e];
    size_t args = m->payload_len - idsize;
    if (args != em->args) {
        FAIL(EVREC_SYST_P_ARGS, args < em->args ? "fewer argument bytes than the event packs"
                                                : "more argument bytes than the event packs");
    }
    memset(ev, 0, sizeof *ev);
    ev->id = (uint16_t)e;
    ev->catalog_id = id;
    ev->has_ts = m->has_ts;
    ev->timestamp = m->timestamp;
    ev->severity = m->severity;
    uint32_t t32 = (uint32_t)m->timestamp;
    uint16_t id16 = (uint16_t)e;
    memcpy(ev->native, &t32, 4);
    memcpy(ev->native + 4, &id16, 2);
    walk_t w = {meta, m->payload + idsize, args / 4u, 0, ev, NULL};
    if (!walk_struct(&w, meta->events[e].struct_id, 0, 0, 2)) {
        FAIL(EVREC_SYST_P_ARGS, w.what);
    }
    if (w.next != w.count || args % 4u) {
        FAIL(EVREC_SYST_P_ARGS, "more argument bytes than the event's fields");
    }
    return EVREC_SYST_OK;
}

static void on_parser_item(void *ctx, const evrec_syst_item_t *it)
{
    evrec_syst_decoder_t *d = (evrec_syst_decoder_t *)ctx;
    const evrec_syst_msg_t *m = it->msg;
    if (it->problem == EVREC_SYST_OK && m && m->type == SYST_TYPE_CATALOG) {
        int id64 = m->subtype == 2 || m->subtype == 6;
        const evrec_syst_map_t *map = id64 ? d->map64 : d->map32;
        evrec_syst_item_t bad = *it;
        bad.problem = evrec_syst_decode_catalog(map, m, &d->ev, &bad.what);
        if (bad.problem != EVREC_SYST_OK) {
            if (bad.problem == EVREC_SYST_P_UNKNOWN_ID) {
                d->unknown_ids++;
            } else {
                d->bad_args++;
            }
            if (d->on_item) {
                d->on_item(d->ctx, &bad);
            }
            return;
        }
        d->ev.offset = it->offset;
        d->ev.index = it->index;
        d->events++;
        if (d->on_item) {
            d->on_item(d->ctx, it);
        }
        if (d->on_event) {
            d->on_event(d->ctx, &d->ev);
        }
        return;
    }
    if (it->problem == EVREC_SYST_OK && m) {
        if (m->type == SYST_TYPE_CLOCK && m->payload_len == 16) {
            uint64_t freq = evrec_syst_le64(m->payload + 8);
            d->clocks++;
            d->clock_value = evrec_syst_le64(m->payload);
            if (!d->clock_freq) {
                d->clock_freq = freq;
            } else if (freq != d->clock_freq) {
                d->clock_freq_changes++;
            }
        } else {
            d->other++;
        }
    }
    if (d->on_item) {
        d->on_item(d->ctx, it);
    }
}

evrec_status evrec_syst_decoder_init(evrec_syst_decoder_t *d, const evrec_syst_map_t *map32,
                                     const evrec_syst_map_t *map64, evrec_syst_input input,
                                     evrec_syst_event_fn on_event, evrec_syst_item_fn on_item, void *ctx)
{
    if (!d || (!map32 && !map64)) {
        return EVREC_E_ARG;
    }
    memset(d, 0, sizeof *d);
    evrec_syst_parser_init(&d->parser, input);
    d->map32 = map32;
    d->map64 = map64;
    d->on_event = on_event;
    d->on_item = on_item;
    d->ctx = ctx;
    return EVREC_OK;
}

void evrec_syst_decoder_feed(evrec_syst_decoder_t *d, const uint8_t *data, size_t len)
{
    if (d && data) {
        evrec_syst_parser_feed(&d->parser, data, len, on_parser_item, d);
    }
}

void evrec_syst_decoder_finish(evrec_syst_decoder_t *d)
{
    if (d) {
        evrec_syst_parser_finish(&d->parser, on_parser_item, d);
    }
}
