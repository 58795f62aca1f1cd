/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The tracing callbacks of Zephyr's CONFIG_TRACING_USER (subsys/tracing/user/tracing_user.c
 * defines them weak; these are the strong ones), each recorded on the calling CPU's host:
 *
 *   sys_trace_thread_switched_in_user   TaskSwitchIn of _current (Start the first time,
 *                                       ResumeFromIsr after a preemption by an interrupt)
 *   sys_trace_thread_switched_out_user  TaskSwitchOut of _current, the reason from its state
 *   sys_trace_thread_sched_ready_user   TaskReady
 *   sys_trace_thread_create_user, _abort_user, _priority_set_user, _name_set_user
 *                                       TaskCreate, TaskDelete, TaskPriority; the name
 *   sys_trace_isr_enter_user/_exit_user IsrEnter/IsrExit (IdleWake first when the CPU slept)
 *   sys_trace_idle_user                 IdleSleep
 *   k_sem, k_mutex, k_msgq, k_event     SemOp, MutexOp, QueueOp, EventOp: the operation when the
 *                                       call succeeds at once, else Block, then Unblock/Timeout
 */
#include "evrec_zephyr_internal.h"

#define BIT_OF(mask) ((uint32_t)(mask))

/* Why _current leaves the CPU, from its thread_state bits (include/zephyr/kernel_structs.h). */
static uint8_t switch_reason(const struct k_thread *t, cpu_state_t *s)
{
    uint32_t st = t->base.thread_state;
    uint8_t yield = s->yield;
    s->yield = 0u;
    if ((st & (BIT_OF(_THREAD_DEAD) | BIT_OF(_THREAD_ABORTING))) != 0u) {
        return zephyr_RtosSuspend_Exit;
    }
    if ((st & (BIT_OF(_THREAD_SUSPENDED) | BIT_OF(_THREAD_SUSPENDING))) != 0u) {
        return zephyr_RtosSuspend_Suspended;
    }
    if ((st & BIT_OF(_THREAD_PENDING)) != 0u) {
        return zephyr_RtosSuspend_Blocked;
    }
#ifdef _THREAD_SLEEPING
    if ((st & BIT_OF(_THREAD_SLEEPING)) != 0u) {
        return zephyr_RtosSuspend_Delay;
    }
#endif
    return yield ? zephyr_RtosSuspend_Yield : zephyr_RtosSuspend_Preempted;
}

void sys_trace_thread_switched_out_user(void)
{
    cpu_state_t *s = evrec_zephyr_cpu();
    const struct k_thread *t = k_current_get();
    if (s == NULL || t == NULL) {
        return;
    }
    uint16_t task = evrec_zephyr_task_of(t);
    uint8_t reason = switch_reason(t, s);
    uint8_t *preempted = evrec_zephyr_slot(evrec_zt.preempted, task);
    if (preempted != NULL) {
        *preempted = (uint8_t)(reason == zephyr_RtosSuspend_Preempted && s->after_isr);
    }
    s->after_isr = 0u;
    s->running = NULL;
    zephyr_record_TaskSwitchOut(s->host, task, reason);
}

void sys_trace_thread_switched_in_user(void)
{
    cpu_state_t *s = evrec_zephyr_cpu();
    const struct k_thread *t = k_current_get();
    if (s == NULL || t == NULL || s->running == t) {
        return;
    }
    s->after_isr = 0u;
    if (s->idle != 0u) {
        s->idle = 0u;
        zephyr_record_IdleWake(s->host);
    }
    uint16_t task = evrec_zephyr_task_of(t);
    uint8_t type = zephyr_RtosResume_Resume;
    uint8_t *started = evrec_zephyr_slot(evrec_zt.started, task);
    uint8_t *preempted = evrec_zephyr_slot(evrec_zt.preempted, task);
    if (started != NULL && *started == 0u) {
        *started = 1u;
        type = zephyr_RtosResume_Start;
    } else if (preempted != NULL && *preempted != 0u) {
        type = zephyr_RtosResume_ResumeFromIsr;
    }
    if (preempted != NULL) {
        *preempted = 0u;
    }
    s->running = t;
    zephyr_record_TaskSwitchIn(s->host, task, type);
}

void sys_trace_thread_sched_ready_user(struct k_thread *thread)
{
    cpu_state_t *s = evrec_zephyr_cpu();
    if (s != NULL) {
        if (s->isr_depth == 0u) {
            s->after_isr = 0u; /* a thread made it ready: a switch-out next is not the ISR's doing */
        }
        zephyr_record_TaskReady(s->host, evrec_zephyr_task_of(thread));
    }
}

void sys_trace_thread_create_user(struct k_thread *thread)
{
    cpu_state_t *s = evrec_zephyr_cpu();
    uint16_t task = evrec_zephyr_task_of(thread); /* named even when this CPU does not record */
    if (s != NULL) {
        zephyr_record_TaskCreate(s->host, task, (uint16_t)(int16_t)thread->base.prio);
    }
}

void sys_trace_thread_abort_user(struct k_thread *thread)
{
    cpu_state_t *s = evrec_zephyr_cpu();
    if (s != NULL) {
        zephyr_record_TaskDelete(s->host, evrec_zephyr_task_of(thread), (uint16_t)(int16_t)thread->base.prio);
    }
}

void sys_trace_thread_priority_set_user(struct k_thread *thread, int prio)
{
    cpu_state_t *s = evrec_zephyr_cpu();
    if (s != NULL) {
        zephyr_record_TaskPriority(s->host, evrec_zephyr_task_of(thread), (uint16_t)(int16_t)prio);
    }
}

void sys_trace_thread_name_set_user(struct k_thread *thread)
{
    uint16_t task = evrec_zephyr_task_of(thread);
    const char *name = k_thread_name_get(thread);
    if (task >= 1u && task <= TASK_SLOTS && name != NULL && name[0] != '\0') {
        char *slot = evrec_zt.task_name[task - 1u];
        size_t i = 0;
        for (; name[i] != '\0' && i + 1u < EVREC_ZEPHYR_NAME_LEN; i++) {
            slot[i] = name[i];
        }
        slot[i] = '\0';
    }
}

void sys_trace_k_thread_yield_user(void)
{
    cpu_state_t *s = evrec_zephyr_cpu();
    if (s != NULL) {
        s->yield = 1u;
    }
}

void sys_trace_isr_enter_user(void)
{
    cpu_state_t *s = evrec_zephyr_cpu();
    if (s == NULL) {
        return;
    }
    if (s->idle != 0u) {
        s->idle = 0u;
        zephyr_record_IdleWake(s->host);
    }
    unsigned id = EVREC_ZEPHYR_ISR_ID();
    s->isr_depth++;
    s->after_isr = 0u;
    zephyr_record_IsrEnter(s->host, evrec_zephyr_isr_of(id), (uint16_t)id);
}

void sys_trace_isr_exit_user(void)
{
    cpu_state_t *s = evrec_zephyr_cpu();
    if (s == NULL) {
        return;
    }
    unsigned id = EVREC_ZEPHYR_ISR_ID();
    if (s->isr_depth > 0u) {
        s->isr_depth--;
    }
    s->after_isr = (uint8_t)(s->isr_depth == 0u); /* a switch-out next is a preemption by it */
    zephyr_record_IsrExit(s->host, evrec_zephyr_isr_of(id), (uint16_t)id);
}

void sys_trace_idle_user(void)
{
    cpu_state_t *s = evrec_zephyr_cpu();
    if (s != NULL && s->idle == 0u) {
        s->idle = 1u;
        zephyr_record_IdleSleep(s->host);
    }
}
