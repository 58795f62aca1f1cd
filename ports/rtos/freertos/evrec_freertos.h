/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_freertos.h
 * @brief FreeRTOS kernel trace hooks that record the evrec RTOS catalogue.
 *
 * Include it as the LAST line of FreeRTOSConfig.h (as SEGGER SystemView's and Percepio's
 * FreeRTOS ports do):
 * @code
 * #define configUSE_TRACE_FACILITY 1
 * #include "evrec_freertos.h"
 * @endcode
 * It defines the kernel's trace macros (the list is in the kernel's include/FreeRTOS.h) to call
 * the small out-of-line functions of evrec_freertos.c, or for the hot queue and ISR hooks to
 * record inline (EVREC_FREERTOS_INLINE, when freertos_events.h is on the kernel's include path),
 * which record the events of
 * ports/rtos/freertos/freertos.yaml (the RTOS catalogue plus TaskReady, TaskCreate, TaskDelete,
 * TaskPriority, NotifyOp, TimerExpired). A macro the application defined before this include is kept.
 *
 * Ids: a task's RtosTask value is the kernel's own TCB number (uxTCBNumber, 1, 2, ... in creation
 * order; 0 for the idle task), kept in its TCB's uxTaskNumber (the field the kernel reserves
 * for trace tools, vTaskSetTaskNumber()), a queue's RtosObject value in its uxQueueNumber (bits
 * 0..15; its record's event and op values above, evrec_freertos_object_create()); the
 * names are copied into fixed tables in evrec_freertos.c (no malloc), a task's at its delete with
 * the inline hooks (until then the TCB's own pcTaskName names it). Do not call
 * vTaskSetTaskNumber()/vQueueSetQueueNumber() in the application.
 *
 * Some macros read kernel internals (pxCurrentTCB, the TCB's state and event list items, its
 * uxTCBNumber and notification state, the delayed lists xDelayedTaskList1/2 and the suspended
 * list, Queue_t's ucQueueType and uxMessagesWaiting, the locals of the notify and event group
 * functions: pxTCB, ucOriginalNotifyState, xTicksToWait, uxIndexToWaitOn; tskKERNEL_VERSION_MAJOR,
 * configTASK_NOTIFICATION_ARRAY_ENTRIES): they only expand inside tasks.c, queue.c, event_groups.c
 * and timers.c, where those are visible. Checked against FreeRTOS-Kernel V11 (main branch).
 */
#ifndef EVREC_FREERTOS_H
#define EVREC_FREERTOS_H

#ifndef __ASSEMBLER__ /* FreeRTOSConfig.h is also included by some ports' assembly files */

#include <stdint.h>

/* evrec_freertos.c defines EVREC_FREERTOS_DECLARATIONS_ONLY: it is built without the kernel's
 * headers and needs only the declarations. */
#if !defined(EVREC_FREERTOS_DECLARATIONS_ONLY) &&                                                                 \
    (!defined(configUSE_TRACE_FACILITY) || configUSE_TRACE_FACILITY != 1)
#error "evrec_freertos.h needs configUSE_TRACE_FACILITY 1 (the TCB's uxTaskNumber and Queue_t's uxQueueNumber)"
#endif

/** Number of cores, one evrec host each (configNUMBER_OF_CORES, 1 when it is not defined). */
#ifdef configNUMBER_OF_CORES
#define EVREC_FREERTOS_CORES configNUMBER_OF_CORES
#else
#define EVREC_FREERTOS_CORES 1
#endif

/** The calling core: portGET_CORE_ID() on SMP, 0 on one core. */
#if EVREC_FREERTOS_CORES > 1
#define EVREC_FREERTOS_CORE() ((unsigned)portGET_CORE_ID())
#else
#define EVREC_FREERTOS_CORE() 0u
#endif

/**
 * The interrupt number recorded by traceISR_ENTER/EXIT (IsrEnter.vector). Default 0 (unknown).
 * On Cortex-M define it as the IPSR's exception number before including this header, e.g.
 * `#define EVREC_FREERTOS_ISR_VECTOR() (__get_IPSR() & 0x1FFu)`.
 */
#ifndef EVREC_FREERTOS_ISR_VECTOR
#define EVREC_FREERTOS_ISR_VECTOR() 0u
#endif

/**
 * Interrupt numbers that can be named, 1..1024, default 256 (RAM: one byte each). Read by
 * evrec_freertos.c and by the inline ISR hooks: give the kernel's files the same value (define it
 * before the include in FreeRTOSConfig.h and for evrec_freertos.c).
 */
#ifndef EVREC_FREERTOS_ISR_VECTORS
#define EVREC_FREERTOS_ISR_VECTORS 256
#endif

/**
 * 1: the hot hooks (queue operations, ISR enter/exit) record inline in the kernel's code, no call
 * (about 20 instructions less per hook on Cortex-M4); they then need the generated
 * `freertos_events.h` and the recorder's headers on the kernel's include path (in CMake: link the
 * kernel's library with the generated library). 0: every hook calls evrec_freertos.c. Default: 1
 * when `freertos_events.h` can be included, else 0.
 */
#ifndef EVREC_FREERTOS_INLINE
#if defined(__has_include)
#if __has_include("freertos_events.h")
#define EVREC_FREERTOS_INLINE 1
#endif
#endif
#endif
#ifndef EVREC_FREERTOS_INLINE
#define EVREC_FREERTOS_INLINE 0
#endif

/** Bytes kept of a task or object name (with the NUL), 4..64, default 16 (RAM: 190 names); a
 * plain decimal number, the same for the kernel's build (FreeRTOSConfig.h) and evrec_freertos.c. */
#ifndef EVREC_FREERTOS_NAME_LEN
#define EVREC_FREERTOS_NAME_LEN 16
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct evrec_host;

/** Why a task gave up the CPU: the values of the catalogue's RtosSuspend enum. */
enum {
    EVREC_FREERTOS_PREEMPTED = 0,
    EVREC_FREERTOS_YIELD = 1,
    EVREC_FREERTOS_BLOCKED = 2,
    EVREC_FREERTOS_DELAY = 3,
    EVREC_FREERTOS_SUSPENDED = 4,
    EVREC_FREERTOS_EXIT = 5
};

/** evrec_freertos_notify()'s giver: the core's current task, or NoTask (an interrupt handler). */
#define EVREC_FREERTOS_GIVER_SELF 0x10000u
#define EVREC_FREERTOS_GIVER_ISR 0xFFFFu

/** A queue operation, as the queue.c hook saw it. */
enum {
    EVREC_FREERTOS_OP_SEND = 0,    /**< traceQUEUE_SEND: an item put (or a semaphore given, a mutex released) */
    EVREC_FREERTOS_OP_RECEIVE = 1, /**< traceQUEUE_RECEIVE: an item taken (semaphore taken, mutex locked) */
    EVREC_FREERTOS_OP_BLOCK = 2,   /**< traceBLOCKING_ON_QUEUE_*: the caller blocks */
    EVREC_FREERTOS_OP_FAILED = 3 /**< traceQUEUE_*_FAILED: nothing done (a timeout when the caller had blocked) */
};

/**
 * @brief Attach the trace hooks to recording hosts, one per core, and reset the id tables.
 * @param[in] hosts `cores` hosts (e.g. `&host`, or evrec_lane_host_at() of each lane); the array
 * and hosts stay owned by the caller and must outlive the kernel's use of the hooks. A host may be
 * started and stopped at will; the hooks record nothing while it is stopped.
 * @param cores number of hosts: EVREC_FREERTOS_CORES (1..EVREC_FREERTOS_MAX_CORES, the value
 * evrec_freertos.c was compiled with).
 * @retval 0 (EVREC_OK) attached.
 * @retval EVREC_E_ARG hosts is NULL, cores is 0 or above EVREC_FREERTOS_MAX_CORES.
 * @retval other the status of freertos_runtime_init() (the names could not be reset).
 * @pre Before the first task or queue is created (their ids are allocated at creation) and
 * before freertos_runtime_init() is called by anyone else: this calls it.
 * **Context:** thread, before the scheduler starts; not thread-safe.
 */
int evrec_freertos_init(struct evrec_host *const *hosts, unsigned cores);

/**
 * @brief Name the interrupt with number `vector` (the IsrEnter `isr` field of its records).
 * @param vector interrupt number as EVREC_FREERTOS_ISR_VECTOR() gives it (< EVREC_FREERTOS_ISR_VECTORS).
 * @param[in] name NUL-terminated, kept alive by the caller until the trace is saved.
 * @retval 0 named. @retval EVREC_E_ARG vector out of range or name NULL.
 * @retval EVREC_E_EXHAUSTED the RtosIsr names (63) are used up.
 * **Context:** thread; not concurrently with itself.
 */
int evrec_freertos_isr_name(unsigned vector, const char *name);

/* The out-of-line parts called by the macros below. Not for direct use. Context: any (kernel
 * hooks, ISR-safe: each records at most two events and touches only its task's table slot). */
/** A new task (traceTASK_CREATE): its RtosTask value is the kernel's uxTCBNumber (`number`, bits
 * 0..15; 0 for the idle task; past 63: 64), its name copied from the TCB's pcTaskName (`name`,
 * `number` bits 16..23 its size), TaskCreate(task, priority) recorded; returns the value. */
uint16_t evrec_freertos_task_new(unsigned core, const char *name, uint32_t number, uint32_t priority);
/** TaskCreate(task, priority). */
void evrec_freertos_task_create(unsigned core, uint16_t task, uint32_t priority);
void evrec_freertos_task_delete(unsigned core, uint16_t task, uint32_t priority);
void evrec_freertos_task_priority(unsigned core, uint16_t task, uint32_t priority);
void evrec_freertos_task_ready(unsigned core, uint16_t task);
/** `out`: the task switched out (bits 0..15) and its RtosSuspend reason (bits 16..23). */
void evrec_freertos_switched_in(unsigned core, uint16_t task, uint32_t out);
/** The first switch-in on `core` (no task switched out): TaskSwitchIn alone. */
void evrec_freertos_first_in(unsigned core, uint16_t task);
/** The TCB traceTASK_SWITCHED_OUT saw, per core, until traceTASK_SWITCHED_IN (evrec_freertos.c). */
extern void *evrec_freertos_out_tcb[];
/** The value traceQUEUE_CREATE stores in uxQueueNumber: the object's RtosObject value (bits 0..15)
 * and from bit 16 evrec_freertos_event_of_type_() of its type (its record's event id and op values). */
uint32_t evrec_freertos_object_create(uint8_t queue_type);
void evrec_freertos_queue_done(unsigned core, uint16_t object, uint8_t queue_type, uint8_t what);
void evrec_freertos_queue_isr(unsigned core, uint16_t object, uint8_t queue_type, uint8_t what);
void evrec_freertos_queue_block(unsigned core, uint16_t object, uint8_t queue_type);
void evrec_freertos_queue_failed(unsigned core, uint16_t object, uint8_t queue_type);
void evrec_freertos_isr_enter(unsigned core, unsigned vector);
void evrec_freertos_isr_exit(unsigned core, unsigned vector);
/** The rare part of an inline queue hook: the caller's wait on the object ends (Unblock). */
void evrec_freertos_queue_wait_end(unsigned core, uint32_t key);
/** An event group's RtosObject value (traceEVENT_GROUP_CREATE), named `group7` until
 * evrec_freertos_object_name() names it. Records nothing. */
uint16_t evrec_freertos_group_create(void);
void evrec_freertos_group_set(unsigned core, uint16_t object);
void evrec_freertos_group_block(unsigned core, uint16_t object);
/** The end of xEventGroupWaitBits()/xEventGroupSync(): `blocked` its xTicksToWait is not 0 there
 * (the kernel zeroes it when the bits were there), `timed_out` its xTimeoutOccurred. */
void evrec_freertos_group_end(unsigned core, uint16_t object, uint32_t blocked, uint32_t timed_out);
/**
 * @brief Name a synchronisation object: a queue, semaphore or mutex (vQueueAddToRegistry() does it
 * by itself) or an event group: `evrec_freertos_object_name((uint16_t)uxEventGroupGetNumber(g), "flags")`.
 * @param object the object's RtosObject value (bits 0..15 of uxQueueGetQueueNumber() or
 * uxEventGroupGetNumber()); 0 or past the table: nothing.
 * @param[in] name NUL-terminated; copied (EVREC_FREERTOS_NAME_LEN - 1 characters at most).
 * **Context:** thread; not concurrently with itself for the same object.
 */
void evrec_freertos_object_name(uint16_t object, const char *name);
/** A software timer's RtosObject value (traceTIMER_CREATE), named `name` (its pcTimerName; NULL:
 * `timer7`). Records nothing. */
uint16_t evrec_freertos_timer_create(const char *name);
/** TimerExpired(the running task, timer). */
void evrec_freertos_timer_expired(unsigned core, uint16_t timer);
/** NotifyOp(task, giver, type, index): `giver` is a task value or EVREC_FREERTOS_GIVER_SELF (the
 * core's current task) or EVREC_FREERTOS_GIVER_ISR (NoTask); `type` the RtosNotifyOp value;
 * `index` the notification's index (its low 8 bits recorded). */
void evrec_freertos_notify(unsigned core, uint16_t task, uint32_t giver, uint32_t type, uint32_t index);
/** NotifyOp of the calling task itself (Take, Block, Timeout), as evrec_freertos_notify(). */
void evrec_freertos_notify_self(unsigned core, uint32_t type, uint32_t index);

/* The state the inline hooks read (defined in evrec_freertos.c). Not for direct use. */
/** Per core: its host (NULL: record nothing), the task running on it (NoTask before the first)
 * and that task's evrec_freertos_blocked_on[] entry (a copy, set at switch-in: one load). */
struct evrec_freertos_core {
    struct evrec_host *host;
    uint16_t current;
    uint16_t wait;
};
/** The idle tasks vTaskStartScheduler() is still to create (traceENTER_vTaskStartScheduler sets
 * it, each traceTASK_CREATE of an idle task counts it down), then core 0's state: one address
 * for the create's idle test and its host. Cores past EVREC_FREERTOS_CORES are evrec_freertos.c's
 * (EVREC_FREERTOS_MAX_CORES): `idle_left` and `cores` keep their offsets. */
#ifdef EVREC_FREERTOS_MAX_CORES
#define EVREC_FREERTOS_SHARED_CORES_ EVREC_FREERTOS_MAX_CORES
#else
#define EVREC_FREERTOS_SHARED_CORES_ EVREC_FREERTOS_CORES
#endif
/** IntControl's depth per task, for a kernel port that switches tasks inside a critical section
 * and keeps the interrupt state per task (the POSIX port): 1 = per task, and the switch hook
 * ends and starts the disabled spans the tasks carry; 0 = one count, nothing at a switch (the
 * Cortex-M ports: PendSV is masked in a section). Default: 1 on a hosted (Unix) build, else 0;
 * the same value for evrec_freertos.c and evrec_freertos_int.c. */
#ifndef EVREC_FREERTOS_INT_PER_TASK
#if defined(__unix__) || defined(__APPLE__)
#define EVREC_FREERTOS_INT_PER_TASK 1
#else
#define EVREC_FREERTOS_INT_PER_TASK 0
#endif
#endif
/** The depths (evrec_freertos_shared.int_depth): per RtosTask value masked with
 * EVREC_FREERTOS_INT_DEPTH_MASK (0..63 the tasks, 64 past the range, 127 NoTask), or one. */
#define EVREC_FREERTOS_INT_DEPTH_MASK 127u
#if EVREC_FREERTOS_INT_PER_TASK
#define EVREC_FREERTOS_INT_DEPTHS (EVREC_FREERTOS_INT_DEPTH_MASK + 1u)
#else
#define EVREC_FREERTOS_INT_DEPTHS 4u
#endif
struct evrec_freertos_shared {
    uint32_t idle_left;
    struct evrec_freertos_core cores[EVREC_FREERTOS_SHARED_CORES_];
    /* The critical-section depths evrec_freertos_int.c counts (EVREC_FREERTOS_INT_CONTROL 1),
     * next to core 0's host: the wraps reach both from one address. */
    uint8_t int_depth[EVREC_FREERTOS_INT_DEPTHS];
};
extern struct evrec_freertos_shared evrec_freertos_shared;
#define evrec_freertos_cores (evrec_freertos_shared.cores)
/** Per task value (0..63): bits 0..6 the object (its RtosObject value) it blocked on, 0 = none;
 * bit 7 set once the task has run. */
extern uint8_t evrec_freertos_blocked_on[64];
/** Per interrupt number: its RtosIsr value (0 = unnamed). */
extern uint8_t evrec_freertos_isr_of_vector[EVREC_FREERTOS_ISR_VECTORS];
/** The task names: slot v - 1 names RtosTask value v (1..EVREC_FREERTOS_TASK_SLOTS), word
 * aligned (the inline traceTASK_DELETE copies a TCB's name with word loads and stores). The
 * symbol carries EVREC_FREERTOS_NAME_LEN (e.g. evrec_freertos_task_names_16): a kernel built with
 * another value than evrec_freertos.c does not link, instead of writing past the slots. */
#define EVREC_FREERTOS_TASK_SLOTS 63u
#define EVREC_FREERTOS_CAT2_(a, b) a##b
#define EVREC_FREERTOS_CAT_(a, b) EVREC_FREERTOS_CAT2_(a, b)
#define evrec_freertos_task_names EVREC_FREERTOS_CAT_(evrec_freertos_task_names_, EVREC_FREERTOS_NAME_LEN)
extern char evrec_freertos_task_names[EVREC_FREERTOS_TASK_SLOTS][EVREC_FREERTOS_NAME_LEN];

#ifdef __cplusplus
}
#endif

