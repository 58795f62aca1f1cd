/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_reader.h
 * @brief Host-side reader of evrec files (the container of FORMAT.md) and of bare CCore
 * EventRecorder streams (as CCore's `EventRecorder.cpp` writes them and EventView's loader reads
 * them; FORMAT.md section 3).
 *
 * The reader streams: it never holds more than one chunk of the file (at most 16 MiB, usually
 * 16 KiB) plus the meta-info, so files of any size are read with 64-bit offsets. It verifies
 * every chunk's CRC-32C before it hands out a byte of it, parses the meta-info into tables of its
 * own (exposed as an ::evrec_meta_t), and returns records one at a time with their 64-bit
 * restored time (FORMAT.md section 5).
 *
 * API overview:
 * - Open and close: evrec_reader_open_path(), evrec_reader_open_file(),
 *   evrec_reader_open_memory(), evrec_reader_close().
 * - Records: evrec_reader_next(), evrec_reader_visit_fields(), evrec_reader_leaf_value(),
 *   evrec_reader_record_marker(), evrec_reader_summarize() (all remaining records, counted).
 * - The meta-info and its names: evrec_reader_info(), evrec_reader_meta(),
 *   evrec_reader_event_size(), evrec_reader_event_name(), evrec_reader_enum_value(),
 *   evrec_reader_enum_has_markers(), evrec_marker_name(), evrec_kind_name().
 * - Display attributes and the track model: evrec_reader_field_info(), evrec_reader_field_info_error(),
 *   evrec_reader_tracks(), evrec_reader_tracks_error(), evrec_reader_event_track(),
 *   evrec_reader_leaf().
 * - Lanes: evrec_reader_lane(); a recording made from a stream: evrec_reader_stream_losses().
 * - The recording's attributes (device, firmware, boot...): evrec_reader_attr_count(),
 *   evrec_reader_attr(), evrec_reader_attr_find().
 * - Errors and damage: evrec_reader_error(), evrec_reader_damage_count(), evrec_reader_damage().
 * - Time: evrec_reader_time_freq(), evrec_ticks_to_ns(), evrec_time_extend(); seeking and
 *   time order: evrec/evrec_reader_seek.h, evrec/evrec_reader_order.h.
 *
 * **Bad input.** Nothing read from the file is trusted: every count, id and length is checked
 * against the format and against the bytes that remain. The reader goes on after damage wherever
 * the format lets it (FORMAT.md section 2, "What a reader does with damage") and keeps a list of
 * the damaged ranges (evrec_reader_damage(): offset, bytes skipped, records lost); the first
 * problem is also the sticky error (::evrec_reader_error_t: status, byte offset in the file, what
 * was expected), which evrec_reader_next() returns instead of EVREC_E_END once the stream has been
 * read. Every record returned is intact:
 * - a chunk with a bad CRC is skipped (a damaged chunk header is repaired when the payload checks
 *   out), and records resume at the next STREAM chunk after a SYNC chunk with their exact index
 *   and time; the first record after a gap has `gap` set. Records straddling into a damaged chunk
 *   are lost, and so is everything after the damage in a version 1.0 file (no SYNC chunks);
 * - a damaged display-only chunk (RUNTIME_ENUMS, FIELD_INFO, TRACKS) or SYNC chunk loses what it
 *   carries, never a record; a damaged header (or magic) with an intact chunk after it is read as
 *   a damaged evrec file;
 * - a truncated last chunk (the file simply ends inside it) is used up to its last whole record;
 *   those records are flagged `unverified` since their CRC cannot be checked; then the reader
 *   reports the truncation at the chunk's offset;
 * - an unknown event id skips the rest of its chunk (container) or stops the reader (bare CCore
 *   stream); a meta-info count or length that runs past the data, or a limit of this reader
 *   exceeded (::EVREC_READER_MAX_NAME, ::EVREC_MAX_NESTING, 256-byte records), stops it and is
 *   reported at the offset of the offending item.
 *
 * **Display attributes (FIELD_INFO chunk).** Not needed to read a record, so a FIELD_INFO chunk
 * whose CRC is good but whose content is bad (an entry naming a struct or field the meta-info
 * lacks, a display code above 3, a string with a NUL or control character or longer than
 * ::EVREC_READER_MAX_NAME (unit) / ::EVREC_READER_MAX_TEXT (description), a count that does not
 * match the payload, a duplicate entry, a second FIELD_INFO chunk or one after STREAM data) does
 * not stop the reader: the entries before the problem are kept, the rest are dropped, every record
 * is still returned, and the problem becomes the sticky error once the stream has been read to its
 * end (evrec_reader_next() then returns it instead of EVREC_E_END, with the offset of the bad
 * entry), so that tools report it like other damage. evrec_reader_field_info_error() tells it
 * at once. A FIELD_INFO chunk with a bad CRC is chunk damage like any other (see above).
 *
 * **Tracks, spans and counters (TRACKS chunk).** What a timeline draws: the lane of each event,
 * intervals between two events, fields to plot over time (schema keys `track`, `spans`,
 * `counter`; FORMAT.md section 2). evrec_reader_tracks() gives them with ids resolved to event ids,
 * leaf numbers (walk order of evrec_reader_visit_fields(): 0 = time, 1 = id) and (struct, field)
 * pairs; evrec_reader_leaf() and evrec_reader_leaf_value() turn a leaf into its path and value.
 * The track model is part of the schema hash. A TRACKS chunk whose CRC is good but whose content is bad
 * (a count or length that runs past its bytes, an id or leaf the meta-info lacks, a second chunk
 * or one after STREAM data) is dropped whole: every record is still returned, the computed hash
 * then lacks the track model, and the problem becomes the sticky error at the end of the stream, as for
 * FIELD_INFO (evrec_reader_tracks_error() tells it at once). A file without a TRACKS chunk (older
 * files, bare CCore streams) has no track model: exporters then draw one lane per event class and
 * instants only.
 *
 * **Tables read from a file.** A file carries no native C layout, so in the exposed
 * ::evrec_meta_t every field's `offset` is its offset in the *packed* (saved) struct and every
 * struct's `native_size` is its packed size (both saturate at 0xFFFF for structs that no event
 * uses). The schema hash does not use them. Enum values named at run time (the ranges of the
 * RUNTIME_ENUMS chunk) are not in the enum's `values` but in its `runtime` object, exactly as the
 * writer's tables held them, so that evrec_meta_schema_hash() of the exposed tables equals the
 * hash the writer stored; use evrec_reader_enum_value() to look up any value. For the same
 * reason an enum's `values` keep the file's order, which need not be ascending (CCore's recorder
 * writes them as they were added; two values may even be equal): look values up with
 * evrec_reader_enum_value() (by value, through a sorted index), not by a binary search of
 * `values`. Struct nesting is checked whatever the order in which the structs are defined: a
 * struct nested in itself, or an event's struct whose nested structs go more than
 * ::EVREC_MAX_NESTING levels deep, refuses the file (EVREC_E_UNSUPPORTED). Other invariants that
 * evrec-gen keeps but a file need not (unique names, ascending values, type id 0 of plain fields)
 * do not stop the reader; evrec_schema_to_yaml() notes them.
 *
 * **Context:** a reader is one object for one thread; distinct readers are independent (no global
 * state). Host only (uses malloc and stdio).
 *
 * FORMAT.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_READER_H
