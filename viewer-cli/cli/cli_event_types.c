/* SPDX-License-Identifier: Apache-2.0 */
/* Event types from a schema or a recording, and the stream decoders' options (cli_event_types.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_event_types.h"

evrec_status cli_schema_load(const char *path, evrec_schema_t **s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    evrec_status st = evrec_schema_load(s, path, mem ? mem : stderr);
    if (mem) {
        fclose(mem);
        for (char *line = text; line && *line;) {
            char *nl = strchr(line, '\n');
            if (nl) {
                *nl = 0;
            }
            cli_error("%s", line);
            line = nl ? nl + 1 : line + strlen(line);
        }
        free(text);
    }
    return st;
}

int cli_event_types_load(cli_event_types_t *t, const char *path, int is_schema)
{
    memset(t, 0, sizeof *t);
    if (is_schema) {
        if (cli_schema_load(path, &t->schema) != EVREC_OK) {
            return -1; /* the loader's file:line:column errors are printed */
        }
        t->meta = evrec_schema_meta(t->schema);
        return 0;
    }
    if (!(t->r = cli_open_reader(path, NULL))) {
        return -1;
    }
    t->meta = evrec_reader_meta(t->r);
    return 0;
}

void cli_event_types_free(cli_event_types_t *t)
{
    evrec_reader_close(t->r);
    evrec_schema_free(t->schema);
    memset(t, 0, sizeof *t);
}

void cli_decode_begin(cli_decode_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->max_errors = 20;
    cli_getopt_begin();
}

int cli_decode_option(const cli_command_t *cmd, cli_decode_opts_t *o, int c, char **argv)
{
    uint64_t v;
    switch (c) {
    case CLI_OPT_META:
    case CLI_OPT_SCHEMA:
        if (o->meta_path) {
            return cli_usage_error(cmd, "give the event types once: --meta or --schema");
        }
        o->meta_path = optarg;
        o->meta_is_schema = c == CLI_OPT_SCHEMA;
        return -1;
    case 'o': o->out = optarg; return -1;
    case CLI_OPT_MAX_ERRORS:
        if (!cli_parse_u64(optarg, UINT64_MAX, &v)) {
            return cli_usage_error(cmd, "--max-errors expects a count, not '%s'", optarg);
        }
        o->max_errors = v;
        return -1;
    default: return cli_common_option(cmd, c, argv, &o->clock);
    }
}

int cli_decode_end(const cli_command_t *cmd, cli_decode_opts_t *o, int argc, char **argv)
{
    int rc = cli_one_operand(cmd, argc, argv, "STREAM", &o->stream);
    if (rc >= 0) {
        return rc;
    }
    if (o->out && !o->meta_path) {
        return cli_usage_error(cmd, "-o needs --meta or --schema (the event types of the file to write)");
    }
    if (o->out && !*o->out) {
        return cli_usage_error(cmd, "-o: empty file name");
    }
    return -1;
}

void cli_decode_error(const cli_decode_opts_t *o, uint64_t *shown, const char *fmt, ...)
{
    if ((*shown)++ >= o->max_errors) {
        if (*shown == o->max_errors + 1 && o->max_errors > 0) {
            cli_error("%s: further errors not shown (see the counts at the end)", o->stream);
        }
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "evrec: %s: ", o->stream);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
