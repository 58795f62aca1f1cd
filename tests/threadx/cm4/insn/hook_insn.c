/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Instructions the evrec ThreadX hooks add to the kernel's calls on Cortex-M4
 * (../hook-insn-count.sh), counted as tests/freertos/cm4/hook-insn-count.sh counts FreeRTOS's: the
 * firmware runs each kernel call HOOK_N times between two calls of insn_mark(), in a thread
 * (ThreadX's own Cortex-M4 port schedules), built with the hooks (HOOK_TRACE=1: the kernel's
 * event-trace insert points and execution-change notifications, evrec_threadx.c) and without
 * (0); QEMU logs every executed instruction and the script divides each loop's difference by
 * HOOK_N. Loops, in order (the script's names):
 *   empty     a call of an empty function (both builds alike: a check of the method)
 *   switch    tx_thread_relinquish() to a thread of the same priority, which relinquishes back:
 *             two switches (TaskSwitchOut Yield + TaskSwitchIn Resume each)
 *   send      tx_queue_send() into a queue with room (QueueOp Send)
 *   receive   tx_queue_receive() of a message (QueueOp Receive)
 *   put       tx_semaphore_put() with no waiter (SemOp Give)
 *   get       tx_semaphore_get() of a count (SemOp Take)
 *   mutex     tx_mutex_get() + tx_mutex_put() of a free mutex (MutexOp Lock, Unlock)
 *   flags     tx_event_flags_set() + tx_event_flags_get() (EventOp Set, Consume)
 *   isr       an interrupt (NVIC set-pending) whose handler calls _tx_execution_isr_enter() and
 *             _tx_execution_isr_exit(), as the port's example handler does (IsrEnter, IsrExit)
 *   create    tx_thread_create() of a thread not started (TaskCreate, its name kept)
 *   delete    tx_thread_terminate() + tx_thread_delete() of it (TaskDelete; its name, a literal in
 *             flash, needs no copy)
 *   object    tx_semaphore_create() + tx_semaphore_delete() (the object's value and name)
 *   block     tx_block_allocate() + tx_block_release() of a free block (PoolOp Allocate, Release)
 *   byte      tx_byte_allocate() + tx_byte_release() of 64 bytes (PoolOp Allocate at the search's
 *             end, TX_BYTE_ALLOCATE_EXTENSION; Release)
 *   timer     an application timer's expiry: the call of its expiration function as the kernel's
 *             timer thread makes it (tx_timer_thread_entry(): _tx_timer_expired_timer_ptr set, the
 *             function called with its parameter), made by the loop so that no switch to the
 *             timer thread is counted (TimerExpired: the function evrec wraps at its creation)
 * Exit code 0 when everything ran (and, with the hooks, no record was dropped, the records
 * check: records_ok(), and the created threads are named: threads_named()), else 1..5.
 */
#include <stdint.h>

#include "tx_api.h"
#include "tx_timer.h"

#include "semihost.h"

#if HOOK_TRACE
#include "evrec_threadx.h"
#include "threadx_events.h"
static evrec_host_t host;
static evrec_recorder_t rec;
static uint32_t trace[16384];
#endif

#ifndef HOOK_N
#define HOOK_N 32u
#endif
#define STACK 1024u

#define MEASURED __attribute__((noinline, noipa))
void insn_mark(void);
MEASURED void insn_mark(void)
{
    __asm__ volatile("" ::: "memory");
}

static TX_THREAD bench, partner, created[HOOK_N];
static TX_QUEUE queue;
static TX_SEMAPHORE sem;
static TX_MUTEX mutex;
static TX_EVENT_FLAGS_GROUP flags;
static ULONG queue_mem[HOOK_N];
static TX_BLOCK_POOL block_pool;
static TX_BYTE_POOL byte_pool;
static TX_TIMER timer;
static ULONG block_mem[(32u + sizeof(void *)) / sizeof(ULONG)];
static ULONG byte_mem[256u / sizeof(ULONG)];
static volatile ULONG expiries;
static uint64_t bench_stack[STACK / 8], partner_stack[STACK / 8], created_stack[HOOK_N][STACK / 8];

static void never_runs(ULONG arg)
{
    (void)arg;
}

MEASURED static void op_empty(uint32_t i)
{
    __asm__ volatile("" : : "r"(i) : "memory");
}
MEASURED static void op_switch(uint32_t i)
{
    (void)i;
    tx_thread_relinquish();
}
MEASURED static void op_send(uint32_t i)
{
    ULONG m = i;
    (void)tx_queue_send(&queue, &m, TX_NO_WAIT);
}
MEASURED static void op_receive(uint32_t i)
{
    ULONG m = i;
    (void)tx_queue_receive(&queue, &m, TX_NO_WAIT);
}
MEASURED static void op_put(uint32_t i)
{
    (void)i;
    (void)tx_semaphore_put(&sem);
}
MEASURED static void op_get(uint32_t i)
{
    (void)i;
    (void)tx_semaphore_get(&sem, TX_NO_WAIT);
}
MEASURED static void op_mutex(uint32_t i)
{
    (void)i;
    (void)tx_mutex_get(&mutex, TX_NO_WAIT);
    (void)tx_mutex_put(&mutex);
}
MEASURED static void op_flags(uint32_t i)
{
    ULONG got;
    (void)tx_event_flags_set(&flags, 1u << (i & 7u), TX_OR);
    (void)tx_event_flags_get(&flags, 1u << (i & 7u), TX_OR_CLEAR, &got, TX_NO_WAIT);
}
MEASURED static void op_isr(uint32_t i)
{
    (void)i;
    *(volatile uint32_t *)0xE000E200u = 1u << 8; /* NVIC ISPR0: IRQ 8 pending */
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}
MEASURED static void op_create(uint32_t i)
{
    if (tx_thread_create(&created[i], "created", never_runs, 0, created_stack[i], STACK, 20, 20, TX_NO_TIME_SLICE,
                         TX_DONT_START) != TX_SUCCESS) {
        sh_exit(2);
    }
}
MEASURED static void op_delete(uint32_t i)
{
    (void)tx_thread_terminate(&created[i]);
    (void)tx_thread_delete(&created[i]);
}
MEASURED static void op_object(uint32_t i)
{
    (void)i;
    TX_SEMAPHORE s;
    if (tx_semaphore_create(&s, "object", 0) != TX_SUCCESS) {
        sh_exit(2);
    }
    (void)tx_semaphore_delete(&s);
}

MEASURED static void op_block(uint32_t i)
{
    (void)i;
    VOID *p;
    if (tx_block_allocate(&block_pool, &p, TX_NO_WAIT) != TX_SUCCESS) {
        sh_exit(2);
    }
    (void)tx_block_release(p);
}
MEASURED static void op_byte(uint32_t i)
{
    (void)i;
    VOID *p;
    if (tx_byte_allocate(&byte_pool, &p, 64u, TX_NO_WAIT) != TX_SUCCESS) {
        sh_exit(2);
    }
    (void)tx_byte_release(p);
}
static void on_timer(ULONG id)
{
    expiries += id;
}
MEASURED static void op_timer(uint32_t i)
{
    (void)i;
    TX_TIMER_INTERNAL *in = &timer.tx_timer_internal;
    _tx_timer_expired_timer_ptr = in;
    in->tx_timer_internal_timeout_function(in->tx_timer_internal_timeout_param);
    _tx_timer_expired_timer_ptr = TX_NULL;
}

/* IRQ 8: the handler of the isr loop. */
#if HOOK_TRACE
VOID _tx_execution_isr_enter(VOID); /* the kernel's notifications (evrec_threadx.c defines them) */
VOID _tx_execution_isr_exit(VOID);
#endif
void Irq8_Handler(void);
void Irq8_Handler(void)
{
#if HOOK_TRACE
    _tx_execution_isr_enter();
    _tx_execution_isr_exit();
#endif
}

/* One segment: from the first insn_mark() to the second, the same code around every loop. */
static void run(void (*fn)(uint32_t))
{
    insn_mark();
    for (uint32_t i = 0; i < HOOK_N; i++) {
        fn(i);
    }
    insn_mark();
}

static void partner_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        tx_thread_relinquish();
    }
}

