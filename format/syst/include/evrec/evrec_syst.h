/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_syst.h
 * @brief MIPI SyS-T encoder: evrec events as SyS-T CATALOG messages, plus the CLOCK message that
 * starts a stream.
 *
 * Implements the MIPI Alliance "Specification for System Software Trace (SyS-T)", version 1.0:
 * section "Message Header" (the 32-bit header word and its fields), "Optional Message Fields"
 * (GUID, location, length, timestamp, checksum), "Catalog Messages" (catalog id and argument
 * packing) and "Clock Synchronization Messages" (TRANSPORT_SYNC). The catalog XML that names the
 * messages follows the specification's collateral schema (`sys-t_1-0.xsd`, namespace
 * `http://www.mipi.org/1.0/sys-t`). The mapping is documented byte by byte in
 * SYST.md.
 *
 * Two layers:
 * - ::evrec_syst_map_t: per event type a catalog id derived from the event's name and field
 *   layout (evrec_syst_catalog_id()), its severity and its packed argument size; lookup by id.
 * - evrec_syst_encode_event() / evrec_syst_encode_clock(): one whole message.
 *
 * API overview:
 * - Catalog ids: evrec_syst_catalog_id(), evrec_syst_canonical_text() (its input).
 * - Mapping: evrec_syst_map_entries_size(), evrec_syst_map_init(), evrec_syst_map_event().
 * - Messages: evrec_syst_encode_event() (CATALOG), evrec_syst_encode_clock() (CLOCK).
 * - GUIDs: evrec_syst_parse_guid(), evrec_syst_format_guid().
 * - The live transmitter: evrec/evrec_syst_tx.h; host tools (collateral XML, formats):
 *   evrec/evrec_syst_host.h; the decoder: evrec/evrec_syst_decode.h.
 *
 * Offline use: map once, start the stream with a CLOCK message, then one message per event:
 * @code
 * // at least evrec_syst_map_entries_size(&my_meta) bytes:
 * static uint8_t entries[1024] __attribute__((aligned(8)));
 * static uint8_t msg[EVREC_SYST_MAX_MESSAGE];
 * evrec_syst_map_t map;
 * evrec_syst_options_t o = {0};
 * o.severity = EVREC_SYST_SEV_INFO;
 * o.timestamp = 1;
 * if (evrec_syst_map_init(&map, &my_meta, &o, entries, sizeof entries, NULL) != EVREC_OK) {
 *     return;
 * }
 * size_t n;
 * if (evrec_syst_encode_clock(&map, 0, 1000000u, msg, sizeof msg, &n) == EVREC_OK) {
 *     uart_send(msg, n);
 * }
 * my_event_t ev = {.time = 1000u, .id = MY_EVENT_ID, .a = 1, .b = 2};
 * if (evrec_syst_encode_event(&map, &ev, ev.time, msg, sizeof msg, &n) == EVREC_OK) {
 *     uart_send(msg, n);
 * }
 * @endcode
 *
 * Freestanding: no malloc, no stdio; the caller gives all memory.
 *
 * SYST.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_SYST_H
#define EVREC_SYST_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_meta.h"
#include "evrec/evrec_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @name Message types (SyS-T "Message Header", field `type`, bits 0..3) */
/**@{*/
#define EVREC_SYST_TYPE_BUILD 0u
#define EVREC_SYST_TYPE_SHORT32 1u
#define EVREC_SYST_TYPE_STRING 2u
#define EVREC_SYST_TYPE_CATALOG 3u
#define EVREC_SYST_TYPE_RAW 6u
#define EVREC_SYST_TYPE_SHORT64 7u
#define EVREC_SYST_TYPE_CLOCK 8u
/**@}*/

/** @name Severities (SyS-T "Message Header", field `severity`, bits 4..6) */
/**@{*/
#define EVREC_SYST_SEV_MAX 0u
#define EVREC_SYST_SEV_FATAL 1u
#define EVREC_SYST_SEV_ERROR 2u
#define EVREC_SYST_SEV_WARNING 3u
#define EVREC_SYST_SEV_INFO 4u
#define EVREC_SYST_SEV_USER1 5u
#define EVREC_SYST_SEV_USER2 6u
#define EVREC_SYST_SEV_DEBUG 7u
/**@}*/

