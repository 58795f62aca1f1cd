/* SPDX-License-Identifier: Apache-2.0 */
/* evrec-gen: YAML event schema -> NAME_events.h and NAME_events.c (schema/SCHEMA.md).
 * Exit status: 0 done, 1 schema or I/O error (nothing written), 2 bad usage. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_syst_host.h"
#include "evrec_out_file.h"
#include "gen_internal.h"

static void usage(FILE *out)
{
    fputs("usage: evrec-gen SCHEMA.yaml [-o DIR] [-I DIR]... [--depfile FILE]\n"
          "Writes DIR/NAME_events.h and DIR/NAME_events.c for the schema named NAME.\n"
          "  -o, --output DIR     output directory, created with its parents when missing\n"
          "                       (default: the current directory)\n"
          "  -d, --depfile FILE   also write a Makefile-syntax dependency file listing the\n"
          "                       schema and every file it includes (CMake DEPFILE, Ninja)\n"
          "  -I, --include-dir DIR  look for included schemas in DIR when they are not next to\n"
          "                       the file that includes them (in order; then the shipped\n"
          "                       catalogue, so that `include: [rtos.yaml]` works)\n"
          "      --expect-name N  fail unless the schema is named N (build systems)\n"
          "      --syst-collateral OUT.xml  also write the MIPI SyS-T catalog XML of the event\n"
          "                       types (format/syst/SYST.md): 32-bit catalog ids, the origin\n"
          "                       of the schema's syst: block (else no GUID, module 0),\n"
          "                       unless these say otherwise:\n"
          "      --syst-id64      64-bit catalog ids (Catalog64)\n"
          "      --syst-guid {GUID}  the sender's GUID\n"
          "      --syst-module N  the sender's 7-bit module id (without a GUID)\n"
          "  -h, --help           this text\n"
          "  -V, --version        print evrec's version, the generator ABI and the file\n"
          "                       format version\n"
          "Schema errors are printed as file:line:column: error: message; exit status 1.\n",
          out);
}

/* Make-syntax escaping of a path in a depfile. */
static void dep_path(gen_buf_t *b, const char *p)
{
    for (; *p; p++) {
        if (*p == ' ' || *p == '#' || *p == '\\') {
            gen_buf_puts(b, "\\");
        }
        if (*p == '$') {
            gen_buf_puts(b, "$");
        }
        gen_buf_put(b, p, 1);
    }
}

/* The SyS-T catalog XML of the schema's event types into `out`; 0, or -1 after a message. */
static int gen_syst_collateral(const gen_schema_t *s, const evrec_syst_options_t *so, gen_buf_t *out)
{
    gen_meta_t m;
    gen_meta_build(s, &m);
    evrec_meta_t meta = m.meta;
    meta.field_info = &m.field_info;
    evrec_syst_map_t map;
    uint32_t bad = 0;
    evrec_status st = evrec_syst_map_alloc(&map, &meta, so, &bad);
    char *xml = NULL;
    size_t len = 0;
    if (st == EVREC_OK) {
        st = evrec_syst_collateral(&map, s->name, &xml, &len);
        evrec_syst_map_release(&map);
    }
    if (st == EVREC_E_META) {
        fprintf(stderr,
                "evrec-gen: event type %u has the SyS-T catalog id of an earlier event type: "
                "no collateral\n",
                bad);
    } else if (st != EVREC_OK) {
        fprintf(stderr, "evrec-gen: the SyS-T collateral: %s\n", evrec_strerror(st));
    } else {
        gen_buf_put(out, xml, len);
    }
    free(xml);
    gen_meta_free(&m);
    return st == EVREC_OK ? 0 : -1;
}

/* Write the generated files by the output-path rule of evrec_out_file.h: every one to a
 * temporary file first, then all renamed (a device or FIFO written in place), so that a failure
 * (a full disk, a directory in the way) leaves every path as it was. Returns 1 when all are
 * written, else 0 after a message. */
