/* SPDX-License-Identifier: Apache-2.0 */
/* Per-core lanes (evrec/evrec_lanes.h): one-shot and cyclic lanes, per-lane drops, the merge by
 * time in save (one Start, one Stop, each tick once, 32-bit wraps), the lane of each record as
 * the reader gives it, recovery of a lanes buffer. The fake-clock port pins every timestamp. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_lanes.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_save.h"
#include "lanes_fixture.h"
#include "mem_sink.h"
#include "probe_meta.h"

/* One record read back. */
typedef struct got {
    uint16_t id, lane, source;
    uint8_t type;
    uint32_t seq;
    uint64_t t64;
} got_t;

static uint32_t be32_at(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Saves rec, reads the file back whole; returns the records (malloc'd), their count in *n. */
static got_t *save_and_read(const evrec_recorder_t *rec, size_t *n, mem_sink_t *out, evrec_reader_t **rd)
{
    memset(out, 0, sizeof *out);
    evrec_sink_t sink = mem_sink_of(out);
    cr_assert_eq(evrec_save(rec, &sink), EVREC_OK);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, out->data, out->len, NULL), EVREC_OK);
    size_t cap = 1024, k = 0;
    got_t *g = malloc(cap * sizeof *g);
    evrec_record_t x;
    evrec_status st;
    while ((st = evrec_reader_next(r, &x)) == EVREC_OK) {
        if (k == cap) {
            cap *= 2;
            g = realloc(g, cap * sizeof *g);
        }
        got_t *e = &g[k++];
        memset(e, 0, sizeof *e);
        e->id = x.id;
        e->lane = x.lane;
        e->t64 = x.t64;
        if (x.id == PROBE_EVENT_CONTROL) {
            e->type = x.data[6];
        } else if (x.id == PROBE_EVENT_PROBE) {
            e->source = (uint16_t)(x.data[6] << 8 | x.data[7]);
            e->seq = be32_at(x.data + 8);
        }
    }
    cr_assert_eq(st, EVREC_E_END, "the file reads to its end intact: %s", evrec_reader_error(r)->message);
    *n = k;
    if (rd) {
        *rd = r;
    } else {
        evrec_reader_close(r);
    }
    return g;
}

static const evrec_meta_t *meta(void)
{
    return &probe_meta;
}

Test(lanes, init_and_start_reject_bad_arguments)
{
    evrec_lane_t lane[2];
    evrec_lanes_t lanes;
    cr_assert_eq(evrec_lanes_init(NULL, lane, 2), EVREC_E_ARG);
    cr_assert_eq(evrec_lanes_init(&lanes, lane, 0), EVREC_E_ARG);
    cr_assert_eq(evrec_lanes_init(&lanes, lane, EVREC_MAX_LANES + 1), EVREC_E_ARG);
    cr_assert_eq(evrec_lanes_init(&lanes, lane, 2), EVREC_OK);
    cr_assert_eq(evrec_lanes_stop(&lanes, NULL), EVREC_E_NOT_RECORDING);
    cr_assert_eq(evrec_lanes_tick(&lanes), EVREC_E_NOT_RECORDING);
    probe_event_t e = {0};
    cr_assert_eq(evrec_record(evrec_lane_host(&lanes), PROBE_EVENT_PROBE, &e), EVREC_E_NOT_RECORDING);
    /* a buffer too small for two lanes of EVREC_MIN_BUFFER record bytes */
    void *mem = lanes_fx_buffer(1024);
    evrec_recorder_t rec;
    cr_assert_eq(evrec_recorder_init(&rec, mem, 600), EVREC_OK);
    cr_assert_eq(evrec_lanes_start(&lanes, &rec, meta(), 0), EVREC_E_ARG);
    cr_assert_eq(evrec_recorder_init(&rec, mem, 1024), EVREC_OK);
    cr_assert_eq(evrec_lanes_start(&lanes, &rec, meta(), 0), EVREC_OK);
    cr_assert_eq(evrec_lanes_start(&lanes, &rec, meta(), 0), EVREC_E_BUSY);
    mem_sink_t out;
    memset(&out, 0, sizeof out);
    evrec_sink_t sink = mem_sink_of(&out);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_E_BUSY, "lanes are saved after evrec_lanes_stop()");
    cr_assert_eq(out.len, 0);
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, meta(), 0), EVREC_E_BUSY, "the recorder is taken by the lanes");
    cr_assert_eq(evrec_recorder_lane_count(&rec), 2);
    cr_assert_eq(evrec_lanes_stop(&lanes, NULL), EVREC_OK);
    /* a plain start afterwards makes it a single-lane buffer again */
    cr_assert_eq(evrec_host_start(&host, &rec, meta(), 0), EVREC_OK);
    cr_assert_eq(evrec_recorder_lane_count(&rec), 1);
    cr_assert_eq(rec.hdr->version, EVREC_BUF_VERSION);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    free(mem);
}

