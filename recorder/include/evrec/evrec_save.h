/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_save.h
 * @brief Save a stopped recording through a user write callback: the evrec container around the
 * CCore stream, or the bare CCore stream.
 *
 * The CCore stream (FORMAT.md section 3, as CCore's `EventRecorder.cpp` writes it) is
 * big-endian: MetaInfo, then every record converted field by field,
 * then the EventControl End record. The evrec container (FORMAT.md) wraps that stream in
 * CRC-32C-checked chunks after a header holding the magic, version, schema hash and counts.
 *
 * API overview:
 * - evrec_save(): a stopped recorder as an evrec container file (records of lanes merged by time).
 * - evrec_save_ex(): the same with options (::evrec_save_options_t: another schema hash, or the
 *   bare CCore stream).
 * - evrec_save_ccore(): native records made elsewhere as the bare CCore stream.
 * - The output: ::evrec_sink_t (evrec/evrec_container.h), EVREC_SAVE_CHUNK bytes at a time.
 *
 * Output goes through ::evrec_sink_t in chunks of at most ::EVREC_SAVE_CHUNK bytes, so it works
 * on a UART as well as a file. Freestanding. Stack: the output chunk (::EVREC_SAVE_CHUNK bytes)
 * and the conversion plans (EVREC_SAVE_PLAN_* in evrec_config.h), in all (GCC -fstack-usage)
 * about 1.6 KB with the defaults on Cortex-M4 (1.8 KB merging lanes), 2.9 KB with the defaults
 * on a host with a 16-byte vector shuffle, 53 KB with the POSIX port's settings (78 KB merging
 * lanes). The copies written at the end (FORMAT.md section 2.4: the meta-info and the
 * chunks before the stream, produced again from the tables) add about 0.2 KB at their deepest
 * on Cortex-M4 (GCC -fstack-usage: the chain evrec_save_ex, finish_container, put_copy,
 * put_meta, flush). The seek index (FORMAT.md section 2.5: EVREC_SAVE_INDEX_ENTRIES entries of
 * 32 bytes, 16 on a target) adds 0.5 KB of stack on Cortex-M4 (write_source: 1,016 -> 1,528
 * bytes, GCC -fstack-usage) and about 0.6 KB of code (-Os).
 *
 * The container is version 1.3: a SEQ chunk before every STREAM chunk (the recording's id, the
 * chunk's number, its CRC and its SYNC chunk's CRC) lets a reader see chunks swapped, duplicated,
 * removed or from another recording; COPY chunks and a TAIL chunk at the end let it read a file
 * whose header or first STREAM chunk (the meta-info) is damaged. An INDEX chunk before the copies
 * lists the SYNC chunks (section 2.5), so that a reader seeks in a few reads.
 *
 * FORMAT.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_SAVE_H
#define EVREC_SAVE_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_config.h"
#include "evrec/evrec_container.h"
#include "evrec/evrec_meta.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Options of evrec_save_ex(). Zero-initialise for the defaults. */
typedef struct evrec_save_options {
    uint64_t schema_hash; /**< written in the header; 0 = take meta->schema_hash */
    int bare_ccore;       /**< 1: write the bare CCore stream (no container), as CCore does */
} evrec_save_options_t;

/**
 * @brief Save a stopped recorder as an evrec container file (evrec_save_ex() with defaults).
 * A recorder split into lanes (evrec/evrec_lanes.h) is saved as one stream merged by time, with
 * the lane of each record in LANE_IDS chunks (FORMAT.md section 2.3).
 * @pre The recorder is stopped (evrec_host_stop() or evrec_lanes_stop()).
 * @param[in] rec a recorder after evrec_host_stop() (or evrec_lanes_stop()).
 * @param[in] sink where the bytes go.
 * @retval EVREC_OK every byte was written.
 * @retval EVREC_E_ARG NULL pointer, or more lanes than ::EVREC_SAVE_LANES.
 * @retval EVREC_E_BUSY the recorder is still attached (stop first; a recorder split into lanes is
 *     saved only after evrec_lanes_stop()), or never recorded.
 * @retval EVREC_E_UNSUPPORTED a recorder split into lanes, in a build with EVREC_SAVE_LANES 0; or a
 *     recorder in streaming mode (its records leave through evrec_stream_drain()).
 * @retval EVREC_E_CORRUPT a record in the buffer has an id the meta-info lacks (memory was
 *     overwritten); the records before it are saved and the stream is ended properly.
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
 * @pre The recorder is stopped (evrec_host_stop() or evrec_lanes_stop()).
 * @param[in] rec a recorder after evrec_host_stop() (or evrec_lanes_stop()).
 * @param[in] sink where the bytes go.
 * @param[in] opt options, or NULL for the defaults.
 * @retval EVREC_OK every byte was written.
 * @retval EVREC_E_ARG NULL pointer, or more lanes than ::EVREC_SAVE_LANES.
 * @retval EVREC_E_BUSY the recorder is still attached, or never recorded.
 * @retval EVREC_E_UNSUPPORTED a recorder split into lanes, in a build with EVREC_SAVE_LANES 0; or a
 *     recorder in streaming mode (its records leave through evrec_stream_drain()).
 * @retval EVREC_E_CORRUPT a record in the buffer has an id the meta-info lacks; the records before
 *     it are saved and the stream is ended properly.
 * @retval EVREC_E_IO the sink failed; the output is incomplete.
 * **Context:** thread; not reentrant for the same sink. Reads the buffer only.
 */
evrec_status evrec_save_ex(const evrec_recorder_t *rec, const evrec_sink_t *sink, const evrec_save_options_t *opt);

/**
 * @brief Encode the records of a raw native buffer as the CCore stream (no container): helper
 * for tools and tests that hold records made elsewhere. Same output as evrec_save_ex() with
 * bare_ccore for a recorder whose buffer holds exactly these bytes.
 * @param[in] meta the meta-info (validated).
 * @param[in] time_freq written in the stream, Hz.
 * @param[in] records native records, back to back, each padded to 4 bytes.
 * @param[in] size bytes.
 * @param[in] sink where the bytes go.
 * @retval EVREC_OK done.
 * @retval EVREC_E_CORRUPT an unknown id (earlier records written, End appended).
 * @retval EVREC_E_IO sink failure.
 * @retval EVREC_E_ARG NULL pointer.
 * **Context:** thread.
 */
evrec_status evrec_save_ccore(const evrec_meta_t *meta, uint64_t time_freq, const void *records, size_t size,
                              const evrec_sink_t *sink);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_SAVE_H */
