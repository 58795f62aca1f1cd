/* SPDX-License-Identifier: Apache-2.0 */
/* For tests of a file that another process is still writing (`evrec dump -f`, `evrec record`):
 * how many records the reader returns whole from it as it stands. */
#ifndef EVREC_TEST_WHOLE_RECORDS_H
#define EVREC_TEST_WHOLE_RECORDS_H

#include <stdint.h>

#include "evrec/evrec_reader.h"

/* Records the reader returns whole (not `unverified`) from `path` as it stands, up to the first
 * one that is not; 0 when the file cannot be opened. */
static inline uint64_t whole_records(const char *path)
{
    evrec_reader_t *r = NULL;
    uint64_t n = 0;
    evrec_record_t rec;
    if (evrec_reader_open_path(&r, path, NULL) == EVREC_OK) {
        while (evrec_reader_next(r, &rec) == EVREC_OK && !rec.unverified) {
            n++;
        }
    }
    evrec_reader_close(r);
    return n;
}

#endif