/* Three one-shot lanes, records interleaved in time across them: the file has every record
 * once, in time order, one Start, one Stop, each tick once, with the right lanes. */
Test(lanes, oneshot_merge_by_time)
{
    const size_t size = 64u << 10;
    lanes_fx_t f;
    lanes_fx_start(&f, size, 0, 3, 1000, 0, 1000000);
    cr_assert_eq(f.rec.hdr->version, EVREC_BUF_VERSION_LANES);
    cr_assert_eq(f.rec.hdr->lanes, 3);
    /* lane of record i: a pattern that is not round-robin, time grows by 5 per record */
    for (uint32_t i = 0; i < 300; i++) {
        evrec_test_clock_now = 2000 + 5 * i;
        unsigned k = (i * 7u + i / 11u) % 3u;
        cr_assert(probe_record(evrec_lane_host_at(&f.lanes, k), (uint16_t)k, i));
        if (i % 50 == 0) {
            cr_assert_eq(evrec_lanes_tick(&f.lanes), EVREC_OK);
        }
    }
    evrec_test_clock_now = 9000;
    cr_assert_eq(evrec_lanes_stop(&f.lanes, NULL), EVREC_OK);
    evrec_recorder_counts_t c = evrec_recorder_counts(&f.rec);
    cr_assert_eq(c.dropped, 0);
    cr_assert_eq(c.state, EVREC_BUF_STOPPED);
    size_t n;
    mem_sink_t out;
    evrec_reader_t *r;
    got_t *g = save_and_read(&f.rec, &n, &out, &r);
    cr_assert_eq(out.data[11], EVREC_FORMAT_MINOR_LANES, "a lanes file is version 1.3");
    cr_assert_eq(evrec_reader_info(r)->lanes, 3);
    cr_assert_eq(n, 1 + 300 + 6 + 1, "Start, 300 probes, 6 ticks once each, Stop: %zu", n);
    cr_assert_eq(evrec_reader_info(r)->recorded, n);
    cr_assert(g[0].id == PROBE_EVENT_CONTROL && g[0].type == EVREC_CONTROL_START);
    cr_assert(g[n - 1].id == PROBE_EVENT_CONTROL && g[n - 1].type == EVREC_CONTROL_STOP);
    uint32_t next = 0;
    uint64_t per_lane[3] = {0};
    for (size_t i = 0; i < n; i++) {
        per_lane[g[i].lane < 3 ? g[i].lane : 0]++;
        cr_assert_lt(g[i].lane, 3);
        if (i) {
            cr_assert_geq(g[i].t64, g[i - 1].t64, "time order at %zu", i);
        }
        if (g[i].id == PROBE_EVENT_PROBE) {
            cr_assert_eq(g[i].seq, next, "record %zu: seq %u, expected %u", i, g[i].seq, next);
            cr_assert_eq(g[i].lane, g[i].source, "the lane that recorded it");
            next++;
        }
    }
    cr_assert_eq(next, 300);
    for (uint32_t k = 0; k < 3; k++) {
        evrec_lane_info_t li;
        cr_assert_eq(evrec_reader_lane(r, k, &li), EVREC_OK);
        cr_assert_eq(li.records, per_lane[k], "lane %u: %llu records, %llu read", k,
                     (unsigned long long)li.records, (unsigned long long)per_lane[k]);
        cr_assert_eq(li.dropped, 0);
    }
    evrec_lane_info_t li;
    cr_assert_eq(evrec_reader_lane(r, 3, &li), EVREC_E_ARG);
    evrec_reader_close(r);
    free(g);
    free(out.data);
    lanes_fx_free(&f);
}

