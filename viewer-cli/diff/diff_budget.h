/* SPDX-License-Identifier: Apache-2.0 */
/* Private to viewer-cli/diff: one budget rule (diff_budget.c parses, diff_budget_check.c checks). */
#ifndef EVREC_CLI_DIFF_BUDGET_H
#define EVREC_CLI_DIFF_BUDGET_H

#include "diff.h"

enum { M_COUNT, M_RATE, M_P50, M_P90, M_P99, M_MAX, M_CPU, M_SWITCHES, M_MEAN, M_COUNT_OF };
/* LIMIT forms: "20us" (ABS: B at most this), "+200us" (DELTA: B at most A + this), "+5%" (REL:
 * B at most A * 1.05), "+1pt" (PT: B at most A + 1 percentage point). */
enum { LIM_ABS, LIM_DELTA, LIM_REL, LIM_PT };

struct diff_rule {
    char *text; /* as written */
    diff_kind_t kind;
    char *name;
    int metric;   /* M_* */
    int mode;     /* LIM_* */
    double limit; /* in ns when `timed`, in % for REL, pt for PT, else the metric's unit */
    int timed;    /* the limit had a time unit */
};

/* The metric is a duration (ns, or ticks when the clock is unknown). */
int diff_metric_is_time(const diff_rule_t *r);

#endif /* EVREC_CLI_DIFF_BUDGET_H */
