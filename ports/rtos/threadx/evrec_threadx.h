/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_threadx.h
 * @brief ThreadX kernel trace hooks that record the evrec RTOS catalogue.
 *
 * Include it as the LAST line of the kernel's tx_user.h (built with TX_INCLUDE_USER_DEFINE_FILE):
 * @code
 * #define TX_THREAD_ENABLE_PERFORMANCE_INFO   // optional: the kernel's own counters
 * #include "evrec_threadx.h"
 * @endcode
 * It uses two mechanisms of the kernel, each for what it alone gives:
 *
 * - **The event-trace insert points** (TX_ENABLE_EVENT_TRACE, common/inc/tx_trace.h): every
 *   TX_TRACE_IN_LINE_INSERT() of the kernel records (inline, or through
 *   evrec_threadx_trace_insert()) instead of writing ThreadX's own trace buffer. They give thread create/delete/priority with the control
 *   block (so the thread's name), threads made ready (TX_TRACE_THREAD_RESUME) and suspended
 *   with the state they wait in (TX_TRACE_THREAD_SUSPEND: the object they block on), every
 *   queue, semaphore, mutex and event-flags call with its object, and tx_trace_isr_enter_insert()
 *   / tx_trace_isr_exit_insert(), the ISR entry points an application calls.
 * - **The execution-change notifications** (TX_ENABLE_EXECUTION_CHANGE_NOTIFY or
 *   TX_EXECUTION_PROFILE_ENABLE): the port's scheduler and its context save/restore call
 *   _tx_execution_thread_enter(), _tx_execution_thread_exit(), _tx_execution_isr_enter() and
 *   _tx_execution_isr_exit() exactly where a thread gets or leaves the CPU, which no trace insert
 *   point marks (ThreadX's TraceX infers the running thread from each event instead).
 *   evrec_threadx.c defines them (EVREC_THREADX_EXECUTION_NOTIFY). Ports written in C that do not
 *   call them (the Linux port) get them from evrec_threadx_linux.c.
 *
 * Ids: a thread's RtosTask value is kept in its control block (a field added through the
 * kernel's TX_THREAD_USER_EXTENSION, EVREC_THREADX_TASK_FIELD), an object's RtosObject value is
 * found from its control block's address in a fixed table; a name is the kernel's own pointer,
 * copied into a fixed table of evrec_threadx.c at delete (or at create: EVREC_THREADX_NAME_COPY).
 *
 * Checked against eclipse-threadx/threadx (common/, common_smp/, ports/linux/gnu,
 * ports_smp/linux/gnu), release 6.4.
 */
#ifndef EVREC_THREADX_H
#define EVREC_THREADX_H

#ifndef __ASSEMBLER__ /* tx_user.h is also included by the ports' assembly files */

#include <stddef.h>
#include <stdint.h>

/* The trace insert points are compiled only with event trace on; ThreadX's own trace buffer is
 * then not written (tx_trace_enable() need not be called). */
#ifndef TX_ENABLE_EVENT_TRACE
#define TX_ENABLE_EVENT_TRACE
#endif

/**
 * 1 (default): a thread's RtosTask value is kept in its control block, in a field added through
 * the kernel's TX_THREAD_USER_EXTENSION (tx_port.h defines it only when tx_user.h has not): one
 * load per lookup. An application that has its own extension adds ours to it, e.g.
 * `#define TX_THREAD_USER_EXTENSION MY_FIELDS EVREC_THREADX_THREAD_FIELDS` before this include.
 * 0: no field; the value is found from the control block's address in evrec_threadx.c's hash table
 * (a multiply and a probe, about 10 instructions more per lookup). The kernel, the application and
 * evrec_threadx.c must see the same value (it changes TX_THREAD): set it in tx_user.h.
 */
#ifndef EVREC_THREADX_TASK_FIELD
#define EVREC_THREADX_TASK_FIELD 1
#endif
/** The fields evrec adds to TX_THREAD (EVREC_THREADX_TASK_FIELD 1): its RtosTask value and the
 * type of its next TaskSwitchIn (evrec_threadx.c). */
#define EVREC_THREADX_THREAD_FIELDS                                                                               \
    uint16_t evrec_threadx_task;                                                                                  \
    uint8_t evrec_threadx_run;
#if EVREC_THREADX_TASK_FIELD && !defined(TX_THREAD_USER_EXTENSION)
#define TX_THREAD_USER_EXTENSION EVREC_THREADX_THREAD_FIELDS
#endif

/**
 * 1: the kernel's queue, semaphore, mutex and event-flags insert points record inline in the
 * kernel's code (no call: about 40 instructions less per operation on Cortex-M4); they then need
 * the generated `threadx_events.h` and the recorder's headers on the kernel's include path (in
 * CMake: link the kernel's library with the generated library). Single core only (the hooks read
 * _tx_thread_current_ptr; a build that expands them on SMP fails with a static assertion).
 * 0: those insert points call evrec_threadx_trace_insert(). Either way the insert points the
 * catalogue does not record compile to nothing (each passes a constant event number).
 * Default: 1 when `threadx_events.h` can be included and TX_THREAD_SMP_MAX_CORES is not defined
 * (the SMP ports define it before they include tx_user.h), else 0.
 */
#ifndef EVREC_THREADX_INLINE
#if defined(__has_include) && !defined(TX_THREAD_SMP_MAX_CORES)
#if __has_include("threadx_events.h")
#define EVREC_THREADX_INLINE 1
#endif
#endif
#endif
#ifndef EVREC_THREADX_INLINE
#define EVREC_THREADX_INLINE 0
#endif

/* The insert points evrec_threadx_trace_insert() records (creation, thread state, ISRs), and the
 * object calls, recorded inline with EVREC_THREADX_INLINE 1 (tx_trace.h's TX_TRACE_* numbers). */
#define EVREC_THREADX_CALLED_(i)                                                                                  \
    ((i) == TX_TRACE_ISR_ENTER || (i) == TX_TRACE_ISR_EXIT || (i) == TX_TRACE_THREAD_CREATE ||                    \
     (i) == TX_TRACE_THREAD_RESUME || (i) == TX_TRACE_THREAD_SUSPEND || (i) == TX_TRACE_THREAD_DELETE ||          \
     (i) == TX_TRACE_THREAD_PRIORITY_CHANGE || (i) == TX_TRACE_QUEUE_CREATE ||                                    \
     (i) == TX_TRACE_SEMAPHORE_CREATE || (i) == TX_TRACE_MUTEX_CREATE || (i) == TX_TRACE_EVENT_FLAGS_CREATE)
#define EVREC_THREADX_OBJECT_CALL_(i)                                                                             \
    ((i) == TX_TRACE_QUEUE_SEND || (i) == TX_TRACE_QUEUE_FRONT_SEND || (i) == TX_TRACE_QUEUE_RECEIVE ||           \
     (i) == TX_TRACE_SEMAPHORE_GET || (i) == TX_TRACE_SEMAPHORE_PUT || (i) == TX_TRACE_MUTEX_GET ||               \
     (i) == TX_TRACE_MUTEX_PUT || (i) == TX_TRACE_EVENT_FLAGS_SET || (i) == TX_TRACE_EVENT_FLAGS_GET)
/**
 * 0 (default): a thread's or object's name is kept as the kernel's own pointer (tx_thread_name,
 * tx_semaphore_name...: ThreadX keeps only the pointer, and tx_thread_info_get() hands it back
 * for the thread's lifetime), one store at create; the string is read when the file is saved.
 * At delete, a name that is not in read-only memory (EVREC_THREADX_NAME_IS_CONST()) is copied into
 * evrec's table (EVREC_THREADX_NAME_LEN bytes), so an application may free or reuse a deleted
 * thread's or object's name. A name rewritten while its thread or object lives is saved as it
 * reads at the save (or at the delete), as the kernel itself shows it.
 * 1: the name is copied at create (about 5 instructions per character more per create), for an
 * application that rewrites a name while its thread lives and wants the first text in the file.
 * Set it in tx_user.h: the kernel's insert points and evrec_threadx.c must see the same value.
 */
#ifndef EVREC_THREADX_NAME_COPY
#define EVREC_THREADX_NAME_COPY 0
#endif
/**
 * EVREC_THREADX_NAME_IS_CONST(name): 1 when `name` (a `const char *`) lies in memory that cannot
 * be rewritten or freed (string literals in flash): its delete copies nothing. Default on
 * Cortex-M: an address below 0x10000000 (the Code region of the ARMv7-M memory map holds the flash
 * of common parts; define it `0` when RAM is mapped there, e.g. an ITCM that holds data); elsewhere
 * 0 (every delete copies the name).
 */
#ifndef EVREC_THREADX_NAME_IS_CONST
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#define EVREC_THREADX_NAME_IS_CONST(name) ((uintptr_t)(name) < 0x10000000u)
#else
#define EVREC_THREADX_NAME_IS_CONST(name) 0
#endif
#endif

/* The creates and deletes, each a direct call (no dispatch on the event number): the kernel's
 * control block is complete where the insert points expand. A delete whose name needs no copy
 * (EVREC_THREADX_NAME_COPY 1, or a constant name) costs a load and a compare. */
#define EVREC_THREADX_CREATE_OR_DELETE_(i)                                                                        \
    ((i) == TX_TRACE_THREAD_CREATE || (i) == TX_TRACE_THREAD_DELETE || (i) == TX_TRACE_QUEUE_CREATE ||            \
     (i) == TX_TRACE_SEMAPHORE_CREATE || (i) == TX_TRACE_MUTEX_CREATE || (i) == TX_TRACE_EVENT_FLAGS_CREATE ||    \
     (i) == TX_TRACE_QUEUE_DELETE || (i) == TX_TRACE_SEMAPHORE_DELETE || (i) == TX_TRACE_MUTEX_DELETE ||          \
     (i) == TX_TRACE_EVENT_FLAGS_DELETE)
#define EVREC_THREADX_OBJECT_DELETE_(a, name)                                                                     \
    {                                                                                                             \
        const char *evrec_name_ = (name);                                                                         \
        if (!EVREC_THREADX_NAME_COPY && !EVREC_THREADX_NAME_IS_CONST(evrec_name_)) {                              \
            evrec_threadx_object_delete((const void *)(a), evrec_name_);                                          \
        }                                                                                                         \
    }
#define EVREC_THREADX_CREATE_DELETE_(i, a, b)                                                                     \
    {                                                                                                             \
        if ((i) == TX_TRACE_THREAD_CREATE) {                                                                      \
            EVREC_THREADX_THREAD_CREATE_(a, b);                                                                   \
        } else if ((i) == TX_TRACE_THREAD_DELETE) {                                                               \
            evrec_threadx_thread_delete((uintptr_t)(a));                                                          \
        } else if ((i) == TX_TRACE_QUEUE_CREATE) {                                                                \
            EVREC_THREADX_OBJECT_CREATE_(evrec_threadx_address_(a), EVREC_THREADX_KIND_QUEUE,                     \
                                         ((const TX_QUEUE *)evrec_threadx_address_(a))->tx_queue_name);           \
        } else if ((i) == TX_TRACE_SEMAPHORE_CREATE) {                                                            \
            EVREC_THREADX_OBJECT_CREATE_(evrec_threadx_address_(a), EVREC_THREADX_KIND_SEM,                       \
                                         ((const TX_SEMAPHORE *)evrec_threadx_address_(a))->tx_semaphore_name);   \
        } else if ((i) == TX_TRACE_MUTEX_CREATE) {                                                                \
            EVREC_THREADX_OBJECT_CREATE_(evrec_threadx_address_(a), EVREC_THREADX_KIND_MUTEX,                     \
                                         ((const TX_MUTEX *)evrec_threadx_address_(a))->tx_mutex_name);           \
        } else if ((i) == TX_TRACE_EVENT_FLAGS_CREATE) {                                                          \
            EVREC_THREADX_OBJECT_CREATE_(                                                                         \
                evrec_threadx_address_(a), EVREC_THREADX_KIND_FLAGS,                                              \
                ((const TX_EVENT_FLAGS_GROUP *)evrec_threadx_address_(a))->tx_event_flags_group_name);            \
        } else if ((i) == TX_TRACE_QUEUE_DELETE) {                                                                \
            EVREC_THREADX_OBJECT_DELETE_(a, ((const TX_QUEUE *)evrec_threadx_address_(a))->tx_queue_name);        \
        } else if ((i) == TX_TRACE_SEMAPHORE_DELETE) {                                                            \
            EVREC_THREADX_OBJECT_DELETE_(a,                                                                       \
                                         ((const TX_SEMAPHORE *)evrec_threadx_address_(a))->tx_semaphore_name);   \
        } else if ((i) == TX_TRACE_MUTEX_DELETE) {                                                                \
            EVREC_THREADX_OBJECT_DELETE_(a, ((const TX_MUTEX *)evrec_threadx_address_(a))->tx_mutex_name);        \
        } else {                                                                                                  \
            EVREC_THREADX_OBJECT_DELETE_(                                                                         \
                a, ((const TX_EVENT_FLAGS_GROUP *)evrec_threadx_address_(a))->tx_event_flags_group_name);         \
        }                                                                                                         \
    }

/* The pool and timer insert points: creation and deletion (names; a timer's expiration function
 * wrapped) out of line, the allocations and releases inline with EVREC_THREADX_INLINE 1. */
#define EVREC_THREADX_POOL_CALLED_(i)                                                                             \
    ((i) == TX_TRACE_BLOCK_POOL_CREATE || (i) == TX_TRACE_BYTE_POOL_CREATE || (i) == TX_TRACE_TIMER_CREATE ||     \
     (i) == TX_TRACE_TIMER_DELETE || (i) == TX_TRACE_BLOCK_POOL_DELETE || (i) == TX_TRACE_BYTE_POOL_DELETE)
#define EVREC_THREADX_POOL_CALL_(i)                                                                               \
    ((i) == TX_TRACE_BLOCK_ALLOCATE || (i) == TX_TRACE_BLOCK_RELEASE || (i) == TX_TRACE_BYTE_RELEASE)
#if defined(__GNUC__)
#define EVREC_THREADX_CONSTANT_(i) __builtin_constant_p(i)
#else
#define EVREC_THREADX_CONSTANT_(i) 0 /* every insert point calls evrec_threadx_trace_insert() */
#endif
#define EVREC_THREADX_CALL_(i, a, b, c, d)                                                                        \
    evrec_threadx_trace_insert((uint32_t)(i), (uintptr_t)(a), (uintptr_t)(b), (uintptr_t)(c), (uintptr_t)(d))

/** Every TX_TRACE_IN_LINE_INSERT(event, info1..info4, filter) of the kernel. Each insert point
 * passes a constant event number, so the choice below is made by the compiler: an event the
 * catalogue does not record costs nothing, an object call records inline (EVREC_THREADX_INLINE),
 * the others call evrec_threadx_trace_insert(). The filter is not used. */
#if EVREC_THREADX_INLINE
#define TX_TRACE_IN_LINE_INSERT(i, a, b, c, d, e)                                                                 \
    {                                                                                                             \
        if (!EVREC_THREADX_CONSTANT_(i)) {                                                                        \
            EVREC_THREADX_CALL_(i, a, b, c, d);                                                                   \
        } else if (EVREC_THREADX_CREATE_OR_DELETE_(i)) {                                                          \
            EVREC_THREADX_CREATE_DELETE_(i, (uintptr_t)(a), (uintptr_t)(b));                                      \
        } else if (EVREC_THREADX_CALLED_(i)) {                                                                    \
            EVREC_THREADX_CALL_(i, a, b, c, d);                                                                   \
        } else if (EVREC_THREADX_POOL_CALLED_(i)) {                                                               \
            evrec_threadx_pool_insert((uint32_t)(i), (uintptr_t)(a), (uintptr_t)(d));                             \
        } else if (EVREC_THREADX_OBJECT_CALL_(i)) {                                                               \
            EVREC_THREADX_OBJECT_INLINE_((i), (uintptr_t)(a), (uintptr_t)(b), (uintptr_t)(c), (uintptr_t)(d));    \
        } else if (EVREC_THREADX_POOL_CALL_(i)) {                                                                 \
            EVREC_THREADX_POOL_INLINE_((i), (uintptr_t)(a), (uintptr_t)(d));                                      \
        }                                                                                                         \
    }
#else
#define TX_TRACE_IN_LINE_INSERT(i, a, b, c, d, e)                                                                 \
    {                                                                                                             \
        if (!EVREC_THREADX_CONSTANT_(i)) {                                                                        \
            EVREC_THREADX_CALL_(i, a, b, c, d);                                                                   \
        } else if (EVREC_THREADX_CREATE_OR_DELETE_(i)) {                                                          \
            EVREC_THREADX_CREATE_DELETE_(i, (uintptr_t)(a), (uintptr_t)(b));                                      \
        } else if (EVREC_THREADX_CALLED_(i) || EVREC_THREADX_OBJECT_CALL_(i)) {                                   \
            EVREC_THREADX_CALL_(i, a, b, c, d);                                                                   \
        } else if (EVREC_THREADX_POOL_CALLED_(i) || EVREC_THREADX_POOL_CALL_(i)) {                                \
            evrec_threadx_pool_insert((uint32_t)(i), (uintptr_t)(a), (uintptr_t)(d));                             \
        }                                                                                                         \
    }
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct evrec_host;

/**
 * @brief Attach the trace hooks to recording hosts, one per core, and reset the id tables.
 * @param[in] hosts `cores` hosts (e.g. `&host`, or evrec_lane_host_at() of each lane); the array
 * and the hosts stay owned by the caller and must outlive the kernel's use of the hooks. A host
 * may be started and stopped at will; the hooks record nothing while it is stopped.
 * @param cores number of hosts: 1, or TX_THREAD_SMP_MAX_CORES on SMP
 * (1..EVREC_THREADX_MAX_CORES, the value evrec_threadx.c was compiled with).
 * @retval 0 (EVREC_OK) attached.
 * @retval EVREC_E_ARG hosts is NULL, cores is 0 or above EVREC_THREADX_MAX_CORES.
 * @retval other the status of threadx_runtime_init() (the run-time names could not be reset).
 * @pre Before tx_kernel_enter(): the kernel creates its timer thread there, and ids are given at
 * creation. Calls threadx_runtime_init().
 * **Context:** thread, before the kernel starts; not thread-safe.
 */
int evrec_threadx_init(struct evrec_host *const *hosts, unsigned cores);

/**
 * @brief Name the interrupt with number `isr_id` (the IsrEnter `isr` field of its records).
 * @param isr_id the ISR number given to tx_trace_isr_enter_insert(), or the one
 * EVREC_THREADX_ISR_ID() gives (< EVREC_THREADX_ISR_IDS).
 * @param[in] name NUL-terminated, kept alive by the caller until the trace is saved.
 * @retval 0 named.
 * @retval EVREC_E_ARG isr_id out of range or name NULL.
 * @retval EVREC_E_EXHAUSTED the RtosIsr names (63) are used up.
 * **Context:** thread; not concurrently with itself.
 */
int evrec_threadx_isr_name(unsigned isr_id, const char *name);

/**
 * @brief One kernel trace insert point (TX_TRACE_IN_LINE_INSERT): records what the catalogue
 * needs of it. Not for direct use.
 * @param event TX_TRACE_* event id (common/inc/tx_trace.h); info1..info4 as listed there.
 * **Context:** any (kernel code, interrupts disabled or the SMP protection held).
 */
void evrec_threadx_trace_insert(uint32_t event, uintptr_t info1, uintptr_t info2, uintptr_t info3,
                                uintptr_t info4);

/**
 * @brief The thread in _tx_thread_current_ptr got the CPU: TaskSwitchIn (after IdleWake if the
 * CPU was idle). What _tx_execution_thread_enter() records.
 * **Context:** the port's scheduler, interrupts disabled, after the current pointer is set.
 */
void evrec_threadx_thread_enter(void);

/**
 * @brief The current thread gives up the CPU: TaskSwitchOut with the reason read from its
 * state, then IdleSleep when no thread is ready. What _tx_execution_thread_exit() records. The
 * thread is the one the records switched in on the calling core (the current thread: call it
 * before the current pointer changes); nothing when none is (no TaskSwitchIn since the last
 * TaskSwitchOut, or the core idle).
 * **Context:** the thread, in _tx_thread_system_return(), interrupts disabled.
 */
void evrec_threadx_thread_exit(void);

/**
 * @brief Bring the switch records up to the kernel's current pointers, on every core: the
 * TaskSwitchOut of a thread that left a core and the TaskSwitchIn of the one now on it. For ports
 * whose scheduler has no per-core notification (the Linux SMP port's single scheduler pthread
 * sets _tx_thread_current_ptr[core] for each virtual core); evrec_threadx_linux.c calls it.
 * **Context:** the port's scheduler, with the kernel's lock held.
 */
void evrec_threadx_scheduler_sync(void);

/**
 * @brief An interrupt handler starts: IsrEnter(isr_id).
 * @param isr_id interrupt number (IsrEnter.vector); its name is set by evrec_threadx_isr_name().
 * **Context:** the handler, after _tx_thread_context_save().
 */
void evrec_threadx_isr_enter(unsigned isr_id);

/**
 * @brief The handler returns: IsrExit(isr_id); on the outermost one, TaskSwitchOut(Preempted)
 * of the interrupted thread when the handler made another thread run, IdleWake when it made a
 * thread ready on an idle CPU.
 * @param isr_id as given to evrec_threadx_isr_enter().
 * **Context:** the handler, before _tx_thread_context_restore().
 */
void evrec_threadx_isr_exit(unsigned isr_id);

/**
 * @brief Interrupts disabled or restored (IntControl, the catalogue's types 7/8/39/40), when
 * built with EVREC_THREADX_INT_CONTROL 1; nothing otherwise.
 * @param type 7, 8, 39 or 40 (RtosIntControl).
 * @param caller return address of the disable/restore call.
 * **Context:** any.
 */
void evrec_threadx_int_control(uint8_t type, uintptr_t caller);

/** The object kinds of evrec_threadx_object_create(). */
#define EVREC_THREADX_KIND_QUEUE 1
#define EVREC_THREADX_KIND_SEM 2
#define EVREC_THREADX_KIND_MUTEX 3
#define EVREC_THREADX_KIND_FLAGS 4

/**
 * @brief A thread was created (TX_TRACE_THREAD_CREATE): its RtosTask value, named by its
 * tx_thread_name (EVREC_THREADX_NAME_COPY), and TaskCreate. Not for direct use.
 * @param thread its TX_THREAD; @param priority its priority.
 * **Context:** tx_thread_create(), in the kernel's critical section.
 */
void evrec_threadx_thread_create(uintptr_t thread, uintptr_t priority);
/**
 * @brief A thread is deleted (TX_TRACE_THREAD_DELETE): TaskDelete, and its name copied unless it
 * needs no copy (EVREC_THREADX_NAME_COPY, EVREC_THREADX_NAME_IS_CONST()). Not for direct use.
 * @param thread its TX_THREAD.
 * **Context:** tx_thread_delete(), in the kernel's critical section.
 */
void evrec_threadx_thread_delete(uintptr_t thread);
/**
 * @brief An object was created: its RtosObject value, named by `name`. Not for direct use.
 * @param[in] object its control block; @param kind EVREC_THREADX_KIND_*; @param[in] name the
 * kernel's name pointer (NULL: "").
 * **Context:** the kernel's create call, in its critical section.
 */
void evrec_threadx_object_create(const void *object, int kind, const char *name);
/**
 * @brief An object whose name is not constant is deleted: its name is copied (its value keeps it
 * after the application frees it). Not for direct use.
 * @param[in] object its control block; @param[in] name its name (the kernel's pointer).
 * **Context:** the kernel's delete call, in its critical section.
 */
void evrec_threadx_object_delete(const void *object, const char *name);

/* info1 as the control block it is (a call, so that the branches of another event's insert
 * point, which the compiler drops, do not read as type punning). */
static inline const void *evrec_threadx_address_(uintptr_t info)
{
    return (const void *)info;
}
/**
 * @brief A block pool, byte pool or application timer insert point (TX_TRACE_BLOCK_*,
 * TX_TRACE_BYTE_*, TX_TRACE_TIMER_CREATE/DELETE): records what the catalogue needs of it (see
 * evrec_threadx_trace_insert(), which also takes them). Not for direct use.
 * @param event TX_TRACE_* event id; info1 (the pool or timer) and info4 as tx_trace.h lists them.
 * @retval 1 the event was one of those.
 * @retval 0 another event: nothing recorded.
 * **Context:** any (kernel code, interrupts disabled or the SMP protection held).
 */
int evrec_threadx_pool_insert(uint32_t event, uintptr_t info1, uintptr_t info4);

/**
 * @brief A byte pool allocation succeeded: PoolOp(Allocate) by the calling thread. What
 * EVREC_THREADX_BYTE_ALLOCATE_EXTENSION calls with EVREC_THREADX_INLINE 0. Not for direct use.
 * @param[in] pool the TX_BYTE_POOL control block (not kept).
 * **Context:** the allocating thread, in tx_byte_allocate(), interrupts disabled (or the SMP
 * protection held).
 */
void evrec_threadx_byte_allocated(const void *pool);

/**
 * The kernel's TX_BYTE_ALLOCATE_EXTENSION (common/inc/tx_api.h: empty unless a port or tx_user.h
 * defines it), expanded in tx_byte_allocate() after each search of the pool with interrupts
 * enabled: a successful search (its local `work_ptr` not NULL, the pool `pool_ptr`) is the
 * allocation, which the kernel's insert point, at the call's start, cannot tell. Recorded with
 * interrupts disabled through the function's own TX_DISABLE/TX_RESTORE. An application with its
 * own extension composes the two: `#define TX_BYTE_ALLOCATE_EXTENSION MY_CODE
 * EVREC_THREADX_BYTE_ALLOCATE_EXTENSION` before this include.
 */
#define EVREC_THREADX_BYTE_ALLOCATE_EXTENSION                                                                     \
    if (work_ptr != TX_NULL) {                                                                                    \
        TX_DISABLE                                                                                                \
        EVREC_THREADX_BYTE_ALLOCATED_(pool_ptr);                                                                  \
        TX_RESTORE                                                                                                \
    }
#ifndef TX_BYTE_ALLOCATE_EXTENSION
#define TX_BYTE_ALLOCATE_EXTENSION EVREC_THREADX_BYTE_ALLOCATE_EXTENSION
#endif
#if EVREC_THREADX_INLINE
#define EVREC_THREADX_BYTE_ALLOCATED_(p)                                                                          \
    EVREC_THREADX_THREAD_OP_(p, threadx_ID_PoolOp, threadx_RtosPoolOp_Allocate)
#else
#define EVREC_THREADX_BYTE_ALLOCATED_(p) evrec_threadx_byte_allocated(p)
#endif

/* ---- the state the inline hooks read (defined in evrec_threadx.c). Not for direct use. ---- */

/** Per core: its host (NULL: record nothing), the thread switched in and not out (per the
 * records; evrec_threadx.c's IDLE_MARK while IdleSleep was recorded without its IdleWake), the
 * TaskSwitchOut event id (a constant: with `task` after it, the header word of the core's next
 * TaskSwitchOut, one load) and the RtosTask value of the thread last switched in (NoTask before
 * the first). */
struct evrec_threadx_core {
    struct evrec_host *host;
    const void *running;
    uint16_t switch_out_id;
    uint16_t task;
};

/** The control-block address -> id table: 256 slots, open addressing. An object's value is its
 * RtosObject value (1..127); a thread's (EVREC_THREADX_TASK_FIELD 0) its RtosTask value with
 * bit 15 set. */
#define EVREC_THREADX_MAP_SLOTS 256u
#define EVREC_THREADX_MAP_TASK 0x8000u
struct evrec_threadx_map_slot {
    const void *key;
    uint16_t value;
};
/** Core 0's state and the table in one object: the inline hooks reach both from one address. The
 * other cores' states are evrec_threadx.c's. */
struct evrec_threadx_shared {
    struct evrec_threadx_map_slot map[EVREC_THREADX_MAP_SLOTS]; /* first: a slot's offset is its address bits */
    struct evrec_threadx_core core0;
};
extern struct evrec_threadx_shared evrec_threadx_shared;
#define evrec_threadx_map (evrec_threadx_shared.map)
/** The value of `key` by a full probe of the table, 0 when it is not there. */
uint16_t evrec_threadx_map_find(const void *key);
/** `key` gets `value` in the table: its probe sequence's slot that is free or its own. Creation
 * only (the kernel's critical section). */
void evrec_threadx_map_put(const void *key, uint16_t value);
/** Per RtosObject value (1..EVREC_THREADX_OBJECT_SLOTS): its kind, EVREC_THREADX_KIND_*. */
#define EVREC_THREADX_OBJECT_SLOTS 127u
/** RtosTask values given at run time: 1..EVREC_THREADX_TASK_SLOTS. */
#define EVREC_THREADX_TASK_SLOTS 63u
extern uint8_t evrec_threadx_object_kind[EVREC_THREADX_OBJECT_SLOTS + 1u];

/* The first slot of `key`'s probe sequence: address bits 3..10, one instruction (UBFX). A
 * control block is 8-byte aligned in practice and at least 28 bytes long, so the blocks within
 * any 2 KiB of memory (an application's objects, declared together) get different slots; blocks
 * farther apart that share bits 3..10 take the next free slots (a probe out of line). */
static inline uint32_t evrec_threadx_map_slot_(const void *key)
{
    return (uint32_t)((uintptr_t)key >> 3) & (EVREC_THREADX_MAP_SLOTS - 1u);
}

/* An object's RtosObject value, 1..127, or 0 when it is not known: the common case (the object
 * in its first slot) is one probe, inline; the rest of the probe is a call. */
static inline uint16_t evrec_threadx_object_(const void *object)
{
    const struct evrec_threadx_map_slot *slot = &evrec_threadx_map[evrec_threadx_map_slot_(object)];
    uint16_t v = slot->key == object ? slot->value : evrec_threadx_map_find(object);
#if EVREC_THREADX_TASK_FIELD
    return v; /* only objects are in the table */
#else
    return (v & EVREC_THREADX_MAP_TASK) == 0u ? v : 0u;
#endif
}

#ifdef __cplusplus
}
#endif

#if EVREC_THREADX_INLINE || defined(EVREC_THREADX_SOURCE_)
/* ---- the object calls' record path, inline (also used by evrec_threadx.c) ---- */
#include "threadx_events.h"

/**
 * 1 (default on a Cortex-M kernel whose critical sections mask every interrupt with PRIMASK,
 * i.e. without TX_PORT_USE_BASEPRI): the inline object calls allocate their record with a plain
 * load and store of the host's position in one-shot mode, not an atomic read-modify-write: the
 * kernel's insert points run with interrupts disabled on one core, and a context that was inside
 * its own LDREX/STREX sees its STREX fail (an exception entry or return clears the local monitor:
 * ARMv7-M Architecture Reference Manual A3.4.4; Cortex-M4 Devices Generic User Guide, "LDREX and
 * STREX": the exclusive access tag is removed when an exception occurs) and retries. About 9 instructions less per record. Not for a port where a
 * handler that records can run inside the kernel's critical sections (BASEPRI masking, a
 * recording NMI handler): set it 0 there. Cyclic and streaming hosts, a full buffer and a stopped
 * host always take evrec_reserve() (out of line).
 */
#ifndef EVREC_THREADX_IRQOFF_RESERVE
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M' && !defined(TX_PORT_USE_BASEPRI)
#define EVREC_THREADX_IRQOFF_RESERVE 1
#else
#define EVREC_THREADX_IRQOFF_RESERVE 0
#endif
#endif

/* An object create inline: the next RtosObject value with a plain load and store (creation runs
 * in the kernel's critical section, interrupts disabled on one core, and only the creates
 * allocate these values), its name the kernel's pointer, its kind, its table slot (the first
 * slot of its probe when free or its own, else evrec_threadx_map_put()). Used when names are
 * kept as pointers (EVREC_THREADX_NAME_COPY 0) and EVREC_THREADX_IRQOFF_RESERVE is 1; else the
 * creates call evrec_threadx_object_create(). */
#define EVREC_THREADX_OBJECT_FAST_ (!EVREC_THREADX_NAME_COPY && EVREC_THREADX_IRQOFF_RESERVE)
#if EVREC_THREADX_OBJECT_FAST_
static EVREC_ALWAYS_INLINE void evrec_threadx_object_create_(const void *object, int kind, const char *name)
{
    uint32_t v = (uint32_t)EVREC_LOAD_RELAXED(&threadx_RtosObject_runtime.next);
    uint32_t i = v - 1u; /* names[i] names value v */
    if (__builtin_expect(i < EVREC_THREADX_OBJECT_SLOTS, 1)) {
        threadx_RtosObject_runtime_names[i] = name != (const char *)0 ? name : "";
        EVREC_STORE_RELAXED(&threadx_RtosObject_runtime.next, (size_t)v + 1u);
        evrec_threadx_object_kind[v] = (uint8_t)kind;
        struct evrec_threadx_map_slot *slot = &evrec_threadx_map[evrec_threadx_map_slot_(object)];
        if (__builtin_expect(slot->key == (const void *)0 || slot->key == object, 1)) {
            slot->value = (uint16_t)v;
            slot->key = object;
        } else {
            evrec_threadx_map_put(object, (uint16_t)v);
        }
    }
}
/* An object's create in the kernel's insert point (EVREC_THREADX_CREATE_DELETE_): inline. */
#define EVREC_THREADX_OBJECT_CREATE_(o, kind, name) evrec_threadx_object_create_((o), (kind), (name))
#endif

/* A TaskCreate or TaskDelete (12 bytes: the task at bytes 6..7, the priority at 8..9) through
 * `h`, in the kernel's critical section with EVREC_THREADX_IRQOFF_RESERVE 1: interrupts are
 * disabled on one core from the reservation to the last store, so nothing can see the record
 * before it is whole and the header takes the final id at once (no provisional id and commit).
 * Cyclic and streaming hosts, a full buffer: evrec_threadx_task_record_slow(), out of line. */
void evrec_threadx_task_record_slow(struct evrec_host *h, uint16_t event_id, uint16_t task, uint16_t priority);
#if EVREC_THREADX_IRQOFF_RESERVE && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define EVREC_THREADX_TASK_RECORD_FAST_ 1
static EVREC_ALWAYS_INLINE void evrec_threadx_task_record_(struct evrec_host *h, uint16_t event_id, uint16_t task,
                                                           uint32_t priority) /* its low 16 bits */
{
    size_t seen = EVREC_LOAD_RELAXED(&h->pos);
    size_t end = seen + 12u;
    if (__builtin_expect(EVREC_LOAD_RELAXED(&h->block_mask) != 0u || end > EVREC_LOAD_RELAXED(&h->cap), 0)) {
        evrec_threadx_task_record_slow(h, event_id, task, (uint16_t)priority);
        return;
    }
    uint32_t t = EVREC_PORT_TIMESTAMP();
    EVREC_STORE_RELAXED(&h->pos, end);
    uint8_t *e = EVREC_LOAD_RELAXED(&h->buf) + seen;
    typedef uint64_t __attribute__((aligned(4), may_alias)) evrec_threadx_u64_;
    typedef uint16_t __attribute__((may_alias)) evrec_threadx_u16_;
    *(evrec_threadx_u64_ *)(void *)e = (uint64_t)t | (uint64_t)event_id << 32 | (uint64_t)task << 48;
    *(evrec_threadx_u16_ *)(void *)(e + 8) = (uint16_t)priority; /* one STRH: no UXTH before it */
}
#endif

/* A thread's create inline in the kernel's insert point (EVREC_THREADX_TASK_FIELD 1, names as
 * pointers, EVREC_THREADX_IRQOFF_RESERVE 1: no call, no frame): the next RtosTask value with a
 * plain load and store (as the objects' above), its name the kernel's pointer, the value and the
 * Start run byte into the thread's control block (`fields`: its evrec_threadx_task, then
 * evrec_threadx_run; one word store when `word` says the pair starts on a word boundary: the byte
 * after evrec_threadx_run is the padding at the end of TX_THREAD), TaskCreate. */
#if EVREC_THREADX_OBJECT_FAST_ && EVREC_THREADX_TASK_FIELD && EVREC_THREADX_INLINE &&                             \
    defined(EVREC_THREADX_TASK_RECORD_FAST_)
static EVREC_ALWAYS_INLINE void evrec_threadx_thread_create_(uint16_t *fields, int word, const char *name,
                                                             uint32_t priority)
{
    uint32_t v = (uint32_t)EVREC_LOAD_RELAXED(&threadx_RtosTask_runtime.next);
    uint32_t i = v - 1u; /* names[i] names value v */
    if (__builtin_expect(i < EVREC_THREADX_TASK_SLOTS, 1)) {
        if (__builtin_expect(name == (const char *)0, 0)) {
            __asm__ volatile(""); /* a branch out of the way (one CBZ), not a conditional move */
            name = "";
        }
        threadx_RtosTask_runtime_names[i] = name;
        EVREC_STORE_RELAXED(&threadx_RtosTask_runtime.next, (size_t)v + 1u);
    } else {
        v = (uint32_t)threadx_RtosTask_NoTask; /* the names ran out */
    }
    if (word) {
        typedef uint32_t __attribute__((may_alias)) evrec_threadx_u32_;
        *(evrec_threadx_u32_ *)(void *)fields = v | (uint32_t)threadx_RtosResume_Start << 16;
    } else {
        fields[0] = (uint16_t)v;
        ((uint8_t *)(void *)fields)[2] = (uint8_t)threadx_RtosResume_Start;
    }
    struct evrec_host *h = evrec_threadx_shared.core0.host;
    if (h != (struct evrec_host *)0) {
        evrec_threadx_task_record_(h, threadx_ID_TaskCreate, (uint16_t)v, priority);
    }
}
#define EVREC_THREADX_THREAD_CREATE_(a, b)                                                                        \
    evrec_threadx_thread_create_(&((TX_THREAD *)(a))->evrec_threadx_task,                                         \
                                 __builtin_offsetof(TX_THREAD, evrec_threadx_task) % 4u == 0u &&                  \
                                     __builtin_offsetof(TX_THREAD, evrec_threadx_run) ==                          \
                                         __builtin_offsetof(TX_THREAD, evrec_threadx_task) + 2u &&                \
                                     sizeof(TX_THREAD) == __builtin_offsetof(TX_THREAD, evrec_threadx_task) + 4u, \
                                 ((TX_THREAD *)(a))->tx_thread_name, (uint32_t)(b))
#endif

/* A 12-byte slot through `h` with the task field (bytes 6..7) written: evrec_reserve(), out of
 * line (evrec_threadx.c): the object calls' rare paths. */
void *evrec_threadx_reserve12_slow(struct evrec_host *h, uint16_t task);
/* An object call of an object whose control block is not in its first table slot: the full
 * probe and the record, out of line (evrec_threadx.c). `event_op`: the event id | the op << 16. */
void evrec_threadx_object_op_slow(struct evrec_host *h, const void *object, uint16_t task, uint32_t event_op);

/* A 12-byte record's slot through `h` (the object calls, kernel critical section), its task field
 * (bytes 6..7) written: as evrec_reserve(); with EVREC_THREADX_IRQOFF_RESERVE 1 a plain load and
 * store of the position in one-shot mode while the record fits (a one-shot ring mask is all
 * ones: no masking), the time, provisional id and task in one 8-byte store. */
static EVREC_ALWAYS_INLINE void *evrec_threadx_reserve12_(struct evrec_host *h, uint16_t task)
{
#if EVREC_THREADX_IRQOFF_RESERVE && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* relaxed: on one core with interrupts disabled nothing writes the host meanwhile (a start
     * or stop is a thread's, before or after this critical section) */
    size_t seen = EVREC_LOAD_RELAXED(&h->pos);
    size_t end = seen + 12u;
    if (__builtin_expect(EVREC_LOAD_RELAXED(&h->block_mask) != 0u || end > EVREC_LOAD_RELAXED(&h->cap), 0)) {
        return evrec_threadx_reserve12_slow(h, task);
    }
    uint32_t t = EVREC_PORT_TIMESTAMP();
    EVREC_STORE_RELAXED(&h->pos, end);
    void *r = EVREC_LOAD_RELAXED(&h->buf) + seen;
    /* a slot is 4-byte aligned: the 8-byte store is one STRD (a type that may alias, as memcpy) */
    typedef uint64_t __attribute__((aligned(4), may_alias)) evrec_threadx_u64_;
    *(evrec_threadx_u64_ *)r = (uint64_t)t | (uint64_t)EVREC_ID_PROVISIONAL(12u) << 32 | (uint64_t)task << 48;
    return r;
#else
    return evrec_threadx_reserve12_slow(h, task);
#endif
}

/* Write one queue, semaphore, mutex or event-flags operation (QueueOp, SemOp, MutexOp, EventOp:
 * one layout, evrec_threadx.c checks) by `task` through `h`: `object_type` is the object's
 * value | the op << 16 (bytes 8..11 of the record, one store). */
static EVREC_ALWAYS_INLINE void evrec_threadx_op_record_(struct evrec_host *h, uint16_t task, uint16_t event_id,
                                                         uint32_t object_type)
{
    threadx_QueueOp_t *e = (threadx_QueueOp_t *)evrec_threadx_reserve12_(h, task);
    if (e != (threadx_QueueOp_t *)0) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        /* object, type and the padding byte in one aligned store (checked in evrec_threadx.c) */
        __builtin_memcpy(&e->object, &object_type, sizeof object_type);
#else
        e->object = (uint16_t)object_type;
        e->type = (uint8_t)(object_type >> 16);
#endif
        evrec_commit(e, event_id);
    }
}

