/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec index`: the copy of an intact container with a new INDEX chunk (format/FORMAT.md
 * section 2.5), written beside it and renamed over it. */
#ifndef EVREC_INDEX_WRITE_H
#define EVREC_INDEX_WRITE_H

#include <stdint.h>

#include "evrec/evrec_reader.h"

/* What index_rewrite() did. */
typedef struct index_result {
    uint64_t sync_chunks; /* SYNC chunks in the file */
    uint32_t entries;     /* entries written (0: no SYNC chunk, nothing to index) */
    uint32_t stride;      /* SYNC chunks per entry */
    uint64_t old_index;   /* INDEX chunks dropped (an older index) */
    uint64_t size;        /* bytes of the new file */
} index_result_t;

/* Walks the chunks of the container at `path` (every CRC checked) and writes a temporary file in
 * the same folder (created exclusively, then given the file's mode) that holds the same chunks,
 * older INDEX chunks left out, and a new INDEX chunk where section 2.5 puts it; fsyncs it and
 * renames it over `path`. `r` has read every record of `path`: any damage it reports, other than
 * in the INDEX chunk at the index's place, refuses the file (a rewrite would drop what the reader
 * skipped). Returns 1 on success, else 0 with the reason reported (cli_error) and `path` untouched. */
int index_rewrite(const char *path, const evrec_reader_t *r, index_result_t *res);

#endif /* EVREC_INDEX_WRITE_H */
