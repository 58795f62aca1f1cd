/* SPDX-License-Identifier: Apache-2.0 */
/* Save throughput by record size (see bench_sizes.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_sizes.h"
#include "bench_stats.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"

#define MAX_FIELDS (EVREC_MAX_EVENT_SIZE)

static const char *const field_names[] = {"time", "id", "f0", "f1", "f2", "f3",
                                          "f4",   "f5", "f6", "f7", "f8", "f9"};
static char name_store[BENCH_SIZE_COUNT][MAX_FIELDS][16];
static char struct_names[BENCH_SIZE_COUNT][24];
static evrec_field_desc_t fields[BENCH_SIZE_COUNT][MAX_FIELDS];
static evrec_struct_desc_t structs[BENCH_SIZE_COUNT + 1];
static evrec_event_desc_t events[BENCH_SIZE_COUNT + 1];
static uint32_t packed[BENCH_SIZE_COUNT + 1];
static const evrec_enum_desc_t enums[] = {
    {"EventControlType", EVREC_KIND_ENUM_UINT8, 4, evrec_control_enum_values, NULL},
};
static evrec_meta_t meta;
static int built;

/* Fields after the header in a fixed mix of widths, natural alignment, until exactly `size`. */
static uint32_t build_struct(uint32_t k, uint32_t size)
{
    static const uint8_t cycle[] = {1, 4, 2, 1, 1, 4, 2, 4, 4, 1, 2, 2};
    evrec_field_desc_t *f = fields[k];
    uint32_t n = 0, off = 0, pk = 0, c = 0;
    f[n++] = (evrec_field_desc_t){"time", EVREC_KIND_UINT32, 0, 0};
    f[n++] = (evrec_field_desc_t){"id", EVREC_KIND_UINT16, 0, 4};
    off = 6;
    pk = 6;
    while (off < size) {
        uint32_t w = cycle[c++ % sizeof cycle];
        while (((off + w - 1u) & ~(w - 1u)) + w > size) {
            w >>= 1;
        }
        off = (off + w - 1u) & ~(w - 1u);
        char *name = name_store[k][n];
        if (n < sizeof field_names / sizeof field_names[0]) {
            name = (char *)field_names[n];
        } else {
            snprintf(name, sizeof name_store[k][n], "f%u", (unsigned)(n - 2u));
        }
        uint8_t kind = w == 1 ? EVREC_KIND_UINT8 : w == 2 ? EVREC_KIND_UINT16 : EVREC_KIND_UINT32;
        f[n++] = (evrec_field_desc_t){name, kind, 0, (uint16_t)off};
        off += w;
        pk += w;
    }
    snprintf(struct_names[k], sizeof struct_names[k], "Size%u", (unsigned)size);
    structs[k + 1] = (evrec_struct_desc_t){struct_names[k], n, fields[k], (uint16_t)size};
    return pk;
}

const evrec_meta_t *bench_sizes_meta(void)
{
    if (built) {
        return &meta;
    }
    structs[0] = (evrec_struct_desc_t){"EventControl", 3, evrec_control_fields_enum0,
                                       (uint16_t)sizeof(evrec_control_event_t)};
    events[0] = (evrec_event_desc_t){0, 0};
    packed[0] = 7;
    for (uint32_t k = 0; k < BENCH_SIZE_COUNT; k++) {
        packed[k + 1] = build_struct(k, 8u + 4u * k);
        events[k + 1] = (evrec_event_desc_t){(uint16_t)(k + 1), (uint16_t)(k + 1)};
    }
    meta = (evrec_meta_t){.time_freq = 0,
                          .enum_count = 1,
                          .enums = enums,
                          .struct_count = BENCH_SIZE_COUNT + 1,
                          .structs = structs,
                          .event_count = BENCH_SIZE_COUNT + 1,
                          .events = events,
                          .schema_hash = 0};
    built = 1;
    return &meta;
}

uint32_t bench_sizes_packed(uint32_t k)
{
    (void)bench_sizes_meta();
    return k <= BENCH_SIZE_COUNT ? packed[k] : 0;
}

struct bench_sizes_ctx {
    uint8_t *trace;
    size_t size;
    evrec_host_t host;
    evrec_recorder_t rec;
    uint8_t *out;
    size_t out_cap, out_len;
};
typedef bench_sizes_ctx_t sizes_ctx_t;

/* Thread CPU time, ns: on a loaded machine wall time counts the time others ran. */
static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int mem_write(void *ctx, const void *data, size_t len)
{
    sizes_ctx_t *c = (sizes_ctx_t *)ctx;
    if (len > c->out_cap - c->out_len) {
        return 1;
    }
    memcpy(c->out + c->out_len, data, len);
    c->out_len += len;
    return 0;
}

/* Fills the buffer with event `k` (1..BENCH_SIZE_COUNT) only, or with every size in random
 * order when k == 0; pads the end with Ticks. */
static int fill(sizes_ctx_t *c, uint64_t freq, uint32_t k)
{
    evrec_host_init(&c->host);
    if (evrec_recorder_init(&c->rec, c->trace, c->size) != EVREC_OK ||
        evrec_host_start(&c->host, &c->rec, bench_sizes_meta(), freq) != EVREC_OK) {
        return -1;
    }
    size_t room = c->size - EVREC_BUF_HEADER_SIZE - 2u * EVREC_CONTROL_SLOT; /* the buffer header first */
    uint32_t x = 2463534242u;
    while (room >= EVREC_CONTROL_SLOT) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        uint32_t e = k ? k : 1u + x % BENCH_SIZE_COUNT;
        size_t n = structs[e].native_size;
        if (n <= room) {
            uint8_t *p = (uint8_t *)evrec_reserve(&c->host, n);
            if (!p) {
                return -1;
            }
            for (size_t i = 6; i < n; i++) {
                p[i] = (uint8_t)(x >> (i & 24));
            }
            evrec_commit(p, (uint16_t)e);
            room -= n;
        } else {
            (void)evrec_tick(&c->host);
            room -= EVREC_CONTROL_SLOT;
        }
    }
    evrec_recorder_t *rec = NULL;
    if (evrec_host_stop(&c->host, &rec) != EVREC_OK || evrec_recorder_counts(rec).dropped != 0) {
        return -1;
    }
    return 0;
}

