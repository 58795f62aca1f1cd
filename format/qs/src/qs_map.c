/* SPDX-License-Identifier: Apache-2.0 */
/* The deterministic mapping of a meta-info to QS record ids, enum groups and local-filter ids
 * (QS.md section 3, "Mapping": events use record ids 100..121; 122 and 123 are evrec's own records). */
#include <string.h>

#include "evrec/evrec_qs.h"
#include "qs_enc_inline.h"
#include "qs_writer_internal.h"

#define GROUP_EVENT_TYPES 0xFFFEu /* group_enum[] marker: the group names event types */
#define GROUP_FREE 0xFFFFu

static int str_eq(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

/* Leaf fields of struct `sid` (from field `from`), nested structs flattened while depth <
 * EVREC_MAX_NESTING, as the encoders walk them; 0 for a struct id out of range. */
static size_t leaf_count(const evrec_meta_t *m, uint32_t sid, uint32_t from, unsigned depth)
{
    if (sid >= m->struct_count || !m->structs) {
        return 0;
    }
    const evrec_struct_desc_t *s = &m->structs[sid];
    size_t n = 0;
    for (uint32_t f = from; f < s->field_count; f++) {
        if (s->fields[f].kind != EVREC_KIND_STRUCT) {
            n++;
        } else if (depth < EVREC_MAX_NESTING) {
            n += leaf_count(m, s->fields[f].ref, 0, depth + 1);
        }
    }
    return n;
}

size_t evrec_qs_prog_size_(const evrec_meta_t *meta)
{
    size_t n = sizeof(qs_prog_hdr_t) * meta->event_count;
    for (uint32_t e = 0; meta->events && e < meta->event_count; e++) {
        n += 8u * leaf_count(meta, meta->events[e].struct_id, 2, 0);
    }
    return n;
}

size_t evrec_qs_map_entries_size(const evrec_meta_t *meta)
{
    if (!meta) {
        return 0u;
    }
    return (size_t)meta->event_count * sizeof(evrec_qs_event_map_t) + 4u + evrec_qs_prog_size_(meta);
}

static uint8_t display_of(const evrec_qs_options_t *o, uint32_t struct_id, uint32_t field)
{
    if (!o->field_display || !o->field_display[struct_id]) {
        return EVREC_QS_DISPLAY_DEC;
    }
    return o->field_display[struct_id][field];
}

/* Heap sort of the event ids held in events[].local by class id: O(n log n), no memory of its
 * own and no recursion (the map is built on targets too). n <= 65536: ids fit in 16 bits. */
static uint16_t class_at(const evrec_meta_t *m, const evrec_qs_event_map_t *ev, uint32_t i)
{
    return m->events[ev[i].local].class_id;
}

static void sift_down(const evrec_meta_t *m, evrec_qs_event_map_t *ev, uint32_t root, uint32_t n)
{
    for (;;) {
        uint32_t child = 2u * root + 1u;
        if (child >= n) {
            return;
        }
        if (child + 1u < n && class_at(m, ev, child + 1u) > class_at(m, ev, child)) {
            child++;
        }
        if (class_at(m, ev, root) >= class_at(m, ev, child)) {
            return;
        }
        uint16_t t = ev[root].local;
        ev[root].local = ev[child].local;
        ev[child].local = t;
        root = child;
    }
}

static void sort_by_class(const evrec_meta_t *m, evrec_qs_event_map_t *ev, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        ev[i].local = (uint16_t)i;
    }
    for (uint32_t i = n / 2u; i-- > 0;) {
        sift_down(m, ev, i, n);
    }
    for (uint32_t end = n; end-- > 1;) {
        uint16_t t = ev[0].local;
        ev[0].local = ev[end].local;
        ev[end].local = t;
        sift_down(m, ev, 0, end);
    }
}

/* An enum can have a QS group when some value it can take fits a byte: a static value <= 255 or
 * a run-time range that starts there (values above 255 then go as names or integers). */
static int enum_group_candidate(const evrec_enum_desc_t *e)
{
    if (e->value_count && e->values[0].value <= 0xFFu) {
        return 1; /* values are ascending */
    }
    return e->runtime && e->runtime->base <= 0xFFu;
}

