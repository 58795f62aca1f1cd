/* SPDX-License-Identifier: Apache-2.0 */
/* "Where the time went" of `evrec diff`, for kernel traces (the RTOS catalogue's IsrActive and
 * TaskRunning spans): for each span row that grew significantly (at most DIFF_EXPLAIN rows), both
 * recordings are read again and the time that each interrupt handler and each task ran inside
 * the span's instances is summed (the overlap of the intervals, one core). The change of that
 * time per instance, B against A, is set against the change of the mean duration: "isr uart0
 * +9.8us per span (97%)". A span's own task shows as a source too (its own work grew). */
#include <stdlib.h>
#include <string.h>

#include "diff_internal.h"
#include "diff_print.h"

#define DIFF_EXPLAIN 3

typedef struct iv {
    uint64_t b, e;
    uint32_t src; /* explain: target 0..DIFF_EXPLAIN-1; sources: 0 isr, 1 task (<< 31) | value */
} iv_t;

typedef struct ivs {
    iv_t *v;
    size_t n, cap;
} ivs_t;

typedef struct pass {
    const diff_item_t *target[DIFF_EXPLAIN];
    size_t targets;
    uint32_t isr_span, task_span;
    int ns;
    ivs_t tgt, src;
    size_t lo[64], hi[64]; /* the intervals of each source in src (the first 64 sources) */
    size_t sources;
    int nomem;
} pass_t;

static void push(pass_t *p, ivs_t *a, uint64_t b, uint64_t e, uint32_t src)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 256;
        iv_t *q = realloc(a->v, cap * sizeof *q);
        if (!q) {
            p->nomem = 1;
            return;
        }
        a->v = q;
        a->cap = cap;
    }
    a->v[a->n++] = (iv_t){b, e, src};
}

static void on_span(void *ctx, const evrec_span_t *sp)
{
    pass_t *p = ctx;
    if (sp->flags != 0) {
        return;
    }
    uint64_t b = p->ns ? sp->begin_ns : sp->begin_t64, e = p->ns ? sp->end_ns : sp->end_t64;
    e = e < b ? b : e;
    for (size_t i = 0; i < p->targets; i++) {
        const diff_item_t *t = p->target[i];
        if (t->span == sp->span && (!t->per_track || (sp->has_track && sp->track == t->value))) {
            push(p, &p->tgt, b, e, (uint32_t)i);
        }
    }
    if (sp->span == p->isr_span && sp->depth == 0) {
        push(p, &p->src, b, e, sp->key & 0x7FFFFFFFu);
    } else if (sp->span == p->task_span && sp->depth == 0) {
        push(p, &p->src, b, e, 1u << 31 | (sp->key & 0x7FFFFFFFu));
    }
}

static uint32_t span_named(const evrec_reader_t *r, const char *name)
{
    const evrec_tracks_t *t = evrec_reader_tracks(r);
    for (uint32_t i = 0; t && i < t->span_count; i++) {
        if (strcmp(t->spans[i].name, name) == 0) {
            return i;
        }
    }
    return UINT32_MAX;
}

static int iv_cmp(const void *x, const void *y)
{
    const iv_t *a = x, *b = y;
    if (a->src != b->src) {
        return a->src < b->src ? -1 : 1;
    }
    return (a->b > b->b) - (a->b < b->b);
}

static size_t first_after(const iv_t *v, size_t lo, size_t hi, uint64_t t);

static int iv_by_begin(const void *x, const void *y)
{
    const iv_t *a = x, *b = y;
    return (a->b > b->b) - (a->b < b->b);
}

/* Tasks' time excludes the interrupt handlers that ran while they ran (as their CPU time does):
 * each task interval is cut around the union of the handlers' intervals. */
