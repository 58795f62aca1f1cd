/* SPDX-License-Identifier: Apache-2.0 */
/* Derived tables (span, counter, track, loss, task_state, file): a virtual table module that reads
 * each file once per query and hands every record to an analysis (the span pairing, the
 * task-state model ...), which pushes rows into a small queue as they complete. Memory follows
 * what the analysis keeps open (open spans, tasks), never the records. */
#ifndef EVREC_SQL_DERIVED_H
#define EVREC_SQL_DERIVED_H

#include "sql_internal.h"

typedef struct sql_pump {
    const sql_db_t *db;
    size_t f;          /* the file being read */
    evrec_reader_t *r; /* its reader */
    void *state;       /* the analysis' own */
    int ncols;         /* columns of a row, `file` (column 0) included */
    sql_val_t *rows;   /* the queue: row_count rows of ncols values */
    size_t row_count, row_cap;
    int nomem;
} sql_pump_t;

typedef struct sql_derived_def {
    const char *name;
    const char *columns;         /* the columns after `file INTEGER`: "ts INTEGER, dur INTEGER, ..." */
    int reads_records;           /* 0: begin() then finish() without reading the records */
    int (*begin)(sql_pump_t *p); /* 0 ok, -1: no rows for this file */
    void (*add)(sql_pump_t *p, const evrec_record_t *rec); /* one record, file order */
    void (*finish)(sql_pump_t *p);                         /* the end of the records */
    void (*end)(sql_pump_t *p);                            /* free p->state (rows are drained) */
} sql_derived_def_t;

/* A new row at the end of the queue: every value NULL but column 0, the file. NULL when memory
 * ran out (p->nomem set). */
sql_val_t *sql_pump_row(sql_pump_t *p);

static inline void sql_set_int(sql_val_t *v, int64_t x)
{
    v->type = SQLITE_INTEGER;
    v->i = x;
}
static inline void sql_set_u64(sql_val_t *v, uint64_t x)
{
    v->type = SQLITE_INTEGER;
    v->i = x > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)x;
}
static inline void sql_set_text(sql_val_t *v, const char *s)
{
    v->type = s ? SQLITE_TEXT : SQLITE_NULL;
    v->s = s;
}
static inline void sql_set_real(sql_val_t *v, double d)
{
    v->type = SQLITE_FLOAT;
    v->d = d;
}

/* For tables without state or records: begin() that keeps no state, add() that does nothing,
 * end() that frees p->state (malloc'd or NULL). */
int sql_derived_no_begin(sql_pump_t *p);
void sql_derived_no_add(sql_pump_t *p, const evrec_record_t *rec);
void sql_derived_free_state(sql_pump_t *p);

/* The tables (sql_derived_spans.c, sql_derived_file.c, sql_derived_loss.c, sql_derived_sched.c). */
extern const sql_derived_def_t sql_table_span, sql_table_counter, sql_table_track, sql_table_loss,
    sql_table_task_state, sql_table_file, sql_table_event_type, sql_table_attr;

#endif /* EVREC_SQL_DERIVED_H */
