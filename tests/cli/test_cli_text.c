/* SPDX-License-Identifier: Apache-2.0 */
/* Text from a file reaches a terminal escaped: a recording's attributes (format/FORMAT.md section
 * 2.6) holding ESC sequences or a right-to-left override (U+202E) print as "\x1b[31m..." and
 * "\xe2\x80\xae" in `evrec info` and in `evrec sql`'s table, under a UTF-8 locale as under C;
 * CSV keeps the bytes (in a quoted field) and JSON escapes them by its own rules. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "reader_fixtures.h"

#define assert_has(hay, needle) cr_assert(strstr((hay), (needle)) != NULL, "missing <%s> in:\n%s", (needle), (hay))
#define assert_lacks(hay, needle)                                                                                 \
    cr_assert(strstr((hay), (needle)) == NULL, "unexpected <%s> in:\n%s", (needle), (hay))

#define ESC_VALUE "a\033[31mred"
/* U+202E: "fed" shows reversed after it */
#define RLO_VALUE                                                                                                 \
    "abc\xe2\x80\xae"                                                                                             \
    "fed" /* (split: \xae would take the f, e, d) */
/* U+2066, another bidirectional control */
#define LRI_VALUE                                                                                                 \
    "x\xe2\x81\xa6"                                                                                               \
    "y"

/* A short recording with three attributes: an ESC sequence, a U+202E, a plain one with blanks. */
static char *attrs_file(void)
{
    evrec_attrs_t a;
    cr_assert_eq(evrec_attrs_init(&a), EVREC_OK);
    cr_assert_eq(evrec_attrs_set(&a, "colour", ESC_VALUE), EVREC_OK);
    cr_assert_eq(evrec_attrs_set(&a, "rtl", RLO_VALUE), EVREC_OK);
    cr_assert_eq(evrec_attrs_set(&a, "lri", LRI_VALUE), EVREC_OK);
    cr_assert_eq(evrec_attrs_set(&a, "site", "lab 2 \xc3\xa9t\xc3\xa9"), EVREC_OK);
    fx_buf_t f = {0};
    fx_record_ex(20, 0, &a, &f);
    char *path = fx_temp_file(f.p, f.len, ".evr");
    fx_buf_free(&f);
    return path;
}

/* No raw control or bidirectional control in `out`. */
static void nothing_raw(const char *out)
{
    assert_lacks(out, "\033");
    assert_lacks(out, "\xe2\x80\xae");
    assert_lacks(out, "\xe2\x81\xa6");
}

static void escaped_under(const char *locale)
{
    cr_assert_eq(setenv("LC_ALL", locale, 1), 0);
    char *path = attrs_file();
    cli_run_t r = cli_run(EVREC_CLI_PATH, "info", path, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    nothing_raw(r.out);
    assert_has(r.out, "colour = \"a\\x1b[31mred\"");
    assert_has(r.out, "rtl = \"abc\\xe2\\x80\\xaefed\"");
    assert_has(r.out, "lri = \"x\\xe2\\x81\\xa6y\"");
    cli_run_free(&r);

    r = cli_run(EVREC_CLI_PATH, "sql", "-c", "SELECT key, value FROM attr", path, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    nothing_raw(r.out);
    assert_has(r.out, "colour  \"a\\x1b[31mred\"\n");
    assert_has(r.out, "rtl     \"abc\\xe2\\x80\\xaefed\"\n");
    assert_has(r.out, "lri     \"x\\xe2\\x81\\xa6y\"\n");
    if (strcmp(locale, "C") == 0) {
        assert_has(r.out, "site    \"lab 2 \\xc3\\xa9t\\xc3\\xa9\"\n"); /* as `info` shows names */
    } else {
        assert_has(r.out, "site    lab 2 \xc3\xa9t\xc3\xa9\n"); /* printable: as it is, unquoted */
    }
    cli_run_free(&r);
    unlink(path);
    free(path);
}

Test(cli_text, attributes_are_escaped_for_a_utf8_terminal)
{
    escaped_under("C.UTF-8");
}

Test(cli_text, attributes_are_escaped_for_an_ascii_terminal)
{
    escaped_under("C");
}

/* The machine formats keep the value: CSV byte for byte in a quoted field, JSON as \u001b. */
Test(cli_text, csv_and_json_keep_the_bytes_by_their_own_rules)
{
    char *path = attrs_file();
    cli_run_t r = cli_run(EVREC_CLI_PATH, "sql", "--format", "csv", "-c", "SELECT key, value FROM attr", path,
                          (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, "colour,\"" ESC_VALUE "\"\n");
    assert_has(r.out, "rtl," RLO_VALUE "\n");
    cli_run_free(&r);
    r = cli_run(EVREC_CLI_PATH, "sql", "--format", "json", "-c", "SELECT value FROM attr WHERE key = 'colour'",
                path, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, "\"value\": \"a\\u001b[31mred\"");
    cli_run_free(&r);
    unlink(path);
    free(path);
}
