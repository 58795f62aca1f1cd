/* SPDX-License-Identifier: Apache-2.0 */
/* The streaming example firmware (Arm MPS2, QEMU mps2-an385/an386): records continuously into a
 * streaming ring (evrec/evrec_stream.h) and drains its frames (FORMAT.md section 8) to the CMSDK
 * UART0, from the idle loop, for FW_STREAM_MS ms; then stops, sends the rest and S_END, and prints
 * its own counts on the semihosting console (the second channel):
 *
 *   fw-stream: boot B lane 0 recorded R sent S dropped D values V irqs I ticks T
 *
 * R counts every record call the firmware made while recording (Start, Stop, Ticks, TimerIrq,
 * Value), independently of the recorder: a host that received the stream must find R = records
 * received + records reported lost. Workload, per SysTick (1 kHz): TimerIrq(count) in the
 * interrupt, an EventControl Tick every 10 ms, and in the main loop Value(B << 24 | seq) once per
 * millisecond, FW_BURST_VALUES per millisecond during the last FW_BURST_MS of every FW_PERIOD_MS
 * (more than the UART carries: the ring fills and drops on purpose). The UART's rate is
 * FW_UART_BAUD: the drain sends at most FW_UART_BAUD / 10 bytes per second (8N1), whatever the
 * emulator's UART would take, so that the emulated link is as slow as a real one.
 *
 * The previous boot's crash: a one-shot trace buffer in .noinit survives a reset. At every boot
 * the firmware recovers it (evrec_recorder_recover()) and, when it holds a recording, sends it
 * through the UART before the live stream, in S_PREV_BOOT frames with the live stream's id
 * (evrec_stream_send_prev_boot()), so that `evrec record` saves it as a file of its own. With
 * FW_CRASH_VALUES > 0, the first boot after power-on (B = 1) records that many Values into the
 * .noinit buffer instead of streaming, prints its counts ("... sent S" = the records kept in the
 * buffer) and resets the MCU (SYSRESETREQ) in the middle of its recording: a survivable crash. The
 * boot number B is kept in .noinit too. */
#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_stream.h"
#include "evrec/evrec_stream_boot.h"
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
#ifndef FW_CRASH_VALUES
#define FW_CRASH_VALUES 0u
#endif
#ifndef FW_CRASH_BYTES
#define FW_CRASH_BYTES 65536u
#endif
#define FW_SYSTICK_PER_TICK 10u  /* an EventControl Tick every 10 SysTick periods (board: 1 kHz) */
#define FW_CLOCK_HZ 25000000u    /* MPS2 APB clock */
#define FW_UART_CREDIT_MAX 2048u /* bytes the link may owe when the drain had nothing to send */

static uint64_t ring[EVREC_CYCLIC_BUFFER_SIZE(FW_RING_BLOCKS, FW_RING_BLOCK) / 8u];
static evrec_stream_t stream;
/* Survive a reset: the crash buffer, and the boot count (valid when magic is BOOT_MAGIC). */
static uint64_t crash_buf[FW_CRASH_BYTES / 8u] __attribute__((section(".noinit")));
static struct {
    uint32_t magic, boots;
} boot_state __attribute__((section(".noinit")));
#define BOOT_MAGIC 0x426F6F74u /* "Boot" */
#define AIRCR (*(volatile uint32_t *)0xE000ED0Cu)
#define AIRCR_SYSRESETREQ 0x05FA0004u /* VECTKEY | SYSRESETREQ */
static uint32_t boot;
evrec_host_t fw_host;          /* the host the firmware records through */
static evrec_host_t idle_host; /* the port's tick hook records into it: never started (Ticks: fw_systick_hook) */

/* Written by the SysTick interrupt, read by the main loop. */
static volatile uint32_t ms_count;     /* SysTick periods */
static volatile uint32_t uart_allowed; /* bytes the UART's rate allows so far, in 1/1000 byte */
static volatile uint32_t recording;    /* 1 while the interrupt records */
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

