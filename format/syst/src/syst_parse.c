/* SPDX-License-Identifier: Apache-2.0 */
/* SyS-T message parser: one message in memory (evrec_syst_msg_parse), the size of a message from
 * its first bytes, and the streaming parser for binary streams (split by LEN, resynchronise at a
 * header with LEN after a message without it) and for the reference printer's text form
 * (MIPI SyS-T "SyS-T Data Protocol": header, optional fields, payload, CRC-32C). Host code. */
#include <string.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_syst_decode.h"
#include "syst_decode_internal.h"

static uint16_t le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

uint32_t evrec_syst_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

uint64_t evrec_syst_le64(const uint8_t *p)
{
    return (uint64_t)evrec_syst_le32(p) | ((uint64_t)evrec_syst_le32(p + 4) << 32);
}

const char *evrec_syst_problem_name(evrec_syst_problem p)
{
    static const char *const names[] = {
        "OK",        "CHECKSUM_ERROR", "TOO_SHORT",   "RESERVED_BITS", "UNKNOWN_TYPE", "LENGTH_MISMATCH",
        "NO_LENGTH", "BAD_LOCATION",   "BAD_PAYLOAD", "SKIPPED",       "BAD_LINE",     "UNKNOWN_ID",
        "BAD_ARGS",
    };
    return (unsigned)p < sizeof names / sizeof names[0] ? names[p] : "UNKNOWN_PROBLEM";
}

/* Bytes of the optional fields before the length field; *need_more set when bytes are missing. */
static size_t loc_size(uint8_t format)
{
    return (format & 1u) ? 8u : 4u; /* 0: u16+u16, 1: u32+u32, 2: u32, 3: u64 */
}

evrec_status evrec_syst_msg_size(const uint8_t *bytes, size_t len, size_t *need)
{
    if (len < 4) {
        *need = 4;
        return EVREC_E_TRUNCATED;
    }
    uint32_t h = evrec_syst_le32(bytes);
    unsigned type = h & SYST_TYPE_MASK;
    if (type == SYST_TYPE_SHORT32) {
        *need = 4;
        return EVREC_OK;
    }
    if (type == SYST_TYPE_SHORT64) {
        *need = 8;
        return len < 8 ? EVREC_E_TRUNCATED : EVREC_OK;
    }
    size_t pos = 4;
    if (h & SYST_HDR_GUID) {
        pos += 16;
    }
    if (h & SYST_HDR_LOC) {
        if (len < pos + 1) {
            *need = pos + 1;
            return EVREC_E_TRUNCATED;
        }
        pos += 1 + loc_size(bytes[pos]);
    }
    if (!(h & SYST_HDR_LEN)) {
        *need = pos;
        return EVREC_E_UNSUPPORTED;
    }
    if (len < pos + 2) {
        *need = pos + 2;
        return EVREC_E_TRUNCATED;
    }
    size_t total = pos + 2 + ((h & SYST_HDR_TS) ? 8u : 0u) + le16(bytes + pos) + ((h & SYST_HDR_CHK) ? 4u : 0u);
    *need = total;
    return len < total ? EVREC_E_TRUNCATED : EVREC_OK;
}

static int known_subtype(unsigned type, unsigned sub)
{
    switch (type) {
    case SYST_TYPE_BUILD: return sub <= 2;
    case SYST_TYPE_STRING:
        return sub == 1 || sub == 2 || sub == 3 || sub == 5 || sub == 7 || sub == 11 || sub == 12;
    case SYST_TYPE_CATALOG: return sub == 1 || sub == 2 || sub == 5 || sub == 6;
    case SYST_TYPE_RAW: return 1;
    case SYST_TYPE_CLOCK: return sub == 1;
    default: return 0;
    }
}

/* Problem found, with its explanation. */
#define FAIL(p, text)                                                                                             \
    do {                                                                                                          \
        if (what) {                                                                                               \
            *what = (text);                                                                                       \
        }                                                                                                         \
        return (p);                                                                                               \
    } while (0)

