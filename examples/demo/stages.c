/* SPDX-License-Identifier: Apache-2.0 */
/* The pipeline's stage threads (see stages.h). */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>

#include "stages.h"

const char *demo_stage_name(demo_Stage_t s)
{
    static const char *const names[DEMO_STAGE_COUNT] = {"capture", "process", "encode", "sink"};
    return (unsigned)s < DEMO_STAGE_COUNT ? names[s] : "?";
}

/* The queue a stage takes its frames from. */
static demo_Queue_t input_of(demo_Stage_t s)
{
    switch (s) {
    case demo_Stage_Process: return demo_Queue_ToProcess;
    case demo_Stage_Encode: return demo_Queue_ToEncode;
    case demo_Stage_Sink: return demo_Queue_ToSink;
    default: return demo_Queue_FreePool;
    }
}

/* The queue stage number `i` hands its frames to. */
static demo_queue_t *output_of(demo_pipeline_t *p, unsigned i)
{
    return &p->queue[i + 1 < p->n_stages ? input_of(p->stage[i + 1]) : demo_Queue_FreePool];
}

static void sleep_until(uint64_t t_ns)
{
    struct timespec ts = {(time_t)(t_ns / 1000000000u), (long)(t_ns % 1000000000u)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {
    }
}

/* --slow-stage: the stage `s` spends cfg.slow_us more (busy, as more work would) on each frame. */
static void slow_down(const demo_pipeline_t *p, demo_Stage_t s)
{
    if (p->cfg.slow_us && s == p->cfg.slow_stage) {
        uint64_t end = demo_now_ns() + (uint64_t)p->cfg.slow_us * 1000u;
        while (demo_now_ns() < end) {
        }
    }
}

/* Capture: a sensor at cfg.fps. It must not wait for a buffer: no free one = a lost frame. */
static void run_capture(demo_pipeline_t *p, unsigned i, const demo_caller_t *who)
{
    demo_queue_t *pool = &p->queue[demo_Queue_FreePool];
    demo_queue_t *out = output_of(p, i);
    demo_stage_stats_t *st = &p->stats[i];
    uint64_t period = p->cfg.fps ? 1000000000u / p->cfg.fps : 0;
    uint64_t due = demo_now_ns();
    for (uint32_t n = 0; n < p->cfg.frames; n++) {
        if (period) {
            sleep_until(due);
            due += period;
        }
        demo_frame_t *f;
        if (!demo_queue_try_get(pool, &f, who)) {
            demo_Frame_t lost = {n, 0};
            demo_record_FrameDrop(who->host, who->thread, demo_Stage_Capture, demo_DropReason_NoFreeBuffer, lost);
            st->dropped++;
            if (!period) {
                /* Free-running: give the others a chance instead of dropping everything. */
                sched_yield();
            }
            continue;
        }
        f->number = n;
        f->hashed = 0;
        f->encoded_bytes = 0;
        demo_record_FrameEvent(who->host, who->thread, demo_Stage_Capture, demo_FrameType_Start,
                               demo_frame_info(f), 0);
        demo_frame_draw(f->pixels, n);
        slow_down(p, demo_Stage_Capture);
        demo_record_FrameEvent(who->host, who->thread, demo_Stage_Capture, demo_FrameType_Done, demo_frame_info(f),
                               DEMO_FRAME_BYTES);
        st->frames++;
        st->bytes_out += DEMO_FRAME_BYTES;
        demo_queue_put(out, f, who);
    }
    demo_queue_put(out, NULL, who); /* end of stream */
}

/* Process: XXH64 of the pixels. */
static void work_process(demo_frame_t *f, uint32_t *bytes)
{
    f->hash = XXH64(f->pixels, DEMO_FRAME_BYTES, 0);
    f->hashed = 1;
    *bytes = DEMO_FRAME_BYTES;
}

/* Encode: run-length code of the pixels. */
static void work_encode(demo_frame_t *f, uint32_t *bytes)
{
    f->encoded_bytes = (uint32_t)demo_rle_encode(f->pixels, DEMO_FRAME_BYTES, f->encoded);
    *bytes = f->encoded_bytes;
}

/* Sink: rebuild the pixels and check them: against the hash when the frame was hashed, else
 * against a fresh drawing of the pattern. Returns 1 when the frame is good. */
static int work_sink(const demo_frame_t *f, uint8_t *scratch, uint8_t *expect, uint32_t *bytes)
{
    const uint8_t *pixels = f->pixels;
    size_t n = DEMO_FRAME_BYTES;
    if (f->encoded_bytes) {
        n = demo_rle_decode(f->encoded, f->encoded_bytes, scratch, DEMO_FRAME_BYTES);
        pixels = scratch;
    }
    *bytes = n == (size_t)-1 ? 0 : (uint32_t)n;
    if (n != DEMO_FRAME_BYTES) {
        return 0;
    }
    if (f->hashed) {
        return XXH64(pixels, n, 0) == f->hash;
    }
    demo_frame_draw(expect, f->number);
    return memcmp(pixels, expect, n) == 0;
}

/* Every stage after capture: get, work, hand on, until the end-of-stream token. */
static void run_worker(demo_pipeline_t *p, unsigned i, const demo_caller_t *who)
{
    demo_Stage_t s = p->stage[i];
    demo_queue_t *in = &p->queue[input_of(s)];
    demo_queue_t *out = output_of(p, i);
    demo_stage_stats_t *st = &p->stats[i];
    for (;;) {
        demo_frame_t *f = demo_queue_get(in, who);
        if (!f) {
            if (s != demo_Stage_Sink) {
                demo_queue_put(out, NULL, who);
            }
            break;
        }
        uint32_t in_bytes = f->encoded_bytes ? f->encoded_bytes : DEMO_FRAME_BYTES;
        uint32_t out_bytes = 0;
        demo_record_FrameEvent(who->host, who->thread, s, demo_FrameType_Start, demo_frame_info(f), in_bytes);
        int good = 1;
        if (s == demo_Stage_Process) {
            work_process(f, &out_bytes);
        } else if (s == demo_Stage_Encode) {
            work_encode(f, &out_bytes);
        } else {
            good = work_sink(f, p->sink_scratch, p->sink_expect, &out_bytes);
        }
        slow_down(p, s);
        demo_record_FrameEvent(who->host, who->thread, s, demo_FrameType_Done, demo_frame_info(f), out_bytes);
        if (good) {
            st->frames++;
            st->bytes_out += out_bytes;
        } else {
            demo_record_FrameDrop(who->host, who->thread, s, demo_DropReason_BadCheck, demo_frame_info(f));
            st->dropped++;
        }
        demo_queue_put(out, f, who);
    }
}

static void *stage_main(void *arg)
{
    const demo_stage_arg_t *a = (const demo_stage_arg_t *)arg;
    demo_pipeline_t *p = a->p;
    demo_Stage_t s = p->stage[a->index];
    demo_caller_t who = {p->host, 0};
    /* Names the thread in the trace; when the 32 names are used up, records show the number. */
    (void)demo_Thread_alloc(demo_stage_name(s), &who.thread);
    if (s == demo_Stage_Capture) {
        run_capture(p, a->index, &who);
    } else {
        run_worker(p, a->index, &who);
    }
    return NULL;
}

void demo_pipeline_free(demo_pipeline_t *p)
{
    for (unsigned i = 0; i < DEMO_POOL_FRAMES; i++) {
        free(p->frames[i].pixels);
        free(p->frames[i].encoded);
        p->frames[i].pixels = NULL;
        p->frames[i].encoded = NULL;
    }
    free(p->sink_scratch);
    free(p->sink_expect);
    p->sink_scratch = NULL;
    p->sink_expect = NULL;
    for (unsigned q = 0; q < DEMO_QUEUE_COUNT; q++) {
        demo_queue_destroy(&p->queue[q]);
    }
}

int demo_pipeline_init(demo_pipeline_t *p, evrec_host_t *host, const demo_config_t *cfg)
{
    if (!p || !host || !cfg || cfg->stages < 2 || cfg->stages > DEMO_STAGE_COUNT) {
        return -1;
    }
    memset(p, 0, sizeof *p);
    p->host = host;
    p->cfg = *cfg;
    static const demo_Stage_t order[3][DEMO_STAGE_COUNT] = {
        {demo_Stage_Capture, demo_Stage_Sink},
        {demo_Stage_Capture, demo_Stage_Process, demo_Stage_Sink},
        {demo_Stage_Capture, demo_Stage_Process, demo_Stage_Encode, demo_Stage_Sink},
    };
    p->n_stages = cfg->stages;
    memcpy(p->stage, order[cfg->stages - 2], sizeof p->stage);
    for (unsigned q = 0; q < DEMO_QUEUE_COUNT; q++) {
        uint16_t cap = q == demo_Queue_FreePool ? DEMO_POOL_FRAMES : DEMO_QUEUE_FRAMES;
        if (demo_queue_init(&p->queue[q], (demo_Queue_t)q, p->slots[q], cap) != 0) {
            while (q--) {
                demo_queue_destroy(&p->queue[q]);
            }
            return -1;
        }
    }
    demo_queue_t *pool = &p->queue[demo_Queue_FreePool];
    for (unsigned i = 0; i < DEMO_POOL_FRAMES; i++) {
        p->frames[i].pixels = malloc(DEMO_FRAME_BYTES);
        p->frames[i].encoded = malloc(DEMO_ENCODED_MAX);
        if (!p->frames[i].pixels || !p->frames[i].encoded) {
            demo_pipeline_free(p);
            return -1;
        }
        /* Not recorded: nothing is attached yet, and the pool is not shared yet. */
        p->frames[i].number = demo_FrameNumber_none;
        pool->slots[i] = &p->frames[i];
    }
    pool->count = DEMO_POOL_FRAMES;
    p->sink_scratch = malloc(DEMO_FRAME_BYTES);
    p->sink_expect = malloc(DEMO_FRAME_BYTES);
    if (!p->sink_scratch || !p->sink_expect) {
        demo_pipeline_free(p);
        return -1;
    }
    return 0;
}

int demo_pipeline_run(demo_pipeline_t *p)
{
    /* Start from the sink backwards, so that a failure leaves a running tail that an
     * end-of-stream token can drain. */
    unsigned started = 0;
    int rc = 0;
    for (unsigned k = p->n_stages; k-- > 0;) {
        p->arg[k].p = p;
        p->arg[k].index = k;
        if (pthread_create(&p->thread[k], NULL, stage_main, &p->arg[k]) != 0) {
            rc = -1;
            if (started) {
                demo_caller_t who = {p->host, (demo_Thread_t)demo_Thread_runtime.lim}; /* unnamed */
                demo_queue_put(&p->queue[input_of(p->stage[k + 1])], NULL, &who);
            }
            break;
        }
        started++;
    }
    for (unsigned k = p->n_stages - started; k < p->n_stages; k++) {
        pthread_join(p->thread[k], NULL);
    }
    return rc;
}
