/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The out-of-line part of the FreeRTOS trace hooks (evrec_freertos.h): task and object ids with
 * their names in fixed tables, the switch-out/switch-in pairing, the wait state behind the
 * Unblock and Timeout records. Records the events of freertos.yaml through the generated
 * freertos_record_*() functions. Freestanding: no malloc, no libc.
 *
 * Build knobs (compile definitions of this file):
 *   EVREC_FREERTOS_MAX_CORES  hosts (cores) it can serve, 1..32, default 1. Set it to
 *                             configNUMBER_OF_CORES on SMP. RAM: 12 bytes per core.
 *   EVREC_FREERTOS_NAME_LEN   bytes kept of a task or object name (with the NUL), 9..64,
 *                             default 16 (configMAX_TASK_NAME_LEN's default). RAM: 190 names.
 *   EVREC_FREERTOS_ISR_VECTORS interrupt numbers that can be named, 1..1024, default 256.
 *                             RAM: one byte each. The inline ISR hooks read it too (evrec_freertos.h).
 *   EVREC_FREERTOS_INT_CONTROL 1: IntControl recorded (evrec_freertos_int.c, linked with its
 *                             --wrap options); the switch hook then ends and starts the disabled
 *                             spans a switch inside a critical section carries. Default 0.
 */
#define EVREC_FREERTOS_DECLARATIONS_ONLY 1
#ifndef EVREC_FREERTOS_MAX_CORES
#define EVREC_FREERTOS_MAX_CORES 1
#endif
#ifndef EVREC_FREERTOS_INT_CONTROL
#define EVREC_FREERTOS_INT_CONTROL 0
#endif
#include "evrec_freertos.h" /* with freertos_events.h and the inline record paths */

#include <stddef.h>
#include <string.h>

/* RtosTask 1..63, RtosObject 1..127 (the catalogue's run-time ranges). */
#define TASK_SLOTS 63u
#define OBJECT_SLOTS 127u
#define NO_TASK ((uint16_t)freertos_RtosTask_NoTask)

enum { KIND_QUEUE, KIND_MUTEX, KIND_SEM, KIND_GROUP, KIND_TIMER };

void *evrec_freertos_out_tcb[EVREC_FREERTOS_MAX_CORES];
/* Read by the inline hooks of evrec_freertos.h (in the kernel's code) as well. */
struct evrec_freertos_shared evrec_freertos_shared;
uint8_t evrec_freertos_blocked_on[TASK_SLOTS + 1u];
uint8_t evrec_freertos_isr_of_vector[EVREC_FREERTOS_ISR_VECTORS];

/* evrec_freertos_blocked_on[]: bits 0..6 the object a task waits on (values 1..127), bit 7 set
 * once the task has run (its next TaskSwitchIn is Resume, not Start): a switch reads both with
 * one load. */
#define WAIT_MASK 0x7Fu
#define STARTED 0x80u
_Static_assert(OBJECT_SLOTS <= WAIT_MASK, "an object value fits the wait bits");

static void prefill_digits(void);

/* Object values handed out (evrec_freertos_init() resets it). */
static evrec_atomic_size_t next_object;

_Static_assert(sizeof(freertos_TaskCreate_t) == 12u && offsetof(freertos_TaskCreate_t, task) == 6u &&
                   offsetof(freertos_TaskCreate_t, priority) == 8u,
               "TaskCreate: the task at bytes 6..7 of a 12-byte record (evrec_freertos_task_record_())");

/* The task names (slot v - 1 names RtosTask value v), written by traceTASK_CREATE inline too. */
char evrec_freertos_task_names[TASK_SLOTS][EVREC_FREERTOS_NAME_LEN] __attribute__((aligned(4)));
_Static_assert(TASK_SLOTS == EVREC_FREERTOS_TASK_SLOTS, "the header's task range");

/* The hooks have no context argument: this is the one place their state can live. */
static struct {
    char object_name[OBJECT_SLOTS][EVREC_FREERTOS_NAME_LEN];
} ft;

static void copy_name(char *dst, const char *src)
{
    size_t i = 0;
    for (; src != NULL && src[i] != '\0' && i + 1u < EVREC_FREERTOS_NAME_LEN; i++) {
        dst[i] = src[i];
    }
    dst[i] = '\0';
}

/* One core: the hooks pass 0 (EVREC_FREERTOS_CORE()), no check, no index. */
#if EVREC_FREERTOS_MAX_CORES == 1
#define CORE_STATE(core) ((void)(core), &evrec_freertos_cores[0])
#else
#define CORE_STATE(core) (&evrec_freertos_cores[core])
#endif

static evrec_host_t *host_of(unsigned core)
{
#if EVREC_FREERTOS_MAX_CORES == 1
    (void)core;
    return evrec_freertos_cores[0].host;
#else
    return core < EVREC_FREERTOS_MAX_CORES ? evrec_freertos_cores[core].host : NULL;
#endif
}

int evrec_freertos_init(struct evrec_host *const *hosts, unsigned cores)
{
    if (hosts == NULL || cores == 0u || cores > EVREC_FREERTOS_MAX_CORES) {
        return EVREC_E_ARG;
    }
    memset(&ft, 0, sizeof ft);
    memset(evrec_freertos_task_names, 0, sizeof evrec_freertos_task_names);
    prefill_digits();
    memset(evrec_freertos_out_tcb, 0, sizeof evrec_freertos_out_tcb);
    /* not int_depth: evrec_freertos_int.c counts the open critical sections from the start */
    memset(&evrec_freertos_shared, 0, offsetof(struct evrec_freertos_shared, int_depth));
    memset(evrec_freertos_blocked_on, 0, sizeof evrec_freertos_blocked_on);
    memset(evrec_freertos_isr_of_vector, 0, sizeof evrec_freertos_isr_of_vector);
    for (unsigned c = 0; c < cores; c++) {
        evrec_freertos_cores[c].host = hosts[c];
        evrec_freertos_cores[c].current = NO_TASK;
    }
    evrec_status st = freertos_runtime_init();
    /* Task values are the kernel's TCB numbers, named by value (evrec_freertos_task_new()): the
     * whole range counts as handed out, the names saved are those that are set. */
    evrec_atomic_store(&freertos_RtosTask_runtime.next, freertos_RtosTask_runtime.lim);
    evrec_atomic_store(&freertos_RtosObject_runtime.next, freertos_RtosObject_runtime.lim);
    evrec_atomic_store(&next_object, 0u);
    return (int)st;
}

int evrec_freertos_isr_name(unsigned vector, const char *name)
{
    if (vector >= EVREC_FREERTOS_ISR_VECTORS || name == NULL) {
        return EVREC_E_ARG;
    }
    freertos_RtosIsr_t isr;
    evrec_status st = freertos_RtosIsr_alloc(name, &isr);
    if (st == EVREC_OK) {
        evrec_freertos_isr_of_vector[vector] = (uint8_t)isr;
    }
    return (int)st;
}

/* A task's name into its table slot: when the TCB's name has at least the slot's size, a copy of
 * EVREC_FREERTOS_NAME_LEN bytes of constant length (word loads and stores, no loop; the kernel
 * ends its name with a NUL, bytes after it are copied too), else byte by byte up to the NUL. */
static void copy_task_name(char *slot, const char *name, uint32_t name_size)
{
    if (name_size >= EVREC_FREERTOS_NAME_LEN) {
        __builtin_memcpy(slot, name, EVREC_FREERTOS_NAME_LEN);
        slot[EVREC_FREERTOS_NAME_LEN - 1u] = '\0';
    } else {
        copy_name(slot, name);
    }
}

/* The task's value is the kernel's TCB number: no allocation (the RtosTask run-time names are
 * filled by value, evrec_freertos_init() marks the whole range allocated: the saved file names
 * the values that have a name). Tasks created on two cores at once have two numbers, two slots. */
uint16_t evrec_freertos_task_new(unsigned core, const char *name, uint32_t number, uint32_t priority)
{
    uint32_t task = number & 0xFFFFu;
    if (task != 0u) {
        if (task > TASK_SLOTS) {
            task = TASK_SLOTS + 1u; /* past the range: 64, as an exhausted allocation gives */
        } else {
            char *slot = evrec_freertos_task_names[task - 1u];
            copy_task_name(slot, name, number >> 16);
            freertos_RtosTask_runtime_names[task - 1u] = slot;
        }
    }
    evrec_host_t *h = host_of(core);
    if (h != NULL) {
        freertos_record_TaskCreate(h, (uint16_t)task, (uint16_t)priority);
    }
    return (uint16_t)task;
}

void evrec_freertos_task_create(unsigned core, uint16_t task, uint32_t priority)
{
    evrec_host_t *h = host_of(core);
    if (h != NULL) {
        freertos_record_TaskCreate(h, task, (uint16_t)priority);
    }
}

_Static_assert(sizeof(freertos_TaskDelete_t) == 12u && offsetof(freertos_TaskDelete_t, task) == 6u &&
                   offsetof(freertos_TaskDelete_t, priority) == 8u,
               "TaskDelete: TaskCreate's layout (evrec_freertos_task_record_())");

void evrec_freertos_task_record_slow(evrec_host_t *h, uint16_t event_id, uint16_t task, uint16_t priority)
{
    freertos_TaskCreate_t *e = (freertos_TaskCreate_t *)evrec_reserve(h, sizeof *e);
    if (e != NULL) {
        e->task = task;
        e->priority = priority;
        evrec_commit(e, event_id);
    }
}

void evrec_freertos_task_delete(unsigned core, uint16_t task, uint32_t priority)
{
    evrec_host_t *h = host_of(core);
    if (h != NULL) {
        freertos_record_TaskDelete(h, task, (uint16_t)priority);
    }
}

void evrec_freertos_task_priority(unsigned core, uint16_t task, uint32_t priority)
{
    evrec_host_t *h = host_of(core);
    if (h != NULL) {
        freertos_record_TaskPriority(h, task, (uint16_t)priority);
    }
}

void evrec_freertos_task_ready(unsigned core, uint16_t task)
{
    evrec_host_t *h = host_of(core);
    if (h != NULL) {
        freertos_record_TaskReady(h, task);
    }
}

/* vTaskSwitchContext() calls SWITCHED_OUT then SWITCHED_IN; the macros call this only when the
 * scheduler picked another task than the one it switched out (evrec_freertos_first_in() when none
 * was: the first task). TaskSwitchOut and TaskSwitchIn are recorded together. */
/* `task` gets the CPU on `core`: the core's current task and wait copy (the queue hooks') are
 * set; returns TaskSwitchIn's type, Start the first time the task runs. Task values are 0 (idle)
 * .. 63 (the catalogue's RtosTask range, the only values traceTASK_CREATE stores): the mask is no
 * bound check but keeps a value set by hand within the table. */
static __attribute__((noinline)) uint8_t first_run(uint8_t *slot)
{
    *slot = (uint8_t)(*slot | STARTED);
    return freertos_RtosResume_Start;
}
static inline __attribute__((always_inline)) uint8_t switch_to(struct evrec_freertos_core *c, uint16_t task)
{
    uint8_t *slot = &evrec_freertos_blocked_on[task & TASK_SLOTS];
    int32_t state = (int8_t)*slot; /* STARTED is the sign bit */
    __asm__("" : "+r"(state));     /* one load: else the compiler loads the byte again for the mask */
    uint8_t type = freertos_RtosResume_Resume;
    if (__builtin_expect(state >= 0, 0)) {
        type = first_run(slot); /* out of line: no conditional stores on the common path */
    }
    c->current = task;
    c->wait = (uint16_t)((uint32_t)state & WAIT_MASK);
    return type;
}

/* The pair one by one, when it could not be allocated at once (evrec_reserve_pair()); out of
 * line: its registers stay off the common path. `out` and `in` are each a task value (bits 0..15)
 * and a type (from bit 16): three arguments in registers, no stack frame on the common path. */
static __attribute__((noinline)) void record_switch_split(evrec_host_t *h, uint32_t out, uint32_t in)
{
    freertos_record_TaskSwitchOut(h, (uint16_t)out, (uint8_t)(out >> 16));
    freertos_record_TaskSwitchIn(h, (uint16_t)in, (uint8_t)(in >> 16));
}

void evrec_freertos_first_in(unsigned core, uint16_t task)
{
    evrec_host_t *h = host_of(core);
    if (h != NULL) {
        freertos_record_TaskSwitchIn(h, task, switch_to(CORE_STATE(core), task));
    }
}

/* A switch record's task and type as one 4-byte store: `word` is the task value (bits 0..15) and
 * the type (bits 16..23); the byte after the type is the record's padding (stored as 0). */
_Static_assert(offsetof(freertos_TaskSwitchOut_t, type) == offsetof(freertos_TaskSwitchOut_t, task) + 2u &&
                   offsetof(freertos_TaskSwitchIn_t, type) == offsetof(freertos_TaskSwitchIn_t, task) + 2u &&
                   offsetof(freertos_TaskSwitchOut_t, task) + 4u <= sizeof(freertos_TaskSwitchOut_t) &&
                   offsetof(freertos_TaskSwitchIn_t, task) + 4u <= sizeof(freertos_TaskSwitchIn_t),
               "a switch record's task, type and a padding byte are 4 consecutive bytes");
static inline __attribute__((always_inline)) void store_task_type(uint16_t *task_field, uint32_t word)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    __builtin_memcpy(task_field, &word, 4);
#else
    *task_field = (uint16_t)word;
    ((uint8_t *)task_field)[2] = (uint8_t)(word >> 16);
#endif
}

