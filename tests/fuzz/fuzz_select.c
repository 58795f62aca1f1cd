/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the viewer's selection expression (`--where EXPR`, viewer-cli/pipeline/cli_select.c):
 * the parser on the input text (NUL-terminated copy), then the compiler against a fixed small
 * meta-info (the reader test fixtures: nested structs, enums of three widths, run-time enum
 * names), then the check of every record of a small recording made once with the real recorder.
 * The compiler's messages (which would go to stderr) are printed into memory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_select.h"
#include "reader_fixtures.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const cli_command_t cmd = {"fuzz", "", "", NULL};
static fx_buf_t file;
static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!file.p) {
        fx_record(40, 0, &file);
    }
    char *expr = malloc(size + 1);
    if (!expr) {
        return 0;
    }
    memcpy(expr, data, size);
    expr[size] = '\0';

    uint64_t acc = 0;
    cli_where_t *w = NULL;
    cli_where_error_t err;
    int ok = cli_where_parse(expr, &w, &err);
    if (ok != (w != NULL)) {
        fprintf(stderr, "cli_where_parse returned %d with tree %p\n", ok, (void *)w);
        abort();
    }
    if (!ok && err.column > strlen(expr) + 1) {
        fprintf(stderr, "error column %u past the end of a %zu-byte expression\n", err.column, strlen(expr));
        abort();
    }
    cli_where_free(w);

    /* Messages into memory instead of stderr (glibc: stderr is an assignable FILE *). */
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    FILE *saved = stderr;
    if (mem) {
        stderr = mem;
    }
    if (!ok) {
        cli_where_report(&cmd, expr, &err);
    } else {
        cli_select_spec_t spec;
        memset(&spec, 0, sizeof spec);
        spec.where = expr;
        evrec_reader_t *r = NULL;
        if (evrec_reader_open_memory(&r, file.p, file.len, NULL) == EVREC_OK) {
            cli_select_t *sel = NULL;
            if (cli_select_compile(&cmd, &spec, r, &sel) == -1) {
                evrec_record_t rec;
                while (cli_select_next(sel, r, &rec) == EVREC_OK) {
                    int c = cli_select_check(sel, &rec);
                    acc += (uint64_t)c;
                    if (c == CLI_SEL_STOP || cli_select_full(sel)) {
                        break;
                    }
                }
                cli_select_free(sel);
            }
        }
        evrec_reader_close(r);
    }
    if (mem) {
        stderr = saved;
        fclose(mem);
        acc += len;
        free(text);
    }
    free(expr);
    sink = acc;
    return 0;
}
