/* SPDX-License-Identifier: Apache-2.0 */
/* The SyS-T message parser against the reference printer (tests/data/syst: systprint's CSV for
 * the same messages), the binary split by LEN in any chunk size, and every problem reported at
 * its byte offset: CRC, cut stream, reserved bits, unknown type, length mismatch, no LEN (with
 * resynchronisation), malformed text lines. */
#include "syst_test_util.h"

/* ---- the printer's CSV ------------------------------------------------------------------- */

#define COLS 12
typedef struct row {
    char col[COLS][512];
} row_t;

/* Parse the CSV rows after the header; returns the count. */
static size_t read_csv(const char *path, row_t *rows, size_t max)
{
    size_t len;
    char *text = slurp(path, &len);
    const char *p = strchr(text, '\n');
    cr_assert_not_null(p);
    p++;
    size_t n = 0;
    while (*p && n < max) {
        row_t *r = &rows[n];
        memset(r, 0, sizeof *r);
        int c = 0;
        size_t at = 0;
        int quoted = 0;
        for (; *p && !(*p == '\n' && !quoted); p++) {
            if (*p == '"') {
                if (quoted && p[1] == '"') {
                    p++;
                } else {
                    quoted = !quoted;
                    continue;
                }
            } else if (*p == ',' && !quoted) {
                c++;
                at = 0;
                cr_assert_lt(c, COLS);
                continue;
            } else if (*p == '\r') {
                continue;
            }
            if (at + 1 < sizeof r->col[0]) {
                r->col[c][at++] = *p;
            }
        }
        if (*p == '\n') {
            p++;
        }
        n++;
    }
    free(text);
    return n;
}

/* Our CSV line split the same way (no newline in it). */
static void split_csv(const char *line, row_t *r)
{
    memset(r, 0, sizeof *r);
    int c = 0, quoted = 0;
    size_t at = 0;
    for (const char *p = line; *p; p++) {
        if (*p == '"') {
            if (quoted && p[1] == '"') {
                p++;
            } else {
                quoted = !quoted;
                continue;
            }
        } else if (*p == ',' && !quoted) {
            c++;
            at = 0;
            cr_assert_lt(c, COLS);
            continue;
        }
        if (at + 1 < sizeof r->col[0]) {
            r->col[c][at++] = *p;
        }
    }
}

enum { C_STATUS, C_PAYLOAD, C_TYPE, C_SEVERITY, C_ORIGIN, C_UNIT, C_MSGTS, C_CTXTS, C_LOC, C_RAWLEN, C_CHK };

static void parse_file(const char *path, evrec_syst_input input, got_t *g, evrec_syst_parser_t *p)
{
    size_t len;
    char *text = slurp(path, &len);
    evrec_syst_parser_init(p, input);
    evrec_syst_parser_feed(p, (const uint8_t *)text, len, got_fn, g);
    evrec_syst_parser_finish(p, got_fn, g);
    free(text);
}

/* The printer's bytes of an error row: the first byte as %02X, every other one as %X, unpadded
 * (systprint's output for the CLOCK row shows the leading "08"). */
static void printer_hex(const got_item_t *it, char *out, size_t size)
{
    size_t at = 0;
    out[0] = 0;
    for (size_t i = 0; i < it->nbytes && at + 3 < size; i++) {
        at += (size_t)snprintf(out + at, size - at, i == 0 ? "%02X" : "%X", it->bytes[i]);
    }
}

/* Compare one of our items with the printer's row (the collateral's names mapped back:
 * client `recorder` = our GUID, `src/recorder.c` = file id 7, protocol `blob-proto-5` = 5). */
