/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_schema.h
 * @brief The schema language on the host, as a library (`evrec_schema`, libyaml): load a YAML
 * schema into meta-info tables (what `evrec-gen` generates, without generating), write meta-info
 * tables back as a schema that `evrec-gen` accepts, and compare two meta-infos item by item.
 *
 * Used by `evrec-gen`, `evrec schema` (file -> YAML) and `evrec check` (file against YAML). The
 * language is SCHEMA.md; the tables are the CCore meta-info model of evrec/evrec_meta.h;
 * the hash is FORMAT.md section 4.
 *
 * Check a recording against the schema it was made with:
 * @code
 * evrec_schema_t *s;
 * if (evrec_schema_load(&s, "events.yaml", stderr) != EVREC_OK) {
 *     return;
 * }
 * evrec_diff_options_t d = {"the schema", "the file", 0};
 * size_t n = evrec_meta_diff(evrec_schema_meta(s), evrec_reader_meta(r), &d, NULL, NULL);
 * printf("%s: %zu differences\n", evrec_schema_name(s), n);
 * evrec_schema_free(s);
 * @endcode
 *
 * API overview:
 * - Load: evrec_schema_load(), evrec_schema_meta(), evrec_schema_name(), evrec_schema_free().
 * - Tables back to YAML: evrec_schema_to_yaml() (::evrec_yaml_options_t, ::evrec_yaml_t),
 *   evrec_yaml_free().
 * - Compare: evrec_meta_diff() (::evrec_diff_options_t, one ::evrec_diff_fn call per difference).
 *
 * **Context:** host only (malloc, stdio). Objects are independent (no global state); one thread
 * per object. Out of memory ends the program with a message (as `evrec-gen` does).
 *
 * FORMAT.md and SCHEMA.md, cited here by name and section, are installed with evrec in
 * share/doc/evrec/.
 */
#ifndef EVREC_SCHEMA_H
#define EVREC_SCHEMA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evrec/evrec_meta.h"
#include "evrec/evrec_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief A loaded schema: its model and its meta-info tables. */
typedef struct evrec_schema evrec_schema_t;

/**
 * @brief Load a schema file and what it includes, check it as `evrec-gen` does, and build its
 * meta-info tables.
 * @param[out] out the schema on EVREC_OK; NULL otherwise.
 * @param[in] path the top-level schema file.
 * @param[in] diag where every schema error goes, as `file:line:col: error: message` lines (NULL:
 * not printed).
 * @retval EVREC_OK loaded.
 * @retval EVREC_E_META a schema error (printed to diag).
 * @retval EVREC_E_IO the file cannot be opened (said on diag).
 * @retval EVREC_E_ARG NULL argument.
 * **Context:** thread.
 */
evrec_status evrec_schema_load(evrec_schema_t **out, const char *path, FILE *diag);

/**
 * @brief The schema's tables: exactly those `evrec-gen` writes into NAME_events.c (ids, names,
 * kinds, values sorted, run-time ranges; field offsets and native sizes of the C structs),
 * `time_freq` from the schema, `schema_hash` computed, `field_info` the display attributes.
 * @param[in] s a loaded schema.
 * @return schema-owned tables, valid until evrec_schema_free().
 * **Context:** the thread that owns `s`; reads only.
 */
const evrec_meta_t *evrec_schema_meta(const evrec_schema_t *s);

/**
 * @brief The schema's name (`schema:` key of the top-level file).
 * @param[in] s a loaded schema.
 * @return schema-owned text, valid until evrec_schema_free().
 * **Context:** the thread that owns `s`; reads only.
 */
const char *evrec_schema_name(const evrec_schema_t *s);

/**
 * @brief Free a schema and its tables.
 * @param[in] s the schema, or NULL (ignored).
 * **Context:** the thread that owns `s`; its tables die with it.
 */
void evrec_schema_free(evrec_schema_t *s);

/** @brief Options of evrec_schema_to_yaml(). */
typedef struct evrec_yaml_options {
    const char *name;        /**< the schema's name (a C identifier); files carry none. Not NULL */
    const char *version;     /**< the `version:` to write; NULL = "0" (files carry none) */
    const char *source;      /**< what the tables were read from, for the header comment; may be NULL */
    const char *part_prefix; /**< file name prefix of the included parts when more than one file
                                  is needed (e.g. "trace" gives trace.part1.yaml); NULL = name */
    int bare_ccore;          /**< 1: the tables come from a bare CCore stream (no run-time ranges,
                              no display attributes): say so in the header comment */
} evrec_yaml_options_t;

/** @brief One YAML file of the result. */
typedef struct evrec_yaml_file {
    char *name; /**< file name: "" for the top-level file (the caller names it), else the part's */
    char *text; /**< the YAML text */
} evrec_yaml_file_t;

