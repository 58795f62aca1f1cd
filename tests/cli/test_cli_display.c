/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec dump` honours the display attributes of the file's FIELD_INFO chunk: hex zero-padded
 * to the field's width, addresses as 0x + 8 lower-case digits, units after the number; --hex
 * applies to fields without a format; --raw ignores the attributes; a named enum value shows no
 * unit; a bad FIELD_INFO chunk still prints every record, then reports the damage (exit 1). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "reader_fixtures.h"

#define assert_has(hay, needle) cr_assert(strstr((hay), (needle)) != NULL, "missing <%s> in:\n%s", (needle), (hay))
#define assert_lacks(hay, needle)                                                                                 \
    cr_assert(strstr((hay), (needle)) == NULL, "unexpected <%s> in:\n%s", (needle), (hay))

static const evrec_field_info_t entries[] = {
    {FX_STRUCT_ALL, 2, EVREC_DISPLAY_DECIMAL, "ms", NULL},    /* a, u8 */
    {FX_STRUCT_ALL, 3, EVREC_DISPLAY_HEX, NULL, NULL},        /* b, u16 */
    {FX_STRUCT_ALL, 4, EVREC_DISPLAY_HEX, "bytes", "Count."}, /* c, u32 */
    {FX_STRUCT_ALL, 5, EVREC_DISPLAY_DEFAULT, "lux", NULL},   /* color, an enum */
    {FX_STRUCT_INNER2, 0, EVREC_DISPLAY_HEX, NULL, NULL},     /* in.q.x, u8 */
    {FX_STRUCT_INNER2, 1, EVREC_DISPLAY_ADDRESS, NULL, NULL}, /* in.q.y */
    {FX_STRUCT_SIMPLE, 2, EVREC_DISPLAY_DEFAULT, "km/h", NULL},
};

/* EvAll k=1 and EvSimple v=42 between Start and Stop, saved with the display table. */
static char *display_file(void)
{
    evrec_field_info_table_t table = {0, sizeof entries / sizeof entries[0], entries};
    evrec_meta_t m = *fx_meta_init();
    m.field_info = &table;
    static uint32_t buf[1024];
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_recorder_init(&rec, buf, sizeof buf);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, &m, 1000), EVREC_OK);
    fx_ev_all_t e;
    fx_expect_all(1, &e);
    evrec_record(&host, FX_EVENT_ALL, &e);
    fx_ev_simple_t *s = evrec_reserve(&host, sizeof *s);
    cr_assert_not_null(s);
    s->v = 42;
    evrec_commit(s, FX_EVENT_SIMPLE);
    evrec_host_stop(&host, NULL);
    fx_buf_t f = {0};
    evrec_sink_t sink = fx_sink(&f);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    char *path = fx_temp_file(f.p, f.len, ".evr");
    fx_buf_free(&f);
    return path;
}

Test(cli_display, formats_and_units)
{
    char *path = display_file();
    cli_run_t r = cli_run(EVREC_CLI_PATH, "dump", path, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* a: decimal with a unit; b: hex, 4 digits; c: hex, 8 digits, unit; in.q.x: 2 digits;
     * in.q.y: an address; in.p: no attribute, decimal. */
    assert_has(r.out, " a=7 ms b=0x001F c=0x9E3779B1 bytes color=Green level=");
    assert_has(r.out, " in.p=48878 in.q.x=0x02 in.q.y=0xfffffffe in.color=Blue");
    assert_has(r.out, " v=42 km/h");
    assert_lacks(r.out, "lux"); /* a named enum value takes no unit */
    cli_run_free(&r);

    /* --hex: the fields without a format of their own; `decimal` stays decimal. */
    r = cli_run(EVREC_CLI_PATH, "dump", "--hex", path, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, " a=7 ms b=0x001F c=0x9E3779B1 bytes");
    assert_has(r.out, " in.p=0xBEEE in.q.x=0x02 in.q.y=0xfffffffe");
    assert_has(r.out, " v=0x0000002A km/h");
    cli_run_free(&r);

    /* --raw: the numbers as stored, no units. */
    r = cli_run(EVREC_CLI_PATH, "dump", "--raw", path, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, " a=7 b=31 c=2654435761 color=Green");
    assert_has(r.out, " in.q.x=2 in.q.y=4294967294");
    assert_has(r.out, " v=42\n");
    assert_lacks(r.out, " ms");
    assert_lacks(r.out, "km/h");
    cli_run_free(&r);
    unlink(path);
    free(path);
}

/* A unit with a space is quoted, as other names with blanks are. */
Test(cli_display, unit_with_blanks_is_quoted)
{
    static const evrec_field_info_t one[] = {{FX_STRUCT_SIMPLE, 2, EVREC_DISPLAY_HEX, "per s", NULL}};
    evrec_field_info_table_t table = {0, 1, one};
    evrec_meta_t m = *fx_meta_init();
    m.field_info = &table;
    static uint32_t buf[256];
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_recorder_init(&rec, buf, sizeof buf);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, &m, 1000), EVREC_OK);
    fx_ev_simple_t *s = evrec_reserve(&host, sizeof *s);
    s->v = 0xABCDEF;
    evrec_commit(s, FX_EVENT_SIMPLE);
    evrec_host_stop(&host, NULL);
    fx_buf_t f = {0};
    evrec_sink_t sink = fx_sink(&f);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    char *path = fx_temp_file(f.p, f.len, ".evr");
    cli_run_t r = cli_run(EVREC_CLI_PATH, "dump", path, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, " v=0x00ABCDEF \"per s\"\n");
    cli_run_free(&r);
    unlink(path);
    free(path);
    fx_buf_free(&f);
}

/* A bad FIELD_INFO chunk: every record is printed, with the entries before the problem, then the
 * damage is reported with its offset and the exit status is 1. */
Test(cli_display, bad_field_info_prints_every_record_then_fails)
{
    char *good = display_file();
    size_t len;
    uint8_t *bytes = (uint8_t *)cli_read_file(good, &len);
    fx_chunk_t ch[16];
    size_t n = fx_chunks(bytes, len, ch, 16);
    size_t k = 0;
    while (k < n && ch[k].type != EVREC_CHUNK_FIELD_INFO) {
        k++;
    }
    cr_assert_lt(k, n, "no FIELD_INFO chunk");
    /* Entry 4 (Inner2.x) gets field index 9: the entries before it stay. Payload: count, then
     * entries of 13 bytes + strings: a "ms" (15), b (13), c "bytes" "Count." (24), color "lux"
     * (16), then Inner2.x. */
    size_t entry4 = (size_t)ch[k].off + 8 + 4 + 15 + 13 + 24 + 16;
    cr_assert_eq(bytes[entry4 + 3], 0);
    bytes[entry4 + 3] = 9;
    fx_buf_t out = {0};
    fx_buf_write(&out, bytes, (size_t)ch[k].off);
    fx_put_chunk(&out, EVREC_CHUNK_FIELD_INFO, bytes + ch[k].off + 8, ch[k].len);
    fx_buf_write(&out, bytes + ch[k].off + 8 + ch[k].len, len - (size_t)(ch[k].off + 8 + ch[k].len));
    char *bad = fx_temp_file(out.p, out.len, ".evr");
    cli_run_t r = cli_run(EVREC_CLI_PATH, "dump", bad, (const char *)NULL);
    cr_assert_eq(r.status, 1, "%s", r.err);
    assert_has(r.out, " a=7 ms b=0x001F c=0x9E3779B1 bytes");
    assert_has(r.out, " in.q.x=2 in.q.y=4294967294"); /* from the bad entry on: default display */
    assert_has(r.out, " v=42\n");
    assert_has(r.out, "Stop [Stop]");
    char expect[128];
    snprintf(expect, sizeof expect,
             "offset %llu: FIELD_INFO entry 4 at offset %llu: field index 9 of struct Inner2",
             (unsigned long long)entry4, (unsigned long long)entry4);
    assert_has(r.err, expect);
    cli_run_free(&r);
    unlink(good);
    unlink(bad);
    free(good);
    free(bad);
    free(bytes);
    fx_buf_free(&out);
}