/* One operation `op` of the object with control block `object`, by `task`, through `h`; nothing
 * when `h` is NULL or the object is not known. The common case, the object in its first table
 * slot, is one probe and the record inline; the rest is a call. */
static EVREC_ALWAYS_INLINE void evrec_threadx_object_op_(struct evrec_host *h, uint16_t task, uint16_t event_id,
                                                         const void *object, uint8_t op)
{
    if (h == (struct evrec_host *)0) {
        return;
    }
    const struct evrec_threadx_map_slot *slot = &evrec_threadx_map[evrec_threadx_map_slot_(object)];
    if (__builtin_expect(slot->key == object, 1)) {
        /* a slot holds an object (1..127) or, without the task field, a thread (bit 15): the
         * inline insert points get objects only, a thread's control block is no object's */
        evrec_threadx_op_record_(h, task, event_id, (uint32_t)slot->value | (uint32_t)op << 16);
    } else {
        evrec_threadx_object_op_slow(h, object, task, (uint32_t)event_id | (uint32_t)op << 16);
    }
}

/* The inline insert points (single core): the calling thread is the one the records switched
 * in on core 0 when `in_thread` (the kernel's TX_THREAD_GET_SYSTEM_STATE() is 0: on Cortex-M
 * its own state or'ed with the IPSR), else NoTask (an interrupt handler, the initialisation). */
