/* SPDX-License-Identifier: Apache-2.0 */
/* evrec-bench-stream: a host target in streaming mode (evrec/evrec_stream.h) writing its frames
 * (FORMAT.md section 8) to standard output, for the `evrec record` benchmarks (a benchmark tool,
 * not a test). Each record is a Stamp {source, seq, mono_hi, mono_lo}: mono is CLOCK_MONOTONIC in
 * ns when the record was committed, so that a reader of `evrec record --show` or `evrec dump -f`
 * can tell how long after its commit it was shown.
 *
 *   evrec-bench-stream [--rate BYTES_PER_S] [--seconds S] [--records N]
 *
 * Without --rate: as fast as it can (record a batch, drain it, write it). With --rate: paced in
 * 10 ms steps to that many bytes of records per second. Stops after S seconds or N records
 * (default 5 s), then sends S_END. Counts go to stderr. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "evrec/evrec_recorder.h"
#include "evrec/evrec_stream.h"
#include "evrec_posix.h"

typedef struct stamp_event {
    uint32_t time;
    uint16_t id;
    uint16_t source;
    uint32_t seq;
    uint32_t mono_hi;
    uint32_t mono_lo;
} stamp_event_t;

static const evrec_enum_value_t control_values[] = {EVREC_CONTROL_ENUM_VALUES};
static const evrec_enum_desc_t enums[] = {{"EventControlType", EVREC_KIND_ENUM_UINT8, 4, control_values, NULL}};
static const evrec_field_desc_t control_fields[] = {EVREC_CONTROL_FIELDS(0)};
static const evrec_field_desc_t stamp_fields[] = {
    {"time", EVREC_KIND_UINT32, 0, 0},
    {"id", EVREC_KIND_UINT16, 0, 4},
    {"source", EVREC_KIND_UINT16, 0, offsetof(stamp_event_t, source)},
    {"seq", EVREC_KIND_UINT32, 0, offsetof(stamp_event_t, seq)},
    {"mono_hi", EVREC_KIND_UINT32, 0, offsetof(stamp_event_t, mono_hi)},
    {"mono_lo", EVREC_KIND_UINT32, 0, offsetof(stamp_event_t, mono_lo)}};
static const evrec_struct_desc_t structs[] = {{"EventControl", 3, control_fields, 8},
                                              {"Stamp", 6, stamp_fields, sizeof(stamp_event_t)}};
static const evrec_event_desc_t events[] = {{0, 0}, {1, 1}};
static const evrec_meta_t meta = {0, 1, enums, 2, structs, 2, events, 0, NULL, NULL};

static _Alignas(8) uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(256, 4096)];
static uint8_t out[1u << 16];

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int write_all(const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t k = write(STDOUT_FILENO, p, n);
        if (k < 0 && errno == EINTR) {
            continue;
        }
        if (k <= 0) {
            return 0;
        }
        p += k;
        n -= (size_t)k;
    }
    return 1;
}

/* Drains everything the stream has now into standard output. */
static int drain(evrec_stream_t *s, uint64_t *bytes)
{
    size_t n;
    while ((n = evrec_stream_drain(s, out, sizeof out)) != 0) {
        if (!write_all(out, n)) {
            return 0;
        }
        *bytes += n;
    }
    return 1;
}

static int record_one(evrec_host_t *h, uint32_t seq)
{
    stamp_event_t *e = (stamp_event_t *)evrec_reserve(h, sizeof *e);
    if (!e) {
        return 0;
    }
    uint64_t t = mono_ns();
    e->source = 1;
    e->seq = seq;
    e->mono_hi = (uint32_t)(t >> 32);
    e->mono_lo = (uint32_t)t;
    evrec_commit(e, 1);
    return 1;
}

int main(int argc, char **argv)
{
    double rate = 0, seconds = 5;
    uint64_t limit = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--rate") == 0) {
            rate = atof(argv[i + 1]);
        } else if (strcmp(argv[i], "--seconds") == 0) {
            seconds = atof(argv[i + 1]);
        } else if (strcmp(argv[i], "--records") == 0) {
            limit = strtoull(argv[i + 1], NULL, 10);
        } else {
            fprintf(stderr, "usage: evrec-bench-stream [--rate BYTES_PER_S] [--seconds S] [--records N]\n");
            return 2;
        }
    }
    static evrec_stream_t s;
    static evrec_host_t h;
    evrec_host_init(&h);
    if (evrec_stream_init(&s, ring, sizeof ring, 4096, 1000) != EVREC_OK ||
        evrec_stream_start(&s, &h, &meta, evrec_posix_time_freq(0), 0) != EVREC_OK) {
        fprintf(stderr, "evrec-bench-stream: cannot start the stream\n");
        return 1;
    }
    uint64_t start = mono_ns(), bytes = 0, recorded = 0, dropped = 0, step = 0;
    uint32_t seq = 0;
    const uint64_t per_step = rate > 0 ? (uint64_t)(rate / 100.0 / sizeof(stamp_event_t)) + 1u : 4096u;
    int ok = 1;
    while (ok && (limit ? seq < limit : mono_ns() - start < (uint64_t)(seconds * 1e9))) {
        for (uint64_t k = 0; k < per_step && (!limit || seq < limit); k++, seq++) {
            int r = record_one(&h, seq);
            recorded += (uint64_t)r;
            dropped += (uint64_t)!r;
        }
        ok = drain(&s, &bytes);
        if (rate > 0) {
            uint64_t due = start + ++step * 10000000u, now = mono_ns();
            if (due > now) {
                struct timespec ts = {(time_t)((due - now) / 1000000000u), (long)((due - now) % 1000000000u)};
                nanosleep(&ts, NULL);
            }
        }
    }
    evrec_host_stop(&h, NULL);
    while (ok && !evrec_stream_done(&s)) {
        ok = drain(&s, &bytes);
    }
    double el = (double)(mono_ns() - start) / 1e9;
    fprintf(stderr, "evrec-bench-stream: %llu records (%llu dropped), %llu bytes in %.2f s: %.1f MB/s\n",
            (unsigned long long)recorded, (unsigned long long)dropped, (unsigned long long)bytes, el,
            (double)bytes / el / 1e6);
    return ok ? 0 : 1;
}