/* SHORT32 / SHORT64: one word. */
static evrec_syst_problem parse_short(const uint8_t *bytes, size_t len, int exact, evrec_syst_msg_t *m,
                                      const char **what)
{
    size_t n = m->type == SYST_TYPE_SHORT32 ? 4u : 8u;
    m->is_short = 1;
    if (len < n) {
        FAIL(EVREC_SYST_P_TRUNCATED, "a SHORT64 message is 8 bytes");
    }
    m->size = n;
    m->short_value = n == 4 ? (uint64_t)(m->header >> 4) : evrec_syst_le64(bytes) >> 4;
    if (exact && len != n) {
        m->size = len;
        FAIL(EVREC_SYST_P_LENGTH, "bytes after the one word of a short message");
    }
    return EVREC_SYST_OK;
}

/* The fields of the header word h (not a short message). */
static void header_fields(evrec_syst_msg_t *m, uint32_t h)
{
    m->severity = (uint8_t)((h >> 4) & 7u);
    m->subtype = (uint8_t)((h >> 24) & 0x3Fu);
    m->reserved = h & SYST_HDR_RESERVED;
    m->has_loc = (h & SYST_HDR_LOC) != 0;
    m->has_len = (h & SYST_HDR_LEN) != 0;
    m->has_chk = (h & SYST_HDR_CHK) != 0;
    m->has_ts = (h & SYST_HDR_TS) != 0;
    m->has_guid = (h & SYST_HDR_GUID) != 0;
    uint32_t origin = (h >> 12) & 0x7FFu;
    if (m->has_guid) {
        m->unit = (uint16_t)origin;
    } else {
        m->unit = (uint16_t)(origin & 0xFu);
        m->module = (uint8_t)(origin >> 4);
    }
}

/* The location field at *pos (format byte, then 4 or 8 bytes). */
static evrec_syst_problem parse_location(const uint8_t *bytes, size_t len, evrec_syst_msg_t *m, size_t *pos,
                                         const char **what)
{
    if (len < *pos + 1) {
        FAIL(EVREC_SYST_P_TRUNCATED, "the message ends before its location format");
    }
    m->loc_format = bytes[(*pos)++];
    size_t n = loc_size(m->loc_format);
    if (len < *pos + n) {
        FAIL(EVREC_SYST_P_TRUNCATED, "the message ends inside its location");
    }
    const uint8_t *p = bytes + *pos;
    switch (m->loc_format) {
    case 0:
        m->loc_file = le16(p);
        m->loc_line = le16(p + 2);
        break;
    case 1:
        m->loc_file = evrec_syst_le32(p);
        m->loc_line = evrec_syst_le32(p + 4);
        break;
    case 2: m->loc_addr = evrec_syst_le32(p); break;
    case 3: m->loc_addr = evrec_syst_le64(p); break;
    default: break; /* not a SyS-T format: reported later, its n bytes skipped */
    }
    *pos += n;
    return EVREC_SYST_OK;
}

/* The optional fields after the header word: GUID, location, length, timestamp; *pos moves past
 * them. */
static evrec_syst_problem parse_optional(const uint8_t *bytes, size_t len, evrec_syst_msg_t *m, size_t *pos,
                                         const char **what)
{
    if (m->has_guid) {
        if (len < *pos + 16) {
            FAIL(EVREC_SYST_P_TRUNCATED, "the message ends inside its GUID");
        }
        memcpy(m->guid, bytes + *pos, 16);
        *pos += 16;
    }
    if (m->has_loc) {
        evrec_syst_problem p = parse_location(bytes, len, m, pos, what);
        if (p != EVREC_SYST_OK) {
            return p;
        }
    }
    if (m->has_len) {
        if (len < *pos + 2) {
            FAIL(EVREC_SYST_P_TRUNCATED, "the message ends inside its length field");
        }
        m->length = le16(bytes + *pos);
        *pos += 2;
    }
    if (m->has_ts) {
        if (len < *pos + 8) {
            FAIL(EVREC_SYST_P_TRUNCATED, "the message ends inside its timestamp");
        }
        m->timestamp = evrec_syst_le64(bytes + *pos);
        *pos += 8;
    }
    return EVREC_SYST_OK;
}

