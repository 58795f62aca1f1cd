/* SPDX-License-Identifier: Apache-2.0 */
/* The in-process `evrec` harness of the fuzz_cli_* targets (cli_harness.h). */
#define _XOPEN_SOURCE 700 /* nftw() */
#include <dirent.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_main.h"
#include "cli_harness.h"

#define MAX_ARGS 24

static char dir[256];
static FILE *devnull;

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void remove_dir(void)
{
    if (dir[0]) {
        nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    }
}

static int setup(void)
{
    if (dir[0]) {
        return 1;
    }
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/evrec-fuzz-cli-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) {
        perror("fuzz_cli: mkdtemp");
        abort();
    }
    atexit(remove_dir);
    const char *v = getenv("EVREC_FUZZ_VERBOSE");
    if (!(v && *v && strcmp(v, "0") != 0)) {
        devnull = fopen("/dev/null", "w");
    }
    return 1;
}

const char *fuzz_cli_out(const char *name)
{
    static char paths[8][320];
    static unsigned next;
    setup();
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

const char *fuzz_cli_input(const char *name, const uint8_t *data, size_t size)
{
    const char *path = fuzz_cli_out(name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        return NULL;
    }
    int ok = fwrite(data, 1, size, f) == size;
    ok &= fclose(f) == 0;
    return ok ? path : NULL;
}

const char *fuzz_cli_src(const char *rel)
{
    static char paths[4][512];
    static unsigned next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", EVREC_SOURCE_DIR, rel);
    return p;
}

int fuzz_cli_run(const char *arg, ...)
{
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = (char *)"evrec";
    va_list ap;
    va_start(ap, arg);
    for (const char *a = arg; a && argc < MAX_ARGS; a = va_arg(ap, const char *)) {
        argv[argc++] = (char *)a;
    }
    va_end(ap);
    argv[argc] = NULL;
    FILE *out = stdout, *err = stderr;
    if (devnull) {
        stdout = devnull;
        stderr = devnull;
    }
    int rc = cli_main(argc, argv);
    fflush(stdout);
    stdout = out;
    stderr = err;
    if (rc < 0 || rc > 2) {
        fprintf(stderr, "fuzz_cli: evrec %s returned %d (expected 0, 1 or 2)\n", argv[1], rc);
        abort();
    }
    return rc;
}

static int remove_output(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    if (ftw->level > 0 && (ftw->level > 1 || strncmp(path + ftw->base, "input.", 6) != 0)) {
        remove(path);
    }
    return 0;
}

void fuzz_cli_clean(void)
{
    if (dir[0]) {
        nftw(dir, remove_output, 16, FTW_DEPTH | FTW_PHYS);
    }
}
