/* SPDX-License-Identifier: Apache-2.0 */
/* evrec-bench-peers: evrec against other recorders, in one process (bench/peers/README.md).
 *
 *   evrec-bench-peers record [--quick] [--records N] [--rounds R] [--require-all]
 *   evrec-bench-peers traces DIR N       write DIR/evrec.evr and DIR/ctf/ (barectf) of N events
 *   evrec-bench-peers read FILE [REPS]   reader-API throughput on an evrec file
 *   evrec-bench-peers save [--quick]     evrec_save of a full buffer against memcpy
 *   evrec-bench-peers time REPS CMD...   median CPU time of a command (stdout discarded)
 *
 * Prints Markdown tables (scripts/bench-peers.sh puts them into bench/peers/BENCHMARKS.md).
 * Exit status: 0 ran, 1 something failed (or --require-all and a contender was left out),
 * 2 bad usage. */
#define _GNU_SOURCE /* pthread_setaffinity_np, CPU_SET */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_events.h"
#include "bench_save.h"
#include "bench_sizes.h"
#include "bench_stats.h"
#include "evrec/evrec_reader.h"
#include "evrec_posix.h"
#include "evrec_save_file.h"
#include "peers.h"
#include "peers_traces.h"

uint64_t peers_now_ns(void)
{
    return bench_now_ns();
}

uint64_t peers_time_freq(void)
{
    return EVREC_PORT_TIME_FREQ();
}

/* ------------------------------------------------------------------------------------------ */
/* The harness: two worker threads, each timing its own loop; the main thread only steers. */

/* Measurement configurations: threads x pinning. */
enum { CFG_1_PIN, CFG_1_FREE, CFG_2_PIN, CFG_2_FREE, CFG_COUNT };
static const int cfg_threads[CFG_COUNT] = {1, 1, 2, 2};
static const int cfg_pinned[CFG_COUNT] = {1, 0, 1, 0};

typedef struct worker {
    pthread_t thread;
    int index;
    uint64_t ns;   /* the last run's CPU time */
    uint64_t wall; /* the last run's wall time */
    char pad[64];
} worker_t;

static worker_t workers[PEERS_MAX_THREADS];
static pthread_barrier_t go, done;
static const peer_contender_t *job;
static size_t job_n;
static int job_threads;
static int quit;
static _Atomic int arrived; /* workers at the start line of the current run */

/* CPU time of the calling thread, ns: a run is timed by the CPU time of its thread, so that the
 * time the thread spends descheduled on a shared machine does not count. */
static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    for (;;) {
        pthread_barrier_wait(&go);
        if (quit) {
            break;
        }
        if (w->index < job_threads) {
            /* Both threads leave the start line together (a barrier wakes them up to tens of
             * microseconds apart): the two-thread runs overlap. */
            atomic_fetch_add_explicit(&arrived, 1, memory_order_acq_rel);
            while (atomic_load_explicit(&arrived, memory_order_acquire) < job_threads) {
            }
            uint64_t w0 = peers_now_ns(), t0 = thread_cpu_ns();
            job->run(w->index, job_n);
            w->ns = thread_cpu_ns() - t0;
            w->wall = peers_now_ns() - w0;
        }
        pthread_barrier_wait(&done);
    }
    return NULL;
}

static cpu_set_t all_cpus;
static int cpus_online;

/* Pin worker i to the i-th CPU the process may use, or let every worker run anywhere. */
static int set_affinity(int pinned)
{
    int cpu_list[CPU_SETSIZE], k = 0;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (CPU_ISSET(c, &all_cpus)) {
            cpu_list[k++] = c;
        }
    }
    for (int i = 0; i < PEERS_MAX_THREADS; i++) {
        cpu_set_t s;
        if (pinned) {
            CPU_ZERO(&s);
            CPU_SET(cpu_list[i % k], &s);
        } else {
            s = all_cpus;
        }
        int e = pthread_setaffinity_np(workers[i].thread, sizeof s, &s);
        if (e != 0) {
            fprintf(stderr, "evrec-bench-peers: pthread_setaffinity_np: %s\n", strerror(e));
            return -1;
        }
    }
    return 0;
}

/* The smallest share of its wall time that a thread of the last measurement spent on a CPU. */
static double last_on_cpu;

/* One measurement: prepare, run on `threads` workers at once, check. Returns the mean over the
 * threads of ns per record, or -1 (message printed). */
