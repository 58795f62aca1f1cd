/* SPDX-License-Identifier: Apache-2.0 */
/* Declarations shared by the files of viewer-cli/sql (not a public interface). */
#ifndef EVREC_SQL_INTERNAL_H
#define EVREC_SQL_INTERNAL_H

#include <stdint.h>

#include "evrec/evrec_reader.h"
#include "sql.h"

/* Most columns of a table; an event type with more leaves keeps the first ones (docs/SQL.md). */
#define SQL_MAX_COLUMNS 256

/* One recording of the database. The reader `meta` stays open for the names and the `file`
 * table; every cursor opens a reader of its own. */
typedef struct sql_file {
    const char *path;
    evrec_reader_t *meta;
    uint64_t time_freq; /* effective, Hz (0 = unknown) */
    evrec_time_source time_src;
    int index_warned; /* a seek found its INDEX chunk wrong, and that was said */
} sql_file_t;

/* One column of an event table: the leaf's path, as the column name gives it ('.' -> '_'). */
typedef struct sql_field_col {
    char *name;    /* column name: the path with '_' for '.', or <path>_raw for an enum's value */
    char *path;    /* the dotted path, to find the leaf in every file */
    int enum_name; /* 1: the value's name (text); 0: the number */
} sql_field_col_t;

/* Columns of one event table (or of `record` when event is NULL). */
typedef struct sql_event_table {
    char *event;   /* the event's name; NULL for `record` */
    int event_len; /* strlen(event) */
    char *table;   /* the SQL name */
    uint32_t col_count;
    sql_field_col_t *cols;
} sql_event_table_t;

struct sql_db {
    sqlite3 *db;
    size_t file_count;
    sql_file_t *files;
    evrec_reader_options_t ropt;
    size_t table_count;
    sql_event_table_t *tables;
    uint64_t scanned; /* records the scanning tables read from the files (all queries) */
};

/* A value of a derived row; text points at storage that lives until the cursor's reader closes
 * (the reader's names and messages) or at static text. */
typedef struct sql_val {
    int type; /* SQLITE_NULL (0 in a zeroed row: see sql_row_*), SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT */
    int64_t i;
    double d;
    const char *s;
} sql_val_t;

/* Open a reader of file `f` with the database's options; NULL when it cannot be opened again. */
evrec_reader_t *sql_file_reader(const sql_db_t *db, size_t f);
/* After a seek in reader `r` of file `f`: the problem it found in the INDEX chunk, if any, on
 * stderr in the words of `evrec dump --from` (cli_report_index_warning()), once per file. */
void sql_file_index_warning(sql_db_t *db, size_t f, const evrec_reader_t *r);

/* 1 when `name` is one of the columns every scanning table starts with (idx, ts, event, lane,
 * file, ticks, gap; ASCII case ignored): a field of that name is called field_<name>. */
int sql_is_fixed_column(const char *name);
/* Declare the scanning tables (record, one per event type): module "evrec_scan". */
int sql_scan_register(sql_db_t *db, char *err, size_t err_size);
/* Declare the derived tables (span, counter, track, loss, task_state, file) and the sched view. */
int sql_derived_register(sql_db_t *db, char *err, size_t err_size);

/* Read a leaf of `size` bytes (1, 2, 4) at `off` of a packed big-endian record. */
static inline uint32_t sql_be(const uint8_t *p, uint32_t size)
{
    return size == 1   ? p[0]
           : size == 2 ? (uint32_t)(p[0] << 8 | p[1])
                       : (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

#endif /* EVREC_SQL_INTERNAL_H */