/* The TaskSwitchOut/TaskSwitchIn pair of evrec_freertos_switched_in(). */
static inline __attribute__((always_inline)) void evrec_freertos_switched_in_pair_(evrec_host_t *h, unsigned core,
                                                                                   uint16_t task, uint32_t out)
{
    uint32_t in = task | (uint32_t)switch_to(CORE_STATE(core), task) << 16;
    /* The pair in one allocation, one timestamp (evrec_reserve_pair()). */
    int split;
    freertos_TaskSwitchOut_t *o = evrec_reserve_pair(h, sizeof *o, sizeof(freertos_TaskSwitchIn_t), &split);
    if (o != NULL) {
        freertos_TaskSwitchIn_t *i = (freertos_TaskSwitchIn_t *)(void *)((uint8_t *)o + sizeof *o);
        store_task_type(&o->task, out); /* bits 24..31 are 0 */
        store_task_type(&i->task, in);
        evrec_commit(o, freertos_ID_TaskSwitchOut);
        evrec_commit(i, freertos_ID_TaskSwitchIn);
    } else if (split) {
        record_switch_split(h, out, in);
    }
}

#if EVREC_FREERTOS_INT_CONTROL && EVREC_FREERTOS_INT_PER_TASK
/* IntControl at a switch (evrec_freertos_int.c counts the depths per task): a port that switches
 * inside a critical section (POSIX: a yield in taskENTER_CRITICAL(); the Cortex-M ports never do) gives
 * the CPU the new task's interrupt state: the old task's disabled span ends here, the new one's
 * starts here. `type` RestoreEnable or Disable, the caller the kernel's switch. */
