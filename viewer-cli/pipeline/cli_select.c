/* SPDX-License-Identifier: Apache-2.0 */
/* Record selection: --event, --class, --where, --from, --to, --limit (see cli_select.h). */
#include <stdlib.h>
#include <string.h>

#include "cli_bytes.h"
#include "cli_select.h"
#include "cli_where_internal.h"
#include "evrec/evrec_reader_seek.h"

/* ---------------------------------------------------------------------------------------------
 * Options
 * ------------------------------------------------------------------------------------------- */

int cli_parse_bound(const char *text, cli_bound_t *out)
{
    cli_bound_t b = {1, 0, 0, text};
    const char *s = text;
    if (!s || !*s) {
        return 0;
    }
    if (*s == '#') {
        if (!cli_parse_u64(s + 1, UINT64_MAX, &b.value)) {
            return 0;
        }
        b.is_index = 1;
        *out = b;
        return 1;
    }
    uint64_t ip = 0, frac = 0;
    unsigned fdigits = 0, idigits = 0;
    for (; *s >= '0' && *s <= '9'; s++, idigits++) {
        uint64_t d = (uint64_t)(*s - '0');
        if (ip > (UINT64_MAX - d) / 10u) {
            return 0;
        }
        ip = ip * 10u + d;
    }
    if (*s == '.') {
        s++;
        for (; *s >= '0' && *s <= '9'; s++, fdigits++) {
            if (fdigits >= 18) {
                return 0;
            }
            frac = frac * 10u + (uint64_t)(*s - '0');
        }
        if (!fdigits) {
            return 0;
        }
    }
    if (!idigits && !fdigits) {
        return 0;
    }
    unsigned exp; /* ns = number * 10^exp */
    if (!strcmp(s, "s")) {
        exp = 9;
    } else if (!strcmp(s, "ms")) {
        exp = 6;
    } else if (!strcmp(s, "us")) {
        exp = 3;
    } else if (!strcmp(s, "ns")) {
        exp = 0;
    } else if (!*s && ip == 0 && frac == 0) {
        exp = 0; /* a bare 0 needs no unit */
    } else {
        return 0;
    }
    if (fdigits > exp) {
        /* finer than 1 ns: only trailing zeros are allowed */
        for (unsigned k = exp; k < fdigits; k++) {
            if (frac % 10u) {
                return 0;
            }
            frac /= 10u;
        }
        fdigits = exp;
    }
    uint64_t mul = 1, fmul = 1;
    for (unsigned k = 0; k < exp; k++) {
        mul *= 10u;
    }
    for (unsigned k = fdigits; k < exp; k++) {
        fmul *= 10u;
    }
    if (ip > UINT64_MAX / mul || ip * mul > UINT64_MAX - frac * fmul) {
        return 0;
    }
    b.value = ip * mul + frac * fmul;
    *out = b;
    return 1;
}

int cli_select_option(const cli_command_t *cmd, cli_select_spec_t *spec, int c, const char *arg)
{
    uint64_t v;
    switch (c) {
    case CLI_OPT_EVENT:
    case CLI_OPT_CLASS: {
        unsigned *n = c == CLI_OPT_EVENT ? &spec->event_lists : &spec->class_lists;
        if (*n >= CLI_SELECT_MAX_LISTS) {
            return cli_usage_error(cmd, "too many --%s options (at most %u; use a comma list)",
                                   c == CLI_OPT_EVENT ? "event" : "class", CLI_SELECT_MAX_LISTS);
        }
        (c == CLI_OPT_EVENT ? spec->events : spec->classes)[(*n)++] = arg;
        return -1;
    }
    case CLI_OPT_WHERE:
        if (spec->where) {
            return cli_usage_error(cmd, "--where given twice: combine the conditions with 'and'");
        }
        spec->where = arg;
        return -1;
    case CLI_OPT_FROM:
    case CLI_OPT_TO: {
        cli_bound_t *b = c == CLI_OPT_FROM ? &spec->from : &spec->to;
        if (!cli_parse_bound(arg, b)) {
            return cli_usage_error(cmd,
                                   "--%s expects a time with a unit (1.5s, 20ms, 250us, 800ns) or a record "
                                   "index #N, not '%s'",
                                   c == CLI_OPT_FROM ? "from" : "to", arg);
        }
        return -1;
    }
    case 'n':
        if (!cli_parse_u64(arg, UINT64_MAX, &v)) {
            return cli_usage_error(cmd, "--limit expects a record count, not '%s'", arg);
        }
        spec->limit = v;
        spec->has_limit = 1;
        return -1;
    default: return -2;
    }
}

