/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec check FILE --schema S.yaml`: exit 0 when the recording's meta-info is the schema's, else
 * exit 1 with one precise line per difference. One recording made with the tables of a base
 * schema (loaded with the evrec_schema library, recorded with the real recorder); one variant of
 * the schema per kind of difference. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "cli_schema_file.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"
#include "evrec/evrec_schema.h"

#define assert_has(hay, needle) cr_assert(strstr((hay), (needle)) != NULL, "missing <%s> in:\n%s", (needle), (hay))

static const char base_yaml[] = "schema: base\n"
                                "version: 1.0\n"
                                "enums:\n"
                                "  - name: State\n"
                                "    type: uint8\n"
                                "    values:\n"
                                "      - {name: Idle, value: 0}\n"
                                "      - {name: Busy, value: 1, marker: Up}\n"
                                "  - name: Task\n"
                                "    type: uint16\n"
                                "    values: [Nobody]\n"
                                "    runtime: {base: 1, lim: 16, marker: None}\n"
                                "structs:\n"
                                "  - name: Point\n"
                                "    fields:\n"
                                "      - {name: x, type: uint16}\n"
                                "      - {name: y, type: uint16}\n"
                                "events:\n"
                                "  - name: Move\n"
                                "    fields:\n"
                                "      - {name: task, type: Task}\n"
                                "      - {name: to, type: Point}\n"
                                "      - {name: state, type: State}\n"
                                "  - name: Halt\n"
                                "    class: Move\n"
                                "    fields:\n"
                                "      - {name: code, type: uint32, unit: ms}\n";

static char *dir;
static char *evr;

/* Write the base schema, load its tables, record Start and Stop with them, save. */
static void setup(void)
{
    dir = cli_temp_dir("check");
    cr_assert_not_null(dir);
    evr = cli_schema_recording(dir, "base", base_yaml, NULL);
}

static void teardown(void)
{
    free(dir);
    free(evr);
}

/* The base schema with `from` replaced by `to` (each must occur once). */
static char *variant(const char *tag, const char *from, const char *to)
{
    const char *at = strstr(base_yaml, from);
    cr_assert_not_null(at, "%s: <%s> not in the base schema", tag, from);
    cr_assert_null(strstr(at + 1, from), "%s: <%s> occurs twice", tag, from);
    size_t n = sizeof base_yaml + strlen(to);
    char *text = malloc(n);
    snprintf(text, n, "%.*s%s%s", (int)(at - base_yaml), base_yaml, to, at + strlen(from));
    char *path = malloc(4200);
    snprintf(path, 4200, "%s/%s.yaml", dir, tag);
    cr_assert_eq(cli_write_file(path, text), 0);
    free(text);
    return path;
}

/* Check the recording against a variant: exit 1, `n` differences, each `lines` present. */
static void expect(const char *tag, const char *from, const char *to, int n, const char *const *lines)
{
    char *path = variant(tag, from, to);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "check", evr, "--schema", path, (const char *)NULL);
    cr_assert_eq(r.status, 1, "%s: exit %d\n%s%s", tag, r.status, r.out, r.err);
    char count[64];
    snprintf(count, sizeof count, "; %d difference%s:\n", n, n == 1 ? "" : "s");
    cr_assert(strstr(r.out, "does not match schema base"), "%s:\n%s", tag, r.out);
    cr_assert(strstr(r.out, count), "%s: expected %d differences:\n%s", tag, n, r.out);
    for (const char *const *l = lines; *l; l++) {
        char want[512];
        snprintf(want, sizeof want, "\n  %s\n", *l);
        cr_assert(strstr(r.out, want), "%s: missing line <%s> in:\n%s", tag, *l, r.out);
    }
    cli_run_free(&r);
    free(path);
}

#define LINES(...) ((const char *const[]){__VA_ARGS__, NULL})

TestSuite(cli_check, .init = setup, .fini = teardown);

Test(cli_check, same_schema_matches)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/base.yaml", dir);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "check", "--schema", path, evr, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    assert_has(r.out, "matches schema base");
    cli_run_free(&r);
    /* Display attributes, the version and time_freq are not part of the schema hash. */
    char *p = variant("display", "{name: code, type: uint32, unit: ms}",
                      "{name: code, type: uint32, unit: us, format: hex, description: Exit code.}");
    r = cli_run(EVREC_CLI_PATH, "check", "-q", "--schema", p, evr, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert_eq(r.out_len, 0);
    cli_run_free(&r);
    free(p);
    p = variant("version", "version: 1.0\n", "version: 2.0\ntime_freq: 32768\n");
    r = cli_run(EVREC_CLI_PATH, "check", "--schema", p, evr, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cli_run_free(&r);
    free(p);
}

Test(cli_check, enum_value_changed)
{
    expect("value", "{name: Busy, value: 1, marker: Up}", "{name: Busy, value: 2, marker: Up}", 1,
           LINES("enum State: value Busy is 2 in the schema, 1 in the file (value changed)"));
}

Test(cli_check, enum_marker_changed)
{
    expect("marker", "{name: Busy, value: 1, marker: Up}", "{name: Busy, value: 1, marker: Down}", 1,
           LINES("enum State: value Busy has marker Down in the schema, Up in the file (marker changed)"));
}

Test(cli_check, enum_value_renamed)
{
    expect("value-renamed", "{name: Busy, value: 1, marker: Up}", "{name: Working, value: 1, marker: Up}", 1,
           LINES("enum State: value 1 is called Working in the schema, Busy in the file (renamed)"));
}

Test(cli_check, enum_value_added_and_removed)
{
    expect("value-added", "      - {name: Busy, value: 1, marker: Up}\n",
           "      - {name: Busy, value: 1, marker: Up}\n      - {name: Done, value: 2}\n", 1,
           LINES("enum State: value Done (2) is in the schema, not in the file (removed)"));
    expect("value-removed", "      - {name: Idle, value: 0}\n", "", 1,
           LINES("enum State: value Idle (0) is in the file, not in the schema (added)"));
}

Test(cli_check, enum_type_changed)
{
    expect("enum-type", "  - name: State\n    type: uint8\n", "  - name: State\n    type: uint16\n", 2,
           LINES("enum State is uint16 in the schema, uint8 in the file (type changed)",
                 "event Move: field state is enum State (uint16) in the schema, enum State (uint8) in the file "
                 "(type changed)"));
}

Test(cli_check, enum_renamed)
{
    /* Rename the enum and its use together. */
    const char *a = "  - name: State\n", *b = "{name: state, type: State}";
    size_t n = sizeof base_yaml + 64;
    char *text = malloc(n);
    const char *pa = strstr(base_yaml, a), *pb = strstr(base_yaml, b);
    snprintf(text, n, "%.*s  - name: Status\n%.*s{name: state, type: Status}%s", (int)(pa - base_yaml), base_yaml,
             (int)(pb - pa - strlen(a)), pa + strlen(a), pb + strlen(b));
    char p[4200];
    snprintf(p, sizeof p, "%s/enum-renamed.yaml", dir);
    cr_assert_eq(cli_write_file(p, text), 0);
    free(text);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "check", evr, "--schema", p, (const char *)NULL);
    cr_assert_eq(r.status, 1);
    assert_has(r.out, "; 1 difference:\n  enum Status (id 1) is called State in the file (renamed)\n");
    cli_run_free(&r);
}

Test(cli_check, runtime_range_changed_or_removed)
{
    expect("range", "runtime: {base: 1, lim: 16, marker: None}", "runtime: {base: 1, lim: 32, marker: None}", 1,
           LINES("enum Task: run-time range [1, 32) in the schema, [1, 16) in the file (range changed)"));
    expect("no-range", "    runtime: {base: 1, lim: 16, marker: None}\n", "", 1,
           LINES("enum Task: no run-time range in the schema, [1, 16) in the file"));
}

Test(cli_check, struct_field_added_removed_renamed)
{
    expect("field-added", "      - {name: y, type: uint16}\n",
           "      - {name: y, type: uint16}\n      - {name: z, type: uint16}\n", 1,
           LINES("struct Point: field z is in the schema, not in the file (removed)"));
    expect("field-removed", "      - {name: y, type: uint16}\n", "", 1,
           LINES("struct Point: field y is in the file, not in the schema (added)"));
    expect("field-renamed", "      - {name: y, type: uint16}\n", "      - {name: yy, type: uint16}\n", 1,
           LINES("struct Point: field 1 is called yy in the schema, y in the file (renamed)"));
}

Test(cli_check, field_type_changed)
{
    expect("field-type", "{name: code, type: uint32, unit: ms}", "{name: code, type: uint16, unit: ms}", 1,
           LINES("event Halt: field code is uint16 in the schema, uint32 in the file (type changed)"));
    expect("field-enum", "{name: task, type: Task}", "{name: task, type: uint16}", 1,
           LINES("event Move: field task is uint16 in the schema, enum Task (uint16) in the file (type changed)"));
}

Test(cli_check, class_changed)
{
    expect("class", "    class: Move\n", "", 1,
           LINES("event Halt: class its own in the schema, Move in the file (class changed)"));
}

Test(cli_check, event_added_removed_renamed)
{
    expect("event-added", "      - {name: code, type: uint32, unit: ms}\n",
           "      - {name: code, type: uint32, unit: ms}\n  - name: Extra\n", 1,
           LINES("event Extra is in the schema, not in the file (removed)"));
    expect("event-removed",
           "  - name: Halt\n    class: Move\n    fields:\n      - {name: code, type: uint32, unit: ms}\n", "", 1,
           LINES("event Halt is in the file, not in the schema (added)"));
    expect("event-renamed", "  - name: Halt\n", "  - name: Stop2\n", 1,
           LINES("event Stop2 (struct id 3) is called Halt in the file (renamed)"));
}

Test(cli_check, order_changed)
{
    static const char state[] = "  - name: State\n    type: uint8\n    values:\n      - {name: Idle, value: 0}\n"
                                "      - {name: Busy, value: 1, marker: Up}\n";
    static const char task[] = "  - name: Task\n    type: uint16\n    values: [Nobody]\n"
                               "    runtime: {base: 1, lim: 16, marker: None}\n";
    char from[512], to[512];
    snprintf(from, sizeof from, "%s%s", state, task);
    snprintf(to, sizeof to, "%s%s", task, state);
    expect("enum-order", from, to, 2,
           LINES("enum State is id 2 in the schema, id 1 in the file (order changed)",
                 "enum Task is id 1 in the schema, id 2 in the file (order changed)"));
}

Test(cli_check, unusable_schema_and_usage)
{
    char *p = variant("broken", "    type: uint8\n", "    type: uint9\n");
    cli_run_t r = cli_run(EVREC_CLI_PATH, "check", evr, "--schema", p, (const char *)NULL);
    cr_assert_eq(r.status, 1);
    char want[4400];
    snprintf(want, sizeof want, "evrec: %s:5:11: error: unknown type 'uint9' for enum State", p);
    assert_has(r.err, want);
    assert_has(r.err, "the schema cannot be used");
    cli_run_free(&r);
    free(p);
    r = cli_run(EVREC_CLI_PATH, "check", evr, (const char *)NULL);
    cr_assert_eq(r.status, 2);
    assert_has(r.err, "missing --schema");
    cli_run_free(&r);
    r = cli_run(EVREC_CLI_PATH, "check", "--schema", "/nonexistent.yaml", evr, (const char *)NULL);
    cr_assert_eq(r.status, 1);
    assert_has(r.err, "evrec: /nonexistent.yaml: cannot open the schema");
    cli_run_free(&r);
}
