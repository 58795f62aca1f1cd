/* SPDX-License-Identifier: Apache-2.0 */
/* The three consumers of a file's spans pair them alike, record for record: the pairing of
 * evrec_analysis (evrec_spans_t, what `evrec stats` measures), the timeline's aggregation (what
 * `evrec timeline` draws, through its span hook) and the Perfetto writer (the slices `evrec export
 * --perfetto` writes, through its span hook). Each span instance is compared as (span, key,
 * begin record, end record, what it is: complete, an end without a begin, open at the end, cut
 * by damage; depth); an end without a begin has no begin record and a span open at the end no end
 * record (the timeline draws those from and to the window's edges). Recordings: the RTOS
 * catalogue's TaskRunning (overlap, a begin again, an end that closes nothing, open at the end),
 * a key held on two threads at once, per-end keys, a key begun twice on one thread, a handler
 * that re-enters itself, records lost to damage, a window that cuts spans at both edges, a
 * one-shot buffer that filled, a recording split into lanes (one per core) and the demo's. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "evrec/evrec_lanes.h"

#include "stats_trace.h"
#include "view_events.h"

#include "../common/test_tmp.h"
#include "timeline.h"
#ifdef EVREC_AGREE_PERFETTO
#include "export_perfetto.h"
#endif

#define MAX_SPANS 4096u

typedef struct list {
    char s[MAX_SPANS][96];
    unsigned n;
} list_t;

static const char *kind_of(unsigned flags)
{
    if (flags & EVREC_SPAN_NO_BEGIN) {
        return "no_begin";
    }
    if (flags & EVREC_SPAN_CUT) {
        return "cut";
    }
    if (flags & EVREC_SPAN_AT_FINISH) {
        return "open_at_end";
    }
    if (flags & EVREC_SPAN_NO_END) {
        return "begun_again";
    }
    if (flags & EVREC_SPAN_ACROSS_GAP) {
        return "across_gap";
    }
    return flags ? "refused" : "complete";
}

static void collect(void *ctx, const evrec_span_t *sp)
{
    list_t *l = ctx;
    cr_assert_lt(l->n, MAX_SPANS);
    char b[24] = "-", e[24] = "-";
    if (!(sp->flags & EVREC_SPAN_NO_BEGIN)) {
        snprintf(b, sizeof b, "#%llu", (unsigned long long)sp->begin_index);
    }
    if (!(sp->flags & EVREC_SPAN_AT_FINISH)) {
        snprintf(e, sizeof e, "#%llu", (unsigned long long)sp->end_index);
    }
    snprintf(l->s[l->n++], sizeof l->s[0], "span %u key %u: %s .. %s %s depth %u", sp->span, sp->key, b, e,
             kind_of(sp->flags), sp->depth);
}

/* ---- counters: (counter, series value) -> samples, min, max in each consumer ---- */

typedef struct ctr_agg {
    struct {
        uint32_t counter, series, min, max;
        uint64_t n;
    } e[256];
    unsigned n;
} ctr_agg_t;

static void ctr_add(ctr_agg_t *a, uint32_t counter, uint32_t series, uint64_t n, uint32_t min, uint32_t max)
{
    unsigned i = 0;
    while (i < a->n && (a->e[i].counter != counter || a->e[i].series != series)) {
        i++;
    }
    if (i == a->n) {
        cr_assert_lt(a->n, 256u);
        a->e[a->n].counter = counter;
        a->e[a->n].series = series;
        a->e[a->n].n = 0;
        a->n++;
    }
    if (!a->e[i].n || min < a->e[i].min) {
        a->e[i].min = min;
    }
    if (!a->e[i].n || max > a->e[i].max) {
        a->e[i].max = max;
    }
    a->e[i].n += n;
}

static void ctr_hook(void *ctx, uint32_t counter, uint32_t series, uint32_t value)
{
    ctr_add(ctx, counter, series, 1, value, value);
}

