/* SPDX-License-Identifier: Apache-2.0 */
/* Durations of spans: count, total, min, max and the longest always; percentiles exact from the
 * kept values (selection, no full sort) while the analysis keeps at most its budget of values,
 * else from a DDSketch (Masson, Rim, Lee, VLDB 2019): logarithmic buckets of ratio
 * gamma = (1 + a) / (1 - a), each answered by 2 gamma^i / (gamma + 1), which is within a relative
 * error a of every value of the bucket (a = EVREC_STATS_SKETCH_ERROR). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"

static double ln_gamma(void)
{
    static double v;
    if (v == 0.0) {
        v = log((1.0 + EVREC_STATS_SKETCH_ERROR) / (1.0 - EVREC_STATS_SKETCH_ERROR));
    }
    return v;
}

static int32_t bucket_of(uint64_t v)
{
    return (int32_t)ceil(log((double)v) / ln_gamma());
}

int an_sketch_add(an_sketch_t *s, uint64_t v, uint64_t count)
{
    if (v == 0) {
        s->zeros += count;
        return 0;
    }
    int32_t i = bucket_of(v);
    if (s->n == 0) {
        s->b = calloc(16, sizeof *s->b);
        if (!s->b) {
            return -1;
        }
        s->lo = i - 8;
        s->n = 16;
    }
    if (i < s->lo || i >= s->lo + (int32_t)s->n) {
        int32_t lo = i < s->lo ? i - 16 : s->lo;
        int32_t hi = i >= s->lo + (int32_t)s->n ? i + 16 : s->lo + (int32_t)s->n;
        uint32_t n = (uint32_t)(hi - lo);
        uint64_t *b = calloc(n, sizeof *b);
        if (!b) {
            return -1;
        }
        memcpy(b + (s->lo - lo), s->b, s->n * sizeof *b);
        free(s->b);
        s->b = b;
        s->lo = lo;
        s->n = n;
    }
    s->b[i - s->lo] += count;
    return 0;
}

uint64_t an_sketch_rank(const an_sketch_t *s, uint64_t rank)
{
    uint64_t cum = s->zeros;
    if (rank <= cum) {
        return 0;
    }
    const double g = exp(ln_gamma());
    for (uint32_t k = 0; k < s->n; k++) {
        cum += s->b[k];
        if (cum >= rank) {
            double est = 2.0 * pow(g, (double)(s->lo + (int32_t)k)) / (g + 1.0);
            return est >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)llround(est);
        }
    }
    return 0;
}

int an_dur_add(an_dur_t *g, an_budget_t *b, uint64_t v, const evrec_span_t *sp)
{
    if (!b->sketch && g->store && g->n == g->cap) {
        uint64_t grow = g->cap ? g->cap : 64;
        if (grow > b->max - b->used) {
            grow = b->max - b->used;
        }
        if (grow == 0) {
            return 1;
        }
        size_t cap = g->cap + (size_t)grow;
        uint64_t *p = realloc(g->vals, cap * sizeof *p);
        if (!p) {
            return -1;
        }
        b->used += grow;
        g->vals = p;
        g->cap = cap;
    }
    if (b->sketch && an_sketch_add(&g->sk, v, 1) != 0) {
        return -1;
    }
    if (!b->sketch && g->store) {
        g->vals[g->n++] = v;
    }
    evrec_stats_durations_t *d = &g->d;
    if (d->count == 0 || v < d->min) {
        d->min = v;
    }
    if (d->count == 0 || v > d->max) {
        d->max = v;
        d->worst_begin_index = sp->begin_index;
        d->worst_end_index = sp->end_index;
        d->worst_begin_t64 = sp->begin_t64;
    }
    d->count++;
    d->total = d->total + v < d->total ? UINT64_MAX : d->total + v;
    return 0;
}

int an_dur_sketch_from(an_dur_t *g, an_dur_t *const *more, uint32_t n_more)
{
    for (size_t i = 0; i < g->n; i++) {
        if (an_sketch_add(&g->sk, g->vals[i], 1) != 0) {
            return -1;
        }
    }
    for (uint32_t k = 0; k < n_more; k++) {
        for (size_t i = 0; i < more[k]->n; i++) {
            if (an_sketch_add(&g->sk, more[k]->vals[i], 1) != 0) {
                return -1;
            }
        }
    }
    return 0;
}

void an_dur_drop_values(an_dur_t *g, an_budget_t *b)
{
    b->used -= g->cap < b->used ? g->cap : b->used;
    free(g->vals);
    g->vals = NULL;
    g->n = g->cap = 0;
}

static void swap(uint64_t *a, uint64_t *b)
{
    uint64_t t = *a;
    *a = *b;
    *b = t;
}

/* Put the k-th smallest (0-based) of v[lo..hi] at v[k], smaller ones before, larger after
 * (Hoare's selection with a median-of-three pivot and a three-way partition). */
