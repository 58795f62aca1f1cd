/* SPDX-License-Identifier: Apache-2.0 */
/* Which C identifiers a schema may not make: C keywords and reserved forms (C11 6.4.1, 7.1.3),
 * the macros and types of the standard headers a program includes next to the generated one
 * (C11 7.17 stddef.h, 7.18 stdbool.h, 7.20 stdint.h, 5.2.4.2.1 limits.h, 7.5 errno.h, 7.21
 * stdio.h, ...) with the names C reserves for their future (7.31), the evrec library's names, and
 * the macros GCC predefines in its GNU modes. SCHEMA.md, "Names", lists the rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"

typedef struct named {
    const char *name;
    const char *what;
} named_t;

/* Every evrec_* and EVREC_* name of the headers the generated code includes, sorted (made at
 * configure time from the headers: schema/CMakeLists.txt). */
static const named_t evrec_names[] = {
#include "evrec_names.inc"
};

static const char *const keywords[] = {
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Bool",
    "_Complex",
    "_Generic",
    "_Imaginary",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
    /* C23 keywords: a schema must keep compiling with the next standard. */
    "alignas",
    "alignof",
    "bool",
    "constexpr",
    "false",
    "nullptr",
    "static_assert",
    "thread_local",
    "true",
    "typeof",
    "typeof_unqual",
};

/* Object-like macros and type names of standard headers: they are replaced, or shadowed, wherever
 * a generated name is written. Function-like macros (offsetof, assert) only matter before a '(',
 * which no generated name has; they are listed all the same, to keep the rule simple. */
static const named_t std_names[] = {
    {"NULL", "stddef.h"},
    {"offsetof", "stddef.h"},
    {"size_t", "stddef.h"},
    {"ptrdiff_t", "stddef.h"},
    {"wchar_t", "stddef.h"},
    {"max_align_t", "stddef.h"},
    {"nullptr_t", "stddef.h"},
    {"unreachable", "stddef.h"},
    {"intptr_t", "stdint.h"},
    {"uintptr_t", "stdint.h"},
    {"intmax_t", "stdint.h"},
    {"uintmax_t", "stdint.h"},
    {"PTRDIFF_MIN", "stdint.h"},
    {"PTRDIFF_MAX", "stdint.h"},
    {"SIZE_MAX", "stdint.h"},
    {"SIG_ATOMIC_MIN", "stdint.h"},
    {"SIG_ATOMIC_MAX", "stdint.h"},
    {"WCHAR_MIN", "stdint.h"},
    {"WCHAR_MAX", "stdint.h"},
    {"WINT_MIN", "stdint.h"},
    {"WINT_MAX", "stdint.h"},
    {"CHAR_BIT", "limits.h"},
    {"SCHAR_MIN", "limits.h"},
    {"SCHAR_MAX", "limits.h"},
    {"UCHAR_MAX", "limits.h"},
    {"CHAR_MIN", "limits.h"},
    {"CHAR_MAX", "limits.h"},
    {"MB_LEN_MAX", "limits.h"},
    {"SHRT_MIN", "limits.h"},
    {"SHRT_MAX", "limits.h"},
    {"USHRT_MAX", "limits.h"},
    {"LONG_MIN", "limits.h"},
    {"LONG_MAX", "limits.h"},
    {"ULONG_MAX", "limits.h"},
    {"LLONG_MIN", "limits.h"},
    {"LLONG_MAX", "limits.h"},
    {"ULLONG_MAX", "limits.h"},
    {"INT_MIN", "limits.h"},
    {"INT_MAX", "limits.h"},
    {"UINT_MAX", "limits.h"},
    {"errno", "errno.h"},
    {"EOF", "stdio.h"},
    {"BUFSIZ", "stdio.h"},
    {"FILENAME_MAX", "stdio.h"},
    {"FOPEN_MAX", "stdio.h"},
    {"L_tmpnam", "stdio.h"},
    {"TMP_MAX", "stdio.h"},
    {"SEEK_SET", "stdio.h"},
    {"SEEK_CUR", "stdio.h"},
    {"SEEK_END", "stdio.h"},
    {"stdin", "stdio.h"},
    {"stdout", "stdio.h"},
    {"stderr", "stdio.h"},
    {"FILE", "stdio.h"},
    {"fpos_t", "stdio.h"},
    {"EXIT_SUCCESS", "stdlib.h"},
    {"EXIT_FAILURE", "stdlib.h"},
    {"RAND_MAX", "stdlib.h"},
    {"MB_CUR_MAX", "stdlib.h"},
    {"div_t", "stdlib.h"},
    {"ldiv_t", "stdlib.h"},
    {"lldiv_t", "stdlib.h"},
    {"assert", "assert.h"},
    {"NDEBUG", "assert.h (defined by release builds)"},
    {"noreturn", "stdnoreturn.h"},
    {"complex", "complex.h"},
    {"imaginary", "complex.h"},
    {"I", "complex.h"},
    {"va_list", "stdarg.h"},
    {"jmp_buf", "setjmp.h"},
    {"sig_atomic_t", "signal.h"},
    {"time_t", "time.h"},
    {"clock_t", "time.h"},
    {"CLOCKS_PER_SEC", "time.h"},
    {"and", "iso646.h"},
    {"and_eq", "iso646.h"},
    {"bitand", "iso646.h"},
    {"bitor", "iso646.h"},
    {"compl", "iso646.h"},
    {"not", "iso646.h"},
    {"not_eq", "iso646.h"},
    {"or", "iso646.h"},
    {"or_eq", "iso646.h"},
    {"xor", "iso646.h"},
    {"xor_eq", "iso646.h"},
    {"linux", "GCC in its GNU modes (-std=gnu11), predefined as 1"},
    {"unix", "GCC in its GNU modes (-std=gnu11), predefined as 1"},
    {"i386", "GCC in its GNU modes (-std=gnu11) on x86, predefined as 1"},
};

