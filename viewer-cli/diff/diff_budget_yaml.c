/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec diff --budget FILE.yaml`: the rules of a budget file, a YAML mapping whose keys are
 * "KIND NAME METRIC" and whose values are the limits:
 *
 *     span FrameStage p99: +5%
 *     isr uart0 max: 20us
 *
 * read with libyaml's event parser (yaml_parser_parse); errors give the file, line and column. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "cli.h"
#include "diff.h"

/* The next event; 0 after a message. */
static int next(yaml_parser_t *p, yaml_event_t *e, const char *path)
{
    if (!yaml_parser_parse(p, e)) {
        cli_error("%s:%zu:%zu: %s", path, p->problem_mark.line + 1, p->problem_mark.column + 1,
                  p->problem ? p->problem : "bad YAML");
        return 0;
    }
    return 1;
}

static int bad(const char *path, const yaml_event_t *e, const char *what)
{
    cli_error("%s:%zu:%zu: expected %s", path, e->start_mark.line + 1, e->start_mark.column + 1, what);
    return -1;
}

/* The pairs of the top-level mapping, after its MAPPING-START. */
static int pairs(diff_budget_t *bu, yaml_parser_t *p, const char *path)
{
    for (;;) {
        yaml_event_t k, v;
        if (!next(p, &k, path)) {
            return -1;
        }
        if (k.type == YAML_MAPPING_END_EVENT) {
            yaml_event_delete(&k);
            return 0;
        }
        int rc = k.type == YAML_SCALAR_EVENT ? 0 : bad(path, &k, "a rule 'KIND NAME METRIC: LIMIT'");
        if (rc == 0 && !next(p, &v, path)) {
            rc = -1;
        } else if (rc == 0) {
            rc = v.type == YAML_SCALAR_EVENT ? 0 : bad(path, &v, "a limit (+5%, 20us, 0)");
            if (rc == 0) {
                char rule[512], where[300];
                snprintf(rule, sizeof rule, "%s: %s", (const char *)k.data.scalar.value,
                         (const char *)v.data.scalar.value);
                snprintf(where, sizeof where, "%s:%zu", path, k.start_mark.line + 1);
                rc = diff_budget_add(bu, rule, where);
            }
            yaml_event_delete(&v);
        }
        yaml_event_delete(&k);
        if (rc) {
            return rc;
        }
    }
}

int diff_budget_load(diff_budget_t *bu, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error("%s: %s", path, strerror(errno));
        return -1;
    }
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_file(&p, f);
    int rc = 0, seen = 0;
    for (;;) {
        yaml_event_t e;
        if (!next(&p, &e, path)) {
            rc = -1;
            break;
        }
        yaml_event_type_t t = e.type;
        if (t == YAML_MAPPING_START_EVENT && !seen) {
            seen = 1;
            rc = pairs(bu, &p, path);
        } else if (t != YAML_STREAM_START_EVENT && t != YAML_DOCUMENT_START_EVENT &&
                   t != YAML_DOCUMENT_END_EVENT && t != YAML_STREAM_END_EVENT) {
            rc = bad(path, &e, "one mapping of rules ('span FrameStage p99: +5%')");
        }
        yaml_event_delete(&e);
        if (rc || t == YAML_STREAM_END_EVENT) {
            break;
        }
    }
    if (rc == 0 && !seen) {
        cli_error("%s: no budget rules (expected a mapping 'KIND NAME METRIC': LIMIT)", path);
        rc = -1;
    }
    yaml_parser_delete(&p);
    fclose(f);
    return rc;
}
