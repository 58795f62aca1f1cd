/* SPDX-License-Identifier: Apache-2.0 */
/* make_large_trace FILE N [--bare | --stream]: record N events (half EvAll, 30 bytes saved; half
 * EvSimple, 10 bytes saved; a Tick every 1000) with the real recorder and write them to FILE.
 * Used to measure the reader on multi-GB files: `evrec info FILE`, `evrec dump FILE > /dev/null`.
 *
 * Two ways to the file:
 * - saved (the default while the records fit one trace buffer): one buffer of every record, then
 *   evrec_save() (an evrec container, or with --bare the bare CCore stream);
 * - streamed (--stream, and the default when the buffer would exceed the recorder's 4 GiB - 1
 *   bytes, about 150 million records): the records go through a 4 MiB streaming ring
 *   (evrec/evrec_stream.h), drained every 1000 records into the stream receiver and its file
 *   writer (evrec/evrec_stream_rx.h, what `evrec record` does): an evrec container of any size
 *   (FORMAT.md section 8.3) in constant memory. A bare CCore stream is only saved: --bare past
 *   the limit is refused with the limit named. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_stream.h"
#include "evrec/evrec_stream_rx.h"
#include "reader_fixtures.h"

/* The largest trace buffer evrec_recorder_init() takes, bytes. */
#define MAX_BUFFER 0xFFFFFFFFull
/* The streaming ring: 64 blocks of 64 KiB; drained every DRAIN_EVERY records (at most 40 bytes
 * each: far less than the ring). */
#define RING_BLOCK 65536u
#define RING_BLOCKS 64u
#define DRAIN_EVERY 1000u

static int file_write(void *ctx, const void *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : 1;
}

/* Record number k (of the fixture's two event types), and a Tick after every 1000th. */
static void record_one(evrec_host_t *host, unsigned long long k)
{
    if (k % 2 == 0) {
        fx_ev_all_t *e = evrec_reserve(host, sizeof *e);
        if (e) {
            uint32_t t = e->time; /* stamped by evrec_reserve */
            fx_expect_all((uint32_t)k, e);
            e->time = t;
            evrec_commit(e, FX_EVENT_ALL);
        }
    } else {
        fx_ev_simple_t *s = evrec_reserve(host, sizeof *s);
        if (s) {
            s->v = (uint32_t)k;
            evrec_commit(s, FX_EVENT_SIMPLE);
        }
    }
    if (k % 1000 == 999) {
        evrec_tick(host);
    }
}

/* The trace buffer that holds n records, bytes (may exceed MAX_BUFFER). */
static unsigned long long buffer_size(unsigned long long n)
{
    unsigned long long size = 4096ull + n * (sizeof(fx_ev_all_t) + sizeof(fx_ev_simple_t)) / 2u + n / 1000u * 8u +
                              64u;
    return (size + EVREC_BUF_HEADER_SIZE + 7u) & ~7ull;
}

/* The saved way: one buffer, evrec_save_ex(). */
static int saved(FILE *f, unsigned long long n, size_t size, int bare, evrec_recorder_counts_t *counts)
{
    void *buf = aligned_alloc(8, size);
    if (!buf) {
        fprintf(stderr, "make_large_trace: cannot allocate %zu bytes\n", size);
        return 1;
    }
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    evrec_status st = evrec_recorder_init(&rec, buf, size);
    st = st == EVREC_OK ? evrec_host_start(&host, &rec, fx_meta_init(), 1000000000u) : st;
    for (unsigned long long k = 0; st == EVREC_OK && k < n; k++) {
        record_one(&host, k);
    }
    if (st == EVREC_OK && (st = evrec_host_stop(&host, NULL)) == EVREC_OK) {
        evrec_sink_t sink = {file_write, f};
        evrec_save_options_t opt = {0, bare};
        st = evrec_save_ex(&rec, &sink, &opt);
        *counts = evrec_recorder_counts(&rec);
    }
    free(buf);
    if (st != EVREC_OK) {
        fprintf(stderr, "make_large_trace: recording or save failed: %s\n", evrec_strerror(st));
    }
    return st != EVREC_OK;
}

/* The receiver's side of the streamed way: the meta document opens the file writer. */
typedef struct streamed_file {
    FILE *f;
    evrec_sfile_t *w;
} streamed_file_t;

