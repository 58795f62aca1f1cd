/**
 * @file demo_events.h
 * @brief Event types of the camera-pipeline demo, written by hand the way `evrec-gen` will emit
 * them: ids, native structs, static const meta-info tables (demo_events.c) and one inline record
 * function per event type (evrec_reserve() -> field stores -> evrec_commit()).
 *
 * The pipeline is the one of seed 004_aec00caaa2a95ef2.txt ("Why a context switch logger?"):
 * one thread per stage, each blocking on a queue for a frame. The events follow CCore's
 * conventions (seed 003_ea95ce95c317374b.txt): every struct starts with `u32 time, u16 id`; the
 * marker of an event comes from its `type` field; class ids group the event types that a viewer
 * draws in one lane:
 *
 * | event       | class | what it says                                             |
 * |-------------|-------|----------------------------------------------------------|
 * | FrameEvent  | Frame | a stage starts (Up) or finishes (Down) a frame           |
 * | FrameDrop   | Frame | a frame was lost (Error): no free buffer, or a bad check |
 * | QueueEvent  | Queue | put (Up) / get (Down) with the depth after the operation, |
 * |             |       | and Push when the operation woke a sleeping thread      |
 * | QueueWait   | Queue | a thread sleeps on a condvar (Wait) and wakes (Pass)     |
 * | LockEvent   | Lock  | a queue mutex taken at once, or after blocking           |
 *
 * Every application event carries `thread`, a value of the run-time enum DemoThread (CCore
 * `EventEnumValue`): threads name themselves with demo_thread_name() when they start.
 */
#ifndef DEMO_EVENTS_H
#define DEMO_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_config.h"
#include "evrec/evrec_meta.h"
#include "evrec/evrec_recorder.h"

/* ---- enum ids (index in demo_meta.enums) ---- */
enum {
    DEMO_ENUM_EVENT_CONTROL_TYPE = 0,
    DEMO_ENUM_THREAD = 1,
    DEMO_ENUM_STAGE = 2,
    DEMO_ENUM_FRAME_TYPE = 3,
    DEMO_ENUM_DROP_REASON = 4,
    DEMO_ENUM_QUEUE = 5,
    DEMO_ENUM_QUEUE_OP = 6,
    DEMO_ENUM_WAIT_TYPE = 7,
    DEMO_ENUM_LOCK_TYPE = 8,
    DEMO_ENUM_FRAME_NUMBER = 9,
    DEMO_ENUM_COUNT = 10
};

/* ---- struct ids (index in demo_meta.structs) ---- */
enum {
    DEMO_STRUCT_EVENT_CONTROL = 0,
    DEMO_STRUCT_FRAME_EVENT = 1,
    DEMO_STRUCT_FRAME_DROP = 2,
    DEMO_STRUCT_QUEUE_EVENT = 3,
    DEMO_STRUCT_QUEUE_WAIT = 4,
    DEMO_STRUCT_LOCK_EVENT = 5,
    DEMO_STRUCT_COUNT = 6
};

/* ---- event ids (index in demo_meta.events; the `id` written in each record) ---- */
enum {
    DEMO_EVENT_CONTROL = EVREC_CONTROL_EVENT_ID,
    DEMO_EVENT_FRAME = 1,
    DEMO_EVENT_FRAME_DROP = 2,
    DEMO_EVENT_QUEUE = 3,
    DEMO_EVENT_QUEUE_WAIT = 4,
    DEMO_EVENT_LOCK = 5,
    DEMO_EVENT_COUNT = 6
};

/* ---- class ids: the first event of each group ---- */
enum {
    DEMO_CLASS_CONTROL = DEMO_EVENT_CONTROL,
    DEMO_CLASS_FRAME = DEMO_EVENT_FRAME,
    DEMO_CLASS_QUEUE = DEMO_EVENT_QUEUE,
    DEMO_CLASS_LOCK = DEMO_EVENT_LOCK
};

/* ---- enum values ---- */

/** DemoThread (enum_uint8): run-time names in [DEMO_THREAD_BASE, DEMO_THREAD_LIM). */
#define DEMO_THREAD_BASE 0u
#define DEMO_THREAD_LIM 32u

