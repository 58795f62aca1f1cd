/* SPDX-License-Identifier: Apache-2.0 */
/* The evrec example firmware: records a main loop and a periodic timer interrupt into a RAM
 * trace buffer, then saves the recording through semihosting to a host file that `evrec info`
 * and `evrec dump` read. The same source builds for every Cortex-M and RISC-V target of the
 * cross build (scripts/cross-build.sh); QEMU runs it on mps2-an385 (tests/ports).
 *
 * Main loop, FW_ROUNDS times: ContextSwitch Sleep, sleep until the timer interrupt, ContextSwitch
 * Wake, then JobRun for each of four jobs named at start-up (a run-time enum). The timer
 * interrupt records TimerIrq; the port's tick hook records EventControl Tick at FW_TICK_HZ. */
#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"
#include "fw_board.h"
#include "fw_events.h"
#include "semihost.h"

#ifndef FW_ROUNDS
#define FW_ROUNDS 500u
#endif
#ifndef FW_TIMER_HZ
#define FW_TIMER_HZ 2000u
#endif
#ifndef FW_TRACE_BYTES
#define FW_TRACE_BYTES 65536u
#endif
#ifndef FW_OUTPUT
#define FW_OUTPUT "fw.evr"
#endif

/* The user's trace buffer, in its own section so that size reports can leave it out. */
static uint64_t trace[FW_TRACE_BYTES / 8u] __attribute__((section(".evrec_trace")));
static evrec_recorder_t recorder;
evrec_host_t fw_host;
static volatile uint32_t timer_count;

static const char main_thread[] = "main";

void fw_timer_isr(void)
{
    uint32_t n = timer_count + 1u;
    timer_count = n;
    fw_record_TimerIrq(&fw_host, n);
}

/* Four small jobs, so that the main loop does some work between its records. */
static uint32_t job_checksum(uint32_t round)
{
    uint8_t data[32];
    for (uint32_t i = 0; i < sizeof data; i++) {
        data[i] = (uint8_t)(round + i);
    }
    return evrec_crc32c(0, data, sizeof data);
}

static uint32_t job_fibonacci(uint32_t round)
{
    uint32_t a = 0, b = 1;
    for (uint32_t i = 0; i < 16u + round % 16u; i++) {
        uint32_t c = a + b;
        a = b;
        b = c;
    }
    return a;
}

static uint32_t job_popcount(uint32_t round)
{
    uint32_t v = round * 2654435761u, n = 0;
    for (; v; v &= v - 1u) {
        n++;
    }
    return n;
}

static uint32_t job_xorshift(uint32_t round)
{
    uint32_t x = round + 1u;
    for (int i = 0; i < 8; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
    }
    return x;
}

typedef uint32_t (*job_fn)(uint32_t);
static const struct {
    const char *name;
    job_fn run;
} jobs[] = {
    {"checksum", job_checksum},
    {"fibonacci", job_fibonacci},
    {"popcount", job_popcount},
    {"xorshift", job_xorshift},
};
#define JOB_COUNT (sizeof jobs / sizeof jobs[0])

static int sink_write(void *ctx, const void *data, size_t len)
{
    return sh_write(*(const long *)ctx, data, len);
}

static void fail(const char *what, int code)
{
    sh_puts("fw: ");
    sh_puts(what);
    sh_puts("\n");
    sh_exit(code);
}

int main(void)
{
    fw_Job_t job_ids[JOB_COUNT];

    if (board_init(&fw_host) != 0) {
        fail("the timestamp counter does not run", 2);
    }
    if (fw_runtime_init() != EVREC_OK) {
        fail("fw_runtime_init", 2);
    }
    for (size_t j = 0; j < JOB_COUNT; j++) {
        if (fw_Job_alloc(jobs[j].name, &job_ids[j]) != EVREC_OK) {
            fail("fw_Job_alloc", 2);
        }
    }
    if (evrec_recorder_init(&recorder, trace, sizeof trace) != EVREC_OK ||
        evrec_host_start(&fw_host, &recorder, &fw_meta, board_time_freq()) != EVREC_OK) {
        fail("evrec_host_start", 2);
    }

    board_timer_start(FW_TIMER_HZ);
    for (uint32_t round = 0; round < FW_ROUNDS; round++) {
        uint32_t seen = timer_count;
        fw_record_ContextSwitch(&fw_host, fw_SwitchKind_Sleep, (uint32_t)(uintptr_t)&main,
                                (uint32_t)(uintptr_t)main_thread);
        board_wait_change(&timer_count, seen);
        fw_record_ContextSwitch(&fw_host, fw_SwitchKind_Wake, (uint32_t)(uintptr_t)&main,
                                (uint32_t)(uintptr_t)main_thread);
        for (size_t j = 0; j < JOB_COUNT; j++) {
            uint32_t result = jobs[j].run(round);
            fw_record_JobRun(&fw_host, job_ids[j], (uint16_t)round, result);
        }
    }
    board_timer_stop();

    evrec_recorder_t *rec = NULL;
    if (evrec_host_stop(&fw_host, &rec) != EVREC_OK) {
        fail("evrec_host_stop", 2);
    }
    long fd = sh_open_write(FW_OUTPUT);
    if (fd < 0) {
        fail("cannot open " FW_OUTPUT " on the host", 2);
    }
    evrec_sink_t sink = {sink_write, &fd};
    evrec_status st = evrec_save(rec, &sink);
    if (sh_close(fd) != 0 || st != EVREC_OK) {
        fail("evrec_save", 2);
    }
    sh_puts("fw: board ");
    sh_puts(fw_board_name);
    sh_puts(" recorded ");
    sh_put_u32((uint32_t)evrec_recorder_counts(rec).recorded);
    sh_puts(" dropped ");
    sh_put_u32((uint32_t)evrec_recorder_counts(rec).dropped);
    sh_puts(" bytes ");
    sh_put_u32((uint32_t)evrec_recorder_counts(rec).used);
    sh_puts(" timer_irqs ");
    sh_put_u32(timer_count);
    sh_puts(" saved " FW_OUTPUT "\n");
    sh_exit(0);
}
