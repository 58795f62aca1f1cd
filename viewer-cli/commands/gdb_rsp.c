/* SPDX-License-Identifier: Apache-2.0 */
/* The GDB Remote Serial Protocol client of `evrec record gdb:` (gdb_rsp.h): framing, checksums,
 * acknowledgements, run-length decoding, and the few commands it needs. */
#include "gdb_rsp.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define RSP_RETRIES 5

static gdb_rsp_status_t fail(gdb_rsp_t *g, gdb_rsp_status_t st, const char *what)
{
    snprintf(g->err, sizeof g->err, "%s", what);
    return st;
}

void gdb_rsp_init(gdb_rsp_t *g, int fd, int timeout_ms)
{
    memset(g, 0, sizeof *g);
    g->fd = fd;
    g->timeout_ms = timeout_ms;
}

/* Next byte received, or -1 (GDB_RSP_IO / GDB_RSP_TIMEOUT in *st). */
static int get_byte(gdb_rsp_t *g, gdb_rsp_status_t *st)
{
    if (g->in_pos == g->in_len) {
        struct pollfd p = {g->fd, POLLIN, 0};
        int r = poll(&p, 1, g->timeout_ms);
        if (r == 0) {
            *st = fail(g, GDB_RSP_TIMEOUT, "no reply from the GDB server");
            return -1;
        }
        ssize_t n = r > 0 ? read(g->fd, g->in, sizeof g->in) : -1;
        if (n <= 0) {
            *st = fail(g, GDB_RSP_IO, n == 0 ? "the GDB server closed the connection" : strerror(errno));
            return -1;
        }
        g->in_pos = 0;
        g->in_len = (size_t)n;
    }
    return g->in[g->in_pos++];
}

static gdb_rsp_status_t put(gdb_rsp_t *g, const void *p, size_t n)
{
    const uint8_t *b = (const uint8_t *)p;
    while (n) {
        ssize_t w = send(g->fd, b, n, MSG_NOSIGNAL); /* a closed connection is an error, not SIGPIPE */
        if (w < 0 && errno == ENOTSOCK) {
            w = write(g->fd, b, n);
        }
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return fail(g, GDB_RSP_IO, w < 0 ? strerror(errno) : "write failed");
        }
        b += w;
        n -= (size_t)w;
    }
    return GDB_RSP_OK;
}

static int hex_val(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

gdb_rsp_status_t gdb_rsp_send(gdb_rsp_t *g, const char *payload)
{
    static const char hex[] = "0123456789abcdef";
    char frame[GDB_RSP_MAX_PACKET + 4];
    size_t n = strlen(payload);
    if (n > GDB_RSP_MAX_PACKET) {
        return fail(g, GDB_RSP_PROTOCOL, "packet too long");
    }
    uint8_t sum = 0;
    frame[0] = '$';
    for (size_t i = 0; i < n; i++) {
        frame[1 + i] = payload[i];
        sum = (uint8_t)(sum + (uint8_t)payload[i]);
    }
    frame[n + 1] = '#';
    frame[n + 2] = hex[sum >> 4];
    frame[n + 3] = hex[sum & 15];
    for (int tries = 0; tries < RSP_RETRIES; tries++) {
        gdb_rsp_status_t st = put(g, frame, n + 4);
        int c;
        if (st != GDB_RSP_OK || (c = get_byte(g, &st)) < 0) {
            return st;
        }
        if (c == '+') {
            return GDB_RSP_OK;
        }
        if (c != '-') {
            return fail(g, GDB_RSP_PROTOCOL, "expected an acknowledgement ('+' or '-')");
        }
    }
    return fail(g, GDB_RSP_PROTOCOL, "the GDB server refused the packet 5 times");
}

/* Run-length decoding (`c*n`: the character c repeated n - 29 more times) into out. */
static gdb_rsp_status_t unrle(gdb_rsp_t *g, const char *raw, size_t n, char *out, size_t cap, size_t *len)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (raw[i] == '*' && o > 0 && i + 1 < n) {
            size_t rep = (size_t)(uint8_t)raw[++i];
            rep = rep >= 29 ? rep - 29 : 0;
            for (size_t k = 0; k < rep && o + 1 < cap; k++, o++) {
                out[o] = out[o - 1];
            }
        } else if (o + 1 < cap) {
            out[o++] = raw[i];
        } else {
            return fail(g, GDB_RSP_PROTOCOL, "reply longer than expected");
        }
    }
    out[o] = '\0';
    *len = o;
    return GDB_RSP_OK;
}