/* The message's size (*total) from its length field, or from `len` when it has none (exact only). */
static evrec_syst_problem message_extent(const uint8_t *bytes, size_t len, int exact, evrec_syst_msg_t *m,
                                         size_t pos, size_t *total, const char **what)
{
    size_t crc_size = m->has_chk ? 4u : 0u;
    if (!m->has_len) {
        if (!exact) {
            m->size = 0;
            FAIL(EVREC_SYST_P_NO_LENGTH, "no length field (LEN bit 0): the end of the message is unknown");
        }
        if (len < pos + crc_size) {
            m->size = len;
            FAIL(EVREC_SYST_P_TRUNCATED, "the message ends before its checksum");
        }
        *total = len;
        return EVREC_SYST_OK;
    }
    *total = pos + m->length + crc_size;
    if (len < *total) {
        m->size = len;
        m->payload = bytes + pos;
        m->payload_len = len - pos < m->length ? len - pos : m->length;
        if (exact) {
            FAIL(EVREC_SYST_P_LENGTH, "the length field says more payload bytes than the message has");
        }
        FAIL(EVREC_SYST_P_TRUNCATED, "the stream ends inside the message");
    }
    if (exact && len > *total) {
        m->size = len;
        m->payload = bytes + pos;
        m->payload_len = m->length;
        FAIL(EVREC_SYST_P_LENGTH, "the length field says fewer payload bytes than the message has");
    }
    return EVREC_SYST_OK;
}

/* The payload as its type and subtype require it. */
static evrec_syst_problem check_payload(const evrec_syst_msg_t *m, const char **what)
{
    switch (m->type) {
    case SYST_TYPE_STRING:
        if (m->subtype == 11 || m->subtype == 12) {
            /* PRINTF_32/_64: the format string with its NUL, then the arguments */
            if (!memchr(m->payload, 0, m->payload_len)) {
                FAIL(EVREC_SYST_P_PAYLOAD, "a printf format without its terminating NUL");
            }
        } else if (m->payload_len == 0 || m->payload[m->payload_len - 1] != 0) {
            FAIL(EVREC_SYST_P_PAYLOAD, "a string without its terminating NUL");
        }
        break;
    case SYST_TYPE_CATALOG:
        if (m->payload_len < ((m->subtype == 2 || m->subtype == 6) ? 8u : 4u)) {
            FAIL(EVREC_SYST_P_LENGTH, "a catalog payload shorter than its catalog id");
        }
        break;
    case SYST_TYPE_CLOCK:
        if (m->payload_len != 16) {
            FAIL(EVREC_SYST_P_LENGTH, "a CLOCK payload that is not 16 bytes (clock value, frequency)");
        }
        break;
    case SYST_TYPE_BUILD:
        if (m->subtype == 2 && m->payload_len < 8) {
            FAIL(EVREC_SYST_P_LENGTH, "a BUILD LONG payload shorter than its 64-bit build id");
        }
        break;
    default: break;
    }
    return EVREC_SYST_OK;
}

/* The checks after the extent: payload size, CRC, location format, reserved bits, type, payload. */
static evrec_syst_problem check_message(const uint8_t *bytes, evrec_syst_msg_t *m, size_t total, const char **what)
{
    if (m->payload_len > EVREC_SYST_DEC_MAX_PAYLOAD) {
        FAIL(EVREC_SYST_P_LENGTH, "a payload over the 65535 bytes of a SyS-T message");
    }
    if (m->has_chk) {
        m->crc = evrec_syst_le32(bytes + total - 4);
        m->crc_calc = evrec_crc32c(0, bytes, total - 4);
        if (m->crc != m->crc_calc) {
            FAIL(EVREC_SYST_P_CHECKSUM, "the CRC-32C does not match the message");
        }
    }
    if (m->has_loc && m->loc_format > 3) {
        FAIL(EVREC_SYST_P_LOCATION, "a location format other than 0..3");
    }
    if (m->reserved) {
        FAIL(EVREC_SYST_P_RESERVED, "reserved header bits (7, 30, 31) are set");
    }
    if (!known_subtype(m->type, m->subtype)) {
        FAIL(EVREC_SYST_P_UNKNOWN_TYPE, known_subtype(m->type, 1) || m->type == SYST_TYPE_BUILD
                                            ? "a subtype SyS-T does not define for this type"
                                            : "a message type SyS-T reserves (4, 5, 9..15)");
    }
    return check_payload(m, what);
}

