/* SPDX-License-Identifier: Apache-2.0 */
/* The module of the derived tables ("evrec_derived"): one file at a time, records pumped into the
 * table's analysis until it has rows queued; `file =` is pushed down. Also declares the tables
 * and the `sched` view. */
#include <stdlib.h>
#include <string.h>

#include "sql_bound.h"
#include "sql_derived.h"

static const sql_derived_def_t *const derived_tables[] = {
    &sql_table_span,       &sql_table_counter, &sql_table_track,      &sql_table_loss,
    &sql_table_task_state, &sql_table_file,    &sql_table_event_type, &sql_table_attr,
};
#define DERIVED_COUNT (sizeof derived_tables / sizeof derived_tables[0])

typedef struct derived_vtab {
    sqlite3_vtab base;
    const sql_db_t *db;
    const sql_derived_def_t *def;
    int ncols;
} derived_vtab_t;

enum { PH_NONE, PH_READING, PH_DONE };

typedef struct derived_cursor {
    sqlite3_vtab_cursor base;
    const derived_vtab_t *vt;
    sql_pump_t p;
    size_t row_at;
    int phase, eof;
    uint64_t file_lo, file_hi;
    sqlite3_int64 rowid;
} derived_cursor_t;

sql_val_t *sql_pump_row(sql_pump_t *p)
{
    if (p->row_count == p->row_cap) {
        size_t cap = p->row_cap ? 2 * p->row_cap : 64;
        sql_val_t *rows = realloc(p->rows, cap * (size_t)p->ncols * sizeof *rows);
        if (!rows) {
            p->nomem = 1;
            return NULL;
        }
        p->rows = rows;
        p->row_cap = cap;
    }
    sql_val_t *v = &p->rows[p->row_count++ * (size_t)p->ncols];
    memset(v, 0, (size_t)p->ncols * sizeof *v);
    sql_set_u64(&v[0], p->f);
    return v;
}

int sql_derived_no_begin(sql_pump_t *p)
{
    p->state = NULL;
    return 0;
}

void sql_derived_no_add(sql_pump_t *p, const evrec_record_t *rec)
{
    (void)p;
    (void)rec;
}

void sql_derived_free_state(sql_pump_t *p)
{
    free(p->state);
}

static int derived_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                           char **err)
{
    const sql_derived_def_t *def = NULL;
    for (size_t i = 0; argc > 3 && i < DERIVED_COUNT; i++) {
        def = strcmp(derived_tables[i]->name, argv[3]) == 0 ? derived_tables[i] : def;
    }
    if (!def) {
        *err = sqlite3_mprintf("evrec_derived: no such table");
        return SQLITE_ERROR;
    }
    char *sql = sqlite3_mprintf("CREATE TABLE x(file INTEGER, %s)", def->columns);
    int rc = sql ? sqlite3_declare_vtab(db, sql) : SQLITE_NOMEM;
    sqlite3_free(sql);
    derived_vtab_t *vt = rc == SQLITE_OK ? sqlite3_malloc(sizeof *vt) : NULL;
    if (!vt) {
        return rc == SQLITE_OK ? SQLITE_NOMEM : rc;
    }
    memset(vt, 0, sizeof *vt);
    vt->db = aux;
    vt->def = def;
    vt->ncols = 2;
    for (const char *s = def->columns; *s; s++) {
        vt->ncols += *s == ',';
    }
    *out = &vt->base;
    return SQLITE_OK;
}

static int derived_disconnect(sqlite3_vtab *tab)
{
    sqlite3_free(tab);
    return SQLITE_OK;
}

static int derived_best_index(sqlite3_vtab *tab, sqlite3_index_info *ii)
{
    (void)tab;
    ii->estimatedCost = 1e5;
    for (int i = 0; i < ii->nConstraint; i++) {
        if (ii->aConstraint[i].usable && ii->aConstraint[i].iColumn == 0 &&
            ii->aConstraint[i].op == SQLITE_INDEX_CONSTRAINT_EQ) {
            ii->aConstraintUsage[i].argvIndex = 1;
            ii->aConstraintUsage[i].omit = 1;
            ii->idxNum = 1;
            ii->estimatedCost = 1e4;
            break;
        }
    }
    return SQLITE_OK;
}

static int derived_open(sqlite3_vtab *tab, sqlite3_vtab_cursor **out)
{
    derived_cursor_t *c = sqlite3_malloc(sizeof *c);
    if (!c) {
        return SQLITE_NOMEM;
    }
    memset(c, 0, sizeof *c);
    c->vt = (const derived_vtab_t *)tab;
    c->p.db = c->vt->db;
    c->p.ncols = c->vt->ncols;
    *out = &c->base;
    return SQLITE_OK;
}

/* End the current file: the analysis' state, then the reader. */
static void end_file(derived_cursor_t *c)
{
    if (c->phase != PH_NONE) {
        c->vt->def->end(&c->p);
        c->p.state = NULL;
    }
    evrec_reader_close(c->p.r);
    c->p.r = NULL;
    c->phase = PH_NONE;
}

static int derived_close(sqlite3_vtab_cursor *cur)
{
    derived_cursor_t *c = (derived_cursor_t *)cur;
    end_file(c);
    free(c->p.rows);
    sqlite3_free(c);
    return SQLITE_OK;
}

