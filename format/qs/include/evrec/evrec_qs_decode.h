/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_qs_decode.h
 * @brief Host-side QS decoder: a generic QS stream parser (frames, sequence gaps, bad
 * checksums, records, format-tagged elements, dictionaries, QSPY-style text) and, on top of it,
 * the evrec event decoder that turns application-specific records back into events using the
 * meta-info and the id map of evrec_qs.h.
 *
 * Follows the receiver side of the QSPY manual ("Q-SPY transmission protocol": un-escape, checksum,
 * resynchronise at the next flag; sequence numbers reveal lost frames) with QSPY 7.4's rules
 * (qtools 7.4.1 `qspy.c`; QS.md section 6): a bad frame before the first good one is
 * skipped silently; after a bad checksum the expected sequence number is not advanced, so the next
 * good frame also reports a discontinuity; QS_EMPTY never reports one. Differences from QSPY (QS.md
 * "Decoder"): a flag always ends a frame (QSPY un-escapes `7D 7E` as data), empty frames between
 * two flags are ignored, and an over-long frame is one error.
 *
 * API overview:
 * - Frames: ::evrec_qs_parser_t, evrec_qs_parser_init(), evrec_qs_parser_feed() (items through
 *   an ::evrec_qs_item_fn).
 * - Records: evrec_qs_parse_user() (timestamp and elements), evrec_qs_parse_target_info(),
 *   evrec_qs_target_info_default().
 * - Dictionaries: evrec_qs_dict_init(), evrec_qs_dict_apply(), evrec_qs_dict_obj(),
 *   evrec_qs_dict_fun(), evrec_qs_dict_sig(), evrec_qs_dict_free().
 * - QSPY-style text: evrec_qs_format_item().
 * - evrec events: evrec_qs_decoder_init(), evrec_qs_decoder_feed(), evrec_qs_decoder_free()
 *   (events through an ::evrec_qs_event_fn, run-time names through an ::evrec_qs_name_fn).
 *
 * Host code: uses malloc for the dictionaries; streaming, any chunk size.
 *
 * QS.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_QS_DECODE_H
#define EVREC_QS_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_qs.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief What the parser found. */
typedef enum evrec_qs_item_kind {
    EVREC_QS_ITEM_RECORD = 0,   /**< a good frame: seq, rec_id, payload */
    EVREC_QS_ITEM_BAD_CHECKSUM, /**< a frame whose checksum is wrong (seq = last good seq) */
    EVREC_QS_ITEM_TOO_SHORT,    /**< a good checksum over fewer than 3 bytes */
    EVREC_QS_ITEM_TOO_LONG,     /**< more than EVREC_QS_MAX_FRAME bytes before the flag */
    EVREC_QS_ITEM_GAP,          /**< discontinuity: seq (last good) -> seq_to (received) */
    EVREC_QS_ITEM_SKIPPED,      /**< bytes before the first good frame (a start mid-frame) */
    EVREC_QS_ITEM_MISMATCH      /**< event decoder: a record that does not fit the schema */
} evrec_qs_item_kind;

/** @brief One parser result. Pointers are valid only during the callback. */
typedef struct evrec_qs_item {
    evrec_qs_item_kind kind;
    uint64_t offset;        /**< stream offset of the frame's first byte */
    uint8_t seq;            /**< RECORD: its seq; errors and GAP: the last good seq */
    uint8_t seq_to;         /**< GAP: the seq received */
    uint8_t rec_id;         /**< record id (second un-escaped byte; 0 if the frame was shorter) */
    const uint8_t *payload; /**< RECORD: bytes between record id and checksum */
    size_t len;             /**< RECORD: payload bytes; SKIPPED/TOO_LONG: bytes dropped */
    const char *what;       /**< MISMATCH: what was expected (static text) */
} evrec_qs_item_t;

/**
 * @brief Called for every item, in stream order.
 * @param[in] ctx the `ctx` given with the callback.
 * @param[in] item the item; it and its pointers are valid only during the call.
 * **Context:** the thread that feeds the parser or decoder.
 */
