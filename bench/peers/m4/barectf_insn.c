/* SPDX-License-Identifier: Apache-2.0 */
/* Instructions executed per event by barectf's generated tracer on a Cortex-M4 (counted under
 * QEMU by barectf-insn-count.sh), for the peer table of bench/peers/BENCHMARKS.md: the tracer
 * generated from ../barectf.yaml, with a RAM platform like the host one (4 KiB packets in a RAM
 * area, the next packet opened in place when one is full, no lock) and DWT CYCCNT as the clock
 * (the load evrec's Cortex-M port uses). BARECTF_INSN_N events between two insn_mark() calls,
 * after an empty loop of the same length (the baseline). */
#include <stddef.h>
#include <stdint.h>

#include "barectf.h"
#include "semihost.h"

#ifndef BARECTF_INSN_N
#define BARECTF_INSN_N 1024
#endif
#define PACKET 4096u
#define PACKETS 8u

void insn_mark(void) __attribute__((noinline));
void insn_mark(void)
{
    __asm__ volatile("" ::: "memory");
}

static uint8_t area[PACKETS * PACKET] __attribute__((aligned(8)));
static struct barectf_default_ctx ctx;
static uint32_t at, closed;

static uint64_t clock_value(void *data)
{
    (void)data;
    return *(volatile uint32_t *)0xE0001004u; /* DWT CYCCNT */
}

static int is_backend_full(void *data)
{
    (void)data;
    return at + PACKET > sizeof area;
}

static void open_packet(void *data)
{
    (void)data;
    barectf_default_open_packet(&ctx);
}

static void close_packet(void *data)
{
    (void)data;
    barectf_default_close_packet(&ctx);
    closed++;
    at += PACKET;
    if (at + PACKET <= sizeof area) {
        barectf_packet_set_buf(&ctx, area + at, PACKET);
    }
}

int main(void)
{
    struct barectf_platform_callbacks cbs = {clock_value, is_backend_full, open_packet, close_packet};
    barectf_init(&ctx, area, PACKET, cbs, NULL);
    open_packet(NULL);
    volatile uint32_t sink = 0;

    insn_mark();
    for (uint32_t i = 0; i < BARECTF_INSN_N; i++) {
        sink = i;
    }
    insn_mark();

    insn_mark();
    for (uint32_t i = 0; i < BARECTF_INSN_N; i++) {
        barectf_trace_bench(&ctx, (uint8_t)i, (uint16_t)i, i);
    }
    insn_mark();

    (void)sink;
    /* Every event went into a packet (none discarded) and packets were switched on the way. */
    sh_exit(barectf_discarded_event_records_count(&ctx) == 0 && closed > 0 ? 0 : 1);
}
