/* SPDX-License-Identifier: Apache-2.0 */
/* QS frames, event records and session records (QP/C "Observability Viewpoint": "Application-
 * Specific Record Representation", "Data Elements", dictionaries; QS.md for the bytes). */
#include <string.h>

#include "evrec/evrec_qs.h"
#include "qs_enc_inline.h"
#include "qs_writer_internal.h"

size_t evrec_qs_frame(uint8_t seq, uint8_t rec_id, const uint8_t *payload, size_t len, uint8_t *out,
                      size_t out_size)
{
    if (!out || (len && !payload)) {
        return 0;
    }
    qs_writer_t w = {.buf = out, .size = out_size};
    qs_begin(&w, seq, rec_id);
    for (size_t i = 0; i < len; i++) {
        qs_put(&w, payload[i]);
    }
    qs_end(&w);
    return w.overflow ? 0u : w.used;
}

static uint8_t field_display(const evrec_qs_map_t *map, uint32_t sid, uint32_t f)
{
    const uint8_t *const *d = map->opts.field_display;
    return (d && d[sid]) ? d[sid][f] : (uint8_t)EVREC_QS_DISPLAY_DEC;
}

/* An unsigned integer element: U8/U16/U32, hex when the schema says so. */
static void put_uint(qs_writer_t *w, uint32_t v, unsigned size, uint8_t disp)
{
    uint8_t type = size == 1 ? EVREC_QS_T_U8 : size == 2 ? EVREC_QS_T_U16 : EVREC_QS_T_U32;
    if (size == 4 && disp == EVREC_QS_DISPLAY_OBJ) {
        type = EVREC_QS_T_OBJ;
    } else if (size == 4 && disp == EVREC_QS_DISPLAY_FUN) {
        type = EVREC_QS_T_FUN;
    } else if (disp == EVREC_QS_DISPLAY_HEX) {
        type = (uint8_t)(type | (EVREC_QS_HEX_WIDTH << 4));
    }
    qs_put(w, type);
    qs_put_le(w, v, size);
}

