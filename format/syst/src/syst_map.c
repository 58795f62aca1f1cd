/* SPDX-License-Identifier: Apache-2.0 */
/* The SyS-T mapping of a meta-info: catalog ids from the event's name and field layout (SYST.md
 * "Catalog ids"), severities, argument sizes, and the table sorted by catalog id. */
#include "evrec/evrec_syst.h"

#define FNV64_OFFSET 0xcbf29ce484222325ull
#define FNV64_PRIME 0x100000001b3ull

/* Where the canonical text goes: always into the hash, and into `out` when it is not NULL. */
typedef struct canon {
    uint64_t h;
    char *out;
    size_t size;
    size_t len;
} canon_t;

static void put_c(canon_t *c, char ch)
{
    c->h = (c->h ^ (uint8_t)ch) * FNV64_PRIME;
    if (c->out && c->len + 1u < c->size) {
        c->out[c->len] = ch;
    }
    c->len++;
}

static void put_s(canon_t *c, const char *s)
{
    while (*s) {
        put_c(c, *s++);
    }
}

static const char *kind_text(uint8_t kind)
{
    switch (kind) {
    case EVREC_KIND_UINT8: return "u8";
    case EVREC_KIND_UINT16: return "u16";
    case EVREC_KIND_UINT32: return "u32";
    case EVREC_KIND_ENUM_UINT8: return "e8";
    case EVREC_KIND_ENUM_UINT16: return "e16";
    case EVREC_KIND_ENUM_UINT32: return "e32";
    default: return NULL;
    }
}

/* `field:kind` for each field from `first`, comma-separated; struct fields recurse.
 * Adds the number of leaves to *leaves. Returns 0, or -1 on a bad table. */
static int canon_fields(const evrec_meta_t *m, uint32_t sid, uint32_t first, unsigned depth, canon_t *c,
                        uint32_t *leaves)
{
    if (sid >= m->struct_count || depth > EVREC_MAX_NESTING) {
        return -1;
    }
    const evrec_struct_desc_t *s = &m->structs[sid];
    for (uint32_t f = first; f < s->field_count; f++) {
        const evrec_field_desc_t *fd = &s->fields[f];
        if (f > first) {
            put_c(c, ',');
        }
        put_s(c, fd->name);
        put_c(c, ':');
        if (fd->kind == EVREC_KIND_STRUCT) {
            if (fd->ref >= m->struct_count) {
                return -1;
            }
            put_s(c, m->structs[fd->ref].name);
            put_c(c, '{');
            if (canon_fields(m, fd->ref, 0, depth + 1u, c, leaves) != 0) {
                return -1;
            }
            put_c(c, '}');
        } else {
            const char *k = kind_text(fd->kind);
            if (!k) {
                return -1;
            }
            put_s(c, k);
            (*leaves)++;
        }
    }
    return 0;
}

/* The canonical text of event `e` into c; *leaves = its leaf fields (time and id excluded). */
static evrec_status canon_event(const evrec_meta_t *m, uint32_t e, canon_t *c, uint32_t *leaves)
{
    if (e >= m->event_count) {
        return EVREC_E_BAD_ID;
    }
    uint32_t sid = m->events[e].struct_id;
    if (sid >= m->struct_count) {
        return EVREC_E_META;
    }
    c->h = FNV64_OFFSET;
    c->len = 0;
    *leaves = 0;
    put_s(c, m->structs[sid].name);
    put_c(c, '(');
    if (canon_fields(m, sid, 2u, 0, c, leaves) != 0) {
        return EVREC_E_META;
    }
    put_c(c, ')');
    if (c->out && c->size) {
        c->out[c->len < c->size ? c->len : c->size - 1u] = '\0';
    }
    return EVREC_OK;
}

evrec_status evrec_syst_catalog_id(const evrec_meta_t *meta, uint32_t event_id, int id64, uint64_t *id)
{
    if (!meta || !id) {
        return EVREC_E_ARG;
    }
    canon_t c = {0, NULL, 0, 0};
    uint32_t leaves;
    evrec_status st = canon_event(meta, event_id, &c, &leaves);
    if (st == EVREC_OK) {
        *id = id64 ? c.h : (uint32_t)(c.h ^ (c.h >> 32));
    }
    return st;
}