static __attribute__((noinline)) void int_switch(evrec_host_t *h, freertos_RtosIntControl_t type, uintptr_t caller)
{
    freertos_record_IntControl(h, type, (uint32_t)caller);
}
#define INT_SWITCH(h, task, type)                                                                                 \
    do {                                                                                                          \
        if (evrec_freertos_shared.int_depth[(task)&EVREC_FREERTOS_INT_DEPTH_MASK] != 0u) {                        \
            int_switch(h, type, (uintptr_t)__builtin_return_address(0));                                          \
        }                                                                                                         \
    } while (0)
#else
#define INT_SWITCH(h, task, type) ((void)0)
#endif

/* `out`: the task switched out (bits 0..15) and why (bits 16..23, an RtosSuspend value). */
void evrec_freertos_switched_in(unsigned core, uint16_t task, uint32_t out)
{
    evrec_host_t *h = host_of(core);
    if (h == NULL) {
        return;
    }
    INT_SWITCH(h, (uint16_t)out, freertos_RtosIntControl_RestoreEnable);
    evrec_freertos_switched_in_pair_(h, core, task, out);
    INT_SWITCH(h, task, freertos_RtosIntControl_Disable);
}

/* ---- queues, semaphores and mutexes (all of them are queues in FreeRTOS) ---- */

