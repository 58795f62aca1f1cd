/* SPDX-License-Identifier: Apache-2.0 */
/* make_pf_fixture FILE: a recording for the Perfetto export's loss and clock checks. The reader
 * fixtures' tables (no tracks, spans or counters) in a small cyclic buffer, so that the oldest
 * records are overwritten; every 7th EvSimple is stamped 5 ticks before its predecessor, as a
 * record of a concurrent writer can be. Prints "overwritten N" (the header's count). */
#include <stdio.h>
#include <stdlib.h>

#include "reader_fixtures.h"

static int file_write(void *ctx, const void *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_pf_fixture FILE\n");
        return 2;
    }
    static uint32_t buf[4096 / 4];
    const evrec_meta_t *m = fx_meta_init();
    evrec_recorder_t rec;
    evrec_host_t host;
    if (evrec_recorder_init_cyclic(&rec, buf, sizeof buf, 512) != EVREC_OK) {
        fprintf(stderr, "make_pf_fixture: cyclic init failed\n");
        return 1;
    }
    evrec_host_init(&host);
    evrec_host_start(&host, &rec, m, 1000000000u);
    uint32_t last = 0;
    for (unsigned k = 0; k < 2000; k++) {
        fx_ev_simple_t *s = evrec_reserve(&host, sizeof *s);
        if (s) {
            if (k % 7 == 6) {
                s->time = last - 5u;
            }
            last = s->time;
            s->v = k;
            evrec_commit(s, FX_EVENT_SIMPLE);
        }
    }
    evrec_host_stop(&host, NULL);
    FILE *f = fopen(argv[1], "wb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    evrec_sink_t sink = {file_write, f};
    evrec_status st = evrec_save(&rec, &sink);
    if (fclose(f) != 0 || st != EVREC_OK) {
        fprintf(stderr, "make_pf_fixture: save failed: %s\n", evrec_strerror(st));
        return 1;
    }
    printf("overwritten %llu\n", (unsigned long long)evrec_recorder_counts(&rec).overwritten);
    return 0;
}
