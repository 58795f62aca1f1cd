/* SPDX-License-Identifier: Apache-2.0 */
/* End to end: four threads record probes at full speed into a streaming ring small enough to
 * overflow part of the time; a drain thread writes the frames into a pipe or a TCP connection
 * to `evrec record`, which writes a file. For every lane: records recorded = records in the file
 * + records reported lost, exactly; each thread's probes in the file are exactly those it was
 * told were recorded, in order. No timing is asserted. */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <string.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "evrec/evrec_reader.h"
#include "evrec/evrec_reader_seek.h"
#include "evrec/evrec_stream.h"
#include "probe_meta.h"
#include "test_tmp.h"

enum { THREADS = 4, PER_THREAD = 150000 };

static _Alignas(8) uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(32, 1024)];
static evrec_stream_t stream;
static evrec_host_t host;
static uint8_t took[THREADS][PER_THREAD];
static uint64_t took_count[THREADS];
static uint64_t empties; /* drain calls that found nothing to send (atomic) */

/* Bursts of 3,000 records (more than the ring holds, so some of each burst is dropped), each
 * after the drain has found the ring empty since the last: it overflows part of the time only. */
static void *recorder_thread(void *arg)
{
    uint16_t src = (uint16_t)(uintptr_t)arg;
    uint64_t seen = 0;
    for (uint32_t i = 0; i < PER_THREAD; i++) {
        if (i % 3000u == 0) {
            while (__atomic_load_n(&empties, __ATOMIC_RELAXED) <= seen) {
                sched_yield();
            }
            seen = __atomic_load_n(&empties, __ATOMIC_RELAXED);
        }
        took[src][i] = (uint8_t)probe_record(&host, src, i);
        took_count[src] += took[src][i];
    }
    return NULL;
}

static void *drain_thread(void *arg)
{
    int fd = (int)(intptr_t)arg;
    static uint8_t buf[16384];
    while (!evrec_stream_done(&stream)) {
        size_t n = evrec_stream_drain(&stream, buf, sizeof buf);
        for (size_t q = 0; q < n;) {
            ssize_t k = write(fd, buf + q, n - q);
            cr_assert_gt(k, 0, "write to evrec record");
            q += (size_t)k;
        }
        if (n == 0) {
            __atomic_fetch_add(&empties, 1, __ATOMIC_RELAXED);
            sched_yield();
        }
    }
    return NULL;
}

