/* SPDX-License-Identifier: Apache-2.0 */
/*
 * IntControl on FreeRTOS: the kernel's critical sections (taskENTER_CRITICAL() and
 * taskEXIT_CRITICAL(), which the single-core ports expand to vPortEnterCritical() and
 * vPortExitCritical()) recorded with their caller's address, without a change to the kernel:
 * the firmware is linked with
 *     -Wl,--wrap=vPortEnterCritical,--wrap=vPortExitCritical
 * so that every call from another object file reaches __wrap_vPortEnterCritical() below, which
 * calls the port's own function (__real_vPortEnterCritical) and records. Built only with
 * EVREC_FREERTOS_INT_CONTROL 1 (a compile definition of this file; default 0: the file is empty
 * and the wrap, if linked, fails with an undefined __wrap_ symbol). See README.md,
 * "Interrupt disable/restore".
 *
 * The types are the catalogue's RtosIntControl: Disable (7) when the caller's task was not in
 * a critical section, DisableNested (39) when it was (and for a nested exit: the interrupts stay
 * disabled), RestoreEnable (40) for the exit that enables them, Restore (8) for an exit this file
 * saw no entry for (one made before the wrap saw the task, or a call inside the port's own
 * file, which --wrap does not redirect).
 *
 * Where it records, and why that is safe:
 * - the disable record after the port's vPortEnterCritical() returned, in the critical section;
 *   the restore record before vPortExitCritical() is called, still in it. The recorded span lies
 *   within the real one, and the nesting counts below are changed with the kernel's interrupts
 *   masked: no tick or context switch between the read and the write.
 * - recording calls no kernel function (the recorder's reserve is evrec's own port: its atomics or
 *   critical section, never vPortEnterCritical()), so there is no recursion.
 * - the nesting is counted as the ports count theirs: the Cortex-M ports switch (PendSV, masked
 *   in a section) only when no critical section is open: one count. The POSIX port switches
 *   inside one (a yield in taskENTER_CRITICAL()) and saves its count per thread: with
 *   EVREC_FREERTOS_INT_PER_TASK 1 (evrec_freertos.h: the default on a hosted build) the count is
 *   kept per task (by the running task's RtosTask value, as the switch hooks keep it) and
 *   evrec_freertos.c's switch hook ends the old task's span and starts the new task's
 *   (IntControl with the switch's address as the caller): the interrupt state follows the task.
 * Single core only (EVREC_FREERTOS_MAX_CORES 1): the SMP kernel's critical sections are
 * vTaskEnterCritical(), with the task's nesting in its TCB.
 */
#ifndef EVREC_FREERTOS_INT_CONTROL
#define EVREC_FREERTOS_INT_CONTROL 0
#endif

#if EVREC_FREERTOS_INT_CONTROL
#define EVREC_FREERTOS_DECLARATIONS_ONLY 1
#ifndef EVREC_FREERTOS_MAX_CORES
#define EVREC_FREERTOS_MAX_CORES 1 /* evrec_freertos_shared as evrec_freertos.c lays it out */
#endif
#include "evrec_freertos.h" /* with freertos_events.h */

#include <stdint.h>

#if EVREC_FREERTOS_MAX_CORES != 1
#error "EVREC_FREERTOS_INT_CONTROL: one core only (the SMP kernel's critical sections are vTaskEnterCritical())"
#endif

void __real_vPortEnterCritical(void);
void __real_vPortExitCritical(void);
void __wrap_vPortEnterCritical(void);
void __wrap_vPortExitCritical(void);

#define INT_DEPTH_MASK EVREC_FREERTOS_INT_DEPTH_MASK

/* The running task's depth: by its RtosTask value on a port that switches inside a section,
 * else the one count (element 0). */
#if EVREC_FREERTOS_INT_PER_TASK
#define INT_DEPTH(c) (&evrec_freertos_shared.int_depth[(c)->current & INT_DEPTH_MASK])
#else
#define INT_DEPTH(c) ((void)(c), &evrec_freertos_shared.int_depth[0])
#endif

_Static_assert(freertos_RtosIntControl_Disable == 7 && freertos_RtosIntControl_Restore == 8 &&
                   freertos_RtosIntControl_DisableNested == 39 && freertos_RtosIntControl_RestoreEnable == 40,
               "RtosIntControl values as the catalogue numbers them");

/* IntControl(type, caller), inline: the hook's whole cost is one record and the depth count. */
static inline __attribute__((always_inline)) void int_record(struct evrec_host *h, freertos_RtosIntControl_t type,
                                                             uint32_t caller)
{
    freertos_IntControl_t *e = (freertos_IntControl_t *)evrec_reserve(h, sizeof *e);
    if (e != (freertos_IntControl_t *)0) {
        e->type = type;
        e->caller = caller;
        evrec_commit(e, freertos_ID_IntControl);
    }
}

/* The rare types out of line (a nested section; an exit with no entry seen, whose count the
 * exit put at 255: back to 0), so that the common pair records a constant type. */
static __attribute__((noinline)) void int_record_other(struct evrec_host *h, uint8_t was, uint32_t caller)
{
    freertos_RtosIntControl_t type = freertos_RtosIntControl_DisableNested;
    if (was == 0u) { /* an exit */
        *INT_DEPTH(&evrec_freertos_cores[0]) = 0u;
        type = freertos_RtosIntControl_Restore;
    }
    if (h != (struct evrec_host *)0) {
        int_record(h, type, caller);
    }
}

void __wrap_vPortEnterCritical(void)
{
    __real_vPortEnterCritical();
    /* In the critical section now: no switch can change the task or its count. */
    struct evrec_freertos_core *c = &evrec_freertos_cores[0];
    uint8_t *depth = INT_DEPTH(c);
    uint8_t was = *depth;
    *depth = (uint8_t)(was + 1u);
    struct evrec_host *h = c->host;
    uint32_t caller = (uint32_t)(uintptr_t)__builtin_return_address(0);
    if (__builtin_expect(was == 0u, 1)) {
        if (h != (struct evrec_host *)0) {
            int_record(h, freertos_RtosIntControl_Disable, caller);
        }
    } else {
        int_record_other(h, 1u, caller);
    }
}

void __wrap_vPortExitCritical(void)
{
    /* Still in the critical section: record and count before the port may enable interrupts. */
    struct evrec_freertos_core *c = &evrec_freertos_cores[0];
    uint8_t *depth = INT_DEPTH(c);
    uint32_t was = *depth;
    uint32_t now = was - 1u;
    *depth = (uint8_t)now;
    struct evrec_host *h = c->host;
    uint32_t caller = (uint32_t)(uintptr_t)__builtin_return_address(0);
    if (__builtin_expect(now == 0u, 1)) {
        if (h != (struct evrec_host *)0) {
            int_record(h, freertos_RtosIntControl_RestoreEnable, caller);
        }
    } else {
        int_record_other(h, (uint8_t)was, caller);
    }
    __real_vPortExitCritical();
}
#else
typedef int evrec_freertos_int_off_t; /* ISO C: a translation unit is not empty */
#endif
