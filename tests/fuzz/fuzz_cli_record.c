/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: `evrec record` in process (viewer-cli/cli/main.c's cli_main()) on the input as a
 * captured stream (FORMAT.md section 8): the file it writes and the previous boot's file
 * (S_PREV_BOOT frames, NAME.prev-boot.evr) go through info, dump, stats (JSON: the LOSSES chunk)
 * and sql; the capture is also read directly as a file (dump, info); a second `record` to the same
 * names must fail and leave both files as they were (evrec record never replaces a file), and a
 * split recording (--split-size) is made. Each command must return 0, 1 or 2 and leave nothing
 * behind (ASan, UBSan and LSan watch). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The whole file at `path` (malloc'd, *n bytes), or NULL when it cannot be read. */
static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    char *b = NULL;
    *n = 0;
    if (f && fseek(f, 0, SEEK_END) == 0) {
        long len = ftell(f);
        b = len >= 0 ? malloc((size_t)len + 1u) : NULL;
        rewind(f);
        if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
            free(b);
            b = NULL;
        }
        *n = b ? (size_t)len : 0;
    }
    if (f) {
        fclose(f);
    }
    return b;
}

/* Reads what `record` wrote: every reading command on it. */
static void read_back(const char *path)
{
    fuzz_cli_run("info", path, NULL);
    fuzz_cli_run("dump", "--index", "--offsets", path, NULL);
    fuzz_cli_run("stats", "--format", "json", path, NULL);
    fuzz_cli_run("sql", "-c", "select count(*) from record", path, NULL);
}

/* A second `record` to the same output: refused, both files unchanged. */
static void not_replaced(const char *in, const char *out, const char *prev)
{
    size_t n0, p0, n1, p1;
    char *o0 = slurp(out, &n0), *q0 = slurp(prev, &p0);
    int rc = fuzz_cli_run("record", in, "-o", out, NULL);
    char *o1 = slurp(out, &n1), *q1 = slurp(prev, &p1);
    if ((o0 && rc == 0) || !o0 != !o1 || !q0 != !q1 || n0 != n1 || p0 != p1 || (o0 && memcmp(o0, o1, n0)) ||
        (q0 && memcmp(q0, q1, p0))) {
        fprintf(stderr, "fuzz_cli_record: a second record (status %d) replaced or changed %s or %s\n", rc, out,
                prev);
        abort();
    }
    free(o0);
    free(q0);
    free(o1);
    free(q1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = fuzz_cli_input("input.bin", data, size);
    if (!in) {
        return 0;
    }
    const char *out = fuzz_cli_out("r.evr"), *prev = fuzz_cli_out("r.prev-boot.evr");
    fuzz_cli_run("record", in, "-o", out, NULL);
    read_back(out);
    read_back(prev);
    not_replaced(in, out, prev);
    fuzz_cli_run("dump", in, NULL);
    fuzz_cli_run("info", in, NULL);
    fuzz_cli_run("record", "--split-size", "4096", "--keep", "2", in, "-o", fuzz_cli_out("s.evr"), NULL);
    fuzz_cli_clean();
    return 0;
}
