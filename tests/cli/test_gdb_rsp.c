/* SPDX-License-Identifier: Apache-2.0 */
/* The GDB Remote Serial Protocol client of `evrec record gdb:` (viewer-cli/commands/gdb_rsp.c)
 * against a tiny fake GDB server: a thread on the other end of a socket pair that serves `m` and
 * `M` from a buffer, answers `?` and the interrupt byte with stop replies, and misbehaves on
 * request: a reply with a corrupt checksum (the client refuses it with '-' and gets it again),
 * only corrupt replies, `E01` for every memory access, run-length encoded replies, a target that
 * exited. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gdb_rsp.h"

#define BASE 0x20000000u

typedef struct fake {
    int fd;
    uint8_t mem[4096];
    int corrupt_next; /* replies still to send with a wrong checksum */
    int answer_e01;   /* m and M answer E01 */
    int rle;          /* replies with runs are run-length encoded */
    int exited;       /* stop replies say W00 */
    int nacks;        /* '-' received */
    int packets;      /* packets received */
} fake_t;

static int fd_getc(int fd)
{
    uint8_t c;
    return read(fd, &c, 1) == 1 ? c : -1;
}

/* `$payload#cs`, with runs of one character run-length encoded when f->rle (GDB's `c*n`). */
static void fake_reply(fake_t *f, const char *payload)
{
    char body[9000], frame[9100];
    size_t n = 0;
    for (size_t i = 0; payload[i];) {
        size_t run = 1;
        while (f->rle && payload[i + run] == payload[i] && run < 90) {
            run++;
        }
        body[n++] = payload[i];
        if (run >= 4 && run - 1 + 29 != '#' && run - 1 + 29 != '$' && run - 1 + 29 != '+' && run - 1 + 29 != '-') {
            body[n++] = '*';
            body[n++] = (char)(run - 1 + 29);
            i += run;
        } else {
            i += 1;
        }
    }
    unsigned sum = 0;
    for (size_t i = 0; i < n; i++) {
        sum = (sum + (uint8_t)body[i]) & 0xFF;
    }
    for (;;) {
        int bad = f->corrupt_next > 0;
        f->corrupt_next -= bad;
        int len = snprintf(frame, sizeof frame, "$%.*s#%02x", (int)n, body, bad ? (sum + 1) & 0xFF : sum);
        if (send(f->fd, frame, (size_t)len, MSG_NOSIGNAL) != len) {
            return; /* the client gave up and closed */
        }
        int ack = fd_getc(f->fd);
        if (ack != '-') {
            return;
        }
        f->nacks++;
    }
}

static void hex_of(const uint8_t *p, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) {
        sprintf(out + 2 * i, "%02x", p[i]);
    }
}

static void fake_serve(fake_t *f, const char *pkt)
{
    unsigned long addr, len;
    char out[8300];
    if (pkt[0] == '?') {
        fake_reply(f, f->exited ? "W00" : "S05");
    } else if (pkt[0] == 'c') {
        /* running: the stop reply comes with the interrupt */
    } else if (f->answer_e01 && (pkt[0] == 'm' || pkt[0] == 'M')) {
        fake_reply(f, "E01");
    } else if (sscanf(pkt, "m%lx,%lx", &addr, &len) == 2 && addr >= BASE && addr - BASE + len <= sizeof f->mem) {
        hex_of(f->mem + (addr - BASE), len, out);
        fake_reply(f, out);
    } else if (sscanf(pkt, "M%lx,%lx:", &addr, &len) == 2 && addr >= BASE && addr - BASE + len <= sizeof f->mem) {
        const char *h = strchr(pkt, ':') + 1;
        for (unsigned long i = 0; i < len; i++) {
            unsigned v;
            sscanf(h + 2 * i, "%2x", &v);
            f->mem[addr - BASE + i] = (uint8_t)v;
        }
        fake_reply(f, "OK");
    } else {
        fake_reply(f, "E14");
    }
}

/* Reads packets (and the interrupt byte) until the client closes its end. */
static void *fake_main(void *arg)
{
    fake_t *f = (fake_t *)arg;
    char pkt[9000];
    int c;
    while ((c = fd_getc(f->fd)) >= 0) {
        if (c == 0x03) {
            fake_reply(f, f->exited ? "W00" : "T02thread:01;");
            continue;
        }
        if (c != '$') {
            continue;
        }
        size_t n = 0;
        while ((c = fd_getc(f->fd)) >= 0 && c != '#' && n < sizeof pkt - 1) {
            pkt[n++] = (char)c;
        }
        pkt[n] = '\0';
        fd_getc(f->fd);
        fd_getc(f->fd);
        if (send(f->fd, "+", 1, MSG_NOSIGNAL) != 1) {
            break;
        }
        f->packets++;
        fake_serve(f, pkt);
    }
    return NULL;
}

typedef struct rig {
    fake_t fake;
    gdb_rsp_t g;
    pthread_t th;
    int client;
} rig_t;