static int write_outputs(const char *const *paths, const gen_buf_t *const *bufs, int count)
{
    evrec_out_file_t out[4];
    int opened = 0, ok = 1;
    for (int i = 0; i < count && ok; i++) {
        ok = evrec_out_file_open(&out[i], paths[i], 0) == EVREC_OK;
        if (ok) {
            opened++;
            ok = evrec_out_file_write(&out[i], bufs[i]->data, bufs[i]->len) == EVREC_OK;
        }
        if (!ok) {
            fprintf(stderr, "evrec-gen: %s\n", evrec_out_file_message(&out[i]));
        }
    }
    for (int i = 0; i < opened; i++) {
        if (!ok) {
            evrec_out_file_abort(&out[i]);
        } else if (evrec_out_file_commit(&out[i]) != EVREC_OK) {
            fprintf(stderr, "evrec-gen: %s\n", evrec_out_file_message(&out[i]));
            ok = 0;
        }
    }
    return ok;
}

/* The command line. */
typedef struct gen_args {
    const char *outdir, *depfile, *expect_name, *syst_path, *schema_path;
    const char *include_dirs[GEN_MAX_INCLUDE_DIRS];
    size_t include_dir_count;
    evrec_syst_options_t so;
    int so_given; /* an origin option: the schema's syst: origin is not used */
} gen_args_t;

/* --syst-guid and --syst-module; 0, or 2 after a message. */
static int parse_syst_origin(gen_args_t *a, int c, const char *arg)
{
    if (c == 'G') {
        if (evrec_syst_parse_guid(arg, a->so.guid) != EVREC_OK) {
            fprintf(stderr, "evrec-gen: --syst-guid expects {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}, not '%s'\n",
                    arg);
            return 2;
        }
        a->so.use_guid = 1;
    } else {
        char *end;
        unsigned long v = strtoul(arg, &end, 0);
        if (!*arg || *end || v > 127) {
            fprintf(stderr, "evrec-gen: --syst-module expects 0..127, not '%s'\n", arg);
            return 2;
        }
        a->so.module = (uint8_t)v;
    }
    a->so_given = 1;
    return 0;
}

/* One option; -1 to go on, else the exit status (0 after --help or --version, 2 bad usage). */
static int parse_option(gen_args_t *a, int c, const char *arg)
{
    switch (c) {
    case 'o': a->outdir = arg; break;
    case 'd': a->depfile = arg; break;
    case 'n': a->expect_name = arg; break;
    case 'S': a->syst_path = arg; break;
    case '6': a->so.id64 = 1; break;
    case 'G':
    case 'M': return parse_syst_origin(a, c, arg) ? 2 : -1;
    case 'h': usage(stdout); return 0;
    case 'V':
        printf("evrec-gen %s (generator ABI %d, file format %u.%u)\n", EVREC_VERSION, GEN_ABI, EVREC_FORMAT_MAJOR,
               EVREC_FORMAT_MINOR_LANES);
        return 0;
    case 'I':
        if (a->include_dir_count == GEN_MAX_INCLUDE_DIRS) {
            fprintf(stderr, "evrec-gen: more than %d -I directories\n", GEN_MAX_INCLUDE_DIRS);
            return 2;
        }
        a->include_dirs[a->include_dir_count++] = arg;
        break;
    default: usage(stderr); return 2;
    }
    return -1;
}

/* The command line into *a; -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, gen_args_t *a)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"depfile", required_argument, NULL, 'd'},
                                         {"expect-name", required_argument, NULL, 'n'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {"include-dir", required_argument, NULL, 'I'},
                                         {"syst-collateral", required_argument, NULL, 'S'},
                                         {"syst-id64", no_argument, NULL, '6'},
                                         {"syst-guid", required_argument, NULL, 'G'},
                                         {"syst-module", required_argument, NULL, 'M'},
                                         {NULL, 0, NULL, 0}};
    memset(a, 0, sizeof *a);
    a->so.severity = EVREC_SYST_SEV_INFO;
    a->outdir = ".";
    int c;
    while ((c = getopt_long(argc, argv, "o:d:I:hV", opts, NULL)) != -1) {
        int rc = parse_option(a, c, optarg);
        if (rc >= 0) {
            return rc;
        }
    }
    if (optind + 1 != argc) {
        fputs(optind >= argc ? "evrec-gen: no schema file given\n"
                             : "evrec-gen: more than one schema file given\n",
              stderr);
        usage(stderr);
        return 2;
    }
    a->schema_path = argv[optind];
    return -1;
}

/* Loads and checks the schema; 0, or -1 after its diagnostics (s is freed then). */
static int load_schema(gen_schema_t *s, const gen_args_t *a)
{
    memset(s, 0, sizeof *s);
    s->include_dirs = a->include_dirs;
    s->include_dir_count = a->include_dir_count;
    int rc = gen_schema_load(s, a->schema_path);
    if (rc == 0 && a->expect_name && strcmp(s->name, a->expect_name) != 0) {
        gen_error(s, s->name_pos,
                  "the schema is named '%s' but the build expects '%s' (re-run CMake after "
                  "renaming a schema)",
                  s->name, a->expect_name);
        rc = -1;
    }
    if (rc == 0) {
        rc = gen_meta_hash(s);
    }
    if (rc != 0) {
        gen_diags_print(s, stderr);
        if (s->diags.count == 0 && s->file_count > 0) {
            fputs("evrec-gen: the schema could not be read\n", stderr);
        }
        gen_schema_free(s);
        return -1;
    }
    return 0;
}

