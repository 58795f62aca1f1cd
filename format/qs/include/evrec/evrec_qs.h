/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_qs.h
 * @brief QP/Spy (QS) encoder: evrec events as QS application-specific records in HDLC-like
 * frames, plus the session records (QS_EMPTY, target info, dictionaries) that QSPY needs.
 *
 * Implements the QP/Spy protocol as Quantum Leaps documents it: QP/C "Observability Viewpoint"
 * (framing, application-specific records, data elements, dictionaries) and the QSPY manual
 * ("Q-SPY transmission protocol", "Last-is-Best Data Policy"), with the record ids and layouts of
 * qpc's `qs.h` and qtools' `qpc_qs.h` (QP 7.x), checked against QSPY 7.4.0. The mapping of evrec
 * events to QS records is documented byte by byte in QS.md.
 *
 * Three layers:
 * - evrec_qs_frame(): one frame from (seq, record id, payload): checksum, escaping, flag.
 * - ::evrec_qs_map_t: the deterministic mapping of a meta-info to the QS user record ids 100..121,
 *   the enum groups, display formats and local-filter ids (built once, read-only after).
 * - evrec_qs_encode_event() / evrec_qs_session_next(): one event or one session record.
 *
 * API overview:
 * - Mapping: evrec_qs_map_entries_size(), evrec_qs_map_init(), evrec_qs_map_record_id(),
 *   evrec_qs_map_enum_group(), evrec_qs_map_enum_name().
 * - Framing: evrec_qs_frame().
 * - Records: evrec_qs_encode_event(), evrec_qs_encode_lost(), evrec_qs_encode_time_sync() and
 *   evrec_qs_time_sync_due() (1- and 2-byte timestamps).
 * - Session start: evrec_qs_session_next() (one record at a time), evrec_qs_encode_session()
 *   (all, framed).
 * The live transmit buffer with filters is in evrec_qs_tx.h; the host decoder in
 * evrec_qs_decode.h.
 *
 * Offline use: map once, then frame each event (the session records first, for QSPY):
 * @code
 * // at least evrec_qs_map_entries_size(&my_meta) bytes:
 * static uint8_t qs_entries[1024] __attribute__((aligned(4)));
 * static uint8_t frame[2 * (EVREC_QS_MAX_PAYLOAD + 3) + 1];
 * evrec_qs_map_t map;
 * evrec_qs_options_t o = {0};
 * o.time_size = 4;
 * if (evrec_qs_map_init(&map, &my_meta, &o, qs_entries, sizeof qs_entries) != EVREC_OK) {
 *     return;
 * }
 * my_event_t ev = {.time = 1000u, .id = MY_EVENT_ID, .a = 1, .b = 2};
 * size_t n;
 * if (evrec_qs_encode_event(&map, 1, &ev, frame, sizeof frame, &n) == EVREC_OK) {
 *     uart_send(frame, n);
 * }
 * @endcode
 *
 * Freestanding: no malloc, no stdio; the caller gives all memory.
 *
 * QS.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_QS_H
#define EVREC_QS_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_meta.h"
#include "evrec/evrec_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @name Framing (QP/C "Observability Viewpoint", "Design Concerns"; QS.md section 1) */
/**@{*/
#define EVREC_QS_FLAG 0x7Eu     /**< HDLC flag: ends every frame */
#define EVREC_QS_ESC 0x7Du      /**< escape byte: the next byte is XOR-ed with 0x20 */
#define EVREC_QS_ESC_XOR 0x20u  /**< what an escaped byte is XOR-ed with */
#define EVREC_QS_GOOD_SUM 0xFFu /**< sum of un-escaped seq..checksum of a good frame */
/** Largest un-escaped frame QSPY accepts (seq + record id + payload + checksum), bytes. */
#define EVREC_QS_MAX_FRAME 512u
/** Largest payload (everything between record id and checksum), bytes. */
#define EVREC_QS_MAX_PAYLOAD (EVREC_QS_MAX_FRAME - 3u)
/**@}*/

