/* SPDX-License-Identifier: Apache-2.0 */
/* Record-path batches of evrec-bench (see bench_record.h). */
#include <stdlib.h>
#include <string.h>

#include "bench_record.h"
#include "bench_stats.h"

/* The loops are out of line so that every kind is compiled alone, as in a real caller. */

__attribute__((noinline)) static void floor_loop(uint8_t *buf, _Atomic size_t *pos, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t t = EVREC_PORT_TIMESTAMP();
        size_t p = atomic_fetch_add_explicit(pos, sizeof(bench_event_t), memory_order_relaxed);
        bench_event_t *e = (bench_event_t *)(void *)(buf + p);
        e->time = t;
        e->a = (uint32_t)i;
        e->b = (uint16_t)i;
        e->c = (uint8_t)i;
        e->id = BENCH_EVENT_ID;
    }
}

__attribute__((noinline)) static void inline_loop(evrec_host_t *h, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        bench_record(h, (uint32_t)i, (uint16_t)i, (uint8_t)i);
    }
}

__attribute__((noinline)) static void generic_loop(evrec_host_t *h, size_t n)
{
    bench_event_t ev;
    memset(&ev, 0, sizeof ev);
    for (size_t i = 0; i < n; i++) {
        ev.a = (uint32_t)i;
        ev.b = (uint16_t)i;
        ev.c = (uint8_t)i;
        (void)evrec_record(h, BENCH_EVENT_ID, &ev);
    }
}

/* Bytes of trace buffer for `n` records plus Start and the Stop slot. */
static size_t trace_bytes(size_t n)
{
    return EVREC_BUF_HEADER_SIZE + n * sizeof(bench_event_t) + 2u * EVREC_CONTROL_SLOT;
}

static int start(bench_record_ctx_t *c, size_t n)
{
    if (evrec_recorder_init(&c->rec, c->buf, trace_bytes(n)) != EVREC_OK ||
        evrec_host_start(&c->host, &c->rec, &bench_meta, c->time_freq) != EVREC_OK) {
        c->error = "cannot start the recorder";
        return -1;
    }
    return 0;
}

/* Stop and check that exactly `n` events were recorded, none dropped. */
static int stop(bench_record_ctx_t *c, size_t n)
{
    evrec_recorder_t *rec = NULL;
    if (evrec_host_stop(&c->host, &rec) != EVREC_OK) {
        c->error = "cannot stop the recorder";
        return -1;
    }
    if (evrec_recorder_counts(rec).dropped != 0 || evrec_recorder_counts(rec).recorded != n + 2u) {
        c->error = "the batch did not record exactly its events (dropped or lost records)";
        return -1;
    }
    return 0;
}

static void *peer_main(void *arg)
{
    bench_record_ctx_t *c = (bench_record_ctx_t *)arg;
    for (;;) {
        pthread_barrier_wait(&c->go);
        if (c->quit) {
            break;
        }
        uint64_t t0 = bench_now_ns();
        if (c->two_floor) {
            floor_loop(c->buf, &c->floor_pos, c->records);
        } else {
            inline_loop(&c->host, c->records);
        }
        c->peer_ns = bench_now_ns() - t0;
        pthread_barrier_wait(&c->done);
    }
    return NULL;
}

int bench_record_init(bench_record_ctx_t *c, size_t records, uint64_t time_freq)
{
    memset(c, 0, sizeof *c);
    c->records = records;
    c->time_freq = time_freq;
    c->buf_size = (trace_bytes(2u * records) + 63u) & ~(size_t)63u;
    c->buf = aligned_alloc(64, c->buf_size);
    if (!c->buf) {
        return -1;
    }
    memset(c->buf, 0xFF, c->buf_size); /* fault the pages in once */
    evrec_host_init(&c->host);
    atomic_init(&c->floor_pos, 0);
    pthread_barrier_init(&c->go, NULL, 2);
    pthread_barrier_init(&c->done, NULL, 2);
    if (pthread_create(&c->peer, NULL, peer_main, c) != 0) {
        pthread_barrier_destroy(&c->go);
        pthread_barrier_destroy(&c->done);
        free(c->buf);
        return -1;
    }
    return 0;
}

void bench_record_free(bench_record_ctx_t *c)
{
    c->quit = 1;
    pthread_barrier_wait(&c->go);
    pthread_join(c->peer, NULL);
    pthread_barrier_destroy(&c->go);
    pthread_barrier_destroy(&c->done);
    free(c->buf);
}

