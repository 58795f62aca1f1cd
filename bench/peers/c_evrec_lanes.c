/* SPDX-License-Identifier: Apache-2.0 */
/* The evrec per-core lanes contender: the same record path as the one-shot row (bench_record():
 * evrec_reserve -> 3 stores -> evrec_commit of BenchEvent), but each thread records through its
 * core's lane host (evrec_lane_host(): the CPU number glibc keeps per thread, evrec/evrec_lanes.h),
 * so that two threads on two cores never write the same allocation line. One lane per possible
 * thread, each with room for the records of every thread (unpinned threads may share a CPU, hence
 * a lane, for a while): nothing is dropped. */
#include <stdlib.h>
#include <string.h>

#include "bench_events.h"
#include "evrec/evrec_lanes.h"
#include "peers.h"

static uint8_t *ln_buf;
static size_t ln_size;
static evrec_lane_t ln_mem[PEERS_MAX_THREADS];
static evrec_lanes_t ln_lanes;
static evrec_recorder_t ln_rec;

/* Bytes for PEERS_MAX_THREADS x `n` BenchEvents in every lane: the outer header, then per lane
 * its header, Start, the records and the Stop slot, plus slack for the split's rounding. */
static size_t lanes_bytes(size_t n)
{
    return EVREC_BUF_HEADER_SIZE +
           PEERS_MAX_THREADS * (EVREC_BUF_HEADER_SIZE + PEERS_MAX_THREADS * n * sizeof(bench_event_t) +
                                2u * EVREC_CONTROL_SLOT + 64u);
}

static int ln_setup(size_t n, const char **why)
{
    ln_size = (lanes_bytes(n) + 63u) & ~(size_t)63u;
    ln_buf = aligned_alloc(64, ln_size);
    if (!ln_buf) {
        *why = "out of memory";
        return -1;
    }
    memset(ln_buf, 0xFF, ln_size);
    return 0;
}

static int ln_prepare(size_t n, int threads)
{
    (void)threads;
    if (evrec_recorder_init(&ln_rec, ln_buf, lanes_bytes(n)) != EVREC_OK ||
        evrec_lanes_init(&ln_lanes, ln_mem, PEERS_MAX_THREADS) != EVREC_OK ||
        evrec_lanes_start(&ln_lanes, &ln_rec, &bench_meta, peers_time_freq()) != EVREC_OK) {
        return -1;
    }
    return 0;
}

__attribute__((noinline)) static void ln_run(int thread, size_t n)
{
    (void)thread;
    /* the lane is looked up per record, as an application on an SMP part does */
    for (size_t i = 0; i < n; i++) {
        bench_record(evrec_lane_host(&ln_lanes), (uint32_t)i, (uint16_t)i, (uint8_t)i);
    }
}

static int ln_check(size_t n, int threads, const char **why)
{
    evrec_recorder_t *rec = NULL;
    if (evrec_lanes_stop(&ln_lanes, &rec) != EVREC_OK) {
        *why = "cannot stop the lanes";
        return -1;
    }
    uint64_t recorded = 0, dropped = 0;
    for (uint32_t k = 0; k < PEERS_MAX_THREADS; k++) {
        evrec_recorder_counts_t c = evrec_recorder_lane_counts(rec, k);
        recorded += c.recorded - 2u; /* each lane's Start and Stop */
        dropped += c.dropped;
    }
    if (dropped != 0 || recorded != (uint64_t)threads * n) {
        *why = "records dropped or lost";
        return -1;
    }
    return 0;
}

static double ln_bytes(void)
{
    return (double)sizeof(bench_event_t);
}

static void ln_teardown(void)
{
    free(ln_buf);
    ln_buf = NULL;
}

const peer_contender_t peer_evrec_lanes = {
    .key = "evrec-lanes",
    .name = "evrec per-core lanes (lane by CPU)",
    .setup = ln_setup,
    .prepare = ln_prepare,
    .run = ln_run,
    .check = ln_check,
    .bytes_per_record = ln_bytes,
    .teardown = ln_teardown,
};
