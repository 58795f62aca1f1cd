/* SPDX-License-Identifier: Apache-2.0 */
/* The recording the FreeRTOS hook tests share: one host on a fake-clock recorder attached to the
 * port (evrec_freertos_init()), started; stop() reads the records back (EventControl left out).
 * Include after evrec_freertos.h and freertos_events.h, in one test file each. */
#ifndef EVREC_TESTS_FREERTOS_RECORDING_H
#define EVREC_TESTS_FREERTOS_RECORDING_H

#include <criterion/criterion.h>
#include <string.h>

static evrec_host_t host;
static evrec_recorder_t rec;
static uint32_t buf[4096];

/* A fresh recorder and host, the port attached to it, recording started. */
static void recording_start(void)
{
    evrec_host_t *hosts[1] = {&host};
    cr_assert_eq(evrec_recorder_init(&rec, buf, sizeof buf), EVREC_OK);
    evrec_host_init(&host);
    cr_assert_eq(evrec_freertos_init(hosts, 1), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &freertos_meta, 1000u), EVREC_OK);
}

/* The records after Start, up to Stop: pointers into the buffer and their ids. */
typedef struct {
    const uint8_t *p[64];
    uint16_t id[64];
    unsigned n;
} recs_t;

static recs_t stop(void)
{
    recs_t r = {{0}, {0}, 0};
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    const uint8_t *p = evrec_recorder_records(&rec);
    const uint8_t *end = p + evrec_recorder_counts(&rec).used;
    while (p < end) {
        uint16_t id;
        memcpy(&id, p + 4, sizeof id);
        cr_assert_lt(id, freertos_meta.event_count);
        size_t size = freertos_meta.structs[freertos_meta.events[id].struct_id].native_size;
        if (id != 0u) { /* not EventControl */
            cr_assert_lt(r.n, 64u);
            r.p[r.n] = p;
            r.id[r.n++] = id;
        }
        p += (size + 3u) & ~(size_t)3u;
    }
    return r;
}

#endif