#if EVREC_FREERTOS_INLINE || defined(EVREC_FREERTOS_DECLARATIONS_ONLY)
/* ---- the hot hooks' record paths, inline (also the bodies of evrec_freertos.c's functions) ---- */
#include "freertos_events.h"

_Static_assert(freertos_ID_QueueOp < 256 && freertos_ID_MutexOp < 256 && freertos_ID_SemOp < 256,
               "a sync event id fits 8 bits");

/* A queue's record by its Queue_t ucQueueType (the kernel's queueQUEUE_TYPE_*: base 0 (also
 * sets), mutex 1, counting semaphore 2, binary semaphore 3, recursive mutex 4): bits 0..7 its
 * event id (QueueOp, MutexOp or SemOp), bit 8 the op value of a Send (Send, Unlock, Give: 0, 1,
 * 0), bit 9 that of a Receive (Receive, Lock, Take: 1, 0, 1). evrec_freertos.c checks the values. */
#define EVREC_FREERTOS_KEY_QUEUE_ (freertos_ID_QueueOp | 1u << 9)
#define EVREC_FREERTOS_KEY_MUTEX_ (freertos_ID_MutexOp | 1u << 8)
#define EVREC_FREERTOS_KEY_SEM_ (freertos_ID_SemOp | 1u << 9)
static inline uint32_t evrec_freertos_event_of_type_(uint8_t queue_type)
{
    static const uint16_t event_of_type[8] = {EVREC_FREERTOS_KEY_QUEUE_, EVREC_FREERTOS_KEY_MUTEX_,
                                              EVREC_FREERTOS_KEY_SEM_,   EVREC_FREERTOS_KEY_SEM_,
                                              EVREC_FREERTOS_KEY_MUTEX_, EVREC_FREERTOS_KEY_QUEUE_,
                                              EVREC_FREERTOS_KEY_QUEUE_, EVREC_FREERTOS_KEY_QUEUE_};
    return event_of_type[queue_type & 7u];
}