static void ctr_list(const ctr_agg_t *a, list_t *out)
{
    out->n = 0;
    for (unsigned i = 0; i < a->n; i++) {
        if (a->e[i].n) {
            snprintf(out->s[out->n++], sizeof out->s[0], "counter %u series %d: %llu samples, %u .. %u",
                     (unsigned)a->e[i].counter, a->e[i].series == UINT32_MAX ? -1 : (int)a->e[i].series,
                     (unsigned long long)a->e[i].n, (unsigned)a->e[i].min, (unsigned)a->e[i].max);
        }
    }
}

static ctr_agg_t stats_ctr, timeline_ctr, perfetto_ctr;
static unsigned last_counter_series; /* series the last agree() compared */

static int by_text(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* What the consumers are given: the records with index in [lo, hi] (a window); the record with
 * index `gap_at` comes after records lost to damage (evrec_record_t::gap). */
typedef struct feed {
    uint64_t lo, hi, gap_at;
} feed_t;

static const feed_t ALL = {0, UINT64_MAX, UINT64_MAX};

/* Read the next record of r with the feed's gap flag; 1 while there is one. */
static int next(evrec_reader_t *r, const feed_t *f, evrec_record_t *rec)
{
    if (evrec_reader_next(r, rec) != EVREC_OK) {
        return 0;
    }
    rec->gap = rec->gap || rec->index == f->gap_at;
    return 1;
}

static int selected(const feed_t *f, const evrec_record_t *rec)
{
    return rec->index >= f->lo && rec->index <= f->hi;
}

static void pair_model(const mem_t *file, const feed_t *f, list_t *out)
{
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, file->data, file->len, NULL), EVREC_OK);
    evrec_spans_t *p;
    cr_assert_eq(evrec_spans_create(&p, r, collect, out), EVREC_OK);
    evrec_stats_t *s;
    cr_assert_eq(evrec_stats_create(&s, r), EVREC_OK);
    evrec_record_t rec;
    int gap = 0;
    while (next(r, f, &rec)) {
        gap |= rec.gap;
        if (selected(f, &rec)) {
            rec.gap = gap; /* a gap before records the window skipped: kept for the next one */
            gap = 0;
            cr_assert_eq(evrec_spans_add(p, &rec), EVREC_OK);
            cr_assert_eq(evrec_stats_add(s, &rec), EVREC_OK);
        }
    }
    cr_assert_eq(evrec_spans_finish(p), EVREC_OK);
    evrec_spans_free(p);
    cr_assert_eq(evrec_stats_finish(s), EVREC_OK);
    uint32_t nc = 0;
    const evrec_stats_counter_t *c = evrec_stats_counters(s, &nc);
    stats_ctr.n = 0;
    for (uint32_t i = 0; i < nc; i++) {
        if (!c[i].series_count && c[i].all.samples) {
            ctr_add(&stats_ctr, c[i].counter, UINT32_MAX, c[i].all.samples, c[i].all.min, c[i].all.max);
        }
        for (uint32_t k = 0; k < c[i].series_count; k++) {
            const evrec_stats_series_t *x = &c[i].series[k];
            ctr_add(&stats_ctr, c[i].counter, x->value, x->samples, x->min, x->max);
        }
    }
    evrec_stats_free(s);
    evrec_reader_close(r);
}

static void pair_timeline(const mem_t *file, const feed_t *f, list_t *out)
{
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, file->data, file->len, NULL), EVREC_OK);
    tl_model_t *m = calloc(1, sizeof *m);
    cr_assert_not_null(m);
    m->r = r;
    m->meta = evrec_reader_meta(r);
    m->tracks = evrec_reader_tracks(r);
    m->ns_known = evrec_reader_time_freq(r, NULL) != 0;
    m->span_hook = collect;
    m->span_hook_ctx = out;
    cr_assert_eq(tl_lanes_prepare(m), 0);
    cr_assert_eq(tl_agg_init(m, 4096), 0);
    evrec_record_t rec;
    while (next(r, f, &rec)) {
        tl_agg_read(m, &rec, rec.gap ? 1 : 0);
        if (selected(f, &rec)) {
            cr_assert_eq(tl_agg_add(m, &rec), 0);
        }
    }
    tl_agg_finish(m);
    timeline_ctr.n = 0;
    for (unsigned i = 0; i < m->nrows; i++) {
        const tl_row_t *row = &m->rows[i];
        if (row->kind == TL_ROW_COUNTER && row->instants) {
            ctr_add(&timeline_ctr, row->group, row->value, row->instants, row->cmin, row->cmax);
        }
    }
    tl_agg_free(m);
    free(m);
    evrec_reader_close(r);
}

