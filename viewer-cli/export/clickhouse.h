/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec export --clickhouse URL`: recordings into ClickHouse through its HTTP interface
 * (docs/FLEET.md has the tables, the setup on one server and on a cluster, the queries).
 *   clickhouse_http.c    one request: a query, or an INSERT with a RowBinary body (libcurl)
 *   clickhouse_schema.c  the tables (MergeTree, or Distributed over <table>_local with --cluster)
 *   clickhouse_rows.c    RowBinary encoding
 *   clickhouse_sink.c    the pipeline sink: the rows of one recording
 *   clickhouse_export.c  the command: options, tags, file hashes, batches, progress, summary
 * Everything runs on the command's one thread. */
#ifndef EVREC_CLI_CLICKHOUSE_H
#define EVREC_CLI_CLICKHOUSE_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "sink.h"

/* ---- HTTP ---------------------------------------------------------------------------------- */

/* A server: its base URL ("http://host:8123/"), the database (NULL: the server's default) and the
 * extra URL settings of INSERTs ("insert_distributed_sync=1" with --cluster, or NULL). */
typedef struct ch_conn {
    const char *url;
    const char *database;
    const char *insert_settings;
    void *curl;          /* CURL *, reused for every request (keep-alive) */
    uint64_t bytes_sent; /* request bodies, bytes */
    char error[512];     /* the last failure: ClickHouse's own text, or curl's */
} ch_conn_t;

/* Open/close the connection (curl_global_init once). 0, or -1 with conn->error set. */
int ch_open(ch_conn_t *c, const char *url, const char *database);
void ch_close(ch_conn_t *c);
/* Run `sql` (no database in the URL when use_db is 0: CREATE DATABASE). The response body
 * (malloc'd, NUL-terminated) in *out when out is not NULL. 0, or -1 with conn->error set. */
int ch_query(ch_conn_t *c, const char *sql, int use_db, char **out);
/* INSERT INTO `table` FORMAT RowBinary with `n` bytes of rows. 0, or -1 with conn->error set. */
int ch_insert(ch_conn_t *c, const char *table, const void *rows, size_t n);

/* ---- tables -------------------------------------------------------------------------------- */

/* The tables, in the order a batch is inserted: the recordings row comes last, so that a
 * recording is listed only once all its rows are in. */
enum { CH_RECORDS, CH_SPANS, CH_COUNTERS, CH_LOSSES, CH_RECORDINGS, CH_TABLES };
extern const char *const ch_table_names[CH_TABLES];

/* Create the database and the tables when missing; with `cluster` the data lives in
 * <table>_local (MergeTree) and <table> is Distributed over the cluster's <table>_local. */
int ch_create_tables(ch_conn_t *c, const char *cluster);

/* ---- rows ---------------------------------------------------------------------------------- */

/* A growable byte buffer of RowBinary rows. */
typedef struct ch_buf {
    uint8_t *p;
    size_t len, cap;
    uint64_t rows;
} ch_buf_t;

void ch_put(ch_buf_t *b, const void *s, size_t n);
void ch_u8(ch_buf_t *b, uint8_t v);
void ch_u16(ch_buf_t *b, uint16_t v);
void ch_u32(ch_buf_t *b, uint32_t v);
void ch_u64(ch_buf_t *b, uint64_t v);
void ch_varuint(ch_buf_t *b, uint64_t v);
void ch_str(ch_buf_t *b, const char *s); /* NULL is "" */

/* Most --tag options of one command. */
#define CH_TAGS_GIVEN_MAX 32u
/* Most tags of one recording: its attributes (at most 64, FORMAT.md section 2.6) and the --tag
 * ones, every key once. */
#define CH_TAGS_MAX (64u + CH_TAGS_GIVEN_MAX)

/* What every row of one recording starts with: its id and its tags. */
typedef struct ch_tags {
    const char *device, *fw, *boot; /* "" when not known */
    uint32_t count;                 /* every key=value, the three above included */
    const char *keys[CH_TAGS_MAX], *values[CH_TAGS_MAX];
} ch_tags_t;

/* The rows of a batch: one buffer per table. */
typedef struct ch_batch {
    ch_buf_t t[CH_TABLES];
} ch_batch_t;

/* The sink's input: where the rows go and what every row carries. */
typedef struct ch_sink_user {
    ch_batch_t *batch;
    uint64_t recording_id;
    const char *file;       /* the path as given */
    uint64_t size_bytes;    /* the file's size */
    const ch_tags_t *given; /* --tag key=value */
    ch_tags_t tags;         /* the file's tags (ch_file_tags(), at the sink's begin) */
    /* out: filled by the sink's end() for the recordings row */
    uint64_t records, dropped, overwritten, damaged_ranges, duration_ns, time_freq, schema_hash;
    int damaged;
    size_t flush_at;         /* bytes in the batch at which the sink asks for a flush */
    int (*flush)(void *ctx); /* sends the data tables; 0, or -1 (reported) */
    void *flush_ctx;
} ch_sink_user_t;

/* The pipeline sink of one recording (clickhouse_sink.c): rows of records, spans, counters and
 * losses appended to user->batch. */
extern const cli_sink_t cli_sink_clickhouse;

/* The leading columns of a data row: recording_id, device, fw, boot. */
void ch_row_head(ch_buf_t *b, uint64_t recording_id, const ch_tags_t *tags);

/* The tags of one recording: the file's own attributes (FORMAT.md section 2.6), then the
 * `--tag` ones over them (same key: the tag's value); `fw` is the key `fw`, else `firmware`.
 * The strings are the reader's or `given`'s: valid until the sink's end() (which writes the
 * recordings row). */
void ch_file_tags(ch_tags_t *out, const ch_tags_t *given, const evrec_reader_t *r);

/* The command (clickhouse_export.c): `evrec export --clickhouse URL ... FILE...`. */
int cli_export_clickhouse(int argc, char **argv);

#endif /* EVREC_CLI_CLICKHOUSE_H */