evrec_syst_problem evrec_syst_msg_parse(const uint8_t *bytes, size_t len, int exact, evrec_syst_msg_t *m,
                                        const char **what)
{
    memset(m, 0, sizeof *m);
    m->bytes = bytes;
    if (what) {
        *what = NULL;
    }
    if (len < 4) {
        FAIL(EVREC_SYST_P_TRUNCATED, "fewer than the 4 bytes of a header");
    }
    uint32_t h = evrec_syst_le32(bytes);
    m->header = h;
    m->type = (uint8_t)(h & SYST_TYPE_MASK);
    if (m->type == SYST_TYPE_SHORT32 || m->type == SYST_TYPE_SHORT64) {
        return parse_short(bytes, len, exact, m, what);
    }
    header_fields(m, h);
    size_t pos = 4, total;
    evrec_syst_problem p = parse_optional(bytes, len, m, &pos, what);
    if (p == EVREC_SYST_OK) {
        p = message_extent(bytes, len, exact, m, pos, &total, what);
    }
    if (p != EVREC_SYST_OK) {
        return p;
    }
    m->size = total;
    m->payload = bytes + pos;
    m->payload_len = total - pos - (m->has_chk ? 4u : 0u);
    return check_message(bytes, m, total, what);
}

int evrec_syst_detect_text(const uint8_t *data, size_t len)
{
    static const char prefix[] = "SYS-T RAW DATA:";
    int found = 0;
    for (size_t i = 0; i < len; i++) {
        uint8_t c = data[i];
        if (!(c == '\t' || c == '\r' || c == '\n' || (c >= 0x20 && c < 0x7F))) {
            return 0;
        }
        if ((i == 0 || data[i - 1] == '\n') && len - i >= sizeof prefix - 1 &&
            memcmp(data + i, prefix, sizeof prefix - 1) == 0) {
            found = 1;
        }
    }
    return found;
}

/* ---- the streaming parser ------------------------------------------------------------------ */

void evrec_syst_parser_init(evrec_syst_parser_t *p, evrec_syst_input input)
{
    memset(p, 0, sizeof *p);
    p->input = input;
    p->need = 4;
    p->line_no = 1;
    p->nibble_hi = -1;
}

static void emit(evrec_syst_parser_t *p, evrec_syst_item_t *it, evrec_syst_item_fn fn, void *ctx)
{
    it->index = p->messages;
    switch (it->problem) {
    case EVREC_SYST_OK: p->good++; break;
    case EVREC_SYST_P_CHECKSUM: p->checksum++; break;
    case EVREC_SYST_P_TRUNCATED: p->truncated++; break;
    case EVREC_SYST_P_RESERVED: p->reserved++; break;
    case EVREC_SYST_P_UNKNOWN_TYPE: p->unknown_type++; break;
    case EVREC_SYST_P_LENGTH: p->length++; break;
    case EVREC_SYST_P_NO_LENGTH: p->no_length++; break;
    case EVREC_SYST_P_LOCATION:
    case EVREC_SYST_P_PAYLOAD: p->bad_payload++; break;
    case EVREC_SYST_P_SKIPPED: p->skipped += it->size; break;
    case EVREC_SYST_P_BAD_LINE: p->bad_lines++; break;
    default: break;
    }
    if (it->problem != EVREC_SYST_P_SKIPPED && it->problem != EVREC_SYST_P_BAD_LINE) {
        p->messages++;
    }
    if (fn) {
        fn(ctx, it);
    }
}

