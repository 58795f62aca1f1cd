/* SPDX-License-Identifier: Apache-2.0 */
/* Polled transmit on an Arm CMSDK APB UART (uart_cmsdk.h). */
#include "uart_cmsdk.h"

#define UART_REG(base, off) (*(volatile uint32_t *)(uintptr_t)((base) + (off)))
#define UART_DATA 0x00u
#define UART_STATE 0x04u
#define UART_CTRL 0x08u
#define UART_BAUDDIV 0x10u
#define UART_STATE_TX_FULL 1u
#define UART_CTRL_TX_EN 1u

void uart_cmsdk_init(uint32_t base, uint32_t clock_hz, uint32_t baud)
{
    uint32_t div = baud ? clock_hz / baud : 16u;
    UART_REG(base, UART_CTRL) = 0;
    UART_REG(base, UART_BAUDDIV) = div < 16u ? 16u : div;
    UART_REG(base, UART_CTRL) = UART_CTRL_TX_EN;
}

size_t uart_cmsdk_write(uint32_t base, const uint8_t *data, size_t len)
{
    size_t n = 0;
    while (n < len && !(UART_REG(base, UART_STATE) & UART_STATE_TX_FULL)) {
        UART_REG(base, UART_DATA) = data[n++];
    }
    return n;
}
