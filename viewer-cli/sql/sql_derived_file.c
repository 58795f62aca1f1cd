/* SPDX-License-Identifier: Apache-2.0 */
/* The tables about the files themselves: `file` (header, clock, the well-known attributes),
 * `attr` (every attribute), `track` (the track model: tracks, spans, counters) and `event_type`
 * (records per event type). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_analysis.h"
#include "sql_derived.h"

/* ---- file ---- */

static const char *clock_source(evrec_time_source s)
{
    switch (s) {
    case EVREC_TIME_FILE: return "file";
    case EVREC_TIME_OPTION: return "option";
    case EVREC_TIME_TICKS: return "ticks";
    default: return "unknown";
    }
}

/* Hashes as 16 hex digits (text: SQLite integers are signed). */
typedef struct file_state {
    char hash[17], hash_computed[17], version[16];
} file_state_t;

static void file_finish(sql_pump_t *p)
{
    const sql_file_t *sf = &p->db->files[p->f];
    const evrec_file_info_t *in = evrec_reader_info(sf->meta);
    file_state_t *st = calloc(1, sizeof *st);
    sql_val_t *v = st ? sql_pump_row(p) : NULL;
    p->state = st;
    if (!v) {
        return;
    }
    snprintf(st->hash, sizeof st->hash, "%016llx", (unsigned long long)in->schema_hash_stored);
    snprintf(st->hash_computed, sizeof st->hash_computed, "%016llx", (unsigned long long)in->schema_hash_computed);
    snprintf(st->version, sizeof st->version, "%u.%u", in->version_major, in->version_minor);
    sql_set_text(&v[1], sf->path);
    sql_set_text(&v[2], in->format == EVREC_FILE_CCORE ? "ccore" : "evrec");
    sql_set_text(&v[3], in->format == EVREC_FILE_CCORE ? NULL : st->version);
    sql_set_text(&v[4], in->schema_hash_stored ? st->hash : NULL);
    sql_set_text(&v[5], st->hash_computed);
    sql_set_u64(&v[6], in->time_freq);
    sql_set_u64(&v[7], sf->time_freq);
    sql_set_text(&v[8], clock_source(sf->time_src));
    if (in->format != EVREC_FILE_CCORE) { /* a bare CCore stream has no header: not known */
        if (in->recorded != UINT64_MAX) {
            sql_set_u64(&v[9], in->recorded);
        }
        sql_set_u64(&v[10], in->dropped);
        sql_set_u64(&v[11], in->overwritten);
    }
    sql_set_int(&v[12], in->lanes);
    sql_set_int(&v[13], (in->flags & 1u) != 0);
    sql_set_u64(&v[14], in->file_size);
    const evrec_meta_t *m = evrec_reader_meta(sf->meta);
    sql_set_int(&v[15], m ? m->event_count : 0);
    /* the attributes (FORMAT.md section 2.6): reader-owned, the reader outlives the query */
    sql_set_text(&v[16], evrec_reader_attr_find(sf->meta, "device"));
    sql_set_text(&v[17], evrec_reader_attr_find(sf->meta, "firmware"));
    sql_set_text(&v[18], evrec_reader_attr_find(sf->meta, "boot"));
}

const sql_derived_def_t sql_table_file = {
    .name = "file",
    .columns = "path TEXT, format TEXT, version TEXT, schema_hash TEXT, schema_hash_computed TEXT, "
               "time_freq INTEGER, clock_hz INTEGER, clock_source TEXT, recorded INTEGER, dropped INTEGER, "
               "overwritten INTEGER, lanes INTEGER, cyclic INTEGER, size INTEGER, event_types INTEGER, "
               "device TEXT, firmware TEXT, boot TEXT",
    .reads_records = 0,
    .begin = sql_derived_no_begin,
    .add = sql_derived_no_add,
    .finish = file_finish,
    .end = sql_derived_free_state,
};

/* ---- attr ---- */

/* One row per attribute of the file (ATTRS chunk), in the file's order. */
static void attr_finish(sql_pump_t *p)
{
    const evrec_reader_t *r = p->db->files[p->f].meta;
    for (uint32_t i = 0, n = evrec_reader_attr_count(r); i < n; i++) {
        const char *k, *val;
        sql_val_t *v = evrec_reader_attr(r, i, &k, &val) == EVREC_OK ? sql_pump_row(p) : NULL;
        if (v) {
            sql_set_text(&v[1], k);
            sql_set_text(&v[2], val);
        }
    }
}

const sql_derived_def_t sql_table_attr = {
    .name = "attr",
    .columns = "key TEXT, value TEXT",
    .reads_records = 0,
    .begin = sql_derived_no_begin,
    .add = sql_derived_no_add,
    .finish = attr_finish,
    .end = sql_derived_free_state,
};

/* ---- track ---- */

/* Leaf paths named by the track rows, kept until the rows are read. */
typedef struct track_state {
    size_t count;
    char **paths; /* each its own block: rows point at them while the array grows */
} track_state_t;

