/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A stand-in for Zephyr's <zephyr/kernel.h>: only what ports/rtos/zephyr reads, with the
 * kernel's names (include/zephyr/kernel_structs.h: the thread_state bits; include/zephyr/kernel.h:
 * K_IDLE_PRIO, k_current_get(), k_is_in_isr(), k_thread_name_get(); include/zephyr/spinlock.h;
 * arch_curr_cpu(); the k_timer and cycle counter calls the module uses) and the tracing callbacks' declarations as
 * subsys/tracing/user/tracing_user.h gives them. Written for the hooks' test, not copied from
 * the kernel; the test (test_zephyr_hooks.c) defines the functions.
 */
#ifndef STANDIN_ZEPHYR_KERNEL_H
#define STANDIN_ZEPHYR_KERNEL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define __aligned(x) __attribute__((aligned(x)))

#define BIT(n) (1UL << (n))

#define _THREAD_DUMMY (BIT(0))
#define _THREAD_PENDING (BIT(1))
#define _THREAD_SLEEPING (BIT(2))
#define _THREAD_DEAD (BIT(3))
#define _THREAD_SUSPENDED (BIT(4))
#define _THREAD_ABORTING (BIT(5))
#define _THREAD_SUSPENDING (BIT(6))
#define _THREAD_QUEUED (BIT(7))

#define CONFIG_NUM_PREEMPT_PRIORITIES 15
#define K_LOWEST_THREAD_PRIO CONFIG_NUM_PREEMPT_PRIORITIES
#define K_IDLE_PRIO K_LOWEST_THREAD_PRIO

struct _thread_base {
    uint8_t thread_state;
    int8_t prio;
};

struct k_thread {
    struct _thread_base base;
    char name[32];
};

typedef struct {
    int64_t ticks;
} k_timeout_t;

#define K_MSEC(ms) ((k_timeout_t){(int64_t)(ms)})

struct k_timer;
typedef void (*k_timer_expiry_t)(struct k_timer *timer);
struct k_timer {
    k_timer_expiry_t expiry;
    k_timeout_t period;
    int running;
};

struct k_sem {
    unsigned count;
};
struct k_mutex {
    struct k_thread *owner;
};
struct k_msgq {
    uint32_t used_msgs;
};
struct k_event {
    uint32_t events;
};

struct k_spinlock {
    int locked;
};
typedef struct {
    int key;
} k_spinlock_key_t;

static inline k_spinlock_key_t k_spin_lock(struct k_spinlock *l)
{
    l->locked++;
    return (k_spinlock_key_t){0};
}

static inline void k_spin_unlock(struct k_spinlock *l, k_spinlock_key_t key)
{
    (void)key;
    l->locked--;
}

struct _cpu {
    uint8_t id;
};

/* Defined by the test: the CPU, thread and ISR state the hooks read. */
struct _cpu *arch_curr_cpu(void);
struct k_thread *k_current_get(void);
bool k_is_in_isr(void);
const char *k_thread_name_get(struct k_thread *thread);
uint32_t k_cycle_get_32(void);
uint32_t sys_clock_hw_cycles_per_sec(void);
void k_timer_init(struct k_timer *timer, k_timer_expiry_t expiry, k_timer_expiry_t stop);
void k_timer_start(struct k_timer *timer, k_timeout_t duration, k_timeout_t period);
void k_timer_stop(struct k_timer *timer);

/* The CONFIG_TRACING_USER callbacks (subsys/tracing/user/tracing_user.h). */
void sys_trace_thread_create_user(struct k_thread *thread);
void sys_trace_thread_abort_user(struct k_thread *thread);
void sys_trace_thread_name_set_user(struct k_thread *thread);
void sys_trace_thread_switched_in_user(void);
void sys_trace_thread_switched_out_user(void);
void sys_trace_thread_priority_set_user(struct k_thread *thread, int prio);
void sys_trace_thread_sched_ready_user(struct k_thread *thread);
void sys_trace_isr_enter_user(void);
void sys_trace_isr_exit_user(void);
void sys_trace_idle_user(void);
void sys_trace_k_thread_yield_user(void);
void sys_trace_k_sem_init_user(struct k_sem *sem, int ret);
void sys_trace_k_sem_give_enter_user(struct k_sem *sem);
void sys_trace_k_sem_take_blocking_user(struct k_sem *sem, k_timeout_t timeout);
void sys_trace_k_sem_take_exit_user(struct k_sem *sem, k_timeout_t timeout, int ret);
void sys_trace_k_mutex_init_user(struct k_mutex *mutex, int ret);
void sys_trace_k_mutex_lock_blocking_user(struct k_mutex *mutex, k_timeout_t timeout);
void sys_trace_k_mutex_lock_exit_user(struct k_mutex *mutex, k_timeout_t timeout, int ret);
void sys_trace_k_mutex_unlock_exit_user(struct k_mutex *mutex, int ret);
void sys_trace_k_msgq_init_user(struct k_msgq *msgq);
void sys_trace_k_msgq_put_blocking_user(struct k_msgq *msgq, k_timeout_t timeout);
void sys_trace_k_msgq_put_exit_user(struct k_msgq *msgq, k_timeout_t timeout, int ret);
void sys_trace_k_msgq_get_blocking_user(struct k_msgq *msgq, k_timeout_t timeout);
void sys_trace_k_msgq_get_exit_user(struct k_msgq *msgq, k_timeout_t timeout, int ret);
void sys_trace_k_event_init_user(struct k_event *event);
void sys_trace_k_event_post_exit_user(struct k_event *event, uint32_t events, uint32_t events_mask);
void sys_trace_k_event_wait_blocking_user(struct k_event *event, uint32_t events, uint32_t options,
                                          k_timeout_t timeout);
void sys_trace_k_event_wait_exit_user(struct k_event *event, uint32_t events, int ret);

#endif /* STANDIN_ZEPHYR_KERNEL_H */