/* __builtin_memcpy: with -ffreestanding (no builtins) memcpy would be a call per field. */
static uint32_t load(const uint8_t *p, unsigned size)
{
    if (size == 1) {
        return p[0];
    }
    if (size == 2) {
        uint16_t v;
        __builtin_memcpy(&v, p, sizeof v);
        return v;
    }
    uint32_t v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

uint8_t *evrec_qs_enc_event_esc_(const evrec_qs_map_t *map, uint8_t *p, uint8_t seq, uint16_t id, uint32_t time,
                                 const void *native)
{
    /* the per-byte writer: the same bytes, escaped as they go (room: the worst case) */
    qs_writer_t w = {.buf = p, .size = evrec_qs_frame_worst_(map)};
    qs_begin(&w, seq, (uint8_t)(EVREC_QS_REC_USER + map->events[id].slot));
    evrec_qs_put_event_(map, &w, native, id, time);
    qs_end(&w);
    return p + w.used;
}

uint8_t *evrec_qs_enc_event_checked_(const evrec_qs_map_t *map, uint8_t *p, uint8_t seq, uint16_t id,
                                     uint32_t time, const void *native)
{
    /* a grouped enum field wider than a byte: its value must be <= 255 for an ENUM element */
    return qs_prog_event_as(map, p, seq, id, time, native, 0, 1);
}

uint8_t *evrec_qs_enc_event_(const evrec_qs_map_t *map, uint8_t *p, uint8_t seq, uint16_t id, uint32_t time,
                             const void *native)
{
    uint8_t *end = NULL;
    if (__builtin_expect(map->prog != NULL, 1)) {
        end = qs_map_plain(map) ? qs_prog_event(map, p, seq, id, time, native, 1)
                                : qs_prog_event(map, p, seq, id, time, native, 0);
    }
    return end ? end : evrec_qs_enc_event_esc_(map, p, seq, id, time, native);
}

static void put_struct(const evrec_qs_map_t *map, qs_writer_t *w, uint32_t sid, const uint8_t *base,
                       unsigned depth, uint32_t first)
{
    const evrec_meta_t *m = map->meta;
    const evrec_struct_desc_t *s = &m->structs[sid];
    for (uint32_t f = first; f < s->field_count; f++) {
        const evrec_field_desc_t *fd = &s->fields[f];
        const uint8_t *p = base + fd->offset;
        switch (fd->kind) {
        case EVREC_KIND_UINT8: put_uint(w, p[0], 1, field_display(map, sid, f)); break;
        case EVREC_KIND_UINT16: put_uint(w, load(p, 2), 2, field_display(map, sid, f)); break;
        case EVREC_KIND_UINT32: put_uint(w, load(p, 4), 4, field_display(map, sid, f)); break;
        case EVREC_KIND_ENUM_UINT8:
        case EVREC_KIND_ENUM_UINT16:
        case EVREC_KIND_ENUM_UINT32: {
            unsigned size = fd->kind == EVREC_KIND_ENUM_UINT8 ? 1u : fd->kind == EVREC_KIND_ENUM_UINT16 ? 2u : 4u;
            evrec_qs_put_enum_(map, w, (uint16_t)fd->ref, load(p, size), size, field_display(map, sid, f));
            break;
        }
        case EVREC_KIND_STRUCT:
            if (depth < EVREC_MAX_NESTING) {
                put_struct(map, w, fd->ref, p, depth + 1, 0);
            }
            break;
        default: break;
        }
    }
}

evrec_status evrec_qs_put_event_(const evrec_qs_map_t *map, qs_writer_t *w, const void *native, uint16_t id,
                                 uint32_t time)
{
    const evrec_qs_event_map_t *em = &map->events[id];
    qs_put_le(w, time, map->opts.time_size);
    if (em->flags & EVREC_QS_EV_TYPED) {
        if (map->type_group != EVREC_QS_NO_GROUP) {
            qs_put(w, (uint8_t)(0x80u | ((unsigned)map->type_group << 4) | EVREC_QS_T_I8_ENUM));
            qs_put(w, (uint8_t)id);
        } else {
            qs_put(w, EVREC_QS_T_U16);
            qs_put_le(w, id, 2);
        }
    }
    put_struct(map, w, map->meta->events[id].struct_id, (const uint8_t *)native, 0, 2);
    return EVREC_OK;
}

evrec_status evrec_qs_encode_event(const evrec_qs_map_t *map, uint8_t seq, const void *native, uint8_t *out,
                                   size_t out_size, size_t *out_len)
{
    if (!map || !native || !out || !out_len) {
        return EVREC_E_ARG;
    }
    evrec_record_header_t h;
    __builtin_memcpy(&h, native, sizeof h);
    if (h.id >= map->meta->event_count) {
        return EVREC_E_BAD_ID;
    }
    if (out_size >= evrec_qs_frame_worst_(map)) {
        *out_len = (size_t)(evrec_qs_enc_event_(map, out, seq, h.id, h.time, native) - out);
        return EVREC_OK;
    }
    qs_writer_t w = {.buf = out, .size = out_size};
    qs_begin(&w, seq, (uint8_t)(EVREC_QS_REC_USER + map->events[h.id].slot));
    evrec_qs_put_event_(map, &w, native, h.id, h.time);
    qs_end(&w);
    if (w.overflow) {
        return EVREC_E_NO_SPACE;
    }
    *out_len = w.used; /* head wraps to 0 when the frame fills out exactly */
    return EVREC_OK;
}

evrec_status evrec_qs_encode_time_sync(const evrec_qs_map_t *map, uint8_t seq, uint32_t time, uint8_t *out,
                                       size_t out_size, size_t *out_len)
{
    if (!map || !out || !out_len) {
        return EVREC_E_ARG;
    }
    uint8_t payload[9];
    size_t n = 0;
    for (unsigned i = 0; i < map->opts.time_size; i++) {
        payload[n++] = (uint8_t)(time >> (8u * i));
    }
    payload[n++] = EVREC_QS_T_U32;
    for (unsigned i = 0; i < 4u; i++) {
        payload[n++] = (uint8_t)(time >> (8u * i));
    }
    size_t len = evrec_qs_frame(seq, (uint8_t)EVREC_QS_REC_TIME_SYNC, payload, n, out, out_size);
    if (len == 0) {
        return EVREC_E_NO_SPACE;
    }
    *out_len = len;
    return EVREC_OK;
}

/* ---- session records ---------------------------------------------------------------------- */

enum { ST_EMPTY, ST_INFO, ST_OBJ, ST_FUN, ST_TYPES, ST_ENUMS, ST_USR, ST_END };

/* Run-time values handed out so far, [base, base + n): only their names may be read (`names`
 * need not be longer, e.g. the tables of a file reader), and `next` may pass `lim`. */
static uint32_t runtime_handed_out(const evrec_runtime_enum_t *rt)
{
    size_t next = evrec_atomic_load_acquire(&rt->next);
    size_t top = next < rt->lim ? next : rt->lim;
    return top > rt->base ? (uint32_t)(top - rt->base) : 0u;
}

static size_t put_addr_entry(uint8_t *payload, const evrec_qs_name_t *e)
{
    for (unsigned i = 0; i < 4; i++) {
        payload[i] = (uint8_t)(e->addr >> (8u * i));
    }
    return qs_put_name(payload, 4, e->name ? e->name : "");
}

/* Name of record slot `slot`: the event's struct name, or in class mode the struct name of the
 * lowest event of the slot's class ("Classes_<slot>" when several classes share the slot). */
static const char *slot_name(const evrec_qs_map_t *map, uint32_t slot, char *tmp)
{
    const evrec_meta_t *m = map->meta;
    int32_t first = -1;
    int several = 0;
    for (uint32_t e = 0; e < m->event_count; e++) {
        if (map->events[e].slot != slot) {
            continue;
        }
        if (first < 0) {
            first = (int32_t)e;
        } else if (m->events[e].class_id != m->events[first].class_id) {
            several = 1;
        }
    }
    if (first < 0) {
        return NULL;
    }
    if (!several) {
        return m->structs[m->events[first].struct_id].name;
    }
    memcpy(tmp, "Classes_", 8);
    tmp[8] = (char)('0' + slot / 10u);
    tmp[9] = (char)('0' + slot % 10u);
    tmp[10] = 0;
    return tmp;
}

/* Each stage of evrec_qs_session_next(): 1 when it put a record (*rec_id, payload, *len), 0 to
 * look again (the cursor moved on). */

static int stage_info(const evrec_qs_map_t *map, evrec_qs_session_cursor_t *cur, uint8_t *rec_id, uint8_t *payload,
                      size_t *len)
{
    /* QP 7.x target info (QS.md 2): reset, version, 13 bytes of sizes and build time.
     * The object-size bytes are those of the QSPY-checked test vector; ours that matter:
     * object and function pointers 4 bytes (uint32 fields), the timestamp size. */
    static const uint8_t sizes[7] = {
        0x22, /* signal 2 | event 2 << 4 */
        0x41, /* queue counter 1 | time-event counter 4 << 4 */
        0x22, /* pool block 2 | pool counter 2 << 4 */
        0x44, /* object pointer 4 | function pointer 4 << 4 */
        0x00, /* timestamp size: filled below */
        0x20, /* max active objects 32 */
        0x13  /* max pools 3 | max tick rates 1 << 4 */
    };
    payload[0] = 0xFF; /* reset: QSPY clears its dictionaries */
    payload[1] = (uint8_t)(EVREC_QS_QP_VERSION & 0xFFu);
    payload[2] = (uint8_t)(EVREC_QS_QP_VERSION >> 8); /* bit 15 = 0: little-endian */
    memcpy(payload + 3, sizes, sizeof sizes);
    payload[7] = map->opts.time_size;
    memcpy(payload + 10, map->opts.build_time, 6);
    cur->stage = ST_OBJ;
    cur->index = 0;
    *rec_id = EVREC_QS_REC_TARGET_INFO;
    *len = 16;
    return 1;
}

/* ST_OBJ and ST_FUN: the object or function dictionary `names` (count entries), then `next`. */
static int stage_addr(const evrec_qs_name_t *names, uint32_t count, uint8_t rec, int next,
                      evrec_qs_session_cursor_t *cur, uint8_t *rec_id, uint8_t *payload, size_t *len)
{
    if (names && cur->index < count) {
        *rec_id = rec;
        *len = put_addr_entry(payload, &names[cur->index++]);
        return 1;
    }
    cur->stage = (uint32_t)next;
    cur->index = 0;
    return 0;
}

static int stage_types(const evrec_qs_map_t *map, evrec_qs_session_cursor_t *cur, uint8_t *rec_id,
                       uint8_t *payload, size_t *len)
{
    const evrec_meta_t *m = map->meta;
    if (map->type_group != EVREC_QS_NO_GROUP && cur->index < m->event_count) {
        uint32_t e = cur->index++;
        payload[0] = (uint8_t)e;
        payload[1] = map->type_group;
        *rec_id = EVREC_QS_REC_ENUM_DICT;
        *len = qs_put_name(payload, 2, m->structs[m->events[e].struct_id].name);
        return 1;
    }
    cur->stage = ST_ENUMS;
    cur->index = 0;
    cur->sub = 0;
    return 0;
}

/* The next named value of enum `en` that fits a QS enum byte, from cur->sub on (static values,
 * then the run-time values named so far); NULL when there is none left. */
static const char *next_enum_value(const evrec_enum_desc_t *en, evrec_qs_session_cursor_t *cur, uint32_t *value)
{
    const char *name = NULL;
    while (!name) {
        if (cur->sub < en->value_count && en->values[cur->sub].value > 0xFFu) {
            name = NULL; /* values ascending: the rest are above a QS enum byte */
            cur->sub = en->value_count;
            continue;
        } else if (cur->sub < en->value_count) {
            name = en->values[cur->sub].name;
            *value = en->values[cur->sub].value;
        } else if (en->runtime && cur->sub - en->value_count < runtime_handed_out(en->runtime) &&
                   en->runtime->base + (cur->sub - en->value_count) <= 0xFFu) {
            /* run-time values named so far; unnamed ones are skipped */
            uint32_t k = cur->sub - en->value_count;
            name = __atomic_load_n(&en->runtime->names[k], __ATOMIC_ACQUIRE);
            *value = en->runtime->base + k;
        } else {
            break;
        }
        cur->sub++;
    }
    return name;
}

static int stage_enums(const evrec_qs_map_t *map, evrec_qs_session_cursor_t *cur, uint8_t *rec_id,
                       uint8_t *payload, size_t *len)
{
    const evrec_meta_t *m = map->meta;
    if (cur->index >= map->group_count) {
        cur->stage = ST_USR;
        cur->index = 0;
        return 0;
    }
    uint16_t eid = map->group_enum[cur->index];
    if (eid >= m->enum_count) { /* the event-type group */
        cur->index++;
        cur->sub = 0;
        return 0;
    }
    uint32_t value = 0;
    const char *name = next_enum_value(&m->enums[eid], cur, &value);
    if (!name) {
        cur->index++;
        cur->sub = 0;
        return 0;
    }
    payload[0] = (uint8_t)value;
    payload[1] = (uint8_t)cur->index;
    *rec_id = EVREC_QS_REC_ENUM_DICT;
    *len = qs_put_name(payload, 2, name);
    return 1;
}

static int stage_usr(const evrec_qs_map_t *map, evrec_qs_session_cursor_t *cur, uint8_t *rec_id, uint8_t *payload,
                     size_t *len)
{
    if (cur->index == map->slot_count && map->opts.time_size < 4u) {
        cur->index++;
        payload[0] = (uint8_t)EVREC_QS_REC_TIME_SYNC;
        *rec_id = EVREC_QS_REC_USR_DICT;
        *len = qs_put_name(payload, 1, EVREC_QS_TIME_SYNC_NAME);
        return 1;
    }
    if (cur->index < map->slot_count) {
        char tmp[12];
        uint32_t slot = cur->index++;
        const char *name = slot_name(map, slot, tmp);
        if (!name) {
            return 0;
        }
        payload[0] = (uint8_t)(EVREC_QS_REC_USER + slot);
        *rec_id = EVREC_QS_REC_USR_DICT;
        *len = qs_put_name(payload, 1, name);
        return 1;
    }
    if (cur->index == map->slot_count) { /* evrec's loss record (QS.md "Loss records") */
        cur->index++;
        payload[0] = EVREC_QS_REC_LOST;
        *rec_id = EVREC_QS_REC_USR_DICT;
        *len = qs_put_name(payload, 1, "EVREC_LOST");
        return 1;
    }
    cur->stage = ST_END;
    return 0;
}

evrec_status evrec_qs_session_next(const evrec_qs_map_t *map, evrec_qs_session_cursor_t *cur, uint8_t *rec_id,
                                   uint8_t *payload, size_t *len)
{
    if (!map || !cur || !rec_id || !payload || !len) {
        return EVREC_E_ARG;
    }
    int put = 0;
    while (!put) {
        switch (cur->stage) {
        case ST_EMPTY:
            cur->stage = ST_INFO;
            *rec_id = EVREC_QS_REC_EMPTY;
            *len = 0;
            return EVREC_OK;
        case ST_INFO: put = stage_info(map, cur, rec_id, payload, len); break;
        case ST_OBJ:
            put = stage_addr(map->opts.objects, map->opts.object_count, EVREC_QS_REC_OBJ_DICT, ST_FUN, cur, rec_id,
                             payload, len);
            break;
        case ST_FUN:
            put = stage_addr(map->opts.functions, map->opts.function_count, EVREC_QS_REC_FUN_DICT, ST_TYPES, cur,
                             rec_id, payload, len);
            break;
        case ST_TYPES: put = stage_types(map, cur, rec_id, payload, len); break;
        case ST_ENUMS: put = stage_enums(map, cur, rec_id, payload, len); break;
        case ST_USR: put = stage_usr(map, cur, rec_id, payload, len); break;
        default: return EVREC_E_END;
        }
    }
    return EVREC_OK;
}

evrec_status evrec_qs_encode_session(const evrec_qs_map_t *map, uint8_t *out, size_t out_size, size_t *out_len,
                                     uint8_t *next_seq)
{
    if (!map || !out || !out_len) {
        return EVREC_E_ARG;
    }
    evrec_qs_session_cursor_t cur = {0, 0, 0};
    uint8_t payload[EVREC_QS_MAX_PAYLOAD];
    uint8_t rec;
    size_t len, at = 0;
    uint8_t seq = 1;
    evrec_status st;
    while ((st = evrec_qs_session_next(map, &cur, &rec, payload, &len)) == EVREC_OK) {
        size_t n = evrec_qs_frame(seq, rec, payload, len, out + at, out_size - at);
        if (n == 0) {
            return EVREC_E_NO_SPACE;
        }
        at += n;
        seq++;
    }
    *out_len = at;
    if (next_seq) {
        *next_seq = seq;
    }
    return EVREC_OK;
}