typedef void (*evrec_qs_item_fn)(void *ctx, const evrec_qs_item_t *item);

/** @brief Streaming frame parser. Initialise with evrec_qs_parser_init(). Counters public. */
typedef struct evrec_qs_parser {
    uint8_t frame[EVREC_QS_MAX_FRAME];             /**< private: un-escaped bytes of the current frame */
    size_t len;                                    /**< private */
    uint64_t offset;                               /**< bytes consumed so far */
    uint64_t frame_start;                          /**< private */
    uint8_t sum, esc, overlong, started, last_seq; /**< private */
    uint64_t records;                              /**< good frames */
    uint64_t bad_checksums; /**< frames with a wrong checksum (after the first good frame) */
    uint64_t too_short;     /**< frames of 1 or 2 bytes */
    uint64_t too_long;      /**< frames over EVREC_QS_MAX_FRAME bytes */
    uint64_t gaps;          /**< sequence discontinuities */
    uint64_t frames_lost;   /**< frames missing according to the sequence numbers */
    uint64_t skipped;       /**< bytes skipped before the first good frame */
} evrec_qs_parser_t;

/**
 * @brief Reset a parser: counters 0, waiting for the first flag.
 * @param[out] p the parser (user memory).
 * **Context:** any; one parser per thread.
 */
void evrec_qs_parser_init(evrec_qs_parser_t *p);

/**
 * @brief Feed stream bytes; calls `fn` for every frame or error completed by them.
 * @param[in,out] p the parser.
 * @param[in] data bytes.
 * @param[in] len bytes in data.
 * @param[in] fn callback (may be NULL: counters only).
 * @param[in] ctx passed to fn.
 * **Context:** one thread per parser.
 */
void evrec_qs_parser_feed(evrec_qs_parser_t *p, const uint8_t *data, size_t len, evrec_qs_item_fn fn, void *ctx);

/** @brief Target configuration from QS_TARGET_INFO (QP 7.x layout; QS.md section 2). */
typedef struct evrec_qs_target_info {
    uint8_t reset;      /**< 1 = target reset (0xFF), 0 = info only */
    uint16_t version;   /**< QP version, e.g. 740 */
    uint8_t big_endian; /**< bit 15 of the version word */
    uint8_t sig_size, evt_size, queue_ctr_size, te_ctr_size;
    uint8_t pool_blk_size, pool_ctr_size, obj_ptr_size, fun_ptr_size;
    uint8_t time_size, max_active, max_pools, max_tick_rates;
    uint8_t build[6]; /**< sec, min, hour, day, month, year - 2000 */
} evrec_qs_target_info_t;

/**
 * @brief Defaults before any target info: QP 7.4, 4-byte timestamps and pointers, 2-byte signals.
 * @param[out] t the configuration.
 * **Context:** any; pure.
 */
void evrec_qs_target_info_default(evrec_qs_target_info_t *t);

/**
 * @brief Parse a QS_TARGET_INFO payload.
 * @param[in] payload the record payload.
 * @param[in] len its bytes.
 * @param[out] t the configuration, on EVREC_OK.
 * @retval EVREC_OK done.
 * @retval EVREC_E_TRUNCATED fewer than 16 bytes.
 * @retval EVREC_E_ARG NULL.
 * @retval EVREC_E_UNSUPPORTED a big-endian target or a size that is not 1, 2, 4 (or 8 for
 *     pointers).
 * **Context:** any; pure.
 */
evrec_status evrec_qs_parse_target_info(const uint8_t *payload, size_t len, evrec_qs_target_info_t *t);

