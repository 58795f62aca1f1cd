/* SPDX-License-Identifier: Apache-2.0 */
/* Record selection of the viewer (viewer-cli/pipeline/cli_select.c), in-process:
 * - the --where grammar: good expressions parse, bad ones fail at the expected column;
 * - the --from/--to parser: every unit, record indices, bad texts;
 * - compiled selections on a real recording (tests/reader fixtures: nested structs, enums of
 *   three widths, run-time enum names) against an independent evaluation of every record through
 *   the reader's own field walk: every operator, enum names, struct members, and, or, not,
 *   precedence, records that lack a field, --event, --class, --limit, #N windows. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cli_select.h"
#include "reader_fixtures.h"

static const cli_command_t cmd = {"test", "", "", NULL};

/* ---- grammar ---- */

static void parses(const char *expr)
{
    cli_where_t *w = NULL;
    cli_where_error_t e;
    int ok = cli_where_parse(expr, &w, &e);
    cr_assert(ok, "'%s' should parse; got column %u: %s", expr, e.column, e.message);
    cr_assert_not_null(w);
    cli_where_free(w);
}

static void fails(const char *expr, unsigned column, const char *text)
{
    cli_where_t *w = NULL;
    cli_where_error_t e;
    int ok = cli_where_parse(expr, &w, &e);
    cr_assert(!ok, "'%s' should not parse", expr);
    cr_assert_null(w);
    cr_assert_eq(e.column, column, "'%s': column %u, expected %u (%s)", expr, e.column, column, e.message);
    cr_assert(strstr(e.message, text) != NULL, "'%s': message <%s> lacks <%s>", expr, e.message, text);
}

Test(where_grammar, good)
{
    parses("a==1");
    parses("a == 1");
    parses("  a\t!=\n0x1F  ");
    parses("a < 1 or a <= 2 or a > 3 or a >= 4");
    parses("a == 1 and b != 2 or not (c < 3)");
    parses("!(a==1) && b>=0x10 || c<=5");
    parses("frame.number == 7");
    parses("in.q.x == Name");
    parses("obj == \"Task B\"");
    parses("not not a == 1");
    parses("((((a == 1))))");
    parses("(a == 1 or b == 2) and (c == 3 or not d == 4)");
    parses("a == 18446744073709551615");
    parses("a == 0xFFFFFFFFFFFFFFFF");
    parses("_x9 == 0");
}

Test(where_grammar, errors_at_their_column)
{
    fails("", 1, "empty expression");
    fails("   ", 1, "empty expression");
    fails("a", 2, "expected an operator");
    fails("a 1", 3, "expected an operator");
    fails("a ==", 5, "expected a number or an enum value name after '=='");
    fails("a == 1 and", 11, "expected a field name");
    fails("a == 1 or or", 11, "expected a field name");
    fails("(a == 1", 1, "this '(' is not closed");
    fails("a == 1)", 7, "without a matching '('");
    fails("a == 1 b == 2", 8, "expected 'and', 'or' or the end");
    fails("(a == 1 b == 2)", 9, "expected ')', 'and' or 'or'");
    fails("a = 1", 3, "write '=='");
    fails("a == 12x", 6, "is not a number");
    fails("a == 1.5", 6, "is not a number");
    fails("a == 0x", 6, "is not a number");
    fails("a == 99999999999999999999", 6, "is not a number");
    fails("a == 0x1FFFFFFFFFFFFFFFF", 6, "is not a number");
    fails("a == $", 6, "unexpected character '$'");
    fails("a == \"Red", 6, "unterminated");
    fails("== 1", 1, "expected a field name");
    fails("a == b.c", 6, "found the path 'b.c'");
    fails("a == (1)", 6, "found '('");
    fails("not", 4, "expected a field name");
    fails("a == 1 & b == 2", 8, "unexpected character '&'");
    fails("a == 1 | b == 2", 8, "unexpected character '|'");
    fails("1 == a", 1, "expected a field name");
    fails("a.b. == 1", 4, "unexpected character '.'");
    char deep[200];
    memset(deep, '(', 70);
    strcpy(deep + 70, "a == 1");
    fails(deep, 65, "nested too deeply");
}

/* ---- --from / --to ---- */

static uint64_t bound(const char *text, int is_index)
{
    cli_bound_t b;
    cr_assert(cli_parse_bound(text, &b), "'%s' should parse", text);
    cr_assert_eq(b.set, 1);
    cr_assert_eq(b.is_index, is_index, "'%s'", text);
    return b.value;
}

