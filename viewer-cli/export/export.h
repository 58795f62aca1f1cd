/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec export`: what the export sinks share: the buffered output they append to, the text
 * encodings, and the per-event field layout.
 *
 * Each output format is a sink of the record pipeline (pipeline/sink.h, pipeline/pipeline.h):
 * one file implementing a ::cli_sink_t (export/sink_csv.c, export/sink_jsonl.c,
 * export/sink_ccore.c, perfetto/sink_perfetto.c) and one line in commands/cmd_export.c's table.
 * The pipeline delivers the losses as items of the stream (sink.h says where each kind comes).
 *
 * Everything runs on the command's one thread. */
#ifndef EVREC_CLI_EXPORT_H
#define EVREC_CLI_EXPORT_H

#include <stdint.h>
#include <string.h>

#include "cli.h"
#include "cli_bytes.h"
#include "sink.h"

/* ---- buffered output ---------------------------------------------------------------------- */

/* Writers append to `p[len..cap)` and call export_out_room() first; bytes go to the output file
 * in blocks of EXPORT_OUT_BLOCK (with `file` NULL it is a growable memory buffer). A write failure is remembered in out->file->err; later writes
 * are dropped and the command reports the failure at the end. */
#define EXPORT_OUT_BLOCK (256u * 1024u)

typedef struct export_out {
    char *p;
    size_t len, cap;
    cli_output_t *file;
} export_out_t;

/* A memory buffer's bytes in a block of exactly `len` bytes (see cli_buf_take()); the caller owns
 * it; the buffer is left empty. NULL when it holds nothing. */
char *export_out_take(export_out_t *o);
/* Send the buffered bytes to the file. */
void export_out_flush(export_out_t *o);
/* Make room for `n` more bytes (flushes; grows for a single item larger than the buffer). */
void export_out_grow(export_out_t *o, size_t n);
static inline char *export_out_room(export_out_t *o, size_t n)
{
    if (o->cap - o->len < n) {
        export_out_grow(o, n);
    }
    return o->p + o->len;
}
static inline void export_put(export_out_t *o, const void *s, size_t n)
{
    memcpy(export_out_room(o, n), s, n);
    o->len += n;
}
static inline void export_puts(export_out_t *o, const char *s)
{
    export_put(o, s, strlen(s));
}
static inline void export_putc(export_out_t *o, char c)
{
    *export_out_room(o, 1) = c;
    o->len++;
}
/* Decimal, no padding. */
void export_u64(export_out_t *o, uint64_t v);
/* Seconds with nine decimals: "12.000001500". */
void export_seconds(export_out_t *o, uint64_t ns);

/* ---- text encodings ----------------------------------------------------------------------- */

/* Counts of what the encoders replaced, for the note at the end. */
typedef struct export_text_stats {
    uint64_t invalid_utf8; /* invalid UTF-8 sequences written as U+FFFD */
} export_text_stats_t;

/* `s` (n bytes) as a JSON string with its quotes: ", \ and control characters (U+0000..U+001F,
 * U+007F) as \u00XX (\" and \\ for the first two), valid UTF-8 as is, each invalid byte as \uFFFD. */
void export_json_string(export_out_t *o, const char *s, size_t n, export_text_stats_t *st);
/* `s` as one RFC 4180 field: quoted (quotes doubled) when it holds a comma, quote, CR or LF;
 * valid UTF-8 and other control characters as they are, each invalid byte as U+FFFD (EF BF BD). */
void export_csv_field(export_out_t *o, const char *s, size_t n, export_text_stats_t *st);

/* ---- the sinks ---------------------------------------------------------------------------- */

/* The export table's text writers (sink.h), one file each: CSV (sink_csv.c), JSON Lines
 * (sink_jsonl.c), the bare CCore stream (sink_ccore.c). Their begin() takes no user pointer and
 * writes to the pipeline's buffered output. */
extern const cli_sink_t cli_sink_csv;
extern const cli_sink_t cli_sink_jsonl;
extern const cli_sink_t cli_sink_ccore;

/* ---- a hash set of names ------------------------------------------------------------------ */

/* Distinct strings numbered in the order added (CSV column names, JSONL keys): a path kept once
 * however many event types have it. Zero-initialise; free with export_names_free(). */
typedef struct export_names {
    char **names; /* by number, malloc'd */
    uint32_t count, cap;
    uint32_t *slots; /* hash table of number + 1, 0 = empty */
    uint32_t nslots;
} export_names_t;

/* The number of `name` (malloc'd), added when new: the set takes `name` then, else frees it.
 * Out of memory: sets *oom, frees `name`, returns 0. */
uint32_t export_names_get(export_names_t *c, char *name, int *oom);
/* Frees the names and the table (not `c` itself). */
void export_names_free(export_names_t *c);

/* ---- field layout shared by the text writers ---------------------------------------------- */

/* One leaf field of an event type, in declaration order with nested structs flattened (the walk
 * order of evrec_reader_visit_fields()); leaf 0 is `time`, leaf 1 `id`, both in the list. Writers
 * decode values straight from the record's packed big-endian bytes with export_leaf_value(). */
/* A writer's rendering of the last enum value seen in a leaf (values repeat). */
typedef struct export_leaf_memo {
    uint32_t value;
    size_t len, cap;
    char *text;
} export_leaf_memo_t;

typedef struct export_leaf {
    char *path;               /* dotted path: "frame.number" (malloc'd; a writer may free it once it has
                        what it needs and set it NULL) */
    uint8_t kind;             /* an ::evrec_kind, not STRUCT */
    uint8_t width;            /* bytes: 1, 2 or 4 */
    uint16_t enum_id;         /* enum kinds: the enum; else 0 */
    uint32_t offset;          /* byte offset in the packed record */
    uint32_t column;          /* the writer's number for the leaf's name (CSV column, JSONL key) */
    export_leaf_memo_t *memo; /* enum leaves: the last value rendered (export_leaf_cache()); NULL
                                 until then; freed with the layout */
} export_leaf_t;

/* The leaf's cached rendering of `value` (*len bytes), or NULL when another value is cached. */
static inline const char *export_leaf_cached(const export_leaf_t *l, uint32_t value, size_t *len)
{
    if (!l->memo || l->memo->value != value) {
        return NULL;
    }
    *len = l->memo->len;
    return l->memo->text;
}

static inline int export_kind_is_enum(uint8_t kind)
{
    return kind >= EVREC_KIND_ENUM_UINT8 && kind <= EVREC_KIND_ENUM_UINT32;
}

/* The leaf's value in a record of its event type; the caller checks offset + width <= size. */
static inline uint32_t export_leaf_value(const export_leaf_t *l, const uint8_t *data)
{
    return cli_be_field(data + l->offset, l->width);
}

/* Store `len` bytes at `text` as the leaf's cached rendering of `value`. 0, or -1 out of memory. */
int export_leaf_cache(export_leaf_t *l, uint32_t value, const char *text, size_t len);

/* The per-event-type leaf tables, built lazily: export_layout_build() only finds which events
 * share a struct (a few bytes per event type); an event type's leaves are built on its first
 * record (export_layout_event()), so the types a file never records cost nothing and the leaves
 * held are bounded by the record bytes of the types it does record (each leaf is at least one
 * byte of its record). A file may list thousands of event types whose structs nest one struct
 * expanding to many leaves. */
typedef struct export_layout {
    const evrec_meta_t *meta;
    uint32_t event_count;
    uint32_t *leaf_count;   /* per event id: leaf_count[id] entries, valid when built[owner[id]] */
    export_leaf_t **leaves; /* per event id: NULL until built */
    /* per event id: the first event on the same struct, which owns the leaves (events on one
     * struct share them: a file may list 65,535 events on one wide struct in 8 bytes each).
     * Writers that keep per-leaf tables share them the same way: built for owner[id] == id. */
    uint32_t *owner;
    uint8_t *built; /* per event id: 1 once owner id's leaves are built */
} export_layout_t;

/* Prepare the layout for the meta-info (which must outlive it): the owner of every event type;
 * no leaves yet. Returns 0 on success, -1 when out of memory (reported). */
int export_layout_build(export_layout_t *l, const evrec_meta_t *m);
/* Build event `id`'s leaves (its owner's, shared) when not built yet. Returns 1 when this call
 * built them (the writer builds its own per-leaf tables for owner[id] then), 0 when they were
 * built before, -1 when out of memory (reported) or `id` is out of range. */
int export_layout_event(export_layout_t *l, uint32_t id);
/* The leaves of struct `sid` (names as the file has them, dotted paths from the struct), in a
 * malloc'd array of *count entries the caller frees with export_leaves_free(). 0, or -1 out of
 * memory (not reported). */
int export_leaves_of_struct(const evrec_meta_t *m, uint32_t sid, export_leaf_t **leaves, uint32_t *count);
void export_leaves_free(export_leaf_t *leaves, uint32_t count);
void export_layout_free(export_layout_t *l);

#endif /* EVREC_CLI_EXPORT_H */