static void check_row(const got_item_t *it, const row_t *pr, size_t i)
{
    row_t me;
    split_csv(it->csv, &me);
    const char *st = pr->col[C_STATUS];
    cr_assert(it->has_msg, "row %zu: no message", i);
    if (strcmp(st, "CHECKSUM_ERROR") == 0 || strcmp(st, "UNKNOWN_STATE") == 0 || strcmp(st, "TOO_SHORT") == 0 ||
        strcmp(st, "UNKNOWN_TYPE") == 0) {
        /* the printer prints the bytes only: they must be the message we parsed */
        char hex[4096];
        printer_hex(it, hex, sizeof hex);
        cr_assert_str_eq(hex, pr->col[C_PAYLOAD], "row %zu: bytes", i);
        evrec_syst_problem want = strcmp(st, "CHECKSUM_ERROR") == 0  ? EVREC_SYST_P_CHECKSUM
                                  : strcmp(st, "UNKNOWN_STATE") == 0 ? EVREC_SYST_P_LENGTH  /* LEN != bytes */
                                  : strcmp(st, "TOO_SHORT") == 0     ? EVREC_SYST_P_PAYLOAD /* no NUL */
                                                                     : EVREC_SYST_OK;           /* CLOCK: see below */
        cr_assert_eq(it->problem, want, "row %zu: %s is %s here", i, st, evrec_syst_problem_name(it->problem));
        if (strcmp(st, "UNKNOWN_TYPE") == 0) {
            /* systprint does not decode CLOCK; we do */
            cr_assert_str_eq(me.col[C_TYPE], "CLOCK:SYNC", "row %zu", i);
            cr_assert_str_eq(me.col[C_PAYLOAD], "clock=123456789 freq=1000000");
        }
        return;
    }
    /* OK and MISSING_COLLATERAL rows: every column */
    cr_assert_eq(it->problem, EVREC_SYST_OK, "row %zu: %s", i, evrec_syst_problem_name(it->problem));
    char type[sizeof pr->col[0]];
    memcpy(type, pr->col[C_TYPE], sizeof type);
    if (strcmp(type, "RAW:blob-proto-5") == 0) {
        strcpy(type, "RAW:5");
    }
    cr_assert_str_eq(me.col[C_TYPE], type, "row %zu", i);
    cr_assert_str_eq(me.col[C_SEVERITY], pr->col[C_SEVERITY], "row %zu", i);
    const char *origin = strcmp(pr->col[C_ORIGIN], "recorder") == 0 ? "{8f6a3c2e-1b4d-4e5f-9a0b-112233445566}"
                                                                    : pr->col[C_ORIGIN];
    cr_assert_str_eq(me.col[C_ORIGIN], origin, "row %zu", i);
    cr_assert_str_eq(me.col[C_UNIT], pr->col[C_UNIT], "row %zu", i);
    cr_assert_str_eq(me.col[C_MSGTS], pr->col[C_MSGTS], "row %zu", i);
    cr_assert_str_eq(me.col[C_CTXTS], pr->col[C_CTXTS], "row %zu", i);
    char loc[64] = "";
    unsigned line;
    if (sscanf(pr->col[C_LOC], "src/recorder.c:%u", &line) == 1) {
        snprintf(loc, sizeof loc, "file-0x7:%u", line);
    }
    if (!it->msg.has_loc && loc[0]) {
        /* the printer shows the catalog entry's File/Line of the collateral (id 0x1000 at
         * src/recorder.c:120) when the message has no location of its own */
        cr_assert_str_eq(loc, "file-0x7:120", "row %zu", i);
        cr_assert(strncmp(type, "CATALOG", 7) == 0, "row %zu", i);
        loc[0] = 0;
    }
    cr_assert_str_eq(me.col[C_LOC], loc, "row %zu", i);
    cr_assert_str_eq(me.col[C_RAWLEN], pr->col[C_RAWLEN], "row %zu", i);
    cr_assert_str_eq(me.col[C_CHK], pr->col[C_CHK], "row %zu", i);
    /* payloads that need no collateral: strings (PRINTF too), raw, build */
    if (strncmp(type, "STRING", 6) == 0 || strncmp(type, "RAW", 3) == 0 || strncmp(type, "BUILD", 5) == 0) {
        cr_assert_str_eq(me.col[C_PAYLOAD], pr->col[C_PAYLOAD], "row %zu", i);
    }
    /* the rest through the collateral's ids */
    if (strcmp(type, "SHORT32") == 0) {
        cr_assert_eq(it->msg.short_value, 0x0123456u);
    } else if (strcmp(type, "SHORT64") == 0) {
        cr_assert_eq(it->msg.short_value, 0x0112233445566778ull);
    } else if (strncmp(type, "CATALOG", 7) == 0) {
        uint64_t id = strcmp(type, "CATALOG:ID64P32") == 0              ? 0x1122334455667788ull
                      : strstr(pr->col[C_PAYLOAD], "module event")      ? 0x2000u
                      : strstr(pr->col[C_PAYLOAD], "Undefined catalog") ? 0xBEEFu
                                                                        : 0x1000u;
        char want[64];
        if (id > 0xFFFFFFFFu) {
            snprintf(want, sizeof want, "catalog 0x%016llx args ", (unsigned long long)id);
        } else {
            snprintf(want, sizeof want, "catalog 0x%08llx args ", (unsigned long long)id);
        }
        cr_assert(strncmp(me.col[C_PAYLOAD], want, strlen(want)) == 0, "row %zu: %s", i, me.col[C_PAYLOAD]);
    }
}

