/* SPDX-License-Identifier: Apache-2.0 */
/* Four threads record into a file-backed mapped buffer (evrec_posix_map_buffer()); each appends
 * the sequence number of every record it committed to a side log of its own (after
 * evrec_commit() returned), and now and then waits between writing a record's fields and
 * committing it. The parent SIGKILLs the child at a random moment, recovers the buffer file and
 * checks that every record of the side logs is in the recovered file (cyclic: every one not
 * overwritten, i.e. from each thread's oldest recovered record on). One-shot, cyclic and lanes
 * (two threads per lane), 20 kills each; a summary line per mode (committed, recovered, skipped). */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "evrec/evrec_lanes.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"
#include "evrec_posix.h"
#include "mem_sink.h"
#include "probe_meta.h"
#include "../common/test_tmp.h"

enum { THREADS = 4, LANES = 2, KILLS = 20, MODE_ONESHOT = 0, MODE_CYCLIC = 1, MODE_LANES = 2 };
#define ONESHOT_SIZE ((size_t)16 << 20)
#define CYCLIC_SIZE EVREC_CYCLIC_BUFFER_SIZE(64, 1024) /* a 64 KiB ring: it laps many times */

static char *dir; /* the scratch folder, removed when the test process ends (test_tmp.h) */

typedef struct worker {
    evrec_host_t *host;
    int log_fd;
    uint16_t source; /* 1 .. THREADS */
} worker_t;

static void *work(void *arg)
{
    worker_t *w = arg;
    for (uint32_t seq = 0;; seq++) {
        probe_event_t *e = evrec_reserve(w->host, sizeof *e);
        if (!e) {
            continue; /* full (one-shot): nothing committed, nothing logged */
        }
        e->source = w->source;
        e->seq = seq;
        e->check = probe_check(w->source, seq);
        if (seq % 97 == 0) {
            usleep(20); /* a slow writer: reserved and filled, not yet committed */
        }
        evrec_commit(e, PROBE_EVENT_PROBE);
        if (write(w->log_fd, &seq, sizeof seq) != (ssize_t)sizeof seq) {
            _exit(4);
        }
    }
    return NULL;
}

static size_t size_of(int mode)
{
    return mode == MODE_CYCLIC ? CYCLIC_SIZE : ONESHOT_SIZE;
}

/* The child: a recording of `mode` into the file at `path`, THREADS threads, until killed. */
static void child(int mode, const char *path, int ready_fd)
{
    static evrec_host_t host;
    static evrec_recorder_t rec;
    static evrec_lanes_t lanes;
    static _Alignas(EVREC_LANE_ALIGN) evrec_lane_t lane[LANES];
    void *buf;
    evrec_host_init(&host);
    size_t size = size_of(mode);
    if (evrec_posix_map_buffer(path, size, 0, &buf) != EVREC_OK ||
        (mode == MODE_CYCLIC ? evrec_recorder_init_cyclic(&rec, buf, size, 1024)
                             : evrec_recorder_init(&rec, buf, size)) != EVREC_OK) {
        _exit(3);
    }
    evrec_status st = mode == MODE_LANES ? (evrec_lanes_init(&lanes, lane, LANES) == EVREC_OK
                                                ? evrec_lanes_start(&lanes, &rec, &probe_meta, 1000)
                                                : EVREC_E_ARG)
                                         : evrec_host_start(&host, &rec, &probe_meta, 1000);
    if (st != EVREC_OK) {
        _exit(3);
    }
    static worker_t w[THREADS];
    pthread_t t[THREADS];
    for (int k = 0; k < THREADS; k++) {
        char log[700];
        snprintf(log, sizeof log, "%s/log-%d", dir, k + 1);
        w[k].host = mode == MODE_LANES ? evrec_lane_host_at(&lanes, (unsigned)k % LANES) : &host; /* 2 per lane */
        w[k].log_fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        w[k].source = (uint16_t)(k + 1);
        if (w[k].log_fd < 0 || pthread_create(&t[k], NULL, work, &w[k]) != 0) {
            _exit(3);
        }
    }
    char c = 1;
    if (write(ready_fd, &c, 1) != 1) {
        _exit(3);
    }
    for (;;) {
        pause();
    }
}

