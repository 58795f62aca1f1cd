/* SPDX-License-Identifier: Apache-2.0 */
/* Instructions executed per SEGGER_SYSVIEW_RecordU32x3() in SystemView's continuous RTT recording
 * on a Cortex-M4, counted under QEMU by scripts/bench-stream-m4.sh: INSN_N calls of an empty
 * function (the baseline), then INSN_N events of a registered module with the 3 u32 values
 * evrec's ContextSwitch record carries (kind, address, thread), each in a function of its own,
 * between insn_mark() calls. SystemView is initialised and started by the firmware
 * (SEGGER_SYSVIEW_Start(), what the host's start command triggers), its start-up packets are read
 * away as a host would (RdOff = WrOff) before the loops; after them it prints "bytes B records R"
 * (the bytes the loop wrote into SystemView's RTT channel). */
#include <stdint.h>

#include "SEGGER_RTT.h"
#include "SEGGER_SYSVIEW.h"
#include "semihost.h"

#ifndef INSN_N
#define INSN_N 256u
#endif

#define MEASURED __attribute__((noinline, noipa))
void insn_mark(void);
MEASURED void insn_mark(void)
{
    __asm__ volatile("" ::: "memory");
}

static SEGGER_SYSVIEW_MODULE module = {"M=Bench", 1, 0, 0, 0};

MEASURED static void rec_empty(uint32_t v)
{
    __asm__ volatile("" : : "r"(v) : "memory");
}
MEASURED static void rec_sysview(uint32_t v)
{
    SEGGER_SYSVIEW_RecordU32x3(module.EventOffset + 0u, 1u, v, v ^ 0x20000000u);
}

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
    SEGGER_SYSVIEW_Init(25000000u, 25000000u, 0, 0);
    SEGGER_SYSVIEW_RegisterModule(&module);
    SEGGER_SYSVIEW_Start();
    rec_sysview(0);
    SEGGER_RTT_BUFFER_UP *up = &_SEGGER_RTT.aUp[SEGGER_SYSVIEW_RTT_CHANNEL];
    up->RdOff = up->WrOff;
    unsigned before = up->WrOff;
    run(rec_empty);
    run(rec_sysview);
    unsigned bytes = (up->WrOff + up->SizeOfBuffer - before) % up->SizeOfBuffer;
    sh_puts("bytes ");
    sh_put_u32(bytes);
    sh_puts(" records ");
    sh_put_u32(INSN_N);
    sh_puts("\n");
    sh_exit(bytes != 0 ? 0 : 1);
}
