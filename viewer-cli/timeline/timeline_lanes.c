/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec timeline`: the rows of the picture. A lane per track value (its enum name or the field
 * and number), a lane per event class when an event has no track (or the file has no TRACKS), a
 * row per counter series (the counter's series field, schema `series:`, e.g. a queue; one row
 * without one), and their order: interrupt lanes first, then tracks (tasks of a kernel trace by
 * priority when it is recorded) by first appearance, the idle lane, class lanes, counters. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

/* Lane groups: an enum track is its enum id; an integer track 0x10000 + struct * 256 + field;
 * a class lane TL_GROUP_CLASS + class id. Counter rows: the counter's index in the track model. */
#define TL_GROUP_INT 0x10000u
#define TL_GROUP_CLASS 0x40000000u
#define TL_GROUP_OTHER 0x7FFFFFFFu

static unsigned kind_width(uint8_t kind)
{
    switch (kind) {
    case EVREC_KIND_UINT8:
    case EVREC_KIND_ENUM_UINT8: return 1;
    case EVREC_KIND_UINT16:
    case EVREC_KIND_ENUM_UINT16: return 2;
    case EVREC_KIND_UINT32:
    case EVREC_KIND_ENUM_UINT32: return 4;
    default: return 0;
    }
}

static int is_enum_kind(uint8_t k)
{
    return k == EVREC_KIND_ENUM_UINT8 || k == EVREC_KIND_ENUM_UINT16 || k == EVREC_KIND_ENUM_UINT32;
}

static int contains_ci(const char *s, const char *w)
{
    size_t n = strlen(w);
    for (; s && *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && tolower((unsigned char)s[i]) == w[i]) {
            i++;
        }
        if (i == n) {
            return 1;
        }
    }
    return 0;
}

/* Counter k of event `id` (its leaf `leaf`): where its series field is. */
static void series_of(tl_model_t *m, uint32_t id, uint32_t leaf, tl_event_t *e, unsigned k)
{
    evrec_leaf_info_t si;
    uint16_t sl = evrec_meta_counter_series_leaf(m->meta, id, leaf);
    if (sl != EVREC_TRACKS_NONE && evrec_reader_leaf(m->r, (uint16_t)id, sl, &si, NULL, 0) == EVREC_OK &&
        kind_width(si.kind)) {
        e->split_off[k] = si.packed_offset;
        e->split_w[k] = (uint8_t)kind_width(si.kind);
        e->split_enum[k] = si.ref;
        e->split_is_enum[k] = (uint8_t)is_enum_kind(si.kind);
    }
}

int tl_lanes_prepare(tl_model_t *m)
{
    const evrec_meta_t *meta = m->meta;
    m->ev = calloc(meta->event_count, sizeof *m->ev);
    m->event_seen = calloc(meta->event_count, 1);
    if (!m->ev || !m->event_seen) {
        return -1;
    }
    const evrec_file_info_t *fi = evrec_reader_info(m->r);
    for (uint32_t id = 0; id < meta->event_count; id++) {
        tl_event_t *e = &m->ev[id];
        e->class_id = meta->events[id].class_id;
        e->is_control = id == fi->control_event;
        e->track_leaf = m->tracks ? evrec_reader_event_track(m->r, (uint16_t)id) : EVREC_TRACKS_NONE;
        e->group = TL_GROUP_CLASS + e->class_id;
        evrec_leaf_info_t li;
        if (e->track_leaf != EVREC_TRACKS_NONE &&
            evrec_reader_leaf(m->r, (uint16_t)id, e->track_leaf, &li, NULL, 0) == EVREC_OK &&
            kind_width(li.kind)) {
            e->track_off = li.packed_offset;
            e->track_w = (uint8_t)kind_width(li.kind);
            e->group = is_enum_kind(li.kind)
                           ? li.ref
                           : TL_GROUP_INT + ((uint32_t)li.struct_id << 8) + (li.field_index & 0xFF);
        } else {
            e->track_leaf = EVREC_TRACKS_NONE;
        }
        if (!m->tracks || !m->tracks->counter_count) {
            continue;
        }
        for (uint32_t leaf = 2; leaf < 4096; leaf++) {
            if (evrec_reader_leaf(m->r, (uint16_t)id, leaf, &li, NULL, 0) != EVREC_OK) {
                break;
            }
            unsigned w = kind_width(li.kind);
            if (!w) {
                continue;
            }
            for (uint32_t c = 0; c < m->tracks->counter_count; c++) {
                const evrec_counter_desc_t *cd = &m->tracks->counters[c];
                if (cd->struct_id == li.struct_id && cd->field_index == li.field_index && e->ncounters < 4) {
                    e->counter_desc[e->ncounters] = (uint16_t)c;
                    e->counter_off[e->ncounters] = li.packed_offset;
                    e->counter_w[e->ncounters] = (uint8_t)w;
                    series_of(m, id, leaf, e, e->ncounters);
                    e->ncounters++;
                }
            }
        }
    }
    return 0;
}

/* The event whose track has this group (for the field name of integer tracks). */
static const char *group_field_name(const tl_model_t *m, uint32_t group, char *buf, size_t n)
{
    for (uint32_t id = 0; id < m->meta->event_count; id++) {
        if (m->ev[id].group == group && m->ev[id].track_leaf != EVREC_TRACKS_NONE) {
            evrec_leaf_info_t li;
            if (evrec_reader_leaf(m->r, (uint16_t)id, m->ev[id].track_leaf, &li, buf, n) == EVREC_OK) {
                return buf;
            }
        }
    }
    snprintf(buf, n, "track");
    return buf;
}

/* A counter row: "<split value> Struct.field" (the split enum's name of the value, else its number). */
static void label_counter(tl_model_t *m, tl_row_t *row)
{
    const evrec_counter_desc_t *cd = &m->tracks->counters[row->group];
    const evrec_struct_desc_t *sd = &m->meta->structs[cd->struct_id];
    const char *split = NULL;
    /* the split enum: any event carrying this counter */
    for (uint32_t id = 0; id < m->meta->event_count && row->value != UINT32_MAX && !split; id++) {
        const tl_event_t *e = &m->ev[id];
        for (unsigned k = 0; k < e->ncounters; k++) {
            if (e->counter_desc[k] == row->group && e->split_w[k] && e->split_is_enum[k]) {
                split = evrec_reader_enum_value(m->r, e->split_enum[k], row->value, NULL);
            }
        }
    }
    char num[16];
    if (!split && row->value != UINT32_MAX) {
        snprintf(num, sizeof num, "%u", (unsigned)row->value);
        split = num;
    }
    snprintf(row->label, sizeof row->label, "%s%s%s.%s", split ? split : "", split ? " " : "", sd->name,
             sd->fields[cd->field_index].name);
    row->order_class = 4;
}

/* A track lane: the value's enum name, else "field value"; sorted first when it is an interrupt,
 * last of the tracks when it is the idle task. */
static void label_track(tl_model_t *m, tl_row_t *row)
{
    char field[64];
    const char *name = NULL;
    if (row->group < TL_GROUP_INT) {
        name = evrec_reader_enum_value(m->r, (uint16_t)row->group, row->value, NULL);
        const char *en = m->meta->enums[row->group].name;
        row->order_class = contains_ci(en, "isr") || contains_ci(en, "irq") || contains_ci(en, "interrupt") ? 0
                                                                                                            : 1;
    } else {
        group_field_name(m, row->group, field, sizeof field);
        row->order_class = contains_ci(field, "isr") || contains_ci(field, "irq") ? 0 : 1;
    }
    if (name) {
        snprintf(row->label, sizeof row->label, "%s", name);
    } else {
        if (row->group < TL_GROUP_INT) {
            group_field_name(m, row->group, field, sizeof field);
        }
        snprintf(row->label, sizeof row->label, "%s %u", field, (unsigned)row->value);
    }
    if (row->order_class == 1 && name &&
        (strcmp(name, "Idle") == 0 || strcmp(name, "idle") == 0 || strcmp(name, "IDLE") == 0)) {
        row->order_class = 2;
    }
    for (char *p = row->label; *p; p++) {
        if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7F) {
            *p = '?';
        }
    }
}

static void label_row(tl_model_t *m, tl_row_t *row)
{
    if (row->group == TL_GROUP_OTHER) {
        snprintf(row->label, sizeof row->label, "(other lanes)");
        row->order_class = 3;
    } else if (row->kind == TL_ROW_COUNTER) {
        label_counter(m, row);
    } else if (row->group >= TL_GROUP_CLASS) {
        const char *n = evrec_reader_event_name(m->r, (uint16_t)(row->group - TL_GROUP_CLASS));
        snprintf(row->label, sizeof row->label, "%s", n ? n : "?");
        row->order_class = 3;
    } else {
        label_track(m, row);
    }
}

int tl_lanes_row(tl_model_t *m, int kind, uint32_t group, uint32_t value, uint64_t index)
{
    for (unsigned i = 0; i < m->nrows; i++) {
        if (m->rows[i].kind == kind && m->rows[i].group == group && m->rows[i].value == value) {
            return (int)i;
        }
    }
    if (m->nrows >= TL_MAX_ROWS - 1) {
        /* full: everything else shares the last row */
        if (m->nrows == TL_MAX_ROWS - 1) {
            group = TL_GROUP_OTHER;
            value = 0;
            kind = TL_ROW_LANE;
        } else {
            return (int)TL_MAX_ROWS - 1;
        }
    }
    tl_row_t *row = &m->rows[m->nrows];
    memset(row, 0, sizeof *row);
    row->kind = kind;
    row->group = group;
    row->value = value;
    row->first_index = index;
    size_t nb = m->nbins;
    if (kind == TL_ROW_COUNTER) {
        row->cb = calloc(nb, sizeof *row->cb);
        if (!row->cb) {
            return -1;
        }
    } else {
        /* the span bins (TL_SLOTS x nbins, 24 bytes a bin) are made by the first span drawn on
         * the lane: lanes of instants only (class lanes, most tracks) never have them */
        row->ib = calloc(nb, sizeof *row->ib);
        if (!row->ib) {
            return -1;
        }
    }
    label_row(m, row);
    return (int)m->nrows++;
}

static const tl_model_t *sort_model;
static int row_cmp(const void *a, const void *b)
{
    const tl_row_t *x = &sort_model->rows[*(const unsigned *)a];
    const tl_row_t *y = &sort_model->rows[*(const unsigned *)b];
    if (x->order_class != y->order_class) {
        return x->order_class - y->order_class;
    }
    if (x->order_class == 4 && x->group != y->group) {
        return x->group < y->group ? -1 : 1;
    }
    long px, py;
    int hx = tl_states_priority(sort_model, x, &px), hy = tl_states_priority(sort_model, y, &py);
    if (hx != hy) {
        return hx ? -1 : 1; /* tasks of known priority first */
    }
    if (hx && px != py) {
        return px < py ? -1 : 1; /* the more important first */
    }
    return x->first_index < y->first_index ? -1 : x->first_index > y->first_index;
}

void tl_lanes_order(const tl_model_t *m, unsigned *order)
{
    for (unsigned i = 0; i < m->nrows; i++) {
        order[i] = i;
    }
    sort_model = m;
    qsort(order, m->nrows, sizeof *order, row_cmp);
}
