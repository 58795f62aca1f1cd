/* SPDX-License-Identifier: Apache-2.0 */
/* Span pairing (evrec_spans_t) and the span and counter statistics of evrec_stats_t, on traces
 * recorded through generated code with the fake-clock recorder: overlapping and nested keys,
 * begins again, ends that close nothing, a gap, a buffer that filled; per-end keys; a key shared
 * by two tracks; percentiles against the sorted durations (exact, and the sketch within its
 * bound); a counter's time-weighted mean; and the RTOS TaskRunning totals of random schedules
 * against the generator's own accounting. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "stats_trace.h"
#include "view_events.h"
#include "../common/test_tmp.h"

/* ---- collecting what the pairing reports ---- */

typedef struct got {
    evrec_span_t s[256];
    unsigned n;
} got_t;

static void collect(void *ctx, const evrec_span_t *sp)
{
    got_t *g = ctx;
    cr_assert_lt(g->n, 256u);
    g->s[g->n++] = *sp;
}

/* Start a recording of any schema (the clock pinned at t0). */
static void start_meta(trace_t *tr, size_t bytes, uint32_t t0, const evrec_meta_t *meta)
{
    memset(tr, 0, sizeof *tr);
    tr->buf_size = bytes;
    tr->buf = malloc(bytes);
    cr_assert_not_null(tr->buf);
    cr_assert_eq(evrec_recorder_init(&tr->rec, tr->buf, bytes), EVREC_OK);
    evrec_host_init(&tr->host);
    at(t0);
    cr_assert_eq(evrec_host_start(&tr->host, &tr->rec, meta, 1000000u), EVREC_OK);
}

/* Pair every record of a saved file; `gap_before` (an index, or UINT64_MAX) gets a gap first. */
static void pair_file(const mem_t *f, got_t *g, uint64_t gap_before, evrec_spans_counts_t *counts, uint32_t span)
{
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, f->data, f->len, NULL), EVREC_OK);
    evrec_spans_t *p;
    cr_assert_eq(evrec_spans_create(&p, r, collect, g), EVREC_OK);
    evrec_record_t rec;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        if (rec.index == gap_before) {
            evrec_spans_gap(p);
        }
        cr_assert_eq(evrec_spans_add(p, &rec), EVREC_OK);
    }
    cr_assert_eq(evrec_spans_finish(p), EVREC_OK);
    cr_assert_eq(evrec_spans_finish(p), EVREC_E_BUSY);
    *counts = *evrec_spans_counts(p, span);
    evrec_spans_free(p);
    evrec_reader_close(r);
}

static const evrec_span_t *find(const got_t *g, uint64_t begin_index, unsigned flags)
{
    for (unsigned i = 0; i < g->n; i++) {
        if (g->s[i].begin_index == begin_index && g->s[i].flags == flags) {
            return &g->s[i];
        }
    }
    cr_assert_fail("no span from #%llu with flags %u", (unsigned long long)begin_index, flags);
    return NULL;
}

/* ---- the RTOS catalogue's TaskRunning: overlapping, nested, unmatched, open ---- */

static rtos_RtosTask_t task_a, task_b, task_c;

static void name_tasks(void)
{
    cr_assert_eq(rtos_RtosTask_alloc("task_a", &task_a), EVREC_OK);
    cr_assert_eq(rtos_RtosTask_alloc("task_b", &task_b), EVREC_OK);
    cr_assert_eq(rtos_RtosTask_alloc("task_c", &task_c), EVREC_OK);
}