/* One packet's raw payload (checksum not checked yet); *sum_ok says whether it matched. */
static gdb_rsp_status_t read_packet(gdb_rsp_t *g, char *raw, size_t *n, int *sum_ok)
{
    gdb_rsp_status_t st = GDB_RSP_OK;
    int c;
    while ((c = get_byte(g, &st)) != '$') { /* acks and noise between packets */
        if (c < 0) {
            return st;
        }
    }
    uint8_t sum = 0;
    *n = 0;
    while ((c = get_byte(g, &st)) != '#') {
        if (c < 0) {
            return st;
        }
        if (*n == GDB_RSP_MAX_PACKET) {
            return fail(g, GDB_RSP_PROTOCOL, "packet longer than 4096 bytes");
        }
        raw[(*n)++] = (char)c;
        sum = (uint8_t)(sum + (uint8_t)c);
    }
    int h = get_byte(g, &st), l = h < 0 ? -1 : get_byte(g, &st);
    if (l < 0) {
        return st;
    }
    *sum_ok = hex_val(h) >= 0 && hex_val(l) >= 0 && (unsigned)(hex_val(h) << 4 | hex_val(l)) == sum;
    return GDB_RSP_OK;
}

gdb_rsp_status_t gdb_rsp_recv(gdb_rsp_t *g, char *out, size_t cap, size_t *len)
{
    char *raw = g->raw;
    for (int tries = 0; tries < RSP_RETRIES; tries++) {
        size_t n = 0;
        int ok = 0;
        gdb_rsp_status_t st = read_packet(g, raw, &n, &ok);
        if (st != GDB_RSP_OK) {
            return st;
        }
        if (!ok) {
            g->bad_checksums++;
            if ((st = put(g, "-", 1)) != GDB_RSP_OK) {
                return st;
            }
            continue;
        }
        if ((st = put(g, "+", 1)) != GDB_RSP_OK) {
            return st;
        }
        return unrle(g, raw, n, out, cap, len);
    }
    return fail(g, GDB_RSP_PROTOCOL, "5 packets in a row with a bad checksum");
}

gdb_rsp_status_t gdb_rsp_command(gdb_rsp_t *g, const char *payload, char *out, size_t cap, size_t *len)
{
    gdb_rsp_status_t st = gdb_rsp_send(g, payload);
    return st != GDB_RSP_OK ? st : gdb_rsp_recv(g, out, cap, len);
}

/* An `E NN` reply: GDB_RSP_ERROR with the command named; else GDB_RSP_OK. */
static gdb_rsp_status_t error_reply(gdb_rsp_t *g, const char *reply, size_t len, const char *cmd)
{
    if (len == 3 && reply[0] == 'E' && hex_val(reply[1]) >= 0 && hex_val(reply[2]) >= 0) {
        snprintf(g->err, sizeof g->err, "the GDB server answered %.3s to %.100s", reply, cmd);
        return GDB_RSP_ERROR;
    }
    return GDB_RSP_OK;
}

/* A stop reply may carry registers and thread data, console output as long as the server's
 * packets: any packet up to GDB_RSP_MAX_PACKET bytes is taken. */
static gdb_rsp_status_t stop_reply(gdb_rsp_t *g)
{
    char r[GDB_RSP_MAX_PACKET + 1];
    size_t n;
    for (;;) {
        gdb_rsp_status_t st = gdb_rsp_recv(g, r, sizeof r, &n);
        if (st != GDB_RSP_OK) {
            return st;
        }
        if (n && (r[0] == 'T' || r[0] == 'S')) {
            return GDB_RSP_OK;
        }
        if (n && (r[0] == 'W' || r[0] == 'X')) {
            snprintf(g->err, sizeof g->err, "the target exited (%.40s)", r);
            return GDB_RSP_EXITED;
        }
        if (!(n && r[0] == 'O')) { /* O: console output while running */
            snprintf(g->err, sizeof g->err, "expected a stop reply, got '%.40s'", r);
            return GDB_RSP_PROTOCOL;
        }
    }
}