/* Fields (in any struct) whose type is enum `enum_id`. */
static uint32_t enum_uses(const evrec_meta_t *m, uint32_t enum_id)
{
    uint32_t n = 0;
    for (uint32_t s = 0; s < m->struct_count; s++) {
        for (uint32_t f = 0; f < m->structs[s].field_count; f++) {
            const evrec_field_desc_t *fd = &m->structs[s].fields[f];
            if (fd->kind >= EVREC_KIND_ENUM_UINT8 && fd->kind <= EVREC_KIND_ENUM_UINT32 && fd->ref == enum_id) {
                n++;
            }
        }
    }
    return n;
}

/* The enum of EventControl's `type` field (3 records per run: it gets a group last). */
static uint32_t control_enum(const evrec_meta_t *m)
{
    if (m->event_count == 0 || m->events[0].struct_id >= m->struct_count) {
        return UINT32_MAX;
    }
    const evrec_struct_desc_t *s = &m->structs[m->events[0].struct_id];
    if (s->field_count > 2 && s->fields[2].kind >= EVREC_KIND_ENUM_UINT8 &&
        s->fields[2].kind <= EVREC_KIND_ENUM_UINT32) {
        return s->fields[2].ref;
    }
    return UINT32_MAX;
}

static int is_enum_kind(uint8_t k)
{
    return k >= EVREC_KIND_ENUM_UINT8 && k <= EVREC_KIND_ENUM_UINT32;
}

static uint32_t kind_size(uint8_t k)
{
    return (k == EVREC_KIND_UINT8 || k == EVREC_KIND_ENUM_UINT8)     ? 1u
           : (k == EVREC_KIND_UINT16 || k == EVREC_KIND_ENUM_UINT16) ? 2u
                                                                     : 4u;
}

/* Longest STR element (format byte, name, NUL) an enum field can be sent as; 0 = never a STR. */
static uint32_t enum_str_bytes(const evrec_enum_desc_t *e)
{
    uint32_t n = 0;
    if (e->runtime) {
        n = EVREC_QS_ENUM_STR_MAX;
    }
    for (uint32_t v = 0; v < e->value_count && n < EVREC_QS_ENUM_STR_MAX; v++) {
        uint32_t k = 0;
        while (e->values[v].name[k] && k <= EVREC_QS_ENUM_STR_MAX) {
            k++;
        }
        if (k <= EVREC_QS_ENUM_STR_MAX && k > n) {
            n = k;
        }
        if (n == 0) {
            n = 1; /* an empty name is still a STR element: mark "can be a string" */
        }
    }
    return (e->runtime || e->value_count) ? n + 2u : 0u;
}

/* Worst-case element bytes of a struct's fields (top level skips time and id); 0 on error. */
static uint32_t max_elements(const evrec_qs_map_t *map, uint32_t sid, unsigned depth, int top, int strings,
                             int *bad)
{
    const evrec_meta_t *m = map->meta;
    if (sid >= m->struct_count || depth > EVREC_MAX_NESTING) {
        *bad = 1;
        return 0;
    }
    const evrec_struct_desc_t *s = &m->structs[sid];
    uint32_t n = 0;
    for (uint32_t f = top ? 2u : 0u; f < s->field_count; f++) {
        const evrec_field_desc_t *fd = &s->fields[f];
        uint8_t disp = display_of(&map->opts, sid, f);
        if (disp > EVREC_QS_DISPLAY_FUN || (disp >= EVREC_QS_DISPLAY_OBJ && fd->kind != EVREC_KIND_UINT32)) {
            *bad = 1;
            return 0;
        }
        if (is_enum_kind(fd->kind) && strings && fd->ref < m->enum_count) {
            uint32_t sb = enum_str_bytes(&m->enums[fd->ref]);
            n += sb > kind_size(fd->kind) + 1u ? sb : kind_size(fd->kind) + 1u;
            continue;
        }
        switch (fd->kind) {
        case EVREC_KIND_UINT8:
        case EVREC_KIND_ENUM_UINT8: n += 2; break;
        case EVREC_KIND_UINT16:
        case EVREC_KIND_ENUM_UINT16: n += 3; break;
        case EVREC_KIND_UINT32:
        case EVREC_KIND_ENUM_UINT32: n += 5; break;
        case EVREC_KIND_STRUCT: n += max_elements(map, fd->ref, depth + 1, 0, strings, bad); break;
        default: *bad = 1; return 0;
        }
    }
    return n;
}