static double measure(const peer_contender_t *c, size_t n, int threads)
{
    if (c->prepare && c->prepare(n, threads) != 0) {
        fprintf(stderr, "evrec-bench-peers: %s: cannot prepare the run\n", c->key);
        return -1;
    }
    job = c;
    job_n = n;
    job_threads = threads;
    atomic_store_explicit(&arrived, 0, memory_order_relaxed);
    pthread_barrier_wait(&go);
    pthread_barrier_wait(&done);
    const char *why = "";
    if (c->check && c->check(n, threads, &why) != 0) {
        fprintf(stderr, "evrec-bench-peers: %s: %s\n", c->key, why);
        return -1;
    }
    double sum = 0;
    last_on_cpu = 1.0;
    for (int t = 0; t < threads; t++) {
        sum += (double)workers[t].ns / (double)n;
        double share = workers[t].wall ? (double)workers[t].ns / (double)workers[t].wall : 1.0;
        last_on_cpu = share < last_on_cpu ? share : last_on_cpu;
    }
    return sum / threads;
}

typedef struct record_opts {
    size_t records;
    unsigned rounds;
    int require_all;
} record_opts_t;

static int parse_size(const char *opt, const char *s, unsigned long lo, unsigned long hi, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || v < lo || v > hi) {
        fprintf(stderr, "evrec-bench-peers: %s: '%s' is not a number in %lu..%lu\n", opt, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static void cell(const bench_summary_t *ns, const bench_summary_t *ratio, int is_floor)
{
    if (is_floor) {
        printf(" %.2f ns |", ns->median);
    } else {
        printf(" %.2f ns (%.2fx) |", ns->median, ratio->median);
    }
}

static int cmd_record(int argc, char **argv)
{
    record_opts_t o = {500000, 31, 0};
    for (int i = 0; i < argc; i++) {
        unsigned long v;
        if (strcmp(argv[i], "--quick") == 0) {
            o.records = 20000;
            o.rounds = 3;
        } else if (strcmp(argv[i], "--records") == 0 && i + 1 < argc) {
            if (parse_size("--records", argv[++i], 1000, 5000000, &v)) return 2;
            o.records = v;
        } else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            if (parse_size("--rounds", argv[++i], 1, 1001, &v)) return 2;
            o.rounds = (unsigned)v;
        } else if (strcmp(argv[i], "--require-all") == 0) {
            o.require_all = 1;
        } else {
            fprintf(stderr, "evrec-bench-peers record: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (sched_getaffinity(0, sizeof all_cpus, &all_cpus) != 0) {
        perror("evrec-bench-peers: sched_getaffinity");
        return 1;
    }
    cpus_online = CPU_COUNT(&all_cpus);
    (void)peers_time_freq(); /* calibrate before anything is timed */

    /* Set every contender up; those that cannot run are reported and left out. */
    const peer_contender_t *act[32];
    int nact = 0, left_out = 0;
    for (int i = 0; peers_contenders[i] && nact < 32; i++) {
        const peer_contender_t *c = peers_contenders[i];
        const char *why = "";
        if (c->setup && c->setup(o.records, &why) != 0) {
            fprintf(stderr, "evrec-bench-peers: %s left out: %s\n", c->key, why);
            printf("<!-- not run: %s: %s -->\n", c->key, why);
            left_out++;
            continue;
        }
        act[nact++] = c;
    }
    if (nact == 0 || act[0] != peers_contenders[0]) {
        fprintf(stderr, "evrec-bench-peers: the floor cannot run\n");
        return 1;
    }

    pthread_barrier_init(&go, NULL, PEERS_MAX_THREADS + 1);
    pthread_barrier_init(&done, NULL, PEERS_MAX_THREADS + 1);
    for (int i = 0; i < PEERS_MAX_THREADS; i++) {
        workers[i].index = i;
        if (pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]) != 0) {
            fprintf(stderr, "evrec-bench-peers: cannot start a thread\n");
            return 1;
        }
    }

    size_t per = o.rounds;
    double *ns = calloc((size_t)nact * CFG_COUNT * per, sizeof(double));
    double *ratio = calloc((size_t)nact * CFG_COUNT * per, sizeof(double));
    double *oncpu = calloc((size_t)nact * CFG_COUNT * per, sizeof(double));
    int rc = ns && ratio && oncpu ? 0 : 1;
#define AT(a, c, k, r) (a)[((size_t)(c)*CFG_COUNT + (size_t)(k)) * per + (r)]
    /* Round 0 is a warm-up (caches, page faults, CPU clocks) and not kept. Within a round every
     * configuration runs every contender once, the order rotated from round to round. */
    for (unsigned r = 0; r <= o.rounds && rc == 0; r++) {
        for (int k = 0; k < CFG_COUNT && rc == 0; k++) {
            if (set_affinity(cfg_pinned[k]) != 0) {
                rc = 1;
                break;
            }
            for (int j = 0; j < nact && rc == 0; j++) {
                int c = (int)((j + r) % (unsigned)nact);
                double v = measure(act[c], o.records, cfg_threads[k]);
                if (v < 0) {
                    rc = 1;
                } else if (r > 0) {
                    AT(ns, c, k, r - 1) = v;
                    AT(oncpu, c, k, r - 1) = last_on_cpu;
                }
            }
        }
    }
    quit = 1;
    pthread_barrier_wait(&go);
    for (int i = 0; i < PEERS_MAX_THREADS; i++) {
        pthread_join(workers[i].thread, NULL);
    }

    if (rc == 0) {
        for (int c = 0; c < nact; c++) {
            for (int k = 0; k < CFG_COUNT; k++) {
                for (size_t r = 0; r < per; r++) {
                    AT(ratio, c, k, r) = AT(ns, c, k, r) / AT(ns, 0, k, r);
                }
            }
        }
        printf("| contender | 1 thread, pinned | 1 thread, unpinned | 2 threads on 2 cores, pinned (each) "
               "| 2 threads, unpinned (each) |\n");
        printf("|---|---:|---:|---:|---:|\n");
        for (int c = 0; c < nact; c++) {
            printf("| %s |", act[c]->name);
            for (int k = 0; k < CFG_COUNT; k++) {
                bench_summary_t s = bench_summarize(&AT(ns, c, k, 0), per);
                bench_summary_t q = bench_summarize(&AT(ratio, c, k, 0), per);
                cell(&s, &q, c == 0);
            }
            printf("\n");
        }
        printf(
            "\n%u rounds of %zu records per thread; ns per record (CPU time of the recording thread): median over "
            "rounds; (Nx): median over rounds of the round's ratio to the floor of the same configuration; "
            "%d CPUs usable%s.\n",
            o.rounds, o.records, cpus_online,
            cpus_online < 2 ? " (one CPU: the two threads take turns instead of running at once)" : "");
        /* How much of the time both threads really ran at once: a loaded machine runs them in
         * turns, which hides the cost of sharing. */
        bench_summary_t sh[CFG_COUNT];
        for (int k = 0; k < CFG_COUNT; k++) {
            sh[k] = bench_summarize(&AT(oncpu, 0, k, 0), per * (size_t)nact);
        }
        printf("\nShare of its wall time a thread was on a CPU (median over all runs, the smaller of the two "
               "threads): 1 thread %.0f%% / %.0f%%, 2 threads %.0f%% pinned / %.0f%% unpinned; well below 100%% "
               "the two threads ran in turns part of the time and the two-thread figures understate the cost of "
               "sharing.\n",
               sh[CFG_1_PIN].median * 100.0, sh[CFG_1_FREE].median * 100.0, sh[CFG_2_PIN].median * 100.0,
               sh[CFG_2_FREE].median * 100.0);
        printf("\n<!-- bytes -->\n");
        for (int c = 0; c < nact; c++) {
            double b = act[c]->bytes_per_record ? act[c]->bytes_per_record() : 0.0;
            if (b > 0) {
                printf("bytes %s %.2f\n", act[c]->key, b);
            }
        }
        if (peers_qs_frame_bytes() > 0) {
            printf("bytes qs-frame %.2f\n", peers_qs_frame_bytes());
        }
        printf("ran:");
        for (int c = 0; c < nact; c++) {
            printf(" %s", act[c]->key);
        }
        printf("\n");
    }
#undef AT
    for (int c = 0; c < nact; c++) {
        if (act[c]->teardown) {
            act[c]->teardown();
        }
    }
    free(ns);
    free(ratio);
    free(oncpu);
    pthread_barrier_destroy(&go);
    pthread_barrier_destroy(&done);
    if (rc == 0 && o.require_all && left_out) {
        fprintf(stderr, "evrec-bench-peers: %d contender(s) left out (--require-all)\n", left_out);
        rc = 1;
    }
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Equivalent traces, reader throughput, save. */

int peers_write_file(const char *dir, const char *name, const void *data, size_t len)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) {
        fprintf(stderr, "evrec-bench-peers: path too long\n");
        return -1;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "evrec-bench-peers: cannot create %s: %s\n", path, strerror(errno));
        return -1;
    }
    int bad = fwrite(data, 1, len, f) != len;
    bad |= fclose(f) != 0;
    if (bad) {
        fprintf(stderr, "evrec-bench-peers: writing %s failed\n", path);
        return -1;
    }
    return 0;
}