gdb_rsp_status_t gdb_rsp_halt_reason(gdb_rsp_t *g)
{
    gdb_rsp_status_t st = gdb_rsp_send(g, "?");
    return st != GDB_RSP_OK ? st : stop_reply(g);
}

gdb_rsp_status_t gdb_rsp_interrupt(gdb_rsp_t *g)
{
    gdb_rsp_status_t st = put(g, "\x03", 1);
    return st != GDB_RSP_OK ? st : stop_reply(g);
}

gdb_rsp_status_t gdb_rsp_continue(gdb_rsp_t *g)
{
    return gdb_rsp_send(g, "c");
}

/* One `m` of at most GDB_RSP_MEM_CHUNK bytes; *got gets the bytes the server returned (> 0). */
static gdb_rsp_status_t read_piece(gdb_rsp_t *g, uint64_t addr, uint8_t *buf, size_t len, size_t *got)
{
    char cmd[48], reply[2 * GDB_RSP_MEM_CHUNK + 8];
    size_t n;
    snprintf(cmd, sizeof cmd, "m%" PRIx64 ",%zx", addr, len);
    gdb_rsp_status_t st = gdb_rsp_command(g, cmd, reply, sizeof reply, &n);
    if (st != GDB_RSP_OK || (st = error_reply(g, reply, n, cmd)) != GDB_RSP_OK) {
        return st;
    }
    if (n == 0 || n % 2 || n / 2 > len) {
        snprintf(g->err, sizeof g->err, "reply to %s: expected up to %zu hex digits, got %zu", cmd, 2 * len, n);
        return GDB_RSP_PROTOCOL;
    }
    for (size_t i = 0; i < n / 2; i++) {
        int h = hex_val(reply[2 * i]), l = hex_val(reply[2 * i + 1]);
        if (h < 0 || l < 0) {
            snprintf(g->err, sizeof g->err, "reply to %s: not hex at digit %zu", cmd, 2 * i);
            return GDB_RSP_PROTOCOL;
        }
        buf[i] = (uint8_t)(h << 4 | l);
    }
    *got = n / 2;
    return GDB_RSP_OK;
}

gdb_rsp_status_t gdb_rsp_read_mem(gdb_rsp_t *g, uint64_t addr, void *buf, size_t len)
{
    uint8_t *b = (uint8_t *)buf;
    while (len) {
        size_t piece = len < GDB_RSP_MEM_CHUNK ? len : GDB_RSP_MEM_CHUNK, got = 0;
        gdb_rsp_status_t st = read_piece(g, addr, b, piece, &got);
        if (st != GDB_RSP_OK) {
            return st;
        }
        addr += got;
        b += got;
        len -= got;
    }
    return GDB_RSP_OK;
}

gdb_rsp_status_t gdb_rsp_write_mem(gdb_rsp_t *g, uint64_t addr, const void *buf, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    char cmd[48 + 2 * GDB_RSP_MEM_CHUNK], reply[64];
    const uint8_t *b = (const uint8_t *)buf;
    if (len > GDB_RSP_MEM_CHUNK) {
        return fail(g, GDB_RSP_PROTOCOL, "memory write too long");
    }
    int k = snprintf(cmd, sizeof cmd, "M%" PRIx64 ",%zx:", addr, len);
    for (size_t i = 0; i < len; i++) {
        cmd[k + 2 * (int)i] = hex[b[i] >> 4];
        cmd[k + 2 * (int)i + 1] = hex[b[i] & 15];
    }
    cmd[k + 2 * (int)len] = '\0';
    size_t n;
    gdb_rsp_status_t st = gdb_rsp_command(g, cmd, reply, sizeof reply, &n);
    cmd[k - 1] = '\0'; /* name the command without its data */
    if (st != GDB_RSP_OK || (st = error_reply(g, reply, n, cmd)) != GDB_RSP_OK) {
        return st;
    }
    if (strcmp(reply, "OK") != 0) {
        snprintf(g->err, sizeof g->err, "reply to %.60s: expected OK, got '%.40s'", cmd, reply);
        return GDB_RSP_PROTOCOL;
    }
    return GDB_RSP_OK;
}
