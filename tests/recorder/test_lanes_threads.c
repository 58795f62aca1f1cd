/* SPDX-License-Identifier: Apache-2.0 */
/* Threads recording into lanes at once (POSIX clock), with a thread ticking every lane: after
 * save, every record is read back exactly once, each thread's records in order, with its lane.
 * Also run under ThreadSanitizer (tests/tsan). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_lanes.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_save.h"
#include "evrec_posix.h"
#include "mem_sink.h"
#include "probe_meta.h"

#ifndef TEST_LANE_RECORDS
#define TEST_LANE_RECORDS 20000u
#endif
#define THREADS 4u

typedef struct worker {
    evrec_lanes_t *lanes;
    uint16_t source;
    int own_lane; /* 1: lane `source`; 0: evrec_lane_host() (the CPU's lane, shared) */
    uint32_t recorded;
} worker_t;

static void *work(void *arg)
{
    worker_t *w = (worker_t *)arg;
    for (uint32_t i = 0; i < TEST_LANE_RECORDS; i++) {
        evrec_host_t *h = w->own_lane ? evrec_lane_host_at(w->lanes, w->source) : evrec_lane_host(w->lanes);
        w->recorded += (uint32_t)probe_record(h, w->source, i);
    }
    return NULL;
}

typedef struct ticker {
    evrec_lanes_t *lanes;
    int stop;
} ticker_t;

static void *tick(void *arg)
{
    ticker_t *t = (ticker_t *)arg;
    while (!__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE)) {
        (void)evrec_lanes_tick(t->lanes);
        struct timespec d = {0, 200000};
        nanosleep(&d, NULL);
    }
    return NULL;
}

static uint32_t be32_at(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void run(uint32_t nlanes, int own_lane, int cyclic)
{
    const size_t size = (size_t)THREADS * TEST_LANE_RECORDS * 16u * 2u + (1u << 20);
    void *mem = NULL;
    cr_assert_eq(posix_memalign(&mem, 64, size), 0);
    evrec_recorder_t rec;
    if (cyclic) {
        cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, size, 4096), EVREC_OK);
    } else {
        cr_assert_eq(evrec_recorder_init(&rec, mem, size), EVREC_OK);
    }
    evrec_lane_t *lane = aligned_alloc(EVREC_LANE_ALIGN, sizeof(evrec_lane_t) * nlanes);
    evrec_lanes_t lanes;
    cr_assert_eq(evrec_lanes_init(&lanes, lane, nlanes), EVREC_OK);
    pthread_t th[THREADS], tt;
    worker_t w[THREADS];
    ticker_t tk = {&lanes, 0};
    evrec_posix_tick_t ptick;
    if (!own_lane) {
        /* the port's tick thread, running across the start and the stop of the lanes */
        cr_assert_eq(evrec_posix_tick_start_lanes(&ptick, &lanes, 1000), EVREC_OK);
    }
    cr_assert_eq(evrec_lanes_start(&lanes, &rec, &probe_meta, EVREC_PORT_TIME_FREQ()), EVREC_OK);
    if (own_lane) {
        cr_assert_eq(pthread_create(&tt, NULL, tick, &tk), 0);
    }
    for (uint32_t k = 0; k < THREADS; k++) {
        w[k] = (worker_t){&lanes, (uint16_t)k, own_lane, 0};
        cr_assert_eq(pthread_create(&th[k], NULL, work, &w[k]), 0);
    }
    for (uint32_t k = 0; k < THREADS; k++) {
        pthread_join(th[k], NULL);
    }
    if (own_lane) {
        __atomic_store_n(&tk.stop, 1, __ATOMIC_RELEASE);
        pthread_join(tt, NULL);
    }
    cr_assert_eq(evrec_lanes_stop(&lanes, NULL), EVREC_OK);
    if (!own_lane) {
        evrec_posix_tick_stop(&ptick);
    }
    cr_assert_eq(evrec_recorder_counts(&rec).dropped, 0, "the buffer is large enough");

    mem_sink_t out;
    memset(&out, 0, sizeof out);
    evrec_sink_t sink = mem_sink_of(&out);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, out.data, out.len, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_info(r)->lanes, nlanes);
    uint32_t next[THREADS] = {0};
    uint64_t per_lane[16] = {0};
    uint64_t probes = 0, starts = 0, stops = 0;
    evrec_record_t x;
    evrec_status st;
    while ((st = evrec_reader_next(r, &x)) == EVREC_OK) {
        cr_assert_lt(x.lane, nlanes);
        per_lane[x.lane]++;
        if (x.id == PROBE_EVENT_PROBE) {
            uint16_t src = (uint16_t)(x.data[6] << 8 | x.data[7]);
            uint32_t seq = be32_at(x.data + 8);
            cr_assert_lt(src, THREADS);
            cr_assert_eq(be32_at(x.data + 12), probe_check(src, seq), "intact record");
            if (!cyclic) {
                cr_assert_eq(seq, next[src], "thread %u: seq %u, expected %u (each once, in order)", src, seq,
                             next[src]);
            } else {
                cr_assert_geq(seq, next[src], "thread %u: seq %u after %u", src, seq, next[src]);
            }
            next[src] = seq + 1;
            if (own_lane) {
                cr_assert_eq(x.lane, src, "thread %u recorded into its own lane", src);
            }
            probes++;
        } else if (x.id == PROBE_EVENT_CONTROL) {
            starts += x.data[6] == EVREC_CONTROL_START;
            stops += x.data[6] == EVREC_CONTROL_STOP;
        }
    }
    cr_assert_eq(st, EVREC_E_END, "%s", evrec_reader_error(r)->message);
    cr_assert_eq(stops, 1);
    cr_assert_leq(starts, 1);
    if (!cyclic) {
        cr_assert_eq(starts, 1);
        cr_assert_eq(probes, (uint64_t)THREADS * TEST_LANE_RECORDS);
    }
    for (uint32_t k = 0; k < THREADS; k++) {
        cr_assert_eq(next[k], TEST_LANE_RECORDS, "thread %u's last record is in", k);
    }
    for (uint32_t k = 0; k < nlanes; k++) {
        evrec_lane_info_t li;
        cr_assert_eq(evrec_reader_lane(r, k, &li), EVREC_OK);
        cr_assert_eq(li.records, per_lane[k]);
    }
    evrec_reader_close(r);
    free(out.data);
    free(lane);
    free(mem);
}

Test(lanes_threads, one_lane_per_thread_oneshot)
{
    run(THREADS, 1, 0);
}
Test(lanes_threads, cpu_lanes_shared_by_threads_oneshot)
{
    run(2, 0, 0);
}
Test(lanes_threads, one_lane_per_thread_cyclic)
{
    run(THREADS, 1, 1);
}
