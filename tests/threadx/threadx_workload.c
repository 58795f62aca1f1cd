/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ThreadX (Linux port, or Linux SMP port) traced by evrec: eight threads of seven priorities
 * exchanging messages through a queue, sharing a mutex, waiting on event flags and on a
 * semaphore put by an application timer every third tick (the kernel's timer interrupt, a Linux
 * thread, is traced as IsrEnter/IsrExit), plus a low-priority CPU hog; two more share a block
 * pool, and two a byte pool that one of them holds while the other waits on it. After RUN_MS (environment
 * THREADX_RUN_MS, default 10000) the reporter thread, the highest priority, stops the recording
 * with interrupts disabled and reads at the same moment ThreadX's own accounting: each thread's
 * run count (tx_thread_info_get), resumptions (tx_thread_performance_info_get) and execution
 * time (the execution profile kit, on the TSC); then saves the trace and exits.
 *
 * Built for the Linux SMP port, each core records into its own evrec lane; ThreadX's execution
 * profile kit is only built for one core (THREADX_TEST_KIT), its time is -1 otherwise.
 *
 * Usage: threadx_workload OUT.evr OUT-kernel.txt
 * OUT-kernel.txt, tab-separated: "thread <name> <run_count> <kit_ticks> <resumptions>" per
 * thread, "idle <kit_ticks>", "isr <kit_ticks>" (with the kit), "records <recorded> <dropped>",
 * "pool <name> <allocations> <releases> <timeouts> <users>" per pool (the workload's own counts:
 * calls that returned, so up to <users> operations may be recorded and not yet counted),
 * "timer <name> <expiries>" per application timer (counted in its expiration function).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

#include "tx_api.h"
#include "tx_thread.h"

#include "evrec/evrec_lanes.h"
#include "evrec_save_file.h"
#include "evrec_threadx.h"
#include "threadx_events.h"

#define STACK_BYTES 4096u
#define MAX_THREADS 16u
#define TICK_EVERY 50u /* EventControl Tick every 50 timer ticks (0.5 s): no gap of a 32-bit wrap */

#ifdef TX_THREAD_SMP_MAX_CORES
#define CORES TX_THREAD_SMP_MAX_CORES /* one evrec lane per core */
#else
#define CORES 1
#endif

static evrec_lanes_t lanes;
static evrec_lane_t lane_mem[CORES];
static evrec_recorder_t rec;
static uint32_t trace[16u * 1024u * 1024u]; /* 64 MB */
static const char *out_evr, *out_kernel;

static TX_THREAD threads[12];
static UCHAR stacks[12][STACK_BYTES];
static TX_QUEUE work_q;
static ULONG work_q_storage[16];
static TX_MUTEX shared_mtx;
static TX_SEMAPHORE tick_sem;
static TX_EVENT_FLAGS_GROUP work_flags;
static TX_TIMER tick_timer, evrec_timer;
static volatile ULONG sink;
static unsigned long counter_base;
static ULONG run_ticks;

/* The pools and what their users counted (calls that returned). */
typedef struct {
    const char *name;
    unsigned users;
    volatile ULONG allocations, releases, timeouts;
} pool_count_t;
static TX_BLOCK_POOL msg_pool;
static ULONG msg_pool_memory[4u * (32u + sizeof(void *)) / sizeof(ULONG)]; /* 4 blocks of 32 bytes */
static TX_BYTE_POOL byte_pool;
static ULONG byte_pool_memory[1024u / sizeof(ULONG)];
static pool_count_t msg_count = {"msg_pool", 2u, 0, 0, 0}, byte_count = {"byte_pool", 2u, 0, 0, 0};
static volatile ULONG tick_expiries, evrec_expiries;

unsigned long threadx_test_counter(void)
{
    return (unsigned long)(__rdtsc() - counter_base) | 1ul; /* the kit takes 0 as "not started" */
}

/* Spin for about `n` thousand iterations: CPU time the trace and the kernel both see. */
static void burn(ULONG n)
{
    for (ULONG i = 0; i < n * 1000u; i++) {
        sink += i;
    }
}

