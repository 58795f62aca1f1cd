/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec diff --format json`: one JSON object (RFC 8259): a, b {path, records, seconds,
 * time_unit "ns"|"ticks", kernel, lossy, losses {dropped, overwritten, damaged_ranges,
 * records_lost, records_lost_known, spans_not_measured}}, lossy, test, alpha, rows[] {kind,
 * name, a, b (null: only on the other side; else count, rate, p50, p90, p99, max, value,
 * worst_index), change, relative, p99_change_ci ([low, high], 95%, or null), p, exact, significant, verdict, explain}. Numbers that are not
 * finite are null. */
#include <math.h>
#include <stdio.h>

#include "diff_print.h"

static void jstr(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
        if (*p == '"' || *p == '\\') {
            printf("\\%c", *p);
        } else if (*p < 0x20 || *p == 0x7F) {
            printf("\\u%04x", *p);
        } else {
            putchar(*p);
        }
    }
    putchar('"');
}

static void jnum(double v)
{
    if (isfinite(v)) {
        printf("%.17g", v);
    } else {
        printf("null");
    }
}

static void side(const diff_side_t *s)
{
    const diff_losses_t *l = &s->loss;
    printf("{\"path\":");
    jstr(s->path);
    printf(",\"records\":%llu,\"seconds\":", (unsigned long long)s->records);
    jnum(s->seconds);
    printf(",\"time_unit\":\"%s\",\"kernel\":%s,\"lossy\":%s,\"losses\":{\"dropped\":%llu,"
           "\"overwritten\":%llu,\"damaged_ranges\":%llu,\"records_lost\":%llu,\"records_lost_known\":%s,"
           "\"spans_not_measured\":%llu}}",
           s->ns ? "ns" : "ticks", s->kernel ? "true" : "false", diff_lossy(s) ? "true" : "false",
           (unsigned long long)l->dropped, (unsigned long long)l->overwritten, (unsigned long long)l->damaged,
           (unsigned long long)l->damage_lost, l->damage_unknown ? "false" : "true",
           (unsigned long long)l->spans_cut);
}

static void item(const diff_item_t *it)
{
    if (!it) {
        printf("null");
        return;
    }
    printf("{\"count\":%llu,\"rate\":", (unsigned long long)it->count);
    jnum(it->rate);
    const double v[4] = {it->p50, it->p90, it->p99, it->max};
    const char *const n[4] = {"p50", "p90", "p99", "max"};
    for (int i = 0; i < 4; i++) {
        printf(",\"%s\":", n[i]);
        jnum(it->has_dist || (i == 3 && it->kind != DIFF_EVENT) ? v[i] : NAN);
    }
    printf(",\"value\":");
    jnum(it->kind == DIFF_TASK || it->kind == DIFF_COUNTER ? it->mean : NAN);
    printf(",\"worst_index\":");
    if (it->worst_index == UINT64_MAX) {
        printf("null}");
    } else {
        printf("%llu}", (unsigned long long)it->worst_index);
    }
}

static void row(const diff_row_t *r)
{
    printf("{\"kind\":\"%s\",\"name\":", diff_kind_name(r->kind));
    jstr(r->name);
    printf(",\"a\":");
    item(r->a);
    printf(",\"b\":");
    item(r->b);
    printf(",\"change\":");
    jnum(r->a && r->b ? r->change : NAN);
    printf(",\"relative\":");
    jnum(r->rel);
    printf(",\"p99_change_ci\":");
    if (r->p99_ci) {
        putchar('[');
        jnum(r->p99_lo);
        putchar(',');
        jnum(r->p99_hi);
        putchar(']');
    } else {
        printf("null");
    }
    printf(",\"p\":");
    jnum(r->tested ? r->p : NAN);
    printf(",\"exact\":%s,\"significant\":%s,\"verdict\":", r->exact ? "true" : "false",
           r->significant ? "true" : "false");
    jstr(diff_verdict(r));
    printf(",\"explain\":");
    if (r->explain) {
        jstr(r->explain);
    } else {
        printf("null");
    }
    putchar('}');
}

int diff_print_json(const diff_t *d)
{
    printf("{\"a\":");
    side(d->a);
    printf(",\"b\":");
    side(d->b);
    printf(",\"lossy\":%s,\"test\":\"mann-whitney-u; poisson-rate\",\"alpha\":",
           diff_lossy(d->a) || diff_lossy(d->b) ? "true" : "false");
    jnum(d->alpha);
    printf(",\"rows\":[");
    for (size_t i = 0; i < d->count; i++) {
        printf(i ? ",\n" : "\n");
        row(&d->rows[i]);
    }
    printf("]}\n");
    return 1;
}
