/* SPDX-License-Identifier: Apache-2.0 */
/* Save throughput batches of evrec-bench (see bench_save.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_save.h"
#include "bench_stats.h"
#include "evrec/evrec_save.h"

/* evrec_sink_t that appends to the preallocated output buffer. */
static int mem_write(void *ctx, const void *data, size_t len)
{
    bench_save_ctx_t *c = (bench_save_ctx_t *)ctx;
    if (len > c->out_cap - c->out_len) {
        return 1;
    }
    memcpy(c->out + c->out_len, data, len);
    c->out_len += len;
    return 0;
}

int bench_save_init(bench_save_ctx_t *c, size_t trace_size, uint64_t time_freq, int mixed)
{
    memset(c, 0, sizeof *c);
    c->trace_size = trace_size;
    /* Output: at most the whole buffer (records shrink from 16 to 13 bytes), plus the header,
     * meta-info and 8 bytes per chunk. */
    c->out_cap = trace_size + trace_size / 64u + (1u << 20);
    c->trace = aligned_alloc(64, trace_size);
    c->out = aligned_alloc(64, (c->out_cap + 63u) & ~(size_t)63u);
    if (!c->trace || !c->out) {
        fprintf(stderr, "evrec-bench: cannot allocate %zu + %zu bytes for the save benchmark\n", trace_size,
                c->out_cap);
        bench_save_free(c);
        return -1;
    }
    memset(c->out, 0, c->out_cap);
    evrec_host_init(&c->host);
    if (evrec_recorder_init(&c->rec, c->trace, trace_size) != EVREC_OK ||
        evrec_host_start(&c->host, &c->rec, &bench_meta, time_freq) != EVREC_OK) {
        fprintf(stderr, "evrec-bench: cannot start the recorder for the save benchmark\n");
        bench_save_free(c);
        return -1;
    }
    /* Exactly full: Start, then records up to the Stop slot. */
    size_t room = trace_size - EVREC_BUF_HEADER_SIZE - 2u * EVREC_CONTROL_SLOT;
    size_t n = 0;
    uint32_t x = 2463534242u; /* xorshift32 */
    while (room >= EVREC_CONTROL_SLOT) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        if (room >= sizeof(bench_event_t) && (!mixed || (x & 1u))) {
            bench_record(&c->host, (uint32_t)n * 2654435761u, (uint16_t)n, (uint8_t)(n >> 3));
            room -= sizeof(bench_event_t);
        } else if (mixed || room < sizeof(bench_event_t)) {
            (void)evrec_tick(&c->host);
            room -= EVREC_CONTROL_SLOT;
        }
        n++;
    }
    evrec_recorder_t *rec = NULL;
    if (evrec_host_stop(&c->host, &rec) != EVREC_OK || evrec_recorder_counts(rec).dropped != 0 ||
        evrec_recorder_counts(rec).recorded != n + 2u) {
        fprintf(stderr, "evrec-bench: filling the save benchmark's buffer went wrong\n");
        bench_save_free(c);
        return -1;
    }
    return 0;
}

void bench_save_free(bench_save_ctx_t *c)
{
    free(c->trace);
    free(c->out);
    c->trace = NULL;
    c->out = NULL;
}

double bench_save_batch(bench_save_ctx_t *c, int bare)
{
    evrec_sink_t sink = {mem_write, c};
    evrec_save_options_t opt = {0, bare};
    c->out_len = 0;
    uint64_t t0 = bench_now_ns();
    evrec_status st = evrec_save_ex(&c->rec, &sink, &opt);
    uint64_t dt = bench_now_ns() - t0;
    if (st != EVREC_OK) {
        fprintf(stderr, "evrec-bench: save failed: %s\n", evrec_strerror(st));
        return -1;
    }
    return (double)evrec_recorder_counts(&c->rec).used / ((double)dt / 1e9) / 1e6;
}

double bench_memcpy_batch(bench_save_ctx_t *c)
{
    uint64_t t0 = bench_now_ns();
    memcpy(c->out, c->trace, evrec_recorder_counts(&c->rec).used);
    uint64_t dt = bench_now_ns() - t0;
    /* Keep the copy observable so it cannot be elided. */
    __asm__ volatile("" : : "r"(c->out) : "memory");
    return (double)evrec_recorder_counts(&c->rec).used / ((double)dt / 1e9) / 1e6;
}
