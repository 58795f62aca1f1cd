/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in for ThreadX's common/inc/tx_trace.h: the event ids of the insert points evrec
 * records (the kernel's values; its comments list info1..info4 of each). */
#ifndef TX_TRACE_H
#define TX_TRACE_H

#define TX_TRACE_THREAD_RESUME 1  /* thread, previous state, stack, next thread */
#define TX_TRACE_THREAD_SUSPEND 2 /* thread, new state, stack, next thread */
#define TX_TRACE_ISR_ENTER 3      /* stack, ISR number, system state, preempt disable */
#define TX_TRACE_ISR_EXIT 4
#define TX_TRACE_BLOCK_ALLOCATE 10          /* pool, memory, wait option, remaining blocks */
#define TX_TRACE_BLOCK_POOL_CREATE 11       /* pool, start, total blocks, block size */
#define TX_TRACE_BLOCK_POOL_DELETE 12       /* pool, stack */
#define TX_TRACE_BLOCK_RELEASE 17           /* pool, memory, suspended, stack */
#define TX_TRACE_BYTE_ALLOCATE 20           /* pool, memory, size requested, wait option */
#define TX_TRACE_BYTE_POOL_CREATE 21        /* pool, start, pool size, stack */
#define TX_TRACE_BYTE_POOL_DELETE 22        /* pool, stack */
#define TX_TRACE_BYTE_RELEASE 27            /* pool, memory, suspended, available bytes */
#define TX_TRACE_EVENT_FLAGS_CREATE 30      /* group, stack */
#define TX_TRACE_EVENT_FLAGS_DELETE 31      /* group, stack */
#define TX_TRACE_EVENT_FLAGS_GET 32         /* group, requested, current, option */
#define TX_TRACE_EVENT_FLAGS_SET 36         /* group, flags, option, suspended count */
#define TX_TRACE_MUTEX_CREATE 50            /* mutex, inheritance, stack */
#define TX_TRACE_MUTEX_DELETE 51            /* mutex, stack */
#define TX_TRACE_MUTEX_GET 52               /* mutex, wait option, owner, own count */
#define TX_TRACE_MUTEX_PUT 57               /* mutex, owner, own count, stack */
#define TX_TRACE_QUEUE_CREATE 60            /* queue, message size, start, size */
#define TX_TRACE_QUEUE_DELETE 61            /* queue, stack */
#define TX_TRACE_QUEUE_FRONT_SEND 63        /* queue, source, wait option, enqueued */
#define TX_TRACE_QUEUE_RECEIVE 68           /* queue, destination, wait option, enqueued */
#define TX_TRACE_QUEUE_SEND 69              /* queue, source, wait option, enqueued */
#define TX_TRACE_SEMAPHORE_CREATE 81        /* semaphore, initial count, stack */
#define TX_TRACE_SEMAPHORE_DELETE 82        /* semaphore, stack */
#define TX_TRACE_SEMAPHORE_GET 83           /* semaphore, wait option, count, stack */
#define TX_TRACE_SEMAPHORE_PUT 88           /* semaphore, count, suspended count, stack */
#define TX_TRACE_THREAD_CREATE 100          /* thread, priority, stack, stack size */
#define TX_TRACE_THREAD_DELETE 101          /* thread, stack */
#define TX_TRACE_THREAD_PRIORITY_CHANGE 108 /* thread, new priority, old priority, state */
#define TX_TRACE_TIMER_CREATE 124           /* timer, initial ticks, reschedule ticks, enable */
#define TX_TRACE_TIMER_DELETE 126           /* timer */

#endif