/* Record indexes: 0 Start, then one per record below. */
static void record_pairing(trace_t *tr)
{
    trace_start(tr, 4096, 1000);
    name_tasks();
    evrec_host_t *h = &tr->host;
    at(1100);
    rtos_record_TaskSwitchIn(h, task_a, rtos_RtosResume_Start); /* #1 A opens */
    at(1150);
    rtos_record_TaskSwitchIn(h, task_b, rtos_RtosResume_Resume); /* #2 B opens (overlaps A) */
    at(1200);
    rtos_record_TaskSwitchOut(h, task_a, rtos_RtosSuspend_Yield); /* #3 A: 100 */
    at(1260);
    rtos_record_TaskSwitchIn(h, task_b, rtos_RtosResume_Resume); /* #4 B again: nests in #2 */
    at(1300);
    rtos_record_TaskSwitchOut(h, task_c, rtos_RtosSuspend_Yield); /* #5 C: closes nothing */
    at(1400);
    rtos_record_TaskSwitchOut(h, task_b, rtos_RtosSuspend_Yield); /* #6 B (the inner, #4): 140 */
    at(1450);
    rtos_record_TaskSwitchIn(h, task_a, rtos_RtosResume_Resume); /* #7 A open at the end */
    trace_stop(tr, 1500);                                        /* #8 Stop */
}

Test(stats_spans, pairing_rules)
{
    trace_t tr;
    record_pairing(&tr);
    got_t g = {0};
    evrec_spans_counts_t c;
    pair_file(&tr.file, &g, UINT64_MAX, &c, 0); /* span 0: TaskRunning */
    cr_assert_eq(c.complete, 2);
    cr_assert_eq(c.begun_again, 0);
    cr_assert_eq(c.nested, 1);
    cr_assert_eq(c.unmatched_end, 1);
    cr_assert_eq(c.open_at_end, 2, "A from #7 and the outer B from #2");
    cr_assert_eq(c.across_gap, 0);
    cr_assert_eq(c.max_open, 2);
    const evrec_span_t *a = find(&g, 1, 0);
    cr_assert_eq(a->end_index, 3);
    cr_assert_eq(a->end_t64 - a->begin_t64, 100);
    cr_assert_eq(a->key, task_a);
    cr_assert(a->has_track);
    cr_assert_eq(a->track, task_a);
    const evrec_span_t *b0 = find(&g, 2, EVREC_SPAN_NO_END | EVREC_SPAN_AT_FINISH);
    cr_assert_eq(b0->end_index, 8, "the outer B: open at the end");
    cr_assert_eq(b0->depth, 0);
    const evrec_span_t *b = find(&g, 4, 0);
    cr_assert_eq(b->end_index, 6, "an end closes the innermost");
    cr_assert_eq(b->end_t64 - b->begin_t64, 140);
    cr_assert_eq(b->depth, 1);
    const evrec_span_t *cend = find(&g, 0, EVREC_SPAN_NO_BEGIN);
    cr_assert_eq(cend->end_index, 5);
    cr_assert_eq(cend->key, task_c);
    const evrec_span_t *open = find(&g, 7, EVREC_SPAN_NO_END | EVREC_SPAN_AT_FINISH);
    cr_assert_eq(open->end_index, 8, "open at the end: ends at the last record");

    /* The same through evrec_stats_t, per task. */
    analysed_t an = analyse(&tr.file);
    uint32_t n;
    const evrec_stats_span_t *sp = evrec_stats_spans(an.s, &n);
    cr_assert_eq(n, 3);
    cr_assert_str_eq(sp[0].name, "TaskRunning");
    cr_assert_str_eq(sp[0].track_field, "task");
    const evrec_stats_durations_t *d = &sp[0].all;
    cr_assert_eq(d->count, 2);
    cr_assert_eq(d->min, 100);
    cr_assert_eq(d->max, 140);
    cr_assert_eq(d->total, 240);
    cr_assert_float_eq(d->mean, 120.0, 1e-9);
    cr_assert_eq(d->p50, 100);
    cr_assert_eq(d->p99, 140);
    cr_assert(d->exact);
    cr_assert_eq(d->worst_begin_index, 4);
    cr_assert_eq(d->worst_end_index, 6);
    cr_assert_eq(d->begun_again, 0);
    cr_assert_eq(d->open_at_end, 2);
    cr_assert_eq(d->unmatched_end, 1);
    cr_assert_eq(sp[0].track_count, 3);
    for (uint32_t k = 0; k < 3; k++) {
        const evrec_stats_span_track_t *t = &sp[0].tracks[k];
        cr_assert_not_null(t->name);
        if (t->value == task_a) {
            cr_assert_str_eq(t->name, "task_a");
            cr_assert_eq(t->d.count, 1);
            cr_assert_eq(t->d.open_at_end, 1);
        } else if (t->value == task_b) {
            cr_assert_eq(t->d.count, 1);
            cr_assert_eq(t->d.min, 140);
            cr_assert_eq(t->d.open_at_end, 1);
        } else {
            cr_assert_eq(t->value, task_c);
            cr_assert_eq(t->d.count, 0);
            cr_assert_eq(t->d.unmatched_end, 1);
        }
    }
    analysed_free(&an);
    trace_free(&tr);
}