/* Queue_t's ucQueueType (the kernel's include/queue.h queueQUEUE_TYPE_*): base 0 (also sets),
 * mutex 1, counting semaphore 2, binary semaphore 3, recursive mutex 4. */
static int kind_of(uint8_t queue_type)
{
    static const uint8_t kind_of_type[8] = {KIND_QUEUE, KIND_MUTEX, KIND_SEM,   KIND_SEM,
                                            KIND_MUTEX, KIND_QUEUE, KIND_QUEUE, KIND_QUEUE};
    return kind_of_type[queue_type & 7u];
}

/* "queue7", "mutex12", "sem3", "group4" (an event group), "timer5" (a timer without a name): the
 * name an object has until vQueueAddToRegistry() (or evrec_freertos_object_name()) names it. Its
 * number's digits and NUL (4 bytes) are written into the slot's last 4 bytes by
 * evrec_freertos_init() (prefill_digits()), so that at creation the name is one 8-byte copy of the
 * prefix (its NULs included) and one 4-byte copy of the digits read from the slot first: no
 * division, no loop. */
_Static_assert(EVREC_FREERTOS_NAME_LEN >= 9 && OBJECT_SLOTS < 1000u, "a default name and its NUL fit a slot");
#define DIGITS_AT (EVREC_FREERTOS_NAME_LEN - 4u)
static void prefill_digits(void)
{
    for (unsigned number = 1; number <= OBJECT_SLOTS; number++) {
        char *p = &ft.object_name[number - 1u][DIGITS_AT];
        if (number >= 100u) {
            *p++ = (char)('0' + number / 100u);
        }
        if (number >= 10u) {
            *p++ = (char)('0' + number / 10u % 10u);
        }
        p[0] = (char)('0' + number % 10u); /* the bytes after it are 0 (memset) */
    }
}

