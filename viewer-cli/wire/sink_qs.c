/* SPDX-License-Identifier: Apache-2.0 */
/* The QS encoder as a sink of the record pipeline (sink_qs.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_qs.h"
#include "export.h"
#include "sink_qs.h"

typedef struct qs_sink {
    cli_qs_run_t *run;
    cli_qs_map_t qm;
    cli_output_t *file;
    FILE *f;
    const char *input;
    const evrec_meta_t *meta;
    const evrec_reader_t *r;
    int werr; /* -1 a write failed */
    uint8_t seq;
    evrec_qs_time_sync_t sync;
    uint64_t lost_over, lost_drop; /* the header's losses still to send */
    uint32_t last_time;
    uint8_t frame[2 * (EVREC_QS_MAX_PAYLOAD + 3) + 1];
    uint8_t payload[EVREC_QS_MAX_PAYLOAD];
} qs_sink_t;

/* One frame of n bytes to the output; 0, or -1 when the write failed. */
static int put(qs_sink_t *q, size_t n)
{
    q->werr = fwrite(q->frame, 1, n, q->f) == n ? 0 : -1;
    q->run->frames++;
    q->run->bytes += n;
    return q->werr;
}

static void free_sink(qs_sink_t *q)
{
    cli_qs_map_free(&q->qm);
    free(q);
}

static void *qs_begin(void *user, export_out_t *out, const cli_sink_info_t *info)
{
    qs_sink_t *q = calloc(1, sizeof *q);
    if (!q) {
        cli_error("out of memory");
        return NULL;
    }
    q->run = user;
    evrec_status st = cli_qs_map_build(&q->qm, info->meta, &q->run->options);
    if (st != EVREC_OK) {
        cli_error("%s: the event types cannot be sent as QS records: %s", info->input,
                  st == EVREC_E_NOMEM ? "out of memory" : "an event needs more than 509 bytes of QS payload");
        free(q);
        return NULL;
    }
    q->file = out->file;
    if (!(q->f = cli_output_stream(q->file))) {
        free_sink(q);
        return NULL;
    }
    q->run->started = 1;
    q->run->time_size = q->qm.map.opts.time_size;
    q->run->classes = q->qm.map.classes != 0;
    q->input = info->input;
    q->meta = info->meta;
    q->r = info->reader;
    q->seq = 1;
    q->lost_over = info->info->overwritten;
    q->lost_drop = info->info->dropped;
    /* Session: one frame per record, streamed (the dictionaries of a large schema are long). */
    evrec_qs_session_cursor_t cur = {0, 0, 0};
    uint8_t rec_id;
    size_t len;
    while (!q->werr && evrec_qs_session_next(&q->qm.map, &cur, &rec_id, q->payload, &len) == EVREC_OK) {
        put(q, evrec_qs_frame(q->seq++, rec_id, q->payload, len, q->frame, sizeof q->frame));
    }
    return q;
}

/* `*count` records lost (of `kind`) as EVREC_LOST records stamped `time`. */
static void put_lost(qs_sink_t *q, uint64_t *count, uint8_t kind, uint32_t time)
{
    while (*count && !q->werr) {
        uint32_t k = *count > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)*count;
        size_t n = 0;
        evrec_qs_encode_lost(&q->qm.map, q->seq++, time, kind, k, q->frame, sizeof q->frame, &n);
        put(q, n);
        *count -= k;
    }
}

/* 1- and 2-byte timestamps: the full time first when the low bytes alone would not give it
 * (format/qs/QS.md 4.1). */
static void put_sync(qs_sink_t *q, uint32_t t)
{
    size_t n = 0;
    if (evrec_qs_time_sync_due(&q->qm.map, &q->sync, t)) {
        (void)evrec_qs_encode_time_sync(&q->qm.map, q->seq++, t, q->frame, sizeof q->frame, &n);
        put(q, n);
        q->run->syncs++;
        q->sync.time = t;
        q->sync.valid = 1;
    }
}

/* Events: the packed big-endian record back to a host-order record at the packed offsets (the
 * reader's tables describe that layout), then one QS record each. The header's losses as
 * EVREC_LOST records: cyclic overwrites before the first event, drops (the buffer was full: the
 * records after the last one kept) before EventControl Stop, or at the end. */
static int qs_record(void *state, const evrec_record_t *rec, uint64_t late)
{
    qs_sink_t *q = state;
    (void)late;
    if (q->werr) {
        return CLI_SINK_STOP;
    }
    uint8_t native[EVREC_MAX_EVENT_SIZE];
    cli_qs_native_from_record(q->r, rec, native);
    const evrec_struct_desc_t *cs = &q->meta->structs[q->meta->events[0].struct_id];
    int is_stop = rec->id == EVREC_CONTROL_EVENT_ID && cs->field_count > 2 &&
                  native[cs->fields[2].offset] == EVREC_CONTROL_STOP;
    if (q->lost_over) {
        put_lost(q, &q->lost_over, EVREC_QS_LOST_OVERWRITTEN, rec->time32);
    } else if (q->lost_drop && is_stop) {
        put_lost(q, &q->lost_drop, EVREC_QS_LOST_DROPPED, rec->time32);
    }
    q->last_time = rec->time32;
    uint32_t t;
    memcpy(&t, native, 4);
    put_sync(q, t);
    if (q->werr) {
        return CLI_SINK_STOP;
    }
    size_t n = 0;
    evrec_status es = evrec_qs_encode_event(&q->qm.map, q->seq++, native, q->frame, sizeof q->frame, &n);
    if (es != EVREC_OK) {
        cli_error("%s: offset %llu: event %u cannot be encoded: %s", q->input, (unsigned long long)rec->offset,
                  rec->id, evrec_strerror(es));
        q->werr = 2; /* nothing more is written; what was is kept */
        return CLI_SINK_KEEP_FAILED;
    }
    put(q, n);
    q->run->events++;
    return CLI_SINK_GO_ON;
}

static int qs_end(void *state, const cli_sink_end_t *end)
{
    qs_sink_t *q = state;
    if (!end->abandoned) {
        put_lost(q, &q->lost_drop, EVREC_QS_LOST_DROPPED, q->last_time); /* no Stop record: at the end */
    }
    if (q->werr == -1 && !q->file->err) {
        q->file->err = errno ? errno : EIO;
    }
    cli_output_stream_close(q->file, q->f); /* a failure is kept in the output: its commit says so */
    free_sink(q);
    return CLI_SINK_GO_ON;
}

/* "OUT: N events in M QS frames (...)", on stdout (stderr when the stream went to stdout). */
static void qs_summary(void *user, const cli_sink_end_t *end, int result)
{
    const cli_qs_run_t *run = user;
    (void)result;
    if (!run->started || end->output_failed) {
        return;
    }
    int to_stdout = strcmp(run->out, "-") == 0;
    char syncs_text[64] = "";
    if (run->time_size < 4) {
        snprintf(syncs_text, sizeof syncs_text, " + %llu time syncs", (unsigned long long)run->syncs);
    }
    fprintf(to_stdout ? stderr : stdout,
            "%s%s: %llu events in %llu QS frames (%u-byte timestamps%s, %s), %llu bytes\n",
            to_stdout ? "evrec: " : "", run->out, (unsigned long long)run->events, (unsigned long long)run->frames,
            run->time_size, syncs_text,
            run->classes ? "one record id per event class" : "one record id per event type",
            (unsigned long long)run->bytes);
}

const cli_sink_t cli_sink_qs = {
    .name = "qs",
    .begin = qs_begin,
    .record = qs_record,
    .end = qs_end,
    .summary = qs_summary,
};
