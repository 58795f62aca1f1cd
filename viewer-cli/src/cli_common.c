/* Error reporting and argument parsing shared by the subcommands. */
#include <stdarg.h>
#include <stdlib.h>

#include "cli.h"

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("evrec: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_usage_error(const cli_command_t *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "evrec: %s: ", cmd->name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see 'evrec %s --help')\n", cmd->name);
    va_end(ap);
    return CLI_USAGE;
}

void cli_report_reader_error(const char *path, const evrec_reader_t *r)
{
    const evrec_reader_error_t *e = evrec_reader_error(r);
    if (!r) {
        cli_error("%s: out of memory", path);
    } else if (e->status == EVREC_E_IO && e->offset == 0) {
        cli_error("%s: %s", path, e->message);
    } else {
        cli_error("%s: offset %llu: %s", path, (unsigned long long)e->offset, e->message);
    }
}

int cli_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    if (!s || !*s) {
        return 0;
    }
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') {
            return 0;
        }
        unsigned d = (unsigned)(*s - '0');
        if (v > (max - d) / 10u) {
            return 0;
        }
        v = v * 10u + d;
    }
    *out = v;
    return 1;
}
