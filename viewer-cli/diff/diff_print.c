/* SPDX-License-Identifier: Apache-2.0 */
/* The output of `evrec diff`: the losses of either side first, then one row per span, task, ISR,
 * event type and counter as an aligned table or a Markdown table (the same cells), or one JSON
 * object (diff_json.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diff.h"
#include "diff_print.h"

void diff_fmt_time(char *buf, size_t n, double v, int ns)
{
    if (!ns) {
        snprintf(buf, n, "%.0f", v);
        return;
    }
    double a = fabs(v);
    if (a >= 1e9) {
        snprintf(buf, n, "%.3gs", v / 1e9);
    } else if (a >= 1e6) {
        snprintf(buf, n, "%.3gms", v / 1e6);
    } else if (a >= 1e3) {
        snprintf(buf, n, "%.3gus", v / 1e3);
    } else {
        snprintf(buf, n, "%.3gns", v);
    }
}

/* A value of a row in the kind's unit: times for spans, ISRs and task latencies; "%" for shares. */
static void fmt_value(char *buf, size_t n, const diff_t *d, diff_kind_t k, double v, int sign)
{
    char t[32];
    if (k == DIFF_TASK) {
        snprintf(buf, n, sign ? "%+.2fpt" : "%.2f%%", v);
    } else if (k == DIFF_EVENT) {
        snprintf(buf, n, sign ? "%+.4g/s" : "%.4g/s", v);
    } else if (k == DIFF_COUNTER) {
        snprintf(buf, n, sign ? "%+.4g" : "%.4g", v);
    } else {
        diff_fmt_time(t, sizeof t, v, d->a->ns && d->b->ns);
        snprintf(buf, n, "%s%s", sign && v >= 0 ? "+" : "", t);
    }
}

const char *diff_verdict(const diff_row_t *r)
{
    if (!r->a) {
        return "only in B";
    }
    if (!r->b) {
        return "only in A";
    }
    if (!r->tested) {
        return "not tested";
    }
    if (!r->significant) {
        return "no change";
    }
    return r->auc > 0.5 || (r->kind == DIFF_EVENT && r->change > 0) ? "higher" : "lower";
}

/* "A -> B" of one metric; "-" for a side that has not the item or the value. */
static void pair(char *buf, size_t n, const diff_t *d, const diff_row_t *r, int metric)
{
    char x[2][40];
    const diff_item_t *it[2] = {r->a, r->b};
    for (int s = 0; s < 2; s++) {
        const diff_item_t *i = it[s];
        if (!i || (metric >= 2 && metric <= 5 && !i->has_dist)) {
            strcpy(x[s], "-");
        } else if (metric == 0) {
            snprintf(x[s], sizeof x[s], "%llu", (unsigned long long)i->count);
        } else if (metric == 1) {
            snprintf(x[s], sizeof x[s], "%.4g/s", i->rate);
        } else if (metric == 6) {
            fmt_value(x[s], sizeof x[s], d, i->kind == DIFF_COUNTER ? DIFF_COUNTER : DIFF_TASK, i->mean, 0);
        } else {
            double v = metric == 2 ? i->p50 : metric == 3 ? i->p90 : metric == 4 ? i->p99 : i->max;
            fmt_value(x[s], sizeof x[s], d, i->kind == DIFF_TASK ? DIFF_SPAN : i->kind, v, 0);
        }
    }
    if (strcmp(x[0], "-") == 0 && strcmp(x[1], "-") == 0) {
        strcpy(buf, "-");
    } else {
        snprintf(buf, n, "%s -> %s", x[0], x[1]);
    }
}

static const char *const heads[DIFF_COLS] = {"KIND", "NAME",   "COUNT", "RATE",   "P50", "P90",
                                             "P99",  "MAX",    "VALUE", "CHANGE", "REL", "P99 CHANGE (95%)",
                                             "P",    "VERDICT"};

void diff_cells(const diff_t *d, const diff_row_t *r, char cells[DIFF_COLS][DIFF_CELL])
{
    snprintf(cells[0], DIFF_CELL, "%s", diff_kind_name(r->kind));
    snprintf(cells[1], DIFF_CELL, "%s", r->name);
    for (int m = 0; m < 6; m++) {
        pair(cells[2 + m], DIFF_CELL, d, r, m);
    }
    if (r->kind == DIFF_TASK || r->kind == DIFF_COUNTER) {
        pair(cells[8], DIFF_CELL, d, r, 6);
    } else {
        strcpy(cells[8], "");
    }
    strcpy(cells[9], "-");
    strcpy(cells[10], "-");
    if (r->a && r->b) {
        fmt_value(cells[9], DIFF_CELL, d, r->kind, r->change, 1);
        if (!isnan(r->rel)) {
            snprintf(cells[10], DIFF_CELL, "%+.1f%%", 100 * r->rel);
        }
    }
    strcpy(cells[11], "-");
    if (r->p99_ci) {
        char lo[40], hi[40];
        fmt_value(lo, sizeof lo, d, r->kind, r->p99_lo, 1);
        fmt_value(hi, sizeof hi, d, r->kind, r->p99_hi, 1);
        snprintf(cells[11], DIFF_CELL, "%s .. %s", lo, hi);
    }
    if (r->tested) {
        snprintf(cells[12], DIFF_CELL, r->p < 1e-4 ? "%.1e%s" : "%.4f%s", r->p, r->exact ? " exact" : "");
    } else {
        strcpy(cells[12], "-");
    }
    snprintf(cells[13], DIFF_CELL, "%s", diff_verdict(r));
}