/* A queue operation's record: `key` is the object's uxQueueNumber as evrec_freertos_object_create()
 * gave it (object, then evrec_freertos_event_of_type_() from bit 16); the three events share one
 * layout (evrec_freertos.c checks). `what`: EVREC_FREERTOS_OP_SEND or _RECEIVE. */
static inline __attribute__((always_inline)) void evrec_freertos_queue_record_(struct evrec_host *h, uint16_t task,
                                                                               uint32_t key, uint8_t what)
{
    freertos_QueueOp_t *e = (freertos_QueueOp_t *)evrec_reserve(h, sizeof *e);
    if (e != (freertos_QueueOp_t *)0) {
        e->task = task;
        e->object = (uint16_t)key;
        e->type = (uint8_t)((key >> (24u + what)) & 1u);
        evrec_commit(e, (uint16_t)((key >> 16) & 0xFFu));
    }
}

/* traceQUEUE_SEND/RECEIVE: the operation, preceded by Unblock (out of line, rare) when the calling
 * task had blocked on the object. */
static inline __attribute__((always_inline)) void evrec_freertos_queue_done_(unsigned core, uint32_t key,
                                                                             uint8_t queue_type, uint8_t what)
{
    struct evrec_freertos_core *c = &evrec_freertos_cores[core];
    struct evrec_host *h = c->host;
    (void)queue_type; /* in the key */
    if (h == (struct evrec_host *)0) {
        return;
    }
    if (__builtin_expect(c->wait == (uint16_t)key, 0)) {
        evrec_freertos_queue_wait_end(core, key); /* checks task and object itself */
    }
    evrec_freertos_queue_record_(h, c->current, key, what);
}

/* traceQUEUE_SEND/RECEIVE_FROM_ISR: the operation with task NoTask. */
static inline __attribute__((always_inline)) void evrec_freertos_queue_isr_(unsigned core, uint32_t key,
                                                                            uint8_t queue_type, uint8_t what)
{
    struct evrec_host *h = evrec_freertos_cores[core].host;
    (void)queue_type; /* in the key */
    if (h != (struct evrec_host *)0) {
        evrec_freertos_queue_record_(h, (uint16_t)freertos_RtosTask_NoTask, key, what);
    }
}

/* TaskCreate or TaskDelete (`event_id`; 12 bytes: the task at bytes 6..7, the priority at 8..9)
 * through `h`, out of line: evrec_reserve() (cyclic, streaming, full, stopped; other CPUs; SMP). */
void evrec_freertos_task_record_slow(struct evrec_host *h, uint16_t event_id, uint16_t task, uint16_t priority);
/* TaskCreate or TaskDelete through `h` in the kernel's critical section. On one Cortex-M core, in
 * one-shot mode while the record fits, the whole record is written while PRIMASK masks every
 * interrupt (3 instructions: a handler above the kernel's BASEPRI level, which the kernel's
 * critical section lets run and which may record, cannot come in between; an NMI handler must
 * not record): the position moved with a plain load and store, the time, the final id and the
 * task in one 8-byte store, no provisional id and commit (nothing can see the record before it is
 * whole). 12 instructions less than evrec_reserve()'s exclusive-access loop, its checks and the
 * commit. The two asm statements name the memory they order (the position, the record's 12
 * bytes) instead of all memory, so the kernel's values stay in registers across them. Else
 * evrec_freertos_task_record_slow(). */
static inline __attribute__((always_inline)) void
evrec_freertos_task_record_(struct evrec_host *h, uint16_t event_id, uint32_t task, uint32_t priority)
{ /* task and priority: their low 16 bits (no UXTH: the shift and the STRH drop the rest) */
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M' && defined(__GNUC__) && EVREC_FREERTOS_CORES == 1 && \
    defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    typedef uint64_t __attribute__((aligned(4), may_alias)) evrec_freertos_u64_;
    typedef uint16_t __attribute__((may_alias)) evrec_freertos_u16_;
    typedef struct {
        uint32_t w[3];
    } __attribute__((may_alias)) evrec_freertos_rec12_;
    size_t *pos = (size_t *)(void *)&h->pos; /* plain accesses: interrupts are masked */
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask), "+m"(*pos));
    size_t seen = *pos;
    size_t end = seen + 12u;
    if (__builtin_expect(EVREC_LOAD_RELAXED(&h->block_mask) == 0u && end <= EVREC_LOAD_RELAXED(&h->cap), 1)) {
        uint32_t t = EVREC_PORT_TIMESTAMP();
        *pos = end;
        uint8_t *e = EVREC_LOAD_RELAXED(&h->buf) + seen;
        *(evrec_freertos_u64_ *)(void *)e = (uint64_t)t | (uint64_t)event_id << 32 | (uint64_t)task << 48;
        *(evrec_freertos_u16_ *)(void *)(e + 8) = (uint16_t)priority;
        __asm__ volatile("msr primask, %0" ::"r"(primask), "m"(*pos),
                         "m"(*(const evrec_freertos_rec12_ *)(void *)e));
        return;
    }
    __asm__ volatile("msr primask, %0" ::"r"(primask) : "memory");
