/* SPDX-License-Identifier: Apache-2.0 */
/* The deterministic mapping of a meta-info to QS record ids, enum groups and local-filter ids
 * (QS.md section 3, "Mapping": only record ids 100..123 are usable). */
#include <string.h>

#include "evrec/evrec_qs.h"

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

size_t evrec_qs_map_entries_size(const evrec_meta_t *meta)
{
    return meta ? (size_t)meta->event_count * sizeof(evrec_qs_event_map_t) : 0u;
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

/* An enum can be a QS enum when all its values, static and run-time, fit a byte. */
static int enum_fits_byte(const evrec_enum_desc_t *e)
{
    for (uint32_t v = 0; v < e->value_count; v++) {
        if (e->values[v].value > 0xFFu) {
            return 0;
        }
    }
    return !e->runtime || e->runtime->lim - 1u <= 0xFFu;
}

static int enum_used(const evrec_meta_t *m, uint32_t enum_id)
{
    for (uint32_t s = 0; s < m->struct_count; s++) {
        for (uint32_t f = 0; f < m->structs[s].field_count; f++) {
            const evrec_field_desc_t *fd = &m->structs[s].fields[f];
            if (fd->kind >= EVREC_KIND_ENUM_UINT8 && fd->kind <= EVREC_KIND_ENUM_UINT32 && fd->ref == enum_id) {
                return 1;
            }
        }
    }
    return 0;
}

/* Worst-case element bytes of a struct's fields (top level skips time and id); 0 on error. */
static uint32_t max_elements(const evrec_qs_map_t *map, uint32_t sid, unsigned depth, int top, int *bad)
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
        if (disp > EVREC_QS_DISPLAY_FUN ||
            (disp >= EVREC_QS_DISPLAY_OBJ && fd->kind != EVREC_KIND_UINT32)) {
            *bad = 1;
            return 0;
        }
        switch (fd->kind) {
        case EVREC_KIND_UINT8:
        case EVREC_KIND_ENUM_UINT8: n += 2; break;
        case EVREC_KIND_UINT16:
        case EVREC_KIND_ENUM_UINT16: n += 3; break;
        case EVREC_KIND_UINT32:
        case EVREC_KIND_ENUM_UINT32: n += 5; break;
        case EVREC_KIND_STRUCT: n += max_elements(map, fd->ref, depth + 1, 0, bad); break;
        default: *bad = 1; return 0;
        }
    }
    return n;
}

evrec_status evrec_qs_map_init(evrec_qs_map_t *map, const evrec_meta_t *meta,
                               const evrec_qs_options_t *opts, void *entries, size_t entries_size)
{
    if (!map || !meta || !entries || meta->event_count == 0 || !meta->events ||
        entries_size < evrec_qs_map_entries_size(meta) || ((uintptr_t)entries % 2u) != 0) {
        return EVREC_E_ARG;
    }
    memset(map, 0, sizeof *map);
    if (opts) {
        map->opts = *opts;
    }
    if (map->opts.time_size == 0) {
        map->opts.time_size = 4;
    }
    if (map->opts.time_size != 1 && map->opts.time_size != 2 && map->opts.time_size != 4) {
        return EVREC_E_ARG;
    }
    map->meta = meta;
    map->events = (evrec_qs_event_map_t *)entries;
    const uint32_t n = meta->event_count;

    /* 1. Record ids. */
    map->classes = (uint8_t)(n > EVREC_QS_EVENT_IDS || map->opts.force_classes);
    if (!map->classes) {
        for (uint32_t e = 0; e < n; e++) {
            map->events[e].slot = (uint8_t)e;
        }
        map->slot_count = (uint8_t)n;
    } else {
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

    /* 2. Enum groups: the event types first (class mode, <= 256 types), then used byte enums. */
    for (unsigned g = 0; g < EVREC_QS_ENUM_GROUPS; g++) {
        map->group_enum[g] = GROUP_FREE;
    }
    map->type_group = EVREC_QS_NO_GROUP;
    if (map->classes && n <= 256u) {
        map->type_group = 0;
        map->group_enum[0] = GROUP_EVENT_TYPES;
        map->group_count = 1;
    }
    for (uint32_t i = 0; i < meta->enum_count && map->group_count < EVREC_QS_ENUM_GROUPS; i++) {
        if (enum_fits_byte(&meta->enums[i]) && enum_used(meta, i)) {
            map->group_enum[map->group_count++] = (uint16_t)i;
        }
    }

    /* 3. Flags, local-filter sources and the largest payload. */
    uint32_t max_payload = 0;
    for (uint32_t e = 0; e < n; e++) {
        evrec_qs_event_map_t *em = &map->events[e];
        const evrec_event_desc_t *ev = &meta->events[e];
        if (ev->struct_id >= meta->struct_count) {
            return EVREC_E_META;
        }
        em->flags = EVREC_QS_EV_ENABLED | (map->classes ? EVREC_QS_EV_TYPED : 0u);
        em->local = ev->class_id;
        const evrec_struct_desc_t *s = &meta->structs[ev->struct_id];
        if (map->opts.local_id_field) {
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
                break;
            }
        }
        int bad = 0;
        uint32_t p = map->opts.time_size + max_elements(map, ev->struct_id, 0, 1, &bad);
        if (map->classes) {
            p += map->type_group != EVREC_QS_NO_GROUP ? 2u : 3u;
        }
        if (bad || p > EVREC_QS_MAX_PAYLOAD) {
            return EVREC_E_META;
        }
        if (p > max_payload) {
            max_payload = p;
        }
    }
    if (map->opts.time_size < 4u && max_payload < map->opts.time_size + 5u) {
        max_payload = map->opts.time_size + 5u; /* the time-sync record: timestamp + U32 */
    }
    map->max_payload = (uint16_t)max_payload;
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