#if HOOK_TRACE
/* The records the hooks left (the object calls' and the switches' allocation in the kernel's
 * critical sections among them) are whole: each a known id, walked by its slot size to exactly
 * the bytes and records the recorder counted, the loops' object calls each recorded once, and
 * every switch of the switch loop out (Yield, by bench or partner) and in (Resume, but partner's
 * first: Start). */
static int records_ok(const evrec_recorder_t *r)
{
    evrec_recorder_counts_t n = evrec_recorder_counts(r);
    const uint8_t *p = evrec_recorder_records(r);
    uint32_t of_id[64] = {0};
    uint32_t yields = 0, resumes = 0;
    uint64_t records = 0;
    size_t off = 0;
    while (off + 8u <= n.used) {
        uint16_t id = (uint16_t)(p[off + 4u] | p[off + 5u] << 8);
        if (id >= threadx_meta.event_count || id >= 64u) {
            return 0;
        }
        if (id == threadx_ID_TaskSwitchOut || id == threadx_ID_TaskSwitchIn) { /* task 6..7, type 8 */
            uint16_t task = (uint16_t)(p[off + 6u] | p[off + 7u] << 8);
            int ours = task == bench.evrec_threadx_task || task == partner.evrec_threadx_task;
            yields += ours && id == threadx_ID_TaskSwitchOut && p[off + 8u] == threadx_RtosSuspend_Yield;
            resumes += ours && id == threadx_ID_TaskSwitchIn && p[off + 8u] == threadx_RtosResume_Resume;
        }
        of_id[id]++;
        records++;
        off += (threadx_meta.structs[threadx_meta.events[id].struct_id].native_size + 3u) & ~3u;
    }
    return off == n.used && records == n.recorded && of_id[threadx_ID_QueueOp] == 2u * HOOK_N &&
           of_id[threadx_ID_SemOp] == 2u * HOOK_N && of_id[threadx_ID_MutexOp] == 2u * HOOK_N &&
           of_id[threadx_ID_EventOp] == 2u * HOOK_N && yields >= 2u * HOOK_N && resumes >= 2u * HOOK_N - 1u &&
           of_id[threadx_ID_PoolOp] == 4u * HOOK_N && of_id[threadx_ID_TimerExpired] == HOOK_N;
}
#endif