Test(syst_parse, frames_agree_with_the_printer)
{
    static row_t rows[32];
    size_t n = read_csv(SYST_DATA "frames.systprint-g.csv", rows, 32);
    cr_assert_eq(n, 17);
    got_t g = {0};
    evrec_syst_parser_t *p = malloc(sizeof *p);
    parse_file(SYST_DATA "frames.txt", EVREC_SYST_TEXT, &g, p);
    cr_assert_eq(g.n, 17, "%zu items", g.n);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(g.items[i].index, i);
        check_row(&g.items[i], &rows[i], i);
    }
    cr_assert_eq(p->messages, 17);
    cr_assert_eq(p->good, 14);
    cr_assert_eq(p->checksum, 1);
    cr_assert_eq(p->length, 1);
    cr_assert_eq(p->bad_payload, 1);
    /* the corrupted CRC: the line of M6 (line 12, after 11 lines of the file) */
    cr_assert_eq(g.items[5].problem, EVREC_SYST_P_CHECKSUM);
    cr_assert_eq(g.items[5].line, 12);
    cr_assert_eq(g.items[5].msg.crc, 0xE4600792u);
    cr_assert_eq(g.items[5].msg.crc_calc, 0xE5600792u);
    /* X6: LEN 3, 4 payload bytes */
    cr_assert_eq(g.items[11].problem, EVREC_SYST_P_LENGTH);
    cr_assert_eq(g.items[11].line, 24);
    /* M5: every optional field */
    const evrec_syst_msg_t *m5 = &g.items[4].msg;
    cr_assert(m5->has_loc && m5->has_len && m5->has_ts && m5->has_chk && m5->has_guid);
    cr_assert_eq(m5->loc_format, 1);
    cr_assert_eq(m5->loc_file, 7);
    cr_assert_eq(m5->loc_line, 300);
    cr_assert_eq(m5->length, 24);
    cr_assert_eq(m5->timestamp, 0x0000017F00C0FFEEull);
    cr_assert_eq(m5->payload_len, 24);
    /* X1: no GUID, module 0x12 unit 3 */
    cr_assert_eq(g.items[6].msg.module, 0x12);
    cr_assert_eq(g.items[6].msg.unit, 3);
    cr_assert_not(g.items[6].msg.has_guid);
    got_free(&g);
    free(p);
}

/* The four LEN messages back to back split into the printer's four messages, in any chunk size. */
Test(syst_parse, len_frames_split_by_len)
{
    static row_t rows[8];
    size_t n = read_csv(SYST_DATA "len_frames.systprint-g.csv", rows, 8);
    cr_assert_eq(n, 4);
    size_t tl;
    char *text = slurp(SYST_DATA "len_frames.txt", &tl);
    uint8_t bin[512];
    size_t sizes[8];
    size_t len = text_to_binary(text, bin, sizeof bin, sizes, 8);
    free(text);
    cr_assert_eq(len, 121);
    got_t ref = {0};
    evrec_syst_parser_t *p = malloc(sizeof *p);
    parse_file(SYST_DATA "len_frames.txt", EVREC_SYST_TEXT, &ref, p);
    cr_assert_eq(ref.n, 4);
    const size_t chunks[] = {1, 2, 3, 5, 7, 64, 121};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        got_t g = {0};
        evrec_syst_parser_init(p, EVREC_SYST_BINARY);
        for (size_t at = 0; at < len; at += chunks[c]) {
            evrec_syst_parser_feed(p, bin + at, len - at < chunks[c] ? len - at : chunks[c], got_fn, &g);
        }
        evrec_syst_parser_finish(p, got_fn, &g);
        cr_assert_eq(g.n, 4, "chunk %zu: %zu items", chunks[c], g.n);
        uint64_t off = 0;
        for (size_t i = 0; i < 4; i++) {
            cr_assert_eq(g.items[i].problem, EVREC_SYST_OK);
            cr_assert_eq(g.items[i].offset, off, "chunk %zu, message %zu", chunks[c], i);
            cr_assert_eq(g.items[i].size, sizes[i]);
            cr_assert_str_eq(g.items[i].csv, ref.items[i].csv);
            check_row(&g.items[i], &rows[i], i);
            off += sizes[i];
        }
        cr_assert_eq(p->offset, len);
        cr_assert_eq(p->good, 4);
        got_free(&g);
    }
    got_free(&ref);
    free(p);
}

