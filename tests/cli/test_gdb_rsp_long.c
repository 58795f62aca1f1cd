/* SPDX-License-Identifier: Apache-2.0 */
/* Long stop replies of a GDB server (GDB's manual, "Stop Reply Packets": `T` with registers and
 * thread data, `O` console output while the target runs) are taken whole by the client of `evrec
 * record gdb:` (viewer-cli/commands/gdb_rsp.c); a 256-byte buffer made it fail the interrupt with
 * "reply longer than expected". The server's bytes are written in advance into a socket pair. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gdb_rsp.h"

/* Appends `$payload#cs` to out (at *n). */
static void packet(char *out, size_t *n, const char *payload)
{
    unsigned sum = 0;
    for (const char *p = payload; *p; p++) {
        sum = (sum + (uint8_t)*p) & 0xFFu;
    }
    *n += (size_t)sprintf(out + *n, "$%s#%02x", payload, sum);
}

/* The client's status for `?` when the server answers with `replies` (after the acknowledgement). */
static gdb_rsp_status_t halt_reason_with(const char *const *replies, size_t count, char *err, size_t err_cap)
{
    static char server[3 * GDB_RSP_MAX_PACKET];
    size_t n = 0;
    server[n++] = '+';
    for (size_t i = 0; i < count; i++) {
        packet(server, &n, replies[i]);
    }
    int sv[2];
    cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    cr_assert_eq(write(sv[1], server, n), (ssize_t)n);
    shutdown(sv[1], SHUT_WR);
    static gdb_rsp_t g;
    gdb_rsp_init(&g, sv[0], 5000);
    gdb_rsp_status_t st = gdb_rsp_halt_reason(&g);
    snprintf(err, err_cap, "%s", g.err);
    close(sv[0]);
    close(sv[1]);
    return st;
}

Test(gdb_rsp_long, a_stop_reply_with_many_registers_is_taken)
{
    static char t[2048];
    size_t n = (size_t)sprintf(t, "T05");
    for (unsigned reg = 0; reg < 40; reg++) {
        n += (size_t)sprintf(t + n, "%02x:%08x;", reg, reg * 0x01010101u);
    }
    sprintf(t + n, "thread:p01.01;core:0;");
    cr_assert_gt(strlen(t), 256u);
    const char *replies[] = {t};
    char err[160];
    cr_expect_eq(halt_reason_with(replies, 1, err, sizeof err), GDB_RSP_OK, "%s", err);
}

Test(gdb_rsp_long, long_console_output_before_the_stop_reply_is_skipped)
{
    static char o[1 + 2 * 600 + 1];
    o[0] = 'O';
    for (unsigned i = 0; i < 600; i++) {
        sprintf(o + 1 + 2 * i, "%02x", 'a' + i % 26);
    }
    const char *replies[] = {o, "S05"};
    char err[160];
    cr_expect_eq(halt_reason_with(replies, 2, err, sizeof err), GDB_RSP_OK, "%s", err);
}

Test(gdb_rsp_long, a_packet_over_the_limit_is_still_refused)
{
    static char t[GDB_RSP_MAX_PACKET + 2];
    memset(t, 'a', sizeof t - 1);
    t[0] = 'T';
    t[sizeof t - 1] = '\0';
    const char *replies[] = {t};
    char err[160];
    cr_expect_eq(halt_reason_with(replies, 1, err, sizeof err), GDB_RSP_PROTOCOL);
    cr_expect(strstr(err, "longer than 4096"), "%s", err);
}