static void default_name(char *dst, int kind)
{
    static const char prefix[5][8] = {"queue", "mutex", "sem", "group", "timer"};
    static const uint8_t prefix_len[5] = {5, 5, 3, 5, 5};
    uint32_t digits;
    __builtin_memcpy(&digits, dst + DIGITS_AT, 4); /* before the prefix may cover it */
    __builtin_memcpy(dst, prefix[kind], 8);
    __builtin_memcpy(dst + prefix_len[kind], &digits, 4);
}

/* A new object's value (1, 2, ... in creation order; past the range 128, as an exhausted
 * allocation gives), its default name by kind. The values are counted here (one atomic
 * increment, no call): the RtosObject run-time names are filled by value, as the tasks' are. */
static uint16_t new_object(int kind)
{
    size_t object = evrec_atomic_fetch_add(&next_object, 1u) + 1u;
    if (object > OBJECT_SLOTS) {
        return (uint16_t)(OBJECT_SLOTS + 1u);
    }
    char *slot = ft.object_name[object - 1u];
    default_name(slot, kind);
    __atomic_store_n(&freertos_RtosObject_runtime_names[object - 1u], slot, __ATOMIC_RELEASE);
    return (uint16_t)object;
}

uint32_t evrec_freertos_object_create(uint8_t queue_type)
{
    return new_object(kind_of(queue_type)) | (uint32_t)evrec_freertos_event_of_type_(queue_type) << 16;
}

