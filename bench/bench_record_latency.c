/* SPDX-License-Identifier: Apache-2.0 */
/* evrec-bench-latency: reads `evrec dump` lines of evrec-bench-stream's Stamp records (from
 * `evrec record --show` or `evrec dump -f`) on standard input and prints how long after its
 * commit each was shown: CLOCK_MONOTONIC when the bytes of its line were read, minus the record's
 * mono_hi:mono_lo (CLOCK_MONOTONIC in ns at the commit). A benchmark tool, not a test.
 *
 *   evrec-bench-stream --rate 1000000 --seconds 10 | evrec record --show -q -o x.evr - | evrec-bench-latency
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The stamp of one line (mono_hi=H mono_lo=L), or 0. */
static uint64_t stamp_of(const char *line)
{
    const char *h = strstr(line, "mono_hi="), *l = strstr(line, "mono_lo=");
    if (!h || !l) {
        return 0;
    }
    return strtoull(h + 8, NULL, 10) << 32 | strtoull(l + 8, NULL, 10);
}

int main(void)
{
    static char buf[1u << 20];
    size_t have = 0, n = 0, cap = 1u << 20;
    uint64_t *lat = malloc(cap * sizeof *lat);
    ssize_t k;
    while (lat && (k = read(STDIN_FILENO, buf + have, sizeof buf - 1 - have)) > 0) {
        uint64_t now = mono_ns();
        have += (size_t)k;
        buf[have] = 0;
        char *p = buf, *nl;
        while ((nl = strchr(p, '\n')) != NULL) {
            *nl = 0;
            uint64_t s = stamp_of(p);
            if (s && n == cap) {
                lat = realloc(lat, (cap *= 2) * sizeof *lat);
            }
            if (s && lat) {
                lat[n++] = now > s ? now - s : 0;
            }
            p = nl + 1;
        }
        have -= (size_t)(p - buf);
        memmove(buf, p, have);
    }
    if (!lat || n == 0) {
        fprintf(stderr, "evrec-bench-latency: no Stamp records read\n");
        return 1;
    }
    qsort(lat, n, sizeof *lat, cmp_u64);
    printf("records %zu  commit to shown, ms: median %.1f  p90 %.1f  p99 %.1f  max %.1f\n", n, lat[n / 2] / 1e6,
           lat[n * 9 / 10] / 1e6, lat[n * 99 / 100] / 1e6, lat[n - 1] / 1e6);
    free(lat);
    return 0;
}