int cli_select_active(const cli_select_spec_t *spec)
{
    return spec->event_lists || spec->class_lists || spec->where || spec->from.set || spec->to.set ||
           spec->has_limit;
}

/* ---------------------------------------------------------------------------------------------
 * Compilation against the meta-info
 * ------------------------------------------------------------------------------------------- */

/* A leaf resolved for one event type. */
enum { R_ABSENT = 0, R_CMP, R_NONAME };
typedef struct w_res {
    uint8_t state;   /* R_ABSENT: the event lacks the field (unknown); R_CMP: compare;
                        R_NONAME: the name is no value of this field's enum */
    uint8_t width;   /* 1, 2, 4 */
    uint16_t offset; /* in the packed record */
    uint64_t value;  /* the constant */
} w_res_t;

enum { V_FALSE = 0, V_TRUE = 1, V_UNKNOWN = 2 };

struct cli_select {
    uint8_t *pass; /* per event id: 0 excluded; 1 passes (no --where or constant true);
                             2 evaluate --where */
    uint32_t event_count;
    cli_where_t *where;
    w_res_t *res; /* event_count x nleaves */
    uint64_t from_index, to_index;
    uint64_t from_ns, to_ns;
    uint64_t stop_t64; /* a record later than this cannot be at or before --to */
    uint64_t from_t64; /* the first tick count whose ns is at least from_ns */
    int started;       /* cli_select_next() has fast-forwarded */
    uint64_t limit, matched;
    int has_limit;
};

/* Find a dotted path in struct `sid` of the meta-info; packed offset accumulated. Returns the
 * field or NULL; *why = 1 when a component names a struct where a leaf is needed, 2 a leaf
 * where a struct is needed. */
static uint32_t packed_size(const evrec_meta_t *m, uint16_t sid, unsigned depth)
{
    if (sid >= m->struct_count || depth > EVREC_MAX_NESTING) {
        return 0;
    }
    uint32_t size = 0;
    const evrec_struct_desc_t *st = &m->structs[sid];
    for (uint32_t i = 0; i < st->field_count; i++) {
        const evrec_field_desc_t *f = &st->fields[i];
        size += f->kind == EVREC_KIND_STRUCT ? packed_size(m, f->ref, depth + 1)
                : (f->kind == EVREC_KIND_UINT8 || f->kind == EVREC_KIND_ENUM_UINT8)   ? 1
                : (f->kind == EVREC_KIND_UINT16 || f->kind == EVREC_KIND_ENUM_UINT16) ? 2
                                                                                      : 4;
    }
    return size;
}

static const evrec_field_desc_t *find_path(const evrec_meta_t *m, uint16_t sid, const char *path, uint32_t *offset,
                                           int *why)
{
    uint32_t off = 0;
    *why = 0;
    for (unsigned depth = 0; depth <= EVREC_MAX_NESTING; depth++) {
        if (sid >= m->struct_count) {
            return NULL;
        }
        const char *dot = strchr(path, '.');
        size_t n = dot ? (size_t)(dot - path) : strlen(path);
        const evrec_struct_desc_t *st = &m->structs[sid];
        const evrec_field_desc_t *hit = NULL;
        uint32_t at = off;
        for (uint32_t i = 0; i < st->field_count; i++) {
            const evrec_field_desc_t *f = &st->fields[i];
            if (!strncmp(f->name, path, n) && f->name[n] == 0) {
                hit = f;
                break;
            }
            at += f->kind == EVREC_KIND_STRUCT ? packed_size(m, f->ref, depth + 1)
                  : (f->kind == EVREC_KIND_UINT8 || f->kind == EVREC_KIND_ENUM_UINT8)   ? 1
                  : (f->kind == EVREC_KIND_UINT16 || f->kind == EVREC_KIND_ENUM_UINT16) ? 2
                                                                                        : 4;
        }
        if (!hit) {
            return NULL;
        }
        if (!dot) {
            if (hit->kind == EVREC_KIND_STRUCT) {
                *why = 1;
                return NULL;
            }
            *offset = at;
            return hit;
        }
        if (hit->kind != EVREC_KIND_STRUCT) {
            *why = 2;
            return NULL;
        }
        sid = hit->ref;
        off = at;
        path = dot + 1;
    }
    return NULL;
}