static void producer(ULONG arg)
{
    (void)arg;
    for (ULONG k = 0;; k++) {
        burn(200);
        tx_queue_send(&work_q, &k, TX_WAIT_FOREVER);
        if (k % 3u == 0u) {
            tx_event_flags_set(&work_flags, 1u, TX_OR);
        }
        tx_thread_sleep(2);
    }
}

static void consumer(ULONG arg)
{
    (void)arg;
    for (;;) {
        ULONG k;
        if (tx_queue_receive(&work_q, &k, 5) == TX_SUCCESS) {
            burn(100u + (k % 4u) * 100u);
        }
    }
}

static void locker(ULONG pause)
{
    for (;;) {
        tx_mutex_get(&shared_mtx, TX_WAIT_FOREVER);
        burn(150);
        tx_mutex_put(&shared_mtx);
        tx_thread_sleep(pause);
    }
}

static void tick_waiter(ULONG arg)
{
    (void)arg;
    for (;;) {
        if (tx_semaphore_get(&tick_sem, TX_WAIT_FOREVER) == TX_SUCCESS) {
            burn(60);
        }
    }
}

static void flag_waiter(ULONG arg)
{
    (void)arg;
    for (;;) {
        ULONG got;
        if (tx_event_flags_get(&work_flags, 1u, TX_OR_CLEAR, &got, 10) == TX_SUCCESS) {
            burn(50);
        }
    }
}

static void hog(ULONG arg)
{
    (void)arg;
    for (;;) {
        burn(2000);
        tx_thread_sleep(1);
    }
}

/* Two of them share the 4 blocks of msg_pool: each holds up to 3 at once, so the other one
 * sometimes waits (at most 3 ticks: a timeout is counted). */
static void block_user(ULONG hold)
{
    void *held[3];
    for (;;) {
        unsigned n = 0;
        for (; n < 3u; n++) {
            UINT st = tx_block_allocate(&msg_pool, &held[n], 3);
            if (st != TX_SUCCESS) {
                msg_count.timeouts += st == TX_NO_MEMORY;
                break;
            }
            msg_count.allocations++;
            burn(10);
        }
        tx_thread_sleep(hold);
        while (n > 0u) {
            tx_block_release(held[--n]);
            msg_count.releases++;
        }
    }
}

/* byte_holder keeps most of byte_pool for 3 ticks out of 4; byte_user, higher priority, asks
 * for half of it and waits. */
static void byte_holder(ULONG arg)
{
    (void)arg;
    for (;;) {
        void *p;
        if (tx_byte_allocate(&byte_pool, &p, 640u, TX_WAIT_FOREVER) == TX_SUCCESS) {
            byte_count.allocations++;
            tx_thread_sleep(3);
            tx_byte_release(p);
            byte_count.releases++;
        }
        tx_thread_sleep(1);
    }
}

static void byte_user(ULONG arg)
{
    (void)arg;
    for (;;) {
        void *p;
        UINT st = tx_byte_allocate(&byte_pool, &p, 400u, 5);
        if (st == TX_SUCCESS) {
            byte_count.allocations++;
            burn(30);
            tx_byte_release(p);
            byte_count.releases++;
        } else {
            byte_count.timeouts += st == TX_NO_MEMORY;
        }
        tx_thread_sleep(2);
    }
}

static void on_tick_timer(ULONG arg)
{
    (void)arg;
    tick_expiries++;
    burn(20);
    tx_semaphore_put(&tick_sem);
}

static void on_evrec_timer(ULONG arg)
{
    (void)arg;
    evrec_expiries++;
    evrec_lanes_tick(&lanes);
}

/* One line per thread of the kernel's created list; the running thread's open execution is
 * closed at `now` (the kit adds it only when the thread leaves the CPU). */
