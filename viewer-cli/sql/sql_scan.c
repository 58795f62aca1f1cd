/* SPDX-License-Identifier: Apache-2.0 */
/* The scanning virtual tables: `record` and one table per event type, read through the reader
 * record by record. Pushed down (xBestIndex): `idx` and `ts` lower bounds (the reader jumps with
 * evrec_reader_next_at()), an `idx` upper bound (the file's scan stops there), `event =` and
 * `file =`. A query that uses only `event` of `record` (a count per event type) is answered from
 * one counting pass per file (evrec_reader_summarize()) as rows grouped by event. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "evrec/evrec_reader_seek.h"
#include "sql_bound.h"
#include "sql_internal.h"
#include "sql_scan_cursor.h"

static const char *const fixed_names[SCAN_FIXED] = {"idx", "ts", "event", "lane", "file", "ticks", "gap"};

int sql_is_fixed_column(const char *name)
{
    for (int i = 0; i < SCAN_FIXED; i++) {
        if (strcasecmp(fixed_names[i], name) == 0) {
            return 1;
        }
    }
    return 0;
}

static int scan_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err)
{
    sql_db_t *sdb = aux;
    size_t k = argc > 3 ? (size_t)strtoul(argv[3], NULL, 10) : 0;
    if (k >= sdb->table_count) {
        *err = sqlite3_mprintf("evrec_scan: no table %s", argc > 3 ? argv[3] : "");
        return SQLITE_ERROR;
    }
    const sql_event_table_t *t = &sdb->tables[k];
    sqlite3_str *s = sqlite3_str_new(db);
    sqlite3_str_appendall(s, "CREATE TABLE x(idx INTEGER, ts INTEGER, event TEXT, lane INTEGER, file INTEGER, "
                             "ticks INTEGER, gap INTEGER");
    for (uint32_t c = 0; c < t->col_count; c++) {
        sqlite3_str_appendf(s, ", \"%w\" %s", t->cols[c].name, t->cols[c].enum_name ? "TEXT" : "INTEGER");
    }
    sqlite3_str_appendall(s, ")");
    char *sql = sqlite3_str_finish(s);
    int rc = sql ? sqlite3_declare_vtab(db, sql) : SQLITE_NOMEM;
    sqlite3_free(sql);
    if (rc != SQLITE_OK) {
        return rc;
    }
    scan_vtab_t *vt = sqlite3_malloc(sizeof *vt);
    if (!vt) {
        return SQLITE_NOMEM;
    }
    memset(vt, 0, sizeof *vt);
    vt->db = sdb;
    vt->t = t;
    *out = &vt->base;
    return SQLITE_OK;
}

static int scan_disconnect(sqlite3_vtab *tab)
{
    sqlite3_free(tab);
    return SQLITE_OK;
}

/* The plan's letter for a constraint we take: column i(dx), t(s), n(ame of event), f(ile), then
 * the operator; 0 when we leave it to SQLite. */
static int plan_code(const scan_vtab_t *vt, int col, unsigned char op, char out[2])
{
    char c = col == SCAN_IDX                      ? 'i'
             : col == SCAN_TS                     ? 't'
             : col == SCAN_EVENT && !vt->t->event ? 'n'
             : col == SCAN_FILE                   ? 'f'
                                                  : 0;
    char o = op == SQLITE_INDEX_CONSTRAINT_EQ   ? '='
             : op == SQLITE_INDEX_CONSTRAINT_GT ? '>'
             : op == SQLITE_INDEX_CONSTRAINT_GE ? 'G'
             : op == SQLITE_INDEX_CONSTRAINT_LT ? '<'
             : op == SQLITE_INDEX_CONSTRAINT_LE ? 'L'
                                                : 0;
    if (!c || !o || ((c == 'n' || c == 'f') && o != '=')) {
        return 0;
    }
    out[0] = c;
    out[1] = o;
    return 1;
}

/* No column is read (count(*)), or only `event` in event order (a count per event type): the
 * counting pass answers it. (`event` alone without an order stays a scan: rows in file order.) */
static int counting_plan(const scan_vtab_t *vt, const sqlite3_index_info *ii, int bounded)
{
    if (vt->t->event || bounded || (ii->colUsed & ~((sqlite3_uint64)1 << SCAN_EVENT)) != 0) {
        return 0;
    }
    if (ii->nOrderBy == 0) {
        return ii->colUsed == 0;
    }
    return ii->nOrderBy == 1 && ii->aOrderBy[0].iColumn == SCAN_EVENT && !ii->aOrderBy[0].desc;
}