#ifdef EVREC_AGREE_PERFETTO
static void pair_perfetto(const mem_t *file, const feed_t *f, list_t *out)
{
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, file->data, file->len, NULL), EVREC_OK);
    FILE *sink = fopen("/dev/null", "wb");
    cr_assert_not_null(sink);
    evrec_pf_writer_t *w;
    cr_assert_eq(evrec_pf_open(&w, r, sink, "agreement"), EVREC_OK);
    evrec_pf_set_span_hook(w, collect, out);
    perfetto_ctr.n = 0;
    evrec_pf_set_counter_hook(w, ctr_hook, &perfetto_ctr);
    evrec_record_t rec;
    int gap = 0;
    while (next(r, f, &rec)) {
        gap |= rec.gap;
        if (selected(f, &rec)) {
            rec.gap = gap;
            gap = 0;
            cr_assert_eq(evrec_pf_record(w, &rec), EVREC_OK);
        }
    }
    cr_assert_eq(evrec_pf_finish(w, NULL), EVREC_OK);
    evrec_pf_close(w);
    fclose(sink);
    evrec_reader_close(r);
}
#endif

/* Print where `b` differs from `a`; the number of lines that differ. */
static unsigned diff(const char *what, const char *na, const list_t *a, const char *nb, const list_t *b)
{
    unsigned i = 0, j = 0, bad = 0;
    while (i < a->n || j < b->n) {
        int c = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->s[i], b->s[j]);
        if (c == 0) {
            i++, j++;
            continue;
        }
        fprintf(stderr, "%s: only in %s: %s\n", what, c < 0 ? na : nb, c < 0 ? a->s[i] : b->s[j]);
        if (c < 0) {
            i++;
        } else {
            j++;
        }
        bad++;
    }
    return bad;
}

static void agree(const char *what, const mem_t *file, const feed_t *f)
{
    static list_t model, timeline, perfetto;
    model.n = timeline.n = perfetto.n = 0;
    pair_model(file, f, &model);
    pair_timeline(file, f, &timeline);
    qsort(model.s, model.n, sizeof model.s[0], by_text);
    qsort(timeline.s, timeline.n, sizeof timeline.s[0], by_text);
    cr_assert_gt(model.n, 0, "%s: the recording has spans", what);
    unsigned bad = diff(what, "stats", &model, "timeline", &timeline);
#ifdef EVREC_AGREE_PERFETTO
    pair_perfetto(file, f, &perfetto);
    qsort(perfetto.s, perfetto.n, sizeof perfetto.s[0], by_text);
    bad += diff(what, "stats", &model, "perfetto", &perfetto);
#endif
    cr_expect_eq(bad, 0, "%s: %u span(s) paired differently (listed above)", what, bad);
    /* Counters: the same series (counter, series field value) with the same samples everywhere. */
    static list_t cs, ct, cp;
    ctr_list(&stats_ctr, &cs);
    ctr_list(&timeline_ctr, &ct);
    qsort(cs.s, cs.n, sizeof cs.s[0], by_text);
    qsort(ct.s, ct.n, sizeof ct.s[0], by_text);
    unsigned cbad = diff(what, "stats", &cs, "timeline", &ct);
#ifdef EVREC_AGREE_PERFETTO
    ctr_list(&perfetto_ctr, &cp);
    qsort(cp.s, cp.n, sizeof cp.s[0], by_text);
    cbad += diff(what, "stats", &cs, "perfetto", &cp);
#endif
    cr_expect_eq(cbad, 0, "%s: %u counter series differ (listed above)", what, cbad);
    last_counter_series = cs.n;
}

