/* SPDX-License-Identifier: Apache-2.0 */
/* Contender "barectf": the tracer that barectf generates from barectf.yaml (at build time), with a
 * RAM platform of ours: each thread has its own barectf context and its own RAM area of
 * PEERS_BARECTF_PACKET-byte packets. When a packet is full the platform closes it and opens the
 * next one in the area (no copy); when the area is full barectf discards events (checked: never in
 * a measurement). Timestamp: the 64-bit TSC (the same instruction as EVREC_PORT_TIMESTAMP()). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barectf.h"
#include "peers.h"
#include "peers_traces.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#else
#include <time.h>
#endif

/** Packet size, bytes (barectf's buffer of one context). */
#define PEERS_BARECTF_PACKET 4096u

typedef struct bplat {
    struct barectf_default_ctx ctx;
    uint8_t *area;    /* the RAM area of packets */
    size_t area_size; /* bytes, a multiple of the packet size */
    size_t at;        /* offset of the open packet */
    size_t packets;   /* packets closed */
    char pad[64];
} bplat_t;

static bplat_t plat[PEERS_MAX_THREADS];
static size_t bytes_1t, n_1t;

static uint64_t clock_value(void *data)
{
    (void)data;
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

static int is_backend_full(void *data)
{
    bplat_t *p = data;
    return p->at + PEERS_BARECTF_PACKET > p->area_size;
}

static void open_packet(void *data)
{
    bplat_t *p = data;
    barectf_default_open_packet(&p->ctx);
}

/* Close the packet and move the context's buffer to the next packet of the area. */
static void close_packet(void *data)
{
    bplat_t *p = data;
    barectf_default_close_packet(&p->ctx);
    p->packets++;
    p->at += PEERS_BARECTF_PACKET;
    if (p->at + PEERS_BARECTF_PACKET <= p->area_size) {
        barectf_packet_set_buf(&p->ctx, p->area + p->at, PEERS_BARECTF_PACKET);
    }
}

static int bx_setup(size_t n, const char **why)
{
    /* 16 bytes per event; each packet loses its header and the tail that no event fits. */
    size_t per_packet = (PEERS_BARECTF_PACKET - 64u) / 16u;
    size_t packets = n / per_packet + 2u;
    for (int t = 0; t < PEERS_MAX_THREADS; t++) {
        plat[t].area_size = packets * PEERS_BARECTF_PACKET;
        plat[t].area = aligned_alloc(64, plat[t].area_size);
        if (!plat[t].area) {
            *why = "out of memory";
            return -1;
        }
        memset(plat[t].area, 0, plat[t].area_size);
    }
    return 0;
}

static int bx_prepare(size_t n, int threads)
{
    (void)n;
    struct barectf_platform_callbacks cbs = {clock_value, is_backend_full, open_packet, close_packet};
    for (int t = 0; t < threads; t++) {
        bplat_t *p = &plat[t];
        p->at = 0;
        p->packets = 0;
        barectf_init(&p->ctx, p->area, PEERS_BARECTF_PACKET, cbs, p);
        open_packet(p);
    }
    return 0;
}

__attribute__((noinline)) static void bx_run(int thread, size_t n)
{
    struct barectf_default_ctx *ctx = &plat[thread].ctx;
    for (size_t i = 0; i < n; i++) {
        barectf_trace_bench(ctx, (uint8_t)i, (uint16_t)i, (uint32_t)i);
    }
}

static int bx_check(size_t n, int threads, const char **why)
{
    for (int t = 0; t < threads; t++) {
        bplat_t *p = &plat[t];
        if (barectf_packet_is_open(&p->ctx) && !barectf_packet_is_empty(&p->ctx)) {
            close_packet(p);
        }
        if (barectf_discarded_event_records_count(&p->ctx) != 0) {
            *why = "barectf discarded events (the RAM area was full)";
            return -1;
        }
    }
    if (threads == 1) {
        bytes_1t = plat[0].packets * PEERS_BARECTF_PACKET;
        n_1t = n;
    }
    return 0;
}

static double bx_bytes(void)
{
    return n_1t ? (double)bytes_1t / (double)n_1t : 0.0;
}

static void bx_teardown(void)
{
    for (int t = 0; t < PEERS_MAX_THREADS; t++) {
        free(plat[t].area);
        plat[t].area = NULL;
    }
}

const peer_contender_t peer_barectf = {
    .key = "barectf",
    .name = "barectf (4 KiB packets in RAM, ctx per thread)",
    .setup = bx_setup,
    .prepare = bx_prepare,
    .run = bx_run,
    .check = bx_check,
    .bytes_per_record = bx_bytes,
    .teardown = bx_teardown,
};

int peers_barectf_write_ctf(const char *dir, size_t n, const char *metadata)
{
    const char *why = "";
    if (bx_setup(n, &why) != 0 || bx_prepare(n, 1) != 0) {
        fprintf(stderr, "evrec-bench-peers: barectf: %s\n", why);
        bx_teardown();
        return -1;
    }
    bx_run(0, n);
    if (bx_check(n, 1, &why) != 0) {
        fprintf(stderr, "evrec-bench-peers: barectf: %s\n", why);
        bx_teardown();
        return -1;
    }
    int rc = peers_write_file(dir, "stream_0", plat[0].area, plat[0].packets * PEERS_BARECTF_PACKET);
    rc |= peers_copy_file(metadata, dir, "metadata");
    bx_teardown();
    return rc;
}
