/* SPDX-License-Identifier: Apache-2.0 */
/* evrec-gen's cost against hostile input: deep nesting is refused at the nesting limit
 * (GEN_MAX_DEPTH, SCHEMA.md "Limits") with its line:column, and the duplicate checks of a large
 * enum do work linear in its number of values. No timing: the work is counted (value_compares of
 * the loaded model) or bounded by the limit. Inputs are written by the test, in the build tree. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"
#include "gen_run.h"

/* Write `head`, then `open` repeated n times, then `close` n times and a newline. */
static char *write_nested(const char *dir, size_t n, const char *open, const char *close)
{
    char *path = malloc(4096);
    snprintf(path, 4096, "%s/deep.yaml", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("# SPDX-License-Identifier: Apache-2.0\nschema: deep\nversion: 1\nenums: ", f);
    for (size_t i = 0; i < n; i++) {
        fputs(open, f);
    }
    for (size_t i = 0; i < n; i++) {
        fputs(close, f);
    }
    fputs("\n", f);
    cr_assert_eq(fclose(f), 0);
    return path;
}

static char *run_gen(const char *dir)
{
    char out[4096];
    snprintf(out, sizeof out, "%s/out", dir);
    const char *args[] = {"deep.yaml", "-o", out, NULL};
    char *err = NULL;
    int rc = gen_run(dir, args, &err);
    cr_assert_eq(rc, 1, "exit status %d (a crash is -1), stderr:\n%s", rc, err);
    return err;
}

/* 100,000 levels of flow sequences (libyaml alone took 55 s of CPU on them): refused at the
 * `[` that opens level 65 (the root mapping is level 1, `enums: ` takes 7 columns). */
Test(gen_bounds, deep_flow_nesting_refused_at_the_limit)
{
    char *dir = gen_temp_dir("deep");
    free(write_nested(dir, 100000, "[", "]"));
    char *err = run_gen(dir);
    char expected[256];
    snprintf(expected, sizeof expected,
             "deep.yaml:4:%u: error: collections nested more than %u levels deep (the limit of a "
             "schema file)\n",
             8u + (GEN_MAX_DEPTH - 1u), (unsigned)GEN_MAX_DEPTH);
    cr_assert_str_eq(err, expected);
    free(err);
    free(dir);
}

/* Flow mappings count as sequences do. */
Test(gen_bounds, deep_flow_mappings_refused_at_the_limit)
{
    char *dir = gen_temp_dir("deepmap");
    free(write_nested(dir, 20000, "{a: ", "}"));
    char *err = run_gen(dir);
    char expected[256];
    snprintf(expected, sizeof expected,
             "deep.yaml:4:%u: error: collections nested more than %u levels deep (the limit of a "
             "schema file)\n",
             8u + 4u * (GEN_MAX_DEPTH - 1u), (unsigned)GEN_MAX_DEPTH);
    cr_assert_str_eq(err, expected);
    free(err);
    free(dir);
}

/* Exactly at the limit: no nesting error; the schema's own error (a list for an enum) instead. */
Test(gen_bounds, nesting_at_the_limit_accepted)
{
    char *dir = gen_temp_dir("atlimit");
    free(write_nested(dir, GEN_MAX_DEPTH - 1, "[", "]"));
    char *err = run_gen(dir);
    cr_assert_str_eq(err, "deep.yaml:4:9: error: expected a mapping for enum, found a list\n");
    free(err);
    free(dir);
}

#define BIG_ENUM 70000u

/* One uint32 enum of BIG_ENUM values, the last one (when `dup`) repeating the first's name. */
static char *write_big_enum(const char *dir, int dup)
{
    char *path = malloc(4096);
    snprintf(path, 4096, "%s/big.yaml", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("# SPDX-License-Identifier: Apache-2.0\nschema: big\nversion: 1\nenums:\n"
          "  - name: Big\n    type: uint32\n    values:\n",
          f);
    for (unsigned i = 0; i < BIG_ENUM; i++) {
        fprintf(f, "      - V%u\n", i);
    }
    if (dup) {
        fputs("      - {name: V0, value: 99999999}\n      - {name: W, value: 7}\n", f);
    }
    cr_assert_eq(fclose(f), 0);
    return path;
}

/* 70,000 values: every one checked against the others for a duplicate name and value, with work
 * linear in their number (the pairwise check made 4.9e9 comparisons, 17 s of CPU). */
Test(gen_bounds, large_enum_checked_in_linear_work, .timeout = 120)
{
    char *dir = gen_temp_dir("bigenum");
    char *path = write_big_enum(dir, 0);
    gen_schema_t s;
    memset(&s, 0, sizeof s);
    int rc = gen_schema_load(&s, path);
    cr_assert_eq(rc, 0, "%zu errors, the first: %s", s.diags.count, s.diags.count ? s.diags.items[0].msg : "");
    cr_assert_eq(s.enums[1].value_count, BIG_ENUM);
    cr_assert_lt(s.value_compares, 8u * BIG_ENUM, "%zu comparisons for %u values", s.value_compares, BIG_ENUM);
    gen_schema_free(&s);
    free(path);
    free(dir);
}

/* The same enum with a repeated name and a repeated value at its end: both still found. */
Test(gen_bounds, large_enum_duplicates_found, .timeout = 120)
{
    char *dir = gen_temp_dir("bigdup");
    char *path = write_big_enum(dir, 1);
    gen_schema_t s;
    memset(&s, 0, sizeof s);
    cr_assert_neq(gen_schema_load(&s, path), 0);
    cr_assert_eq(s.diags.count, 2);
    char want[512];
    snprintf(want, sizeof want, "duplicate name 'V0' in enum Big: already defined at %s/big.yaml:8:9", dir);
    cr_assert_str_eq(s.diags.items[0].msg, want);
    snprintf(want, sizeof want, "duplicate value 7 in enum Big: 'W' and 'V7' (%s/big.yaml:15:9)", dir);
    cr_assert_str_eq(s.diags.items[1].msg, want);
    cr_assert_lt(s.value_compares, 8u * BIG_ENUM);
    gen_schema_free(&s);
    free(path);
    free(dir);
}

/* A struct of 30,000 fields: its duplicate-name check was pairwise (450 million comparisons);
 * reading stops at the field past the 256 a struct can hold, with one error there. */
Test(gen_bounds, wide_struct_stops_at_256_fields)
{
    char *dir = gen_temp_dir("wide");
    char path[4096];
    snprintf(path, sizeof path, "%s/deep.yaml", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("# SPDX-License-Identifier: Apache-2.0\nschema: wide\nversion: 1\nstructs:\n"
          "  - name: Wide\n    fields:\n",
          f);
    for (unsigned i = 0; i < 30000; i++) {
        fprintf(f, "      - {name: f%u, type: uint8}\n", i);
    }
    cr_assert_eq(fclose(f), 0);
    char *err = run_gen(dir);
    cr_assert_str_eq(err, "deep.yaml:263:9: error: struct Wide has more than 256 fields (it holds at "
                          "most 256 bytes); the fields from here on are not read\n");
    free(err);
    free(dir);
}
