/* SPDX-License-Identifier: Apache-2.0 */
/* A host tool that only reads files: evrec_reader.h and the reader library, no port header.
 * Usage: consumer_reader FILE.evr. Prints the number of Work records; exit 1 on a damaged file. */
#include <stdio.h>
#include <string.h>

#include "evrec/evrec_reader.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: consumer_reader FILE.evr\n");
        return 2;
    }
    evrec_reader_t *r = NULL;
    evrec_status st = evrec_reader_open_path(&r, argv[1], NULL);
    if (st != EVREC_OK) {
        fprintf(stderr, "consumer_reader: %s: %s\n", argv[1], evrec_strerror(st));
        return 1;
    }
    unsigned long work = 0;
    evrec_record_t rec;
    while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        const char *name = evrec_reader_event_name(r, rec.id);
        if (name && strcmp(name, "Work") == 0) {
            work++;
        }
    }
    int bad = st != EVREC_E_END;
    evrec_reader_close(r);
    printf("consumer_reader: %lu Work records%s\n", work, bad ? " (damaged file)" : "");
    return bad;
}