/** @brief Result of evrec_schema_to_yaml(): files[0] is the top-level schema; files[1..] are the
 * parts it includes (only when the struct order needs them, see evrec_schema_to_yaml()). */
typedef struct evrec_yaml {
    size_t count;
    evrec_yaml_file_t *files;
    size_t note_count;
    char **notes; /**< what could not be expressed exactly (also written as YAML comments) */
    /** How many of the notes say that evrec-gen refuses the YAML or makes tables with another
     * schema hash from it (the others concern what the hash does not see: display attributes,
     * the marker of an unused run-time range). 0: evrec-gen gives the tables' hash. */
    size_t hash_note_count;
} evrec_yaml_t;

/**
 * @brief Write meta-info tables as a schema that `evrec-gen` accepts, such that the tables it
 * generates from it have the same schema hash (same names, kinds, ids, values, markers, classes,
 * run-time ranges), with the display attributes of `meta->field_info` as `format`, `unit` and
 * `description`, and `time_freq` when it is not 0.
 *
 * Reusable structs are the structs no event uses as its own. `evrec-gen` gives ids per file
 * (enums, then reusable structs, then events' structs): when the tables interleave events'
 * structs and reusable structs (as a schema with includes does), the result is several files,
 * the top-level one including the parts in order. What the tables hold but the language cannot
 * say (enum 0 not EventControlType, two events on one struct, names that are not identifiers ...)
 * is written as close as possible and listed in `notes` (and as comments): the hash then differs
 * (counted in `hash_note_count`). The invariants evrec-gen enforces but a file need not keep are
 * noted too: duplicate names (enums, structs and events share one namespace; fields within a
 * struct, values within an enum), duplicate enum values, values not in ascending order
 * (evrec-gen sorts them), a plain integer field whose type id is not 0, a reusable struct nested
 * more than EVREC_MAX_NESTING levels deep.
 * Not in a file, hence never recovered: the schema's name and version, descriptions of enums,
 * values, structs and events, the order in which values were written, and file boundaries.
 *
 * @param[in] meta the tables (e.g. evrec_reader_meta()).
 * @param[in] opt options (name required).
 * @param[out] out the files and notes; free with evrec_yaml_free().
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG NULL argument or a name that is not an identifier.
 * **Context:** thread.
 */
evrec_status evrec_schema_to_yaml(const evrec_meta_t *meta, const evrec_yaml_options_t *opt, evrec_yaml_t *out);

/**
 * @brief Free what evrec_schema_to_yaml() made.
 * @param[in,out] y the result (its files and notes), or NULL (ignored); zeroed afterwards.
 * **Context:** the thread that owns `y`.
 */
void evrec_yaml_free(evrec_yaml_t *y);

/**
 * @brief Callback of evrec_meta_diff(): one difference.
 * @param[in] ctx the `ctx` given to evrec_meta_diff().
 * @param[in] line an English line without newline, valid only during the call.
 * **Context:** the thread that calls evrec_meta_diff().
 */
typedef void (*evrec_diff_fn)(void *ctx, const char *line);

/** @brief Options of evrec_meta_diff(). */
typedef struct evrec_diff_options {
    const char *expected_name; /**< how to call `expected` in messages, e.g. "the schema" */
    const char *actual_name;   /**< how to call `actual`, e.g. "the file" */
    /** 1: `actual` is from a bare CCore stream, which cannot say which values were named at run
     * time: its values inside `expected`'s run-time ranges are taken as run-time names; and it
     * carries no tracks, spans or counters: those are not compared. */
    int actual_bare_ccore;
} evrec_diff_options_t;

/**
 * @brief Compare two meta-infos item by item, as far as the schema hash sees them: enums (by
 * name: added, removed, renamed, kind, values added/removed/renamed/changed, markers, run-time
 * ranges, id), structs (by name: fields added, removed, renamed, kind or type changed, id) and
 * events (by name: added, removed, class, struct, id), tracks (by event: added, removed, changed),
 * spans (by name: added, removed, changed, order) and counters (by Struct.field: added, removed).
 * time_freq, offsets, native sizes and display attributes are not compared.
 * @param[in] expected e.g. the schema's tables.
 * @param[in] actual e.g. the file's.
 * @param[in] opt names for the messages (NULL: "expected"/"actual").
 * @param[in] fn called once per difference (may be NULL).
 * @param[in] ctx passed to fn.
 * @return the number of differences; 0 means equal hashes (barring a hash collision).
 * **Context:** thread; reads only.
 */
size_t evrec_meta_diff(const evrec_meta_t *expected, const evrec_meta_t *actual, const evrec_diff_options_t *opt,
                       evrec_diff_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_SCHEMA_H */