/* A lane that fills drops (counted in that lane only) while the others go on; the file's header
 * and LANES chunk carry the drops. */
Test(lanes, drops_are_per_lane)
{
    const size_t size = 8192;
    lanes_fx_t f;
    lanes_fx_start(&f, size, 0, 2, 100, 1, 0);
    uint32_t ok0 = 0, drop0 = 0, ok1 = 0;
    for (uint32_t i = 0; i < 1000; i++) {
        if (probe_record(evrec_lane_host_at(&f.lanes, 0), 0, i)) {
            ok0++;
        } else {
            drop0++;
        }
        if (i % 20 == 0) {
            cr_assert(probe_record(evrec_lane_host_at(&f.lanes, 1), 1, i));
            ok1++;
        }
    }
    cr_assert_gt(drop0, 0);
    cr_assert_eq(evrec_recorder_lane_counts(&f.rec, 0).dropped, drop0);
    cr_assert_eq(evrec_recorder_lane_counts(&f.rec, 1).dropped, 0);
    cr_assert_eq(evrec_recorder_counts(&f.rec).dropped, 0, "live counts are the lanes' (the sums come at stop)");
    cr_assert_eq(evrec_lanes_stop(&f.lanes, NULL), EVREC_OK);
    cr_assert_eq(evrec_recorder_counts(&f.rec).dropped, drop0);
    cr_assert_eq(evrec_recorder_lane_counts(&f.rec, 0).recorded, ok0 + 2);
    cr_assert_eq(evrec_recorder_lane_counts(&f.rec, 1).recorded, ok1 + 2);
    size_t n;
    mem_sink_t out;
    evrec_reader_t *r;
    got_t *g = save_and_read(&f.rec, &n, &out, &r);
    cr_assert_eq(evrec_reader_info(r)->dropped, drop0);
    evrec_lane_info_t l0, l1;
    cr_assert_eq(evrec_reader_lane(r, 0, &l0), EVREC_OK);
    cr_assert_eq(evrec_reader_lane(r, 1, &l1), EVREC_OK);
    cr_assert_eq(l0.dropped, drop0);
    cr_assert_eq(l1.dropped, 0);
    cr_assert_eq(l0.records + l1.records, n);
    cr_assert_eq(n, ok0 + ok1 + 2);
    cr_assert(g[n - 1].id == PROBE_EVENT_CONTROL && g[n - 1].type == EVREC_CONTROL_STOP);
    cr_assert_eq(g[n - 1].lane, 1, "the last lane's Stop: lane 1 recorded after lane 0 filled");
    /* every clock read steps by 1: the lanes' Starts differ, and the records of both lanes come
     * out exactly in the order they were stamped: (seq, lane 0) before (seq, lane 1) */
    uint64_t prev_key = 0;
    for (size_t i = 1; i < n; i++) {
        cr_assert_gt(g[i].t64, g[i - 1].t64, "strictly increasing times at %zu", i);
        if (g[i].id == PROBE_EVENT_PROBE) {
            uint64_t key = (uint64_t)g[i].seq * 2u + g[i].source + 1u;
            cr_assert_gt(key, prev_key, "record %zu: seq %u lane %u out of order", i, g[i].seq, g[i].lane);
            prev_key = key;
        }
    }
    evrec_reader_close(r);
    free(g);
    free(out.data);
    lanes_fx_free(&f);
}

/* A lane idle for more than a 32-bit wrap: the ticks recorded into every lane keep each lane's
 * time right, so the merge stays in time order. */