#define EVREC_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evrec/evrec_meta.h"
#include "evrec/evrec_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest name (enum, value, struct, field) accepted from a file, bytes. */
#define EVREC_READER_MAX_NAME 1024u
/** Largest span [base, highest named value] of a run-time enum range the reader keeps names for.
 * The spans of all run-time enums of a file together may not exceed it plus 4 per run-time name
 * in the file (the names are kept in arrays indexed by value - base, so a few names far apart
 * could otherwise take far more memory than the file has bytes); a file beyond either limit is
 * refused with EVREC_E_UNSUPPORTED. */
#define EVREC_READER_MAX_RUNTIME_SPAN (1u << 20)
/** Longest field description accepted from a FIELD_INFO chunk, bytes. */
#define EVREC_READER_MAX_TEXT 65536u
/** Tick rate assumed when time_freq is 0 (CCore EventView assumes 10 Hz ticks). */
#define EVREC_READER_DEFAULT_TICK_HZ 10u

/** @brief An opaque reader. Create with evrec_reader_open_path() and friends. */
typedef struct evrec_reader evrec_reader_t;

/** @brief What the file is. */
typedef enum evrec_file_format {
    EVREC_FILE_UNKNOWN = 0,   /**< not recognised (the open failed) */
    EVREC_FILE_CONTAINER = 1, /**< evrec container: header, CRC-checked chunks (FORMAT.md 1-2) */
    EVREC_FILE_CCORE = 2      /**< bare CCore stream, as CCore's own recorder writes it */
} evrec_file_format;

/** @brief Where the effective timestamp frequency came from. */
typedef enum evrec_time_source {
    EVREC_TIME_UNKNOWN = 0, /**< no frequency: time_freq 0 and fewer than 2 ticks (ns are 0) */
    EVREC_TIME_FILE = 1,    /**< the file's time_freq */
    EVREC_TIME_OPTION = 2,  /**< evrec_reader_options_t::time_freq */
    EVREC_TIME_TICKS = 3    /**< tick rate x mean tick-to-tick interval (FORMAT.md section 5) */
} evrec_time_source;

/** @brief Options of the open functions. Zero-initialise for the defaults. */
typedef struct evrec_reader_options {
    /** Timestamp frequency in Hz to use instead of the file's; 0 = the file's. */
    uint64_t time_freq;
    /** Rate in Hz at which EventControl Tick was recorded. Non-zero: the frequency is derived
     * from the ticks at this rate even if the file has a time_freq (unless `time_freq` above is
     * given). 0: the file's time_freq, or ::EVREC_READER_DEFAULT_TICK_HZ when that is 0. */
    uint32_t tick_hz;
} evrec_reader_options_t;

/** @brief The sticky error of a reader. `status` is EVREC_OK while there is none. */
typedef struct evrec_reader_error {
    evrec_status status; /**< EVREC_E_TRUNCATED, _CORRUPT, _CHECKSUM, _BAD_ID, _UNSUPPORTED, _IO, _NOMEM */
    uint64_t offset;     /**< byte offset in the file of the damaged item (chunk, record, meta item) */
    char message[320];   /**< English: what was found and what was expected; no offset prefix */
} evrec_reader_error_t;

