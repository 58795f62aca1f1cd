/* SPDX-License-Identifier: Apache-2.0 */
/* The schema hash, computed the way the reader computes it: build the evrec meta-info of the
 * parsed schema in memory (the same tables the generated .c holds), validate it with the
 * recorder's own checks, and hash it with evrec_meta_schema_hash() (format/FORMAT.md section 4). */
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_hash.h"
#include "gen_internal.h"

uint8_t gen_field_kind(const gen_schema_t *s, const gen_field_t *f)
{
    switch (f->type) {
    case GEN_T_U8: return EVREC_KIND_UINT8;
    case GEN_T_U16: return EVREC_KIND_UINT16;
    case GEN_T_U32: return EVREC_KIND_UINT32;
    case GEN_T_ENUM:
        return s->enums[f->ref].width == 1   ? EVREC_KIND_ENUM_UINT8
               : s->enums[f->ref].width == 2 ? EVREC_KIND_ENUM_UINT16
                                             : EVREC_KIND_ENUM_UINT32;
    default: return EVREC_KIND_STRUCT;
    }
}

static int value_cmp(const void *a, const void *b)
{
    const evrec_enum_value_t *x = a, *y = b;
    return x->value < y->value ? -1 : x->value > y->value;
}

void gen_meta_build(const gen_schema_t *s, gen_meta_t *out)
{
    memset(out, 0, sizeof *out);
    out->enum_count = s->enum_count;
    out->struct_count = s->struct_count;
    evrec_enum_desc_t *enums = gen_xmalloc(s->enum_count * sizeof *enums);
    evrec_runtime_enum_t *rts = gen_xmalloc(s->enum_count * sizeof *rts);
    evrec_enum_value_t **values = gen_xmalloc(s->enum_count * sizeof *values);
    /* The hash does not read run-time names; validation only wants a non-NULL array. */
    static const char *no_names[1];
    for (size_t i = 0; i < s->enum_count; i++) {
        const gen_enum_t *e = &s->enums[i];
        values[i] = gen_xmalloc(e->value_count * sizeof **values);
        for (size_t v = 0; v < e->value_count; v++) {
            values[i][v].value = e->values[v].value;
            values[i][v].name = e->values[v].name;
            values[i][v].marker = e->values[v].marker;
        }
        qsort(values[i], e->value_count, sizeof **values, value_cmp);
        enums[i].name = e->name;
        enums[i].kind = e->width == 1   ? EVREC_KIND_ENUM_UINT8
                        : e->width == 2 ? EVREC_KIND_ENUM_UINT16
                                        : EVREC_KIND_ENUM_UINT32;
        enums[i].value_count = (uint32_t)e->value_count;
        enums[i].values = values[i];
        enums[i].runtime = NULL;
        memset(&rts[i], 0, sizeof rts[i]);
        if (e->has_runtime) {
            rts[i].base = e->rt_base;
            rts[i].lim = e->rt_lim;
            rts[i].marker = e->rt_marker;
            rts[i].names = no_names;
            rts[i].next = e->rt_base;
            enums[i].runtime = &rts[i];
        }
    }
    evrec_struct_desc_t *structs = gen_xmalloc(s->struct_count * sizeof *structs);
    evrec_field_desc_t **fields = gen_xmalloc(s->struct_count * sizeof *fields);
    size_t n_info = 0;
    for (size_t i = 0; i < s->struct_count; i++) {
        const gen_struct_t *st = &s->structs[i];
        fields[i] = gen_xmalloc(st->field_count * sizeof **fields);
        for (size_t f = 0; f < st->field_count; f++) {
            const gen_field_t *fd = &st->fields[f];
            fields[i][f].name = fd->name;
            fields[i][f].kind = gen_field_kind(s, fd);
            fields[i][f].ref = (uint16_t)(fd->type >= GEN_T_ENUM ? fd->ref : 0);
            fields[i][f].offset = (uint16_t)fd->offset;
            n_info += fd->description || fd->unit || fd->display;
        }
        structs[i].name = st->name;
        structs[i].field_count = (uint32_t)st->field_count;
        structs[i].fields = fields[i];
        structs[i].native_size = (uint16_t)st->size;
    }
    /* Field display attributes, in the order the generated table lists them. */
    evrec_field_info_t *info = gen_xmalloc(n_info * sizeof *info);
    size_t k = 0;
    for (size_t i = 0; i < s->struct_count; i++) {
        for (size_t f = 0; f < s->structs[i].field_count; f++) {
            const gen_field_t *fd = &s->structs[i].fields[f];
            if (fd->description || fd->unit || fd->display) {
                info[k].struct_id = (uint16_t)i;
                info[k].field_index = (uint16_t)f;
                info[k].display = fd->display;
                info[k].unit = fd->unit;
                info[k].description = fd->description;
                k++;
            }
        }
    }
    evrec_event_desc_t *events = gen_xmalloc(s->event_count * sizeof *events);
    for (size_t i = 0; i < s->event_count; i++) {
        events[i].struct_id = (uint16_t)s->events[i].struct_id;
        events[i].class_id = (uint16_t)s->events[i].class_id;
    }
    out->values = values;
    out->runtimes = rts;
    out->fields = fields;
    out->info = info;
    out->field_info.count = (uint32_t)n_info;
    out->field_info.entries = n_info ? info : NULL;
    evrec_meta_t meta = {s->time_freq, (uint32_t)s->enum_count,
                         enums,        (uint32_t)s->struct_count,
                         structs,      (uint32_t)s->event_count,
                         events,       0,
                         NULL,         NULL};
    out->meta = meta;
    gen_tracks_build(s, out);
}

void gen_meta_free(gen_meta_t *m)
{
    for (size_t i = 0; m->values && i < m->enum_count; i++) {
        free(m->values[i]);
    }
    for (size_t i = 0; m->fields && i < m->struct_count; i++) {
        free(m->fields[i]);
    }
    free(m->values);
    free(m->fields);
    free(m->runtimes);
    free(m->info);
    free(m->tracks);
    free(m->spans);
    free(m->counters);
    free((void *)m->meta.enums);
    free((void *)m->meta.structs);
    free((void *)m->meta.events);
    memset(m, 0, sizeof *m);
}

int gen_meta_hash(gen_schema_t *s)
{
    gen_meta_t m;
    gen_meta_build(s, &m);
    uint32_t bad = 0;
    const char *what = NULL;
    int rc = 0;
    if (evrec_meta_validate(&m.meta, &bad, &what) != EVREC_OK ||
        evrec_tracks_validate(&m.meta, &bad, &what) != EVREC_OK) {
        gen_pos_t top = {0, 1, 1};
        gen_error(s, top, "internal error: evrec_meta_validate refuses the tables (item %lu: %s)",
                  (unsigned long)bad, what ? what : "?");
        rc = -1;
    } else {
        s->hash = evrec_meta_schema_hash(&m.meta);
    }
    gen_meta_free(&m);
    return rc;
}