static double save_once(sizes_ctx_t *c)
{
    evrec_sink_t sink = {mem_write, c};
    c->out_len = 0;
    uint64_t t0 = cpu_ns();
    evrec_status st = evrec_save_ex(&c->rec, &sink, NULL);
    uint64_t dt = cpu_ns() - t0;
    return st == EVREC_OK ? (double)evrec_recorder_counts(&c->rec).used / ((double)dt / 1e9) / 1e6 : -1.0;
}

static double memcpy_once(sizes_ctx_t *c)
{
    size_t used = evrec_recorder_counts(&c->rec).used;
    const void *records = evrec_recorder_records(&c->rec);
    uint64_t t0 = cpu_ns();
    memcpy(c->out, records, used);
    uint64_t dt = cpu_ns() - t0;
    __asm__ volatile("" : : "r"(c->out) : "memory");
    return (double)used / ((double)dt / 1e9) / 1e6;
}

bench_sizes_ctx_t *bench_sizes_open(size_t mib)
{
    (void)bench_sizes_meta();
    sizes_ctx_t *c = calloc(1, sizeof *c);
    if (c) {
        c->size = mib << 20;
        c->out_cap = c->size + c->size / 64u + (1u << 20);
        c->trace = aligned_alloc(64, c->size);
        c->out = aligned_alloc(64, (c->out_cap + 63u) & ~(size_t)63u);
    }
    if (!c || !c->trace || !c->out) {
        fprintf(stderr, "evrec-bench: out of memory for the by-size save benchmark\n");
        bench_sizes_close(c);
        return NULL;
    }
    memset(c->out, 0, c->out_cap); /* faulted in before any timing */
    return c;
}

void bench_sizes_close(bench_sizes_ctx_t *c)
{
    if (c) {
        free(c->trace);
        free(c->out);
        free(c);
    }
}

int bench_sizes_measure(bench_sizes_ctx_t *c, uint32_t k, unsigned reps, uint64_t freq, bench_sizes_row_t *row)
{
    double ratio[101], mbs[101];
    if (k > BENCH_SIZE_COUNT || reps == 0 || reps > 101) {
        return -1;
    }
    if (fill(c, freq, k) != 0) {
        fprintf(stderr, "evrec-bench: filling the by-size buffer went wrong\n");
        return -1;
    }
    (void)save_once(c); /* warm-up */
    for (unsigned r = 0; r < reps; r++) {
        double cp = memcpy_once(c);
        mbs[r] = save_once(c);
        if (mbs[r] < 0) {
            fprintf(stderr, "evrec-bench: by-size save failed\n");
            return -1;
        }
        ratio[r] = mbs[r] / cp;
    }
    bench_summary_t s = bench_summarize(mbs, reps), q = bench_summarize(ratio, reps);
    row->native = k ? structs[k].native_size : 0u;
    row->packed = k ? packed[k] : 0u;
    row->mbs = s.median;
    row->mbs_q1 = s.q1;
    row->mbs_q3 = s.q3;
    row->ratio = q.median;
    return 0;
}

int bench_sizes_report(size_t mib, unsigned reps, unsigned only_size, uint64_t freq, double target,
                       double mix_target)
{
    bench_sizes_ctx_t *c = bench_sizes_open(mib);
    if (!c) {
        return -1;
    }
    printf("\n  %-42s %8s  %-18s %-22s %s\n", "save by record size (container)", "MB/s", "[q1 .. q3]", "ratio",
           "target");
    unsigned pass = 0, total = 0;
    double worst = 1e9;
    uint32_t worst_size = 0;
    int rc = 0;
    for (uint32_t k = 1; k <= BENCH_SIZE_COUNT + 1u && rc == 0; k++) {
        uint32_t e = k <= BENCH_SIZE_COUNT ? k : 0u; /* last: the random mix */
        if (e && only_size && structs[e].native_size != only_size) {
            continue;
        }
        bench_sizes_row_t row;
        if (bench_sizes_measure(c, e, reps, freq, &row) != 0) {
            rc = -1;
            break;
        }
        char name[64];
        double t = e ? target : mix_target;
        if (e) {
            snprintf(name, sizeof name, "%3u-byte records (%u bytes saved)", (unsigned)row.native,
                     (unsigned)row.packed);
        } else {
            snprintf(name, sizeof name, "random mix of all %u sizes", (unsigned)BENCH_SIZE_COUNT);
        }
        printf("  %-42s %8.0f  [%6.0f .. %6.0f]  %5.1f%% of memcpy       >= %.0f%%   %s\n", name, row.mbs,
               row.mbs_q1, row.mbs_q3, row.ratio * 100.0, t * 100.0, row.ratio >= t ? "PASS" : "MISS");
        if (e) {
            total++;
            pass += row.ratio >= t;
            if (row.ratio < worst) {
                worst = row.ratio;
                worst_size = row.native;
            }
        }
    }
    if (rc == 0 && total > 1) {
        printf("  %u of %u sizes reach %.0f%% of memcpy; slowest: %u-byte records at %.1f%%\n", pass, total,
               target * 100.0, (unsigned)worst_size, worst * 100.0);
    }
    bench_sizes_close(c);
    return rc;
}
