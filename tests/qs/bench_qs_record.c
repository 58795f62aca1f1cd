/* SPDX-License-Identifier: Apache-2.0 */
/* Cost of recording one 3-field event (u8, u16, u32) on the host: RAM only (the generated
 * record path: evrec_reserve, three stores, evrec_commit) against RAM + live QS emission
 * (evrec_qs_record(): the same reservation, then the QS frame encoded into the transmit ring under
 * its lock), and QS alone. Not a test: run `<build>/tests/qs/bench_qs_record`. One thread. Two ring
 * cases: with room for every event of a run (re-initialised per run), and full (never drained:
 * last-is-best overwrite of the oldest frame on every event). The median of 31 runs of 100000
 * events; each run gets a fresh recording. Also prints the bytes per event on the wire and in
 * the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evrec_posix.h"
#include "evrec/evrec_qs_record.h"
#include "qs_test_meta.h"

#define RUNS 31
#define ITERS 100000

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static evrec_host_t host;
static evrec_recorder_t rec;

/* The generated-style record function of the Sensor event. */
static inline void record_sensor(evrec_host_t *h, uint8_t ch, uint16_t raw, uint32_t value)
{
    sensor_event_t *e = evrec_reserve(h, sizeof *e);
    if (e) {
        e->ch = ch;
        e->raw = raw;
        e->value = value;
        evrec_commit(e, K_SENSOR);
    }
}

enum { MODE_RAM, MODE_RAM_QS, MODE_RAM_QS_NOLOCK, MODE_QS };

typedef struct ring {
    evrec_qs_tx_t *tx;
    void *mem;
    size_t size;
    const evrec_qs_options_t *o;
    int fresh; /* re-initialise before each run: the ring has room for every event */
} ring_t;

static double run_mode(int mode, ring_t *rl, ring_t *rn)
{
    double t[RUNS];
    evrec_qs_tx_t *tx = rl->tx, *tx_nolock = rn->tx;
    for (int r = 0; r < RUNS; r++) {
        if (rl->fresh) {
            evrec_qs_tx_init(rl->tx, &k_meta, rl->mem, rl->size, rl->o);
            evrec_qs_tx_init(rn->tx, &k_meta, rn->mem, rn->size, rn->o);
        }
        evrec_host_start(&host, &rec, &k_meta, 0);
        sensor_event_t e = k_sensor(0, 3, 0x0102, 0);
        double t0 = now_ns();
        for (int i = 0; i < ITERS; i++) {
            e.value = (uint32_t)i;
            switch (mode) {
            case MODE_RAM: record_sensor(&host, 3, 0x0102, (uint32_t)i); break;
            case MODE_RAM_QS: evrec_qs_record(&host, tx, K_SENSOR, &e); break;
            case MODE_RAM_QS_NOLOCK: evrec_qs_record(&host, tx_nolock, K_SENSOR, &e); break;
            default: evrec_qs_record(NULL, tx, K_SENSOR, &e); break;
            }
        }
        t[r] = (now_ns() - t0) / ITERS;
        evrec_host_stop(&host, NULL);
        if (evrec_recorder_counts(&rec).dropped) {
            fprintf(stderr, "bench_qs_record: the trace buffer filled\n");
            exit(1);
        }
    }
    qsort(t, RUNS, sizeof t[0], cmp);
    return t[RUNS / 2];
}

static void run_all(const char *title, ring_t *rl, ring_t *rn)
{
    run_mode(MODE_RAM, rl, rn); /* warm-up */
    double ram = run_mode(MODE_RAM, rl, rn);
    double both = run_mode(MODE_RAM_QS, rl, rn);
    double nolock = run_mode(MODE_RAM_QS_NOLOCK, rl, rn);
    double qs = run_mode(MODE_QS, rl, rn);
    printf("3-field event, host, %s, median of %d x %d:\n", title, RUNS, ITERS);
    printf("  RAM only (reserve, 3 stores, commit)          %6.1f ns/event\n", ram);
    printf("  RAM + live QS (evrec_qs_record, spinlock)     %6.1f ns/event (+%.1f ns)\n", both, both - ram);
    printf("  RAM + live QS (evrec_qs_record, no lock)      %6.1f ns/event (+%.1f ns)\n", nolock, nolock - ram);
    printf("  QS only (evrec_qs_record with host NULL)      %6.1f ns/event\n", qs);
}

int main(void)
{
    static uint8_t trace[4u << 20] __attribute__((aligned(64)));
    enum { BIG = 2u << 20, SMALL = 1u << 16 };
    uint8_t *m1 = aligned_alloc(8, BIG), *m2 = aligned_alloc(8, BIG);
    if (!m1 || !m2 || evrec_recorder_init(&rec, trace, sizeof trace) != EVREC_OK) return 1;
    evrec_host_init(&host);
    evrec_qs_tx_t tx, tx_nolock;
    evrec_qs_spinlock_t lock;
    evrec_qs_spin_init(&lock);
    evrec_qs_options_t on, ol;
    memset(&on, 0, sizeof on);
    on.time_size = 4;
    ol = on;
    ol.lock = (evrec_qs_lock_t){evrec_qs_spin_enter, evrec_qs_spin_exit, &lock};
    ring_t rl = {&tx, m1, BIG, &ol, 1}, rn = {&tx_nolock, m2, BIG, &on, 1};
    run_all("ring with room (2 MiB)", &rl, &rn);
    rl.size = rn.size = SMALL;
    rl.fresh = rn.fresh = 0;
    if (evrec_qs_tx_init(&tx, &k_meta, m1, SMALL, &ol) != EVREC_OK) return 1;
    if (evrec_qs_tx_init(&tx_nolock, &k_meta, m2, SMALL, &on) != EVREC_OK) return 1;
    run_all("ring full (64 KiB, never drained: overwrite)", &rl, &rn);

    /* Bytes per event: QS frame (the last one written) vs the packed .evr record. */
    sensor_event_t e = k_sensor(0x12345678u, 3, 0x0102, 0x0A0B0C0Du);
    uint8_t out[64];
    size_t n = 0;
    evrec_qs_encode_event(&tx.map, 1, &e, out, sizeof out, &n);
    printf("bytes per event: QS frame %zu (4-byte timestamp, no escaped byte), .evr record %u (packed), "
           "RAM slot %zu\n",
           n, evrec_meta_packed_size(&k_meta, K_STRUCT_SENSOR), sizeof(sensor_event_t));
    free(m1);
    free(m2);
    return 0;
}