/** @brief What the file says about itself (header and meta-info), known after a successful open. */
typedef struct evrec_file_info {
    evrec_file_format format;
    uint16_t version_major;        /**< container only; 0 for CCore */
    uint16_t version_minor;        /**< container only */
    uint32_t flags;                /**< container header flags (bit 0: cyclic buffer) */
    uint64_t time_freq;            /**< the file's time_freq, Hz (0 = unknown) */
    uint64_t schema_hash_stored;   /**< container header's hash (0 = not computed or CCore) */
    uint64_t schema_hash_computed; /**< evrec_meta_schema_hash() of the tables read */
    uint64_t recorded;             /**< container header: records written, Start/Stop included;
                                       UINT64_MAX = not known (cyclic save while recording) */
    uint64_t dropped;              /**< container header: events dropped (buffer full) */
    uint32_t overwritten;          /**< container header: records overwritten in a cyclic buffer
                                       (saturates at 2^32-1) */
    uint64_t meta_offset;          /**< file offset of the meta-info's first byte */
    uint64_t records_offset;       /**< file offset of the first record */
    uint64_t file_size;            /**< bytes, when known (paths, memory, regular files); else 0 */
    uint16_t control_event;        /**< event id of EventControl (found by its struct name) */
    uint32_t lanes;                /**< lanes of the recording (LANES chunk, FORMAT.md
                                       section 2.3; evrec/evrec_lanes.h); 1 when the file has none */
} evrec_file_info_t;

/** @brief One record, as returned by evrec_reader_next(). Reader-owned; valid until the next call. */
typedef struct evrec_record {
    uint64_t index;      /**< 0-based position in the stream (End not counted) */
    uint64_t offset;     /**< file offset of the record's first byte */
    uint16_t id;         /**< event id (index in the meta-info's events) */
    uint32_t time32;     /**< raw 32-bit timestamp, ticks */
    uint64_t t64;        /**< restored time, ticks since the first record (FORMAT.md section 5) */
    uint64_t ns;         /**< t64 in nanoseconds; 0 when the frequency is unknown */
    const uint8_t *data; /**< the packed big-endian record, time and id included */
    uint32_t size;       /**< bytes at `data` = the event's save_len (at most 256) */
    int unverified;      /**< 1: from a truncated chunk whose CRC could not be checked */
    uint8_t gap;         /**< 1: the first record after a damaged range: records before it are
                              missing (how many: evrec_reader_damage()); index and time are exact,
                              taken from the SYNC chunk where reading resumed */
    uint16_t lane;       /**< the lane that recorded it (LANE_IDS chunks, FORMAT.md section
                              2.3): 0 in a file without lanes; ::EVREC_LANE_UNKNOWN when the chunk
                              that carried it was lost (damage) */
} evrec_record_t;

/** evrec_record_t::lane of a record whose LANE_IDS chunk was lost. */
#define EVREC_LANE_UNKNOWN 0xFFFFu

/** @brief One lane of a recording split into lanes: evrec_reader_lane(). */
typedef struct evrec_lane_info {
    uint64_t records;     /**< records of this lane in the file's stream */
    uint64_t dropped;     /**< events the lane dropped (its slice of the buffer was full) */
    uint64_t overwritten; /**< cyclic: the lane's intact records overwritten before the save */
} evrec_lane_info_t;

/**
 * @brief What the file's LANES chunk says of lane `k` (FORMAT.md section 2.3).
 * @param[in] r the reader.
 * @param[in] k 0 .. evrec_reader_info(r)->lanes - 1.
 * @param[out] out the lane's counts.
 * @retval EVREC_OK filled.
 * @retval EVREC_E_ARG NULL, or k out of range (a file without lanes has lane 0 only, with the
 *     header's counts).
 * **Context:** thread; reads only.
 */
evrec_status evrec_reader_lane(const evrec_reader_t *r, uint32_t k, evrec_lane_info_t *out);

/** @brief One lane of a recording made from a stream: what it lost (LOSSES chunk, FORMAT.md
 * section 8.4). */
typedef struct evrec_lane_losses {
    uint64_t dropped;        /**< records the target dropped, its buffer full (drop-newest): exact */
    uint64_t drop_places;    /**< places where it dropped them (S_LOSS frames; at least) */
    uint64_t lost_transport; /**< records sent but never received (damaged or missing frames, or
                                  sent before the host had the meta-info): exact as far as
                                  evrec_stream_losses_t::ended says */
    uint64_t transport_gaps; /**< places where they were lost: at least one frame each */
} evrec_lane_losses_t;

/** @brief A damaged range of a stream's input: evrec_stream_losses_t::range. */
typedef struct evrec_byte_range {
    uint64_t offset; /**< bytes from the start of the input (the capture), not of this file */
    uint64_t bytes;  /**< its length, bytes */
} evrec_byte_range_t;

