/* SPDX-License-Identifier: Apache-2.0 */
/* The evrec contenders: one-shot, cyclic, and one-shot + live QS. All three record BenchEvent of
 * evrec-bench (bench/bench_events.h: time, id, u32 a, u16 b, u8 c; a 16-byte slot) through one
 * host shared by all threads, as an application does. */
#include <stdlib.h>
#include <string.h>

#include "bench_events.h"
#include "evrec/evrec_qs_record.h"
#include "evrec_port.h"
#include "peers.h"
#include "peers_traces.h"

/* ---- one-shot: evrec_reserve -> 3 stores -> evrec_commit (bench_record()) into a linear buffer */

/* A linear recording: buffer, host, recorder (one for the one-shot row, one for the QS row). */
typedef struct lin {
    uint8_t *buf;
    size_t size;
    _Alignas(64) evrec_host_t host;
    evrec_recorder_t rec;
    size_t n_1t; /* records of the last one-thread run */
} lin_t;

static lin_t os, qsl;

/* Bytes of buffer for `n` BenchEvents plus Start and the Stop slot. */
static size_t oneshot_bytes(size_t n)
{
    return EVREC_BUF_HEADER_SIZE + n * sizeof(bench_event_t) + 2u * EVREC_CONTROL_SLOT;
}

static int lin_setup(lin_t *l, size_t n, const char **why)
{
    l->size = (oneshot_bytes(PEERS_MAX_THREADS * n) + 63u) & ~(size_t)63u;
    l->buf = aligned_alloc(64, l->size);
    if (!l->buf) {
        *why = "out of memory";
        return -1;
    }
    memset(l->buf, 0xFF, l->size);
    evrec_host_init(&l->host);
    return 0;
}

static int lin_prepare(lin_t *l, size_t n, int threads)
{
    /* Exactly the room of the run (as evrec-bench): the buffer is not larger than it must be. */
    if (evrec_recorder_init(&l->rec, l->buf, oneshot_bytes((size_t)threads * n)) != EVREC_OK ||
        evrec_host_start(&l->host, &l->rec, &bench_meta, peers_time_freq()) != EVREC_OK) {
        return -1;
    }
    return 0;
}

static int lin_check(lin_t *l, size_t n, int threads, const char **why)
{
    evrec_recorder_t *rec = NULL;
    if (evrec_host_stop(&l->host, &rec) != EVREC_OK) {
        *why = "cannot stop the recorder";
        return -1;
    }
    evrec_recorder_counts_t k = evrec_recorder_counts(rec);
    if (k.dropped != 0 || k.recorded != (uint64_t)threads * n + 2u) {
        *why = "records dropped or lost";
        return -1;
    }
    if (threads == 1) {
        l->n_1t = n;
    }
    return 0;
}

/* Trace-buffer bytes per record: the native slot (Start and Stop not counted). */
static double lin_bytes(const lin_t *l)
{
    return l->n_1t ? (double)sizeof(bench_event_t) : 0.0;
}

static void lin_teardown(lin_t *l)
{
    free(l->buf);
    l->buf = NULL;
}

static int os_setup(size_t n, const char **why)
{
    return lin_setup(&os, n, why);
}

static int os_prepare(size_t n, int threads)
{
    return lin_prepare(&os, n, threads);
}

__attribute__((noinline)) static void os_run(int thread, size_t n)
{
    (void)thread;
    for (size_t i = 0; i < n; i++) {
        bench_record(&os.host, (uint32_t)i, (uint16_t)i, (uint8_t)i);
    }
}

static int os_check(size_t n, int threads, const char **why)
{
    return lin_check(&os, n, threads, why);
}

static double os_bytes(void)
{
    return lin_bytes(&os);
}

static void os_teardown(void)
{
    lin_teardown(&os);
}

const peer_contender_t peer_evrec_oneshot = {
    .key = "evrec",
    .name = "evrec one-shot (reserve/commit)",
    .setup = os_setup,
    .prepare = os_prepare,
    .run = os_run,
    .check = os_check,
    .bytes_per_record = os_bytes,
    .teardown = os_teardown,
};

/* ---- cyclic: the same record path into a ring of 256 blocks of 1 KiB (256 KiB, as evrec-bench),
 * started and lapped once before the timed part, so that every timed block switch reuses a block. */

#define CYC_BLOCK 1024u
#define CYC_BLOCKS 256u

static uint8_t *cy_buf;
static _Alignas(64) evrec_host_t cy_host;
static evrec_recorder_t cy_rec;
static uint64_t cy_lap;

static int cy_setup(size_t n, const char **why)
{
    (void)n;
    cy_buf = aligned_alloc(64, EVREC_CYCLIC_BUFFER_SIZE(CYC_BLOCKS, CYC_BLOCK));
    if (!cy_buf) {
        *why = "out of memory";
        return -1;
    }
    evrec_host_init(&cy_host);
    return 0;
}

static int cy_prepare(size_t n, int threads)
{
    (void)n;
    (void)threads;
    if (evrec_recorder_init_cyclic(&cy_rec, cy_buf, EVREC_CYCLIC_BUFFER_SIZE(CYC_BLOCKS, CYC_BLOCK), CYC_BLOCK) !=
            EVREC_OK ||
        evrec_host_start(&cy_host, &cy_rec, &bench_meta, peers_time_freq()) != EVREC_OK) {
        return -1;
    }
    cy_lap = CYC_BLOCKS * (CYC_BLOCK - EVREC_BLOCK_HEADER) / sizeof(bench_event_t);
    for (uint64_t i = 0; i < cy_lap; i++) {
        bench_record(&cy_host, (uint32_t)i, (uint16_t)i, (uint8_t)i);
    }
    return 0;
}