#endif
    evrec_freertos_task_record_slow(h, event_id, (uint16_t)task, (uint16_t)priority);
}

/* traceTASK_CREATE: TaskCreate(task, priority). */
static inline __attribute__((always_inline)) void evrec_freertos_task_create_(unsigned core, uint32_t task,
                                                                              uint32_t priority)
{
    struct evrec_host *h = evrec_freertos_cores[core].host;
    if (h != (struct evrec_host *)0) {
        evrec_freertos_task_record_(h, freertos_ID_TaskCreate, task, priority);
    }
}
/* traceTASK_DELETE: TaskDelete(task, priority). */
static inline __attribute__((always_inline)) void evrec_freertos_task_delete_(unsigned core, uint32_t task,
                                                                              uint32_t priority)
{
    struct evrec_host *h = evrec_freertos_cores[core].host;
    if (h != (struct evrec_host *)0) {
        evrec_freertos_task_record_(h, freertos_ID_TaskDelete, task, priority);
    }
}

/* traceISR_ENTER/EXIT: IsrEnter or IsrExit (`exit` a constant), the handler's name by number. */
static inline __attribute__((always_inline)) void evrec_freertos_isr_(unsigned core, unsigned vector, int exit)
{
    struct evrec_host *h = evrec_freertos_cores[core].host;
    if (h == (struct evrec_host *)0) {
        return;
    }
    freertos_RtosIsr_t isr = vector < EVREC_FREERTOS_ISR_VECTORS ? evrec_freertos_isr_of_vector[vector]
                                                                 : freertos_RtosIsr_UnknownIsr;
    if (exit) {
        freertos_record_IsrExit(h, isr, (uint16_t)vector);
    } else {
        freertos_record_IsrEnter(h, isr, (uint16_t)vector);
    }
}

/* EventOp(task, object, type) of an event group (RtosEventOp values: Set 0, Consume 1, Unblock 3,
 * Timeout 4; evrec_freertos.c checks them); the object and type as one 4-byte store (evrec_freertos.c
 * checks the layout). */
static inline __attribute__((always_inline)) void evrec_freertos_event_record_(struct evrec_host *h, uint16_t task,
                                                                               uint16_t object, uint32_t op)
{
    freertos_EventOp_t *e = (freertos_EventOp_t *)evrec_reserve(h, sizeof *e);
    if (e != (freertos_EventOp_t *)0) {
        uint32_t word = (uint32_t)object | op << 16;
        e->task = task;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        __builtin_memcpy(&e->object, &word, 4);
#else
        e->object = object;
        e->type = (uint8_t)op;
#endif
        evrec_commit(e, freertos_ID_EventOp);
    }
}

/* EventOp `op` (a constant: Set 0, Consume 1) by the calling task. */
static inline __attribute__((always_inline)) void evrec_freertos_group_op_(unsigned core, uint16_t object,
                                                                           uint32_t op)
{
    struct evrec_freertos_core *c = &evrec_freertos_cores[core];
    struct evrec_host *h = c->host;
    if (h != (struct evrec_host *)0) {
        evrec_freertos_event_record_(h, c->current, object, op);
    }
}

/* traceEVENT_GROUP_SET_BITS: EventOp Set by the calling task. */
static inline __attribute__((always_inline)) void evrec_freertos_group_set_(unsigned core, uint16_t object)
{
    evrec_freertos_group_op_(core, object, 0u);
}

/* traceEVENT_GROUP_WAIT_BITS_END, _SYNC_END: Consume when the bits were there without a wait;
 * after a wait (`blocked`) Unblock or Timeout; nothing for a poll that found them missing. */
static inline __attribute__((always_inline)) void evrec_freertos_group_end_(unsigned core, uint16_t object,
                                                                            uint32_t blocked, uint32_t timed_out)
{
    struct evrec_freertos_core *c = &evrec_freertos_cores[core];
    struct evrec_host *h = c->host;
    if (h != (struct evrec_host *)0 && (blocked != 0u || timed_out == 0u)) {
        /* blocked: Unblock (3) or Timeout (4); else Consume (1) */
        evrec_freertos_event_record_(h, c->current, object, blocked != 0u ? 3u + timed_out : 1u);
    }
}

/* traceTIMER_EXPIRED: TimerExpired(the running task: the timer task, timer). */
static inline __attribute__((always_inline)) void evrec_freertos_timer_expired_(unsigned core, uint16_t timer)
{
    struct evrec_freertos_core *c = &evrec_freertos_cores[core];
    struct evrec_host *h = c->host;
    if (h != (struct evrec_host *)0) {
        freertos_record_TimerExpired(h, c->current, timer);
    }
}

/* NotifyOp: the task, then the giver, type and index as one 4-byte store (`word`: giver bits
 * 0..15, type 16..23, index 24..31; evrec_freertos.c checks the layout). */
static inline __attribute__((always_inline)) void evrec_freertos_notify_record_(struct evrec_host *h,
                                                                                uint16_t task, uint32_t word)
{
    freertos_NotifyOp_t *e = (freertos_NotifyOp_t *)evrec_reserve(h, sizeof *e);
    if (e != (freertos_NotifyOp_t *)0) {
        e->task = task;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        __builtin_memcpy(&e->giver, &word, 4);
#else
        e->giver = (uint16_t)word;
        e->type = (uint8_t)(word >> 16);
        e->index = (uint8_t)(word >> 24);
#endif
        evrec_commit(e, freertos_ID_NotifyOp);
    }
}

/* traceTASK_NOTIFY*: `giver` a task value, EVREC_FREERTOS_GIVER_SELF or _ISR (constants where the
 * macros give them: the select folds); `type` the RtosNotifyOp value, `index` the notification's
 * (its low 8 bits recorded). */
static inline __attribute__((always_inline)) void
evrec_freertos_notify_(unsigned core, uint16_t task, uint32_t giver, uint32_t type, uint32_t index)
{
    struct evrec_freertos_core *c = &evrec_freertos_cores[core];
    struct evrec_host *h = c->host;
    if (h != (struct evrec_host *)0) {
        uint32_t g = giver == EVREC_FREERTOS_GIVER_SELF ? (uint32_t)c->current : (giver & 0xFFFFu);
        evrec_freertos_notify_record_(h, task, g | type << 16 | index << 24);
    }
}

/* The calling task's own notification operation (Take, Block, Timeout). */
static inline __attribute__((always_inline)) void evrec_freertos_notify_self_(unsigned core, uint32_t type,
                                                                              uint32_t index)
{
    struct evrec_freertos_core *c = &evrec_freertos_cores[core];
    struct evrec_host *h = c->host;
    if (h != (struct evrec_host *)0) {
        uint16_t self = c->current;
        evrec_freertos_notify_record_(h, self, (uint32_t)self | type << 16 | index << 24);
    }
}
#endif /* EVREC_FREERTOS_INLINE */

#ifndef EVREC_FREERTOS_DECLARATIONS_ONLY

/* ---- kernel state read by the hooks (expanded in tasks.c only) ---- */

#if defined(INCLUDE_vTaskSuspend) && INCLUDE_vTaskSuspend == 1
#define EVREC_FREERTOS_SUSPENDED_LIST_ ((const void *)&xSuspendedTaskList)
#else
#define EVREC_FREERTOS_SUSPENDED_LIST_ ((const void *)0)
#endif
#if defined(INCLUDE_vTaskDelete) && INCLUDE_vTaskDelete == 1
#define EVREC_FREERTOS_DELETED_LIST_ ((const void *)&xTasksWaitingTermination)
#else
#define EVREC_FREERTOS_DELETED_LIST_ ((const void *)0)
#endif

