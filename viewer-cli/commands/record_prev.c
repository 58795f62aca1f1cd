/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec record`: the previous boot's recording that a target sends at boot before its live
 * stream (S_PREV_BOOT frames, FORMAT.md section 8.2) goes to NAME.prev-boot.evr next to
 * `-o NAME.evr`, created there (never replacing a path evrec record did not create). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "record_prev.h"

void record_prev_init(record_prev_t *p, const char *out, const evrec_srx_t *rx)
{
    memset(p, 0, sizeof *p);
    p->out = out;
    p->rx = rx;
}

/* NAME.evr -> NAME.prev-boot.evr; any other name gets ".prev-boot.evr" appended. */
static char *prev_path(const char *out)
{
    size_t n = strlen(out);
    if (n > 4 && strcmp(out + n - 4, ".evr") == 0) {
        n -= 4;
    }
    char *p = malloc(n + sizeof ".prev-boot.evr");
    if (p) {
        memcpy(p, out, n);
        memcpy(p + n, ".prev-boot.evr", sizeof ".prev-boot.evr");
    }
    return p;
}

static void prev_open(record_prev_t *p)
{
    if (strcmp(p->out, "-") == 0) {
        cli_error("the previous boot's recording is not saved: the output is standard output (use -o FILE.evr)");
        p->refused = 1;
        return;
    }
    p->path = prev_path(p->out);
    int fd = p->path ? open(p->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666) : -1;
    p->f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!p->f) {
        cli_error("%s: cannot create it for the previous boot's recording: %s%s", p->path ? p->path : p->out,
                  strerror(errno), errno == EEXIST ? " (it is not replaced)" : "");
        if (fd >= 0) {
            close(fd);
        }
        p->refused = 1;
    }
}

int record_prev_piece(void *ctx, const uint8_t *data, size_t size, uint64_t offset, uint64_t total)
{
    record_prev_t *p = (record_prev_t *)ctx;
    if (offset == 0 && !p->f && !p->refused) {
        prev_open(p);
    }
    if (!p->f) {
        return 0;
    }
    int bad = fwrite(data, 1, size, p->f) != size;
    if (offset + size == total || bad) {
        bad |= fclose(p->f) != 0;
        p->f = NULL;
        if (bad) {
            cli_error("%s: cannot write: %s", p->path, strerror(errno));
            p->failed = 1;
        } else if (evrec_srx_stats(p->rx)->prev_ok == 1) {
            fprintf(stderr, "evrec: the previous boot's recording (%llu bytes) saved to %s\n",
                    (unsigned long long)total, p->path);
        } else {
            cli_error("%s: the previous boot's recording came whole but its CRC-32C does not check", p->path);
        }
    }
    return 0;
}

int record_prev_finish(record_prev_t *p)
{
    const evrec_srx_stats_t *st = evrec_srx_stats(p->rx);
    if (p->f) {
        p->failed |= fclose(p->f) != 0;
        p->f = NULL;
        cli_error("%s: the previous boot's recording is incomplete: %llu of %llu bytes came (a frame was "
                  "lost); read up to its last whole chunk",
                  p->path, (unsigned long long)st->prev_received, (unsigned long long)st->prev_size);
    }
    free(p->path);
    p->path = NULL;
    return p->failed || p->refused;
}