/* ---- recordings ---- */

static void start_view(trace_t *tr)
{
    memset(tr, 0, sizeof *tr);
    tr->buf_size = 8192;
    tr->buf = malloc(tr->buf_size);
    cr_assert_not_null(tr->buf);
    cr_assert_eq(evrec_recorder_init(&tr->rec, tr->buf, tr->buf_size), EVREC_OK);
    evrec_host_init(&tr->host);
    at(0);
    cr_assert_eq(evrec_host_start(&tr->host, &tr->rec, &view_meta, 1000000u), EVREC_OK);
}

/* The RTOS catalogue's TaskRunning. Indexes: 0 Start, then one per record. */
static void record_tasks(trace_t *tr)
{
    rtos_RtosTask_t a, b, c;
    trace_start(tr, 4096, 1000);
    cr_assert_eq(rtos_RtosTask_alloc("task_a", &a), EVREC_OK);
    cr_assert_eq(rtos_RtosTask_alloc("task_b", &b), EVREC_OK);
    cr_assert_eq(rtos_RtosTask_alloc("task_c", &c), EVREC_OK);
    evrec_host_t *h = &tr->host;
    at(1100);
    rtos_record_TaskSwitchIn(h, a, rtos_RtosResume_Start); /* #1 A opens */
    at(1150);
    rtos_record_TaskSwitchIn(h, b, rtos_RtosResume_Resume); /* #2 B opens (overlaps A) */
    at(1200);
    rtos_record_TaskSwitchOut(h, a, rtos_RtosSuspend_Yield); /* #3 A closes */
    at(1260);
    rtos_record_TaskSwitchIn(h, b, rtos_RtosResume_Resume); /* #4 B begun again */
    at(1300);
    rtos_record_TaskSwitchOut(h, c, rtos_RtosSuspend_Yield); /* #5 C: closes nothing */
    at(1400);
    rtos_record_TaskSwitchOut(h, b, rtos_RtosSuspend_Yield); /* #6 B closes */
    at(1450);
    rtos_record_TaskSwitchIn(h, a, rtos_RtosResume_Resume); /* #7 A open at the end */
    at(1460);
    rtos_record_TaskSwitchOut(h, c, rtos_RtosSuspend_Yield); /* #8 C again: nothing */
    trace_stop(tr, 1500);                                    /* #9 Stop */
}

/* A frame number on two threads, a frame begun twice on one thread, per-end keys. */
static void record_frames(trace_t *tr)
{
    start_view(tr);
    evrec_host_t *h = &tr->host;
    view_Frame_t f7 = {7}, f8 = {8};
    at(10);
    view_record_Work(h, view_Thread_Capture, view_Phase_Start, f7); /* #1 */
    at(20);
    view_record_Work(h, view_Thread_Encode, view_Phase_Start, f7); /* #2 same key, other thread */
    at(50);
    view_record_Work(h, view_Thread_Capture, view_Phase_Done, f7); /* #3 capture's 7 ends */
    at(70);
    view_record_Work(h, view_Thread_Encode, view_Phase_Done, f7); /* #4 encode's 7 ends */
    at(80);
    view_record_Work(h, view_Thread_Capture, view_Phase_Start, f8); /* #5 */
    at(90);
    view_record_Work(h, view_Thread_Capture, view_Phase_Start, f8); /* #6 8 begun again */
    at(95);
    view_record_Work(h, view_Thread_Capture, view_Phase_Done, f8); /* #7 */
    at(99);
    view_record_Work(h, view_Thread_Capture, view_Phase_Done, f8); /* #8 closes nothing */
    at(100);
    view_record_Switch(h, 0, 1); /* #9 ends 0 (nothing), opens 1 */
    at(130);
    view_record_Switch(h, 1, 2); /* #10 */
    at(200);
    view_record_Switch(h, 2, 2); /* #11 ends and begins 2 */
    at(220);
    view_record_Switch(h, 2, 1); /* #12 */
    at(250);
    view_record_Work(h, view_Thread_Encode, view_Phase_Start, f8); /* #13 open at the end */
    at(300);
    cr_assert_eq(evrec_host_stop(&tr->host, NULL), EVREC_OK);
    evrec_sink_t sink = {mem_write, &tr->file};
    cr_assert_eq(evrec_save(&tr->rec, &sink), EVREC_OK);
}

