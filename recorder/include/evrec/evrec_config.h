/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_config.h
 * @brief Compile-time knobs of the recorder, each with an `#ifndef` default.
 *
 * Override with `-D` or by defining them before including any evrec header. Booleans are 0/1.
 * Each knob below states its unit, range, default and trade-off.
 *
 * Overview:
 * - Compiling recording out: EVREC_ENABLE.
 * - Save: EVREC_SAVE_CHUNK (chunk and staging buffer, bytes), EVREC_SAVE_SYNC_EVERY (seek points), EVREC_SAVE_INDEX_ENTRIES (seek index),
 *   EVREC_SAVE_PLAN_BYTES, EVREC_SAVE_PLAN_OPS, EVREC_SAVE_PLAN_EVENTS (conversion plans on the
 *   stack), EVREC_SAVE_LANES (merging lanes).
 * - Streaming drain: EVREC_STREAM_PLAN_EVENTS, EVREC_STREAM_PLAN_RUNS (conversion plans in the
 *   stream object).
 * - Checksum: EVREC_CRC32C_TABLE (ROM against instructions per byte).
 * - Recording attributes (evrec/evrec_attrs.h): EVREC_ATTRS_MAX, EVREC_ATTRS_KEY_MAX,
 *   EVREC_ATTRS_VALUE_MAX.
 * - Record path: EVREC_CYCLIC_GUARD, EVREC_HOST_SPLIT_LINES (cache-line split of the host).
 *
 * FORMAT.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
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
 * evrec_save() writes a SYNC chunk (44 bytes: record index and time state, FORMAT.md
 * section 2.2) before every this many STREAM chunks that start with a record, so that a reader
 * can jump to a record index or a time without decoding what comes before, and resume with exact
 * indices and times after a damaged chunk. 0: none (version 1.0 readers skip them either way).
 */
#ifndef EVREC_SAVE_SYNC_EVERY
#define EVREC_SAVE_SYNC_EVERY ((EVREC_SAVE_CHUNK) >= 4096 ? 1 : 8)
#endif

/**
 * EVREC_SAVE_INDEX_ENTRIES (entries, 0..65536, even; default 512 when EVREC_SAVE_CHUNK >= 4096,
 * else 16): the seek index evrec_save() keeps on its stack (32 bytes each: 512 bytes by default
 * on a target) and writes as an INDEX chunk at the end of the file (FORMAT.md section 2.5), so
 * that a reader finds the SYNC chunk nearest a record index or a time in a few reads. When the
 * table is full it keeps every other SYNC chunk (the stride doubles): any recording is covered
 * evenly. 0: no INDEX chunk (a reader then bisects over the file, section 2.2).
 */
#ifndef EVREC_SAVE_INDEX_ENTRIES
#define EVREC_SAVE_INDEX_ENTRIES ((EVREC_SAVE_CHUNK) >= 4096 ? 512 : 16)
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
 * (21 bytes of stack each, 18 more on targets with the 16-byte vector shuffle of
 * EVREC_SAVE_PLAN_OPS).
 */
#ifndef EVREC_SAVE_PLAN_EVENTS
#define EVREC_SAVE_PLAN_EVENTS 32
#endif

/**
 * EVREC_SAVE_LANES (lanes, 0..255, default 255 when EVREC_SAVE_CHUNK >= 4096, else 8): most
 * lanes (evrec/evrec_lanes.h) evrec_save() merges; it keeps one cursor of about 140 bytes per
 * lane on its stack. A buffer with more lanes is refused (EVREC_E_ARG). 0 leaves the merge out
 * of save (about 1.4 KB of Cortex-M4 code at -Os) for programs that never split a recorder: save
 * then refuses a buffer split into lanes (EVREC_E_UNSUPPORTED).
 */
#ifndef EVREC_SAVE_LANES
#define EVREC_SAVE_LANES ((EVREC_SAVE_CHUNK) >= 4096 ? 255 : 8)
#endif

/**
 * EVREC_STREAM_PLAN_EVENTS (entries, 0..4095, default 32): event ids below this get a conversion
 * plan in the stream object (evrec_stream_t, evrec/evrec_stream.h), made by evrec_stream_start():
 * evrec_stream_drain() then packs their records by runs of same-width fields instead of walking
 * the meta-info tables per field (same bytes; on a Cortex-M4 about a third of the walk's
 * instructions). Costs 2 bytes of RAM each, plus the runs below. 0 leaves the plan out (the
 * table walk for every record, the smallest stream object).
 */
