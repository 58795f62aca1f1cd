/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for ThreadX's common/inc/tx_api.h (github.com/eclipse-threadx/threadx), for the
 * test of the hooks without the kernel: only the types, fields and constants evrec_threadx.c
 * reads, with the kernel's names and values. Written for this test; no kernel code.
 */
#ifndef TX_API_H
#define TX_API_H

#include "tx_user.h" /* as tx_port.h includes it with TX_INCLUDE_USER_DEFINE_FILE */

#ifndef TX_THREAD_USER_EXTENSION /* as tx_port.h, after its include of tx_user.h */
#define TX_THREAD_USER_EXTENSION
#endif

typedef void VOID;
typedef char CHAR;
typedef unsigned int UINT;
typedef unsigned int ULONG; /* the Linux port's 64-bit ULONG */

#define TX_NULL ((void *)0)
/* The kernel's critical section as the hooks' macros expand it (no interrupts here). */
#define TX_INTERRUPT_SAVE_AREA UINT interrupt_save;
#define TX_DISABLE interrupt_save = 0u;
#define TX_RESTORE (void)interrupt_save;
#define TX_AND ((UINT)2)
#define TX_OR ((UINT)0)
#define TX_SUCCESS ((UINT)0x00)
#define TX_NO_INSTANCE ((UINT)0x0D)
#define TX_READY ((UINT)0)
#define TX_COMPLETED ((UINT)1)
#define TX_TERMINATED ((UINT)2)
#define TX_SUSPENDED ((UINT)3)
#define TX_SLEEP ((UINT)4)
#define TX_QUEUE_SUSP ((UINT)5)
#define TX_SEMAPHORE_SUSP ((UINT)6)
#define TX_EVENT_FLAG ((UINT)7)
#define TX_BLOCK_MEMORY ((UINT)8)
#define TX_BYTE_MEMORY ((UINT)9)
#define TX_MUTEX_SUSP ((UINT)13)

typedef struct TX_THREAD_STRUCT {
    CHAR *tx_thread_name;
    UINT tx_thread_priority;
    UINT tx_thread_state;
    VOID *tx_thread_suspend_control_block;
    UINT tx_thread_suspend_status;
    TX_THREAD_USER_EXTENSION
} TX_THREAD;

typedef struct TX_QUEUE_STRUCT {
    CHAR *tx_queue_name;
    UINT tx_queue_enqueued;
    UINT tx_queue_available_storage;
} TX_QUEUE;

typedef struct TX_SEMAPHORE_STRUCT {
    CHAR *tx_semaphore_name;
    ULONG tx_semaphore_count;
} TX_SEMAPHORE;

typedef struct TX_MUTEX_STRUCT {
    CHAR *tx_mutex_name;
    TX_THREAD *tx_mutex_owner;
    UINT tx_mutex_suspended_count;
} TX_MUTEX;

typedef struct TX_EVENT_FLAGS_GROUP_STRUCT {
    CHAR *tx_event_flags_group_name;
    ULONG tx_event_flags_group_current;
} TX_EVENT_FLAGS_GROUP;

typedef struct TX_BLOCK_POOL_STRUCT {
    CHAR *tx_block_pool_name;
    UINT tx_block_pool_available;
} TX_BLOCK_POOL;

typedef struct TX_BYTE_POOL_STRUCT {
    CHAR *tx_byte_pool_name;
    ULONG tx_byte_pool_available;
} TX_BYTE_POOL;

typedef struct TX_TIMER_INTERNAL_STRUCT {
    ULONG tx_timer_internal_remaining_ticks;
    VOID (*tx_timer_internal_timeout_function)(ULONG id);
    ULONG tx_timer_internal_timeout_param;
} TX_TIMER_INTERNAL;

typedef struct TX_TIMER_STRUCT {
    ULONG tx_timer_id;
    CHAR *tx_timer_name;
    TX_TIMER_INTERNAL tx_timer_internal;
} TX_TIMER;

#endif