static unsigned char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "evrec-bench-peers: cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    unsigned char *data = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2u : 1u << 20;
            unsigned char *p = realloc(data, cap);
            if (!p) {
                free(data);
                fclose(f);
                fprintf(stderr, "evrec-bench-peers: out of memory reading %s\n", path);
                return NULL;
            }
            data = p;
        }
        size_t got = fread(data + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            break;
        }
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(data);
        fprintf(stderr, "evrec-bench-peers: cannot read %s\n", path);
        return NULL;
    }
    *len = n;
    return data;
}

int peers_copy_file(const char *src, const char *dir, const char *name)
{
    size_t len = 0;
    unsigned char *data = read_whole(src, &len);
    if (!data) {
        return -1;
    }
    int rc = peers_write_file(dir, name, data, len);
    free(data);
    return rc;
}

/* DIR/evrec.evr: `n` BenchEvents recorded by the one-shot path, saved with evrec_save_path(). */
static int write_evrec(const char *dir, size_t n)
{
    size_t size = EVREC_BUF_HEADER_SIZE + n * sizeof(bench_event_t) + 2u * EVREC_CONTROL_SLOT;
    uint8_t *buf = aligned_alloc(64, (size + 63u) & ~(size_t)63u);
    static evrec_host_t host;
    static evrec_recorder_t rec;
    if (!buf) {
        fprintf(stderr, "evrec-bench-peers: out of memory\n");
        return -1;
    }
    evrec_host_init(&host);
    evrec_recorder_t *stopped = NULL;
    int rc = -1;
    if (evrec_recorder_init(&rec, buf, size) == EVREC_OK &&
        evrec_host_start(&host, &rec, &bench_meta, peers_time_freq()) == EVREC_OK) {
        for (size_t i = 0; i < n; i++) {
            bench_record(&host, (uint32_t)i, (uint16_t)i, (uint8_t)i);
        }
        if (evrec_host_stop(&host, &stopped) == EVREC_OK && evrec_recorder_counts(stopped).dropped == 0) {
            char path[4096];
            snprintf(path, sizeof path, "%s/evrec.evr", dir);
            evrec_status st = evrec_save_path(stopped, path);
            if (st == EVREC_OK) {
                rc = 0;
            } else {
                fprintf(stderr, "evrec-bench-peers: saving %s: %s\n", path, evrec_strerror(st));
            }
        }
    }
    if (rc != 0) {
        fprintf(stderr, "evrec-bench-peers: recording the evrec trace failed\n");
    }
    free(buf);
    return rc;
}

