/* SPDX-License-Identifier: Apache-2.0 */
/* Contender "snprintf": a text log line per record, formatted with snprintf() into a RAM buffer
 * of its own per thread (no sharing, so no atomic: the cheapest text logger can do). The line is
 * "<timestamp> bench c=<c> b=<b> a=<a>\n" (decimal). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec_port.h"
#include "peers.h"

/* The longest line: 10 + 11 + 3 + 3 + 5 + 3 + 10 + 1 = 46 characters; 48 bytes of room. */
#define LINE_MAX_BYTES 48u

static char *buf[PEERS_MAX_THREADS];
static size_t cap;
static size_t used[PEERS_MAX_THREADS * 8]; /* one cache line per thread */
static size_t lines[PEERS_MAX_THREADS * 8];

static int sn_setup(size_t n, const char **why)
{
    cap = n * LINE_MAX_BYTES + LINE_MAX_BYTES;
    for (int t = 0; t < PEERS_MAX_THREADS; t++) {
        buf[t] = malloc(cap);
        if (!buf[t]) {
            *why = "out of memory";
            return -1;
        }
        memset(buf[t], 0, cap);
    }
    return 0;
}

static int sn_prepare(size_t n, int threads)
{
    (void)n;
    for (int t = 0; t < threads; t++) {
        used[t * 8] = 0;
        lines[t * 8] = 0;
    }
    return 0;
}

__attribute__((noinline)) static void sn_run(int thread, size_t n)
{
    char *p = buf[thread];
    size_t at = 0, k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t ts = EVREC_PORT_TIMESTAMP();
        int len = snprintf(p + at, cap - at, "%u bench c=%u b=%u a=%u\n", (unsigned)ts, (unsigned)(uint8_t)i,
                           (unsigned)(uint16_t)i, (unsigned)(uint32_t)i);
        if (len > 0 && (size_t)len < cap - at) {
            at += (size_t)len;
            k++;
        }
    }
    used[thread * 8] = at;
    lines[thread * 8] = k;
}

static int sn_check(size_t n, int threads, const char **why)
{
    for (int t = 0; t < threads; t++) {
        if (lines[t * 8] != n) {
            *why = "a line did not fit";
            return -1;
        }
    }
    return 0;
}

static double sn_bytes(void)
{
    return lines[0] ? (double)used[0] / (double)lines[0] : 0.0;
}

static void sn_teardown(void)
{
    for (int t = 0; t < PEERS_MAX_THREADS; t++) {
        free(buf[t]);
        buf[t] = NULL;
    }
}

const peer_contender_t peer_snprintf = {
    .key = "snprintf",
    .name = "snprintf into a RAM buffer (per thread)",
    .setup = sn_setup,
    .prepare = sn_prepare,
    .run = sn_run,
    .check = sn_check,
    .bytes_per_record = sn_bytes,
    .teardown = sn_teardown,
};
