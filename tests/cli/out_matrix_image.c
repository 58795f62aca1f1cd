/* SPDX-License-Identifier: Apache-2.0 */
/* out_matrix_image IMAGE: write the memory image of a trace buffer holding 50 probe events (as a
 * debugger's `dump binary memory` would), the input of `evrec recover` in output_matrix.sh. */
#include <stdio.h>
#include <stdlib.h>

#include "evrec/evrec_recorder.h"
#include "probe_meta.h"

int main(int argc, char **argv)
{
    enum { SIZE = 16384 };
    static uint64_t mem[SIZE / sizeof(uint64_t)];
    evrec_recorder_t rec;
    evrec_host_t host;
    if (argc != 2) {
        fprintf(stderr, "usage: out_matrix_image IMAGE\n");
        return 2;
    }
    evrec_host_init(&host);
    if (evrec_recorder_init(&rec, mem, SIZE) != EVREC_OK || evrec_recorder_keep_meta(&rec) != EVREC_OK ||
        evrec_host_start(&host, &rec, &probe_meta, 1000) != EVREC_OK) {
        fprintf(stderr, "out_matrix_image: cannot start the recorder\n");
        return 1;
    }
    for (uint32_t i = 0; i < 50; i++) {
        (void)probe_record(&host, 0, i);
    }
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(mem, 1, SIZE, f) != SIZE || fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