static int cmd_traces(int argc, char **argv)
{
    unsigned long n;
    if (argc != 2 || parse_size("N", argv[1], 1, 50000000, &n)) {
        fprintf(stderr, "usage: evrec-bench-peers traces DIR N\n");
        return 2;
    }
    const char *dir = argv[0];
    char ctf[4096];
    snprintf(ctf, sizeof ctf, "%s/ctf", dir);
    if (mkdir(ctf, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "evrec-bench-peers: cannot create %s: %s\n", ctf, strerror(errno));
        return 1;
    }
    if (write_evrec(dir, n) != 0) {
        return 1;
    }
#ifdef PEERS_HAVE_BARECTF
    if (peers_barectf_write_ctf(ctf, n, PEERS_BARECTF_METADATA) != 0) {
        return 1;
    }
#else
    fprintf(stderr, "evrec-bench-peers: built without barectf: no CTF trace\n");
#endif
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Records per second of evrec_reader_next() over the whole file held in memory (CPU time of
 * the thread, median of REPS). */
static int cmd_read(int argc, char **argv)
{
    unsigned long reps = 5;
    if (argc < 1 || argc > 2 || (argc == 2 && parse_size("REPS", argv[1], 1, 101, &reps))) {
        fprintf(stderr, "usage: evrec-bench-peers read FILE [REPS]\n");
        return 2;
    }
    size_t len = 0;
    unsigned char *data = read_whole(argv[0], &len);
    if (!data) {
        return 1;
    }
    double rate[101];
    uint64_t records = 0, sum = 0;
    for (unsigned long r = 0; r < reps; r++) {
        evrec_reader_t *rd = NULL;
        uint64_t t0 = thread_cpu_ns();
        if (evrec_reader_open_memory(&rd, data, len, NULL) != EVREC_OK) {
            fprintf(stderr, "evrec-bench-peers: %s: %s\n", argv[0],
                    rd ? evrec_reader_error(rd)->message : "cannot open");
            evrec_reader_close(rd);
            free(data);
            return 1;
        }
        evrec_record_t rec;
        uint64_t n = 0;
        while (evrec_reader_next(rd, &rec) == EVREC_OK) {
            n++;
            sum += rec.t64;
        }
        uint64_t dt = thread_cpu_ns() - t0;
        evrec_reader_close(rd);
        rate[r] = (double)n / ((double)dt / 1e9);
        records = n;
    }
    qsort(rate, reps, sizeof rate[0], cmp_double);
    printf("read %llu records %.0f records/s (checksum %llu)\n", (unsigned long long)records, rate[reps / 2],
           (unsigned long long)sum);
    free(data);
    return 0;
}

/* evrec_save() of a full buffer of BenchEvents into memory against memcpy of the same bytes
 * (bench/bench_save.c), interleaved; ratio per repetition. */
/* The by-size table (bench_sizes.h): a buffer of each native record size 8..EVREC_MAX_EVENT_SIZE
 * (every multiple of 4; --quick: five of them), then all sizes in random order; prints some
 * sizes, the slowest of all and the mix. */
static int save_by_size(size_t mib, unsigned reps, int quick)
{
    static const uint32_t shown[] = {8, 12, 16, 20, 24, 32, 48, 64, 128, EVREC_MAX_EVENT_SIZE};
    bench_sizes_ctx_t *c = bench_sizes_open(mib);
    if (!c) {
        return 1;
    }
    printf("\n| %zu MiB trace buffer of one record size, into memory | MB/s (median) | of memcpy |\n", mib);
    printf("|---|---:|---:|\n");
    bench_sizes_row_t worst = {0}, row;
    unsigned measured = 0;
    int rc = 0;
    for (uint32_t k = 1; k <= BENCH_SIZE_COUNT && rc == 0; k++) {
        uint32_t native = 4u + 4u * k;
        int show = 0;
        for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
            show |= shown[i] == native;
        }
        if (quick && native != 8u && native != 12u && native != 16u && native != 64u &&
            native != EVREC_MAX_EVENT_SIZE) {
            continue;
        }
        if (bench_sizes_measure(c, k, reps, peers_time_freq(), &row) != 0) {
            rc = 1;
            break;
        }
        measured++;
        if (measured == 1 || row.ratio < worst.ratio) {
            worst = row;
        }
        if (show) {
            printf("| %u-byte records (%u bytes saved) | %.0f | %.1f%% |\n", (unsigned)row.native,
                   (unsigned)row.packed, row.mbs, row.ratio * 100.0);
        }
    }
    if (rc == 0 && bench_sizes_measure(c, 0, reps, peers_time_freq(), &row) != 0) {
        rc = 1;
    }
    if (rc == 0) {
        printf("| random mix of all %u sizes | %.0f | %.1f%% |\n", (unsigned)BENCH_SIZE_COUNT, row.mbs,
               row.ratio * 100.0);
        printf("\nSlowest of the %u sizes measured: %u-byte records at %.1f%% of memcpy. %u repetitions "
               "each, interleaved with a memcpy of the same bytes; thread CPU time; one event type per "
               "buffer (a burst of one event converts in save's run loop), fields u8/u16/u32 in a fixed "
               "mix.\n",
               measured, (unsigned)worst.native, worst.ratio * 100.0, reps);
    }
    bench_sizes_close(c);
    return rc;
}