static const char *leaf_path(sql_pump_t *p, uint16_t event, uint32_t leaf)
{
    track_state_t *st = p->state;
    evrec_leaf_info_t li;
    char buf[200];
    if (leaf == EVREC_TRACKS_NONE || evrec_reader_leaf(p->r, event, leaf, &li, buf, sizeof buf) != EVREC_OK) {
        return NULL;
    }
    char **n = realloc(st->paths, (st->count + 1) * sizeof *n);
    if (!n) {
        return NULL;
    }
    st->paths = n;
    size_t len = strlen(buf) + 1;
    if (!(n[st->count] = malloc(len))) {
        return NULL;
    }
    memcpy(n[st->count], buf, len);
    return n[st->count++];
}

static void track_span_row(sql_pump_t *p, const evrec_span_desc_t *s, uint32_t i)
{
    sql_val_t *v = sql_pump_row(p);
    if (v) {
        sql_set_text(&v[1], "span");
        sql_set_text(&v[2], s->name);
        sql_set_text(&v[3], evrec_reader_event_name(p->r, s->begin.event_id));
        sql_set_text(&v[4], leaf_path(p, s->begin.event_id, evrec_spans_track_leaf(p->r, i)));
        sql_set_text(&v[5], leaf_path(p, s->begin.event_id, s->begin.key_leaf));
        sql_set_text(&v[6], evrec_reader_event_name(p->r, s->end.event_id));
    }
}

static void track_finish(sql_pump_t *p)
{
    const evrec_tracks_t *t = evrec_reader_tracks(p->r);
    const evrec_meta_t *m = evrec_reader_meta(p->r);
    for (uint32_t i = 0; t && i < t->track_count; i++) {
        sql_val_t *v = sql_pump_row(p);
        if (v) {
            sql_set_text(&v[1], "track");
            sql_set_text(&v[2], evrec_reader_event_name(p->r, t->tracks[i].event_id));
            sql_set_text(&v[3], evrec_reader_event_name(p->r, t->tracks[i].event_id));
            sql_set_text(&v[4], leaf_path(p, t->tracks[i].event_id, t->tracks[i].leaf));
        }
    }
    for (uint32_t i = 0; t && i < t->span_count; i++) {
        track_span_row(p, &t->spans[i], i);
    }
    for (uint32_t i = 0; t && m && i < t->counter_count; i++) {
        const evrec_counter_desc_t *d = &t->counters[i];
        sql_val_t *v = sql_pump_row(p);
        if (v && d->struct_id < m->struct_count && d->field_index < m->structs[d->struct_id].field_count) {
            const evrec_struct_desc_t *sd = &m->structs[d->struct_id];
            sql_set_text(&v[1], "counter");
            sql_set_text(&v[2], sd->fields[d->field_index].name);
            sql_set_text(&v[3], sd->name);
            sql_set_text(&v[4], sd->fields[d->field_index].name);
            if (d->series && d->series - 1u < sd->field_count) {
                sql_set_text(&v[5], sd->fields[d->series - 1u].name);
            }
        }
    }
}

static int track_begin(sql_pump_t *p)
{
    p->state = calloc(1, sizeof(track_state_t));
    return p->state ? 0 : -1;
}

static void track_end(sql_pump_t *p)
{
    track_state_t *st = p->state;
    for (size_t i = 0; st && i < st->count; i++) {
        free(st->paths[i]);
    }
    if (st) {
        free(st->paths);
        free(st);
    }
}

const sql_derived_def_t sql_table_track = {
    .name = "track",
    .columns = "kind TEXT, name TEXT, event TEXT, field TEXT, key_field TEXT, end_event TEXT",
    .reads_records = 0,
    .begin = track_begin,
    .add = sql_derived_no_add,
    .finish = track_finish,
    .end = track_end,
};

/* ---- event_type ---- */

/* One row per event type of the file with its record count (one counting pass of the reader,
 * evrec_reader_summarize(): the fast way to count records per type). */
static void event_type_finish(sql_pump_t *p)
{
    evrec_reader_summary_t s;
    const evrec_meta_t *m = evrec_reader_meta(p->r);
    if (!m || evrec_reader_summarize(p->r, &s) != EVREC_OK) {
        return;
    }
    for (uint32_t e = 0; e < m->event_count; e++) {
        sql_val_t *v = sql_pump_row(p);
        if (!v) {
            return;
        }
        sql_set_text(&v[1], evrec_reader_event_name(p->r, (uint16_t)e));
        sql_set_int(&v[2], e);
        sql_set_int(&v[3], m->events[e].class_id);
        sql_set_text(&v[4], evrec_reader_event_name(p->r, m->events[e].class_id));
        sql_set_int(&v[5], evrec_reader_event_size(p->r, (uint16_t)e));
        sql_set_u64(&v[6], e < s.event_count ? s.event_counts[e] : 0);
    }
}

const sql_derived_def_t sql_table_event_type = {
    .name = "event_type",
    .columns = "event TEXT, event_id INTEGER, class_id INTEGER, class TEXT, size INTEGER, count INTEGER",
    .reads_records = 0,
    .begin = sql_derived_no_begin,
    .add = sql_derived_no_add,
    .finish = event_type_finish,
    .end = sql_derived_free_state,
};
