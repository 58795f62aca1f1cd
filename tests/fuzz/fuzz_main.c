/* SPDX-License-Identifier: Apache-2.0 */
/* Standalone driver of the fuzz targets: the same LLVMFuzzerTestOneInput() that libFuzzer calls,
 * run once on every file given on the command line (a directory: on every regular file in it,
 * in name order). This is what the plain ctest runs over the committed seed corpus and the
 * crashers, with any compiler and without libFuzzer; under EVREC_SANITIZE the sanitizers report
 * what the fuzzer would. Exit status 0 when every input ran (a crash ends the process). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return 1;
    }
    size_t n;
    while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                fclose(f);
                return 1;
            }
            buf = nb;
            cap *= 2;
        }
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        fprintf(stderr, "%s: read error\n", path);
        free(buf);
        return 1;
    }
    /* An exact-size copy, so that ASan sees a read past the input's end. */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return 1;
    }
    memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, unsigned *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) {
                break;
            }
            names = nn;
        }
        size_t l = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(l);
        if (!names[n]) {
            break;
        }
        snprintf(names[n], l, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (n) {
        qsort(names, n, sizeof *names, by_name);
    }
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            rc |= run_file(names[i]);
            (*count)++;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int rc = 0;
    unsigned count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            /* A crashers directory may not exist yet for a target without findings. */
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            rc |= run_dir(argv[i], &count);
        } else {
            rc |= run_file(argv[i]);
            count++;
        }
    }
    printf("%s: %u inputs run\n", argc > 0 ? argv[0] : "fuzz", count);
    if (count == 0) {
        fprintf(stderr, "no input found\n");
        return 1;
    }
    return rc;
}
