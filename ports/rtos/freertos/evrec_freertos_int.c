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
 * - the nesting is counted per task (the RtosTask value of the running task, as the switch hooks
 *   keep it), the way the ports keep theirs: the POSIX port saves the kernel's count per thread
 *   at each switch, and the Cortex-M ports switch (PendSV) only when no critical section is open.
 *   A port that switches inside one (POSIX: a yield in taskENTER_CRITICAL()) changes the
 *   interrupt state with the task: evrec_freertos.c's switch hook then ends the old task's span
 *   and starts the new task's (IntControl with the switch's address as the caller).
 * Single core only (EVREC_FREERTOS_MAX_CORES 1): the SMP kernel's critical sections are
 * vTaskEnterCritical(), with the task's nesting in its TCB.
 */
#ifndef EVREC_FREERTOS_INT_CONTROL
#define EVREC_FREERTOS_INT_CONTROL 0
#endif

#if EVREC_FREERTOS_INT_CONTROL
#define EVREC_FREERTOS_DECLARATIONS_ONLY 1
#include "evrec_freertos.h" /* with freertos_events.h */

#include <stdint.h>

#if defined(EVREC_FREERTOS_MAX_CORES) && EVREC_FREERTOS_MAX_CORES != 1
#error "EVREC_FREERTOS_INT_CONTROL: one core only (the SMP kernel's critical sections are vTaskEnterCritical())"
#endif

void __real_vPortEnterCritical(void);
void __real_vPortExitCritical(void);
void __wrap_vPortEnterCritical(void);
void __wrap_vPortExitCritical(void);

#define int_depth evrec_freertos_int_depth
#define INT_DEPTH_MASK EVREC_FREERTOS_INT_DEPTH_MASK
uint8_t evrec_freertos_int_depth[EVREC_FREERTOS_INT_DEPTH_MASK + 1u];

_Static_assert(freertos_RtosIntControl_Disable == 7 && freertos_RtosIntControl_Restore == 8 &&
                   freertos_RtosIntControl_DisableNested == 39 && freertos_RtosIntControl_RestoreEnable == 40,
               "RtosIntControl values as the catalogue numbers them");

void __wrap_vPortEnterCritical(void)
{
    __real_vPortEnterCritical();
    /* In the critical section now: no switch can change the task or its count. */
    struct evrec_freertos_core *c = &evrec_freertos_cores[0];
    uint8_t *depth = &int_depth[c->current & INT_DEPTH_MASK];
    uint8_t was = *depth;
    *depth = (uint8_t)(was + 1u);
    if (c->host != (struct evrec_host *)0) {
        freertos_record_IntControl(c->host,
                                   was == 0u ? freertos_RtosIntControl_Disable : freertos_RtosIntControl_DisableNested,
                                   (uint32_t)(uintptr_t)__builtin_return_address(0));
    }
}

void __wrap_vPortExitCritical(void)
{
    /* Still in the critical section: record and count before the port may enable interrupts. */
    struct evrec_freertos_core *c = &evrec_freertos_cores[0];
    uint8_t *depth = &int_depth[c->current & INT_DEPTH_MASK];
    uint8_t was = *depth;
    freertos_RtosIntControl_t type = freertos_RtosIntControl_Restore;
    if (was != 0u) {
        *depth = (uint8_t)(was - 1u);
        type = was == 1u ? freertos_RtosIntControl_RestoreEnable : freertos_RtosIntControl_DisableNested;
    }
    if (c->host != (struct evrec_host *)0) {
        freertos_record_IntControl(c->host, type, (uint32_t)(uintptr_t)__builtin_return_address(0));
    }
    __real_vPortExitCritical();
}
#else
typedef int evrec_freertos_int_off_t; /* ISO C: a translation unit is not empty */
#endif
