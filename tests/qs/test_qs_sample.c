/* SPDX-License-Identifier: Apache-2.0 */
/* The QS test vector (not evrec-made): our parser reports the same records, dictionaries, bad
 * checksum and gaps as QSPY 7.4.0 did (tests/data/qs/sample.qspy.txt), line for line. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "evrec/evrec_qs_decode.h"

#define SAMPLE_DIR EVREC_TEST_DATA "/qs/"

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    static uint8_t buf[1 << 16];
    *len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return buf;
}

typedef struct lines {
    char text[64][512];
    size_t n;
    evrec_qs_dict_t dict;
    evrec_qs_elem_t el[64][16];
    size_t el_n[64];
} lines_t;

static void on_item(void *ctx, const evrec_qs_item_t *it)
{
    lines_t *l = ctx;
    if (it->kind == EVREC_QS_ITEM_RECORD) {
        cr_assert_eq(evrec_qs_dict_apply(&l->dict, it->rec_id, it->payload, it->len), EVREC_OK);
    }
    char line[512];
    if (evrec_qs_format_item(&l->dict, it, line, sizeof line) == 0) {
        return;
    }
    cr_assert_lt(l->n, 64u);
    if (it->kind == EVREC_QS_ITEM_RECORD && it->rec_id >= 100) {
        uint32_t t;
        /* payload pointers die after the callback: keep only scalar values */
        cr_assert_eq(
            evrec_qs_parse_user(it->payload, it->len, &l->dict.cfg, &t, l->el[l->n], 16, &l->el_n[l->n], NULL),
            EVREC_OK);
    }
    strcpy(l->text[l->n++], line);
}

Test(qs_sample, same_lines_as_qspy_7_4)
{
    size_t len;
    const uint8_t *bin = read_file(SAMPLE_DIR "sample.bin", &len);
    cr_assert_eq(len, 401u);
    lines_t *l = calloc(1, sizeof *l);
    evrec_qs_dict_init(&l->dict);
    evrec_qs_parser_t p;
    evrec_qs_parser_init(&p);
    evrec_qs_parser_feed(&p, bin, len, on_item, l);

    FILE *f = fopen(SAMPLE_DIR "sample.qspy.txt", "r");
    cr_assert_not_null(f);
    char want[512];
    int in_body = 0;
    size_t k = 0;
    while (fgets(want, sizeof want, f)) {
        want[strcspn(want, "\r\n")] = 0;
        if (!in_body) {
            in_body = strstr(want, "File     Opened") != NULL;
            continue;
        }
        if (want[0] == 0) {
            break; /* the blank line before "QSPY Done" */
        }
        cr_assert_lt(k, l->n, "QSPY printed more lines; missing: %s", want);
        cr_expect_str_eq(l->text[k], want, "line %zu", k);
        k++;
    }
    fclose(f);
    cr_assert_eq(k, l->n, "we printed %zu lines, QSPY %zu", l->n, k);
    cr_assert_gt(k, 15u);

    cr_assert_eq(p.bad_checksums, 1u);
    cr_assert_eq(p.gaps, 2u);
    cr_assert_eq(p.frames_lost, 4u, "seq 14 (bad) and 16..18");
    cr_assert_eq(p.skipped + p.too_long + p.too_short, 0u);
    evrec_qs_dict_free(&l->dict);
    free(l);
}

Test(qs_sample, element_values)
{
    size_t len;
    const uint8_t *bin = read_file(SAMPLE_DIR "sample.bin", &len);
    lines_t *l = calloc(1, sizeof *l);
    evrec_qs_dict_init(&l->dict);
    evrec_qs_parser_t p;
    evrec_qs_parser_init(&p);
    evrec_qs_parser_feed(&p, bin, len, on_item, l);
    /* First application record: EVR_SENSOR 200 -1234 0xDEADBEEF 3.1416e+00 */
    size_t i = 0;
    while (i < l->n && strncmp(l->text[i], "0000001000", 10) != 0)
        i++;
    cr_assert_lt(i, l->n);
    cr_assert_eq(l->el_n[i], 4u);
    cr_assert_eq(l->el[i][0].type, EVREC_QS_T_U8);
    cr_assert_eq(l->el[i][0].u, 200u);
    cr_assert_eq(l->el[i][1].type, EVREC_QS_T_I16);
    cr_assert_eq(l->el[i][1].i, -1234);
    cr_assert_eq(l->el[i][2].fmt, 0xF5);
    cr_assert_eq(l->el[i][2].u, 0xDEADBEEFu);
    cr_assert_eq(l->el[i][3].type, EVREC_QS_T_F32);
    cr_assert_float_eq(l->el[i][3].f, 3.14159, 1e-4);
    evrec_qs_dict_free(&l->dict);
    free(l);
}
