/* SPDX-License-Identifier: Apache-2.0 */
#include "cli_schema_file.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"
#include "evrec/evrec_schema.h"

static int file_write(void *ctx, const void *p, size_t n)
{
    return fwrite(p, 1, n, ctx) == n ? 0 : -1;
}

char *cli_schema_recording(const char *dir, const char *name, const char *yaml, uint64_t *hash)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.yaml", dir, name);
    cr_assert_eq(cli_write_file(path, yaml), 0);
    evrec_schema_t *s = NULL;
    cr_assert_eq(evrec_schema_load(&s, path, stderr), EVREC_OK);
    if (hash) {
        *hash = evrec_schema_meta(s)->schema_hash;
    }
    static uint32_t buf[256];
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_recorder_init(&rec, buf, sizeof buf);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, evrec_schema_meta(s), 1000), EVREC_OK);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    size_t n = strlen(dir) + strlen(name) + 8;
    char *evr = malloc(n);
    cr_assert_not_null(evr);
    snprintf(evr, n, "%s/%s.evr", dir, name);
    FILE *f = fopen(evr, "wb");
    cr_assert_not_null(f);
    evrec_sink_t sink = {file_write, f};
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    cr_assert_eq(fclose(f), 0);
    evrec_schema_free(s);
    return evr;
}
