/* SPDX-License-Identifier: Apache-2.0 */
/* evrec-bench-lanes: what lanes (evrec/evrec_lanes.h) buy on an SMP host. Cost per record of a
 * 3-field event (16-byte slot, as generated code records it) with
 *   1 thread:  a plain host; a lane host picked by CPU (evrec_lane_host(), the rseq cpu_id);
 *              a lane host picked by thread (evrec_posix_thread_lane()); by a sched_getcpu()
 *              call (evrec_posix_cpu_slow()); the lane chosen again for every record;
 *   2 threads: one shared host; 2 lanes picked by CPU, by thread, by sched_getcpu(); one plain
 *              host (and recorder) per thread, the ideal;
 * the 2-thread cases pinned to CPUs 0 and 1 (pthread_setaffinity_np) and unpinned. Each round
 * runs every case once, one after the other; each case's ns per record (a thread's time for its
 * records; the slower thread of two) is divided by the same round's 1-thread plain-host cost,
 * and the table gives the median of those per-round ratios (the machine is shared and noisy).
 *
 *   evrec-bench-lanes [--rounds N] [--records N]
 *
 * Not a test: the numbers depend on the machine. Exit status 0 when it ran, 1 on a failure
 * (a recording came out wrong), 2 on bad usage. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_stats.h"
#include "evrec/evrec_lanes.h"
#include "evrec_posix.h"

typedef struct ev3 {
    uint32_t time;
    uint16_t id;
    uint16_t a;
    uint32_t b;
    uint32_t c;
} ev3_t;

static const evrec_enum_value_t control_values[] = {EVREC_CONTROL_ENUM_VALUES};
static const evrec_enum_desc_t enums[] = {{"EventControlType", EVREC_KIND_ENUM_UINT8, 4, control_values, NULL}};
static const evrec_field_desc_t control_fields[] = {EVREC_CONTROL_FIELDS(0)};
static const evrec_field_desc_t ev3_fields[] = {{"time", EVREC_KIND_UINT32, 0, 0},
                                                {"id", EVREC_KIND_UINT16, 0, 4},
                                                {"a", EVREC_KIND_UINT16, 0, 6},
                                                {"b", EVREC_KIND_UINT32, 0, 8},
                                                {"c", EVREC_KIND_UINT32, 0, 12}};
static const evrec_struct_desc_t structs[] = {{"EventControl", 3, control_fields, 8}, {"Ev3", 5, ev3_fields, 16}};
static const evrec_event_desc_t events[] = {{0, 0}, {1, 1}};
static const evrec_meta_t meta = {0, 1, enums, 2, structs, 2, events, 0, NULL, NULL};

enum pick { PICK_HOST, PICK_CPU, PICK_THREAD, PICK_GETCPU };

/* The record call of generated code for Ev3, on the host the case picks for each record. */
static inline void record(evrec_host_t *h, uint32_t i)
{
    ev3_t *e = (ev3_t *)evrec_reserve(h, sizeof(ev3_t));
    if (e) {
        e->a = (uint16_t)i;
        e->b = i;
        e->c = ~i;
        evrec_commit(e, 1);
    }
}

typedef struct job {
    enum pick pick;
    evrec_host_t *host; /* PICK_HOST */
    evrec_lanes_t *lanes;
    int cpu; /* pin to it, or -1 */
    size_t n;
    pthread_barrier_t *go;
    double ns; /* out: ns for the n records */
} job_t;

static void *run_job(void *arg)
{
    job_t *j = (job_t *)arg;
    if (j->cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(j->cpu, &set);
        (void)pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    }
    if (j->pick == PICK_THREAD) {
        (void)evrec_posix_thread_lane(); /* the first call assigns; not timed */
    }
    if (j->go) {
        pthread_barrier_wait(j->go);
    }
    uint64_t t0 = bench_now_ns();
    uint32_t n = (uint32_t)j->n;
    switch (j->pick) {
    case PICK_HOST:
        for (uint32_t i = 0; i < n; i++) {
            record(j->host, i);
        }
        break;
    case PICK_CPU:
        for (uint32_t i = 0; i < n; i++) {
            record(evrec_lane_host(j->lanes), i);
        }
        break;
    case PICK_THREAD:
        for (uint32_t i = 0; i < n; i++) {
            record(evrec_lane_host_at(j->lanes, evrec_posix_thread_lane()), i);
        }
        break;
    case PICK_GETCPU:
        for (uint32_t i = 0; i < n; i++) {
            record(evrec_lane_host_at(j->lanes, evrec_posix_cpu_slow()), i); /* a sched_getcpu() call */
        }
        break;
    }
    j->ns = (double)(bench_now_ns() - t0);
    return NULL;
}

static size_t records;
static void *buf[2];
static size_t buf_size;
static int failed;

/* Runs `threads` jobs of one case; returns ns per record (the slower thread). The recorders are
 * started before and stopped after (not timed); drops fail the run. */