/** @brief What a recording made from a stream lost (`evrec record`): evrec_reader_stream_losses(). */
typedef struct evrec_stream_losses {
    int final;                       /**< 1: the final counts; 0: the counts written at the start
                                          (all zero) were never updated: the output was a pipe, or
                                          the recorder was killed; losses unknown */
    int ended;                       /**< 1: the stream's end (S_END) was received: every count is
                                          exact; 0: records lost after the last frame received are
                                          not counted (lost_transport is a lower bound) */
    uint32_t lanes;                  /**< entries of `lane` */
    const evrec_lane_losses_t *lane; /**< per lane (reader-owned) */
    uint64_t damaged_bytes;          /**< input bytes in no intact frame */
    uint64_t damaged_ranges;         /**< separate damaged ranges of the input */
    uint32_t listed;                 /**< entries of `range`: the first damaged ranges */
    const evrec_byte_range_t *range; /**< reader-owned */
    uint64_t lost;                   /**< sum of every lane's dropped and lost_transport (at most UINT64_MAX) */
} evrec_stream_losses_t;

/**
 * @brief What a recording made from a stream lost, per lane: the records its target dropped and
 * those lost between target and host, and the damaged input ranges (LOSSES chunk, FORMAT.md
 * section 8.4). The header's `dropped` (evrec_reader_info()) counts the target's drops only.
 * @param[in] r an open reader.
 * @return the losses (reader-owned, valid until evrec_reader_close()), or NULL when the file has
 *     no intact LOSSES chunk (it was not made from a stream, or by an older evrec), or r is NULL.
 * **Context:** thread; reads only. Known once the reader is open (the chunk comes before the
 * records).
 */
const evrec_stream_losses_t *evrec_reader_stream_losses(const evrec_reader_t *r);

/**
 * @brief The number of the recording's attributes (ATTRS chunk, FORMAT.md section 2.6: well-known
 * keys `device`, `firmware`, `boot`; others allowed).
 * @param[in] r an open reader, or NULL.
 * @return 0..64; 0 when the file has no intact ATTRS chunk (an older file, a bare CCore stream, or
 *     a malformed chunk, which is reported as a damaged range at its offset that lost no record),
 *     or r is NULL.
 * **Context:** thread; reads only. Known once the reader is open (the chunk comes before the
 * records).
 */
uint32_t evrec_reader_attr_count(const evrec_reader_t *r);

/**
 * @brief One attribute of the recording, in the order of the file.
 * @param[in] r an open reader.
 * @param[in] i 0 .. evrec_reader_attr_count() - 1.
 * @param[out] key the key: 1..32 bytes of `A-Z a-z 0-9 _ . -`, NUL-terminated (reader-owned,
 *     valid until evrec_reader_close()).
 * @param[out] value the value: 0..255 bytes of UTF-8 without NUL, NUL-terminated (reader-owned,
 *     valid until evrec_reader_close()).
 * @retval EVREC_OK filled.
 * @retval EVREC_E_ARG a NULL pointer, or i out of range.
 * **Context:** thread; reads only.
 */
evrec_status evrec_reader_attr(const evrec_reader_t *r, uint32_t i, const char **key, const char **value);

/**
 * @brief The value of the attribute `key`.
 * @param[in] r an open reader, or NULL.
 * @param[in] key the key (NUL-terminated), or NULL.
 * @return the value (reader-owned, valid until evrec_reader_close()), or NULL when the recording
 *     has no such attribute (or a NULL argument).
 * **Context:** thread; reads only.
 */
const char *evrec_reader_attr_find(const evrec_reader_t *r, const char *key);

/** @brief One leaf field of a record, as given to an ::evrec_field_visitor_t. */
typedef struct evrec_field_view {
    const char *path;               /**< dotted name from the event struct: "time", "obj", "inner.a" */
    const char *name;               /**< the last component of `path` */
    uint32_t index;                 /**< leaf number in walk order (0 = time, 1 = id) */
    unsigned depth;                 /**< 0 for the event struct's own fields, 1 inside a nested struct ... */
    uint8_t kind;                   /**< an ::evrec_kind other than EVREC_KIND_STRUCT */
    uint16_t enum_id;               /**< for enum kinds: the enum id; else 0 */
    uint32_t offset;                /**< byte offset of the field in the packed record */
    uint32_t value;                 /**< the value, host order */
    const char *value_name;         /**< enum kinds: the value's name, or NULL when it has none */
    uint8_t marker;                 /**< enum kinds: the named value's ::evrec_marker; else 0 */
    uint16_t struct_id;             /**< the struct that declares this leaf (the event's, or a nested one) */
    uint32_t field_index;           /**< the leaf's index in that struct's fields */
    const evrec_field_info_t *info; /**< its display attributes (FIELD_INFO), or NULL when none */
} evrec_field_view_t;

/**
 * @brief Field callback of evrec_reader_visit_fields().
 * @param[in] ctx the `ctx` given to evrec_reader_visit_fields().
 * @param[in] field the leaf (reader-owned, valid during the call).
 * @return 0 to go on, non-zero to stop the walk.
 * **Context:** called in the thread that called evrec_reader_visit_fields().
 */
typedef int (*evrec_field_visitor_t)(void *ctx, const evrec_field_view_t *field);

/**
 * @brief One damaged range of a file that the reader skipped (FORMAT.md section 2, "What a
 * reader does with damage"). Reader-owned, valid until close.
 */
