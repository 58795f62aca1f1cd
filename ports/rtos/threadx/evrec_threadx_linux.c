/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The execution-change notifications for ThreadX's Linux ports (ports/linux/gnu and
 * ports_smp/linux/gnu), which do not call them: their scheduler, system return and interrupt
 * control are C files that call _tx_linux_debug_entry_insert(action, __FILE__, __LINE__) at each
 * step when built with TX_LINUX_DEBUG_ENABLE. This file defines that function (the port's own,
 * in tx_initialize_low_level.c, must then be left out: build that one file without
 * TX_LINUX_DEBUG_ENABLE) and turns the steps into the calls the other ports make:
 *
 *   "SCHEDULE-resume_thread", "SCHEDULE-release_sem",  -> evrec_threadx_scheduler_sync()
 *   "SCHEDULE-core_preempt_complete" (SMP),
 *   "SCHEDULE-thread_terminate_preempt_complete" (SMP)
 *       (the scheduler set a core's current thread and lets it run, or took a preempted thread
 *       off its core: the TaskSwitchIn / TaskSwitchOut, and _tx_execution_thread_enter()'s
 *       chain)
 *   "SYSTEM_RETURN" in the current thread's own pthread -> _tx_execution_thread_exit()
 *       (the thread gives the CPU back; a terminated thread's cleanup pass is not one)
 *   "DISABLE", "RESTORE"                                -> evrec_threadx_int_control()
 *       (every TX_DISABLE / TX_RESTORE, with the caller's address; recorded only with
 *       EVREC_THREADX_INT_CONTROL 1)
 *
 * Interrupts: the single-core port's timer thread calls tx_trace_isr_enter_insert()/exit around
 * its handler, so build with EVREC_THREADX_ISR_FROM_TRACE 1 (the README's tx_user.h does). The
 * SMP port's does not; there (core 0 takes every interrupt):
 *   "CONTEXT_SAVE"    (interrupt entry, before the interrupted thread is suspended)
 *                                                       -> evrec_threadx_isr_enter(0)
 *   "CONTEXT_RESTORE" (interrupt exit, before the return to a thread) -> evrec_threadx_isr_exit(0)
 */
#define TX_THREAD_SMP_SOURCE_CODE /* SMP: the per-core arrays, not the calling core's getters */
#include "tx_api.h"
#include "tx_thread.h"

#include "evrec_threadx.h"

#include <pthread.h>
#include <string.h>

VOID _tx_execution_thread_exit(void);

#ifdef TX_THREAD_SMP_MAX_CORES
#define CURRENT() _tx_thread_current_ptr[TX_SMP_CORE_ID]
#else
#define CURRENT() _tx_thread_current_ptr
#endif

/* Interrupt posture of this pthread, as its TX_DISABLE/TX_RESTORE pairs nest. */
static __thread unsigned disable_depth;

/* The calling pthread is the current ThreadX thread (not a terminated one cleaning up). */
static int own_thread(void)
{
    TX_THREAD *t = CURRENT();
    return t != TX_NULL && pthread_equal(t->tx_thread_linux_thread_id, pthread_self());
}

static void int_control(const char *action, uintptr_t caller)
{
    if (strcmp(action, "DISABLE") == 0) {
        evrec_threadx_int_control(disable_depth++ == 0u ? 7u : 39u, caller);
    } else if (strcmp(action, "RESTORE") == 0) {
        if (disable_depth == 0u) {
            evrec_threadx_int_control(8u, caller);
        } else {
            evrec_threadx_int_control(--disable_depth == 0u ? 40u : 39u, caller);
        }
    }
}

void _tx_linux_debug_entry_insert(char *action, char *file, unsigned long line)
{
    (void)file;
    (void)line;
    switch (action[0]) {
    case 'S':
        if (strcmp(action, "SCHEDULE-resume_thread") == 0 || strcmp(action, "SCHEDULE-release_sem") == 0 ||
            strcmp(action, "SCHEDULE-core_preempt_complete") == 0 ||
            strcmp(action, "SCHEDULE-thread_terminate_preempt_complete") == 0) {
            evrec_threadx_scheduler_sync();
        } else if (strcmp(action, "SYSTEM_RETURN") == 0 && own_thread()) {
            _tx_execution_thread_exit();
        }
        break;
#ifdef TX_THREAD_SMP_MAX_CORES
    case 'C':
        if (strcmp(action, "CONTEXT_SAVE") == 0) {
            evrec_threadx_isr_enter(0u);
        } else if (strcmp(action, "CONTEXT_RESTORE") == 0) {
            evrec_threadx_isr_exit(0u);
        }
        break;
#endif
    case 'D':
    case 'R': int_control(action, (uintptr_t)__builtin_return_address(0)); break;
    default: break;
    }
}