/* Format byte of an integer element of `size` bytes shown as `disp` (the per-byte writer's
 * put_uint()/put_int(): OBJ and FUN only on 4-byte fields, which the map checks). */
static uint8_t int_format(unsigned size, uint8_t disp)
{
    uint8_t type = size == 1 ? EVREC_QS_T_U8 : size == 2 ? EVREC_QS_T_U16 : EVREC_QS_T_U32;
    if (size == 4 && disp == EVREC_QS_DISPLAY_OBJ) {
        return EVREC_QS_T_OBJ;
    }
    if (size == 4 && disp == EVREC_QS_DISPLAY_FUN) {
        return EVREC_QS_T_FUN;
    }
    return disp == EVREC_QS_DISPLAY_HEX ? (uint8_t)(type | (EVREC_QS_HEX_WIDTH << 4)) : type;
}

/* The ops of struct `sid` at native offset `base` (fields from `from`), appended at ops[*k]. */
static void prog_fields(const evrec_qs_map_t *map, qs_prog_hdr_t *h, uint32_t *ops, uint32_t *k, uint32_t sid,
                        uint32_t base, uint32_t from, unsigned depth)
{
    const evrec_meta_t *m = map->meta;
    const evrec_struct_desc_t *s = &m->structs[sid];
    int strings = map->opts.enum_as == EVREC_QS_ENUM_AS_AUTO || map->opts.enum_as == EVREC_QS_ENUM_AS_STRINGS;
    for (uint32_t f = from; f < s->field_count; f++) {
        const evrec_field_desc_t *fd = &s->fields[f];
        uint32_t off = base + fd->offset;
        if (fd->kind == EVREC_KIND_STRUCT) {
            if (depth < EVREC_MAX_NESTING) {
                prog_fields(map, h, ops, k, fd->ref, off, 0, depth + 1);
            }
            continue;
        }
        uint32_t size = kind_size(fd->kind);
        uint32_t w0 = 32u - 8u * size, len = 1u + size;
        uint8_t fmt = int_format(size, display_of(&map->opts, sid, f));
        if (is_enum_kind(fd->kind)) {
            uint8_t g = evrec_qs_map_enum_group(map, (uint16_t)fd->ref);
            if (g != EVREC_QS_NO_GROUP) {
                len = 2;
                if (size > 1u) {
                    w0 |= QS_OP_ENUM; /* checked: a value above 255 is not an ENUM element */
                    h->flags |= QS_PROG_WENUM;
                }
                fmt = (uint8_t)(0x80u | ((unsigned)g << 4) | EVREC_QS_T_I8_ENUM);
                h->flags |= QS_PROG_GENUM;
            } else if (strings && fd->ref < m->enum_count &&
                       (m->enums[fd->ref].value_count || m->enums[fd->ref].runtime)) {
                h->flags |= QS_PROG_SLOW; /* a named value is a STR element */
            }
        }
        /* the value is read as the 4-byte word that ends at the field's last byte */
        if (off + size < 4u || off + size - 4u > 0xFFFFu) {
            h->flags |= QS_PROG_SLOW;
        } else {
            w0 |= (off + size - 4u) << 16;
        }
        h->csum = (uint8_t)(h->csum + fmt);
        ops[2u * *k] = w0;
        ops[2u * *k + 1u] = fmt | len << 8;
        (*k)++;
    }
}

