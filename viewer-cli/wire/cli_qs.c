/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by `evrec qs` and `evrec qs-decode` (see cli_qs.h). */
#include <stdlib.h>
#include <string.h>

#include "cli_qs.h"

static void free_display(cli_qs_map_t *m)
{
    for (uint32_t i = 0; m->display && i < m->structs; i++) {
        free(m->display[i]);
    }
    free(m->display);
    m->display = NULL;
}

/* Display bytes from the meta-info's field attributes: hex and address fields as QS hex. */
static evrec_status display_from_info(cli_qs_map_t *m, const evrec_meta_t *meta)
{
    const evrec_field_info_table_t *t = meta->field_info;
    if (!t || !t->entries || t->count == 0 || meta->struct_count == 0) {
        return EVREC_OK;
    }
    m->structs = meta->struct_count;
    m->display = calloc(meta->struct_count, sizeof *m->display);
    if (!m->display) {
        return EVREC_E_NOMEM;
    }
    for (uint32_t i = 0; i < t->count; i++) {
        const evrec_field_info_t *e = &t->entries[i];
        if (e->struct_id >= meta->struct_count || e->field_index >= meta->structs[e->struct_id].field_count ||
            (e->display != EVREC_DISPLAY_HEX && e->display != EVREC_DISPLAY_ADDRESS)) {
            continue;
        }
        uint8_t kind = meta->structs[e->struct_id].fields[e->field_index].kind;
        if (kind > EVREC_KIND_UINT32) {
            continue; /* enums keep their names; structs have no value */
        }
        uint8_t **d = &m->display[e->struct_id];
        if (!*d) {
            *d = calloc(meta->structs[e->struct_id].field_count, 1);
            if (!*d) {
                return EVREC_E_NOMEM;
            }
        }
        (*d)[e->field_index] = EVREC_QS_DISPLAY_HEX;
    }
    return EVREC_OK;
}

evrec_status cli_qs_map_build(cli_qs_map_t *m, const evrec_meta_t *meta, const evrec_qs_options_t *opts)
{
    memset(m, 0, sizeof *m);
    evrec_qs_options_t o = *opts;
    size_t n = evrec_qs_map_entries_size(meta);
    m->entries = malloc(n ? n : 1);
    if (!m->entries) {
        return EVREC_E_NOMEM;
    }
    if (!o.field_display) {
        evrec_status st = display_from_info(m, meta);
        if (st != EVREC_OK) {
            cli_qs_map_free(m);
            return st;
        }
        o.field_display = (const uint8_t *const *)m->display;
    }
    evrec_status st = evrec_qs_map_init(&m->map, meta, &o, m->entries, n);
    if (st != EVREC_OK) {
        cli_qs_map_free(m);
    }
    return st;
}

void cli_qs_map_free(cli_qs_map_t *m)
{
    free(m->entries);
    m->entries = NULL;
    free_display(m);
}

static int store_field(void *ctx, const evrec_field_view_t *f)
{
    uint8_t *native = ctx;
    unsigned size = (f->kind == EVREC_KIND_UINT8 || f->kind == EVREC_KIND_ENUM_UINT8)     ? 1u
                    : (f->kind == EVREC_KIND_UINT16 || f->kind == EVREC_KIND_ENUM_UINT16) ? 2u
                                                                                          : 4u;
    if (f->offset + size > EVREC_MAX_EVENT_SIZE) {
        return 1;
    }
    if (size == 1) {
        native[f->offset] = (uint8_t)f->value;
    } else if (size == 2) {
        uint16_t v = (uint16_t)f->value;
        memcpy(native + f->offset, &v, 2);
    } else {
        memcpy(native + f->offset, &f->value, 4);
    }
    return 0;
}

void cli_qs_native_from_record(const evrec_reader_t *r, const evrec_record_t *rec, uint8_t *native)
{
    memset(native, 0, EVREC_MAX_EVENT_SIZE);
    evrec_reader_visit_fields(r, rec, store_field, native);
    /* time and id are leaves 0 and 1 at offsets 0 and 4; set them from the record anyway */
    memcpy(native, &rec->time32, 4);
    memcpy(native + 4, &rec->id, 2);
}

int cli_qs_parse_enum_as(const char *s, uint8_t *out)
{
    static const char *const names[] = {"auto", "groups", "strings", "int"};
    for (uint8_t i = 0; i < 4; i++) {
        if (strcmp(s, names[i]) == 0) {
            *out = i;
            return 0;
        }
    }
    return -1;
}