typedef struct evrec_damage {
    evrec_status status;   /**< EVREC_E_CHECKSUM, EVREC_E_CORRUPT, EVREC_E_BAD_ID, ... */
    uint64_t offset;       /**< file offset where the damage starts, bytes */
    uint64_t length;       /**< bytes skipped from `offset` (0: nothing skipped, e.g. a header) */
    uint64_t records_lost; /**< records lost in it, from the SYNC chunk where reading resumed;
                                UINT64_MAX: not known (reading did not resume, or nothing of the
                                stream was lost: a display-only chunk, the header) */
    uint64_t index_after;  /**< index of the first record read after it; UINT64_MAX: none */
    char message[320];     /**< English: what was found and what was expected */
} evrec_damage_t;

/** @brief Result of evrec_reader_summarize(). Arrays are reader-owned, valid until close. */
typedef struct evrec_reader_summary {
    uint64_t records;             /**< records returned (End not counted) */
    uint64_t unverified;          /**< of those, records from a truncated chunk */
    uint64_t ticks;               /**< EventControl Tick records */
    uint32_t event_count;         /**< entries in `event_counts` (= the meta-info's events) */
    const uint64_t *event_counts; /**< records per event id */
    uint32_t first_time32;        /**< raw time of the first record (0 when none) */
    uint32_t last_time32;         /**< raw time of the last record */
    uint64_t last_t64;            /**< restored time of the last record, ticks (first is 0) */
    uint64_t last_ns;             /**< = duration in ns (first record at 0 ns); 0 if unknown */
    uint64_t time_freq;           /**< effective frequency, Hz (0 = unknown) */
    evrec_time_source time_source;
    int end_seen;                /**< 1: the End record (and, for a container, END) were read */
    evrec_reader_error_t damage; /**< status EVREC_OK when the file is intact */
} evrec_reader_summary_t;

/**
 * @brief Open a file by path: reads the header (container) or recognises a bare CCore stream,
 * then parses the meta-info. No record is read yet.
 * @param[out] out receives the reader whenever it could be allocated, **also on failure**, so
 * that evrec_reader_error() can say what is wrong; close it with evrec_reader_close() either way.
 * Set to NULL only when allocation failed or an argument is NULL.
 * @param[in] path file name.
 * @param[in] opt options, or NULL for the defaults.
 * @retval EVREC_OK ready; records follow through evrec_reader_next().
 * @retval EVREC_E_IO the file cannot be opened or read (message has the errno text).
 * @retval EVREC_E_TRUNCATED the file ends inside the header or the meta-info.
 * @retval EVREC_E_CHECKSUM the header or a chunk before the records fails its CRC.
 * @retval EVREC_E_CORRUPT neither a container nor a CCore stream, or a bad meta-info.
 * @retval EVREC_E_UNSUPPORTED another major version, or a reader limit exceeded.
 * @retval EVREC_E_NOMEM allocation failed.
 * @retval EVREC_E_ARG NULL argument.
 * **Context:** thread.
 * @code
 * evrec_reader_t *r;
 * evrec_record_t rec;
 * if (evrec_reader_open_path(&r, "trace.evr", NULL) == EVREC_OK) {
 *     while (evrec_reader_next(r, &rec) == EVREC_OK) {
 *         printf("%llu ns id %u\n", (unsigned long long)rec.ns, rec.id);
 *     }
 * }
 * const evrec_reader_error_t *e = evrec_reader_error(r);
 * if (r && e->status != EVREC_OK) {
 *     fprintf(stderr, "offset %llu: %s\n", (unsigned long long)e->offset, e->message);
 * }
 * evrec_reader_close(r);
 * @endcode
 */
evrec_status evrec_reader_open_path(evrec_reader_t **out, const char *path, const evrec_reader_options_t *opt);

/**
 * @brief As evrec_reader_open_path() on an open stream (a pipe works). Offsets count from the
 * stream's position at this call. The reader does not close `f`. When time_freq must be derived
 * from ticks (see ::evrec_reader_options_t) and `f` cannot seek, the frequency stays unknown.
 * @param[out] out receives the reader, also on failure (as evrec_reader_open_path()).
 * @param[in] f an open stream, read from its current position; owned by the caller.
 * @param[in] opt options, or NULL for the defaults.
 * @retval EVREC_OK ready; records follow through evrec_reader_next().
 * @retval EVREC_E_IO reading `f` failed (message has the errno text).
 * @retval EVREC_E_TRUNCATED the file ends inside the header or the meta-info.
 * @retval EVREC_E_CHECKSUM the header or a chunk before the records fails its CRC.
 * @retval EVREC_E_CORRUPT neither a container nor a CCore stream, or a bad meta-info.
 * @retval EVREC_E_UNSUPPORTED another major version, or a reader limit exceeded.
 * @retval EVREC_E_NOMEM allocation failed.
 * @retval EVREC_E_ARG NULL argument.
 * **Context:** thread; nothing else may read `f` until the reader is closed.
 */
evrec_status evrec_reader_open_file(evrec_reader_t **out, FILE *f, const evrec_reader_options_t *opt);

