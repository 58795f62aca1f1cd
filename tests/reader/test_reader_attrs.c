/* SPDX-License-Identifier: Apache-2.0 */
/* The recording's attributes (ATTRS chunk, FORMAT.md section 2.6): set on the target
 * (evrec_attrs_set()), saved by evrec_save(), read back by evrec_reader_attr(); a file without
 * them reads as before; a malformed chunk is a damaged range at its offset that costs no record. */
#include <criterion/criterion.h>
#include <string.h>

#include "evrec/evrec_attrs.h"
#include "reader_fixtures.h"

#define N_EVENTS 400u

static void three_attrs(evrec_attrs_t *a)
{
    cr_assert_eq(evrec_attrs_init(a), EVREC_OK);
    cr_assert_eq(evrec_attrs_set(a, "device", "sn-00412-A7"), EVREC_OK);
    cr_assert_eq(evrec_attrs_set(a, "firmware", "1.0"), EVREC_OK);
    cr_assert_eq(evrec_attrs_set(a, "boot", "\xc3\xa9t\xc3\xa9-42"), EVREC_OK); /* UTF-8 */
    cr_assert_eq(evrec_attrs_set(a, "firmware", "1.1"), EVREC_OK);              /* replaced in place */
}

/* The chunks of `file` of type `type`: the first one's index in ch, or -1. */
static long find_chunk(const fx_buf_t *file, uint8_t type, fx_chunk_t *ch, size_t max, size_t *n)
{
    *n = fx_chunks(file->p, file->len, ch, max);
    for (size_t i = 0; i < *n; i++) {
        if (ch[i].type == type) {
            return (long)i;
        }
    }
    return -1;
}

Test(reader_attrs, save_then_read_gives_every_attribute_in_order)
{
    evrec_attrs_t a;
    three_attrs(&a);
    fx_buf_t file = {0};
    uint64_t recorded = fx_record_ex(N_EVENTS, 0, &a, &file);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, file.p, file.len, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_attr_count(r), 3);
    static const char *const keys[] = {"device", "firmware", "boot"};
    static const char *const values[] = {"sn-00412-A7", "1.1", "\xc3\xa9t\xc3\xa9-42"};
    for (uint32_t i = 0; i < 3; i++) {
        const char *k = NULL, *v = NULL;
        cr_assert_eq(evrec_reader_attr(r, i, &k, &v), EVREC_OK);
        cr_assert_str_eq(k, keys[i]);
        cr_assert_str_eq(v, values[i]);
        cr_assert_str_eq(evrec_reader_attr_find(r, keys[i]), values[i]);
    }
    const char *k, *v;
    cr_assert_eq(evrec_reader_attr(r, 3, &k, &v), EVREC_E_ARG);
    cr_assert_null(evrec_reader_attr_find(r, "site"));
    evrec_reader_close(r);
    fx_read_t all;
    fx_read_all(file.p, file.len, NULL, &all);
    cr_assert_eq(all.end, EVREC_E_END, "intact: %s", all.err.message);
    cr_assert_eq(all.count, recorded, "every record");
    fx_read_free(&all);
    fx_buf_free(&file);
}

Test(reader_attrs, a_file_without_attributes_has_no_chunk_and_reads_as_before)
{
    fx_buf_t plain = {0}, with = {0};
    evrec_attrs_t empty;
    cr_assert_eq(evrec_attrs_init(&empty), EVREC_OK);
    fx_record(N_EVENTS, 0, &plain);
    fx_record_ex(N_EVENTS, 0, &empty, &with);
    fx_chunk_t ch[512];
    size_t n;
    cr_assert_eq(find_chunk(&plain, EVREC_CHUNK_ATTRS, ch, 512, &n), -1, "no attributes: no ATTRS chunk");
    cr_assert_eq(find_chunk(&with, EVREC_CHUNK_ATTRS, ch, 512, &n), -1, "an empty set: no ATTRS chunk");
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, plain.p, plain.len, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_attr_count(r), 0);
    cr_assert_null(evrec_reader_attr_find(r, "device"));
    evrec_reader_close(r);
    cr_assert_eq(evrec_reader_attr_count(NULL), 0);
    fx_buf_free(&plain);
    fx_buf_free(&with);
}

Test(reader_attrs, the_chunk_follows_the_meta_chunks_and_precedes_the_stream)
{
    evrec_attrs_t a;
    three_attrs(&a);
    fx_buf_t file = {0};
    fx_record_ex(N_EVENTS, 0, &a, &file);
    fx_chunk_t ch[512];
    size_t n;
    long i = find_chunk(&file, EVREC_CHUNK_ATTRS, ch, 512, &n);
    cr_assert_geq(i, 0);
    for (size_t k = 0; k < (size_t)i; k++) {
        cr_assert_neq(ch[k].type, EVREC_CHUNK_STREAM, "before the first STREAM chunk");
    }
    for (size_t k = (size_t)i + 1; k < n; k++) {
        cr_assert_neq(ch[k].type, EVREC_CHUNK_ATTRS, "one ATTRS chunk");
    }
    /* FORMAT.md section 2.6's layout: count, then length-prefixed key and value */
    const uint8_t *p = file.p + ch[i].off + 8;
    cr_assert_eq(p[0], 3);
    cr_assert_eq(p[1], 6);
    cr_assert(memcmp(p + 2, "device", 6) == 0);
    cr_assert_eq(p[8], 11);
    cr_assert(memcmp(p + 9, "sn-00412-A7", 11) == 0);
    fx_buf_free(&file);
}