/* Value of an enum value name, static or named at run time. 1 when found. */
static int enum_lookup(const evrec_meta_t *m, uint16_t eid, const char *name, uint64_t *value)
{
    if (eid >= m->enum_count) {
        return 0;
    }
    const evrec_enum_desc_t *e = &m->enums[eid];
    for (uint32_t i = 0; i < e->value_count; i++) {
        if (!strcmp(e->values[i].name, name)) {
            *value = e->values[i].value;
            return 1;
        }
    }
    const evrec_runtime_enum_t *rt = e->runtime;
    if (rt && rt->names) {
        size_t top = (size_t)rt->next;
        for (uint32_t v = rt->base; v < top && v < rt->lim; v++) {
            const char *nm = rt->names[v - rt->base];
            if (nm && !strcmp(nm, name)) {
                *value = v;
                return 1;
            }
        }
    }
    return 0;
}

/* Append to a bounded list message: ", name" (the first without the comma); "..." when full. */
static void list_add(char *buf, size_t size, const char *name)
{
    size_t len = strlen(buf);
    if (len + strlen(name) + 8 >= size) {
        if (len + 5 < size && (len < 3 || strcmp(buf + len - 3, "..."))) {
            strcat(buf, ", ...");
        }
        return;
    }
    if (len) {
        strcat(buf, ", ");
    }
    int plain = is_ident_start(name[0]);
    for (const char *c = name; *c && plain; c++) {
        plain = is_ident_char(*c);
    }
    if (!plain && !strchr(name, '"')) {
        strcat(buf, "\"");
        strcat(buf, name);
        strcat(buf, "\"");
        return;
    }
    strcat(buf, name);
}

/* Split a comma list and mark the events whose name (or class's name) is listed. */
static int mark_names(const cli_command_t *cmd, evrec_reader_t *r, const char *const *lists, unsigned nlists,
                      int by_class, uint8_t *mark)
{
    const evrec_meta_t *m = evrec_reader_meta(r);
    for (unsigned li = 0; li < nlists; li++) {
        const char *s = lists[li];
        for (;;) {
            const char *comma = strchr(s, ',');
            size_t n = comma ? (size_t)(comma - s) : strlen(s);
            int found = 0;
            for (uint32_t i = 0; i < m->event_count; i++) {
                uint16_t who = by_class ? m->events[i].class_id : (uint16_t)i;
                const char *nm = evrec_reader_event_name(r, who);
                if (nm && n && !strncmp(nm, s, n) && nm[n] == 0) {
                    mark[i] = 1;
                    found = 1;
                }
            }
            if (!found) {
                char have[600] = "";
                for (uint32_t i = 0; i < m->event_count; i++) {
                    if (by_class) {
                        int first = 1; /* list each class once */
                        for (uint32_t k = 0; k < i; k++) {
                            first &= m->events[k].class_id != m->events[i].class_id;
                        }
                        const char *nm = evrec_reader_event_name(r, m->events[i].class_id);
                        if (first && nm) {
                            list_add(have, sizeof have, nm);
                        }
                    } else {
                        list_add(have, sizeof have, evrec_reader_event_name(r, (uint16_t)i));
                    }
                }
                fprintf(stderr, "evrec: %s: --%s: no %s '%.*s' in this file; it has: %s\n", cmd->name,
                        by_class ? "class" : "event", by_class ? "class" : "event type", (int)n, s, have);
                return 0;
            }
            if (!comma) {
                break;
            }
            s = comma + 1;
        }
    }
    return 1;
}

/* Evaluate the program for one record of an event whose leaves are `res`. */
static inline int where_eval(const cli_where_t *w, const w_res_t *res, const uint8_t *data)
{
    uint8_t st[WHERE_MAX_NODES];
    unsigned sp = 0;
    for (unsigned i = 0; i < w->ncode; i++) {
        const w_instr_t *in = &w->code[i];
        switch (in->op) {
        case W_CMP: {
            const w_res_t *x = &res[in->leaf];
            uint8_t op = w->leaves[in->leaf].op;
            uint8_t v;
            if (x->state == R_CMP) {
                const uint8_t *p = data + x->offset;
                uint64_t f = cli_be_field(p, x->width);
                switch (op) {
                case OP_EQ: v = f == x->value; break;
                case OP_NE: v = f != x->value; break;
                case OP_LT: v = f < x->value; break;
                case OP_LE: v = f <= x->value; break;
                case OP_GT: v = f > x->value; break;
                default: v = f >= x->value; break;
                }
            } else if (x->state == R_NONAME) {
                v = op == OP_EQ ? V_FALSE : op == OP_NE ? V_TRUE : V_UNKNOWN;
            } else {
                v = V_UNKNOWN;
            }
            st[sp++] = v;
            break;
        }
        case W_NOT: st[sp - 1] = st[sp - 1] == V_UNKNOWN ? V_UNKNOWN : (uint8_t)!st[sp - 1]; break;
        case W_AND: {
            uint8_t b = st[--sp], a = st[sp - 1];
            st[sp - 1] = (a == V_FALSE || b == V_FALSE) ? V_FALSE
                         : (a == V_TRUE && b == V_TRUE) ? V_TRUE
                                                        : V_UNKNOWN;
            break;
        }
        default: {
            uint8_t b = st[--sp], a = st[sp - 1];
            st[sp - 1] = (a == V_TRUE || b == V_TRUE)     ? V_TRUE
                         : (a == V_FALSE && b == V_FALSE) ? V_FALSE
                                                          : V_UNKNOWN;
            break;
        }
        }
    }
    return st[0] == V_TRUE;
}