Test(lanes, idle_lane_across_wraps_with_lane_ticks)
{
    const size_t size = 32u << 10;
    lanes_fx_t f;
    lanes_fx_start(&f, size, 0, 2, 0xFFFFFF00u, 0, 0);
    uint64_t t = 0xFFFFFF00u;
    const uint64_t step = 0x20000000u; /* 1/8 of a wrap between ticks */
    cr_assert(probe_record(evrec_lane_host_at(&f.lanes, 1), 1, 0));
    for (uint32_t i = 1; i <= 40; i++) { /* 5 wraps; lane 1 records only at the end */
        t += step;
        evrec_test_clock_now = (uint32_t)t;
        cr_assert_eq(evrec_lanes_tick(&f.lanes), EVREC_OK);
        evrec_test_clock_now = (uint32_t)(t + 7);
        cr_assert(probe_record(evrec_lane_host_at(&f.lanes, 0), 0, i));
    }
    evrec_test_clock_now = (uint32_t)(t + 9); /* after lane 0's last record (t + 7) */
    cr_assert(probe_record(evrec_lane_host_at(&f.lanes, 1), 1, 41));
    evrec_test_clock_now = (uint32_t)(t + 100);
    cr_assert_eq(evrec_lanes_stop(&f.lanes, NULL), EVREC_OK);
    size_t n;
    mem_sink_t out;
    got_t *g = save_and_read(&f.rec, &n, &out, NULL);
    cr_assert_eq(n, 1 + 1 + 40 * 2 + 1 + 1);
    uint32_t next = 0;
    for (size_t i = 1; i < n; i++) {
        cr_assert_geq(g[i].t64, g[i - 1].t64, "time order at %zu", i);
        if (g[i].id == PROBE_EVENT_PROBE) {
            cr_assert_eq(g[i].seq, next++, "record %zu", i);
        }
    }
    cr_assert_eq(g[n - 1].t64, t + 100 - 0xFFFFFF00u, "restored across 5 wraps");
    free(g);
    free(out.data);
    lanes_fx_free(&f);
}

/* Cyclic lanes: a busy lane wraps its ring (overwritten counted in it), a quiet one keeps all;
 * the file merges both windows by time, Stop last, lanes right. */
Test(lanes, cyclic_lanes_merge_and_count_overwrites)
{
    const size_t bs = 512;
    const size_t size = EVREC_BUF_HEADER_SIZE + 2 * (EVREC_BUF_HEADER_SIZE + 8 * bs);
    lanes_fx_t f;
    lanes_fx_start(&f, size, bs, 2, 5000, 3, 0);
    cr_assert_eq(evrec_recorder_lane_counts(&f.rec, 0).block_count, 8);
    for (uint32_t i = 0; i < 2000; i++) {
        cr_assert(probe_record(evrec_lane_host_at(&f.lanes, 0), 0, i));
        if (i % 100 == 99) {
            cr_assert(probe_record(evrec_lane_host_at(&f.lanes, 1), 1, i));
        }
        if (i % 64 == 0) {
            (void)evrec_lanes_tick(&f.lanes);
        }
    }
    cr_assert_eq(evrec_lanes_stop(&f.lanes, NULL), EVREC_OK);
    evrec_recorder_counts_t c0 = evrec_recorder_lane_counts(&f.rec, 0), c1 = evrec_recorder_lane_counts(&f.rec, 1);
    cr_assert_gt(c0.overwritten, 0);
    cr_assert_eq(c1.overwritten, 0);
    cr_assert_eq(evrec_recorder_counts(&f.rec).overwritten, c0.overwritten);
    size_t n;
    mem_sink_t out;
    evrec_reader_t *r;
    got_t *g = save_and_read(&f.rec, &n, &out, &r);
    cr_assert_eq(evrec_reader_info(r)->flags & 1u, 1u, "cyclic");
    cr_assert_eq(evrec_reader_info(r)->overwritten, c0.overwritten);
    evrec_lane_info_t l0;
    cr_assert_eq(evrec_reader_lane(r, 0, &l0), EVREC_OK);
    cr_assert_eq(l0.overwritten, c0.overwritten);
    uint32_t quiet = 0, last_busy = 0;
    int starts = 0;
    for (size_t i = 0; i < n; i++) {
        if (i) {
            cr_assert_geq(g[i].t64, g[i - 1].t64, "time order at %zu", i);
        }
        if (g[i].id == PROBE_EVENT_PROBE) {
            cr_assert_eq(g[i].lane, g[i].source);
            if (g[i].source == 1) {
                cr_assert_eq(g[i].seq, quiet * 100 + 99);
                quiet++;
            } else {
                cr_assert_gt(g[i].seq + 1, last_busy);
                last_busy = g[i].seq + 1;
            }
        }
        starts += g[i].id == PROBE_EVENT_CONTROL && g[i].type == EVREC_CONTROL_START;
    }
    cr_assert_eq(quiet, 20, "the quiet lane kept all of its records");
    cr_assert_eq(last_busy, 2000, "the busy lane's newest record is in");
    cr_assert_eq(starts, 1, "the quiet lane's Start");
    cr_assert(g[n - 1].id == PROBE_EVENT_CONTROL && g[n - 1].type == EVREC_CONTROL_STOP);
    evrec_reader_close(r);
    free(g);
    free(out.data);
    lanes_fx_free(&f);
}

