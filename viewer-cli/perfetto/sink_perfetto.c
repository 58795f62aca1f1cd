/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec export --perfetto OUT`: the Perfetto writer (export_perfetto.c) as a pipeline sink
 * (sink_perfetto.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"
#include "sink_perfetto.h"

typedef struct pf_sink {
    cli_perfetto_run_t *run;
    cli_output_t *file;
    FILE *f;
    evrec_pf_writer_t *w;
    evrec_status ws; /* the writer's first failure */
    const evrec_reader_t *r;
} pf_sink_t;

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

int cli_perfetto_check_output(const cli_command_t *cmd, const char *in_path, const char *out_path)
{
    int to_stdout = strcmp(out_path, "-") == 0;
    if (to_stdout && isatty(STDOUT_FILENO)) {
        return cli_usage_error(cmd, "refusing to write a binary trace to a terminal (give a file name)");
    }
    struct stat so, si;
    if (!to_stdout && stat(out_path, &so) == 0) {
        if (S_ISDIR(so.st_mode)) {
            return cli_usage_error(cmd, "%s: is a directory", out_path);
        }
        if (strcmp(in_path, "-") != 0 && stat(in_path, &si) == 0 && si.st_dev == so.st_dev &&
            si.st_ino == so.st_ino) {
            return cli_usage_error(cmd, "%s: the output is the input file", out_path);
        }
    }
    return -1;
}

static const char *out_name(const cli_perfetto_run_t *run)
{
    return strcmp(run->out_path, "-") == 0 ? "standard output" : run->out_path;
}

static void *pf_begin(void *user, export_out_t *out, const cli_sink_info_t *info)
{
    pf_sink_t *s = calloc(1, sizeof *s);
    if (!s) {
        cli_error("out of memory");
        return NULL;
    }
    s->run = user;
    s->file = out->file;
    s->r = info->reader;
    if (!(s->f = cli_output_stream(s->file))) {
        free(s);
        return NULL;
    }
    static char obuf[1 << 20];
    setvbuf(s->f, obuf, _IOFBF, sizeof obuf);
    const char *tname = strcmp(info->input, "-") == 0 ? "stdin" : base_name(info->input);
    s->ws = evrec_pf_open(&s->w, info->reader, s->f, tname);
    return s;
}

static int pf_record(void *state, const evrec_record_t *rec, uint64_t late)
{
    pf_sink_t *s = state;
    (void)late; /* the writer keeps its timestamps monotonic itself */
    if (s->ws == EVREC_OK) {
        s->ws = evrec_pf_record(s->w, rec);
    }
    return s->ws == EVREC_OK ? CLI_SINK_GO_ON : CLI_SINK_FAILED;
}

static int pf_end(void *state, const cli_sink_end_t *end)
{
    pf_sink_t *s = state;
    if (s->ws == EVREC_OK && end->order_status != EVREC_OK) {
        s->ws = end->order_status;
    }
    if (s->ws == EVREC_OK) {
        int damaged = end->status != EVREC_OK && end->status != EVREC_E_END;
        s->ws = evrec_pf_finish(s->w, damaged ? evrec_reader_error(s->r) : NULL);
    }
    int rc = CLI_SINK_GO_ON;
    if (s->ws != EVREC_OK) {
        cli_error("%s: %s", out_name(s->run),
                  s->ws == EVREC_E_NOMEM ? "out of memory"
                  : s->ws == EVREC_E_IO  ? "writing the trace failed"
                                         : "cannot write the trace");
        rc = CLI_SINK_REPORTED;
    }
    if (!cli_output_stream_close(s->file, s->f) && rc == CLI_SINK_GO_ON) {
        rc = CLI_SINK_REPORTED; /* kept in the output's error: left as it was */
    }
    s->run->written = s->ws == EVREC_OK;
    if (s->w) {
        s->run->stats = *evrec_pf_stats(s->w);
    }
    evrec_pf_close(s->w);
    free(s);
    return rc;
}

/* The summary lines, after the trace is committed and the input's damage reported. */
static void pf_summary(void *user, const cli_sink_end_t *end, int result)
{
    const cli_perfetto_run_t *run = user;
    int damaged = end->status != EVREC_OK && end->status != EVREC_E_END;
    if (run->quiet || !run->written || (result != CLI_OK && !damaged)) {
        return;
    }
    const evrec_pf_stats_t *s = &run->stats;
    const char *out = out_name(run);
    fprintf(stderr,
            "evrec: %s: %llu records -> %llu instants, %llu slice begins, %llu slice ends "
            "(%llu open at the end), %llu counter values; %u lanes, %u tracks, %llu losses; "
            "%llu packets, %llu bytes\n",
            out, (unsigned long long)s->records, (unsigned long long)s->instants, (unsigned long long)s->begins,
            (unsigned long long)s->ends, (unsigned long long)s->open_at_end, (unsigned long long)s->counters,
            (unsigned)s->lanes, (unsigned)s->tracks, (unsigned long long)s->losses, (unsigned long long)s->packets,
            (unsigned long long)s->bytes);
    if (s->sched_switches || s->sched_wakings) {
        fprintf(stderr,
                "evrec: %s: kernel trace: %llu sched_switch, %llu sched_waking events, %u task threads "
                "(Perfetto's CPU and thread-state tracks)\n",
                out, (unsigned long long)s->sched_switches, (unsigned long long)s->sched_wakings,
                (unsigned)s->sched_threads);
    }
    if (s->cut_by_damage) {
        fprintf(stderr,
                "evrec: %s: %llu spans open where records were lost to damage end there "
                "(annotation cut_by_damage): none is drawn across a gap\n",
                out, (unsigned long long)s->cut_by_damage);
    }
    if (s->reordered) {
        fprintf(stderr,
                "evrec: %s: %llu records stamped before their predecessor in the file "
                "(concurrent writers) were written in time order\n",
                out, (unsigned long long)s->reordered);
    }
    if (s->clamped) {
        fprintf(stderr,
                "evrec: %s: %llu records stamped before a record already written (beyond the "
                "reorder window) were moved up to its time, by at most %llu ns (argument "
                "ts_clamped_ns)\n",
                out, (unsigned long long)s->clamped, (unsigned long long)s->max_clamp_ns);
    }
    if (s->unmatched_ends || s->refused_begins) {
        fprintf(stderr,
                "evrec: %s: %llu span ends without a begin, %llu span begins over the "
                "limits: written as instants\n",
                out, (unsigned long long)s->unmatched_ends, (unsigned long long)s->refused_begins);
    }
}

const cli_sink_t cli_sink_perfetto = {
    .name = "perfetto",
    .option = "--perfetto",
    .flags = CLI_SINK_TIME_ORDER,
    .no_clock_note = "timestamps are ticks, not ns",
    .begin = pf_begin,
    .record = pf_record,
    .end = pf_end,
    .summary = pf_summary,
};
