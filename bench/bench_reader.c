/* SPDX-License-Identifier: Apache-2.0 */
/* evrec-bench-reader: record iteration speed of the reader API on a file held in memory.
 *
 *   evrec-bench-reader FILE [REPS] [--next-only]
 *
 * Reads FILE into memory, then REPS times (default 5) opens it with evrec_reader_open_memory()
 * and (1) calls evrec_reader_next() to the end, (2) the same plus evrec_reader_visit_fields() on
 * every record. Prints the median records per second (of thread CPU time) of each. With
 * --next-only, only (1) runs (for `perf stat`/`perf record` of the record loop alone). A benchmark,
 * not a test: exit
 * status 0 when it ran, 1 when the file could not be read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evrec/evrec_reader.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: a loaded machine preempts us */
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int count_field(void *ctx, const evrec_field_view_t *f)
{
    *(uint64_t *)ctx += f->value;
    return 0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int modes = 2;
    if (argc > 2 && strcmp(argv[argc - 1], "--next-only") == 0) {
        modes = 1;
        argc--;
    }
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: evrec-bench-reader FILE [REPS] [--next-only]\n");
        return 2;
    }
    int reps = argc == 3 ? atoi(argv[2]) : 5;
    if (reps < 1 || reps > 101) {
        fprintf(stderr, "evrec-bench-reader: REPS must be 1..101\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = len > 0 ? malloc((size_t)len) : NULL;
    if (!data || fread(data, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "evrec-bench-reader: cannot read %s\n", argv[1]);
        fclose(f);
        free(data);
        return 1;
    }
    fclose(f);
    double rate[2][101];
    uint64_t records = 0, sum = 0;
    for (int r = 0; r < reps; r++) {
        for (int mode = 0; mode < modes; mode++) {
            evrec_reader_t *rd = NULL;
            if (evrec_reader_open_memory(&rd, data, (size_t)len, NULL) != EVREC_OK) {
                fprintf(stderr, "evrec-bench-reader: %s: %s\n", argv[1],
                        rd ? evrec_reader_error(rd)->message : "cannot open");
                evrec_reader_close(rd);
                free(data);
                return 1;
            }
            evrec_record_t rec;
            uint64_t n = 0;
            double t0 = now_s();
            while (evrec_reader_next(rd, &rec) == EVREC_OK) {
                n++;
                sum += rec.t64;
                if (mode) {
                    evrec_reader_visit_fields(rd, &rec, count_field, &sum);
                }
            }
            double dt = now_s() - t0;
            evrec_reader_close(rd);
            rate[mode][r] = (double)n / dt;
            records = n;
        }
    }
    qsort(rate[0], (size_t)reps, sizeof(double), cmp);
    if (modes > 1) {
        qsort(rate[1], (size_t)reps, sizeof(double), cmp);
    }
    printf("evrec-bench-reader: %s, %llu records, %ld bytes, median of %d\n", argv[1], (unsigned long long)records,
           len, reps);
    printf("  evrec_reader_next                    %8.1f M records/s\n", rate[0][reps / 2] / 1e6);
    if (modes > 1) {
        printf("  evrec_reader_next + visit_fields     %8.1f M records/s\n", rate[1][reps / 2] / 1e6);
    }
    printf("  (checksum %llu)\n", (unsigned long long)sum);
    free(data);
    return 0;
}
