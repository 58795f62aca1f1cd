/* SPDX-License-Identifier: Apache-2.0 */
/* Where the shipped schemas (the RTOS catalogue, rtos.yaml) are found when a schema includes them
 * by name: `include: [rtos.yaml]`. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen_internal.h"

#ifndef EVREC_GEN_DATADIR_FROM_BIN
#define EVREC_GEN_DATADIR_FROM_BIN "../share/evrec"
#endif

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

size_t gen_catalogue_dirs(const char **dirs, size_t max)
{
    /* Host tools run one schema load at a time; the paths are kept for the program's life. */
    static char installed[PATH_MAX + sizeof EVREC_GEN_DATADIR_FROM_BIN + 1];
    size_t n = 0;
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0 && n < max) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(installed, sizeof installed, "%s/%s", exe, EVREC_GEN_DATADIR_FROM_BIN);
            if (is_dir(installed)) {
                dirs[n++] = installed;
            }
        }
    }
#ifdef EVREC_GEN_SOURCE_CATALOGUE
    if (n < max && is_dir(EVREC_GEN_SOURCE_CATALOGUE)) {
        dirs[n++] = EVREC_GEN_SOURCE_CATALOGUE;
    }
#endif
    return n;
}
