/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_meta.h
 * @brief The meta-info model: enums, structs, fields, events and markers, as static const tables.
 *
 * Implements the CCore EventRecorder meta-information (`CCore/inc/EventRecorder.h`,
 * `CCore/src/EventRecorder.cpp`; FORMAT.md section 3: an event entry is u16 struct id,
 * u16 class id, u32 save length, as CCore's code and EventView's loader have it). An item's id is
 * its index in its table.
 *
 * The tables are plain data, normally emitted by `evrec-gen` and placed in flash; nothing here
 * allocates. The only mutable part is ::evrec_runtime_enum_t, the user-provided table of enum
 * value names allocated while recording (CCore `EventEnumValue`).
 *
 * Every event type is a POD struct that starts with `uint32_t time; uint16_t id;`
 * (::evrec_record_header_t) and is at most ::EVREC_MAX_EVENT_SIZE bytes. Event 0 is always
 * EventControl (Start, Tick, Stop, End); use EVREC_CONTROL_ENUM_VALUES and EVREC_CONTROL_FIELDS()
 * (or evrec_control_enum_values and evrec_control_fields_enum0) to put its entries in your
 * tables, and evrec_meta_validate() to check them.
 *
 * API overview:
 * - The model: ::evrec_meta_t (time_freq, enums, structs, events, schema hash, field_info, tracks),
 *   ::evrec_enum_desc_t, ::evrec_struct_desc_t, ::evrec_field_desc_t, ::evrec_event_desc_t,
 *   ::evrec_kind, ::evrec_marker; display attributes ::evrec_field_info_t; tracks, spans and
 *   counters ::evrec_tracks_t.
 * - EventControl: ::evrec_control_type, ::evrec_control_event_t, EVREC_CONTROL_ENUM_VALUES,
 *   EVREC_CONTROL_FIELDS(), evrec_control_enum_values, evrec_control_fields_enum0.
 * - Checks: evrec_meta_validate(), evrec_tracks_validate().
 * - Queries: evrec_kind_width(), evrec_meta_packed_size(), evrec_meta_leaf().
 * - Run-time enum values (CCore `EventEnumValue`): evrec_runtime_enum_init(),
 *   evrec_runtime_enum_alloc().
 *
 * Hand-written tables for one event type (`evrec-gen` writes the same from a schema):
 * @code
 * static const evrec_enum_desc_t enums[] = {
 *     {"EventControlType", EVREC_KIND_ENUM_UINT8, 4, evrec_control_enum_values, NULL},
 * };
 * static const evrec_field_desc_t my_fields[] = {
 *     {"time", EVREC_KIND_UINT32, 0, offsetof(my_event_t, time)},
 *     {"id", EVREC_KIND_UINT16, 0, offsetof(my_event_t, id)},
 *     {"a", EVREC_KIND_UINT8, 0, offsetof(my_event_t, a)},
 *     {"b", EVREC_KIND_UINT8, 0, offsetof(my_event_t, b)},
 * };
 * static const evrec_struct_desc_t structs[] = {
 *     {"EventControl", 3, evrec_control_fields_enum0, sizeof(evrec_control_event_t)},
 *     {"MyEvent", 4, my_fields, sizeof(my_event_t)},
 * };
 * static const evrec_event_desc_t events[] = {{0, 0}, {1, 1}}; // {struct id, class id}
 * static const evrec_meta_t meta = {0, 1, enums, 2, structs, 2, events, 0, NULL, NULL};
 * uint32_t bad;
 * const char *what;
 * if (evrec_meta_validate(&meta, &bad, &what) != EVREC_OK) {
 *     ... report `what` about item `bad` ...
 * }
 * @endcode
 *
 * Freestanding: usable on the target.
 *
 * FORMAT.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_META_H
#define EVREC_META_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_atomic.h"
#include "evrec/evrec_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest native size of an event struct, in bytes (CCore MaxEventLen). */
#define EVREC_MAX_EVENT_SIZE 256u
/** Alignment of records in the trace buffer, in bytes (CCore RecordAlign). */
#define EVREC_RECORD_ALIGN 4u
/** Deepest nesting of struct fields that the library walks (a struct in a struct ... ). */
#define EVREC_MAX_NESTING 8u
/** Event id reserved to mean "slot not committed yet" in the trace buffer. */
#define EVREC_ID_NONE 0xFFFFu
/** Event id of EventControl: always 0 in evrec-made tables. */
#define EVREC_CONTROL_EVENT_ID 0u

