/* SPDX-License-Identifier: Apache-2.0 */
/* make_large_trace FILE N [--bare]: record N events (half EvAll, 30 bytes saved; half EvSimple,
 * 10 bytes saved; a Tick every 1000) with the real recorder and save them to FILE. Used to
 * measure the reader on multi-GB files: `evrec info FILE`, `evrec dump FILE > /dev/null`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader_fixtures.h"

static int file_write(void *ctx, const void *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: make_large_trace FILE N [--bare]\n");
        return 2;
    }
    unsigned long long n = strtoull(argv[2], NULL, 10);
    int bare = argc > 3 && strcmp(argv[3], "--bare") == 0;
    const evrec_meta_t *m = fx_meta_init();
    size_t size = 4096 + (size_t)n * (sizeof(fx_ev_all_t) + sizeof(fx_ev_simple_t)) / 2 + (size_t)n / 1000 * 8 +
                  64;
    size = (size + EVREC_BUF_HEADER_SIZE + 7) & ~(size_t)7;
    void *buf = aligned_alloc(8, size);
    if (!buf) {
        fprintf(stderr, "make_large_trace: cannot allocate %zu bytes\n", size);
        return 1;
    }
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_recorder_init(&rec, buf, size);
    evrec_host_init(&host);
    evrec_host_start(&host, &rec, m, 1000000000u);
    for (unsigned long long k = 0; k < n; k++) {
        if (k % 2 == 0) {
            fx_ev_all_t *e = evrec_reserve(&host, sizeof *e);
            if (e) {
                uint32_t t = e->time; /* stamped by evrec_reserve */
                fx_expect_all((uint32_t)k, e);
                e->time = t;
                evrec_commit(e, FX_EVENT_ALL);
            }
        } else {
            fx_ev_simple_t *s = evrec_reserve(&host, sizeof *s);
            if (s) {
                s->v = (uint32_t)k;
                evrec_commit(s, FX_EVENT_SIMPLE);
            }
        }
        if (k % 1000 == 999) {
            evrec_tick(&host);
        }
    }
    evrec_host_stop(&host, NULL);
    FILE *f = fopen(argv[1], "wb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    evrec_sink_t sink = {file_write, f};
    evrec_save_options_t opt = {0, bare};
    evrec_status st = evrec_save_ex(&rec, &sink, &opt);
    if (fclose(f) != 0 || st != EVREC_OK) {
        fprintf(stderr, "make_large_trace: save failed: %s\n", evrec_strerror(st));
        return 1;
    }
    printf("%llu records (%llu dropped) written to %s\n", (unsigned long long)evrec_recorder_counts(&rec).recorded,
           (unsigned long long)evrec_recorder_counts(&rec).dropped, argv[1]);
    free(buf);
    return 0;
}