Test(stats_spans, a_span_across_a_gap_is_flagged_not_measured)
{
    trace_t tr;
    record_pairing(&tr);
    got_t g = {0};
    evrec_spans_counts_t c;
    pair_file(&tr.file, &g, 5, &c, 0); /* records missing before #5: B (open since #4) crosses */
    cr_assert_eq(c.complete, 1);
    cr_assert_eq(c.across_gap, 1);
    const evrec_span_t *b = find(&g, 4, EVREC_SPAN_ACROSS_GAP);
    cr_assert_eq(b->end_index, 6);

    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, tr.file.data, tr.file.len, NULL), EVREC_OK);
    evrec_stats_t *s;
    cr_assert_eq(evrec_stats_create(&s, r), EVREC_OK);
    evrec_record_t rec;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        if (rec.index == 5) {
            evrec_stats_gap(s);
        }
        cr_assert_eq(evrec_stats_add(s, &rec), EVREC_OK);
    }
    cr_assert_eq(evrec_stats_finish(s), EVREC_OK);
    uint32_t n;
    const evrec_stats_span_t *sp = evrec_stats_spans(s, &n);
    cr_assert_eq(sp[0].all.count, 1);
    cr_assert_eq(sp[0].all.max, 100);
    cr_assert_eq(sp[0].all.across_gap, 1);
    evrec_stats_free(s);
    evrec_reader_close(r);
    trace_free(&tr);
}

/* Records lost to damage before #5 (the reader flags the first record after a damaged range
 * with `gap`): B, open since #2 and nested since #4, is cut at #4 (both) and not paired with its
 * end at #6, which closes nothing; evrec_stats_t measures neither, and no interval across the gap. */
Test(stats_spans, a_span_open_at_damage_is_cut_not_paired_across)
{
    trace_t tr;
    record_pairing(&tr);
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, tr.file.data, tr.file.len, NULL), EVREC_OK);
    got_t g = {0};
    evrec_spans_t *p;
    cr_assert_eq(evrec_spans_create(&p, r, collect, &g), EVREC_OK);
    evrec_stats_t *s;
    cr_assert_eq(evrec_stats_create(&s, r), EVREC_OK);
    evrec_record_t rec;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        rec.gap = rec.index == 5;
        cr_assert_eq(evrec_spans_add(p, &rec), EVREC_OK);
        cr_assert_eq(evrec_stats_add(s, &rec), EVREC_OK);
    }
    cr_assert_eq(evrec_spans_finish(p), EVREC_OK);
    const evrec_spans_counts_t *c = evrec_spans_counts(p, 0);
    cr_assert_eq(c->complete, 1);
    cr_assert_eq(c->across_gap, 0);
    cr_assert_eq(c->cut_by_damage, 2);
    cr_assert_eq(c->unmatched_end, 2, "B's end at #6 and C's at #5 close nothing");
    const evrec_span_t *b = find(&g, 4, EVREC_SPAN_NO_END | EVREC_SPAN_CUT);
    cr_assert_eq(b->end_index, 4, "cut at the last record before the gap");
    const evrec_span_t *bend = NULL;
    for (unsigned i = 0; i < g.n; i++) {
        if (g.s[i].flags == EVREC_SPAN_NO_BEGIN && g.s[i].end_index == 6) {
            bend = &g.s[i];
        }
    }
    cr_assert_not_null(bend, "the end after the gap is an unmatched end");
    cr_assert_eq(bend->begin_index, 5, "drawn from the first record after the gap");
    evrec_spans_free(p);

    cr_assert_eq(evrec_stats_finish(s), EVREC_OK);
    cr_assert_eq(evrec_stats_summary(s)->gaps, 1);
    uint32_t n;
    const evrec_stats_span_t *sp = evrec_stats_spans(s, &n);
    cr_assert_eq(sp[0].all.count, 1);
    cr_assert_eq(sp[0].all.max, 100, "B is not measured across the gap");
    cr_assert_eq(sp[0].all.cut_by_damage, 2);
    cr_assert_eq(sp[0].all.across_gap, 0);
    evrec_stats_free(s);
    evrec_reader_close(r);
    trace_free(&tr);
}