/** DemoStage (enum_uint8): pipeline stages, in pipeline order. */
typedef enum demo_stage {
    DEMO_STAGE_CAPTURE = 0,
    DEMO_STAGE_PROCESS = 1,
    DEMO_STAGE_ENCODE = 2,
    DEMO_STAGE_SINK = 3,
    DEMO_STAGE_COUNT = 4
} demo_stage;

/** DemoFrameType (enum_uint8): FrameEvent `type`. */
typedef enum demo_frame_type {
    DEMO_FRAME_START = 0, /**< marker Up */
    DEMO_FRAME_DONE = 1   /**< marker Down */
} demo_frame_type;

/** DemoDropReason (enum_uint8): FrameDrop `type`; every value has marker Error. */
typedef enum demo_drop_reason {
    DEMO_DROP_NO_BUFFER = 0, /**< capture found no free frame buffer (pipeline too slow) */
    DEMO_DROP_BAD_CHECK = 1  /**< the sink's check of the frame's content failed */
} demo_drop_reason;

/** DemoQueue (enum_uint8): the queues, named by who takes from them; also names their mutex. */
typedef enum demo_queue_id {
    DEMO_QUEUE_FREE_POOL = 0, /**< empty frame buffers, sink -> capture */
    DEMO_QUEUE_TO_PROCESS = 1,
    DEMO_QUEUE_TO_ENCODE = 2,
    DEMO_QUEUE_TO_SINK = 3,
    DEMO_QUEUE_COUNT = 4
} demo_queue_id;

/** DemoQueueOp (enum_uint8): QueueEvent `type`. */
typedef enum demo_queue_op {
    DEMO_QUEUE_PUT = 0,  /**< marker Up: depth grew */
    DEMO_QUEUE_GET = 1,  /**< marker Down: depth shrank */
    DEMO_QUEUE_WAKE = 2  /**< marker Push: the put/get just done signalled a sleeping thread */
} demo_queue_op;

/** DemoWaitType (enum_uint8): QueueWait `type`. */
typedef enum demo_wait_type {
    DEMO_WAIT_NOT_EMPTY = 0, /**< marker Wait: consumer sleeps, queue empty */
    DEMO_WAIT_NOT_FULL = 1,  /**< marker Wait: producer sleeps, queue full */
    DEMO_WAIT_WOKEN = 2      /**< marker Pass: woke up; wait_ns is the time asleep */
} demo_wait_type;

/** DemoLockType (enum_uint8): LockEvent `type`. */
typedef enum demo_lock_type {
    DEMO_LOCK_FREE = 0,   /**< no marker: the mutex was free (trylock succeeded) */
    DEMO_LOCK_BLOCKED = 1 /**< marker DownBlock: the thread blocked; wait_ns is how long */
} demo_lock_type;

/** DemoFrameNumber (enum_uint32): a frame number; the one named value is "none" (the
 * end-of-stream token, or a pool buffer never used yet). Every other value shows as a number. */
#define DEMO_FRAME_NONE 0xFFFFFFFFu

/* ---- native event structs ---- */

/** FrameEvent: 20 bytes native, 17 saved. */
typedef struct demo_frame_event {
    uint32_t time;
    uint16_t id;
    uint8_t thread; /**< DemoThread */
    uint8_t stage;  /**< DemoStage */
    uint8_t type;   /**< DemoFrameType */
    uint32_t frame; /**< frame number, from 0 */
    uint32_t bytes; /**< bytes the stage takes in (Start) or hands on (Done) */
} demo_frame_event_t;

/** FrameDrop: 16 bytes native, 13 saved. */
typedef struct demo_frame_drop {
    uint32_t time;
    uint16_t id;
    uint8_t thread; /**< DemoThread */
    uint8_t stage;  /**< DemoStage that lost the frame */
    uint8_t type;   /**< DemoDropReason */
    uint32_t frame;
} demo_frame_drop_t;