static void build_prog(const evrec_qs_map_t *map, uint16_t e, qs_prog_hdr_t *h, uint32_t *ops, uint32_t *k)
{
    memset(h, 0, sizeof *h);
    h->rec = (uint8_t)(EVREC_QS_REC_USER + map->events[e].slot);
    h->csum = h->rec;
    if (map->events[e].flags & EVREC_QS_EV_TYPED) {
        if (map->type_group != EVREC_QS_NO_GROUP) {
            h->pre[0] = (uint8_t)(0x80u | ((unsigned)map->type_group << 4) | EVREC_QS_T_I8_ENUM);
            h->pre[1] = (uint8_t)e;
            h->npre = 2;
        } else {
            h->pre[0] = EVREC_QS_T_U16;
            h->pre[1] = (uint8_t)e;
            h->pre[2] = (uint8_t)(e >> 8);
            h->npre = 3;
        }
        for (unsigned i = 0; i < h->npre; i++) {
            h->csum = (uint8_t)(h->csum + h->pre[i]);
            if (h->pre[i] == EVREC_QS_FLAG || h->pre[i] == EVREC_QS_ESC) {
                h->flags |= QS_PROG_SLOW;
            }
        }
    }
    uint32_t first = *k;
    h->ops = (uint32_t)((const uint8_t *)(ops + 2u * first) - (const uint8_t *)h);
    prog_fields(map, h, ops, k, map->meta->events[e].struct_id, 0, 2, 0);
    h->nops = *k - first;
}

/* Arguments and options of evrec_qs_map_init(); the defaults filled in. */
static evrec_status map_options(evrec_qs_map_t *map, const evrec_meta_t *meta, const evrec_qs_options_t *opts,
                                const void *entries, size_t entries_size)
{
    if (!map || !meta || !entries || meta->event_count == 0 || !meta->events ||
        entries_size < (size_t)meta->event_count * sizeof(evrec_qs_event_map_t) ||
        ((uintptr_t)entries % 2u) != 0) {
        return EVREC_E_ARG;
    }
    memset(map, 0, sizeof *map);
    if (opts) {
        map->opts = *opts;
    }
    if (map->opts.time_size == 0) {
        map->opts.time_size = 4;
    }
    if ((map->opts.time_size != 1 && map->opts.time_size != 2 && map->opts.time_size != 4) ||
        map->opts.enum_as > EVREC_QS_ENUM_AS_INT) {
        return EVREC_E_ARG;
    }
    return EVREC_OK;
}

/* 1. Record ids: one per event type when they fit, else one per class. */
static void assign_slots(evrec_qs_map_t *map, const evrec_meta_t *meta, uint32_t n)
{
    map->classes = (uint8_t)(n > EVREC_QS_EVENT_IDS || map->opts.force_classes);
    if (!map->classes) {
        for (uint32_t e = 0; e < n; e++) {
            map->events[e].slot = (uint8_t)e;
        }
        map->slot_count = (uint8_t)n;
        return;
    }
    /* Distinct class ids in ascending order get ranks 0, 1, ...; slot = rank mod 24. The
     * events sorted by class (their ids in `local`, which step 3 sets afterwards). */
    sort_by_class(meta, map->events, n);
    uint32_t rank = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint16_t e = map->events[i].local;
        if (i > 0 && meta->events[e].class_id != class_at(meta, map->events, i - 1u)) {
            rank++;
        }
        map->events[e].slot = (uint8_t)(rank % EVREC_QS_EVENT_IDS);
    }
    rank = n ? rank + 1u : 0u;
    map->slot_count = (uint8_t)(rank < EVREC_QS_EVENT_IDS ? rank : EVREC_QS_EVENT_IDS);
}

/* Score of enum i as a group candidate (higher is better; 0: not a candidate). */
static uint32_t group_score(const evrec_meta_t *meta, uint32_t i, uint32_t ctl)
{
    if (!enum_group_candidate(&meta->enums[i])) {
        return 0;
    }
    uint32_t uses = enum_uses(meta, i);
    if (uses == 0) {
        return 0;
    }
    uint32_t score = i == ctl ? 1u : (uses < 0x3FFFFFFFu ? uses : 0x3FFFFFFFu) + 1u;
    if (meta->enums[i].runtime) {
        score |= 0x40000000u;
    }
    return score;
}

/* The used byte enums with the best scores (run-time, fields using it, lower id) take the free
 * groups, kept sorted in a list of the free groups' size: one pass over the enums, no memory of
 * its own. */