/* Resolve every leaf for every event that passes the name filters. */
/* What resolving one comparison's field over the selected event types found. */
typedef struct leaf_facts {
    unsigned present, enum_fields, name_found, shape; /* shape: find_path()'s why bits */
    uint16_t first_enum;
    const char *first_event;
} leaf_facts_t;

/* Resolve comparison k in every selected event type (s->res), collecting what was found. */
static void resolve_leaf(evrec_reader_t *r, cli_select_t *s, unsigned k, leaf_facts_t *lf)
{
    const evrec_meta_t *m = evrec_reader_meta(r);
    const cli_where_t *w = s->where;
    const w_leaf_t *l = &w->leaves[k];
    *lf = (leaf_facts_t){0, 0, 0, 0, 0xFFFF, NULL};
    for (uint32_t e = 0; e < s->event_count; e++) {
        if (!s->pass[e]) {
            continue;
        }
        int why;
        uint32_t off = 0;
        const evrec_field_desc_t *f = find_path(m, m->events[e].struct_id, l->path, &off, &why);
        lf->shape |= (unsigned)why;
        if (!f) {
            continue;
        }
        uint32_t width = evrec_kind_width(f->kind) ? evrec_kind_width(f->kind) : 4u;
        if (off + width > evrec_reader_event_size(r, (uint16_t)e)) {
            continue; /* cannot happen with a checked meta-info; absent rather than out of bounds */
        }
        lf->present++;
        w_res_t *x = &s->res[(size_t)e * w->nleaves + k];
        x->state = R_CMP;
        x->width = (uint8_t)width;
        x->offset = (uint16_t)off;
        x->value = l->number;
        lf->first_event = lf->first_event ? lf->first_event : evrec_reader_event_name(r, (uint16_t)e);
        if (l->is_name) {
            int is_enum = f->kind >= EVREC_KIND_ENUM_UINT8 && f->kind <= EVREC_KIND_ENUM_UINT32;
            if (!is_enum) {
                x->state = R_NONAME;
                continue;
            }
            lf->enum_fields++;
            lf->first_enum = lf->first_enum == 0xFFFF ? f->ref : lf->first_enum;
            if (enum_lookup(m, f->ref, l->name, &x->value)) {
                lf->name_found++;
            } else {
                x->state = R_NONAME;
            }
        }
    }
}

/* The top-level fields of the selected event types, once each, into have (a list). */
static void selected_fields(const evrec_meta_t *m, const cli_select_t *s, char *have, size_t size)
{
    for (uint32_t e = 0; e < s->event_count; e++) {
        const evrec_struct_desc_t *st = &m->structs[m->events[e].struct_id];
        for (uint32_t i = 2; s->pass[e] && i < st->field_count; i++) {
            int seen = 0;
            for (uint32_t e2 = 0; e2 <= e && !seen; e2++) {
                const evrec_struct_desc_t *st2 = &m->structs[m->events[e2].struct_id];
                for (uint32_t i2 = 2; s->pass[e2] && i2 < st2->field_count && !(e2 == e && i2 >= i); i2++) {
                    seen |= !strcmp(st2->fields[i2].name, st->fields[i].name);
                }
            }
            if (!seen) {
                list_add(have, size, st->fields[i].name);
            }
        }
    }
}

