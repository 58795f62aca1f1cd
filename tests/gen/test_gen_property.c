/* SPDX-License-Identifier: Apache-2.0 */
/* Property: for random valid schemas (one per case number), schema -> evrec-gen -> compile ->
 * record every event type -> save -> `evrec schema` -> evrec-gen again gives byte-identical
 * generated files.
 *
 * The random schemas use every feature a recording carries: enums of the three widths with
 * markers, values anywhere in their range, run-time ranges (with a name given while recording, so
 * that the range's marker is in the file), reusable structs nested in structs and events, events
 * with and without fields, classes (also naming a later event), field formats, units and
 * descriptions (quotes, backslashes, lines, UTF-8), names that YAML would read as booleans, and
 * time_freq. They leave out what a recording does not carry (descriptions of enums, values,
 * structs and events; values written out of order; several files), which `evrec schema` says it
 * cannot recover (tests/cli/test_cli_schema.c).
 *
 * Reproducible: a case number starts the random generator. EVREC_PROPERTY_FIRST=<n> picks the
 * first case (default 1), EVREC_PROPERTY_COUNT the number of schemas (default 20). A failure
 * prints its case number and keeps its directory. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "gen_run.h"
#include "../common/test_tmp.h"

/* ---- deterministic random numbers (splitmix64) ---- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static uint32_t below(uint32_t n)
{
    return (uint32_t)(rnd() % n);
}

static int chance(unsigned percent)
{
    return below(100) < percent;
}

/* ---- text ---- */

typedef struct text {
    char *p;
    size_t len, cap;
} text_t;

