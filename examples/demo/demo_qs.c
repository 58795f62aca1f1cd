/* SPDX-License-Identifier: Apache-2.0 */
/* Live QS output of the demo: follow the trace buffer, encode, drain at a UART's rate (demo_qs.h). */
#include "demo_qs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Bytes a UART can take at once after being idle (its transmit FIFO). */
#define DEMO_QS_UART_FIFO 64u

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void pause_us(long us)
{
    struct timespec ts = {0, us * 1000L};
    nanosleep(&ts, NULL);
}

/* Drain what the byte budget allows (everything when unlimited). Returns bytes written. */
static size_t drain(demo_qs_t *q, uint64_t t0, uint64_t *sent)
{
    static uint8_t chunk[4096];
    size_t total = 0;
    for (;;) {
        size_t max = sizeof chunk;
        if (q->bytes_per_s) {
            uint64_t allowed = (now_ns() - t0) / 1000u * q->bytes_per_s / 1000000u;
            if (allowed > *sent + DEMO_QS_UART_FIFO) {
                *sent = allowed - DEMO_QS_UART_FIFO; /* an idle UART banks no more than its FIFO */
            }
            if (allowed <= *sent) {
                break;
            }
            max = allowed - *sent < max ? (size_t)(allowed - *sent) : max;
        }
        size_t n = evrec_qs_tx_get_block(&q->tx, chunk, max);
        if (n == 0) {
            break;
        }
        if (!q->io_error && evrec_out_file_write(&q->out, chunk, n) != EVREC_OK) {
            q->io_error = q->out.err;
        }
        *sent += n;
        total += n;
        q->bytes += n;
    }
    return total;
}

/* Encode up to DEMO_QS_BURST committed records; stops at the first uncommitted slot, at `end`
 * once recording stopped, or at the end of the buffer. Returns records encoded. */
static unsigned follow(demo_qs_t *q, size_t end)
{
    const uint8_t *buf = evrec_recorder_records(q->rec);
    size_t limit = end ? end : evrec_recorder_counts(q->rec).size;
    unsigned n = 0;
    while (n < DEMO_QS_BURST && !q->corrupt && q->pos + sizeof(evrec_record_header_t) <= limit) {
        const evrec_record_header_t *h = (const evrec_record_header_t *)(const void *)(buf + q->pos);
        uint16_t id = __atomic_load_n(&h->id, __ATOMIC_ACQUIRE); /* pairs with evrec_commit() */
        if (id >= EVREC_ID_PROVISIONAL_MIN) {
            break; /* not reserved or not committed yet (or never: the buffer filled; Stop comes there) */
        }
        if (id >= q->meta->event_count) {
            q->corrupt = 1;
            break;
        }
        size_t size = q->meta->structs[q->meta->events[id].struct_id].native_size;
        /* Before the record: run-time names allocated since (its thread's name when it is the
         * first record of a new thread: the acquire load above made the allocation visible),
         * dictionary frames the ring lost, and the records the recorder lost meanwhile. */
        q->dict_frames += evrec_qs_tx_dict_update(&q->tx);
        evrec_recorder_counts_t c = evrec_recorder_counts(q->rec);
        if (c.dropped > q->lost_dropped || c.overwritten > q->lost_overwritten) {
            evrec_qs_tx_lost(&q->tx, h->time, EVREC_QS_LOST_DROPPED, c.dropped - q->lost_dropped);
            evrec_qs_tx_lost(&q->tx, h->time, EVREC_QS_LOST_OVERWRITTEN, c.overwritten - q->lost_overwritten);
            q->lost_dropped = c.dropped;
            q->lost_overwritten = c.overwritten;
        }
        if (q->pos + size > limit || evrec_qs_tx_event(&q->tx, h) != EVREC_OK) {
            q->corrupt = 1;
            break;
        }
        q->pos += size;
        q->events++;
        n++;
    }
    return n;
}

