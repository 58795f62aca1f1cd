/* SPDX-License-Identifier: Apache-2.0 */
/* timeline_rtos_trace MODE OUT.evr [SEED]: record a synthetic RTOS trace through the generated
 * RTOS catalogue code (ports/rtos/rtos.yaml) and the fake-clock recorder (100 MHz: a tick is
 * 10 ns; every record is stamped at a time set here) and save it, to look at with
 * `evrec timeline` and for the timeline tests.
 *
 * MODE:
 *   scenario  the known schedule below (tests check its bars pixel by pixel)
 *   random    a random schedule of 3 tasks, the idle task and 3 nesting ISRs (the generator of
 *             tests/stats/test_stats_cpu.c, with a switch-out before every switch-in), 4000 steps
 *   drops     `random` into a buffer too small: the header counts dropped events
 *   cyclic    `random` into a cyclic buffer: the oldest records are overwritten
 *   damaged   `random`, then one byte of a chunk in the middle of the file flipped (bad CRC)
 *   one       Start, one task switch-in, Stop
 *   dense     task_a switched in, then 100000 semaphore operations one tick apart, switched out
 *   smp       two cores (one evrec lane each, evrec_lanes): the known schedule of smp_schedule(),
 *             with a wake-up across cores, preemption without a switch-out, a migration, a
 *             delay, a suspension and an exit (the Perfetto sched_switch and timeline tests) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_lanes.h"
#include "evrec/evrec_save.h"
#include "rtos_events.h"

extern uint32_t evrec_test_clock_now;
extern uint32_t evrec_test_clock_step;

static void at(uint32_t t)
{
    evrec_test_clock_now = t;
    evrec_test_clock_step = 0;
}

typedef struct mem {
    unsigned char *p;
    size_t len, cap;
} mem_t;

static int mem_write(void *ctx, const void *data, size_t n)
{
    mem_t *m = ctx;
    if (m->len + n > m->cap) {
        m->cap = (m->len + n) * 2;
        unsigned char *q = realloc(m->p, m->cap);
        if (!q) {
            return 1;
        }
        m->p = q;
    }
    memcpy(m->p + m->len, data, n);
    m->len += n;
    return 0;
}

static void die(const char *what)
{
    fprintf(stderr, "timeline_rtos_trace: %s\n", what);
    exit(1);
}

static rtos_RtosTask_t task_a, task_b, task_c;
static rtos_RtosIsr_t isr_uart, isr_timer, isr_dma;
static rtos_RtosObject_t sem_rx, mtx_log;

static void name_things(void)
{
    if (rtos_RtosTask_alloc("task_a", &task_a) || rtos_RtosTask_alloc("task_b", &task_b) ||
        rtos_RtosTask_alloc("task_c", &task_c) || rtos_RtosIsr_alloc("uart", &isr_uart) ||
        rtos_RtosIsr_alloc("timer", &isr_timer) || rtos_RtosIsr_alloc("dma", &isr_dma) ||
        rtos_RtosObject_alloc("sem_rx", &sem_rx) || rtos_RtosObject_alloc("mtx_log", &mtx_log)) {
        die("cannot name the tasks");
    }
}

/* The known schedule, in ticks from Start at 1000 (ns = (tick - 1000) * 10). The tests in
 * test_timeline.c use these intervals:
 *   task_a running [1100,1600) and [2650,2900)   task_b running [1620,2200)
 *   Idle running [2210,2640)                     uart active [1300,1450) and [2500,2560)
 *   timer active [1350,1400)                     interrupts disabled [1700,1800)   Stop 3000 */
