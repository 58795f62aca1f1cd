/* SPDX-License-Identifier: Apache-2.0 */
/* One-shot trace buffer: exact drop counts, and nothing lost or torn under concurrency. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/time.h>

#include "evrec/evrec_recorder.h"
#include "probe_meta.h"

static void *aligned_buffer(size_t size)
{
    void *p = NULL;
    cr_assert_eq(posix_memalign(&p, 64, size), 0);
    return p;
}

Test(oneshot, validate_probe_meta)
{
    const char *what = NULL;
    cr_assert_eq(evrec_meta_validate(&probe_meta, NULL, &what), EVREC_OK, "%s", what ? what : "");
}

Test(oneshot, not_recording_before_start_and_after_stop)
{
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(probe_record(&host, 0, 0), 0);
    probe_event_t e = {0};
    cr_assert_eq(evrec_record(&host, PROBE_EVENT_PROBE, &e), EVREC_E_NOT_RECORDING);
    cr_assert_eq(evrec_tick(&host), EVREC_E_NOT_RECORDING);
    static evrec_host_t zero_host; /* a zero-initialised static host is also detached */
    cr_assert_eq(evrec_record(&zero_host, PROBE_EVENT_PROBE, &e), EVREC_E_NOT_RECORDING);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_E_NOT_RECORDING);

    uint32_t *mem = aligned_buffer(4096);
    evrec_recorder_t rec;
    cr_assert_eq(evrec_recorder_init(&rec, mem, 4096), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 0), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 0), EVREC_E_BUSY);
    cr_assert_eq(evrec_record(&host, 77, &e), EVREC_E_BAD_ID);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    cr_assert_eq(evrec_record(&host, PROBE_EVENT_PROBE, &e), EVREC_E_NOT_RECORDING);
    cr_assert_eq(evrec_recorder_counts(&rec).recorded, 2); /* Start, Stop */
    cr_assert_eq(evrec_recorder_counts(&rec).dropped, 0);
    free(mem);
}

Test(oneshot, recorder_init_rejects_bad_buffers)
{
    evrec_recorder_t rec;
    static uint32_t mem[128];
    cr_assert_eq(evrec_recorder_init(&rec, NULL, 512), EVREC_E_ARG);
    cr_assert_eq(evrec_recorder_init(&rec, mem, 255), EVREC_E_ARG);
    cr_assert_eq(evrec_recorder_init(&rec, (char *)mem + 1, 400), EVREC_E_ARG);
    cr_assert_eq(evrec_recorder_init(&rec, mem, EVREC_BUF_HEADER_SIZE + 255), EVREC_E_ARG, "record area < 256");
    cr_assert_eq(evrec_recorder_init(&rec, mem, 511), EVREC_OK);
    cr_assert_eq(evrec_recorder_counts(&rec).size, 508 - EVREC_BUF_HEADER_SIZE, "the header takes its bytes");
}

/* Single thread, mixed sizes: the first event that does not fit is dropped, and so is every later
 * one (CCore one-shot), each counted exactly once. */
Test(oneshot, exact_drop_count_when_full)
{
    const size_t size = 1000;
    uint32_t *mem = aligned_buffer(size);
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init(&rec, mem, size), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 0), EVREC_OK);
    /* Model: cap = record area - 8 (Stop slot); Start takes 8. */
    size_t pos = 8, cap = size - EVREC_BUF_HEADER_SIZE - 8;
    long want_ok = 0, want_drop = 0, ok = 0, drop = 0;
    int full = 0;
    big_event_t big = {0};
    for (uint32_t i = 0; i < 200; i++) {
        int is_big = (i % 5) == 4;
        size_t len = is_big ? sizeof(big_event_t) : sizeof(probe_event_t);
        if (!full && pos + len <= cap) {
            pos += len;
            want_ok++;
        } else {
            full = 1;
            want_drop++;
        }
        evrec_status st = is_big ? evrec_record(&host, PROBE_EVENT_BIG, &big)
                                 : (probe_record(&host, 1, i) ? EVREC_OK : EVREC_E_DROPPED);
        if (st == EVREC_OK)
            ok++;
        else if (st == EVREC_E_DROPPED)
            drop++;
        else
            cr_assert_fail("unexpected status %d", st);
    }
    cr_assert_eq(ok, want_ok);
    cr_assert_eq(drop, want_drop);
    cr_assert_eq(evrec_tick(&host), EVREC_E_DROPPED);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    cr_assert_eq(evrec_recorder_counts(&rec).dropped, (uint64_t)want_drop + 1);
    cr_assert_eq(evrec_recorder_counts(&rec).recorded, (uint64_t)want_ok + 2);
    cr_assert_eq(evrec_recorder_counts(&rec).used, pos + 8);
    const char *why = "";
    cr_assert_eq(probe_walk(&rec, NULL, NULL, &why), want_ok + 2, "%s", why);
    free(mem);
}