Test(span_agreement, rtos_task_running)
{
    trace_t tr;
    record_tasks(&tr);
    agree("tasks", &tr.file, &ALL);
    trace_free(&tr);
}

Test(span_agreement, frames_on_threads_and_per_end_keys)
{
    trace_t tr;
    record_frames(&tr);
    agree("frames", &tr.file, &ALL);
    trace_free(&tr);
}

Test(span_agreement, records_lost_to_damage)
{
    trace_t tr;
    record_tasks(&tr);
    feed_t f = {0, UINT64_MAX, 5}; /* lost before #5: B (open since #4) is cut */
    agree("tasks, damage before #5", &tr.file, &f);
    trace_free(&tr);
    record_frames(&tr);
    f.gap_at = 4; /* encode's 7 is open */
    agree("frames, damage before #4", &tr.file, &f);
    trace_free(&tr);
}

Test(span_agreement, a_window_cuts_spans_at_both_edges)
{
    trace_t tr;
    record_tasks(&tr);
    feed_t f = {3, 6, UINT64_MAX};
    agree("tasks, window #3..#6", &tr.file, &f);
    trace_free(&tr);
    record_frames(&tr);
    feed_t g = {3, 10, UINT64_MAX};
    agree("frames, window #3..#10", &tr.file, &g);
    trace_free(&tr);
}

Test(span_agreement, a_full_buffer)
{
    trace_t tr;
    rtos_RtosTask_t a;
    trace_start(&tr, 512, 1000);
    cr_assert_eq(rtos_RtosTask_alloc("task_a", &a), EVREC_OK);
    at(1100);
    rtos_record_TaskSwitchIn(&tr.host, a, rtos_RtosResume_Start);
    for (uint32_t i = 0; i < 200; i++) { /* fills the buffer: the switch-out below is dropped */
        at(1200 + i);
        rtos_record_TaskSwitchIn(&tr.host, a, rtos_RtosResume_Resume);
    }
    at(2000);
    rtos_record_TaskSwitchOut(&tr.host, a, rtos_RtosSuspend_Yield);
    at(2100);
    cr_assert_eq(evrec_host_stop(&tr.host, NULL), EVREC_OK);
    cr_assert_gt(evrec_recorder_counts(&tr.rec).dropped, 0);
    evrec_sink_t sink = {mem_write, &tr.file};
    cr_assert_eq(evrec_save(&tr.rec, &sink), EVREC_OK);
    agree("full buffer", &tr.file, &ALL);
    trace_free(&tr);
}

/* An interrupt handler that re-enters itself (nested), another nested in it, exits in order. */
Test(span_agreement, nested_interrupts)
{
    trace_t tr;
    rtos_RtosIsr_t dma, uart;
    trace_start(&tr, 4096, 1000);
    cr_assert_eq(rtos_RtosIsr_alloc("dma", &dma), EVREC_OK);
    cr_assert_eq(rtos_RtosIsr_alloc("uart", &uart), EVREC_OK);
    evrec_host_t *h = &tr.host;
    at(1100);
    rtos_record_IsrEnter(h, dma, 18); /* #1 */
    at(1110);
    rtos_record_IsrEnter(h, dma, 18); /* #2 nested in #1 */
    at(1120);
    rtos_record_IsrEnter(h, uart, 16); /* #3 */
    at(1130);
    rtos_record_IsrExit(h, uart, 16); /* #4 */
    at(1140);
    rtos_record_IsrExit(h, dma, 18); /* #5 closes #2 */
    at(1150);
    rtos_record_IsrExit(h, dma, 18); /* #6 closes #1 */
    at(1160);
    rtos_record_IsrExit(h, dma, 18); /* #7 closes nothing */
    at(1170);
    rtos_record_IsrEnter(h, uart, 16); /* #8 */
    at(1180);
    rtos_record_IsrEnter(h, uart, 16); /* #9 both open at the end */
    trace_stop(&tr, 1200);
    agree("nested interrupts", &tr.file, &ALL);
    trace_free(&tr);
}