/** @brief Field kinds, numbered as the CCore `Kind` byte (EventRecorder.h, `enum Kind : uint8`). */
typedef enum evrec_kind {
    EVREC_KIND_UINT8 = 0,
    EVREC_KIND_UINT16 = 1,
    EVREC_KIND_UINT32 = 2,
    EVREC_KIND_ENUM_UINT8 = 3,
    EVREC_KIND_ENUM_UINT16 = 4,
    EVREC_KIND_ENUM_UINT32 = 5,
    EVREC_KIND_STRUCT = 6
} evrec_kind;

/**
 * @brief Width in bytes of a field of a non-struct kind.
 * @param[in] kind an ::evrec_kind byte (CCore `Kind`).
 * @return 1, 2 or 4; 0 for EVREC_KIND_STRUCT or a value that is no ::evrec_kind.
 * **Context:** any, ISR-safe; pure.
 */
static inline uint32_t evrec_kind_width(uint8_t kind)
{
    switch (kind) {
    case EVREC_KIND_UINT8:
    case EVREC_KIND_ENUM_UINT8: return 1u;
    case EVREC_KIND_UINT16:
    case EVREC_KIND_ENUM_UINT16: return 2u;
    case EVREC_KIND_UINT32:
    case EVREC_KIND_ENUM_UINT32: return 4u;
    default: return 0u;
    }
}

/** @brief Event markers, numbered as CCore `EventMarker` (EventRecorder.h, `enum EventMarker`). */
typedef enum evrec_marker {
    EVREC_MARKER_NONE = 0,
    EVREC_MARKER_UP = 1,
    EVREC_MARKER_DOWN = 2,
    EVREC_MARKER_UP_BLOCK = 3,
    EVREC_MARKER_DOWN_BLOCK = 4,
    EVREC_MARKER_UP_UP = 5,
    EVREC_MARKER_UP_PUSH = 6,
    EVREC_MARKER_UP_UP_PUSH = 7,
    EVREC_MARKER_PUSH = 8,
    EVREC_MARKER_INC = 9,
    EVREC_MARKER_DEC = 10,
    EVREC_MARKER_WAIT = 11,
    EVREC_MARKER_PASS = 12,
    EVREC_MARKER_TICK = 13,
    EVREC_MARKER_STOP = 14,
    EVREC_MARKER_ERROR = 15
} evrec_marker;

/** @brief EventControl `type` values (CCore `EventRecorder.h`, `enum EventControl::Type`). */
typedef enum evrec_control_type {
    EVREC_CONTROL_START = 0, /**< first record of a recording; marker Push */
    EVREC_CONTROL_TICK = 1,  /**< periodic; keeps 32-bit time gaps under one wrap; marker Tick */
    EVREC_CONTROL_STOP = 2,  /**< last recorded record; marker Stop */
    EVREC_CONTROL_END = 3    /**< appended by save only, time 0; no marker */
} evrec_control_type;

/** @brief The two fields every event struct starts with (CCore RecordPrefix). 8 bytes native. */
typedef struct evrec_record_header {
    uint32_t time; /**< 32-bit timestamp, in port ticks (see the port's frequency) */
    uint16_t id;   /**< event id = index in evrec_meta_t::events */
} evrec_record_header_t;

/** @brief The EventControl event struct (native size 8 bytes, saved size 7 bytes). */
typedef struct evrec_control_event {
    uint32_t time;
    uint16_t id;
    uint8_t type; /**< an ::evrec_control_type */
} evrec_control_event_t;

/** @brief One named value of an enum. */
typedef struct evrec_enum_value {
    uint32_t value;   /**< must fit the enum's width; values ascending within a table */
    const char *name; /**< NUL-terminated, not NULL */
    uint8_t marker;   /**< an ::evrec_marker */
} evrec_enum_value_t;

/**
 * @brief Run-time allocated enum values (CCore `EventEnumValue`): values in [base, lim) get a
 * name while recording and are appended to the enum's value list when the file is saved.
 *
 * The user owns this object and its `names` array of `lim - base` pointers (all NULL before use);
 * initialise with evrec_runtime_enum_init(). The name strings must outlive the save.
 */