double bench_floor_batch(bench_record_ctx_t *c)
{
    size_t n = c->records;
    memset(c->buf, 0xFF, trace_bytes(n)); /* what evrec_host_start() does */
    atomic_store_explicit(&c->floor_pos, EVREC_CONTROL_SLOT, memory_order_relaxed);
    uint64_t t0 = bench_now_ns();
    floor_loop(c->buf, &c->floor_pos, n);
    return (double)(bench_now_ns() - t0) / (double)n;
}

double bench_inline_batch(bench_record_ctx_t *c)
{
    size_t n = c->records;
    if (start(c, n)) {
        return -1;
    }
    uint64_t t0 = bench_now_ns();
    inline_loop(&c->host, n);
    uint64_t dt = bench_now_ns() - t0;
    return stop(c, n) ? -1 : (double)dt / (double)n;
}

double bench_generic_batch(bench_record_ctx_t *c)
{
    size_t n = c->records;
    if (start(c, n)) {
        return -1;
    }
    uint64_t t0 = bench_now_ns();
    generic_loop(&c->host, n);
    uint64_t dt = bench_now_ns() - t0;
    return stop(c, n) ? -1 : (double)dt / (double)n;
}

double bench_two_thread_batch(bench_record_ctx_t *c)
{
    size_t n = c->records;
    if (start(c, 2u * n)) {
        return -1;
    }
    c->two_floor = 0;
    pthread_barrier_wait(&c->go);
    uint64_t t0 = bench_now_ns();
    inline_loop(&c->host, n);
    uint64_t mine = bench_now_ns() - t0;
    pthread_barrier_wait(&c->done);
    if (stop(c, 2u * n)) {
        return -1;
    }
    return ((double)mine + (double)c->peer_ns) / 2.0 / (double)n;
}

double bench_two_thread_floor_batch(bench_record_ctx_t *c)
{
    size_t n = c->records;
    memset(c->buf, 0xFF, trace_bytes(2u * n));
    atomic_store_explicit(&c->floor_pos, EVREC_CONTROL_SLOT, memory_order_relaxed);
    c->two_floor = 1;
    pthread_barrier_wait(&c->go);
    uint64_t t0 = bench_now_ns();
    floor_loop(c->buf, &c->floor_pos, n);
    uint64_t mine = bench_now_ns() - t0;
    pthread_barrier_wait(&c->done);
    return ((double)mine + (double)c->peer_ns) / 2.0 / (double)n;
}

/* Blocks of the cyclic batch's ring: 1 KiB, 256 of them (a 256 KiB ring that the batch laps many
 * times; it stays in L2 like the one-shot batch's write stream stays in the store buffers). */
#define CYCLIC_BLOCK 1024u
#define CYCLIC_BLOCKS 256u

double bench_cyclic_batch(bench_record_ctx_t *c)
{
    size_t n = c->records;
    size_t size = EVREC_CYCLIC_BUFFER_SIZE(CYCLIC_BLOCKS, CYCLIC_BLOCK);
    if (size > c->buf_size || evrec_recorder_init_cyclic(&c->rec, c->buf, size, CYCLIC_BLOCK) != EVREC_OK ||
        evrec_host_start(&c->host, &c->rec, &bench_meta, c->time_freq) != EVREC_OK) {
        c->error = "cannot start the cyclic recorder";
        return -1;
    }
    /* One lap first, unmeasured: the measured records all reuse blocks (the steady state). */
    size_t lap = CYCLIC_BLOCKS * (CYCLIC_BLOCK - EVREC_BLOCK_HEADER) / sizeof(bench_event_t);
    inline_loop(&c->host, lap);
    uint64_t t0 = bench_now_ns();
    inline_loop(&c->host, n);
    uint64_t dt = bench_now_ns() - t0;
    evrec_recorder_t *rec = NULL;
    if (evrec_host_stop(&c->host, &rec) != EVREC_OK) {
        c->error = "cannot stop the cyclic recorder";
        return -1;
    }
    evrec_recorder_counts_t k = evrec_recorder_counts(rec);
    if (k.dropped != 0 || k.recorded + k.overwritten != n + lap + 2u) {
        c->error = "the cyclic batch lost records (saved + overwritten != recorded)";
        return -1;
    }
    return (double)dt / (double)n;
}
