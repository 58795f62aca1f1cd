/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers of the stats tests: record a trace through the generated RTOS catalogue code and the
 * fake-clock recorder (each record at a time the test sets), save it into memory, and analyse it
 * with the reader and evrec_analysis. */
#ifndef EVREC_TEST_STATS_TRACE_H
#define EVREC_TEST_STATS_TRACE_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_analysis.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_save.h"
#include "../common/fake_clock.h"
#include "../common/mem_sink.h"
#include "rtos_events.h"

/* The recording under way. */
typedef struct trace {
    evrec_host_t host;
    evrec_recorder_t rec;
    uint32_t *buf;
    size_t buf_size;
    mem_t file;
} trace_t;

/* Start recording at time t0 with a buffer of `bytes`. */
static inline void trace_start(trace_t *tr, size_t bytes, uint32_t t0)
{
    memset(tr, 0, sizeof *tr);
    tr->buf_size = bytes;
    tr->buf = (uint32_t *)malloc(bytes);
    cr_assert_not_null(tr->buf);
    cr_assert_eq(rtos_runtime_init(), EVREC_OK);
    cr_assert_eq(evrec_recorder_init(&tr->rec, tr->buf, bytes), EVREC_OK);
    evrec_host_init(&tr->host);
    at(t0);
    cr_assert_eq(evrec_host_start(&tr->host, &tr->rec, &rtos_meta, 100000000u), EVREC_OK);
}

/* Stop at time t1 and save the container into tr->file. */
static inline void trace_stop(trace_t *tr, uint32_t t1)
{
    at(t1);
    cr_assert_eq(evrec_host_stop(&tr->host, NULL), EVREC_OK);
    cr_assert_eq(evrec_recorder_counts(&tr->rec).dropped, 0, "the test buffer is too small");
    evrec_sink_t sink = {mem_write, &tr->file};
    cr_assert_eq(evrec_save(&tr->rec, &sink), EVREC_OK);
}

static inline void trace_free(trace_t *tr)
{
    free(tr->buf);
    free(tr->file.data);
}

/* Analyse a saved file: every record must read, the file must be intact. */
typedef struct analysed {
    evrec_reader_t *r;
    evrec_stats_t *s;
    const evrec_stats_rtos_t *rt;
} analysed_t;

static inline analysed_t analyse(const mem_t *file)
{
    analysed_t a = {NULL, NULL, NULL};
    cr_assert_eq(evrec_reader_open_memory(&a.r, file->data, file->len, NULL), EVREC_OK);
    cr_assert_eq(evrec_stats_create(&a.s, a.r), EVREC_OK);
    evrec_record_t rec;
    evrec_status st;
    while ((st = evrec_reader_next(a.r, &rec)) == EVREC_OK) {
        cr_assert_eq(evrec_stats_add(a.s, &rec), EVREC_OK);
    }
    cr_assert_eq(st, EVREC_E_END, "%s", evrec_reader_error(a.r)->message);
    cr_assert_eq(evrec_stats_finish(a.s), EVREC_OK);
    a.rt = evrec_stats_rtos(a.s);
    cr_assert_not_null(a.rt);
    return a;
}

static inline void analysed_free(analysed_t *a)
{
    evrec_stats_free(a->s);
    evrec_reader_close(a->r);
}

/* The context of a task or ISR by its enum value (asserts it exists). */
static inline const evrec_stats_context_t *ctx_of(const evrec_stats_context_t *c, uint32_t n, uint32_t value)
{
    for (uint32_t i = 0; i < n; i++) {
        if (c[i].value == value) {
            return &c[i];
        }
    }
    cr_assert_fail("no context with value %u", (unsigned)value);
    return NULL;
}
#define TASK(a, v) ctx_of((a).rt->tasks, (a).rt->task_count, (v))
#define ISR(a, v) ctx_of((a).rt->isrs, (a).rt->isr_count, (v))

#endif