static void write_threads(FILE *f, unsigned long now)
{
    TX_THREAD *t = _tx_thread_created_ptr;
    TX_THREAD *self = tx_thread_identify();
    for (ULONG n = 0; n < _tx_thread_created_count && n < MAX_THREADS; n++, t = t->tx_thread_created_next) {
        CHAR *name;
        UINT state, prio, threshold;
        ULONG runs, slice, resumptions;
        TX_THREAD *next, *suspended;
        long long kit = -1; /* no kit */
        tx_thread_info_get(t, &name, &state, &runs, &prio, &threshold, &slice, &next, &suspended);
        tx_thread_performance_info_get(t, &resumptions, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
#ifdef THREADX_TEST_KIT
        EXECUTION_TIME total = 0;
        _tx_execution_thread_time_get(t, &total);
        if (t == self && t->tx_thread_execution_time_last_start != 0u) {
            total += now - t->tx_thread_execution_time_last_start;
        }
        kit = (long long)total;
#else
        (void)self;
        (void)now;
#endif
        fprintf(f, "thread\t%s\t%lu\t%lld\t%lu\n", name, (unsigned long)runs, kit, (unsigned long)resumptions);
    }
}

static void *save_main(void *arg)
{
    (void)arg;
    return evrec_save_path(&rec, out_evr) == EVREC_OK ? NULL : (void *)1;
}

/* Saves on a pthread of its own: the SMP port's thread stacks are too small for the save. */
static int save_trace(void)
{
    pthread_t saver;
    pthread_attr_t attr;
    void *bad = (void *)1;
    if (pthread_attr_init(&attr) != 0 || pthread_attr_setstacksize(&attr, 1u << 20) != 0 ||
        pthread_create(&saver, &attr, save_main, NULL) != 0 || pthread_join(saver, &bad) != 0) {
        return -1;
    }
    return bad == NULL ? 0 : -1;
}

/* Interrupts off on this core while the trace stops and the kernel's figures are read. On the
 * Linux SMP port, tx_interrupt_control(TX_INT_DISABLE) only keeps the port's Linux mutex locked
 * (ports_smp/linux/gnu/src/tx_thread_interrupt_control.c) without taking the SMP protection; the
 * services called next (tx_thread_identify, tx_thread_info_get...) then take the protection
 * (TX_DISABLE, tx_thread_smp_protect.c) and, when another core keeps it (its count at 0 while
 * its thread has preemption disabled, tx_thread_smp_unprotect.c), retry forever: the retry
 * releases one nesting level of the mutex, never the one held here, so that core's thread can
 * never take the mutex to give the protection back. Taking the protection itself nests. */
static UINT snapshot_begin(void)
{
#ifdef TX_THREAD_SMP_MAX_CORES
    return _tx_thread_smp_protect();
#else
    return tx_interrupt_control(TX_INT_DISABLE);
#endif
}

static void snapshot_end(UINT posture)
{
#ifdef TX_THREAD_SMP_MAX_CORES
    _tx_thread_smp_unprotect(posture);
#else
    tx_interrupt_control(posture);
#endif
}

/* Highest priority: sleeps the run's length, then stops the trace and reads the kernel's
 * figures with interrupts disabled, so both cover the same run. */
static void reporter(ULONG arg)
{
    (void)arg;
    tx_thread_sleep(run_ticks);
    UINT posture = snapshot_begin();
    unsigned long now = threadx_test_counter();
    evrec_lanes_stop(&lanes, NULL);
    FILE *f = fopen(out_kernel, "w");
    if (f == NULL) {
        exit(1);
    }
    write_threads(f, now);
#ifdef THREADX_TEST_KIT
    EXECUTION_TIME idle = 0, isr = 0;
    _tx_execution_idle_time_get(&idle);
    _tx_execution_isr_time_get(&isr);
    fprintf(f, "idle\t%llu\nisr\t%llu\n", (unsigned long long)idle, (unsigned long long)isr);
#endif
    evrec_recorder_counts_t c = evrec_recorder_counts(&rec);
    fprintf(f, "records\t%llu\t%llu\n", (unsigned long long)c.recorded, (unsigned long long)c.dropped);
    const pool_count_t *pools[] = {&msg_count, &byte_count};
    for (unsigned i = 0; i < 2u; i++) {
        fprintf(f, "pool\t%s\t%lu\t%lu\t%lu\t%u\n", pools[i]->name, (unsigned long)pools[i]->allocations,
                (unsigned long)pools[i]->releases, (unsigned long)pools[i]->timeouts, pools[i]->users);
    }
    fprintf(f, "timer\ttick_timer\t%lu\ntimer\tevrec_timer\t%lu\n", (unsigned long)tick_expiries,
            (unsigned long)evrec_expiries);
    snapshot_end(posture);
    printf("records: %llu recorded, %llu dropped\n", (unsigned long long)c.recorded,
           (unsigned long long)c.dropped);
    int bad = fclose(f) != 0 || save_trace() != 0;
    fflush(stdout);
    _Exit(bad ? 1 : 0); /* the Linux port's pthreads never return */
}

static void create(unsigned i, const char *name, void (*fn)(ULONG), ULONG arg, UINT prio)
{
    if (tx_thread_create(&threads[i], (CHAR *)name, fn, arg, stacks[i], STACK_BYTES, prio, prio, TX_NO_TIME_SLICE,
                         TX_AUTO_START) != TX_SUCCESS) {
        fprintf(stderr, "tx_thread_create %s failed\n", name);
        exit(1);
    }
}

void tx_application_define(void *first_unused_memory)
{
    (void)first_unused_memory;
    tx_queue_create(&work_q, "work_q", TX_1_ULONG, work_q_storage, sizeof work_q_storage);
    tx_mutex_create(&shared_mtx, "shared_mtx", TX_INHERIT);
    tx_semaphore_create(&tick_sem, "tick_sem", 0);
    tx_event_flags_create(&work_flags, "work_flags");
    tx_block_pool_create(&msg_pool, "msg_pool", 32u, msg_pool_memory, sizeof msg_pool_memory);
    tx_byte_pool_create(&byte_pool, "byte_pool", byte_pool_memory, sizeof byte_pool_memory);
    tx_timer_create(&tick_timer, "tick_timer", on_tick_timer, 0, 3, 3, TX_AUTO_ACTIVATE);
    tx_timer_create(&evrec_timer, "evrec_timer", on_evrec_timer, 0, TICK_EVERY, TICK_EVERY, TX_AUTO_ACTIVATE);
    create(0, "reporter", reporter, 0, 1);
    create(1, "tick_waiter", tick_waiter, 0, 5);
    create(2, "lock_fast", locker, 3, 8);
    create(3, "flag_waiter", flag_waiter, 0, 9);
    create(4, "producer", producer, 0, 10);
    create(5, "consumer", consumer, 0, 12);
    create(6, "lock_slow", locker, 5, 12);
    create(7, "hog", hog, 0, 20);
    create(8, "block_a", block_user, 2, 11);
    create(9, "block_b", block_user, 3, 13);
    create(10, "byte_holder", byte_holder, 0, 14);
    create(11, "byte_user", byte_user, 0, 6);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s OUT.evr OUT-kernel.txt\n", argv[0]);
        return 2;
    }
    out_evr = argv[1];
    out_kernel = argv[2];
    const char *ms = getenv("THREADX_RUN_MS");
    run_ticks = (ULONG)((ms != NULL ? strtoul(ms, NULL, 10) : 10000ul) * TX_TIMER_TICKS_PER_SECOND / 1000ul);
    counter_base = (unsigned long)__rdtsc();
    evrec_host_t *hosts[CORES];
    if (evrec_recorder_init(&rec, trace, sizeof trace) != EVREC_OK ||
        evrec_lanes_init(&lanes, lane_mem, CORES) != EVREC_OK) {
        fprintf(stderr, "evrec: cannot set up the recorder\n");
        return 1;
    }
    for (unsigned k = 0; k < CORES; k++) {
        hosts[k] = evrec_lane_host_at(&lanes, k);
    }
    if (evrec_threadx_init(hosts, CORES) != 0 ||
        evrec_lanes_start(&lanes, &rec, &threadx_meta, EVREC_PORT_TIME_FREQ()) != EVREC_OK) {
        fprintf(stderr, "evrec: cannot start recording\n");
        return 1;
    }
    evrec_threadx_isr_name(0, "timer_isr"); /* the port's timer thread: tx_trace_isr_enter_insert(0) */
    tx_kernel_enter();
    return 1;
}
