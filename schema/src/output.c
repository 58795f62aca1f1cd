/* SPDX-License-Identifier: Apache-2.0 */
/* Output files: written to a temporary file next to the target and renamed, so that a failed
 * or interrupted run never leaves a partial file behind. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen_internal.h"

int gen_write_file_atomic(const char *path, const gen_buf_t *data, char **tmp_out)
{
    size_t n = strlen(path);
    char *tmp = gen_xmalloc(n + 16);
    snprintf(tmp, n + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "evrec-gen: cannot create '%s': %s\n", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        fprintf(stderr, "evrec-gen: cannot write '%s': %s\n", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    size_t len = data->len;
    int ok = (len == 0 || fwrite(data->data, 1, len, f) == len);
    ok = (fflush(f) == 0) && ok;
    int err = errno;
    ok = (fclose(f) == 0) && ok;
    if (!ok) {
        fprintf(stderr, "evrec-gen: cannot write '%s': %s\n", tmp, strerror(err ? err : errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    /* mkstemp makes 0600; generated sources get the usual 0666 & ~umask. */
    mode_t mask = umask(0);
    umask(mask);
    chmod(tmp, 0666 & ~mask);
    *tmp_out = tmp;
    return 0;
}
