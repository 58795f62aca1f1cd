/* SPDX-License-Identifier: Apache-2.0 */
/* Bounded, instrumented frame queue: see frame_queue.h. */
#include <time.h>

#include "frame.h"
#include "frame_queue.h"

uint64_t demo_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint32_t ns_since(uint64_t t0)
{
    uint64_t d = demo_now_ns() - t0;
    return d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
}

demo_Frame_t demo_frame_info(const demo_frame_t *f)
{
    demo_Frame_t r = {demo_FrameNumber_none, 0};
    if (f) {
        r.number = f->number;
        r.hash = f->hashed ? (uint32_t)f->hash : 0;
    }
    return r;
}

int demo_queue_init(demo_queue_t *q, demo_Queue_t id, demo_frame_t **slots, uint16_t capacity)
{
    if (!q || !slots || capacity == 0) {
        return -1;
    }
    q->slots = slots;
    q->capacity = capacity;
    q->count = 0;
    q->head = 0;
    q->getters_asleep = 0;
    q->putters_asleep = 0;
    q->id = id;
    if (pthread_mutex_init(&q->lock, NULL) != 0) {
        return -1;
    }
    if (pthread_cond_init(&q->not_empty, NULL) != 0) {
        pthread_mutex_destroy(&q->lock);
        return -1;
    }
    if (pthread_cond_init(&q->not_full, NULL) != 0) {
        pthread_cond_destroy(&q->not_empty);
        pthread_mutex_destroy(&q->lock);
        return -1;
    }
    return 0;
}

void demo_queue_destroy(demo_queue_t *q)
{
    pthread_cond_destroy(&q->not_full);
    pthread_cond_destroy(&q->not_empty);
    pthread_mutex_destroy(&q->lock);
}

/* Take the mutex; record whether it was free or how long the caller blocked. */
static void lock_queue(demo_queue_t *q, const demo_caller_t *who)
{
    if (pthread_mutex_trylock(&q->lock) == 0) {
        demo_record_LockEvent(who->host, who->thread, q->id, demo_LockType_Free, 0);
        return;
    }
    uint64_t t0 = demo_now_ns();
    pthread_mutex_lock(&q->lock);
    demo_record_LockEvent(who->host, who->thread, q->id, demo_LockType_Blocked, ns_since(t0));
}

/* Sleep on `cv` once (the caller loops on its condition); records Wait and then Pass. */
static void wait_on(demo_queue_t *q, pthread_cond_t *cv, demo_WaitType_t why, uint16_t *asleep,
                    const demo_caller_t *who)
{
    demo_record_QueueWait(who->host, who->thread, q->id, why, q->count, 0);
    uint64_t t0 = demo_now_ns();
    (*asleep)++;
    pthread_cond_wait(cv, &q->lock);
    (*asleep)--;
    demo_record_QueueWait(who->host, who->thread, q->id, demo_WaitType_Woken, q->count, ns_since(t0));
}

void demo_queue_put(demo_queue_t *q, demo_frame_t *frame, const demo_caller_t *who)
{
    lock_queue(q, who);
    while (q->count == q->capacity) {
        wait_on(q, &q->not_full, demo_WaitType_WaitNotFull, &q->putters_asleep, who);
    }
    q->slots[(q->head + q->count) % q->capacity] = frame;
    q->count++;
    demo_record_QueueEvent(who->host, who->thread, q->id, demo_QueueOp_Put, q->count, q->capacity,
                           demo_frame_info(frame));
    if (q->getters_asleep) {
        pthread_cond_signal(&q->not_empty);
        demo_record_QueueEvent(who->host, who->thread, q->id, demo_QueueOp_Wake, q->count, q->capacity,
                               demo_frame_info(frame));
    }
    pthread_mutex_unlock(&q->lock);
}

/* Remove the head; the caller holds the lock and count > 0. */
static demo_frame_t *take_head(demo_queue_t *q, const demo_caller_t *who)
{
    demo_frame_t *f = q->slots[q->head];
    q->head = (uint16_t)((q->head + 1u) % q->capacity);
    q->count--;
    demo_record_QueueEvent(who->host, who->thread, q->id, demo_QueueOp_Get, q->count, q->capacity,
                           demo_frame_info(f));
    if (q->putters_asleep) {
        pthread_cond_signal(&q->not_full);
        demo_record_QueueEvent(who->host, who->thread, q->id, demo_QueueOp_Wake, q->count, q->capacity,
                               demo_frame_info(f));
    }
    return f;
}

demo_frame_t *demo_queue_get(demo_queue_t *q, const demo_caller_t *who)
{
    lock_queue(q, who);
    while (q->count == 0) {
        wait_on(q, &q->not_empty, demo_WaitType_WaitNotEmpty, &q->getters_asleep, who);
    }
    demo_frame_t *f = take_head(q, who);
    pthread_mutex_unlock(&q->lock);
    return f;
}

int demo_queue_try_get(demo_queue_t *q, demo_frame_t **out, const demo_caller_t *who)
{
    lock_queue(q, who);
    int got = q->count > 0;
    if (got) {
        *out = take_head(q, who);
    }
    pthread_mutex_unlock(&q->lock);
    return got;
}
