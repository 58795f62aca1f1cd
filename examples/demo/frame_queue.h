/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file frame_queue.h
 * @brief A bounded FIFO of frame pointers (mutex + two condvars) that records what it does:
 * every mutex acquisition (LockEvent: free or blocked, with the time blocked), every put/get
 * with the depth after it (QueueEvent), every sleep on a condvar and its wake-up (QueueWait),
 * and a Wake event when an operation signalled a sleeping thread.
 *
 * This is the queue each stage of the ThreadX logger write-up's pipeline blocks on ("These threads
 * would block on a queue for work to do"; see stages.h). A NULL frame pointer is a legal item: the
 * pipeline uses it as the end-of-stream token.
 */
#ifndef DEMO_FRAME_QUEUE_H
#define DEMO_FRAME_QUEUE_H

#include <pthread.h>
#include <stdint.h>

#include "demo_events.h"

struct demo_frame;

/** @brief Who is calling: the host to record through and the caller's Thread value. */
typedef struct demo_caller {
    evrec_host_t *host;
    demo_Thread_t thread;
} demo_caller_t;

/**
 * @brief The Frame struct the records carry for a frame buffer: its number and the low 32 bits
 * of its hash (0 until the process stage computed it); NULL (the end-of-stream token) gives
 * number `none`. **Context:** any.
 */
demo_Frame_t demo_frame_info(const struct demo_frame *f);

/** @brief The queue. User memory; fields are private. */
typedef struct demo_queue {
    pthread_mutex_t lock;
    pthread_cond_t not_empty;
    pthread_cond_t not_full;
    struct demo_frame **slots; /**< `capacity` entries, owned by the caller */
    uint16_t capacity;
    uint16_t count;
    uint16_t head;
    uint16_t getters_asleep;
    uint16_t putters_asleep;
    demo_Queue_t id;
} demo_queue_t;

/**
 * @brief Make an empty queue.
 * @param[out] q the queue. @param id its Queue value (names it and its mutex in records).
 * @param[in] slots caller memory for `capacity` pointers, alive as long as the queue.
 * @param capacity frames the queue holds, 1..65535.
 * @retval 0 ready. @retval -1 bad argument or a pthread object could not be made.
 * **Context:** thread, before the queue is shared.
 */
int demo_queue_init(demo_queue_t *q, demo_Queue_t id, struct demo_frame **slots, uint16_t capacity);

/** @brief Release the pthread objects. **Context:** after every user of the queue is joined. */
void demo_queue_destroy(demo_queue_t *q);

/**
 * @brief Append a frame, sleeping while the queue is full.
 * @param[in,out] q the queue. @param[in] frame the item (NULL = end of stream); ownership
 * passes to whoever gets it. @param[in] who the caller, for the records.
 * **Context:** thread; blocks.
 */
void demo_queue_put(demo_queue_t *q, struct demo_frame *frame, const demo_caller_t *who);

/**
 * @brief Take the oldest frame, sleeping while the queue is empty.
 * @return the item (NULL = end of stream). **Context:** thread; blocks.
 */
struct demo_frame *demo_queue_get(demo_queue_t *q, const demo_caller_t *who);

/**
 * @brief Take the oldest frame if there is one, without sleeping on the condvar (the mutex may
 * still block briefly).
 * @param[out] out the item. @retval 1 got one. @retval 0 the queue was empty.
 * **Context:** thread.
 */
int demo_queue_try_get(demo_queue_t *q, struct demo_frame **out, const demo_caller_t *who);

/** @brief CLOCK_MONOTONIC in nanoseconds. **Context:** any thread. */
uint64_t demo_now_ns(void);

#endif /* DEMO_FRAME_QUEUE_H */
