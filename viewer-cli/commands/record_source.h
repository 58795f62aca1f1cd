/* SPDX-License-Identifier: Apache-2.0 */
/* Where `evrec record` reads a stream from (record_source.c). */
#ifndef EVREC_CLI_RECORD_SOURCE_H
#define EVREC_CLI_RECORD_SOURCE_H

/* Opens SOURCE for reading: "-" (standard input: a pipe or a file), "tcp:HOST:PORT" (a client
 * connection), "gdb:HOST:PORT" (the RTT up buffer of the firmware `elf`, read through a GDB
 * server: record_gdb_open()), a terminal device (a serial port: raw mode, `baud` when not 0, 8N1,
 * no flow control), or a file. Returns a descriptor, or -1 after reporting why
 * ("evrec: SOURCE: ..."). */
int record_source_open(const char *source, unsigned long baud, const char *elf);

/* "tcp:HOST:PORT" or "gdb:HOST:PORT" (any 4-character prefix): a connected TCP socket, or -1 after
 * reporting why. */
int record_tcp_connect(const char *source);

/* "gdb:HOST:PORT" with the firmware's ELF file (record_source_gdb.c): a child process polls the
 * RTT control block `_SEGGER_RTT` through the GDB server and writes the bytes into the returned
 * descriptor; it stops when the target exits or the descriptor is closed (then it lets the target
 * run and detaches); the program waits for it at exit. -1 after reporting why. */
int record_gdb_open(const char *source, const char *elf);

/* 1 when `baud` is a rate termios knows (50 .. 4000000), else 0. */
int record_baud_ok(unsigned long baud);

#endif
