/* SPDX-License-Identifier: Apache-2.0 */
/* Where `evrec record` reads a stream from (record_source.c). */
#ifndef EVREC_CLI_RECORD_SOURCE_H
#define EVREC_CLI_RECORD_SOURCE_H

/* Opens SOURCE for reading: "-" (standard input: a pipe or a file), "tcp:HOST:PORT" (a client
 * connection), a terminal device (a serial port: raw mode, `baud` when not 0, 8N1, no flow
 * control), or a file. Returns a descriptor, or -1 after reporting why ("evrec: SOURCE: ..."). */
int record_source_open(const char *source, unsigned long baud);

/* 1 when `baud` is a rate termios knows (50 .. 4000000), else 0. */
int record_baud_ok(unsigned long baud);

#endif
