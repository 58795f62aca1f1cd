/* SPDX-License-Identifier: Apache-2.0 */
/* Time-ordered iteration (evrec_reader_order.h): sorting within the window, late records beyond
 * it, stable order for equal times, window 1, damage after reordering, a 2-thread recording. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_reader_order.h"
#include "reader_fixtures.h"

/* A container of Start, Simple records stamped t[0..n-1] (v = position), Stop; 1 kHz. */
static void make_times(const uint32_t *t, size_t n, fx_buf_t *out)
{
    fx_native_t nat = {0};
    fx_native_control(&nat, 0, EVREC_CONTROL_START);
    for (size_t i = 0; i < n; i++) {
        fx_native_simple(&nat, t[i], (uint32_t)i);
    }
    uint32_t last = 0;
    for (size_t i = 0; i < n; i++) {
        last = t[i] > last ? t[i] : last;
    }
    fx_native_control(&nat, last + 1u, EVREC_CONTROL_STOP);
    fx_native_save(&nat, 1000u, 0, out);
    fx_native_free(&nat);
}

typedef struct got {
    uint64_t t64[64];
    uint64_t index[64];
    uint64_t late[64];
    size_t n;
    evrec_status end;
    evrec_order_stats_t st;
} got_t;

static void read_ordered(const fx_buf_t *f, uint32_t window, got_t *g)
{
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, f->p, f->len, NULL), EVREC_OK);
    evrec_order_t *o;
    cr_assert_eq(evrec_order_create(&o, r, window), EVREC_OK);
    memset(g, 0, sizeof *g);
    evrec_record_t rec;
    uint64_t late;
    while ((g->end = evrec_order_next(o, &rec, &late)) == EVREC_OK) {
        cr_assert_lt(g->n, 64u);
        g->t64[g->n] = rec.t64;
        g->index[g->n] = rec.index;
        g->late[g->n] = late;
        g->n++;
    }
    cr_assert_eq(evrec_order_next(o, &rec, &late), g->end, "the end status is sticky");
    g->st = *evrec_order_stats(o);
    evrec_order_close(o);
    evrec_reader_close(r);
}

Test(order, out_of_order_within_window_comes_out_sorted)
{
    /* Records 2 and 4 step back by a few ticks: within a window of 4 they are put in place. */
    const uint32_t t[] = {10, 20, 15, 30, 25, 40, 50};
    fx_buf_t f = {0};
    make_times(t, 7, &f);
    got_t g;
    read_ordered(&f, 4, &g);
    cr_assert_eq(g.end, EVREC_E_END);
    cr_assert_eq(g.n, 9u); /* Start, 7, Stop */
    /* file index of each output position: Start 0, then records 1.. in time order */
    const uint64_t idx[] = {0, 1, 3, 2, 5, 4, 6, 7, 8};
    for (size_t i = 0; i < g.n; i++) {
        cr_assert_eq(g.index[i], idx[i], "position %zu: index %llu", i, (unsigned long long)g.index[i]);
        cr_assert_eq(g.late[i], 0u);
        if (i) {
            cr_assert_geq(g.t64[i], g.t64[i - 1]);
        }
    }
    cr_assert_eq(g.st.records, 9u);
    cr_assert_eq(g.st.reordered, 2u);
    cr_assert_eq(g.st.late, 0u);
    cr_assert_eq(g.st.max_late_ticks, 0u);
    cr_assert_eq(g.st.window, 4u);
    fx_buf_free(&f);
}

Test(order, beyond_window_is_delivered_late_and_counted)
{
    /* Record at position 5 (t=12) is stamped before records 4 positions back; window 3. */
    const uint32_t t[] = {10, 20, 30, 40, 50, 12, 60};
    fx_buf_t f = {0};
    make_times(t, 7, &f);
    got_t g;
    read_ordered(&f, 3, &g);
    cr_assert_eq(g.end, EVREC_E_END);
    cr_assert_eq(g.n, 9u, "never dropped");
    size_t late_pos = 99;
    for (size_t i = 0; i < g.n; i++) {
        if (g.index[i] == 6) {
            late_pos = i;
        }
    }
    cr_assert_neq(late_pos, 99u);
    /* window 3: when t=12 enters, 30 has already gone out: it steps back 18 ticks */
    cr_assert_eq(g.late[late_pos], 18u);
    cr_assert_eq(g.t64[late_pos], 12u);
    for (size_t i = 1; i < g.n; i++) {
        if (i != late_pos) {
            cr_assert_eq(g.late[i], 0u);
            cr_assert_geq(g.t64[i], g.t64[i - 1 == late_pos ? i - 2 : i - 1]);
        }
    }
    cr_assert_eq(g.st.late, 1u);
    cr_assert_eq(g.st.reordered, 1u);
    cr_assert_eq(g.st.max_late_ticks, 18u);
    cr_assert_eq(g.st.max_late_ns, 18000000u); /* 1 kHz: 18 ms */
    /* a larger window puts it in place */
    read_ordered(&f, 8, &g);
    cr_assert_eq(g.st.late, 0u);
    cr_assert_eq(g.index[2], 6u);
    fx_buf_free(&f);
}

