/* SPDX-License-Identifier: Apache-2.0 */
/* Not a test: host instructions per 3-field event, deterministic where timings are not (a shared
 * machine): `bench_qs_host_insn MODE` records N events, MODE 0 RAM only (evrec_qs_record with tx
 * NULL), 1 RAM + live QS (evrec_qs_record, no lock, ring with room), 2 QS only, 9 the empty loop.
 * Count with valgrind: `valgrind --tool=callgrind --callgrind-out-file=OUT bench_qs_host_insn M`
 * ("Collected" = instructions); (Ir(M) - Ir(9)) / N per event (format/qs/QS.md section 8). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evrec_posix.h"
#include "evrec/evrec_qs_record.h"
#include "qs_test_meta.h"
#ifndef N
#define N 200000
#endif
static evrec_host_t host;
static evrec_recorder_t rec;
int main(int argc, char **argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 0;
    size_t tsz = 64u << 20, qsz = 64u << 20;
    uint8_t *trace = aligned_alloc(64, tsz), *qm = aligned_alloc(8, qsz);
    memset(trace, 0, tsz);
    memset(qm, 0, qsz);
    if (evrec_recorder_init(&rec, trace, tsz) != EVREC_OK) return 1;
    evrec_host_init(&host);
    evrec_qs_tx_t tx;
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.time_size = 4;
    if (evrec_qs_tx_init(&tx, &k_meta, qm, qsz, &o) != EVREC_OK) return 1;
    evrec_host_start(&host, &rec, &k_meta, 0);
    sensor_event_t e = k_sensor(0, 3, 0x0102, 0);
    for (int i = 0; i < N; i++) {
        e.value = (uint32_t)i;
        switch (mode) {
        case 0: evrec_qs_record(&host, NULL, K_SENSOR, &e); break;
        case 1: evrec_qs_record(&host, &tx, K_SENSOR, &e); break;
        case 2: evrec_qs_record(NULL, &tx, K_SENSOR, &e); break;
        default: __asm__ volatile("" ::"r"(&e) : "memory"); break;
        }
    }
    evrec_host_stop(&host, NULL);
    printf("mode %d: %d events, %llu QS frames\n", mode, N, (unsigned long long)tx.frames);
    free(trace);
    free(qm);
    return 0;
}
