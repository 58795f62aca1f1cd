/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_reader_seek.h
 * @brief Fast-forward of an ::evrec_reader_t to a record index or a restored time.
 *
 * In a container read from memory or a regular file, the reader jumps: it bisects over the file
 * for the last SYNC chunk (FORMAT.md section 2.2) before which no record can be the target,
 * takes the record index and time state from it and decodes from there (a 1 GB file: about 30
 * reads). The chunks jumped over are not read, so damage in them is not reported. Elsewhere (a
 * pipe, a bare CCore stream, a version 1.0 file without SYNC chunks) every record before the
 * target is still read (ids decide the sizes; each time restores the next, FORMAT.md section 5)
 * and every chunk's CRC is still checked; what this then saves is the per-record work of
 * evrec_reader_next() for the records skipped (no ::evrec_record_t, no nanoseconds). Either way
 * the result is the record a linear read would reach.
 *
 * When the file has an INDEX chunk (FORMAT.md section 2.5), the bisection only runs between two of
 * its entries (a 10 GB file: a handful of reads); each entry used is first checked against the
 * SYNC chunk it names, and a damaged or lying index is reported (evrec_reader_index_warning(): a
 * warning, not damage, since no record is lost) and not used. A call with nothing to jump over
 * (`min_index` at most the next record's index and `min_t64` 0) is no seek: the INDEX chunk is
 * neither read nor judged.
 *
 * API overview: evrec_reader_next_at() (by record index, by restored time, or both),
 * evrec_reader_index_check() (is the INDEX chunk right?), evrec_reader_index_warning().
 *
 * **Context:** as evrec_reader_next(): one thread per reader.
 *
 * FORMAT.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_READER_SEEK_H
#define EVREC_READER_SEEK_H

#include <stdint.h>

#include "evrec/evrec_reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Read on to the first record whose index is at least `min_index` and whose restored
 * time is at least `min_t64` ticks, and return it as evrec_reader_next() would. Records before it
 * are consumed (and counted: index, ticks) but not returned. Later records may have an earlier
 * time again (small steps back between threads): this finds the first at or after the target,
 * the caller filters the rest.
 * @param[in,out] r an open reader.
 * @param[out] rec filled on EVREC_OK, as by evrec_reader_next().
 * @param[in] min_index 0-based record index (0: any).
 * @param[in] min_t64 ticks since the first record (0: any).
 * @retval EVREC_OK the record.
 * @retval EVREC_E_END no such record: the stream ended (intact).
 * The reader's sticky error (evrec_reader_error()), found before such a record:
 * @retval EVREC_E_TRUNCATED the file ends early.
 * @retval EVREC_E_CHECKSUM damage was skipped.
 * @retval EVREC_E_CORRUPT bytes that contradict the format.
 * @retval EVREC_E_BAD_ID a record with an unknown event id.
 * @retval EVREC_E_UNSUPPORTED a reader limit exceeded.
 * @retval EVREC_E_IO reading the file failed.
 * @retval EVREC_E_NOMEM allocation failed.
 * @retval EVREC_E_ARG NULL argument.
 * **Context:** thread.
 */
evrec_status evrec_reader_next_at(evrec_reader_t *r, evrec_record_t *rec, uint64_t min_index, uint64_t min_t64);

/** @brief What evrec_reader_index_check() found: the INDEX chunk (FORMAT.md section 2.5). */
typedef struct evrec_index_info {
    uint64_t offset;  /**< file offset of the INDEX chunk, bytes */
    uint32_t entries; /**< its entries (SYNC chunks named) */
    uint32_t stride;  /**< SYNC chunks of the file per entry, as the writer says */
} evrec_index_info_t;

/**
 * @brief Find the file's INDEX chunk (FORMAT.md section 2.5) and check every entry against the
 * SYNC chunk at its offset (header word, CRC-32C, index, t64, t64_max), as a seek checks the ones
 * it uses. Reads with positioned reads only: the reader's place in the records does not move. A
 * problem is kept as evrec_reader_index_warning() (its message names the offset), and the index
 * is then not used by evrec_reader_next_at().
 * @param[in,out] r an open reader over a path, a regular FILE or memory.
 * @param[out] info filled when an INDEX chunk was found (also when it fails a check).
 * @retval EVREC_OK every entry matches its SYNC chunk.
 * @retval EVREC_E_END no INDEX chunk where section 2.5 puts it (an older file, a pipe, a bare
 * CCore stream).
 * @retval EVREC_E_CHECKSUM the INDEX chunk fails its CRC-32C.
 * @retval EVREC_E_CORRUPT its entries are out of order, or one names no matching SYNC chunk.
 * @retval EVREC_E_NOMEM allocation failed.
 * @retval EVREC_E_ARG NULL argument, or a reader that did not open.
 * **Context:** thread (one thread per reader).
 */
evrec_status evrec_reader_index_check(evrec_reader_t *r, evrec_index_info_t *info);

/**
 * @brief The first problem found in the INDEX chunk by a seek or a check (a CRC that fails,
 * entries out of order, an entry that names no matching SYNC chunk): status, the INDEX chunk's
 * offset, and a message naming the entry and what was expected. No record is lost by it (the
 * seek searched the file instead), so it is not in the damage list.
 * @param[in] r a reader.
 * @return NULL when there was none (or `r` is NULL); else owned by the reader, valid until
 * evrec_reader_close().
 * **Context:** thread (one thread per reader).
 */
const evrec_reader_error_t *evrec_reader_index_warning(const evrec_reader_t *r);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_READER_SEEK_H */
