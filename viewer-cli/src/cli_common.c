/* SPDX-License-Identifier: Apache-2.0 */
/* Error reporting, argument parsing and file opening shared by the subcommands. */
#include <errno.h>
#include <getopt.h>
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

void cli_getopt_begin(void)
{
    opterr = 0;
    optind = 1;
}

int cli_common_option(const cli_command_t *cmd, int c, char **argv, evrec_reader_options_t *clock)
{
    uint64_t v;
    if (c == CLI_OPT_TICK_HZ && clock) {
        if (!cli_parse_u64(optarg, 1000000000u, &v) || v == 0) {
            return cli_usage_error(cmd, "--tick-hz expects a rate in Hz, 1..1000000000, not '%s'", optarg);
        }
        clock->tick_hz = (uint32_t)v;
        return -1;
    }
    if (c == CLI_OPT_TIME_FREQ && clock) {
        if (!cli_parse_u64(optarg, UINT64_MAX, &v) || v == 0) {
            return cli_usage_error(cmd, "--time-freq expects a frequency in Hz (> 0), not '%s'", optarg);
        }
        clock->time_freq = v;
        return -1;
    }
    if (c == 'h') {
        fputs(cmd->help, stdout);
        return CLI_OK;
    }
    if (c == ':') {
        return cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
    }
    return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

int cli_one_operand(const cli_command_t *cmd, int argc, char **argv, const char *what, const char **out)
{
    if (argc == optind) {
        return cli_usage_error(cmd, "missing %s", what);
    }
    if (argc - optind != 1) {
        return cli_usage_error(cmd, "expected one %s, got %d arguments", what, argc - optind);
    }
    *out = argv[optind];
    return -1;
}

evrec_reader_t *cli_open_reader(const char *path, const evrec_reader_options_t *ropt)
{
    evrec_reader_t *r = NULL;
    evrec_status st = strcmp(path, "-") == 0 ? evrec_reader_open_file(&r, stdin, ropt)
                                             : evrec_reader_open_path(&r, path, ropt);
    if (st != EVREC_OK) {
        cli_report_reader_error(path, r);
        evrec_reader_close(r);
        return NULL;
    }
    return r;
}

FILE *cli_create_file(const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        cli_error("%s: cannot create: %s", path, strerror(errno));
    }
    return f;
}

int cli_stdout_done(int ok)
{
    if (fflush(stdout) != 0 || !ok) {
        cli_error("writing the output failed");
        return 0;
    }
    return 1;
}
