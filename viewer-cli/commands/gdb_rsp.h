/* SPDX-License-Identifier: Apache-2.0 */
/* A small client of the GDB Remote Serial Protocol (GDB's manual, appendix "GDB Remote Serial
 * Protocol": "Overview", "Packets", "Stop Reply Packets"), for `evrec record gdb:HOST:PORT`:
 * packets `$data#cs` with their `+`/`-` acknowledgements (a packet whose checksum is wrong is
 * refused with `-` and sent again by the server), run-length encoded replies, memory reads (`m`)
 * and writes (`M`), the interrupt byte 0x03, `c` (continue), `?` (why the target stopped) and
 * `D` (detach). All-stop mode only. Every call waits at most the client's timeout for each reply.
 * Errors leave a message in `err` ("the server answered E01 to m 20000000,10"). */
#ifndef EVREC_CLI_GDB_RSP_H
#define EVREC_CLI_GDB_RSP_H

#include <stddef.h>
#include <stdint.h>

/* Largest packet payload handled, bytes; memory is read in pieces of GDB_RSP_MEM_CHUNK bytes
 * (2 hex digits each) so that every reply fits. */
#define GDB_RSP_MAX_PACKET 4096u
#define GDB_RSP_MEM_CHUNK 1024u

typedef enum gdb_rsp_status {
    GDB_RSP_OK = 0,
    GDB_RSP_IO,       /* the connection failed or closed */
    GDB_RSP_TIMEOUT,  /* no reply within the timeout */
    GDB_RSP_PROTOCOL, /* bad checksums past the retries, a packet too long, a reply not expected */
    GDB_RSP_ERROR,    /* the server answered `E NN` */
    GDB_RSP_EXITED    /* the target exited (`W`/`X` stop reply) */
} gdb_rsp_status_t;

typedef struct gdb_rsp {
    int fd;           /* the connection (caller's: not closed here) */
    int timeout_ms;   /* per reply */
    uint8_t in[4096]; /* bytes received and not used yet */
    size_t in_pos, in_len;
    char raw[GDB_RSP_MAX_PACKET]; /* the packet being received */
    uint64_t bad_checksums;       /* packets refused with `-` (counts) */
    char err[160];                /* what the last failure was */
} gdb_rsp_t;

/* Starts a client on a connected descriptor. */
void gdb_rsp_init(gdb_rsp_t *g, int fd, int timeout_ms);

/* Sends `payload` as one packet and waits for its `+` (sends it again on `-`, up to 5 times). */
gdb_rsp_status_t gdb_rsp_send(gdb_rsp_t *g, const char *payload);

/* Receives one packet (checksum checked, `-` and a retry on a bad one, `+` on a good one), run-
 * length decoded into `out` (at most `cap - 1` bytes, NUL-terminated); *len gets its length. */
gdb_rsp_status_t gdb_rsp_recv(gdb_rsp_t *g, char *out, size_t cap, size_t *len);

/* Sends `payload` and receives the reply into out (as gdb_rsp_recv()). */
gdb_rsp_status_t gdb_rsp_command(gdb_rsp_t *g, const char *payload, char *out, size_t cap, size_t *len);

/* `?`, or after the interrupt byte 0x03: waits for a stop reply (`T`/`S`: GDB_RSP_OK; `W`/`X`:
 * GDB_RSP_EXITED; `O` console output packets are skipped). */
gdb_rsp_status_t gdb_rsp_halt_reason(gdb_rsp_t *g);
gdb_rsp_status_t gdb_rsp_interrupt(gdb_rsp_t *g);

/* `c`: the target runs; its stop reply comes when it stops (read by the next gdb_rsp_interrupt()). */
gdb_rsp_status_t gdb_rsp_continue(gdb_rsp_t *g);

/* Reads `len` bytes of target memory at `addr` (`m`, in pieces; a short reply is continued). */
gdb_rsp_status_t gdb_rsp_read_mem(gdb_rsp_t *g, uint64_t addr, void *buf, size_t len);

/* Writes `len` bytes (at most GDB_RSP_MEM_CHUNK) of target memory at `addr` (`M`, reply `OK`). */
gdb_rsp_status_t gdb_rsp_write_mem(gdb_rsp_t *g, uint64_t addr, const void *buf, size_t len);

#endif
