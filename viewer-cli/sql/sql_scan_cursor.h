/* SPDX-License-Identifier: Apache-2.0 */
/* The cursor of the scanning tables (sql_scan.c declares them, sql_scan_cursor.c walks the files). */
#ifndef EVREC_SQL_SCAN_CURSOR_H
#define EVREC_SQL_SCAN_CURSOR_H

#include "sql_internal.h"

/* The columns every scanning table starts with; the event's fields follow. */
enum { SCAN_IDX, SCAN_TS, SCAN_EVENT, SCAN_LANE, SCAN_FILE, SCAN_TICKS, SCAN_GAP, SCAN_FIXED };

typedef struct scan_vtab {
    sqlite3_vtab base;
    sql_db_t *db;
    const sql_event_table_t *t;
} scan_vtab_t;

/* Where a field column is in the current file's records. */
typedef struct scan_col {
    uint32_t off; /* byte offset in the packed record */
    uint8_t size; /* 1, 2, 4; 0 = the event has no such field in this file (NULL) */
    uint8_t is_enum_name;
    uint16_t enum_id;
} scan_col_t;

typedef struct scan_cursor {
    sqlite3_vtab_cursor base;
    scan_vtab_t *vt;
    /* the filters (inclusive ranges; `event` NULL = any) */
    uint64_t idx_lo, idx_hi, ts_lo, ts_hi, file_lo, file_hi;
    char *event;
    /* the walk */
    size_t f;          /* current file */
    evrec_reader_t *r; /* its reader (NULL between files) */
    evrec_record_t rec;
    int eof;
    int want_id;      /* the event id kept in this file; -1 = every event */
    uint64_t ts_stop; /* ts upper bound: ticks (t64) past which this file has no row left */
    scan_col_t *cols; /* per field column of the table */
    /* the reader kept by a scan that stopped at its idx upper bound, and the record it read past
     * the bound (its data still valid: the reader was not called again) */
    evrec_reader_t *park;
    size_t park_f;
    evrec_record_t park_rec;
    int resume; /* 1: c->r is the parked reader: start at park_rec */
    /* the counting pass */
    int counting;
    uint64_t *counts; /* records per table of the database (by the event's name) */
    size_t group;     /* the table whose rows are being returned */
} scan_cursor_t;

/* Close the reader and free what the last filter made (the cursor can be filtered again); the
 * parked reader stays (scan_close() closes it). */
void scan_cursor_reset(scan_cursor_t *c);
/* Start the walk at the first file with a row (c's filters set). */
int scan_start(scan_cursor_t *c);
/* Move to the next row (`first`: the reader has just been opened). */
int scan_advance(scan_cursor_t *c, int first);
int scan_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col);
/* The counting pass and its rows. */
int scan_count_start(scan_cursor_t *c);
int scan_count_next(scan_cursor_t *c);

#endif /* EVREC_SQL_SCAN_CURSOR_H */
