/* SPDX-License-Identifier: Apache-2.0 */
/* The walk of the scanning tables over the files: one reader at a time, the pushed-down filters
 * applied record by record (after a jump to the lower bounds), the columns read straight from the
 * packed record; and the counting pass of a count per event type. */
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_reader_seek.h"
#include "sql_scan_cursor.h"

void scan_cursor_reset(scan_cursor_t *c)
{
    evrec_reader_close(c->r);
    c->r = NULL;
    sqlite3_free(c->event);
    c->event = NULL;
    free(c->cols);
    c->cols = NULL;
    free(c->counts);
    c->counts = NULL;
    c->counting = 0;
    c->resume = 0;
    c->eof = 0;
    c->f = 0;
    c->idx_lo = c->ts_lo = c->file_lo = 0;
}

/* The id of the event called `name` in reader r, or -1. */
static int event_id(const evrec_reader_t *r, const char *name)
{
    const evrec_meta_t *m = evrec_reader_meta(r);
    for (uint32_t e = 0; m && e < m->event_count; e++) {
        const char *n = evrec_reader_event_name(r, (uint16_t)e);
        if (n && strcmp(n, name) == 0) {
            return (int)e;
        }
    }
    return -1;
}

/* Where each field column of the table is in event `id` of reader r. */
static int map_columns(scan_cursor_t *c, const evrec_reader_t *r, int id)
{
    const sql_event_table_t *t = c->vt->t;
    free(c->cols);
    c->cols = calloc(t->col_count ? t->col_count : 1, sizeof *c->cols);
    if (!c->cols) {
        return -1;
    }
    char path[480];
    evrec_leaf_info_t li;
    for (uint32_t leaf = 2;
         id >= 0 && evrec_reader_leaf(r, (uint16_t)id, leaf, &li, path, sizeof path) == EVREC_OK; leaf++) {
        for (uint32_t k = 0; k < t->col_count; k++) {
            if (strcmp(t->cols[k].path, path) == 0) {
                c->cols[k].off = li.packed_offset;
                c->cols[k].size = (uint8_t)evrec_kind_width(li.kind);
                c->cols[k].is_enum_name = (uint8_t)t->cols[k].enum_name;
                c->cols[k].enum_id = li.ref;
            }
        }
    }
    return 0;
}

/* A reader for file c->f: the parked one when this scan starts at or after the record it kept
 * (a join on idx looking up ascending records), else the file opened again. */
static evrec_reader_t *take_reader(scan_cursor_t *c)
{
    if (c->park && c->park_f == c->f && c->ts_lo == 0 && c->idx_lo >= c->park_rec.index) {
        evrec_reader_t *r = c->park;
        c->park = NULL;
        c->resume = 1;
        return r;
    }
    return sql_file_reader(c->vt->db, c->f);
}

/* Keep the reader of a scan that stopped at its idx upper bound, with the record read past it. */
static void park_reader(scan_cursor_t *c)
{
    evrec_reader_close(c->park);
    c->park = c->r;
    c->park_f = c->f;
    c->park_rec = c->rec;
}

/* The t64 past which no record has ns <= ts_hi: restored time steps back by less than 2^30 ticks
 * (FORMAT.md section 5), so once a record is that far past the bound no later one can be at or
 * before it (the rule of `evrec dump --to`). UINT64_MAX: no bound, or the clock is unknown. */