Test(bounds, units_and_indices)
{
    cr_assert_eq(bound("2s", 0), 2000000000u);
    cr_assert_eq(bound("1.5s", 0), 1500000000u);
    cr_assert_eq(bound("0.000000001s", 0), 1u);
    cr_assert_eq(bound("1.5ms", 0), 1500000u);
    cr_assert_eq(bound("20ms", 0), 20000000u);
    cr_assert_eq(bound("250us", 0), 250000u);
    cr_assert_eq(bound("0.5us", 0), 500u);
    cr_assert_eq(bound("800ns", 0), 800u);
    cr_assert_eq(bound("800.000ns", 0), 800u);
    cr_assert_eq(bound(".5ms", 0), 500000u);
    cr_assert_eq(bound("0", 0), 0u);
    cr_assert_eq(bound("#0", 1), 0u);
    cr_assert_eq(bound("#123", 1), 123u);
    cr_assert_eq(bound("18446744073709551615ns", 0), UINT64_MAX);
    static const char *const bad[] = {"",
                                      "1.5",
                                      "12",
                                      "ms",
                                      "1.5 ms",
                                      "-1ms",
                                      "1.ms",
                                      "1.5xs",
                                      "0.0000000001s",
                                      "1.2345ns",
                                      "#",
                                      "#-1",
                                      "#1x",
                                      "# 1",
                                      "18446744073709551616ns",
                                      "20000000000s",
                                      "1e3ms"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cli_bound_t b;
        cr_assert(!cli_parse_bound(bad[i], &b), "'%s' should be refused", bad[i]);
    }
}

/* ---- selections on a recording ---- */

/* The fields of one record, as the reader's field walk gives them. */
typedef struct fv {
    uint16_t id;
    uint32_t a, b, c, color, level, type, in_p, in_q_x, in_q_y, in_color, obj, v, ctl;
} fv_t;

static int collect(void *ctx, const evrec_field_view_t *f)
{
    fv_t *x = ctx;
    static const struct {
        const char *path;
        size_t off;
    } map[] = {
        {"a", offsetof(fv_t, a)},
        {"b", offsetof(fv_t, b)},
        {"c", offsetof(fv_t, c)},
        {"color", offsetof(fv_t, color)},
        {"level", offsetof(fv_t, level)},
        {"in.p", offsetof(fv_t, in_p)},
        {"in.q.x", offsetof(fv_t, in_q_x)},
        {"in.q.y", offsetof(fv_t, in_q_y)},
        {"in.color", offsetof(fv_t, in_color)},
        {"obj", offsetof(fv_t, obj)},
        {"v", offsetof(fv_t, v)},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        if (!strcmp(f->path, map[i].path)) {
            *(uint32_t *)((char *)x + map[i].off) = f->value;
        }
    }
    if (!strcmp(f->path, "type")) {
        *(x->id == FX_EVENT_CONTROL ? &x->ctl : &x->type) = f->value;
    }
    return 0;
}

static fx_buf_t file;
static evrec_record_t *recs;
static fv_t *vals;
static size_t nrecs;

static void setup(void)
{
    memset(&file, 0, sizeof file);
    fx_record(600, 0, &file);
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, file.p, file.len, NULL), EVREC_OK);
    evrec_record_t rec;
    size_t cap = 0;
    nrecs = 0;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        if (nrecs == cap) {
            cap = cap ? 2 * cap : 1024;
            recs = realloc(recs, cap * sizeof *recs);
            vals = realloc(vals, cap * sizeof *vals);
        }
        recs[nrecs] = rec;
        memset(&vals[nrecs], 0, sizeof vals[nrecs]);
        vals[nrecs].id = rec.id;
        evrec_reader_visit_fields(r, &rec, collect, &vals[nrecs]);
        nrecs++;
    }
    cr_assert_eq(evrec_reader_error(r)->status, EVREC_OK);
    evrec_reader_close(r);
    cr_assert_gt(nrecs, 600u);
}

static void teardown(void)
{
    free(recs);
    free(vals);
    recs = NULL;
    vals = NULL;
    fx_buf_free(&file);
}

typedef int (*pred_t)(const fv_t *x);

/* Run a selection over a fresh reader of the file; expect exactly the records of `pred`. */
static void expect_sel(const cli_select_spec_t *spec, pred_t pred, const char *what)
{
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, file.p, file.len, NULL), EVREC_OK);
    cli_select_t *s;
    cr_assert_eq(cli_select_compile(&cmd, spec, r, &s), -1, "%s: compile failed", what);
    evrec_record_t rec;
    size_t i = 0, hits = 0;
    int stopped = 0;
    while (!cli_select_full(s) && evrec_reader_next(r, &rec) == EVREC_OK) {
        cr_assert_lt(i, nrecs);
        int v = cli_select_check(s, &rec);
        if (v == CLI_SEL_STOP) {
            stopped = 1;
            break;
        }
        cr_assert_eq(v == CLI_SEL_YES, pred(&vals[i]) != 0, "%s: record #%zu (id %u): selected %d", what, i,
                     (unsigned)vals[i].id, v);
        hits += v == CLI_SEL_YES;
        i++;
    }
    if (stopped) { /* nothing after the stop may be wanted */
        for (; i < nrecs; i++) {
            cr_assert(!pred(&vals[i]), "%s: stopped before record #%zu, which is selected", what, i);
        }
    }
    cr_assert_gt(hits, 0u, "%s: selects nothing: a weak test", what);
    cli_select_free(s);
    evrec_reader_close(r);
}