/* A whole message in buf[0..len): parse it and report it. */
static void emit_message(evrec_syst_parser_t *p, size_t len, int exact, uint64_t offset, evrec_syst_item_fn fn,
                         void *ctx)
{
    evrec_syst_msg_t m;
    evrec_syst_item_t it;
    memset(&it, 0, sizeof it);
    it.problem = evrec_syst_msg_parse(p->buf, len, exact, &m, &it.what);
    it.offset = offset;
    it.line = p->input == EVREC_SYST_TEXT ? p->line_no : 0;
    it.size = m.size ? m.size : len;
    it.msg = len >= 4 ? &m : NULL;
    emit(p, &it, fn, ctx);
}

static void emit_skipped(evrec_syst_parser_t *p, uint64_t extra, evrec_syst_item_fn fn, void *ctx)
{
    if (p->skip_len + extra == 0) {
        return;
    }
    evrec_syst_item_t it;
    memset(&it, 0, sizeof it);
    it.problem = EVREC_SYST_P_SKIPPED;
    it.offset = p->skip_start;
    it.size = (size_t)(p->skip_len + extra);
    it.what = "bytes skipped to find the next message header";
    emit(p, &it, fn, ctx);
    p->skip_len = 0;
}

/* While resynchronising: a header we accept is a normal type with LEN and no reserved bit. */
static int plausible_header(uint32_t h)
{
    unsigned type = h & SYST_TYPE_MASK;
    return (h & SYST_HDR_LEN) && !(h & SYST_HDR_RESERVED) && type != SYST_TYPE_SHORT32 &&
           type != SYST_TYPE_SHORT64 && known_subtype(type, (h >> 24) & 0x3Fu);
}

/* buf holds `have` == `need` bytes of the message at `start`: size it, report it when whole.
 * A resynchronisation candidate whose CRC fails is not a message (restart 1: read again from its
 * second byte); a message without LEN loses the boundary (restart 2: read again after its
 * header word). The caller (bin_feed) does the restart. */
static void bin_step(evrec_syst_parser_t *p, evrec_syst_item_fn fn, void *ctx)
{
    size_t need = 0;
    evrec_status st = evrec_syst_msg_size(p->buf, p->have, &need);
    if (st == EVREC_E_TRUNCATED || (st == EVREC_OK && need > p->have)) {
        p->need = need;
        return;
    }
    if (st == EVREC_OK) {
        if (p->candidate) {
            if ((evrec_syst_le32(p->buf) & SYST_HDR_CHK) &&
                evrec_crc32c(0, p->buf, p->have - 4) != evrec_syst_le32(p->buf + p->have - 4)) {
                p->restart = 1;
                return;
            }
            p->candidate = 0;
            emit_skipped(p, 0, fn, ctx);
        }
        emit_message(p, p->have, 1, p->start, fn, ctx);
        p->start += p->have;
        p->have = 0;
        p->need = 4;
        return;
    }
    /* No LEN: report the message, then look for the next header after this one's header word. */
    evrec_syst_msg_t m;
    evrec_syst_item_t it;
    memset(&it, 0, sizeof it);
    it.problem = evrec_syst_msg_parse(p->buf, p->have, 0, &m, &it.what);
    if (it.problem != EVREC_SYST_P_NO_LENGTH) {
        it.problem = EVREC_SYST_P_NO_LENGTH;
        it.what = "no length field (LEN bit 0): the end of the message is unknown";
    }
    it.offset = p->start;
    it.size = 4;
    it.msg = &m;
    emit(p, &it, fn, ctx);
    p->restart = 2;
}

/* One byte while resynchronising: a 4-byte window slides until it holds a plausible header,
 * which becomes a candidate (confirmed by its CRC when it has one). */
static void resync_byte(evrec_syst_parser_t *p, uint8_t b, evrec_syst_item_fn fn, void *ctx)
{
    p->buf[p->have++] = b;
    p->offset++;
    if (p->have < 4) {
        return;
    }
    if (plausible_header(evrec_syst_le32(p->buf))) {
        p->resync = 0;
        p->candidate = 1;
        p->start = p->offset - 4;
        p->need = 4;
        bin_step(p, fn, ctx);
        return;
    }
    if (p->skip_len == 0) {
        p->skip_start = p->offset - 4;
    }
    p->skip_len++;
    memmove(p->buf, p->buf + 1, 3);
    p->have = 3;
}

