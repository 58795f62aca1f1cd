/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec record`: the previous boot's recording (S_PREV_BOOT frames, FORMAT.md sections 8.2 and
 * 8.3) written to a file of its own next to the output (record_prev.c). */
#ifndef EVREC_CLI_RECORD_PREV_H
#define EVREC_CLI_RECORD_PREV_H

#include <stdint.h>
#include <stdio.h>

#include "evrec/evrec_stream_rx.h"

typedef struct record_prev {
    const char *out;       /* the -o operand */
    const evrec_srx_t *rx; /* its stats say whether the file is complete */
    char *path;            /* NAME.prev-boot.evr, once the first piece came */
    FILE *f;
    int refused; /* not written: '-', or the path exists (said once) */
    int failed;  /* a write failed (said) */
} record_prev_t;

/* Ready for the pieces of a recording whose live part goes to `out`, received by `rx`. */
void record_prev_init(record_prev_t *p, const char *out, const evrec_srx_t *rx);

/* evrec_srx_prev_boot_fn: `ctx` is the record_prev_t. Writes the piece; at the last one closes the
 * file and says where it went. Never stops the recording (returns 0). */
int record_prev_piece(void *ctx, const uint8_t *data, size_t size, uint64_t offset, uint64_t total);

/* At the end of the recording: a file still open (pieces missing) is closed and said incomplete.
 * Returns 0, or 1 when it was not saved (a write failed, the path exists, the output is '-'). */
int record_prev_finish(record_prev_t *p);

#endif