static void rig_start(rig_t *r)
{
    int sv[2];
    cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    r->fake.fd = sv[1];
    r->client = sv[0];
    for (unsigned i = 0; i < sizeof r->fake.mem; i++) {
        r->fake.mem[i] = (uint8_t)(i * 7 + i / 256);
    }
    gdb_rsp_init(&r->g, sv[0], 5000);
    cr_assert_eq(pthread_create(&r->th, NULL, fake_main, &r->fake), 0);
}

static void rig_stop(rig_t *r)
{
    close(r->client);
    pthread_join(r->th, NULL);
    close(r->fake.fd);
}

static rig_t rig;

Test(gdb_rsp, reads_and_writes_memory_in_pieces)
{
    rig_start(&rig);
    uint8_t buf[3000];
    cr_assert_eq(gdb_rsp_halt_reason(&rig.g), GDB_RSP_OK);
    cr_assert_eq(gdb_rsp_read_mem(&rig.g, BASE + 100, buf, sizeof buf), GDB_RSP_OK, "%s", rig.g.err);
    cr_assert_eq(memcmp(buf, rig.fake.mem + 100, sizeof buf), 0);
    cr_assert_eq(rig.fake.packets, 1 + 3, "3000 bytes read in pieces of 1024");
    uint8_t v[4] = {0xDE, 0xAD, 0xBE, 0xEF};
    cr_assert_eq(gdb_rsp_write_mem(&rig.g, BASE + 40, v, 4), GDB_RSP_OK, "%s", rig.g.err);
    cr_assert_eq(memcmp(rig.fake.mem + 40, v, 4), 0);
    cr_assert_eq(gdb_rsp_continue(&rig.g), GDB_RSP_OK);
    cr_assert_eq(gdb_rsp_interrupt(&rig.g), GDB_RSP_OK, "%s", rig.g.err);
    rig_stop(&rig);
}

Test(gdb_rsp, a_corrupt_checksum_is_refused_and_resent)
{
    rig_start(&rig);
    uint8_t buf[64];
    rig.fake.corrupt_next = 2;
    cr_assert_eq(gdb_rsp_read_mem(&rig.g, BASE, buf, sizeof buf), GDB_RSP_OK, "%s", rig.g.err);
    cr_assert_eq(memcmp(buf, rig.fake.mem, sizeof buf), 0, "the good copy is used, not the corrupt one");
    cr_assert_eq(rig.fake.nacks, 2);
    cr_assert_eq(rig.g.bad_checksums, 2);
    rig_stop(&rig);
}

Test(gdb_rsp, only_corrupt_replies_fail)
{
    rig_start(&rig);
    uint8_t buf[8];
    rig.fake.corrupt_next = 1000;
    cr_assert_eq(gdb_rsp_read_mem(&rig.g, BASE, buf, sizeof buf), GDB_RSP_PROTOCOL);
    cr_assert(strstr(rig.g.err, "bad checksum"), "%s", rig.g.err);
    rig_stop(&rig);
}

Test(gdb_rsp, an_error_reply_names_the_command)
{
    rig_start(&rig);
    uint8_t buf[16];
    rig.fake.answer_e01 = 1;
    cr_assert_eq(gdb_rsp_read_mem(&rig.g, BASE + 0x10, buf, sizeof buf), GDB_RSP_ERROR);
    cr_assert_str_eq(rig.g.err, "the GDB server answered E01 to m20000010,10");
    cr_assert_eq(gdb_rsp_write_mem(&rig.g, BASE, buf, 4), GDB_RSP_ERROR);
    cr_assert_str_eq(rig.g.err, "the GDB server answered E01 to M20000000,4");
    rig_stop(&rig);
}

Test(gdb_rsp, run_length_encoded_replies_are_expanded)
{
    rig_start(&rig);
    rig.fake.rle = 1;
    memset(rig.fake.mem, 0, 200);
    memset(rig.fake.mem + 50, 0x11, 60);
    uint8_t buf[200];
    memset(buf, 0xFF, sizeof buf);
    cr_assert_eq(gdb_rsp_read_mem(&rig.g, BASE, buf, sizeof buf), GDB_RSP_OK, "%s", rig.g.err);
    cr_assert_eq(memcmp(buf, rig.fake.mem, sizeof buf), 0);
    rig_stop(&rig);
}

Test(gdb_rsp, an_exited_target_is_reported)
{
    rig_start(&rig);
    rig.fake.exited = 1;
    cr_assert_eq(gdb_rsp_interrupt(&rig.g), GDB_RSP_EXITED);
    cr_assert(strstr(rig.g.err, "W00"), "%s", rig.g.err);
    rig_stop(&rig);
}

Test(gdb_rsp, a_closed_connection_is_an_io_error)
{
    rig_start(&rig);
    shutdown(rig.fake.fd, SHUT_RDWR);
    uint8_t b[4];
    cr_assert_eq(gdb_rsp_read_mem(&rig.g, BASE, b, 4), GDB_RSP_IO);
    rig_stop(&rig);
}