static EVREC_ALWAYS_INLINE void evrec_threadx_op_inline_(uint16_t event_id, const void *object, uint8_t op,
                                                         int in_thread)
{
    const struct evrec_threadx_core *c = &evrec_threadx_shared.core0;
    evrec_threadx_object_op_(c->host, in_thread ? c->task : (uint16_t)threadx_RtosTask_NoTask, event_id, object,
                             op);
}
/* TX_TRACE_MUTEX_GET: Lock when the mutex is free or the calling thread owns it. */
static EVREC_ALWAYS_INLINE void evrec_threadx_mutex_get_(const void *mutex, uintptr_t owner, int in_thread)
{
    const struct evrec_threadx_core *c = &evrec_threadx_shared.core0;
    if (owner == 0u || (in_thread && owner == (uintptr_t)c->running)) {
        evrec_threadx_object_op_(c->host, in_thread ? c->task : (uint16_t)threadx_RtosTask_NoTask,
                                 threadx_ID_MutexOp, mutex, threadx_RtosMutexOp_Lock);
    }
}

/* The RtosTask value of thread control block `t` (NULL: NoTask); expanded where TX_THREAD is
 * complete (the kernel's sources, evrec_threadx.c). */
#if EVREC_THREADX_TASK_FIELD
#define EVREC_THREADX_TASK_OF_(t)                                                                                 \
    ((t) != (TX_THREAD *)0 ? (uint16_t)(t)->evrec_threadx_task : (uint16_t)threadx_RtosTask_NoTask)
