/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ThreadX trace hooks (evrec_threadx.h): thread and object ids found by control-block
 * address, their names in fixed tables, the switch records of the execution-change
 * notifications, and the ready/create/delete/ISR records of the event-trace insert points.
 * Records the events of threadx.yaml through the generated threadx_record_*() functions.
 * No malloc, no libc beyond memset; built with the kernel's headers (tx_api.h, tx_thread.h),
 * which include tx_user.h and so evrec_threadx.h.
 *
 * Build knobs (compile definitions, or tx_user.h before the include of evrec_threadx.h):
 *   EVREC_THREADX_MAX_CORES       hosts (cores) it can serve, 1..32, default
 *                                 TX_THREAD_SMP_MAX_CORES on SMP, else 1. RAM: 16 bytes each.
 *   EVREC_THREADX_NAME_LEN        bytes kept of a thread or object name (with the NUL) that is
 *                                 copied (EVREC_THREADX_NAME_COPY), 4..64, default 24. RAM: 190 names.
 *   EVREC_THREADX_ISR_IDS         ISR numbers that can be named, 1..1024, default 256 (1 byte each).
 *   EVREC_THREADX_EXECUTION_NOTIFY 1 (default): define _tx_execution_thread_enter/exit and
 *                                 _tx_execution_isr_enter/exit (and _tx_execution_initialize
 *                                 unless EVREC_THREADX_CHAIN is defined). 0: the application
 *                                 calls evrec_threadx_thread_enter() etc. from its own.
 *   EVREC_THREADX_CHAIN(what, core) called after each switch or ISR record with what =
 *                                 thread_enter, thread_exit, isr_enter, isr_exit and the core:
 *                                 to feed the execution profile kit
 *                                 (utility/execution_profile_kit) from the same points.
 *   EVREC_THREADX_ISR_FROM_TRACE  1: tx_trace_isr_enter_insert()/exit are the ISR entry points
 *                                 (the Linux port, and ports whose context save does not call
 *                                 _tx_execution_isr_enter); they then also call the chain.
 *                                 0 (default): only _tx_execution_isr_enter/exit record ISRs.
 *   EVREC_THREADX_ISR_ID()        the interrupt number _tx_execution_isr_enter() records,
 *                                 default 0 (Cortex-M: (__get_IPSR() & 0x1FFu)).
 *   EVREC_THREADX_INT_CONTROL     1: evrec_threadx_int_control() records IntControl; 0 (default)
 *                                 nothing (the most frequent event of all: its own switch).
 *   EVREC_THREADX_TIMERS          application timers whose expiry can be recorded at once, a
 *                                 power of 2, default 16. RAM: 2 pointers each.
 *   EVREC_THREADX_TASK_FIELD, EVREC_THREADX_INLINE, EVREC_THREADX_IRQOFF_RESERVE,
 *   EVREC_THREADX_NAME_COPY, EVREC_THREADX_NAME_IS_CONST: see evrec_threadx.h (tx_user.h's values).
 */
#define EVREC_THREADX_SOURCE_     /* evrec_threadx.h: the inline record path too */
#define TX_THREAD_SMP_SOURCE_CODE /* SMP: the per-core arrays, not the calling core's getters */
#include "tx_api.h"
#include "tx_thread.h"
#include "tx_timer.h"
#include "tx_trace.h"

#include "evrec_threadx.h"
#include "threadx_events.h"

#include <string.h>

#ifdef TX_THREAD_SMP_MAX_CORES
#ifndef EVREC_THREADX_MAX_CORES
#define EVREC_THREADX_MAX_CORES TX_THREAD_SMP_MAX_CORES
#endif
#define CORE() ((unsigned)TX_SMP_CORE_ID)
#define CURRENT(c) (_tx_thread_current_ptr[c])
#define EXECUTE(c) (_tx_thread_execute_ptr[c])
#define SYSTEM_STATE(c) (_tx_thread_system_state[c])
#else
#ifndef EVREC_THREADX_MAX_CORES
#define EVREC_THREADX_MAX_CORES 1
#endif
#define CORE() 0u
#define CURRENT(c) ((void)(c), _tx_thread_current_ptr)
#define EXECUTE(c) ((void)(c), _tx_thread_execute_ptr)
#define SYSTEM_STATE(c) ((void)(c), _tx_thread_system_state)
#endif
/* An object call's caller is a thread (not a handler, not the initialisation): the kernel's own
 * test, which on Cortex-M also reads the IPSR (its handlers do not raise the system state). */
#ifdef TX_THREAD_SMP_MAX_CORES
#define IN_THREAD(c) (SYSTEM_STATE(c) == 0u)
#else
#define IN_THREAD(c) ((void)(c), TX_THREAD_GET_SYSTEM_STATE() == 0u)
#endif
#ifndef EVREC_THREADX_NAME_LEN
#define EVREC_THREADX_NAME_LEN 24
#endif
#ifndef EVREC_THREADX_ISR_IDS
#define EVREC_THREADX_ISR_IDS 256
#endif
#ifndef EVREC_THREADX_EXECUTION_NOTIFY
#define EVREC_THREADX_EXECUTION_NOTIFY 1
#endif
#ifndef EVREC_THREADX_ISR_FROM_TRACE
#define EVREC_THREADX_ISR_FROM_TRACE 0
#endif
#ifndef EVREC_THREADX_ISR_ID
#define EVREC_THREADX_ISR_ID() 0u
#endif
#ifndef EVREC_THREADX_INT_CONTROL
#define EVREC_THREADX_INT_CONTROL 0
#endif
#ifndef EVREC_THREADX_TIMERS
#define EVREC_THREADX_TIMERS 16
#endif

/* RtosTask 1..63, RtosObject 1..127 (the catalogue's run-time ranges). */
#define TASK_SLOTS 63u
#define OBJECT_SLOTS 127u
#define MAP_SLOTS EVREC_THREADX_MAP_SLOTS /* > (63 + 127) / 0.75: open addressing stays short */
#define NO_TASK ((uint16_t)threadx_RtosTask_NoTask)
/* The sync enums share Block 2, Unblock 3, Timeout 4 (rtos.yaml). */
#define OP_BLOCK ((uint8_t)threadx_RtosQueueOp_Block)
#define OP_UNBLOCK ((uint8_t)threadx_RtosQueueOp_Unblock)
#define OP_TIMEOUT ((uint8_t)threadx_RtosQueueOp_Timeout)
/* A thread's run byte (its control block's evrec_threadx_run, or tx.run[] by its id without the
 * field): the type of its next TaskSwitchIn: Start from its creation, Resume after a switch-in,
 * ResumeFromIsr after an interrupt switched it out. */
#define RUN_(type) ((uint8_t)(type))
#define RUN_RESUME RUN_(threadx_RtosResume_Resume)
#define RUN_FROM_ISR RUN_(threadx_RtosResume_ResumeFromIsr)

enum {
    KIND_QUEUE = EVREC_THREADX_KIND_QUEUE,
    KIND_SEM = EVREC_THREADX_KIND_SEM,
    KIND_MUTEX = EVREC_THREADX_KIND_MUTEX,
    KIND_FLAGS = EVREC_THREADX_KIND_FLAGS
};
/* Pools and application timers (numbered apart from the kinds above). */
enum { KIND_POOL = 16, KIND_TIMER };
static void timer_values_reset(void);

/* The four sync events share one layout: evrec_threadx_object_op_() writes them as QueueOp. */
#define SAME_LAYOUT(T)                                                                                            \
    _Static_assert(sizeof(T) == sizeof(threadx_QueueOp_t) &&                                                      \
                       offsetof(T, task) == offsetof(threadx_QueueOp_t, task) &&                                  \
                       offsetof(T, object) == offsetof(threadx_QueueOp_t, object) &&                              \
                       offsetof(T, type) == offsetof(threadx_QueueOp_t, type),                                    \
                   "sync events share QueueOp's layout")
SAME_LAYOUT(threadx_SemOp_t);
SAME_LAYOUT(threadx_MutexOp_t);
SAME_LAYOUT(threadx_EventOp_t);
SAME_LAYOUT(threadx_PoolOp_t);
_Static_assert(sizeof(threadx_TimerExpired_t) == 12u && offsetof(threadx_TimerExpired_t, task) == 6u,
               "TimerExpired: QueueOp's header and task (evrec_threadx_reserve12_)");
_Static_assert(offsetof(threadx_QueueOp_t, task) == 6u && sizeof(threadx_QueueOp_t) == 12u,
               "task is bytes 6..7 of a 12-byte record (written with the header in evrec_threadx_reserve12_)");
_Static_assert(offsetof(threadx_QueueOp_t, type) == offsetof(threadx_QueueOp_t, object) + 2u &&
                   offsetof(threadx_QueueOp_t, object) + 4u == sizeof(threadx_QueueOp_t) &&
                   offsetof(threadx_QueueOp_t, object) % 4u == 0u,
               "object and type are bytes 8..10 of a 12-byte record (one store in evrec_threadx_object_op_)");

/* A record of two fields, inline (the generated threadx_record_*() are inline only as the
 * compiler sees fit): the switch and ISR paths. */
#define RECORD2(h, T, f1, v1, f2, v2)                                                                             \
    do {                                                                                                          \
        threadx_##T##_t *e_ = (threadx_##T##_t *)evrec_reserve((h), sizeof *e_);                                  \
        if (e_ != NULL) {                                                                                         \
            e_->f1 = (v1);                                                                                        \
            e_->f2 = (v2);                                                                                        \
            evrec_commit(e_, threadx_ID_##T);                                                                     \
        }                                                                                                         \
    } while (0)

/* A TaskSwitchIn or TaskSwitchOut: 12 bytes, the task at bytes 6..7 as QueueOp's, the type at 8
 * (switch_fill() writes them). */
#define SWITCH_LAYOUT(T)                                                                                          \
    _Static_assert(sizeof(T) == 12u && offsetof(T, task) == 6u && offsetof(T, type) == 8u,                        \
                   "switch records: QueueOp's header and task")
SWITCH_LAYOUT(threadx_TaskSwitchIn_t);
SWITCH_LAYOUT(threadx_TaskSwitchOut_t);
#if EVREC_THREADX_IRQOFF_RESERVE
/* PRIMASK saved and set around a record made where interrupts are enabled (the Cortex-M port's
 * _tx_execution_thread_enter()). */
#define IRQ_STATE(s) uint32_t s
#define IRQ_DISABLE(s) __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(s)::"memory")
#define IRQ_RESTORE(s) __asm__ volatile("msr primask, %0" ::"r"(s) : "memory")
#else
#define IRQ_STATE(s) int s
#define IRQ_DISABLE(s) ((void)(s = 0))
#define IRQ_RESTORE(s) ((void)(s))
#endif

/* The switch records' own fast path (EVREC_THREADX_IRQOFF_RESERVE, little-endian): the slot is
 * taken as evrec_threadx_reserve12_() takes it (one-shot mode, the record fits: a plain load and
 * store of the position, interrupts disabled on one core), and the caller tests the result so that
 * its rare paths (another mode, a full buffer, a stopped host) stay out of line. */
#if EVREC_THREADX_IRQOFF_RESERVE && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWITCH_FAST 1
/* A 12-byte record fits `h`'s one-shot buffer at position `*seen`; else evrec_reserve() decides. */
static EVREC_ALWAYS_INLINE int switch_fits(evrec_host_t *h, size_t *seen)
{
    *seen = EVREC_LOAD_RELAXED(&h->pos);
    return __builtin_expect(EVREC_LOAD_RELAXED(&h->block_mask) == 0u && *seen + 12u <= EVREC_LOAD_RELAXED(&h->cap),
                            1);
}
/* The slot at `seen` that switch_fits() found: the position moves past it. */
static EVREC_ALWAYS_INLINE uint8_t *switch_take(evrec_host_t *h, size_t seen)
{
    EVREC_STORE_RELAXED(&h->pos, seen + 12u);
    return EVREC_LOAD_RELAXED(&h->buf) + seen;
}
/* Fill slot `r` with a TaskSwitchIn or TaskSwitchOut: the time (bytes 0..3), then `id_task` (bytes
 * 4..7: the final id and the task) and `type` (byte 8; bytes 9..11, padding, zero), on Thumb-2 in
 * one STRD: the record is whole when its id is, as after evrec_commit(). No provisional id is
 * written first: nothing can read the slot meanwhile (interrupts disabled on the one core), and a
 * reset before the id's store leaves the slot's id as a reset between
 * evrec_threadx_reserve12_()'s position store and its header store does. */
static EVREC_ALWAYS_INLINE void switch_fill(uint8_t *r, uint32_t id_task, uint8_t type)
{
    typedef uint32_t __attribute__((may_alias)) u32_;
    *(u32_ *)(void *)r = (uint32_t)EVREC_PORT_TIMESTAMP();
#if defined(__ARM_ARCH_ISA_THUMB) && __ARM_ARCH_ISA_THUMB >= 2
    /* after the time: the "memory" clobber keeps the compiler's stores before it */
    __asm__ volatile("strd %1, %2, [%0, #4]" : : "r"(r), "r"(id_task), "r"((uint32_t)type) : "memory");
#else
    ((u32_ *)(void *)r)[2] = type;
    __atomic_signal_fence(__ATOMIC_RELEASE); /* the type and the time before the id */
    ((u32_ *)(void *)r)[1] = id_task;
#endif
}
/* The header word of core `c`'s next TaskSwitchOut: its id and the task switched in, one load. */
_Static_assert(offsetof(struct evrec_threadx_core, task) ==
                       offsetof(struct evrec_threadx_core, switch_out_id) + 2u &&
                   offsetof(struct evrec_threadx_core, switch_out_id) % 4u == 0u,
               "switch_out_id and task: one aligned little-endian word");
static EVREC_ALWAYS_INLINE uint32_t switch_out_word(const struct evrec_threadx_core *c)
{
    uint32_t w;
    __builtin_memcpy(&w, &c->switch_out_id, sizeof w);
    return w;
}
#else
#define SWITCH_FAST 0
#endif

/* The hooks have no context argument: their state lives here, the part the inline hooks of
 * evrec_threadx.h read in the two tables they declare. */
struct evrec_threadx_shared evrec_threadx_shared;
uint8_t evrec_threadx_object_kind[OBJECT_SLOTS + 1u];
_Static_assert(OBJECT_SLOTS == EVREC_THREADX_OBJECT_SLOTS, "the header's object range");
_Static_assert(TASK_SLOTS == EVREC_THREADX_TASK_SLOTS, "the header's task range");
static struct evrec_threadx_core other_cores[EVREC_THREADX_MAX_CORES]; /* [0] unused: core 0 is shared's */
/* A core's `running` while IdleSleep was recorded without its IdleWake: no thread's address, and
 * the only value other than NULL below a thread's (switch_out() tests both in one compare). */
#define IDLE_MARK ((const void *)1)
/* Core `c`'s state (c < EVREC_THREADX_MAX_CORES). */
#define CORE_AT(c) (*((c) == 0u ? &evrec_threadx_shared.core0 : &other_cores[c]))
static struct {
    uint8_t run[TASK_SLOTS + 1u];        /* RUN_(next TaskSwitchIn type) */
    uint8_t blocked_on[TASK_SLOTS + 1u]; /* object the thread blocked on, 0 = none */
    char task_name[TASK_SLOTS][EVREC_THREADX_NAME_LEN];
    char object_name[OBJECT_SLOTS][EVREC_THREADX_NAME_LEN];
    uint8_t isr_of_id[EVREC_THREADX_ISR_IDS];
} tx;

static void copy_name(char *dst, const char *src)
{
    size_t i = 0;
    for (; src != NULL && src[i] != '\0' && i + 1u < EVREC_THREADX_NAME_LEN; i++) {
        dst[i] = src[i];
    }
    dst[i] = '\0';
}

static evrec_host_t *host_of(unsigned core)
{
    return core < EVREC_THREADX_MAX_CORES ? CORE_AT(core).host : NULL;
}

int evrec_threadx_init(struct evrec_host *const *hosts, unsigned cores)
{
    if (hosts == NULL || cores == 0u || cores > EVREC_THREADX_MAX_CORES) {
        return EVREC_E_ARG;
    }
    memset(&tx, 0, sizeof tx);
    memset(&evrec_threadx_shared, 0, sizeof evrec_threadx_shared);
    memset(evrec_threadx_object_kind, 0, sizeof evrec_threadx_object_kind);
    memset(other_cores, 0, sizeof other_cores);
    timer_values_reset();
    for (unsigned c = 0; c < EVREC_THREADX_MAX_CORES; c++) {
        CORE_AT(c).host = c < cores ? hosts[c] : NULL;
        CORE_AT(c).switch_out_id = threadx_ID_TaskSwitchOut;
        CORE_AT(c).task = NO_TASK;
    }
    return (int)threadx_runtime_init();
}

int evrec_threadx_isr_name(unsigned isr_id, const char *name)
{
    if (isr_id >= EVREC_THREADX_ISR_IDS || name == NULL) {
        return EVREC_E_ARG;
    }
    threadx_RtosIsr_t isr;
    evrec_status st = threadx_RtosIsr_alloc(name, &isr);
    if (st == EVREC_OK) {
        tx.isr_of_id[isr_id] = (uint8_t)isr;
    }
    return (int)st;
}

/* ---- control block address -> id ---- */

/* Creation runs with interrupts disabled (or the SMP protection held): one writer at a time.
 * A control block created again at the same address gets its new id. */
static void map_put(const void *key, uint16_t value)
{
    uint32_t s = evrec_threadx_map_slot_(key);
    for (uint32_t n = 0; n < MAP_SLOTS; n++, s = (s + 1u) % MAP_SLOTS) {
        if (evrec_threadx_map[s].key == NULL || evrec_threadx_map[s].key == key) {
            evrec_threadx_map[s].value = value;
            evrec_threadx_map[s].key = key;
            return;
        }
    }
}

uint16_t evrec_threadx_map_find(const void *key)
{
    uint32_t s = evrec_threadx_map_slot_(key);
    for (uint32_t n = 0; key != NULL && n < MAP_SLOTS; n++, s = (s + 1u) % MAP_SLOTS) {
        if (evrec_threadx_map[s].key == key) {
            return evrec_threadx_map[s].value;
        }
        if (evrec_threadx_map[s].key == NULL) {
            break;
        }
    }
    return 0u;
}

void *evrec_threadx_reserve12_slow(struct evrec_host *h, uint16_t task)
{
    threadx_QueueOp_t *e = (threadx_QueueOp_t *)evrec_reserve(h, sizeof *e);
    if (e != NULL) {
        e->task = task;
    }
    return e;
}

void evrec_threadx_object_op_slow(struct evrec_host *h, const void *object, uint16_t task, uint32_t event_op)
{
    uint16_t v = evrec_threadx_object_(object);
    if (v != 0u) {
        evrec_threadx_op_record_(h, task, (uint16_t)event_op, (event_op >> 16) << 16 | v);
    }
}

#if !EVREC_THREADX_TASK_FIELD
/* A thread's RtosTask value from the table: NoTask for none or one created before
 * evrec_threadx_init(). */
uint16_t evrec_threadx_task_of_address(const void *thread)
{
    uint16_t v = evrec_threadx_map_find(thread);
    return (v & EVREC_THREADX_MAP_TASK) != 0u ? (uint16_t)(v & ~EVREC_THREADX_MAP_TASK) : NO_TASK;
}
#endif

/* A thread's RtosTask value: NoTask for none (or, from the table, one created before
 * evrec_threadx_init()). */
static uint16_t task_of(const TX_THREAD *t)
{
    return EVREC_THREADX_TASK_OF_(t);
}

static uint8_t *slot_u8(uint8_t *table, uint16_t task)
{
    return task <= TASK_SLOTS ? &table[task] : NULL;
}

/* The RtosTask value of a thread that is not NULL. */
#if EVREC_THREADX_TASK_FIELD
#define TASK_OF_THREAD(t) ((uint16_t)(t)->evrec_threadx_task)
#else
#define TASK_OF_THREAD(t) task_of(t)
#endif

/* Thread `t`'s run byte (`task` its id), NULL when it has none (an id out of range). */
static EVREC_ALWAYS_INLINE uint8_t *run_of(TX_THREAD *t, uint16_t task)
{
#if EVREC_THREADX_TASK_FIELD
    (void)task;
    return &t->evrec_threadx_run;
#else
    (void)t;
    return slot_u8(tx.run, task);
#endif
}

static void record_sync(evrec_host_t *h, uint16_t task, uint16_t object, uint8_t op)
{
    switch (object <= OBJECT_SLOTS ? evrec_threadx_object_kind[object] : 0u) {
    case KIND_SEM: threadx_record_SemOp(h, task, object, op); break;
    case KIND_MUTEX: threadx_record_MutexOp(h, task, object, op); break;
    case KIND_FLAGS: threadx_record_EventOp(h, task, object, op); break;
    case KIND_POOL: threadx_record_PoolOp(h, task, object, op); break;
    default: threadx_record_QueueOp(h, task, object, op); break;
    }
}

/* ---- threads: create, delete, priority, ready ---- */

/* ---- names: run-time enum values ---- */

/* The next value of run-time enum `e` (values 1..slots, names[v - 1]) named `name`, 0 when they
 * are used up. Only the creates allocate these values, in the kernel's critical section (no
 * handler creates a thread or an object: the kernel's caller checks): with
 * EVREC_THREADX_IRQOFF_RESERVE 1 (interrupts disabled on one core) a plain load and store, as
 * the record allocation there; else evrec_runtime_enum_alloc(). */
static EVREC_ALWAYS_INLINE uint16_t name_value(evrec_runtime_enum_t *e, const char **names, uint32_t slots,
                                               const char *name)
{
#if EVREC_THREADX_IRQOFF_RESERVE
    uint32_t v = (uint32_t)EVREC_LOAD_RELAXED(&e->next);
    uint32_t i = v - 1u; /* names[i] names value v */
    if (__builtin_expect(i >= slots, 0)) {
        return 0u;
    }
    names[i] = name;
    EVREC_STORE_RELAXED(&e->next, (size_t)v + 1u);
    return (uint16_t)v;
#else
    uint32_t v = 0;
    (void)names;
    return evrec_runtime_enum_alloc(e, name, &v) == EVREC_OK && v - 1u < slots ? (uint16_t)v : 0u;
#endif
}

/* Value `v` (1..) of a run-time enum with `names` gets `name`: the kernel's pointer, or its copy
 * in `copies` (EVREC_THREADX_NAME_COPY 1). */
static EVREC_ALWAYS_INLINE uint16_t name_new(evrec_runtime_enum_t *e, const char **names, uint32_t slots,
                                             char (*copies)[EVREC_THREADX_NAME_LEN], const char *name)
{
#if EVREC_THREADX_NAME_COPY
    uint16_t v = name_value(e, names, slots, "?");
    if (v != 0u) {
        copy_name(copies[v - 1u], name);
        names[v - 1u] = copies[v - 1u];
    }
    return v;
#else
    (void)copies;
    return name_value(e, names, slots, name != NULL ? name : "");
#endif
}

/* The name of value `v` (1..slots) is copied into `copies` (its thread or object is deleted: the
 * application may free or reuse the string). */
static void name_keep(const char **names, uint32_t slots, char (*copies)[EVREC_THREADX_NAME_LEN], uint16_t v,
                      const char *name)
{
    if (v - 1u < slots) {
        copy_name(copies[v - 1u], name);
        names[v - 1u] = copies[v - 1u];
    }
}

/* ---- threads: create, delete, priority, ready ---- */

/* A record of 12 bytes with its task (bytes 6..7) and one 16-bit field (bytes 8..9), in the
 * kernel's critical section: as SWITCH_RECORD (evrec_threadx_reserve12_() with
 * EVREC_THREADX_IRQOFF_RESERVE 1). */
#define TASK_LAYOUT(T)                                                                                            \
    _Static_assert(sizeof(T) == 12u && offsetof(T, task) == 6u && offsetof(T, priority) == 8u,                    \
                   "task records: QueueOp's header and task")
TASK_LAYOUT(threadx_TaskCreate_t);
TASK_LAYOUT(threadx_TaskDelete_t);
void evrec_threadx_task_record_slow(evrec_host_t *h, uint16_t event_id, uint16_t task, uint16_t priority)
{
    threadx_TaskCreate_t *e = (threadx_TaskCreate_t *)evrec_threadx_reserve12_slow(h, task);
    if (e != NULL) {
        e->priority = priority;
        evrec_commit(e, event_id);
    }
}
#ifdef EVREC_THREADX_TASK_RECORD_FAST_ /* evrec_threadx.h: one-shot, interrupts disabled on one core */
#define TASK_RECORD(h, T, task_, priority_) evrec_threadx_task_record_((h), threadx_ID_##T, (task_), (priority_))
#else
#define TASK_RECORD(h, T, task_, priority_) RECORD2(h, T, task, task_, priority, priority_)
#endif

void evrec_threadx_thread_create(uintptr_t thread, uintptr_t priority)
{
    TX_THREAD *t = (TX_THREAD *)thread;
    uint16_t task = name_new(&threadx_RtosTask_runtime, threadx_RtosTask_runtime_names, TASK_SLOTS, tx.task_name,
                             t->tx_thread_name);
    /* a value is given once per evrec_threadx_init(), which cleared its tx.blocked_on[] */
    if (task == 0u) {
        task = NO_TASK; /* the names ran out */
    } else {
#if !EVREC_THREADX_TASK_FIELD
        tx.run[task] = RUN_(threadx_RtosResume_Start);
        map_put(t, (uint16_t)(EVREC_THREADX_MAP_TASK | task));
#endif
    }
#if EVREC_THREADX_TASK_FIELD
    t->evrec_threadx_task = task;
    t->evrec_threadx_run = RUN_(threadx_RtosResume_Start);
#endif
    evrec_host_t *h = host_of(CORE());
    if (h != NULL) {
        TASK_RECORD(h, TaskCreate, task, (uint16_t)priority);
    }
}

void evrec_threadx_thread_delete(uintptr_t thread)
{
    const TX_THREAD *t = (const TX_THREAD *)thread;
    uint16_t task = task_of(t);
    evrec_host_t *h = host_of(CORE());
    if (h != NULL) {
        TASK_RECORD(h, TaskDelete, task, (uint16_t)t->tx_thread_priority);
    }
    if (!EVREC_THREADX_NAME_COPY && !EVREC_THREADX_NAME_IS_CONST(t->tx_thread_name)) {
        name_keep(threadx_RtosTask_runtime_names, TASK_SLOTS, tx.task_name, task, t->tx_thread_name);
    }
}

static void thread_ready(unsigned core, const TX_THREAD *t, uintptr_t old_state)
{
    evrec_host_t *h = host_of(core);
    uint16_t task = task_of(t);
    if (h == NULL || old_state == TX_READY) {
        return; /* already ready: the kernel does nothing */
    }
    uint8_t *waits = slot_u8(tx.blocked_on, task);
    if (waits != NULL && *waits != 0u) {
        uint8_t op = t->tx_thread_suspend_status == TX_SUCCESS ? OP_UNBLOCK : OP_TIMEOUT;
        uint16_t object = *waits;
        *waits = 0u;
        record_sync(h, task, object, op);
    }
    threadx_record_TaskReady(h, task);
}

/* ---- objects ---- */

/* `key` gets `value`: its first slot when that is free or its own (the common case, inline),
 * else the probe of map_put(). */
static EVREC_ALWAYS_INLINE void map_set(const void *key, uint16_t value)
{
    struct evrec_threadx_map_slot *slot = &evrec_threadx_map[evrec_threadx_map_slot_(key)];
    if (__builtin_expect(slot->key == NULL || slot->key == key, 1)) {
        slot->value = value;
        slot->key = key;
    } else {
        map_put(key, value);
    }
}

static void object_create(const void *object, int kind, const char *name)
{
#if EVREC_THREADX_OBJECT_FAST_
    evrec_threadx_object_create_(object, kind, name);
#else
    uint16_t v = name_new(&threadx_RtosObject_runtime, threadx_RtosObject_runtime_names, OBJECT_SLOTS,
                          tx.object_name, name);
    if (v != 0u) {
        evrec_threadx_object_kind[v] = (uint8_t)kind;
        map_set(object, v);
    }
#endif
}

void evrec_threadx_map_put(const void *key, uint16_t value)
{
    map_put(key, value);
}

void evrec_threadx_object_create(const void *object, int kind, const char *name)
{
    object_create(object, kind, name);
}

void evrec_threadx_object_delete(const void *object, const char *name)
{
    name_keep(threadx_RtosObject_runtime_names, OBJECT_SLOTS, tx.object_name, evrec_threadx_object_(object), name);
}

/* A delete: the name copied unless it needs no copy (evrec_threadx.h, EVREC_THREADX_NAME_COPY). */
static void name_deleted(uintptr_t i1, const char *name)
{
    if (!EVREC_THREADX_NAME_COPY && !EVREC_THREADX_NAME_IS_CONST(name)) {
        evrec_threadx_object_delete((const void *)i1, name);
    }
}

/* The thread suspends in a state that waits on an object: Block on it. */
static void thread_suspend(unsigned core, const TX_THREAD *t, uintptr_t new_state)
{
    evrec_host_t *h = host_of(core);
    if (h == NULL || (new_state != TX_QUEUE_SUSP && new_state != TX_SEMAPHORE_SUSP && new_state != TX_EVENT_FLAG &&
                      new_state != TX_MUTEX_SUSP && new_state != TX_BLOCK_MEMORY && new_state != TX_BYTE_MEMORY)) {
        return;
    }
    uint16_t task = task_of(t);
    uint16_t object = evrec_threadx_object_(t->tx_thread_suspend_control_block);
    uint8_t *waits = slot_u8(tx.blocked_on, task);
    if (waits != NULL) {
        *waits = (uint8_t)object;
    }
    record_sync(h, task, object, OP_BLOCK);
}

/* An API call on an object, at its start (the kernel's insert point): the operation is recorded
 * when the object's state says it completes at once; a call that waits is recorded as Block when
 * the thread suspends, and its end as Unblock or Timeout when it is made ready again. */
static void object_call(unsigned core, uint32_t event, uintptr_t i1, uintptr_t i2, uintptr_t i3, uintptr_t i4)
{
    const TX_THREAD *self = IN_THREAD(core) ? CURRENT(core) : NULL;
    const void *o = (const void *)i1;
    uint16_t task = task_of(self);
    evrec_host_t *h = host_of(core);
    switch (event) {
    case TX_TRACE_QUEUE_SEND:
    case TX_TRACE_QUEUE_FRONT_SEND:
        if (((const TX_QUEUE *)i1)->tx_queue_available_storage != 0u) {
            evrec_threadx_object_op_(h, task, threadx_ID_QueueOp, o, threadx_RtosQueueOp_Send);
        }
        break;
    case TX_TRACE_QUEUE_RECEIVE:
        if (i4 != 0u) { /* messages enqueued */
            evrec_threadx_object_op_(h, task, threadx_ID_QueueOp, o, threadx_RtosQueueOp_Receive);
        }
        break;
    case TX_TRACE_SEMAPHORE_GET:
        if (i3 != 0u) { /* count */
            evrec_threadx_object_op_(h, task, threadx_ID_SemOp, o, threadx_RtosSemOp_Take);
        }
        break;
    case TX_TRACE_SEMAPHORE_PUT:
        if (i3 == 0u) { /* no thread waits: the count goes up */
            evrec_threadx_object_op_(h, task, threadx_ID_SemOp, o, threadx_RtosSemOp_Give);
        }
        break;
    case TX_TRACE_MUTEX_GET:
        if (i3 == 0u || (const TX_THREAD *)i3 == self) { /* free, or owned by the caller */
            evrec_threadx_object_op_(h, task, threadx_ID_MutexOp, o, threadx_RtosMutexOp_Lock);
        }
        break;
    case TX_TRACE_MUTEX_PUT:
        if (((const TX_MUTEX *)i1)->tx_mutex_suspended_count == 0u) {
            evrec_threadx_object_op_(h, task, threadx_ID_MutexOp, o, threadx_RtosMutexOp_Unlock);
        }
        break;
    case TX_TRACE_EVENT_FLAGS_SET:
        evrec_threadx_object_op_(h, task, threadx_ID_EventOp, o, threadx_RtosEventOp_Set);
        break;
    case TX_TRACE_EVENT_FLAGS_GET: /* requested i2, current i3, option i4 (TX_AND bit) */
        if ((i4 & TX_AND) != 0u ? (i3 & i2) == i2 : (i3 & i2) != 0u) {
            evrec_threadx_object_op_(h, task, threadx_ID_EventOp, o, threadx_RtosEventOp_Consume);
        }
        break;
    default: break;
    }
}

/* ---- block pools, byte pools, application timers ---- */

/* A pool call at its insert point: as EVREC_THREADX_POOL_INLINE_ (evrec_threadx.h). */
static void pool_call(unsigned core, uint32_t event, uintptr_t i1, uintptr_t i4)
{
    const TX_THREAD *self = IN_THREAD(core) ? CURRENT(core) : NULL;
    uint8_t op = threadx_RtosPoolOp_Release;
    if (event == TX_TRACE_BLOCK_ALLOCATE) {
        if (i4 == 0u) { /* no free block: it waits (Block) or fails */
            return;
        }
        op = threadx_RtosPoolOp_Allocate;
    }
    evrec_threadx_object_op_(host_of(core), task_of(self), threadx_ID_PoolOp, (const void *)i1, op);
}

void evrec_threadx_byte_allocated(const void *pool)
{
    unsigned core = CORE();
    if (core < EVREC_THREADX_MAX_CORES) {
        const TX_THREAD *self = IN_THREAD(core) ? CURRENT(core) : NULL;
        evrec_threadx_object_op_(host_of(core), task_of(self), threadx_ID_PoolOp, pool,
                                 threadx_RtosPoolOp_Allocate);
    }
}

/* An application timer's expiration function and RtosObject value, kept while the timer's
 * control block calls timer_expired() instead (by the TX_TIMER_INTERNAL address; a deleted
 * timer's slot keeps a marker so that the probes go on). The keys and functions are not reset by
 * evrec_threadx_init() (a timer wrapped before it still finds its function), the values and
 * hosts are. */
typedef VOID (*timer_fn_t)(ULONG);
struct timer_wrap {
    const TX_TIMER_INTERNAL *key;
    timer_fn_t fn;
    uintptr_t timer;   /* its RtosObject value, 0: not recorded */
    evrec_host_t *one; /* one core: core 0's host when `timer` is not 0 (one test on the expiry) */
};
static struct timer_wrap timer_wraps[EVREC_THREADX_TIMERS];
_Static_assert((EVREC_THREADX_TIMERS & (EVREC_THREADX_TIMERS - 1)) == 0, "EVREC_THREADX_TIMERS: a power of 2");
#define TIMER_GONE ((const TX_TIMER_INTERNAL *)&timer_wraps) /* a deleted timer's slot */
#define TIMER_SLOT(key) ((uint32_t)((uintptr_t)(key) >> 3) & (EVREC_THREADX_TIMERS - 1u))
#define TIMER_NEXT(s) (((s) + 1u) & (EVREC_THREADX_TIMERS - 1u))

/* The slot of a wrapped timer, NULL when it is not wrapped. Out of the expiry's path: its first
 * probe is inline there. */
static __attribute__((noinline)) const struct timer_wrap *timer_wrap_of(const TX_TIMER_INTERNAL *key)
{
    uint32_t s = TIMER_SLOT(key);
    for (uint32_t n = 0; n < EVREC_THREADX_TIMERS && timer_wraps[s].key != NULL; n++, s = TIMER_NEXT(s)) {
        if (timer_wraps[s].key == key) {
            return &timer_wraps[s];
        }
    }
    return NULL;
}

/* TimerExpired of the timer in slot `w` on this core: by the timer thread, the thread the
 * records switched in (NoTask when the kernel processes timers in its timer interrupt). */
static EVREC_ALWAYS_INLINE void timer_record(const struct timer_wrap *w)
{
    unsigned core = CORE();
#if EVREC_THREADX_MAX_CORES == 1
    evrec_host_t *h = w->one;
#else
    evrec_host_t *h = w->timer != 0u && core < EVREC_THREADX_MAX_CORES ? CORE_AT(core).host : NULL;
#endif
    if (h == NULL) {
        return;
    }
#if defined(TX_TIMER_PROCESS_IN_ISR)
    uint16_t task = NO_TASK;
    (void)core;
#elif defined(TX_THREAD_SMP_MAX_CORES)
    uint16_t task = IN_THREAD(core) ? task_of(CURRENT(core)) : NO_TASK;
#else
    uint16_t task = CORE_AT(core).task;
#endif
    IRQ_STATE(irq);
    IRQ_DISABLE(irq);
    threadx_TimerExpired_t *e = (threadx_TimerExpired_t *)evrec_threadx_reserve12_(h, task);
    if (e != NULL) {
        e->timer = (uint16_t)w->timer;
        evrec_commit(e, threadx_ID_TimerExpired);
    }
    IRQ_RESTORE(irq);
}

/* The expiration function of every wrapped timer, called by the kernel's timer thread (or its
 * timer interrupt with TX_TIMER_PROCESS_IN_ISR) with _tx_timer_expired_timer_ptr set to the
 * timer: TimerExpired, then the application's function. */
static VOID timer_expired(ULONG param)
{
    const TX_TIMER_INTERNAL *in = _tx_timer_expired_timer_ptr;
    const struct timer_wrap *w = &timer_wraps[TIMER_SLOT(in)];
    if (__builtin_expect(w->key != in, 0)) {
        w = timer_wrap_of(in);
        if (w == NULL) {
            return; /* not wrapped: not called */
        }
    }
    timer_fn_t fn = w->fn;
    timer_record(w);
    fn(param);
}

/* tx_timer_create() (interrupts disabled): name the timer, and wrap its expiration function
 * when a slot is free (else its expiries are not recorded). */
static void timer_wrap(TX_TIMER *t)
{
    object_create(t, KIND_TIMER, t->tx_timer_name);
    TX_TIMER_INTERNAL *in = &t->tx_timer_internal;
    timer_fn_t fn = in->tx_timer_internal_timeout_function;
    if (fn == NULL || fn == &timer_expired) {
        return;
    }
    uint32_t s = TIMER_SLOT(in), free_slot = EVREC_THREADX_TIMERS;
    for (uint32_t n = 0; n < EVREC_THREADX_TIMERS; n++, s = TIMER_NEXT(s)) {
        if (timer_wraps[s].key == in) {
            free_slot = s; /* the timer created again at the same address */
            break;
        }
        if (timer_wraps[s].key == NULL) { /* the probe's end: a deleted timer's slot before it, or this one */
            free_slot = free_slot < EVREC_THREADX_TIMERS ? free_slot : s;
            break;
        }
        if (timer_wraps[s].key == TIMER_GONE && free_slot == EVREC_THREADX_TIMERS) {
            free_slot = s;
        }
    }
    if (free_slot < EVREC_THREADX_TIMERS) {
        timer_wraps[free_slot].fn = fn;
        timer_wraps[free_slot].timer = evrec_threadx_object_(t);
        timer_wraps[free_slot].one = timer_wraps[free_slot].timer != 0u ? host_of(0) : NULL;
        timer_wraps[free_slot].key = in;
        in->tx_timer_internal_timeout_function = &timer_expired;
    }
}

/* tx_timer_delete(): its slot is free again (the timer no longer runs). */
static void timer_unwrap(const TX_TIMER *t)
{
    const struct timer_wrap *w = timer_wrap_of(&t->tx_timer_internal);
    if (w != NULL) {
        timer_wraps[w - timer_wraps].key = TIMER_GONE;
    }
}

/* evrec_threadx_init(): the wrapped timers' values are gone with the names (their functions stay). */
static void timer_values_reset(void)
{
    for (uint32_t s = 0; s < EVREC_THREADX_TIMERS; s++) {
        timer_wraps[s].timer = 0u;
        timer_wraps[s].one = NULL;
    }
}

int evrec_threadx_pool_insert(uint32_t event, uintptr_t i1, uintptr_t i4)
{
    unsigned core = CORE();
    switch (event) {
    case TX_TRACE_BLOCK_POOL_CREATE:
        object_create((const void *)i1, KIND_POOL, ((const TX_BLOCK_POOL *)i1)->tx_block_pool_name);
        return 1;
    case TX_TRACE_BYTE_POOL_CREATE:
        object_create((const void *)i1, KIND_POOL, ((const TX_BYTE_POOL *)i1)->tx_byte_pool_name);
        return 1;
    case TX_TRACE_TIMER_CREATE: timer_wrap((TX_TIMER *)i1); return 1;
    case TX_TRACE_BLOCK_POOL_DELETE: name_deleted(i1, ((const TX_BLOCK_POOL *)i1)->tx_block_pool_name); return 1;
    case TX_TRACE_BYTE_POOL_DELETE: name_deleted(i1, ((const TX_BYTE_POOL *)i1)->tx_byte_pool_name); return 1;
    case TX_TRACE_TIMER_DELETE:
        name_deleted(i1, ((const TX_TIMER *)i1)->tx_timer_name);
        timer_unwrap((const TX_TIMER *)i1);
        return 1;
    case TX_TRACE_BLOCK_ALLOCATE:
    case TX_TRACE_BLOCK_RELEASE:
    case TX_TRACE_BYTE_RELEASE: pool_call(core, event, i1, i4); return 1;
    default: return 0;
    }
}

/* ---- switches, idle, interrupts ---- */

/* Why a thread that is not ready leaves the CPU, by the state the kernel gave it (tx_api.h): a
 * table, not a switch (a TBB and a branch per state); a state past TX_SLEEP waits on an object
 * (queue, semaphore, flags, mutex, memory...): Blocked. */
_Static_assert(TX_READY == 0 && TX_COMPLETED < TX_SLEEP && TX_TERMINATED < TX_SLEEP && TX_SUSPENDED < TX_SLEEP &&
                   TX_SLEEP < 8,
               "tx_api.h's thread states: TX_READY 0, the others the table below indexes");
static const uint8_t reason_of_state[TX_SLEEP + 1u] = {
    [TX_READY] = threadx_RtosSuspend_Preempted, /* not read: suspend_reason() tests it first */
    [TX_COMPLETED] = threadx_RtosSuspend_Exit,      [TX_TERMINATED] = threadx_RtosSuspend_Exit,
    [TX_SUSPENDED] = threadx_RtosSuspend_Suspended, [TX_SLEEP] = threadx_RtosSuspend_Delay,
};

/* Why the thread leaves the CPU, from the state the kernel gave it (tx_api.h TX_READY...). */
static EVREC_ALWAYS_INLINE uint8_t suspend_reason(const TX_THREAD *t, const TX_THREAD *next)
{
    UINT state = t->tx_thread_state;
    if (__builtin_expect(state == TX_READY, 1)) { /* a higher priority, or the same (relinquish, time slice) */
        return (next != NULL && next->tx_thread_priority == t->tx_thread_priority) ? threadx_RtosSuspend_Yield
                                                                                   : threadx_RtosSuspend_Preempted;
    }
    return state < sizeof reason_of_state ? reason_of_state[state] : threadx_RtosSuspend_Blocked;
}

#ifdef EVREC_THREADX_CHAIN
#define CHAINED 1 /* the execution profile kit defines _tx_execution_initialize() */
#else
#define CHAINED 0
#define EVREC_THREADX_CHAIN(what, core) ((void)(core))
#endif

/* Before a TaskSwitchIn on `c`: the TaskSwitchOut of a thread whose exit was not seen, the
 * IdleWake of an idle core. Rare: out of the switch's path. */
static __attribute__((noinline)) void switch_in_catch_up(struct evrec_threadx_core *c, evrec_host_t *h)
{
    if (c->running == IDLE_MARK) {
        c->running = NULL;
        threadx_record_IdleWake(h);
    } else if (c->running != NULL) {
        threadx_record_TaskSwitchOut(h, task_of((const TX_THREAD *)c->running), threadx_RtosSuspend_Preempted);
        c->running = NULL;
        c->task = NO_TASK;
    }
}

/* A TaskSwitchIn or TaskSwitchOut (`id`) through evrec_reserve(): the rare path of the switches'
 * records (another mode than one-shot, a full buffer, a stopped host), out of line. */
static __attribute__((noinline, cold)) void switch_record_slow(evrec_host_t *h, uint16_t id, uint16_t task,
                                                               uint8_t type)
{
    threadx_TaskSwitchIn_t *e = (threadx_TaskSwitchIn_t *)evrec_reserve(h, sizeof *e);
    if (e != NULL) { /* TaskSwitchOut has the same layout (SWITCH_LAYOUT) */
        e->task = task;
        e->type = type;
        evrec_commit(e, id);
    }
}

/* A TaskSwitchIn or TaskSwitchOut through `h` (interrupts disabled). */
static EVREC_ALWAYS_INLINE void switch_record(evrec_host_t *h, uint16_t id, uint16_t task, uint8_t type)
{
#if SWITCH_FAST
    size_t seen;
    if (switch_fits(h, &seen)) {
        switch_fill(switch_take(h, seen), (uint32_t)id | (uint32_t)task << 16, type);
        return;
    }
#endif
    switch_record_slow(h, id, task, type);
}

/* TaskSwitchIn of `t` on `core` (after IdleWake if the core was idle, after the TaskSwitchOut
 * of a thread whose exit was not seen). */
static EVREC_ALWAYS_INLINE void switch_in(unsigned core, TX_THREAD *t, int may_be_null)
{
    struct evrec_threadx_core *c = &CORE_AT(core);
    evrec_host_t *h = c->host;
    if (h == NULL || (may_be_null && t == NULL)) {
        return;
    }
    if (__builtin_expect(c->running != NULL, 0)) { /* a thread not switched out, or IDLE_MARK */
        if (c->running == t) {
            return; /* already in (evrec_threadx_scheduler_sync()) */
        }
        switch_in_catch_up(c, h);
    }
    uint16_t task = TASK_OF_THREAD(t);
    uint8_t type = threadx_RtosResume_Resume;
    uint8_t *run = run_of(t, task);
    if (run != NULL) {
        type = *run;
        *run = RUN_RESUME;
    }
    c->running = t;
    c->task = task;
    IRQ_STATE(irq);
    IRQ_DISABLE(irq);
    switch_record(h, threadx_ID_TaskSwitchIn, task, type);
    IRQ_RESTORE(irq);
    EVREC_THREADX_CHAIN(thread_enter, core);
}

/* TaskSwitchOut of `t` from `core` through `h` when no thread is ready for the core, then
 * IdleSleep: out of line. */
static __attribute__((noinline, cold)) void switch_out_idle(unsigned core, evrec_host_t *h, const TX_THREAD *t)
{
    struct evrec_threadx_core *c = &CORE_AT(core);
    switch_record(h, threadx_ID_TaskSwitchOut, c->task, suspend_reason(t, NULL)); /* interrupts are disabled */
    EVREC_THREADX_CHAIN(thread_exit, core);
    c->running = IDLE_MARK;
    threadx_record_IdleSleep(h);
}

/* TaskSwitchOut of the thread the records switched in on `core` (none, or the core idle: nothing),
 * then IdleSleep when no thread is ready for the core. That thread is the one the port's exit
 * notification is about (the kernel's current pointer: the ports call it before they change that
 * pointer); it is read from the core's state, next to the host and its task value, not through
 * another literal. The common case (a thread is ready, the record fits a one-shot buffer) makes
 * no call: the rare ones are tail calls. */
static EVREC_ALWAYS_INLINE void switch_out(unsigned core)
{
    struct evrec_threadx_core *c = &CORE_AT(core);
    const TX_THREAD *t = (const TX_THREAD *)c->running;
    evrec_host_t *h = c->host; /* not NULL: a thread was switched in through it */
    if ((uintptr_t)t <= (uintptr_t)IDLE_MARK) {
        return; /* NULL or IDLE_MARK */
    }
    const TX_THREAD *next = EXECUTE(core);
    if (__builtin_expect(next == NULL, 0)) {
        switch_out_idle(core, h, t);
        return;
    }
    uint8_t reason = suspend_reason(t, next);
#if SWITCH_FAST
    size_t seen;
    if (switch_fits(h, &seen)) {
        c->running = NULL; /* c->task stays: the next switch-in sets it, an ISR has its depth */
        /* switch_out_word(): threadx_ID_TaskSwitchOut | task << 16; interrupts are disabled */
        switch_fill(switch_take(h, seen), switch_out_word(c), reason);
        EVREC_THREADX_CHAIN(thread_exit, core);
        return;
    }
#endif
    c->running = NULL;
    switch_record_slow(h, threadx_ID_TaskSwitchOut, c->task, reason);
    EVREC_THREADX_CHAIN(thread_exit, core);
}

/* `may_be_null` 0: the port's notification, after it set the current pointer to the thread. */
static EVREC_ALWAYS_INLINE void thread_enter(int may_be_null)
{
    unsigned core = CORE();
    if (core < EVREC_THREADX_MAX_CORES) {
        switch_in(core, CURRENT(core), may_be_null);
    }
}

static EVREC_ALWAYS_INLINE void thread_exit(void)
{
    unsigned core = CORE();
    if (core < EVREC_THREADX_MAX_CORES) {
        switch_out(core);
    }
}

void evrec_threadx_thread_enter(void)
{
    thread_enter(1);
}

void evrec_threadx_thread_exit(void)
{
    thread_exit();
}

void evrec_threadx_scheduler_sync(void)
{
    for (unsigned core = 0; core < EVREC_THREADX_MAX_CORES; core++) {
        TX_THREAD *t = CURRENT(core);
        const TX_THREAD *running = (const TX_THREAD *)CORE_AT(core).running;
        if (running != NULL && running != IDLE_MARK && running != t) {
            switch_out(core);
        }
        if (t != NULL && CORE_AT(core).running != t) {
            switch_in(core, t, 1);
        }
    }
}

static EVREC_ALWAYS_INLINE threadx_RtosIsr_t isr_of(unsigned isr_id)
{
    return isr_id < EVREC_THREADX_ISR_IDS ? tx.isr_of_id[isr_id] : threadx_RtosIsr_UnknownIsr;
}

/* The outermost handler returns: TaskSwitchOut(Preempted) of the interrupted thread when the
 * handler made another thread run, IdleWake when it made a thread ready on an idle CPU. */
static __attribute__((noinline)) void isr_exit_outermost(unsigned core, evrec_host_t *h)
{
    TX_THREAD *t = CURRENT(core);
    const TX_THREAD *next = EXECUTE(core);
    if (t != NULL && t != next && _tx_thread_preempt_disable == 0u) {
        /* The handler made another thread run: the interrupted one leaves the CPU here. */
        uint16_t task = task_of(t);
        uint8_t *run = run_of(t, task);
        if (run != NULL && *run != RUN_(threadx_RtosResume_Start)) {
            *run = RUN_FROM_ISR; /* a thread not started yet still starts */
        }
        CORE_AT(core).running = NULL;
        CORE_AT(core).task = NO_TASK;
        threadx_record_TaskSwitchOut(h, task, suspend_reason(t, next));
    } else if (t == NULL && next != NULL && CORE_AT(core).running == IDLE_MARK) {
        CORE_AT(core).running = NULL; /* a thread is ready: the scheduler runs until it switches in */
        threadx_record_IdleWake(h);
    }
}

static EVREC_ALWAYS_INLINE void isr_enter(unsigned core, unsigned isr_id)
{
    struct evrec_threadx_core *c = &CORE_AT(core);
    evrec_host_t *h = c->host;
    if (h != NULL) {
        RECORD2(h, IsrEnter, isr, isr_of(isr_id), vector, (uint16_t)isr_id);
    }
}

static EVREC_ALWAYS_INLINE void isr_exit(unsigned core, unsigned isr_id)
{
    struct evrec_threadx_core *c = &CORE_AT(core);
    evrec_host_t *h = c->host;
    if (h == NULL) {
        return;
    }
    RECORD2(h, IsrExit, isr, isr_of(isr_id), vector, (uint16_t)isr_id);
    if (SYSTEM_STATE(core) == 1u) { /* else a nested handler: the outermost one decides */
        isr_exit_outermost(core, h);
    }
}

void evrec_threadx_isr_enter(unsigned isr_id)
{
    unsigned core = CORE();
    if (core < EVREC_THREADX_MAX_CORES) {
        isr_enter(core, isr_id);
    }
}

void evrec_threadx_isr_exit(unsigned isr_id)
{
    unsigned core = CORE();
    if (core < EVREC_THREADX_MAX_CORES) {
        isr_exit(core, isr_id);
    }
}

void evrec_threadx_int_control(uint8_t type, uintptr_t caller)
{
#if EVREC_THREADX_INT_CONTROL
    evrec_host_t *h = host_of(CORE());
    if (h != NULL) {
        threadx_record_IntControl(h, type, (uint32_t)caller);
    }
#else
    (void)type;
    (void)caller;
#endif
}

/* ---- the execution-change notifications (the port calls them) ---- */

static EVREC_ALWAYS_INLINE void isr_enter_notify(unsigned isr_id)
{
    unsigned core = CORE();
    if (core < EVREC_THREADX_MAX_CORES) {
        isr_enter(core, isr_id);
    }
    EVREC_THREADX_CHAIN(isr_enter, CORE());
}

static EVREC_ALWAYS_INLINE void isr_exit_notify(unsigned isr_id)
{
    unsigned core = CORE();
    if (core < EVREC_THREADX_MAX_CORES) {
        isr_exit(core, isr_id);
    }
    EVREC_THREADX_CHAIN(isr_exit, CORE());
}

#if EVREC_THREADX_EXECUTION_NOTIFY
#if !CHAINED
VOID _tx_execution_initialize(void)
{
}
#endif

/* Not folded with evrec_threadx_thread_enter() etc. into a jump (GCC's identical code folding):
 * the ports call these. */
#if defined(__has_attribute)
#if __has_attribute(no_icf)
#define NO_ICF __attribute__((no_icf))
#endif
#endif
#ifndef NO_ICF
#define NO_ICF
#endif

NO_ICF VOID _tx_execution_thread_enter(void)
{
    thread_enter(0);
}

NO_ICF VOID _tx_execution_thread_exit(void)
{
    thread_exit();
}

VOID _tx_execution_isr_enter(void)
{
    isr_enter_notify(EVREC_THREADX_ISR_ID());
}

VOID _tx_execution_isr_exit(void)
{
    isr_exit_notify(EVREC_THREADX_ISR_ID());
}
#endif

/* ---- the event-trace insert points ---- */

static void thread_event(unsigned core, uint32_t event, uintptr_t i1, uintptr_t i2)
{
    const TX_THREAD *t = (const TX_THREAD *)i1;
    evrec_host_t *h = host_of(core);
    switch (event) {
    case TX_TRACE_THREAD_CREATE: evrec_threadx_thread_create(i1, i2); break;
    case TX_TRACE_THREAD_RESUME: thread_ready(core, t, i2); break;
    case TX_TRACE_THREAD_SUSPEND: thread_suspend(core, t, i2); break;
    case TX_TRACE_THREAD_DELETE: evrec_threadx_thread_delete(i1); break;
    case TX_TRACE_THREAD_PRIORITY_CHANGE:
        if (h != NULL) {
            threadx_record_TaskPriority(h, task_of(t), (uint16_t)i2);
        }
        break;
    default: break;
    }
}

/* An object delete from evrec_threadx_trace_insert() (the insert point's event not constant). */
static void object_deleted(uint32_t event, uintptr_t i1)
{
    const char *name;
    switch (event) {
    case TX_TRACE_QUEUE_DELETE: name = ((const TX_QUEUE *)i1)->tx_queue_name; break;
    case TX_TRACE_SEMAPHORE_DELETE: name = ((const TX_SEMAPHORE *)i1)->tx_semaphore_name; break;
    case TX_TRACE_MUTEX_DELETE: name = ((const TX_MUTEX *)i1)->tx_mutex_name; break;
    default: name = ((const TX_EVENT_FLAGS_GROUP *)i1)->tx_event_flags_group_name; break;
    }
    name_deleted(i1, name);
}

void evrec_threadx_trace_insert(uint32_t event, uintptr_t i1, uintptr_t i2, uintptr_t i3, uintptr_t i4)
{
    unsigned core = CORE();
    switch (event) {
    case TX_TRACE_ISR_ENTER: /* info2 is the ISR number */
        if (EVREC_THREADX_ISR_FROM_TRACE) {
            isr_enter_notify((unsigned)i2);
        }
        break;
    case TX_TRACE_ISR_EXIT:
        if (EVREC_THREADX_ISR_FROM_TRACE) {
            isr_exit_notify((unsigned)i2);
        }
        break;
    case TX_TRACE_THREAD_CREATE:
    case TX_TRACE_THREAD_RESUME:
    case TX_TRACE_THREAD_SUSPEND:
    case TX_TRACE_THREAD_DELETE:
    case TX_TRACE_THREAD_PRIORITY_CHANGE: thread_event(core, event, i1, i2); break;
    case TX_TRACE_QUEUE_CREATE:
        object_create((const void *)i1, KIND_QUEUE, ((const TX_QUEUE *)i1)->tx_queue_name);
        break;
    case TX_TRACE_SEMAPHORE_CREATE:
        object_create((const void *)i1, KIND_SEM, ((const TX_SEMAPHORE *)i1)->tx_semaphore_name);
        break;
    case TX_TRACE_MUTEX_CREATE:
        object_create((const void *)i1, KIND_MUTEX, ((const TX_MUTEX *)i1)->tx_mutex_name);
        break;
    case TX_TRACE_EVENT_FLAGS_CREATE:
        object_create((const void *)i1, KIND_FLAGS, ((const TX_EVENT_FLAGS_GROUP *)i1)->tx_event_flags_group_name);
        break;
    case TX_TRACE_QUEUE_DELETE:
    case TX_TRACE_SEMAPHORE_DELETE:
    case TX_TRACE_MUTEX_DELETE:
    case TX_TRACE_EVENT_FLAGS_DELETE: object_deleted(event, i1); break;
    default:
#if !defined(__GNUC__) /* every insert point comes here (EVREC_THREADX_CONSTANT_ is 0); else the pool and timer
                        * ones go to evrec_threadx_pool_insert() directly */
        if (evrec_threadx_pool_insert(event, i1, i4)) {
            break;
        }
#endif
        object_call(core, event, i1, i2, i3, i4);
        break;
    }
}
