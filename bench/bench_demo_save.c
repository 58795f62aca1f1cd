/* SPDX-License-Identifier: Apache-2.0 */
/* evrec-bench-demo-save: save throughput on the demo's own stream. The by-size table
 * (evrec-bench --only sizes) fills a buffer with one event type; a real recording switches type
 * from record to record, which costs save more per byte. This fills a trace buffer with the
 * demo's event types (its generated meta-info and record sizes) in the order a recording of
 * evrec-demo holds them, repeated until the buffer is full, and times evrec_save() (container,
 * into memory) against a memcpy of the same bytes, interleaved; thread CPU time.
 *
 *   evrec-bench-demo-save DEMO.evr [MIB] [REPS]
 *
 * DEMO.evr: a recording of evrec-demo (the schema hash must be the demo's). MIB: trace buffer,
 * 1..1024 (default 64). REPS: 1..101 (default 15). A benchmark, not a test. Exit status 0
 * measured, 1 failed, 2 bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_stats.h"
#include "demo_events.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_save.h"
#include "evrec_posix.h"

typedef struct mem_out {
    uint8_t *p;
    size_t len, cap;
} mem_out_t;

static int mem_write(void *ctx, const void *data, size_t len)
{
    mem_out_t *m = (mem_out_t *)ctx;
    if (len > m->cap - m->len) {
        return 1;
    }
    memcpy(m->p + m->len, data, len);
    m->len += len;
    return 0;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned long arg_num(const char *s, unsigned long lo, unsigned long hi, unsigned long dflt)
{
    if (!s) {
        return dflt;
    }
    char *end = NULL;
    unsigned long v = strtoul(s, &end, 10);
    return end && *end == '\0' && v >= lo && v <= hi ? v : 0;
}

/* The data records' event ids of the recording at `path` (at most `max`); 0 (message printed)
 * when it cannot be read, is not the demo's or holds no data record. */
static size_t read_order(const char *path, uint16_t *ids, size_t max)
{
    evrec_reader_t *r = NULL;
    if (evrec_reader_open_path(&r, path, NULL) != EVREC_OK) {
        fprintf(stderr, "evrec-bench-demo-save: %s: %s\n", path,
                r && evrec_reader_error(r) ? evrec_reader_error(r)->message : "cannot open");
        evrec_reader_close(r);
        return 0;
    }
    const evrec_meta_t *m = evrec_reader_meta(r);
    if (!m || m->schema_hash != demo_meta.schema_hash) {
        fprintf(stderr, "evrec-bench-demo-save: %s is not a recording of evrec-demo (schema hash)\n", path);
        evrec_reader_close(r);
        return 0;
    }
    size_t n = 0;
    evrec_record_t rec;
    while (n < max && evrec_reader_next(r, &rec) == EVREC_OK) {
        if (rec.id != EVREC_CONTROL_EVENT_ID) {
            ids[n++] = rec.id;
        }
    }
    evrec_reader_close(r);
    if (n == 0) {
        fprintf(stderr, "evrec-bench-demo-save: %s holds no event record to take the order from\n", path);
    }
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fprintf(argc < 2 || argc > 4 ? stderr : stdout, "usage: evrec-bench-demo-save DEMO.evr [MIB] [REPS]\n"
                                                        "  save vs memcpy on a buffer in the demo's event order "
                                                        "(MIB 1..1024, default 64; REPS 1..101, default 15)\n");
        return argc < 2 || argc > 4 ? 2 : 0;
    }
    unsigned long mib = arg_num(argc > 2 ? argv[2] : NULL, 1, 1024, 64);
    unsigned long reps = arg_num(argc > 3 ? argv[3] : NULL, 1, 101, 15);
    if (!mib || !reps) {
        fprintf(stderr, "evrec-bench-demo-save: MIB 1..1024, REPS 1..101\n");
        return 2;
    }
    enum { MAX_ORDER = 1u << 20 };
    uint16_t *ids = malloc(MAX_ORDER * sizeof *ids);
    size_t size = (size_t)mib << 20;
    uint8_t *trace = aligned_alloc(64, size);
    mem_out_t out = {NULL, 0, size + size / 64u + (1u << 20)};
    out.p = malloc(out.cap);
    double *ratio = calloc(reps, sizeof(double)), *mbs = calloc(reps, sizeof(double));
    int rc = 1;
    size_t n = ids ? read_order(argv[1], ids, MAX_ORDER) : 0;
    if (!ids || !trace || !out.p || !ratio || !mbs) {
        fprintf(stderr, "evrec-bench-demo-save: out of memory\n");
        goto done;
    }
    if (n == 0) {
        goto done; /* read_order() said why */
    }
    memset(out.p, 0, out.cap); /* faulted in before timing */

    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    if (evrec_recorder_init(&rec, trace, size) != EVREC_OK ||
        evrec_host_start(&host, &rec, &demo_meta, evrec_posix_time_freq(0)) != EVREC_OK) {
        fprintf(stderr, "evrec-bench-demo-save: cannot start the recorder\n");
        goto done;
    }
    static uint8_t native[EVREC_MAX_EVENT_SIZE];
    size_t k = 0;
    uint64_t records = 0;
    for (;;) {
        for (size_t i = 6; i < sizeof native; i++) {
            native[i] = (uint8_t)(records >> (i & 7u)); /* field values vary, sizes do not */
        }
        if (evrec_record(&host, ids[k], native) != EVREC_OK) {
            break; /* full */
        }
        k = k + 1u < n ? k + 1u : 0u;
        records++;
    }
    evrec_recorder_t *stopped = NULL;
    if (evrec_host_stop(&host, &stopped) != EVREC_OK) {
        goto done;
    }
    size_t used = evrec_recorder_counts(stopped).used;
    const void *src = evrec_recorder_records(stopped);
    evrec_sink_t sink = {mem_write, &out};
    out.len = 0;
    (void)evrec_save(stopped, &sink); /* warm-up */
    for (unsigned long r = 0; r < reps; r++) {
        double t0 = cpu_s();
        memcpy(out.p, src, used);
        double t1 = cpu_s();
        __asm__ volatile("" : : "r"(out.p) : "memory");
        out.len = 0;
        if (evrec_save(stopped, &sink) != EVREC_OK) {
            fprintf(stderr, "evrec-bench-demo-save: save failed\n");
            goto done;
        }
        double t2 = cpu_s();
        mbs[r] = (double)used / (t2 - t1) / 1e6;
        ratio[r] = (t1 - t0) / (t2 - t1);
    }
    bench_summary_t s = bench_summarize(mbs, reps), q = bench_summarize(ratio, reps);
    printf("demo order (%zu records of %s, repeated): %llu records, %zu trace bytes (%.1f per record)\n", n,
           argv[1], (unsigned long long)records, used, (double)used / (double)records);
    printf("  evrec_save (container, CRC-32C)   %8.0f MB/s  [%6.0f .. %6.0f]   %5.1f%% of memcpy\n", s.median,
           s.q1, s.q3, q.median * 100.0);
    printf("  %lu repetitions, each paired with a memcpy of the same bytes; medians; thread CPU time\n", reps);
    rc = 0;
done:
    free(ids);
    free(trace);
    free(out.p);
    free(ratio);
    free(mbs);
    return rc;
}
