/* SPDX-License-Identifier: Apache-2.0 */
/* End to end on the host: `evrec record gdb:127.0.0.1:PORT --elf <this program>` against a fake
 * GDB server in this process that serves this process's memory, in front of a "target" thread
 * that records bursts of probes into a stream (each burst overflows the ring on purpose) and
 * drains it into the RTT up-channel `_SEGGER_RTT`. The server behaves as QEMU's all-stop gdbstub:
 * the target is stopped when a client connects, the interrupt byte 0x03 stops it (the server
 * takes the target's lock), `c` lets it run, `D` detaches, and once the target has ended the
 * stop reply is W00 and the connection closes. Checked: recorded == in the file + reported lost
 * exactly, every probe in the file was recorded, in order; and a server that answers E01 to
 * every memory read makes evrec record fail with a message that names the command. */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "evrec/evrec_reader.h"
#include "evrec/evrec_rtt.h"
#include "evrec/evrec_stream.h"
#include "probe_meta.h"
#include "test_tmp.h"

enum { BURSTS = 12, BURST = 1500 };

evrec_rtt_t _SEGGER_RTT; /* found by evrec record through this program's symbol table */
static uint8_t up[4096];
static uint8_t scratch[EVREC_STREAM_MIN_CAP + 512];
static _Alignas(8) uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(16, 1024)];
static evrec_stream_t stream;
static evrec_host_t host;
static uint8_t took[BURSTS * BURST];

static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER; /* held by the server: target stopped */
static int target_ended;                                     /* atomic */
static int answer_e01;
static int continues;    /* `c` packets received */
static int target_stuck; /* the host stopped reading: the target gave up waiting (a failure) */

/* ---- the target ---- */

static int up_empty(void)
{
    return __atomic_load_n(&_SEGGER_RTT.cb.up.rd_off, __ATOMIC_ACQUIRE) == _SEGGER_RTT.cb.up.wr_off;
}

/* Drains (running only while the server lets it) until the ring and the up buffer are empty. */
static void drain_until_read(int until_done)
{
    for (int guard = 0;; guard++) {
        pthread_mutex_lock(&run_lock);
        size_t n = evrec_rtt_drain(&_SEGGER_RTT, &stream, scratch, sizeof scratch);
        int done = n == 0 && up_empty() && (!until_done || evrec_stream_done(&stream));
        pthread_mutex_unlock(&run_lock);
        if (done || __atomic_load_n(&answer_e01, __ATOMIC_RELAXED)) {
            return;
        }
        if (guard == 40000) { /* 20 s without the host reading the up buffer */
            __atomic_store_n(&target_stuck, 1, __ATOMIC_RELAXED);
            return;
        }
        usleep(500);
    }
}