/* A lanes buffer cut short (no stop) is recovered lane by lane and saved merged; a buffer
 * stopped normally says so. */
Test(lanes, recover_a_lanes_buffer)
{
    const size_t size = 16u << 10;
    lanes_fx_t f;
    lanes_fx_start(&f, size, 0, 4, 10, 2, 0);
    for (uint32_t i = 0; i < 100; i++) {
        cr_assert(probe_record(evrec_lane_host_at(&f.lanes, i % 4), (uint16_t)(i % 4), i));
    }
    /* the "crash": the buffer is all that is left */
    void *img = lanes_fx_buffer(size);
    memcpy(img, f.mem, size);
    evrec_recorder_t back;
    uint64_t partial = 7;
    cr_assert_eq(evrec_recorder_recover(&back, img, size, meta(), &partial), EVREC_OK);
    cr_assert_eq(partial, 0);
    cr_assert_eq(evrec_recorder_lane_count(&back), 4);
    size_t n;
    mem_sink_t out;
    got_t *g = save_and_read(&back, &n, &out, NULL);
    cr_assert_eq(n, 101, "one Start and the 100 records (no Stop: cut short)");
    for (size_t i = 1; i < n; i++) {
        cr_assert_eq(g[i].seq, i - 1);
        cr_assert_eq(g[i].lane, (i - 1) % 4);
    }
    free(g);
    free(out.data);
    cr_assert_eq(evrec_recorder_recover(&back, img, size, meta(), NULL), EVREC_E_END, "recovered once: stopped");
    /* a damaged lane geometry is refused */
    ((evrec_buf_header_t *)img)->records_size -= 64;
    ((evrec_buf_header_t *)img)->state = EVREC_BUF_RECORDING;
    cr_assert_eq(evrec_recorder_recover(&back, img, size, meta(), NULL), EVREC_E_CORRUPT);
    cr_assert_eq(evrec_lanes_stop(&f.lanes, NULL), EVREC_OK);
    free(img);
    lanes_fx_free(&f);
}

/* A bare CCore save of a lanes buffer is the merged stream without chunks (no lane numbers). */
Test(lanes, bare_ccore_save_is_the_merged_stream)
{
    const size_t size = 8192;
    lanes_fx_t f;
    lanes_fx_start(&f, size, 0, 2, 10, 1, 0);
    for (uint32_t i = 0; i < 10; i++) {
        cr_assert(probe_record(evrec_lane_host_at(&f.lanes, i & 1), (uint16_t)(i & 1), i));
    }
    cr_assert_eq(evrec_lanes_stop(&f.lanes, NULL), EVREC_OK);
    mem_sink_t out;
    memset(&out, 0, sizeof out);
    evrec_sink_t sink = mem_sink_of(&out);
    evrec_save_options_t opt = {0, 1};
    cr_assert_eq(evrec_save_ex(&f.rec, &sink, &opt), EVREC_OK);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, out.data, out.len, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_info(r)->format, EVREC_FILE_CCORE);
    evrec_record_t x;
    uint32_t k = 0;
    while (evrec_reader_next(r, &x) == EVREC_OK) {
        cr_assert_eq(x.lane, 0);
        k++;
    }
    cr_assert_eq(k, 12);
    evrec_reader_close(r);
    free(out.data);
    lanes_fx_free(&f);
}
