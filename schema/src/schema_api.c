/* SPDX-License-Identifier: Apache-2.0 */
/* The public face of the schema loader (evrec/evrec_schema.h): load, check, build the tables. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_hash.h"
#include "evrec/evrec_schema.h"
#include "gen_internal.h"

struct evrec_schema {
    gen_schema_t model;
    gen_meta_t tables;
    evrec_meta_t meta;
};

evrec_status evrec_schema_load(evrec_schema_t **out, const char *path, FILE *diag)
{
    if (!out) {
        return EVREC_E_ARG;
    }
    *out = NULL;
    if (!path) {
        return EVREC_E_ARG;
    }
    FILE *probe = fopen(path, "rb");
    if (!probe) {
        if (diag) {
            fprintf(diag, "%s: cannot open the schema: %s\n", path, strerror(errno));
        }
        return EVREC_E_IO;
    }
    fclose(probe);
    evrec_schema_t *s = gen_xmalloc(sizeof *s);
    memset(s, 0, sizeof *s);
    int rc = gen_schema_load(&s->model, path);
    if (rc == 0) {
        rc = gen_meta_hash(&s->model);
    }
    if (rc != 0) {
        if (diag) {
            gen_diags_print(&s->model, diag);
            if (s->model.diags.count == 0) {
                fprintf(diag, "%s: the schema could not be read\n", path);
            }
        }
        gen_schema_free(&s->model);
        free(s);
        return EVREC_E_META;
    }
    gen_meta_build(&s->model, &s->tables);
    s->meta = s->tables.meta;
    s->meta.schema_hash = s->model.hash;
    s->tables.field_info.schema_hash = s->model.hash;
    s->meta.field_info = &s->tables.field_info;
    *out = s;
    return EVREC_OK;
}

const evrec_meta_t *evrec_schema_meta(const evrec_schema_t *s)
{
    return s ? &s->meta : NULL;
}

const char *evrec_schema_name(const evrec_schema_t *s)
{
    return s ? s->model.name : NULL;
}

void evrec_schema_free(evrec_schema_t *s)
{
    if (!s) {
        return;
    }
    gen_meta_free(&s->tables);
    gen_schema_free(&s->model);
    free(s);
}
