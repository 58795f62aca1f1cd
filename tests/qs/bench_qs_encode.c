/* SPDX-License-Identifier: Apache-2.0 */
/* Cost of encoding one 3-field event as a QS frame (host), and wire size vs the packed .evr
 * record. Not a test: run `build-qs/tests/qs/bench_qs_encode`. Median of 31 runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evrec/evrec_qs.h"
#include "evrec/evrec_qs_tx.h"
#include "qs_test_meta.h"

#define RUNS 31
#define ITERS 200000

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

static volatile size_t sink;

int main(void)
{
    static uint8_t buf[1 << 16] __attribute__((aligned(4)));
    evrec_qs_map_t map;
    evrec_qs_event_map_t entries[K_EVENT_COUNT];
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.field_display = k_display;
    if (evrec_qs_map_init(&map, &k_meta, &o, entries, sizeof entries) != EVREC_OK) return 1;
    sensor_event_t e = k_sensor(0x12345678u, 3, 0x0102, 0xCAFEBABEu);
    uint8_t out[64];
    size_t n = 0;
    evrec_qs_encode_event(&map, 1, &e, out, sizeof out, &n);
    printf("3-field event (u8, u16, u32): packed .evr record %u bytes (native struct %zu), "
           "QS frame %zu bytes with a 4-byte timestamp",
           evrec_meta_packed_size(&k_meta, K_STRUCT_SENSOR), sizeof e, n);
    o.time_size = 2;
    evrec_qs_map_t map2;
    evrec_qs_event_map_t entries2[K_EVENT_COUNT];
    evrec_qs_map_init(&map2, &k_meta, &o, entries2, sizeof entries2);
    size_t n2 = 0;
    evrec_qs_encode_event(&map2, 1, &e, out, sizeof out, &n2);
    printf(", %zu with a 2-byte timestamp (no escapes in these values)\n", n2);

    double t[RUNS];
    for (int r = 0; r < RUNS; r++) {
        double t0 = now_ns();
        for (int i = 0; i < ITERS; i++) {
            e.time = (uint32_t)i;
            evrec_qs_encode_event(&map, (uint8_t)i, &e, out, sizeof out, &n);
            sink += n;
        }
        t[r] = (now_ns() - t0) / ITERS;
    }
    qsort(t, RUNS, sizeof t[0], cmp);
    printf("evrec_qs_encode_event (flat buffer): median %.1f ns/event (min %.1f, max %.1f)\n", t[RUNS / 2], t[0],
           t[RUNS - 1]);

    evrec_qs_tx_t tx;
    evrec_qs_spinlock_t lock;
    evrec_qs_spin_init(&lock);
    o.time_size = 4;
    o.lock = (evrec_qs_lock_t){evrec_qs_spin_enter, evrec_qs_spin_exit, &lock};
    if (evrec_qs_tx_init(&tx, &k_meta, buf, sizeof buf, &o) != EVREC_OK) return 1;
    for (int r = 0; r < RUNS; r++) {
        double t0 = now_ns();
        for (int i = 0; i < ITERS; i++) {
            e.time = (uint32_t)i;
            evrec_qs_tx_event(&tx, &e); /* ring full most of the time: includes overwrite */
        }
        t[r] = (now_ns() - t0) / ITERS;
    }
    qsort(t, RUNS, sizeof t[0], cmp);
    printf("evrec_qs_tx_event (ring + spinlock, last-is-best overwrite): median %.1f ns/event\n", t[RUNS / 2]);

    evrec_qs_tx_global_filter(&tx, K_SENSOR, 0);
    for (int r = 0; r < RUNS; r++) {
        double t0 = now_ns();
        for (int i = 0; i < ITERS; i++) {
            e.time = (uint32_t)i;
            evrec_qs_tx_event(&tx, &e);
        }
        t[r] = (now_ns() - t0) / ITERS;
    }
    qsort(t, RUNS, sizeof t[0], cmp);
    printf("evrec_qs_tx_event, filtered out: median %.1f ns/event\n", t[RUNS / 2]);
    return 0;
}
