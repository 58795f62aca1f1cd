/* SPDX-License-Identifier: Apache-2.0 */
/* Contender "floor": the timestamp read alone (evrec's EVREC_PORT_TIMESTAMP() of the POSIX port,
 * the low 32 bits of the TSC on x86-64). Every contender reads one timestamp per record, so no
 * recorder can be cheaper than this; the table gives every other row as a multiple of it. */
#include "evrec_port.h"
#include "peers.h"

static volatile uint32_t sink[PEERS_MAX_THREADS * 16];

__attribute__((noinline)) static void floor_run(int thread, size_t n)
{
    uint32_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        acc += EVREC_PORT_TIMESTAMP();
    }
    sink[thread * 16] = acc; /* one store per batch, on its own cache line per thread */
}

const peer_contender_t peer_floor = {
    .key = "floor",
    .name = "floor: EVREC_PORT_TIMESTAMP() alone",
    .run = floor_run,
};
