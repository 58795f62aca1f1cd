/* SPDX-License-Identifier: Apache-2.0 */
/* Instruction-count firmware for streaming over RTT (bench/peers/m4/README.md,
 * scripts/bench-stream-m4.sh): what a 3-field record costs in streaming mode and what moving the
 * recorded bytes into an RTT up-channel (evrec/evrec_rtt.h) costs per byte, counted under QEMU
 * with `-singlestep -d exec,nochain` the way scripts/insn-count.sh counts (the instructions
 * between two insn_mark() calls). Segments, in order:
 *   1 empty     INSN_N calls of an empty function (the baseline of segment 2)
 *   2 sswitch   INSN_N fw_record_ContextSwitch() (3 fields) into the stream's ring
 *   3 null      nothing between the two marks (the baseline of segment 4)
 *   4 drain     evrec_rtt_drain() until it returns 0: the INSN_N records of segment 2 converted
 *               into frames (headers, CRC-32C) and written into the up buffer
 * Then it prints through semihosting "drain_bytes B records R": the bytes segment 4 wrote into the
 * up buffer and the records segment 2 recorded. Before the segments the stream runs three laps of
 * its ring, drained as they fill (the meta document is sent then, not in segment 4), and the up
 * buffer is emptied as a probe would (RdOff = WrOff) after every drain, outside the segments: the
 * up buffer's position at segment 4 is where the laps left it, so a wrap through the scratch
 * buffer may fall in it as it does in a real run.
 * Exit code 0 when nothing was dropped and the stream ended (S_END sent), else 1. */
#include <stdint.h>

#include "evrec/evrec_recorder.h"
#include "evrec/evrec_rtt.h"
#include "evrec/evrec_stream.h"
#include "fw_events.h"
#include "semihost.h"

#ifndef INSN_N
#define INSN_N 256u
#endif

static uint64_t trace[(INSN_N * 64u + 1024u) / 8u] __attribute__((section(".evrec_trace")));
static evrec_stream_t stream;
static evrec_host_t host;
evrec_rtt_t _SEGGER_RTT;
static uint8_t up[INSN_N * 32u + 4096u];
static uint8_t scratch[EVREC_STREAM_MIN_CAP + 512u];

#define MEASURED __attribute__((noinline, noipa))
void insn_mark(void);
MEASURED void insn_mark(void)
{
    __asm__ volatile("" ::: "memory");
}

MEASURED static void rec_empty(uint32_t v)
{
    __asm__ volatile("" : : "r"(v) : "memory");
}
MEASURED static void rec_switch(uint32_t v)
{
    fw_record_ContextSwitch(&host, fw_SwitchKind_SyncResume, v, v ^ 0x20000000u);
}

/* One record segment: from the first insn_mark() to the second, the same code around each. */
static void run(void (*fn)(uint32_t))
{
    insn_mark();
    for (uint32_t i = 0; i < INSN_N; i++) {
        fn(i);
    }
    insn_mark();
}

/* Drain everything into the up buffer, then read it all as a probe would. */
static void drain_all(void)
{
    while (evrec_rtt_drain(&_SEGGER_RTT, &stream, scratch, sizeof scratch) != 0) {
    }
    _SEGGER_RTT.cb.up.rd_off = _SEGGER_RTT.cb.up.wr_off;
}

int main(void)
{
    if (evrec_rtt_init(&_SEGGER_RTT, up, sizeof up, "evrec", EVREC_RTT_SKIP) != EVREC_OK ||
        evrec_stream_init(&stream, trace, sizeof trace, 1024, 0) != EVREC_OK ||
        evrec_stream_start(&stream, &host, &fw_meta, 0, 1) != EVREC_OK) {
        sh_exit(2);
    }
    volatile uint32_t laps = 3;
    for (uint32_t i = 0; i < laps * sizeof trace / 16u; i++) {
        rec_switch(i);
        if (i % 16u == 15u) {
            drain_all();
        }
    }
    drain_all();
    uint64_t before = evrec_rtt_counts(&_SEGGER_RTT).bytes_written;
    uint64_t sent = evrec_stream_counts(&stream).sent;
    run(rec_empty);
    run(rec_switch);
    insn_mark(); /* null */
    insn_mark();
    insn_mark(); /* drain */
    while (evrec_rtt_drain(&_SEGGER_RTT, &stream, scratch, sizeof scratch) != 0) {
    }
    insn_mark();
    uint64_t bytes = evrec_rtt_counts(&_SEGGER_RTT).bytes_written - before;
    uint64_t records = evrec_stream_counts(&stream).sent - sent;
    sh_puts("drain_bytes ");
    sh_put_u32((uint32_t)bytes);
    sh_puts(" records ");
    sh_put_u32((uint32_t)records);
    sh_puts("\n");
    _SEGGER_RTT.cb.up.rd_off = _SEGGER_RTT.cb.up.wr_off;
    (void)evrec_host_stop(&host, NULL);
    drain_all();
    sh_exit(records == INSN_N && evrec_stream_done(&stream) && evrec_stream_counts(&stream).dropped == 0 ? 0 : 1);
}
