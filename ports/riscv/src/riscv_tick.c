/* SPDX-License-Identifier: Apache-2.0 */
/* RISC-V port: the machine-timer tick hook (re-arm mtimecmp, EventControl Tick). */
#include "evrec_riscv.h"

#define MIE_MTIE 0x80u

static uint64_t read_mtime(const volatile uint64_t *mtime)
{
#if __riscv_xlen == 32
    /* Two 32-bit halves: read high, low, high again until the high word is stable. */
    const volatile uint32_t *w = (const volatile uint32_t *)mtime;
    uint32_t hi, lo;
    do {
        hi = w[1];
        lo = w[0];
    } while (w[1] != hi);
    return ((uint64_t)hi << 32) | lo;
#else
    return *mtime;
#endif
}

static void write_mtimecmp(volatile uint64_t *mtimecmp, uint64_t v)
{
#if __riscv_xlen == 32
    /* No spurious interrupt while the halves disagree (privileged spec, 3.2.1). */
    volatile uint32_t *w = (volatile uint32_t *)mtimecmp;
    w[0] = 0xFFFFFFFFu;
    w[1] = (uint32_t)(v >> 32);
    w[0] = (uint32_t)v;
#else
    *mtimecmp = v;
#endif
}

evrec_status evrec_rv_tick_start(evrec_rv_tick_t *t, evrec_host_t *host, uint32_t divider,
                                 const volatile uint64_t *mtime, volatile uint64_t *mtimecmp, uint64_t period)
{
    if (!t || !mtime || !mtimecmp || period == 0) {
        return EVREC_E_ARG;
    }
    t->host = host;
    t->mtime = mtime;
    t->mtimecmp = mtimecmp;
    t->period = period;
    t->divider = divider ? divider : 1u;
    t->count = 0;
    t->next = read_mtime(mtime) + period;
    write_mtimecmp(mtimecmp, t->next);
    unsigned long mtie = MIE_MTIE;
    __asm__ volatile("csrs mie, %0" : : "r"(mtie) : "memory");
    return EVREC_OK;
}

void evrec_rv_timer_isr(evrec_rv_tick_t *t)
{
    uint64_t now = read_mtime(t->mtime);
    do {
        t->next += t->period;
    } while (t->next <= now);
    write_mtimecmp(t->mtimecmp, t->next);
    if (++t->count >= t->divider) {
        t->count = 0;
        (void)evrec_tick(t->host);
    }
}