static uint64_t ts_stop_ticks(uint64_t ts_hi, uint64_t freq)
{
    if (ts_hi == UINT64_MAX || freq == 0) {
        return UINT64_MAX;
    }
    unsigned __int128 t = ((unsigned __int128)ts_hi + 1u) * freq / 1000000000u + 1u +
                          ((unsigned __int128)1u << 30);
    return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

/* Open the next file (from c->f) that can have rows; 0 when there is none. */
static int open_next_file(scan_cursor_t *c)
{
    const sql_db_t *db = c->vt->db;
    for (; c->f < db->file_count; c->f++) {
        if (c->f < c->file_lo || c->f > c->file_hi) {
            continue;
        }
        const evrec_reader_t *meta = db->files[c->f].meta;
        const char *name = c->vt->t->event ? c->vt->t->event : c->event;
        c->want_id = name ? event_id(meta, name) : -1;
        if (name && c->want_id < 0) {
            continue;
        }
        if (map_columns(c, meta, c->want_id) != 0 || !(c->r = take_reader(c))) {
            continue;
        }
        c->ts_stop = ts_stop_ticks(c->ts_hi, db->files[c->f].time_freq);
        return 1;
    }
    return 0;
}

/* The first tick count whose nanoseconds can reach `ns` (never past it). */
static uint64_t ticks_at_most(uint64_t ns, uint64_t freq)
{
    unsigned __int128 t = (unsigned __int128)ns * freq / 1000000000u;
    return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

int scan_advance(scan_cursor_t *c, int first)
{
    for (;;) {
        if (!c->r) {
            if (!open_next_file(c)) {
                c->eof = 1;
                return SQLITE_OK;
            }
            first = 1;
        }
        evrec_status st;
        if (first && c->resume) { /* the parked reader: its kept record first */
            c->resume = 0;
            c->rec = c->park_rec;
            st = c->rec.index < c->idx_lo ? evrec_reader_next_at(c->r, &c->rec, c->idx_lo, 0) : EVREC_OK;
            sql_file_index_warning(c->vt->db, c->f, c->r);
        } else if (first && (c->idx_lo || c->ts_lo)) {
            uint64_t t = ticks_at_most(c->ts_lo, c->vt->db->files[c->f].time_freq);
            st = evrec_reader_next_at(c->r, &c->rec, c->idx_lo, t);
            sql_file_index_warning(c->vt->db, c->f, c->r);
        } else {
            st = evrec_reader_next(c->r, &c->rec);
        }
        first = 0;
        c->vt->db->scanned += st == EVREC_OK;
        if (st != EVREC_OK || c->rec.index > c->idx_hi || c->rec.t64 > c->ts_stop) {
            if (st == EVREC_OK) {
                park_reader(c);
            } else {
                evrec_reader_close(c->r);
            }
            c->r = NULL;
            c->f++;
            continue;
        }
        if ((c->want_id >= 0 && c->rec.id != c->want_id) || c->rec.index < c->idx_lo || c->rec.ns < c->ts_lo ||
            c->rec.ns > c->ts_hi) {
            continue;
        }
        return SQLITE_OK;
    }
}

int scan_start(scan_cursor_t *c)
{
    c->f = 0;
    return scan_advance(c, 1);
}

static void field_column(const scan_cursor_t *c, sqlite3_context *ctx, uint32_t k)
{
    const scan_col_t *col = &c->cols[k];
    if (col->size == 0 || col->off + col->size > c->rec.size) {
        sqlite3_result_null(ctx);
        return;
    }
    uint32_t v = sql_be(c->rec.data + col->off, col->size);
    if (!col->is_enum_name) {
        sqlite3_result_int64(ctx, v);
        return;
    }
    const char *name = evrec_reader_enum_value(c->vt->db->files[c->f].meta, col->enum_id, v, NULL);
    if (name) {
        sqlite3_result_text(ctx, name, -1, SQLITE_STATIC);
    } else {
        sqlite3_result_null(ctx);
    }
}

int scan_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
    const scan_cursor_t *c = (const scan_cursor_t *)cur;
    const sql_db_t *db = c->vt->db;
    if (c->counting) {
        if (col == SCAN_EVENT) {
            sqlite3_result_text(ctx, db->tables[c->group].event, db->tables[c->group].event_len, SQLITE_STATIC);
        }
        return SQLITE_OK;
    }
    switch (col) {
    case SCAN_IDX: sqlite3_result_int64(ctx, (sqlite3_int64)c->rec.index); break;
    case SCAN_TS: sqlite3_result_int64(ctx, (sqlite3_int64)c->rec.ns); break;
    case SCAN_EVENT: {
        const char *n = evrec_reader_event_name(db->files[c->f].meta, c->rec.id);
        sqlite3_result_text(ctx, n ? n : "", -1, SQLITE_STATIC);
        break;
    }
    case SCAN_LANE:
        if (c->rec.lane == EVREC_LANE_UNKNOWN) {
            sqlite3_result_null(ctx);
        } else {
            sqlite3_result_int(ctx, c->rec.lane);
        }
        break;
    case SCAN_FILE: sqlite3_result_int64(ctx, (sqlite3_int64)c->f); break;
    case SCAN_TICKS: sqlite3_result_int64(ctx, (sqlite3_int64)c->rec.t64); break;
    case SCAN_GAP: sqlite3_result_int(ctx, c->rec.gap); break;
    default:
        if (col >= SCAN_FIXED && (uint32_t)(col - SCAN_FIXED) < c->vt->t->col_count) {
            field_column(c, ctx, (uint32_t)(col - SCAN_FIXED));
        }
        break;
    }
    return SQLITE_OK;
}

/* The table of event `name`, or 0 (the record table: no event) when there is none. */
static size_t table_of(const sql_db_t *db, const char *name)
{
    for (size_t k = 1; k < db->table_count; k++) {
        if (db->tables[k].event && strcmp(db->tables[k].event, name) == 0) {
            return k;
        }
    }
    return 0;
}

/* The group after `after` in name order (SQLite's BINARY collation is byte order, as strcmp),
 * among the tables with records left; 0 when none is left. after 0: the first. */
static size_t next_group(const scan_cursor_t *c, size_t after)
{
    const sql_db_t *db = c->vt->db;
    size_t best = 0;
    for (size_t k = 1; k < db->table_count; k++) {
        if (!c->counts[k] || (after && strcmp(db->tables[k].event, db->tables[after].event) <= 0)) {
            continue;
        }
        if (!best || strcmp(db->tables[k].event, db->tables[best].event) < 0) {
            best = k;
        }
    }
    return best;
}

int scan_count_start(scan_cursor_t *c)
{
    const sql_db_t *db = c->vt->db;
    c->counting = 1;
    c->counts = calloc(db->table_count, sizeof *c->counts);
    if (!c->counts) {
        return SQLITE_NOMEM;
    }
    for (size_t f = 0; f < db->file_count; f++) {
        evrec_reader_t *r = f >= c->file_lo && f <= c->file_hi ? sql_file_reader(db, f) : NULL;
        evrec_reader_summary_t s;
        if (r && evrec_reader_summarize(r, &s) == EVREC_OK) {
            for (uint32_t id = 0; id < s.event_count; id++) {
                const char *name = evrec_reader_event_name(r, (uint16_t)id);
                if (name && s.event_counts[id] && (!c->event || strcmp(c->event, name) == 0)) {
                    c->counts[table_of(db, name)] += s.event_counts[id];
                }
            }
        }
        evrec_reader_close(r);
    }
    c->group = next_group(c, 0);
    c->eof = c->group == 0;
    return SQLITE_OK;
}

int scan_count_next(scan_cursor_t *c)
{
    if (--c->counts[c->group] == 0) {
        c->group = next_group(c, c->group);
        c->eof = c->group == 0;
    }
    return SQLITE_OK;
}