static void expect_where(const char *expr, pred_t pred)
{
    cli_select_spec_t spec;
    memset(&spec, 0, sizeof spec);
    spec.where = expr;
    expect_sel(&spec, pred, expr);
}

#define ALL(x) ((x)->id == FX_EVENT_ALL)
#define SIMPLE(x) ((x)->id == FX_EVENT_SIMPLE)
static int p_eq(const fv_t *x)
{
    return ALL(x) && x->a == 14;
}
static int p_ne(const fv_t *x)
{
    return ALL(x) && x->a != 14;
}
static int p_lt(const fv_t *x)
{
    return ALL(x) && x->b < 1000;
}
static int p_le(const fv_t *x)
{
    return ALL(x) && x->b <= 992;
}
static int p_gt(const fv_t *x)
{
    return ALL(x) && x->c > 3000000000u;
}
static int p_ge(const fv_t *x)
{
    return ALL(x) && x->c >= 0x80000000u;
}
static int p_color(const fv_t *x)
{
    return ALL(x) && x->color == 2;
}
static int p_level(const fv_t *x)
{
    return ALL(x) && x->level == 1000;
}
static int p_level_ge(const fv_t *x)
{
    return ALL(x) && x->level >= 1000;
}
static int p_type(const fv_t *x)
{
    return ALL(x) && x->type == 0x80000000u;
}
static int p_member(const fv_t *x)
{
    return ALL(x) && x->in_q_x <= 3;
}
static int p_member_enum(const fv_t *x)
{
    return ALL(x) && x->in_color == 1;
}
static int p_member_y(const fv_t *x)
{
    return ALL(x) && x->in_q_y > 0xFFFFFF00u;
}
static int p_rt(const fv_t *x)
{
    return ALL(x) && x->obj == FX_OBJ_BASE;
}
static int p_rt_quoted(const fv_t *x)
{
    return ALL(x) && x->obj == FX_OBJ_BASE + 1;
}
static int p_static_in_rt_enum(const fv_t *x)
{
    return ALL(x) && x->obj == 1;
}
static int p_not(const fv_t *x)
{
    return ALL(x) && !(x->a == 14);
}
static int p_or_missing(const fv_t *x)
{
    return (ALL(x) && x->a == 14) || (SIMPLE(x) && x->v < 0xA5001000u);
}
static int p_prec(const fv_t *x)
{
    return ALL(x) && (x->color == 0 || (x->color == 1 && x->in_q_x > 100));
}
static int p_paren(const fv_t *x)
{
    return ALL(x) && (x->color == 0 || x->color == 1) && x->in_q_x > 100;
}
static int p_time_id(const fv_t *x)
{
    return x->id == FX_EVENT_SIMPLE;
}
static int p_ctl(const fv_t *x)
{
    return x->id == FX_EVENT_CONTROL && x->ctl == EVREC_CONTROL_TICK;
}
static int p_name_not_in_some(const fv_t *x)
{
    return ALL(x) && x->color != 2 && x->in_color != 2;
}

TestSuite(select, .init = setup, .fini = teardown);

Test(select, every_operator)
{
    expect_where("a == 14", p_eq);
    expect_where("a != 14", p_ne);
    expect_where("b < 1000", p_lt);
    expect_where("b <= 992", p_le);
    expect_where("c > 3000000000", p_gt);
    expect_where("c >= 0x80000000", p_ge);
    expect_where("id == 2", p_time_id);
}

Test(select, enum_names)
{
    expect_where("color == Blue", p_color);     /* enum_uint8 */
    expect_where("level == Info", p_level);     /* enum_uint16 */
    expect_where("level >= Info", p_level_ge);  /* ordering by value */
    expect_where("type == High", p_type);       /* enum_uint32 */
    expect_where("type == 0x80000000", p_type); /* a number on an enum field */
    expect_where("type == Tick", p_ctl);        /* EventControl's type: another enum, same field name */
    expect_where("obj == TaskA", p_rt);         /* named at run time */
    expect_where("obj == \"Task B\"", p_rt_quoted);
    expect_where("obj == Special", p_static_in_rt_enum);
}

Test(select, struct_members)
{
    expect_where("in.q.x <= 3", p_member);
    expect_where("in.color == Green", p_member_enum);
    expect_where("in.q.y > 0xFFFFFF00", p_member_y);
}