#else
uint16_t evrec_threadx_task_of_address(const void *thread);
#define EVREC_THREADX_TASK_OF_(t) evrec_threadx_task_of_address(t)
#endif

/* The caller is a thread: the kernel's TX_THREAD_GET_SYSTEM_STATE() is 0. On Cortex-M that is the
 * IPSR or'ed with _tx_thread_system_state, which only the initialisation sets, and then the
 * calling thread's value is NoTask anyway (no thread was switched in yet): the IPSR alone. */
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M' && defined(__GNUC__)
static EVREC_ALWAYS_INLINE uint32_t evrec_threadx_ipsr_(void)
{
    uint32_t r;
    __asm__ volatile("mrs %0, ipsr" : "=r"(r));
    return r;
}
#define EVREC_THREADX_IN_THREAD_() (evrec_threadx_ipsr_() == 0u)
#else
#define EVREC_THREADX_IN_THREAD_() (TX_THREAD_GET_SYSTEM_STATE() == 0u)
#endif
#define EVREC_THREADX_OP_(a, id, op)                                                                              \
    evrec_threadx_op_inline_((uint16_t)(id), (const void *)(a), (uint8_t)(op), EVREC_THREADX_IN_THREAD_())
/* A service the kernel allows from threads and the initialisation only (tx_byte_allocate,
 * tx_byte_release): the calling thread is the one switched in, NoTask before the first. */