/** @name Record ids (qpc `qs.h`, qtools `qpc_qs.h`; QP 7.x numbering; QS.md section 2) */
/**@{*/
#define EVREC_QS_REC_EMPTY 0u
#define EVREC_QS_REC_ENUM_DICT 54u
#define EVREC_QS_REC_SIG_DICT 60u
#define EVREC_QS_REC_OBJ_DICT 61u
#define EVREC_QS_REC_FUN_DICT 62u
#define EVREC_QS_REC_USR_DICT 63u
#define EVREC_QS_REC_TARGET_INFO 64u
#define EVREC_QS_REC_USER 100u /**< first application-specific record id (QP >= 6.6) */
#define EVREC_QS_USER_IDS 24u  /**< ids 100..123 are application ids; 124 is QUTEST_ON_POST */
/** Application ids evrec events use: 100..121. The last two application ids are the bridge's
 * own records, reserved from the end (QS.md "Mapping"). */
#define EVREC_QS_EVENT_IDS 22u
/** Bridge record: losses on the target (QS.md "Loss records"): timestamp, STR kind, U32 count;
 * QS_USR_DICT names it "EVREC_LOST". */
#define EVREC_QS_REC_LOST 122u
/** Bridge record: time sync, the full 32-bit time (1- and 2-byte timestamps; QS.md 4.1);
 * QS_USR_DICT names it "EvrecTimeSync". */
#define EVREC_QS_REC_TIME_SYNC 123u
#define EVREC_QS_QP_VERSION 740u /**< QP version announced in the target info */
#define EVREC_QS_ENUM_GROUPS 8u  /**< QS_ENUM_DICT groups 0..7 */
/**@}*/

/** @brief Type nibble of a data element's format byte (qtools `qpc_qs.h`; QS.md section 4). */
typedef enum evrec_qs_type {
    EVREC_QS_T_I8_ENUM = 0x0, /**< I8, or ENUM when bit 7 of the format byte is set */
    EVREC_QS_T_U8 = 0x1,
    EVREC_QS_T_I16 = 0x2,
    EVREC_QS_T_U16 = 0x3,
    EVREC_QS_T_I32 = 0x4,
    EVREC_QS_T_U32 = 0x5,
    EVREC_QS_T_F32 = 0x6,
    EVREC_QS_T_F64 = 0x7,
    EVREC_QS_T_STR = 0x8,
    EVREC_QS_T_MEM = 0x9,
    EVREC_QS_T_SIG = 0xA,
    EVREC_QS_T_OBJ = 0xB,
    EVREC_QS_T_FUN = 0xC,
    EVREC_QS_T_I64 = 0xD,
    EVREC_QS_T_U64 = 0xE,
    EVREC_QS_T_U32_HEX = 0xF /**< the former QS_U32_HEX_T; QSPY 7.4 still prints it in hex */
} evrec_qs_type;

/** Width nibble that makes QSPY print U8/U16/U32/U64 in hex (QS_HEX_FMT). */
#define EVREC_QS_HEX_WIDTH 0xFu

/** @brief How a field is shown by QSPY; one byte per field in evrec_qs_options_t::field_display. */
typedef enum evrec_qs_display {
    EVREC_QS_DISPLAY_DEC = 0, /**< decimal (default) */
    EVREC_QS_DISPLAY_HEX = 1, /**< hex: width nibble 0xF */
    EVREC_QS_DISPLAY_OBJ = 2, /**< a uint32 object address: QS OBJ element, named by QS_OBJ_DICT */
    EVREC_QS_DISPLAY_FUN = 3  /**< a uint32 function address: QS FUN element, named by QS_FUN_DICT */
} evrec_qs_display;

/** @brief How enum values without an ENUM group are named (evrec_qs_options_t::enum_as;
 * QS.md "Enums"). */
typedef enum evrec_qs_enum_as {
    /** Groups for the enums that fit them (run-time enums first, then by fields that use
     * them), a STR element with the value's name for every other named value. */
    EVREC_QS_ENUM_AS_AUTO = 0,
    /** Groups only; enums without a group are sent as integers (unnamed in QSPY). */
    EVREC_QS_ENUM_AS_GROUPS = 1,
    /** No groups: every named value as a STR element (run-time names as `name#value`). */
    EVREC_QS_ENUM_AS_STRINGS = 2,
    /** No names: every enum value as an integer of its width (smallest records). */
    EVREC_QS_ENUM_AS_INT = 3
} evrec_qs_enum_as;

/** Longest STR element an enum value is sent as (name bytes, NUL excluded): a longer static
 * name is sent as an integer, a longer run-time name is cut before its `#value`. */
#define EVREC_QS_ENUM_STR_MAX 47u

/** @brief Loss kinds of an EVREC_LOST record (its STR element). */
typedef enum evrec_qs_lost_kind {
    EVREC_QS_LOST_DROPPED = 0,    /**< "dropped": the recorder's buffer was full */
    EVREC_QS_LOST_OVERWRITTEN = 1 /**< "overwritten": a cyclic buffer reused the records */
} evrec_qs_lost_kind;