/** @name Header bits (SyS-T "Message Header") */
/**@{*/
#define EVREC_SYST_HDR_TYPE_MASK 0x0000000Fu /**< bits 0..3: message type */
#define EVREC_SYST_HDR_SEV_SHIFT 4u          /**< bits 4..6: severity */
#define EVREC_SYST_HDR_SEV_MASK 0x00000070u
#define EVREC_SYST_HDR_RES7 0x00000080u /**< bit 7: reserved, 0 */
#define EVREC_SYST_HDR_LOC 0x00000100u  /**< bit 8: location record present */
#define EVREC_SYST_HDR_LEN 0x00000200u  /**< bit 9: 16-bit payload length present */
#define EVREC_SYST_HDR_CHK 0x00000400u  /**< bit 10: CRC-32C after the payload */
#define EVREC_SYST_HDR_TS 0x00000800u   /**< bit 11: 64-bit timestamp present */
#define EVREC_SYST_HDR_UNIT_SHIFT 12u   /**< bits 12..22: origin (unit; module << 4 | unit) */
#define EVREC_SYST_HDR_UNIT_MASK 0x007FF000u
#define EVREC_SYST_HDR_MODULE_SHIFT 16u  /**< without GUID: 7-bit module at bits 16..22 */
#define EVREC_SYST_HDR_GUID 0x00800000u  /**< bit 23: 16-byte GUID follows the header */
#define EVREC_SYST_HDR_SUBTYPE_SHIFT 24u /**< bits 24..29: type-dependent subtype */
#define EVREC_SYST_HDR_SUBTYPE_MASK 0x3F000000u
#define EVREC_SYST_HDR_RES30 0xC0000000u /**< bits 30..31: reserved, 0 */
/**@}*/

/** @name Subtypes (SyS-T "Catalog Messages", "Clock Synchronization Messages") */
/**@{*/
#define EVREC_SYST_CATALOG_ID32_P32 1u     /**< 32-bit catalog id, 32-bit sender */
#define EVREC_SYST_CATALOG_ID64_P32 2u     /**< 64-bit catalog id, 32-bit sender */
#define EVREC_SYST_CATALOG_ID32_P64 5u     /**< 32-bit catalog id, 64-bit sender */
#define EVREC_SYST_CATALOG_ID64_P64 6u     /**< 64-bit catalog id, 64-bit sender */
#define EVREC_SYST_CLOCK_TRANSPORT_SYNC 1u /**< payload: u64 clock value, u64 frequency in Hz */
/**@}*/

/** @name Sizes, bytes */
/**@{*/
#define EVREC_SYST_GUID_SIZE 16u
/** Bytes of one packed argument: every evrec field kind widens to a 32-bit `%u` (SYST.md). */
#define EVREC_SYST_ARG_SIZE 4u
/** Largest argument bytes of one event: ::EVREC_MAX_EVENT_SIZE leaves (u8 each) widened. */
#define EVREC_SYST_MAX_ARGS (EVREC_MAX_EVENT_SIZE * EVREC_SYST_ARG_SIZE)
/** Largest message evrec produces: header, GUID, length, timestamp, 64-bit id, arguments, CRC. */
#define EVREC_SYST_MAX_MESSAGE (4u + EVREC_SYST_GUID_SIZE + 2u + 8u + 8u + EVREC_SYST_MAX_ARGS + 4u)
/** Size of a CLOCK message with every option (header, GUID, length, timestamp, 16, CRC). */
#define EVREC_SYST_MAX_CLOCK (4u + EVREC_SYST_GUID_SIZE + 2u + 8u + 16u + 4u)
/**@}*/

/** @brief Options of the mapping and of the messages. Zero-initialise, then set. */
typedef struct evrec_syst_options {
    /** The sender's GUID in RFC 4122 byte order (the bytes in the order of the `{...}` text);
     * used when `use_guid` is 1. */
    uint8_t guid[EVREC_SYST_GUID_SIZE];
    uint8_t use_guid;  /**< 1: GUID bit and GUID in every message, `unit` is 11 bits */
    uint8_t module;    /**< without GUID: 7-bit module id (0..127) */
    uint16_t unit;     /**< with GUID: 0..2047; without: 0..15 */
    uint8_t severity;  /**< default severity, an EVREC_SYST_SEV_* value; 0 = MAX (set INFO!) */
    uint8_t id64;      /**< 1: 64-bit catalog ids (subtype ID64_P32), else 32-bit (ID32_P32) */
    uint8_t timestamp; /**< 1: every message carries the 64-bit timestamp (TS bit) */
    uint8_t crc;       /**< 1: every message ends with its CRC-32C (CHK bit) */
    /** NULL, or meta->event_count bytes: the severity of each event type, 0xFF = `severity`. */
    const uint8_t *event_severity;
} evrec_syst_options_t;