/* Frames begun on one core and ended on another: the recorder's lanes, merged at save. */
Test(span_agreement, recorder_lanes)
{
    trace_t tr;
    memset(&tr, 0, sizeof tr);
    tr.buf_size = 65536;
    cr_assert_eq(posix_memalign((void **)&tr.buf, 64, tr.buf_size), 0);
    evrec_lane_t lane[2];
    evrec_lanes_t lanes;
    cr_assert_eq(evrec_recorder_init(&tr.rec, tr.buf, tr.buf_size), EVREC_OK);
    cr_assert_eq(evrec_lanes_init(&lanes, lane, 2), EVREC_OK);
    at(0);
    cr_assert_eq(evrec_lanes_start(&lanes, &tr.rec, &view_meta, 1000000u), EVREC_OK);
    evrec_host_t *c0 = evrec_lane_host_at(&lanes, 0), *c1 = evrec_lane_host_at(&lanes, 1);
    for (uint32_t f = 0; f < 20; f++) {
        view_Frame_t fr = {f % 4};
        uint32_t t = 100 + 40 * f;
        at(t);
        view_record_Work(f % 2 ? c1 : c0, view_Thread_Capture, view_Phase_Start, fr);
        at(t + 5);
        view_record_Work(f % 3 ? c0 : c1, view_Thread_Encode, view_Phase_Start, fr);
        at(t + 20);
        view_record_Work(f % 2 ? c0 : c1, view_Thread_Capture, view_Phase_Done, fr);
        if (f % 5) {
            at(t + 30);
            view_record_Work(f % 3 ? c1 : c0, view_Thread_Encode, view_Phase_Done, fr);
        }
        at(t + 35);
        view_record_Switch(f % 2 ? c0 : c1, (uint8_t)(f % 3), (uint8_t)((f + 1) % 3));
    }
    at(2000);
    cr_assert_eq(evrec_lanes_stop(&lanes, NULL), EVREC_OK);
    evrec_sink_t sink = {mem_write, &tr.file};
    cr_assert_eq(evrec_save(&tr.rec, &sink), EVREC_OK);
    agree("recorder lanes", &tr.file, &ALL);
    feed_t f = {17, 60, 40};
    agree("recorder lanes, window #17..#60, damage before #40", &tr.file, &f);
    free(tr.buf);
    free(tr.file.data);
}

/* The demo's recording: frame stages keyed by frame number through threads, queue sleeps that
 * share their end (QueueWait Woken ends QueueSleep and QueueFullSleep). */
Test(span_agreement, demo_recording)
{
#ifdef EVREC_DEMO_PATH
    char path[TEST_TMP_PATH];
    int fd = test_tmp_file(path, sizeof path, "agree");
    cr_assert_geq(fd, 0);
    close(fd);
    char cmd[TEST_TMP_PATH + 1024];
    snprintf(cmd, sizeof cmd, "'%s' -o '%s' --frames 60 --fps 1000 >/dev/null 2>&1", EVREC_DEMO_PATH, path);
    cr_assert_eq(system(cmd), 0);
    FILE *in = fopen(path, "rb");
    cr_assert_not_null(in);
    mem_t file = {0};
    unsigned char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, in)) > 0) {
        mem_write(&file, chunk, n);
    }
    fclose(in);
    remove(path);
    agree("demo", &file, &ALL);
    cr_assert_geq(last_counter_series, 2, "demo: one queue depth series per queue");
    feed_t f = {200, 900, 500};
    agree("demo, window #200..#900, damage before #500", &file, &f);
    free(file.data);
#else
    cr_skip_test("evrec-demo is not built");
#endif
}