static void pick_enum_groups(evrec_qs_map_t *map, const evrec_meta_t *meta)
{
    uint32_t best_id[EVREC_QS_ENUM_GROUPS];
    uint32_t best_score[EVREC_QS_ENUM_GROUPS];
    unsigned room = EVREC_QS_ENUM_GROUPS - map->group_count, have = 0;
    uint32_t ctl = control_enum(meta);
    for (uint32_t i = 0; i < meta->enum_count && i < 0xFFFFu; i++) {
        uint32_t score = group_score(meta, i, ctl);
        if (score == 0) {
            continue;
        }
        unsigned at = have;
        while (at > 0 && best_score[at - 1] < score) { /* ties keep the lower id first */
            at--;
        }
        if (at >= room) {
            continue;
        }
        for (unsigned k = (have < room ? have : room - 1u); k > at; k--) {
            best_id[k] = best_id[k - 1];
            best_score[k] = best_score[k - 1];
        }
        best_id[at] = i;
        best_score[at] = score;
        if (have < room) {
            have++;
        }
    }
    for (unsigned k = 0; k < have; k++) {
        map->group_enum[map->group_count++] = (uint16_t)best_id[k];
    }
}

/* 2. Enum groups: the event types first (class mode, <= 256 types), then used byte enums. */
static void assign_enum_groups(evrec_qs_map_t *map, const evrec_meta_t *meta, uint32_t n)
{
    for (unsigned g = 0; g < EVREC_QS_ENUM_GROUPS; g++) {
        map->group_enum[g] = GROUP_FREE;
    }
    map->type_group = EVREC_QS_NO_GROUP;
    if (map->classes && n <= 256u) {
        map->type_group = 0;
        map->group_enum[0] = GROUP_EVENT_TYPES;
        map->group_count = 1;
    }
    if (map->opts.enum_as == EVREC_QS_ENUM_AS_AUTO || map->opts.enum_as == EVREC_QS_ENUM_AS_GROUPS) {
        pick_enum_groups(map, meta);
    }
}

/* 3a. Names as STR elements fall back to integers when some event's worst case would not fit a
 * QSPY record. Returns 1 when enums go out as strings. */
static int strings_fit(evrec_qs_map_t *map, const evrec_meta_t *meta, uint32_t n)
{
    int strings = map->opts.enum_as == EVREC_QS_ENUM_AS_AUTO || map->opts.enum_as == EVREC_QS_ENUM_AS_STRINGS;
    for (uint32_t e = 0; strings && e < n; e++) {
        int bad = 0;
        uint32_t p = map->opts.time_size + (map->classes ? 3u : 0u) +
                     max_elements(map,
                                  meta->events[e].struct_id < meta->struct_count ? meta->events[e].struct_id : 0u,
                                  0, 1, 1, &bad);
        if (!bad && p > EVREC_QS_MAX_PAYLOAD) {
            map->opts.enum_as = map->opts.enum_as == EVREC_QS_ENUM_AS_AUTO ? EVREC_QS_ENUM_AS_GROUPS
                                                                           : EVREC_QS_ENUM_AS_INT;
            strings = 0;
        }
    }
    return strings;
}

/* The local-filter source of an event: the field named opts.local_id_field, if any. */
static void local_source(const evrec_qs_map_t *map, evrec_qs_event_map_t *em, const evrec_struct_desc_t *s)
{
    for (uint32_t f = 2; f < s->field_count; f++) {
        const evrec_field_desc_t *fd = &s->fields[f];
        if (fd->kind == EVREC_KIND_STRUCT || !str_eq(fd->name, map->opts.local_id_field)) {
            continue;
        }
        unsigned src = (fd->kind == EVREC_KIND_UINT8 || fd->kind == EVREC_KIND_ENUM_UINT8)     ? 1u
                       : (fd->kind == EVREC_KIND_UINT16 || fd->kind == EVREC_KIND_ENUM_UINT16) ? 2u
                                                                                               : 3u;
        em->flags = (uint8_t)(em->flags | (src << EVREC_QS_EV_LOCAL_SHIFT));
        em->local = fd->offset;
        return;
    }
}