/* ---- problems at their offsets, in a binary stream made of len_frames ----------------------- */

typedef struct stream {
    uint8_t b[512];
    size_t len;
    size_t sizes[8]; /* 37, 46, 4, 34 at offsets 0, 37, 83, 87 */
} stream_t;

static void make_stream(stream_t *s)
{
    size_t tl;
    char *text = slurp(SYST_DATA "len_frames.txt", &tl);
    s->len = text_to_binary(text, s->b, sizeof s->b, s->sizes, 8);
    free(text);
}

static void run(const uint8_t *b, size_t len, got_t *g, evrec_syst_parser_t *p)
{
    evrec_syst_parser_init(p, EVREC_SYST_BINARY);
    evrec_syst_parser_feed(p, b, len, got_fn, g);
    evrec_syst_parser_finish(p, got_fn, g);
}

Test(syst_parse, bad_crc_at_its_offset)
{
    stream_t s;
    make_stream(&s);
    s.b[87 + 26] ^= 0x01; /* a payload byte of the 4th message (CHK set) */
    got_t g = {0};
    evrec_syst_parser_t *p = malloc(sizeof *p);
    run(s.b, s.len, &g, p);
    cr_assert_eq(g.n, 4);
    cr_assert_eq(g.items[3].problem, EVREC_SYST_P_CHECKSUM);
    cr_assert_eq(g.items[3].offset, 87);
    cr_assert_eq(g.items[3].msg.crc, 0xE43FB886u);
    cr_assert_neq(g.items[3].msg.crc_calc, 0xE43FB886u);
    cr_assert_eq(p->checksum, 1);
    cr_assert_eq(p->good, 3);
    got_free(&g);
    free(p);
}

Test(syst_parse, cut_stream_reports_the_last_message)
{
    stream_t s;
    make_stream(&s);
    got_t g = {0};
    evrec_syst_parser_t *p = malloc(sizeof *p);
    run(s.b, s.len - 5, &g, p);
    cr_assert_eq(g.n, 4);
    cr_assert_eq(g.items[3].problem, EVREC_SYST_P_TRUNCATED);
    cr_assert_eq(g.items[3].offset, 87);
    cr_assert_eq(g.items[3].size, 29);
    cr_assert_eq(p->truncated, 1);
    got_free(&g);
    /* cut inside a header: no fields, still reported */
    run(s.b, 85, &g, p);
    cr_assert_eq(g.n, 3);
    cr_assert_eq(g.items[2].problem, EVREC_SYST_P_TRUNCATED);
    cr_assert_eq(g.items[2].offset, 83);
    cr_assert_eq(g.items[2].size, 2);
    cr_assert_not(g.items[2].has_msg);
    got_free(&g);
    free(p);
}

