/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_index.h
 * @brief The seek index a writer keeps while it writes SYNC chunks, and the INDEX chunk it ends
 * with (FORMAT.md section 2.5).
 *
 * The table has a fixed capacity that the caller gives (no heap): it holds every `stride`-th
 * SYNC chunk of the file; when it is full, it keeps every other entry and doubles the stride, so
 * that N entries always cover the whole file evenly. evrec_save() keeps EVREC_SAVE_INDEX_ENTRIES
 * of them on its stack; `evrec record` and `evrec index` keep more.
 *
 * API overview: evrec_index_init(), evrec_index_add() (one call per SYNC chunk written, in file
 * order), evrec_index_chunk_size(), evrec_index_write().
 *
 * **Context:** one writer per table; no locking, ISR-safe as far as the sink is. Freestanding.
 *
 * FORMAT.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_INDEX_H
#define EVREC_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_container.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One entry: a SYNC chunk (FORMAT.md section 2.2) and what it says. */
typedef struct evrec_index_entry {
    uint64_t offset;  /**< file offset of the SYNC chunk (its chunk header), bytes */
    uint64_t index;   /**< its `index`: records before its STREAM chunk */
    uint64_t t64;     /**< its `t64`, ticks */
    uint64_t t64_max; /**< its `t64_max`, ticks */
} evrec_index_entry_t;

/** The table. Fields are read-only for the user. */
typedef struct evrec_index {
    evrec_index_entry_t *entries; /**< the caller's array */
    uint32_t capacity;            /**< its length, even, >= 2 */
    uint32_t count;               /**< entries in use */
    uint32_t stride;              /**< SYNC chunks per entry (1, 2, 4...) */
    uint64_t seen;                /**< SYNC chunks added so far */
} evrec_index_t;

/**
 * @brief Start an empty table over the caller's array.
 * @param[out] x the table.
 * @param[in] entries `capacity` entries, owned by the caller, alive as long as `x` is used.
 * @param[in] capacity entries; rounded down to an even number; below 2 the table stays empty.
 * **Context:** any.
 */
void evrec_index_init(evrec_index_t *x, evrec_index_entry_t *entries, uint32_t capacity);

/**
 * @brief Note the next SYNC chunk of the file (in file order): kept when it is a multiple of the
 * stride; a full table first keeps every other entry and doubles the stride.
 * @param[in,out] x the table.
 * @param[in] e the SYNC chunk (copied).
 * **Context:** any; constant time except when the table is full (then linear in its capacity).
 */
void evrec_index_add(evrec_index_t *x, const evrec_index_entry_t *e);

/**
 * @brief Bytes of the INDEX chunk evrec_index_write() writes, chunk header included.
 * @param[in] x the table.
 * @return 8 + 8 + 32 count + 4 bytes; 0 when the table is empty or NULL (nothing is written).
 * **Context:** any.
 */
size_t evrec_index_chunk_size(const evrec_index_t *x);

/**
 * @brief Write the INDEX chunk (FORMAT.md section 2.5), CRC-32C included, through `sink`, in
 * pieces of at most 32 bytes (the CRC is computed in a first pass over the table, so nothing is
 * staged). Nothing when the table is empty.
 * @param[in] x the table.
 * @param[in] sink receives evrec_index_chunk_size() bytes.
 * @retval EVREC_OK written (or nothing to write).
 * @retval EVREC_E_ARG NULL pointer.
 * @retval EVREC_E_IO the sink failed.
 * **Context:** the writer's.
 */
evrec_status evrec_index_write(const evrec_index_t *x, const evrec_sink_t *sink);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_INDEX_H */