static void scenario(evrec_host_t *h)
{
    at(1100);
    rtos_record_TaskSwitchIn(h, task_a, rtos_RtosResume_Start);
    at(1300);
    rtos_record_IsrEnter(h, isr_uart, 37);
    at(1350);
    rtos_record_IsrEnter(h, isr_timer, 15);
    at(1400);
    rtos_record_IsrExit(h, isr_timer, 15);
    at(1450);
    rtos_record_IsrExit(h, isr_uart, 37);
    at(1590);
    rtos_record_SemOp(h, task_a, sem_rx, rtos_RtosSemOp_Block);
    at(1600);
    rtos_record_TaskSwitchOut(h, task_a, rtos_RtosSuspend_Blocked);
    at(1620);
    rtos_record_TaskSwitchIn(h, task_b, rtos_RtosResume_Resume);
    at(1700);
    rtos_record_IntControl(h, rtos_RtosIntControl_Disable, 0x1000);
    at(1800);
    rtos_record_IntControl(h, rtos_RtosIntControl_RestoreEnable, 0x1040);
    at(2100);
    rtos_record_SemOp(h, task_a, sem_rx, rtos_RtosSemOp_Unblock);
    at(2160);
    rtos_record_MutexOp(h, task_b, mtx_log, rtos_RtosMutexOp_Lock);
    at(2170);
    rtos_record_MutexOp(h, task_b, mtx_log, rtos_RtosMutexOp_Unlock);
    at(2200);
    rtos_record_TaskSwitchOut(h, task_b, rtos_RtosSuspend_Yield);
    at(2210);
    rtos_record_TaskSwitchIn(h, 0, rtos_RtosResume_Resume);
    at(2500);
    rtos_record_IsrEnter(h, isr_uart, 37);
    at(2560);
    rtos_record_IsrExit(h, isr_uart, 37);
    at(2640);
    rtos_record_TaskSwitchOut(h, 0, rtos_RtosSuspend_Preempted);
    at(2650);
    rtos_record_TaskSwitchIn(h, task_a, rtos_RtosResume_ResumeFromIsr);
    at(2900);
    rtos_record_TaskSwitchOut(h, task_a, rtos_RtosSuspend_Delay);
}

/* The two-core schedule, in ticks from Start at 1000 (ns = (tick - 1000) * 10); c0/c1 = the lane.
 *   c0 1100 a in            c1 1105 b in
 *   c0 1200 a blocks on sem_rx, 1210 a out (Blocked), 1220 Idle in
 *   c1 1300 b gives sem_rx: a unblocked (woken; last ran on core 0)
 *   c0 1400 a in (Idle preempted, no switch-out)
 *   c1 1500 c in (b preempted, no switch-out)
 *   c1 1600 c out (Delay)   c1 1610 b in
 *   c0 1700 a out (Yield)   c0 1710 Idle in
 *   c1 1800 b out (Suspended)   c1 1810 a in (a migrates to core 1)
 *   c1 1900 a out (Exit)    Stop 2000 (Idle still running on core 0) */
static void smp_schedule(evrec_host_t *c0, evrec_host_t *c1)
{
    static const struct {
        uint32_t t;
        int core, what; /* what: 0 in, 1 out, 2 sem block, 3 sem unblock */
        int task;       /* 0 Idle, 1 a, 2 b, 3 c */
        uint8_t type;
    } s[] = {
        {1100, 0, 0, 1, rtos_RtosResume_Start},         {1105, 1, 0, 2, rtos_RtosResume_Start},
        {1200, 0, 2, 1, rtos_RtosSemOp_Block},          {1210, 0, 1, 1, rtos_RtosSuspend_Blocked},
        {1220, 0, 0, 0, rtos_RtosResume_Resume},        {1300, 1, 3, 1, rtos_RtosSemOp_Unblock},
        {1400, 0, 0, 1, rtos_RtosResume_ResumeFromIsr}, {1500, 1, 0, 3, rtos_RtosResume_Start},
        {1600, 1, 1, 3, rtos_RtosSuspend_Delay},        {1610, 1, 0, 2, rtos_RtosResume_Resume},
        {1700, 0, 1, 1, rtos_RtosSuspend_Yield},        {1710, 0, 0, 0, rtos_RtosResume_Resume},
        {1800, 1, 1, 2, rtos_RtosSuspend_Suspended},    {1810, 1, 0, 1, rtos_RtosResume_Resume},
        {1900, 1, 1, 1, rtos_RtosSuspend_Exit},
    };
    rtos_RtosTask_t tasks[4] = {0, task_a, task_b, task_c};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        evrec_host_t *h = s[i].core ? c1 : c0;
        rtos_RtosTask_t t = tasks[s[i].task];
        at(s[i].t);
        if (s[i].what == 0) {
            rtos_record_TaskSwitchIn(h, t, s[i].type);
        } else if (s[i].what == 1) {
            rtos_record_TaskSwitchOut(h, t, s[i].type);
        } else {
            rtos_record_SemOp(h, t, sem_rx, s[i].type);
        }
    }
}

