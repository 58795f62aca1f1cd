/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernel-object callbacks of Zephyr's CONFIG_TRACING_USER (k_sem, k_mutex, k_msgq, k_event;
 * subsys/tracing/user/tracing_user.h of Zephyr's main branch, not of older releases): SemOp,
 * MutexOp, QueueOp, EventOp with the object's RtosObject value. A call that succeeds at once
 * records its operation at its exit (Give, Take, Lock, Unlock, Send, Receive, Set, Consume); a
 * call that waits records Block when it is about to wait (the *_blocking callback) and Unblock
 * (success) or Timeout (failure) at its exit; a call that fails without waiting records nothing.
 * From an ISR, task is NoTask.
 */
#include "evrec_zephyr_internal.h"

typedef void (*record_fn)(evrec_host_t *h, uint16_t task, uint16_t object, uint8_t op);

static void rec_sem(evrec_host_t *h, uint16_t task, uint16_t object, uint8_t op)
{
    zephyr_record_SemOp(h, task, object, op);
}

static void rec_mutex(evrec_host_t *h, uint16_t task, uint16_t object, uint8_t op)
{
    zephyr_record_MutexOp(h, task, object, op);
}

static void rec_queue(evrec_host_t *h, uint16_t task, uint16_t object, uint8_t op)
{
    zephyr_record_QueueOp(h, task, object, op);
}

static void rec_event(evrec_host_t *h, uint16_t task, uint16_t object, uint8_t op)
{
    zephyr_record_EventOp(h, task, object, op);
}

/* The caller: NoTask in an ISR. */
static uint16_t caller(const cpu_state_t *s)
{
    return s->isr_depth != 0u || k_is_in_isr() ? NO_TASK : evrec_zephyr_task_of(k_current_get());
}

/* An operation that completed at once. */
static void op_now(const void *object, int kind, record_fn rec, uint8_t op)
{
    cpu_state_t *s = evrec_zephyr_cpu();
    if (s != NULL) {
        if (s->isr_depth == 0u) {
            s->after_isr = 0u;
        }
        rec(s->host, caller(s), evrec_zephyr_object_of(object, kind), op);
    }
}

/* The caller is about to wait on the object. */
static void op_block(const void *object, int kind, record_fn rec)
{
    cpu_state_t *s = evrec_zephyr_cpu();
    if (s == NULL) {
        return;
    }
    uint16_t task = caller(s);
    uint16_t v = evrec_zephyr_object_of(object, kind);
    uint8_t *waits = evrec_zephyr_slot(evrec_zt.blocked_on, task);
    if (waits != NULL) {
        *waits = (uint8_t)v;
    }
    s->after_isr = 0u;
    rec(s->host, task, v, OP_BLOCK);
}

/* The call returns `ok`: after a wait on this object, Unblock or Timeout; else `op` if ok. */
static void op_exit(const void *object, int kind, record_fn rec, uint8_t op, int ok)
{
    cpu_state_t *s = evrec_zephyr_cpu();
    if (s == NULL) {
        return;
    }
    uint16_t task = caller(s);
    uint16_t v = evrec_zephyr_object_of(object, kind);
    uint8_t *waits = evrec_zephyr_slot(evrec_zt.blocked_on, task);
    if (s->isr_depth == 0u) {
        s->after_isr = 0u;
    }
    if (waits != NULL && *waits != 0u && *waits == v) {
        *waits = 0u;
        rec(s->host, task, v, ok ? OP_UNBLOCK : OP_TIMEOUT);
    } else if (ok) {
        rec(s->host, task, v, op);
    }
}

/* ---- k_sem ---- */

void sys_trace_k_sem_init_user(struct k_sem *sem, int ret)
{
    (void)ret;
    (void)evrec_zephyr_object_of(sem, KIND_SEM);
}

void sys_trace_k_sem_give_enter_user(struct k_sem *sem)
{
    op_now(sem, KIND_SEM, rec_sem, zephyr_RtosSemOp_Give);
}

void sys_trace_k_sem_take_blocking_user(struct k_sem *sem, k_timeout_t timeout)
{
    (void)timeout;
    op_block(sem, KIND_SEM, rec_sem);
}

void sys_trace_k_sem_take_exit_user(struct k_sem *sem, k_timeout_t timeout, int ret)
{
    (void)timeout;
    op_exit(sem, KIND_SEM, rec_sem, zephyr_RtosSemOp_Take, ret == 0);
}

/* ---- k_mutex ---- */

void sys_trace_k_mutex_init_user(struct k_mutex *mutex, int ret)
{
    (void)ret;
    (void)evrec_zephyr_object_of(mutex, KIND_MUTEX);
}

void sys_trace_k_mutex_lock_blocking_user(struct k_mutex *mutex, k_timeout_t timeout)
{
    (void)timeout;
    op_block(mutex, KIND_MUTEX, rec_mutex);
}

void sys_trace_k_mutex_lock_exit_user(struct k_mutex *mutex, k_timeout_t timeout, int ret)
{
    (void)timeout;
    op_exit(mutex, KIND_MUTEX, rec_mutex, zephyr_RtosMutexOp_Lock, ret == 0);
}

void sys_trace_k_mutex_unlock_exit_user(struct k_mutex *mutex, int ret)
{
    if (ret == 0) {
        op_now(mutex, KIND_MUTEX, rec_mutex, zephyr_RtosMutexOp_Unlock);
    }
}

/* ---- k_msgq ---- */

void sys_trace_k_msgq_init_user(struct k_msgq *msgq)
{
    (void)evrec_zephyr_object_of(msgq, KIND_QUEUE);
}

void sys_trace_k_msgq_put_blocking_user(struct k_msgq *msgq, k_timeout_t timeout)
{
    (void)timeout;
    op_block(msgq, KIND_QUEUE, rec_queue);
}

void sys_trace_k_msgq_put_exit_user(struct k_msgq *msgq, k_timeout_t timeout, int ret)
{
    (void)timeout;
    op_exit(msgq, KIND_QUEUE, rec_queue, zephyr_RtosQueueOp_Send, ret == 0);
}

void sys_trace_k_msgq_get_blocking_user(struct k_msgq *msgq, k_timeout_t timeout)
{
    (void)timeout;
    op_block(msgq, KIND_QUEUE, rec_queue);
}

void sys_trace_k_msgq_get_exit_user(struct k_msgq *msgq, k_timeout_t timeout, int ret)
{
    (void)timeout;
    op_exit(msgq, KIND_QUEUE, rec_queue, zephyr_RtosQueueOp_Receive, ret == 0);
}

/* ---- k_event ---- */

void sys_trace_k_event_init_user(struct k_event *event)
{
    (void)evrec_zephyr_object_of(event, KIND_EVENT);
}

void sys_trace_k_event_post_exit_user(struct k_event *event, uint32_t events, uint32_t events_mask)
{
    (void)events;
    (void)events_mask;
    op_now(event, KIND_EVENT, rec_event, zephyr_RtosEventOp_Set);
}

void sys_trace_k_event_wait_blocking_user(struct k_event *event, uint32_t events, uint32_t options,
                                          k_timeout_t timeout)
{
    (void)events;
    (void)options;
    (void)timeout;
    op_block(event, KIND_EVENT, rec_event);
}

void sys_trace_k_event_wait_exit_user(struct k_event *event, uint32_t events, int ret)
{
    (void)events;
    op_exit(event, KIND_EVENT, rec_event, zephyr_RtosEventOp_Consume, ret != 0); /* ret: the events received */
}
