/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_container.h
 * @brief The evrec container's constants (magic, versions, header and chunk sizes, chunk types),
 * the byte sink that writers write through, the canonical meta-info behind the schema hash, and
 * CRC-32C. Specified in FORMAT.md.
 *
 * API overview:
 * - File layout constants: EVREC_MAGIC, EVREC_FORMAT_MAJOR / _MINOR, ::evrec_chunk_type, the
 *   header, chunk and SYNC sizes.
 * - Output: ::evrec_sink_t, the write callback every writer (save, the reader's tools) uses.
 * - The schema hash's input: evrec_meta_write_canonical() (hashed by evrec_meta_schema_hash() of
 *   evrec/evrec_hash.h on the host).
 * - Checksums: evrec_crc32c().
 *
 * Needs no port: host programs that only read or write files include this (and evrec_reader.h)
 * without an `evrec_port.h`. Freestanding.
 *
 * FORMAT.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_CONTAINER_H
#define EVREC_CONTAINER_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_meta.h"
#include "evrec/evrec_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Container magic, 8 bytes: "EVRC" then CR LF SUB LF (catches text-mode transfers, as PNG). */
#define EVREC_MAGIC "EVRC\r\n\032\n"
/** Container format version written by this build: 1.3 (SEQ chunks, the COPY and TAIL chunks at
 * the end; FORMAT.md section 2.4), with or without lanes. Readers read 1.0 to 1.3. */
#define EVREC_FORMAT_MAJOR 1u
#define EVREC_FORMAT_MINOR 3u
/** Minor version written for a recording split into lanes (LANES and LANE_IDS chunks,
 * FORMAT.md section 2.3; 2 before version 1.3); the newest minor version this build knows. */
#define EVREC_FORMAT_MINOR_LANES 3u
/** The first minor version with SEQ, COPY and TAIL chunks (FORMAT.md section 2.4). */
#define EVREC_FORMAT_MINOR_SEQ 3u
/** Container header size, bytes. */
#define EVREC_HEADER_SIZE 48u
/** Chunk header size, bytes: u32 type<<24|length, u32 CRC-32C. */
#define EVREC_CHUNK_HEADER_SIZE 8u

/** Chunk types of the container (FORMAT.md, "Chunks"). */
enum evrec_chunk_type {
    EVREC_CHUNK_END = 0,           /**< last chunk, empty */
    EVREC_CHUNK_STREAM = 1,        /**< the next bytes of the CCore stream */
    EVREC_CHUNK_RUNTIME_ENUMS = 2, /**< run-time enum ranges: u32 count, {u32 enum_id, base, lim} */
    EVREC_CHUNK_FIELD_INFO = 3,    /**< field display attributes (FORMAT.md section 2) */
    EVREC_CHUNK_TRACKS = 4,        /**< tracks, spans and counters (FORMAT.md section 2) */
    EVREC_CHUNK_VIEW = 4,          /**< @deprecated the name of EVREC_CHUNK_TRACKS in evrec 0.2; removed in 0.4 */
    EVREC_CHUNK_SYNC = 5,          /**< where the next STREAM chunk starts: record index, time state
                               (FORMAT.md section 2.2; version 1.1) */
    EVREC_CHUNK_LANES = 6,         /**< lanes of the recording: u32 count, per lane u64 records, u64
                                dropped, u64 overwritten (FORMAT.md section 2.3; version 1.2) */
    EVREC_CHUNK_LANE_IDS = 7,      /**< u64 first record index, then the u8 lane of each record of the
                                   next STREAM chunk (FORMAT.md section 2.3; version 1.2) */
    EVREC_CHUNK_SEQ = 8,           /**< right before each STREAM chunk: u32 file id, u32 sequence number,
                               u32 the STREAM chunk's CRC, u32 the SYNC chunk's CRC or 0
                               (FORMAT.md section 2.4; version 1.3) */
    EVREC_CHUNK_COPY = 9,          /**< at the end: u8 type, then a copy of a chunk written before the
                               stream, or (type 1) the meta-info (section 2.4; version 1.3) */
    EVREC_CHUNK_TAIL = 10,         /**< right before END: u64 bytes of the COPY chunks before it, u32 file id,
                               u32 STREAM chunks, the 48-byte header (section 2.4; version 1.3) */
    EVREC_CHUNK_COUNTER_SERIES = 15, /**< after TRACKS: u32 count, {u16 struct id, u16 counter field,
                                   u16 series field} (FORMAT.md section 2.1; evrec 0.4); 11..14 are
                                   the stream's frames (evrec_stream_format.h) */
    EVREC_CHUNK_LOSSES = 16,         /**< a recording made from a stream: per lane the records the target
                                   dropped and those lost in transport, the damaged input ranges
                                   (FORMAT.md section 8.4; evrec 0.4) */
    EVREC_CHUNK_INDEX = 18,          /**< seek index: u32 stride, u32 count, {u64 SYNC chunk offset, u64 index,
                                   u64 t64, u64 t64_max}, u32 payload length (FORMAT.md section 2.5) */
    EVREC_CHUNK_ATTRS = 19           /**< the recording's attributes: u8 count, {u8 key length, key,
                                   u8 value length, value} (FORMAT.md section 2.6; evrec 0.4) */
};
/** Highest chunk type this build knows. */
#define EVREC_CHUNK_LAST EVREC_CHUNK_ATTRS

