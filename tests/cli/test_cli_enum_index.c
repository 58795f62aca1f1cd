/* SPDX-License-Identifier: Apache-2.0 */
/* The enum names of the decoders' dump-like lines (viewer-cli/wire/cli_events.c) come from an
 * index that belongs to one run. It used to be a static cache keyed by the meta-info's address,
 * kept for the process's life: a later run whose meta-info sat at the same address (a reader
 * freed, another opened) printed the names of the earlier one, through pointers into freed
 * tables. Two runs here use one evrec_meta_t object with different enum tables. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cli_events.h"
#include "reader_fixtures.h"

/* The line of an EventControl Start record (type = 0) through index `idx`. */
static char *start_line(cli_enum_index_t *idx, const evrec_meta_t *m)
{
    uint8_t native[8] = {0};
    native[6] = EVREC_CONTROL_START;
    cli_buf_t b = {0};
    cli_event_line(&b, idx, m, native, 0, 0, 0, 12, 0);
    char *s = strndup(b.p, b.len);
    cli_buf_free(&b);
    return s;
}

Test(cli_enum_index, a_run_never_sees_the_names_of_an_earlier_one)
{
    static evrec_meta_t m; /* one address for both runs */
    m = *fx_meta_init();

    /* Run 1: the fixture's tables (value 0 of EventControlType is Start). */
    cli_enum_index_t run1 = {0};
    char *l1 = start_line(&run1, &m);
    cr_assert(strstr(l1, "type=Start"), "%s", l1);
    cli_enum_index_free(&run1);

    /* Run 2: the same meta-info object, now with value 0 named Begin in fresh tables. */
    evrec_enum_desc_t *enums = malloc(m.enum_count * sizeof *enums);
    cr_assert_not_null(enums);
    memcpy(enums, m.enums, m.enum_count * sizeof *enums);
    uint16_t ce = m.structs[m.events[0].struct_id].fields[2].ref;
    evrec_enum_value_t *vals = malloc(enums[ce].value_count * sizeof *vals);
    cr_assert_not_null(vals);
    memcpy(vals, enums[ce].values, enums[ce].value_count * sizeof *vals);
    for (uint32_t i = 0; i < enums[ce].value_count; i++) {
        if (vals[i].value == EVREC_CONTROL_START) {
            vals[i].name = "Begin";
        }
    }
    enums[ce].values = vals;
    m.enums = enums;
    cli_enum_index_t run2 = {0};
    char *l2 = start_line(&run2, &m);
    cr_expect(strstr(l2, "type=Begin"), "the second run printed: %s", l2);
    cli_enum_index_free(&run2);
    free(l1);
    free(l2);
    free(vals);
    free(enums);
}