static void *target_main(void *arg)
{
    (void)arg;
    for (uint32_t b = 0; b < BURSTS; b++) {
        pthread_mutex_lock(&run_lock);
        for (uint32_t i = b * BURST; i < (b + 1) * BURST; i++) {
            took[i] = (uint8_t)probe_record(&host, 1, i);
        }
        pthread_mutex_unlock(&run_lock);
        drain_until_read(0);
    }
    pthread_mutex_lock(&run_lock);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    pthread_mutex_unlock(&run_lock);
    drain_until_read(1);
    __atomic_store_n(&target_ended, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* ---- the fake GDB server ---- */

typedef struct server {
    int listen_fd, fd, stopped;
} server_t;

static int srv_getc(server_t *s)
{
    uint8_t c;
    return read(s->fd, &c, 1) == 1 ? c : -1;
}

static void srv_reply(server_t *s, const char *payload)
{
    char frame[8300];
    unsigned sum = 0;
    for (const char *p = payload; *p; p++) {
        sum = (sum + (uint8_t)*p) & 0xFF;
    }
    int n = snprintf(frame, sizeof frame, "$%s#%02x", payload, sum);
    if (send(s->fd, frame, (size_t)n, MSG_NOSIGNAL) == n) {
        (void)srv_getc(s); /* the client's '+' */
    }
}

static void srv_stop(server_t *s)
{
    if (!s->stopped) {
        pthread_mutex_lock(&run_lock);
        s->stopped = 1;
    }
}

static void srv_run(server_t *s)
{
    if (s->stopped) {
        s->stopped = 0;
        pthread_mutex_unlock(&run_lock);
    }
}

/* One packet; returns 0 when the connection is to end. Memory is this process's own. */
static int srv_packet(server_t *s, const char *pkt)
{
    static char out[8300];
    unsigned long addr, len;
    if (pkt[0] == '?') {
        srv_reply(s, "S05");
    } else if (pkt[0] == 'c') {
        continues++;
        srv_run(s);
    } else if (pkt[0] == 'D') {
        srv_reply(s, "OK");
        return 0;
    } else if ((pkt[0] == 'm' || pkt[0] == 'M') && __atomic_load_n(&answer_e01, __ATOMIC_RELAXED)) {
        srv_reply(s, "E01");
    } else if (sscanf(pkt, "m%lx,%lx", &addr, &len) == 2 && len <= 4096) {
        cr_assert(s->stopped, "memory read while the target runs");
        for (unsigned long i = 0; i < len; i++) {
            sprintf(out + 2 * i, "%02x", ((const uint8_t *)(uintptr_t)addr)[i]);
        }
        srv_reply(s, out);
    } else if (sscanf(pkt, "M%lx,%lx:", &addr, &len) == 2 && len <= 8) {
        cr_assert(s->stopped, "memory write while the target runs");
        cr_assert_eq(addr, (uintptr_t)&_SEGGER_RTT.cb.up.rd_off, "only RdOff is written");
        const char *h = strchr(pkt, ':') + 1;
        for (unsigned long i = 0; i < len; i++) {
            unsigned v;
            sscanf(h + 2 * i, "%2x", &v);
            ((uint8_t *)(uintptr_t)addr)[i] = (uint8_t)v;
        }
        srv_reply(s, "OK");
    } else {
        srv_reply(s, "");
    }
    return 1;
}

static void *server_main(void *arg)
{
    server_t *s = (server_t *)arg;
    char pkt[8300];
    s->fd = accept(s->listen_fd, NULL, NULL);
    int one = 1; /* as a GDB server does: no Nagle delay on its small replies */
    setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int c, going = s->fd >= 0;
    while (going && (c = srv_getc(s)) >= 0) {
        if (c == 0x03) {
            srv_stop(s);
            if (__atomic_load_n(&target_ended, __ATOMIC_ACQUIRE)) {
                srv_reply(s, "W00"); /* the target exited: so does the server */
                break;
            }
            srv_reply(s, "T02thread:01;");
        } else if (c == '$') {
            size_t n = 0;
            while ((c = srv_getc(s)) >= 0 && c != '#' && n < sizeof pkt - 1) {
                pkt[n++] = (char)c;
            }
            pkt[n] = '\0';
            srv_getc(s);
            srv_getc(s);
            going = send(s->fd, "+", 1, MSG_NOSIGNAL) == 1 && srv_packet(s, pkt);
        }
    }
    srv_run(s);
    if (s->fd >= 0) {
        close(s->fd);
    }
    return NULL;
}

/* ---- the test ---- */

/* Runs evrec record against the server while the target records; returns its exit status. */
static int run_record(const char *out, const char *err_path)
{
    static server_t srv;
    char self[4096], source[64];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    cr_assert_gt(k, 0);
    self[k] = '\0';
    memset(took, 0, sizeof took);
    __atomic_store_n(&target_ended, 0, __ATOMIC_RELAXED);
    evrec_host_init(&host);
    cr_assert_eq(evrec_rtt_init(&_SEGGER_RTT, up, sizeof up, "evrec", EVREC_RTT_SKIP), EVREC_OK);
    cr_assert_eq(evrec_stream_init(&stream, ring, sizeof ring, 1024, 100), EVREC_OK);
    cr_assert_eq(evrec_stream_start(&stream, &host, &probe_meta, 1000000, 0), EVREC_OK);

    srv.listen_fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(bind(srv.listen_fd, (struct sockaddr *)&a, sizeof a), 0);
    cr_assert_eq(listen(srv.listen_fd, 1), 0);
    socklen_t al = sizeof a;
    getsockname(srv.listen_fd, (struct sockaddr *)&a, &al);
    snprintf(source, sizeof source, "gdb:127.0.0.1:%u", ntohs(a.sin_port));
    srv.stopped = 0;
    srv_stop(&srv); /* stopped when a client connects, as QEMU -S */

    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        freopen(err_path, "w", stderr);
        execl(EVREC_CLI, EVREC_CLI, "record", "-q", "--elf", self, "-o", out, source, (char *)NULL);
        _exit(127);
    }
    pthread_t tt;
    pthread_create(&tt, NULL, target_main, NULL);
    server_main(&srv); /* in this thread: it holds the lock it took above */
    pthread_join(tt, NULL);
    close(srv.listen_fd);
    cr_assert_not(__atomic_load_n(&target_stuck, __ATOMIC_RELAXED), "the host read the up buffer to its end");
    int status = 0;
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status), "evrec record: status %d", status);
    return WEXITSTATUS(status);
}