size_t evrec_syst_canonical_text(const evrec_meta_t *meta, uint32_t event_id, char *out, size_t out_size)
{
    if (!meta || (!out && out_size)) {
        return 0;
    }
    canon_t c = {0, out, out_size, 0};
    uint32_t leaves;
    return canon_event(meta, event_id, &c, &leaves) == EVREC_OK ? c.len : 0u;
}

size_t evrec_syst_map_entries_size(const evrec_meta_t *meta)
{
    return meta ? (size_t)meta->event_count * (sizeof(evrec_syst_event_map_t) + sizeof(uint16_t)) : 0u;
}

/* The options of evrec_syst_map_init() (defaults when opts is NULL) into *o, checked. */
static evrec_status map_options(const evrec_meta_t *meta, const evrec_syst_options_t *opts,
                                evrec_syst_options_t *o)
{
    static const evrec_syst_options_t defaults = {{0}, 0, 0, 0, EVREC_SYST_SEV_INFO, 0, 0, 0, NULL};
    *o = opts ? *opts : defaults;
    if (o->severity > EVREC_SYST_SEV_DEBUG || (o->use_guid && o->unit > 0x7FFu) ||
        (!o->use_guid && (o->unit > 0xFu || o->module > 0x7Fu))) {
        return EVREC_E_ARG;
    }
    for (uint32_t e = 0; o->event_severity && e < meta->event_count; e++) {
        if (o->event_severity[e] > EVREC_SYST_SEV_DEBUG && o->event_severity[e] != EVREC_SYST_SEV_DEFAULT) {
            return EVREC_E_ARG;
        }
    }
    return EVREC_OK;
}

/* The header word every catalog message of the map starts with. */
static uint32_t map_header(const evrec_syst_options_t *o)
{
    uint32_t h = EVREC_SYST_TYPE_CATALOG | EVREC_SYST_HDR_LEN |
                 ((o->id64 ? EVREC_SYST_CATALOG_ID64_P32 : EVREC_SYST_CATALOG_ID32_P32)
                  << EVREC_SYST_HDR_SUBTYPE_SHIFT);
    if (o->timestamp) {
        h |= EVREC_SYST_HDR_TS;
    }
    if (o->crc) {
        h |= EVREC_SYST_HDR_CHK;
    }
    if (o->use_guid) {
        h |= EVREC_SYST_HDR_GUID | ((uint32_t)o->unit << EVREC_SYST_HDR_UNIT_SHIFT);
    } else {
        h |= ((uint32_t)o->module << EVREC_SYST_HDR_MODULE_SHIFT) |
             ((uint32_t)o->unit << EVREC_SYST_HDR_UNIT_SHIFT);
    }
    return h;
}

/* The entry of event e, inserted into by_id (ascending catalog id; equal ids: ascending event
 * id). EVREC_E_META when its catalog id cannot be made. */
static evrec_status map_event(evrec_syst_map_t *map, uint32_t e)
{
    const evrec_syst_options_t *o = &map->opts;
    evrec_syst_event_map_t *em = &map->events[e];
    canon_t c = {0, NULL, 0, 0};
    uint32_t leaves;
    if (canon_event(map->meta, e, &c, &leaves) != EVREC_OK) {
        return EVREC_E_META;
    }
    em->id = o->id64 ? c.h : (uint32_t)(c.h ^ (c.h >> 32));
    em->args = (uint16_t)(leaves * EVREC_SYST_ARG_SIZE);
    uint8_t sev = o->event_severity ? o->event_severity[e] : EVREC_SYST_SEV_DEFAULT;
    em->severity = sev == EVREC_SYST_SEV_DEFAULT ? o->severity : sev;
    em->flags = EVREC_SYST_EV_ENABLED;
    em->class_id = map->meta->events[e].class_id;
    em->pad = 0;
    if (em->args > map->max_args) {
        map->max_args = em->args;
    }
    uint32_t i = e;
    while (i > 0 && map->events[map->by_id[i - 1u]].id > em->id) {
        map->by_id[i] = map->by_id[i - 1u];
        i--;
    }
    map->by_id[i] = (uint16_t)e;
    return EVREC_OK;
}

