/* SPDX-License-Identifier: Apache-2.0 */
/* The SyS-T encoder as a sink of the record pipeline (sink_syst.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_qs.h"
#include "export.h"
#include "sink_syst.h"

typedef struct syst_sink {
    cli_syst_run_t *run;
    evrec_syst_map_t map;
    cli_output_t *file;
    FILE *f;
    const char *input;
    const evrec_reader_t *r;
    int werr; /* -1 a write failed, 2 an event could not be encoded */
    uint8_t msg[EVREC_SYST_MAX_MESSAGE];
} syst_sink_t;

static const char hexdig[] = "0123456789ABCDEF";

/* One message: binary, or one text line 'SYS-T RAW DATA: <HEX>'. */
static void put_message(syst_sink_t *s, size_t n)
{
    cli_syst_run_t *run = s->run;
    run->messages++;
    if (!run->text) {
        run->bytes += n;
        s->werr = fwrite(s->msg, 1, n, s->f) == n ? 0 : -1;
        return;
    }
    char line[16 + 2 * EVREC_SYST_MAX_MESSAGE + 2];
    memcpy(line, "SYS-T RAW DATA: ", 16);
    size_t k = 16;
    for (size_t i = 0; i < n; i++) {
        line[k++] = hexdig[s->msg[i] >> 4];
        line[k++] = hexdig[s->msg[i] & 15u];
    }
    line[k++] = '\n';
    run->bytes += k;
    s->werr = fwrite(line, 1, k, s->f) == k ? 0 : -1;
}

evrec_status cli_syst_map_build(evrec_syst_map_t *map, const evrec_meta_t *meta, const evrec_syst_options_t *opt,
                                const char *input)
{
    uint32_t bad = 0;
    evrec_status st = evrec_syst_map_alloc(map, meta, opt, &bad);
    if (st == EVREC_E_META) {
        cli_error("%s: event type %u has the catalog id of an earlier event type (same name and layout, or a "
                  "hash collision): it cannot be sent as SyS-T",
                  input, bad);
    } else if (st != EVREC_OK) {
        cli_error("%s: %s", input, evrec_strerror(st));
    }
    return st;
}

static void *syst_begin(void *user, export_out_t *out, const cli_sink_info_t *info)
{
    syst_sink_t *s = calloc(1, sizeof *s);
    if (!s) {
        cli_error("out of memory");
        return NULL;
    }
    s->run = user;
    if (cli_syst_map_build(&s->map, info->meta, s->run->options, info->input) != EVREC_OK) {
        free(s);
        return NULL;
    }
    s->file = out->file;
    if ((s->run->on_map && s->run->on_map(s->run->on_map_ctx, &s->map) != CLI_OK) ||
        !(s->f = cli_output_stream(s->file))) {
        evrec_syst_map_release(&s->map);
        free(s);
        return NULL;
    }
    s->run->started = 1;
    s->input = info->input;
    s->r = info->reader;
    size_t n = 0;
    if (evrec_syst_encode_clock(&s->map, 0, info->time_freq, s->msg, sizeof s->msg, &n) == EVREC_OK) {
        put_message(s, n);
    }
    return s;
}

static int syst_record(void *state, const evrec_record_t *rec, uint64_t late)
{
    syst_sink_t *s = state;
    (void)late;
    if (s->werr) {
        return CLI_SINK_STOP;
    }
    uint8_t native[EVREC_MAX_EVENT_SIZE];
    cli_qs_native_from_record(s->r, rec, native);
    size_t n = 0;
    evrec_status es = evrec_syst_encode_event(&s->map, native, rec->t64, s->msg, sizeof s->msg, &n);
    if (es != EVREC_OK) {
        cli_error("%s: offset %llu: event %u cannot be encoded: %s", s->input, (unsigned long long)rec->offset,
                  rec->id, evrec_strerror(es));
        s->werr = 2;
        return CLI_SINK_KEEP_FAILED;
    }
    put_message(s, n);
    s->run->events++;
    return CLI_SINK_GO_ON;
}

static int syst_end(void *state, const cli_sink_end_t *end)
{
    syst_sink_t *s = state;
    (void)end;
    int rc = s->werr ? CLI_SINK_KEEP_FAILED : CLI_SINK_GO_ON;
    if (s->werr == -1 && !s->file->err) {
        s->file->err = errno ? errno : EIO;
    }
    cli_output_stream_close(s->file, s->f); /* a failure is kept in the output: its commit says so */
    evrec_syst_map_release(&s->map);
    free(s);
    return rc;
}

/* "OUT: N events in M SyS-T messages (...)", on stdout (stderr when the messages went there). */
static void syst_summary(void *user, const cli_sink_end_t *end, int result)
{
    const cli_syst_run_t *run = user;
    (void)result;
    if (!run->started || end->output_failed) {
        return;
    }
    int to_stdout = strcmp(run->out, "-") == 0;
    fprintf(to_stdout ? stderr : stdout, "%s%s: %llu events in %llu SyS-T messages (%s), %llu bytes\n",
            to_stdout ? "evrec: " : "", run->out, (unsigned long long)run->events,
            (unsigned long long)run->messages, run->text ? "text lines" : "binary",
            (unsigned long long)run->bytes);
}

const cli_sink_t cli_sink_syst = {
    .name = "syst",
    .begin = syst_begin,
    .record = syst_record,
    .end = syst_end,
    .summary = syst_summary,
};
