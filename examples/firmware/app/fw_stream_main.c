/* SPDX-License-Identifier: Apache-2.0 */
/* The streaming example firmware (Arm MPS2, QEMU mps2-an385/an386): records continuously into a
 * streaming ring (evrec/evrec_stream.h) and drains its frames (FORMAT.md section 8) to the CMSDK
 * UART0, from the idle loop, for FW_STREAM_MS ms; then stops, sends the rest and S_END, and prints
 * its own counts on the semihosting console (the second channel):
 *
 *   fw-stream: lane 0 recorded R sent S dropped D values V irqs I ticks T
 *
 * R counts every record call the firmware made while recording (Start, Stop, Ticks, TimerIrq,
 * Value), independently of the recorder: a host that received the stream must find R = records
 * received + records reported lost. Workload, per SysTick (1 kHz): TimerIrq(count) in the
 * interrupt, an EventControl Tick every 10 ms, and in the main loop Value(seq) once per
 * millisecond, FW_BURST_VALUES per millisecond during the last FW_BURST_MS of every FW_PERIOD_MS
 * (more than the UART carries: the ring fills and drops on purpose). The UART's rate is
 * FW_UART_BAUD: the drain sends at most FW_UART_BAUD / 10 bytes per second (8N1), whatever the
 * emulator's UART would take, so that the emulated link is as slow as a real one. */
#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_stream.h"
#include "fw_board.h"
#include "fw_events.h"
#include "semihost.h"
#include "uart_cmsdk.h"

#ifndef FW_STREAM_MS
#define FW_STREAM_MS 30000u
#endif
#ifndef FW_UART_BAUD
#define FW_UART_BAUD 921600u
#endif
#ifndef FW_PERIOD_MS
#define FW_PERIOD_MS 4000u
#endif
#ifndef FW_BURST_MS
#define FW_BURST_MS 500u
#endif
#ifndef FW_BURST_VALUES
#define FW_BURST_VALUES 20u
#endif
#ifndef FW_RING_BLOCKS
#define FW_RING_BLOCKS 16u
#endif
#ifndef FW_RING_BLOCK
#define FW_RING_BLOCK 512u
#endif
#define FW_SYSTICK_PER_TICK 10u  /* an EventControl Tick every 10 SysTick periods (board: 1 kHz) */
#define FW_CLOCK_HZ 25000000u    /* MPS2 APB clock */
#define FW_UART_CREDIT_MAX 2048u /* bytes the link may owe when the drain had nothing to send */

static uint64_t ring[EVREC_CYCLIC_BUFFER_SIZE(FW_RING_BLOCKS, FW_RING_BLOCK) / 8u];
static evrec_stream_t stream;
evrec_host_t fw_host;   /* the host the firmware records through */
static evrec_host_t idle_host; /* the board's tick hook: never started (Ticks are recorded here) */

/* Written by the SysTick interrupt, read by the main loop. */
static volatile uint32_t ms_count;      /* SysTick periods */
static volatile uint32_t uart_allowed;  /* bytes the UART's rate allows so far, in 1/1000 byte */
static volatile uint32_t recording;     /* 1 while the interrupt records */
static volatile uint32_t irq_count, tick_count;

static uint32_t uart_spent; /* 1/1000 bytes sent (main loop only) */
static uint8_t tx[512];
static size_t tx_len, tx_pos;

void fw_timer_isr(void)
{
}

void fw_systick_hook(void)
{
    uint32_t n = ms_count + 1u;
    ms_count = n;
    uart_allowed += FW_UART_BAUD / 10u;
    if (recording) {
        uint32_t k = irq_count + 1u;
        irq_count = k;
        fw_record_TimerIrq(&fw_host, k);
        if (n % FW_SYSTICK_PER_TICK == 0) {
            tick_count++;
            (void)evrec_tick(&fw_host);
        }
    }
}

/* Bytes the link may carry now. */
static size_t uart_credit(void)
{
    uint32_t avail = uart_allowed - uart_spent;
    if (avail > FW_UART_CREDIT_MAX * 1000u) {
        uart_spent = uart_allowed - FW_UART_CREDIT_MAX * 1000u;
        avail = FW_UART_CREDIT_MAX * 1000u;
    }
    return avail / 1000u;
}

/* Moves frames to the UART while the link has credit. Returns when it has none left, the UART is
 * full, or nothing is left to send. */
static void pump_uart(void)
{
    for (;;) {
        if (tx_pos == tx_len) {
            tx_len = evrec_stream_drain(&stream, tx, sizeof tx);
            tx_pos = 0;
            if (tx_len == 0) {
                return;
            }
        }
        size_t want = tx_len - tx_pos, credit = uart_credit();
        want = want < credit ? want : credit;
        size_t n = uart_cmsdk_write(FW_UART0_BASE, tx + tx_pos, want);
        tx_pos += n;
        uart_spent += (uint32_t)n * 1000u;
        if (n == 0 || n < want) {
            return;
        }
    }
}

static void fail(const char *what)
{
    sh_puts("fw-stream: ");
    sh_puts(what);
    sh_puts("\n");
    sh_exit(2);
}

static void print_counts(uint32_t values)
{
    evrec_stream_counts_t c = evrec_stream_counts(&stream);
    sh_puts("fw-stream: lane 0 recorded ");
    sh_put_u32(2u + values + irq_count + tick_count); /* Start and Stop, and every record call */
    sh_puts(" sent ");
    sh_put_u32((uint32_t)c.sent);
    sh_puts(" dropped ");
    sh_put_u32((uint32_t)c.dropped);
    sh_puts(" values ");
    sh_put_u32(values);
    sh_puts(" irqs ");
    sh_put_u32(irq_count);
    sh_puts(" ticks ");
    sh_put_u32(tick_count);
    sh_puts("\n");
}

/* The main loop's records for millisecond `ms`; returns the next sequence number. */
static uint32_t workload(uint32_t ms, uint32_t seq)
{
    uint32_t n = ms % FW_PERIOD_MS >= FW_PERIOD_MS - FW_BURST_MS ? FW_BURST_VALUES : 1u;
    for (uint32_t i = 0; i < n; i++) {
        fw_record_Value(&fw_host, seq++);
    }
    return seq;
}

int main(void)
{
    if (board_init(&idle_host) != 0) {
        fail("the timestamp counter does not run");
    }
    uart_cmsdk_init(FW_UART0_BASE, FW_CLOCK_HZ, FW_UART_BAUD);
    if (evrec_stream_init(&stream, ring, sizeof ring, FW_RING_BLOCK, 64) != EVREC_OK ||
        evrec_stream_start(&stream, &fw_host, &fw_meta, board_time_freq(), 0) != EVREC_OK) {
        fail("evrec_stream_start");
    }
    recording = 1;
    uint32_t seq = 0, done = ms_count;
    uint32_t end = done + FW_STREAM_MS;
    while (done != end) {
        uint32_t now = ms_count;
        for (; done != now && done != end; done++) {
            seq = workload(done, seq);
        }
        pump_uart();
        board_wait_change(&ms_count, now);
    }
    recording = 0;
    if (evrec_host_stop(&fw_host, NULL) != EVREC_OK) {
        fail("evrec_host_stop");
    }
    while (!evrec_stream_done(&stream) || tx_pos != tx_len) {
        uint32_t now = ms_count;
        pump_uart();
        board_wait_change(&ms_count, now);
    }
    print_counts(seq);
    sh_exit(0);
}
