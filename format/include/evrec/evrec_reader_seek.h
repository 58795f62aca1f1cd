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
 * API overview: evrec_reader_next_at() (by record index, by restored time, or both).
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

#ifdef __cplusplus
}
#endif

#endif /* EVREC_READER_SEEK_H */