/** QueueEvent: 20 bytes native, 17 saved. */
typedef struct demo_queue_event {
    uint32_t time;
    uint16_t id;
    uint8_t thread;    /**< DemoThread */
    uint8_t queue;     /**< DemoQueue */
    uint8_t type;      /**< DemoQueueOp */
    uint16_t depth;    /**< frames in the queue after the operation */
    uint16_t capacity; /**< frames the queue holds */
    uint32_t frame;    /**< DemoFrameNumber: the frame the buffer holds (FreePool: the last
                            one it carried), or DEMO_FRAME_NONE */
} demo_queue_event_t;

/** QueueWait: 16 bytes native, 15 saved. */
typedef struct demo_queue_wait {
    uint32_t time;
    uint16_t id;
    uint8_t thread;   /**< DemoThread */
    uint8_t queue;    /**< DemoQueue */
    uint8_t type;     /**< DemoWaitType */
    uint16_t depth;   /**< frames in the queue when the thread went to sleep or woke */
    uint32_t wait_ns; /**< Woken: ns asleep on the condvar; 0 otherwise */
} demo_queue_wait_t;

/** LockEvent: 16 bytes native, 13 saved. */
typedef struct demo_lock_event {
    uint32_t time;
    uint16_t id;
    uint8_t thread;   /**< DemoThread */
    uint8_t lock;     /**< DemoQueue whose mutex was taken */
    uint8_t type;     /**< DemoLockType */
    uint32_t wait_ns; /**< ns spent blocked in pthread_mutex_lock; 0 when free */
} demo_lock_event_t;

/* The record path stores straight into the trace buffer, so the native layout is the contract:
 * check it at compile time as a generator would. */