evrec_status evrec_syst_map_init(evrec_syst_map_t *map, const evrec_meta_t *meta, const evrec_syst_options_t *opts,
                                 void *entries, size_t entries_size, uint32_t *bad_event)
{
    if (!map || !meta || !entries || meta->event_count == 0 || !meta->events ||
        entries_size < evrec_syst_map_entries_size(meta) || ((uintptr_t)entries % 8u) != 0) {
        return EVREC_E_ARG;
    }
    evrec_syst_options_t o;
    if (map_options(meta, opts, &o) != EVREC_OK) {
        return EVREC_E_ARG;
    }
    const uint32_t n = meta->event_count;
    map->meta = meta;
    map->opts = o;
    map->events = (evrec_syst_event_map_t *)entries;
    map->by_id = (uint16_t *)(void *)(map->events + n);
    map->max_args = 0;
    map->header = map_header(&o);
    for (uint32_t e = 0; e < n; e++) {
        if (map_event(map, e) != EVREC_OK) {
            if (bad_event) {
                *bad_event = e;
            }
            return EVREC_E_META;
        }
    }
    for (uint32_t i = 1; i < n; i++) {
        if (map->events[map->by_id[i]].id == map->events[map->by_id[i - 1u]].id) {
            if (bad_event) {
                *bad_event = map->by_id[i];
            }
            return EVREC_E_META;
        }
    }
    return EVREC_OK;
}

int32_t evrec_syst_map_event(const evrec_syst_map_t *map, uint64_t id)
{
    if (!map || !map->meta) {
        return -1;
    }
    uint32_t lo = 0, hi = map->meta->event_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        uint64_t v = map->events[map->by_id[mid]].id;
        if (v == id) {
            return map->by_id[mid];
        }
        if (v < id) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return -1;
}

static int hex_digit(char ch)
{
    if (ch >= '0' && ch <= '9') {
        return ch - '0';
    }
    if (ch >= 'a' && ch <= 'f') {
        return ch - 'a' + 10;
    }
    if (ch >= 'A' && ch <= 'F') {
        return ch - 'A' + 10;
    }
    return -1;
}

evrec_status evrec_syst_parse_guid(const char *text, uint8_t guid[EVREC_SYST_GUID_SIZE])
{
    if (!text || !guid) {
        return EVREC_E_ARG;
    }
    const char *p = text;
    int brace = *p == '{';
    p += brace;
    unsigned nb = 0;
    for (unsigned i = 0; i < 36u; i++, p++) {
        if (i == 8u || i == 13u || i == 18u || i == 23u) {
            if (*p != '-') {
                return EVREC_E_ARG;
            }
            continue;
        }
        int hi = hex_digit(p[0]);
        int lo = hi < 0 ? -1 : hex_digit(p[1]);
        if (lo < 0) {
            return EVREC_E_ARG;
        }
        guid[nb++] = (uint8_t)(hi * 16 + lo);
        p++;
        i++;
    }
    if (brace && *p++ != '}') {
        return EVREC_E_ARG;
    }
    return *p == '\0' ? EVREC_OK : EVREC_E_ARG;
}

void evrec_syst_format_guid(const uint8_t guid[EVREC_SYST_GUID_SIZE], char out[39])
{
    static const char hex[] = "0123456789ABCDEF";
    char *p = out;
    *p++ = '{';
    for (unsigned i = 0; i < EVREC_SYST_GUID_SIZE; i++) {
        if (i == 4u || i == 6u || i == 8u || i == 10u) {
            *p++ = '-';
        }
        *p++ = hex[guid[i] >> 4];
        *p++ = hex[guid[i] & 0xFu];
    }
    *p++ = '}';
    *p = '\0';
}
