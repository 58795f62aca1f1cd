/* SPDX-License-Identifier: Apache-2.0 */
/* The tests of `evrec diff`. Durations: the Mann-Whitney U test (Mann and Whitney 1947; the tie
 * correction of the normal approximation as in Hollander and Wolfe, "Nonparametric Statistical
 * Methods", section 4.1): rank-based, so it assumes no distribution (span durations are skewed
 * and heavy-tailed) and one outlier cannot make a difference significant; it answers "do B's
 * values tend to be larger than A's" (a location shift). Counts: the conditional test of the
 * ratio of two Poisson rates (given the total, B's count is binomial), normal approximation.
 * The p99's change: the distribution-free confidence interval of a quantile from order
 * statistics (the number of samples below the true quantile is binomial; Hollander and Wolfe,
 * section 3.6), on each side, combined into an interval of the difference. */
#include <math.h>
#include <stdlib.h>

#include "diff.h"

/* Rank sum of a's values in the merged sorted samples (mid-ranks for ties) and the tie term
 * sum(t^3 - t) over the groups of equal values. */
static double rank_sum(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, double *ties)
{
    size_t i = 0, j = 0;
    double r = 0, next = 1, tie = 0; /* next: the rank of the next value */
    while (i < na || j < nb) {
        uint64_t v = (j >= nb || (i < na && a[i] <= b[j])) ? a[i] : b[j];
        size_t ca = 0, cb = 0;
        while (i < na && a[i] == v) {
            i++, ca++;
        }
        while (j < nb && b[j] == v) {
            j++, cb++;
        }
        double t = (double)(ca + cb);
        r += (double)ca * (next + (t - 1) / 2); /* the mid-rank of the group */
        next += t;
        tie += t * t * t - t;
    }
    *ties = tie;
    return r;
}

/* P(U <= u) of the exact null distribution of U for sizes m, n (no ties): the number of
 * arrangements with U = x follows f(m, n, x) = f(m - 1, n, x - n) + f(m, n - 1, x). */
static double exact_cdf(size_t m, size_t n, double u)
{
    enum { N = DIFF_EXACT_MAX + 1, U = DIFF_EXACT_MAX * DIFF_EXACT_MAX + 1 };
    static double f[N][N][U]; /* 3.6 MB, filled on first use ... */
    static int ready;         /* ... once per process (pure: the same values every time) */
    if (!ready) {
        for (size_t a = 0; a < N; a++) {
            for (size_t b = 0; b < N; b++) {
                for (size_t x = 0; x < U; x++) {
                    double v = (a == 0 || b == 0) ? (x == 0) : 0;
                    if (a && b) {
                        v = (x >= b ? f[a - 1][b][x - b] : 0) + f[a][b - 1][x];
                    }
                    f[a][b][x] = v;
                }
            }
        }
        ready = 1;
    }
    double total = 0, below = 0;
    for (size_t x = 0; x <= m * n; x++) {
        total += f[m][n][x];
        below += (double)x <= u + 1e-9 ? f[m][n][x] : 0;
    }
    return below / total;
}

int diff_mann_whitney(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, double *p, double *auc,
                      int *exact)
{
    *p = 1;
    *auc = 0.5;
    *exact = 0;
    if (na < 2 || nb < 2) {
        return 0;
    }
    double ties;
    double n1 = (double)na, n2 = (double)nb, n = n1 + n2;
    double ua = rank_sum(a, na, b, nb, &ties) - n1 * (n1 + 1) / 2; /* pairs with a > b */
    double ub = n1 * n2 - ua;
    *auc = ub / (n1 * n2);
    if (na <= DIFF_EXACT_MAX && nb <= DIFF_EXACT_MAX && ties == 0) {
        double lo = exact_cdf(na, nb, ua < ub ? ua : ub);
        *p = 2 * lo > 1 ? 1 : 2 * lo;
        *exact = 1;
        return 1;
    }
    double var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)));
    if (var <= 0) {
        return 1; /* every value equal: no difference */
    }
    double z = (fabs(ub - n1 * n2 / 2) - 0.5) / sqrt(var);
    *p = z <= 0 ? 1 : erfc(z / sqrt(2));
    return 1;
}

int diff_rate_test(uint64_t ca, double ta, uint64_t cb, double tb, double *p)
{
    *p = 1;
    if (ta <= 0 || tb <= 0 || ca + cb < 5) {
        return 0;
    }
    double n = (double)(ca + cb), q = tb / (ta + tb); /* B's expected share under equal rates */
    double sd = sqrt(n * q * (1 - q));
    double z = (fabs((double)cb - n * q) - 0.5) / sd;
    *p = z <= 0 ? 1 : erfc(z / sqrt(2));
    return 1;
}

int diff_quantile_ci(const uint64_t *v, size_t n, double q, double z, double *lo, double *hi)
{
    double m = (double)n * q, sd = sqrt((double)n * q * (1 - q));
    double j = floor(m - z * sd), k = ceil(m + z * sd); /* ranks, 1-based */
    if (n == 0 || j < 1 || k > (double)n) {
        return 0;
    }
    *lo = (double)v[(size_t)j - 1];
    *hi = (double)v[(size_t)k - 1];
    return 1;
}