/* Open the next file in range and start its analysis; 0 when no file is left. */
static int start_file(derived_cursor_t *c)
{
    for (; c->p.f < c->p.db->file_count; c->p.f++) {
        if (c->p.f < c->file_lo || c->p.f > c->file_hi || !(c->p.r = sql_file_reader(c->p.db, c->p.f))) {
            continue;
        }
        if (c->vt->def->begin(&c->p) != 0) {
            evrec_reader_close(c->p.r);
            c->p.r = NULL;
            continue;
        }
        c->phase = PH_READING;
        if (!c->vt->def->reads_records) {
            c->vt->def->finish(&c->p);
            c->phase = PH_DONE;
        }
        return 1;
    }
    return 0;
}

/* Refill the queue: read records until the analysis gives rows, file after file. */
static int pump(derived_cursor_t *c)
{
    c->p.row_count = 0;
    c->row_at = 0;
    while (c->p.row_count == 0 && !c->p.nomem) {
        if (c->phase == PH_DONE) {
            end_file(c);
            c->p.f++;
        }
        if (c->phase == PH_NONE && !start_file(c)) {
            c->eof = 1;
            return SQLITE_OK;
        }
        evrec_record_t rec;
        if (c->phase != PH_READING) {
            continue;
        }
        if (evrec_reader_next(c->p.r, &rec) == EVREC_OK) {
            c->vt->def->add(&c->p, &rec);
        } else {
            c->vt->def->finish(&c->p);
            c->phase = PH_DONE;
        }
    }
    return c->p.nomem ? SQLITE_NOMEM : SQLITE_OK;
}

static int derived_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
                          sqlite3_value **argv)
{
    (void)idx_str;
    derived_cursor_t *c = (derived_cursor_t *)cur;
    end_file(c);
    c->p.f = 0;
    c->p.row_count = c->row_at = 0;
    c->eof = 0;
    c->rowid = 0;
    c->file_lo = 0;
    c->file_hi = UINT64_MAX;
    if (idx_num == 1 && argc == 1 && sql_bound(argv[0], '=', &c->file_lo, &c->file_hi)) {
        c->eof = 1;
        return SQLITE_OK;
    }
    return pump(c);
}

static int derived_next(sqlite3_vtab_cursor *cur)
{
    derived_cursor_t *c = (derived_cursor_t *)cur;
    c->rowid++;
    return ++c->row_at < c->p.row_count ? SQLITE_OK : pump(c);
}

static int derived_eof(sqlite3_vtab_cursor *cur)
{
    return ((const derived_cursor_t *)cur)->eof;
}

static int derived_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
    const derived_cursor_t *c = (const derived_cursor_t *)cur;
    const sql_val_t *v = &c->p.rows[c->row_at * (size_t)c->p.ncols + (size_t)col];
    switch (v->type) {
    case SQLITE_INTEGER: sqlite3_result_int64(ctx, v->i); break;
    case SQLITE_FLOAT: sqlite3_result_double(ctx, v->d); break;
    case SQLITE_TEXT: sqlite3_result_text(ctx, v->s, -1, SQLITE_TRANSIENT); break;
    default: sqlite3_result_null(ctx); break;
    }
    return SQLITE_OK;
}

static int derived_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    *rowid = ((const derived_cursor_t *)cur)->rowid;
    return SQLITE_OK;
}

static sqlite3_module derived_module = {
    .iVersion = 1,
    .xCreate = derived_connect,
    .xConnect = derived_connect,
    .xBestIndex = derived_best_index,
    .xDisconnect = derived_disconnect,
    .xDestroy = derived_disconnect,
    .xOpen = derived_open,
    .xClose = derived_close,
    .xFilter = derived_filter,
    .xNext = derived_next,
    .xEof = derived_eof,
    .xColumn = derived_column,
    .xRowid = derived_rowid,
};

int sql_derived_register(sql_db_t *db, char *err, size_t err_size)
{
    if (sqlite3_create_module(db->db, "evrec_derived", &derived_module, db) != SQLITE_OK) {
        snprintf(err, err_size, "sqlite: %s", sqlite3_errmsg(db->db));
        return -1;
    }
    for (size_t i = 0; i <= DERIVED_COUNT; i++) {
        char *sql = i < DERIVED_COUNT
                        ? sqlite3_mprintf("CREATE VIRTUAL TABLE %s USING evrec_derived(%s)",
                                          derived_tables[i]->name, derived_tables[i]->name)
                        : sqlite3_mprintf("%s", "CREATE VIEW sched AS SELECT file, ts, dur, core AS cpu, "
                                                "task, task_name, next_state AS end_state, begin_idx, "
                                                "end_idx, ticks, dur_ticks, flags FROM task_state "
                                                "WHERE state = 'RUNNING'");
        int rc = sql ? sqlite3_exec(db->db, sql, NULL, NULL, NULL) : SQLITE_NOMEM;
        sqlite3_free(sql);
        if (rc != SQLITE_OK) {
            snprintf(err, err_size, "sqlite: %s", sqlite3_errmsg(db->db));
            return -1;
        }
    }
    return 0;
}