/**
 * @brief As evrec_reader_open_path() on bytes in memory, which the caller keeps unchanged and
 * alive until the reader is closed (they are not copied).
 * @param[out] out receives the reader, also on failure (as evrec_reader_open_path()).
 * @param[in] data the file's bytes (caller-owned, not copied).
 * @param[in] size bytes at `data`.
 * @param[in] opt options, or NULL for the defaults.
 * @retval EVREC_OK ready; records follow through evrec_reader_next().
 * @retval EVREC_E_TRUNCATED the bytes end inside the header or the meta-info.
 * @retval EVREC_E_CHECKSUM the header or a chunk before the records fails its CRC.
 * @retval EVREC_E_CORRUPT neither a container nor a CCore stream, or a bad meta-info.
 * @retval EVREC_E_UNSUPPORTED another major version, or a reader limit exceeded.
 * @retval EVREC_E_NOMEM allocation failed.
 * @retval EVREC_E_ARG NULL argument.
 * **Context:** thread.
 */
evrec_status evrec_reader_open_memory(evrec_reader_t **out, const void *data, size_t size,
                                      const evrec_reader_options_t *opt);

/**
 * @brief Free a reader and everything it owns (tables, names, records). NULL is ignored.
 * @param[in] r the reader, or NULL.
 * **Context:** thread; the reader's pointers (meta, records, summary arrays) die with it.
 */
void evrec_reader_close(evrec_reader_t *r);

/**
 * @brief The sticky error: status EVREC_OK while there is none. Once set it never changes.
 * @param[in] r an open reader (also one whose open failed).
 * @return a pointer into the reader, never NULL for a non-NULL reader.
 * **Context:** thread (the reader's); reads only.
 */
const evrec_reader_error_t *evrec_reader_error(const evrec_reader_t *r);

/**
 * @brief Number of damaged ranges met so far (the reader goes on past each one, see
 * evrec_reader_damage()). Also counts those beyond the 1,000 the reader keeps.
 * @param[in] r an open reader.
 * @return the number of damaged ranges.
 * **Context:** thread (the reader's).
 */
uint64_t evrec_reader_damage_count(const evrec_reader_t *r);

/**
 * @brief The i-th damaged range met so far, in file order; NULL when i >= min(count, 1000) or r
 * is NULL. The first one is also the sticky error (evrec_reader_error()).
 * @param[in] r an open reader.
 * @param[in] i index, 0 .. evrec_reader_damage_count() - 1.
 * @return reader-owned, valid until close; NULL as said above.
 * **Context:** thread (the reader's).
 */
const evrec_damage_t *evrec_reader_damage(const evrec_reader_t *r, uint64_t i);

/**
 * @brief Header and meta-info facts (valid after a successful open; zeros otherwise).
 * @param[in] r an open reader.
 * @return reader-owned, valid until close.
 * **Context:** thread (the reader's); reads only.
 */
const evrec_file_info_t *evrec_reader_info(const evrec_reader_t *r);

/**
 * @brief The meta-info read from the file as evrec tables (see the file comment for offsets,
 * native sizes and run-time values). `time_freq` is the file's, `schema_hash` the stored one.
 * @param[in] r an open reader.
 * @return reader-owned tables, or NULL when the open failed before the meta-info was complete.
 * **Context:** thread (the reader's); reads only.
 */
const evrec_meta_t *evrec_reader_meta(const evrec_reader_t *r);

/**
 * @brief save_len of an event: the bytes of its record in the file.
 * @param[in] r an open reader.
 * @param[in] event_id an event id.
 * @return bytes, or 0 for an id that does not exist.
 * **Context:** thread (the reader's); reads only.
 */
uint32_t evrec_reader_event_size(const evrec_reader_t *r, uint16_t event_id);

/**
 * @brief Name of an event (its struct's name).
 * @param[in] r an open reader.
 * @param[in] event_id an event id.
 * @return reader-owned text, or NULL for an id that does not exist.
 * **Context:** thread (the reader's); reads only.
 */
const char *evrec_reader_event_name(const evrec_reader_t *r, uint16_t event_id);

/**
 * @brief Look up a value of an enum, static or named at run time.
 * @param[in] r an open reader.
 * @param[in] enum_id an enum id.
 * @param[in] value the value.
 * @param[out] marker optional: the value's marker (0 when unnamed).
 * @return the name (reader-owned), or NULL when the value has none or the enum id does not exist.
 * **Context:** thread (the reader's); reads only.
 */
const char *evrec_reader_enum_value(const evrec_reader_t *r, uint16_t enum_id, uint32_t value, uint8_t *marker);

/**
 * @brief Display attributes of a field (schema keys `format`, `unit`, `description`), from the
 * container's FIELD_INFO chunk (FORMAT.md section 2).
 * @param[in] r an open reader.
 * @param[in] struct_id index in the meta-info's structs.
 * @param[in] field_index index in its fields (0 = time, 1 = id for an event's struct).
 * @return reader-owned entry (strings NULL when absent), valid until close; NULL when the file
 * has none for this field, the ids are out of range, or the file is a bare CCore stream.
 * The same entries are in evrec_reader_meta()->field_info.
 * **Context:** thread; reads only.
 */
const evrec_field_info_t *evrec_reader_field_info(const evrec_reader_t *r, uint16_t struct_id,
                                                  uint32_t field_index);

