/* SPDX-License-Identifier: Apache-2.0 */
/* evrec events back from QS application-specific records, using the meta-info and the id map
 * (QS.md "Event records", "Mapping"). Host code. */
#include <string.h>

#include "evrec/evrec_qs_decode.h"

evrec_status evrec_qs_decoder_init(evrec_qs_decoder_t *d, const evrec_qs_map_t *map, evrec_qs_event_fn on_event,
                                   evrec_qs_item_fn on_item, void *ctx)
{
    if (!d || !map) {
        return EVREC_E_ARG;
    }
    memset(d, 0, sizeof *d);
    evrec_qs_parser_init(&d->parser);
    evrec_qs_dict_init(&d->dict);
    d->dict.cfg.time_size = map->opts.time_size;
    d->map = map;
    d->on_event = on_event;
    d->on_item = on_item;
    d->ctx = ctx;
    return EVREC_OK;
}

void evrec_qs_decoder_free(evrec_qs_decoder_t *d)
{
    if (d) {
        evrec_qs_dict_free(&d->dict);
    }
}

/* Inline run-time names of one record, reported once the whole record decoded. */
#define WALK_NAMES 16u

typedef struct walk {
    const evrec_qs_map_t *map;
    const evrec_qs_elem_t *el;
    size_t count;
    size_t next;
    evrec_qs_event_t *ev;
    const char *what;
    unsigned names;
    struct {
        const evrec_qs_elem_t *e;
        uint32_t enum_id, value;
        size_t len;
    } name[WALK_NAMES];
} walk_t;

/* 1 when v is in the run-time range of enum enum_id of the meta-info. */
static int is_runtime_value(const evrec_meta_t *m, uint32_t enum_id, uint32_t v)
{
    const evrec_runtime_enum_t *rt = enum_id < m->enum_count ? m->enums[enum_id].runtime : NULL;
    return rt && v >= rt->base && v < rt->lim;
}

static void store(uint8_t *native, size_t off, uint32_t v, unsigned size)
{
    if (size == 1) {
        native[off] = (uint8_t)v;
    } else if (size == 2) {
        uint16_t x = (uint16_t)v;
        memcpy(native + off, &x, 2);
    } else {
        memcpy(native + off, &v, 4);
    }
}

static unsigned uint_type_size(uint8_t type)
{
    switch (type) {
    case EVREC_QS_T_U8: return 1;
    case EVREC_QS_T_U16: return 2;
    case EVREC_QS_T_U32:
    case EVREC_QS_T_U32_HEX:
    case EVREC_QS_T_OBJ:
    case EVREC_QS_T_FUN: return 4;
    default: return 0;
    }
}

/* The value a STR element of an enum field names (QS.md "Enums"): `name#value` for a run-time
 * value (the digits after the last '#'), else the lowest static value with that name. */
static int enum_from_name(const evrec_qs_map_t *map, uint32_t enum_id, const uint8_t *s, size_t len, unsigned size,
                          uint32_t *value, size_t *name_len)
{
    *name_len = 0;
    const evrec_meta_t *m = map->meta;
    if (enum_id >= m->enum_count) {
        return 0;
    }
    const evrec_enum_desc_t *e = &m->enums[enum_id];
    size_t hash = len;
    while (hash > 0 && s[hash - 1] != '#') {
        hash--;
    }
    if (hash > 0 && hash < len) {
        uint64_t v = 0;
        size_t i = hash;
        while (i < len && s[i] >= '0' && s[i] <= '9' && v <= 0xFFFFFFFFu) {
            v = v * 10u + (uint64_t)(s[i] - '0');
            i++;
        }
        uint64_t max = size == 1 ? 0xFFu : size == 2 ? 0xFFFFu : 0xFFFFFFFFu;
        if (i == len && v <= max) {
            *value = (uint32_t)v;
            *name_len = hash - 1;
            return 1;
        }
    }
    for (uint32_t i = 0; i < e->value_count; i++) {
        const char *n = e->values[i].name;
        if (strlen(n) == len && memcmp(n, s, len) == 0) {
            *value = e->values[i].value;
            return 1;
        }
    }
    return 0;
}