Test(stats_spans, a_full_buffer_leaves_the_span_open_at_the_end)
{
    trace_t tr;
    trace_start(&tr, 512, 1000);
    name_tasks();
    at(1100);
    rtos_record_TaskSwitchIn(&tr.host, task_a, rtos_RtosResume_Start);
    for (uint32_t i = 0; i < 200; i++) { /* fills the buffer: the switch-out below is dropped */
        at(1200 + i);
        rtos_record_IdleSleep(&tr.host);
    }
    at(2000);
    rtos_record_TaskSwitchOut(&tr.host, task_a, rtos_RtosSuspend_Yield);
    at(2100);
    cr_assert_eq(evrec_host_stop(&tr.host, NULL), EVREC_OK);
    cr_assert_gt(evrec_recorder_counts(&tr.rec).dropped, 0);
    evrec_sink_t sink = {mem_write, &tr.file};
    cr_assert_eq(evrec_save(&tr.rec, &sink), EVREC_OK);
    analysed_t an = analyse(&tr.file);
    uint32_t n;
    const evrec_stats_span_t *sp = evrec_stats_spans(an.s, &n);
    cr_assert_eq(sp[0].all.count, 0);
    cr_assert_eq(sp[0].all.open_at_end, 1);
    cr_assert_gt(evrec_reader_info(an.r)->dropped, 0);
    analysed_free(&an);
    /* `evrec stats` says why. */
    char path[256];
    int fd = test_tmp_file(path, sizeof path, "full"); /* removed at exit, also on failure */
    cr_assert_geq(fd, 0);
    FILE *o = fdopen(fd, "wb");
    cr_assert_eq(fwrite(tr.file.data, 1, tr.file.len, o), tr.file.len);
    cr_assert_eq(fclose(o), 0);
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "'%s' stats '%s' | grep -c 'TaskRunning: 1 still open at the last record (the buffer "
             "filled and .* event(s) were dropped from then on: their ends were lost)'",
             EVREC_CLI_PATH, path);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    int lines = 0;
    cr_assert_eq(fscanf(p, "%d", &lines), 1);
    cr_assert_eq(pclose(p), 0);
    cr_assert_eq(lines, 1);
    remove(path);
    trace_free(&tr);
}

/* ---- the track model schema: a key on two tracks, per-end keys, a counter ---- */

