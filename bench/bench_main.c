/* SPDX-License-Identifier: Apache-2.0 */
/* evrec-bench: cost of the record path against its floor, two threads against one, and save
 * throughput against memcpy. Prints a table of medians with PASS/MISS against the targets.
 *
 *   evrec-bench [--quick] [--batches N] [--records N] [--save-mib N] [--save-reps N]
 *               [--only record|save|sizes] [--record-size N]
 *
 * Not a test: the numbers depend on the machine. Exit status 0 when the measurements ran (even
 * with a MISS), 1 when something went wrong, 2 on bad usage. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_record.h"
#include "bench_save.h"
#include "bench_sizes.h"
#include "bench_stats.h"
#include "evrec_posix.h"

/* Targets of the record path and of save. */
#define TARGET_INLINE_VS_FLOOR 1.3
#define TARGET_TWO_VS_ONE 3.0
#define TARGET_CYCLIC_VS_ONESHOT 1.1
#define TARGET_SAVE_VS_MEMCPY 0.30
#define TARGET_MIX_VS_MEMCPY 0.20

typedef struct options {
    unsigned batches;
    size_t records;
    size_t save_mib;
    unsigned save_reps;
    unsigned record_size; /* 0: every size in the by-size table, else only this one */
    int only;             /* 0 all, 1 record path only, 2 save only (both tables), 3 save by size only */
} options_t;

static void usage(FILE *to)
{
    fprintf(to, "usage: evrec-bench [--quick] [--batches N] [--records N] [--save-mib N]\n"
                "                   [--save-reps N] [--only record|save|sizes] [--record-size N]\n"
                "Measures the evrec record path and save; prints medians over repeated batches.\n"
                "  -q, --quick        short run for smoke tests (11 batches of 200000 records,\n"
                "                     16 MiB save, 5 repetitions)\n"
                "  -b, --batches N    batches per record measurement, 1..1001 (default 31)\n"
                "  -n, --records N    records per batch, 1000..10000000 (default 1000000)\n"
                "  -m, --save-mib N   trace buffer saved, MiB, 1..1024 (default 64)\n"
                "  -r, --save-reps N  repetitions of each save measurement, 1..101 (default 11)\n"
                "  -o, --only WHAT    run only the record-path measurements, only the save\n"
                "                     measurements (both tables), or only save by record size\n"
                "                     (handy under perf)\n"
                "  -s, --record-size N  by-size table: only N-byte records (a multiple of 4 in\n"
                "                     8..256) and the random mix\n"
                "  -h, --help         this text\n");
}