#define EVREC_THREADX_THREAD_OP_(a, id, op)                                                                       \
    evrec_threadx_op_inline_((uint16_t)(id), (const void *)(a), (uint8_t)(op), 1)

/* An object call at its start (the kernel's insert point, info1..info4 as tx_trace.h lists
 * them): its operation when the object's state says it completes at once; a call that waits is
 * recorded as Block when the thread suspends, its end as Unblock or Timeout when it is resumed
 * (evrec_threadx.c). The same tests as evrec_threadx.c's object_call(). */
#define EVREC_THREADX_OBJECT_INLINE_(i, a, b, c, d)                                                               \
    {                                                                                                             \
        _Static_assert(sizeof(_tx_thread_current_ptr) == sizeof(TX_THREAD *),                                     \
                       "EVREC_THREADX_INLINE is for single-core ThreadX: define it 0 on SMP");                    \
        if ((i) == TX_TRACE_QUEUE_SEND || (i) == TX_TRACE_QUEUE_FRONT_SEND) {                                     \
            if (((const TX_QUEUE *)evrec_threadx_address_(a))->tx_queue_available_storage != 0u) {                \
                EVREC_THREADX_OP_(a, threadx_ID_QueueOp, threadx_RtosQueueOp_Send);                               \
            }                                                                                                     \
        } else if ((i) == TX_TRACE_QUEUE_RECEIVE) {                                                               \
            if ((d) != 0u) { /* messages enqueued */                                                              \
                EVREC_THREADX_OP_(a, threadx_ID_QueueOp, threadx_RtosQueueOp_Receive);                            \
            }                                                                                                     \
        } else if ((i) == TX_TRACE_SEMAPHORE_GET) {                                                               \
            if ((c) != 0u) { /* count */                                                                          \
                EVREC_THREADX_OP_(a, threadx_ID_SemOp, threadx_RtosSemOp_Take);                                   \
            }                                                                                                     \
        } else if ((i) == TX_TRACE_SEMAPHORE_PUT) {                                                               \
            if ((c) == 0u) { /* no thread waits: the count goes up */                                             \
                EVREC_THREADX_OP_(a, threadx_ID_SemOp, threadx_RtosSemOp_Give);                                   \
            }                                                                                                     \
        } else if ((i) == TX_TRACE_MUTEX_GET) {                                                                   \
            evrec_threadx_mutex_get_((const void *)(a), (c), EVREC_THREADX_IN_THREAD_());                         \
        } else if ((i) == TX_TRACE_MUTEX_PUT) {                                                                   \
            if (((const TX_MUTEX *)evrec_threadx_address_(a))->tx_mutex_suspended_count == 0u) {                  \
                EVREC_THREADX_OP_(a, threadx_ID_MutexOp, threadx_RtosMutexOp_Unlock);                             \
            }                                                                                                     \
        } else if ((i) == TX_TRACE_EVENT_FLAGS_SET) {                                                             \
            EVREC_THREADX_OP_(a, threadx_ID_EventOp, threadx_RtosEventOp_Set);                                    \
        } else if (((d)&TX_AND) != 0u ? ((c) & (b)) == (b) : ((c) & (b)) != 0u) { /* EVENT_FLAGS_GET */           \
            EVREC_THREADX_OP_(a, threadx_ID_EventOp, threadx_RtosEventOp_Consume);                                \
        }                                                                                                         \
    }