Test(stats_spans, key_and_track_pair_per_thread_and_per_end_keys)
{
    trace_t tr;
    start_meta(&tr, 4096, 0, &view_meta);
    evrec_host_t *h = &tr.host;
    view_Frame_t f7 = {7};
    at(10);
    view_record_Work(h, view_Thread_Capture, view_Phase_Start, f7); /* #1 */
    at(20);
    view_record_Work(h, view_Thread_Encode, view_Phase_Start, f7); /* #2 same key, other thread */
    at(50);
    view_record_Work(h, view_Thread_Encode, view_Phase_Done, f7); /* #3 encode: 30 */
    at(70);
    view_record_Work(h, view_Thread_Capture, view_Phase_Done, f7); /* #4 capture: 60 */
    at(100);
    view_record_Switch(h, 0, 1); /* #5 ends 0 (nothing), opens 1 */
    at(130);
    view_record_Switch(h, 1, 2); /* #6 1: 30; opens 2 */
    at(200);
    view_record_Switch(h, 2, 2); /* #7 2: 70; opens 2 again */
    at(220);
    view_record_Switch(h, 2, 1); /* #8 2: 20; opens 1 */
    at(250);
    cr_assert_eq(evrec_host_stop(&tr.host, NULL), EVREC_OK);
    evrec_sink_t sink = {mem_write, &tr.file};
    cr_assert_eq(evrec_save(&tr.rec, &sink), EVREC_OK);

    got_t g = {0};
    evrec_spans_counts_t c;
    pair_file(&tr.file, &g, UINT64_MAX, &c, 0);
    cr_assert_eq(c.complete, 2);
    cr_assert_eq(c.begun_again + c.unmatched_end + c.open_at_end, 0);
    const evrec_span_t *cap = find(&g, 1, 0);
    cr_assert_eq(cap->end_index, 4);
    cr_assert_eq(cap->track, view_Thread_Capture);
    cr_assert_eq(cap->key, 7);
    const evrec_span_t *enc = find(&g, 2, 0);
    cr_assert_eq(enc->end_index, 3);

    got_t g2 = {0};
    pair_file(&tr.file, &g2, UINT64_MAX, &c, 1);
    cr_assert_eq(c.complete, 3);
    cr_assert_eq(c.unmatched_end, 1);
    cr_assert_eq(c.open_at_end, 1);
    cr_assert_eq(find(&g2, 5, 0)->end_index, 6);
    cr_assert_eq(find(&g2, 6, 0)->end_index, 7, "a record that ends and begins the same key closes first");
    cr_assert_eq(find(&g2, 7, 0)->end_index, 8);
    trace_free(&tr);
}

Test(stats_spans, counter_time_weighted_mean)
{
    trace_t tr;
    start_meta(&tr, 4096, 0, &view_meta);
    evrec_host_t *h = &tr.host;
    /* Capture: 10 during [0,10), 20 during [10,40), 0 during [40,50): (100 + 600 + 0) / 50 = 14.
     * Encode: 4 from 5 to the end (50). */
    at(0);
    view_record_Level(h, view_Thread_Capture, 10);
    at(5);
    view_record_Level(h, view_Thread_Encode, 4);
    at(10);
    view_record_Level(h, view_Thread_Capture, 20);
    at(40);
    view_record_Level(h, view_Thread_Capture, 0);
    at(50);
    cr_assert_eq(evrec_host_stop(&tr.host, NULL), EVREC_OK);
    evrec_sink_t sink = {mem_write, &tr.file};
    cr_assert_eq(evrec_save(&tr.rec, &sink), EVREC_OK);
    analysed_t an = {0};
    cr_assert_eq(evrec_reader_open_memory(&an.r, tr.file.data, tr.file.len, NULL), EVREC_OK);
    cr_assert_eq(evrec_stats_create(&an.s, an.r), EVREC_OK);
    evrec_record_t rec;
    while (evrec_reader_next(an.r, &rec) == EVREC_OK) {
        cr_assert_eq(evrec_stats_add(an.s, &rec), EVREC_OK);
    }
    cr_assert_eq(evrec_stats_finish(an.s), EVREC_OK);
    uint32_t n;
    const evrec_stats_counter_t *c = evrec_stats_counters(an.s, &n);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(c->path, "depth");
    cr_assert_str_eq(c->unit, "frames");
    cr_assert_str_eq(c->series_field, "thread");
    cr_assert_eq(c->all.samples, 4);
    cr_assert_eq(c->all.min, 0);
    cr_assert_eq(c->all.max, 20);
    cr_assert_float_eq(c->all.mean, 34.0 / 4.0, 1e-12);
    /* all samples in order: 10 [0,5), 4 [5,10), 20 [10,40), 0 [40,50) = (50+20+600)/50 */
    cr_assert_float_eq(c->all.time_weighted_mean, 670.0 / 50.0, 1e-12);
    cr_assert_eq(c->series_count, 2);
    cr_assert_eq(c->series[0].value, view_Thread_Capture);
    cr_assert_str_eq(c->series[0].name, "Capture");
    cr_assert_float_eq(c->series[0].time_weighted_mean, 14.0, 1e-12);
    cr_assert_float_eq(c->series[0].mean, 10.0, 1e-12);
    cr_assert_float_eq(c->series[1].time_weighted_mean, 4.0, 1e-12);
    evrec_stats_free(an.s);
    evrec_reader_close(an.r);
    trace_free(&tr);
}