/** Severity byte in evrec_syst_options_t::event_severity meaning "the default". */
#define EVREC_SYST_SEV_DEFAULT 0xFFu

/** @brief Per-event-type entry of the map (16 bytes). Treat as read-only but for `flags`. */
typedef struct evrec_syst_event_map {
    uint64_t id;       /**< catalog id; with 32-bit ids the high half is 0 */
    uint16_t args;     /**< packed argument bytes (4 per leaf field, time and id excluded) */
    uint8_t severity;  /**< EVREC_SYST_SEV_* */
    uint8_t flags;     /**< EVREC_SYST_EV_* bits; bit 0 (global filter) changes at run time */
    uint16_t class_id; /**< the event's class id (local filter) */
    uint16_t pad;      /**< 0 */
} evrec_syst_event_map_t;

/** evrec_syst_event_map_t::flags: the global filter lets this event type through. */
#define EVREC_SYST_EV_ENABLED 0x01u

/**
 * @brief The mapping of one meta-info to SyS-T catalog messages (SYST.md "Catalog ids"): built
 * by evrec_syst_map_init(), read-only afterwards except the global-filter bits.
 */
typedef struct evrec_syst_map {
    const evrec_meta_t *meta;       /**< the meta-info (kept alive by the caller) */
    evrec_syst_options_t opts;      /**< copy of the options */
    evrec_syst_event_map_t *events; /**< user memory: meta->event_count entries, by event id */
    uint16_t *by_id;                /**< user memory: event ids sorted by catalog id */
    uint32_t header;                /**< the CATALOG header word without severity */
    uint16_t max_args;              /**< largest packed argument bytes of an event */
} evrec_syst_map_t;

/**
 * @brief Bytes of user memory evrec_syst_map_init() needs for `meta`: 18 per event type.
 * @param[in] meta the meta-info (may be NULL: returns 0).
 * @return bytes; 0 for a NULL meta.
 * **Context:** any; pure.
 */
size_t evrec_syst_map_entries_size(const evrec_meta_t *meta);

/**
 * @brief The catalog id of one event type (SYST.md "Catalog ids"): FNV-1a 64 over the canonical
 * text `Name(field:kind,...)` of the event, where kind is `u8`, `u16`, `u32`, `e8`, `e16` or
 * `e32` and a struct field is `field:StructName{member:kind,...}` (nested structs expanded the
 * same way); `time` and `id` are not in the text. With `id64` 0 the 64-bit hash is folded to
 * 32 bits: `(uint32_t)(h ^ (h >> 32))`. Computed from the tables, without building the text.
 * @param[in] meta validated meta-info.
 * @param[in] event_id index in meta->events.
 * @param[in] id64 1 for the 64-bit id, 0 for the folded 32-bit id.
 * @param[out] id the catalog id.
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG NULL pointer.
 * @retval EVREC_E_BAD_ID no such event.
 * @retval EVREC_E_META a reference out of range or nesting deeper than ::EVREC_MAX_NESTING.
 * **Context:** any; pure.
 */
evrec_status evrec_syst_catalog_id(const evrec_meta_t *meta, uint32_t event_id, int id64, uint64_t *id);

/**
 * @brief Write the canonical text of one event type (the input of its catalog id) into `out`,
 * NUL-terminated. For documentation, tests and tools.
 * @param[in] meta validated meta-info.
 * @param[in] event_id index in meta->events.
 * @param[out] out text buffer.
 * @param[in] out_size its size in bytes.
 * @return the text length without the NUL (the text is cut when it does not fit, as snprintf),
 * or 0 on a bad argument.
 * **Context:** any; pure.
 */
size_t evrec_syst_canonical_text(const evrec_meta_t *meta, uint32_t event_id, char *out, size_t out_size);