typedef struct evrec_runtime_enum {
    uint32_t base;            /**< first value handed out */
    uint32_t lim;             /**< one past the last value that can be handed out */
    uint8_t marker;           /**< marker given to every appended value */
    const char **names;       /**< user array, `lim - base` entries, names[v - base] */
    evrec_atomic_size_t next; /**< next value to hand out */
} evrec_runtime_enum_t;

/** @brief An enum type: an unsigned integer of a given width with names for some values. */
typedef struct evrec_enum_desc {
    const char *name;                 /**< C identifier, not NULL */
    uint8_t kind;                     /**< EVREC_KIND_ENUM_UINT8/16/32 (CCore writes these) */
    uint32_t value_count;             /**< entries in `values` */
    const evrec_enum_value_t *values; /**< ascending; may be NULL when value_count is 0 */
    evrec_runtime_enum_t *runtime;    /**< NULL, or run-time names appended at save */
} evrec_enum_desc_t;

/** @brief One field of a struct. */
typedef struct evrec_field_desc {
    const char *name; /**< not NULL */
    uint8_t kind;     /**< an ::evrec_kind */
    uint16_t ref;     /**< enum id for enum kinds, struct id for EVREC_KIND_STRUCT, else 0 */
    uint16_t offset;  /**< byte offset of the field in the native C struct (offsetof) */
} evrec_field_desc_t;

/** @brief A struct type: an event's layout, or a reusable group of fields. */
typedef struct evrec_struct_desc {
    const char *name;                 /**< not NULL */
    uint32_t field_count;             /**< entries in `fields` */
    const evrec_field_desc_t *fields; /**< in declaration order */
    uint16_t native_size;             /**< sizeof the native C struct, bytes */
} evrec_struct_desc_t;

/** @brief An event type. Its struct's first fields are `uint32 time` and `uint16 id`. */
typedef struct evrec_event_desc {
    uint16_t struct_id; /**< index in evrec_meta_t::structs */
    uint16_t class_id;  /**< groups event types for display; CCore default = the event's own id */
} evrec_event_desc_t;

/** @brief How a host tool should display an integer field (schema key `format`). */
typedef enum evrec_display {
    EVREC_DISPLAY_DEFAULT = 0, /**< not given: decimal for integers, the name for enums */
    EVREC_DISPLAY_DECIMAL = 1, /**< unsigned decimal */
    EVREC_DISPLAY_HEX = 2,     /**< hexadecimal, zero-padded to the field's width */
    EVREC_DISPLAY_ADDRESS = 3  /**< a target address: hex, to be symbolised by the host */
} evrec_display;

/**
 * @brief Host-side display attributes of one struct field (schema keys `description`, `format`,
 * `unit`). Not part of the CCore meta-info, not in the schema hash; saved in the container's
 * FIELD_INFO chunk (FORMAT.md section 2).
 */
typedef struct evrec_field_info {
    uint16_t struct_id;      /**< index in evrec_meta_t::structs */
    uint16_t field_index;    /**< index in that struct's fields (0 = time, 1 = id for events) */
    uint8_t display;         /**< an ::evrec_display */
    const char *unit;        /**< unit text such as "us" or "bytes"; NULL = none */
    const char *description; /**< one-line (or multi-line) text; NULL = none */
} evrec_field_info_t;

/** @brief The field display attributes of a meta-info (emitted by evrec-gen). */
typedef struct evrec_field_info_table {
    uint64_t schema_hash;              /**< the hash of the meta-info these entries describe */
    uint32_t count;                    /**< entries in `entries` */
    const evrec_field_info_t *entries; /**< may be NULL when count is 0 */
} evrec_field_info_table_t;

/** Leaf number or id meaning "none" in the track tables below. */
#define EVREC_TRACKS_NONE 0xFFFFu

/**
 * @brief Which lane (thread, task, core, queue) an event belongs to (schema key `track`): the
 * value of one leaf field of the event. Leaves are numbered in walk order over the event's struct,
 * nested structs expanded depth first: 0 = time, 1 = id, 2 = the first schema field ... (the
 * `index` of evrec_field_view_t in the reader). Part of the schema hash.
 */
typedef struct evrec_track_desc {
    uint16_t event_id; /**< index in evrec_meta_t::events */
    uint16_t leaf;     /**< leaf number of the lane field in that event (>= 2) */
} evrec_track_desc_t;

