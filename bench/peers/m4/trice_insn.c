/* SPDX-License-Identifier: Apache-2.0 */
/* Instructions executed per Trice message with 3 values in Trice's direct RTT mode
 * (triceConfig.h) on a Cortex-M4, counted under QEMU by scripts/bench-stream-m4.sh: INSN_N calls
 * of an empty function (the baseline), then INSN_N TRice(iD(..), "...", kind, address, thread)
 * (the 3 u32 values evrec's ContextSwitch record carries), each in a function of its own, between
 * insn_mark() calls. Before the loops RTT up channel 0 is emptied as a host would (RdOff =
 * WrOff); after them it prints "bytes B records R" (the bytes the loop wrote into the channel). */
#include <stdint.h>

#include "SEGGER_RTT.h"
#include "semihost.h"
#include "trice.h"

#ifndef INSN_N
#define INSN_N 256u
#endif

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
MEASURED static void rec_trice(uint32_t v)
{
    TRice(iD(1001), "switch: %u %x %x\n", 1u, v, v ^ 0x20000000u);
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
    TriceInit();
    rec_trice(0); /* warm: anything sent once goes out before the loops */
    SEGGER_RTT_BUFFER_UP *up = &_SEGGER_RTT.aUp[0];
    up->RdOff = up->WrOff;
    unsigned before = up->WrOff;
    run(rec_empty);
    run(rec_trice);
    unsigned bytes = (up->WrOff + up->SizeOfBuffer - before) % up->SizeOfBuffer;
    sh_puts("bytes ");
    sh_put_u32(bytes);
    sh_puts(" records ");
    sh_put_u32(INSN_N);
    sh_puts("\n");
    sh_exit(bytes != 0 ? 0 : 1);
}