/* Names the generated record functions use next to the field names. */
static const named_t local_names[] = {
    {"evrec_host", "the first parameter of every record function"},
    {"evrec_e", "the local variable of every record function (the record being written)"},
};

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int ends(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int upper_or_digit(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* The name patterns C reserves for its headers (C11 7.31). NULL when none applies. A generated
 * identifier (`file_scope`) always holds a '_' after the schema name, which errno.h's and
 * signal.h's macros (EINVAL, SIGINT) never do: those two patterns would only refuse schema names
 * such as ECU or SIGNAL, and apply to field names alone. */
static const char *reserved_pattern(const char *id, int file_scope)
{
    if (!file_scope && id[0] == 'E' && upper_or_digit(id[1])) {
        return "the macros errno.h reserves (E and a digit or capital letter, as EINVAL)";
    }
    if ((starts(id, "int") || starts(id, "uint")) && ends(id, "_t")) {
        return "the type names stdint.h reserves (int..._t and uint..._t)";
    }
    if ((starts(id, "INT") || starts(id, "UINT")) &&
        (ends(id, "_MAX") || ends(id, "_MIN") || ends(id, "_C") || ends(id, "_WIDTH"))) {
        return "the macros stdint.h reserves (INT... and UINT... ending in _MAX, _MIN, _C or "
               "_WIDTH)";
    }
    if ((starts(id, "PRI") || starts(id, "SCN")) && ((id[3] >= 'a' && id[3] <= 'z') || id[3] == 'X')) {
        return "the macros inttypes.h reserves (PRI or SCN and a small letter or X)";
    }
    if (starts(id, "SIG") && ((!file_scope && upper_or_digit(id[3])) || id[3] == '_')) {
        return "the macros signal.h reserves (SIG and a capital letter, or SIG_)";
    }
    if (starts(id, "LC_") && id[3] >= 'A' && id[3] <= 'Z') {
        return "the macros locale.h reserves (LC_ and a capital letter)";
    }
    if (starts(id, "ATOMIC_") && id[7] >= 'A' && id[7] <= 'Z') {
        return "the macros stdatomic.h reserves (ATOMIC_ and a capital letter)";
    }
    return NULL;
}

static int named_cmp(const void *key, const void *item)
{
    return strcmp(key, ((const named_t *)item)->name);
}

/* The evrec library's names: the known ones with their header, the rest of the prefixes too. */
static const char *evrec_name(const char *id, char *buf, size_t n)
{
    if (!starts(id, "evrec_") && !starts(id, "EVREC_")) {
        return NULL;
    }
    const named_t *hit = bsearch(id, evrec_names, sizeof evrec_names / sizeof evrec_names[0],
                                 sizeof evrec_names[0], named_cmp);
    if (hit) {
        snprintf(buf, n, "the evrec name %s (%s, which the generated code includes)", id, hit->what);
    } else {
        snprintf(buf, n,
                 "the evrec library's namespace (evrec_*, EVREC_*: its headers, which the "
                 "generated code includes, and the generated code's own locals)");
    }
    return buf;
}

int gen_c_keyword(const char *id)
{
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
        if (strcmp(id, keywords[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

const char *gen_ident_collision(const char *id, int file_scope, char *buf, size_t n)
{
    if (gen_c_keyword(id)) {
        return "a C keyword";
    }
    if (id[0] == '_' && ((id[1] >= 'A' && id[1] <= 'Z') || id[1] == '_')) {
        return "the names C reserves everywhere (_ and a capital letter, or __)";
    }
    if (file_scope && id[0] == '_') {
        return "the names C reserves at file scope (starting with _)";
    }
    for (size_t i = 0; i < sizeof std_names / sizeof std_names[0]; i++) {
        if (strcmp(id, std_names[i].name) == 0) {
            snprintf(buf, n, "%s of %s", id, std_names[i].what);
            return buf;
        }
    }
    for (size_t i = 0; i < sizeof local_names / sizeof local_names[0]; i++) {
        if (strcmp(id, local_names[i].name) == 0) {
            snprintf(buf, n, "%s, %s", id, local_names[i].what);
            return buf;
        }
    }
    const char *e = evrec_name(id, buf, n);
    return e ? e : reserved_pattern(id, file_scope);
}