/** @brief One end of a span: an event, optionally only when a field has a value. */
typedef struct evrec_span_end {
    uint16_t event_id;    /**< index in evrec_meta_t::events */
    uint16_t match_leaf;  /**< leaf that must equal `match_value`, or ::EVREC_TRACKS_NONE (any record) */
    uint32_t match_value; /**< the value (an enum value or an integer); 0 when match_leaf is none */
    uint16_t key_leaf;    /**< leaf whose value pairs this end with the other, or ::EVREC_TRACKS_NONE */
} evrec_span_end_t;

/**
 * @brief A span (schema `spans:`): an interval from a `begin` record to the next matching `end`
 * record (with an equal key value when keys are given). Part of the schema hash.
 */
typedef struct evrec_span_desc {
    const char *name;       /**< C identifier, not NULL */
    evrec_span_end_t begin; /**< what opens the span */
    evrec_span_end_t end;   /**< what closes it */
    uint16_t track_leaf;    /**< leaf of the begin event giving the lane, or ::EVREC_TRACKS_NONE
                                 (the begin event's track, else its class) */
} evrec_span_desc_t;

/** @brief A numeric field worth a graph over time (schema `counter: true`). In the hash. */
typedef struct evrec_counter_desc {
    uint16_t struct_id;   /**< index in evrec_meta_t::structs */
    uint16_t field_index; /**< index in that struct's fields; an integer field */
    /** 0: one series per event carrying the field. Else 1 + the index in the same struct of the
     * integer or enum field whose value separates the samples into series (schema `series:`,
     * e.g. one queue depth per queue; FORMAT.md section 2.1, the COUNTER_SERIES chunk). Code
     * generated by evrec-gen 0.3 leaves it 0. */
    uint16_t series;
} evrec_counter_desc_t;

/** Marks an old name kept for one minor version (GCC and clang warn where it is used). */
#ifndef EVREC_DEPRECATED
#if defined(__GNUC__) || defined(__clang__)
#define EVREC_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define EVREC_DEPRECATED(msg)
#endif
#endif

/**
 * @brief Tracks, spans and counters of a meta-info (emitted by evrec-gen, saved in the container's
 * TRACKS chunk, FORMAT.md section 2). Tracks ascend by event id (at most one per event),
 * counters by (struct_id, field_index); spans keep the schema's order.
 */
typedef struct evrec_tracks {
    uint32_t track_count;
    const evrec_track_desc_t *tracks; /**< may be NULL when track_count is 0 */
    uint32_t span_count;
    const evrec_span_desc_t *spans; /**< may be NULL when span_count is 0 */
    uint32_t counter_count;
    const evrec_counter_desc_t *counters; /**< may be NULL when counter_count is 0 */
} evrec_tracks_t;

/** @deprecated The name of ::evrec_tracks_t in evrec 0.2; removed in 0.4. */
typedef evrec_tracks_t evrec_view_t EVREC_DEPRECATED("renamed evrec_tracks_t");
/** @deprecated The name of ::EVREC_TRACKS_NONE in evrec 0.2; removed in 0.4. */
#define EVREC_VIEW_NONE EVREC_TRACKS_NONE

/** @brief The whole meta-info of a program: what a file needs to be self-describing. */
typedef struct evrec_meta {
    uint64_t time_freq; /**< timestamp ticks per second; 0 = unknown (use ticks) */
    uint32_t enum_count;
    const evrec_enum_desc_t *enums;
    uint32_t struct_count;
    const evrec_struct_desc_t *structs;
    uint32_t event_count; /**< at least 1: event 0 is EventControl */
    const evrec_event_desc_t *events;
    uint64_t schema_hash;                       /**< xxHash64 of the canonical meta-info; 0 = not given */
    const evrec_field_info_table_t *field_info; /**< display attributes, or NULL */
    /** tracks, spans, counters, or NULL (none). Named `view` in evrec 0.2: code generated by
     *  evrec-gen 0.2 is generated again (a member has no alias that keeps positional initialisers). */
    const evrec_tracks_t *tracks;
} evrec_meta_t;