/* Consumes the elements of one struct's fields (flattened); 0 on mismatch (w->what says why). */
static int walk_struct(walk_t *w, uint32_t sid, size_t base, unsigned depth, uint32_t first)
{
    const evrec_meta_t *m = w->map->meta;
    if (sid >= m->struct_count || depth > EVREC_MAX_NESTING) {
        w->what = "struct nesting beyond the meta-info";
        return 0;
    }
    const evrec_struct_desc_t *s = &m->structs[sid];
    for (uint32_t f = first; f < s->field_count; f++) {
        const evrec_field_desc_t *fd = &s->fields[f];
        size_t off = base + fd->offset;
        if (fd->kind == EVREC_KIND_STRUCT) {
            if (!walk_struct(w, fd->ref, off, depth + 1, 0)) {
                return 0;
            }
            continue;
        }
        if (w->next >= w->count) {
            w->what = "the record has fewer elements than the event's fields";
            return 0;
        }
        const evrec_qs_elem_t *e = &w->el[w->next++];
        unsigned size = (fd->kind == EVREC_KIND_UINT8 || fd->kind == EVREC_KIND_ENUM_UINT8)     ? 1u
                        : (fd->kind == EVREC_KIND_UINT16 || fd->kind == EVREC_KIND_ENUM_UINT16) ? 2u
                                                                                                : 4u;
        int is_enum = fd->kind >= EVREC_KIND_ENUM_UINT8 && fd->kind <= EVREC_KIND_ENUM_UINT32;
        uint32_t v;
        if (e->type == EVREC_QS_T_STR && is_enum) {
            size_t name_len;
            if (!enum_from_name(w->map, fd->ref, e->data, e->len, size, &v, &name_len)) {
                w->what = "a STR element that names no value of the field's enum";
                return 0;
            }
            if (name_len && w->names < WALK_NAMES && is_runtime_value(m, fd->ref, v)) {
                w->name[w->names].e = e;
                w->name[w->names].enum_id = fd->ref;
                w->name[w->names].value = v;
                w->name[w->names].len = name_len;
                w->names++;
            }
        } else if (e->group != EVREC_QS_NO_GROUP) {
            if (!is_enum || evrec_qs_map_enum_group(w->map, fd->ref) != e->group) {
                w->what = "an ENUM element where the field is not an enum of that group";
                return 0;
            }
            v = (uint32_t)e->u;
        } else if (uint_type_size(e->type) == size) {
            v = (uint32_t)e->u;
        } else {
            w->what = "an element whose type does not match the field's kind";
            return 0;
        }
        if (off + size > EVREC_MAX_EVENT_SIZE || w->ev->field_count >= EVREC_QS_MAX_FIELDS) {
            w->what = "a field outside the native record";
            return 0;
        }
        w->ev->values[w->ev->field_count++] = v;
        store(w->ev->native, off, v, size);
    }
    return 1;
}

static void mismatch(evrec_qs_decoder_t *d, const evrec_qs_item_t *rec, const char *what)
{
    d->mismatches++;
    if (d->on_item) {
        evrec_qs_item_t it = *rec;
        it.kind = EVREC_QS_ITEM_MISMATCH;
        it.what = what;
        d->on_item(d->ctx, &it);
    }
}

/* A time-sync record (QS.md 4.1): timestamp, then one U32 element, the full time. */
static void time_sync(evrec_qs_decoder_t *d, const evrec_qs_item_t *it)
{
    size_t count = 0, bad = 0;
    uint32_t low = 0;
    evrec_status st = evrec_qs_parse_user(it->payload, it->len, &d->dict.cfg, &low, d->elems,
                                          sizeof d->elems / sizeof d->elems[0], &count, &bad);
    unsigned ts = d->dict.cfg.time_size;
    uint32_t mask = ts >= 4 ? 0xFFFFFFFFu : (1u << (8u * ts)) - 1u;
    if (st != EVREC_OK || count != 1 || d->elems[0].type != EVREC_QS_T_U32 ||
        ((uint32_t)d->elems[0].u & mask) != (low & mask)) {
        d->time_ref_ok = 0;
        mismatch(d, it, "a time-sync record that is not a timestamp and one U32 with the same low bytes");
        return;
    }
    d->time_ref = (uint32_t)d->elems[0].u;
    d->time_ref_ok = 1;
    d->time_syncs++;
}