/* A block pool or byte pool call at its insert point (info1 the pool, info4 for BLOCK_ALLOCATE
 * the free blocks): Allocate when a block is free, Release always (the memory goes back to the
 * pool or to a waiting thread, whose Unblock follows); a wait is recorded as the other objects'.
 * A byte allocation is recorded at the end of its search (EVREC_THREADX_BYTE_ALLOCATE_EXTENSION).
 * The same tests as evrec_threadx.c's pool_call(). */
#define EVREC_THREADX_POOL_INLINE_(i, a, d)                                                                       \
    {                                                                                                             \
        if ((i) == TX_TRACE_BYTE_RELEASE) { /* threads only */                                                    \
            EVREC_THREADX_THREAD_OP_(a, threadx_ID_PoolOp, threadx_RtosPoolOp_Release);                           \
        } else if ((i) == TX_TRACE_BLOCK_RELEASE) {                                                               \
            EVREC_THREADX_OP_(a, threadx_ID_PoolOp, threadx_RtosPoolOp_Release);                                  \
        } else if ((d) != 0u) { /* a block is free */                                                             \
            EVREC_THREADX_OP_(a, threadx_ID_PoolOp, threadx_RtosPoolOp_Allocate);                                 \
        }                                                                                                         \
    }
#endif /* EVREC_THREADX_INLINE */

#ifndef EVREC_THREADX_THREAD_CREATE_ /* not inline: a call */
#define EVREC_THREADX_THREAD_CREATE_(a, b) evrec_threadx_thread_create((uintptr_t)(a), (uintptr_t)(b))
#endif
#ifndef EVREC_THREADX_OBJECT_CREATE_ /* not inline: a call */
#define EVREC_THREADX_OBJECT_CREATE_(o, kind, name) evrec_threadx_object_create((o), (kind), (name))
#endif

#endif /* __ASSEMBLER__ */
#endif /* EVREC_THREADX_H */
