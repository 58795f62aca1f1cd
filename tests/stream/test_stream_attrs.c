/* SPDX-License-Identifier: Apache-2.0 */
/* The recording's attributes through the stream (FORMAT.md sections 2.5 and 8.2): the target
 * sends them in its meta document, `evrec record` writes them into the file, and `--tag
 * key=value` adds attributes or replaces the target's values. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <sys/wait.h>

#include "evrec/evrec_attrs.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_stream.h"
#include "stream_harness.h"
#include "test_tmp.h"

static _Alignas(8) uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(16, 256)];

/* A stream of `n` probes from a target whose attributes are device=unit-7, firmware=1.0, written
 * to dir/cap.bin as the transport carried it. */
static void capture_file(const char *dir, uint32_t n)
{
    static evrec_attrs_t attrs;
    cr_assert_eq(evrec_attrs_init(&attrs), EVREC_OK);
    cr_assert_eq(evrec_attrs_set(&attrs, "device", "unit-7"), EVREC_OK);
    cr_assert_eq(evrec_attrs_set(&attrs, "firmware", "1.0"), EVREC_OK);
    evrec_stream_t s;
    evrec_host_t h;
    evrec_host_init(&h);
    cr_assert_eq(evrec_stream_init(&s, ring, sizeof ring, 256, 0), EVREC_OK);
    cr_assert_eq(evrec_recorder_set_attrs(&s.rec, &attrs), EVREC_OK);
    cr_assert_eq(evrec_stream_start(&s, &h, &probe_meta, 1000, 0x5EED0019u), EVREC_OK);
    capture_t c = {0};
    uint8_t buf[512];
    for (uint32_t i = 0; i < n; i++) {
        cr_assert(probe_record(&h, 1, i));
        capture_put(&c, buf, evrec_stream_drain(&s, buf, sizeof buf));
    }
    cr_assert_eq(evrec_host_stop(&h, NULL), EVREC_OK);
    for (int guard = 0; !evrec_stream_done(&s) && guard < 1000; guard++) {
        capture_put(&c, buf, evrec_stream_drain(&s, buf, sizeof buf));
    }
    char cap[TEST_TMP_PATH];
    snprintf(cap, sizeof cap, "%s/cap.bin", dir);
    FILE *f = fopen(cap, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(c.data, 1, c.len, f), c.len);
    fclose(f);
    free(c.data);
}

static int run_record(const char *dir, const char *tags, const char *name)
{
    char cmd[4 * TEST_TMP_PATH];
    snprintf(cmd, sizeof cmd, "'%s' record -q %s '%s/cap.bin' -o '%s/%s' 2>'%s/stderr.txt'", EVREC_CLI, tags, dir,
             dir, name, dir);
    int status = system(cmd);
    cr_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* The attributes of dir/name as "k=v;k=v;", and its record count. */
static void attrs_of(const char *dir, const char *name, char *out, size_t cap, uint64_t *records)
{
    char path[TEST_TMP_PATH];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK, "%s opens", path);
    out[0] = 0;
    for (uint32_t i = 0; i < evrec_reader_attr_count(r); i++) {
        const char *k, *v;
        cr_assert_eq(evrec_reader_attr(r, i, &k, &v), EVREC_OK);
        snprintf(out + strlen(out), cap - strlen(out), "%s=%s;", k, v);
    }
    evrec_record_t rec;
    *records = 0;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        (*records)++;
    }
    cr_assert_eq(evrec_reader_error(r)->status, EVREC_OK, "%s", evrec_reader_error(r)->message);
    evrec_reader_close(r);
}

Test(stream_attrs, record_writes_the_targets_attributes)
{
    char *dir = test_tmp_dir("stream_attrs");
    capture_file(dir, 300);
    cr_assert_eq(run_record(dir, "", "plain.evr"), 0);
    char got[512];
    uint64_t n;
    attrs_of(dir, "plain.evr", got, sizeof got, &n);
    cr_assert_str_eq(got, "device=unit-7;firmware=1.0;");
    cr_assert_eq(n, 302, "Start, 300 probes, Stop");
}

Test(stream_attrs, tags_add_and_replace_attributes)
{
    char *dir = test_tmp_dir("stream_attrs");
    capture_file(dir, 300);
    cr_assert_eq(run_record(dir, "--tag firmware=1.1 --tag site=lab-2 --tag boot=", "tagged.evr"), 0);
    char got[512];
    uint64_t n;
    attrs_of(dir, "tagged.evr", got, sizeof got, &n);
    cr_assert_str_eq(got, "device=unit-7;firmware=1.1;site=lab-2;boot=;");
    cr_assert_eq(n, 302, "Start, 300 probes, Stop");
}

Test(stream_attrs, a_bad_tag_is_bad_usage)
{
    char *dir = test_tmp_dir("stream_attrs");
    capture_file(dir, 10);
    cr_assert_eq(run_record(dir, "--tag 'bad key=1'", "a.evr"), 2);
    cr_assert_eq(run_record(dir, "--tag novalue", "b.evr"), 2);
}

Test(stream_attrs, doc_tag_keeps_the_other_chunks)
{
    static const char *const tags[] = {"fw=2"};
    /* no ATTRS chunk in the document: the tags make one; an invalid document is refused */
    uint8_t *out = NULL;
    size_t size = 0;
    cr_assert_eq(evrec_srx_doc_tag((const uint8_t *)"\0\0\0\1x", 5, tags, 1, &out, &size), EVREC_E_CORRUPT);
    cr_assert_null(evrec_srx_tag_error("fw=2"));
    cr_assert_not_null(evrec_srx_tag_error("=2"));
    cr_assert_not_null(evrec_srx_tag_error("fw"));
    cr_assert_not_null(evrec_srx_tag_error("fw=\xff"));
}