static void *slurp(const char *path, size_t *len, size_t align)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = aligned_alloc(align, ((size_t)n + align) / align * align);
    cr_assert_not_null(p);
    cr_assert_eq(fread(p, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return p;
}

typedef struct tally {
    uint64_t committed, recovered, skipped, checked;
} tally_t;

/* Which (source, seq) the recovered buffer holds: a bitmap per source. */
typedef struct held {
    uint8_t *bits[THREADS + 1];
    uint32_t cap, first[THREADS + 1];
} held_t;

static uint64_t saved_records(const evrec_recorder_t *rec, held_t *h)
{
    mem_sink_t m = {0};
    evrec_sink_t sink = mem_sink_of(&m);
    cr_assert_eq(evrec_save(rec, &sink), EVREC_OK);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, m.data, m.len, NULL), EVREC_OK);
    evrec_record_t e;
    evrec_status st;
    uint64_t n = 0;
    while ((st = evrec_reader_next(r, &e)) == EVREC_OK) {
        if (e.id != PROBE_EVENT_PROBE) {
            continue;
        }
        uint16_t src = (uint16_t)(e.data[6] << 8 | e.data[7]);
        uint32_t seq = (uint32_t)e.data[8] << 24 | (uint32_t)e.data[9] << 16 | (uint32_t)e.data[10] << 8 |
                       e.data[11];
        uint32_t check = (uint32_t)e.data[12] << 24 | (uint32_t)e.data[13] << 16 | (uint32_t)e.data[14] << 8 |
                         e.data[15];
        cr_assert(src >= 1 && src <= THREADS && seq < h->cap, "source %u seq %u", src, seq);
        cr_assert_eq(check, probe_check(src, seq), "source %u seq %u: a torn record", src, seq);
        cr_assert_eq(h->bits[src][seq], 0, "source %u seq %u twice", src, seq);
        h->bits[src][seq] = 1;
        h->first[src] = seq < h->first[src] ? seq : h->first[src];
        n++;
    }
    cr_assert_eq(st, EVREC_E_END, "read: %s", evrec_reader_error(r)->message);
    evrec_reader_close(r);
    free(m.data);
    return n;
}

/* Every seq in thread k's side log is held (cyclic: from its oldest recovered record on). */
static void check_log(int mode, int k, const held_t *h, tally_t *t)
{
    char log[700];
    snprintf(log, sizeof log, "%s/log-%d", dir, k);
    size_t len;
    uint32_t *seq = slurp(log, &len, 8);
    for (size_t i = 0; i < len / 4u; i++) {
        t->committed++;
        if (mode == MODE_CYCLIC && seq[i] < h->first[k]) {
            continue; /* overwritten */
        }
        cr_assert_lt(seq[i], h->cap);
        cr_assert(h->bits[k][seq[i]], "mode %d: thread %d's record %u was committed, not recovered", mode, k,
                  seq[i]);
        t->checked++;
    }
    free(seq);
}

static void one_kill(int mode, unsigned *rng, tally_t *t)
{
    char path[700];
    snprintf(path, sizeof path, "%s/buf-%d", dir, mode);
    int pfd[2];
    cr_assert_eq(pipe(pfd), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        close(pfd[0]);
        child(mode, path, pfd[1]);
    }
    close(pfd[1]);
    char c;
    cr_assert_eq(read(pfd[0], &c, 1), 1, "the child did not start");
    close(pfd[0]);
    usleep(2000 + rand_r(rng) % 30000); /* a random moment */
    kill(pid, SIGKILL);
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    size_t size;
    void *img = slurp(path, &size, 64);
    cr_assert_eq(size, size_of(mode));
    evrec_recorder_t back;
    evrec_recover_report_t rep;
    cr_assert_eq(evrec_recorder_recover_ex(&back, img, size, &probe_meta, &rep), EVREC_OK);
    held_t h = {.cap = 1u << 22};
    for (int k = 1; k <= THREADS; k++) {
        h.bits[k] = calloc(h.cap, 1);
        h.first[k] = UINT32_MAX;
    }
    t->recovered += saved_records(&back, &h);
    t->skipped += rep.skipped;
    for (int k = 1; k <= THREADS; k++) {
        check_log(mode, k, &h, t);
        free(h.bits[k]);
    }
    free(img);
}

static void kill_mode(int mode, const char *name)
{
    if (!dir) {
        dir = test_tmp_dir("kill");
        cr_assert_not_null(dir);
    }
    unsigned rng = (unsigned)getpid() ^ (unsigned)time(NULL);
    unsigned seed = rng;
    tally_t t = {0};
    for (int i = 0; i < KILLS; i++) {
        one_kill(mode, &rng, &t);
    }
    fprintf(stderr,
            "recover after SIGKILL, %s: %d kills, %llu records committed (side logs), %llu of them checked "
            "(not overwritten), %llu recovered, %llu uncommitted slots skipped (seed %u)\n",
            name, KILLS, (unsigned long long)t.committed, (unsigned long long)t.checked,
            (unsigned long long)t.recovered, (unsigned long long)t.skipped, seed);
}

Test(recover_kill, one_shot, .timeout = 60)
{
    kill_mode(MODE_ONESHOT, "one-shot");
}

Test(recover_kill, cyclic, .timeout = 60)
{
    kill_mode(MODE_CYCLIC, "cyclic");
}

Test(recover_kill, lanes, .timeout = 60)
{
    kill_mode(MODE_LANES, "lanes");
}
