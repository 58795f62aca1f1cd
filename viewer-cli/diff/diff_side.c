/* SPDX-License-Identifier: Apache-2.0 */
/* One side of `evrec diff`: a sink of the record pipeline (sink.h) that feeds the analysis
 * library (evrec_stats_t, and the task-state model's statistics on a kernel trace) and keeps the
 * durations of the complete spans as compact arrays of samples (evrec_spans_t, the one pairing
 * rule of evrec_analysis.h), per span, per track and, for the RTOS catalogue's IsrActive, per
 * interrupt handler. At the end the results become the side's items (diff_items.c). */
#include <stdlib.h>
#include <string.h>

#include "diff_internal.h"
#include "pipeline.h"

void diff_samples_add(diff_samples_t *s, uint64_t v)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        uint64_t *p = realloc(s->v, cap * sizeof *p);
        if (!p) {
            cli_error("out of memory");
            exit(CLI_BAD_INPUT);
        }
        s->v = p;
        s->cap = cap;
    }
    s->v[s->n++] = v;
}

/* The group of samples of (span, track) or (span, key): created on first use. */
static diff_group_t *group_of(diff_collect_t *k, uint32_t span, uint32_t value, int kind)
{
    for (size_t i = 0; i < k->group_count; i++) {
        diff_group_t *g = &k->groups[i];
        if (g->span == span && g->value == value && g->kind == kind) {
            return g;
        }
    }
    if (k->group_count == k->group_cap) {
        size_t cap = k->group_cap ? k->group_cap * 2 : 16;
        diff_group_t *p = realloc(k->groups, cap * sizeof *p);
        if (!p) {
            return NULL;
        }
        k->groups = p;
        k->group_cap = cap;
    }
    diff_group_t *g = &k->groups[k->group_count++];
    memset(g, 0, sizeof *g);
    g->span = span;
    g->value = value;
    g->kind = kind;
    return g;
}

/* A span closed: a complete one is a sample of its span, its track and (IsrActive) its handler. */
static void on_span(void *ctx, const evrec_span_t *sp)
{
    diff_collect_t *k = ctx;
    if (sp->flags != 0) {
        return; /* unmatched, cut or across a gap: not measured (counted by evrec_stats_t) */
    }
    uint64_t d = k->side->ns ? sp->end_ns - sp->begin_ns : sp->end_t64 - sp->begin_t64;
    if ((k->side->ns ? sp->end_ns < sp->begin_ns : sp->end_t64 < sp->begin_t64)) {
        d = 0; /* a clock step back */
    }
    diff_group_t *g = group_of(k, sp->span, 0, DIFF_GROUP_ALL);
    if (g) {
        diff_samples_add(&g->s, d);
    }
    if (sp->has_track && (g = group_of(k, sp->span, sp->track, DIFF_GROUP_TRACK)) != NULL) {
        diff_samples_add(&g->s, d);
    }
    if (sp->span == k->isr_span && (g = group_of(k, sp->span, sp->key, DIFF_GROUP_KEY)) != NULL) {
        if (g->s.n == 0 || d > g->worst) {
            g->worst = d;
            g->worst_index = sp->begin_index;
        }
        diff_samples_add(&g->s, d);
    }
}

static uint32_t find_isr_span(const evrec_reader_t *r)
{
    const evrec_tracks_t *t = evrec_reader_tracks(r);
    for (uint32_t i = 0; t && i < t->span_count; i++) {
        if (strcmp(t->spans[i].name, "IsrActive") == 0) {
            return i;
        }
    }
    return UINT32_MAX;
}

