/* SPDX-License-Identifier: Apache-2.0 */
/* Contender "lttng": an LTTng-UST tracepoint (lttng_tp.h). It records only while a session with
 * evrec_peers:bench enabled is active: scripts/bench-peers.sh starts a session daemon and a
 * snapshot (flight-recorder) session whose per-user ring buffers overwrite the oldest packets, so
 * no event is discarded and nothing is written to disk while the benchmark runs. Without an
 * active session the contender is left out (a disabled tracepoint costs one branch). */
#include <time.h>

#include "lttng_tp.h"
#include "peers.h"

static int lt_setup(size_t n, const char **why)
{
    (void)n;
    /* The session daemon enables the tracepoint shortly after the process registers. */
    for (int i = 0; i < 100 && !lttng_ust_tracepoint_enabled(evrec_peers, bench); i++) {
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (!lttng_ust_tracepoint_enabled(evrec_peers, bench)) {
        *why = "no active LTTng session with evrec_peers:bench enabled (run scripts/bench-peers.sh)";
        return -1;
    }
    return 0;
}

static int lt_prepare(size_t n, int threads)
{
    (void)n;
    (void)threads;
    return lttng_ust_tracepoint_enabled(evrec_peers, bench) ? 0 : -1;
}

__attribute__((noinline)) static void lt_run(int thread, size_t n)
{
    (void)thread;
    for (size_t i = 0; i < n; i++) {
        lttng_ust_tracepoint(evrec_peers, bench, (uint8_t)i, (uint16_t)i, (uint32_t)i);
    }
}

static int lt_check(size_t n, int threads, const char **why)
{
    (void)n;
    (void)threads;
    if (!lttng_ust_tracepoint_enabled(evrec_peers, bench)) {
        *why = "the LTTng session stopped during the run";
        return -1;
    }
    return 0;
}

const peer_contender_t peer_lttng = {
    .key = "lttng",
    .name = "LTTng-UST tracepoint (snapshot session)",
    .setup = lt_setup,
    .prepare = lt_prepare,
    .run = lt_run,
    .check = lt_check,
};