/** Table entries for the EventControlType enum values: use inside an evrec_enum_value_t array. */
#define EVREC_CONTROL_ENUM_VALUES                                                                                 \
    {EVREC_CONTROL_START, "Start", EVREC_MARKER_PUSH}, {EVREC_CONTROL_TICK, "Tick", EVREC_MARKER_TICK},           \
        {EVREC_CONTROL_STOP, "Stop", EVREC_MARKER_STOP},                                                          \
    {                                                                                                             \
        EVREC_CONTROL_END, "End", EVREC_MARKER_NONE                                                               \
    }

/** The three fields of EventControl; `enum_id` is the index of your EventControlType enum. */
#define EVREC_CONTROL_FIELDS(enum_id)                                                                             \
    {"time", EVREC_KIND_UINT32, 0, 0}, {"id", EVREC_KIND_UINT16, 0, 4},                                           \
    {                                                                                                             \
        "type", EVREC_KIND_ENUM_UINT8, (enum_id), 6                                                               \
    }

/** Shared definitions of the EventControl tables, for hand-written meta-info. */
extern const evrec_enum_value_t evrec_control_enum_values[4];
/** The three EventControl fields, with the EventControlType enum at id 0. */
extern const evrec_field_desc_t evrec_control_fields_enum0[3];

/**
 * @brief Check the tables for everything the recorder, save and reader rely on.
 *
 * Checks: event 0 is EventControl (struct named "EventControl" with u32 time at 0, u16 id at 4,
 * enum_uint8 type at 6 whose enum names Start/Tick/Stop/End as 0..3); every event struct starts
 * with u32 `time` at offset 0 and u16 `id` at offset 4; every id reference is in range; struct
 * nesting is acyclic and at most ::EVREC_MAX_NESTING deep; fields lie inside their struct;
 * native sizes are at most ::EVREC_MAX_EVENT_SIZE and multiples of 4 for events; enum values
 * ascend and fit the width; run-time ranges fit the width and do not overlap static values.
 *
 * @param[in] meta the tables; not NULL.
 * @param[out] bad_index optional (may be NULL): index of the first offending item, in the table
 *             named by the message; unchanged on success.
 * @param[out] what optional (may be NULL): static English text naming the first problem.
 * @retval EVREC_OK the tables are usable.
 * @retval EVREC_E_ARG meta is NULL.
 * @retval EVREC_E_META a check failed; see `what`.
 * **Context:** any thread; reads only. Not needed in an ISR.
 */
evrec_status evrec_meta_validate(const evrec_meta_t *meta, uint32_t *bad_index, const char **what);

/**
 * @brief Check the track tables (meta->tracks) against the meta-info: ids and leaves in range, leaves
 * are integer or enum fields (not time or id), tracks ascending by event id, counters ascending
 * and on plain integer fields, span names not empty.
 * @pre evrec_meta_validate(meta) returned EVREC_OK.
 * @param[in] meta tables that passed evrec_meta_validate(); not NULL. A NULL track model is valid.
 * @param[out] bad_index optional: index of the first bad entry (in its table).
 * @param[out] what optional: static English text naming the problem.
 * @retval EVREC_OK usable.
 * @retval EVREC_E_ARG meta is NULL.
 * @retval EVREC_E_META a check failed.
 * **Context:** any thread; reads only.
 */
evrec_status evrec_tracks_validate(const evrec_meta_t *meta, uint32_t *bad_index, const char **what);

/**
 * @deprecated The name of evrec_tracks_validate() in evrec 0.2; removed in 0.4.
 * @param[in] meta as evrec_tracks_validate().
 * @param[out] bad_index as evrec_tracks_validate().
 * @param[out] what as evrec_tracks_validate().
 * @retval EVREC_OK usable.
 * @retval EVREC_E_ARG meta is NULL.
 * @retval EVREC_E_META a check failed.
 * **Context:** any thread; reads only.
 */
EVREC_DEPRECATED("renamed evrec_tracks_validate")
static inline evrec_status evrec_view_validate(const evrec_meta_t *meta, uint32_t *bad_index, const char **what)
{
    return evrec_tracks_validate(meta, bad_index, what);
}

