/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_config.h
 * @brief Compile-time knobs of the recorder, each with an `#ifndef` default.
 *
 * Override with `-D` or by defining them before including any evrec header. Booleans are 0/1.
 */
#ifndef EVREC_CONFIG_H
#define EVREC_CONFIG_H

/**
 * EVREC_ENABLE (0/1, default 1): 0 compiles every record call of generated code to nothing.
 */
#ifndef EVREC_ENABLE
#define EVREC_ENABLE 1
#endif

/**
 * EVREC_SAVE_CHUNK (bytes, 64..16777215, default 512): size of the staging buffer evrec_save()
 * keeps on its stack and of the container's chunks. Larger = fewer sink calls and checksum
 * words per byte (faster), smaller = less stack on an MCU. The host build uses 16384.
 */
#ifndef EVREC_SAVE_CHUNK
#define EVREC_SAVE_CHUNK 512
#endif

/**
 * EVREC_SAVE_SYNC_EVERY (STREAM chunks, >= 0; default 1 when EVREC_SAVE_CHUNK >= 4096, else 8):
 * evrec_save() writes a SYNC chunk (44 bytes: record index and time state, format/FORMAT.md
 * section 2.2) before every this many STREAM chunks that start with a record, so that a reader
 * can jump to a record index or a time without decoding what comes before, and resume with exact
 * indices and times after a damaged chunk. 0: none (version 1.0 readers skip them either way).
 */
#ifndef EVREC_SAVE_SYNC_EVERY
#define EVREC_SAVE_SYNC_EVERY ((EVREC_SAVE_CHUNK) >= 4096 ? 1 : 8)
#endif

/**
 * EVREC_SAVE_PLAN_BYTES (bytes, 64..65535, default 512): space evrec_save() keeps on its stack for
 * the byte permutation of each event type (one byte per packed byte), so that it converts records
 * without walking the tables. Event types that do not fit are converted by the table walk
 * (same bytes, slower). The host build uses 8192.
 */
#ifndef EVREC_SAVE_PLAN_BYTES
#define EVREC_SAVE_PLAN_BYTES 512
#endif

/**
 * EVREC_SAVE_PLAN_OPS (ops, 1..65535, default EVREC_SAVE_PLAN_BYTES / 16): on targets with a
 * 16-byte vector shuffle (x86 SSSE3, AArch64 NEON, 64-bit GCC targets), the number of vector ops
 * evrec_save() keeps on its stack (20 bytes each). An op moves up to 16 packed bytes of a record;
 * a record of up to 16 packed bytes needs one, a 256-byte record about 18. Event types whose ops
 * do not fit are converted byte by byte (same bytes, slower). Unused elsewhere. The host build
 * uses 1024.
 */
#ifndef EVREC_SAVE_PLAN_OPS
#define EVREC_SAVE_PLAN_OPS (EVREC_SAVE_PLAN_BYTES / 16)
#endif

/**
 * EVREC_SAVE_PLAN_EVENTS (entries, 1..65535, default 32): event ids below this get a plan
 * (21 bytes of stack each).
 */
#ifndef EVREC_SAVE_PLAN_EVENTS
#define EVREC_SAVE_PLAN_EVENTS 32
#endif

#endif /* EVREC_CONFIG_H */
