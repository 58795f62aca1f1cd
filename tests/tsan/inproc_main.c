/* SPDX-License-Identifier: Apache-2.0 */
/* Runner of the in-process Criterion stand-in (inproc/criterion/criterion.h): runs every
 * registered test in registration (file) order, or those whose "suite/name" contains one of the
 * arguments. Exit status 0 when all passed; a failure exits at once with status 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "criterion/criterion.h"

#define MAX_TESTS 256

static struct {
    const char *suite, *name;
    evrec_inproc_fn fn;
} tests[MAX_TESTS];
static unsigned count;
static const char *current_suite = "", *current_name = "";

void evrec_inproc_register(const char *suite, const char *name, evrec_inproc_fn fn)
{
    if (count == MAX_TESTS) {
        fprintf(stderr, "inproc: more than %d tests\n", MAX_TESTS);
        exit(2);
    }
    tests[count].suite = suite;
    tests[count].name = name;
    tests[count].fn = fn;
    count++;
}

void evrec_inproc_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "FAIL %s/%s: %s:%d: %s\n", current_suite, current_name, file, line, what);
    exit(1);
}

static int wanted(unsigned i, int argc, char **argv)
{
    if (argc < 2) {
        return 1;
    }
    char full[256];
    snprintf(full, sizeof full, "%s/%s", tests[i].suite, tests[i].name);
    for (int a = 1; a < argc; a++) {
        if (strstr(full, argv[a])) {
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned ran = 0;
    for (unsigned i = 0; i < count; i++) {
        if (!wanted(i, argc, argv)) {
            continue;
        }
        current_suite = tests[i].suite;
        current_name = tests[i].name;
        printf("RUN  %s/%s\n", current_suite, current_name);
        fflush(stdout);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        tests[i].fn();
        clock_gettime(CLOCK_MONOTONIC, &t1);
        printf("PASS %s/%s (%.1f s)\n", current_suite, current_name,
               (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
        ran++;
    }
    printf("%u of %u tests passed\n", ran, count);
    return ran ? 0 : 1;
}