/** @brief One data element of an application-specific record. */
typedef struct evrec_qs_elem {
    uint8_t fmt;         /**< the format byte */
    uint8_t type;        /**< an ::evrec_qs_type (0 with group != NO_GROUP means ENUM) */
    uint8_t width;       /**< width nibble (0xF = hex for unsigned types) */
    uint8_t group;       /**< ENUM group 0..7, else EVREC_QS_NO_GROUP */
    uint64_t u;          /**< unsigned value (U*, ENUM, OBJ, FUN, SIG signal, raw bits of F32/F64) */
    int64_t i;           /**< signed value (I8/I16/I32/I64) */
    double f;            /**< F32/F64 value */
    uint64_t obj;        /**< SIG: the object pointer */
    const uint8_t *data; /**< STR (without NUL) / MEM bytes, inside the payload */
    size_t len;          /**< STR / MEM length */
    size_t offset;       /**< offset of the format byte in the payload */
} evrec_qs_elem_t;

/**
 * @brief Parse an application-specific record payload: timestamp, then format-tagged elements.
 * @param[in] payload the record payload.
 * @param[in] len its bytes.
 * @param[in] cfg sizes (timestamp, pointers, signals).
 * @param[out] time the timestamp.
 * @param[out] elems room for `max` elements.
 * @param[in] max room.
 * @param[out] count elements parsed.
 * @param[out] bad_offset on error: payload offset of the element that failed.
 * @retval EVREC_OK all parsed.
 * @retval EVREC_E_TRUNCATED an element runs past the end.
 * @retval EVREC_E_CORRUPT an unknown type.
 * @retval EVREC_E_NOMEM more than `max` elements.
 * @retval EVREC_E_ARG NULL payload, cfg, time or count, or elems NULL with max > 0.
 * **Context:** any; pure.
 */
evrec_status evrec_qs_parse_user(const uint8_t *payload, size_t len, const evrec_qs_target_info_t *cfg,
                                 uint32_t *time, evrec_qs_elem_t *elems, size_t max, size_t *count,
                                 size_t *bad_offset);

/** @brief Dictionaries learnt from the stream (host memory). evrec_qs_dict_init() / _free(). */
typedef struct evrec_qs_dict {
    char *usr[256];                                        /**< record id -> name */
    char *enums[EVREC_QS_ENUM_GROUPS][256];                /**< group, value -> name */
    struct evrec_qs_dict_entry *obj, *fun, *sig;           /**< private arrays */
    size_t obj_n, fun_n, sig_n, obj_cap, fun_cap, sig_cap; /**< private */
    evrec_qs_target_info_t cfg;                            /**< the last target info (or defaults) */
    int have_cfg;                                          /**< a target info was seen */
} evrec_qs_dict_t;

/**
 * @brief Empty dictionaries, default target info.
 * @param[out] d the dictionaries (user memory).
 * **Context:** any thread; one object per thread.
 */
void evrec_qs_dict_init(evrec_qs_dict_t *d);
/**
 * @brief Free every name. The object can be initialised again.
 * @param[in,out] d the dictionaries.
 * **Context:** the thread that uses `d`.
 */
void evrec_qs_dict_free(evrec_qs_dict_t *d);

/**
 * @brief Learn from one good record: target info (a reset clears every dictionary) and the
 * OBJ/FUN/SIG/ENUM/USR dictionaries. Other records are ignored.
 * @param[in,out] d the dictionaries.
 * @param[in] rec_id the record id.
 * @param[in] payload the record payload.
 * @param[in] len its bytes.
 * @retval EVREC_OK used or ignored.
 * @retval EVREC_E_TRUNCATED a dictionary or target info record that ends too early.
 * @retval EVREC_E_UNSUPPORTED a target info this decoder cannot read (big-endian, odd sizes).
 * @retval EVREC_E_NOMEM out of memory.
 * **Context:** the thread that uses `d`.
 */
evrec_status evrec_qs_dict_apply(evrec_qs_dict_t *d, uint8_t rec_id, const uint8_t *payload, size_t len);

/**
 * @brief Name of an object address (QS_OBJ_DICT).
 * @param[in] d the dictionaries.
 * @param[in] addr the address.
 * @return the name (owned by `d`, valid until it changes), or NULL.
 * **Context:** the thread that uses `d`; reads only.
 */