static double run_case(int threads, enum pick pick, int shared_host, int pinned)
{
    static evrec_host_t hosts[2];
    static evrec_recorder_t recs[2];
    static evrec_lane_t lane_mem[2];
    static evrec_lanes_t lanes;
    job_t j[2];
    pthread_t th[2];
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, (unsigned)threads);
    int nrec = pick == PICK_HOST && !shared_host ? threads : 1;
    for (int k = 0; k < nrec; k++) {
        evrec_recorder_init(&recs[k], buf[k], nrec == 1 && threads == 2 ? buf_size * 2 : buf_size);
        if (pick == PICK_HOST) {
            evrec_host_init(&hosts[k]);
            if (evrec_host_start(&hosts[k], &recs[k], &meta, 0) != EVREC_OK) {
                failed = 1;
            }
        }
    }
    if (pick != PICK_HOST) {
        evrec_lanes_init(&lanes, lane_mem, 2);
        if (evrec_lanes_start(&lanes, &recs[0], &meta, 0) != EVREC_OK) {
            failed = 1;
        }
    }
    for (int k = 0; k < threads; k++) {
        j[k] = (job_t){pick,    &hosts[shared_host ? 0 : k], &lanes, pinned ? k : -1,
                       records, threads > 1 ? &go : NULL,    0};
        pthread_create(&th[k], NULL, run_job, &j[k]);
    }
    double worst = 0;
    for (int k = 0; k < threads; k++) {
        pthread_join(th[k], NULL);
        worst = j[k].ns > worst ? j[k].ns : worst;
    }
    uint64_t dropped = 0;
    if (pick == PICK_HOST) {
        for (int k = 0; k < nrec; k++) {
            evrec_host_stop(&hosts[k], NULL);
            dropped += evrec_recorder_counts(&recs[k]).dropped;
        }
    } else {
        evrec_lanes_stop(&lanes, NULL);
        dropped += evrec_recorder_counts(&recs[0]).dropped;
    }
    if (dropped) {
        fprintf(stderr, "evrec-bench-lanes: %llu records dropped: buffers too small\n",
                (unsigned long long)dropped);
        failed = 1;
    }
    pthread_barrier_destroy(&go);
    return worst / (double)records;
}

typedef struct bcase {
    const char *name;
    int threads;
    enum pick pick;
    int shared;
    int pinned;
} bcase_t;

static const bcase_t cases[] = {
    {"1 thread, plain host (reference)", 1, PICK_HOST, 1, 1},
    {"1 thread, lane by CPU (evrec_lane_host)", 1, PICK_CPU, 0, 1},
    {"1 thread, lane by thread (thread-local)", 1, PICK_THREAD, 0, 1},
    {"1 thread, lane by sched_getcpu() call", 1, PICK_GETCPU, 0, 1},
    {"2 threads pinned, one shared host", 2, PICK_HOST, 1, 1},
    {"2 threads pinned, 2 lanes by CPU", 2, PICK_CPU, 0, 1},
    {"2 threads pinned, 2 lanes by thread", 2, PICK_THREAD, 0, 1},
    {"2 threads pinned, 2 lanes by sched_getcpu()", 2, PICK_GETCPU, 0, 1},
    {"2 threads pinned, one host per thread", 2, PICK_HOST, 0, 1},
    {"2 threads unpinned, one shared host", 2, PICK_HOST, 1, 0},
    {"2 threads unpinned, 2 lanes by CPU", 2, PICK_CPU, 0, 0},
    {"2 threads unpinned, 2 lanes by thread", 2, PICK_THREAD, 0, 0},
    {"2 threads unpinned, one host per thread", 2, PICK_HOST, 0, 0},
};
#define NCASES (sizeof cases / sizeof cases[0])

int main(int argc, char **argv)
{
    unsigned long rounds = 21;
    records = 1000000;
    for (int i = 1; i < argc; i++) {
        char *end = NULL;
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            rounds = strtoul(argv[++i], &end, 10);
        } else if (strcmp(argv[i], "--records") == 0 && i + 1 < argc) {
            records = strtoul(argv[++i], &end, 10);
        } else {
            fprintf(stderr, "usage: evrec-bench-lanes [--rounds N] [--records N]\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
        if (!end || *end || rounds < 1 || rounds > 1001 || records < 1000 || records > 20000000) {
            fprintf(stderr, "evrec-bench-lanes: --rounds 1..1001, --records 1000..20000000\n");
            return 2;
        }
    }
    /* each lane or host gets room for all of its records (2 lanes share buf[0] of twice the size) */
    buf_size = records * sizeof(ev3_t) * 2u + (1u << 16);
    for (int k = 0; k < 2; k++) {
        if (posix_memalign(&buf[k], 64, buf_size * 2) != 0) {
            return 1;
        }
        memset(buf[k], 0, buf_size * 2);
    }
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    double *ratio[NCASES], *ns[NCASES];
    for (size_t c = 0; c < NCASES; c++) {
        ratio[c] = calloc(rounds, sizeof(double));
        ns[c] = calloc(rounds, sizeof(double));
    }
    for (unsigned long r = 0; r < rounds; r++) {
        for (size_t c = 0; c < NCASES; c++) {
            ns[c][r] = run_case(cases[c].threads, cases[c].pick, cases[c].shared, cases[c].pinned && ncpu >= 2);
        }
        for (size_t c = 0; c < NCASES; c++) {
            ratio[c][r] = ns[c][r] / ns[0][r];
        }
    }
    printf("evrec-bench-lanes: %lu rounds of %zu records per thread, %ld CPUs online; medians\n", rounds, records,
           ncpu);
    printf("%-44s %10s %12s %18s\n", "case", "ns/record", "x 1-thread", "ratio q1..q3");
    for (size_t c = 0; c < NCASES; c++) {
        bench_summary_t s = bench_summarize(ns[c], rounds);
        bench_summary_t q = bench_summarize(ratio[c], rounds);
        printf("%-44s %10.2f %12.2f %8.2f..%-8.2f\n", cases[c].name, s.median, q.median, q.q1, q.q3);
    }
    for (size_t c = 0; c < NCASES; c++) {
        free(ratio[c]);
        free(ns[c]);
    }
    free(buf[0]);
    free(buf[1]);
    return failed ? 1 : 0;
}
