/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec diff A.evr B.evr`: compare two recordings (docs/DIFF.md). One side = what one recording
 * holds, gathered by a pipeline sink (diff_side.c) into items owned by the side (names copied:
 * the reader is closed before the comparison); the comparison pairs the items by kind and name
 * (diff_rows.c), tests their distributions (diff_test.c), prints (diff_print.c) and checks the
 * budgets (diff_budget.c). Times are in ns when the recording's clock is known, else in ticks.
 * Context: the command's one thread; host only (malloc). */
#ifndef EVREC_CLI_DIFF_H
#define EVREC_CLI_DIFF_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "evrec/evrec_reader.h"

/* What an item is. */
typedef enum diff_kind { DIFF_SPAN, DIFF_TASK, DIFF_ISR, DIFF_EVENT, DIFF_COUNTER, DIFF_KINDS } diff_kind_t;

/* Samples of a distribution (span durations, ns or ticks), sorted ascending after the side ends. */
typedef struct diff_samples {
    uint64_t *v;
    size_t n, cap;
} diff_samples_t;

/* One thing of one recording: a span (or a span on one track), a task, an ISR, an event type, a
 * counter. Values a kind has not are 0. */
typedef struct diff_item {
    diff_kind_t kind;
    char *name;           /* "FrameStage", "FrameStage[Encode]", "net", "uart0", "FrameDrop" (owned) */
    uint64_t count;       /* spans: complete ones; events: records; tasks: switch-ins; ISRs:
                             entries; counters: samples */
    double rate;          /* count per second (per million ticks when the clock is unknown) */
    double p50, p90, p99; /* spans, ISRs: durations; tasks: ready-to-running after a wake-up */
    double max;
    double mean;            /* counters: the time-weighted mean; tasks: CPU share, % */
    uint64_t worst_index;   /* record index of the worst's first record; UINT64_MAX: none */
    int has_dist;           /* p50..max are meaningful */
    diff_samples_t samples; /* spans, ISRs: the durations (for the test); else empty */
    uint32_t span;          /* spans: the index in the file's track model */
    uint32_t value;         /* span tracks: the track's value; tasks, ISRs: the enum value */
    int per_track;          /* spans: 1 for the row of one track */
} diff_item_t;

/* What a recording lost. */
typedef struct diff_losses {
    uint64_t dropped;     /* events dropped, the trace buffer full */
    uint64_t overwritten; /* records overwritten in a cyclic buffer */
    uint64_t damaged;     /* damaged ranges */
    uint64_t damage_lost; /* records lost to them (where known) */
    int damage_unknown;   /* a damaged range lost an unknown number of records */
    uint64_t spans_cut;   /* spans not measured: cut by damage, open at the end, ends unmatched */
} diff_losses_t;

/* One recording. */
typedef struct diff_side {
    const char *path;             /* as given (borrowed) */
    evrec_reader_options_t clock; /* how it was read (read again by diff_explain()) */
    int ns;                       /* 1: times in ns (the clock is known); 0: ticks */
    double seconds;               /* duration (first to last record), s; with ns 0: ticks / 1e6 */
    uint64_t records;
    int kernel; /* the task-state model ran (a kernel trace) */
    diff_losses_t loss;
    diff_item_t *items;
    size_t count, cap;
} diff_side_t;

/* Gather `path` into *side (zeroed first): exit code as cli_pipeline_run() (0 intact, 1 damaged or
 * unreadable: side->records tells whether anything was read, 2 usage). clock: the reader
 * options (--tick-hz, --time-freq), may be NULL. */
int diff_side_read(diff_side_t *side, const char *path, const evrec_reader_options_t *clock);
void diff_side_free(diff_side_t *side);
/* The item of `kind` named `name`, or NULL. */
const diff_item_t *diff_side_find(const diff_side_t *side, diff_kind_t kind, const char *name);
/* Append a sample (grows the array; exits with status 1 when memory runs out). */
void diff_samples_add(diff_samples_t *s, uint64_t v);

/* ---- statistics (diff_test.c) ---- */

/* Mann-Whitney U of two sorted samples. p: two-sided p-value; exact (the U distribution) when
 * both sides have at most DIFF_EXACT_MAX samples and no value is tied, else the normal
 * approximation with the tie correction and a continuity correction (*exact 0). auc: U/(n1 n2),
 * the probability that a value of b exceeds one of a (ties count half). Returns 0 when a side
 * has fewer than 2 samples (no test). */
#define DIFF_EXACT_MAX 20u
int diff_mann_whitney(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, double *p, double *auc,
                      int *exact);
/* Distribution-free confidence interval [*lo, *hi] of the q-quantile of n sorted samples: the
 * order statistics at ranks n q -+ z sqrt(n q (1 - q)) (normal approximation of the binomial).
 * Returns 0 when those ranks fall outside the samples (too few of them for this q). */
int diff_quantile_ci(const uint64_t *v, size_t n, double q, double z, double *lo, double *hi);
/* Two rates (counts over durations, seconds): the conditional binomial test of a Poisson rate
 * ratio in its normal approximation (counts >= 5). Returns 0 when not testable. */
int diff_rate_test(uint64_t ca, double ta, uint64_t cb, double tb, double *p);

/* ---- the comparison (diff_rows.c) ---- */

typedef struct diff_row {
    diff_kind_t kind;
    const char *name;         /* the item's name (owned by a side) */
    const diff_item_t *a, *b; /* NULL: only on the other side */
    int tested;               /* 1: p is a test's */
    int exact;                /* the test was exact */
    double p;                 /* p-value (1 when not tested) */
    double auc;               /* spans: P(B > A) */
    int p99_ci;               /* 1: [p99_lo, p99_hi] is a 95% interval of B's p99 - A's p99 */
    double p99_lo, p99_hi;
    int significant;     /* tested and p < alpha */
    double change;       /* the headline value's change: p50 (spans, ISRs), rate (events),
                                  mean (counters), CPU share (tasks) */
    double rel;          /* change relative to A's value (NaN when A's is 0) */
    const char *explain; /* "where the time went" text (owned by the comparison), or NULL */
} diff_row_t;

typedef struct diff_filter {
    const char **spans; /* --span NAME: keep only these spans (and their tracks) ... */
    size_t span_count;
    const char **events; /* --event NAME: ... and these events */
    size_t event_count;
} diff_filter_t;

typedef struct diff {
    const diff_side_t *a, *b;
    double alpha;     /* significance level */
    diff_row_t *rows; /* sorted: significant first, by p, then by |rel| */
    size_t count;
} diff_t;

/* Pair the items of both sides into rows (only those the filter keeps and that either side has
 * seen), test and sort them. Exits with status 1 when memory runs out. */
void diff_compare(diff_t *d, const diff_side_t *a, const diff_side_t *b, double alpha, const diff_filter_t *f);
void diff_free(diff_t *d);
/* "Where the time went" (diff_explain.c): for the spans of significant rows that grew, what
 * else ran inside them on B more than on A (interrupt handlers, other tasks), with its share of
 * the growth; sets the rows' `explain`. */
void diff_explain(diff_t *d);
const char *diff_kind_name(diff_kind_t k);
/* The headline value of an item (see diff_row_t::change). */
double diff_headline(const diff_item_t *it);

/* ---- output (diff_print.c) ---- */
enum { DIFF_TEXT, DIFF_JSON, DIFF_MARKDOWN };
/* Print the comparison on stdout. Returns 1 when written. */
int diff_print(const diff_t *d, int format);
/* A time (ns or ticks) as "12.3us", "4.56ms" ... into buf (n >= 24). */
void diff_fmt_time(char *buf, size_t n, double v, int ns);

/* ---- budgets (diff_budget.c) ---- */
typedef struct diff_rule diff_rule_t;
typedef struct diff_budget {
    diff_rule_t *rules;
    size_t count, cap;
} diff_budget_t;
/* Parse one rule "KIND NAME METRIC: LIMIT" (where: "--max" or "FILE:LINE" for messages).
 * Returns 0, or -1 after a message on stderr. */
int diff_budget_add(diff_budget_t *bu, const char *rule, const char *where);
/* Load the rules of a YAML file (a mapping "KIND NAME METRIC": LIMIT). Returns 0, or -1 after a
 * message (the file, line and column) on stderr. */
int diff_budget_load(diff_budget_t *bu, const char *path);
/* Check the rules against the comparison: prints one line per violation, then a summary, on
 * `out`. Returns 0
 * within budget, 1 over budget, 2 when a rule names something absent or not measured (message
 * on stderr). */
int diff_budget_check(const diff_budget_t *bu, const diff_t *d, FILE *out);
void diff_budget_free(diff_budget_t *bu);

#endif /* EVREC_CLI_DIFF_H */