/* EVREC_LOST: timestamp, STR "dropped"/"overwritten", U32 count (QS.md "Loss records"). */
static void decode_lost(evrec_qs_decoder_t *d, const evrec_qs_item_t *it)
{
    evrec_qs_elem_t el[3];
    size_t count = 0, bad = 0;
    uint32_t time = 0;
    evrec_status st = evrec_qs_parse_user(it->payload, it->len, &d->dict.cfg, &time, el, 3, &count, &bad);
    if (st != EVREC_OK || count != 2 || el[0].type != EVREC_QS_T_STR || el[1].type != EVREC_QS_T_U32) {
        mismatch(d, it, "an EVREC_LOST record that is not STR kind, U32 count");
        return;
    }
    int over = el[0].len == 11 && memcmp(el[0].data, "overwritten", 11) == 0;
    if (!over && !(el[0].len == 7 && memcmp(el[0].data, "dropped", 7) == 0)) {
        mismatch(d, it, "an EVREC_LOST record of an unknown kind");
        return;
    }
    d->lost_reports++;
    if (over) {
        d->lost_overwritten += el[1].u;
    } else {
        d->lost_dropped += el[1].u;
    }
}

/* The event type of a record of `slot` whose elements are d->elems[0..count): *id, and *next =
 * the first field element. NULL, or what is wrong. */
static const char *record_event(const evrec_qs_decoder_t *d, uint32_t slot, size_t count, size_t *next,
                                uint32_t *id)
{
    const evrec_qs_map_t *map = d->map;
    *next = 0;
    if (map->classes) {
        if (count == 0) {
            return "no event-type element";
        }
        const evrec_qs_elem_t *e = &d->elems[(*next)++];
        if (map->type_group != EVREC_QS_NO_GROUP ? e->group != map->type_group : e->type != EVREC_QS_T_U16) {
            return "the first element is not the event type";
        }
        *id = (uint32_t)e->u;
    } else {
        *id = slot;
    }
    if (*id >= map->meta->event_count || map->events[*id].slot != slot) {
        return "an event type that this record id does not carry";
    }
    return NULL;
}

/* The 32-bit time of a record whose timestamp has fewer than 4 bytes, from the last time-sync
 * record. 0 when it cannot be restored (counted and reported). */
static int restore_time(evrec_qs_decoder_t *d, const evrec_qs_item_t *it, uint32_t *time)
{
    unsigned ts = d->dict.cfg.time_size;
    if (ts >= 4) {
        return 1;
    }
    if (!d->time_ref_ok) {
        d->time_unknown++;
        mismatch(d, it,
                 "its time cannot be restored: no time-sync record since the stream's start or "
                 "since a damaged frame (skipped until the next one)");
        return 0;
    }
    uint32_t bits = 8u * ts, mask = (1u << bits) - 1u, half = 1u << (bits - 1u);
    uint32_t delta = (*time - d->time_ref) & mask; /* sign-extended: -half .. half - 1 */
    *time = d->time_ref + delta - (delta >= half ? 2u * half : 0u);
    return 1;
}

/* The event `id` at `time` from elements d->elems[next..count): rebuilt and handed out with the
 * run-time names it carried. */
static void emit_event(evrec_qs_decoder_t *d, const evrec_qs_item_t *it, uint32_t id, uint32_t time, size_t count,
                       size_t next)
{
    evrec_qs_event_t *ev = &d->ev;
    memset(ev->native, 0, sizeof ev->native);
    ev->id = (uint16_t)id;
    ev->time = time;
    ev->seq = it->seq;
    ev->offset = it->offset;
    ev->field_count = 0;
    memcpy(ev->native, &ev->time, 4);
    memcpy(ev->native + 4, &ev->id, 2);
    walk_t w;
    w.map = d->map;
    w.el = d->elems;
    w.count = count;
    w.next = next;
    w.ev = ev;
    w.what = NULL;
    w.names = 0;
    if (!walk_struct(&w, d->map->meta->events[id].struct_id, 0, 0, 2)) {
        mismatch(d, it, w.what);
        return;
    }
    if (w.next != count) {
        mismatch(d, it, "the record has more elements than the event's fields");
        return;
    }
    for (unsigned i = 0; i < w.names; i++) {
        d->names++;
        if (d->on_name) {
            d->on_name(d->ctx, w.name[i].enum_id, w.name[i].value, (const char *)w.name[i].e->data, w.name[i].len,
                       0);
        }
    }
    d->events++;
    if (d->on_event) {
        d->on_event(d->ctx, ev);
    }
}

