/* SPDX-License-Identifier: Apache-2.0 */
/* The transmit side of an Arm CMSDK APB UART (MPS2 boards: UART0 at 0x40004000, the one QEMU's
 * mps2-an385/an386 connect to their first -serial), as the stream example firmware
 * (app/fw_stream_main.c) uses it: polled, never waiting. Registers from Arm's "Cortex-M System
 * Design Kit Technical Reference Manual" (DATA, STATE, CTRL, BAUDDIV). */
#ifndef FW_UART_CMSDK_H
#define FW_UART_CMSDK_H

#include <stddef.h>
#include <stdint.h>

/** Base address of UART0 on MPS2 (AN385, AN386). */
#define FW_UART0_BASE 0x40004000u

/** Enable the transmitter of the UART at `base` at `baud` bits/s from a `clock_hz` APB clock
 * (BAUDDIV = clock_hz / baud, at least 16 as the CMSDK requires). */
void uart_cmsdk_init(uint32_t base, uint32_t clock_hz, uint32_t baud);

/** Put bytes into the transmitter while it has room. @return bytes taken (0 .. len): the
 * caller keeps the rest for later; never waits. */
size_t uart_cmsdk_write(uint32_t base, const uint8_t *data, size_t len);

#endif /* FW_UART_CMSDK_H */
