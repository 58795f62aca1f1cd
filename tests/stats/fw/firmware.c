/* SPDX-License-Identifier: Apache-2.0 */
/* A tiny "firmware" for the symbol tests: a few functions with bodies long enough to take an
 * offset into, and a data object. Built for the host and, when present, with arm-none-eabi-gcc
 * (Thumb). Never run. */
volatile unsigned fw_counter;
unsigned char fw_buffer[64];

void fw_uart_isr(void);
void fw_timer_isr(void);
int fw_main(void);
int main(void);

void fw_uart_isr(void)
{
    for (unsigned i = 0; i < sizeof fw_buffer; i++) {
        fw_counter += i * 3u;
        fw_buffer[i] = (unsigned char)(fw_counter ^ i);
        fw_counter ^= fw_buffer[(i * 7u) % sizeof fw_buffer];
    }
}

void fw_timer_isr(void)
{
    for (unsigned i = 0; i < 16u; i++) {
        fw_counter = fw_counter * 5u + fw_buffer[i];
        fw_buffer[i] = (unsigned char)(fw_counter >> 3);
        fw_counter -= fw_buffer[(i + 3u) % 16u];
    }
}

int fw_main(void)
{
    fw_uart_isr();
    fw_timer_isr();
    return (int)(fw_counter & 0x7F);
}

int main(void)
{
    return fw_main();
}
