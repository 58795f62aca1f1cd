/* SPDX-License-Identifier: Apache-2.0 */
/* A firmware's use of evrec: a trace buffer in RAM, events from the consumer's own schema and the
 * RTOS catalogue, a save through a UART-like sink. Built to check that it links, not run. */
#include <stddef.h>
#include <stdint.h>

#include "consumer_events.h"
#include "evrec/evrec_save.h"

static evrec_host_t host;
static uint64_t trace[512]; /* 8-byte aligned, as evrec_recorder_init() asks */
static volatile uint8_t uart_data;

/* The C library is not linked: the two functions the core uses. */
void *memcpy(void *d, const void *s, size_t n)
{
    uint8_t *dp = d;
    const uint8_t *sp = s;
    while (n--) {
        *dp++ = *sp++;
    }
    return d;
}

void *memset(void *d, int c, size_t n)
{
    uint8_t *dp = d;
    while (n--) {
        *dp++ = (uint8_t)c;
    }
    return d;
}

static int uart_write(void *ctx, const void *data, size_t len)
{
    (void)ctx;
    for (size_t i = 0; i < len; i++) {
        uart_data = ((const uint8_t *)data)[i];
    }
    return 0;
}

int fw_main(void);
int fw_main(void)
{
    evrec_recorder_t rec;
    evrec_host_init(&host);
    evrec_recorder_init(&rec, trace, sizeof trace);
    evrec_host_start(&host, &rec, &consumer_meta, 25000000u);
    for (uint32_t i = 0; i < 10; i++) {
        consumer_record_Work(&host, i & 1u ? consumer_Worker_Right : consumer_Worker_Left, i);
    }
    evrec_host_stop(&host, NULL);
    evrec_sink_t sink = {uart_write, NULL};
    return evrec_save(&rec, &sink) == EVREC_OK ? 0 : 1;
}
