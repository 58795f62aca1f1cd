/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the GDB Remote Serial Protocol client of `evrec record gdb:` (viewer-cli/commands/
 * gdb_rsp.c) against a lying or broken GDB server. The input is everything the server sends,
 * written in advance into one end of a socket pair whose other end the client uses (the server
 * then closes its side for writing, so that the client meets the end of the connection instead of
 * a timeout; a thread reads and discards what the client sends, so that it never blocks). The client runs what `evrec record gdb:` runs: `?`, memory reads of several pieces,
 * a memory write, `c`, the interrupt byte, a command with its reply. Each call must return one of
 * the documented statuses with its message, and a reply must fit the buffer given, NUL-terminated. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gdb_rsp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void check(const gdb_rsp_t *g, gdb_rsp_status_t st, const char *what)
{
    if ((unsigned)st > GDB_RSP_EXITED || memchr(g->err, '\0', sizeof g->err) == NULL ||
        (st != GDB_RSP_OK && g->err[0] == '\0')) {
        fprintf(stderr, "%s: status %d, message '%.160s'\n", what, (int)st, g->err);
        abort();
    }
}

static void client(gdb_rsp_t *g)
{
    uint8_t mem[2 * GDB_RSP_MEM_CHUNK + 300];
    char reply[64];
    size_t n = 0;
    check(g, gdb_rsp_halt_reason(g), "?");
    check(g, gdb_rsp_read_mem(g, 0x20000000u, mem, sizeof mem), "read_mem");
    check(g, gdb_rsp_write_mem(g, 0x20000010u, mem, 8), "write_mem");
    check(g, gdb_rsp_continue(g), "c");
    check(g, gdb_rsp_interrupt(g), "interrupt");
    gdb_rsp_status_t st = gdb_rsp_command(g, "qSupported", reply, sizeof reply, &n);
    check(g, st, "command");
    if (st == GDB_RSP_OK && (n >= sizeof reply || reply[n] != '\0')) {
        fprintf(stderr, "command: reply of %zu bytes in a buffer of %zu\n", n, sizeof reply);
        abort();
    }
    check(g, gdb_rsp_read_mem(g, 0xfffffffffffffff0u, mem, 16), "read_mem at the top");
    sink += mem[0] + g->bad_checksums;
}

/* The server's reading side: takes everything the client sends until it closes its end. */
static void *drain(void *arg)
{
    char buf[4096];
    while (read(*(int *)arg, buf, sizeof buf) > 0) {
    }
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int sv[2];
    if (size > 32768u || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
        return 0; /* larger inputs could fill the socket's buffer before the client reads */
    }
    if (size && write(sv[1], data, size) != (ssize_t)size) {
        abort();
    }
    shutdown(sv[1], SHUT_WR);
    pthread_t t;
    int drained = pthread_create(&t, NULL, drain, &sv[1]) == 0;
    gdb_rsp_t *g = malloc(sizeof *g);
    if (g && drained) {
        gdb_rsp_init(g, sv[0], 1000);
        client(g);
    }
    free(g);
    close(sv[0]); /* the drain thread meets the end */
    if (drained) {
        pthread_join(t, NULL);
    }
    close(sv[1]);
    return 0;
}