#define DEMO_CHECK_HEADER(T)                                                                     \
    _Static_assert(offsetof(T, time) == 0 && offsetof(T, id) == 4, #T ": time/id prefix");       \
    _Static_assert(sizeof(T) % EVREC_RECORD_ALIGN == 0, #T ": size not a multiple of 4");        \
    _Static_assert(sizeof(T) <= EVREC_MAX_EVENT_SIZE, #T ": larger than EVREC_MAX_EVENT_SIZE")
DEMO_CHECK_HEADER(demo_frame_event_t);
DEMO_CHECK_HEADER(demo_frame_drop_t);
DEMO_CHECK_HEADER(demo_queue_event_t);
DEMO_CHECK_HEADER(demo_queue_wait_t);
DEMO_CHECK_HEADER(demo_lock_event_t);
_Static_assert(sizeof(demo_frame_event_t) == 20, "FrameEvent native size");
_Static_assert(sizeof(demo_frame_drop_t) == 16, "FrameDrop native size");
_Static_assert(sizeof(demo_queue_event_t) == 20, "QueueEvent native size");
_Static_assert(sizeof(demo_queue_wait_t) == 16, "QueueWait native size");
_Static_assert(sizeof(demo_lock_event_t) == 16, "LockEvent native size");

/* ---- meta-info ---- */

/**
 * @brief The demo's meta-info: static const tables (demo_events.c). `schema_hash` is 0; the
 * demo computes it at start with evrec_meta_schema_hash() and passes it to evrec_save_ex().
 * Check it with evrec_meta_validate() before recording.
 */
extern const evrec_meta_t demo_meta;

/**
 * @brief The run-time enum of thread names (DemoThread), referenced by demo_meta.
 * Initialised by demo_events_init(); values are handed out by demo_thread_name().
 */
extern evrec_runtime_enum_t demo_thread_enum;

/**
 * @brief Prepare the run-time enum of thread names. Call once, before recording starts.
 * @retval EVREC_OK ready. @retval EVREC_E_ARG (cannot happen with the static tables).
 * **Context:** main thread, before any other thread records.
 */
evrec_status demo_events_init(void);

/**
 * @brief Give the calling thread a DemoThread value named `name`.
 * @param[in] name a string that lives until the file is saved (a literal).
 * @return the value to put in `thread` fields; DEMO_THREAD_LIM when the table is full (records
 * then show the number instead of a name).
 * **Context:** any thread; lock-free.
 */
uint8_t demo_thread_name(const char *name);

/* ---- record functions (generated style: reserve -> stores -> commit, no temporary) ---- */

/** @brief Record FrameEvent. **Context:** any thread or signal handler; lock-free, never blocks. */
static inline void demo_record_frame(evrec_host_t *host, uint8_t thread, demo_stage stage,
                                     demo_frame_type type, uint32_t frame, uint32_t bytes)
{
#if EVREC_ENABLE
    demo_frame_event_t *e = (demo_frame_event_t *)evrec_reserve(host, sizeof(demo_frame_event_t));
    if (e) {
        e->thread = thread;
        e->stage = (uint8_t)stage;
        e->type = (uint8_t)type;
        e->frame = frame;
        e->bytes = bytes;
        evrec_commit(e, DEMO_EVENT_FRAME);
    }
#else
    (void)host, (void)thread, (void)stage, (void)type, (void)frame, (void)bytes;
#endif
}

/** @brief Record FrameDrop. **Context:** any thread or signal handler; lock-free, never blocks. */
static inline void demo_record_frame_drop(evrec_host_t *host, uint8_t thread, demo_stage stage,
                                          demo_drop_reason type, uint32_t frame)
{
#if EVREC_ENABLE
    demo_frame_drop_t *e = (demo_frame_drop_t *)evrec_reserve(host, sizeof(demo_frame_drop_t));
    if (e) {
        e->thread = thread;
        e->stage = (uint8_t)stage;
        e->type = (uint8_t)type;
        e->frame = frame;
        evrec_commit(e, DEMO_EVENT_FRAME_DROP);
    }
#else
    (void)host, (void)thread, (void)stage, (void)type, (void)frame;
#endif
}

/** @brief Record QueueEvent. **Context:** any thread or signal handler; lock-free, never blocks. */
static inline void demo_record_queue(evrec_host_t *host, uint8_t thread, demo_queue_id queue,
                                     demo_queue_op type, uint16_t depth, uint16_t capacity,
                                     uint32_t frame)
{
#if EVREC_ENABLE
    demo_queue_event_t *e = (demo_queue_event_t *)evrec_reserve(host, sizeof(demo_queue_event_t));
    if (e) {
        e->thread = thread;
        e->queue = (uint8_t)queue;
        e->type = (uint8_t)type;
        e->depth = depth;
        e->capacity = capacity;
        e->frame = frame;
        evrec_commit(e, DEMO_EVENT_QUEUE);
    }
#else
    (void)host, (void)thread, (void)queue, (void)type, (void)depth, (void)capacity, (void)frame;
#endif
}

/** @brief Record QueueWait. **Context:** any thread or signal handler; lock-free, never blocks. */
static inline void demo_record_queue_wait(evrec_host_t *host, uint8_t thread, demo_queue_id queue,
                                          demo_wait_type type, uint16_t depth, uint32_t wait_ns)
{
#if EVREC_ENABLE
    demo_queue_wait_t *e = (demo_queue_wait_t *)evrec_reserve(host, sizeof(demo_queue_wait_t));
    if (e) {
        e->thread = thread;
        e->queue = (uint8_t)queue;
        e->type = (uint8_t)type;
        e->depth = depth;
        e->wait_ns = wait_ns;
        evrec_commit(e, DEMO_EVENT_QUEUE_WAIT);
    }
#else
    (void)host, (void)thread, (void)queue, (void)type, (void)depth, (void)wait_ns;
#endif
}

/** @brief Record LockEvent. **Context:** any thread or signal handler; lock-free, never blocks. */
static inline void demo_record_lock(evrec_host_t *host, uint8_t thread, demo_queue_id lock,
                                    demo_lock_type type, uint32_t wait_ns)
{
#if EVREC_ENABLE
    demo_lock_event_t *e = (demo_lock_event_t *)evrec_reserve(host, sizeof(demo_lock_event_t));
    if (e) {
        e->thread = thread;
        e->lock = (uint8_t)lock;
        e->type = (uint8_t)type;
        e->wait_ns = wait_ns;
        evrec_commit(e, DEMO_EVENT_LOCK);
    }
#else
    (void)host, (void)thread, (void)lock, (void)type, (void)wait_ns;
#endif
}

#endif /* DEMO_EVENTS_H */
