/* SPDX-License-Identifier: Apache-2.0 */
/* Schema errors: one test per kind of error. Each runs evrec-gen on tests/gen/fail/<case>.yaml
 * (from that folder, so that messages carry short paths) and checks the exact diagnostics
 * against <case>.err, exit status 1, and that no output file was written. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_run.h"

#define FAIL_DIR GEN_TEST_DIR "/fail"

static void check_fail(const char *name)
{
    char schema[256], expected_path[1024];
    snprintf(schema, sizeof schema, "%s.yaml", name);
    snprintf(expected_path, sizeof expected_path, "%s/%s.err", FAIL_DIR, name);
    char *expected = gen_read_file(expected_path, NULL);
    cr_assert_not_null(expected, "missing %s", expected_path);
    char *out = gen_temp_dir(name);
    cr_assert_not_null(out);
    char dep[1024];
    snprintf(dep, sizeof dep, "%s/deps.d", out);
    const char *args[] = {schema, "-o", out, "--depfile", dep, NULL};
    char *err = NULL;
    int rc = gen_run(FAIL_DIR, args, &err);
    cr_assert_eq(rc, 1, "%s: exit status %d (a crash is -1), stderr:\n%s", name, rc, err);
    cr_assert_str_eq(err, expected, "%s: diagnostics differ.\n--- got:\n%s--- expected:\n%s", name, err, expected);
    /* Neither the two files, nor the depfile, nor a temporary file. */
    cr_assert_eq(gen_dir_entries(out), 0, "%s: files were written despite the errors", name);
    free(err);
    free(expected);
    free(out);
}

/* One test per kind of schema error of schema/SCHEMA.md section 4 (schemas in tests/gen/fail/). */
Test(gen_errors, yaml_syntax)
{
    check_fail("yaml_syntax");
}
Test(gen_errors, unknown_key)
{
    check_fail("unknown_key");
}
Test(gen_errors, duplicate_name)
{
    check_fail("duplicate_name");
}
Test(gen_errors, unknown_type)
{
    check_fail("unknown_type");
}
Test(gen_errors, enum_value_out_of_range)
{
    check_fail("enum_range");
}
Test(gen_errors, duplicate_enum_value)
{
    check_fail("duplicate_value");
}
Test(gen_errors, event_over_256_bytes)
{
    check_fail("event_too_big");
}
Test(gen_errors, name_not_identifier_or_keyword)
{
    check_fail("not_identifier");
}
Test(gen_errors, include_cycle)
{
    check_fail("include_cycle");
}
Test(gen_errors, missing_include)
{
    check_fail("missing_include");
}
/* All errors of a run, of several kinds, not just the first. */
Test(gen_errors, many_errors_in_one_run)
{
    check_fail("many_errors");
}
/* Two schema names that would make the same C identifier. */
Test(gen_errors, generated_identifier_clash)
{
    check_fail("ident_clash");
}
/* Field names that are macros or types of standard headers, reserved names, evrec's names and
 * locals, or generated identifiers (written bare, they would break the generated code). */
Test(gen_errors, field_name_collides_with_libc_evrec_or_generated)
{
    check_fail("ident_libc");
}
/* Schema names that put every generated identifier in a reserved namespace: evrec's (evrec +
 * host = evrec_host_t), stdint.h's (uint + fast8 = uint_fast8_t), C's file scope (_app). */
Test(gen_errors, schema_name_in_evrec_namespace)
{
    check_fail("ident_evrec");
}
Test(gen_errors, schema_name_in_stdint_namespace)
{
    check_fail("ident_stdint");
}
Test(gen_errors, schema_name_reserved_at_file_scope)
{
    check_fail("ident_file_scope");
}
/* Generated names against each other (the include guard, an id macro) and against the names
 * stdint.h reserves (INT8_Range_MAX). */
Test(gen_errors, generated_identifier_clash_with_guard_and_id)
{
    check_fail("ident_generated");
}
Test(gen_errors, generated_identifier_in_stdint_pattern)
{
    check_fail("ident_pattern");
}
/* Line breaks and control characters of a schema's text never split a message. */
Test(gen_errors, messages_stay_on_one_line)
{
    check_fail("one_line_messages");
}
/* `track` paths (unknown field, a struct, not a struct, time) and `counter` (not an integer, not
 * a boolean); a good nested path among them is accepted. */
Test(gen_errors, track_and_counter)
{
    check_fail("view_track");
}
/* `spans`: duplicate name, unknown event, field or value, a value too large, field without value,
 * a key on one end only, a bad track, unknown and missing keys, a list for an end, a bad name. */
Test(gen_errors, spans)
{
    check_fail("view_span");
}

/* The syst: block (MIPI SyS-T options): GUID text, origin, severities, event names. */
Test(gen_errors, syst_block)
{
    check_fail("syst");
}