static int on_meta(void *ctx, const uint8_t *doc, size_t size)
{
    streamed_file_t *s = (streamed_file_t *)ctx;
    return evrec_sfile_open(&s->w, s->f, doc, size) != EVREC_OK;
}

static int on_records(void *ctx, unsigned lane, const uint8_t *data, size_t size, uint64_t count,
                      const uint8_t state[36])
{
    streamed_file_t *s = (streamed_file_t *)ctx;
    (void)lane;
    return evrec_sfile_records(s->w, data, size, count, state) != EVREC_OK;
}

/* Every whole frame the stream has now, into the receiver. */
static evrec_status drain(evrec_stream_t *s, evrec_srx_t *rx)
{
    static uint8_t frames[256u * 1024u];
    size_t got;
    evrec_status st = EVREC_OK;
    while (st == EVREC_OK && (got = evrec_stream_drain(s, frames, sizeof frames)) != 0) {
        st = evrec_srx_feed(rx, frames, got);
    }
    return st;
}

/* The streamed way: a 4 MiB ring drained into the receiver, which writes the file. */
static int streamed(FILE *f, unsigned long long n, evrec_recorder_counts_t *counts)
{
    static _Alignas(8) uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(RING_BLOCKS, RING_BLOCK)];
    static evrec_stream_t s;
    evrec_host_t host;
    streamed_file_t out = {f, NULL};
    evrec_srx_sink_t sink = {on_meta, on_records, NULL, &out};
    evrec_srx_t *rx = NULL;
    evrec_host_init(&host);
    evrec_status st = evrec_srx_new(&rx, &sink);
    st = st == EVREC_OK ? evrec_stream_init(&s, ring, sizeof ring, RING_BLOCK, 0) : st;
    st = st == EVREC_OK ? evrec_stream_start(&s, &host, fx_meta_init(), 1000000000u, 0) : st;
    for (unsigned long long k = 0; st == EVREC_OK && k < n; k++) {
        record_one(&host, k);
        st = k % DRAIN_EVERY == DRAIN_EVERY - 1u ? drain(&s, rx) : EVREC_OK;
    }
    st = st == EVREC_OK ? evrec_host_stop(&host, NULL) : st;
    while (st == EVREC_OK && !evrec_stream_done(&s)) {
        st = drain(&s, rx);
    }
    st = st == EVREC_OK ? evrec_srx_finish(rx) : st;
    evrec_status closed = out.w ? evrec_sfile_close_rx(out.w, rx) : EVREC_E_CORRUPT;
    st = st == EVREC_OK ? closed : st;
    counts->recorded = evrec_stream_counts(&s).sent;
    counts->dropped = evrec_stream_counts(&s).dropped;
    evrec_srx_free(rx);
    if (st != EVREC_OK) {
        fprintf(stderr, "make_large_trace: streaming failed: %s\n", evrec_strerror(st));
    }
    return st != EVREC_OK;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4 ||
        (argc == 4 && strcmp(argv[3], "--bare") != 0 && strcmp(argv[3], "--stream") != 0)) {
        fprintf(stderr, "usage: make_large_trace FILE N [--bare | --stream]\n");
        return 2;
    }
    unsigned long long n = strtoull(argv[2], NULL, 10);
    int bare = argc == 4 && strcmp(argv[3], "--bare") == 0;
    unsigned long long size = buffer_size(n);
    int stream = (argc == 4 && strcmp(argv[3], "--stream") == 0) || size > MAX_BUFFER;
    if (bare && stream) {
        fprintf(stderr,
                "make_large_trace: %llu records need a trace buffer of %llu bytes, over the recorder's limit "
                "of %llu (4 GiB - 1); a bare CCore stream is only saved from one buffer: fewer records, or "
                "leave out --bare (the container is then streamed)\n",
                n, size, MAX_BUFFER);
        return 1;
    }
    FILE *f = fopen(argv[1], "wb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    evrec_recorder_counts_t c = {0};
    int rc = stream ? streamed(f, n, &c) : saved(f, n, (size_t)size, bare, &c);
    if (fclose(f) != 0 && rc == 0) {
        fprintf(stderr, "make_large_trace: %s: write failed\n", argv[1]);
        rc = 1;
    }
    if (rc == 0) {
        printf("%llu records (%llu dropped) %s to %s\n", (unsigned long long)c.recorded,
               (unsigned long long)c.dropped, stream ? "streamed" : "written", argv[1]);
    }
    return rc;
}
