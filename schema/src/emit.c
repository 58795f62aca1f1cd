/* SPDX-License-Identifier: Apache-2.0 */
/* The generated files: NAME_events.h (types, ids, inline record functions) and NAME_events.c
 * (static const meta-info tables, run-time enum storage, field display table). Output is
 * deterministic and a fixed point of clang-format with schema/.clang-format. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"

/* ---------------------------------------------------------------- helpers */

const char *gen_field_ctype(const gen_schema_t *s, const gen_field_t *f, char *buf, size_t n)
{
    switch (f->type) {
    case GEN_T_U8: return "uint8_t";
    case GEN_T_U16: return "uint16_t";
    case GEN_T_U32: return "uint32_t";
    case GEN_T_ENUM: snprintf(buf, n, "%s_%s_t", s->name, s->enums[f->ref].name); return buf;
    default: snprintf(buf, n, "%s_%s_t", s->name, s->structs[f->ref].name); return buf;
    }
}

static const char *kind_macro(uint8_t kind)
{
    static const char *const k[] = {"EVREC_KIND_UINT8",      "EVREC_KIND_UINT16",      "EVREC_KIND_UINT32",
                                    "EVREC_KIND_ENUM_UINT8", "EVREC_KIND_ENUM_UINT16", "EVREC_KIND_ENUM_UINT32",
                                    "EVREC_KIND_STRUCT"};
    return kind < 7 ? k[kind] : "?";
}

static const char *marker_macro(uint8_t m)
{
    static const char *const k[16] = {
        "EVREC_MARKER_NONE",       "EVREC_MARKER_UP",    "EVREC_MARKER_DOWN",    "EVREC_MARKER_UP_BLOCK",
        "EVREC_MARKER_DOWN_BLOCK", "EVREC_MARKER_UP_UP", "EVREC_MARKER_UP_PUSH", "EVREC_MARKER_UP_UP_PUSH",
        "EVREC_MARKER_PUSH",       "EVREC_MARKER_INC",   "EVREC_MARKER_DEC",     "EVREC_MARKER_WAIT",
        "EVREC_MARKER_PASS",       "EVREC_MARKER_TICK",  "EVREC_MARKER_STOP",    "EVREC_MARKER_ERROR"};
    return m < 16 ? k[m] : "?";
}

static const char *display_macro(uint8_t d)
{
    static const char *const k[4] = {"EVREC_DISPLAY_DEFAULT", "EVREC_DISPLAY_DECIMAL", "EVREC_DISPLAY_HEX",
                                     "EVREC_DISPLAY_ADDRESS"};
    return d < 4 ? k[d] : "?";
}

static const char *width_ctype(uint8_t width)
{
    return width == 1 ? "uint8_t" : width == 2 ? "uint16_t" : "uint32_t";
}

static const char *width_name(uint8_t width)
{
    return width == 1 ? "uint8" : width == 2 ? "uint16" : "uint32";
}

/* Path of a loaded file relative to the main schema's directory (as the banner shows it). */
static const char *rel_path(const gen_schema_t *s, size_t file)
{
    const char *main_path = s->files[0].path;
    const char *p = s->files[file].path;
    const char *slash = strrchr(main_path, '/');
    if (!slash) {
        return p;
    }
    size_t dl = (size_t)(slash - main_path) + 1;
    return strncmp(p, main_path, dl) == 0 ? p + dl : p;
}

/*
 * A function call or declaration `head(args...)tail` at `indent`, as clang-format lays it out:
 * on one line when it fits; otherwise, for a declaration (one_per_line) every argument on its
 * own line aligned after the parenthesis, for a call the arguments packed greedily on lines
 * aligned after the parenthesis.
 */
static void emit_list(gen_buf_t *b, unsigned indent, const char *head, char open, char close, char **args,
                      size_t n, const char *tail, int one_per_line)
{
    size_t total = indent + strlen(head) + 1 + strlen(tail) + 1;
    for (size_t i = 0; i < n; i++) {
        total += strlen(args[i]) + (i ? 2 : 0);
    }
    gen_buf_printf(b, "%*s%s%c", (int)indent, "", head, open);
    size_t align = indent + strlen(head) + 1;
    if (total <= GEN_COLUMNS) {
        for (size_t i = 0; i < n; i++) {
            gen_buf_printf(b, "%s%s", i ? ", " : "", args[i]);
        }
        gen_buf_printf(b, "%c%s\n", close, tail);
        return;
    }
    size_t col = align;
    for (size_t i = 0; i < n; i++) {
        int last = i + 1 == n;
        size_t need = strlen(args[i]) + (last ? 1 + strlen(tail) : 1);
        if (i > 0) {
            if (one_per_line || col + 1 + need > GEN_COLUMNS) {
                gen_buf_printf(b, ",\n%*s", (int)align, "");
                col = align;
            } else {
                gen_buf_puts(b, ", ");
                col += 2;
            }
        }
        gen_buf_puts(b, args[i]);
        col += strlen(args[i]);
    }
    gen_buf_printf(b, "%c%s\n", close, tail);
}

static void emit_call(gen_buf_t *b, unsigned indent, const char *head, char **args, size_t n, const char *tail,
                      int one_per_line)
{
    emit_list(b, indent, head, '(', ')', args, n, tail, one_per_line);
}

static void free_args(char **args, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(args[i]);
    }
    free(args);
}