/* `recorded`: Start (and Stop unless the recording is cut short), and every record call. */
static void print_counts(uint32_t recorded, uint64_t sent, uint64_t dropped, uint32_t values)
{
    sh_puts("fw-stream: boot ");
    sh_put_u32(boot);
    sh_puts(" lane 0 recorded ");
    sh_put_u32(recorded + values + irq_count + tick_count);
    sh_puts(" sent ");
    sh_put_u32((uint32_t)sent);
    sh_puts(" dropped ");
    sh_put_u32((uint32_t)dropped);
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
        fw_record_Value(&fw_host, boot << 24 | seq++);
    }
    return seq;
}

/* A transport that takes every byte: waits for the link's credit (at boot, nothing records). */
static int uart_write_all(void *ctx, const void *data, size_t len)
{
    const uint8_t *d = (const uint8_t *)data;
    (void)ctx;
    while (len) {
        uint32_t now = ms_count;
        size_t k = uart_credit();
        k = uart_cmsdk_write(FW_UART0_BASE, d, k < len ? k : len);
        uart_spent += (uint32_t)k * 1000u;
        d += k;
        len -= k;
        if (k == 0) {
            board_wait_change(&ms_count, now);
        }
    }
    return 0;
}

/* The previous boot's recording, if the .noinit buffer holds one, out through the UART; then the
 * buffer is marked empty (its header's magic cleared) so that it goes out once. */
static void send_prev_boot(uint32_t stream_id)
{
    evrec_recorder_t prev;
    evrec_status st = evrec_recorder_recover(&prev, crash_buf, sizeof crash_buf, &fw_meta, NULL);
    if (st == EVREC_OK || st == EVREC_E_END) {
        evrec_sink_t uart = {uart_write_all, NULL};
        if (evrec_stream_send_prev_boot(&prev, stream_id, &uart, tx, sizeof tx) != EVREC_OK) {
            fail("evrec_stream_send_prev_boot");
        }
    }
    crash_buf[0] = 0;
}

#if FW_CRASH_VALUES > 0
/* Boot 1 with FW_CRASH_VALUES: record into the .noinit buffer, then reset while recording. */
static void crash_run(void)
{
    static evrec_recorder_t crash_rec;
    if (evrec_recorder_init(&crash_rec, crash_buf, sizeof crash_buf) != EVREC_OK ||
        evrec_host_start(&fw_host, &crash_rec, &fw_meta, board_time_freq()) != EVREC_OK) {
        fail("evrec_host_start (crash buffer)");
    }
    recording = 1;
    uint32_t seq = 0;
    for (uint32_t done = ms_count; seq < FW_CRASH_VALUES; done++) {
        board_wait_change(&ms_count, done);
        seq = workload(done, seq);
    }
    recording = 0;
    evrec_recorder_counts_t c = evrec_recorder_counts(&crash_rec);
    print_counts(1u, 1u + seq + irq_count + tick_count - c.dropped, c.dropped, seq);
    AIRCR = AIRCR_SYSRESETREQ; /* a crash: the recording is never stopped */
    for (;;) {
        __asm__ volatile("wfi");
    }
}
#endif

/* The live stream, FW_STREAM_MS ms, then its end; prints the counts. */
static void live_run(uint32_t stream_id)
{
    if (evrec_stream_init(&stream, ring, sizeof ring, FW_RING_BLOCK, 64) != EVREC_OK ||
        evrec_stream_start(&stream, &fw_host, &fw_meta, board_time_freq(), stream_id) != EVREC_OK) {
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
    evrec_stream_counts_t c = evrec_stream_counts(&stream);
    print_counts(2u, c.sent, c.dropped, seq);
}

int main(void)
{
    boot = boot_state.magic == BOOT_MAGIC ? boot_state.boots + 1u : 1u;
    boot_state.magic = BOOT_MAGIC;
    boot_state.boots = boot;
    if (board_init(&idle_host) != 0) {
        fail("the timestamp counter does not run");
    }
    uart_cmsdk_init(FW_UART0_BASE, FW_CLOCK_HZ, FW_UART_BAUD);
    /* a new id at every boot: the host tells this boot's stream from the previous one's */
    uint32_t seed[3] = {boot, EVREC_PORT_TIMESTAMP(), (uint32_t)(uintptr_t)ring};
    uint32_t stream_id = evrec_crc32c(0, seed, sizeof seed) | 1u;
    send_prev_boot(stream_id);
#if FW_CRASH_VALUES > 0
    if (boot == 1u) {
        crash_run();
    }
#endif
    live_run(stream_id);
    sh_exit(0);
}