void evrec_freertos_object_name(uint16_t object, const char *name)
{
    if (object >= 1u && object <= OBJECT_SLOTS && name != NULL) {
        copy_name(ft.object_name[object - 1u], name);
    }
}

/* MutexOp, SemOp and QueueOp have the same fields (task, object, type): one record path, the
 * event id by kind. */
_Static_assert(sizeof(freertos_MutexOp_t) == sizeof(freertos_QueueOp_t) &&
                   sizeof(freertos_SemOp_t) == sizeof(freertos_QueueOp_t) &&
                   offsetof(freertos_MutexOp_t, type) == offsetof(freertos_QueueOp_t, type) &&
                   offsetof(freertos_SemOp_t, type) == offsetof(freertos_QueueOp_t, type) &&
                   offsetof(freertos_MutexOp_t, object) == offsetof(freertos_QueueOp_t, object) &&
                   offsetof(freertos_SemOp_t, object) == offsetof(freertos_QueueOp_t, object),
               "the catalogue's sync events must share one layout");
_Static_assert(sizeof(freertos_EventOp_t) == sizeof(freertos_QueueOp_t) &&
                   offsetof(freertos_EventOp_t, type) == offsetof(freertos_QueueOp_t, type) &&
                   offsetof(freertos_EventOp_t, object) == offsetof(freertos_QueueOp_t, object),
               "EventOp shares the sync events' layout");
static const uint8_t event_of_kind[] = {freertos_ID_QueueOp, freertos_ID_MutexOp, freertos_ID_SemOp,
                                        freertos_ID_EventOp};

static void record_event(evrec_host_t *h, uint16_t event, uint16_t task, uint16_t object, uint8_t op)
{
    freertos_QueueOp_t *e = evrec_reserve(h, sizeof *e);
    if (e != NULL) {
        e->task = task;
        e->object = object;
        e->type = op;
        evrec_commit(e, event);
    }
}

static inline __attribute__((always_inline)) void record_op(evrec_host_t *h, int kind, uint16_t task,
                                                            uint16_t object, uint8_t op)
{
    record_event(h, event_of_kind[kind], task, object, op);
}

/* The op value of `what` (EVREC_FREERTOS_OP_SEND/RECEIVE) for the kind: Send/Unlock/Give and
 * Receive/Lock/Take, that is 0/1/0 and 1/0/1 (the enums' values, checked below: the inline
 * evrec_freertos_queue_record_() swaps them for mutexes). Block, Unblock and Timeout have the
 * same value (2, 3, 4) in all three enums. */
_Static_assert(freertos_RtosQueueOp_Send == 0 && freertos_RtosQueueOp_Receive == 1 &&
                   freertos_RtosMutexOp_Unlock == 1 && freertos_RtosMutexOp_Lock == 0 &&
                   freertos_RtosSemOp_Give == 0 && freertos_RtosSemOp_Take == 1,
               "Send/Receive, Unlock/Lock, Give/Take values (evrec_freertos_event_of_type_())");
_Static_assert((int)freertos_RtosQueueOp_Unblock == (int)freertos_RtosMutexOp_Unblock &&
                   (int)freertos_RtosQueueOp_Unblock == (int)freertos_RtosSemOp_Unblock,
               "Unblock has one value in the three enums");