static void tasks_exclusive(pass_t *p)
{
    ivs_t isr = {0}, out = {0};
    for (size_t i = 0; i < p->src.n; i++) {
        const iv_t *v = &p->src.v[i];
        if (!(v->src >> 31)) {
            push(p, &isr, v->b, v->e, 0);
            push(p, &out, v->b, v->e, v->src);
        }
    }
    if (isr.n > 1) { /* isr.v is NULL when empty */
        qsort(isr.v, isr.n, sizeof *isr.v, iv_by_begin);
    }
    size_t m = 0; /* merge into a union of disjoint intervals */
    for (size_t i = 0; i < isr.n; i++) {
        if (m && isr.v[i].b <= isr.v[m - 1].e) {
            isr.v[m - 1].e = isr.v[i].e > isr.v[m - 1].e ? isr.v[i].e : isr.v[m - 1].e;
        } else {
            isr.v[m++] = isr.v[i];
        }
    }
    for (size_t i = 0; i < p->src.n; i++) {
        const iv_t *v = &p->src.v[i];
        if (!(v->src >> 31)) {
            continue;
        }
        uint64_t at = v->b;
        for (size_t j = first_after(isr.v, 0, m, v->b); j < m && isr.v[j].b < v->e; j++) {
            if (isr.v[j].b > at) {
                push(p, &out, at, isr.v[j].b, v->src);
            }
            at = isr.v[j].e;
        }
        if (at < v->e) {
            push(p, &out, at, v->e, v->src);
        }
    }
    free(isr.v);
    free(p->src.v);
    p->src = out;
}

/* Read a side's intervals. 0, or -1 (unreadable, out of memory: no explanation). */
static int read_pass(pass_t *p, const diff_side_t *side)
{
    evrec_reader_t *r = cli_open_reader(side->path, &side->clock);
    evrec_spans_t *sp = NULL;
    if (!r || evrec_spans_create(&sp, r, on_span, p) != EVREC_OK) {
        evrec_reader_close(r);
        return -1;
    }
    p->isr_span = span_named(r, "IsrActive");
    p->task_span = span_named(r, "TaskRunning");
    p->ns = side->ns;
    evrec_record_t rec;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        evrec_spans_add(sp, &rec);
    }
    evrec_spans_finish(sp);
    evrec_spans_free(sp);
    evrec_reader_close(r);
    tasks_exclusive(p);
    if (p->tgt.n > 1) { /* the arrays are NULL when empty */
        qsort(p->tgt.v, p->tgt.n, sizeof *p->tgt.v, iv_cmp);
    }
    if (p->src.n > 1) {
        qsort(p->src.v, p->src.n, sizeof *p->src.v, iv_cmp);
    }
    for (size_t i = 0; i < p->src.n && p->sources < 64; p->sources++) {
        p->lo[p->sources] = i;
        while (i < p->src.n && p->src.v[i].src == p->src.v[p->lo[p->sources]].src) {
            i++;
        }
        p->hi[p->sources] = i;
    }
    return p->nomem ? -1 : 0;
}

/* What ran inside the instances of one target on one side. */
typedef struct inside {
    uint64_t n;       /* instances */
    double total;     /* their summed duration */
    uint32_t src[64]; /* sources seen (at most 64) ... */
    double time[64];  /* ... and their time inside the instances */
    size_t count;
} inside_t;

/* First interval of [lo, hi) (one source: disjoint, sorted) that ends after t. */
static size_t first_after(const iv_t *v, size_t lo, size_t hi, uint64_t t)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].e <= t) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static void add_source(inside_t *in, uint32_t src, double t)
{
    for (size_t i = 0; i < in->count; i++) {
        if (in->src[i] == src) {
            in->time[i] += t;
            return;
        }
    }
    if (in->count < 64 && t > 0) {
        in->src[in->count] = src;
        in->time[in->count++] = t;
    }
}

/* The overlap of target `k`'s instances with every source. */
static void measure(const pass_t *p, uint32_t k, inside_t *in)
{
    memset(in, 0, sizeof *in);
    for (size_t i = 0; i < p->tgt.n; i++) {
        const iv_t *t = &p->tgt.v[i];
        if (t->src != k) {
            continue;
        }
        in->n++;
        in->total += (double)(t->e - t->b);
        for (size_t g = 0; g < p->sources; g++) {
            size_t lo = p->lo[g], hi = p->hi[g];
            double sum = 0;
            for (size_t j = first_after(p->src.v, lo, hi, t->b); j < hi && p->src.v[j].b < t->e; j++) {
                uint64_t b = p->src.v[j].b > t->b ? p->src.v[j].b : t->b;
                uint64_t e = p->src.v[j].e < t->e ? p->src.v[j].e : t->e;
                sum += (double)(e - b);
            }
            add_source(in, p->src.v[lo].src, sum);
        }
    }
}

