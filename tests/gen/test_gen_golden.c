/* SPDX-License-Identifier: Apache-2.0 */
/* Golden tests: evrec-gen on each tests/gen/pass/<case>/<case>.yaml must write exactly the files
 * of tests/gen/pass/<case>/expected/, byte for byte, twice the same (deterministic), plus a
 * depfile naming the schema and its includes. The generated code is also checked to be a fixed
 * point of clang-format with schema/.clang-format. Update the expected files with
 * `cmake --build <build> --target evrec_gen_update_golden` and review the diff. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_run.h"

#define PASS_DIR GEN_TEST_DIR "/pass"

static char *generate(const char *c, const char *tag)
{
    char dir[1024], schema[256], dep[1200];
    snprintf(dir, sizeof dir, "%s/%s", PASS_DIR, c);
    snprintf(schema, sizeof schema, "%s.yaml", c);
    char *out = gen_temp_dir(tag);
    cr_assert_not_null(out);
    snprintf(dep, sizeof dep, "%s/%s.d", out, c);
    const char *args[] = {schema, "-o", out, "--depfile", dep, NULL};
    char *err = NULL;
    int rc = gen_run(dir, args, &err);
    cr_assert_eq(rc, 0, "%s: exit status %d, stderr:\n%s", c, rc, err);
    cr_assert_str_eq(err, "", "%s: unexpected messages:\n%s", c, err);
    free(err);
    return out;
}

static void compare(const char *c, const char *out, const char *file)
{
    char exp_path[2048], got_path[2048];
    snprintf(exp_path, sizeof exp_path, "%s/%s/expected/%s", PASS_DIR, c, file);
    snprintf(got_path, sizeof got_path, "%s/%s", out, file);
    size_t el = 0, gl = 0;
    char *e = gen_read_file(exp_path, &el);
    char *g = gen_read_file(got_path, &gl);
    cr_assert_not_null(e, "missing golden file %s", exp_path);
    cr_assert_not_null(g, "evrec-gen did not write %s", got_path);
    size_t i = 0;
    while (i < el && i < gl && e[i] == g[i]) {
        i++;
    }
    if (i != el || i != gl) {
        size_t line = 1;
        for (size_t k = 0; k < i; k++) {
            line += e[k] == '\n';
        }
        cr_assert_fail("%s differs from %s at byte %zu (line %zu)", got_path, exp_path, i, line);
    }
    free(e);
    free(g);
}

static void golden(const char *c, const char *name)
{
    char h[256], src[256];
    snprintf(h, sizeof h, "%s_events.h", name);
    snprintf(src, sizeof src, "%s_events.c", name);
    char *out1 = generate(c, c);
    char *out2 = generate(c, c);
    cr_assert_eq(gen_dir_entries(out1), 3, "expected exactly .h, .c and the depfile");
    compare(c, out1, h);
    compare(c, out1, src);
    compare(c, out2, h); /* deterministic: a second run writes the same bytes */
    compare(c, out2, src);
    free(out1);
    free(out2);
}

Test(gen_golden, full)
{
    golden("full", "demo");
}
Test(gen_golden, minimal)
{
    golden("minimal", "minimal");
}
Test(gen_golden, long_names)
{
    golden("long_names", "a_rather_long_schema_name");
}
Test(gen_golden, compact)
{
    golden("compact", "compact");
}
/* Trigraphs, comment delimiters, backslash-newline and control characters in every kind of text:
 * escaped in strings, defused in comments (the code compiles strictly: CMakeLists.txt). */
Test(gen_golden, hostile_text)
{
    golden("hostile_text", "hostile_text");
}

Test(gen_golden, depfile_lists_schema_and_includes)
{
    char *out = generate("full", "dep");
    char path[2048], rp1[PATH_MAX], rp2[PATH_MAX];
    snprintf(path, sizeof path, "%s/full.d", out);
    char *dep = gen_read_file(path, NULL);
    cr_assert_not_null(dep);
    cr_assert_not_null(realpath(PASS_DIR "/full/full.yaml", rp1));
    cr_assert_not_null(realpath(PASS_DIR "/full/rtos.yaml", rp2));
    char expected[16384];
    snprintf(expected, sizeof expected, "%s/demo_events.h: %s %s\n", out, rp1, rp2);
    cr_assert_str_eq(dep, expected);
    free(dep);
    free(out);
}

static void clang_format_clean(const char *c, const char *file)
{
    if (CLANG_FORMAT[0] == '\0') {
        cr_skip_test("clang-format not found at configure time");
    }
    char path[2048], cmd[8192];
    snprintf(path, sizeof path, "%s/%s/expected/%s", PASS_DIR, c, file);
    snprintf(cmd, sizeof cmd, "'%s' --style=file:'%s/.clang-format' '%s'", CLANG_FORMAT, SCHEMA_DIR, path);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t cap = 1 << 20, n = 0, k;
    char *formatted = malloc(cap);
    while ((k = fread(formatted + n, 1, cap - n - 1, p)) > 0) {
        n += k;
    }
    formatted[n] = '\0';
    cr_assert_eq(pclose(p), 0, "clang-format failed on %s", path);
    char *orig = gen_read_file(path, NULL);
    cr_assert_str_eq(formatted, orig, "%s is not clang-format clean", path);
    free(orig);
    free(formatted);
}

/* The golden files are reviewed readable code: clang-format leaves them as they are. (Schemas
 * with very long names, as long_names.yaml, may exceed 100 columns; they still compile.) */
Test(gen_golden, clang_format_clean_full_h)
{
    clang_format_clean("full", "demo_events.h");
}
Test(gen_golden, clang_format_clean_full_c)
{
    clang_format_clean("full", "demo_events.c");
}
Test(gen_golden, clang_format_clean_minimal_h)
{
    clang_format_clean("minimal", "minimal_events.h");
}
Test(gen_golden, clang_format_clean_minimal_c)
{
    clang_format_clean("minimal", "minimal_events.c");
}