#if HOOK_TRACE
/* The created threads (the create loop: the inline create on this port) each have their own
 * RtosTask value, in creation order, named "created" (the kernel's pointer: a literal, which
 * the delete does not copy), and a TaskCreate each. */
static int threads_named(void)
{
    for (uint32_t i = 0; i < HOOK_N; i++) {
        uint32_t v = created[i].evrec_threadx_task;
        const char *name = v - 1u < 63u ? threadx_RtosTask_runtime_names[v - 1u] : NULL;
        if (name == NULL || (i > 0u && v != created[i - 1u].evrec_threadx_task + 1u)) {
            return 0;
        }
        const char *want = "created";
        for (uint32_t k = 0; want[k] != '\0' || name[k] != '\0'; k++) {
            if (name[k] != want[k]) {
                return 0;
            }
        }
    }
    return 1;
}
#endif

static void bench_entry(ULONG arg)
{
    (void)arg;
    run(op_empty);
    run(op_switch);
    (void)tx_thread_suspend(&partner); /* the other loops alone */
    run(op_send);
    run(op_receive);
    run(op_put);
    run(op_get);
    run(op_mutex);
    run(op_flags);
    run(op_isr);
    run(op_create);
    run(op_delete);
    run(op_object);
    run(op_block);
    run(op_byte);
    run(op_timer);
    if (expiries != HOOK_N) {
        sh_exit(2);
    }
#if HOOK_TRACE
    evrec_recorder_t *r = NULL;
    (void)evrec_host_stop(&host, &r);
    if (r == NULL || evrec_recorder_counts(r).dropped != 0) {
        sh_exit(1);
    }
    sh_exit(records_ok(r) ? (threads_named() ? 0 : 5) : 4);
#else
    sh_exit(0);
#endif
}

void tx_application_define(void *first_unused_memory)
{
    (void)first_unused_memory;
    *(volatile uint32_t *)0xE000E100u = 1u << 8; /* NVIC ISER0: IRQ 8 enabled */
    if (tx_queue_create(&queue, "queue", TX_1_ULONG, queue_mem, sizeof queue_mem) != TX_SUCCESS ||
        tx_semaphore_create(&sem, "sem", 0) != TX_SUCCESS ||
        tx_mutex_create(&mutex, "mutex", TX_NO_INHERIT) != TX_SUCCESS ||
        tx_event_flags_create(&flags, "flags") != TX_SUCCESS ||
        tx_block_pool_create(&block_pool, "block_pool", 32u, block_mem, sizeof block_mem) != TX_SUCCESS ||
        tx_byte_pool_create(&byte_pool, "byte_pool", byte_mem, sizeof byte_mem) != TX_SUCCESS ||
        tx_timer_create(&timer, "timer", on_timer, 1u, 1000u, 0u, TX_NO_ACTIVATE) != TX_SUCCESS ||
        tx_thread_create(&bench, "bench", bench_entry, 0, bench_stack, STACK, 10, 10, TX_NO_TIME_SLICE,
                         TX_AUTO_START) != TX_SUCCESS ||
        tx_thread_create(&partner, "partner", partner_entry, 0, partner_stack, STACK, 10, 10, TX_NO_TIME_SLICE,
                         TX_AUTO_START) != TX_SUCCESS) {
        sh_exit(2);
    }
}

/* The port's low-level initialisation (ThreadX's example_build has it in assembly with its own
 * vector table): free memory, the system stack, the exception priorities (PendSV lowest), the
 * DWT cycle counter. No SysTick: the loops need no timer. */
extern uint32_t __bss_end__[], __stack_top__[];
extern VOID *_tx_initialize_unused_memory;
extern VOID *_tx_thread_system_stack_ptr;
void _tx_initialize_low_level(void);
void _tx_initialize_low_level(void)
{
    __asm__ volatile("cpsid i" ::: "memory");
    _tx_initialize_unused_memory = (VOID *)__bss_end__;
    _tx_thread_system_stack_ptr = (VOID *)__stack_top__;
    *(volatile uint32_t *)0xE000ED1Cu = 0xFF000000u; /* SHPR2: SVCall lowest */
    *(volatile uint32_t *)0xE000ED20u = 0x40FF0000u; /* SHPR3: SysTick 0x40, PendSV lowest */
    *(volatile uint32_t *)0xE0001000u |= 1u;         /* DWT CYCCNTENA */
}

int main(void)
{
#if HOOK_TRACE
    evrec_host_t *hosts[1] = {&host};
    if (evrec_recorder_init(&rec, trace, sizeof trace) != EVREC_OK || evrec_threadx_init(hosts, 1) != 0 ||
        evrec_host_start(&host, &rec, &threadx_meta, 0) != EVREC_OK) {
        sh_exit(3);
    }
#endif
    tx_kernel_enter();
    sh_exit(3);
}