__attribute__((noinline)) static void cy_run(int thread, size_t n)
{
    (void)thread;
    for (size_t i = 0; i < n; i++) {
        bench_record(&cy_host, (uint32_t)i, (uint16_t)i, (uint8_t)i);
    }
}

static int cy_check(size_t n, int threads, const char **why)
{
    evrec_recorder_t *rec = NULL;
    if (evrec_host_stop(&cy_host, &rec) != EVREC_OK) {
        *why = "cannot stop the cyclic recorder";
        return -1;
    }
    evrec_recorder_counts_t k = evrec_recorder_counts(rec);
    if (k.dropped != 0 || k.recorded + k.overwritten != (uint64_t)threads * n + cy_lap + 2u) {
        *why = "the cyclic ring lost records (kept + overwritten != recorded)";
        return -1;
    }
    return 0;
}

static void cy_teardown(void)
{
    free(cy_buf);
    cy_buf = NULL;
}

const peer_contender_t peer_evrec_cyclic = {
    .key = "evrec-cyclic",
    .name = "evrec cyclic (256 x 1 KiB ring, wrapping)",
    .setup = cy_setup,
    .prepare = cy_prepare,
    .run = cy_run,
    .check = cy_check,
    .teardown = cy_teardown,
};

/* ---- one-shot + live QS: evrec_qs_record() records into the RAM buffer and encodes the QS frame
 * into the transmit ring under a spinlock (shared by the threads), both with one timestamp. The
 * ring has room for every frame of the run (drained between runs, outside the timed part), so
 * this is the cost of emission, not of a link. */

static uint8_t *qs_mem;
static size_t qs_mem_size;
static evrec_qs_tx_t qs_tx;
static evrec_qs_spinlock_t qs_lock;
static evrec_qs_options_t qs_opt;
static uint64_t qs_bytes_1t, qs_n_1t;

static int qs_setup(size_t n, const char **why)
{
    if (lin_setup(&qsl, n, why) != 0) {
        return -1;
    }
    memset(&qs_opt, 0, sizeof qs_opt);
    qs_opt.time_size = 4; /* the full 32-bit timestamp, as the demo's live output */
    evrec_qs_spin_init(&qs_lock);
    qs_opt.lock = (evrec_qs_lock_t){evrec_qs_spin_enter, evrec_qs_spin_exit, &qs_lock};
    /* A first init on a small buffer gives the map, hence the worst-case frame size. */
    static uint8_t probe[1u << 16] __attribute__((aligned(8)));
    if (evrec_qs_tx_init(&qs_tx, &bench_meta, probe, sizeof probe, &qs_opt) != EVREC_OK) {
        *why = "evrec_qs_tx_init failed on the benchmark's meta-info";
        return -1;
    }
    qs_mem_size = evrec_qs_map_entries_size(&bench_meta) + 8u +
                  evrec_qs_tx_ring_size(&qs_tx.map, PEERS_MAX_THREADS * n + 2u);
    qs_mem = aligned_alloc(8, (qs_mem_size + 7u) & ~(size_t)7u);
    if (!qs_mem) {
        *why = "out of memory";
        return -1;
    }
    memset(qs_mem, 0, qs_mem_size);
    return 0;
}

static int qs_prepare(size_t n, int threads)
{
    if (evrec_qs_tx_init(&qs_tx, &bench_meta, qs_mem, qs_mem_size, &qs_opt) != EVREC_OK) {
        return -1;
    }
    return lin_prepare(&qsl, n, threads);
}

__attribute__((noinline)) static void qs_run(int thread, size_t n)
{
    (void)thread;
    bench_event_t e;
    memset(&e, 0, sizeof e);
    for (size_t i = 0; i < n; i++) {
        e.a = (uint32_t)i;
        e.b = (uint16_t)i;
        e.c = (uint8_t)i;
        (void)evrec_qs_record(&qsl.host, &qs_tx, BENCH_EVENT_ID, &e);
    }
}

static int qs_check(size_t n, int threads, const char **why)
{
    if (lin_check(&qsl, n, threads, why) != 0) {
        return -1;
    }
    if (qs_tx.frames != (uint64_t)threads * n || qs_tx.frames_lost != 0) {
        *why = "QS frames lost or missing";
        return -1;
    }
    if (threads == 1) {
        qs_bytes_1t = evrec_qs_tx_pending(&qs_tx);
        qs_n_1t = n;
    }
    return 0;
}

/* RAM slot + the QS frame in the transmit ring. */
static double qs_bytes(void)
{
    return qs_n_1t ? lin_bytes(&qsl) + (double)qs_bytes_1t / (double)qs_n_1t : 0.0;
}

static void qs_teardown(void)
{
    lin_teardown(&qsl);
    free(qs_mem);
    qs_mem = NULL;
}

const peer_contender_t peer_evrec_qs = {
    .key = "evrec-qs",
    .name = "evrec one-shot + live QS (evrec_qs_record)",
    .setup = qs_setup,
    .prepare = qs_prepare,
    .run = qs_run,
    .check = qs_check,
    .bytes_per_record = qs_bytes,
    .teardown = qs_teardown,
};

/* The QS frame bytes per event alone (for the bytes table). */
double peers_qs_frame_bytes(void)
{
    return qs_n_1t ? (double)qs_bytes_1t / (double)qs_n_1t : 0.0;
}
