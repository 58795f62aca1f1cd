/* SPDX-License-Identifier: Apache-2.0 */
/* Checking the budget rules of `evrec diff` against the comparison: B's value of the metric
 * against the limit (absolute, or relative to A's). One line per violation on stdout. */
#include <math.h>
#include <stdio.h>

#include "cli.h"
#include "diff.h"
#include "diff_budget.h"

static double metric_value(const diff_item_t *it, int m)
{
    switch (m) {
    case M_COUNT:
    case M_SWITCHES: return (double)it->count;
    case M_RATE: return it->rate;
    case M_P50: return it->p50;
    case M_P90: return it->p90;
    case M_P99: return it->p99;
    case M_MAX: return it->max;
    default: return it->mean; /* cpu (a task's share, %), mean (a counter's) */
    }
}

static void fmt(char *buf, size_t n, const diff_rule_t *r, const diff_side_t *s, double v, int sign)
{
    if (diff_metric_is_time(r)) {
        diff_fmt_time(buf + (sign && v >= 0), n - 1, v, s->ns);
        if (sign && v >= 0) {
            buf[0] = '+';
        }
    } else {
        snprintf(buf, n, sign ? "%+.6g%s" : "%.6g%s", v, r->metric == M_CPU ? "%" : "");
    }
}

/* Why the rule cannot be checked (an error, not a pass), or NULL. */
static const char *unusable(const diff_rule_t *r, const diff_item_t *a, const diff_item_t *b, const diff_t *d)
{
    if (!b) {
        return "B has no such item";
    }
    if (r->mode != LIM_ABS && !a) {
        return "A has no such item (the limit is relative to A)";
    }
    if (diff_metric_is_time(r) && (!b->has_dist || (r->mode != LIM_ABS && !a->has_dist))) {
        return "not measured (no complete duration)";
    }
    if (r->timed && (!d->b->ns || (r->mode != LIM_ABS && !d->a->ns))) {
        return "a time limit, but the recording's clock is unknown (times in ticks)";
    }
    if (r->mode == LIM_REL && metric_value(a, r->metric) == 0) {
        return "a relative limit, but A's value is 0";
    }
    return NULL;
}

/* Returns 1 when the rule is broken (the line printed), 0 within it, -1 unusable (reported). */
static int check_rule(const diff_rule_t *r, const diff_t *d, FILE *out)
{
    const diff_item_t *a = diff_side_find(d->a, r->kind, r->name), *b = diff_side_find(d->b, r->kind, r->name);
    const char *why = unusable(r, a, b, d);
    if (why) {
        cli_error("budget rule '%s': %s: %s", r->text, r->kind == DIFF_KINDS ? "" : r->name, why);
        return -1;
    }
    double vb = metric_value(b, r->metric), va = a ? metric_value(a, r->metric) : NAN;
    double bound = r->mode == LIM_ABS ? r->limit : r->mode == LIM_REL ? va * (1 + r->limit / 100) : va + r->limit;
    if (!(vb > bound * (1 + 1e-12) && vb > bound + 1e-9)) {
        return 0;
    }
    char sa[40] = "-", sb[40], sbound[40], sover[40];
    if (a) {
        fmt(sa, sizeof sa, r, d->a, va, 0);
    }
    fmt(sb, sizeof sb, r, d->b, vb, 0);
    fmt(sbound, sizeof sbound, r, d->b, bound, 0);
    fmt(sover, sizeof sover, r, d->b, vb - bound, 1);
    fprintf(out, "over budget: %s: %s -> %s", r->text, sa, sb);
    if (a && va != 0) {
        fprintf(out, " (%+.1f%%)", 100 * (vb - va) / va);
    }
    fprintf(out, ", limit %s: %s over", sbound, sover);
    if (b->worst_index != UINT64_MAX && r->metric != M_COUNT && r->metric != M_RATE) {
        fprintf(out, "; worst: evrec dump %s --from '#%llu'", d->b->path, (unsigned long long)b->worst_index);
    }
    fprintf(out, "\n");
    return 1;
}

int diff_budget_check(const diff_budget_t *bu, const diff_t *d, FILE *out)
{
    int over = 0, bad = 0;
    for (size_t i = 0; i < bu->count; i++) {
        int rc = check_rule(&bu->rules[i], d, out);
        over += rc == 1;
        bad += rc < 0;
    }
    if (bad) {
        return CLI_USAGE;
    }
    fprintf(out, "budget: %zu rule(s), %d over budget\n", bu->count, over);
    return over ? CLI_BAD_INPUT : CLI_OK;
}