/* ---- percentiles: exact and sketched, against the sorted durations ---- */

static uint32_t rng;
static uint32_t rnd(uint32_t n)
{
    rng = rng * 1664525u + 1013904223u;
    return (rng >> 8) % n;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t nearest_rank(const uint64_t *sorted, size_t n, unsigned pct)
{
    size_t r = (size_t)((pct * (uint64_t)n + 99u) / 100u);
    return sorted[r ? r - 1 : 0];
}

enum { NSPANS = 20000 };

/* NSPANS TaskRunning spans of random tasks and log-uniform durations 1 .. 2^20 ticks. */
static void record_random(trace_t *tr, uint64_t *dur, uint64_t *per_task[3], size_t per_n[3])
{
    rng = 12345;
    trace_start(tr, 1u << 20, 0);
    name_tasks();
    rtos_RtosTask_t tasks[3] = {task_a, task_b, task_c};
    uint32_t t = 10;
    for (int i = 0; i < NSPANS; i++) {
        int k = (int)rnd(3);
        uint32_t d = (1u << rnd(20)) + rnd(1u << 10);
        at(t);
        rtos_record_TaskSwitchIn(&tr->host, tasks[k], rtos_RtosResume_Resume);
        t += d;
        at(t);
        rtos_record_TaskSwitchOut(&tr->host, tasks[k], rtos_RtosSuspend_Yield);
        t += rnd(100);
        dur[i] = d;
        per_task[k][per_n[k]++] = d;
    }
    trace_stop(tr, t + 1);
}

static void check_percentiles(const evrec_stats_durations_t *d, uint64_t *sorted, size_t n, int exact)
{
    qsort(sorted, n, sizeof *sorted, cmp_u64);
    cr_assert_eq(d->count, n);
    cr_assert_eq(d->min, sorted[0]);
    cr_assert_eq(d->max, sorted[n - 1]);
    cr_assert_eq(d->exact, exact);
    const unsigned pct[3] = {50, 90, 99};
    const uint64_t got[3] = {d->p50, d->p90, d->p99};
    for (int k = 0; k < 3; k++) {
        uint64_t truth = nearest_rank(sorted, n, pct[k]);
        if (exact) {
            cr_assert_eq(got[k], truth, "p%u: %llu, expected %llu", pct[k], (unsigned long long)got[k],
                         (unsigned long long)truth);
        } else {
            double err = (double)got[k] - (double)truth;
            err = err < 0 ? -err : err;
            cr_assert_leq(err, EVREC_STATS_SKETCH_ERROR * (double)truth + 0.5, "p%u: %llu vs exact %llu", pct[k],
                          (unsigned long long)got[k], (unsigned long long)truth);
        }
    }
}

static void percentiles_with(uint64_t exact_max, int exact)
{
    static uint64_t dur[NSPANS], t0[NSPANS], t1[NSPANS], t2[NSPANS];
    uint64_t *per[3] = {t0, t1, t2};
    size_t per_n[3] = {0, 0, 0};
    trace_t tr;
    record_random(&tr, dur, per, per_n);
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, tr.file.data, tr.file.len, NULL), EVREC_OK);
    evrec_stats_t *s;
    cr_assert_eq(evrec_stats_create(&s, r), EVREC_OK);
    cr_assert_eq(evrec_stats_set_exact_max(s, exact_max), EVREC_OK);
    evrec_record_t rec;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        cr_assert_eq(evrec_stats_add(s, &rec), EVREC_OK);
    }
    cr_assert_eq(evrec_stats_set_exact_max(s, 5), EVREC_E_BUSY);
    cr_assert_eq(evrec_stats_finish(s), EVREC_OK);
    uint32_t n;
    const evrec_stats_span_t *sp = evrec_stats_spans(s, &n);
    check_percentiles(&sp[0].all, dur, NSPANS, exact);
    cr_assert_eq(sp[0].track_count, 3);
    rtos_RtosTask_t tasks[3] = {task_a, task_b, task_c};
    for (int k = 0; k < 3; k++) {
        const evrec_stats_span_track_t *t = NULL;
        for (uint32_t i = 0; i < 3; i++) {
            if (sp[0].tracks[i].value == tasks[k]) {
                t = &sp[0].tracks[i];
            }
        }
        cr_assert_not_null(t);
        check_percentiles(&t->d, per[k], per_n[k], exact);
    }
    evrec_stats_free(s);
    evrec_reader_close(r);
    trace_free(&tr);
}