/* 3b. Flags, local-filter source and the largest payload of event e (*max_payload grows). */
static evrec_status event_entry(evrec_qs_map_t *map, const evrec_meta_t *meta, uint32_t e, int strings,
                                uint32_t *max_payload)
{
    evrec_qs_event_map_t *em = &map->events[e];
    const evrec_event_desc_t *ev = &meta->events[e];
    if (ev->struct_id >= meta->struct_count) {
        return EVREC_E_META;
    }
    em->flags = EVREC_QS_EV_ENABLED | (map->classes ? EVREC_QS_EV_TYPED : 0u);
    em->local = ev->class_id;
    if (map->opts.local_id_field) {
        local_source(map, em, &meta->structs[ev->struct_id]);
    }
    int bad = 0;
    uint32_t p = map->opts.time_size + max_elements(map, ev->struct_id, 0, 1, strings, &bad);
    if (map->classes) {
        p += map->type_group != EVREC_QS_NO_GROUP ? 2u : 3u;
    }
    if (bad || p > EVREC_QS_MAX_PAYLOAD) {
        return EVREC_E_META;
    }
    if (p > *max_payload) {
        *max_payload = p;
    }
    return EVREC_OK;
}

/* 4. The fast encoder's field programs, when the user memory has room for them. */
static void build_programs(evrec_qs_map_t *map, const evrec_meta_t *meta, void *entries, size_t entries_size,
                           uint32_t n)
{
    uintptr_t at = ((uintptr_t)entries + (size_t)n * sizeof(evrec_qs_event_map_t) + 3u) & ~(uintptr_t)3u;
    size_t skip = (size_t)(at - (uintptr_t)entries);
    if (skip <= entries_size && evrec_qs_prog_size_(meta) <= entries_size - skip) {
        qs_prog_hdr_t *hdr = (qs_prog_hdr_t *)at;
        uint32_t *ops = (uint32_t *)(hdr + n);
        uint32_t k = 0;
        for (uint32_t e = 0; e < n; e++) {
            build_prog(map, (uint16_t)e, &hdr[e], ops, &k);
        }
        map->prog = hdr;
    }
}

evrec_status evrec_qs_map_init(evrec_qs_map_t *map, const evrec_meta_t *meta, const evrec_qs_options_t *opts,
                               void *entries, size_t entries_size)
{
    evrec_status st = map_options(map, meta, opts, entries, entries_size);
    if (st != EVREC_OK) {
        return st;
    }
    map->meta = meta;
    map->events = (evrec_qs_event_map_t *)entries;
    const uint32_t n = meta->event_count;
    assign_slots(map, meta, n);
    assign_enum_groups(map, meta, n);
    int strings = strings_fit(map, meta, n);
    uint32_t max_payload = 0;
    for (uint32_t e = 0; e < n; e++) {
        st = event_entry(map, meta, e, strings, &max_payload);
        if (st != EVREC_OK) {
            return st;
        }
    }
    if (map->opts.time_size < 4u && max_payload < map->opts.time_size + 5u) {
        max_payload = map->opts.time_size + 5u; /* the time-sync record: timestamp + U32 */
    }
    map->max_payload = (uint16_t)max_payload;
    build_programs(map, meta, entries, entries_size, n);
    return EVREC_OK;
}

uint8_t evrec_qs_map_record_id(const evrec_qs_map_t *map, uint16_t event_id)
{
    if (!map || event_id >= map->meta->event_count) {
        return 0;
    }
    return (uint8_t)(EVREC_QS_REC_USER + map->events[event_id].slot);
}

uint8_t evrec_qs_map_enum_group(const evrec_qs_map_t *map, uint16_t enum_id)
{
    for (unsigned g = 0; g < map->group_count; g++) {
        if (map->group_enum[g] == enum_id) {
            return (uint8_t)g;
        }
    }
    return EVREC_QS_NO_GROUP;
}

/* The lowest-valued static entry named `name` among values[0..i) differs from i: 1 if i is the
 * first value with its name. */
static int first_with_name(const evrec_enum_desc_t *e, uint32_t i)
{
    for (uint32_t k = 0; k < i; k++) {
        const char *a = e->values[k].name, *b = e->values[i].name;
        if (str_eq(a, b)) {
            return 0;
        }
    }
    return 1;
}