/* What evrec-gen writes: header, source, depfile, SyS-T collateral, and their paths. */
typedef struct gen_outputs {
    gen_buf_t h, src, dep, xml;
    char *hpath, *cpath;
} gen_outputs_t;

static void outputs_free(gen_outputs_t *o)
{
    free(o->hpath);
    free(o->cpath);
    gen_buf_free(&o->h);
    gen_buf_free(&o->src);
    gen_buf_free(&o->dep);
    gen_buf_free(&o->xml);
}

/* Generates every output into o (zeroed); 0, or -1 after a message. */
static int generate(const gen_schema_t *s, gen_args_t *a, gen_outputs_t *o)
{
    gen_emit_header(s, &o->h);
    gen_emit_source(s, &o->src);
    if (a->syst_path && s->syst.present && !a->so_given) {
        a->so.use_guid = (uint8_t)s->syst.use_guid;
        memcpy(a->so.guid, s->syst.guid, sizeof a->so.guid);
        a->so.module = s->syst.module;
        a->so.unit = s->syst.unit;
    }
    if (a->syst_path && gen_syst_collateral(s, &a->so, &o->xml) != 0) {
        return -1;
    }
    size_t n = strlen(a->outdir) + strlen(s->name) + sizeof GEN_FILE_SUFFIX + 8;
    o->hpath = gen_xmalloc(n);
    o->cpath = gen_xmalloc(n);
    snprintf(o->hpath, n, "%s/%s%s.h", a->outdir, s->name, GEN_FILE_SUFFIX);
    snprintf(o->cpath, n, "%s/%s%s.c", a->outdir, s->name, GEN_FILE_SUFFIX);
    if (a->depfile) {
        dep_path(&o->dep, o->hpath);
        gen_buf_puts(&o->dep, ":");
        for (size_t i = 0; i < s->file_count; i++) {
            gen_buf_puts(&o->dep, " ");
            dep_path(&o->dep, s->files[i].real ? s->files[i].real : s->files[i].path);
        }
        gen_buf_puts(&o->dep, "\n");
    }
    return 0;
}

/* Writes the outputs; the output directory and its parents are created when missing (and
 * removed again if nothing could be written into them). 1 when all are written. */
static int write_all(const gen_args_t *a, const gen_outputs_t *o)
{
    char *created = NULL;
    if (gen_mkdir_p(a->outdir, &created) != 0) {
        return 0;
    }
    const char *finals[4] = {o->hpath, o->cpath, a->depfile ? a->depfile : a->syst_path, a->syst_path};
    const gen_buf_t *bufs[4] = {&o->h, &o->src, a->depfile ? &o->dep : &o->xml, &o->xml};
    int ok = write_outputs(finals, bufs, 2 + (a->depfile != NULL) + (a->syst_path != NULL));
    if (!ok) {
        gen_rmdir_created(a->outdir, created);
    }
    free(created);
    return ok;
}

int main(int argc, char **argv)
{
    gen_args_t a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0) {
        return rc;
    }
    gen_schema_t s;
    if (load_schema(&s, &a) != 0) {
        return 1;
    }
    gen_outputs_t o;
    memset(&o, 0, sizeof o);
    int ok = generate(&s, &a, &o) == 0 && write_all(&a, &o);
    outputs_free(&o);
    gen_schema_free(&s);
    return ok ? 0 : 1;
}