static void select_kth(uint64_t *v, ptrdiff_t lo, ptrdiff_t hi, ptrdiff_t k)
{
    while (hi > lo) {
        ptrdiff_t mid = lo + (hi - lo) / 2;
        if (v[mid] < v[lo]) {
            swap(&v[mid], &v[lo]);
        }
        if (v[hi] < v[lo]) {
            swap(&v[hi], &v[lo]);
        }
        if (v[hi] < v[mid]) {
            swap(&v[hi], &v[mid]);
        }
        uint64_t pivot = v[mid];
        /* [lo, lt) < pivot, [lt, i) == pivot, (gt, hi] > pivot */
        ptrdiff_t lt = lo, i = lo, gt = hi;
        while (i <= gt) {
            if (v[i] < pivot) {
                swap(&v[lt++], &v[i++]);
            } else if (v[i] > pivot) {
                swap(&v[i], &v[gt--]);
            } else {
                i++;
            }
        }
        if (k < lt) {
            hi = lt - 1;
        } else if (k > gt) {
            lo = gt + 1;
        } else {
            return;
        }
    }
}

/* The nearest rank of percentile pct among n: ceil(pct n / 100), at least 1. */
static uint64_t rank_of(unsigned pct, uint64_t n)
{
    uint64_t r = n / 100u * pct + (n % 100u * pct + 99u) / 100u;
    return r ? r : 1;
}

void an_dur_percentiles(an_dur_t *g, uint64_t *vals, size_t n, int exact)
{
    evrec_stats_durations_t *d = &g->d;
    static const unsigned pct[3] = {50, 90, 99};
    uint64_t *out[3] = {&d->p50, &d->p90, &d->p99};
    d->mean = d->count ? (double)d->total / (double)d->count : 0.0;
    if (d->count && d->total == UINT64_MAX) {
        d->mean = 0.0; /* saturated: recompute from the values when kept */
        for (size_t i = 0; i < n; i++) {
            d->mean += (double)vals[i];
        }
        d->mean = n ? d->mean / (double)n : 0.0;
    }
    d->exact = exact;
    if (d->count == 0) {
        return;
    }
    size_t lo = 0;
    for (int k = 0; k < 3; k++) {
        uint64_t r = rank_of(pct[k], d->count);
        uint64_t v;
        if (exact) {
            size_t idx = (size_t)(r - 1);
            select_kth(vals, (ptrdiff_t)lo, (ptrdiff_t)n - 1, (ptrdiff_t)idx);
            v = vals[idx];
            lo = idx; /* the next percentile is at or above */
        } else {
            v = an_sketch_rank(&g->sk, r);
        }
        *out[k] = v < d->min ? d->min : v > d->max ? d->max : v;
    }
}

void an_dur_free(an_dur_t *g)
{
    free(g->vals);
    free(g->sk.b);
    memset(g, 0, sizeof *g);
}