const char *evrec_qs_map_enum_name(const evrec_qs_map_t *map, uint16_t enum_id, uint32_t value, int *runtime)
{
    if (runtime) {
        *runtime = 0;
    }
    if (!map || enum_id >= map->meta->enum_count) {
        return NULL;
    }
    const evrec_enum_desc_t *e = &map->meta->enums[enum_id];
    const evrec_runtime_enum_t *rt = e->runtime;
    if (rt && value >= rt->base && value < rt->lim) {
        size_t next = evrec_atomic_load_acquire(&rt->next);
        if (value >= next) {
            return NULL; /* not handed out: its name may not be readable */
        }
        const char *name = __atomic_load_n(&rt->names[value - rt->base], __ATOMIC_ACQUIRE);
        if (name && runtime) {
            *runtime = 1;
        }
        return name;
    }
    /* Static values are strictly ascending: binary search. */
    uint32_t lo = 0, hi = e->value_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (e->values[mid].value < value) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    if (lo >= e->value_count || e->values[lo].value != value) {
        return NULL;
    }
    const char *name = e->values[lo].name;
    uint32_t k = 0;
    while (name[k]) {
        if (name[k] == '#' || k >= EVREC_QS_ENUM_STR_MAX) {
            return NULL; /* '#' marks run-time names; too long for the element bound */
        }
        k++;
    }
    return first_with_name(e, lo) ? name : NULL;
}

/* An unsigned integer element as the encoder sends a field (QS.md "Event records"). */
static void put_int(qs_writer_t *w, uint32_t v, unsigned size, uint8_t disp)
{
    uint8_t type = size == 1 ? EVREC_QS_T_U8 : size == 2 ? EVREC_QS_T_U16 : EVREC_QS_T_U32;
    if (disp == EVREC_QS_DISPLAY_HEX) {
        type = (uint8_t)(type | (EVREC_QS_HEX_WIDTH << 4));
    }
    qs_put(w, type);
    qs_put_le(w, v, size);
}

void evrec_qs_put_enum_(const evrec_qs_map_t *map, qs_writer_t *w, uint16_t enum_id, uint32_t v, unsigned size,
                        uint8_t disp)
{
    uint8_t g = evrec_qs_map_enum_group(map, enum_id);
    int named_inline = 0;
    if (g != EVREC_QS_NO_GROUP && v <= 0xFFu) {
        /* A lossy live stream: the value's dictionary entry may not have reached the host. */
        const uint8_t *ib = __atomic_load_n(&map->inline_names, __ATOMIC_RELAXED);
        named_inline = ib && map->opts.enum_as == EVREC_QS_ENUM_AS_AUTO &&
                       (((unsigned)__atomic_load_n(&ib[g * 32u + (v >> 3)], __ATOMIC_RELAXED) >> (v & 7u)) & 1u) !=
                           0u;
        if (!named_inline) {
            qs_put(w, (uint8_t)(0x80u | ((unsigned)g << 4) | EVREC_QS_T_I8_ENUM));
            qs_put(w, (uint8_t)v);
            return;
        }
    }
    if (map->opts.enum_as == EVREC_QS_ENUM_AS_AUTO || map->opts.enum_as == EVREC_QS_ENUM_AS_STRINGS) {
        int rt = 0;
        const char *name = evrec_qs_map_enum_name(map, enum_id, v, &rt);
        if (name) {
            char digits[11];
            unsigned nd = 0;
            if (rt) {
                uint32_t x = v;
                do {
                    digits[nd++] = (char)('0' + x % 10u);
                    x /= 10u;
                } while (x);
            }
            /* a run-time name is cut so that `name#value` fits EVREC_QS_ENUM_STR_MAX */
            size_t room = rt ? EVREC_QS_ENUM_STR_MAX - 1u - nd : EVREC_QS_ENUM_STR_MAX;
            qs_put(w, EVREC_QS_T_STR);
            for (size_t k = 0; name[k] && k < room; k++) {
                qs_put(w, (uint8_t)name[k]);
            }
            if (rt) {
                qs_put(w, '#');
                while (nd) {
                    qs_put(w, (uint8_t)digits[--nd]);
                }
            }
            qs_put(w, 0);
            return;
        }
    }
    if (named_inline) { /* no name to send: the ENUM element after all */
        qs_put(w, (uint8_t)(0x80u | ((unsigned)g << 4) | EVREC_QS_T_I8_ENUM));
        qs_put(w, (uint8_t)v);
        return;
    }
    put_int(w, v, size, disp);
}
