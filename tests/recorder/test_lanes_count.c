/* SPDX-License-Identifier: Apache-2.0 */
/* The recorder's count of a recording split into lanes (evrec_lanes_stop()) is the number of
 * records its file holds: save writes one Start, one Stop and each evrec_lanes_tick() once
 * (format/FORMAT.md section 2.3), so the copies in the other lanes are not counted. Before, the
 * count was the lanes' sum: a 4-lane run with 20 ticks counted 66 records its file never had. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_lanes.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_save.h"
#include "mem_sink.h"
#include "probe_meta.h"

extern uint32_t evrec_test_clock_now;
extern uint32_t evrec_test_clock_step;

static void *aligned_buffer(size_t size)
{
    void *p = NULL;
    cr_assert_eq(posix_memalign(&p, 64, size), 0);
    memset(p, 0x5A, size);
    return p;
}

/* Saves the stopped recorder; the records its file holds, read back one by one. */
static uint64_t records_in_file(const evrec_recorder_t *rec)
{
    mem_sink_t out;
    memset(&out, 0, sizeof out);
    evrec_sink_t sink = mem_sink_of(&out);
    cr_assert_eq(evrec_save(rec, &sink), EVREC_OK);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, out.data, out.len, NULL), EVREC_OK);
    evrec_record_t x;
    uint64_t n = 0;
    evrec_status st;
    while ((st = evrec_reader_next(r, &x)) == EVREC_OK) {
        n++;
    }
    cr_assert_eq(st, EVREC_E_END, "the file reads to its end: %s", evrec_reader_error(r)->message);
    cr_assert_eq(evrec_reader_info(r)->recorded, n, "the file's header counts its records");
    evrec_reader_close(r);
    free(out.data);
    return n;
}

/* Records `probes` probes round-robin over the lanes, a lanes tick every `tick_every`. */
static void workload(evrec_lanes_t *lanes, uint32_t probes, uint32_t tick_every)
{
    for (uint32_t i = 0; i < probes; i++) {
        evrec_test_clock_now += 7;
        (void)probe_record(evrec_lane_host_at(lanes, i % lanes->count), (uint16_t)(i % lanes->count), i);
        if (i % tick_every == 0) {
            (void)evrec_lanes_tick(lanes);
        }
    }
}

/* Four one-shot lanes and 20 lanes ticks, as ThreadX's SMP port records them. */
Test(lanes_count, oneshot_count_is_the_file)
{
    const size_t size = 256u << 10;
    void *mem = aligned_buffer(size);
    evrec_recorder_t rec;
    evrec_lane_t lane[4];
    evrec_lanes_t lanes;
    cr_assert_eq(evrec_recorder_init(&rec, mem, size), EVREC_OK);
    cr_assert_eq(evrec_lanes_init(&lanes, lane, 4), EVREC_OK);
    evrec_test_clock_now = 1000;
    evrec_test_clock_step = 0;
    cr_assert_eq(evrec_lanes_start(&lanes, &rec, &probe_meta, 1000000), EVREC_OK);
    workload(&lanes, 2000, 100);
    cr_assert_eq(evrec_lanes_stop(&lanes, NULL), EVREC_OK);
    evrec_recorder_counts_t c = evrec_recorder_counts(&rec);
    cr_assert_eq(c.dropped, 0);
    cr_assert_eq(c.recorded, 1u + 2000u + 20u + 1u, "Start, probes, 20 ticks, Stop: %llu",
                 (unsigned long long)c.recorded);
    cr_assert_eq(records_in_file(&rec), c.recorded);
    free(mem);
}

/* A one-shot lane that fills misses the later ticks (and drops): the other lanes' copies are
 * the ones written, and the count still is the file's. */