static void *side_begin(void *user, export_out_t *out, const cli_sink_info_t *info)
{
    (void)out;
    diff_collect_t *k = calloc(1, sizeof *k);
    if (!k) {
        cli_error("%s: out of memory", info->input);
        return NULL;
    }
    k->side = user;
    k->r = info->reader;
    k->freq = info->time_freq;
    k->side->ns = info->time_freq != 0;
    k->isr_span = find_isr_span(info->reader);
    evrec_status st = evrec_stats_create(&k->stats, info->reader);
    if (st == EVREC_OK && evrec_reader_tracks(info->reader)) {
        st = evrec_spans_create(&k->spans, info->reader, on_span, k);
    }
    evrec_status ss = st == EVREC_OK ? evrec_sched_stats_create(&k->sched, info->reader) : st;
    if (st != EVREC_OK || (ss != EVREC_OK && ss != EVREC_E_UNSUPPORTED)) {
        cli_error("%s: %s", info->input, evrec_strerror(st != EVREC_OK ? st : ss));
        diff_collect_free(k);
        return NULL;
    }
    return k;
}

static int side_loss(void *state, const cli_loss_t *loss)
{
    diff_collect_t *k = state;
    diff_losses_t *l = &k->side->loss;
    if (loss->kind == CLI_LOSS_DROPPED) {
        l->dropped += loss->count;
    } else if (loss->kind == CLI_LOSS_OVERWRITTEN) {
        l->overwritten += loss->count;
    } else {
        l->damaged++;
        l->damage_lost += loss->count;
        l->damage_unknown |= !cli_loss_count_known(loss);
        k->gap_pending = 1;
    }
    return CLI_SINK_GO_ON;
}

static int side_record(void *state, const evrec_record_t *rec, uint64_t late)
{
    diff_collect_t *k = state;
    (void)late;
    evrec_record_t r = *rec;
    r.gap |= k->gap_pending;
    k->gap_pending = 0;
    if (evrec_stats_add(k->stats, &r) == EVREC_E_NOMEM ||
        (k->spans && evrec_spans_add(k->spans, &r) == EVREC_E_NOMEM) ||
        (k->sched && evrec_sched_stats_add(k->sched, &r) == EVREC_E_NOMEM)) {
        cli_error("%s: out of memory", k->side->path);
        return CLI_SINK_REPORTED;
    }
    return CLI_SINK_GO_ON;
}

static int side_end(void *state, const cli_sink_end_t *end)
{
    diff_collect_t *k = state;
    int rc = CLI_SINK_GO_ON;
    if (!end->abandoned) {
        evrec_stats_finish(k->stats);
        if (k->spans) {
            evrec_spans_finish(k->spans);
        }
        if (k->sched && evrec_sched_stats_finish(k->sched) != EVREC_OK) {
            cli_error("%s: out of memory: no task-state statistics", k->side->path);
        }
        rc = diff_items_make(k) == 0 ? CLI_SINK_GO_ON : CLI_SINK_REPORTED;
    }
    diff_collect_free(k);
    return rc;
}

static const cli_sink_t diff_sink = {
    .name = "diff",
    .begin = side_begin,
    .record = side_record,
    .loss = side_loss,
    .end = side_end,
};

void diff_collect_free(diff_collect_t *k)
{
    for (size_t i = 0; i < k->group_count; i++) {
        free(k->groups[i].s.v);
    }
    free(k->groups);
    evrec_spans_free(k->spans);
    evrec_sched_stats_free(k->sched);
    evrec_stats_free(k->stats);
    free(k);
}

int diff_side_read(diff_side_t *side, const char *path, const evrec_reader_options_t *clock)
{
    memset(side, 0, sizeof *side);
    side->path = path;
    cli_pipeline_opts_t po = {.cmd = &cli_cmd_diff, .input = path, .progress = -1};
    if (clock) {
        po.clock = *clock;
        side->clock = *clock;
    }
    return cli_pipeline_run(&po, &diff_sink, side);
}

void diff_side_free(diff_side_t *side)
{
    for (size_t i = 0; i < side->count; i++) {
        free(side->items[i].name);
        free(side->items[i].samples.v);
    }
    free(side->items);
    memset(side, 0, sizeof *side);
}

const diff_item_t *diff_side_find(const diff_side_t *side, diff_kind_t kind, const char *name)
{
    for (size_t i = 0; i < side->count; i++) {
        if (side->items[i].kind == kind && strcmp(side->items[i].name, name) == 0) {
            return &side->items[i];
        }
    }
    return NULL;
}