/* No selected event type has the field: say why. */
static void no_field(const evrec_meta_t *m, const cli_select_t *s, const w_leaf_t *l, unsigned shape,
                     cli_where_error_t *err)
{
    char *msg = err->message;
    size_t msgsz = sizeof err->message;
    err->column = l->path_col;
    if (shape & 1) {
        snprintf(msg, msgsz, "'%s' is a struct: compare one of its members ('%s.<member>')", l->path, l->path);
    } else if (shape & 2) {
        snprintf(msg, msgsz, "'%s': a component before the last is not a struct", l->path);
    } else {
        char have[400] = "";
        selected_fields(m, s, have, sizeof have);
        snprintf(msg, msgsz, "no %sevent type has a field '%s'; fields: %s (and time, id)",
                 s->where && (memchr(s->pass, 0, s->event_count)) ? "selected " : "", l->path,
                 *have ? have : "none");
    }
}

/* An enum value name no field's enum has: say which names there are. */
static void no_name(const evrec_meta_t *m, const w_leaf_t *l, const leaf_facts_t *lf, cli_where_error_t *err)
{
    err->column = l->value_col;
    if (!lf->enum_fields) {
        snprintf(err->message, sizeof err->message,
                 "field '%s' is a plain number (no enum): compare it with a number, not '%s'", l->path, l->name);
        return;
    }
    char have[300] = "";
    const evrec_enum_desc_t *en = &m->enums[lf->first_enum];
    for (uint32_t i = 0; i < en->value_count; i++) {
        list_add(have, sizeof have, en->values[i].name);
    }
    if (en->runtime && en->runtime->names) {
        for (uint32_t v = en->runtime->base; v < en->runtime->next && v < en->runtime->lim; v++) {
            if (en->runtime->names[v - en->runtime->base]) {
                list_add(have, sizeof have, en->runtime->names[v - en->runtime->base]);
            }
        }
    }
    snprintf(err->message, sizeof err->message, "'%s' is not a value of enum %s (field '%s' of %s); values: %s",
             l->name, en->name, l->path, lf->first_event, *have ? have : "none");
}

static int compile_where(const cli_command_t *cmd, const char *expr, evrec_reader_t *r, cli_select_t *s)
{
    const evrec_meta_t *m = evrec_reader_meta(r);
    cli_where_t *w = s->where;
    size_t n = (size_t)s->event_count * w->nleaves;
    s->res = calloc(n ? n : 1, sizeof *s->res);
    if (!s->res) {
        cli_error("out of memory");
        return CLI_BAD_INPUT;
    }
    cli_where_error_t err = {0, ""};
    for (unsigned k = 0; k < w->nleaves; k++) {
        const w_leaf_t *l = &w->leaves[k];
        leaf_facts_t lf;
        resolve_leaf(r, s, k, &lf);
        if (!lf.present || (l->is_name && !lf.name_found)) {
            if (!lf.present) {
                no_field(m, s, l, lf.shape, &err);
            } else {
                no_name(m, l, &lf, &err);
            }
            cli_where_report(cmd, expr, &err);
            return CLI_USAGE;
        }
    }
    /* Events with none of the fields give the same answer for every record: decide it now. */
    for (uint32_t e = 0; e < s->event_count; e++) {
        if (!s->pass[e]) {
            continue;
        }
        const w_res_t *res = &s->res[(size_t)e * w->nleaves];
        int any = 0;
        for (unsigned k = 0; k < w->nleaves; k++) {
            any |= res[k].state == R_CMP;
        }
        s->pass[e] = any ? 2 : (uint8_t)where_eval(w, res, NULL);
    }
    return -1;
}