/* The switched-out task's reason from the list its state item is on (c) and whether its event
 * item waits on an object (e): a delayed or suspended task waiting on a queue, semaphore, mutex
 * or event group is Blocked; still in a ready list it was preempted (or yielded). A function, so
 * that the macro reads the kernel's volatile pointers once each; `suspended` and `deleted` are
 * null when the kernel has no such list. */
static inline uint8_t evrec_freertos_reason_(const void *c, const void *e, const void *delayed,
                                             const void *overflow, const void *suspended, const void *deleted)
{
    if (deleted != (const void *)0 && c == deleted) {
        return EVREC_FREERTOS_EXIT;
    }
    if (c == delayed || c == overflow) {
        return e != (const void *)0 ? EVREC_FREERTOS_BLOCKED : EVREC_FREERTOS_DELAY;
    }
    if (suspended != (const void *)0 && c == suspended) {
        return e != (const void *)0 ? EVREC_FREERTOS_BLOCKED : EVREC_FREERTOS_SUSPENDED;
    }
    return EVREC_FREERTOS_PREEMPTED;
}
/* The two delayed lists by their addresses (tasks.c's xDelayedTaskList1 and 2, which
 * pxDelayedTaskList and pxOverflowDelayedTaskList point to, in turn): constants, no load. */
#define EVREC_FREERTOS_REASON_(c, e)                                                                              \
    evrec_freertos_reason_((c), (e), (const void *)&xDelayedTaskList1, (const void *)&xDelayedTaskList2,          \
                           EVREC_FREERTOS_SUSPENDED_LIST_, EVREC_FREERTOS_DELETED_LIST_)

#define EVREC_FREERTOS_TASK_(tcb) ((uint16_t)(tcb)->uxTaskNumber)
#define EVREC_FREERTOS_OBJECT_(q) ((uint16_t)(q)->uxQueueNumber)
/* A queue hook: evrec_freertos_queue_<fn>(core, object, type[, ...]), one entry per kind of
 * operation (fewer arguments and branches on the path of each). */
#if EVREC_FREERTOS_INLINE
/* The object and its event in one load where uxQueueNumber has 32 bits, else from the type. */
#define EVREC_FREERTOS_QKEY_(q)                                                                                   \
    (sizeof((q)->uxQueueNumber) >= 4u                                                                             \
         ? (uint32_t)(q)->uxQueueNumber                                                                           \
         : (uint32_t)EVREC_FREERTOS_OBJECT_(q) | (uint32_t)evrec_freertos_event_of_type_((q)->ucQueueType) << 16)
#define EVREC_FREERTOS_QCALL_(fn, q, ...)                                                                         \
    evrec_freertos_queue_##fn##_(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_QKEY_(q), (q)->ucQueueType, __VA_ARGS__)
#else
#define EVREC_FREERTOS_QCALL_(fn, q, ...)                                                                         \
    evrec_freertos_queue_##fn(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_OBJECT_(q), (q)->ucQueueType, __VA_ARGS__)
#endif
#define EVREC_FREERTOS_QCALL0_(fn, q)                                                                             \
    evrec_freertos_queue_##fn(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_OBJECT_(q), (q)->ucQueueType)

/* ---- tasks (tasks.c) ---- */

/* The idle task ("IDLE", on SMP "IDLE0", "IDLE1"...): its name starts with configIDLE_TASK_NAME,
 * compared here with a constant length: a word, then byte by byte. Not __builtin_memcmp(): at
 * -Os it becomes a call to the C library's memcmp(), which a kernel built without a C library
 * does not have. */
static inline __attribute__((always_inline)) int evrec_freertos_prefix_(const char *name, const char *prefix,
                                                                        unsigned len)
{
    unsigned i = 0;
    if (len >= 4u) { /* the first four bytes as one word: 4-byte copies stay inline at any -O */
        uint32_t a;
        uint32_t b;
        __builtin_memcpy(&a, name, 4u);
        __builtin_memcpy(&b, prefix, 4u);
        if (a != b) {
            return 0;
        }
        i = 4u;
    }
    for (; i < len; i++) {
        if (name[i] != prefix[i]) {
            return 0;
        }
    }
    return 1;
}
#define EVREC_FREERTOS_IDLE_LEN_(tcb)                                                                             \
    (sizeof(configIDLE_TASK_NAME) - 1u < sizeof((tcb)->pcTaskName) ? sizeof(configIDLE_TASK_NAME) - 1u            \
                                                                   : sizeof((tcb)->pcTaskName))
#define EVREC_FREERTOS_IS_IDLE_(tcb)                                                                              \
    evrec_freertos_prefix_((tcb)->pcTaskName, configIDLE_TASK_NAME, (unsigned)EVREC_FREERTOS_IDLE_LEN_(tcb))
/* Which tasks are idle tasks. From V11 the kernel calls traceENTER_vTaskStartScheduler() just
 * before prvCreateIdleTasks(), whose configNUMBER_OF_CORES creates are the next ones (they run
 * before the scheduler starts, nothing else creates a task meanwhile): it sets a count, and the
 * create's idle test is one load and a branch. A kernel older than V11 (no traceENTER_* macros),
 * or a traceENTER_vTaskStartScheduler of the application's own: the name test above (the name
 * starts with configIDLE_TASK_NAME). If an idle task's create fails, vTaskStartScheduler() fails:
 * the count is left over for a later create only when the application then creates tasks
 * without starting the scheduler again. */
#ifndef traceENTER_vTaskStartScheduler
#define traceENTER_vTaskStartScheduler() (evrec_freertos_shared.idle_left = (uint32_t)EVREC_FREERTOS_CORES)
#define EVREC_FREERTOS_IDLE_COUNT_ 1
#else
#define EVREC_FREERTOS_IDLE_COUNT_ 0
#endif
static inline __attribute__((always_inline)) int evrec_freertos_idle_next_(void)
{
    uint32_t left = evrec_freertos_shared.idle_left;
    if (__builtin_expect(left != 0u, 0)) {
        evrec_freertos_shared.idle_left = left - 1u;
        return 1;
    }
    return 0;
}
#define EVREC_FREERTOS_IS_IDLE_NEXT_(tcb)                                                                         \
    (EVREC_FREERTOS_IDLE_COUNT_ && tskKERNEL_VERSION_MAJOR >= 11 ? evrec_freertos_idle_next_()                    \
                                                                 : EVREC_FREERTOS_IS_IDLE_(tcb))
/* The TCB's name (an array the kernel ends with a NUL: prvInitialiseNewTask()) into a name slot:
 * one copy of constant length, word loads and stores (both word aligned: the slot by its
 * declaration, pcTaskName by its offset in the TCB, e.g. 52 on a 32-bit ARM_CM4F build: every
 * field before it is a pointer, a UBaseType_t or a list item; `word_aligned` checks it), no loop;
 * bytes after the NUL are copied too. A name no longer than the slot is copied whole, its NUL
 * with it; a longer one is cut and ended in the slot. */
#define EVREC_FREERTOS_TCB_NAME_COPY_(slot, name, word_aligned)                                                   \
    do {                                                                                                          \
        if (sizeof(name) > (size_t)EVREC_FREERTOS_NAME_LEN) {                                                     \
            __builtin_memcpy((slot), (name), (size_t)EVREC_FREERTOS_NAME_LEN);                                    \
            (slot)[EVREC_FREERTOS_NAME_LEN - 1] = '\0';                                                           \
        } else if (sizeof(name) == 16u && (word_aligned)) { /* configMAX_TASK_NAME_LEN 16: one LDM, one STM */    \
            typedef struct {                                                                                      \
                uint32_t w[4];                                                                                    \
            } __attribute__((may_alias)) evrec_name16_;                                                           \
            *(evrec_name16_ *)(void *)(slot) = *(const evrec_name16_ *)(const void *)(name);                      \
        } else {                                                                                                  \
            __builtin_memcpy((slot), (name), sizeof(name));                                                       \
        }                                                                                                         \
    } while (0)