/* Starts `evrec record SOURCE -o out` with stdin from `in_fd` (-1: none). */
static pid_t spawn_record(const char *source, const char *out, int in_fd)
{
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        if (in_fd >= 0) {
            dup2(in_fd, 0);
        }
        execl(EVREC_CLI, EVREC_CLI, "record", "-q", "-o", out, source, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static void record_into(int fd)
{
    memset(took, 0, sizeof took); /* a runner may run several tests in one process (TSan's) */
    memset(took_count, 0, sizeof took_count);
    __atomic_store_n(&empties, 0, __ATOMIC_RELAXED);
    evrec_host_init(&host);
    cr_assert_eq(evrec_stream_init(&stream, ring, sizeof ring, 1024, 200), EVREC_OK);
    cr_assert_eq(evrec_stream_start(&stream, &host, &probe_meta, 1000000000, 0), EVREC_OK);
    pthread_t rt[THREADS], dt;
    pthread_create(&dt, NULL, drain_thread, (void *)(intptr_t)fd);
    for (uintptr_t k = 0; k < THREADS; k++) {
        pthread_create(&rt[k], NULL, recorder_thread, (void *)k);
    }
    for (int k = 0; k < THREADS; k++) {
        pthread_join(rt[k], NULL);
    }
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    pthread_join(dt, NULL);
    close(fd);
}

/* The file against the counts the program kept. */
static void check_file(const char *path)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK, "open %s", path);
    const evrec_file_info_t *fi = evrec_reader_info(r);
    evrec_record_t rec;
    uint64_t records = 0, probes[THREADS] = {0};
    int64_t last[THREADS] = {-1, -1, -1, -1};
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        records++;
        if (rec.id == PROBE_EVENT_PROBE) {
            uint16_t src = (uint16_t)(rec.data[6] << 8 | rec.data[7]);
            uint32_t seq = (uint32_t)rec.data[8] << 24 | (uint32_t)rec.data[9] << 16 |
                           (uint32_t)rec.data[10] << 8 | rec.data[11];
            cr_assert_lt(src, THREADS);
            cr_assert_lt(seq, PER_THREAD);
            cr_assert(took[src][seq], "thread %u probe %u in the file was not recorded", src, seq);
            cr_assert_gt((int64_t)seq, last[src], "thread %u: in order, once", src);
            last[src] = seq;
            probes[src]++;
        }
    }
    cr_assert_eq(evrec_reader_damage_count(r), 0, "an intact file");
    evrec_index_info_t index;
    cr_assert_eq(evrec_reader_index_check(r, &index), EVREC_OK, "a seek index (FORMAT.md section 2.5)");
    cr_assert_gt(index.entries, 0u);
    evrec_stream_counts_t sc = evrec_stream_counts(&stream);
    uint64_t attempted = 2u + (uint64_t)THREADS * PER_THREAD; /* Start, Stop and the probes */
    fprintf(stderr,
            "%s: recorded %llu (Start, Stop, %d x %d probes), sent %llu, dropped %llu; file: %llu records, "
            "header dropped %llu\n",
            path, (unsigned long long)attempted, THREADS, PER_THREAD, (unsigned long long)sc.sent,
            (unsigned long long)sc.dropped, (unsigned long long)records, (unsigned long long)fi->dropped);
    cr_assert_gt(sc.dropped, 0, "the ring overflowed part of the time");
    cr_assert_gt(sc.sent, attempted / 20u, "the ring did not overflow all the time");
    cr_assert_eq(records, sc.sent, "every record sent is in the file");
    cr_assert_eq(fi->recorded, records);
    cr_assert_eq(fi->dropped, sc.dropped, "the header counts the drops");
    cr_assert_eq(records + fi->dropped, attempted, "recorded = received + reported lost");
    for (int k = 0; k < THREADS; k++) {
        cr_assert_eq(probes[k], took_count[k], "thread %d: the file has every probe it recorded", k);
    }
    evrec_reader_close(r);
}

Test(stream_record, pipe_to_evrec_record)
{
    char *dir = test_tmp_dir("stream");
    char out[TEST_TMP_PATH];
    snprintf(out, sizeof out, "%s/pipe.evr", dir);
    int p[2];
    cr_assert_eq(pipe(p), 0);
    signal(SIGPIPE, SIG_IGN);
    pid_t pid = spawn_record("-", out, p[0]);
    close(p[0]);
    record_into(p[1]);
    int status = 0;
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "evrec record: status %d", status);
    check_file(out);
    free(dir);
}

Test(stream_record, tcp_to_evrec_record)
{
    char *dir = test_tmp_dir("stream");
    char out[TEST_TMP_PATH], source[64];
    snprintf(out, sizeof out, "%s/tcp.evr", dir);
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(bind(ls, (struct sockaddr *)&a, sizeof a), 0);
    cr_assert_eq(listen(ls, 1), 0);
    socklen_t al = sizeof a;
    getsockname(ls, (struct sockaddr *)&a, &al);
    snprintf(source, sizeof source, "tcp:127.0.0.1:%u", ntohs(a.sin_port));
    signal(SIGPIPE, SIG_IGN);
    pid_t pid = spawn_record(source, out, -1);
    int fd = accept(ls, NULL, NULL);
    cr_assert_geq(fd, 0);
    close(ls);
    record_into(fd);
    int status = 0;
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "evrec record: status %d", status);
    check_file(out);
    free(dir);
}