/** LOSSES chunk (FORMAT.md section 8.4): bytes before the lanes, per lane, per damaged range. */
#define EVREC_LOSSES_HEAD 32u
#define EVREC_LOSSES_LANE 32u
#define EVREC_LOSSES_RANGE 16u
/** LOSSES flags: the counts are final (the writer closed the file). */
#define EVREC_LOSSES_FINAL 1u
/** LOSSES flags: the stream's S_END frame was received (every lane's counts are exact). */
#define EVREC_LOSSES_ENDED 2u

/** Payload size of a SEQ chunk, bytes: u32 file id, u32 seq, u32 STREAM CRC, u32 SYNC CRC. */
#define EVREC_SEQ_SIZE 16u
/** Payload size of a TAIL chunk, bytes: u64 copy bytes, u32 file id, u32 STREAM chunks, header. */
#define EVREC_TAIL_SIZE 64u

/** Payload size of a SYNC chunk, bytes: u64 index, u64 t64, u64 t64_max, u64 ticks, u32 prev32. */
#define EVREC_SYNC_SIZE 36u

/** INDEX chunk (FORMAT.md section 2.5): bytes before the entries, per entry, after them. */
#define EVREC_INDEX_HEAD 8u
#define EVREC_INDEX_ENTRY 32u
#define EVREC_INDEX_TRAILER 4u

/**
 * @brief Where saved bytes go. `write` is called with consecutive pieces of the file.
 * It returns 0 when all `len` bytes were taken, non-zero on failure (save then stops with
 * EVREC_E_IO). `ctx` is passed through untouched.
 */
typedef struct evrec_sink {
    /** Take `len` bytes at `data` (valid only during the call; copy what you keep); return 0 on
     * success, non-zero on failure. Called from the context that saves. */
    int (*write)(void *ctx, const void *data, size_t len);
    void *ctx; /**< the user's, passed to every call of `write` */
} evrec_sink_t;

/**
 * @brief Write the canonical meta-info whose xxHash64 is the schema hash (FORMAT.md
 * section 4): the CCore MetaInfo with time_freq 0 and no run-time enum values, then the
 * RUNTIME_ENUMS payload (u32 count, {u32 enum_id, base, lim}...), then the TRACKS payload when
 * meta->tracks has a track, span or counter (nothing otherwise).
 * @param[in] meta the tables (validated).
 * @param[in] sink receives the bytes (a hash state, typically).
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG NULL pointer.
 * @retval EVREC_E_IO sink failure.
 * **Context:** thread.
 */
evrec_status evrec_meta_write_canonical(const evrec_meta_t *meta, const evrec_sink_t *sink);

/**
 * @brief CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) update, as used by the container.
 * @param[in] crc the value so far (0 for a fresh start).
 * @param[in] data bytes.
 * @param[in] len bytes.
 * @return the updated CRC (pre- and post-inverted internally; chainable). Known answer: "123456789"
 *     gives 0xE3069283.
 * **Context:** any, ISR-safe; pure.
 */
uint32_t evrec_crc32c(uint32_t crc, const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_CONTAINER_H */