static int cmd_save(int argc, char **argv)
{
    size_t mib = 64;
    unsigned reps = 11;
    int quick = 0;
    if (argc == 1 && strcmp(argv[0], "--quick") == 0) {
        mib = 8;
        reps = 3;
        quick = 1;
    } else if (argc != 0) {
        fprintf(stderr, "usage: evrec-bench-peers save [--quick]\n");
        return 2;
    }
    /* Two buffers: 16-byte records only, and 16-byte records and 8-byte Ticks in random order
     * (no runs of one type: save's slowest case per byte). */
    static bench_save_ctx_t s[2];
    static const char *const what[2] = {"evrec_save (container, CRC-32C)",
                                        "evrec_save, 16-byte records and 8-byte Ticks in random order"};
    double sv_med[2], ratio_med[2], cp_med = 0;
    size_t used = 0, out_len = 0;
    for (int mixed = 0; mixed < 2; mixed++) {
        if (bench_save_init(&s[mixed], mib << 20, peers_time_freq(), mixed) != 0) {
            return 1;
        }
        double cp[101], sv[101], ratio[101];
        (void)bench_save_batch(&s[mixed], 0); /* warm-up */
        for (unsigned r = 0; r < reps; r++) {
            cp[r] = bench_memcpy_batch(&s[mixed]);
            sv[r] = bench_save_batch(&s[mixed], 0);
            if (sv[r] < 0) {
                bench_save_free(&s[mixed]);
                return 1;
            }
            ratio[r] = sv[r] / cp[r];
        }
        sv_med[mixed] = bench_summarize(sv, reps).median;
        ratio_med[mixed] = bench_summarize(ratio, reps).median;
        if (!mixed) {
            cp_med = bench_summarize(cp, reps).median;
            used = (size_t)evrec_recorder_counts(&s[0].rec).used;
            out_len = s[0].out_len;
        }
        bench_save_free(&s[mixed]);
    }
    printf("| %zu MiB trace buffer of 16-byte records, into memory | MB/s (median) | of memcpy |\n", mib);
    printf("|---|---:|---:|\n");
    printf("| memcpy of the same bytes | %.0f | 100%% |\n", cp_med);
    for (int i = 0; i < 2; i++) {
        printf("| %s | %.0f | %.1f%% |\n", what[i], sv_med[i], ratio_med[i] * 100.0);
    }
    printf("\n%u repetitions, interleaved; %zu trace bytes -> %zu file bytes; MB = 10^6 bytes of trace buffer; "
           "the percentage is the median of the per-repetition ratios.\n",
           reps, used, out_len);
    return save_by_size(mib, reps, quick);
}

