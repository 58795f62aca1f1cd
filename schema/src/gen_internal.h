/* SPDX-License-Identifier: Apache-2.0 */
/* evrec-gen internals: the parsed schema model, diagnostics, text buffers, and the phases
 * (load + check, meta build, emit). Not installed. */
#ifndef EVREC_GEN_INTERNAL_H
#define EVREC_GEN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <yaml.h>

#include "evrec/evrec_meta.h"

/** Version of the generator, printed in the banner of every generated file. */
/** Generator ABI written into generated headers; must equal EVREC_GEN_ABI of evrec_gen.h. */
#define GEN_ABI 4
/** Column limit of the generated code (schema/.clang-format). */
#define GEN_COLUMNS 100

/* ---------------------------------------------------------------- diagnostics (diag.c) */

/** A position in a schema file; line and column are 1-based (libyaml marks are 0-based). */
typedef struct gen_pos {
    unsigned file; /**< index in gen_schema_t::files; GEN_BUILTIN for built-in items */
    unsigned line;
    unsigned col;
} gen_pos_t;

#define GEN_BUILTIN 0xFFFFFFFFu

typedef struct gen_diag {
    gen_pos_t pos;
    size_t seq; /* discovery order, to keep the sort stable */
    char *msg;
} gen_diag_t;

typedef struct gen_diags {
    gen_diag_t *items;
    size_t count, cap;
} gen_diags_t;

struct gen_schema;

/** Record an error at `pos` (printf format). Never fails visibly: out of memory aborts the run
 * with a message (the generator is a host tool). */