/** @brief One entry of an object or function dictionary: an address and its name. */
typedef struct evrec_qs_name {
    uint32_t addr;    /**< address as recorded in uint32 fields */
    const char *name; /**< NUL-terminated, not NULL */
} evrec_qs_name_t;

/**
 * @brief Optional port lock of the transmit buffer (evrec_qs_tx.h): a critical section as
 * two calls. `enter` returns a state word that `exit` restores (PRIMASK on Cortex-M).
 * Both NULL = no lock (one context only). See evrec_qs_spin_enter() for a host spinlock.
 */
typedef struct evrec_qs_lock {
    uint32_t (*enter)(void *ctx);            /**< enter the critical section, return saved state */
    void (*exit)(void *ctx, uint32_t state); /**< leave it, restoring the saved state */
    void *ctx;                               /**< passed to both */
} evrec_qs_lock_t;

/** @brief Options of the mapping and of the transmit buffer. Zero-initialise, then set. */
typedef struct evrec_qs_options {
    /** Timestamp bytes on the wire: 1, 2 or 4 (0 means 4). Records keep the low bytes; with 1
     * or 2, time-sync records carry the full time (evrec_qs_time_sync_due(), QS.md 4.1). */
    uint8_t time_size;
    /** 1 = always one record id per class with the event type as first element (0 = only when
     * the event types do not fit the 22 event ids 100..121). */
    uint8_t force_classes;
    /** Target-info build time: sec, min, hour, day, month, year - 2000 (all 0 if unknown). */
    uint8_t build_time[6];
    /** NULL (every field decimal), or meta->struct_count pointers, each NULL or an array of
     * that struct's field_count ::evrec_qs_display bytes (from the schema's `format:`). */
    const uint8_t *const *field_display;
    /** Object dictionary sent at session start (QS_OBJ_DICT); may be NULL. */
    const evrec_qs_name_t *objects;
    uint32_t object_count;
    /** Function dictionary sent at session start (QS_FUN_DICT); may be NULL. */
    const evrec_qs_name_t *functions;
    uint32_t function_count;
    /** NULL, or the name of a top-level uint8/16/32 field that holds an object id: events that
     * have it are filtered locally by its value, the others by their class id. */
    const char *local_id_field;
    /** Lock of the transmit buffer (evrec_qs_tx.h only); zero = none. */
    evrec_qs_lock_t lock;
    /** How enum values are named: an ::evrec_qs_enum_as (0 = EVREC_QS_ENUM_AS_AUTO). */
    uint8_t enum_as;
} evrec_qs_options_t;

/** @brief Per-event-type entry of the map (4 bytes). Private layout; see evrec_qs_map_t. */
typedef struct evrec_qs_event_map {
    uint8_t flags;  /**< EVREC_QS_EV_* bits; bit 0 (global filter) changes at run time (atomic) */
    uint8_t slot;   /**< record id - 100 */
    uint16_t local; /**< class id, or byte offset of the local-id field */
} evrec_qs_event_map_t;

/** evrec_qs_event_map_t::flags: the global filter lets this event type through. */
#define EVREC_QS_EV_ENABLED 0x01u
/** evrec_qs_event_map_t::flags: the record starts with the event-type element. */
#define EVREC_QS_EV_TYPED 0x02u
/** evrec_qs_event_map_t::flags bits 2..3: local id source: 0 class id, 1/2/3 u8/u16/u32 field. */
#define EVREC_QS_EV_LOCAL_SHIFT 2u

/** No enum in this group / enum has no group. */
#define EVREC_QS_NO_GROUP 0xFFu

/**
 * @brief The mapping of one meta-info to QS (QS.md "Mapping"): record id per event type, enum
 * groups, whether records carry the event type, and the options. Built by evrec_qs_map_init();
 * read-only afterwards except the global-filter bits. Fields are read by the codecs; treat them
 * as read-only.
 */