static void print_loss(const diff_side_t *s, const char *which)
{
    const diff_losses_t *l = &s->loss;
    printf("losses %s:", which);
    int any = 0;
    if (l->dropped) {
        printf(" %llu event(s) dropped (trace buffer full);", (unsigned long long)l->dropped), any = 1;
    }
    if (l->overwritten) {
        printf(" %llu record(s) overwritten (cyclic buffer);", (unsigned long long)l->overwritten), any = 1;
    }
    if (l->damaged) {
        printf(" %llu damaged range(s), ", (unsigned long long)l->damaged);
        if (l->damage_unknown) {
            printf("an unknown number of records lost (the reader stopped at damage);");
        } else {
            printf("%llu record(s) lost;", (unsigned long long)l->damage_lost);
        }
        any = 1;
    }
    if (l->spans_cut) {
        printf(" %llu span(s) not measured (unmatched, cut or open at an edge);",
               (unsigned long long)l->spans_cut);
    }
    printf("%s\n", any ? "" : " none");
}

int diff_lossy(const diff_side_t *s)
{
    return s->loss.dropped || s->loss.overwritten || s->loss.damaged;
}

static void print_head(const diff_t *d, int md)
{
    const diff_side_t *s[2] = {d->a, d->b};
    const char *pre = md ? "- " : "";
    for (int i = 0; i < 2; i++) {
        printf("%s%c: %s: %llu records over %.6g %s%s\n", pre, 'A' + i, s[i]->path,
               (unsigned long long)s[i]->records, s[i]->seconds, s[i]->ns ? "s" : "Mticks (clock unknown)",
               s[i]->kernel ? ", kernel trace" : "");
    }
    for (int i = 0; i < 2; i++) {
        printf("%s", pre);
        print_loss(s[i], i ? "B" : "A");
    }
    if (diff_lossy(d->a) || diff_lossy(d->b)) {
        printf("%sTHIS COMPARISON IS LOSSY: records are missing on %s; its counts are lower bounds\n", pre,
               diff_lossy(d->a) && diff_lossy(d->b) ? "both sides"
               : diff_lossy(d->a)                   ? "A"
                                                    : "B");
    }
    if (d->a->ns != d->b->ns) {
        printf("%sthe clock of %s is unknown: its times are ticks, not comparable with ns\n", pre,
               d->a->ns ? "B" : "A");
    }
    printf("%stest: Mann-Whitney U on the durations (exact for n <= %u without ties, else normal "
           "approximation with tie correction), Poisson rate test on event counts; alpha %g\n%s",
           pre, DIFF_EXACT_MAX, d->alpha, md ? "\n" : "\n");
}

static void print_table(const diff_t *d, int md)
{
    size_t w[DIFF_COLS];
    char(*cells)[DIFF_COLS][DIFF_CELL] = malloc((d->count + 1) * sizeof *cells);
    if (!cells) {
        cli_error("out of memory");
        exit(CLI_BAD_INPUT);
    }
    for (int c = 0; c < DIFF_COLS; c++) {
        snprintf(cells[0][c], DIFF_CELL, "%s", heads[c]);
    }
    for (size_t i = 0; i < d->count; i++) {
        diff_cells(d, &d->rows[i], cells[i + 1]);
    }
    for (int c = 0; c < DIFF_COLS; c++) {
        w[c] = 3;
        for (size_t i = 0; i <= d->count; i++) {
            size_t n = strlen(cells[i][c]);
            w[c] = n > w[c] ? n : w[c];
        }
    }
    for (size_t i = 0; i <= d->count; i++) {
        for (int c = 0; c < DIFF_COLS; c++) {
            int last = !md && c == DIFF_COLS - 1; /* no trailing blanks */
            printf(md ? "| %-*s " : c ? "  %-*s" : "%-*s", last ? 0 : (int)w[c], cells[i][c]);
        }
        printf(md ? "|\n" : "\n");
        if (md && i == 0) {
            for (int c = 0; c < DIFF_COLS; c++) {
                printf("|%.*s", (int)w[c] + 2,
                       "---------------------------------------------------------------"
                       "-------------------------------------------------------------");
            }
            printf("|\n");
        }
    }
    free(cells);
}

int diff_print(const diff_t *d, int format)
{
    if (format == DIFF_JSON) {
        return diff_print_json(d);
    }
    print_head(d, format == DIFF_MARKDOWN);
    if (d->count == 0) {
        printf("nothing to compare\n");
    } else {
        print_table(d, format == DIFF_MARKDOWN);
    }
    diff_print_explain(d, format == DIFF_MARKDOWN);
    return 1;
}