const char *evrec_qs_dict_obj(const evrec_qs_dict_t *d, uint64_t addr);
/**
 * @brief Name of a function address (QS_FUN_DICT).
 * @param[in] d the dictionaries.
 * @param[in] addr the address.
 * @return the name (owned by `d`, valid until it changes), or NULL.
 * **Context:** the thread that uses `d`; reads only.
 */
const char *evrec_qs_dict_fun(const evrec_qs_dict_t *d, uint64_t addr);
/**
 * @brief Name of a signal (QS_SIG_DICT) for an object, or for any object when none matches.
 * @param[in] d the dictionaries.
 * @param[in] sig the signal.
 * @param[in] obj the object address.
 * @return the name (owned by `d`, valid until it changes), or NULL.
 * **Context:** the thread that uses `d`; reads only.
 */
const char *evrec_qs_dict_sig(const evrec_qs_dict_t *d, uint64_t sig, uint64_t obj);

/**
 * @brief One line as QSPY 7.4 prints it (QS.md section 6): application records as
 * `%010u NAME elem...`, dictionaries and target info as `           Obj-Dict ...`, and
 * errors as `   <COMMS> ERROR    ...`.
 * @pre evrec_qs_dict_apply() saw the same record (for a RECORD item).
 * @param[in] d dictionaries.
 * @param[in] item a parser item.
 * @param[out] buf text.
 * @param[in] size room.
 * @return characters written (0 = this item prints nothing, e.g. QS_EMPTY or SKIPPED).
 * **Context:** any; pure.
 */
size_t evrec_qs_format_item(const evrec_qs_dict_t *d, const evrec_qs_item_t *item, char *buf, size_t size);

/** Flattened fields an event can have at most (256-byte records of 1-byte fields). */
#define EVREC_QS_MAX_FIELDS 256u

/** @brief An event decoded from a QS application-specific record. */
typedef struct evrec_qs_event {
    uint16_t id;          /**< event type */
    uint32_t time;        /**< the full 32-bit time when time_exact, else as sent (time_size low bytes) */
    uint8_t seq;          /**< frame sequence number */
    uint64_t offset;      /**< stream offset of the frame */
    uint32_t field_count; /**< flattened fields, time and id excluded */
    uint32_t values[EVREC_QS_MAX_FIELDS]; /**< their values in flattened order */
    /** The native record rebuilt: time and id at 0 and 4, fields at their offsets, rest 0. */
    uint8_t native[EVREC_MAX_EVENT_SIZE];
    /** 1: `time` is the full 32-bit time (4-byte timestamps, or 1- and 2-byte ones restored from
     * the last time-sync record, QS.md 4.1). Events with 1- or 2-byte timestamps whose time cannot
     * be restored are not delivered: they are reported as MISMATCH and counted in time_unknown. */
    uint8_t time_exact;
} evrec_qs_event_t;

/**
 * @brief Called for every decoded event.
 * @param[in] ctx the decoder's `ctx`.
 * @param[in] ev the event, valid only during the call.
 * **Context:** the thread that feeds the decoder.
 */
typedef void (*evrec_qs_event_fn)(void *ctx, const evrec_qs_event_t *ev);

/**
 * @brief Called when the stream names a run-time enum value (QS.md 8.1): a `QS_ENUM_DICT` record
 * of a grouped enum, or an inline `name#value` STR element of a decoded event, for a value in the
 * run-time range [base, lim) of an enum of the meta-info (`meta->enums[enum_id].runtime`). An
 * inline name is reported before the event that carries it.
 * @param[in] ctx the decoder's `ctx`.
 * @param[in] enum_id the enum.
 * @param[in] value the value named.
 * @param[in] name the name, not NUL-terminated, valid only during the call.
 * @param[in] len bytes of `name`.
 * @param[in] from_dict 1 for a dictionary record (the whole name), 0 for an inline element (the
 *     name may be cut to fit 47 bytes with its `#value`).
 * **Context:** the thread that feeds the decoder.
 */