typedef struct evrec_qs_map {
    const evrec_meta_t *meta;                  /**< the meta-info (kept alive by the caller) */
    evrec_qs_options_t opts;                   /**< copy of the options (time_size resolved to 1/2/4) */
    evrec_qs_event_map_t *events;              /**< user memory: meta->event_count entries */
    uint16_t group_enum[EVREC_QS_ENUM_GROUPS]; /**< enum id of each QS enum group, 0xFFFF = free */
    uint8_t group_count;                       /**< groups used, including the event-type group */
    uint8_t classes;                           /**< 1 = one record id per class, event type as 1st element */
    uint8_t type_group;                        /**< group of the event-type enum, or EVREC_QS_NO_GROUP (then
                                         the event type is a U16 element) */
    uint8_t slot_count;                        /**< record ids used: 100 .. 100 + slot_count - 1 (<= 22) */
    uint16_t max_payload;                      /**< largest un-escaped event payload, bytes (at least the
                                         time-sync record's with 1- or 2-byte timestamps) */
    /** NULL, or 8 x 32 bytes, 1 bit per (group, value): send that value as a STR element with its
     * name instead of the ENUM element (set by the transmitter while the value's dictionary
     * entry may not have reached the host; QS.md "Live dictionaries"). Read atomically. */
    const uint8_t *inline_names;
    /** Private: the per-event field programs of the fast encoder in the user memory (after the
     * entries), or NULL when that memory was smaller than evrec_qs_map_entries_size() (every
     * frame then goes through the per-byte writer: the same bytes, slower). */
    const void *prog;
} evrec_qs_map_t;

/**
 * @brief Bytes of user memory evrec_qs_map_init() takes for `meta`: 4 per event type for the
 * entries, then the fast encoder's field programs (16 per event type + 4 per field that becomes
 * an element, nested structs flattened, + 4 for alignment). evrec_qs_map_init() also accepts
 * 4 bytes per event type (no programs: the same bytes, encoded byte by byte).
 * @param[in] meta the meta-info (may be NULL: returns 0).
 * @return bytes; 0 for a NULL meta.
 * **Context:** any; pure (walks the struct tables).
 */
size_t evrec_qs_map_entries_size(const evrec_meta_t *meta);

/**
 * @brief Build the QS mapping of a meta-info (QS.md "Mapping"). Deterministic: the same
 * meta-info and options give the same ids and groups on the target and on the host.
 *
 * Rules: when the event types fit the 22 event record ids 100..121 (and force_classes is 0),
 * event type e gets record id 100 + e. Otherwise the distinct class ids, in ascending order, get
 * 100, 101, ...; with more than 22 classes, class rank r uses id 100 + r mod 22 (122 and 123 are
 * evrec's loss and time-sync records). Such records start with the event type: an ENUM element
 * of group 0 (named by QS_ENUM_DICT) when there are at most 256 event types, else a U16 element.
 * Enum groups (opts->enum_as AUTO or GROUPS): an enum used by some field whose static values or
 * run-time range include a value <= 255 is a candidate; run-time enums first, then by the number
 * of fields that use the enum (the EventControl enum counts 0), then ascending enum id, up to
 * group 7. Values of a grouped enum <= 255 are ENUM elements; other named values are STR
 * elements with the name (AUTO, STRINGS), unnamed ones integers (QS.md "Enums"). When some event's
 * worst-case record with names would pass QSPY's limit, map->opts.enum_as falls back from AUTO
 * to GROUPS (from STRINGS to INT).
 * The global filter starts with every event type enabled.
 *
 * @param[out] map the map (user memory).
 * @param[in] meta validated meta-info, kept alive by the caller.
 * @param[in] opts options (copied; may be NULL = defaults; pointed-to tables are kept by
 *     reference).
 * @param[out] entries user memory of evrec_qs_map_entries_size() bytes (at least 4 per event type:
 *     then without the fast encoder's programs), 2-byte aligned.
 * @param[in] entries_size its size in bytes.
 * @retval EVREC_OK ready.
 * @retval EVREC_E_ARG NULL map/meta/entries, entries too small, time_size not 0/1/2/4.
 * @retval EVREC_E_META an event would need more than EVREC_QS_MAX_PAYLOAD bytes, a display
 *         byte is unknown, or OBJ/FUN display is set on a field that is not uint32.
 * **Context:** thread, before any codec uses the map.
 */
evrec_status evrec_qs_map_init(evrec_qs_map_t *map, const evrec_meta_t *meta, const evrec_qs_options_t *opts,
                               void *entries, size_t entries_size);

/**
 * @brief QS record id of an event type (QS.md "Mapping").
 * @param[in] map a built map.
 * @param[in] event_id an event id.
 * @return 100..121, or 0 if `event_id` is out of range.
 * **Context:** any; reads the map.
 */
uint8_t evrec_qs_map_record_id(const evrec_qs_map_t *map, uint16_t event_id);

