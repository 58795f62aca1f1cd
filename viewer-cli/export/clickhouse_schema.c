/* SPDX-License-Identifier: Apache-2.0 */
/* The tables of `evrec export --clickhouse` (docs/FLEET.md, every column). Every data row starts
 * with the recording id and its tags (device, fw, boot): the fleet queries group by them without
 * a join, which a Distributed table would have to make GLOBAL. Sorted by recording id first: the
 * rows of one recording are together, and with --cluster they are sharded by it (all of a
 * recording on one shard). Only MergeTree, Distributed and types ClickHouse 18.16 has. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clickhouse.h"

const char *const ch_table_names[CH_TABLES] = {"records", "spans", "counters", "losses", "recordings"};

#define HEAD "recording_id UInt64, device String, fw String, boot String, "

/* Columns and sort key of each table, in the order clickhouse_rows.c writes them. */
static const struct {
    const char *columns, *order;
} tables[CH_TABLES] = {
    [CH_RECORDS] = {HEAD "idx UInt64, ts UInt64, ticks UInt64, event String, lane UInt16, gap UInt8, "
                         "unverified UInt8, field_names Array(String), field_values Array(UInt32), "
                         "field_labels Array(String)",
                    "recording_id, idx"},
    [CH_SPANS] = {HEAD "ts UInt64, dur Int64, name String, track UInt32, has_track UInt8, "
                       "track_name String, key UInt32, depth UInt32, begin_idx UInt64, end_idx UInt64, "
                       "ticks UInt64, dur_ticks Int64, flags UInt32",
                  "recording_id, name, ts"},
    [CH_COUNTERS] = {HEAD "ts UInt64, idx UInt64, event String, field String, series_field String, "
                          "series UInt32, value UInt32, ticks UInt64",
                     "recording_id, event, field, ts"},
    [CH_LOSSES] = {HEAD "kind String, count UInt64, count_known UInt8, before_idx UInt64, "
                        "position_known UInt8, offset UInt64, message String",
                   "recording_id, kind"},
    [CH_RECORDINGS] = {HEAD "file String, size_bytes UInt64, schema_hash UInt64, time_freq UInt64, "
                            "records UInt64, dropped UInt64, overwritten UInt64, damaged UInt8, "
                            "damaged_ranges UInt64, duration_ns UInt64, tag_keys Array(String), "
                            "tag_values Array(String), exported_at DateTime",
                       "recording_id"},
};

static int run(ch_conn_t *c, const char *sql, int use_db)
{
    return ch_query(c, sql, use_db, NULL);
}

/* CREATE TABLE IF NOT EXISTS name (...) ENGINE = ... */
static int create(ch_conn_t *c, int t, const char *suffix, const char *engine)
{
    size_t n = strlen(tables[t].columns) + strlen(engine) + 256;
    char *q = malloc(n);
    if (!q) {
        snprintf(c->error, sizeof c->error, "out of memory");
        return -1;
    }
    snprintf(q, n, "CREATE TABLE IF NOT EXISTS %s%s (%s) ENGINE = %s", ch_table_names[t], suffix,
             tables[t].columns, engine);
    int rc = run(c, q, 1);
    free(q);
    return rc;
}

int ch_create_tables(ch_conn_t *c, const char *cluster)
{
    char q[512];
    if (c->database) {
        snprintf(q, sizeof q, "CREATE DATABASE IF NOT EXISTS `%s`", c->database);
        if (run(c, q, 0) != 0) {
            return -1;
        }
    }
    for (int t = 0; t < CH_TABLES; t++) {
        char engine[512];
        snprintf(engine, sizeof engine, "MergeTree ORDER BY (%s)", tables[t].order);
        if (create(c, t, cluster ? "_local" : "", engine) != 0) {
            return -1;
        }
        if (cluster) {
            /* the local table in the database each node has under the same name */
            snprintf(engine, sizeof engine, "Distributed(`%s`, `%s`, %s_local, intHash64(recording_id))", cluster,
                     c->database ? c->database : "default", ch_table_names[t]);
            if (create(c, t, "", engine) != 0) {
                return -1;
            }
        }
    }
    return 0;
}
