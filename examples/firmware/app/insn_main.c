/* SPDX-License-Identifier: Apache-2.0 */
/* Instruction-count firmware (scripts/insn-count.sh): runs loops of INSN_N records of each kind
 * with nothing else going on (no interrupts), separated by calls to insn_mark(). QEMU run with
 * `-singlestep -d exec,nochain` logs every executed instruction; the script counts those
 * between consecutive insn_mark() calls and subtracts the empty loop, giving the instructions
 * executed per record. Each record sits alone in a function the compiler may not inline or
 * analyse across (noipa), so nothing is hoisted out of the loop: the count is that of one call
 * site in ordinary code, prologue and epilogue included. run() marks the start and the end of
 * each loop, so every measured segment has the same code around it. Loops, in order:
 *   1 empty     the loop calling an empty function (the baseline)
 *   2 value     fw_record_Value(): one u32 payload (Trice, SystemView... comparison)
 *   3 switch    fw_record_ContextSwitch(): a 3-field event (16 bytes, the ThreadX logger's entry)
 *   4 tick      evrec_tick(): EventControl Tick, out of line
 *   5 generic   evrec_record(): the table-driven path with a complete struct
 *   6 detached  fw_record_Value() with no recorder attached (after evrec_host_stop())
 *   7 cvalue    fw_record_Value() into the same buffer in cyclic mode (1 KiB blocks)
 *   8 cswitch   fw_record_ContextSwitch() in cyclic mode
 *   9 svalue    fw_record_Value() into the same buffer in streaming mode (evrec/evrec_stream.h)
 *  10 sswitch   fw_record_ContextSwitch() in streaming mode
 * The streaming loops run after three laps drained by evrec_stream_drain() (outside the
 * measured loops: the drain is another context's cost), with the ring drained empty first, so
 * they never drop; their block switches are in the figure.
 * The cyclic loops run in the steady state: the ring has lapped three times before, so every
 * block switch inside them also clears one block ahead and counts the records it overwrites;
 * that cost, spread over the records of a block, is in the figure.
 * The exit code is 0 when every record landed in the buffer (no drop), else 1. */
#include <stdint.h>

#include "evrec/evrec_recorder.h"
#include "evrec/evrec_stream.h"
#include "fw_events.h"
#include "semihost.h"

#ifndef INSN_N
#define INSN_N 256u
#endif

static uint64_t trace[(INSN_N * 64u + 1024u) / 8u] __attribute__((section(".evrec_trace")));
static evrec_recorder_t recorder;
static evrec_stream_t stream;
static uint8_t frames[1024];
static evrec_host_t host;

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
MEASURED static void rec_value(uint32_t v)
{
    fw_record_Value(&host, v);
}
MEASURED static void rec_switch(uint32_t v)
{
    fw_record_ContextSwitch(&host, fw_SwitchKind_SyncResume, v, v ^ 0x20000000u);
}
MEASURED static void rec_tick(uint32_t v)
{
    (void)v;
    (void)evrec_tick(&host);
}
MEASURED static void rec_generic(uint32_t v)
{
    fw_Value_t e = {0, 0, v};
    (void)evrec_record(&host, fw_ID_Value, &e);
}

/* One segment: from the first insn_mark() to the second, the same code around every loop. */
static void run(void (*fn)(uint32_t))
{
    insn_mark();
    for (uint32_t i = 0; i < INSN_N; i++) {
        fn(i);
    }
    insn_mark();
}

int main(void)
{
    if (evrec_recorder_init(&recorder, trace, sizeof trace) != EVREC_OK ||
        evrec_host_start(&host, &recorder, &fw_meta, 0) != EVREC_OK) {
        sh_exit(2);
    }
    run(rec_empty);
    run(rec_value);
    run(rec_switch);
    run(rec_tick);
    run(rec_generic);
    evrec_recorder_t *rec = 0;
    (void)evrec_host_stop(&host, &rec);
    run(rec_value); /* detached */
    int oneshot_ok = rec && evrec_recorder_counts(rec).dropped == 0 &&
                     evrec_recorder_counts(rec).recorded == 4u * INSN_N + 2u;
    if (evrec_recorder_init_cyclic(&recorder, trace, sizeof trace, 1024) != EVREC_OK ||
        evrec_host_start(&host, &recorder, &fw_meta, 0) != EVREC_OK) {
        sh_exit(3);
    }
    volatile uint32_t warm = 3; /* laps */
    for (uint32_t i = 0; i < warm * sizeof trace / 16u; i++) {
        rec_switch(i); /* three laps: the steady state */
    }
    run(rec_value);
    run(rec_switch);
    rec = 0;
    (void)evrec_host_stop(&host, &rec);
    int cyclic_ok = rec && evrec_recorder_counts(rec).dropped == 0 && evrec_recorder_counts(rec).overwritten > 0;
    if (evrec_stream_init(&stream, trace, sizeof trace, 1024, 0) != EVREC_OK ||
        evrec_stream_start(&stream, &host, &fw_meta, 0, 1) != EVREC_OK) {
        sh_exit(4);
    }
    for (uint32_t i = 0; i < warm * sizeof trace / 16u; i++) {
        rec_switch(i); /* three laps, drained as they fill */
        if (i % 16u == 15u) {
            while (evrec_stream_drain(&stream, frames, sizeof frames) != 0) {
            }
        }
    }
    while (evrec_stream_drain(&stream, frames, sizeof frames) != 0) {
    }
    run(rec_value);
    while (evrec_stream_drain(&stream, frames, sizeof frames) != 0) {
    }
    run(rec_switch);
    (void)evrec_host_stop(&host, NULL);
    while (evrec_stream_drain(&stream, frames, sizeof frames) != 0) {
    }
    sh_exit(oneshot_ok && cyclic_ok && evrec_stream_done(&stream) && evrec_stream_counts(&stream).dropped == 0
                ? 0
                : 1);
}