static int parse_num(const char *opt, const char *s, unsigned long lo, unsigned long hi, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || v < lo || v > hi) {
        fprintf(stderr, "evrec-bench: %s: '%s' is not a number in %lu..%lu\n", opt, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

/* 0: run, 1: --help, -1: bad usage. */
static int parse_args(int argc, char **argv, options_t *o)
{
    static const struct option longs[] = {
        {"quick", no_argument, NULL, 'q'},
        {"batches", required_argument, NULL, 'b'},
        {"records", required_argument, NULL, 'n'},
        {"save-mib", required_argument, NULL, 'm'},
        {"save-reps", required_argument, NULL, 'r'},
        {"only", required_argument, NULL, 'o'},
        {"record-size", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    o->batches = 31;
    o->records = 1000000;
    o->save_mib = 64;
    o->save_reps = 11;
    o->only = 0;
    o->record_size = 0;
    int c;
    unsigned long v;
    while ((c = getopt_long(argc, argv, "qb:n:m:r:o:s:h", longs, NULL)) != -1) {
        switch (c) {
        case 'q':
            o->batches = 11;
            o->records = 200000;
            o->save_mib = 16;
            o->save_reps = 5;
            break;
        case 'b':
            if (parse_num("--batches", optarg, 1, 1001, &v)) return -1;
            o->batches = (unsigned)v;
            break;
        case 'n':
            if (parse_num("--records", optarg, 1000, 10000000, &v)) return -1;
            o->records = v;
            break;
        case 'm':
            if (parse_num("--save-mib", optarg, 1, 1024, &v)) return -1;
            o->save_mib = v;
            break;
        case 'r':
            if (parse_num("--save-reps", optarg, 1, 101, &v)) return -1;
            o->save_reps = (unsigned)v;
            break;
        case 'o':
            if (strcmp(optarg, "record") == 0) {
                o->only = 1;
            } else if (strcmp(optarg, "save") == 0) {
                o->only = 2;
            } else if (strcmp(optarg, "sizes") == 0) {
                o->only = 3;
            } else {
                fprintf(stderr, "evrec-bench: --only: '%s' is not 'record', 'save' or 'sizes'\n", optarg);
                return -1;
            }
            break;
        case 's':
            if (parse_num("--record-size", optarg, 8, EVREC_MAX_EVENT_SIZE, &v) || v % 4u) {
                if (v % 4u) {
                    fprintf(stderr, "evrec-bench: --record-size: a multiple of 4 in 8..%u\n",
                            EVREC_MAX_EVENT_SIZE);
                }
                return -1;
            }
            o->record_size = (unsigned)v;
            break;
        case 'h': usage(stdout); return 1;
        default: fprintf(stderr, "Try 'evrec-bench --help'.\n"); return -1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "evrec-bench: unexpected argument '%s'; try 'evrec-bench --help'.\n", argv[optind]);
        return -1;
    }
    return 0;
}

static const char *verdict(int pass)
{
    return pass ? "PASS" : "MISS";
}

/* The record measurements, interleaved batch by batch so that a slow spell of the machine hits
 * every kind alike. Returns 0 or -1. */
enum {
    K_FLOOR,
    K_INLINE,
    K_TWO_FLOOR,
    K_TWO,
    K_GENERIC,
    K_CYCLIC,
    K_INLINE_RATIO,
    K_TWO_RATIO,
    K_TWO_FLOOR_RATIO,
    K_GENERIC_RATIO,
    K_TWO_VS_FLOOR2_RATIO,
    K_CYCLIC_RATIO,
    K_COUNT
};

static int run_records(const options_t *o, uint64_t freq, bench_summary_t out[K_COUNT])
{
    static bench_record_ctx_t ctx;
    if (bench_record_init(&ctx, o->records, freq) != 0) {
        fprintf(stderr, "evrec-bench: cannot allocate the trace buffer or start a thread\n");
        return -1;
    }
    double *v[K_COUNT];
    for (int k = 0; k < K_COUNT; k++) {
        v[k] = calloc(o->batches, sizeof(double));
    }
    int rc = 0;
    for (int k = 0; k < K_COUNT; k++) {
        rc |= v[k] == NULL;
    }
    /* One unmeasured round to warm up caches, the branch predictors and the CPU clock. */
    (void)bench_floor_batch(&ctx);
    (void)bench_inline_batch(&ctx);
    for (unsigned b = 0; b < o->batches && rc == 0; b++) {
        v[K_FLOOR][b] = bench_floor_batch(&ctx);
        v[K_INLINE][b] = bench_inline_batch(&ctx);
        v[K_TWO_FLOOR][b] = bench_two_thread_floor_batch(&ctx);
        v[K_TWO][b] = bench_two_thread_batch(&ctx);
        v[K_GENERIC][b] = bench_generic_batch(&ctx);
        v[K_CYCLIC][b] = bench_cyclic_batch(&ctx);
        v[K_CYCLIC_RATIO][b] = v[K_CYCLIC][b] / v[K_INLINE][b];
        v[K_INLINE_RATIO][b] = v[K_INLINE][b] / v[K_FLOOR][b];
        v[K_TWO_RATIO][b] = v[K_TWO][b] / v[K_INLINE][b];
        v[K_TWO_FLOOR_RATIO][b] = v[K_TWO_FLOOR][b] / v[K_FLOOR][b];
        v[K_GENERIC_RATIO][b] = v[K_GENERIC][b] / v[K_FLOOR][b];
        v[K_TWO_VS_FLOOR2_RATIO][b] = v[K_TWO][b] / v[K_TWO_FLOOR][b];
        for (int k = 0; k < K_INLINE_RATIO; k++) {
            if (v[k][b] < 0) {
                fprintf(stderr, "evrec-bench: %s\n", ctx.error ? ctx.error : "a batch failed");
                rc = -1;
            }
        }
    }
    if (rc == 0) {
        for (int k = 0; k < K_COUNT; k++) {
            out[k] = bench_summarize(v[k], o->batches);
        }
    }
    for (int k = 0; k < K_COUNT; k++) {
        free(v[k]);
    }
    bench_record_free(&ctx);
    return rc;
}

enum { S_MEMCPY, S_SAVE, S_BARE, S_MIX_SAVE, S_SAVE_RATIO, S_BARE_RATIO, S_MIX_RATIO, S_COUNT };

/* The save measurements: memcpy, container and bare save of the uniform buffer, container save
 * of the mixed buffer, interleaved; ratios to memcpy are taken per repetition (paired). */
static int run_save(const options_t *o, uint64_t freq, bench_summary_t out[S_COUNT], size_t *used,
                    size_t *file_bytes)
{
    static bench_save_ctx_t uni, mix;
    if (bench_save_init(&uni, o->save_mib << 20, freq, 0) != 0) {
        return -1;
    }
    if (bench_save_init(&mix, o->save_mib << 20, freq, 1) != 0) {
        bench_save_free(&uni);
        return -1;
    }
    double *v[S_COUNT];
    int rc = 0;
    for (int k = 0; k < S_COUNT; k++) {
        v[k] = calloc(o->save_reps, sizeof(double));
        rc |= v[k] == NULL;
    }
    (void)bench_save_batch(&uni, 0); /* warm-up */
    for (unsigned r = 0; r < o->save_reps && rc == 0; r++) {
        double cp = bench_memcpy_batch(&uni);
        v[S_MEMCPY][r] = cp;
        v[S_BARE][r] = bench_save_batch(&uni, 1);
        v[S_SAVE][r] = bench_save_batch(&uni, 0);
        v[S_MIX_SAVE][r] = bench_save_batch(&mix, 0);
        rc = v[S_SAVE][r] < 0 || v[S_BARE][r] < 0 || v[S_MIX_SAVE][r] < 0 ? -1 : 0;
        v[S_SAVE_RATIO][r] = v[S_SAVE][r] / cp;
        v[S_BARE_RATIO][r] = v[S_BARE][r] / cp;
        v[S_MIX_RATIO][r] = v[S_MIX_SAVE][r] / cp;
    }
    if (rc == 0) {
        for (int k = 0; k < S_COUNT; k++) {
            out[k] = bench_summarize(v[k], o->save_reps);
        }
    }
    *used = evrec_recorder_counts(&uni.rec).used;
    *file_bytes = uni.out_len;
    for (int k = 0; k < S_COUNT; k++) {
        free(v[k]);
    }
    bench_save_free(&uni);
    bench_save_free(&mix);
    return rc;
}

static void row_ns(const char *name, const bench_summary_t *s)
{
    printf("  %-42s %8.2f  [%6.2f .. %6.2f]", name, s->median, s->q1, s->q3);
}

static void row_mbs(const char *name, const bench_summary_t *s)
{
    printf("  %-42s %8.0f  [%6.0f .. %6.0f]", name, s->median, s->q1, s->q3);
}

/* Measure and print the record-path table. */
static int report_records(const options_t *o, uint64_t freq)
{
    bench_summary_t r[K_COUNT];
    if (run_records(o, freq, r) != 0) {
        return -1;
    }
    /* Ratios are medians of per-batch ratios: batch b of every kind ran back to back. */
    double inline_ratio = r[K_INLINE_RATIO].median;
    double two_ratio = r[K_TWO_RATIO].median;
    double generic_ratio = r[K_GENERIC_RATIO].median;
    printf("  %-42s %8s  %-18s %-22s %s\n", "record path", "ns/rec", "[q1 .. q3]", "ratio", "target");
    row_ns("floor: timestamp + fetch-add + 3 stores", &r[K_FLOOR]);
    printf("\n");
    row_ns("inline reserve/commit, 1 thread", &r[K_INLINE]);
    printf("  %5.2fx floor           <= %.1fx  %s\n", inline_ratio, TARGET_INLINE_VS_FLOOR,
           verdict(inline_ratio <= TARGET_INLINE_VS_FLOOR));
    row_ns("floor, 2 threads on one offset (each)", &r[K_TWO_FLOOR]);
    printf("  %5.2fx floor\n", r[K_TWO_FLOOR_RATIO].median);
    row_ns("inline reserve/commit, 2 threads (each)", &r[K_TWO]);
    printf("  %5.2fx 1 thread        <= %.1fx  %s\n", two_ratio, TARGET_TWO_VS_ONE,
           verdict(two_ratio <= TARGET_TWO_VS_ONE));
    printf("  %-42s %8s  %-18s   %5.2fx 2-thread floor\n", "", "", "", r[K_TWO_VS_FLOOR2_RATIO].median);
    row_ns("generic evrec_record(), 1 thread", &r[K_GENERIC]);
    printf("  %5.2fx floor\n", generic_ratio);
    row_ns("cyclic 1 KiB blocks, wrapping, 1 thread", &r[K_CYCLIC]);
    printf("  %5.2fx one-shot        <= %.1fx  %s\n", r[K_CYCLIC_RATIO].median, TARGET_CYCLIC_VS_ONESHOT,
           verdict(r[K_CYCLIC_RATIO].median <= TARGET_CYCLIC_VS_ONESHOT));
    printf("  %-42s %8s  %-18s   %5.2fx one-shot, best batch (a loaded machine)\n", "", "", "",
           r[K_CYCLIC_RATIO].min);
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
        printf("  (one CPU online: the two threads take turns instead of running at once)\n");
    }
    return 0;
}

/* Measure and print the save table. */
static int report_save(const options_t *o, uint64_t freq)
{
    bench_summary_t s[S_COUNT];
    size_t used = 0, file_bytes = 0;
    if (run_save(o, freq, s, &used, &file_bytes) != 0) {
        return -1;
    }
    double save_ratio = s[S_SAVE_RATIO].median;
    printf("\n  %-42s %8s  %-18s %-22s %s\n", "save of a full trace buffer", "MB/s", "[q1 .. q3]", "ratio",
           "target");
    char name[64];
    snprintf(name, sizeof name, "memcpy of the same %zu MiB", o->save_mib);
    row_mbs(name, &s[S_MEMCPY]);
    printf("\n");
    row_mbs("evrec_save (container, CRC-32C)", &s[S_SAVE]);
    printf("  %5.1f%% of memcpy       >= %.0f%%   %s\n", save_ratio * 100.0, TARGET_SAVE_VS_MEMCPY * 100.0,
           verdict(save_ratio >= TARGET_SAVE_VS_MEMCPY));
    row_mbs("bare CCore stream (evrec_save_ex)", &s[S_BARE]);
    printf("  %5.1f%% of memcpy\n", s[S_BARE_RATIO].median * 100.0);
    row_mbs("evrec_save, mixed 16/8-byte records", &s[S_MIX_SAVE]);
    printf("  %5.1f%% of memcpy\n", s[S_MIX_RATIO].median * 100.0);
    printf("\n  (%u repetitions; %zu trace bytes -> %zu file bytes; MB = 10^6 bytes of trace)\n", o->save_reps,
           used, file_bytes);
    return 0;
}

int main(int argc, char **argv)
{
    options_t o;
    int pr = parse_args(argc, argv, &o);
    if (pr != 0) {
        return pr > 0 ? 0 : 2;
    }
    uint64_t freq = evrec_posix_time_freq(0);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    printf("evrec-bench: %u batches of %zu records (16-byte BenchEvent: u32, u16, u8); medians\n"
           "and quartiles over batches, ratios are medians of per-batch ratios; timestamp\n"
           "EVREC_PORT_TIMESTAMP() at %.3f MHz; %ld CPUs online\n\n",
           o.batches, o.records, (double)freq / 1e6, cpus);

    if ((o.only == 0 || o.only == 1) && report_records(&o, freq) != 0) {
        return 1;
    }
    if ((o.only == 0 || o.only == 2) && report_save(&o, freq) != 0) {
        return 1;
    }
    if (o.only != 1 && bench_sizes_report(o.save_mib, o.save_reps, o.record_size, freq, TARGET_SAVE_VS_MEMCPY,
                                          TARGET_MIX_VS_MEMCPY) != 0) {
        return 1;
    }
    return 0;
}