int cli_select_compile(const cli_command_t *cmd, const cli_select_spec_t *spec, evrec_reader_t *r,
                       cli_select_t **out)
{
    *out = NULL;
    const evrec_meta_t *m = evrec_reader_meta(r);
    cli_select_t *s = calloc(1, sizeof *s);
    if (!s || !(s->pass = calloc(m->event_count ? m->event_count : 1, 1))) {
        free(s);
        cli_error("out of memory");
        return CLI_BAD_INPUT;
    }
    s->event_count = m->event_count;
    s->limit = spec->limit;
    s->has_limit = spec->has_limit;
    s->to_index = s->to_ns = s->stop_t64 = UINT64_MAX;
    int rc = -1;
    uint8_t *mark = calloc(m->event_count ? m->event_count : 1, 1);
    if (!mark) {
        cli_error("out of memory");
        rc = CLI_BAD_INPUT;
        goto out;
    }
    memset(s->pass, 1, m->event_count);
    if (spec->event_lists) {
        if (!mark_names(cmd, r, spec->events, spec->event_lists, 0, mark)) {
            rc = CLI_USAGE;
            goto out;
        }
        for (uint32_t i = 0; i < m->event_count; i++) {
            s->pass[i] &= mark[i];
        }
    }
    if (spec->class_lists) {
        memset(mark, 0, m->event_count);
        if (!mark_names(cmd, r, spec->classes, spec->class_lists, 1, mark)) {
            rc = CLI_USAGE;
            goto out;
        }
        for (uint32_t i = 0; i < m->event_count; i++) {
            s->pass[i] &= mark[i];
        }
    }
    if (spec->where) {
        cli_where_error_t err;
        if (!cli_where_parse(spec->where, &s->where, &err)) {
            cli_where_report(cmd, spec->where, &err);
            rc = CLI_USAGE;
            goto out;
        }
        if ((rc = compile_where(cmd, spec->where, r, s)) >= 0) {
            goto out;
        }
    }
    const cli_bound_t *b[2] = {&spec->from, &spec->to};
    uint64_t freq = 0;
    for (int i = 0; i < 2; i++) {
        if (!b[i]->set) {
            continue;
        }
        if (b[i]->is_index) {
            *(i ? &s->to_index : &s->from_index) = b[i]->value;
            continue;
        }
        if (!freq && !(freq = evrec_reader_time_freq(r, NULL))) {
            cli_error("%s: --%s %s: the recording's clock is unknown (time_freq 0, fewer than 2 ticks): "
                      "give --time-freq or --tick-hz, or a record index #N",
                      cmd->name, i ? "to" : "from", b[i]->text);
            rc = CLI_USAGE;
            goto out;
        }
        if (i == 0) {
            s->from_ns = b[i]->value;
            /* ns(t) = floor(t * 10^9 / freq) >= from_ns  <=>  t >= ceil(from_ns * freq / 10^9) */
            unsigned __int128 t = ((unsigned __int128)b[i]->value * freq + 999999999u) / 1000000000u;
            s->from_t64 = t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
        } else {
            s->to_ns = b[i]->value;
            /* Restored time may step back by less than 2^30 ticks (FORMAT.md section 5): once a
             * record is that far past --to, reading on cannot find another one at or before it. */
            unsigned __int128 t = ((unsigned __int128)b[i]->value + 1u) * freq / 1000000000u + 1u;
            t += (unsigned __int128)1u << 30;
            s->stop_t64 = t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
        }
    }
out:
    free(mark);
    if (rc >= 0) {
        cli_select_free(s);
        return rc;
    }
    *out = s;
    return -1;
}

void cli_select_free(cli_select_t *s)
{
    if (!s) {
        return;
    }
    cli_where_free(s->where);
    free(s->res);
    free(s->pass);
    free(s);
}

int cli_select_check(cli_select_t *s, const evrec_record_t *rec)
{
    if (rec->index > s->to_index || rec->t64 > s->stop_t64) {
        return CLI_SEL_STOP;
    }
    if (rec->index < s->from_index || rec->ns < s->from_ns || rec->ns > s->to_ns) {
        return CLI_SEL_NO;
    }
    uint8_t p = rec->id < s->event_count ? s->pass[rec->id] : 0;
    if (!p || (p == 2 && !where_eval(s->where, &s->res[(size_t)rec->id * s->where->nleaves], rec->data))) {
        return CLI_SEL_NO;
    }
    if (s->has_limit && s->matched >= s->limit) {
        return CLI_SEL_STOP;
    }
    s->matched++;
    return CLI_SEL_YES;
}

evrec_status cli_select_next(cli_select_t *s, evrec_reader_t *r, evrec_record_t *rec)
{
    if (s->started) {
        return evrec_reader_next(r, rec);
    }
    s->started = 1;
    return evrec_reader_next_at(r, rec, s->from_index, s->from_t64);
}

int cli_select_full(const cli_select_t *s)
{
    return s->has_limit && s->matched >= s->limit;
}

evrec_status cli_select_source_next(void *ctx, evrec_record_t *rec)
{
    cli_select_source_t *s = ctx;
    for (;;) {
        if (cli_select_full(s->sel)) {
            return EVREC_E_END;
        }
        evrec_status st = cli_select_next(s->sel, s->r, rec);
        if (st != EVREC_OK) {
            return st;
        }
        int v = cli_select_check(s->sel, rec);
        if (v == CLI_SEL_YES) {
            return EVREC_OK;
        }
        if (v == CLI_SEL_STOP) {
            return EVREC_E_END;
        }
    }
}
