/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec syst-decode` end to end: the printer's vectors (tests/data/syst) with their problems on
 * stderr at their offsets; a demo recording through `evrec syst` (binary and text) and back to
 * the same records and times (`evrec dump` identical); a damaged stream keeps what is intact and
 * counts the losses as drops; an unknown catalog id is reported at its offset; bad usage exits 2.
 * Runs the built binaries. */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/cli_run.h"

#define DATA EVREC_TEST_DATA "/syst/"
#define evrec(...) cli_run(EVREC_CLI_PATH, __VA_ARGS__, (const char *)NULL)

#define assert_has(hay, needle) cr_assert(strstr((hay), (needle)) != NULL, "missing <%s> in:\n%s", (needle), (hay))

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++) {
        n += *s == '\n';
    }
    return n;
}

Test(cli_syst_decode, printer_vectors)
{
    cli_run_t r = evrec("syst-decode", DATA "frames.txt");
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert_eq(count_lines(r.out), 18, "%s", r.out); /* header + 17 messages */
    assert_has(r.out, "Decode Status,Payload,Type,Severity,Origin,Unit,Message TimeStamp,Context TimeStamp,"
                      "Location,Raw Length,Checksum\n");
    assert_has(r.out, "OK,\"x=3 y=yy z=-2\",STRING:PRINTF32,INFO,{8f6a3c2e-1b4d-4e5f-9a0b-112233445566},1,,"
                      "0x000000000000000F,,52,\n");
    assert_has(r.out, "OK,\"checksummed\",STRING:GENERIC,INFO,{8f6a3c2e-1b4d-4e5f-9a0b-112233445566},1,,"
                      "0x0000000000000003,,36,0xE5600792\n");
    assert_has(r.err, "frames.txt: offset 734 (line 12): message 5: CHECKSUM_ERROR: CRC-32C 0xE4600792 sent, "
                      "0xE5600792 computed");
    assert_has(r.err, "offset 1347 (line 24): message 11: LENGTH_MISMATCH");
    assert_has(r.err, "offset 1710 (line 30): message 14: BAD_PAYLOAD: a string without its terminating NUL");
    assert_has(r.err, "17 messages (14 good); 1 checksum errors");
    cli_run_free(&r);
    r = evrec("syst-decode", DATA "len_frames.txt");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(count_lines(r.out), 5);
    cli_run_free(&r);
}

/* The len_frames messages as one binary stream, cut inside the last message. */
Test(cli_syst_decode, binary_stream_cut)
{
    char *dir = cli_temp_dir("syst-cut");
    size_t tl;
    char *text = cli_read_file(DATA "len_frames.txt", &tl);
    cr_assert_not_null(text);
    uint8_t bin[256];
    size_t len = 0;
    for (const char *p = text; (p = strstr(p, "SYS-T RAW DATA: ")) != NULL;) {
        for (p += 16; p[0] && p[0] != '\n' && p[0] != '\r'; p += 2) {
            unsigned v;
            cr_assert_eq(sscanf(p, "%2x", &v), 1);
            bin[len++] = (uint8_t)v;
        }
    }
    free(text);
    cr_assert_eq(len, 121);
    char path[512];
    snprintf(path, sizeof path, "%s/cut.bin", dir);
    FILE *f = fopen(path, "wb");
    cr_assert_eq(fwrite(bin, 1, len - 5, f), len - 5);
    fclose(f);
    cli_run_t r = evrec("syst-decode", path);
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert_eq(count_lines(r.out), 5, "%s", r.out);
    assert_has(r.err, "cut.bin: offset 87: message 3: TOO_SHORT: the stream ends inside the message");
    assert_has(r.err, "116 bytes (binary), 4 messages (3 good); 0 checksum errors, 1 cut");
    cli_run_free(&r);
    /* --text on a binary stream: no message lines, nothing to decode, exit 0 */
    r = evrec("syst-decode", "--text", path);
    assert_has(r.err, "0 messages");
    cli_run_free(&r);
    free(dir);
}

Test(cli_syst_decode, usage)
{
    cli_run_t r = evrec("syst-decode", "--help");
    cr_assert_eq(r.status, 0);
    assert_has(r.out, "usage: evrec syst-decode");
    cli_run_free(&r);
    r = evrec("syst-decode", "-o", "x.evr", DATA "frames.txt");
    cr_assert_eq(r.status, 2);
    assert_has(r.err, "-o needs --meta or --schema");
    cli_run_free(&r);
    r = evrec("syst-decode", "--text", "--binary", DATA "frames.txt");
    cr_assert_eq(r.status, 2);
    cli_run_free(&r);
    r = evrec("syst-decode");
    cr_assert_eq(r.status, 2);
    cli_run_free(&r);
    r = evrec("syst-decode", DATA "no-such-file");
    cr_assert_eq(r.status, 1);
    assert_has(r.err, "no-such-file");
    cli_run_free(&r);
    r = evrec("--help");
    assert_has(r.out, "syst-decode");
    cli_run_free(&r);
}

#ifdef EVREC_DEMO_PATH

static char *file_in(const char *dir, const char *name)
{
    char *p = malloc(strlen(dir) + strlen(name) + 2);
    sprintf(p, "%s/%s", dir, name);
    return p;
}

/* `evrec dump` of a file, compared as text. */
static char *dump_of(const char *evr)
{
    cli_run_t r = evrec("dump", evr);
    cr_assert_eq(r.status, 0, "dump %s: %s", evr, r.err);
    char *out = r.out;
    r.out = NULL;
    cli_run_free(&r);
    return out;
}

Test(cli_syst_decode, demo_round_trip, .timeout = 120)
{
    char *dir = cli_temp_dir("syst-rt");
    char *evr = file_in(dir, "demo.evr"), *bin = file_in(dir, "demo.syst"), *txt = file_in(dir, "demo.txt");
    char *back = file_in(dir, "back.evr"), *back2 = file_in(dir, "back2.evr");
    cli_run_t r = cli_run(EVREC_DEMO_PATH, "--frames", "80", "--fps", "1000", "-o", evr, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    char *want = dump_of(evr);
    /* binary, with CRC and timestamps */
    r = evrec("syst", evr, "--timestamp", "--crc", "-o", bin);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    r = evrec("syst-decode", "--meta", evr, bin, "-o", back);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.err, "0 counted as dropped");
    cli_run_free(&r);
    char *got = dump_of(back);
    cr_assert_str_eq(got, want);
    free(got);
    /* text form, 64-bit ids, a GUID; the form is detected */
    r = evrec("syst", evr, "--timestamp", "--text", "--id64", "--guid", "{8F6A3C2E-1B4D-4E5F-9A0B-112233445566}",
              "-o", txt);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    r = evrec("syst-decode", "--meta", evr, txt, "-o", back2);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.err, "(text)");
    cli_run_free(&r);
    got = dump_of(back2);
    cr_assert_str_eq(got, want);
    free(got);
    /* without -o: dump-like lines, the same as dump's */
    r = evrec("syst-decode", "--meta", evr, bin);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.out, want);
    cli_run_free(&r);
    free(want);
    free(evr);
    free(bin);
    free(txt);
    free(back);
    free(back2);
    free(dir);
}

/* A damaged stream: one bad CRC, one unknown catalog id; the rest decodes, the two are dropped. */
Test(cli_syst_decode, demo_damaged, .timeout = 120)
{
    char *dir = cli_temp_dir("syst-bad");
    char *evr = file_in(dir, "demo.evr"), *bin = file_in(dir, "demo.syst"), *back = file_in(dir, "back.evr");
    char *nocrc = file_in(dir, "nocrc.syst");
    cli_run_t r = cli_run(EVREC_DEMO_PATH, "--frames", "40", "--fps", "1000", "-o", evr, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    r = evrec("syst", evr, "--timestamp", "--crc", "-o", bin);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    size_t len;
    char *b = cli_read_file(bin, &len);
    cr_assert_not_null(b);
    /* the CLOCK message (header 4, LEN 2, TS 8, 16, CRC 4 = 34 bytes), then catalog messages;
     * the 2nd catalog message starts after the 1st: its LEN is at 34 + 4 */
    cr_assert_eq((uint8_t)b[0] & 0x0F, 8);
    size_t first = 34, flen = 4u + 2u + 8u + ((uint8_t)b[first + 4] | (size_t)(uint8_t)b[first + 5] << 8) + 4u;
    size_t second = first + flen;
    b[second + 2 + 4 + 8 + 1] ^= 0x10; /* a byte of its catalog id: the CRC no longer matches */
    FILE *f = fopen(bin, "wb");
    cr_assert_eq(fwrite(b, 1, len, f), len);
    fclose(f);
    free(b);
    r = evrec("syst-decode", "--meta", evr, bin, "-o", back);
    cr_assert_eq(r.status, 1, "%s", r.err);
    char want[128];
    snprintf(want, sizeof want, "offset %zu: message 2: CHECKSUM_ERROR", second);
    assert_has(r.err, want);
    assert_has(r.err, "1 counted as dropped");
    cli_run_free(&r);
    r = evrec("info", back);
    assert_has(r.out, "\ndropped:     1 "); /* the header's drop count */
    cli_run_free(&r);
    /* without CRC the changed id is an unknown catalog id */
    r = evrec("syst", evr, "--timestamp", "-o", nocrc);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    b = cli_read_file(nocrc, &len);
    first = 30;
    cr_assert_eq((uint8_t)b[0] & 0x0F, 8);
    b[first + 2 + 4 + 8 + 1] ^= 0x10;
    f = fopen(nocrc, "wb");
    cr_assert_eq(fwrite(b, 1, len, f), len);
    fclose(f);
    free(b);
    r = evrec("syst-decode", "--meta", evr, nocrc, "-o", back);
    cr_assert_eq(r.status, 1, "%s", r.err);
    snprintf(want, sizeof want, "offset %zu: message 1: UNKNOWN_ID: catalog id 0x", first);
    assert_has(r.err, want);
    assert_has(r.err, "1 unknown catalog ids");
    cli_run_free(&r);
    free(evr);
    free(bin);
    free(back);
    free(nocrc);
    free(dir);
}

#endif /* EVREC_DEMO_PATH */
