/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_hash.h
 * @brief The schema hash: `XXH64(data, length, 0)` of the canonical meta-info (FORMAT.md,
 * section 4). Host side: uses libxxhash.
 *
 * API overview: evrec_meta_schema_hash() (the input it hashes: evrec_meta_write_canonical() of
 * evrec/evrec_container.h).
 *
 * FORMAT.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_HASH_H
#define EVREC_HASH_H

#include <stdint.h>

#include "evrec/evrec_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Schema hash of meta-info tables.
 * @param[in] meta tables (need not be validated; field offsets and native sizes do not enter
 *     the hash, so a meta-info read back from a file gives the same hash as the one that wrote
 *     it).
 * @return the hash; 0 only if meta is NULL (or, with odds 2^-64, a real hash of 0).
 * **Context:** any thread (no shared state); not for an ISR (xxHash state on the stack, host
 * only).
 */
uint64_t evrec_meta_schema_hash(const evrec_meta_t *meta);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_HASH_H */