/* Run CMD... REPS times with its stdout on /dev/null; print the median CPU time (user + system,
 * of the command and its children) in seconds. Exit status 1 when a run fails. */
static int cmd_time(int argc, char **argv)
{
    unsigned long reps;
    if (argc < 2 || parse_size("REPS", argv[0], 1, 101, &reps)) {
        fprintf(stderr, "usage: evrec-bench-peers time REPS CMD [ARG...]\n");
        return 2;
    }
    double t[101];
    for (unsigned long r = 0; r < reps; r++) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            perror("evrec-bench-peers: fork");
            return 1;
        }
        if (pid == 0) {
            int fd = open("/dev/null", O_WRONLY);
            if (fd < 0 || dup2(fd, 1) < 0) {
                _exit(127);
            }
            close(fd);
            execvp(argv[1], argv + 1);
            _exit(127);
        }
        int status = 0;
        struct rusage ru;
        if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "evrec-bench-peers: '%s' failed\n", argv[1]);
            return 1;
        }
        t[r] = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
               (double)ru.ru_stime.tv_usec / 1e6;
    }
    qsort(t, reps, sizeof t[0], cmp_double);
    printf("%.6f\n", t[reps / 2]);
    return 0;
}

static void usage(FILE *to)
{
    fprintf(to, "usage: evrec-bench-peers record [--quick] [--records N] [--rounds R] [--require-all]\n"
                "       evrec-bench-peers traces DIR N\n"
                "       evrec-bench-peers read FILE [REPS]\n"
                "       evrec-bench-peers save [--quick]\n"
                "       evrec-bench-peers time REPS CMD [ARG...]\n"
                "Run by scripts/bench-peers.sh; see bench/peers/README.md.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "record") == 0) {
        return cmd_record(argc - 2, argv + 2);
    }
    if (strcmp(argv[1], "traces") == 0) {
        return cmd_traces(argc - 2, argv + 2);
    }
    if (strcmp(argv[1], "read") == 0) {
        return cmd_read(argc - 2, argv + 2);
    }
    if (strcmp(argv[1], "save") == 0) {
        return cmd_save(argc - 2, argv + 2);
    }
    if (strcmp(argv[1], "time") == 0) {
        return cmd_time(argc - 2, argv + 2);
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    usage(stderr);
    return 2;
}