typedef void (*evrec_qs_name_fn)(void *ctx, uint32_t enum_id, uint32_t value, const char *name, size_t len,
                                 int from_dict);

/** @brief Event decoder: parser + dictionaries + map. Counters public. */
typedef struct evrec_qs_decoder {
    evrec_qs_parser_t parser;   /**< frame layer and its counters */
    evrec_qs_dict_t dict;       /**< what the stream announced */
    const evrec_qs_map_t *map;  /**< the mapping of the meta-info */
    evrec_qs_event_fn on_event; /**< may be NULL */
    evrec_qs_item_fn on_item;   /**< every parser item and MISMATCH; may be NULL */
    void *ctx;                  /**< passed to both */
    uint64_t events;            /**< events decoded */
    uint64_t mismatches;        /**< application records that did not fit the schema */
    uint64_t foreign;           /**< good records that are neither session nor ours */
    uint64_t time_syncs;        /**< time-sync records received (QS.md 4.1) */
    uint64_t time_unknown;      /**< events skipped: 1- or 2-byte timestamp and no valid time sync
                                         (also counted in mismatches) */
    uint32_t time_ref;          /**< private: full time of the last time sync */
    uint8_t time_ref_ok;        /**< private: time_ref is valid (none yet, or lost at a bad frame) */
    evrec_qs_event_t ev;        /**< private scratch */
    evrec_qs_elem_t elems[EVREC_QS_MAX_FIELDS + 2]; /**< private scratch */
    uint64_t lost_reports;                          /**< EVREC_LOST records (record id 122) received */
    uint64_t lost_dropped;                          /**< their "dropped" counts: recorder buffer full */
    uint64_t lost_overwritten;                      /**< their "overwritten" counts: cyclic overwrites */
    /** Run-time names the stream announces (NULL: not reported); set after
     * evrec_qs_decoder_init(), gets `ctx`. */
    evrec_qs_name_fn on_name;
    uint64_t names; /**< run-time names reported through on_name (or that would be) */
} evrec_qs_decoder_t;

/**
 * @brief Prepare a decoder. Enum fields accept the ENUM element of their group, a STR element
 * naming a value (`name#value` for run-time names), or an integer of their width, whatever the
 * map's enum_as (QS.md "Enums"); EVREC_LOST records are counted in lost_* (QS.md "Loss
 * records"). Until the stream's target info arrives, timestamps are read with
 * the map's time_size.
 * @param[out] d the decoder (large: about 20 KB; heap or static).
 * @param[in] map the map built from the same meta-info and options as the encoder's.
 * @param[in] on_event called per decoded event (may be NULL).
 * @param[in] on_item called per parser item and MISMATCH (may be NULL).
 * @param[in] ctx passed to both.
 * @retval EVREC_OK ready.
 * @retval EVREC_E_ARG NULL d or map.
 * **Context:** any thread; one decoder per thread.
 */
evrec_status evrec_qs_decoder_init(evrec_qs_decoder_t *d, const evrec_qs_map_t *map, evrec_qs_event_fn on_event,
                                   evrec_qs_item_fn on_item, void *ctx);

/**
 * @brief Feed stream bytes (any chunk size); calls the callbacks for what they complete.
 * @param[in,out] d the decoder.
 * @param[in] data bytes.
 * @param[in] len bytes in data.
 * **Context:** one thread per decoder.
 */
void evrec_qs_decoder_feed(evrec_qs_decoder_t *d, const uint8_t *data, size_t len);

/**
 * @brief Free the decoder's dictionaries (not the decoder's own memory, which is the caller's).
 * @param[in,out] d the decoder.
 * **Context:** the thread that uses `d`.
 */
void evrec_qs_decoder_free(evrec_qs_decoder_t *d);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_QS_DECODE_H */