void gen_error(struct gen_schema *s, gen_pos_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/** Print every error, sorted by file, line, column, as `file:line:col: error: message`. */
void gen_diags_print(const struct gen_schema *s, FILE *out);
/** "file:line:col" of a position (static buffer rotated over 4 calls), for messages that point
 * at a second place. */
const char *gen_pos_str(const struct gen_schema *s, gen_pos_t pos);

/* ---------------------------------------------------------------- memory and text (text.c) */

void *gen_xmalloc(size_t n);
void *gen_xrealloc(void *p, size_t n);
char *gen_xstrdup(const char *s);
char *gen_xstrndup(const char *s, size_t n);
/** Append one element to a growable array (p, count, cap): grows geometrically. */
#define GEN_PUSH(arr, count, cap)                                                                                 \
    (((count) == (cap) ? ((cap) = (cap) ? (cap)*2 : 8, (arr) = gen_xrealloc((arr), (cap) * sizeof *(arr)))        \
                       : (arr)),                                                                                  \
     &(arr)[(count)++])

typedef struct gen_buf {
    char *data;
    size_t len, cap;
} gen_buf_t;

void gen_buf_put(gen_buf_t *b, const char *s, size_t n);
void gen_buf_puts(gen_buf_t *b, const char *s);
void gen_buf_printf(gen_buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gen_buf_free(gen_buf_t *b);
/** Column of the end of the buffer (characters since the last newline). */
size_t gen_buf_column(const gen_buf_t *b);
/** Append `s` as the contents of a C string literal (quotes not included). */
void gen_buf_c_string(gen_buf_t *b, const char *s);
/** Append a comment block: `indent` spaces, then `/ **` or `/ *` text, words wrapped at
 * GEN_COLUMNS; text may hold newlines (kept). "* /" inside the text is defused. */
void gen_buf_comment(gen_buf_t *b, unsigned indent, int doc, const char *text);

/* ---------------------------------------------------------------- the model */

enum gen_type_kind { GEN_T_U8, GEN_T_U16, GEN_T_U32, GEN_T_ENUM, GEN_T_STRUCT };

typedef struct gen_value {
    char *name;
    uint32_t value;
    uint8_t marker;
    char *description;
    gen_pos_t pos;
} gen_value_t;

typedef struct gen_enum {
    char *name;
    uint8_t width;       /* bytes: 1, 2, 4 */
    gen_value_t *values; /* declaration order */
    size_t value_count, value_cap;
    int has_runtime;
    uint32_t rt_base, rt_lim;
    uint8_t rt_marker;
    char *description;
    gen_pos_t pos;
    int builtin;
} gen_enum_t;

typedef struct gen_field {
    char *name;
    int type;   /* enum gen_type_kind */
    size_t ref; /* enum or struct index */
    char *description;
    uint8_t display; /* evrec_display */
    char *unit;
    gen_pos_t pos;
    uint32_t offset, size, align;
    int counter;  /* `counter: true` */
    char *series; /* `series: FIELD` (a counter's series key, a sibling field), or NULL */
    gen_pos_t series_pos;
    uint16_t series_of; /* resolved: 1 + the sibling's index; 0 none (schema_tracks.c) */
} gen_field_t;

typedef struct gen_struct {
    char *name;
    gen_field_t *fields; /* for events: time and id first */
    size_t field_count, field_cap;
    uint64_t size;
    uint32_t align;
    unsigned depth; /* struct levels, itself included */
    int event;      /* 1: an event's struct */
    size_t event_id;
    char *description;
    gen_pos_t pos;
    int builtin;
} gen_struct_t;

typedef struct gen_event {
    size_t struct_id;
    char *class_name; /* NULL: its own class */
    gen_pos_t class_pos;
    size_t class_id;
    char *track; /* `track:` path as written, NULL when none */
    gen_pos_t track_pos;
    uint16_t track_leaf; /* resolved (own or the class's); EVREC_TRACKS_NONE when none */
} gen_event_t;

/* One end of a span as written (`begin:` / `end:`), and resolved. */
typedef struct gen_span_end {
    char *event, *field, *value, *key; /* NULL when absent */
    gen_pos_t pos, event_pos, field_pos, value_pos, key_pos;
    evrec_span_end_t r; /* resolved */
} gen_span_end_t;

typedef struct gen_span {
    char *name;
    gen_pos_t pos;
    gen_span_end_t begin, end;
    char *key, *track; /* span-wide key (both ends), lane path of the begin event; NULL = none */
    gen_pos_t key_pos, track_pos;
    uint16_t track_leaf;
} gen_span_t;

typedef struct gen_file {
    char *path; /* as opened (relative to the including file's directory) */
    char *real; /* canonical path, for identity */
    int loading;
    int failed;
} gen_file_t;

/** A generated C identifier and what made it (for clash reports). */
typedef struct gen_ident {
    char *ident;
    const char *what; /* "enum", "value", ... */
    const char *name; /* the schema name */
    gen_pos_t pos;
} gen_ident_t;

/* The `syst:` block (MIPI SyS-T options, format/syst/SYST.md); not in the meta-info or hash. */
typedef struct gen_syst_sev {
    char *name;       /* an event name */
    uint8_t severity; /* EVREC_SYST_SEV_* */
    int is_class;     /* 1: every event of that event's class */
    gen_pos_t pos;
} gen_syst_sev_t;

typedef struct gen_syst {
    int present;
    int use_guid;
    uint8_t guid[16];
    uint8_t module;
    uint16_t unit;
    uint8_t severity;          /* the default */
    gen_syst_sev_t *overrides; /* in the order written: events, then classes */
    size_t override_count, override_cap;
    uint8_t *event_severity; /* resolved: one per event (gen_syst_resolve) */
} gen_syst_t;

typedef struct gen_schema {
    char *name;
    gen_pos_t name_pos;
    char *version;
    char *description;
    uint64_t time_freq;
    gen_file_t *files;
    size_t file_count, file_cap;
    gen_enum_t *enums;
    size_t enum_count, enum_cap;
    gen_struct_t *structs;
    size_t struct_count, struct_cap;
    gen_event_t *events;
    size_t event_count, event_cap;
    gen_ident_t *idents;
    size_t ident_count, ident_cap;
    gen_span_t *spans; /* reading order */
    size_t span_count, span_cap;
    gen_diags_t diags;
    int incomplete;                  /* a file could not be loaded: do not report unknown names */
    const char *const *include_dirs; /* searched for includes not found next to their includer */
    size_t include_dir_count;        /* at most GEN_MAX_INCLUDE_DIRS are used */
    uint64_t hash;
    gen_syst_t syst;
    /* lookup() in schema_load.c: the enum and struct names in an open-addressing table (slot:
     * 0 empty, else 1 + 2 x index + (1 for a struct)), kept up to date as items are appended */
    size_t *name_slot;
    size_t name_slots, name_enums, name_structs, name_used;
    /* the C identifiers of `idents` in the same kind of table (slot: 0 empty, else 1 + index) */
    size_t *ident_slot;
    size_t ident_slots;
    /* names and values compared by the duplicate checks of enum values: the work they did, which
     * tests hold to a bound (linear in the number of values) */
    size_t value_compares;
    const char *ident_refused; /* the last name whose generated identifier was refused */
} gen_schema_t;

/** A schema integer from its text: decimal, or hexadecimal with 0x; no leading zero. Returns 1
 * with `*out` set, 0 when the text is no such integer, -1 when it exceeds 64 bits. */
int gen_parse_uint_text(const char *v, uint64_t *out);

/** Most include directories (evrec-gen -I) a schema load searches. */
#define GEN_MAX_INCLUDE_DIRS 32

/** The directories that hold the shipped catalogue (ports/rtos/rtos.yaml), searched after the
 * -I directories: `<directory of this program>/../share/evrec` of an installation (relative path
 * fixed at build time), then the source tree's ports/rtos when this program runs from the build
 * tree. Fills at most `max` entries (static strings) and returns how many exist. */
size_t gen_catalogue_dirs(const char **dirs, size_t max);

/** Resolve the `syst:` block's event and class names into syst.event_severity (errors to diags). */
void gen_syst_resolve(gen_schema_t *s);
void gen_syst_free(gen_syst_t *y);

/** The names and values of one enum's values, hashed, for the duplicate checks while it is read
 * (value_index.c). Zero-initialise; free with gen_value_index_free(). */
typedef struct gen_value_index {
    size_t *name_slot, *value_slot; /* 0 empty, else 1 + index in gen_enum_t::values */
    size_t slots;                   /* a power of two, at least twice `count` */
    size_t *entered;                /* 2 x index + (1 when entered by value), to rehash */
    size_t count, cap;
} gen_value_index_t;

/** Enter e->values[i] by its name, and by its value when `with_value` (the first value of each
 * number only, so that a duplicate is reported against the first). */
void gen_value_index_add(gen_value_index_t *x, const gen_enum_t *e, size_t i, int with_value);
/** Index of the value named `name`, or SIZE_MAX; adds the names compared to `*compares`. */
size_t gen_value_index_name(const gen_value_index_t *x, const gen_enum_t *e, const char *name, size_t *compares);
/** Index of the first value entered with number `v`, or SIZE_MAX; counts as above. */
size_t gen_value_index_value(const gen_value_index_t *x, const gen_enum_t *e, uint32_t v, size_t *compares);
void gen_value_index_free(gen_value_index_t *x);

/** What the C identifier `id` collides with (a phrase for a message: "a C keyword", "NULL of
 * stddef.h", ...), or NULL when it is free. `file_scope`: the identifier is declared at file scope
 * (generated types, tables, macros), where C reserves every name starting with _; else it is a
 * struct member and a parameter (field names). `buf` (n bytes) may hold the text returned. */
const char *gen_ident_collision(const char *id, int file_scope, char *buf, size_t n);

/** Whether `id` is a C keyword (C11 6.4.1 and C23's new ones): the one list evrec-gen checks. */
int gen_c_keyword(const char *id);

/** Deepest nesting of collections (sequences and mappings, the top-level mapping included) a
 * schema file may have (SCHEMA.md, Limits). */
#define GEN_MAX_DEPTH 64

/** Append all of `in` to `out` (data NUL-terminated). @return 0, or -1 on a read error (errno). */
int gen_read_all(FILE *in, gen_buf_t *out);
/** 1 when the YAML `text` (`len` bytes) nests collections deeper than GEN_MAX_DEPTH, with the
 * 1-based line and column of the collection that opens the level past it; 0 otherwise (also on a
 * syntax error, which the load reports). Reads no further than that collection. */
int gen_yaml_too_deep(const char *text, size_t len, unsigned *line, unsigned *col);

/** Load `path` and everything it includes, check it, fill the model. Errors go to s->diags.
 * @return 0 when the schema is usable (no error at all). */
int gen_schema_load(gen_schema_t *s, const char *path);
void gen_schema_free(gen_schema_t *s);

/** The evrec meta-info of a model, in memory (tables point at the model's names). */
typedef struct gen_meta {
    evrec_meta_t meta;                   /**< time_freq = the schema's; schema_hash 0, field_info NULL */
    evrec_field_info_table_t field_info; /**< the display attributes (schema_hash 0) */
    size_t enum_count, struct_count;
    evrec_enum_value_t **values;
    evrec_runtime_enum_t *runtimes;
    evrec_field_desc_t **fields;
    evrec_field_info_t *info;
    evrec_tracks_t model; /**< meta.tracks points here when it has entries */
    evrec_track_desc_t *tracks;
    evrec_span_desc_t *spans;
    evrec_counter_desc_t *counters;
} gen_meta_t;

/** Build the tables of a loaded schema (the same the generated .c holds). Free with
 * gen_meta_free(); the model must outlive them. */
void gen_meta_build(const gen_schema_t *s, gen_meta_t *out);
void gen_meta_free(gen_meta_t *m);

/** Build the evrec meta-info of the model (in memory), validate it and compute the hash into
 * s->hash. @return 0, or -1 with an error recorded (an internal inconsistency). */
int gen_meta_hash(gen_schema_t *s);

/* ---------------------------------------------------------------- tracks (schema_tracks.c) */

/** 1 when the model has a track, span or counter (then the tables and the chunk exist). */
int gen_tracks_present(const gen_schema_t *s);
/** After loading: resolve every `track`, span and check counters (errors into s->diags). */
void gen_tracks_resolve(gen_schema_t *s);
/** Fill m->tracks (tracks, spans, counters) from a resolved model (meta_build.c calls it). */
void gen_tracks_build(const gen_schema_t *s, gen_meta_t *m);
void gen_tracks_free(gen_schema_t *s);
/** Dotted path of leaf `leaf` of event `ev` (static buffer rotated over 4 calls). */
const char *gen_leaf_path(const gen_schema_t *s, size_t ev, uint16_t leaf);

/** The generated files. */
void gen_emit_header(const gen_schema_t *s, gen_buf_t *out);
void gen_emit_source(const gen_schema_t *s, gen_buf_t *out);

/** Create directory `dir` and its missing parents (mode 0777 & ~umask), as `mkdir -p`.
 * @param[out] created malloc'd path of the outermost directory this call created (to be removed
 * with gen_rmdir_created() if the run fails), or NULL when `dir` already existed.
 * @return 0 (dir exists now), or -1 with a message on stderr (nothing left behind). */
int gen_mkdir_p(const char *dir, char **created);

/** Remove the empty directories gen_mkdir_p() created for `dir`, from `dir` up to `created`
 * (rmdir: a directory that is not empty stays). */
void gen_rmdir_created(const char *dir, const char *created);

/** Marker names, index = evrec_marker value. */
extern const char *const gen_marker_names[16];
/** Text after the schema name for file names: "_events". */
#define GEN_FILE_SUFFIX "_events"

/** Name of a field's C type: "uint8_t" or the typedef of its enum/struct (static buffer). */
const char *gen_field_ctype(const gen_schema_t *s, const gen_field_t *f, char *buf, size_t n);
/** evrec_kind of a field. */
uint8_t gen_field_kind(const gen_schema_t *s, const gen_field_t *f);

#endif /* EVREC_GEN_INTERNAL_H */
