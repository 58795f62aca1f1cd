/* SPDX-License-Identifier: Apache-2.0 */
/* What the example firmware needs from its board (cortex-m/board_mps2.c, riscv/board_virt.c):
 * the timestamp counter and tick hook of the port, a periodic timer interrupt, and sleep. */
#ifndef FW_BOARD_H
#define FW_BOARD_H

#include <stdint.h>

#include "evrec/evrec_recorder.h"

/** Board name printed in the summary. */
extern const char fw_board_name[];

/** Start the timestamp counter and the port's tick hook (EventControl Tick every
 * 1/FW_TICK_HZ s into `host`). @return 0 on success, else non-zero (the counter does not run). */
int board_init(evrec_host_t *host);

/** Frequency of EVREC_PORT_TIMESTAMP() in Hz (0 = unknown). */
uint64_t board_time_freq(void);

/** Call fw_timer_isr() from a periodic interrupt `hz` times per second, until board_timer_stop(). */
void board_timer_start(uint32_t hz);
void board_timer_stop(void);

/** Sleep until `*counter` differs from `seen` (it is changed by an interrupt handler). */
void board_wait_change(const volatile uint32_t *counter, uint32_t seen);

/** The application's timer interrupt body (app/fw_main.c). */
void fw_timer_isr(void);

/** Called from the SysTick interrupt after the port's tick hook, FW_SYSTICK_HZ times per second
 * (Cortex-M boards; weak, empty unless the application defines it). */
void fw_systick_hook(void);

#endif /* FW_BOARD_H */