static const char *source_name(const diff_t *d, uint32_t src, char *buf, size_t n)
{
    diff_kind_t kind = src >> 31 ? DIFF_TASK : DIFF_ISR;
    uint32_t value = src & 0x7FFFFFFFu;
    const diff_side_t *sides[2] = {d->b, d->a};
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < sides[s]->count; i++) {
            const diff_item_t *it = &sides[s]->items[i];
            if (it->kind == kind && it->value == value) {
                snprintf(buf, n, "%s %s", diff_kind_name(kind), it->name);
                return buf;
            }
        }
    }
    snprintf(buf, n, "%s %u", diff_kind_name(kind), (unsigned)value);
    return buf;
}

/* The explanation of target k from both sides' measures (malloc'd text). */
static char *explain_one(const diff_t *d, const inside_t *a, const inside_t *b)
{
    double grow = b->total / (double)b->n - a->total / (double)a->n;
    cli_buf_t out = {0};
    char name[96], t[32];
    uint32_t taken[3];
    int shown = 0;
    for (int round = 0; round < 3; round++) { /* the three largest contributions */
        double best = 0;
        uint32_t best_src = 0;
        for (size_t i = 0; i < b->count; i++) {
            double ta = 0;
            for (size_t j = 0; j < a->count; j++) {
                ta = a->src[j] == b->src[i] ? a->time[j] : ta;
            }
            double delta = b->time[i] / (double)b->n - ta / (double)a->n;
            int seen = 0;
            for (int k = 0; k < shown; k++) {
                seen |= taken[k] == b->src[i];
            }
            if (delta > best && !seen) {
                best = delta;
                best_src = b->src[i];
            }
        }
        if (best <= 0) {
            break;
        }
        diff_fmt_time(t, sizeof t, best, d->a->ns && d->b->ns);
        cli_buf_printf(&out, "%s%s +%s per span", shown ? "; " : "", source_name(d, best_src, name, sizeof name),
                       t);
        taken[shown++] = best_src;
        if (grow > 0) {
            cli_buf_printf(&out, " (%.0f%% of the growth)", 100 * best / grow);
        }
    }
    if (!shown) {
        cli_buf_puts(&out, "no interrupt handler or task ran longer inside it on B");
    }
    cli_buf_putc(&out, 0);
    return out.p;
}

void diff_explain(diff_t *d)
{
    pass_t pa, pb;
    memset(&pa, 0, sizeof pa);
    size_t rows[DIFF_EXPLAIN];
    for (size_t i = 0; i < d->count && pa.targets < DIFF_EXPLAIN; i++) {
        const diff_row_t *r = &d->rows[i];
        if (r->kind == DIFF_SPAN && r->significant && r->auc > 0.5 && r->a && r->b && d->a->kernel &&
            d->b->kernel) {
            rows[pa.targets] = i;
            pa.target[pa.targets++] = r->b;
        }
    }
    if (pa.targets == 0) {
        return;
    }
    pb = pa;
    for (size_t k = 0; k < pa.targets; k++) {
        pa.target[k] = d->rows[rows[k]].a; /* the span's index may differ between the files */
    }
    if (read_pass(&pa, d->a) == 0 && read_pass(&pb, d->b) == 0) {
        for (uint32_t k = 0; k < pa.targets; k++) {
            inside_t ia, ib;
            measure(&pa, k, &ia);
            measure(&pb, k, &ib);
            if (ia.n && ib.n) {
                d->rows[rows[k]].explain = explain_one(d, &ia, &ib);
            }
        }
    }
    free(pa.tgt.v);
    free(pa.src.v);
    free(pb.tgt.v);
    free(pb.src.v);
}

void diff_print_explain(const diff_t *d, int md)
{
    int head = 0;
    for (size_t i = 0; i < d->count; i++) {
        const diff_row_t *r = &d->rows[i];
        if (r->explain) {
            if (!head++) {
                printf(md ? "\n**Where the time went** (what ran inside the spans that grew, B against A):\n\n"
                          : "\nwhere the time went (what ran inside the spans that grew, B against A):\n");
            }
            printf("%sspan %s: %s\n", md ? "- " : "  ", r->name, r->explain);
        }
    }
}