/* The `smp` mode: two lanes of one recorder, saved merged into `file`. */
static void record_smp(mem_t *file)
{
    static uint64_t buf[8192];
    static evrec_lane_t lane_mem[2];
    evrec_recorder_t rec;
    evrec_lanes_t lanes;
    if (rtos_runtime_init() != EVREC_OK || evrec_recorder_init(&rec, buf, sizeof buf) != EVREC_OK ||
        evrec_lanes_init(&lanes, lane_mem, 2) != EVREC_OK) {
        die("recorder init failed");
    }
    at(1000);
    if (evrec_lanes_start(&lanes, &rec, &rtos_meta, 100000000u) != EVREC_OK) {
        die("start failed");
    }
    name_things();
    smp_schedule(evrec_lane_host_at(&lanes, 0), evrec_lane_host_at(&lanes, 1));
    at(2000);
    evrec_sink_t sink = {mem_write, file};
    if (evrec_lanes_stop(&lanes, NULL) != EVREC_OK || evrec_save(&rec, &sink) != EVREC_OK) {
        die("stop or save failed");
    }
}

static void write_file(const char *path, const mem_t *file)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(file->p, 1, file->len, f) != file->len || fclose(f) != 0) {
        die("cannot write the file");
    }
}

static uint32_t rng_state;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (rng_state >> 8) % n;
}

