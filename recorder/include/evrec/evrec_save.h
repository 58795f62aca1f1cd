/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_save.h
 * @brief Save a stopped recording through a user write callback: the evrec container around the
 * CCore stream, or the bare CCore stream.
 *
 * The CCore stream (seed 003_ea95ce95c317374b.txt, "Binary output", with the event entry of
 * shared/CCORE-NOTES.md) is big-endian: MetaInfo, then every record converted field by field,
 * then the EventControl End record. The evrec container (format/FORMAT.md) wraps that stream in
 * CRC-32C-checked chunks after a header holding the magic, version, schema hash and counts.
 *
 * Output goes through ::evrec_sink_t in chunks of at most ::EVREC_SAVE_CHUNK bytes, so it works
 * on a UART as well as a file. Freestanding; uses ::EVREC_SAVE_CHUNK + about 200 bytes of stack.
 */
#ifndef EVREC_SAVE_H
#define EVREC_SAVE_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_config.h"
#include "evrec/evrec_meta.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Container magic, 8 bytes: "EVRC" then CR LF SUB LF (catches text-mode transfers, as PNG). */
#define EVREC_MAGIC "EVRC\r\n\032\n"
/** Container format version written by this build. */
#define EVREC_FORMAT_MAJOR 1u
#define EVREC_FORMAT_MINOR 0u
/** Container header size, bytes. */
#define EVREC_HEADER_SIZE 48u
/** Chunk header size, bytes: u32 type<<24|length, u32 CRC-32C. */
#define EVREC_CHUNK_HEADER_SIZE 8u

/** Chunk types of the container (format/FORMAT.md, "Chunks"). */
enum evrec_chunk_type {
    EVREC_CHUNK_END = 0,    /**< last chunk, empty */
    EVREC_CHUNK_STREAM = 1, /**< the next bytes of the CCore stream */
    EVREC_CHUNK_RUNTIME_ENUMS = 2, /**< run-time enum ranges: u32 count, {u32 enum_id, base, lim} */
    EVREC_CHUNK_FIELD_INFO = 3, /**< field display attributes (format/FORMAT.md section 2) */
    EVREC_CHUNK_VIEW = 4 /**< tracks, spans and counters (format/FORMAT.md section 2) */
};

/**
 * @brief Where saved bytes go. `write` is called with consecutive pieces of the file.
 * It returns 0 when all `len` bytes were taken, non-zero on failure (save then stops with
 * EVREC_E_IO). `ctx` is passed through untouched.
 */
typedef struct evrec_sink {
    int (*write)(void *ctx, const void *data, size_t len);
    void *ctx;
} evrec_sink_t;

/** @brief Options of evrec_save_ex(). Zero-initialise for the defaults. */
typedef struct evrec_save_options {
    uint64_t schema_hash; /**< written in the header; 0 = take meta->schema_hash */
    int bare_ccore;       /**< 1: write the bare CCore stream (no container), as CCore does */
} evrec_save_options_t;

/**
 * @brief Save a stopped recorder as an evrec container file (evrec_save_ex() with defaults).
 * @param[in] rec a recorder after evrec_host_stop(). @param[in] sink where the bytes go.
 * @retval EVREC_OK every byte was written. @retval EVREC_E_ARG NULL pointer.
 * @retval EVREC_E_BUSY the recorder is still attached (stop first), or never recorded.
 * @retval EVREC_E_CORRUPT a record in the buffer has an id the meta-info lacks (memory was
 * overwritten); the records before it are saved and the stream is ended properly.
 * @retval EVREC_E_IO the sink failed; the output is incomplete.
 * **Context:** thread; not reentrant for the same sink. Reads the buffer only.
 * @code
 * evrec_sink_t sink = { my_uart_write, &uart };
 * evrec_save(&rec, &sink);
 * @endcode
 */
evrec_status evrec_save(const evrec_recorder_t *rec, const evrec_sink_t *sink);

/**
 * @brief evrec_save() with options: another schema hash, or the bare CCore stream.
 * @param[in] opt options, or NULL for the defaults. Other parameters and errors as evrec_save().
 */
evrec_status evrec_save_ex(const evrec_recorder_t *rec, const evrec_sink_t *sink,
                           const evrec_save_options_t *opt);

/**
 * @brief Encode the records of a raw native buffer as the CCore stream (no container): helper
 * for tools and tests that hold records made elsewhere. Same output as evrec_save_ex() with
 * bare_ccore for a recorder whose buffer holds exactly these bytes.
 * @param[in] meta the meta-info. @param time_freq written in the stream, Hz.
 * @param[in] records native records, back to back, each padded to 4 bytes. @param size bytes.
 * @param[in] sink where the bytes go.
 * @retval EVREC_OK done. @retval EVREC_E_CORRUPT an unknown id (earlier records written, End
 * appended). @retval EVREC_E_IO sink failure. @retval EVREC_E_ARG NULL pointer.
 * **Context:** thread.
 */
evrec_status evrec_save_ccore(const evrec_meta_t *meta, uint64_t time_freq, const void *records,
                              size_t size, const evrec_sink_t *sink);

/**
 * @brief Write the canonical meta-info whose xxHash64 is the schema hash (format/FORMAT.md
 * section 4): the CCore MetaInfo with time_freq 0 and no run-time enum values, then the
 * RUNTIME_ENUMS payload (u32 count, {u32 enum_id, base, lim}...), then the VIEW payload when
 * meta->view has a track, span or counter (nothing otherwise).
 * @param[in] meta the tables. @param[in] sink receives the bytes (a hash state, typically).
 * @retval EVREC_OK done. @retval EVREC_E_ARG NULL pointer. @retval EVREC_E_IO sink failure.
 * **Context:** thread.
 */
evrec_status evrec_meta_write_canonical(const evrec_meta_t *meta, const evrec_sink_t *sink);

/**
 * @brief CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) update, as used by the container.
 * @param crc the value so far (0 for a fresh start). @param[in] data bytes. @param len bytes.
 * @return the updated CRC (pre- and post-inverted internally; chainable).
 * Known answer: "123456789" gives 0xE3069283. **Context:** pure; any.
 */
uint32_t evrec_crc32c(uint32_t crc, const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_SAVE_H */
