/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file stages.h
 * @brief The camera pipeline of the demo (the video pipeline of "Debugging Threading issues in
 * ThreadX circa 2011", blog.coffeetocode.com, "Why a context switch logger?"): one thread per
 * stage, frames handed on through bounded queues, buffers recycled through a free pool.
 *
 * ```
 *   FreePool --> capture --ToProcess--> process --ToEncode--> encode --ToSink--> sink --+
 *      ^                                                                               |
 *      +-------------------------------------------------------------------------------+
 * ```
 * capture draws a test pattern at a fixed frame rate, like a sensor: it never waits for a
 * buffer, and drops the frame (FrameDrop NoFreeBuffer) when the pool is empty. process hashes
 * the pixels (XXH64), encode run-length codes them, sink decodes and checks the result against
 * the hash (FrameDrop BadCheck on a mismatch) and returns the buffer to the pool. With fewer
 * stages the middle ones are left out (2: capture -> sink, 3: capture -> process -> sink).
 */
#ifndef DEMO_STAGES_H
#define DEMO_STAGES_H

#include <pthread.h>
#include <stdint.h>

#include "frame.h"
#include "frame_queue.h"

/** Stages (Stage values Capture .. Sink) and queues (Queue values FreePool .. ToSink). */
#define DEMO_STAGE_COUNT ((unsigned)demo_Stage_Sink + 1u)
#define DEMO_QUEUE_COUNT ((unsigned)demo_Queue_ToSink + 1u)
/** Frame buffers in the pool. */
#define DEMO_POOL_FRAMES 8u
/** Capacity of the queues between stages, frames (less than the pool, so producers can block). */
#define DEMO_QUEUE_FRAMES 3u

/** @brief What to run. */
typedef struct demo_config {
    uint32_t frames;         /**< frames to capture */
    unsigned stages;         /**< 2..4 */
    unsigned fps;            /**< capture rate, frames per second; 0 = free-running (drops frames) */
    demo_Stage_t slow_stage; /**< the stage slowed by slow_us (with slow_us > 0) */
    uint32_t slow_us;        /**< extra busy time per frame in slow_stage, us; 0 = none */
} demo_config_t;

/** @brief Counts of one stage, written by its thread only, read after the join. */
typedef struct demo_stage_stats {
    uint32_t frames;    /**< frames the stage finished */
    uint32_t dropped;   /**< frames it lost (capture: no buffer; sink: bad check) */
    uint64_t bytes_out; /**< bytes it handed on */
} demo_stage_stats_t;

struct demo_pipeline;

/** @brief What a stage thread is given: its pipeline and its position in it. */
typedef struct demo_stage_arg {
    struct demo_pipeline *p;
    unsigned index;
} demo_stage_arg_t;

/** @brief The pipeline. User memory (large: keep it static or on the heap). */
typedef struct demo_pipeline {
    evrec_host_t *host;
    demo_config_t cfg;
    unsigned n_stages;
    demo_Stage_t stage[DEMO_STAGE_COUNT];       /**< stages in pipeline order */
    demo_stage_stats_t stats[DEMO_STAGE_COUNT]; /**< indexed like `stage` */
    demo_frame_t frames[DEMO_POOL_FRAMES];
    demo_queue_t queue[DEMO_QUEUE_COUNT]; /**< indexed by demo_Queue_t */
    demo_frame_t *slots[DEMO_QUEUE_COUNT][DEMO_POOL_FRAMES];
    pthread_t thread[DEMO_STAGE_COUNT];
    demo_stage_arg_t arg[DEMO_STAGE_COUNT];
    uint8_t *sink_scratch; /**< DEMO_FRAME_BYTES: the sink's decoded pixels */
    uint8_t *sink_expect;  /**< DEMO_FRAME_BYTES: the sink's reference drawing */
} demo_pipeline_t;

/**
 * @brief Allocate the frame buffers and make the queues; the pool starts full.
 * @param[out] p the pipeline. @param[in] host where the stages record. @param[in] cfg what to run.
 * @retval 0 ready. @retval -1 bad configuration or out of memory (p is left freed).
 * **Context:** main thread.
 */
int demo_pipeline_init(demo_pipeline_t *p, evrec_host_t *host, const demo_config_t *cfg);

/**
 * @brief Start one thread per stage and wait until the sink has seen every frame.
 * @retval 0 done. @retval -1 a thread could not be created (those started are stopped and
 * joined first). **Context:** main thread; blocks for about frames / fps seconds.
 */
int demo_pipeline_run(demo_pipeline_t *p);

/** @brief Free what demo_pipeline_init() allocated. **Context:** main thread, after run. */
void demo_pipeline_free(demo_pipeline_t *p);

/** @brief English name of a stage ("capture", ...), also its thread's name. */
const char *demo_stage_name(demo_Stage_t s);

#endif /* DEMO_STAGES_H */