static int scan_best_index(sqlite3_vtab *tab, sqlite3_index_info *ii)
{
    scan_vtab_t *vt = (scan_vtab_t *)tab;
    char plan[2 * 32 + 1];
    int n = 0, bounded = 0;
    double cost = 1e6;
    for (int i = 0; i < ii->nConstraint && n < 32; i++) {
        const struct sqlite3_index_constraint *k = &ii->aConstraint[i];
        if (!k->usable || !plan_code(vt, k->iColumn, k->op, &plan[2 * n])) {
            continue;
        }
        bounded |= plan[2 * n] == 'i' || plan[2 * n] == 't';
        cost /= plan[2 * n + 1] == '=' ? 100.0 : 4.0;
        ii->aConstraintUsage[i].argvIndex = ++n;
        ii->aConstraintUsage[i].omit = 1;
    }
    plan[2 * n] = 0;
    ii->idxStr = sqlite3_mprintf("%s", plan);
    ii->needToFreeIdxStr = 1;
    if (counting_plan(vt, ii, bounded)) {
        ii->idxNum = 1;
        ii->orderByConsumed = ii->nOrderBy == 1;
    }
    ii->estimatedCost = cost;
    ii->estimatedRows = (sqlite3_int64)cost;
    return ii->idxStr ? SQLITE_OK : SQLITE_NOMEM;
}

static int scan_open(sqlite3_vtab *tab, sqlite3_vtab_cursor **out)
{
    scan_cursor_t *c = sqlite3_malloc(sizeof *c);
    if (!c) {
        return SQLITE_NOMEM;
    }
    memset(c, 0, sizeof *c);
    c->vt = (scan_vtab_t *)tab;
    *out = &c->base;
    return SQLITE_OK;
}

static int scan_close(sqlite3_vtab_cursor *cur)
{
    scan_cursor_t *c = (scan_cursor_t *)cur;
    scan_cursor_reset(c);
    evrec_reader_close(c->park);
    sqlite3_free(c);
    return SQLITE_OK;
}

static int scan_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc, sqlite3_value **argv)
{
    scan_cursor_t *c = (scan_cursor_t *)cur;
    scan_cursor_reset(c);
    c->idx_hi = c->ts_hi = UINT64_MAX;
    c->file_hi = UINT64_MAX;
    int empty = 0;
    for (int i = 0; i < argc && idx_str[2 * i]; i++) {
        char col = idx_str[2 * i], op = idx_str[2 * i + 1];
        if (col == 'n') {
            const unsigned char *s = sqlite3_value_text(argv[i]);
            empty |= !s;
            c->event = s ? sqlite3_mprintf("%s", (const char *)s) : NULL;
            empty |= s && !c->event;
            continue;
        }
        uint64_t *lo = col == 'i' ? &c->idx_lo : col == 't' ? &c->ts_lo : &c->file_lo;
        uint64_t *hi = col == 'i' ? &c->idx_hi : col == 't' ? &c->ts_hi : &c->file_hi;
        empty |= sql_bound(argv[i], op, lo, hi);
    }
    if (empty) {
        c->eof = 1;
        return SQLITE_OK;
    }
    return idx_num == 1 ? scan_count_start(c) : scan_start(c);
}

static int scan_next(sqlite3_vtab_cursor *cur)
{
    scan_cursor_t *c = (scan_cursor_t *)cur;
    return c->counting ? scan_count_next(c) : scan_advance(c, 0);
}

static int scan_eof(sqlite3_vtab_cursor *cur)
{
    return ((scan_cursor_t *)cur)->eof;
}

static int scan_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    scan_cursor_t *c = (scan_cursor_t *)cur;
    *rowid = (sqlite3_int64)((uint64_t)c->f << 48 | (c->rec.index & 0xFFFFFFFFFFFFull));
    return SQLITE_OK;
}

static sqlite3_module scan_module = {
    .iVersion = 1,
    .xCreate = scan_connect,
    .xConnect = scan_connect,
    .xBestIndex = scan_best_index,
    .xDisconnect = scan_disconnect,
    .xDestroy = scan_disconnect,
    .xOpen = scan_open,
    .xClose = scan_close,
    .xFilter = scan_filter,
    .xNext = scan_next,
    .xEof = scan_eof,
    .xColumn = scan_column,
    .xRowid = scan_rowid,
};

int sql_scan_register(sql_db_t *db, char *err, size_t err_size)
{
    if (sqlite3_create_module(db->db, "evrec_scan", &scan_module, db) != SQLITE_OK) {
        snprintf(err, err_size, "sqlite: %s", sqlite3_errmsg(db->db));
        return -1;
    }
    for (size_t k = 0; k < db->table_count; k++) {
        char *sql = sqlite3_mprintf("CREATE VIRTUAL TABLE \"%w\" USING evrec_scan(%llu)", db->tables[k].table,
                                    (unsigned long long)k);
        int rc = sql ? sqlite3_exec(db->db, sql, NULL, NULL, NULL) : SQLITE_NOMEM;
        sqlite3_free(sql);
        if (rc != SQLITE_OK) {
            snprintf(err, err_size, "sqlite: table %s: %s", db->tables[k].table, sqlite3_errmsg(db->db));
            return -1;
        }
    }
    return 0;
}
