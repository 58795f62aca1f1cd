/* SPDX-License-Identifier: Apache-2.0 */
/* The database of `evrec sql`: opens the recordings, works out the columns of every event table
 * (the union, by field path, of the event's fields in every file) and declares the tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "evrec/evrec_reader_seek.h"
#include "sql_internal.h"

/* Names of the tables that are not event types: an event type of the same name gets "event_". */
static const char *const builtin_tables[] = {"record",     "span",  "counter", "track",     "loss",
                                             "task_state", "sched", "file",    "event_type"};

evrec_reader_t *sql_file_reader(const sql_db_t *db, size_t f)
{
    evrec_reader_t *r = NULL;
    if (evrec_reader_open_path(&r, db->files[f].path, &db->ropt) != EVREC_OK) {
        evrec_reader_close(r);
        return NULL;
    }
    return r;
}

void sql_file_index_warning(sql_db_t *db, size_t f, const evrec_reader_t *r)
{
    const evrec_reader_error_t *w = evrec_reader_index_warning(r);
    if (w && !db->files[f].index_warned) {
        db->files[f].index_warned = 1;
        fprintf(stderr, "evrec: %s: warning: offset %llu: %s\n", db->files[f].path, (unsigned long long)w->offset,
                w->message);
    }
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) {
        memcpy(p, s, n);
    }
    return p;
}

static int table_name_taken(const sql_db_t *db, const char *name)
{
    for (size_t i = 0; i < sizeof builtin_tables / sizeof builtin_tables[0]; i++) {
        if (strcasecmp(builtin_tables[i], name) == 0) {
            return 1;
        }
    }
    for (size_t i = 0; i < db->table_count; i++) {
        if (strcasecmp(db->tables[i].table, name) == 0) {
            return 1;
        }
    }
    return 0;
}

static sql_event_table_t *find_event_table(sql_db_t *db, const char *event)
{
    for (size_t i = 0; i < db->table_count; i++) {
        if (db->tables[i].event && strcmp(db->tables[i].event, event) == 0) {
            return &db->tables[i];
        }
    }
    return NULL;
}

static sql_event_table_t *add_table(sql_db_t *db, const char *event)
{
    sql_event_table_t *t = realloc(db->tables, (db->table_count + 1) * sizeof *t);
    if (!t) {
        return NULL;
    }
    db->tables = t;
    t = &db->tables[db->table_count];
    memset(t, 0, sizeof *t);
    char name[EVREC_READER_MAX_NAME + 8];
    snprintf(name, sizeof name, "%s%s", event && table_name_taken(db, event) ? "event_" : "",
             event ? event : "record");
    t->event = event ? dup_str(event) : NULL;
    t->table = dup_str(name);
    t->event_len = event ? (int)strlen(event) : 0;
    if ((event && !t->event) || !t->table) {
        free(t->event);
        free(t->table);
        return NULL;
    }
    db->table_count++;
    return t;
}

/* Add the column `path` (plus <path>_raw for an enum) unless the table has it. */
static int add_field(sql_event_table_t *t, const char *path, int is_enum)
{
    for (uint32_t i = 0; i < t->col_count; i++) {
        if (strcmp(t->cols[i].path, path) == 0) {
            return 0;
        }
    }
    uint32_t add = is_enum ? 2u : 1u;
    if (t->col_count + add > SQL_MAX_COLUMNS) {
        return 0;
    }
    sql_field_col_t *c = realloc(t->cols, (t->col_count + add) * sizeof *c);
    if (!c) {
        return -1;
    }
    t->cols = c;
    for (uint32_t k = 0; k < add; k++) {
        sql_field_col_t *col = &t->cols[t->col_count];
        char name[600];
        snprintf(name, sizeof name, "%s%s%s", sql_is_fixed_column(path) ? "field_" : "", path,
                 k == 1 ? "_raw" : "");
        for (char *q = name; *q; q++) {
            *q = *q == '.' ? '_' : *q;
        }
        col->name = dup_str(name);
        col->path = dup_str(path);
        if (!col->name || !col->path) {
            free(col->name);
            free(col->path);
            return -1;
        }
        col->enum_name = is_enum && k == 0;
        t->col_count++;
    }
    return 0;
}

