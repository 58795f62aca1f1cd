/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file peers_traces.h
 * @brief evrec-bench-peers: the equivalent traces of the read benchmark (the same N events as an
 * evrec file and as barectf's CTF trace), the reader-API throughput, and save against memcpy.
 */
#ifndef PEERS_TRACES_H
#define PEERS_TRACES_H

#include <stddef.h>

/** @brief Write `len` bytes to DIR/NAME (created or replaced; DIR must exist). @return 0 or -1 (message). */
int peers_write_file(const char *dir, const char *name, const void *data, size_t len);

/** @brief Copy the file `src` to DIR/NAME. @return 0 or -1 (message printed). */
int peers_copy_file(const char *src, const char *dir, const char *name);

/** @brief Record `n` events with barectf (one context, one thread) and write the CTF trace into
 * `dir` (stream_0 and a copy of the generated `metadata`). @return 0 or -1 (message printed). */
int peers_barectf_write_ctf(const char *dir, size_t n, const char *metadata);

/** @brief The QS frame bytes per event of the last one-thread evrec + QS run (0 before). */
double peers_qs_frame_bytes(void);

#endif /* PEERS_TRACES_H */