Test(select, logic_and_missing_fields)
{
    expect_where("not a == 14", p_not); /* records without `a` stay out */
    expect_where("a == 14 or v < 0xA5001000", p_or_missing);
    expect_where("color == Red or color == Green and in.q.x > 100", p_prec);
    expect_where("(color == Red or color == Green) and in.q.x > 100", p_paren);
    expect_where("!(color == Blue) && !(in.color == Blue)", p_name_not_in_some);
}

static int p_simple(const fv_t *x)
{
    return SIMPLE(x);
}
static int p_class_all(const fv_t *x)
{
    return ALL(x) || SIMPLE(x);
}
static int p_ctl_all(const fv_t *x)
{
    return x->id == FX_EVENT_CONTROL || ALL(x);
}
static int p_simple_v(const fv_t *x)
{
    return SIMPLE(x) && x->v > 0xA5001000u;
}

Test(select, events_and_classes)
{
    cli_select_spec_t spec;
    memset(&spec, 0, sizeof spec);
    spec.events[spec.event_lists++] = "EvSimple";
    expect_sel(&spec, p_simple, "--event EvSimple");
    spec.events[0] = "EventControl,EvAll";
    expect_sel(&spec, p_ctl_all, "--event EventControl,EvAll");
    spec.events[0] = "EventControl";
    spec.events[spec.event_lists++] = "EvAll";
    expect_sel(&spec, p_ctl_all, "--event EventControl --event EvAll");
    memset(&spec, 0, sizeof spec);
    spec.classes[spec.class_lists++] = "EvAll";
    expect_sel(&spec, p_class_all, "--class EvAll");
    spec.events[spec.event_lists++] = "EvSimple";
    spec.where = "v > 0xA5001000";
    expect_sel(&spec, p_simple_v, "--class EvAll --event EvSimple --where");
}

static size_t window_from, window_to;
static const fv_t *window_base;
static int p_window(const fv_t *x)
{
    size_t i = (size_t)(x - window_base);
    return i >= window_from && i <= window_to;
}
static size_t limit_left;
static int p_limit_all(const fv_t *x)
{
    if (!ALL(x) || !limit_left) {
        return 0;
    }
    limit_left--;
    return 1;
}

Test(select, index_window_and_limit)
{
    cli_select_spec_t spec;
    memset(&spec, 0, sizeof spec);
    cr_assert(cli_parse_bound("#10", &spec.from));
    cr_assert(cli_parse_bound("#20", &spec.to));
    window_base = vals;
    window_from = 10;
    window_to = 20;
    expect_sel(&spec, p_window, "--from #10 --to #20");
    memset(&spec, 0, sizeof spec);
    cr_assert(cli_parse_bound("#0", &spec.to));
    window_from = window_to = 0;
    expect_sel(&spec, p_window, "--to #0");
    memset(&spec, 0, sizeof spec);
    spec.where = "a < 256";
    spec.has_limit = 1;
    spec.limit = 7;
    limit_left = 7;
    expect_sel(&spec, p_limit_all, "--where 'a < 256' --limit 7");
}

/* Names and fields that do not exist are refused when compiling (exit code: usage). */
Test(select, unknown_names_refused)
{
    static const char *const bad_where[] = {
        "nosuch == 1",     /* no event type has it */
        "in == 1",         /* a struct, not a leaf */
        "a.b == 1",        /* a is not a struct */
        "color == Purple", /* no such value */
        "a == Red",        /* a plain number field */
        "obj == TaskZ",    /* not a run-time name either */
    };
    for (size_t i = 0; i < sizeof bad_where / sizeof bad_where[0]; i++) {
        evrec_reader_t *r;
        cr_assert_eq(evrec_reader_open_memory(&r, file.p, file.len, NULL), EVREC_OK);
        cli_select_spec_t spec;
        memset(&spec, 0, sizeof spec);
        spec.where = bad_where[i];
        cli_select_t *s = (cli_select_t *)1;
        cr_assert_eq(cli_select_compile(&cmd, &spec, r, &s), CLI_USAGE, "%s", bad_where[i]);
        cr_assert_null(s);
        memset(&spec, 0, sizeof spec);
        spec.events[spec.event_lists++] = i % 2 ? "EvAll,Nope" : "Nope";
        cr_assert_eq(cli_select_compile(&cmd, &spec, r, &s), CLI_USAGE);
        memset(&spec, 0, sizeof spec);
        spec.classes[spec.class_lists++] = "EvSimple"; /* an event, but no event's class */
        cr_assert_eq(cli_select_compile(&cmd, &spec, r, &s), CLI_USAGE);
        memset(&spec, 0, sizeof spec); /* a field of EvAll, but only EvSimple is selected */
        spec.events[spec.event_lists++] = "EvSimple";
        spec.where = "a == 1";
        cr_assert_eq(cli_select_compile(&cmd, &spec, r, &s), CLI_USAGE);
        evrec_reader_close(r);
    }
}
