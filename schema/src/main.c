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
        fprintf(stderr, "evrec-gen: event type %u has the SyS-T catalog id of an earlier event type: "
                        "no collateral\n", bad);
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

int main(int argc, char **argv)
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
    const char *syst_path = NULL;
    evrec_syst_options_t so;
    memset(&so, 0, sizeof so);
    so.severity = EVREC_SYST_SEV_INFO;
    char *end;
    int so_given = 0; /* an origin option: the schema's syst: origin is not used */
    const char *outdir = ".";
    const char *depfile = NULL;
    const char *expect_name = NULL;
    const char *include_dirs[GEN_MAX_INCLUDE_DIRS];
    size_t include_dir_count = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:d:I:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'o': outdir = optarg; break;
        case 'd': depfile = optarg; break;
        case 'n': expect_name = optarg; break;
        case 'S': syst_path = optarg; break;
        case '6': so.id64 = 1; break;
        case 'G':
            if (evrec_syst_parse_guid(optarg, so.guid) != EVREC_OK) {
                fprintf(stderr, "evrec-gen: --syst-guid expects {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}, not '%s'\n", optarg);
                return 2;
            }
            so.use_guid = 1;
            so_given = 1;
            break;
        case 'M': {
            unsigned long v = strtoul(optarg, &end, 0);
            if (!*optarg || *end || v > 127) {
                fprintf(stderr, "evrec-gen: --syst-module expects 0..127, not '%s'\n", optarg);
                return 2;
            }
            so.module = (uint8_t)v;
            so_given = 1;
            break;
        }
        case 'h': usage(stdout); return 0;
        case 'V':
            printf("evrec-gen %s (generator ABI %d, file format %u.%u)\n", EVREC_VERSION, GEN_ABI,
                   EVREC_FORMAT_MAJOR, EVREC_FORMAT_MINOR_LANES);
            return 0;
        case 'I':
            if (include_dir_count == GEN_MAX_INCLUDE_DIRS) {
                fprintf(stderr, "evrec-gen: more than %d -I directories\n", GEN_MAX_INCLUDE_DIRS);
                return 2;
            }
            include_dirs[include_dir_count++] = optarg;
            break;
        default: usage(stderr); return 2;
        }
    }
    if (optind + 1 != argc) {
        fputs(optind >= argc ? "evrec-gen: no schema file given\n"
                             : "evrec-gen: more than one schema file given\n",
              stderr);
        usage(stderr);
        return 2;
    }
    const char *schema_path = argv[optind];

    gen_schema_t s;
    memset(&s, 0, sizeof s);
    s.include_dirs = include_dirs;
    s.include_dir_count = include_dir_count;
    int rc = gen_schema_load(&s, schema_path);
    if (rc == 0 && expect_name && strcmp(s.name, expect_name) != 0) {
        gen_error(&s, s.name_pos,
                  "the schema is named '%s' but the build expects '%s' (re-run CMake after "
                  "renaming a schema)",
                  s.name, expect_name);
        rc = -1;
    }
    if (rc == 0) {
        rc = gen_meta_hash(&s);
    }
    if (rc != 0) {
        gen_diags_print(&s, stderr);
        if (s.diags.count == 0 && s.file_count > 0) {
            fputs("evrec-gen: the schema could not be read\n", stderr);
        }
        gen_schema_free(&s);
        return 1;
    }

    gen_buf_t h = {0}, src = {0}, dep = {0}, xml = {0};
    gen_emit_header(&s, &h);
    gen_emit_source(&s, &src);
    if (syst_path && s.syst.present && !so_given) {
        so.use_guid = (uint8_t)s.syst.use_guid;
        memcpy(so.guid, s.syst.guid, sizeof so.guid);
        so.module = s.syst.module;
        so.unit = s.syst.unit;
    }
    if (syst_path && gen_syst_collateral(&s, &so, &xml) != 0) {
        gen_buf_free(&h);
        gen_buf_free(&src);
        gen_schema_free(&s);
        return 1;
    }

    size_t n = strlen(outdir) + strlen(s.name) + sizeof GEN_FILE_SUFFIX + 8;
    char *hpath = gen_xmalloc(n), *cpath = gen_xmalloc(n);
    snprintf(hpath, n, "%s/%s%s.h", outdir, s.name, GEN_FILE_SUFFIX);
    snprintf(cpath, n, "%s/%s%s.c", outdir, s.name, GEN_FILE_SUFFIX);
    if (depfile) {
        dep_path(&dep, hpath);
        gen_buf_puts(&dep, ":");
        for (size_t i = 0; i < s.file_count; i++) {
            gen_buf_puts(&dep, " ");
            dep_path(&dep, s.files[i].real ? s.files[i].real : s.files[i].path);
        }
        gen_buf_puts(&dep, "\n");
    }

    /* The output directory and its parents are created when missing (and removed again if
     * nothing could be written into them). */
    char *created = NULL;
    if (gen_mkdir_p(outdir, &created) != 0) {
        free(hpath);
        free(cpath);
        gen_buf_free(&h);
        gen_buf_free(&src);
        gen_buf_free(&dep);
        gen_schema_free(&s);
        return 1;
    }

    const char *finals[4] = {hpath, cpath, depfile ? depfile : syst_path, syst_path};
    const gen_buf_t *bufs[4] = {&h, &src, depfile ? &dep : &xml, &xml};
    int ok = write_outputs(finals, bufs, 2 + (depfile != NULL) + (syst_path != NULL));
    if (!ok) {
        gen_rmdir_created(outdir, created);
    }
    free(created);
    free(hpath);
    free(cpath);
    gen_buf_free(&h);
    gen_buf_free(&src);
    gen_buf_free(&dep);
    gen_buf_free(&xml);
    gen_schema_free(&s);
    return ok ? 0 : 1;
}