/**
 * @brief QS enum group of an enum (QS.md "Enums").
 * @param[in] map a built map.
 * @param[in] enum_id an enum id.
 * @return the group, 0..7, or ::EVREC_QS_NO_GROUP if it is sent as an integer.
 * **Context:** any; reads the map.
 */
uint8_t evrec_qs_map_enum_group(const evrec_qs_map_t *map, uint16_t enum_id);

/**
 * @brief The name an enum value is sent as in a STR element, or NULL when it is sent as an
 * integer (QS.md "Enums"): a static value's name when it is the lowest value with that name, at
 * most ::EVREC_QS_ENUM_STR_MAX bytes and without a `#`; a run-time value's name is returned with
 * `*runtime` set (it is sent as `name#value`). Ignores the groups and enum_as.
 * @param[in] map a built map.
 * @param[in] enum_id enum.
 * @param[in] value the value.
 * @param[out] runtime 1 for a run-time name, 0 for a static one (may be NULL).
 * @return the name (the meta-info's, or the run-time table's), or NULL as said above.
 * **Context:** any; reads the tables (a run-time name once, acquire).
 */
const char *evrec_qs_map_enum_name(const evrec_qs_map_t *map, uint16_t enum_id, uint32_t value, int *runtime);

/**
 * @brief Encode an EVREC_LOST record (record id ::EVREC_QS_REC_LOST; QS.md "Loss records"):
 * timestamp, a STR element "dropped" or "overwritten", a U32 count.
 * @param[in] map a built map (time_size).
 * @param[in] seq sequence number.
 * @param[in] time timestamp, ticks (time_size low bytes sent).
 * @param[in] kind an ::evrec_qs_lost_kind.
 * @param[in] count records lost (at most 2^32 - 1 per record).
 * @param[out] out frame bytes.
 * @param[in] out_size room (64 is enough).
 * @param[out] out_len frame length.
 * @retval EVREC_OK encoded.
 * @retval EVREC_E_ARG NULL pointer or unknown kind.
 * @retval EVREC_E_NO_SPACE out_size too small.
 * **Context:** any; pure, ISR-safe.
 */
evrec_status evrec_qs_encode_lost(const evrec_qs_map_t *map, uint8_t seq, uint32_t time, uint8_t kind,
                                  uint32_t count, uint8_t *out, size_t out_size, size_t *out_len);

/**
 * @brief Frame one record: `escape(seq | rec_id | payload | checksum) 0x7E` (the worked example
 * of QP/C "Observability Viewpoint": seq 0x7E, record 0x7D, data 7D 08 01 gives
 * `7D 5E 7D 5D 7D 5D 08 01 7D 5E 7E`).
 * @param[in] seq sequence number.
 * @param[in] rec_id record id.
 * @param[in] payload `len` bytes (may be NULL when len is 0).
 * @param[in] len payload bytes.
 * @param[out] out frame bytes.
 * @param[in] out_size room in out; 2 * (len + 3) + 1 is always enough.
 * @return frame length in bytes, or 0 if it does not fit out_size (out may be partly written).
 * **Context:** any; pure, ISR-safe.
 */
size_t evrec_qs_frame(uint8_t seq, uint8_t rec_id, const uint8_t *payload, size_t len, uint8_t *out,
                      size_t out_size);

/**
 * @brief Encode one native event record as a framed QS application-specific record
 * (QS.md "Event records"): record id, timestamp (time_size low bytes of `time`), the event-type
 * element when the map says so, then one element per field with struct fields flattened.
 * @param[in] map a built map.
 * @param[in] seq sequence number of the frame.
 * @param[in] native the native event struct: u32 time at 0, u16 id at 4, fields at the offsets of
 *     the field tables.
 * @param[out] out frame bytes.
 * @param[in] out_size room; 2 * (map->max_payload + 3) + 1 is enough.
 * @param[out] out_len frame length in bytes.
 * @retval EVREC_OK encoded.
 * @retval EVREC_E_ARG NULL pointer.
 * @retval EVREC_E_BAD_ID the id at offset 4 is not an event of the meta-info.
 * @retval EVREC_E_NO_SPACE out_size too small.
 * **Context:** any; pure (reads the map and the record), ISR-safe.
 */
evrec_status evrec_qs_encode_event(const evrec_qs_map_t *map, uint8_t seq, const void *native, uint8_t *out,
                                   size_t out_size, size_t *out_len);