#if EVREC_FREERTOS_INLINE && !defined(traceTASK_CREATE) && !defined(traceTASK_DELETE)
/* Inline. The task's value is the kernel's own TCB number (uxTCBNumber, set just before the hook:
 * no allocation); its name is the TCB's own pcTaskName, kept as a pointer (one store: the kernel
 * never rewrites it, and the TCB lives until traceTASK_DELETE, which copies the name into the
 * value's slot and points there); TaskCreate recorded. */
#define traceTASK_CREATE(pxNewTCB)                                                                                \
    do {                                                                                                          \
        uint32_t evrec_task_ = (uint32_t)(pxNewTCB)->uxTCBNumber;                                                 \
        if (EVREC_FREERTOS_IS_IDLE_NEXT_(pxNewTCB)) {                                                             \
            evrec_task_ = 0u;                                                                                     \
        } else if (__builtin_expect(evrec_task_ - 1u < EVREC_FREERTOS_TASK_SLOTS, 1)) {                           \
            freertos_RtosTask_runtime_names[evrec_task_ - 1u] = (pxNewTCB)->pcTaskName;                           \
        } else {                                                                                                  \
            evrec_task_ = EVREC_FREERTOS_TASK_SLOTS + 1u; /* past the range: 64 */                                \
        }                                                                                                         \
        (pxNewTCB)->uxTaskNumber = evrec_task_;                                                                   \
        evrec_freertos_task_create_(EVREC_FREERTOS_CORE(), evrec_task_, (uint32_t)(pxNewTCB)->uxPriority);        \
    } while (0)
/* Inline: TaskDelete, then the name copied from the TCB (which the kernel frees or the application
 * reuses after the delete) into the value's slot, its name from now on. */
#define traceTASK_DELETE(pxTaskToDelete)                                                                          \
    do {                                                                                                          \
        uint32_t evrec_task_ = (uint32_t)(pxTaskToDelete)->uxTaskNumber;                                          \
        evrec_freertos_task_delete_(EVREC_FREERTOS_CORE(), evrec_task_, (uint32_t)(pxTaskToDelete)->uxPriority);  \
        if (evrec_task_ - 1u < EVREC_FREERTOS_TASK_SLOTS) {                                                       \
            char *evrec_slot_ = evrec_freertos_task_names[evrec_task_ - 1u];                                      \
            EVREC_FREERTOS_TCB_NAME_COPY_(                                                                        \
                evrec_slot_, (pxTaskToDelete)->pcTaskName,                                                        \
                __builtin_offsetof(__typeof__(*(pxTaskToDelete)), pcTaskName) % _Alignof(uint32_t) == 0u);        \
            freertos_RtosTask_runtime_names[evrec_task_ - 1u] = evrec_slot_;                                      \
        }                                                                                                         \
    } while (0)
#endif
#ifndef traceTASK_CREATE
#define traceTASK_CREATE(pxNewTCB)                                                                                \
    ((pxNewTCB)->uxTaskNumber = evrec_freertos_task_new(                                                          \
         EVREC_FREERTOS_CORE(), (pxNewTCB)->pcTaskName,                                                           \
         (EVREC_FREERTOS_IS_IDLE_NEXT_(pxNewTCB) ? 0u : (uint32_t)(uint16_t)(pxNewTCB)->uxTCBNumber) |            \
             (uint32_t)(sizeof((pxNewTCB)->pcTaskName) < 255u ? sizeof((pxNewTCB)->pcTaskName) : 255u) << 16,     \
         (uint32_t)(pxNewTCB)->uxPriority))
#endif
#ifndef traceTASK_DELETE
#define traceTASK_DELETE(pxTaskToDelete)                                                                          \
    evrec_freertos_task_delete(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_TASK_(pxTaskToDelete),                       \
                               (uint32_t)(pxTaskToDelete)->uxPriority)
#endif
#ifndef traceTASK_PRIORITY_SET
#define traceTASK_PRIORITY_SET(pxTask, uxNewPriority)                                                             \
    evrec_freertos_task_priority(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_TASK_(pxTask), (uint32_t)(uxNewPriority))
#endif
#ifndef traceMOVED_TASK_TO_READY_STATE
#define traceMOVED_TASK_TO_READY_STATE(pxTCB)                                                                     \
    evrec_freertos_task_ready(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_TASK_(pxTCB))
#endif
/* SWITCHED_OUT keeps the outgoing TCB (one store, no call); SWITCHED_IN, after the kernel picked
 * the next task, records the pair: nothing at all when it picked the same task (a tick with
 * nothing else ready). The reason is read from the old TCB's lists then: picking the next task
 * rotates a ready list but moves no task between lists. */
#ifndef traceTASK_SWITCHED_OUT
#define traceTASK_SWITCHED_OUT() (evrec_freertos_out_tcb[EVREC_FREERTOS_CORE()] = (void *)pxCurrentTCB)
#endif
#ifndef traceTASK_SWITCHED_IN
#define traceTASK_SWITCHED_IN()                                                                                   \
    do {                                                                                                          \
        TCB_t *evrec_old_ = (TCB_t *)evrec_freertos_out_tcb[EVREC_FREERTOS_CORE()];                               \
        TCB_t *evrec_new_ = pxCurrentTCB;                                                                         \
        evrec_freertos_out_tcb[EVREC_FREERTOS_CORE()] = (void *)0;                                                \
        if (evrec_old_ == (TCB_t *)0) {                                                                           \
            evrec_freertos_first_in(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_TASK_(evrec_new_));                     \
        } else if (evrec_old_ != evrec_new_) {                                                                    \
            evrec_freertos_switched_in(                                                                           \
                EVREC_FREERTOS_CORE(), EVREC_FREERTOS_TASK_(evrec_new_),                                          \
                EVREC_FREERTOS_TASK_(evrec_old_) |                                                                \
                    (uint32_t)EVREC_FREERTOS_REASON_(listLIST_ITEM_CONTAINER(&evrec_old_->xStateListItem),        \
                                                     listLIST_ITEM_CONTAINER(&evrec_old_->xEventListItem))        \
                        << 16);                                                                                   \
        }                                                                                                         \
    } while (0)
#endif

/* ---- queues, semaphores, mutexes (queue.c) ---- */

#ifndef traceQUEUE_CREATE
#define traceQUEUE_CREATE(pxNewQueue)                                                                             \
    ((pxNewQueue)->uxQueueNumber = evrec_freertos_object_create((pxNewQueue)->ucQueueType))
#endif
#ifndef traceQUEUE_REGISTRY_ADD
#define traceQUEUE_REGISTRY_ADD(xQueue, pcQueueName)                                                              \
    evrec_freertos_object_name(EVREC_FREERTOS_OBJECT_(xQueue), (pcQueueName))
#endif
#ifndef traceQUEUE_SEND
#define traceQUEUE_SEND(pxQueue) EVREC_FREERTOS_QCALL_(done, pxQueue, EVREC_FREERTOS_OP_SEND)
#endif
#ifndef traceQUEUE_SEND_FAILED
#define traceQUEUE_SEND_FAILED(pxQueue) EVREC_FREERTOS_QCALL0_(failed, pxQueue)
#endif
#ifndef traceQUEUE_RECEIVE
#define traceQUEUE_RECEIVE(pxQueue) EVREC_FREERTOS_QCALL_(done, pxQueue, EVREC_FREERTOS_OP_RECEIVE)
#endif
#ifndef traceQUEUE_RECEIVE_FAILED
#define traceQUEUE_RECEIVE_FAILED(pxQueue) EVREC_FREERTOS_QCALL0_(failed, pxQueue)
#endif
#ifndef traceBLOCKING_ON_QUEUE_SEND
#define traceBLOCKING_ON_QUEUE_SEND(pxQueue) EVREC_FREERTOS_QCALL0_(block, pxQueue)
#endif
#ifndef traceBLOCKING_ON_QUEUE_RECEIVE
#define traceBLOCKING_ON_QUEUE_RECEIVE(pxQueue) EVREC_FREERTOS_QCALL0_(block, pxQueue)
#endif
#ifndef traceQUEUE_SEND_FROM_ISR
#define traceQUEUE_SEND_FROM_ISR(pxQueue) EVREC_FREERTOS_QCALL_(isr, pxQueue, EVREC_FREERTOS_OP_SEND)
#endif
#ifndef traceQUEUE_RECEIVE_FROM_ISR
#define traceQUEUE_RECEIVE_FROM_ISR(pxQueue) EVREC_FREERTOS_QCALL_(isr, pxQueue, EVREC_FREERTOS_OP_RECEIVE)
#endif
/* xSemaphoreGiveFromISR() (xQueueGiveFromISR) records through traceQUEUE_SEND_FROM_ISR too. */
/* The timer task waits on its command queue through vQueueWaitForMessageRestricted(), which has no
 * BLOCKING hook: its entry hook (FreeRTOS-Kernel V11 and later) records the Block when the queue
 * is empty (the kernel then places the task on the queue's list). Should an interrupt fill the
 * queue first, the task does not block and its receive records Unblock at once. */