/* Bytes of one source (the replay or the caller's data) until it ends or a restart is due;
 * returns the bytes used. */
static size_t bin_consume(evrec_syst_parser_t *p, const uint8_t *data, size_t len, evrec_syst_item_fn fn,
                          void *ctx)
{
    size_t i = 0;
    while (i < len && !p->restart) {
        if (p->resync) {
            resync_byte(p, data[i++], fn, ctx);
            continue;
        }
        size_t n = p->need - p->have;
        if (n > len - i) {
            n = len - i;
        }
        memcpy(p->buf + p->have, data + i, n);
        p->have += n;
        p->offset += n;
        i += n;
        if (p->have == p->need) {
            bin_step(p, fn, ctx);
        }
    }
    return i;
}

/* Read buf[from..have) again, before whatever is left of the replay, looking for a header. */
static void bin_restart(evrec_syst_parser_t *p)
{
    size_t from = p->restart == 1 ? 1u : 4u;
    if (p->restart == 1) {
        /* the rejected candidate's first byte joins the bytes skipped before it */
        if (p->skip_len == 0) {
            p->skip_start = p->start;
        }
        p->skip_len++;
    } else {
        p->skip_start = p->start + 4;
        p->skip_len = 0;
    }
    size_t keep = p->have - from;
    size_t rest = p->replay_len - p->replay_pos;
    /* keep + rest never exceeds the replay: every byte in buf came from the replay being read,
     * or the replay was empty (bin_feed reads the replay first, and a restart empties buf). */
    if (keep + rest > sizeof p->replay) {
        rest = sizeof p->replay - keep;
    }
    memmove(p->replay + keep, p->replay + p->replay_pos, rest);
    memcpy(p->replay, p->buf + from, keep);
    p->replay_pos = 0;
    p->replay_len = keep + rest;
    p->offset -= keep;
    p->have = 0;
    p->resync = 1;
    p->candidate = 0;
    p->restart = 0;
}

static void bin_feed(evrec_syst_parser_t *p, const uint8_t *data, size_t len, evrec_syst_item_fn fn, void *ctx)
{
    size_t i = 0;
    for (;;) {
        if (p->replay_pos < p->replay_len) {
            p->replay_pos += bin_consume(p, p->replay + p->replay_pos, p->replay_len - p->replay_pos, fn, ctx);
        } else if (i < len) {
            i += bin_consume(p, data + i, len - i, fn, ctx);
        } else {
            break;
        }
        if (p->restart) {
            bin_restart(p);
        }
    }
}

/* ---- the text form: `SYS-T RAW DATA: <hex>` lines ------------------------------------------ */

enum { LINE_PREFIX = 0, LINE_SPACE, LINE_HEX, LINE_IGNORE };
static const char text_prefix[] = "SYS-T RAW DATA:";

