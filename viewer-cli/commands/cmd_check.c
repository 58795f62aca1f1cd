/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec check FILE --schema S.yaml`: does the recording's meta-info match the schema? Compares
 * the two item by item (evrec_meta_diff) and the schema hashes; explains every difference. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_event_types.h"
#include "evrec/evrec_hash.h"
#include "evrec/evrec_schema.h"

static const char help[] =
    "usage: evrec check --schema SCHEMA.yaml FILE\n"
    "\n"
    "Check that a recording was made with the event types of a schema: exit 0 when its\n"
    "meta-info is the one evrec-gen makes from SCHEMA.yaml (same schema hash), else exit 1\n"
    "with one line per difference, item by item: an enum, value, struct, field or event added,\n"
    "removed or renamed; a kind, type, value, marker, class or run-time range changed; an id\n"
    "that moved (order changed). Display attributes, time_freq and the schema's version are\n"
    "not part of the schema hash and are not compared.\n"
    "A bare CCore stream carries no run-time ranges and no hash: its values inside a run-time\n"
    "range of the schema are taken as names given while recording, and it matches when no\n"
    "item differs.\n"
    "\n"
    "options:\n"
    "  -s, --schema FILE  the schema (YAML, with its includes)\n"
    "  -q, --quiet        print nothing; the exit status says it\n"
    "  -h, --help         this text\n"
    "\n"
    "The whole recording is read: a damaged one (bad CRC, truncated, a bad record) is reported\n"
    "and exits 1 even when its meta-info matches.\n"
    "\n"
    "Exit status: 0 the recording matches and is intact, 1 it does not match, it is damaged, or\n"
    "the recording or the schema cannot be read (errors on stderr), 2 bad usage.\n";

typedef struct check_opts {
    const char *schema;
    const char *path;
    int quiet;
} check_opts_t;

static int parse(int argc, char **argv, check_opts_t *o)
{
    static const struct option longopts[] = {
        {"schema", required_argument, NULL, 's'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    cli_getopt_begin();
    int c;
    /* Permuting: the FILE may come before or after --schema. */
    while ((c = getopt_long(argc, argv, ":s:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 's': o->schema = optarg; break;
        case 'q': o->quiet = 1; break;
        default: return cli_common_option(&cli_cmd_check, c, argv, NULL);
        }
    }
    int rc = cli_one_operand(&cli_cmd_check, argc, argv, "FILE", &o->path);
    if (rc < 0 && !o->schema) {
        return cli_usage_error(&cli_cmd_check, "missing --schema SCHEMA.yaml");
    }
    return rc;
}

typedef struct report {
    cli_buf_t body; /* "  difference\n" lines */
    size_t n;
} report_t;

static void print_diff(void *ctx, const char *line)
{
    report_t *rep = ctx;
    rep->n++;
    cli_buf_puts(&rep->body, "  ");
    cli_buf_puts(&rep->body, line);
    cli_buf_putc(&rep->body, '\n');
}

static int run(int argc, char **argv)
{
    check_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    evrec_reader_t *r = cli_open_reader(o.path, NULL);
    if (!r) {
        return CLI_BAD_INPUT;
    }
    evrec_schema_t *s = NULL;
    if (cli_schema_load(o.schema, &s) != EVREC_OK) {
        cli_error("%s: the schema cannot be used", o.schema);
        evrec_reader_close(r);
        return CLI_BAD_INPUT;
    }
    /* The meta-info alone decides the match, but a damaged recording is not called good. */
    int intact = cli_read_to_end(r) == EVREC_E_END;
    if (!intact) {
        cli_report_reader_error(o.path, r);
    }
    const evrec_meta_t *sm = evrec_schema_meta(s);
    const evrec_meta_t *fm = evrec_reader_meta(r);
    const evrec_file_info_t *fi = evrec_reader_info(r);
    int bare = fi->format == EVREC_FILE_CCORE;
    const char *sname = evrec_schema_name(s);

    report_t rep;
    memset(&rep, 0, sizeof rep);
    evrec_diff_options_t dopt = {"the schema", "the file", bare};
    evrec_meta_diff(sm, fm, &dopt, print_diff, &rep);
    uint64_t fh = fi->schema_hash_computed, sh = sm->schema_hash;
    int hash_ok = bare || fh == sh;
    if (!bare && fi->schema_hash_stored != 0 && fi->schema_hash_stored != fh) {
        char line[200];
        snprintf(line, sizeof line,
                 "the file's header stores schema hash 0x%016llx, but its meta-info gives 0x%016llx "
                 "(damaged or rewritten)",
                 (unsigned long long)fi->schema_hash_stored, (unsigned long long)fh);
        print_diff(&rep, line);
    }
    if (rep.n == 0 && !hash_ok) {
        print_diff(&rep, "the schema hashes differ although no item does (a hash collision, or a difference "
                         "this version cannot explain)");
    }
    int match = rep.n == 0 && hash_ok;
    if (!o.quiet) {
        if (match) {
            if (bare) {
                printf("%s matches schema %s (%s): every enum, struct and event is the same (a bare CCore "
                       "stream has no hash; schema hash 0x%016llx)\n",
                       o.path, sname, o.schema, (unsigned long long)sh);
            } else {
                printf("%s matches schema %s (%s): schema hash 0x%016llx\n", o.path, sname, o.schema,
                       (unsigned long long)sh);
            }
            if (!intact) {
                printf("%s is damaged (error above): its meta-info matches, its records are not all readable\n",
                       o.path);
            }
        } else {
            printf("%s does not match schema %s (%s): schema hash 0x%016llx in the file, 0x%016llx from the "
                   "schema; %zu difference%s:\n",
                   o.path, sname, o.schema, (unsigned long long)fh, (unsigned long long)sh, rep.n,
                   rep.n == 1 ? "" : "s");
            fwrite(rep.body.p, 1, rep.body.len, stdout);
        }
    }
    cli_buf_free(&rep.body);
    int result = cli_stdout_done(1) && match && intact ? CLI_OK : CLI_BAD_INPUT;
    evrec_schema_free(s);
    evrec_reader_close(r);
    return result;
}

const cli_command_t cli_cmd_check = {
    "check",
    "does a recording match a schema? explains every difference",
    help,
    run,
};
