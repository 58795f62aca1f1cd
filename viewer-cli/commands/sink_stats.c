/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec stats` as a sink of the record pipeline (sink_stats.h): the records go into the
 * analysis library's statistics (evrec/evrec_analysis.h); the end prints them as text or JSON. */
#include <stdlib.h>
#include <string.h>

#include "sink_stats.h"
#include "stats_json.h"
#include "stats_text.h"

/* What the printing functions share. */
typedef stats_out_t out_t;

static void print_json(const out_t *o, const cli_stats_display_t *opt, const evrec_stats_t *s,
                       const evrec_sched_result_t *sched, evrec_time_source src, uint64_t unverified,
                       evrec_status st, uint64_t last_index, int limit_hit)
{
    stats_json_in_t in;
    memset(&in, 0, sizeof in);
    in.path = opt->path;
    in.r = o->r;
    in.s = s;
    in.sched = sched;
    in.syms = o->syms;
    in.freq = o->freq;
    in.src = src;
    in.unverified = unverified;
    in.selection = opt->selection;
    in.stopped = in.selection && st == EVREC_OK;
    in.stopped_at = last_index;
    in.limit_hit = limit_hit;
    in.damaged = st != EVREC_E_END && st != EVREC_OK;
    (void)stats_json_print(&in);
}

typedef struct stats_sink {
    const cli_stats_display_t *opt;
    evrec_reader_t *r;
    evrec_stats_t *s;
    evrec_sched_stats_t *sched; /* a kernel trace: the task-state model's statistics; else NULL */
    uint64_t unverified;
    int gap_pending; /* damage before records the selection skipped: kept for the next one */
} stats_sink_t;

static void *stats_begin(void *user, export_out_t *out, const cli_sink_info_t *info)
{
    (void)out;
    stats_sink_t *k = calloc(1, sizeof *k);
    if (!k || evrec_stats_create(&k->s, info->reader) != EVREC_OK) {
        cli_error("%s: out of memory", info->input);
        free(k);
        return NULL;
    }
    k->opt = user;
    k->r = info->reader;
    evrec_status st = evrec_sched_stats_create(&k->sched, info->reader);
    if (st != EVREC_OK && st != EVREC_E_UNSUPPORTED) {
        cli_error("%s: out of memory", info->input);
        evrec_stats_free(k->s);
        free(k);
        return NULL;
    }
    return k;
}

static int stats_loss(void *state, const cli_loss_t *loss)
{
    stats_sink_t *k = state;
    k->gap_pending |= loss->kind == CLI_LOSS_DAMAGE;
    return CLI_SINK_GO_ON;
}

static int stats_record(void *state, const evrec_record_t *rec, uint64_t late)
{
    stats_sink_t *k = state;
    (void)late;
    evrec_record_t r = *rec;
    k->unverified += r.unverified != 0;
    r.gap |= k->gap_pending; /* a gap before records the selection skipped: kept for this one */
    k->gap_pending = 0;
    if (evrec_stats_add(k->s, &r) == EVREC_E_NOMEM ||
        (k->sched && evrec_sched_stats_add(k->sched, &r) == EVREC_E_NOMEM)) {
        cli_error("%s: out of memory", k->opt->path);
        return CLI_SINK_STOP;
    }
    return CLI_SINK_GO_ON;
}

static int stats_end(void *state, const cli_sink_end_t *end)
{
    stats_sink_t *k = state;
    evrec_stats_finish(k->s);
    const evrec_sched_result_t *sched = NULL;
    if (k->sched && evrec_sched_stats_finish(k->sched) == EVREC_OK) {
        sched = evrec_sched_stats_result(k->sched);
    } else if (k->sched) {
        cli_error("%s: out of memory: no task-state statistics", k->opt->path);
    }
    evrec_time_source src;
    out_t o = {k->r, evrec_reader_time_freq(k->r, &src), k->opt->syms, k->opt->top, {0}};
    if (k->opt->json) {
        print_json(&o, k->opt, k->s, sched, src, k->unverified, end->status, end->last_index, end->limit_hit);
    } else {
        stats_print_text(&o, k->opt, k->s, src, k->unverified, end);
        stats_print_rtos(&o, k->s, sched);
    }
    cli_buf_free(&o.b);
    evrec_stats_free(k->s);
    evrec_sched_stats_free(k->sched);
    free(k);
    return CLI_SINK_GO_ON;
}

const cli_sink_t cli_sink_stats = {
    .name = "stats",
    .begin = stats_begin,
    .record = stats_record,
    .loss = stats_loss,
    .end = stats_end,
};