/* The calling task's wait on `object`, if it blocked on it (BLOCK below): ended now. */
static int wait_ends(unsigned core, uint16_t task, uint16_t object)
{
    if (task <= TASK_SLOTS && object != 0u && (evrec_freertos_blocked_on[task] & WAIT_MASK) == object) {
        evrec_freertos_blocked_on[task] &= (uint8_t)STARTED;
        CORE_STATE(core)->wait = 0u;
        return 1;
    }
    return 0;
}

/* The hooks' core index: 0 on one core (as host_of()), else `core` checked. */
#if EVREC_FREERTOS_MAX_CORES == 1
#define CORE_OK(core) ((void)(core), 1)
#define CORE_INDEX(core) 0u
#else
#define CORE_OK(core) ((core) < EVREC_FREERTOS_MAX_CORES)
#define CORE_INDEX(core) (core)
#endif

/* Called by evrec_freertos_queue_done_() when the task's wait slot holds the object's value: the
 * Unblock record if it really waited (a value past the tables' ranges never waits). */
void evrec_freertos_queue_wait_end(unsigned core, uint32_t key)
{
    evrec_host_t *h = host_of(core);
    if (h == NULL) {
        return;
    }
    uint16_t task = CORE_STATE(core)->current;
    if (wait_ends(core, task, (uint16_t)key)) {
        freertos_QueueOp_t *e = evrec_reserve(h, sizeof *e);
        if (e != NULL) {
            e->task = task;
            e->object = (uint16_t)key;
            e->type = freertos_RtosQueueOp_Unblock;
            evrec_commit(e, (uint16_t)((key >> 16) & 0xFFu));
        }
    }
}

void evrec_freertos_queue_done(unsigned core, uint16_t object, uint8_t queue_type, uint8_t what)
{
    if (CORE_OK(core)) {
        evrec_freertos_queue_done_(CORE_INDEX(core),
                                   object | (uint32_t)evrec_freertos_event_of_type_(queue_type) << 16, queue_type,
                                   what);
    }
}

void evrec_freertos_queue_isr(unsigned core, uint16_t object, uint8_t queue_type, uint8_t what)
{
    if (CORE_OK(core)) {
        evrec_freertos_queue_isr_(CORE_INDEX(core),
                                  object | (uint32_t)evrec_freertos_event_of_type_(queue_type) << 16, queue_type,
                                  what);
    }
}

/* The calling task blocks on `object` (Block of `event`, whose Block value is 2 in every enum). */
static void block_on(unsigned core, uint16_t object, uint16_t event)
{
    evrec_host_t *h = host_of(core);
    if (h == NULL) {
        return;
    }
    uint16_t task = CORE_STATE(core)->current;
    if (task <= TASK_SLOTS && object != 0u && (evrec_freertos_blocked_on[task] & WAIT_MASK) == object) {
        return; /* the retry loop may block again on the same object: one wait */
    }
    record_event(h, event, task, object, freertos_RtosQueueOp_Block);
    if (task <= TASK_SLOTS && object <= WAIT_MASK) {
        evrec_freertos_blocked_on[task] = (uint8_t)((evrec_freertos_blocked_on[task] & STARTED) | object);
        CORE_STATE(core)->wait = object;
    }
}

void evrec_freertos_queue_block(unsigned core, uint16_t object, uint8_t queue_type)
{
    block_on(core, object, event_of_kind[kind_of(queue_type)]);
}

void evrec_freertos_queue_failed(unsigned core, uint16_t object, uint8_t queue_type)
{
    evrec_host_t *h = host_of(core);
    if (h == NULL) {
        return;
    }
    uint16_t task = CORE_STATE(core)->current;
    if (wait_ends(core, task, object)) { /* nothing for a poll that found the queue full or empty */
        record_op(h, kind_of(queue_type), task, object, freertos_RtosQueueOp_Timeout);
    }
}

/* ---- event groups ---- */

_Static_assert(freertos_RtosEventOp_Set == 0 && freertos_RtosEventOp_Consume == 1 &&
                   (int)freertos_RtosEventOp_Block == (int)freertos_RtosQueueOp_Block &&
                   freertos_RtosEventOp_Unblock == 3 && freertos_RtosEventOp_Timeout == 4,
               "RtosEventOp values (evrec_freertos_group_set_(), evrec_freertos_group_end_())");