static void *qs_thread(void *arg)
{
    demo_qs_t *q = arg;
    uint64_t t0 = now_ns(), sent = 0;
    /* The session (target info, dictionaries) goes out before any event, whatever the rate. */
    while (evrec_qs_tx_pending(&q->tx) != 0) {
        if (drain(q, t0, &sent) == 0) {
            pause_us(200);
        }
    }
    for (;;) {
        size_t end = atomic_load_explicit(&q->end, memory_order_acquire);
        unsigned n = follow(q, end);
        q->dict_frames += evrec_qs_tx_dict_update(&q->tx); /* lost dictionary frames, when idle too */
        size_t d = drain(q, t0, &sent);
        int done_following = q->corrupt || (end && q->pos >= end);
        if (done_following && evrec_qs_tx_pending(&q->tx) == 0 && !evrec_qs_tx_dict_pending(&q->tx)) {
            break;
        }
        if (n == 0 && d == 0) {
            pause_us(200);
        }
    }
    return NULL;
}

int demo_qs_start(demo_qs_t *q, const evrec_recorder_t *rec, const evrec_meta_t *meta, const char *path,
                  size_t ring, uint64_t baud)
{
    memset(q, 0, sizeof *q);
    q->rec = rec;
    q->meta = meta;
    q->path = path;
    q->bytes_per_s = baud / 10u;
    atomic_init(&q->end, 0);
    size_t size = evrec_qs_map_entries_size(meta) + 4u + ring;
    q->mem = aligned_alloc(8, (size + 7u) & ~(size_t)7u);
    if (!q->mem) {
        fprintf(stderr, "evrec-demo: cannot allocate a %zu-byte QS ring\n", ring);
        return -1;
    }
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.time_size = 4; /* the full 32-bit timestamp: times decode to the RAM file's values */
    evrec_status st = evrec_qs_tx_init(&q->tx, meta, q->mem, size, &o);
    if (st != EVREC_OK) {
        fprintf(stderr,
                "evrec-demo: --qs-ring %zu: %s (the ring must hold two of the largest frames, %zu bytes)\n", ring,
                evrec_strerror(st), evrec_qs_tx_ring_size(&q->tx.map, 2));
        demo_qs_free(q);
        return -1;
    }
    /* The output-path rule of evrec_out_file.h: a FIFO (a live viewer) gets the stream as it is
     * drained; a regular file is replaced only by a complete stream. */
    if (evrec_out_file_open(&q->out, path, 0) != EVREC_OK) {
        fprintf(stderr, "evrec-demo: %s\n", evrec_out_file_message(&q->out));
        demo_qs_free(q);
        return -1;
    }
    st = evrec_qs_tx_session_start(&q->tx);
    q->session_frames = q->tx.frames;
    if (st != EVREC_OK) {
        fprintf(stderr, "evrec-demo: --qs-ring %zu is too small for the QS session (dictionaries): %s\n", ring,
                evrec_strerror(st));
        evrec_out_file_abort(&q->out);
        demo_qs_free(q);
        return -1;
    }
    int e = pthread_create(&q->thread, NULL, qs_thread, q);
    if (e != 0) {
        fprintf(stderr, "evrec-demo: cannot start the QS thread: %s\n", strerror(e));
        evrec_out_file_abort(&q->out);
        demo_qs_free(q);
        return -1;
    }
    return 0;
}

int demo_qs_finish(demo_qs_t *q)
{
    atomic_store_explicit(&q->end, evrec_recorder_counts(q->rec).used, memory_order_release);
    pthread_join(q->thread, NULL);
    int rc = 0;
    if (q->io_error || q->corrupt) {
        evrec_out_file_abort(&q->out);
    } else if (evrec_out_file_commit(&q->out) != EVREC_OK) {
        q->io_error = q->out.err;
    }
    if (q->io_error) {
        fprintf(stderr, "evrec-demo: %s\n", evrec_out_file_message(&q->out));
        rc = -1;
    }
    if (q->corrupt) {
        fprintf(
            stderr,
            "evrec-demo: %s: the trace buffer holds a record the tables do not know; the QS stream stops there\n",
            q->path);
        rc = -1;
    }
    return rc;
}

void demo_qs_free(demo_qs_t *q)
{
    free(q->mem);
    q->mem = NULL;
}