/* ---- threads ---- */

typedef struct worker {
    evrec_host_t *host;
    uint16_t source;
    uint32_t count;
    uint32_t recorded;
    pthread_barrier_t *go;
} worker_t;

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    pthread_barrier_wait(w->go);
    for (uint32_t i = 0; i < w->count; i++) {
        w->recorded += (uint32_t)probe_record(w->host, w->source, i);
    }
    return NULL;
}

typedef struct seen {
    uint8_t *bits[8];
    uint32_t count[8];
    uint32_t next[8];
    int out_of_order;
} seen_t;

static void mark_seen(const probe_event_t *e, void *ctx)
{
    seen_t *s = ctx;
    cr_assert_lt(e->source, 8);
    if (e->seq != s->next[e->source]) s->out_of_order = 1; /* per source, records are in order */
    s->next[e->source] = e->seq + 1;
    s->bits[e->source][e->seq / 8] |= (uint8_t)(1u << (e->seq % 8));
    s->count[e->source]++;
}

static void run_threads(unsigned threads, uint32_t per_thread, size_t size, int expect_all)
{
    uint32_t *mem = aligned_buffer(size);
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init(&rec, mem, size), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 0), EVREC_OK);
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, threads);
    pthread_t th[8];
    worker_t w[8];
    for (unsigned t = 0; t < threads; t++) {
        w[t] = (worker_t){&host, (uint16_t)t, per_thread, 0, &go};
        pthread_create(&th[t], NULL, worker_main, &w[t]);
    }
    uint64_t total_ok = 0;
    for (unsigned t = 0; t < threads; t++) {
        pthread_join(th[t], NULL);
        total_ok += w[t].recorded;
    }
    pthread_barrier_destroy(&go);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);

    seen_t s = {0};
    for (unsigned t = 0; t < threads; t++)
        s.bits[t] = calloc(per_thread / 8 + 1, 1);
    const char *why = "";
    long n = probe_walk(&rec, mark_seen, &s, &why);
    cr_assert_geq(n, 0, "%s", why);
    cr_assert_eq((uint64_t)n, total_ok + 2, "walk found %ld records, threads recorded %llu", n,
                 (unsigned long long)total_ok);
    cr_assert_eq(evrec_recorder_counts(&rec).recorded, total_ok + 2);
    cr_assert_eq(evrec_recorder_counts(&rec).dropped + total_ok, (uint64_t)threads * per_thread,
                 "recorded + dropped must equal attempts");
    cr_assert_not(s.out_of_order, "a thread's records are out of program order");
    for (unsigned t = 0; t < threads; t++) {
        cr_assert_eq(s.count[t], w[t].recorded);
        if (expect_all) {
            cr_assert_eq(s.count[t], per_thread, "thread %u lost records", t);
        }
        free(s.bits[t]);
    }
    free(mem);
}

Test(oneshot, four_threads_one_million_each_lose_nothing, .timeout = 120)
{
    const uint32_t per = 1000000;
    run_threads(4, per, (size_t)4 * per * sizeof(probe_event_t) + 4096, 1);
}

Test(oneshot, four_threads_into_small_buffer_count_every_drop, .timeout = 60)
{
    for (int round = 0; round < 20; round++) {
        run_threads(4, 20000, 64 * 1024 + 4 * (size_t)round, 0);
    }
}

/* ---- a signal handler as an interrupt stand-in ---- */

static evrec_host_t sig_host;
static volatile sig_atomic_t sig_count, sig_recorded;

static void on_signal(int sig)
{
    (void)sig;
    uint32_t n = (uint32_t)sig_count;
    sig_recorded += probe_record(&sig_host, 7, n);
    sig_count = (sig_atomic_t)(n + 1);
}

typedef struct pinger {
    pthread_t target;
    _Atomic int stop; /* an atomic, not volatile: read by another thread (ThreadSanitizer) */
} pinger_t;

static void *pinger_main(void *arg)
{
    pinger_t *p = arg;
    while (!p->stop) {
        pthread_kill(p->target, SIGUSR1);
        for (volatile int i = 0; i < 2000; i++) {
        }
    }
    return NULL;
}

