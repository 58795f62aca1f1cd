/* SPDX-License-Identifier: Apache-2.0 */
/* The recorder's count of a recording split into lanes (evrec_lanes_stop()) is the number of
 * records its file holds: save writes one Start, one Stop and each evrec_lanes_tick() once
 * (format/FORMAT.md section 2.3), so the copies in the other lanes are not counted. Before, the
 * count was the lanes' sum: a 4-lane run with 20 ticks counted 66 records its file never had. */
#include <criterion/criterion.h>

#include "lanes_fixture.h"
#include "probe_meta.h"

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
    lanes_fx_t f;
    lanes_fx_start(&f, 256u << 10, 0, 4, 1000, 0, 1000000);
    workload(&f.lanes, 2000, 100);
    cr_assert_eq(evrec_lanes_stop(&f.lanes, NULL), EVREC_OK);
    evrec_recorder_counts_t c = evrec_recorder_counts(&f.rec);
    cr_assert_eq(c.dropped, 0);
    cr_assert_eq(c.recorded, 1u + 2000u + 20u + 1u, "Start, probes, 20 ticks, Stop: %llu",
                 (unsigned long long)c.recorded);
    cr_assert_eq(lanes_fx_records_in_file(&f.rec), c.recorded);
    lanes_fx_free(&f);
}

/* A one-shot lane that fills misses the later ticks (and drops): the other lanes' copies are
 * the ones written, and the count still is the file's. */
Test(lanes_count, oneshot_full_lane_count_is_the_file)
{
    lanes_fx_t f;
    lanes_fx_start(&f, EVREC_BUF_HEADER_SIZE + 2u * 2048u, 0, 2, 50, 0, 0);
    evrec_lanes_t *lanes = &f.lanes;
    for (uint32_t i = 0; i < 400; i++) {
        evrec_test_clock_now += 3;
        (void)probe_record(evrec_lane_host_at(lanes, 0), 0, i); /* lane 0 fills */
        if (i % 40 == 0) {
            cr_assert(probe_record(evrec_lane_host_at(lanes, 1), 1, i));
            (void)evrec_lanes_tick(lanes);
        }
    }
    cr_assert_eq(evrec_lanes_stop(lanes, NULL), EVREC_OK);
    evrec_recorder_counts_t c = evrec_recorder_counts(&f.rec);
    cr_assert_gt(c.dropped, 0, "lane 0 filled");
    cr_assert_eq(lanes_fx_records_in_file(&f.rec), c.recorded);
    lanes_fx_free(&f);
}

/* Cyclic lanes that did not overwrite: every copy is there, the count is the file's. */
Test(lanes_count, cyclic_count_is_the_file)
{
    const size_t bs = 1024;
    lanes_fx_t f;
    lanes_fx_start(&f, EVREC_BUF_HEADER_SIZE + 3u * (EVREC_BUF_HEADER_SIZE + 64u * bs), bs, 3, 9000, 0, 0);
    workload(&f.lanes, 900, 50);
    cr_assert_eq(evrec_lanes_stop(&f.lanes, NULL), EVREC_OK);
    evrec_recorder_counts_t c = evrec_recorder_counts(&f.rec);
    cr_assert_eq(c.overwritten, 0);
    cr_assert_eq(c.recorded, 1u + 900u + 18u + 1u, "Start, probes, 18 ticks, Stop: %llu",
                 (unsigned long long)c.recorded);
    cr_assert_eq(lanes_fx_records_in_file(&f.rec), c.recorded);
    lanes_fx_free(&f);
}

/* Cyclic lanes that overwrote many ticks: the count never goes below the file's (no Tick copy
 * taken off that is not there) and never above the lanes' sum. */
Test(lanes_count, cyclic_overwritten_count_is_bounded)
{
    const size_t bs = 512;
    lanes_fx_t f;
    lanes_fx_start(&f, EVREC_BUF_HEADER_SIZE + 2u * (EVREC_BUF_HEADER_SIZE + 8u * bs), bs, 2, 9000, 0, 0);
    workload(&f.lanes, 5000, 2); /* 2500 ticks: far more copies than the rings hold */
    cr_assert_eq(evrec_lanes_stop(&f.lanes, NULL), EVREC_OK);
    evrec_recorder_counts_t c = evrec_recorder_counts(&f.rec);
    uint64_t sum = evrec_recorder_lane_counts(&f.rec, 0).recorded + evrec_recorder_lane_counts(&f.rec, 1).recorded;
    cr_assert_gt(c.overwritten, 0);
    uint64_t n = lanes_fx_records_in_file(&f.rec);
    cr_assert_geq(c.recorded, n, "count %llu, file %llu", (unsigned long long)c.recorded, (unsigned long long)n);
    cr_assert_leq(c.recorded, sum);
    lanes_fx_free(&f);
}
