/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the YAML schema loader (schema/src/schema_load.c and the checks behind it) and
 * evrec-gen's emit path, on one schema text. The text is written to a file in a private temporary
 * directory (the loader reads paths: its includes are resolved next to the including file, then
 * in the shipped catalogue); then, as evrec-gen does: load, check, build the meta-info and its
 * hash, emit the generated header and source into memory; the diagnostics are printed into memory.
 * A schema that loads is also written back as YAML from its tables (evrec_schema_to_yaml, the
 * path of `evrec schema`). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evrec/evrec_schema.h"
#include "gen_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;
static char dir[64];
static char path[96];

static void cleanup(void)
{
    if (path[0]) {
        unlink(path);
    }
    if (dir[0]) {
        rmdir(dir);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/evrec-fuzz-schema-XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            abort();
        }
        snprintf(path, sizeof path, "%s/fuzz.yaml", dir);
        atexit(cleanup);
    }
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror(path);
        abort();
    }

    gen_schema_t s;
    memset(&s, 0, sizeof s);
    int rc = gen_schema_load(&s, path);
    if (rc == 0) {
        rc = gen_meta_hash(&s);
    }
    size_t acc = 0;
    if (rc == 0) {
        gen_buf_t h = {0}, src = {0};
        gen_emit_header(&s, &h);
        gen_emit_source(&s, &src);
        acc += h.len + src.len;
        gen_buf_free(&h);
        gen_buf_free(&src);

        gen_meta_t m;
        gen_meta_build(&s, &m);
        evrec_yaml_options_t yo = {"fuzz", NULL, NULL, NULL, 0};
        evrec_yaml_t y;
        memset(&y, 0, sizeof y);
        if (evrec_schema_to_yaml(&m.meta, &yo, &y) == EVREC_OK) {
            for (size_t i = 0; i < y.count; i++) {
                acc += strlen(y.files[i].text);
            }
            evrec_yaml_free(&y);
        }
        gen_meta_free(&m);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *diag = open_memstream(&text, &len);
    if (diag) {
        gen_diags_print(&s, diag);
        fclose(diag);
        acc += len;
        free(text);
    }
    gen_schema_free(&s);
    sink = acc;
    return 0;
}
