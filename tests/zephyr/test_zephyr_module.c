/* SPDX-License-Identifier: Apache-2.0 */
/* The Zephyr module's set-up without the kernel: evrec_zephyr_module.c and the recorder core
 * with the Zephyr port (include/evrec_port.h: k_cycle_get_32(), sys_clock_hw_cycles_per_sec(),
 * arch_curr_cpu()) built against the stand-in <zephyr/kernel.h> for two CPUs. The boot start
 * (SYS_INIT), switches on both CPUs, ticks from the module's timer, stop, save: the file has one
 * lane per CPU, the clock's frequency, the threads by name, and the records the recorder counted. */
#include <criterion/criterion.h>
#include <string.h>
#include <zephyr/kernel.h>

#include "evrec/evrec_lanes.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_save.h"
#include "evrec_zephyr.h"
#include "mem_sink.h"
#include "zephyr_events.h"

int standin_sys_init_evrec_zephyr_autostart(void);

static struct _cpu cpus[2] = {{0}, {1}};
static unsigned cpu_now;
static struct k_thread *current[2];
static uint32_t cycles;
static struct k_timer *timer;

struct _cpu *arch_curr_cpu(void)
{
    return &cpus[cpu_now];
}

struct k_thread *k_current_get(void)
{
    return current[cpu_now];
}

bool k_is_in_isr(void)
{
    return false;
}

const char *k_thread_name_get(struct k_thread *thread)
{
    return thread->name;
}

uint32_t k_cycle_get_32(void)
{
    return cycles += 7u;
}

uint32_t sys_clock_hw_cycles_per_sec(void)
{
    return 1000000u;
}

void k_timer_init(struct k_timer *t, k_timer_expiry_t expiry, k_timer_expiry_t stop)
{
    (void)stop;
    memset(t, 0, sizeof *t);
    t->expiry = expiry;
    timer = t;
}

void k_timer_start(struct k_timer *t, k_timeout_t duration, k_timeout_t period)
{
    (void)duration;
    t->period = period;
    t->running = 1;
}

void k_timer_stop(struct k_timer *t)
{
    t->running = 0;
}

static void run(unsigned cpu, struct k_thread *next)
{
    cpu_now = cpu;
    if (current[cpu] != NULL) {
        sys_trace_thread_switched_out_user();
    }
    current[cpu] = next;
    sys_trace_thread_switched_in_user();
}

Test(zephyr_module, boot_start_ticks_stop_save)
{
    cr_assert_eq(standin_sys_init_evrec_zephyr_autostart(), 0, "started at boot");
    cr_assert_eq(evrec_zephyr_start(), EVREC_E_BUSY, "already recording");
    cr_assert_not_null(timer);
    cr_assert(timer->running);
    cr_assert_eq(timer->period.ticks, 500, "CONFIG_EVREC_TICK_MS");
    struct k_thread a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    strcpy(a.name, "sensor");
    strcpy(b.name, "logger");
    for (int k = 0; k < 50; k++) {
        run(0, k % 2 ? &a : &b);
        run(1, k % 2 ? &b : &a);
        if (k % 10 == 0) {
            timer->expiry(timer);
        }
    }
    cr_assert_eq(evrec_zephyr_stop(), EVREC_OK);
    cr_assert(!timer->running);
    cr_assert_eq(evrec_zephyr_stop(), EVREC_E_NOT_RECORDING);
    evrec_recorder_counts_t c = evrec_recorder_counts(evrec_zephyr_recorder());
    mem_sink_t out;
    memset(&out, 0, sizeof out);
    evrec_sink_t sink = mem_sink_of(&out);
    cr_assert_eq(evrec_save(evrec_zephyr_recorder(), &sink), EVREC_OK);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, out.data, out.len, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_info(r)->lanes, 2);
    cr_assert_eq(evrec_reader_time_freq(r, NULL), 1000000u);
    uint64_t n = 0, ticks = 0, lane_in[2] = {0, 0};
    evrec_record_t x;
    while (evrec_reader_next(r, &x) == EVREC_OK) {
        n++;
        ticks += x.id == zephyr_ID_EventControl && x.data[6] == EVREC_CONTROL_TICK;
        if (x.id == zephyr_ID_TaskSwitchIn) {
            cr_assert_lt(x.lane, 2);
            lane_in[x.lane]++;
        }
    }
    cr_assert_eq(n, c.recorded, "the file has the records the recorder counted");
    cr_assert_eq(ticks, 5u, "each timer tick once");
    cr_assert_eq(lane_in[0], 50u);
    cr_assert_eq(lane_in[1], 50u);
    const evrec_meta_t *m = evrec_reader_meta(r);
    uint16_t task_enum = 0;
    while (task_enum < m->enum_count && strcmp(m->enums[task_enum].name, "RtosTask") != 0) {
        task_enum++;
    }
    cr_assert_lt(task_enum, m->enum_count);
    const char *n1 = evrec_reader_enum_value(r, task_enum, 1, NULL);
    const char *n2 = evrec_reader_enum_value(r, task_enum, 2, NULL);
    cr_assert(n1 && n2, "both threads named");
    cr_assert_str_eq(n1, "logger", "seen first (k = 0 runs b on CPU 0)");
    cr_assert_str_eq(n2, "sensor");
    evrec_reader_close(r);
    free(out.data);
    cr_assert_eq(evrec_zephyr_start(), EVREC_OK, "a new recording after the stop");
    cr_assert_eq(evrec_zephyr_stop(), EVREC_OK);
}