#ifndef traceENTER_vQueueWaitForMessageRestricted
#define traceENTER_vQueueWaitForMessageRestricted(xQueue, xTicksToWait, xWaitIndefinitely)                        \
    do {                                                                                                          \
        if (((Queue_t *)(xQueue))->uxMessagesWaiting == (UBaseType_t)0) {                                         \
            EVREC_FREERTOS_QCALL0_(block, ((Queue_t *)(xQueue)));                                                 \
        }                                                                                                         \
    } while (0)
#endif

/* ---- software timers (timers.c) ---- */

#ifndef traceTIMER_CREATE
#define traceTIMER_CREATE(pxNewTimer)                                                                             \
    ((pxNewTimer)->uxTimerNumber = evrec_freertos_timer_create((pxNewTimer)->pcTimerName))
#endif
#ifndef traceTIMER_EXPIRED
#if EVREC_FREERTOS_INLINE
#define traceTIMER_EXPIRED(pxTimer)                                                                               \
    evrec_freertos_timer_expired_(EVREC_FREERTOS_CORE(), (uint16_t)(pxTimer)->uxTimerNumber)
#else
#define traceTIMER_EXPIRED(pxTimer)                                                                               \
    evrec_freertos_timer_expired(EVREC_FREERTOS_CORE(), (uint16_t)(pxTimer)->uxTimerNumber)
#endif
#endif

/* ---- event groups (event_groups.c) ---- */

/* The group's RtosObject value in its uxEventGroupNumber. The end of a wait tells whether it
 * blocked by the function's xTicksToWait (zeroed by the kernel when the bits were there: an
 * event group has no retry loop, its Block is recorded once, and the port keeps no wait state for
 * it). xEventGroupSetBitsFromISR() and
 * xEventGroupClearBitsFromISR() defer the work to the timer task, whose xEventGroupSetBits() records
 * it (SET_BITS); clearing has no EventOp value: CLEAR_BITS records nothing. */
#define EVREC_FREERTOS_GROUP_(g) ((uint16_t)(g)->uxEventGroupNumber)
#if EVREC_FREERTOS_INLINE
#define EVREC_FREERTOS_GROUP_SET_(g) evrec_freertos_group_set_(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_GROUP_(g))
/* After a wait (rare: it blocked) out of line; else Consume inline, its type a constant. */
#define EVREC_FREERTOS_GROUP_END_(g, t)                                                                           \
    do {                                                                                                          \
        if (xTicksToWait != 0) {                                                                                  \
            evrec_freertos_group_end(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_GROUP_(g), 1u, (uint32_t)((t) != 0));  \
        } else if ((t) == 0) {                                                                                    \
            evrec_freertos_group_op_(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_GROUP_(g), 1u);                        \
        }                                                                                                         \
    } while (0)
#else
#define EVREC_FREERTOS_GROUP_SET_(g) evrec_freertos_group_set(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_GROUP_(g))
#define EVREC_FREERTOS_GROUP_END_(g, t)                                                                           \
    evrec_freertos_group_end(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_GROUP_(g), (uint32_t)(xTicksToWait != 0),      \
                             (uint32_t)((t) != 0))
#endif
#ifndef traceEVENT_GROUP_CREATE
#define traceEVENT_GROUP_CREATE(xEventGroup) ((xEventGroup)->uxEventGroupNumber = evrec_freertos_group_create())
#endif
#ifndef traceEVENT_GROUP_SET_BITS
#define traceEVENT_GROUP_SET_BITS(xEventGroup, uxBitsToSet) EVREC_FREERTOS_GROUP_SET_(xEventGroup)
#endif
#ifndef traceEVENT_GROUP_WAIT_BITS_BLOCK
#define traceEVENT_GROUP_WAIT_BITS_BLOCK(xEventGroup, uxBitsToWaitFor)                                            \
    evrec_freertos_group_block(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_GROUP_(xEventGroup))
#endif
#ifndef traceEVENT_GROUP_SYNC_BLOCK
#define traceEVENT_GROUP_SYNC_BLOCK(xEventGroup, uxBitsToSet, uxBitsToWaitFor)                                    \
    evrec_freertos_group_block(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_GROUP_(xEventGroup))
#endif
#ifndef traceEVENT_GROUP_WAIT_BITS_END
#define traceEVENT_GROUP_WAIT_BITS_END(xEventGroup, uxBitsToWaitFor, xTimeoutOccurred)                            \
    EVREC_FREERTOS_GROUP_END_(xEventGroup, xTimeoutOccurred)
#endif
#ifndef traceEVENT_GROUP_SYNC_END
#define traceEVENT_GROUP_SYNC_END(xEventGroup, uxBitsToSet, uxBitsToWaitFor, xTimeoutOccurred)                    \
    EVREC_FREERTOS_GROUP_END_(xEventGroup, xTimeoutOccurred)
#endif

/* ---- task notifications (tasks.c) ---- */

/* The RtosNotifyOp values (freertos.yaml; evrec_freertos.c checks them). */
#define EVREC_FREERTOS_NOTIFY_GIVE_ 0u
#define EVREC_FREERTOS_NOTIFY_TAKE_ 1u
#define EVREC_FREERTOS_NOTIFY_BLOCK_ 2u
#define EVREC_FREERTOS_NOTIFY_UNBLOCK_ 3u
#define EVREC_FREERTOS_NOTIFY_TIMEOUT_ 4u
/* The notification's index: a constant 0 where a task has one notification
 * (configTASK_NOTIFICATION_ARRAY_ENTRIES 1, the kernel's default; it asserts the index is below
 * that), so that the record's word is a constant where the giver and type are. Expanded in
 * tasks.c, after FreeRTOS.h gave the setting its default. */
#define EVREC_FREERTOS_NOTIFY_INDEX_(index) (configTASK_NOTIFICATION_ARRAY_ENTRIES > 1 ? (uint32_t)(index) : 0u)
#if EVREC_FREERTOS_INLINE
#define EVREC_FREERTOS_NOTIFY_CALL_(task, giver, type, index)                                                     \
    evrec_freertos_notify_(EVREC_FREERTOS_CORE(), (task), (giver), (type), EVREC_FREERTOS_NOTIFY_INDEX_(index))
#define EVREC_FREERTOS_NOTIFY_SELF_(type, index)                                                                  \
    evrec_freertos_notify_self_(EVREC_FREERTOS_CORE(), (type), EVREC_FREERTOS_NOTIFY_INDEX_(index))
#else
#define EVREC_FREERTOS_NOTIFY_CALL_(task, giver, type, index)                                                     \
    evrec_freertos_notify(EVREC_FREERTOS_CORE(), (task), (giver), (type), EVREC_FREERTOS_NOTIFY_INDEX_(index))
#define EVREC_FREERTOS_NOTIFY_SELF_(type, index)                                                                  \
    evrec_freertos_notify_self(EVREC_FREERTOS_CORE(), (type), EVREC_FREERTOS_NOTIFY_INDEX_(index))