static void tprintf(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void tprintf(text_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = (t->len + (size_t)n + 1) * 2;
        t->p = realloc(t->p, t->cap);
    }
    va_start(ap, fmt);
    vsnprintf(t->p + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* ---- the random schema ---- */

enum { T_U8, T_U16, T_U32, T_ENUM, T_STRUCT };

typedef struct rfield {
    char name[16];
    int type;
    int ref;    /* enum or struct index */
    int format; /* 0 none, 1 decimal, 2 hex, 3 address */
    int unit;   /* -1 none, else index in units[] */
    int desc;   /* -1 none, else index in descs[] */
} rfield_t;

typedef struct rstruct {
    char name[24];
    rfield_t fields[6];
    int nfields;
    unsigned size, align; /* C layout, to keep events within 256 bytes */
    int class_of;         /* events: index of the class event, -1 = own */
} rstruct_t;

typedef struct renum {
    char name[24];
    unsigned width; /* 1, 2, 4 */
    uint32_t values[6];
    int markers[6];
    int nvalues;
    int runtime;
    uint32_t base, lim;
    int rt_marker;
} renum_t;

typedef struct rschema {
    renum_t enums[4];
    int nenums;
    rstruct_t structs[3];
    int nstructs;
    rstruct_t events[5];
    int nevents;
    uint64_t time_freq;
} rschema_t;

static const char *const markers[16] = {"None",   "Up",       "Down", "UpBlock", "DownBlock", "UpUp",
                                        "UpPush", "UpUpPush", "Push", "Inc",     "Dec",       "Wait",
                                        "Pass",   "Tick",     "Stop", "Error"};
static const char *const units[] = {"ns", "bytes", "°C", "km/h", "a \\\"b\\\" c"};
static const char *const descs[] = {"Plain text.", "With \\\"quotes\\\" and a \\\\ backslash.", "Two\\nlines.",
                                    "Ünïcödé ✓ */ not a comment end"};
/* Field names: some are YAML 1.1 booleans when plain (y, no, on). */
static const char *const field_names[] = {"a", "y", "no", "on", "count", "len", "x1", "state", "addr", "level"};

static unsigned type_size(const rschema_t *s, const rfield_t *f, unsigned *align)
{
    switch (f->type) {
    case T_U8: *align = 1; return 1;
    case T_U16: *align = 2; return 2;
    case T_U32: *align = 4; return 4;
    case T_ENUM: *align = s->enums[f->ref].width; return s->enums[f->ref].width;
    default: *align = s->structs[f->ref].align; return s->structs[f->ref].size;
    }
}

static void layout(const rschema_t *s, rstruct_t *st, int event)
{
    unsigned off = event ? 6 : 0, align = event ? 4 : 1;
    for (int i = 0; i < st->nfields; i++) {
        unsigned a;
        unsigned sz = type_size(s, &st->fields[i], &a);
        off = (off + a - 1) / a * a + sz;
        align = a > align ? a : align;
    }
    st->size = (off + align - 1) / align * align;
    st->align = align;
}

static void random_fields(rschema_t *s, rstruct_t *st, int max, int nstructs_before, int event)
{
    int n = (int)below((unsigned)max + 1);
    if (!event && n == 0) {
        n = 1;
    }
    int used[10] = {0};
    st->nfields = 0;
    for (int i = 0; i < n; i++) {
        rfield_t *f = &st->fields[st->nfields];
        int k;
        do {
            k = (int)below(10);
        } while (used[k]);
        used[k] = 1;
        snprintf(f->name, sizeof f->name, "%s", field_names[k]);
        unsigned pick = below(10);
        f->type = pick < 4 ? (int)below(3) : pick < 8 && s->nenums ? T_ENUM : nstructs_before ? T_STRUCT : T_U32;
        f->ref = f->type == T_ENUM     ? (int)below((unsigned)s->nenums)
                 : f->type == T_STRUCT ? (int)below((unsigned)nstructs_before)
                                       : 0;
        f->format = f->type <= T_U32 && chance(50) ? (int)below(4) : 0;
        f->unit = chance(30) ? (int)below(sizeof units / sizeof units[0]) : -1;
        f->desc = chance(30) ? (int)below(sizeof descs / sizeof descs[0]) : -1;
        st->nfields++;
    }
    layout(s, st, event);
    /* Keep every struct within 240 bytes, so that an event holding one stays within 256. */
    while (st->size > 240 && st->nfields > 1) {
        st->nfields--;
        layout(s, st, event);
    }
}

static void random_schema(rschema_t *s)
{
    memset(s, 0, sizeof *s);
    s->time_freq = chance(50) ? 0 : (uint64_t)below(1000000000u) + 1;
    s->nenums = (int)below(5);
    for (int i = 0; i < s->nenums; i++) {
        renum_t *e = &s->enums[i];
        snprintf(e->name, sizeof e->name, "Enum%d", i);
        e->width = 1u << below(3);
        uint64_t max = e->width == 1 ? 0xFFu : e->width == 2 ? 0xFFFFu : 0xFFFFFFFFu;
        e->runtime = chance(40);
        if (e->runtime) {
            e->base = (uint32_t)(rnd() % (max / 2));
            e->lim = e->base + 1 + below(20);
            e->rt_marker = (int)below(16);
        }
        /* Ascending values outside the run-time range. */
        int n = (int)below(7);
        uint64_t v = below(3);
        for (int k = 0; k < n && v <= max; k++) {
            if (e->runtime && v >= e->base && v < e->lim) {
                v = e->lim;
                if (v > max) {
                    break;
                }
            }
            e->values[e->nvalues] = (uint32_t)v;
            e->markers[e->nvalues] = chance(50) ? (int)below(16) : 0;
            e->nvalues++;
            v += 1 + (chance(30) ? rnd() % (max / 4 + 1) : below(3));
        }
    }
    s->nstructs = (int)below(4);
    for (int i = 0; i < s->nstructs; i++) {
        snprintf(s->structs[i].name, sizeof s->structs[i].name, "Struct%d", i);
        random_fields(s, &s->structs[i], 4, i, 0);
    }
    s->nevents = 1 + (int)below(5);
    for (int i = 0; i < s->nevents; i++) {
        rstruct_t *ev = &s->events[i];
        snprintf(ev->name, sizeof ev->name, "Event%d", i);
        random_fields(s, ev, 6, s->nstructs, 1);
        ev->class_of = chance(40) ? (int)below((unsigned)s->nevents) : -1;
    }
}

static const char *type_name(const rschema_t *s, const rfield_t *f)
{
    static const char *const plain[3] = {"uint8", "uint16", "uint32"};
    return f->type <= T_U32 ? plain[f->type] : f->type == T_ENUM ? s->enums[f->ref].name : s->structs[f->ref].name;
}

static void yaml_fields(text_t *t, const rschema_t *s, const rstruct_t *st)
{
    static const char *const formats[4] = {NULL, "decimal", "hex", "address"};
    if (st->nfields) {
        tprintf(t, "    fields:\n");
    }
    for (int i = 0; i < st->nfields; i++) {
        const rfield_t *f = &st->fields[i];
        tprintf(t, "      - name: \"%s\"\n        type: %s\n", f->name, type_name(s, f));
        if (f->format) {
            tprintf(t, "        format: %s\n", formats[f->format]);
        }
        if (f->unit >= 0) {
            tprintf(t, "        unit: \"%s\"\n", units[f->unit]);
        }
        if (f->desc >= 0) {
            tprintf(t, "        description: \"%s\"\n", descs[f->desc]);
        }
    }
}

static void write_yaml(const rschema_t *s, text_t *t)
{
    tprintf(t, "schema: prop\nversion: 1.0\n");
    if (s->time_freq) {
        tprintf(t, "time_freq: %" PRIu64 "\n", s->time_freq);
    }
    if (s->nenums) {
        tprintf(t, "enums:\n");
    }
    for (int i = 0; i < s->nenums; i++) {
        const renum_t *e = &s->enums[i];
        tprintf(t, "  - name: %s\n    type: uint%u\n", e->name, e->width * 8);
        if (e->nvalues) {
            tprintf(t, "    values:\n");
        }
        for (int k = 0; k < e->nvalues; k++) {
            tprintf(t, "      - {name: V%d_%d, value: 0x%" PRIX32 ", marker: %s}\n", i, k, e->values[k],
                    markers[e->markers[k]]);
        }
        if (e->runtime) {
            tprintf(t, "    runtime: {base: %" PRIu32 ", lim: %" PRIu32 ", marker: %s}\n", e->base, e->lim,
                    markers[e->rt_marker]);
        }
    }
    if (s->nstructs) {
        tprintf(t, "structs:\n");
    }
    for (int i = 0; i < s->nstructs; i++) {
        tprintf(t, "  - name: %s\n", s->structs[i].name);
        yaml_fields(t, s, &s->structs[i]);
    }
    tprintf(t, "events:\n");
    for (int i = 0; i < s->nevents; i++) {
        const rstruct_t *ev = &s->events[i];
        tprintf(t, "  - name: %s\n", ev->name);
        if (ev->class_of >= 0) {
            tprintf(t, "    class: %s\n", s->events[ev->class_of].name);
        }
        yaml_fields(t, s, ev);
    }
}

/* The driver: record every event type once (arguments of every type), name one value of every
 * run-time enum, save the container to the path in argv[1]. */
static void write_driver(const rschema_t *s, text_t *t)
{
    tprintf(
        t,
        "#include <stdio.h>\n#include <stdlib.h>\n#include \"prop_events.h\"\n#include \"evrec/evrec_save.h\"\n\n"
        "static int put(void *ctx, const void *p, size_t n) { return fwrite(p, 1, n, ctx) != n; }\n"
        "static _Alignas(8) unsigned char trace[16384];\n\n"
        "int main(int argc, char **argv)\n{\n"
        "    static evrec_host_t host;\n    static evrec_recorder_t rec;\n"
        "    if (argc != 2 || evrec_recorder_init(&rec, trace, sizeof trace) != EVREC_OK) return 2;\n");
    int any_rt = 0;
    for (int i = 0; i < s->nenums; i++) {
        any_rt |= s->enums[i].runtime;
    }
    if (any_rt) {
        tprintf(t, "    prop_runtime_init();\n");
    }
    tprintf(t, "    evrec_host_init(&host);\n"
               "    if (evrec_host_start(&host, &rec, &prop_meta, prop_meta.time_freq) != EVREC_OK) return 3;\n");
    for (int i = 0; i < s->nenums; i++) {
        if (s->enums[i].runtime) {
            tprintf(t, "    { prop_%s_t v; if (prop_%s_alloc(\"rt %d\", &v) != EVREC_OK) return 4; }\n",
                    s->enums[i].name, s->enums[i].name, i);
        }
    }
    for (int i = 0; i < s->nevents; i++) {
        const rstruct_t *ev = &s->events[i];
        tprintf(t, "    prop_record_%s(&host", ev->name);
        for (int k = 0; k < ev->nfields; k++) {
            const rfield_t *f = &ev->fields[k];
            if (f->type == T_STRUCT) {
                tprintf(t, ", (prop_%s_t){0}", s->structs[f->ref].name);
            } else if (f->type == T_ENUM) {
                tprintf(t, ", (prop_%s_t)%d", s->enums[f->ref].name, k);
            } else {
                tprintf(t, ", %d", k + 1);
            }
        }
        tprintf(t, ");\n");
    }
    tprintf(t, "    if (evrec_host_stop(&host, NULL) != EVREC_OK) return 5;\n"
               "    FILE *f = fopen(argv[1], \"wb\");\n"
               "    evrec_sink_t sink = {put, f};\n"
               "    if (!f || evrec_save(&rec, &sink) != EVREC_OK || fclose(f) != 0) return 6;\n"
               "    return evrec_recorder_counts(&rec).dropped ? 7 : 0;\n}\n");
}

/* ---- running things ---- */

static int write_file(const char *path, const text_t *t)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        return -1;
    }
    int ok = fwrite(t->p, 1, t->len, f) == t->len;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* Run a shell command line; its output goes to `log`. Returns the exit status. */
static int sh(const char *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int sh(const char *log, const char *fmt, ...)
{
    char cmd[16384];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    cr_assert_lt(n, (int)sizeof cmd);
    char full[17000];
    snprintf(full, sizeof full, "(%s) >>'%s' 2>&1", cmd, log);
    int st = system(full);
    return st == -1 ? -1 : WEXITSTATUS(st);
}

static int same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *x = gen_read_file(a, &la), *y = gen_read_file(b, &lb);
    int same = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

/* One case; returns 0 when the property holds, else prints why (with the case number). */
static int one(uint64_t case_no, const char *dir)
{
    rng_state = case_no;
    rschema_t s;
    random_schema(&s);
    char path[8192], log[8192];
    snprintf(log, sizeof log, "%s/log.txt", dir);
    text_t y = {0}, d = {0};
    write_yaml(&s, &y);
    write_driver(&s, &d);
    snprintf(path, sizeof path, "%s/a/prop.yaml", dir);
    sh(log, "mkdir -p '%s/a/gen' '%s/b/gen'", dir, dir);
    cr_assert_eq(write_file(path, &y), 0);
    snprintf(path, sizeof path, "%s/a/drv.c", dir);
    cr_assert_eq(write_file(path, &d), 0);
    free(y.p);
    free(d.p);
    int rc;
    if ((rc = sh(log, "cd '%s/a' && '%s' prop.yaml -o gen", dir, EVREC_GEN_EXE)) != 0) {
        cr_log_error("case %" PRIu64 ": evrec-gen refuses the random schema (exit %d); see %s", case_no, rc, dir);
        return -1;
    }
    if ((rc = sh(log,
                 "cd '%s/a' && %s %s -std=c11 -Wall -Wextra -Werror -I gen %s drv.c gen/prop_events.c -o drv %s",
                 dir, PROP_CC, PROP_CFLAGS, PROP_INCLUDES, PROP_LIBS)) != 0) {
        cr_log_error("case %" PRIu64 ": the generated code does not compile (exit %d); see %s", case_no, rc, dir);
        return -1;
    }
    if ((rc = sh(log, "cd '%s/a' && ./drv rec.evr", dir)) != 0) {
        cr_log_error("case %" PRIu64 ": the recording program failed (exit %d); see %s", case_no, rc, dir);
        return -1;
    }
    if ((rc = sh(log, "cd '%s' && '%s' schema --name prop --version 1.0 -o b/prop.yaml a/rec.evr", dir,
                 EVREC_CLI_PATH)) != 0) {
        cr_log_error("case %" PRIu64 ": evrec schema failed (exit %d); see %s", case_no, rc, dir);
        return -1;
    }
    if ((rc = sh(log, "cd '%s/b' && '%s' prop.yaml -o gen", dir, EVREC_GEN_EXE)) != 0) {
        cr_log_error("case %" PRIu64 ": evrec-gen refuses the recovered schema (exit %d); see %s", case_no, rc,
                     dir);
        return -1;
    }
    static const char *const files[] = {"prop_events.h", "prop_events.c"};
    for (int i = 0; i < 2; i++) {
        char a[8192], b[8192];
        snprintf(a, sizeof a, "%s/a/gen/%s", dir, files[i]);
        snprintf(b, sizeof b, "%s/b/gen/%s", dir, files[i]);
        if (!same_file(a, b)) {
            cr_log_error("case %" PRIu64 ": %s differs after the round trip: diff %s %s (schemas %s/a/prop.yaml, "
                         "%s/b/prop.yaml)",
                         case_no, files[i], a, b, dir, dir);
            return -1;
        }
    }
    return 0;
}

Test(gen_property, schema_code_recording_schema_code_is_identical, .timeout = 240)
{
    const char *e = getenv("EVREC_PROPERTY_FIRST");
    const char *c = getenv("EVREC_PROPERTY_COUNT");
    uint64_t first = e ? strtoull(e, NULL, 0) : 1;
    int count = c ? atoi(c) : 20;
    int failed = 0;
    for (int i = 0; i < count; i++) {
        uint64_t case_no = first + (uint64_t)i;
        char tag[64];
        snprintf(tag, sizeof tag, "property-%" PRIu64, case_no);
        char *dir = gen_temp_dir(tag);
        cr_assert_not_null(dir);
        if (one(case_no, dir) != 0) {
            failed++;
            test_tmp_keep(dir); /* gen_temp_dir() would remove it at exit */
        } else {
            sh("/dev/null", "rm -rf '%s'", dir);
        }
        free(dir);
    }
    cr_assert_eq(failed, 0,
                 "%d of %d random schemas failed the round trip (cases from %" PRIu64
                 "; rerun one with EVREC_PROPERTY_FIRST=<case> EVREC_PROPERTY_COUNT=1)",
                 failed, count, first);
}

/* ---- hostile schemas: refused with a position, or compiling ---- */

/* Names that are hazards as (part of) a C identifier: C keywords and reserved forms, standard
 * library macros and types, evrec's own names and the generated code's locals, names that
 * combine with the schema prefix into a library name (uint + fast8 = uint_fast8_t, evrec + host =
 * evrec_host_t), names two schema items can share (ID_x, record_x, values_0...), and text that
 * is no identifier at all. */
static const char *const hazard_names[] = {
    "NULL",
    "EOF",
    "errno",
    "UINT8_MAX",
    "INT_MAX",
    "SIZE_MAX",
    "CHAR_BIT",
    "EINVAL",
    "ERANGE",
    "EDOM",
    "EXIT_SUCCESS",
    "BUFSIZ",
    "NDEBUG",
    "stdin",
    "stderr",
    "FILE",
    "size_t",
    "uint8_t",
    "uint32_t",
    "int_fast8_t",
    "intptr_t",
    "ptrdiff_t",
    "wchar_t",
    "bool",
    "true",
    "false",
    "_Bool",
    "_Atomic",
    "__x",
    "_A",
    "_x",
    "and",
    "or",
    "not",
    "xor",
    "bitand",
    "compl",
    "complex",
    "I",
    "noreturn",
    "alignas",
    "alignof",
    "static_assert",
    "thread_local",
    "offsetof",
    "assert",
    "linux",
    "unix",
    "int",
    "typeof",
    "EVREC_ENABLE",
    "EVREC_OK",
    "EVREC_ID_NONE",
    "evrec",
    "EVREC",
    "evrec_host",
    "evrec_e",
    "evrec_reserve",
    "evrec_meta_t",
    "host",
    "meta",
    "t",
    "e",
    "v",
    "value",
    "name",
    "st",
    "ID",
    "ID_a",
    "record",
    "record_a",
    "values_0",
    "fields_1",
    "runtime",
    "runtime_names",
    "alloc",
    "EVENT_COUNT",
    "SCHEMA_HASH",
    "a",
    "a_t",
    "b",
    "uint",
    "INT8",
    "fast8",
    "least16",
    "ENABLE",
    "MAX",
    "C",
    "x",
    "y",
    "Ping",
    "a b",
    "a\\nb",
    "x*/y",
    "?\?/",
    "caf\\u00e9",
    "1a",
    "a\\u0001",
};

/* Text for units and descriptions: trigraphs, comment delimiters, backslash-newline, control
 * characters, format directives (YAML double-quoted escapes). */
static const char *const hazard_texts[] = {
    "?\?/",
    "a ?\?/",
    "?\?=?\?(?\?)?\?<?\?>?\?!?\?'?\?-",
    "*/",
    "/*",
    "a\\\\",
    "a\\\\\\nb",
    "end \\\\",
    "\\x01\\x1f\\x7f",
    "\\r",
    "a\\rb",
    "\\f\\v",
    "%s %n %%",
    "\\\"",
    "'",
    "\\t",
    "//",
    "line\\n?\?/\\nnext",
    "\\u2028",
    "caf\\u00e9 \\u00b5s",
    "?\?",
    "?",
    "*",
    "/",
    "\\\\\\n*/",
};

#define HN (sizeof hazard_names / sizeof hazard_names[0])
#define HT (sizeof hazard_texts / sizeof hazard_texts[0])

/* A hazard one time in four, else a harmless name of its own (so that one hazard at a time
 * decides whether a schema is refused). */
static const char *hname(void)
{
    static char plain[8][16];
    static unsigned next;
    if (chance(25)) {
        return hazard_names[below(HN)];
    }
    char *p = plain[next++ % 8];
    snprintf(p, sizeof plain[0], "n%u", below(1000000));
    return p;
}

static void hostile_text(text_t *t, const char *indent, const char *key)
{
    if (chance(40)) {
        tprintf(t, "%s%s: \"%s\"\n", indent, key, hazard_texts[below(HT)]);
    }
}

static void hostile_fields(text_t *t, int nenums, const char *const *enum_names)
{
    static const char *const types[3] = {"uint8", "uint16", "uint32"};
    int n = 1 + (int)below(3);
    tprintf(t, "    fields:\n");
    for (int i = 0; i < n; i++) {
        tprintf(t, "      - name: \"%s\"\n", hname());
        if (nenums && chance(40)) {
            tprintf(t, "        type: \"%s\"\n", enum_names[below((unsigned)nenums)]);
        } else {
            tprintf(t, "        type: %s\n", types[below(3)]);
        }
        hostile_text(t, "        ", "unit");
        hostile_text(t, "        ", "description");
    }
}

/* A schema whose names come from hazard_names and whose texts from hazard_texts. */
static void hostile_schema(text_t *t)
{
    tprintf(t, "# SPDX-License-Identifier: Apache-2.0\nschema: \"%s\"\nversion: 1\n", chance(50) ? "h" : hname());
    hostile_text(t, "", "description");
    const char *enum_names[2];
    int nenums = (int)below(3);
    if (nenums) {
        tprintf(t, "enums:\n");
    }
    for (int i = 0; i < nenums; i++) {
        enum_names[i] = hname();
        tprintf(t, "  - name: \"%s\"\n    type: uint8\n", enum_names[i]);
        hostile_text(t, "    ", "description");
        tprintf(t, "    values:\n");
        for (int k = 0, n = 1 + (int)below(3); k < n; k++) {
            tprintf(t, "      - name: \"%s\"\n", hname());
            hostile_text(t, "        ", "description");
        }
    }
    tprintf(t, "events:\n");
    for (int i = 0, n = 1 + (int)below(2); i < n; i++) {
        tprintf(t, "  - name: \"%s\"\n", hname());
        hostile_text(t, "    ", "description");
        if (chance(80)) {
            hostile_fields(t, nenums, enum_names);
        }
    }
}

/* Every line of `err` is `hostile.yaml:<line>:<column>: error: <text>`. */
static int positioned(const char *err)
{
    if (!*err) {
        return 0;
    }
    for (const char *p = err; *p;) {
        unsigned line, col;
        int n = 0;
        if (sscanf(p, "hostile.yaml:%u:%u: error: %n", &line, &col, &n) != 2 || n == 0 || line == 0 || col == 0) {
            return 0;
        }
        const char *nl = strchr(p, '\n');
        if (!nl) {
            return 0;
        }
        p = nl + 1;
    }
    return 1;
}

/* The generated files, included after the standard headers whose names are hazards, compiled
 * strictly (also with NDEBUG defined, as release builds do). */
static const char use_c[] =
    "#include <assert.h>\n#include <complex.h>\n#include <errno.h>\n#include <iso646.h>\n"
    "#include <limits.h>\n#include <stdalign.h>\n#include <stdbool.h>\n#include <stddef.h>\n"
    "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <stdnoreturn.h>\n"
    "#include <string.h>\n";

/* One hostile case: 0 when refused with positions or compiled, else -1 (logged). */
static int hostile_one(uint64_t case_no, const char *dir, int *refused)
{
    rng_state = case_no ^ 0x5EEDF00Dull;
    text_t y = {0}, u = {0};
    hostile_schema(&y);
    tprintf(&u, "%s", use_c);
    char path[8192], log[8192];
    snprintf(log, sizeof log, "%s/log.txt", dir);
    snprintf(path, sizeof path, "%s/hostile.yaml", dir);
    cr_assert_eq(write_file(path, &y), 0);
    snprintf(path, sizeof path, "%s/use.c", dir);
    cr_assert_eq(write_file(path, &u), 0);
    free(y.p);
    free(u.p);
    const char *args[] = {"hostile.yaml", "-o", "gen", NULL};
    char *err = NULL;
    int rc = gen_run(dir, args, &err);
    int ok = 0;
    if (rc == 1) {
        *refused += 1;
        ok = positioned(err);
        if (!ok) {
            cr_log_error("hostile case %" PRIu64 ": refused without file:line:column: on every "
                         "line:\n%s(see %s)",
                         case_no, err, dir);
        }
    } else if (rc != 0) {
        cr_log_error("hostile case %" PRIu64 ": evrec-gen exit %d:\n%s(see %s)", case_no, rc, err, dir);
    } else if (sh(log,
                  "cd '%s' && h=$(cd gen && ls *_events.h) && c=$(ls gen/*_events.c) && "
                  "printf '#include \"%%s\"\\nint main(void) { return 0; }\\n' \"$h\" >>use.c && "
                  "%s -std=c11 -pedantic -Wall -Wextra -Werror -DNDEBUG -I gen %s -fsyntax-only use.c \"$c\"",
                  dir, PROP_CC, PROP_INCLUDES) != 0) {
        cr_log_error("hostile case %" PRIu64 ": accepted, but the generated code does not compile; "
                     "see %s",
                     case_no, dir);
    } else {
        ok = 1;
    }
    free(err);
    return ok ? 0 : -1;
}

/* Hostile schemas: each either refused with a file:line:column: diagnostic on every line, or
 * generating code that compiles with -std=c11 -pedantic -Wall -Wextra -Werror after the standard
 * headers. EVREC_HOSTILE_FIRST / EVREC_HOSTILE_COUNT (default 1 and 60) pick the cases. */
Test(gen_property, hostile_schemas_refused_at_a_position_or_compile, .timeout = 300)
{
    const char *e = getenv("EVREC_HOSTILE_FIRST");
    const char *c = getenv("EVREC_HOSTILE_COUNT");
    uint64_t first = e ? strtoull(e, NULL, 0) : 1;
    int count = c ? atoi(c) : 60;
    int failed = 0, refused = 0;
    for (int i = 0; i < count; i++) {
        uint64_t case_no = first + (uint64_t)i;
        char tag[64];
        snprintf(tag, sizeof tag, "hostile-%" PRIu64, case_no);
        char *dir = gen_temp_dir(tag);
        cr_assert_not_null(dir);
        if (hostile_one(case_no, dir, &refused) != 0) {
            failed++;
            test_tmp_keep(dir); /* gen_temp_dir() would remove it at exit */
        } else {
            sh("/dev/null", "rm -rf '%s'", dir);
        }
        free(dir);
    }
    cr_log_info("hostile schemas: %d refused, %d compiled, %d failed", refused, count - refused - failed, failed);
    /* Both outcomes must occur, or the list of hazards tests nothing. */
    cr_assert(refused > 0 && refused < count, "%d of %d refused", refused, count);
    cr_assert_eq(failed, 0,
                 "%d of %d hostile schemas failed (cases from %" PRIu64
                 "; rerun one with EVREC_HOSTILE_FIRST=<case> EVREC_HOSTILE_COUNT=1)",
                 failed, count, first);
}