Test(syst_parse, reserved_bits_each_reported)
{
    const struct {
        size_t byte;
        uint8_t bit;
        uint32_t reserved;
    } cases[] = {{0, 0x80, 0x00000080u}, {3, 0x40, 0x40000000u}, {3, 0x80, 0x80000000u}};
    evrec_syst_parser_t *p = malloc(sizeof *p);
    for (size_t k = 0; k < 3; k++) {
        stream_t s;
        make_stream(&s);
        s.b[37 + cases[k].byte] |= cases[k].bit; /* the 2nd message (no CHK) */
        got_t g = {0};
        run(s.b, s.len, &g, p);
        cr_assert_eq(g.n, 4, "case %zu", k);
        cr_assert_eq(g.items[1].problem, EVREC_SYST_P_RESERVED, "case %zu", k);
        cr_assert_eq(g.items[1].offset, 37);
        cr_assert_eq(g.items[1].msg.reserved, cases[k].reserved);
        cr_assert_eq(g.items[2].problem, EVREC_SYST_OK); /* the boundary was kept */
        cr_assert_eq(g.items[2].offset, 83);
        cr_assert_eq(p->reserved, 1);
        got_free(&g);
    }
    free(p);
}

Test(syst_parse, unknown_type_skipped_by_len)
{
    stream_t s;
    make_stream(&s);
    s.b[0] = (uint8_t)((s.b[0] & 0xF0u) | 4u); /* type 4: reserved */
    got_t g = {0};
    evrec_syst_parser_t *p = malloc(sizeof *p);
    run(s.b, s.len, &g, p);
    cr_assert_eq(g.n, 4);
    cr_assert_eq(g.items[0].problem, EVREC_SYST_P_UNKNOWN_TYPE);
    cr_assert_eq(g.items[0].offset, 0);
    cr_assert_eq(g.items[1].problem, EVREC_SYST_OK);
    cr_assert_eq(g.items[1].offset, 37);
    cr_assert_eq(p->unknown_type, 1);
    got_free(&g);
    free(p);
}

/* A message without LEN loses the boundary: the parser looks for the next header with LEN (a
 * SHORT32 word does not count) and reports the bytes it skipped. */