#endif
/* The notifier's side (xTaskGenericNotify, xTaskGenericNotifyFromISR, vTaskGenericNotifyGiveFromISR):
 * the notified TCB is their pxTCB, its state before the call their ucOriginalNotifyState: Unblock
 * when the task was waiting (taskWAITING_NOTIFICATION), else Give. */
#define EVREC_FREERTOS_NOTIFIED_(index, giver)                                                                    \
    do {                                                                                                          \
        if (ucOriginalNotifyState == taskWAITING_NOTIFICATION) {                                                  \
            EVREC_FREERTOS_NOTIFY_CALL_(EVREC_FREERTOS_TASK_(pxTCB), (giver), EVREC_FREERTOS_NOTIFY_UNBLOCK_,     \
                                        (index));                                                                 \
        } else {                                                                                                  \
            EVREC_FREERTOS_NOTIFY_CALL_(EVREC_FREERTOS_TASK_(pxTCB), (giver), EVREC_FREERTOS_NOTIFY_GIVE_,        \
                                        (index));                                                                 \
        }                                                                                                         \
    } while (0)
#ifndef traceTASK_NOTIFY
#define traceTASK_NOTIFY(uxIndexToNotify) EVREC_FREERTOS_NOTIFIED_(uxIndexToNotify, EVREC_FREERTOS_GIVER_SELF)
#endif
#ifndef traceTASK_NOTIFY_FROM_ISR
#define traceTASK_NOTIFY_FROM_ISR(uxIndexToNotify)                                                                \
    EVREC_FREERTOS_NOTIFIED_(uxIndexToNotify, EVREC_FREERTOS_GIVER_ISR)
#endif
#ifndef traceTASK_NOTIFY_GIVE_FROM_ISR
#define traceTASK_NOTIFY_GIVE_FROM_ISR(uxIndexToNotify)                                                           \
    EVREC_FREERTOS_NOTIFIED_(uxIndexToNotify, EVREC_FREERTOS_GIVER_ISR)
#endif
/* The waiter's side (ulTaskGenericNotifyTake, xTaskGenericNotifyWait): Block before it blocks;
 * after the wait Take when it got a notification (Take: the count is not 0; Wait: the state is
 * taskNOTIFICATION_RECEIVED), else Timeout when it could wait (their xTicksToWait is not 0),
 * else nothing (a poll that found none). One record path for both. */
#define EVREC_FREERTOS_NOTIFY_END_(got, index)                                                                    \
    do {                                                                                                          \
        if (got) {                                                                                                \
            EVREC_FREERTOS_NOTIFY_SELF_(EVREC_FREERTOS_NOTIFY_TAKE_, (index));                                    \
        } else if (xTicksToWait != (TickType_t)0) {                                                               \
            EVREC_FREERTOS_NOTIFY_SELF_(EVREC_FREERTOS_NOTIFY_TIMEOUT_, (index));                                 \
        }                                                                                                         \
    } while (0)
#ifndef traceTASK_NOTIFY_TAKE_BLOCK
#define traceTASK_NOTIFY_TAKE_BLOCK(uxIndexToWait)                                                                \
    EVREC_FREERTOS_NOTIFY_SELF_(EVREC_FREERTOS_NOTIFY_BLOCK_, uxIndexToWait)
#endif
#ifndef traceTASK_NOTIFY_WAIT_BLOCK
#define traceTASK_NOTIFY_WAIT_BLOCK(uxIndexToWait)                                                                \
    EVREC_FREERTOS_NOTIFY_SELF_(EVREC_FREERTOS_NOTIFY_BLOCK_, uxIndexToWait)
#endif
/* Where the end is recorded. On one core with FreeRTOS-Kernel V11 or later: at the function's
 * return (traceRETURN_ulTaskGenericNotifyTake, _xTaskGenericNotifyWait), from the value it returns,
 * in a register there (the kernel's volatile state is not read again: 3 instructions fewer); the
 * record then follows the critical section, so an interrupt's notification between the two shows
 * before it. Else in the critical section (TAKE, WAIT): with several cores the task could move to
 * another core before a record at the return (it would take that core's running task), and V10
 * has no return hooks. */
#if defined(traceRETURN_ulTaskGenericNotifyTake) || defined(traceRETURN_xTaskGenericNotifyWait)
/* The application defined a return hook itself: the ends stay in the critical section. */
#define EVREC_FREERTOS_NOTIFY_AT_RETURN_ 0
#else
#define EVREC_FREERTOS_NOTIFY_AT_RETURN_ (EVREC_FREERTOS_CORES == 1 && tskKERNEL_VERSION_MAJOR >= 11)
#endif
#ifndef traceTASK_NOTIFY_TAKE
#define traceTASK_NOTIFY_TAKE(uxIndexToWait)                                                                      \
    do {                                                                                                          \
        if (!EVREC_FREERTOS_NOTIFY_AT_RETURN_) {                                                                  \
            EVREC_FREERTOS_NOTIFY_END_(                                                                           \
                pxCurrentTCB->ulNotifiedValue[EVREC_FREERTOS_NOTIFY_INDEX_(uxIndexToWait)] != 0u, uxIndexToWait); \
        }                                                                                                         \
    } while (0)
#endif
#ifndef traceRETURN_ulTaskGenericNotifyTake
#define traceRETURN_ulTaskGenericNotifyTake(ulReturn)                                                             \
    do {                                                                                                          \
        if (EVREC_FREERTOS_NOTIFY_AT_RETURN_) {                                                                   \
            EVREC_FREERTOS_NOTIFY_END_((ulReturn) != 0u, uxIndexToWaitOn);                                        \
        }                                                                                                         \
    } while (0)
#endif
#ifndef traceTASK_NOTIFY_WAIT
#define traceTASK_NOTIFY_WAIT(uxIndexToWait)                                                                      \
    do {                                                                                                          \
        if (!EVREC_FREERTOS_NOTIFY_AT_RETURN_) {                                                                  \
            EVREC_FREERTOS_NOTIFY_END_(                                                                           \
                pxCurrentTCB->ucNotifyState[EVREC_FREERTOS_NOTIFY_INDEX_(uxIndexToWait)] ==                       \
                    taskNOTIFICATION_RECEIVED,                                                                    \
                uxIndexToWait);                                                                                   \
        }                                                                                                         \
    } while (0)
#endif
#ifndef traceRETURN_xTaskGenericNotifyWait
#define traceRETURN_xTaskGenericNotifyWait(xReturn)                                                               \
    do {                                                                                                          \
        if (EVREC_FREERTOS_NOTIFY_AT_RETURN_) {                                                                   \
            EVREC_FREERTOS_NOTIFY_END_((xReturn) != 0, uxIndexToWaitOn); /* pdFALSE */                            \
        }                                                                                                         \
    } while (0)
#endif

/* ---- interrupts (ports that call them: several Cortex-M ports) ---- */

#if EVREC_FREERTOS_INLINE
#define EVREC_FREERTOS_ISR_ENTER_() evrec_freertos_isr_(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_ISR_VECTOR(), 0)
#define EVREC_FREERTOS_ISR_EXIT_() evrec_freertos_isr_(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_ISR_VECTOR(), 1)
#else
#define EVREC_FREERTOS_ISR_ENTER_() evrec_freertos_isr_enter(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_ISR_VECTOR())
#define EVREC_FREERTOS_ISR_EXIT_() evrec_freertos_isr_exit(EVREC_FREERTOS_CORE(), EVREC_FREERTOS_ISR_VECTOR())
#endif
#ifndef traceISR_ENTER
#define traceISR_ENTER() EVREC_FREERTOS_ISR_ENTER_()
#endif
#ifndef traceISR_EXIT
#define traceISR_EXIT() EVREC_FREERTOS_ISR_EXIT_()
#endif
#ifndef traceISR_EXIT_TO_SCHEDULER
#define traceISR_EXIT_TO_SCHEDULER() EVREC_FREERTOS_ISR_EXIT_()
#endif

#endif /* EVREC_FREERTOS_DECLARATIONS_ONLY */
#endif /* __ASSEMBLER__ */
#endif /* EVREC_FREERTOS_H */