static int hex_value(uint8_t c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

static void line_end(evrec_syst_parser_t *p, evrec_syst_item_fn fn, void *ctx)
{
    if (p->line_state == LINE_SPACE || p->line_state == LINE_HEX) {
        if (p->line_bad || p->nibble_hi >= 0 || p->have == 0 || p->line_over) {
            evrec_syst_item_t it;
            memset(&it, 0, sizeof it);
            it.problem = p->line_over ? EVREC_SYST_P_LENGTH : EVREC_SYST_P_BAD_LINE;
            it.offset = p->line_start;
            it.line = p->line_no;
            it.what = p->line_over   ? "more bytes than the largest SyS-T message (65578)"
                      : p->line_bad  ? "a character that is not a hex digit"
                      : p->have == 0 ? "no message bytes"
                                     : "an odd number of hex digits";
            if (p->line_over) {
                it.size = p->have;
                p->length++;
                p->messages++;
                it.index = p->messages - 1;
                if (fn) {
                    fn(ctx, &it);
                }
            } else {
                emit(p, &it, fn, ctx);
            }
        } else {
            emit_message(p, p->have, 1, p->line_start, fn, ctx);
        }
    }
    p->line_state = LINE_PREFIX;
    p->prefix_at = 0;
    p->have = 0;
    p->nibble_hi = -1;
    p->line_bad = 0;
    p->line_over = 0;
}

static void text_feed(evrec_syst_parser_t *p, const uint8_t *data, size_t len, evrec_syst_item_fn fn, void *ctx)
{
    for (size_t i = 0; i < len; i++) {
        uint8_t c = data[i];
        if (c == '\n') {
            line_end(p, fn, ctx);
            p->offset++;
            p->line_no++;
            p->line_start = p->offset;
            continue;
        }
        p->offset++;
        switch (p->line_state) {
        case LINE_PREFIX:
            if (c == (uint8_t)text_prefix[p->prefix_at]) {
                if (++p->prefix_at == sizeof text_prefix - 1) {
                    p->line_state = LINE_SPACE;
                }
            } else {
                p->line_state = LINE_IGNORE;
            }
            break;
        case LINE_SPACE:
            if (c == ' ' || c == '\t') {
                break;
            }
            p->line_state = LINE_HEX;
            /* fall through */
        case LINE_HEX: {
            if (c == '\r' || c == ' ' || c == '\t') {
                /* trailing blanks end the hex: anything after them is bad */
                p->line_state = LINE_HEX;
                if (p->nibble_hi == -2) {
                    break;
                }
                if (p->nibble_hi >= 0) {
                    p->line_bad = 1;
                }
                p->nibble_hi = p->nibble_hi >= 0 ? p->nibble_hi : -2;
                break;
            }
            int v = hex_value(c);
            if (v < 0 || p->nibble_hi == -2) {
                p->line_bad = 1;
                break;
            }
            if (p->nibble_hi < 0) {
                p->nibble_hi = v;
            } else {
                if (p->have < sizeof p->buf) {
                    p->buf[p->have++] = (uint8_t)(p->nibble_hi << 4 | v);
                } else {
                    p->line_over = 1;
                }
                p->nibble_hi = -1;
            }
            break;
        }
        default: break;
        }
    }
}

void evrec_syst_parser_feed(evrec_syst_parser_t *p, const uint8_t *data, size_t len, evrec_syst_item_fn fn,
                            void *ctx)
{
    if (!p || !data) {
        return;
    }
    if (p->input == EVREC_SYST_TEXT) {
        text_feed(p, data, len, fn, ctx);
    } else {
        bin_feed(p, data, len, fn, ctx);
    }
}

void evrec_syst_parser_finish(evrec_syst_parser_t *p, evrec_syst_item_fn fn, void *ctx)
{
    if (!p) {
        return;
    }
    if (p->input == EVREC_SYST_TEXT) {
        line_end(p, fn, ctx);
        return;
    }
    if (p->resync) {
        emit_skipped(p, p->have, fn, ctx);
        p->have = 0;
        p->resync = 0;
        return;
    }
    /* A resynchronisation candidate cut by the end is not confirmed: its bytes are read again
     * from its second one (they may hold the real header), until none is pending. */
    while (p->candidate && !p->resync) {
        p->restart = 1;
        bin_restart(p);
        bin_feed(p, NULL, 0, fn, ctx);
    }
    if (p->have > 0) {
        evrec_syst_msg_t m;
        evrec_syst_item_t it;
        memset(&it, 0, sizeof it);
        evrec_syst_msg_parse(p->buf, p->have, 0, &m, NULL);
        it.problem = EVREC_SYST_P_TRUNCATED;
        it.what = "the stream ends inside the message";
        it.offset = p->start;
        it.size = p->have;
        it.msg = p->have >= 4 ? &m : NULL;
        emit(p, &it, fn, ctx);
        p->start += p->have;
        p->have = 0;
        p->need = 4;
    }
}