Test(syst_parse, no_len_resynchronises)
{
    stream_t s;
    make_stream(&s);
    s.b[37 + 1] &= (uint8_t)~0x02u; /* LEN bit of the 2nd message */
    got_t g = {0};
    evrec_syst_parser_t *p = malloc(sizeof *p);
    for (int bytewise = 0; bytewise < 2; bytewise++) {
        evrec_syst_parser_init(p, EVREC_SYST_BINARY);
        for (size_t i = 0; i < s.len; i += bytewise ? 1u : s.len) {
            evrec_syst_parser_feed(p, s.b + i, bytewise ? 1u : s.len, got_fn, &g);
        }
        evrec_syst_parser_finish(p, got_fn, &g);
        cr_assert_eq(g.n, 4, "%zu items", g.n);
        cr_assert_eq(g.items[0].problem, EVREC_SYST_OK);
        cr_assert_eq(g.items[1].problem, EVREC_SYST_P_NO_LENGTH);
        cr_assert_eq(g.items[1].offset, 37);
        cr_assert_eq(g.items[2].problem, EVREC_SYST_P_SKIPPED);
        cr_assert_eq(g.items[2].offset, 41);
        cr_assert_eq(g.items[2].size, 46);
        cr_assert_eq(g.items[3].problem, EVREC_SYST_OK);
        cr_assert_eq(g.items[3].offset, 87);
        cr_assert_eq(p->no_length, 1);
        cr_assert_eq(p->skipped, 46);
        cr_assert_eq(p->good, 2);
        got_free(&g);
    }
    /* garbage after the last message: a header cut short, reported at finish */
    uint8_t tail[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    evrec_syst_parser_init(p, EVREC_SYST_BINARY);
    evrec_syst_parser_feed(p, s.b, s.len, got_fn, &g);
    evrec_syst_parser_feed(p, tail, sizeof tail, got_fn, &g);
    evrec_syst_parser_finish(p, got_fn, &g);
    cr_assert_eq(g.n, 5);
    cr_assert_eq(g.items[4].problem, EVREC_SYST_P_TRUNCATED);
    cr_assert_eq(g.items[4].offset, 121);
    got_free(&g);
    /* resynchronising to the end: the bytes after the last header are skipped */
    uint8_t nolen[12] = {0x02, 0x10, 0x00, 0x01, 'a', 'b', 'c', 0, 0x11, 0x22, 0x33, 0x44};
    run(nolen, sizeof nolen, &g, p);
    cr_assert_eq(g.n, 2);
    cr_assert_eq(g.items[0].problem, EVREC_SYST_P_NO_LENGTH);
    cr_assert_eq(g.items[1].problem, EVREC_SYST_P_SKIPPED);
    cr_assert_eq(g.items[1].offset, 4);
    cr_assert_eq(g.items[1].size, 8);
    got_free(&g);
    free(p);
}

Test(syst_parse, text_lines)
{
    const char *text = "# comment\n"
                       "SYS-T RAW DATA: 61452301\r\n"
                       "SYS-T RAW DATA: 614523\n"     /* SHORT32 of 3 bytes */
                       "SYS-T RAW DATA: 6145230\n"    /* odd */
                       "SYS-T RAW DATA: 61zz2301\n"   /* not hex */
                       "SYS-T RAW DATA: 43108001\n"   /* GUID bit, no GUID */
                       "SYS-T RAW DATA: 6145230100\n" /* one byte too many */
                       "other text\n"
                       "SYS-T RAW DATA: 8777665544332211"; /* no newline at the end */
    got_t g = {0};
    evrec_syst_parser_t *p = malloc(sizeof *p);
    evrec_syst_parser_init(p, EVREC_SYST_TEXT);
    evrec_syst_parser_feed(p, (const uint8_t *)text, strlen(text), got_fn, &g);
    evrec_syst_parser_finish(p, got_fn, &g);
    cr_assert_eq(g.n, 7, "%zu", g.n);
    cr_assert_eq(g.items[0].problem, EVREC_SYST_OK);
    cr_assert_eq(g.items[0].line, 2);
    cr_assert_eq(g.items[0].offset, 10);
    cr_assert_eq(g.items[1].problem, EVREC_SYST_P_TRUNCATED);
    cr_assert_eq(g.items[1].line, 3);
    cr_assert_eq(g.items[2].problem, EVREC_SYST_P_BAD_LINE);
    cr_assert_eq(g.items[2].line, 4);
    cr_assert_eq(g.items[3].problem, EVREC_SYST_P_BAD_LINE);
    cr_assert_eq(g.items[3].line, 5);
    cr_assert_eq(g.items[4].problem, EVREC_SYST_P_TRUNCATED);
    cr_assert_eq(g.items[4].line, 6);
    cr_assert_eq(g.items[5].problem, EVREC_SYST_P_LENGTH);
    cr_assert_eq(g.items[5].line, 7);
    cr_assert_eq(g.items[6].problem, EVREC_SYST_OK);
    cr_assert_eq(g.items[6].line, 9);
    cr_assert_eq(g.items[6].msg.short_value, 0x0112233445566778ull);
    cr_assert_eq(p->bad_lines, 2);
    cr_assert_eq(p->messages, 5);
    got_free(&g);
    free(p);
}

Test(syst_parse, detect_text)
{
    const char *t = "# x\nSYS-T RAW DATA: 61452301\n";
    cr_assert(evrec_syst_detect_text((const uint8_t *)t, strlen(t)));
    cr_assert_not(evrec_syst_detect_text((const uint8_t *)"SYS-T", 5));
    const uint8_t bin[] = {0x61, 0x45, 0x23, 0x01};
    cr_assert_not(evrec_syst_detect_text(bin, sizeof bin));
}

/* A message of every size up to the largest: the LEN split holds at the 64 KiB limit. */
Test(syst_parse, largest_payload)
{
    static uint8_t b[2 * (6 + 65535)];
    size_t len = 0;
    for (int k = 0; k < 2; k++) {
        uint32_t h = 0x06u | 0x200u; /* RAW, LEN */
        b[len++] = (uint8_t)h;
        b[len++] = (uint8_t)(h >> 8);
        b[len++] = 0;
        b[len++] = 0;
        b[len++] = 0xFF;
        b[len++] = 0xFF;
        memset(b + len, k, 65535);
        len += 65535;
    }
    got_t g = {0};
    evrec_syst_parser_t *p = malloc(sizeof *p);
    run(b, len, &g, p);
    cr_assert_eq(g.n, 2);
    cr_assert_eq(g.items[1].offset, 6 + 65535);
    cr_assert_eq(g.items[1].msg.payload_len, 65535);
    cr_assert_eq(p->good, 2);
    got_free(&g);
    free(p);
}

/* Found by fuzzing: a location format byte above 3 at the end of the message read 8 bytes of
 * address past it. Now the format is reported and only its 4 bytes are taken. */
Test(syst_parse, location_format_above_3)
{
    /* header: RAW, LOC; format 4, then 4 bytes; no more */
    const uint8_t b[] = {0x06, 0x01, 0x00, 0x00, 0x04, 0x11, 0x22, 0x33, 0x44};
    uint8_t *copy = malloc(sizeof b); /* exactly sized: an overread is seen under ASan */
    memcpy(copy, b, sizeof b);
    evrec_syst_msg_t m;
    const char *what = NULL;
    cr_assert_eq(evrec_syst_msg_parse(copy, sizeof b, 1, &m, &what), EVREC_SYST_P_LOCATION);
    cr_assert_str_eq(what, "a location format other than 0..3");
    cr_assert_eq(m.loc_format, 4);
    cr_assert_eq(m.loc_addr, 0);
    cr_assert_eq(m.payload_len, 0);
    free(copy);
}

/* While resynchronising, a word that looks like a header with CHK is taken only when its
 * message's CRC-32C matches: a false one inside the lost bytes is skipped with them. Here two:
 * `00 06 06 00` at 45 (BUILD, LEN 512: longer than the stream, so it is still pending at the
 * end and read again from its second byte) and the fake RAW message at 46 (a wrong CRC). */
Test(syst_parse, resync_candidate_confirmed_by_crc)
{
    stream_t s;
    make_stream(&s);
    uint8_t b[256];
    size_t len = 0;
    memcpy(b, s.b + 37, 46); /* the string message, LEN cleared */
    b[1] &= (uint8_t)~0x02u;
    len = 46;
    const uint8_t fake[12] = {0x06, 0x06, 0x00, 0x00, 0x02, 0x00, 0x11, 0x22, 0xDE, 0xAD, 0xBE, 0xEF};
    memcpy(b + len, fake, sizeof fake); /* RAW, LEN, CHK: a wrong CRC */
    len += sizeof fake;
    memcpy(b + len, s.b + 87, 34); /* RAW with a good CRC */
    len += 34;
    evrec_syst_parser_t *p = malloc(sizeof *p);
    for (size_t step = 1; step <= len; step += step < 8 ? 1u : len) {
        got_t g = {0};
        evrec_syst_parser_init(p, EVREC_SYST_BINARY);
        for (size_t i = 0; i < len; i += step) {
            evrec_syst_parser_feed(p, b + i, len - i < step ? len - i : step, got_fn, &g);
        }
        evrec_syst_parser_finish(p, got_fn, &g);
        cr_assert_eq(g.n, 3, "step %zu: %zu items", step, g.n);
        cr_assert_eq(g.items[0].problem, EVREC_SYST_P_NO_LENGTH);
        cr_assert_eq(g.items[1].problem, EVREC_SYST_P_SKIPPED);
        cr_assert_eq(g.items[1].offset, 4);
        cr_assert_eq(g.items[1].size, 54, "step %zu", step);
        cr_assert_eq(g.items[2].problem, EVREC_SYST_OK, "step %zu: %s", step, g.items[2].csv);
        cr_assert_eq(g.items[2].offset, 58);
        cr_assert_eq(g.items[2].size, 34);
        cr_assert_eq(p->checksum, 0);
        cr_assert_eq(p->offset, len);
        got_free(&g);
    }
    free(p);
}

/* Found by fuzzing: a whole buffer given as one message without LEN took more than 65535 bytes
 * as its payload. */
Test(syst_parse, payload_over_64k_in_one_message)
{
    size_t n = 4 + 65536;
    uint8_t *b = calloc(1, n);
    b[0] = 0x06; /* RAW, no LEN */
    evrec_syst_msg_t m;
    const char *what = NULL;
    cr_assert_eq(evrec_syst_msg_parse(b, n, 1, &m, &what), EVREC_SYST_P_LENGTH);
    cr_assert_str_eq(what, "a payload over the 65535 bytes of a SyS-T message");
    cr_assert_eq(evrec_syst_msg_parse(b, n - 1, 1, &m, &what), EVREC_SYST_OK);
    free(b);
}
