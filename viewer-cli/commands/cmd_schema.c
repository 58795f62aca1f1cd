/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec schema FILE`: the meta-info inside a recording, as a YAML schema that evrec-gen accepts
 * (same names, kinds, ids, values, markers, classes, run-time ranges, display attributes: the
 * regenerated tables have the file's schema hash). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "evrec/evrec_schema.h"

static const char help[] =
    "usage: evrec schema [-o FILE.yaml] [--name NAME] [--version V] FILE\n"
    "\n"
    "Print the meta-info of a recording as a YAML schema that evrec-gen accepts: enums with\n"
    "their values and markers, run-time enum ranges (not the names given while recording),\n"
    "reusable structs, events with their classes, field formats, units and descriptions, and\n"
    "time_freq. The tables evrec-gen makes from it have the recording's schema hash\n"
    "(schema -> code -> recording -> schema gives the same hash).\n"
    "A recording does not carry the schema's name and version, the descriptions of enums,\n"
    "values, structs and events, nor how the schema was split into files; a bare CCore stream\n"
    "carries no run-time ranges and no display attributes either. The YAML's header comment\n"
    "says so, and notes anything the schema language cannot express (also on stderr).\n"
    "When the tables interleave events' structs and reusable structs (a schema with includes),\n"
    "the schema is written as several files: FILE.yaml includes STEM.part1.yaml ... next to it.\n"
    "\n"
    "options:\n"
    "  -o, --output FILE   write the schema to FILE instead of stdout\n"
    "  --name NAME         the schema's name (default: the recording's file name, as an\n"
    "                      identifier)\n"
    "  --version V         the schema's version (default: 0)\n"
    "  -h, --help          this text\n"
    "\n"
    "The whole recording is read: when it is damaged the schema is still written, the damage is\n"
    "reported and the exit status is 1. So it is when a note says evrec-gen would refuse the\n"
    "schema or make tables with another hash.\n"
    "\n"
    "Exit status: 0 ok (evrec-gen makes tables with the recording's hash), 1 damaged or\n"
    "unreadable recording, a note that changes the hash, or an output that cannot be written,\n"
    "2 bad usage.\n";

typedef struct schema_opts {
    const char *out;
    const char *name;
    const char *version;
    const char *path;
} schema_opts_t;

static int version_ok(const char *v)
{
    int parts = 0;
    for (;;) {
        if (*v < '0' || *v > '9') {
            return 0;
        }
        while (*v >= '0' && *v <= '9') {
            v++;
        }
        parts++;
        if (*v == 0) {
            return parts <= 3;
        }
        if (*v++ != '.') {
            return 0;
        }
    }
}

static int ident_ok(const char *s)
{
    if (!*s || (*s >= '0' && *s <= '9')) {
        return 0;
    }
    for (; *s; s++) {
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_')) {
            return 0;
        }
    }
    return 1;
}

static int parse(int argc, char **argv, schema_opts_t *o)
{
    enum { OPT_NAME = 256, OPT_VERSION };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"name", required_argument, NULL, OPT_NAME},
        {"version", required_argument, NULL, OPT_VERSION},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    cli_getopt_begin();
    int c;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': o->out = optarg; break;
        case OPT_NAME:
            if (!ident_ok(optarg)) {
                return cli_usage_error(&cli_cmd_schema, "--name expects a C identifier, not '%s'", optarg);
            }
            o->name = optarg;
            break;
        case OPT_VERSION:
            if (!version_ok(optarg)) {
                return cli_usage_error(&cli_cmd_schema, "--version expects 1, 1.2 or 1.2.3, not '%s'", optarg);
            }
            o->version = optarg;
            break;
        default: return cli_common_option(&cli_cmd_schema, c, argv, NULL);
        }
    }
    return cli_one_operand(&cli_cmd_schema, argc, argv, "FILE", &o->path);
}

/* The recording's file name without directory and extension, as a C identifier. */
static char *default_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strcspn(base, ".");
    char *s = malloc(n + 3);
    if (!s) {
        return NULL;
    }
    size_t k = 0;
    if (n == 0 || (base[0] >= '0' && base[0] <= '9')) {
        s[k++] = 's';
        s[k++] = '_';
    }
    for (size_t i = 0; i < n; i++) {
        char c = base[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        s[k++] = ok ? c : '_';
    }
    s[k] = 0;
    return s;
}

/* Directory part of a path ("" for none) and the stem of its file name. */
static void split_out(const char *out, char **dir, char **stem)
{
    const char *slash = strrchr(out, '/');
    size_t dl = slash ? (size_t)(slash - out) + 1 : 0;
    const char *file = out + dl;
    const char *dot = strrchr(file, '.');
    size_t sl = dot && dot != file ? (size_t)(dot - file) : strlen(file);
    *dir = malloc(dl + 1);
    *stem = malloc(sl + 1);
    if (!*dir || !*stem) {
        cli_error("out of memory");
        exit(CLI_BAD_INPUT);
    }
    memcpy(*dir, out, dl);
    (*dir)[dl] = 0;
    memcpy(*stem, file, sl);
    (*stem)[sl] = 0;
}

/* Write the schema's files: each through a temporary file (cli_output_open()), all renamed only
 * when every one is complete, so a failure (a full disk) leaves every path as it was. */
static int write_files(char *const *paths, const evrec_yaml_t *y)
{
    cli_output_t *outs = calloc(y->count ? y->count : 1, sizeof *outs);
    if (!outs) {
        cli_error("out of memory");
        return 0;
    }
    size_t opened = 0;
    int ok = 1;
    for (size_t i = 0; ok && i < y->count; i++) {
        if (!paths[i]) {
            cli_error("out of memory");
            ok = 0;
            break;
        }
        ok = cli_output_open(&outs[i], paths[i]);
        opened += (size_t)ok;
        if (ok && !cli_output_write(&outs[i], y->files[i].text, strlen(y->files[i].text))) {
            ok = cli_output_commit(&outs[i]); /* reports the failed write, leaves the path */
            opened--;
        }
    }
    for (size_t i = 0; i < opened; i++) {
        if (ok) {
            ok = cli_output_commit(&outs[i]);
        } else {
            cli_output_abort(&outs[i]);
        }
    }
    free(outs);
    return ok;
}

static int run(int argc, char **argv)
{
    schema_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    evrec_reader_t *r = cli_open_reader(o.path, NULL);
    if (!r) {
        return CLI_BAD_INPUT;
    }
    int result = CLI_OK;
    /* Only the meta-info is written, but a damaged recording exits 1 (the schema is still written). */
    if (cli_read_to_end(r) != EVREC_E_END) {
        const evrec_reader_error_t *fe = evrec_reader_field_info_error(r);
        const evrec_reader_error_t *e = evrec_reader_error(r);
        if (fe->status != EVREC_OK && fe->offset == e->offset && strcmp(fe->message, e->message) == 0) {
            cli_error("%s: offset %llu: %s (the display attributes after it are left out)", o.path,
                      (unsigned long long)fe->offset, fe->message);
        } else {
            cli_report_reader_error(o.path, r);
        }
        result = CLI_BAD_INPUT;
    }
    char *name = o.name ? NULL : default_name(o.path);
    char *dir = NULL, *stem = NULL;
    if (o.out) {
        split_out(o.out, &dir, &stem);
    }
    evrec_yaml_options_t yo;
    memset(&yo, 0, sizeof yo);
    yo.name = o.name ? o.name : name;
    yo.version = o.version;
    const char *base = strrchr(o.path, '/');
    yo.source = base ? base + 1 : o.path;
    yo.part_prefix = stem;
    yo.bare_ccore = evrec_reader_info(r)->format == EVREC_FILE_CCORE;
    evrec_yaml_t y;
    if (!yo.name || evrec_schema_to_yaml(evrec_reader_meta(r), &yo, &y) != EVREC_OK) {
        cli_error("out of memory");
        free(name);
        evrec_reader_close(r);
        return CLI_BAD_INPUT;
    }
    for (size_t i = 0; i < y.note_count; i++) {
        cli_error("%s: note: %s", o.path, y.notes[i]);
    }
    if (y.hash_note_count) {
        cli_error("%s: evrec-gen would refuse this schema or make tables with another schema hash than "
                  "0x%016llx (%zu note%s above)",
                  o.path, (unsigned long long)evrec_reader_info(r)->schema_hash_computed, y.hash_note_count,
                  y.hash_note_count == 1 ? "" : "s");
        result = CLI_BAD_INPUT;
    }
    if (!o.out) {
        if (y.count > 1) {
            result = cli_usage_error(&cli_cmd_schema,
                                     "the schema of %s takes %u files (its tables interleave events' structs and "
                                     "reusable structs): give -o FILE.yaml",
                                     o.path, (unsigned)y.count);
        } else if (!cli_stdout_done(fputs(y.files[0].text, stdout) >= 0)) {
            result = CLI_BAD_INPUT;
        }
    } else {
        char **paths = calloc(y.count ? y.count : 1, sizeof *paths);
        for (size_t i = 0; paths && i < y.count; i++) {
            if (i == 0) {
                paths[i] = strdup(o.out);
            } else {
                size_t n = strlen(dir) + strlen(y.files[i].name) + 1;
                paths[i] = malloc(n);
                if (paths[i]) {
                    snprintf(paths[i], n, "%s%s", dir, y.files[i].name);
                }
            }
        }
        if (!paths || !write_files(paths, &y)) {
            result = CLI_BAD_INPUT;
        }
        for (size_t i = 0; paths && i < y.count; i++) {
            free(paths[i]);
        }
        free(paths);
    }
    evrec_yaml_free(&y);
    free(name);
    free(dir);
    free(stem);
    evrec_reader_close(r);
    return result;
}

const cli_command_t cli_cmd_schema = {
    "schema",
    "the recording's meta-info as a YAML schema for evrec-gen",
    help,
    run,
};