Test(stats_spans, percentiles_exact)
{
    percentiles_with(EVREC_STATS_EXACT_MAX, 1);
}

Test(stats_spans, percentiles_sketch_from_the_start)
{
    percentiles_with(0, 0);
}

Test(stats_spans, percentiles_sketch_after_the_budget)
{
    percentiles_with(5000, 0); /* the kept values go into the sketches midway */
}

/* ---- TaskRunning against a random schedule's own accounting ---- */

/* `evrec stats --format json` on the file: the TaskRunning totals per task, read by python3's
 * json module, must be the generator's. */
static void cli_totals(const mem_t *f, const rtos_RtosTask_t tasks[3], const uint64_t total[3],
                       const uint64_t count[3])
{
    char path[256];
    int fd = test_tmp_file(path, sizeof path, "spans"); /* removed at exit, also on failure */
    cr_assert_geq(fd, 0);
    FILE *o = fdopen(fd, "wb");
    cr_assert_not_null(o);
    cr_assert_eq(fwrite(f->data, 1, f->len, o), f->len);
    cr_assert_eq(fclose(o), 0);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'%s' stats --format json '%s' | python3 -c 'import json,sys\n"
             "d=json.load(sys.stdin)\n"
             "s=[x for x in d[\"spans\"] if x[\"name\"]==\"TaskRunning\"][0]\n"
             "assert d[\"rtos\"][\"has_cpu\"]\n"
             "for t in s[\"tracks\"]: print(t[\"value\"], t[\"name\"], t[\"count\"], t.get(\"total_ticks\", 0))'",
             EVREC_CLI_PATH, path);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    unsigned value;
    char name[64];
    unsigned long long cnt, tot;
    int seen = 0;
    while (fscanf(p, "%u %63s %llu %llu", &value, name, &cnt, &tot) == 4) {
        for (int k = 0; k < 3; k++) {
            if (value == tasks[k]) {
                cr_assert_eq(tot, total[k], "cli: %s total %llu, expected %llu", name, tot,
                             (unsigned long long)total[k]);
                cr_assert_eq(cnt, count[k]);
                seen += cnt != 0;
            }
        }
    }
    cr_assert_eq(pclose(p), 0, "evrec stats --format json | python3 failed");
    remove(path);
    int expected = (count[0] != 0) + (count[1] != 0) + (count[2] != 0);
    cr_assert_eq(seen, expected);
}

