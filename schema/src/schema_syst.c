/* SPDX-License-Identifier: Apache-2.0 */
/* The `syst:` block of a schema (schema/SCHEMA.md "MIPI SyS-T"): the SyS-T origin (GUID, or
 * module and unit), the default severity and per-event / per-class severities. Not part of the
 * meta-info, the file or the schema hash: evrec-gen emits it as constants and a severity table,
 * and uses it for --syst-collateral (format/syst/SYST.md). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "evrec/evrec_syst.h"
#include "load_internal.h"

static const char *const sev_names[8] = {"max", "fatal", "error", "warning", "info", "user1", "user2", "debug"};

static int severity_of(gen_ctx_t *c, const yaml_node_t *n, uint8_t *out)
{
    const char *v = gen_ld_scalar(c, n, "a severity");
    if (!v) {
        return 0;
    }
    for (unsigned i = 0; i < 8u; i++) {
        if (strcasecmp(v, sev_names[i]) == 0) {
            *out = (uint8_t)i;
            return 1;
        }
    }
    gen_error(c->s, gen_ld_pos(c, n),
              "severity '%s' is not one of fatal, error, warning, info, user1, user2, debug, max", v);
    return 0;
}

static int small_uint(gen_ctx_t *c, const yaml_node_t *n, const char *what, uint64_t max, uint64_t *out)
{
    const char *v = gen_ld_scalar(c, n, what);
    if (!v) {
        return 0;
    }
    if (gen_parse_uint_text(v, out) != 1 || *out > max) {
        gen_error(c->s, gen_ld_pos(c, n), "%s '%s' is not an integer from 0 to %llu", what, v,
                  (unsigned long long)max);
        return 0;
    }
    return 1;
}

/* `events:` / `classes:`: a mapping of event names to severities. */
static void overrides(gen_ctx_t *c, const yaml_node_t *n, int is_class)
{
    gen_syst_t *y = &c->s->syst;
    if (n->type != YAML_MAPPING_NODE) {
        gen_error(c->s, gen_ld_pos(c, n), "syst %s: expected a mapping of event names to severities",
                  is_class ? "classes" : "events");
        return;
    }
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = gen_ld_node(c, p->key), *v = gen_ld_node(c, p->value);
        const char *name = k ? gen_ld_scalar(c, k, "an event name") : NULL;
        uint8_t sev;
        if (!name || !v || !severity_of(c, v, &sev)) {
            continue;
        }
        gen_syst_sev_t *o = GEN_PUSH(y->overrides, y->override_count, y->override_cap);
        o->name = gen_xstrdup(name);
        o->severity = sev;
        o->is_class = is_class;
        o->pos = gen_ld_pos(c, k);
    }
}

void gen_syst_parse(gen_ctx_t *c, const yaml_node_t *n)
{
    gen_syst_t *y = &c->s->syst;
    gen_key_t keys[] = {{"guid", 0, 0},     {"module", 0, 0}, {"unit", 0, 0},
                        {"severity", 0, 0}, {"events", 0, 0}, {"classes", 0, 0}};
    if (!gen_ld_map(c, n, "syst", keys, 6)) {
        return;
    }
    y->present = 1;
    y->severity = EVREC_SYST_SEV_INFO;
    uint64_t v;
    if (keys[0].value) {
        const char *g = gen_ld_scalar(c, keys[0].value, "syst guid");
        if (g && evrec_syst_parse_guid(g, y->guid) != EVREC_OK) {
            gen_error(c->s, gen_ld_pos(c, keys[0].value),
                      "syst guid '%s' is not of the form {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}", g);
        }
        y->use_guid = 1;
        if (keys[1].value) {
            gen_error(c->s, gen_ld_pos(c, keys[1].key),
                      "syst module is the origin without a GUID: give guid or module, not both");
        }
    }
    if (keys[1].value && small_uint(c, keys[1].value, "syst module", 127, &v)) {
        y->module = (uint8_t)v;
    }
    if (keys[2].value &&
        small_uint(c, keys[2].value, y->use_guid ? "syst unit (with a GUID)" : "syst unit (without a GUID)",
                   y->use_guid ? 2047u : 15u, &v)) {
        y->unit = (uint16_t)v;
    }
    if (keys[3].value) {
        severity_of(c, keys[3].value, &y->severity);
    }
    if (keys[4].value) {
        overrides(c, keys[4].value, 0);
    }
    if (keys[5].value) {
        overrides(c, keys[5].value, 1);
    }
}

void gen_syst_resolve(gen_schema_t *s)
{
    gen_syst_t *y = &s->syst;
    if (!y->present) {
        return;
    }
    y->event_severity = gen_xmalloc(s->event_count ? s->event_count : 1u);
    memset(y->event_severity, EVREC_SYST_SEV_DEFAULT, s->event_count);
    /* classes first, then events: an event's own entry wins over its class's */
    for (int pass = 1; pass >= 0; pass--) {
        for (size_t i = 0; i < y->override_count; i++) {
            const gen_syst_sev_t *o = &y->overrides[i];
            if (o->is_class != pass) {
                continue;
            }
            size_t id = s->event_count;
            for (size_t k = 0; k < s->struct_count; k++) {
                if (s->structs[k].event && strcmp(s->structs[k].name, o->name) == 0) {
                    id = s->structs[k].event_id;
                }
            }
            if (id == s->event_count) {
                gen_error(s, o->pos, "syst %s: unknown event '%s'", o->is_class ? "classes" : "events", o->name);
                continue;
            }
            for (size_t e = 0; e < s->event_count; e++) {
                if (o->is_class ? s->events[e].class_id == s->events[id].class_id : e == id) {
                    y->event_severity[e] = o->severity;
                }
            }
        }
    }
}

void gen_syst_free(gen_syst_t *y)
{
    for (size_t i = 0; i < y->override_count; i++) {
        free(y->overrides[i].name);
    }
    free(y->overrides);
    free(y->event_severity);
    memset(y, 0, sizeof *y);
}