static char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *xprintf(const char *fmt, ...)
{
    gen_buf_t b = {0};
    va_list ap;
    va_start(ap, fmt);
    char tmp[1024];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    gen_buf_puts(&b, tmp);
    return b.data;
}

static void comment_f(gen_buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A doc comment from a format (wrapped by gen_buf_comment). */
static void comment_f(gen_buf_t *b, const char *fmt, ...)
{
    char tmp[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    gen_buf_comment(b, 0, 1, tmp);
}

/* A one-line description for a field's doc comment: description and unit. */
static void field_doc(const gen_field_t *f, gen_buf_t *t)
{
    if (f->description) {
        gen_buf_puts(t, f->description);
    }
    if (f->unit) {
        gen_buf_printf(t, "%s[%s]", f->description ? " " : "", f->unit);
    }
}

static void banner(const gen_schema_t *s, gen_buf_t *b, const char *what)
{
    gen_buf_t t = {0};
    gen_buf_printf(&t, "%s%s.%c: %s of schema %s version %s.\n", s->name, GEN_FILE_SUFFIX,
                   what[0] == 'e' ? 'h' : 'c', what, s->name, s->version);
    gen_buf_printf(&t, "Generated by evrec-gen (generator ABI %d) from %s", GEN_ABI, rel_path(s, 0));
    if (s->file_count > 1) {
        gen_buf_puts(&t, " (including");
        for (size_t i = 1; i < s->file_count; i++) {
            gen_buf_printf(&t, " %s%s", rel_path(s, i), i + 1 < s->file_count ? "," : "");
        }
        gen_buf_puts(&t, ")");
    }
    gen_buf_puts(&t, ". Do not edit: edit the schema and regenerate (schema/SCHEMA.md).\n"
                     "As an exception to the licence above, this file is made from your schema: "
                     "you may use, copy, modify and distribute it under terms of your choice.");
    gen_buf_puts(b, "/* SPDX-License-Identifier: Apache-2.0 */\n");
    gen_buf_comment(b, 0, 0, t.data);
    gen_buf_free(&t);
}

/* ---------------------------------------------------------------- header */

static void emit_enum(const gen_schema_t *s, gen_buf_t *b, size_t i)
{
    const gen_enum_t *e = &s->enums[i];
    const char *p = s->name;
    gen_buf_t t = {0};
    gen_buf_printf(&t, "%s (enum %s, id %zu)", e->name, width_name(e->width), i);
    if (e->has_runtime) {
        gen_buf_printf(&t, "; values in [%lu, %lu) are named while recording (%s_%s_alloc())",
                       (unsigned long)e->rt_base, (unsigned long)e->rt_lim, p, e->name);
    }
    gen_buf_puts(&t, e->description ? ": " : ".");
    if (e->description) {
        gen_buf_puts(&t, e->description);
    }
    gen_buf_puts(b, "\n");
    gen_buf_comment(b, 0, 1, t.data);
    gen_buf_free(&t);
    gen_buf_printf(b, "typedef %s %s_%s_t;\n", width_ctype(e->width), p, e->name);
    /* Values that fit an int are enum constants; larger uint32 values are macros (C11 enum
     * constants are ints). */
    size_t n_enum = 0;
    for (size_t v = 0; v < e->value_count; v++) {
        n_enum += e->values[v].value <= 0x7FFFFFFFu;
    }
    if (n_enum) {
        gen_buf_printf(b, "enum %s_%s {\n", p, e->name);
        size_t k = 0;
        for (size_t v = 0; v < e->value_count; v++) {
            const gen_value_t *val = &e->values[v];
            if (val->value > 0x7FFFFFFFu) {
                continue;
            }
            k++;
            if (val->description || val->marker) {
                gen_buf_t d = {0};
                if (val->marker) {
                    gen_buf_printf(&d, "Marker %s.%s", gen_marker_names[val->marker], val->description ? " " : "");
                }
                if (val->description) {
                    gen_buf_puts(&d, val->description);
                }
                gen_buf_comment(b, 4, 1, d.data);
                gen_buf_free(&d);
            }
            gen_buf_printf(b, "    %s_%s_%s = %lu%s\n", p, e->name, val->name, (unsigned long)val->value,
                           k < n_enum ? "," : "");
        }
        gen_buf_puts(b, "};\n");
    }
    for (size_t v = 0; v < e->value_count; v++) {
        const gen_value_t *val = &e->values[v];
        if (val->value > 0x7FFFFFFFu) {
            gen_buf_printf(b, "#define %s_%s_%s 0x%08lXu\n", p, e->name, val->name, (unsigned long)val->value);
        }
    }
    if (e->has_runtime) {
        gen_buf_t d = {0};
        gen_buf_printf(&d, "Names given while recording: %s_%s_runtime_names[v - %lu] names value v.", p, e->name,
                       (unsigned long)e->rt_base);
        gen_buf_comment(b, 0, 1, d.data);
        gen_buf_printf(b, "extern const char *%s_%s_runtime_names[%lu];\n", p, e->name,
                       (unsigned long)(e->rt_lim - e->rt_base));
        d.len = 0;
        gen_buf_printf(&d,
                       "Run-time enum object of %s (CCore EventEnumValue), referenced by %s_meta; "
                       "reset by %s_runtime_init().",
                       e->name, p, p);
        gen_buf_comment(b, 0, 1, d.data);
        gen_buf_free(&d);
        gen_buf_printf(b, "extern evrec_runtime_enum_t %s_%s_runtime;\n", p, e->name);
    }
}

static void emit_struct(const gen_schema_t *s, gen_buf_t *b, size_t i)
{
    const gen_struct_t *st = &s->structs[i];
    const char *p = s->name;
    gen_buf_t t = {0};
    if (st->event) {
        gen_buf_printf(&t, "%s (event id %zu, struct id %zu, %llu bytes", st->name, st->event_id, i,
                       (unsigned long long)st->size);
        const gen_event_t *ev = &s->events[st->event_id];
        if (ev->class_id != st->event_id) {
            gen_buf_printf(&t, ", class %s", s->structs[s->events[ev->class_id].struct_id].name);
        }
        gen_buf_puts(&t, ")");
    } else {
        gen_buf_printf(&t, "%s (struct id %zu, %llu bytes)", st->name, i, (unsigned long long)st->size);
    }
    gen_buf_puts(&t, st->description ? ": " : ".");
    if (st->description) {
        gen_buf_puts(&t, st->description);
    }
    gen_buf_puts(b, "\n");
    gen_buf_comment(b, 0, 1, t.data);
    gen_buf_free(&t);
    gen_buf_printf(b, "typedef struct %s_%s {\n", p, st->name);
    char tb[512];
    /* Members in offset order (schema_load.c's layout: largest alignment first); the meta-info
     * lists the fields in schema order with offsetof(). */
    size_t *order = st->field_count ? gen_xmalloc(st->field_count * sizeof *order) : NULL;
    for (size_t f = 0; f < st->field_count; f++) {
        size_t j = f;
        while (j > 0 && st->fields[order[j - 1]].offset > st->fields[f].offset) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = f;
    }
    for (size_t k = 0; k < st->field_count; k++) {
        size_t f = order[k];
        const gen_field_t *fd = &st->fields[f];
        gen_buf_t d = {0};
        if (st->event && f == 0) {
            gen_buf_puts(&d, "Timestamp, in port ticks (written by the recorder).");
        } else if (st->event && f == 1) {
            gen_buf_printf(&d, "Event id (%s_ID_%s; written by the recorder).", p, st->name);
        } else {
            field_doc(fd, &d);
        }
        if (d.len) {
            gen_buf_comment(b, 4, 1, d.data);
        }
        gen_buf_free(&d);
        gen_buf_printf(b, "    %s %s;\n", gen_field_ctype(s, fd, tb, sizeof tb), fd->name);
    }
    free(order);
    gen_buf_printf(b, "} %s_%s_t;\n", p, st->name);
}

static void emit_layout_checks(const gen_schema_t *s, gen_buf_t *b, size_t i)
{
    const gen_struct_t *st = &s->structs[i];
    char **args = gen_xmalloc(2 * sizeof *args);
    args[0] = xprintf("sizeof(%s_%s_t) == %llu", s->name, st->name, (unsigned long long)st->size);
    args[1] = xprintf("\"evrec-gen layout\"");
    emit_call(b, 0, "_Static_assert", args, 2, ";", 0);
    free(args[0]);
    free(args[1]);
    for (size_t f = 0; f < st->field_count; f++) {
        args[0] = xprintf("offsetof(%s_%s_t, %s) == %lu", s->name, st->name, st->fields[f].name,
                          (unsigned long)st->fields[f].offset);
        args[1] = xprintf("\"evrec-gen layout\"");
        emit_call(b, 0, "_Static_assert", args, 2, ";", 0);
        free(args[0]);
        free(args[1]);
    }
    free(args);
}

static void emit_record_function(const gen_schema_t *s, gen_buf_t *b, size_t ev)
{
    const gen_struct_t *st = &s->structs[s->events[ev].struct_id];
    const char *p = s->name;
    char tb[512];
    /* Doc comment. */
    gen_buf_t d = {0};
    gen_buf_printf(&d, "@brief Record %s (event id %zu)", st->name, ev);
    gen_buf_puts(&d, st->description ? ": " : ".");
    if (st->description) {
        gen_buf_puts(&d, st->description);
    }
    gen_buf_puts(&d, "\n@param evrec_host the host to record through (evrec_host_start()).");
    for (size_t f = 2; f < st->field_count; f++) {
        const gen_field_t *fd = &st->fields[f];
        gen_buf_printf(&d, "\n@param %s", fd->name);
        gen_buf_t fdoc = {0};
        field_doc(fd, &fdoc);
        if (fdoc.len) {
            gen_buf_printf(&d, " %s", fdoc.data);
        } else {
            gen_buf_printf(&d, " %s", gen_field_ctype(s, fd, tb, sizeof tb));
        }
        gen_buf_free(&fdoc);
    }
    gen_buf_puts(&d, "\nNothing is recorded when no recorder is attached; a full buffer counts a drop. "
                     "Compiles to nothing when EVREC_ENABLE is 0.\n"
                     "**Context:** lock-free; any thread, interrupt or signal handler.");
    gen_buf_puts(b, "\n");
    gen_buf_comment(b, 0, 1, d.data);
    gen_buf_free(&d);

    size_t n = st->field_count - 1;
    char **args = gen_xmalloc(n * sizeof *args);
    args[0] = xprintf("evrec_host_t *evrec_host");
    for (size_t f = 2; f < st->field_count; f++) {
        const gen_field_t *fd = &st->fields[f];
        args[f - 1] = xprintf("%s %s", gen_field_ctype(s, fd, tb, sizeof tb), fd->name);
    }
    char *head = xprintf("static inline void %s_record_%s", p, st->name);
    emit_call(b, 0, head, args, n, "", 1);
    free(head);
    free_args(args, n);
    gen_buf_puts(b, "{\n#if EVREC_ENABLE\n");
    char *decl = xprintf("    %s_%s_t *evrec_e = evrec_reserve(evrec_host, sizeof *evrec_e);", p, st->name);
    if (strlen(decl) <= GEN_COLUMNS) {
        gen_buf_printf(b, "%s\n", decl);
    } else {
        gen_buf_printf(b, "    %s_%s_t *evrec_e =\n        evrec_reserve(evrec_host, sizeof *evrec_e);\n", p,
                       st->name);
    }
    free(decl);
    gen_buf_puts(b, "    if (evrec_e) {\n");
    for (size_t f = 2; f < st->field_count; f++) {
        const char *fn = st->fields[f].name;
        if (8 + 9 + 2 * strlen(fn) + 4 <= GEN_COLUMNS) {
            gen_buf_printf(b, "        evrec_e->%s = %s;\n", fn, fn);
        } else {
            gen_buf_printf(b, "        evrec_e->%s =\n            %s;\n", fn, fn);
        }
    }
    args = gen_xmalloc(2 * sizeof *args);
    args[0] = xprintf("evrec_e");
    args[1] = xprintf("%s_ID_%s", p, st->name);
    emit_call(b, 8, "evrec_commit", args, 2, ";", 0);
    free_args(args, 2);
    gen_buf_puts(b, "    }\n#else\n    (void)evrec_host;\n");
    for (size_t f = 2; f < st->field_count; f++) {
        gen_buf_printf(b, "    (void)%s;\n", st->fields[f].name);
    }
    gen_buf_puts(b, "#endif\n}\n");
}

static void emit_alloc_function(const gen_schema_t *s, gen_buf_t *b, const gen_enum_t *e)
{
    const char *p = s->name;
    gen_buf_t d = {0};
    gen_buf_printf(&d,
                   "@brief Give the next free %s value in [%lu, %lu) the name `name` "
                   "(CCore EventEnumValue); the name appears in the saved meta-info.\n"
                   "@param[in] name NUL-terminated; kept alive by the caller until the file is saved.\n"
                   "@param[out] value the value; on EVREC_E_EXHAUSTED the range's lim cut to the "
                   "enum's width.\n"
                   "@retval EVREC_OK named. @retval EVREC_E_EXHAUSTED no value left. "
                   "@retval EVREC_E_ARG NULL pointer.\n"
                   "With EVREC_ENABLE 0: `*value` = %lu, EVREC_OK, nothing stored.\n"
                   "**Context:** lock-free; any thread or interrupt.",
                   e->name, (unsigned long)e->rt_base, (unsigned long)e->rt_lim, (unsigned long)e->rt_base);
    gen_buf_puts(b, "\n");
    gen_buf_comment(b, 0, 1, d.data);
    gen_buf_free(&d);
    char **args = gen_xmalloc(2 * sizeof *args);
    args[0] = xprintf("const char *name");
    args[1] = xprintf("%s_%s_t *value", p, e->name);
    char *head = xprintf("static inline evrec_status %s_%s_alloc", p, e->name);
    emit_call(b, 0, head, args, 2, "", 1);
    free(head);
    free_args(args, 2);
    gen_buf_printf(b,
                   "{\n"
                   "#if EVREC_ENABLE\n"
                   "    uint32_t v = 0;\n"
                   "    evrec_status st = evrec_runtime_enum_alloc(&%s_%s_runtime, name, &v);\n"
                   "    if (value) {\n"
                   "        *value = (%s_%s_t)v;\n"
                   "    }\n"
                   "    return st;\n"
                   "#else\n"
                   "    (void)name;\n"
                   "    if (value) {\n"
                   "        *value = %lu;\n"
                   "    }\n"
                   "    return EVREC_OK;\n"
                   "#endif\n"
                   "}\n",
                   p, e->name, p, e->name, (unsigned long)e->rt_base);
}

static int has_runtime(const gen_schema_t *s)
{
    for (size_t i = 0; i < s->enum_count; i++) {
        if (s->enums[i].has_runtime) {
            return 1;
        }
    }
    return 0;
}

static char *upper(const char *s)
{
    char *u = gen_xstrdup(s);
    for (char *q = u; *q; q++) {
        if (*q >= 'a' && *q <= 'z') {
            *q = (char)(*q - 'a' + 'A');
        }
    }
    return u;
}

void gen_emit_header(const gen_schema_t *s, gen_buf_t *b)
{
    const char *p = s->name;
    char *guard = upper(p);
    banner(s, b, "event types, ids and record functions");
    gen_buf_printf(b, "#ifndef %s_EVENTS_H\n#define %s_EVENTS_H\n\n", guard, guard);
    gen_buf_puts(b, "#include <stddef.h>\n#include <stdint.h>\n\n"
                    "#include \"evrec/evrec_config.h\"\n"
                    "#include \"evrec/evrec_gen.h\"\n"
                    "#include \"evrec/evrec_meta.h\"\n"
                    "#include \"evrec/evrec_recorder.h\"\n"
                    "#include \"evrec/evrec_status.h\"\n\n");
    /* evrec_gen.h of this evrec says which generator ABI it expects; a mismatch means the file
     * was generated by another evrec-gen (GEN_ABI moves with the major version). */
    gen_buf_printf(b,
                   "#if EVREC_GEN_ABI != %d\n"
                   "#error \"generated for another generator ABI: regenerate with this evrec's "
                   "evrec-gen\"\n"
                   "#endif\n",
                   GEN_ABI);
    if (s->description) {
        gen_buf_puts(b, "\n");
        gen_buf_comment(b, 0, 1, s->description);
    }
    gen_buf_puts(b, "\n");
    comment_f(b, "Version of the schema, as written in %s.", rel_path(s, 0));
    gen_buf_printf(b, "#define %s_SCHEMA_VERSION \"%s\"\n", p, s->version);
    comment_f(b, "xxHash64 of the canonical meta-info (format/FORMAT.md section 4); equals %s_meta.schema_hash.",
              p);
    gen_buf_printf(b, "#define %s_SCHEMA_HASH UINT64_C(0x%016" PRIx64 ")\n", p, s->hash);

    gen_buf_puts(b, "\n/* ---- Enums ---- */\n");
    for (size_t i = 0; i < s->enum_count; i++) {
        emit_enum(s, b, i);
    }
    gen_buf_puts(b, "\n/* ---- Structs and events ---- */\n");
    for (size_t i = 0; i < s->struct_count; i++) {
        emit_struct(s, b, i);
    }
    gen_buf_puts(b, "\n/* Layout checks: the meta-info's offsets and sizes are those of these structs. */\n");
    for (size_t i = 0; i < s->struct_count; i++) {
        emit_layout_checks(s, b, i);
    }
    gen_buf_puts(b, "\n");
    comment_f(b, "Event ids: the index of each event type in %s_meta.events.", p);
    gen_buf_puts(b, "enum {\n");
    for (size_t i = 0; i < s->event_count; i++) {
        gen_buf_printf(b, "    %s_ID_%s = %zu%s\n", p, s->structs[s->events[i].struct_id].name, i,
                       i + 1 < s->event_count ? "," : "");
    }
    gen_buf_puts(b, "};\n");
    gen_buf_printf(b, "/** Number of event types, EventControl included. */\n#define %s_EVENT_COUNT %zuu\n", p,
                   s->event_count);

    gen_buf_puts(b, "\n");
    comment_f(b, "The meta-info of schema %s (static const tables): give it to evrec_host_start().", p);
    gen_buf_printf(b, "extern const evrec_meta_t %s_meta;\n", p);
    comment_f(b, "Display attributes of fields (description, format, unit) for host tools; not "
                 "part of the meta-info nor of the schema hash.");
    gen_buf_printf(b, "extern const evrec_field_info_table_t %s_field_info;\n", p);
    if (s->syst.present) {
        const gen_syst_t *y = &s->syst;
        gen_buf_puts(b, "\n/* ---- MIPI SyS-T: the schema's syst: block (format/syst/SYST.md) ---- */\n");
        comment_f(b,
                  "1: the origin is %s_SYST_GUID; 0: %s_SYST_MODULE and %s_SYST_UNIT "
                  "(evrec_syst_options_t::use_guid, guid, module, unit).",
                  p, p, p);
        gen_buf_printf(b, "#define %s_SYST_USE_GUID %d\n#define %s_SYST_GUID {", p, y->use_guid, p);
        for (int i = 0; i < 16; i++) {
            gen_buf_printf(b, "0x%02X%s", y->guid[i], i < 15 ? ", " : "}\n");
        }
        gen_buf_printf(b, "#define %s_SYST_MODULE %uu\n#define %s_SYST_UNIT %uu\n", p, y->module, p, y->unit);
        comment_f(b, "The default severity (EVREC_SYST_SEV_*): evrec_syst_options_t::severity.");
        gen_buf_printf(b, "#define %s_SYST_SEVERITY %uu\n", p, y->severity);
        comment_f(b,
                  "The severity of each event type (EVREC_SYST_SEV_*, 0xFF = %s_SYST_SEVERITY), by "
                  "event id: evrec_syst_options_t::event_severity.",
                  p);
        gen_buf_printf(b, "extern const uint8_t %s_syst_severity[%s_EVENT_COUNT];\n", p, p);
    }
    if (has_runtime(s)) {
        gen_buf_puts(b, "\n");
        gen_buf_comment(b, 0, 1,
                        "@brief Reset every run-time enum of the schema: no names, allocation "
                        "restarts at base. Call before evrec_host_start() of a new recording.\n"
                        "@retval EVREC_OK done (always, for generated tables).\n"
                        "**Context:** thread; not while any context allocates names.");
        gen_buf_printf(b, "evrec_status %s_runtime_init(void);\n", p);
        for (size_t i = 0; i < s->enum_count; i++) {
            if (s->enums[i].has_runtime) {
                emit_alloc_function(s, b, &s->enums[i]);
            }
        }
    }
    gen_buf_puts(b, "\n/* ---- Record functions ---- */\n");
    for (size_t i = 1; i < s->event_count; i++) {
        emit_record_function(s, b, i);
    }
    gen_buf_printf(b, "\n#endif /* %s_EVENTS_H */\n", guard);
    free(guard);
}

/* ---------------------------------------------------------------- source */

/* An initializer row `{a, b, ...},` at indent 4, wrapped as clang-format does when too long. */
static void emit_row(gen_buf_t *b, char **args, size_t n)
{
    emit_list(b, 4, "", '{', '}', args, n, ",", 0);
}

static char *leaf_text(uint16_t leaf)
{
    return leaf == EVREC_TRACKS_NONE ? xprintf("EVREC_TRACKS_NONE") : xprintf("%u", (unsigned)leaf);
}

/* Tracks, spans and counters (schema_tracks.c resolved them): static tables and NAME_view. */
static void emit_tracks(const gen_schema_t *s, gen_buf_t *b)
{
    const char *p = s->name;
    gen_meta_t m;
    gen_meta_build(s, &m);
    const evrec_tracks_t *v = &m.model;
    if (v->track_count) {
        gen_buf_printf(b,
                       "\n/* Tracks: {event id, leaf} (leaves: 0 time, 1 id, then the fields depth first). */\n"
                       "static const evrec_track_desc_t %s_tracks[%lu] = {\n",
                       p, (unsigned long)v->track_count);
        for (uint32_t i = 0; i < v->track_count; i++) {
            const evrec_track_desc_t *t = &v->tracks[i];
            gen_buf_printf(b, "    {%u, %u}, /* %s: %s */\n", (unsigned)t->event_id, (unsigned)t->leaf,
                           s->structs[s->events[t->event_id].struct_id].name,
                           gen_leaf_path(s, t->event_id, t->leaf));
        }
        gen_buf_puts(b, "};\n");
    }
    if (v->span_count) {
        gen_buf_printf(
            b,
            "\n/* Spans: {name, begin, end, track leaf}; an end: {event, match leaf, value, key leaf}. */\n"
            "static const evrec_span_desc_t %s_spans[%lu] = {\n",
            p, (unsigned long)v->span_count);
        for (uint32_t i = 0; i < v->span_count; i++) {
            const evrec_span_desc_t *sp = &v->spans[i];
            const evrec_span_end_t *ends[2] = {&sp->begin, &sp->end};
            char *args[4];
            gen_buf_t str = {0};
            gen_buf_puts(&str, "\"");
            gen_buf_c_string(&str, sp->name);
            gen_buf_puts(&str, "\"");
            args[0] = str.data;
            for (int k = 0; k < 2; k++) {
                char *ml = leaf_text(ends[k]->match_leaf), *kl = leaf_text(ends[k]->key_leaf);
                args[1 + k] = xprintf("{%u, %s, %lu, %s}", (unsigned)ends[k]->event_id, ml,
                                      (unsigned long)ends[k]->match_value, kl);
                free(ml);
                free(kl);
            }
            args[3] = leaf_text(sp->track_leaf);
            emit_row(b, args, 4);
            for (int k = 0; k < 4; k++) {
                free(args[k]);
            }
        }
        gen_buf_puts(b, "};\n");
    }
    if (v->counter_count) {
        gen_buf_printf(
            b,
            "\n/* Counters: {struct id, field index, 1 + series field index or 0} of fields to plot over time. */\n"
            "static const evrec_counter_desc_t %s_counters[%lu] = {\n",
            p, (unsigned long)v->counter_count);
        for (uint32_t i = 0; i < v->counter_count; i++) {
            const evrec_counter_desc_t *c = &v->counters[i];
            gen_buf_printf(b, "    {%u, %u, %u}, /* %s.%s */\n", (unsigned)c->struct_id, (unsigned)c->field_index,
                           (unsigned)c->series, s->structs[c->struct_id].name,
                           s->structs[c->struct_id].fields[c->field_index].name);
        }
        gen_buf_puts(b, "};\n");
    }
    gen_buf_printf(b, "\nstatic const evrec_tracks_t %s_track_model = {\n", p);
    gen_buf_printf(b, "    .track_count = %lu,\n", (unsigned long)v->track_count);
    if (v->track_count) {
        gen_buf_printf(b, "    .tracks = %s_tracks,\n", p);
    }
    gen_buf_printf(b, "    .span_count = %lu,\n", (unsigned long)v->span_count);
    if (v->span_count) {
        gen_buf_printf(b, "    .spans = %s_spans,\n", p);
    }
    gen_buf_printf(b, "    .counter_count = %lu,\n", (unsigned long)v->counter_count);
    if (v->counter_count) {
        gen_buf_printf(b, "    .counters = %s_counters,\n", p);
    }
    gen_buf_puts(b, "};\n");
    gen_meta_free(&m);
}

/* Frees the n strings of a row on the stack. */
static void free_row(char **args, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        free(args[k]);
    }
}

/* `text` as a C string literal (quoted, escaped); the caller frees it. */
static char *c_literal(const char *text)
{
    gen_buf_t str = {0};
    gen_buf_puts(&str, "\"");
    gen_buf_c_string(&str, text);
    gen_buf_puts(&str, "\"");
    return str.data;
}

/* The values of enum i, sorted by value (the meta-info wants them ascending). */
static void emit_enum_values(const gen_schema_t *s, gen_buf_t *b, size_t i)
{
    const char *p = s->name;
    const gen_enum_t *e = &s->enums[i];
    gen_value_t *sorted = gen_xmalloc(e->value_count * sizeof *sorted);
    memcpy(sorted, e->values, e->value_count * sizeof *sorted);
    for (size_t a = 1; a < e->value_count; a++) { /* insertion sort: stable, small */
        gen_value_t x = sorted[a];
        size_t k = a;
        while (k > 0 && sorted[k - 1].value > x.value) {
            sorted[k] = sorted[k - 1];
            k--;
        }
        sorted[k] = x;
    }
    gen_buf_printf(b, "\n/* %s */\nstatic const evrec_enum_value_t %s_values_%zu[%zu] = {\n", e->name, p, i,
                   e->value_count);
    for (size_t v = 0; v < e->value_count; v++) {
        char *args[3];
        args[0] = xprintf("%s_%s_%s", p, e->name, sorted[v].name);
        args[1] = c_literal(sorted[v].name);
        args[2] = xprintf("%s", marker_macro(sorted[v].marker));
        emit_row(b, args, 3);
        free_row(args, 3);
    }
    gen_buf_puts(b, "};\n");
    free(sorted);
}

/* The storage of a run-time enum: its names and its evrec_runtime_enum_t. */
static void emit_runtime_storage(const gen_schema_t *s, gen_buf_t *b, const gen_enum_t *e)
{
    const char *p = s->name;
    gen_buf_printf(b, "\nconst char *%s_%s_runtime_names[%lu];\n", p, e->name,
                   (unsigned long)(e->rt_lim - e->rt_base));
    gen_buf_printf(b, "evrec_runtime_enum_t %s_%s_runtime = {\n", p, e->name);
    gen_buf_printf(b, "    .base = %lu,\n    .lim = %lu,\n    .marker = %s,\n", (unsigned long)e->rt_base,
                   (unsigned long)e->rt_lim, marker_macro(e->rt_marker));
    gen_buf_printf(b, "    .names = %s_%s_runtime_names,\n    .next = %lu,\n};\n", p, e->name,
                   (unsigned long)e->rt_base);
}

/* The fields of struct i. */
static void emit_field_table(const gen_schema_t *s, gen_buf_t *b, size_t i)
{
    const char *p = s->name;
    const gen_struct_t *st = &s->structs[i];
    gen_buf_printf(b, "\n/* %s */\nstatic const evrec_field_desc_t %s_fields_%zu[%zu] = {\n", st->name, p, i,
                   st->field_count);
    for (size_t f = 0; f < st->field_count; f++) {
        const gen_field_t *fd = &st->fields[f];
        char *args[4];
        args[0] = c_literal(fd->name);
        args[1] = xprintf("%s", kind_macro(gen_field_kind(s, fd)));
        args[2] = xprintf("%zu", fd->type >= GEN_T_ENUM ? fd->ref : (size_t)0);
        args[3] = xprintf("offsetof(%s_%s_t, %s)", p, st->name, fd->name);
        emit_row(b, args, 4);
        free_row(args, 4);
    }
    gen_buf_puts(b, "};\n");
}

static void emit_enum_table(const gen_schema_t *s, gen_buf_t *b)
{
    const char *p = s->name;
    gen_buf_printf(b, "\nstatic const evrec_enum_desc_t %s_enums[%zu] = {\n", p, s->enum_count);
    for (size_t i = 0; i < s->enum_count; i++) {
        const gen_enum_t *e = &s->enums[i];
        char *args[5];
        args[0] = c_literal(e->name);
        args[1] = xprintf("%s", kind_macro((uint8_t)(e->width == 1   ? EVREC_KIND_ENUM_UINT8
                                                     : e->width == 2 ? EVREC_KIND_ENUM_UINT16
                                                                     : EVREC_KIND_ENUM_UINT32)));
        args[2] = xprintf("%zu", e->value_count);
        args[3] = e->value_count ? xprintf("%s_values_%zu", p, i) : xprintf("NULL");
        args[4] = e->has_runtime ? xprintf("&%s_%s_runtime", p, e->name) : xprintf("NULL");
        emit_row(b, args, 5);
        free_row(args, 5);
    }
    gen_buf_puts(b, "};\n");
}

static void emit_struct_table(const gen_schema_t *s, gen_buf_t *b)
{
    const char *p = s->name;
    gen_buf_printf(b, "\nstatic const evrec_struct_desc_t %s_structs[%zu] = {\n", p, s->struct_count);
    for (size_t i = 0; i < s->struct_count; i++) {
        const gen_struct_t *st = &s->structs[i];
        char *args[4];
        args[0] = c_literal(st->name);
        args[1] = xprintf("%zu", st->field_count);
        args[2] = xprintf("%s_fields_%zu", p, i);
        args[3] = xprintf("sizeof(%s_%s_t)", p, st->name);
        emit_row(b, args, 4);
        free_row(args, 4);
    }
    gen_buf_puts(b, "};\n");
}

static void emit_event_table(const gen_schema_t *s, gen_buf_t *b)
{
    gen_buf_printf(b,
                   "\n/* {struct id, class id} of each event, in id order. */\n"
                   "static const evrec_event_desc_t %s_events[%zu] = {\n",
                   s->name, s->event_count);
    for (size_t i = 0; i < s->event_count; i++) {
        gen_buf_printf(b, "    {%zu, %zu}, /* %s */\n", s->events[i].struct_id, s->events[i].class_id,
                       s->structs[s->events[i].struct_id].name);
    }
    gen_buf_puts(b, "};\n");
}

/* The meta object (and the track tables it points to). */
static void emit_meta_object(const gen_schema_t *s, gen_buf_t *b)
{
    const char *p = s->name;
    int view = gen_tracks_present(s);
    if (view) {
        emit_tracks(s, b);
    }
    gen_buf_printf(b,
                   "\nconst evrec_meta_t %s_meta = {\n"
                   "    .time_freq = %" PRIu64 "u,\n"
                   "    .enum_count = %zu,\n"
                   "    .enums = %s_enums,\n"
                   "    .struct_count = %zu,\n"
                   "    .structs = %s_structs,\n"
                   "    .event_count = %zu,\n"
                   "    .events = %s_events,\n"
                   "    .schema_hash = %s_SCHEMA_HASH,\n"
                   "    .field_info = &%s_field_info,\n",
                   p, s->time_freq, s->enum_count, p, s->struct_count, p, s->event_count, p, p, p);
    if (view) {
        gen_buf_printf(b, "    .tracks = &%s_track_model,\n", p);
    }
    gen_buf_puts(b, "};\n");
}

static int has_field_info(const gen_field_t *fd)
{
    return fd->description || fd->unit || fd->display;
}

/* One row of the field display attributes: field f of struct i. */
static void emit_field_info_row(gen_buf_t *b, size_t i, size_t f, const gen_field_t *fd)
{
    char *args[5];
    args[0] = xprintf("%zu", i);
    args[1] = xprintf("%zu", f);
    args[2] = xprintf("%s", display_macro(fd->display));
    args[3] = fd->unit ? c_literal(fd->unit) : xprintf("NULL");
    args[4] = fd->description ? c_literal(fd->description) : xprintf("NULL");
    emit_row(b, args, 5);
    free_row(args, 5);
}

/* Field display attributes: the entries of the fields that have some, and the table. */
static void emit_field_info(const gen_schema_t *s, gen_buf_t *b)
{
    const char *p = s->name;
    size_t n_info = 0;
    for (size_t i = 0; i < s->struct_count; i++) {
        for (size_t f = 0; f < s->structs[i].field_count; f++) {
            n_info += has_field_info(&s->structs[i].fields[f]);
        }
    }
    if (n_info) {
        gen_buf_printf(b,
                       "\n/* {struct id, field index, format, unit, description} */\n"
                       "static const evrec_field_info_t %s_field_info_entries[%zu] = {\n",
                       p, n_info);
        for (size_t i = 0; i < s->struct_count; i++) {
            for (size_t f = 0; f < s->structs[i].field_count; f++) {
                if (has_field_info(&s->structs[i].fields[f])) {
                    emit_field_info_row(b, i, f, &s->structs[i].fields[f]);
                }
            }
        }
        gen_buf_puts(b, "};\n");
    }
    gen_buf_printf(b,
                   "\nconst evrec_field_info_table_t %s_field_info = {\n"
                   "    .schema_hash = %s_SCHEMA_HASH,\n"
                   "    .count = %zu,\n",
                   p, p, n_info);
    if (n_info) {
        gen_buf_printf(b, "    .entries = %s_field_info_entries,\n", p);
    } else {
        gen_buf_puts(b, "    .entries = NULL,\n");
    }
    gen_buf_puts(b, "};\n");
}

static void emit_syst_severity(const gen_schema_t *s, gen_buf_t *b)
{
    const char *p = s->name;
    gen_buf_printf(b, "\nconst uint8_t %s_syst_severity[%s_EVENT_COUNT] = {", p, p);
    for (size_t i = 0; i < s->event_count; i++) {
        gen_buf_printf(b, "%s0x%02X", i ? ", " : "", s->syst.event_severity ? s->syst.event_severity[i] : 0xFFu);
    }
    gen_buf_puts(b, "};\n");
}

/* <name>_runtime_init(): registers every run-time enum. */
static void emit_runtime_init(const gen_schema_t *s, gen_buf_t *b)
{
    const char *p = s->name;
    gen_buf_printf(b, "\nevrec_status %s_runtime_init(void)\n{\n#if EVREC_ENABLE\n", p);
    for (size_t i = 0; i < s->enum_count; i++) {
        const gen_enum_t *e = &s->enums[i];
        if (!e->has_runtime) {
            continue;
        }
        char *args[5];
        args[0] = xprintf("&%s_%s_runtime", p, e->name);
        args[1] = xprintf("%lu", (unsigned long)e->rt_base);
        args[2] = xprintf("%lu", (unsigned long)e->rt_lim);
        args[3] = xprintf("%s", marker_macro(e->rt_marker));
        args[4] = xprintf("%s_%s_runtime_names", p, e->name);
        emit_call(b, 4, "(void)evrec_runtime_enum_init", args, 5, ";", 0);
        free_row(args, 5);
    }
    gen_buf_puts(b, "#endif\n    return EVREC_OK;\n}\n");
}

void gen_emit_source(const gen_schema_t *s, gen_buf_t *b)
{
    banner(s, b, "meta-info tables");
    gen_buf_printf(b, "#include \"%s%s.h\"\n", s->name, GEN_FILE_SUFFIX);
    for (size_t i = 0; i < s->enum_count; i++) {
        if (s->enums[i].value_count) {
            emit_enum_values(s, b, i);
        }
    }
    for (size_t i = 0; i < s->enum_count; i++) {
        if (s->enums[i].has_runtime) {
            emit_runtime_storage(s, b, &s->enums[i]);
        }
    }
    for (size_t i = 0; i < s->struct_count; i++) {
        emit_field_table(s, b, i);
    }
    emit_enum_table(s, b);
    emit_struct_table(s, b);
    emit_event_table(s, b);
    emit_meta_object(s, b);
    emit_field_info(s, b);
    if (s->syst.present) {
        emit_syst_severity(s, b);
    }
    if (has_runtime(s)) {
        emit_runtime_init(s, b);
    }
}