Test(stats_spans, task_running_totals_match_the_generator)
{
    for (uint32_t run = 1; run <= 20; run++) {
        rng = run;
        trace_t tr;
        uint32_t t = 1000 + rnd(1000);
        trace_start(&tr, 1 << 16, t);
        name_tasks();
        rtos_RtosTask_t tasks[3] = {task_a, task_b, task_c};
        uint64_t total[3] = {0, 0, 0}, count[3] = {0, 0, 0}, maxd[3] = {0, 0, 0};
        int running = -1;
        uint32_t since = 0;
        int isr = 0;
        for (int step = 0; step < 400; step++) {
            t += rnd(50);
            at(t);
            uint32_t action = rnd(4);
            if (action == 0 && running < 0) {
                running = (int)rnd(3);
                since = t;
                rtos_record_TaskSwitchIn(&tr.host, tasks[running], rtos_RtosResume_Resume);
            } else if (action == 1 && running >= 0) {
                rtos_record_TaskSwitchOut(&tr.host, tasks[running], rtos_RtosSuspend_Preempted);
                uint64_t d = t - since;
                total[running] += d;
                count[running]++;
                maxd[running] = d > maxd[running] ? d : maxd[running];
                running = -1;
            } else if (action == 2) { /* an ISR inside a run: counted in the task's span */
                if (isr) {
                    rtos_record_IsrExit(&tr.host, 0, 16);
                } else {
                    rtos_record_IsrEnter(&tr.host, 0, 16);
                }
                isr = !isr;
            } else {
                rtos_record_SemOp(&tr.host, 0xFFFF, 0, rtos_RtosSemOp_Give);
            }
        }
        trace_stop(&tr, t + 5);
        if (run == 1) {
            cli_totals(&tr.file, tasks, total, count);
        }
        analysed_t a = analyse(&tr.file);
        uint32_t n;
        const evrec_stats_span_t *sp = evrec_stats_spans(a.s, &n);
        cr_assert_str_eq(sp[0].name, "TaskRunning");
        cr_assert_eq(sp[0].all.open_at_end, running >= 0 ? 1u : 0u);
        cr_assert_eq(sp[0].all.begun_again + sp[0].all.unmatched_end, 0);
        for (int k = 0; k < 3; k++) {
            const evrec_stats_durations_t *d = NULL;
            for (uint32_t i = 0; i < sp[0].track_count; i++) {
                if (sp[0].tracks[i].value == tasks[k]) {
                    d = &sp[0].tracks[i].d;
                }
            }
            uint64_t got_total = d ? d->total : 0, got_count = d ? d->count : 0;
            cr_assert_eq(got_total, total[k], "run %u task %d: %llu, expected %llu", run, k,
                         (unsigned long long)got_total, (unsigned long long)total[k]);
            cr_assert_eq(got_count, count[k], "run %u task %d count", run, k);
            if (count[k]) {
                cr_assert_eq(d->max, maxd[k]);
            }
        }
        analysed_free(&a);
        trace_free(&tr);
    }
}

/* ---- JSON string escaping: names with quotes, controls, UTF-8 and bytes that are not ---- */

Test(stats_spans, json_escapes_every_name)
{
    static const char *names[4] = {"q\"b\\s/", "tab\tnl\n\x01\x7f", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
                                   "bad\xff\xc3(\xed\xa0\x80"};
    /* What python3 decodes, as UTF-8 bytes: invalid bytes come back as U+00XX. */
    static const char *decoded_hex[4] = {"7122625c732f", "746162096e6c0a017f", "636166c3a920e282ac20f09f9880",
                                         "626164c3bfc38328c3adc2a0c280"};
    trace_t tr;
    trace_start(&tr, 4096, 0);
    rtos_RtosTask_t t[4];
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(rtos_RtosTask_alloc(names[i], &t[i]), EVREC_OK);
        at((uint32_t)(10 + 20 * i));
        rtos_record_TaskSwitchIn(&tr.host, t[i], rtos_RtosResume_Resume);
        at((uint32_t)(20 + 20 * i));
        rtos_record_TaskSwitchOut(&tr.host, t[i], rtos_RtosSuspend_Yield);
    }
    trace_stop(&tr, 200);
    char path[256];
    int fd = test_tmp_file(path, sizeof path, "json"); /* removed at exit, also on failure */
    cr_assert_geq(fd, 0);
    FILE *o = fdopen(fd, "wb");
    cr_assert_eq(fwrite(tr.file.data, 1, tr.file.len, o), tr.file.len);
    cr_assert_eq(fclose(o), 0);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'%s' stats --format json '%s' | python3 -c 'import json,sys\n"
             "d=json.loads(sys.stdin.buffer.read().decode(\"utf-8\"))\n"
             "s=[x for x in d[\"spans\"] if x[\"name\"]==\"TaskRunning\"][0]\n"
             "for t in s[\"tracks\"]: print(t[\"value\"], t[\"name\"].encode(\"utf-8\").hex())'",
             EVREC_CLI_PATH, path);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    unsigned value;
    char hex[128];
    int seen = 0;
    while (fscanf(p, "%u %127s", &value, hex) == 2) {
        for (int i = 0; i < 4; i++) {
            if (value == t[i]) {
                cr_assert_str_eq(hex, decoded_hex[i], "name %d", i);
                seen++;
            }
        }
    }
    cr_assert_eq(pclose(p), 0, "evrec stats --format json | python3 failed");
    cr_assert_eq(seen, 4);
    remove(path);
    trace_free(&tr);
}
