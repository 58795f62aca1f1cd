/* SPDX-License-Identifier: Apache-2.0 */
/* IntControl on FreeRTOS (evrec_freertos_int.c): the wrappers of vPortEnterCritical() and
 * vPortExitCritical() called directly (the firmware reaches them through the linker's --wrap),
 * the port's functions stand-ins that note what the buffer held when they ran; the depth per
 * task and the spans a switch carries (evrec_freertos.c's switch hook, EVREC_FREERTOS_INT_PER_TASK
 * 1: a hosted build), recording through the fake-clock recorder; the records read back. */
#include <criterion/criterion.h>
#include <string.h>

#define EVREC_FREERTOS_DECLARATIONS_ONLY 1 /* the functions, not the kernel's trace macros */
#include "evrec_freertos.h"
#include "freertos_events.h"

void __real_vPortEnterCritical(void);
void __real_vPortExitCritical(void);
void __wrap_vPortEnterCritical(void);
void __wrap_vPortExitCritical(void);

#include "freertos_recording.h"
static unsigned enters, exits;
static int mark; /* the port's stand-ins record a marker (TaskReady of task 63) */

void __real_vPortEnterCritical(void)
{
    enters++;
    if (mark) {
        freertos_record_TaskReady(&host, (freertos_RtosTask_t)63);
    }
}

void __real_vPortExitCritical(void)
{
    exits++;
    if (mark) {
        freertos_record_TaskReady(&host, (freertos_RtosTask_t)63);
    }
}

static void start(void)
{
    recording_start();
}


static void check_int(recs_t r, unsigned k, unsigned type)
{
    cr_assert_lt(k, r.n);
    cr_assert_eq(r.id[k], freertos_ID_IntControl, "record %u: id %u, expected IntControl", k, r.id[k]);
    const freertos_IntControl_t *e = (const freertos_IntControl_t *)(const void *)r.p[k];
    cr_expect_eq(e->type, type, "record %u: type %u, expected %u", k, e->type, type);
    cr_expect_neq(e->caller, 0u, "record %u: no caller", k);
}

/* Task `task` runs (its RtosTask value), after `out`, which was preempted. */
static void switch_to(uint16_t task, uint16_t out)
{
    evrec_freertos_switched_in(0u, task, out | (uint32_t)EVREC_FREERTOS_PREEMPTED << 16);
}

Test(freertos_int, types_by_depth_inside_the_section)
{
    start();
    switch_to(1u, 0xFFFFu);
    enters = exits = 0;
    __wrap_vPortEnterCritical();
    __wrap_vPortEnterCritical();
    __wrap_vPortExitCritical();
    __wrap_vPortExitCritical();
    __wrap_vPortExitCritical(); /* no entry seen: Restore, the count stays 0 */
    __wrap_vPortEnterCritical();
    __wrap_vPortExitCritical();
    cr_expect_eq(enters, 3u);
    cr_expect_eq(exits, 4u);
    recs_t r = stop();
    cr_assert_eq(r.n, 2u + 7u); /* the first switch's pair, then IntControl */
    check_int(r, 2, freertos_RtosIntControl_Disable);
    check_int(r, 3, freertos_RtosIntControl_DisableNested);
    check_int(r, 4, freertos_RtosIntControl_DisableNested);
    check_int(r, 5, freertos_RtosIntControl_RestoreEnable);
    check_int(r, 6, freertos_RtosIntControl_Restore);
    check_int(r, 7, freertos_RtosIntControl_Disable);
    check_int(r, 8, freertos_RtosIntControl_RestoreEnable);
}

Test(freertos_int, disable_recorded_inside_the_section_restore_before_leaving_it)
{
    start();
    switch_to(1u, 0xFFFFu);
    mark = 1;
    __wrap_vPortEnterCritical();
    __wrap_vPortExitCritical();
    recs_t r = stop();
    cr_assert_eq(r.n, 2u + 4u);
    cr_expect_eq(r.id[2], freertos_ID_TaskReady, "the port's entry first");
    check_int(r, 3, freertos_RtosIntControl_Disable);
    check_int(r, 4, freertos_RtosIntControl_RestoreEnable);
    cr_expect_eq(r.id[5], freertos_ID_TaskReady, "the port's exit last");
}

Test(freertos_int, a_switch_inside_a_section_carries_the_span)
{
    start();
    switch_to(1u, 0xFFFFu);
    __wrap_vPortEnterCritical(); /* task 1 yields inside its section (the POSIX port) */
    switch_to(2u, 1u);
    __wrap_vPortEnterCritical(); /* task 2 was not in one */
    __wrap_vPortExitCritical();
    switch_to(1u, 2u);
    __wrap_vPortExitCritical();
    recs_t r = stop();
    static const uint16_t ids[] = {freertos_ID_TaskSwitchOut, freertos_ID_TaskSwitchIn,  freertos_ID_IntControl,
                                   freertos_ID_IntControl,    freertos_ID_TaskSwitchOut, freertos_ID_TaskSwitchIn,
                                   freertos_ID_IntControl,    freertos_ID_IntControl,    freertos_ID_TaskSwitchOut,
                                   freertos_ID_TaskSwitchIn,  freertos_ID_IntControl,    freertos_ID_IntControl};
    cr_assert_eq(r.n, sizeof ids / sizeof ids[0]);
    for (unsigned k = 0; k < r.n; k++) {
        cr_expect_eq(r.id[k], ids[k], "record %u: id %u, expected %u", k, r.id[k], ids[k]);
    }
    check_int(r, 2, freertos_RtosIntControl_Disable);       /* task 1 */
    check_int(r, 3, freertos_RtosIntControl_RestoreEnable); /* task 1's span ends at the switch */
    check_int(r, 6, freertos_RtosIntControl_Disable);       /* task 2's own section */
    check_int(r, 7, freertos_RtosIntControl_RestoreEnable);
    check_int(r, 10, freertos_RtosIntControl_Disable);       /* task 1's span again at its switch-in */
    check_int(r, 11, freertos_RtosIntControl_RestoreEnable); /* and its exit */
}

Test(freertos_int, init_keeps_the_open_sections)
{
    start();
    switch_to(1u, 0xFFFFu);
    __wrap_vPortEnterCritical();
    (void)stop();
    start(); /* evrec_freertos_init() again, task 1 still in its section */
    switch_to(1u, 0xFFFFu);
    __wrap_vPortExitCritical();
    recs_t r = stop();
    cr_assert_eq(r.n, 2u + 2u);
    check_int(r, 2, freertos_RtosIntControl_Disable); /* it resumes in its section */
    check_int(r, 3, freertos_RtosIntControl_RestoreEnable);
}