/**
 * @brief The problem found in the FIELD_INFO chunk, if any (status EVREC_OK when there is none
 * or no chunk). Known after a successful open; becomes the sticky error only at the end of the
 * stream (see the file comment).
 * @param[in] r an open reader.
 * @return a pointer into the reader, never NULL.
 * **Context:** thread (the reader's); reads only.
 */
const evrec_reader_error_t *evrec_reader_field_info_error(const evrec_reader_t *r);

/**
 * @brief The file's tracks, spans and counters (its TRACKS chunk, FORMAT.md section 2).
 * Tracks ascend by event id (at most one per event); counters by (struct id, field index); spans
 * are in schema order. The same object is evrec_reader_meta()->tracks.
 * @param[in] r an open reader.
 * @return reader-owned tables valid until close; NULL when the file has none (no TRACKS chunk, a
 * bare CCore stream, or a bad chunk: see evrec_reader_tracks_error()).
 * **Context:** thread; reads only.
 */
const evrec_tracks_t *evrec_reader_tracks(const evrec_reader_t *r);

/**
 * @brief The problem found in the TRACKS chunk, if any (status EVREC_OK when there is none or no
 * chunk). Known after a successful open; becomes the sticky error only at the end of the stream.
 * @param[in] r an open reader.
 * @return a pointer into the reader, never NULL.
 * **Context:** thread (the reader's); reads only.
 */
const evrec_reader_error_t *evrec_reader_tracks_error(const evrec_reader_t *r);

/**
 * @brief The lane field of an event (its `track`).
 * @param[in] r an open reader.
 * @param[in] event_id an event id.
 * @return the leaf number (>= 2) of the field whose value names the event's lane, or
 * ::EVREC_TRACKS_NONE when the event has no track (draw it on its class's lane).
 * **Context:** thread; reads only.
 */
uint16_t evrec_reader_event_track(const evrec_reader_t *r, uint16_t event_id);

/**
 * @brief Resolve a leaf number of an event: where it is in the packed record, its kind, its enum,
 * the (struct, field) that declares it, and optionally its dotted path ("frame.number").
 * @param[in] r an open reader.
 * @param[in] event_id an event id.
 * @param[in] leaf leaf number (0 = time, 1 = id, ...).
 * @param[out] out filled on EVREC_OK (`packed_offset` indexes evrec_record_t::data).
 * @param[out] path optional buffer for the path (NUL-terminated, cut to fit); NULL with size 0.
 * @param[in] path_size bytes at `path`.
 * @retval EVREC_OK found.
 * @retval EVREC_E_ARG NULL out (or path NULL with a size).
 * @retval EVREC_E_BAD_ID no such event or leaf, or no meta-info.
 * **Context:** thread; reads only.
 */
evrec_status evrec_reader_leaf(const evrec_reader_t *r, uint16_t event_id, uint32_t leaf, evrec_leaf_info_t *out,
                               char *path, size_t path_size);

/**
 * @brief The value of leaf `leaf` of a record (e.g. its track or span key), host order.
 * @param[in] r an open reader.
 * @param[in] rec a record of this reader.
 * @param[in] leaf leaf number (0 = time, 1 = id, ...).
 * @param[out] value the value on EVREC_OK.
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG NULL argument or a record too short for the leaf.
 * @retval EVREC_E_BAD_ID the record's event has no such leaf.
 * **Context:** thread; reads only.
 */
evrec_status evrec_reader_leaf_value(const evrec_reader_t *r, const evrec_record_t *rec, uint32_t leaf,
                                     uint32_t *value);

/**
 * @brief Whether an enum's values carry markers.
 * @param[in] r an open reader.
 * @param[in] enum_id an enum id.
 * @return 1 if any value of the enum (static or run-time) has a marker other than None, else 0
 *     (also for an id that does not exist).
 * **Context:** thread (the reader's); reads only.
 */
int evrec_reader_enum_has_markers(const evrec_reader_t *r, uint16_t enum_id);

/**
 * @brief Read the next record. The first call may read the file once more beforehand to derive
 * the frequency from ticks (seekable sources only; see ::evrec_reader_options_t).
 * @param[in,out] r an open reader.
 * @param[out] rec filled on EVREC_OK; its `data` stays valid until the next call or close.
 * @retval EVREC_OK a record.
 * @retval EVREC_E_END the End record (and, for a container, the END chunk with nothing after it)
 *     was read, and the header's `recorded` matches: the file is intact and complete.
 * @retval EVREC_E_TRUNCATED the sticky error: the file ends early (every record before it was
 *     returned; evrec_reader_error() has the offset and what was expected).
 * @retval EVREC_E_CHECKSUM the sticky error: damage was skipped (evrec_reader_damage()).
 * @retval EVREC_E_CORRUPT the sticky error: bytes that contradict the format.
 * @retval EVREC_E_BAD_ID the sticky error: a record with an unknown event id.
 * @retval EVREC_E_UNSUPPORTED the sticky error: a reader limit exceeded.
 * @retval EVREC_E_IO the sticky error: reading the file failed.
 * @retval EVREC_E_NOMEM the sticky error: allocation failed.
 * @retval EVREC_E_ARG NULL argument.
 * **Context:** thread.
 */
evrec_status evrec_reader_next(evrec_reader_t *r, evrec_record_t *rec);

