/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec export --clickhouse URL [--database DB] [--cluster NAME] [--tag key=value]... FILE...`:
 * recordings into ClickHouse (docs/FLEET.md). A recording's id is the xxHash64 of the file's
 * bytes: a file already in the `recordings` table is skipped, so exporting it again adds no row.
 * Rows go in batches, one INSERT per table per batch in RowBinary, the data tables first and the
 * `recordings` rows last: a recording is listed only once all its rows are in. An upload cut
 * short (a crash, a failed INSERT) leaves rows of recordings that are not listed; the next export
 * of those files deletes them first (ALTER TABLE ... DELETE) and sends them again. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <xxhash.h>

#include "clickhouse.h"
#include "pipeline.h"

typedef struct ch_file {
    const char *path;
    ch_tags_t tags; /* the --tag options given before it */
    uint64_t id, size;
    /* 0 to send, 1 already there, 2 unreadable, 3 a second copy of an earlier file, 4 rows of an
     * upload cut short (deleted, then 0), 5 not a recording the reader could open */
    int state;
} ch_file_t;

typedef struct ch_run {
    ch_conn_t c;
    const char *cluster;
    ch_tags_t given;
    evrec_reader_options_t ropt;
    int progress;
    ch_file_t *files;
    size_t nfiles;
    ch_batch_t batch;
    uint64_t rows[CH_TABLES]; /* rows inserted */
    uint64_t sent_files;      /* recordings listed by this command */
    uint64_t pending_files;   /* recordings in the batch not sent yet */
    int failed;               /* an INSERT failed: stop */
} ch_run_t;

static const char help_text[] =
    "usage: evrec export --clickhouse URL [--database DB] [--cluster NAME] [--tag KEY=VALUE]...\n"
    "                    [--tick-hz HZ] [--time-freq HZ] [--progress|--quiet] FILE...\n"
    "\n"
    "Send recordings to ClickHouse through its HTTP interface (URL: http://host:8123/), into the\n"
    "tables recordings, records, spans, counters and losses of DB (default 'evrec'), created\n"
    "when missing (docs/FLEET.md: every column, the setup, the fleet queries). A recording is\n"
    "keyed by the xxHash64 of the file's bytes: a file already there is skipped. Without FILE:\n"
    "create the tables and stop.\n"
    "\n"
    "  --database DB     the database (letters, digits, '_')\n"
    "  --cluster NAME    the tables are Distributed over <table>_local on the cluster NAME of\n"
    "                    the server's remote_servers (run once per node to create them there)\n"
    "  --tag KEY=VALUE   a tag of the FILEs given after it (device, fw and boot are also columns\n"
    "                    of every row; a later --tag KEY=... replaces it for the FILEs after that):\n"
    "                    --tag fw=1.0 a.evr b.evr --tag fw=1.1 c.evr; at most 32 keys\n"
    "\n"
    "Exit status: 0 ok, 1 damaged input (what could be read is sent) or ClickHouse failed (what\n"
    "was sent before is said), 2 bad usage.\n";

static const cli_command_t ch_cmd = {"export", "send recordings to ClickHouse", help_text, NULL};

static double now_s(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* ---- options ---- */

static int add_tag(ch_run_t *x, char *kv)
{
    char *eq = strchr(kv, '=');
    if (!eq || eq == kv) {
        return cli_usage_error(&ch_cmd, "--tag expects KEY=VALUE, not '%s'", kv);
    }
    *eq = 0;
    uint32_t i = 0;
    while (i < x->given.count && strcmp(x->given.keys[i], kv) != 0) {
        i++; /* a key given again: the last value holds */
    }
    if (i == CH_TAGS_GIVEN_MAX) {
        return cli_usage_error(&ch_cmd, "at most %u --tag options", (unsigned)CH_TAGS_GIVEN_MAX);
    }
    x->given.keys[i] = kv;
    x->given.values[i] = eq + 1;
    x->given.count += i == x->given.count;
    return -1;
}

static int check_name(const char *what, const char *s)
{
    size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    if (!*s || s[n]) {
        return cli_usage_error(&ch_cmd, "%s expects letters, digits and '_', not '%s'", what, s);
    }
    return -1;
}

static int add_file(ch_run_t *x, const char *path)
{
    if (strcmp(path, "-") == 0) {
        return cli_usage_error(&ch_cmd, "--clickhouse reads files (their hash is the recording's id), not '-'");
    }
    x->files[x->nfiles].path = path;
    x->files[x->nfiles++].tags = x->given;
    return -1;
}

enum { OPT_CH = 256, OPT_DB, OPT_CLUSTER, OPT_TAG, OPT_PROGRESS };

static int parse(int argc, char **argv, ch_run_t *x, const char **url)
{
    static const struct option longopts[] = {
        {"clickhouse", required_argument, NULL, OPT_CH},
        {"database", required_argument, NULL, OPT_DB},
        {"cluster", required_argument, NULL, OPT_CLUSTER},
        {"tag", required_argument, NULL, OPT_TAG},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"quiet", no_argument, NULL, 'q'},
        {"tick-hz", required_argument, NULL, CLI_OPT_TICK_HZ},
        {"time-freq", required_argument, NULL, CLI_OPT_TIME_FREQ},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *db = "evrec";
    int c, rc = -1;
    x->files = calloc((size_t)argc, sizeof *x->files);
    if (!x->files) {
        return CLI_BAD_INPUT;
    }
    cli_getopt_begin();
    while (rc < 0 && (c = getopt_long(argc, argv, "-:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 1: rc = add_file(x, optarg); break; /* "-": operands in order, with the tags before them */
        case OPT_CH: *url = optarg; break;
        case OPT_DB: db = optarg; break;
        case OPT_CLUSTER: rc = check_name("--cluster", x->cluster = optarg); break;
        case OPT_TAG: rc = add_tag(x, optarg); break;
        case OPT_PROGRESS: x->progress = 1; break;
        case 'q': x->progress = -1; break;
        default: rc = cli_common_option(&ch_cmd, c, argv, &x->ropt);
        }
    }
    if (rc >= 0 || (rc = check_name("--database", db)) >= 0) {
        return rc;
    }
    x->c.database = db;
    if (!*url || !**url) {
        return cli_usage_error(&ch_cmd, "--clickhouse needs the server's URL (http://host:8123/)");
    }
    while (rc < 0 && optind < argc) {
        rc = add_file(x, argv[optind++]); /* after "--" */
    }
    return rc;
}

/* ---- recording ids ---- */

/* xxHash64 (seed 0) of the file's bytes, and its size. 0, or -1 (reported). */
static int hash_file(ch_file_t *f)
{
    FILE *fp = fopen(f->path, "rb");
    XXH64_state_t *st = XXH64_createState();
    static unsigned char buf[1 << 16];
    size_t n;
    if (!fp || !st) {
        cli_error("%s: cannot read it", f->path);
        if (fp) {
            fclose(fp);
        }
        XXH64_freeState(st);
        return -1;
    }
    XXH64_reset(st, 0);
    f->size = 0;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0) {
        XXH64_update(st, buf, n);
        f->size += n;
    }
    int bad = ferror(fp);
    fclose(fp);
    f->id = XXH64_digest(st);
    XXH64_freeState(st);
    if (bad) {
        cli_error("%s: read error", f->path);
        return -1;
    }
    return 0;
}

/* Ids per query: ClickHouse refuses a query text over max_query_size (256 KiB by default); the
 * check of partial uploads names each id four times (21 bytes each at most). */
#define IDS_PER_QUERY 1000u

/* The next ids (at most IDS_PER_QUERY) of the files in state `state` from file *from on, as
 * "id,id,..." (malloc'd); *from moves past them. NULL when there is none left (or no memory:
 * *from is then not moved). */
static char *id_list(const ch_run_t *x, int state, size_t *from)
{
    size_t cap = 24 * IDS_PER_QUERY + 1, len = 0, i = *from;
    char *s = malloc(cap);
    for (unsigned n = 0; s && i < x->nfiles && n < IDS_PER_QUERY; i++) {
        if (x->files[i].state == state) {
            len += (size_t)snprintf(s + len, cap - len, "%s%llu", len ? "," : "",
                                    (unsigned long long)x->files[i].id);
            n++;
        }
    }
    if (s && len == 0) {
        free(s);
        return NULL;
    }
    *from = s ? i : *from;
    return s;
}

/* Mark the files whose id is in the TSV answer `ans` (one id per line) with `state`. */
static void mark(ch_run_t *x, const char *ans, int state)
{
    for (const char *p = ans; p && *p;) {
        char *e;
        unsigned long long v = strtoull(p, &e, 10);
        for (size_t i = 0; e != p && i < x->nfiles; i++) {
            if (x->files[i].state == 0 && x->files[i].id == v) {
                x->files[i].state = state;
            }
        }
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
}

/* Ask `sql` with the list of state-0 ids in place of %s; mark the ids answered with `state`. */
static int ask_ids(ch_run_t *x, const char *fmt, int state)
{
    size_t from = 0;
    char *ids, *ans = NULL;
    while ((ids = id_list(x, 0, &from)) != NULL) {
        size_t n = strlen(fmt) + 4 * strlen(ids) + 1;
        char *q = malloc(n);
        int rc = -1;
        if (q) {
            snprintf(q, n, fmt, ids, ids, ids, ids);
            rc = ch_query(&x->c, q, 1, &ans);
        } else {
            snprintf(x->c.error, sizeof x->c.error, "out of memory");
        }
        if (rc == 0) {
            mark(x, ans, state);
        }
        free(ans);
        ans = NULL;
        free(q);
        free(ids);
        if (rc != 0) {
            return -1;
        }
    }
    return 0;
}

/* Rows of recordings that are not listed (an upload cut short): deleted before they are sent
 * again. On a cluster the node asked deletes its own; the others are named on stderr. */
static int drop_partial(ch_run_t *x)
{
    size_t from = 0;
    char *ids;
    while ((ids = id_list(x, 4, &from)) != NULL) {
        for (int t = 0; t < CH_RECORDINGS; t++) {
            size_t n = strlen(ids) + 128;
            char *a = malloc(n);
            int rc = -1;
            if (a) {
                snprintf(a, n, "ALTER TABLE %s%s DELETE WHERE recording_id IN (%s)", ch_table_names[t],
                         x->cluster ? "_local" : "", ids);
                rc = ch_query(&x->c, a, 1, NULL);
            } else {
                snprintf(x->c.error, sizeof x->c.error, "out of memory");
            }
            free(a);
            if (rc != 0) {
                free(ids);
                return -1;
            }
        }
        if (x->cluster) {
            cli_error("note: rows of recordings an earlier upload did not finish were deleted on this node; on "
                      "the other nodes run ALTER TABLE <table>_local DELETE WHERE recording_id IN (%s)",
                      ids);
        }
        free(ids);
    }
    for (size_t i = 0; i < x->nfiles; i++) {
        x->files[i].state = x->files[i].state == 4 ? 0 : x->files[i].state;
    }
    return 0;
}

/* Hash every file; mark those already listed, and those an earlier upload left unfinished. */
static int plan(ch_run_t *x)
{
    for (size_t i = 0; i < x->nfiles; i++) {
        ch_file_t *f = &x->files[i];
        f->state = hash_file(f) != 0 ? 2 : 0;
        for (size_t j = 0; f->state == 0 && j < i; j++) {
            f->state = x->files[j].state != 2 && x->files[j].id == f->id ? 3 : 0;
        }
    }
    if (ask_ids(x, "SELECT recording_id FROM recordings WHERE recording_id IN (%s) FORMAT TSV", 1) != 0 ||
        ask_ids(x,
                "SELECT DISTINCT recording_id FROM (SELECT recording_id FROM records WHERE recording_id IN (%s) "
                "UNION ALL SELECT recording_id FROM spans WHERE recording_id IN (%s) UNION ALL SELECT "
                "recording_id FROM counters WHERE recording_id IN (%s) UNION ALL SELECT recording_id FROM "
                "losses WHERE recording_id IN (%s)) FORMAT TSV",
                4) != 0) {
        return -1;
    }
    return drop_partial(x);
}

/* ---- batches ---- */

#define BATCH_BYTES (16u * 1024u * 1024u)

/* Send the data tables (last = 0) or every table (1): one INSERT per table. 0, or -1 (reported). */
static int flush(ch_run_t *x, int last)
{
    for (int t = 0; t < (last ? CH_TABLES : CH_RECORDINGS) && !x->failed; t++) {
        ch_buf_t *b = &x->batch.t[t];
        if (b->len && ch_insert(&x->c, ch_table_names[t], b->p, b->len) != 0) {
            cli_error("clickhouse: INSERT INTO %s failed: %s", ch_table_names[t], x->c.error);
            x->failed = 1;
            break;
        }
        x->rows[t] += b->rows;
        b->len = 0;
        b->rows = 0;
    }
    if (!x->failed && last) {
        x->sent_files += x->pending_files;
        x->pending_files = 0;
    }
    return x->failed ? -1 : 0;
}

static int flush_data(void *ctx)
{
    return flush(ctx, 0);
}

/* ---- the command ---- */

/* One recording through the pipeline into the batch. The pipeline's exit code. */
static int send_file(ch_run_t *x, ch_file_t *f)
{
    ch_sink_user_t u = {.batch = &x->batch,
                        .recording_id = f->id,
                        .file = f->path,
                        .size_bytes = f->size,
                        .given = &f->tags,
                        .flush_at = BATCH_BYTES,
                        .flush = flush_data,
                        .flush_ctx = x};
    cli_pipeline_opts_t po = {.cmd = &ch_cmd, .input = f->path, .clock = x->ropt, .progress = -1};
    uint64_t before = x->batch.t[CH_RECORDINGS].rows;
    int rc = cli_pipeline_run(&po, &cli_sink_clickhouse, &u);
    uint64_t listed = x->batch.t[CH_RECORDINGS].rows - before;
    x->pending_files += listed;
    f->state = listed == 0 && !x->failed ? 5 : f->state; /* not a recording evrec could open */
    return rc;
}

static void summary(const ch_run_t *x, const size_t count[6], double secs)
{
    double mb = (double)x->c.bytes_sent / 1e6;
    fprintf(stderr,
            "evrec export: %zu files: %llu sent, %zu already there, %zu repeated, %zu unreadable; rows: "
            "records %llu, spans %llu, counters %llu, losses %llu, recordings %llu; %.2f MB sent in %.2f s "
            "(%.1f MB/s)\n",
            x->nfiles, (unsigned long long)x->sent_files, count[1], count[3], count[2] + count[5],
            (unsigned long long)x->rows[CH_RECORDS], (unsigned long long)x->rows[CH_SPANS],
            (unsigned long long)x->rows[CH_COUNTERS], (unsigned long long)x->rows[CH_LOSSES],
            (unsigned long long)x->rows[CH_RECORDINGS], mb, secs, secs > 0 ? mb / secs : 0.0);
    if (x->failed) {
        fprintf(stderr,
                "evrec export: uploaded before the failure: %llu recordings, complete and listed; "
                "the rest is not listed (the next export of the same files sends it again)\n",
                (unsigned long long)x->sent_files);
    }
}

/* Every file to send, in batches; returns the worst pipeline exit code. */
static int send_all(ch_run_t *x)
{
    uint64_t total = 0, done = 0;
    int result = CLI_OK;
    for (size_t i = 0; i < x->nfiles; i++) {
        total += x->files[i].state == 0 ? x->files[i].size : 0;
    }
    cli_progress_t bar;
    cli_progress_begin(&bar, x->progress, "evrec export");
    for (size_t i = 0; i < x->nfiles && !x->failed; i++) {
        if (x->files[i].state != 0) {
            continue;
        }
        int rc = send_file(x, &x->files[i]);
        result = rc > result ? rc : result;
        size_t n = 0;
        for (int t = 0; t < CH_TABLES; t++) {
            n += x->batch.t[t].len;
        }
        if (n >= BATCH_BYTES) {
            flush(x, 1);
        }
        done += x->files[i].size;
        cli_progress_update(&bar, done, total);
    }
    flush(x, 1);
    cli_progress_end(&bar);
    return result;
}

int cli_export_clickhouse(int argc, char **argv)
{
    ch_run_t x;
    memset(&x, 0, sizeof x);
    const char *url = NULL;
    int rc = parse(argc, argv, &x, &url);
    if (rc >= 0) {
        free(x.files);
        return rc;
    }
    double t0 = now_s();
    const char *db = x.c.database;
    if (ch_open(&x.c, url, db) != 0 || ch_create_tables(&x.c, x.cluster) != 0 || plan(&x) != 0) {
        cli_error("clickhouse: %s", x.c.error);
        ch_close(&x.c);
        free(x.files);
        return CLI_BAD_INPUT;
    }
    x.c.insert_settings = x.cluster ? "insert_distributed_sync=1" : NULL;
    rc = send_all(&x);
    size_t count[6] = {0};
    for (size_t i = 0; i < x.nfiles; i++) {
        count[x.files[i].state]++;
    }
    summary(&x, count, now_s() - t0);
    for (int t = 0; t < CH_TABLES; t++) {
        free(x.batch.t[t].p);
    }
    ch_close(&x.c);
    free(x.files);
    return x.failed || count[2] ? CLI_BAD_INPUT : rc;
}