/* The event tables of one file's events. */
static int add_file_tables(sql_db_t *db, const evrec_reader_t *r)
{
    const evrec_meta_t *m = evrec_reader_meta(r);
    for (uint32_t e = 0; m && e < m->event_count; e++) {
        const char *name = evrec_reader_event_name(r, (uint16_t)e);
        if (!name) {
            continue;
        }
        sql_event_table_t *t = find_event_table(db, name);
        if (!t && !(t = add_table(db, name))) {
            return -1;
        }
        char path[480];
        evrec_leaf_info_t li;
        for (uint32_t leaf = 2; evrec_reader_leaf(r, (uint16_t)e, leaf, &li, path, sizeof path) == EVREC_OK;
             leaf++) {
            int is_enum = li.kind == EVREC_KIND_ENUM_UINT8 || li.kind == EVREC_KIND_ENUM_UINT16 ||
                          li.kind == EVREC_KIND_ENUM_UINT32;
            if (add_field(t, path, is_enum) != 0) {
                return -1;
            }
        }
    }
    return 0;
}

static int open_files(sql_db_t *db, const char *const *paths, size_t n, char *err, size_t err_size)
{
    db->files = calloc(n ? n : 1, sizeof *db->files);
    if (!db->files) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    for (size_t f = 0; f < n; f++) {
        sql_file_t *sf = &db->files[f];
        sf->path = paths[f];
        evrec_status st = evrec_reader_open_path(&sf->meta, paths[f], &db->ropt);
        if (st != EVREC_OK) {
            const evrec_reader_error_t *e = evrec_reader_error(sf->meta);
            if (!sf->meta || (e->status == EVREC_E_IO && e->offset == 0)) {
                snprintf(err, err_size, "%s: %s", paths[f], sf->meta ? e->message : "out of memory");
            } else {
                snprintf(err, err_size, "%s: offset %llu: %s", paths[f], (unsigned long long)e->offset,
                         e->message);
            }
            evrec_reader_close(sf->meta);
            sf->meta = NULL;
            return -1;
        }
        db->file_count = f + 1;
        sf->time_freq = evrec_reader_time_freq(sf->meta, &sf->time_src);
        if (add_file_tables(db, sf->meta) != 0) {
            snprintf(err, err_size, "out of memory");
            return -1;
        }
    }
    return 0;
}

int sql_db_open(sql_db_t **out, const char *const *paths, size_t n, const evrec_reader_options_t *ropt, char *err,
                size_t err_size)
{
    *out = NULL;
    sql_db_t *db = calloc(1, sizeof *db);
    if (!db) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    if (ropt) {
        db->ropt = *ropt;
    }
    if (!add_table(db, NULL) || open_files(db, paths, n, err, err_size) != 0) {
        sql_db_close(db);
        return -1;
    }
    if (sqlite3_open(":memory:", &db->db) != SQLITE_OK) {
        snprintf(err, err_size, "sqlite3_open: %s", db->db ? sqlite3_errmsg(db->db) : "out of memory");
        sql_db_close(db);
        return -1;
    }
    if (sql_scan_register(db, err, err_size) != 0 || sql_derived_register(db, err, err_size) != 0) {
        sql_db_close(db);
        return -1;
    }
    *out = db;
    return 0;
}

sqlite3 *sql_db_handle(const sql_db_t *db)
{
    return db->db;
}

void sql_db_close(sql_db_t *db)
{
    if (!db) {
        return;
    }
    sqlite3_close(db->db);
    for (size_t f = 0; f < db->file_count; f++) {
        evrec_reader_close(db->files[f].meta);
    }
    free(db->files);
    for (size_t i = 0; i < db->table_count; i++) {
        for (uint32_t c = 0; c < db->tables[i].col_count; c++) {
            free(db->tables[i].cols[c].name);
            free(db->tables[i].cols[c].path);
        }
        free(db->tables[i].cols);
        free(db->tables[i].event);
        free(db->tables[i].table);
    }
    free(db->tables);
    free(db);
}
