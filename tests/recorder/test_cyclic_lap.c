/* SPDX-License-Identifier: Apache-2.0 */
/* Four threads lap a small cyclic ring (64 KiB: 64 blocks of 1 KiB) many times, some of their
 * records slow (a pause between writing the fields and committing), so that blocks are cleared
 * and reused while other threads still write in them. Also built under ThreadSanitizer
 * (tests/tsan): the ring's intentional races are annotated, any other report fails. After the
 * stop: every record saved is intact, and each is either saved, overwritten or dropped. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_reader.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"
#include "mem_sink.h"
#include "probe_meta.h"

#ifndef TEST_LAP_RECORDS
#define TEST_LAP_RECORDS 100000u /* per thread: about 100 laps of the ring */
#endif

enum { THREADS = 4, BLOCK = 1024, BLOCKS = 64 };

typedef struct lapper {
    evrec_host_t *host;
    uint16_t source;
    uint32_t recorded;
} lapper_t;

static void *lap(void *arg)
{
    lapper_t *l = arg;
    for (uint32_t seq = 0; seq < TEST_LAP_RECORDS; seq++) {
        probe_event_t *e = evrec_reserve(l->host, sizeof *e);
        if (!e) {
            continue; /* a drop (another context was clearing the next block): counted */
        }
        e->source = l->source;
        e->seq = seq;
        e->check = probe_check(l->source, seq);
        if (seq % 1024 == 7) {
            for (volatile int k = 0; k < 20000; k++) {
            } /* a slow writer */
        }
        evrec_commit(e, PROBE_EVENT_PROBE);
        l->recorded++;
    }
    return NULL;
}

Test(cyclic_lap, four_threads_lap_a_64k_ring, .timeout = 300)
{
    size_t size = EVREC_CYCLIC_BUFFER_SIZE(BLOCKS, BLOCK);
    uint8_t *mem = aligned_alloc(64, size);
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, size, BLOCK), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 1000), EVREC_OK);
    lapper_t l[THREADS];
    pthread_t t[THREADS];
    for (int k = 0; k < THREADS; k++) {
        l[k] = (lapper_t){&host, (uint16_t)(k + 1), 0};
        cr_assert_eq(pthread_create(&t[k], NULL, lap, &l[k]), 0);
    }
    uint64_t total = 2; /* Start, Stop */
    for (int k = 0; k < THREADS; k++) {
        cr_assert_eq(pthread_join(t[k], NULL), 0);
        total += l[k].recorded;
    }
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    evrec_recorder_counts_t c = evrec_recorder_counts(&rec);
    cr_assert_gt(c.overwritten, (uint64_t)TEST_LAP_RECORDS, "the ring lapped many times");
    /* Each record is saved or counted as overwritten, except (evrec_recorder_init_cyclic()) the
     * records of a block that a slow context still held when its slot came round again: the slot
     * is skipped, and the records left in it are older than the ring's window and neither saved
     * nor counted at the stop. At most one block per thread. */
    uint64_t counted = c.recorded + c.overwritten;
    cr_assert_leq(counted, total, "%llu saved + %llu overwritten > %llu", (unsigned long long)c.recorded,
                  (unsigned long long)c.overwritten, (unsigned long long)total);
    cr_assert_leq(total - counted, (uint64_t)THREADS * (BLOCK / sizeof(probe_event_t)),
                  "%llu records neither saved nor counted", (unsigned long long)(total - counted));
    mem_sink_t m = {0};
    evrec_sink_t sink = mem_sink_of(&m);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, m.data, m.len, NULL), EVREC_OK);
    evrec_record_t e;
    evrec_status st;
    uint64_t n = 0;
    while ((st = evrec_reader_next(r, &e)) == EVREC_OK) {
        n++;
        if (e.id == PROBE_EVENT_PROBE) {
            uint16_t src = (uint16_t)(e.data[6] << 8 | e.data[7]);
            uint32_t seq = (uint32_t)e.data[8] << 24 | (uint32_t)e.data[9] << 16 | (uint32_t)e.data[10] << 8 |
                           e.data[11];
            uint32_t check = (uint32_t)e.data[12] << 24 | (uint32_t)e.data[13] << 16 | (uint32_t)e.data[14] << 8 |
                             e.data[15];
            cr_assert_eq(check, probe_check(src, seq), "source %u seq %u torn", src, seq);
        }
    }
    cr_assert_eq(st, EVREC_E_END, "read: %s", evrec_reader_error(r)->message);
    cr_assert_eq(n, c.recorded);
    evrec_reader_close(r);
    free(m.data);
    free(mem);
}
