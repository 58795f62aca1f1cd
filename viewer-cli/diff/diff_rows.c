/* SPDX-License-Identifier: Apache-2.0 */
/* The comparison of `evrec diff`: the items of both sides paired by kind and name into rows,
 * each tested (durations: Mann-Whitney U on the samples; event counts: the Poisson rate test)
 * and sorted: significant rows first, by p-value, then by the size of the relative change. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diff.h"

const char *diff_kind_name(diff_kind_t k)
{
    static const char *const names[DIFF_KINDS] = {"span", "task", "isr", "event", "counter"};
    return k < DIFF_KINDS ? names[k] : "?";
}

double diff_headline(const diff_item_t *it)
{
    switch (it->kind) {
    case DIFF_SPAN:
    case DIFF_ISR: return it->p50;
    case DIFF_EVENT: return it->rate;
    default: return it->mean; /* counters: time-weighted mean; tasks: CPU share */
    }
}

/* "FrameStage[Encode]" is kept by --span FrameStage. */
static int name_in(const char *name, const char **list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(list[i]);
        if (strncmp(name, list[i], len) == 0 && (name[len] == 0 || name[len] == '[')) {
            return 1;
        }
    }
    return 0;
}

static int kept(const diff_item_t *it, const diff_filter_t *f)
{
    if (!f || (f->span_count == 0 && f->event_count == 0)) {
        return 1;
    }
    return (it->kind == DIFF_SPAN && name_in(it->name, f->spans, f->span_count)) ||
           (it->kind == DIFF_EVENT && name_in(it->name, f->events, f->event_count));
}

static void test_row(diff_row_t *r, const diff_t *d)
{
    const diff_item_t *a = r->a, *b = r->b;
    r->p = 1;
    r->auc = 0.5;
    r->rel = NAN;
    if (!a || !b) {
        return;
    }
    double ha = diff_headline(a), hb = diff_headline(b);
    r->change = hb - ha;
    r->rel = ha != 0 ? (hb - ha) / ha : NAN;
    if (a->samples.n || b->samples.n) {
        r->tested = diff_mann_whitney(a->samples.v, a->samples.n, b->samples.v, b->samples.n, &r->p, &r->auc,
                                      &r->exact);
    } else if (r->kind == DIFF_EVENT) {
        r->tested = diff_rate_test(a->count, d->a->seconds, b->count, d->b->seconds, &r->p);
    }
    r->significant = r->tested && r->p < d->alpha;
    /* Each side's interval at 97.5%: the difference's covers at least 95% (independent sides). */
    double alo, ahi, blo, bhi;
    if (diff_quantile_ci(a->samples.v, a->samples.n, 0.99, 2.2414, &alo, &ahi) &&
        diff_quantile_ci(b->samples.v, b->samples.n, 0.99, 2.2414, &blo, &bhi)) {
        r->p99_ci = 1;
        r->p99_lo = blo - ahi;
        r->p99_hi = bhi - alo;
    }
}

static int row_cmp(const void *x, const void *y)
{
    const diff_row_t *a = x, *b = y;
    if (a->significant != b->significant) {
        return b->significant - a->significant;
    }
    if (a->p != b->p) {
        return a->p < b->p ? -1 : 1;
    }
    double ra = isnan(a->rel) ? 0 : fabs(a->rel), rb = isnan(b->rel) ? 0 : fabs(b->rel);
    if (ra != rb) {
        return ra > rb ? -1 : 1;
    }
    if (a->kind != b->kind) {
        return (int)a->kind - (int)b->kind;
    }
    return strcmp(a->name, b->name);
}

static void add_row(diff_t *d, size_t *cap, const diff_item_t *a, const diff_item_t *b)
{
    const diff_item_t *it = a ? a : b;
    if ((!a || a->count == 0) && (!b || b->count == 0) && it->kind != DIFF_TASK && it->kind != DIFF_ISR) {
        return; /* seen on neither side */
    }
    if (d->count == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        diff_row_t *p = realloc(d->rows, *cap * sizeof *p);
        if (!p) {
            cli_error("out of memory");
            exit(CLI_BAD_INPUT);
        }
        d->rows = p;
    }
    diff_row_t *r = &d->rows[d->count++];
    memset(r, 0, sizeof *r);
    r->kind = it->kind;
    r->name = it->name;
    r->a = a;
    r->b = b;
    test_row(r, d);
}

void diff_compare(diff_t *d, const diff_side_t *a, const diff_side_t *b, double alpha, const diff_filter_t *f)
{
    memset(d, 0, sizeof *d);
    d->a = a;
    d->b = b;
    d->alpha = alpha;
    size_t cap = 0;
    for (size_t i = 0; i < a->count; i++) {
        if (kept(&a->items[i], f)) {
            add_row(d, &cap, &a->items[i], diff_side_find(b, a->items[i].kind, a->items[i].name));
        }
    }
    for (size_t i = 0; i < b->count; i++) {
        if (kept(&b->items[i], f) && !diff_side_find(a, b->items[i].kind, b->items[i].name)) {
            add_row(d, &cap, NULL, &b->items[i]);
        }
    }
    if (d->count > 1) { /* rows is NULL without any: qsort() wants a pointer */
        qsort(d->rows, d->count, sizeof *d->rows, row_cmp);
    }
}

void diff_free(diff_t *d)
{
    for (size_t i = 0; i < d->count; i++) {
        free((char *)d->rows[i].explain);
    }
    free(d->rows);
    memset(d, 0, sizeof *d);
}
