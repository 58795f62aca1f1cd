/* SPDX-License-Identifier: Apache-2.0 */
/* Private to viewer-cli/diff: the state of the sink that gathers one side (diff_side.c) and its
 * conversion into items (diff_items.c). */
#ifndef EVREC_CLI_DIFF_INTERNAL_H
#define EVREC_CLI_DIFF_INTERNAL_H

#include "cli.h"
#include "diff.h"
#include "evrec/evrec_analysis.h"
#include "evrec/evrec_sched.h"

enum { DIFF_GROUP_ALL, DIFF_GROUP_TRACK, DIFF_GROUP_KEY };

/* The durations of one span (kind ALL), of one of its tracks (TRACK: value = the track's) or of
 * one key (KEY: value = the key's; the catalogue's IsrActive per handler). */
typedef struct diff_group {
    uint32_t span, value;
    int kind;
    diff_samples_t s;
    uint64_t worst;       /* the longest duration ... */
    uint64_t worst_index; /* ... and the record index of its begin */
} diff_group_t;

typedef struct diff_collect {
    diff_side_t *side;
    evrec_reader_t *r;
    uint64_t freq; /* Hz; 0 unknown */
    evrec_stats_t *stats;
    evrec_spans_t *spans;       /* NULL without a track model */
    evrec_sched_stats_t *sched; /* NULL: not a kernel trace */
    uint32_t isr_span;          /* the span index of IsrActive, or UINT32_MAX */
    diff_group_t *groups;
    size_t group_count, group_cap;
    int gap_pending;
} diff_collect_t;

/* Turn the finished analysis into side->items (samples moved out of the groups). Returns 0, or
 * -1 after a message (memory). */
int diff_items_make(diff_collect_t *k);
void diff_collect_free(diff_collect_t *k);

#endif /* EVREC_CLI_DIFF_INTERNAL_H */