/**
 * @brief Build the SyS-T mapping of a meta-info. Deterministic: the same meta-info and options
 * give the same ids on the target and on the host. The global filter starts with every event
 * type enabled.
 * @param[out] map the map (user memory).
 * @param[in] meta validated meta-info, kept alive by the caller.
 * @param[in] opts options (copied; NULL = defaults with severity INFO; the event_severity table is
 *     kept by reference).
 * @param[out] entries user memory of evrec_syst_map_entries_size() bytes, 8-byte aligned.
 * @param[in] entries_size its size in bytes.
 * @param[out] bad_event optional (may be NULL): on EVREC_E_META, the event id at fault (the
 * second of two events whose ids collide).
 * @retval EVREC_OK ready.
 * @retval EVREC_E_ARG NULL map/meta/entries, entries too small or misaligned, a severity above 7,
 *         a module above 127 or a unit too wide for the origin.
 * @retval EVREC_E_META two event types have the same catalog id (refused: ids never depend on
 *         which other events a catalogue holds), or a table reference is out of range.
 * **Context:** thread, before any encoder uses the map.
 */
evrec_status evrec_syst_map_init(evrec_syst_map_t *map, const evrec_meta_t *meta, const evrec_syst_options_t *opts,
                                 void *entries, size_t entries_size, uint32_t *bad_event);

/**
 * @brief The event type of a catalog id (binary search over the sorted table).
 * @param[in] map a built map.
 * @param[in] id a catalog id (32-bit ids: the high half 0).
 * @return the event id, or -1 when no event type has this id.
 * **Context:** any; reads the map.
 */
int32_t evrec_syst_map_event(const evrec_syst_map_t *map, uint64_t id);

/**
 * @brief Encode one native event record as a CATALOG message (SYST.md "Catalog messages"):
 * header (type 3, subtype ID32_P32 or ID64_P32, the event's severity, GUID or module/unit,
 * LEN always), GUID, u16 payload length, the timestamp when opts.timestamp, the catalog id, one
 * 32-bit argument per leaf field (nested structs flattened), the CRC-32C when opts.crc.
 * @param[in] map a built map.
 * @param[in] native the native event struct: u32 time at 0, u16 id at 4, fields at the offsets of
 *     the field tables.
 * @param[in] time64 the message timestamp in the sender's clock ticks (used only with
 *     opts.timestamp).
 * @param[out] out message bytes.
 * @param[in] out_size room in out; ::EVREC_SYST_MAX_MESSAGE is always enough.
 * @param[out] out_len message length in bytes.
 * @retval EVREC_OK encoded.
 * @retval EVREC_E_ARG NULL pointer.
 * @retval EVREC_E_BAD_ID the id at offset 4 is not an event of the meta-info.
 * @retval EVREC_E_NO_SPACE out_size too small.
 * **Context:** any; pure (reads the map and the record), ISR-safe.
 */
evrec_status evrec_syst_encode_event(const evrec_syst_map_t *map, const void *native, uint64_t time64,
                                     uint8_t *out, size_t out_size, size_t *out_len);

/**
 * @brief Encode a CLOCK message, subtype TRANSPORT_SYNC (SYST.md "The CLOCK message"): the same
 * origin, LEN, timestamp and CRC options as the catalog messages, severity MAX, payload the u64
 * clock value and the u64 clock frequency.
 * @param[in] map a built map.
 * @param[in] clock clock value, ticks.
 * @param[in] freq_hz ticks per second.
 * @param[out] out message bytes.
 * @param[in] out_size room; ::EVREC_SYST_MAX_CLOCK is enough.
 * @param[out] out_len message length in bytes.
 * @retval EVREC_OK encoded.
 * @retval EVREC_E_ARG NULL pointer.
 * @retval EVREC_E_NO_SPACE too small.
 * **Context:** any; pure, ISR-safe.
 */
evrec_status evrec_syst_encode_clock(const evrec_syst_map_t *map, uint64_t clock, uint64_t freq_hz, uint8_t *out,
                                     size_t out_size, size_t *out_len);

/**
 * @brief Parse a GUID text `{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}` (braces optional, hex digits
 * of either case) into 16 bytes in text order (RFC 4122 byte order, as SyS-T sends them).
 * @param[in] text NUL-terminated.
 * @param[out] guid 16 bytes.
 * @retval EVREC_OK parsed.
 * @retval EVREC_E_ARG NULL pointer or not a GUID.
 * **Context:** any; pure.
 */
evrec_status evrec_syst_parse_guid(const char *text, uint8_t guid[EVREC_SYST_GUID_SIZE]);

/**
 * @brief Write a GUID as `{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}` (uppercase) and a NUL.
 * @param[in] guid 16 bytes.
 * @param[out] out at least 39 bytes.
 * **Context:** any; pure.
 */
void evrec_syst_format_guid(const uint8_t guid[EVREC_SYST_GUID_SIZE], char out[39]);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_SYST_H */