Test(stream_record, refuses_an_existing_file)
{
    char *dir = test_tmp_dir("stream");
    char out[TEST_TMP_PATH], cmd[2 * TEST_TMP_PATH];
    snprintf(out, sizeof out, "%s/exists.evr", dir);
    FILE *f = fopen(out, "w");
    fputs("mine", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' record -o '%s' - </dev/null 2>/dev/null", EVREC_CLI, out);
    int status = system(cmd);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    char got[8] = {0};
    f = fopen(out, "r");
    cr_assert_eq(fread(got, 1, sizeof got, f), 4);
    fclose(f);
    cr_assert_str_eq(got, "mine", "the file is left as it was");
    free(dir);
}

Test(stream_record, a_capture_file_is_a_recording)
{
    /* The bytes of the transport saved as they came: every evrec command reads them (the reader
     * converts a file that starts with a frame's magic, FORMAT.md section 8.3). */
    char *dir = test_tmp_dir("stream");
    char cap[TEST_TMP_PATH], cmd[3 * TEST_TMP_PATH];
    snprintf(cap, sizeof cap, "%s/capture.bin", dir);
    FILE *f = fopen(cap, "wb");
    cr_assert_not_null(f);
    record_into(dup(fileno(f)));
    fclose(f);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, cap, NULL), EVREC_OK);
    evrec_record_t rec;
    uint64_t n = 0;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        n++;
    }
    cr_assert_eq(n, evrec_stream_counts(&stream).sent);
    cr_assert_eq(evrec_reader_info(r)->dropped, evrec_stream_counts(&stream).dropped);
    evrec_reader_close(r);
    snprintf(cmd, sizeof cmd, "'%s' stats '%s' >/dev/null && '%s' dump '%s' >/dev/null", EVREC_CLI, cap, EVREC_CLI,
             cap);
    int status = system(cmd);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "evrec stats / dump on a capture");
    free(dir);
}

Test(stream_record, killed_recorder_leaves_a_readable_file)
{
    /* Half a stream into `evrec record`, then SIGKILL once the file has grown (it is pushed to
     * the file at least once a second): the file opens and its records read, in order, up to
     * where it stops (no END chunk: a truncated file). */
    char *dir = test_tmp_dir("stream");
    char cap[TEST_TMP_PATH], out[TEST_TMP_PATH];
    snprintf(cap, sizeof cap, "%s/capture.bin", dir);
    snprintf(out, sizeof out, "%s/killed.evr", dir);
    FILE *f = fopen(cap, "wb+");
    record_into(dup(fileno(f)));
    long size = (fseek(f, 0, SEEK_END), ftell(f));
    cr_assert_gt(size, 100000);
    uint8_t *bytes = malloc((size_t)size);
    rewind(f);
    cr_assert_eq(fread(bytes, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    int p[2];
    cr_assert_eq(pipe(p), 0);
    pid_t pid = spawn_record("-", out, p[0]);
    close(p[0]);
    cr_assert_eq(write(p[1], bytes, (size_t)size / 2u), size / 2);
    struct stat st;
    for (int i = 0; i < 600 && (stat(out, &st) != 0 || st.st_size < size / 4); i++) {
        usleep(10000); /* until the file has a quarter of the stream's bytes */
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    close(p[1]);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, out, NULL), EVREC_OK);
    evrec_record_t rec;
    uint64_t n = 0;
    int64_t last[THREADS] = {-1, -1, -1, -1};
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        if (rec.id == PROBE_EVENT_PROBE) {
            uint16_t src = (uint16_t)(rec.data[6] << 8 | rec.data[7]);
            int64_t seq = (int64_t)((uint32_t)rec.data[8] << 24 | (uint32_t)rec.data[9] << 16 |
                                    (uint32_t)rec.data[10] << 8 | rec.data[11]);
            cr_assert_lt(src, THREADS);
            cr_assert_gt(seq, last[src]);
            last[src] = seq;
        }
        n++;
    }
    cr_assert_gt(n, 1000, "the records pushed before the kill read back (%llu)", (unsigned long long)n);
    evrec_reader_close(r);
    free(bytes);
    free(dir);
}