/* Random schedule (after tests/stats/test_stats_cpu.c): returns the last time used. */
static uint32_t random_schedule(evrec_host_t *h, uint32_t t, int steps)
{
    rtos_RtosTask_t tasks[4] = {0, task_a, task_b, task_c}; /* index 0 = idle task */
    rtos_RtosIsr_t isrs[3] = {isr_uart, isr_timer, isr_dma};
    int base = -1; /* -1 none, 0 idle task, 1..3 tasks */
    int stack[3], depth = 0, disabled = 0;
    for (int step = 0; step < steps; step++) {
        t += 1 + rnd(depth ? 20 : 120);
        at(t);
        uint32_t action = rnd(8);
        if (action == 0 && depth < 3) {
            int i = (int)rnd(3);
            stack[depth++] = i;
            rtos_record_IsrEnter(h, isrs[i], (uint16_t)(16 + i));
        } else if ((action == 1 || action == 2) && depth > 0) {
            depth--;
            rtos_record_IsrExit(h, isrs[stack[depth]], (uint16_t)(16 + stack[depth]));
        } else if (action == 3 && depth == 0) {
            int next = (int)rnd(4);
            if (base >= 0) {
                rtos_record_TaskSwitchOut(h, tasks[base],
                                          next ? rtos_RtosSuspend_Preempted : rtos_RtosSuspend_Blocked);
                t += 2;
                at(t);
            }
            rtos_record_TaskSwitchIn(h, tasks[next], rtos_RtosResume_Resume);
            base = next;
        } else if (action == 4 && depth == 0 && base > 0) {
            rtos_record_IntControl(h, disabled ? rtos_RtosIntControl_RestoreEnable : rtos_RtosIntControl_Disable,
                                   0x08001000u + rnd(64) * 4);
            disabled = !disabled;
        } else if (action == 5 && base > 0) {
            rtos_record_QueueOp(h, tasks[base], sem_rx, (uint8_t)rnd(5));
        } else if (action == 6 && base > 0) {
            rtos_record_MutexOp(h, tasks[base], mtx_log, (uint8_t)rnd(5));
        } else {
            rtos_record_SemOp(h, depth ? 0xFFFF : (base >= 0 ? tasks[base] : 0xFFFF), sem_rx, (uint8_t)rnd(2));
        }
    }
    return t;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr,
                "usage: timeline_rtos_trace scenario|random|drops|cyclic|damaged|one|dense|smp OUT.evr [SEED]\n");
        return 2;
    }
    const char *mode = argv[1];
    if (strcmp(mode, "smp") == 0) {
        mem_t file = {NULL, 0, 0};
        record_smp(&file);
        write_file(argv[2], &file);
        printf("%s: %zu bytes, 2 lanes\n", argv[2], file.len);
        free(file.p);
        return 0;
    }
    rng_state = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 1u;
    size_t size = 4u << 20;
    int cyclic = strcmp(mode, "cyclic") == 0;
    if (strcmp(mode, "drops") == 0) {
        size = 16384;
    } else if (cyclic) {
        size = 32768;
    }
    void *buf = aligned_alloc(8, size);
    if (!buf) {
        die("out of memory");
    }
    memset(buf, 0, size);
    evrec_recorder_t rec;
    evrec_host_t host;
    if (rtos_runtime_init() != EVREC_OK) {
        die("rtos_runtime_init failed");
    }
    if ((cyclic ? evrec_recorder_init_cyclic(&rec, buf, size, 1024) : evrec_recorder_init(&rec, buf, size)) !=
        EVREC_OK) {
        die("recorder init failed");
    }
    evrec_host_init(&host);
    at(1000);
    if (evrec_host_start(&host, &rec, &rtos_meta, 100000000u) != EVREC_OK) {
        die("start failed");
    }
    name_things();
    uint32_t t_end = 3000;
    if (strcmp(mode, "scenario") == 0) {
        scenario(&host);
    } else if (strcmp(mode, "one") == 0) {
        at(1500);
        rtos_record_TaskSwitchIn(&host, task_a, rtos_RtosResume_Start);
        t_end = 2000;
    } else if (strcmp(mode, "dense") == 0) {
        at(1100);
        rtos_record_TaskSwitchIn(&host, task_a, rtos_RtosResume_Start);
        for (uint32_t i = 0; i < 100000; i++) {
            at(1200 + i);
            rtos_record_SemOp(&host, task_a, sem_rx, (uint8_t)(i & 1));
        }
        at(101300);
        rtos_record_TaskSwitchOut(&host, task_a, rtos_RtosSuspend_Delay);
        t_end = 101400;
    } else if (strcmp(mode, "random") == 0 || strcmp(mode, "drops") == 0 || cyclic ||
               strcmp(mode, "damaged") == 0) {
        t_end = random_schedule(&host, 1000, 4000) + 100;
    } else {
        die("unknown mode");
    }
    at(t_end);
    if (evrec_host_stop(&host, NULL) != EVREC_OK) {
        die("stop failed");
    }
    mem_t file = {NULL, 0, 0};
    evrec_sink_t sink = {mem_write, &file};
    if (evrec_save(&rec, &sink) != EVREC_OK) {
        die("save failed");
    }
    if (strcmp(mode, "damaged") == 0) {
        file.p[file.len * 6 / 10] ^= 0x5A;
    }
    write_file(argv[2], &file);
    printf("%s: %zu bytes, dropped %llu, overwritten %llu\n", argv[2], file.len,
           (unsigned long long)evrec_recorder_counts(&rec).dropped,
           (unsigned long long)evrec_recorder_counts(&rec).overwritten);
    free(file.p);
    free(buf);
    return 0;
}