Test(oneshot, signal_handler_records_while_main_thread_records, .timeout = 60)
{
    /* The main thread records at least `per` events and goes on until the handler has run
     * 2000 times (a loaded machine delivers fewer signals per second), at most 4 * per. */
    const uint32_t per = 500000, most = 4 * per;
    size_t size = (size_t)(most + 2 * per) * sizeof(probe_event_t) + 4096;
    uint32_t *mem = aligned_buffer(size);
    evrec_recorder_t rec;
    evrec_host_init(&sig_host);
    cr_assert_eq(evrec_recorder_init(&rec, mem, size), EVREC_OK);
    cr_assert_eq(evrec_host_start(&sig_host, &rec, &probe_meta, 0), EVREC_OK);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART; /* Criterion's I/O in this process must not see EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    pinger_t p = {pthread_self(), 0};
    pthread_t th;
    pthread_create(&th, NULL, pinger_main, &p);
    uint32_t main_ok = 0, i;
    sig_atomic_t seen = 0;
    for (i = 0; i < most && (i < per || sig_count < 2000); i++) {
        main_ok += (uint32_t)probe_record(&sig_host, 0, i);
        if (i >= per && (i & 1023) == 0) {
            /* Let the pinger run on a loaded machine: yield, and when no signal came since the
             * last look, sleep 200 us (at most ~0.4 s in all), so that records and signals
             * still interleave when the pinger gets little CPU time. */
            if (sig_count == seen) {
                struct timespec ts = {0, 200000};
                nanosleep(&ts, NULL);
            } else {
                sched_yield();
            }
            seen = sig_count;
        }
    }
    p.stop = 1;
    pthread_join(th, NULL);
    signal(SIGUSR1, SIG_IGN);
    cr_assert_eq(evrec_host_stop(&sig_host, NULL), EVREC_OK);
    cr_assert_gt(sig_count, 100, "the signal handler ran only %d times", (int)sig_count);
    cr_assert_lt((uint32_t)sig_count, 2 * per);
    cr_assert_eq(main_ok, i);
    cr_assert_eq(sig_recorded, sig_count);

    seen_t s = {0};
    s.bits[0] = calloc(most / 8 + 1, 1);
    s.bits[7] = calloc(2 * per / 8 + 1, 1);
    const char *why = "";
    long n = probe_walk(&rec, mark_seen, &s, &why);
    cr_assert_geq(n, 0, "%s", why);
    cr_assert_eq(s.count[0], i);
    cr_assert_eq(s.count[7], (uint32_t)sig_count);
    cr_assert_eq(evrec_recorder_counts(&rec).dropped, 0);
    cr_assert_not(s.out_of_order);
    free(s.bits[0]);
    free(s.bits[7]);
    free(mem);
}

/* ---- stop while others record: every saved buffer is a clean Start..Stop sequence ---- */

typedef struct spinner {
    evrec_host_t *host;
    uint16_t source;
    _Atomic int stop; /* an atomic, not volatile: read by another thread (ThreadSanitizer) */
} spinner_t;

static void *spinner_main(void *arg)
{
    spinner_t *s = arg;
    uint32_t seq = 0;
    while (!s->stop) {
        probe_record(s->host, s->source, seq++);
    }
    return NULL;
}

Test(oneshot, start_stop_cycles_under_load_leave_no_torn_record, .timeout = 120)
{
    enum { THREADS = 3, CYCLES = 300 };
    size_t size = 256 * 1024;
    uint32_t *mem[2] = {aligned_buffer(size), aligned_buffer(size)};
    evrec_recorder_t rec[2];
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init(&rec[0], mem[0], size), EVREC_OK);
    cr_assert_eq(evrec_recorder_init(&rec[1], mem[1], size), EVREC_OK);
    spinner_t sp[THREADS];
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) {
        sp[t] = (spinner_t){&host, (uint16_t)t, 0};
        pthread_create(&th[t], NULL, spinner_main, &sp[t]);
    }
    for (int c = 0; c < CYCLES; c++) {
        evrec_recorder_t *r = &rec[c & 1];
        cr_assert_eq(evrec_host_start(&host, r, &probe_meta, 0), EVREC_OK);
        for (volatile int i = 0; i < (c % 7) * 3000; i++) {
        }
        cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
        const char *why = "";
        long n = probe_walk(r, NULL, NULL, &why);
        cr_assert_geq(n, 2, "cycle %d: %s", c, why);
        cr_assert_eq((uint64_t)n, evrec_recorder_counts(r).recorded, "cycle %d", c);
    }
    for (int t = 0; t < THREADS; t++) {
        sp[t].stop = 1;
        pthread_join(th[t], NULL);
    }
    free(mem[0]);
    free(mem[1]);
}
