/* SPDX-License-Identifier: Apache-2.0 */
/* Board glue of the example firmware for the QEMU RISC-V `virt` machine (and, for size builds,
 * any RV32/RV64 core with a CLINT): the CLINT machine timer (mtime at 10 MHz) interrupts
 * FW_TIMER_HZ times per second; each interrupt runs the port's tick hook (EventControl Tick at
 * FW_TICK_HZ) and the application's timer handler. */
#include <stdint.h>

#include "evrec_riscv.h"
#include "fw_board.h"
#include "semihost.h"

#ifndef FW_CLINT_BASE
#define FW_CLINT_BASE 0x02000000u
#endif
#ifndef FW_MTIME_HZ
#define FW_MTIME_HZ 10000000u
#endif
#ifndef FW_TICK_HZ
#define FW_TICK_HZ 100u
#endif
#define MTIMECMP0 ((volatile uint64_t *)(uintptr_t)(FW_CLINT_BASE + 0x4000u))
#define MTIME ((const volatile uint64_t *)(uintptr_t)(FW_CLINT_BASE + 0xBFF8u))
#define MCAUSE_INTERRUPT (1ul << (__riscv_xlen - 1))
#define IRQ_M_TIMER 7u
#define MSTATUS_MIE 8ul
#define MIE_MTIE 0x80ul

#if EVREC_RV_CLOCK == EVREC_RV_CLOCK_MTIME
const char fw_board_name[] = "riscv virt (timestamp: mtime)";
#else
const char fw_board_name[] = "riscv virt (timestamp: cycle counter)";
#endif

static evrec_rv_tick_t tick;
static evrec_host_t *tick_host;
static volatile int app_timer_on;

void fw_trap(unsigned long mcause, unsigned long mepc);

void fw_trap(unsigned long mcause, unsigned long mepc)
{
    if (mcause == (MCAUSE_INTERRUPT | IRQ_M_TIMER)) {
        evrec_rv_timer_isr(&tick);
        if (app_timer_on) {
            fw_timer_isr();
        }
        return;
    }
    sh_puts("fw: unexpected trap, mcause ");
    sh_put_u32((uint32_t)mcause);
    sh_puts(" mepc ");
    sh_put_u32((uint32_t)mepc);
    sh_puts("\n");
    sh_exit(3);
}

int board_init(evrec_host_t *host)
{
    tick_host = host;
    return 0;
}

uint64_t board_time_freq(void)
{
    return EVREC_PORT_TIME_FREQ();
}

void board_timer_start(uint32_t hz)
{
    /* One machine timer: the application's rate, and the Tick divided down from it. */
    uint32_t divider = hz / FW_TICK_HZ;
    (void)evrec_rv_tick_start(&tick, tick_host, divider, MTIME, MTIMECMP0, FW_MTIME_HZ / hz);
    app_timer_on = 1;
    unsigned long mie = MSTATUS_MIE;
    __asm__ volatile("csrs mstatus, %0" : : "r"(mie) : "memory");
}

void board_timer_stop(void)
{
    unsigned long bits = MIE_MTIE;
    __asm__ volatile("csrc mie, %0" : : "r"(bits) : "memory");
    app_timer_on = 0;
}

void board_wait_change(const volatile uint32_t *counter, uint32_t seen)
{
    /* WFI with mstatus.MIE clear still wakes on a pending enabled interrupt. */
    unsigned long mie = MSTATUS_MIE;
    __asm__ volatile("csrc mstatus, %0" : : "r"(mie) : "memory");
    while (*counter == seen) {
        __asm__ volatile("wfi\n\tcsrs mstatus, %0\n\tcsrc mstatus, %0" : : "r"(mie) : "memory");
    }
    __asm__ volatile("csrs mstatus, %0" : : "r"(mie) : "memory");
}