static void decode_user(evrec_qs_decoder_t *d, const evrec_qs_item_t *it)
{
    if (it->rec_id == EVREC_QS_REC_TIME_SYNC) {
        time_sync(d, it);
        return;
    }
    if (it->rec_id == EVREC_QS_REC_LOST) {
        decode_lost(d, it);
        return;
    }
    uint32_t slot = (uint32_t)it->rec_id - EVREC_QS_REC_USER;
    if (slot >= d->map->slot_count) {
        d->foreign++;
        return;
    }
    size_t count = 0, bad = 0;
    uint32_t time = 0;
    evrec_status st = evrec_qs_parse_user(it->payload, it->len, &d->dict.cfg, &time, d->elems,
                                          sizeof d->elems / sizeof d->elems[0], &count, &bad);
    if (st != EVREC_OK) {
        mismatch(d, it, st == EVREC_E_CORRUPT ? "an element of unknown type" : "an element runs past the record");
        return;
    }
    size_t next;
    uint32_t id;
    const char *what = record_event(d, slot, count, &next, &id);
    if (what) {
        mismatch(d, it, what);
        return;
    }
    d->ev.time_exact = 1;
    if (restore_time(d, it, &time)) {
        emit_event(d, it, id, time, count, next);
    }
}

/* A QS_ENUM_DICT record (value, group, name NUL) of a run-time value of a grouped enum. */
static void dict_name(evrec_qs_decoder_t *d, const evrec_qs_item_t *it)
{
    const evrec_qs_map_t *map = d->map;
    if (it->len < 3) {
        return;
    }
    uint8_t v = it->payload[0], g = it->payload[1];
    if (g >= EVREC_QS_ENUM_GROUPS || g >= map->group_count || g == map->type_group) {
        return;
    }
    uint32_t eid = map->group_enum[g];
    if (!is_runtime_value(map->meta, eid, v)) {
        return;
    }
    size_t n = 0;
    while (2 + n < it->len && it->payload[2 + n]) {
        n++;
    }
    if (n == 0) {
        return;
    }
    d->names++;
    if (d->on_name) {
        d->on_name(d->ctx, eid, v, (const char *)it->payload + 2, n, 1);
    }
}

static void on_parser_item(void *ctx, const evrec_qs_item_t *it)
{
    evrec_qs_decoder_t *d = (evrec_qs_decoder_t *)ctx;
    if (it->kind == EVREC_QS_ITEM_BAD_CHECKSUM || it->kind == EVREC_QS_ITEM_TOO_SHORT ||
        it->kind == EVREC_QS_ITEM_TOO_LONG ||
        (it->kind == EVREC_QS_ITEM_RECORD && it->rec_id == EVREC_QS_REC_TARGET_INFO)) {
        /* A damaged frame may have been a time sync; a target info starts a new session. (A
         * sequence gap alone does not matter: the transmitter overwrites a time sync only with
         * the frames that depend on it.) */
        d->time_ref_ok = 0;
    }
    if (it->kind == EVREC_QS_ITEM_RECORD) {
        if (it->rec_id >= EVREC_QS_REC_USER) {
            if (d->on_item) {
                d->on_item(d->ctx, it);
            }
            decode_user(d, it);
            return;
        }
        evrec_status st = evrec_qs_dict_apply(&d->dict, it->rec_id, it->payload, it->len);
        if (st != EVREC_OK) {
            mismatch(d, it, "a dictionary or target-info record that does not parse");
        } else if (it->rec_id == EVREC_QS_REC_ENUM_DICT) {
            dict_name(d, it);
        } else if (it->rec_id > EVREC_QS_REC_TARGET_INFO ||
                   (it->rec_id != EVREC_QS_REC_EMPTY && it->rec_id < EVREC_QS_REC_ENUM_DICT)) {
            d->foreign++;
        }
    }
    if (d->on_item) {
        d->on_item(d->ctx, it);
    }
}

void evrec_qs_decoder_feed(evrec_qs_decoder_t *d, const uint8_t *data, size_t len)
{
    if (d && data) {
        evrec_qs_parser_feed(&d->parser, data, len, on_parser_item, d);
    }
}
