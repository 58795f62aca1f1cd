/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec record gdb:HOST:PORT --elf FW.elf`: reads the stream from the RTT up buffer of a target
 * (evrec/evrec_rtt.h) through any GDB server (QEMU's gdbstub, OpenOCD, pyOCD, J-Link GDB Server).
 * The control block's address is the ELF symbol `_SEGGER_RTT`. A child process polls: it stops
 * the target (the interrupt byte 0x03: in all-stop mode a GDB server reads memory only while the
 * target is stopped; QEMU's gdbstub takes any byte received while the guest runs as a stop
 * request), reads WrOff and RdOff, the new bytes, writes RdOff, lets the target continue (`c`),
 * then hands the bytes to `evrec record` through a socket pair whose other end
 * record_source_open() returns. What it costs the target (time stopped per poll, polls per
 * second) is printed at the end. */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "gdb_rsp.h"
#include "record_elf.h"
#include "record_source.h"

#define RTT_SYMBOL "_SEGGER_RTT"
#define RTT_ID "SEGGER RTT"
#define POLL_IDLE_NS 10000000L /* 10 ms between polls unless the buffer was half full */

typedef struct poller {
    gdb_rsp_t g;
    record_elf_symbol_t sym;
    int out;       /* socket to evrec record */
    uint64_t up;   /* address of up buffer 0's descriptor */
    uint64_t data; /* its pBuffer */
    uint32_t size; /* its SizeOfBuffer */
    int found;     /* the control block was seen initialised */
    uint64_t polls, bytes;
    double stopped, stopped_max, start;
} poller_t;

static pid_t child_pid = -1;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t target_uint(const poller_t *p, const uint8_t *b, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        v |= (uint64_t)b[p->sym.big_endian ? n - 1u - i : i] << (8u * i);
    }
    return v;
}

/* Reads the control block's header and up buffer 0's descriptor; 0 while it is not initialised. */
static gdb_rsp_status_t find_block(poller_t *p)
{
    uint8_t h[24], d[32];
    unsigned ps = p->sym.ptr_size;
    gdb_rsp_status_t st = gdb_rsp_read_mem(&p->g, p->sym.addr, h, sizeof h);
    if (st != GDB_RSP_OK || memcmp(h, RTT_ID, sizeof RTT_ID) != 0 || (int32_t)target_uint(p, h + 16, 4) < 1) {
        return st; /* not yet: the firmware has not called evrec_rtt_init() */
    }
    p->up = p->sym.addr + 24u;
    if ((st = gdb_rsp_read_mem(&p->g, p->up, d, 2u * ps + 16u)) != GDB_RSP_OK) {
        return st;
    }
    p->data = target_uint(p, d + ps, ps);
    p->size = (uint32_t)target_uint(p, d + 2u * ps, 4);
    p->found = p->size >= 2u && p->data != 0;
    return GDB_RSP_OK;
}

/* One poll of a stopped target: the bytes from RdOff to WrOff (at most cap) into buf (*n), RdOff
 * moved past them. */
static gdb_rsp_status_t poll_once(poller_t *p, uint8_t *buf, size_t cap, size_t *n)
{
    *n = 0;
    gdb_rsp_status_t st = p->found ? GDB_RSP_OK : find_block(p);
    if (st != GDB_RSP_OK || !p->found) {
        return st;
    }
    uint8_t o[8];
    uint64_t offs = p->up + 2u * p->sym.ptr_size + 4u; /* WrOff, RdOff */
    if ((st = gdb_rsp_read_mem(&p->g, offs, o, sizeof o)) != GDB_RSP_OK) {
        return st;
    }
    uint32_t wr = (uint32_t)target_uint(p, o, 4), rd = (uint32_t)target_uint(p, o + 4, 4);
    if (wr >= p->size || rd >= p->size) {
        snprintf(p->g.err, sizeof p->g.err, "the up buffer's WrOff %u or RdOff %u is not below its size %u", wr,
                 rd, p->size);
        return GDB_RSP_PROTOCOL;
    }
    size_t first = wr >= rd ? wr - rd : p->size - rd, second = wr >= rd ? 0 : wr;
    first = first < cap ? first : cap; /* the size is the target's word: read what fits */
    second = second < cap - first ? second : cap - first;
    if (first && (st = gdb_rsp_read_mem(&p->g, p->data + rd, buf, first)) != GDB_RSP_OK) {
        return st;
    }
    if (second && (st = gdb_rsp_read_mem(&p->g, p->data, buf + first, second)) != GDB_RSP_OK) {
        return st;
    }
    *n = first + second;
    uint8_t r[4];
    uint32_t next = (uint32_t)((rd + *n) % p->size);
    for (unsigned i = 0; i < 4; i++) {
        r[p->sym.big_endian ? 3u - i : i] = (uint8_t)(next >> (8u * i));
    }
    return *n ? gdb_rsp_write_mem(&p->g, offs + 4u, r, 4) : GDB_RSP_OK;
}

/* 1 when evrec record closed its end (it stopped). */
static int reader_gone(int fd)
{
    char c;
    ssize_t r = recv(fd, &c, 1, MSG_DONTWAIT | MSG_PEEK);
    return r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

static void report(const poller_t *p)
{
    double el = now_s() - p->start;
    if (p->polls == 0 || el <= 0) {
        return;
    }
    fprintf(stderr,
            "evrec: gdb: %llu polls in %.1f s (%.0f/s), %llu bytes; the target was stopped %.2f ms per poll "
            "(max %.2f ms), %.1f%% of the time\n",
            (unsigned long long)p->polls, el, (double)p->polls / el, (unsigned long long)p->bytes,
            1e3 * p->stopped / (double)p->polls, 1e3 * p->stopped_max, 100.0 * p->stopped / el);
}

/* Stop, read, continue, hand out, sleep; until the target exits, evrec record stops or an error. */
static int poll_loop(poller_t *p, uint8_t *buf, size_t cap)
{
    int running = 0; /* a GDB server stops the target when a client connects */
    for (;;) {
        double t0 = now_s();
        gdb_rsp_status_t st = running ? gdb_rsp_interrupt(&p->g) : GDB_RSP_OK;
        size_t n = 0;
        if (st == GDB_RSP_OK) {
            gdb_rsp_status_t polled = poll_once(p, buf, cap, &n);
            st = gdb_rsp_continue(&p->g); /* also after a failed read: never leave it stopped */
            running = st == GDB_RSP_OK;
            st = polled != GDB_RSP_OK ? polled : st;
        } else {
            running = 0;
        }
        double dt = now_s() - t0;
        p->polls++;
        p->stopped += dt;
        p->stopped_max = dt > p->stopped_max ? dt : p->stopped_max;
        p->bytes += n;
        if (n && send(p->out, buf, n, MSG_NOSIGNAL) != (ssize_t)n) {
            return running;
        }
        if (reader_gone(p->out)) {
            return running; /* evrec record has what it wanted */
        }
        if (st != GDB_RSP_OK) {
            if (st != GDB_RSP_EXITED) { /* a server that ends with its target closes without W */
                fprintf(stderr, "evrec: gdb: %s\n",
                        st == GDB_RSP_IO ? "the GDB server closed the connection" : p->g.err);
            }
            return running;
        }
        struct timespec idle = {0, n > p->size / 2u ? 0 : POLL_IDLE_NS};
        nanosleep(&idle, NULL);
    }
}

static void child(poller_t *p)
{
    signal(SIGINT, SIG_IGN); /* Ctrl-C stops evrec record, which closes its end: then we detach */
    signal(SIGHUP, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    static uint8_t buf[1u << 20];
    p->start = now_s();
    if (poll_loop(p, buf, sizeof buf)) {
        char r[64];
        size_t n;
        /* Leave the target running: stop it to be heard, then detach (the server resumes it). */
        if (gdb_rsp_interrupt(&p->g) == GDB_RSP_OK) {
            (void)gdb_rsp_command(&p->g, "D", r, sizeof r, &n);
        }
    }
    report(p);
}

static void wait_child(void)
{
    if (child_pid > 0) {
        (void)waitpid(child_pid, NULL, 0);
        child_pid = -1;
    }
}

int record_gdb_open(const char *source, const char *elf)
{
    static poller_t p;
    if (!elf) {
        cli_error("%s: needs --elf FW.elf (the firmware, for the address of %s)", source, RTT_SYMBOL);
        return -1;
    }
    memset(&p, 0, sizeof p);
    if (!record_elf_symbol(elf, RTT_SYMBOL, &p.sym)) {
        return -1;
    }
    int fd = record_tcp_connect(source), sv[2] = {-1, -1};
    if (fd < 0) {
        return -1;
    }
    /* Small packets each way, each waiting for the other side's: without TCP_NODELAY, Nagle's
     * algorithm and delayed acknowledgements add up to 40 ms per packet. */
    int one = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    gdb_rsp_init(&p.g, fd, 5000);
    gdb_rsp_status_t st = gdb_rsp_halt_reason(&p.g);
    if (st != GDB_RSP_OK || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        cli_error("%s: %s", source, st != GDB_RSP_OK ? p.g.err : strerror(errno));
        close(fd);
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        p.out = sv[1];
        child(&p);
        _exit(0);
    }
    close(fd);
    close(sv[1]);
    if (pid < 0) {
        cli_error("%s: fork: %s", source, strerror(errno));
        close(sv[0]);
        return -1;
    }
    child_pid = pid;
    atexit(wait_child); /* its report comes before evrec record's end */
    return sv[0];
}