/** @brief What evrec_meta_leaf() finds about one leaf of an event. */
typedef struct evrec_leaf_info {
    uint32_t packed_offset; /**< byte offset of the leaf in the packed (saved) record */
    uint32_t native_offset; /**< byte offset in the native C struct (from the field offsets) */
    uint8_t kind;           /**< an ::evrec_kind other than EVREC_KIND_STRUCT */
    uint16_t ref;           /**< enum id for enum kinds, else 0 */
    uint16_t struct_id;     /**< the struct declaring the leaf */
    uint32_t field_index;   /**< its index in that struct's fields */
    unsigned depth;         /**< 0: a field of the event's struct; 1: inside a nested struct ... */
    uint16_t path_struct[EVREC_MAX_NESTING + 1]; /**< the struct of each path component */
    uint32_t path_field[EVREC_MAX_NESTING + 1];  /**< the field index of each path component */
} evrec_leaf_info_t;

/**
 * @brief Find leaf number `leaf` (walk order: 0 = time, 1 = id, nested structs expanded depth
 * first) of an event.
 * @pre evrec_meta_validate(meta) returned EVREC_OK.
 * @param[in] meta validated tables.
 * @param[in] event_id index in meta->events.
 * @param[in] leaf the number.
 * @param[out] out filled on EVREC_OK; the path is path_struct/path_field[0..depth].
 * @retval EVREC_OK found.
 * @retval EVREC_E_ARG NULL pointer.
 * @retval EVREC_E_BAD_ID no such event or leaf (or nesting too deep).
 * **Context:** any; pure.
 */
evrec_status evrec_meta_leaf(const evrec_meta_t *meta, uint32_t event_id, uint32_t leaf, evrec_leaf_info_t *out);

/**
 * @brief The leaf whose value names the series of a counter leaf (::evrec_counter_desc_t::series):
 * the series field of the same struct instance as the counter (a counter in a struct that an
 * event holds twice has one series field per instance).
 * @pre evrec_meta_validate(meta) and evrec_tracks_validate(meta) returned EVREC_OK.
 * @param[in] meta validated tables, or NULL.
 * @param[in] event_id index in meta->events.
 * @param[in] leaf a leaf of that event (evrec_meta_leaf()).
 * @return the series field's leaf; ::EVREC_TRACKS_NONE when the leaf is no counter, the counter
 * has no series field (one series per event), there is no track model, or an argument is bad.
 * **Context:** any; pure. O(leaves of the event) per call: look it up once per event.
 */
uint16_t evrec_meta_counter_series_leaf(const evrec_meta_t *meta, uint32_t event_id, uint32_t leaf);

/**
 * @brief Packed (saved) size of a struct in bytes: the sum of its fields' sizes, nested structs
 * inlined (CCore `save_len`).
 * @pre evrec_meta_validate(meta) returned EVREC_OK.
 * @param[in] meta validated tables.
 * @param[in] struct_id index in meta->structs.
 * @return the size in bytes, or 0 if struct_id is out of range or nesting is too deep.
 * **Context:** any; pure.
 */
uint32_t evrec_meta_packed_size(const evrec_meta_t *meta, uint32_t struct_id);

/**
 * @brief Prepare a run-time enum. `names` must hold `lim - base` pointers; they are set to NULL.
 * @pre No context allocates from `e` (evrec_runtime_enum_alloc()) meanwhile.
 * @param[out] e the object (user memory).
 * @param[in] base first value.
 * @param[in] lim one past the last.
 * @param[in] marker marker of every appended value.
 * @param[in,out] names user array.
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG NULL pointer or lim <= base.
 * **Context:** before recording starts; not thread-safe against evrec_runtime_enum_alloc().
 */
evrec_status evrec_runtime_enum_init(evrec_runtime_enum_t *e, uint32_t base, uint32_t lim, uint8_t marker,
                                     const char **names);

/**
 * @brief Allocate the next value and give it a name (CCore `EventEnumValue` constructor).
 * @param[in,out] e the run-time enum.
 * @param[in] name NUL-terminated; the caller keeps it alive until the file is saved (a string
 *     literal is typical).
 * @param[out] value the allocated value.
 * @retval EVREC_OK `*value` is in [base, lim).
 * @retval EVREC_E_EXHAUSTED no value left; `*value` is set to `lim` (records with it show a
 *     number).
 * @retval EVREC_E_ARG NULL pointer.
 * **Context:** lock-free; any thread, ISR-safe (one atomic add and one store).
 */
evrec_status evrec_runtime_enum_alloc(evrec_runtime_enum_t *e, const char *name, uint32_t *value);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_META_H */