/**
 * @brief Walk the fields of a record in declaration order, nested structs recursively (their
 * leaves get dotted paths such as `inner.a`). Time and id are the first two leaves.
 * @param[in] r an open reader.
 * @param[in] rec a record of this reader.
 * @param[in] fn called once per leaf.
 * @param[in] ctx passed to fn.
 * @retval EVREC_OK walked (or stopped by fn).
 * @retval EVREC_E_ARG NULL or foreign record.
 * **Context:** thread; does not change the reader.
 */
evrec_status evrec_reader_visit_fields(const evrec_reader_t *r, const evrec_record_t *rec,
                                       evrec_field_visitor_t fn, void *ctx);

/**
 * @brief The record's marker as CCore EventView draws it: from the event's own field named
 * `type` if its enum has markers, else from the first enum field with markers (depth first,
 * nested structs included); the marker of the field's value name, EVREC_MARKER_NONE if unnamed.
 * @param[in] r an open reader.
 * @param[in] rec a record of this reader.
 * @return an ::evrec_marker (0..15, or a larger number a file carried).
 * **Context:** thread (the reader's); reads only.
 */
uint8_t evrec_reader_record_marker(const evrec_reader_t *r, const evrec_record_t *rec);

/**
 * @brief The effective timestamp frequency used for `ns`, Hz; 0 when unknown. May read the file
 * once to derive it from ticks (as the first evrec_reader_next() does).
 * @param[in,out] r an open reader.
 * @param[out] source optional: where it came from.
 * @return ticks per second, 0 when unknown.
 * **Context:** thread (the reader's).
 */
uint64_t evrec_reader_time_freq(evrec_reader_t *r, evrec_time_source *source);

/**
 * @brief Read all remaining records (call it on a freshly opened reader for whole-file numbers)
 * and count them per event type, ticks, first/last time, and the damage. Derives the frequency
 * from the ticks seen in this same pass when needed (no extra pass).
 * @pre No record was read from `r` yet, for whole-file numbers.
 * @param[in,out] r an open reader.
 * @param[out] s the summary; its arrays are reader-owned.
 * @retval EVREC_OK done, intact or not (see s->damage).
 * @retval EVREC_E_NOMEM allocation failed.
 * @retval EVREC_E_ARG NULL argument.
 * **Context:** thread (the reader's).
 */
evrec_status evrec_reader_summarize(evrec_reader_t *r, evrec_reader_summary_t *s);

/**
 * @brief Name of a marker (CCore `EventMarker`).
 * @param[in] marker an ::evrec_marker.
 * @return "None", "Up", ... "Error" (static text), or NULL above 15.
 * **Context:** any; pure.
 */
const char *evrec_marker_name(uint8_t marker);

/**
 * @brief Name of a field kind (CCore `Kind`).
 * @param[in] kind an ::evrec_kind.
 * @return "uint8" ... "struct" (static text), or NULL above 6.
 * **Context:** any; pure.
 */
const char *evrec_kind_name(uint8_t kind);

/**
 * @brief Nanoseconds of `ticks` at `freq` Hz: ticks * 10^9 / freq without overflow (128-bit
 * intermediate), rounded down, saturating at UINT64_MAX.
 * @param[in] ticks a duration or time, ticks.
 * @param[in] freq ticks per second, Hz.
 * @return nanoseconds; 0 when freq is 0.
 * **Context:** any; pure.
 */
uint64_t evrec_ticks_to_ns(uint64_t ticks, uint64_t freq);

/**
 * @brief One step of 64-bit time restoration (FORMAT.md section 5): the 64-bit time of a
 * record stamped `t32` whose predecessor was stamped `prev32` at 64-bit time `t64`. A difference
 * of 2^32 - 2^30 or more is a small step back (records of concurrent contexts), never below 0.
 * @param[in] t64 the predecessor's 64-bit time, ticks.
 * @param[in] prev32 the predecessor's 32-bit stamp.
 * @param[in] t32 this record's 32-bit stamp.
 * @return the record's 64-bit time, ticks.
 * **Context:** any; pure.
 */
uint64_t evrec_time_extend(uint64_t t64, uint32_t prev32, uint32_t t32);

/**
 * @deprecated The name of evrec_reader_tracks() in evrec 0.2; removed in 0.4.
 * @param[in] r as evrec_reader_tracks().
 * @return what evrec_reader_tracks() returns.
 * **Context:** as evrec_reader_tracks().
 */
EVREC_DEPRECATED("renamed evrec_reader_tracks")
static inline const evrec_tracks_t *evrec_reader_view(const evrec_reader_t *r)
{
    return evrec_reader_tracks(r);
}

/**
 * @deprecated The name of evrec_reader_tracks_error() in evrec 0.2; removed in 0.4.
 * @param[in] r as evrec_reader_tracks_error().
 * @return what evrec_reader_tracks_error() returns.
 * **Context:** as evrec_reader_tracks_error().
 */
EVREC_DEPRECATED("renamed evrec_reader_tracks_error")
static inline const evrec_reader_error_t *evrec_reader_view_error(const evrec_reader_t *r)
{
    return evrec_reader_tracks_error(r);
}

#ifdef __cplusplus
}
#endif

#endif /* EVREC_READER_H */
