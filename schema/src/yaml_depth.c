/* SPDX-License-Identifier: Apache-2.0 */
/* The nesting limit of a schema file, checked before the file is loaded.
 *
 * libyaml 0.2.5's scanner walks its whole stack of possible simple keys, one entry per open flow
 * collection, for every token it reads: a file nested N levels deep costs it N x N steps (50,000
 * levels of `[` took 13.6 s of CPU). Its event parser is cheap up to the level it has reached, so
 * this pass reads events only until the nesting passes GEN_MAX_DEPTH, and the load itself then
 * runs on a file known to be shallow: the cost stays linear in the file's size. */
#include <stdio.h>
#include <string.h>

#include "gen_internal.h"

int gen_read_all(FILE *in, gen_buf_t *out)
{
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, in)) > 0) {
        gen_buf_put(out, chunk, n);
    }
    if (ferror(in)) {
        return -1;
    }
    gen_buf_put(out, "", 0); /* a buffer (possibly empty) even for an empty file */
    return 0;
}

int gen_yaml_too_deep(const char *text, size_t len, unsigned *line, unsigned *col)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        return 0; /* out of memory: the load says so */
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    unsigned depth = 0;
    int deep = 0, done = 0;
    while (!done && !deep) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            break; /* a syntax error: the load reports it at the same place */
        }
        if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) {
            if (++depth > GEN_MAX_DEPTH) {
                deep = 1;
                *line = (unsigned)ev.start_mark.line + 1;
                *col = (unsigned)ev.start_mark.column + 1;
            }
        } else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) {
            depth--;
        }
        done = ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    return deep;
}