uint16_t evrec_freertos_group_create(void)
{
    return new_object(KIND_GROUP);
}

void evrec_freertos_group_set(unsigned core, uint16_t object)
{
    if (CORE_OK(core)) {
        evrec_freertos_group_set_(CORE_INDEX(core), object);
    }
}

/* An event group's Block: recorded once per wait (no retry loop); no wait state is kept (its end
 * knows from the kernel whether it blocked). */
void evrec_freertos_group_block(unsigned core, uint16_t object)
{
    evrec_host_t *h = host_of(core);
    if (h != NULL) {
        record_event(h, freertos_ID_EventOp, CORE_STATE(core)->current, object, freertos_RtosEventOp_Block);
    }
}

_Static_assert(offsetof(freertos_EventOp_t, object) % 4u == 0u &&
                   offsetof(freertos_EventOp_t, type) == offsetof(freertos_EventOp_t, object) + 2u &&
                   offsetof(freertos_EventOp_t, object) + 4u <= sizeof(freertos_EventOp_t),
               "EventOp's object, type and a padding byte are one aligned word (evrec_freertos_event_record_())");

void evrec_freertos_group_end(unsigned core, uint16_t object, uint32_t blocked, uint32_t timed_out)
{
    if (CORE_OK(core)) {
        evrec_freertos_group_end_(CORE_INDEX(core), object, blocked, timed_out);
    }
}

/* ---- software timers ---- */

uint16_t evrec_freertos_timer_create(const char *name)
{
    uint16_t timer = new_object(KIND_TIMER);
    if (name != NULL && name[0] != '\0') {
        evrec_freertos_object_name(timer, name);
    }
    return timer;
}

void evrec_freertos_timer_expired(unsigned core, uint16_t timer)
{
    if (CORE_OK(core)) {
        evrec_freertos_timer_expired_(CORE_INDEX(core), timer);
    }
}

/* ---- interrupts ---- */

void evrec_freertos_isr_enter(unsigned core, unsigned vector)
{
    if (CORE_OK(core)) {
        evrec_freertos_isr_(CORE_INDEX(core), vector, 0);
    }
}

void evrec_freertos_isr_exit(unsigned core, unsigned vector)
{
    if (CORE_OK(core)) {
        evrec_freertos_isr_(CORE_INDEX(core), vector, 1);
    }
}

/* ---- task notifications ---- */

_Static_assert(freertos_RtosNotifyOp_Give == 0 && freertos_RtosNotifyOp_Take == 1 &&
                   freertos_RtosNotifyOp_Block == 2 && freertos_RtosNotifyOp_Unblock == 3 &&
                   freertos_RtosNotifyOp_Timeout == 4,
               "RtosNotifyOp values (the EVREC_FREERTOS_NOTIFY_*_ macros)");
_Static_assert(offsetof(freertos_NotifyOp_t, giver) % 4u == 0u &&
                   offsetof(freertos_NotifyOp_t, type) == offsetof(freertos_NotifyOp_t, giver) + 2u &&
                   offsetof(freertos_NotifyOp_t, index) == offsetof(freertos_NotifyOp_t, giver) + 3u,
               "NotifyOp's giver, type and index are one aligned word (evrec_freertos_notify_record_())");

void evrec_freertos_notify(unsigned core, uint16_t task, uint32_t giver, uint32_t type, uint32_t index)
{
    if (CORE_OK(core)) {
        evrec_freertos_notify_(CORE_INDEX(core), task, giver, type, index);
    }
}

void evrec_freertos_notify_self(unsigned core, uint32_t type, uint32_t index)
{
    if (CORE_OK(core)) {
        evrec_freertos_notify_self_(CORE_INDEX(core), type, index);
    }
}