/* The file with its ATTRS payload replaced by `payload` (CRC made good): a writer's bug, not
 * transport damage. */
static void with_payload(const fx_buf_t *file, const void *payload, uint32_t len, fx_buf_t *out, uint64_t *at)
{
    fx_chunk_t ch[512];
    size_t n;
    long i = find_chunk(file, EVREC_CHUNK_ATTRS, ch, 512, &n);
    cr_assert_geq(i, 0);
    *at = ch[i].off;
    fx_buf_write(out, file->p, (size_t)ch[i].off);
    fx_put_chunk(out, EVREC_CHUNK_ATTRS, payload, len);
    size_t end = (size_t)ch[i].off + 8u + ch[i].len;
    fx_buf_write(out, file->p + end, file->len - end);
}

static void malformed_costs_no_record(const void *payload, uint32_t len, const char *expected)
{
    evrec_attrs_t a;
    three_attrs(&a);
    fx_buf_t file = {0}, bad = {0};
    uint64_t recorded = fx_record_ex(N_EVENTS, 0, &a, &file);
    uint64_t at;
    with_payload(&file, payload, len, &bad, &at);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, bad.p, bad.len, NULL), EVREC_OK, "the file opens");
    cr_assert_eq(evrec_reader_attr_count(r), 0, "the chunk is dropped whole");
    evrec_reader_close(r);
    fx_read_t all;
    fx_read_all(bad.p, bad.len, NULL, &all);
    cr_assert_eq(all.count, recorded, "every record is read");
    cr_assert_eq(all.err.status, EVREC_E_CORRUPT);
    cr_assert_eq(all.err.offset, at, "reported at the chunk: %llu", (unsigned long long)all.err.offset);
    char want[64];
    snprintf(want, sizeof want, "ATTRS chunk at offset %llu", (unsigned long long)at);
    cr_assert(strstr(all.err.message, want), "%s", all.err.message);
    cr_assert(strstr(all.err.message, expected), "names what was expected (%s): %s", expected, all.err.message);
    fx_read_free(&all);
    fx_buf_free(&file);
    fx_buf_free(&bad);
}

Test(reader_attrs, a_value_running_past_the_chunk)
{
    static const uint8_t p[] = {1, 3, 'f', 'o', 'o', 9, 'a', 'b'};
    malformed_costs_no_record(p, sizeof p, "a value within the chunk");
}

Test(reader_attrs, a_duplicate_key)
{
    static const uint8_t p[] = {2, 1, 'k', 1, 'a', 1, 'k', 1, 'b'};
    malformed_costs_no_record(p, sizeof p, "each key once");
}

Test(reader_attrs, a_value_that_is_not_utf8)
{
    static const uint8_t p[] = {1, 1, 'k', 2, 0xC0, 0x80}; /* an overlong NUL */
    malformed_costs_no_record(p, sizeof p, "UTF-8");
}

Test(reader_attrs, a_key_with_a_space_and_bytes_after_the_last_value)
{
    static const uint8_t sp[] = {1, 2, 'a', ' ', 0};
    malformed_costs_no_record(sp, sizeof sp, "a key of A-Z");
    static const uint8_t tail[] = {1, 1, 'k', 0, 'x'};
    malformed_costs_no_record(tail, sizeof tail, "nothing after the last attribute");
    static const uint8_t many[] = {65};
    malformed_costs_no_record(many, sizeof many, "a count of 0..64");
    malformed_costs_no_record(many, 0, "a count of 0..64");
}

Test(reader_attrs, set_checks_its_arguments_and_its_room)
{
    evrec_attrs_t a;
    cr_assert_eq(evrec_attrs_init(NULL), EVREC_E_ARG);
    cr_assert_eq(evrec_attrs_init(&a), EVREC_OK);
    cr_assert_eq(evrec_attrs_set(&a, "", "x"), EVREC_E_ARG);
    cr_assert_eq(evrec_attrs_set(&a, "a b", "x"), EVREC_E_ARG);
    cr_assert_eq(evrec_attrs_set(&a, NULL, "x"), EVREC_E_ARG);
    cr_assert_eq(evrec_attrs_set(&a, "k", NULL), EVREC_E_ARG);
    char key[EVREC_ATTRS_KEY_MAX + 2], value[EVREC_ATTRS_VALUE_MAX + 2];
    memset(key, 'k', sizeof key - 1);
    key[sizeof key - 1] = 0;
    memset(value, 'v', sizeof value - 1);
    value[sizeof value - 1] = 0;
    cr_assert_eq(evrec_attrs_set(&a, key, "x"), EVREC_E_ARG, "a key one byte too long");
    cr_assert_eq(evrec_attrs_set(&a, "k", value), EVREC_E_ARG, "a value one byte too long");
    key[sizeof key - 2] = 0;
    value[sizeof value - 2] = 0;
    cr_assert_eq(evrec_attrs_set(&a, key, value), EVREC_OK, "the longest key and value fit");
    cr_assert_eq(a.count, 1);
    for (unsigned i = 1; i < EVREC_ATTRS_MAX; i++) {
        char k[8];
        snprintf(k, sizeof k, "k%u", i);
        cr_assert_eq(evrec_attrs_set(&a, k, "v"), EVREC_OK);
    }
    cr_assert_eq(evrec_attrs_set(&a, "one-more", "v"), EVREC_E_NO_SPACE);
    cr_assert_eq(evrec_attrs_set(&a, "k1", "replaced"), EVREC_OK, "a known key still takes a value");
    cr_assert_eq(a.count, EVREC_ATTRS_MAX);
    cr_assert_str_eq(a.entry[1].value, "replaced");
}
