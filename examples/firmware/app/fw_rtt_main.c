/* SPDX-License-Identifier: Apache-2.0 */
/* The example firmware in streaming mode over an RTT up-channel (evrec/evrec_rtt.h): the main
 * loop and the timer interrupt of app/fw_main.c record into a stream ring (evrec/evrec_stream.h)
 * that the idle loop drains into the up buffer of the control block `_SEGGER_RTT`, which a debug
 * probe or `evrec record gdb:HOST:PORT --elf evrec-fw-rtt.elf` reads while the firmware runs.
 * Every FW_RTT_BURST_EVERY rounds a burst of FW_RTT_BURST records without draining overflows the
 * ring on purpose: those drops are counted exactly and sent as S_LOSS frames.
 *
 * At the end it stops the recording, drains until S_END went out, waits (at most
 * FW_RTT_WAIT_IRQS timer interrupts) until the host has read the up buffer, and prints its counts
 * through semihosting: "fw-rtt: recorded R sent S dropped D lanes 1 up_bytes B", where
 * R = S + D (Start and Stop included) for its one lane. Without a host reading, the ring fills
 * and everything after it is dropped (skip mode: the record path never waits). */
#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_rtt.h"
#include "evrec/evrec_stream.h"
#include "fw_board.h"
#include "fw_events.h"
#include "semihost.h"

#ifndef FW_RTT_ROUNDS
#define FW_RTT_ROUNDS 3000u
#endif
#ifndef FW_TIMER_HZ
#define FW_TIMER_HZ 2000u
#endif
#ifndef FW_RTT_BURST_EVERY
#define FW_RTT_BURST_EVERY 500u
#endif
#ifndef FW_RTT_BURST
#define FW_RTT_BURST 3000u
#endif
#ifndef FW_RTT_UP_BYTES
#define FW_RTT_UP_BYTES 4096u
#endif
#ifndef FW_RTT_WAIT_IRQS
#define FW_RTT_WAIT_IRQS 20000u /* 10 s at 2 kHz */
#endif

/* The RTT control block, by the name hosts look it up by (EVREC_RTT_SYMBOL). */
evrec_rtt_t _SEGGER_RTT;
static uint8_t rtt_up[FW_RTT_UP_BYTES];
static uint8_t rtt_scratch[EVREC_STREAM_MIN_CAP + 512u];
/* The stream's ring: 16 blocks of 1 KiB. */
static uint64_t ring[EVREC_CYCLIC_BUFFER_SIZE(16, 1024) / 8u + 1u];
static evrec_stream_t stream;
evrec_host_t fw_host;
static volatile uint32_t timer_count;

static const char main_thread[] = "main";

void fw_timer_isr(void)
{
    uint32_t n = timer_count + 1u;
    timer_count = n;
    fw_record_TimerIrq(&fw_host, n);
}

static void fail(const char *what, int code)
{
    sh_puts("fw-rtt: ");
    sh_puts(what);
    sh_puts("\n");
    sh_exit(code);
}

static void drain(void)
{
    (void)evrec_rtt_drain(&_SEGGER_RTT, &stream, rtt_scratch, sizeof rtt_scratch);
}

static void start(void)
{
    if (board_init(&fw_host) != 0) {
        fail("the timestamp counter does not run", 2);
    }
    if (evrec_rtt_init(&_SEGGER_RTT, rtt_up, sizeof rtt_up, "evrec", EVREC_RTT_SKIP) != EVREC_OK ||
        evrec_stream_init(&stream, ring, sizeof ring, 1024, 64) != EVREC_OK ||
        evrec_stream_start(&stream, &fw_host, &fw_meta, board_time_freq(), 0) != EVREC_OK) {
        fail("evrec_stream_start", 2);
    }
}

/* One round of the main loop of app/fw_main.c, then a drain from the idle point. */
static void round_of_work(uint32_t round)
{
    uint32_t seen = timer_count;
    fw_record_ContextSwitch(&fw_host, fw_SwitchKind_Sleep, (uint32_t)(uintptr_t)&round_of_work,
                            (uint32_t)(uintptr_t)main_thread);
    drain();
    board_wait_change(&timer_count, seen);
    fw_record_ContextSwitch(&fw_host, fw_SwitchKind_Wake, (uint32_t)(uintptr_t)&round_of_work,
                            (uint32_t)(uintptr_t)main_thread);
    fw_record_JobRun(&fw_host, fw_Job_NoJob, (uint16_t)round, round * 2654435761u);
    if (round % FW_RTT_BURST_EVERY == FW_RTT_BURST_EVERY - 1u) {
        for (uint32_t i = 0; i < FW_RTT_BURST; i++) {
            fw_record_Value(&fw_host, i);
        }
    }
}

/* Drains until S_END went out and the host read the up buffer (or the wait ran out). */
static void finish(void)
{
    if (evrec_host_stop(&fw_host, NULL) != EVREC_OK) {
        fail("evrec_host_stop", 2);
    }
    uint32_t t0 = timer_count;
    while (timer_count - t0 < FW_RTT_WAIT_IRQS) {
        drain();
        const evrec_rtt_buffer_t *up = &_SEGGER_RTT.cb.up;
        if (evrec_stream_done(&stream) &&
            __atomic_load_n(&up->rd_off, __ATOMIC_ACQUIRE) == __atomic_load_n(&up->wr_off, __ATOMIC_RELAXED)) {
            break;
        }
    }
    board_timer_stop();
}

int main(void)
{
    start();
    board_timer_start(FW_TIMER_HZ);
    for (uint32_t round = 0; round < FW_RTT_ROUNDS; round++) {
        round_of_work(round);
    }
    finish();
    evrec_stream_counts_t c = evrec_stream_counts(&stream);
    sh_puts("fw-rtt: recorded ");
    sh_put_u32((uint32_t)(c.sent + c.dropped));
    sh_puts(" sent ");
    sh_put_u32((uint32_t)c.sent);
    sh_puts(" dropped ");
    sh_put_u32((uint32_t)c.dropped);
    sh_puts(" lanes 1 up_bytes ");
    sh_put_u32((uint32_t)evrec_rtt_counts(&_SEGGER_RTT).bytes_written);
    sh_puts(evrec_stream_done(&stream) ? " done\n" : " not_done\n");
    sh_exit(0);
}
