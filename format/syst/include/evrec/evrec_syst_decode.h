/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_syst_decode.h
 * @brief Host-side MIPI SyS-T decoder: a streaming message parser (binary streams split by the
 * LEN field, or the reference printer's text form `SYS-T RAW DATA: <hex>`, one message per line),
 * the fields of every message, its problems with their byte offsets, and one printer-like text
 * line per message.
 *
 * Implements the receiver side of the MIPI Alliance "Specification for System Software Trace
 * (SyS-T)" 1.0, its "SyS-T Data Protocol": the 32-bit header (type, severity, reserved bits 7
 * and 30..31, LOC, LEN, CHK, TS, origin, GUID, subtype), the optional fields in wire order (GUID
 * in RFC 4122 byte order, location formats 0..3, u16 payload length, u64 timestamp), the payload
 * and the CRC-32C; SHORT32 and SHORT64 messages are one word. Every other number is
 * little-endian. The column set of evrec_syst_format_item() follows the CSV of the reference
 * printer of the public mipi-sys-t sources (`printer/`), without its collateral (catalog XML).
 *
 * A binary stream has no start marker: a message's end is known only from its LEN field (a
 * transport such as MIPI STP delimits messages otherwise). The parser therefore needs LEN on
 * every message that is not SHORT32/SHORT64; a message without it loses the message boundary,
 * and the parser resynchronises at the next word that looks like a header with LEN set (type
 * known, reserved bits 0) and, when the header has CHK, whose message's CRC-32C matches;
 * it counts the bytes it skipped. The text form delimits by lines and needs no LEN.
 *
 * On top of the parser, the event decoder (::evrec_syst_decoder_t) turns the CATALOG messages of
 * evrec's encoder (evrec_syst.h) back into native event records through the catalog map of the
 * same meta-info: the catalog id names the event type, the arguments (one 32-bit value per leaf
 * field) must be exactly as many as the event packs, and each must fit its field.
 *
 * The decoder and its differences from the printer: SYST-DECODE.md.
 *
 * API overview:
 * - One message: evrec_syst_msg_parse(), evrec_syst_msg_size(), evrec_syst_decode_catalog().
 * - A stream: evrec_syst_detect_text(), evrec_syst_parser_init(), evrec_syst_parser_feed(),
 *   evrec_syst_parser_finish() (items through an ::evrec_syst_item_fn).
 * - Text: evrec_syst_problem_name(), evrec_syst_type_name(), evrec_syst_severity_name(),
 *   evrec_syst_payload_text(), evrec_syst_format_item() (the printer's CSV line).
 * - evrec events: evrec_syst_decoder_init(), evrec_syst_decoder_feed(),
 *   evrec_syst_decoder_finish() (events through an ::evrec_syst_event_fn).
 *
 * Host code: no allocation; the parser object holds one whole message and the bytes to read
 * again after a lost boundary (about 128 KiB), so a
 * stream of any size is parsed in constant memory. Any chunk size.
 *
 * SYST-DECODE.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_SYST_DECODE_H
#define EVREC_SYST_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_status.h"
#include "evrec/evrec_syst.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest payload a SyS-T message can carry, bytes (its u16 length field). */
#define EVREC_SYST_DEC_MAX_PAYLOAD 65535u
/** Largest message, bytes: header 4, GUID 16, location 9, length 2, timestamp 8, payload, CRC 4. */
#define EVREC_SYST_DEC_MAX_MESSAGE (4u + 16u + 9u + 2u + 8u + EVREC_SYST_DEC_MAX_PAYLOAD + 4u)

/** @brief What is wrong with a message (or a stretch of the stream); 0 = nothing. */
typedef enum evrec_syst_problem {
    EVREC_SYST_OK = 0,         /**< a good message */
    EVREC_SYST_P_CHECKSUM,     /**< CHK set and the CRC-32C does not match (fields are as read) */
    EVREC_SYST_P_TRUNCATED,    /**< the stream (or text line) ends inside the message */
    EVREC_SYST_P_RESERVED,     /**< reserved header bit 7, 30 or 31 set (fields are as read) */
    EVREC_SYST_P_UNKNOWN_TYPE, /**< type 4, 5 or 9..15, or a CATALOG/CLOCK/BUILD subtype SyS-T does not define */
    EVREC_SYST_P_LENGTH,       /**< LEN disagrees with the bytes (text line longer or shorter), or
                                     the payload size does not fit the type (CLOCK not 16, a catalog
                                     payload shorter than its id) */
    EVREC_SYST_P_NO_LENGTH,    /**< binary stream: a message without LEN; its end is unknown */
    EVREC_SYST_P_LOCATION,     /**< a location format byte other than 0..3 */
    EVREC_SYST_P_PAYLOAD,      /**< a payload that contradicts its type (a string without its NUL) */
    EVREC_SYST_P_SKIPPED,      /**< bytes skipped while resynchronising (size = their count) */
    EVREC_SYST_P_BAD_LINE,     /**< text form: a `SYS-T RAW DATA:` line whose hex is malformed */
    EVREC_SYST_P_UNKNOWN_ID,   /**< event decoder: a catalog id the map does not have */
    EVREC_SYST_P_ARGS,         /**< event decoder: argument bytes that do not match the event's packing */
    EVREC_SYST_P_COUNT_        /**< number of values (not a problem) */
} evrec_syst_problem;

/**
 * @brief Name of a problem as a status word: `OK`, `CHECKSUM_ERROR`, `TOO_SHORT`,
 * `RESERVED_BITS`, `UNKNOWN_TYPE`, `LENGTH_MISMATCH`, `NO_LENGTH`, `BAD_LOCATION`,
 * `BAD_PAYLOAD`, `SKIPPED`, `BAD_LINE`, `UNKNOWN_ID`, `BAD_ARGS` (the reference printer's words
 * where it has one).
 * @param[in] p the problem.
 * @return a static string.
 * **Context:** any; pure.
 */
const char *evrec_syst_problem_name(evrec_syst_problem p);

/** @brief The fields of one message. Pointers are valid only during the callback. */
typedef struct evrec_syst_msg {
    const uint8_t *bytes; /**< the whole message as received, header first */
    size_t size;          /**< bytes of the whole message (the printer's "Raw Length") */
    uint32_t header;      /**< the header word (SHORT64: its low 32 bits) */
    uint8_t type;         /**< bits 0..3 */
    uint8_t severity;     /**< bits 4..6 (0 for SHORT32/SHORT64) */
    uint8_t subtype;      /**< bits 24..29 (0 for short messages) */
    uint8_t is_short;     /**< 1: SHORT32 or SHORT64 (no other field below is set) */
    uint64_t short_value; /**< SHORT32: 28-bit value; SHORT64: 60-bit value */
    uint32_t reserved;    /**< the reserved bits that are set (header & 0xC0000080) */
    uint8_t has_guid, has_loc, has_len, has_ts, has_chk; /**< the header's option bits */
    uint16_t unit;          /**< with GUID: the 11-bit unit; without: the 4-bit unit */
    uint8_t module;         /**< without GUID: the 7-bit module (0 with GUID) */
    uint8_t guid[16];       /**< GUID in RFC 4122 byte order (text order), when has_guid */
    uint8_t loc_format;     /**< location format byte: 0 = u16 file + u16 line, 1 = u32 + u32,
                                2 = u32 address, 3 = u64 address */
    uint32_t loc_file;      /**< formats 0 and 1: file id */
    uint32_t loc_line;      /**< formats 0 and 1: line */
    uint64_t loc_addr;      /**< formats 2 and 3: code address */
    uint16_t length;        /**< the LEN field as sent, when has_len */
    uint64_t timestamp;     /**< the message timestamp (sender's clock ticks), when has_ts */
    const uint8_t *payload; /**< payload bytes (inside bytes) */
    size_t payload_len;     /**< payload bytes */
    uint32_t crc;           /**< the CRC as sent, when has_chk */
    uint32_t crc_calc;      /**< the CRC-32C computed over header..payload, when has_chk */
} evrec_syst_msg_t;

/** @brief One parser result: a message (good or with a problem), or a stretch of skipped bytes. */
typedef struct evrec_syst_item {
    evrec_syst_problem problem;  /**< EVREC_SYST_OK for a good message */
    uint64_t offset;             /**< stream byte offset of the message's header (SKIPPED: of the
                                     first skipped byte; text form: of the line) */
    uint64_t line;               /**< text form: 1-based line number; binary: 0 */
    uint64_t index;              /**< 0-based number of the message in the stream (the printer's
                                     "Context TimeStamp" without a transport) */
    size_t size;                 /**< bytes of the message, or skipped bytes */
    const evrec_syst_msg_t *msg; /**< the fields read, or NULL when the header could not be read
                                     (SKIPPED, BAD_LINE, a TRUNCATED stub under 4 bytes) */
    const char *what;            /**< a short static explanation of the problem, or NULL */
} evrec_syst_item_t;

/**
 * @brief Called for every item, in stream order.
 * @param[in] ctx the `ctx` given with the callback.
 * @param[in] item the item; it and its pointers are valid only during the call.
 * **Context:** the thread that feeds the parser or decoder.
 */
typedef void (*evrec_syst_item_fn)(void *ctx, const evrec_syst_item_t *item);

/**
 * @brief Parse one whole message held in memory.
 * @param[in] bytes the message, header first.
 * @param[in] len its bytes.
 * @param[in] exact 1: `len` is the message exactly (a text line, a transport frame): bytes beyond
 *     the header's fields and LEN are a LENGTH problem, and a message without LEN takes the rest
 *     as payload. 0: `len` may hold more (a stream): the message's size comes from the header
 *     and LEN.
 * @param[out] msg the fields read (valid as far as they could be read).
 * @param[out] what optional: a static explanation of the problem.
 * @return the problem found first (CHECKSUM before RESERVED, UNKNOWN_TYPE and PAYLOAD);
 *     msg->size is the message size, when known (with exact 0 and no LEN it is 0).
 * **Context:** any; pure.
 */
evrec_syst_problem evrec_syst_msg_parse(const uint8_t *bytes, size_t len, int exact, evrec_syst_msg_t *msg,
                                        const char **what);

/**
 * @brief Bytes of the message that starts at `bytes`, from its first bytes.
 * @param[in] bytes the first `len` bytes of a message.
 * @param[in] len how many are there.
 * @param[out] need on EVREC_OK: the message's size; on EVREC_E_TRUNCATED: how many bytes must be
 *     there to know more (more than len).
 * @retval EVREC_OK the size is known.
 * @retval EVREC_E_TRUNCATED more bytes needed.
 * @retval EVREC_E_UNSUPPORTED a message without LEN (not short): the size is unknown.
 * **Context:** any; pure.
 */
evrec_status evrec_syst_msg_size(const uint8_t *bytes, size_t len, size_t *need);

/** @brief Input forms of the parser. */
typedef enum evrec_syst_input {
    EVREC_SYST_BINARY = 0, /**< messages back to back, split by LEN */
    EVREC_SYST_TEXT = 1    /**< the printer's text: `SYS-T RAW DATA: <hex>` lines; others ignored */
} evrec_syst_input;

/**
 * @brief 1 when the first bytes of a stream look like the printer's text form: every byte is
 * printable ASCII, tab, CR or LF, and a line starts with `SYS-T RAW DATA:`. Give a few KiB (or the
 * whole stream when it is shorter).
 * @param[in] data the first bytes of the stream.
 * @param[in] len bytes in data.
 * @return 1 text form, 0 binary.
 * **Context:** any; pure.
 */
int evrec_syst_detect_text(const uint8_t *data, size_t len);

/** @brief Streaming parser. Initialise with evrec_syst_parser_init(). Counters are public. */
typedef struct evrec_syst_parser {
    uint8_t buf[EVREC_SYST_DEC_MAX_MESSAGE];    /**< private: the message being collected */
    uint8_t replay[EVREC_SYST_DEC_MAX_MESSAGE]; /**< private: bytes to read again after a lost boundary */
    size_t replay_pos, replay_len;              /**< private */
    int candidate, restart;                     /**< private */
    size_t have, need;                          /**< private */
    uint64_t start;                             /**< private: stream offset of buf[0] */
    uint64_t offset;                            /**< bytes consumed so far */
    evrec_syst_input input;                     /**< private */
    int resync;                                 /**< private: looking for a header */
    uint64_t skip_start, skip_len;              /**< private */
    /* text form, private */
    uint64_t line_no, line_start;
    int line_state, nibble_hi, line_bad, line_over;
    size_t prefix_at;
    /* counters */
    uint64_t messages;     /**< messages delimited (good and bad) */
    uint64_t good;         /**< messages without a problem */
    uint64_t checksum;     /**< CRC mismatches */
    uint64_t truncated;    /**< messages cut by the end of the stream or of a line */
    uint64_t reserved;     /**< messages with reserved bits set */
    uint64_t unknown_type; /**< messages of an unknown type or subtype */
    uint64_t length;       /**< length mismatches */
    uint64_t no_length;    /**< binary messages without LEN (their boundary was lost) */
    uint64_t bad_payload;  /**< LOCATION and PAYLOAD problems */
    uint64_t skipped;      /**< bytes skipped to resynchronise (with the candidates whose CRC failed) */
    uint64_t bad_lines;    /**< malformed text lines */
} evrec_syst_parser_t;

/**
 * @brief Reset a parser for an input form.
 * @param[out] p the parser (user memory, about 128 KiB).
 * @param[in] input ::EVREC_SYST_BINARY or ::EVREC_SYST_TEXT.
 * **Context:** any; one parser per thread.
 */
void evrec_syst_parser_init(evrec_syst_parser_t *p, evrec_syst_input input);

/**
 * @brief Feed stream bytes; calls `fn` for every message or problem completed by them.
 * @param[in,out] p the parser.
 * @param[in] data bytes.
 * @param[in] len bytes in data.
 * @param[in] fn callback (may be NULL: counters only).
 * @param[in] ctx passed to fn.
 * **Context:** one thread per parser.
 */
void evrec_syst_parser_feed(evrec_syst_parser_t *p, const uint8_t *data, size_t len, evrec_syst_item_fn fn,
                            void *ctx);

/**
 * @brief The stream ended: report a message cut short (TRUNCATED, with its offset), skipped
 * bytes still pending, and a last text line without a newline.
 * @param[in,out] p the parser.
 * @param[in] fn callback (may be NULL: counters only).
 * @param[in] ctx passed to fn.
 * **Context:** one thread per parser.
 */
void evrec_syst_parser_finish(evrec_syst_parser_t *p, evrec_syst_item_fn fn, void *ctx);

/**
 * @brief The printer's Type column: `CATALOG:ID32P32`, `STRING:GENERIC`, `RAW:5`, `SHORT32`,
 * `CLOCK:SYNC`, ... (RAW shows its protocol number).
 * @param[in] m the message.
 * @param[out] buf text, NUL-terminated.
 * @param[in] size bytes at buf (at most size bytes are written, the NUL included).
 * **Context:** any; pure.
 */
void evrec_syst_type_name(const evrec_syst_msg_t *m, char *buf, size_t size);

/**
 * @brief Name of a severity.
 * @param[in] severity 0..7.
 * @return `MAX`, `FATAL`, `ERROR`, `WARNING`, `INFO`, `USER1`, `USER2`, `DEBUG` (`?` above 7): a
 *     static string.
 * **Context:** any; pure.
 */
const char *evrec_syst_severity_name(unsigned severity);

/**
 * @brief The payload as text (the printer's Payload column without collateral): a STRING's text
 * (PRINTF_32/PRINTF_64: the format with its inline arguments applied), RAW bytes as lowercase
 * hex, BUILD LONG as `0x<id> <text>`, CLOCK as `clock=<value> freq=<Hz>`, SHORT32/SHORT64 as
 * `0x<value>`, CATALOG as `catalog 0x<id> args <hex>`.
 * @param[in] m the message.
 * @param[out] buf text, NUL-terminated.
 * @param[in] size bytes at buf.
 * @return characters the text has (may exceed size: cut as snprintf).
 * **Context:** any; pure.
 */
size_t evrec_syst_payload_text(const evrec_syst_msg_t *m, char *buf, size_t size);

/**
 * @brief One CSV line for an item, in the reference printer's column order without its last
 * (Collateral) column: `Status,"Payload",Type,Severity,Origin,Unit,Message TimeStamp,Context
 * TimeStamp,Location,Raw Length,Checksum`. Origin is the GUID `{xxxxxxxx-...}` (lowercase) or
 * `module-0x<module>`; timestamps `0x%016X`; Context TimeStamp is the message index; Location
 * `file-0x<id>:<line>` or `0x<address>`; Checksum `0x%08X` as sent. No newline.
 * @param[in] it the item.
 * @param[out] buf text, NUL-terminated.
 * @param[in] size bytes at buf.
 * @return characters the line has (cut as snprintf).
 * **Context:** any; pure.
 */
size_t evrec_syst_format_item(const evrec_syst_item_t *it, char *buf, size_t size);

/** @brief An event rebuilt from a CATALOG message. */
typedef struct evrec_syst_event {
    uint16_t id;          /**< event type (index in the meta-info's events) */
    uint8_t has_ts;       /**< the message had a timestamp */
    uint8_t severity;     /**< the message's severity */
    uint64_t catalog_id;  /**< the catalog id sent */
    uint64_t timestamp;   /**< the message timestamp (sender's ticks), when has_ts */
    uint64_t offset;      /**< stream offset of the message */
    uint64_t index;       /**< number of the message in the stream */
    uint32_t field_count; /**< leaf fields filled (time and id excluded) */
    /** The native record: u32 time (the timestamp's low 32 bits) at 0, u16 id at 4, every field
     * at its offset in the tables, the rest 0. */
    uint8_t native[EVREC_MAX_EVENT_SIZE];
} evrec_syst_event_t;

/**
 * @brief Turn one CATALOG message into an event of the map's meta-info.
 * @param[in] map the map the encoder used (its id width must be the message's: ID32 subtypes look
 *     up 32-bit ids, ID64 subtypes 64-bit ids).
 * @param[in] m a CATALOG message without a problem.
 * @param[out] ev the event.
 * @param[out] what optional: why it failed (static text).
 * @retval EVREC_SYST_OK decoded.
 * @retval EVREC_SYST_P_UNKNOWN_ID the map has no event type with this catalog id.
 * @retval EVREC_SYST_P_ARGS the argument bytes are not exactly the event's (4 per leaf field),
 *         or an argument does not fit its field's width.
 * @retval EVREC_SYST_P_UNKNOWN_TYPE not a CATALOG message.
 * **Context:** any; pure.
 */
evrec_syst_problem evrec_syst_decode_catalog(const evrec_syst_map_t *map, const evrec_syst_msg_t *m,
                                             evrec_syst_event_t *ev, const char **what);

/**
 * @brief Called for every decoded event.
 * @param[in] ctx the decoder's `ctx`.
 * @param[in] ev the event, valid only during the call.
 * **Context:** the thread that feeds the decoder.
 */
typedef void (*evrec_syst_event_fn)(void *ctx, const evrec_syst_event_t *ev);

/** @brief Event decoder: the parser, the maps, the clock. Counters are public. */
typedef struct evrec_syst_decoder {
    evrec_syst_parser_t parser;    /**< the message layer and its counters */
    const evrec_syst_map_t *map32; /**< map with 32-bit ids (ID32 subtypes); may be NULL */
    const evrec_syst_map_t *map64; /**< map with 64-bit ids (ID64 subtypes); may be NULL */
    evrec_syst_event_fn on_event;  /**< may be NULL */
    evrec_syst_item_fn on_item;    /**< every parser item, UNKNOWN_ID and ARGS; may be NULL */
    void *ctx;                     /**< passed to both */
    uint64_t events;               /**< events decoded */
    uint64_t unknown_ids;          /**< CATALOG messages whose id the map does not have */
    uint64_t bad_args;             /**< CATALOG messages whose arguments do not fit the event */
    uint64_t other;                /**< good messages that are neither CATALOG nor CLOCK */
    uint64_t clocks;               /**< good CLOCK TRANSPORT_SYNC messages */
    uint64_t clock_value;          /**< the last CLOCK message's clock value, ticks */
    uint64_t clock_freq;           /**< the first CLOCK message's frequency, Hz (0: none yet) */
    uint64_t clock_freq_changes;   /**< CLOCK messages whose frequency differed from the first */
    evrec_syst_event_t ev;         /**< private scratch */
} evrec_syst_decoder_t;

/**
 * @brief Prepare a decoder.
 * @param[out] d the decoder (large: about 130 KiB; heap or static).
 * @param[in] map32 the map with 32-bit catalog ids, or NULL.
 * @param[in] map64 the map with 64-bit catalog ids, or NULL (both built from the same meta-info;
 *     at least one given).
 * @param[in] input binary or text form.
 * @param[in] on_event called per decoded event (may be NULL).
 * @param[in] on_item called per parser item and decoder problem (may be NULL).
 * @param[in] ctx passed to both.
 * @retval EVREC_OK ready.
 * @retval EVREC_E_ARG NULL d, or both maps NULL.
 * **Context:** any; one decoder per thread.
 */
evrec_status evrec_syst_decoder_init(evrec_syst_decoder_t *d, const evrec_syst_map_t *map32,
                                     const evrec_syst_map_t *map64, evrec_syst_input input,
                                     evrec_syst_event_fn on_event, evrec_syst_item_fn on_item, void *ctx);

/**
 * @brief Feed stream bytes (any chunk size); calls the callbacks for what they complete.
 * @param[in,out] d the decoder.
 * @param[in] data bytes.
 * @param[in] len bytes in data.
 * **Context:** one thread per decoder.
 */
void evrec_syst_decoder_feed(evrec_syst_decoder_t *d, const uint8_t *data, size_t len);

/**
 * @brief The stream ended (see evrec_syst_parser_finish()).
 * @param[in,out] d the decoder.
 * **Context:** one thread per decoder.
 */
void evrec_syst_decoder_finish(evrec_syst_decoder_t *d);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_SYST_DECODE_H */