#ifndef EVREC_STREAM_PLAN_EVENTS
#define EVREC_STREAM_PLAN_EVENTS 32
#endif

/**
 * EVREC_STREAM_PLAN_RUNS (runs, 1..65535, default 4 x EVREC_STREAM_PLAN_EVENTS): room for the
 * plans' runs, 2 bytes of RAM each. A run is up to 64 fields of one width at consecutive native
 * offsets: time and id are two runs, a struct of u32 fields in natural layout one more. Event
 * types whose runs no longer fit take the table walk.
 */
#ifndef EVREC_STREAM_PLAN_RUNS
#define EVREC_STREAM_PLAN_RUNS (4 * (EVREC_STREAM_PLAN_EVENTS))
#endif

/**
 * EVREC_CRC32C_TABLE (0, 1 or 4; default 4): how evrec_crc32c() computes the CRC-32C of chunks
 * and stream frames when the port has no CRC instruction (EVREC_PORT_CRC32C). 4: slice-by-4,
 * four 1 KiB tables in ROM (4256 bytes of Cortex-M4 text), a 32-bit word per step (about 4.5
 * instructions per byte in the stream's drain at -O2). 1: one 1 KiB table, a byte per step (1064
 * bytes, about 7 per byte). 0: no table, bit by bit (44 bytes, about 53 per byte): for the
 * smallest parts that save rarely and do not stream.
 */
#ifndef EVREC_CRC32C_TABLE
#define EVREC_CRC32C_TABLE 4
#endif

/**
 * EVREC_ATTRS_MAX (attributes, 1..64, default 4), EVREC_ATTRS_KEY_MAX (bytes, 1..32, default 16),
 * EVREC_ATTRS_VALUE_MAX (bytes, 0..255, default 48): the room of an ::evrec_attrs_t
 * (evrec/evrec_attrs.h), which copies each key and value: EVREC_ATTRS_MAX x (KEY_MAX + VALUE_MAX
 * + 2) + 4 bytes of RAM, 268 with the defaults. The format allows 64 attributes of
 * 32-byte keys and 255-byte values (FORMAT.md section 2.6); raise these on a host.
 */
#ifndef EVREC_ATTRS_MAX
#define EVREC_ATTRS_MAX 4
#endif
#ifndef EVREC_ATTRS_KEY_MAX
#define EVREC_ATTRS_KEY_MAX 16
#endif
#ifndef EVREC_ATTRS_VALUE_MAX
#define EVREC_ATTRS_VALUE_MAX 48
#endif

/**
 * EVREC_CYCLIC_GUARD (0/1): 1 makes a cyclic ring check, before it reuses a block, that every
 * record in it was committed (a context preempted for a whole lap of the ring between reserving
 * and committing a record would otherwise write into a block that now holds newer records): a
 * scan of the block's id words, and a walk over its records only when a word looks uncommitted.
 * 0 trusts the block's record count (written when it closed) and reuses the block without
 * reading it: cheapest, for targets where no recording context is preempted for a lap (bare-metal
 * interrupts). Default: 1, unless the port's evrec_port.h sets it (the Cortex-M and RISC-V ports
 * set 0; an RTOS with preemptive threads that record should set 1).
 */
#ifndef EVREC_CYCLIC_GUARD
#define EVREC_CYCLIC_GUARD 1
#endif

/**
 * EVREC_HOST_SPLIT_LINES (bytes, 0 or a power of two): when non-zero, evrec_host_t puts its
 * allocation offset (written by every record) on its own cache line of this size, apart from the
 * read-only fields every record reads (buffer, capacity, masks), so that recording threads do
 * not invalidate each other's copy of those. 0 packs the host (MCUs: no data cache, RAM counts).
 * Default: 64 when the compiler targets x86-64 or AArch64, else 0.
 */
#ifndef EVREC_HOST_SPLIT_LINES
#if defined(__x86_64__) || defined(__aarch64__)
#define EVREC_HOST_SPLIT_LINES 64
#else
#define EVREC_HOST_SPLIT_LINES 0
#endif
#endif

#endif /* EVREC_CONFIG_H */