Test(gen_errors, the_error_files_are_not_trivial)
{
    /* Each expected file names its own schema and has at least one located error. */
    const char *cases[] = {"yaml_syntax",   "unknown_key",     "duplicate_name", "unknown_type",
                           "enum_range",    "duplicate_value", "event_too_big",  "not_identifier",
                           "include_cycle", "missing_include", "many_errors",    "ident_clash",
                           "view_track",    "view_span"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s.err", FAIL_DIR, cases[i]);
        char *e = gen_read_file(p, NULL);
        cr_assert_not_null(e);
        cr_assert(strstr(e, ": error: ") != NULL, "%s has no error line", p);
        free(e);
    }
}

Test(gen_errors, usage_errors_exit_2)
{
    char *err = NULL;
    const char *none[] = {NULL};
    cr_assert_eq(gen_run(FAIL_DIR, none, &err), 2);
    cr_assert(strstr(err, "no schema file given") != NULL, "%s", err);
    free(err);
    const char *bad[] = {"--bogus", "x.yaml", NULL};
    cr_assert_eq(gen_run(FAIL_DIR, bad, &err), 2);
    free(err);
}

Test(gen_errors, missing_schema_file)
{
    char *err = NULL;
    const char *args[] = {"no_such_schema.yaml", "-o", "/tmp", NULL};
    cr_assert_eq(gen_run(FAIL_DIR, args, &err), 1);
    cr_assert_str_eq(err, "evrec-gen: cannot open schema 'no_such_schema.yaml': No such file or "
                          "directory\n");
    free(err);
}

Test(gen_errors, expect_name_mismatch)
{
    char *err = NULL;
    char *out = gen_temp_dir("expect");
    const char *args[] = {"../pass/minimal/minimal.yaml", "-o", out, "--expect-name", "other", NULL};
    cr_assert_eq(gen_run(FAIL_DIR, args, &err), 1);
    cr_assert_str_eq(err, "../pass/minimal/minimal.yaml:2:9: error: the schema is named 'minimal' "
                          "but the build expects 'other' (re-run CMake after renaming a schema)\n");
    cr_assert_eq(gen_dir_entries(out), 0);
    free(err);
    free(out);
}

/* -o names a directory that does not exist yet: it is created with its parents. */
Test(gen_output, missing_output_dir_is_created)
{
    char *base = gen_temp_dir("mkdir");
    cr_assert_not_null(base);
    char out[1024], h[1100], c[1100];
    snprintf(out, sizeof out, "%s/new/deeper/", base);
    const char *args[] = {"../pass/minimal/minimal.yaml", "-o", out, NULL};
    char *err = NULL;
    int rc = gen_run(FAIL_DIR, args, &err);
    cr_assert_eq(rc, 0, "exit status %d, stderr:\n%s", rc, err);
    snprintf(h, sizeof h, "%s/minimal_events.h", out);
    snprintf(c, sizeof c, "%s/minimal_events.c", out);
    char *hd = gen_read_file(h, NULL), *cd = gen_read_file(c, NULL);
    cr_assert_not_null(hd, "%s was not written", h);
    cr_assert_not_null(cd, "%s was not written", c);
    cr_assert_eq(gen_dir_entries(out), 2);
    /* An existing directory is used as it is. */
    rc = gen_run(FAIL_DIR, args, &err);
    cr_assert_eq(rc, 0, "second run: exit status %d, stderr:\n%s", rc, err);
    free(hd);
    free(cd);
    free(err);
    free(base);
}

/* A schema error creates no directory; a path under a regular file is an I/O error. */
Test(gen_output, failed_runs_leave_no_directory)
{
    char *base = gen_temp_dir("mkdir_fail");
    cr_assert_not_null(base);
    char out[1024];
    snprintf(out, sizeof out, "%s/a/b", base);
    const char *bad[] = {"yaml_syntax.yaml", "-o", out, NULL};
    char *err = NULL;
    cr_assert_eq(gen_run(FAIL_DIR, bad, &err), 1);
    cr_assert_eq(gen_dir_entries(base), 0, "a directory was created for a failed run");
    free(err);

    char file[1100];
    snprintf(file, sizeof file, "%s/plain", base);
    FILE *f = fopen(file, "w");
    cr_assert_not_null(f);
    fclose(f);
    snprintf(out, sizeof out, "%s/plain/sub", base);
    const char *args[] = {"../pass/minimal/minimal.yaml", "-o", out, NULL};
    cr_assert_eq(gen_run(FAIL_DIR, args, &err), 1);
    cr_assert(strstr(err, "cannot create directory") != NULL, "%s", err);
    cr_assert_eq(gen_dir_entries(base), 1);
    free(err);
    free(base);
}