Test(order, equal_times_keep_file_order)
{
    const uint32_t t[] = {5, 7, 7, 7, 6, 7, 7};
    fx_buf_t f = {0};
    make_times(t, 7, &f);
    got_t g;
    read_ordered(&f, 16, &g);
    cr_assert_eq(g.n, 9u);
    const uint64_t idx[] = {0, 1, 5, 2, 3, 4, 6, 7, 8};
    for (size_t i = 0; i < g.n; i++) {
        cr_assert_eq(g.index[i], idx[i], "position %zu: index %llu", i, (unsigned long long)g.index[i]);
    }
    fx_buf_free(&f);
}

Test(order, window_of_one_is_file_order)
{
    const uint32_t t[] = {10, 20, 15, 30, 25, 40, 50};
    fx_buf_t f = {0};
    make_times(t, 7, &f);
    got_t g;
    read_ordered(&f, 1, &g);
    cr_assert_eq(g.n, 9u);
    for (size_t i = 0; i < g.n; i++) {
        cr_assert_eq(g.index[i], i);
    }
    cr_assert_eq(g.st.late, 2u);
    cr_assert_eq(g.late[3], 5u);
    cr_assert_eq(g.late[5], 5u);
    fx_buf_free(&f);
}

Test(order, bad_arguments)
{
    evrec_order_t *o = (evrec_order_t *)1;
    cr_assert_eq(evrec_order_create(&o, NULL, 4), EVREC_E_ARG);
    cr_assert_null(o);
    fx_buf_t f = {0};
    const uint32_t t[] = {1};
    make_times(t, 1, &f);
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, f.p, f.len, NULL), EVREC_OK);
    cr_assert_eq(evrec_order_create(&o, r, 0), EVREC_E_ARG);
    cr_assert_eq(evrec_order_create(&o, r, EVREC_ORDER_MAX_WINDOW + 1u), EVREC_E_ARG);
    cr_assert_eq(evrec_order_create(NULL, r, 4), EVREC_E_ARG);
    cr_assert_eq(evrec_order_create(&o, r, EVREC_ORDER_MAX_WINDOW), EVREC_OK);
    evrec_record_t rec;
    cr_assert_eq(evrec_order_next(o, NULL, NULL), EVREC_E_ARG);
    cr_assert_eq(evrec_order_next(o, &rec, NULL), EVREC_OK);
    evrec_order_close(o);
    evrec_order_close(NULL);
    evrec_reader_close(r);
    fx_buf_free(&f);
}

/* A source that gives records with these times, then fails. */
typedef struct fake {
    const uint64_t *t;
    size_t n, i;
    uint8_t data[10];
} fake_t;

static evrec_status fake_next(void *ctx, evrec_record_t *rec)
{
    fake_t *f = ctx;
    if (f->i == f->n) {
        return EVREC_E_CHECKSUM;
    }
    memset(rec, 0, sizeof *rec);
    rec->index = f->i;
    rec->t64 = f->t[f->i];
    rec->id = FX_EVENT_SIMPLE;
    f->data[0] = (uint8_t)f->i;
    rec->data = f->data;
    rec->size = sizeof f->data;
    f->i++;
    return EVREC_OK;
}

Test(order, damage_comes_after_every_record_before_it)
{
    const uint64_t t[] = {10, 30, 20, 50, 40};
    fake_t src = {t, 5, 0, {0}};
    evrec_order_t *o;
    cr_assert_eq(evrec_order_create_source(&o, 8, fake_next, &src), EVREC_OK);
    evrec_record_t rec;
    const uint64_t idx[] = {0, 2, 1, 4, 3};
    for (size_t i = 0; i < 5; i++) {
        cr_assert_eq(evrec_order_next(o, &rec, NULL), EVREC_OK, "record %zu before the damage", i);
        cr_assert_eq(rec.index, idx[i]);
        cr_assert_eq(rec.data[0], (uint8_t)idx[i], "the record's own bytes, copied");
    }
    cr_assert_eq(evrec_order_next(o, &rec, NULL), EVREC_E_CHECKSUM);
    cr_assert_eq(evrec_order_next(o, &rec, NULL), EVREC_E_CHECKSUM);
    cr_assert_eq(src.i, 5u, "the source is not called after it failed");
    evrec_order_close(o);
}

