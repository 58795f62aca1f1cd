/* SPDX-License-Identifier: Apache-2.0 */
/* Timing budgets of `evrec diff` (--max 'RULE', --budget FILE.yaml): rules "KIND NAME METRIC:
 * LIMIT" checked against recording B (and A for limits relative to it). The YAML file is read
 * with libyaml's event parser (diff_budget_yaml.c). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diff.h"
#include "diff_budget.h"

static const char *const metric_names[M_COUNT_OF] = {"count", "rate", "p50",      "p90", "p99",
                                                     "max",   "cpu",  "switches", "mean"};

/* The metrics a kind has (bit per metric). */
static unsigned metrics_of(diff_kind_t k)
{
    const unsigned dist = 1u << M_P50 | 1u << M_P90 | 1u << M_P99 | 1u << M_MAX;
    switch (k) {
    case DIFF_SPAN:
    case DIFF_ISR: return 1u << M_COUNT | 1u << M_RATE | dist;
    case DIFF_TASK: return 1u << M_COUNT | 1u << M_RATE | dist | 1u << M_CPU | 1u << M_SWITCHES;
    case DIFF_EVENT: return 1u << M_COUNT | 1u << M_RATE;
    default: return 1u << M_COUNT | 1u << M_RATE | 1u << M_MEAN | 1u << M_MAX;
    }
}

int diff_metric_is_time(const diff_rule_t *r)
{
    return r->metric >= M_P50 && r->metric <= M_MAX && r->kind != DIFF_COUNTER;
}

/* LIMIT: [+|-]NUMBER[%|pt|ns|us|ms|s]. */
static const char *parse_limit(diff_rule_t *r, const char *s)
{
    static const struct {
        const char *suffix;
        double scale;
    } times[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    r->mode = (*s == '+' || *s == '-') ? LIM_DELTA : LIM_ABS;
    char *end;
    r->limit = strtod(s, &end);
    if (end == s || !isfinite(r->limit)) {
        return "a number, optionally signed, with %, pt or a time unit (ns, us, ms, s)";
    }
    if (strcmp(end, "%") == 0 || strcmp(end, "pt") == 0) {
        if (r->mode != LIM_DELTA) {
            return "'+' before a limit relative to A (+5%, +1pt)";
        }
        r->mode = end[0] == '%' ? LIM_REL : LIM_PT;
        if (r->mode == LIM_PT && r->metric != M_CPU) {
            return "a limit in pt (percentage points) only for a share: task NAME cpu";
        }
        return NULL;
    }
    for (size_t i = 0; *end && i < sizeof times / sizeof times[0]; i++) {
        if (strcmp(end, times[i].suffix) == 0) {
            if (!diff_metric_is_time(r)) {
                return "no time unit: the metric is not a time";
            }
            r->limit *= times[i].scale;
            r->timed = 1;
            return NULL;
        }
    }
    return *end ? "a limit ending in %, pt, ns, us, ms or s" : NULL;
}

static const char *parse_left(diff_rule_t *r, char *s)
{
    char *kind = strtok(s, " \t"), *name = strtok(NULL, " \t"), *metric = strtok(NULL, " \t");
    if (!kind || !name || !metric || strtok(NULL, " \t")) {
        return "'KIND NAME METRIC: LIMIT' (span FrameStage p99: +5%)";
    }
    r->kind = DIFF_KINDS;
    for (int k = 0; k < DIFF_KINDS; k++) {
        r->kind = strcmp(kind, diff_kind_name((diff_kind_t)k)) == 0 ? (diff_kind_t)k : r->kind;
    }
    if (r->kind == DIFF_KINDS) {
        return "a kind: span, task, isr, event or counter";
    }
    r->metric = M_COUNT_OF;
    for (int m = 0; m < M_COUNT_OF; m++) {
        r->metric = strcmp(metric, metric_names[m]) == 0 ? m : r->metric;
    }
    if (r->metric == M_COUNT_OF || !(metrics_of(r->kind) >> r->metric & 1u)) {
        return "a metric of the kind (span, isr: count rate p50 p90 p99 max; task: also cpu switches; "
               "event: count rate; counter: count rate mean max)";
    }
    r->name = strdup(name);
    return NULL;
}

int diff_budget_add(diff_budget_t *bu, const char *rule, const char *where)
{
    if (bu->count == bu->cap) {
        size_t cap = bu->cap ? bu->cap * 2 : 8;
        diff_rule_t *p = realloc(bu->rules, cap * sizeof *p);
        if (!p) {
            cli_error("out of memory");
            return -1;
        }
        bu->rules = p;
        bu->cap = cap;
    }
    diff_rule_t *r = &bu->rules[bu->count];
    memset(r, 0, sizeof *r);
    char *copy = strdup(rule), *colon = copy ? strrchr(copy, ':') : NULL;
    const char *why = colon ? NULL : "'KIND NAME METRIC: LIMIT' (span FrameStage p99: +5%)";
    if (colon) {
        *colon = 0;
        char *lim = colon + 1;
        while (isspace((unsigned char)*lim)) {
            lim++;
        }
        why = parse_left(r, copy);
        why = why ? why : parse_limit(r, lim);
    }
    free(copy);
    if (why) {
        free(r->name);
        cli_error("%s: budget rule '%s': expected %s", where, rule, why);
        return -1;
    }
    r->text = strdup(rule);
    bu->count++;
    return 0;
}

void diff_budget_free(diff_budget_t *bu)
{
    for (size_t i = 0; i < bu->count; i++) {
        free(bu->rules[i].text);
        free(bu->rules[i].name);
    }
    free(bu->rules);
    memset(bu, 0, sizeof *bu);
}