Test(lanes_count, oneshot_full_lane_count_is_the_file)
{
    const size_t size = EVREC_BUF_HEADER_SIZE + 2u * 2048u;
    void *mem = aligned_buffer(size);
    evrec_recorder_t rec;
    evrec_lane_t lane[2];
    evrec_lanes_t lanes;
    cr_assert_eq(evrec_recorder_init(&rec, mem, size), EVREC_OK);
    cr_assert_eq(evrec_lanes_init(&lanes, lane, 2), EVREC_OK);
    evrec_test_clock_now = 50;
    evrec_test_clock_step = 0;
    cr_assert_eq(evrec_lanes_start(&lanes, &rec, &probe_meta, 0), EVREC_OK);
    for (uint32_t i = 0; i < 400; i++) {
        evrec_test_clock_now += 3;
        (void)probe_record(evrec_lane_host_at(&lanes, 0), 0, i); /* lane 0 fills */
        if (i % 40 == 0) {
            cr_assert(probe_record(evrec_lane_host_at(&lanes, 1), 1, i));
            (void)evrec_lanes_tick(&lanes);
        }
    }
    cr_assert_eq(evrec_lanes_stop(&lanes, NULL), EVREC_OK);
    evrec_recorder_counts_t c = evrec_recorder_counts(&rec);
    cr_assert_gt(c.dropped, 0, "lane 0 filled");
    cr_assert_eq(records_in_file(&rec), c.recorded);
    free(mem);
}

/* Cyclic lanes that did not overwrite: every copy is there, the count is the file's. */
Test(lanes_count, cyclic_count_is_the_file)
{
    const size_t bs = 1024;
    const size_t size = EVREC_BUF_HEADER_SIZE + 3u * (EVREC_BUF_HEADER_SIZE + 64u * bs);
    void *mem = aligned_buffer(size);
    evrec_recorder_t rec;
    evrec_lane_t lane[3];
    evrec_lanes_t lanes;
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, size, bs), EVREC_OK);
    cr_assert_eq(evrec_lanes_init(&lanes, lane, 3), EVREC_OK);
    evrec_test_clock_now = 9000;
    evrec_test_clock_step = 0;
    cr_assert_eq(evrec_lanes_start(&lanes, &rec, &probe_meta, 0), EVREC_OK);
    workload(&lanes, 900, 50);
    cr_assert_eq(evrec_lanes_stop(&lanes, NULL), EVREC_OK);
    evrec_recorder_counts_t c = evrec_recorder_counts(&rec);
    cr_assert_eq(c.overwritten, 0);
    cr_assert_eq(c.recorded, 1u + 900u + 18u + 1u, "Start, probes, 18 ticks, Stop: %llu",
                 (unsigned long long)c.recorded);
    cr_assert_eq(records_in_file(&rec), c.recorded);
    free(mem);
}

/* Cyclic lanes that overwrote many ticks: the count never goes below the file's (no Tick copy
 * taken off that is not there) and never above the lanes' sum. */
Test(lanes_count, cyclic_overwritten_count_is_bounded)
{
    const size_t bs = 512;
    const size_t size = EVREC_BUF_HEADER_SIZE + 2u * (EVREC_BUF_HEADER_SIZE + 8u * bs);
    void *mem = aligned_buffer(size);
    evrec_recorder_t rec;
    evrec_lane_t lane[2];
    evrec_lanes_t lanes;
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, size, bs), EVREC_OK);
    cr_assert_eq(evrec_lanes_init(&lanes, lane, 2), EVREC_OK);
    evrec_test_clock_now = 9000;
    evrec_test_clock_step = 0;
    cr_assert_eq(evrec_lanes_start(&lanes, &rec, &probe_meta, 0), EVREC_OK);
    workload(&lanes, 5000, 2); /* 2500 ticks: far more copies than the rings hold */
    cr_assert_eq(evrec_lanes_stop(&lanes, NULL), EVREC_OK);
    evrec_recorder_counts_t c = evrec_recorder_counts(&rec);
    uint64_t sum = evrec_recorder_lane_counts(&rec, 0).recorded + evrec_recorder_lane_counts(&rec, 1).recorded;
    cr_assert_gt(c.overwritten, 0);
    uint64_t n = records_in_file(&rec);
    cr_assert_geq(c.recorded, n, "count %llu, file %llu", (unsigned long long)c.recorded, (unsigned long long)n);
    cr_assert_leq(c.recorded, sum);
    free(mem);
}