Test(order, truncated_file_gives_the_same_records_then_the_error)
{
    const uint32_t t[] = {10, 20, 15, 30, 25, 40, 50, 45, 60, 70, 65, 80};
    fx_buf_t f = {0};
    make_times(t, 12, &f);
    size_t cut = f.len - 40; /* inside the stream: the END chunk and the last records are gone */
    fx_read_t plain;
    fx_read_all(f.p, cut, NULL, &plain);
    cr_assert_neq(plain.end, EVREC_E_END);
    cr_assert_neq(plain.end, EVREC_OK);
    cr_assert_gt(plain.count, 3u);
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, f.p, cut, NULL), EVREC_OK);
    evrec_order_t *o;
    cr_assert_eq(evrec_order_create(&o, r, 64), EVREC_OK);
    evrec_record_t rec;
    uint8_t seen[64] = {0};
    size_t n = 0;
    uint64_t prev = 0;
    evrec_status st;
    while ((st = evrec_order_next(o, &rec, NULL)) == EVREC_OK) {
        cr_assert_lt(rec.index, plain.count);
        cr_assert_eq(seen[rec.index], 0);
        seen[rec.index] = 1;
        cr_assert_eq(rec.t64, plain.recs[rec.index].r.t64);
        cr_assert_eq(memcmp(rec.data, plain.recs[rec.index].data, rec.size), 0);
        cr_assert_geq(rec.t64, prev);
        prev = rec.t64;
        n++;
    }
    cr_assert_eq(n, plain.count, "every record before the damage");
    cr_assert_eq(st, plain.end);
    cr_assert_eq(evrec_reader_error(r)->status, plain.end);
    cr_assert_gt(evrec_order_stats(o)->reordered, 0u);
    evrec_order_close(o);
    evrec_reader_close(r);
    fx_read_free(&plain);
    fx_buf_free(&f);
}

/* ---- two threads recording through the real recorder ---- */

typedef struct writer {
    evrec_host_t *host;
    uint32_t base;
    volatile int *go;
} writer_t;

#define PER_THREAD 20000u

static void *writer_main(void *arg)
{
    writer_t *w = arg;
    while (!*w->go) {
    }
    for (uint32_t k = 0; k < PER_THREAD; k++) {
        fx_ev_simple_t *s = evrec_reserve(w->host, sizeof(fx_ev_simple_t));
        if (s) {
            s->v = w->base + k;
            evrec_commit(s, FX_EVENT_SIMPLE);
        }
    }
    return NULL;
}

Test(order, two_thread_recording_comes_out_non_decreasing)
{
    const evrec_meta_t *m = fx_meta_init();
    size_t size = 4096 + 2u * PER_THREAD * 16u;
    void *buf = aligned_alloc(8, size);
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_recorder_init(&rec, buf, size);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, m, 1000000000u), EVREC_OK);
    volatile int go = 0;
    writer_t w[2] = {{&host, 0, &go}, {&host, 0x10000000u, &go}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++) {
        pthread_create(&th[i], NULL, writer_main, &w[i]);
    }
    go = 1;
    for (int i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
    }
    evrec_host_stop(&host, NULL);
    fx_buf_t f = {0};
    evrec_sink_t sink = fx_sink(&f);
    evrec_save_options_t opt = {0, 0};
    cr_assert_eq(evrec_save_ex(&rec, &sink, &opt), EVREC_OK);
    free(buf);

    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, f.p, f.len, NULL), EVREC_OK);
    evrec_order_t *o;
    /* A window holding the whole recording: a thread preempted between taking its stamp and
     * getting its slot may step back by any number of the other thread's records. */
    cr_assert_eq(evrec_order_create(&o, r, 4u * PER_THREAD), EVREC_OK);
    evrec_record_t rr;
    uint64_t late, prev = 0, n = 0;
    uint32_t next_v[2] = {0, 0};
    evrec_status st;
    while ((st = evrec_order_next(o, &rr, &late)) == EVREC_OK) {
        cr_assert_eq(late, 0u, "record %llu stepped back %llu ticks", (unsigned long long)rr.index,
                     (unsigned long long)late);
        cr_assert_geq(rr.t64, prev);
        prev = rr.t64;
        if (rr.id == FX_EVENT_SIMPLE) {
            uint32_t v;
            cr_assert_eq(evrec_reader_leaf_value(r, &rr, 2, &v), EVREC_OK);
            int t = v >= 0x10000000u;
            /* each thread's own records keep their order (one thread's stamps never go back) */
            cr_assert_eq(v - w[t].base, next_v[t], "thread %d: v %#x, expected %#x", t, v, w[t].base + next_v[t]);
            next_v[t]++;
        }
        n++;
    }
    cr_assert_eq(st, EVREC_E_END, "%s", evrec_reader_error(r)->message);
    cr_assert_eq(next_v[0], PER_THREAD);
    cr_assert_eq(next_v[1], PER_THREAD);
    cr_assert_eq(n, 2u * PER_THREAD + 2u);
    cr_assert_eq(evrec_order_stats(o)->records, n);
    evrec_order_close(o);
    evrec_reader_close(r);
    fx_buf_free(&f);
}