/** Name of the time-sync record in the QS_USR_DICT (QSPY shows it with it). */
#define EVREC_QS_TIME_SYNC_NAME "EvrecTimeSync"

/**
 * @brief Time-sync state of a stream with 1- or 2-byte timestamps (QS.md 4.1): the full time of
 * the last time-sync record, and whether one was sent. Zero-initialise at the stream's start.
 */
typedef struct evrec_qs_time_sync {
    uint32_t time; /**< full 32-bit time of the last time-sync record, ticks */
    uint8_t valid; /**< 1 once a time-sync record was sent (and not lost) */
} evrec_qs_time_sync_t;

/**
 * @brief Whether an event at `time` must be preceded by a time-sync record: with 1- or 2-byte
 * timestamps, before the first event, and whenever `time` is 2^(8*time_size-1) ticks or more
 * away (either way) from the last full time sent. Then the decoder restores the exact 32-bit
 * time from the low bytes: full = sync + sign-extended(low - sync). Never with 4-byte timestamps.
 * @param[in] map a built map.
 * @param[in] s the stream's state.
 * @param[in] time the event's time, ticks.
 * @return 1 a time sync is due, 0 not.
 * **Context:** any; pure.
 */
static inline int evrec_qs_time_sync_due(const evrec_qs_map_t *map, const evrec_qs_time_sync_t *s, uint32_t time)
{
    unsigned ts = map->opts.time_size;
    if (ts >= 4u) {
        return 0;
    }
    uint32_t half = 1u << (8u * ts - 1u);
    return !s->valid || (uint32_t)(time - s->time + half) >= 2u * half;
}

/**
 * @brief Encode a time-sync record (QS.md 4.1): record id ::EVREC_QS_REC_TIME_SYNC, the
 * timestamp (time_size low bytes), then one U32 element with the full time.
 * @param[in] map a built map.
 * @param[in] seq sequence number.
 * @param[in] time full time, ticks.
 * @param[out] out frame bytes.
 * @param[in] out_size room (27 bytes are always enough).
 * @param[out] out_len frame length in bytes.
 * @retval EVREC_OK encoded.
 * @retval EVREC_E_ARG NULL pointer.
 * @retval EVREC_E_NO_SPACE out too small.
 * **Context:** any; pure, ISR-safe.
 */
evrec_status evrec_qs_encode_time_sync(const evrec_qs_map_t *map, uint8_t seq, uint32_t time, uint8_t *out,
                                       size_t out_size, size_t *out_len);

/** @brief Cursor over the session records; zero-initialise (or `= {0}`) to start. */
typedef struct evrec_qs_session_cursor {
    uint32_t stage; /**< private */
    uint32_t index; /**< private */
    uint32_t sub;   /**< private */
} evrec_qs_session_cursor_t;

/**
 * @brief Next session record, un-framed (QS.md "Session start"): QS_EMPTY, QS_TARGET_INFO
 * (reset), QS_OBJ_DICT and QS_FUN_DICT (options), QS_ENUM_DICT (event types in class mode, then
 * every grouped enum's static values and the run-time values already named), QS_USR_DICT (one
 * per used record id, and the time-sync record's with 1- or 2-byte timestamps). Names longer than
 * the QSPY record limit are cut.
 * @param[in] map a built map.
 * @param[in,out] cur the cursor.
 * @param[out] rec_id record id.
 * @param[out] payload at least ::EVREC_QS_MAX_PAYLOAD bytes.
 * @param[out] len payload bytes.
 * @retval EVREC_OK one record produced.
 * @retval EVREC_E_END no more records.
 * @retval EVREC_E_ARG NULL pointer.
 * **Context:** thread (reads run-time enum names while they may be allocated: each is read once).
 */
evrec_status evrec_qs_session_next(const evrec_qs_map_t *map, evrec_qs_session_cursor_t *cur, uint8_t *rec_id,
                                   uint8_t *payload, size_t *len);

/**
 * @brief All session records as frames into a flat buffer, seq 1, 2, ... (offline use).
 * @param[in] map a built map.
 * @param[out] out bytes.
 * @param[in] out_size room.
 * @param[out] out_len bytes written.
 * @param[out] next_seq optional: the seq of the next frame.
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG NULL pointer.
 * @retval EVREC_E_NO_SPACE out too small.
 * **Context:** thread.
 */
evrec_status evrec_qs_encode_session(const evrec_qs_map_t *map, uint8_t *out, size_t out_size, size_t *out_len,
                                     uint8_t *next_seq);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_QS_H */
