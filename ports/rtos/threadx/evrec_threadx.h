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
 *   TX_TRACE_IN_LINE_INSERT() of the kernel calls evrec_threadx_trace_insert() instead of
 *   writing ThreadX's own trace buffer. They give thread create/delete/priority with the control
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
 * Ids: a thread's RtosTask value and an object's RtosObject value are found from its control
 * block's address in a fixed hash table (no kernel structure is changed); the names are copied
 * into fixed tables in evrec_threadx.c when the object is created (no malloc).
 *
 * Checked against eclipse-threadx/threadx (common/, common_smp/, ports/linux/gnu,
 * ports_smp/linux/gnu), release 6.4.
 */
#ifndef EVREC_THREADX_H
#define EVREC_THREADX_H

#ifndef __ASSEMBLER__ /* tx_user.h is also included by the ports' assembly files */

#include <stdint.h>

/* The trace insert points are compiled only with event trace on; ThreadX's own trace buffer is
 * then not written (tx_trace_enable() need not be called). */
#ifndef TX_ENABLE_EVENT_TRACE
#define TX_ENABLE_EVENT_TRACE
#endif

/** Every TX_TRACE_IN_LINE_INSERT(event, info1..info4, filter) of the kernel. The filter is not
 * used: each event the catalogue needs is recorded, the others cost a call and a switch. */
#define TX_TRACE_IN_LINE_INSERT(i, a, b, c, d, e)                                                                 \
    {                                                                                                             \
        evrec_threadx_trace_insert((uint32_t)(i), (uintptr_t)(a), (uintptr_t)(b), (uintptr_t)(c),                 \
                                   (uintptr_t)(d));                                                               \
    }

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
 * state, then IdleSleep when no thread is ready. What _tx_execution_thread_exit() records.
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

#ifdef __cplusplus
}
#endif

#endif /* __ASSEMBLER__ */
#endif /* EVREC_THREADX_H */