Test(rtt_gdb, evrec_record_reads_the_up_channel_through_a_gdb_server)
{
    char *dir = test_tmp_dir("rttgdb");
    char out[TEST_TMP_PATH], err[TEST_TMP_PATH];
    snprintf(out, sizeof out, "%s/gdb.evr", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    signal(SIGPIPE, SIG_IGN);
    __atomic_store_n(&answer_e01, 0, __ATOMIC_RELAXED);
    cr_assert_eq(run_record(out, err), 0, "evrec record exits 0");

    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, out, NULL), EVREC_OK);
    const evrec_file_info_t *fi = evrec_reader_info(r);
    evrec_record_t rec;
    uint64_t records = 0;
    int64_t last = -1;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        records++;
        if (rec.id == PROBE_EVENT_PROBE) {
            uint32_t seq = (uint32_t)rec.data[8] << 24 | (uint32_t)rec.data[9] << 16 |
                           (uint32_t)rec.data[10] << 8 | rec.data[11];
            cr_assert_lt(seq, BURSTS * BURST);
            cr_assert(took[seq], "probe %u in the file was not recorded", seq);
            cr_assert_gt((int64_t)seq, last, "in order, once");
            last = seq;
        }
    }
    cr_assert_eq(evrec_reader_damage_count(r), 0, "an intact file");
    evrec_stream_counts_t sc = evrec_stream_counts(&stream);
    cr_assert_gt(sc.dropped, 0, "every burst overflowed the ring");
    cr_assert_eq(records, sc.sent, "every record sent is in the file");
    cr_assert_eq(fi->dropped, sc.dropped, "the header counts the target's drops, nothing lost in transport");
    cr_assert_eq(records + fi->dropped, 2u + BURSTS * BURST, "recorded = in the file + reported lost");
    evrec_reader_close(r);

    char line[512] = "";
    FILE *f = fopen(err, "r");
    cr_assert(f && fgets(line, sizeof line, f), "evrec record said what polling cost");
    fclose(f);
    cr_assert(strstr(line, "evrec: gdb: ") && strstr(line, "per poll"), "%s", line);
    free(dir);
}

Test(rtt_gdb, a_server_that_answers_e01_fails_with_the_command_named)
{
    char *dir = test_tmp_dir("rttgdb");
    char out[TEST_TMP_PATH], err[TEST_TMP_PATH];
    snprintf(out, sizeof out, "%s/e01.evr", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    signal(SIGPIPE, SIG_IGN);
    __atomic_store_n(&answer_e01, 1, __ATOMIC_RELAXED);
    cr_assert_eq(run_record(out, err), 1, "nothing recorded: exit status 1");
    char text[2048] = "";
    FILE *f = fopen(err, "r");
    cr_assert(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    cr_assert(strstr(text, "evrec: gdb: the GDB server answered E01 to m"), "%s", text);
    cr_assert(strstr(text, "no complete meta-info received"), "%s", text);
    cr_assert_gt(continues, 0, "the target was let go on after the failed read, not left stopped");
    free(dir);
}
