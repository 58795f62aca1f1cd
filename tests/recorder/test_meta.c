/* SPDX-License-Identifier: Apache-2.0 */
/* Meta-info validation: every check of evrec_meta_validate() rejects a broken table. */
#include <criterion/criterion.h>
#include <string.h>

#include "evrec/evrec_meta.h"
#include "probe_meta.h"

/* A mutable copy of the probe tables that each test breaks in one place. */
typedef struct tables {
    evrec_enum_value_t values[4];
    evrec_enum_desc_t enums[2];
    evrec_field_desc_t control[3];
    evrec_field_desc_t probe[5];
    evrec_struct_desc_t structs[3];
    evrec_event_desc_t events[2];
    evrec_meta_t meta;
} tables_t;

static void make(tables_t *t)
{
    memcpy(t->values, probe_control_values, sizeof t->values);
    t->enums[0] = (evrec_enum_desc_t){"EventControlType", EVREC_KIND_ENUM_UINT8, 4, t->values, NULL};
    t->enums[1] = (evrec_enum_desc_t){"Small", EVREC_KIND_ENUM_UINT8, 0, NULL, NULL};
    memcpy(t->control, probe_control_fields, sizeof t->control);
    memcpy(t->probe, probe_fields, sizeof t->probe);
    t->structs[0] = (evrec_struct_desc_t){"EventControl", 3, t->control, 8};
    t->structs[1] = (evrec_struct_desc_t){"Probe", 5, t->probe, sizeof(probe_event_t)};
    t->structs[2] = (evrec_struct_desc_t){"Group", 0, NULL, 0};
    t->events[0] = (evrec_event_desc_t){0, 0};
    t->events[1] = (evrec_event_desc_t){1, 1};
    t->meta = (evrec_meta_t){0, 2, t->enums, 3, t->structs, 2, t->events, 0, NULL, NULL};
}

static void expect_bad(tables_t *t, const char *needle)
{
    const char *what = NULL;
    uint32_t idx = 0xFFFF;
    cr_assert_eq(evrec_meta_validate(&t->meta, &idx, &what), EVREC_E_META, "accepted; wanted '%s'", needle);
    cr_assert_not_null(what);
    cr_assert(strstr(what, needle) != NULL, "message '%s' lacks '%s'", what, needle);
    cr_assert_neq(idx, 0xFFFF);
}

Test(meta, good_tables_pass)
{
    tables_t t;
    make(&t);
    const char *what = NULL;
    cr_assert_eq(evrec_meta_validate(&t.meta, NULL, &what), EVREC_OK, "%s", what ? what : "");
    cr_assert_eq(evrec_meta_validate(NULL, NULL, NULL), EVREC_E_ARG);
    cr_assert_eq(evrec_meta_packed_size(&t.meta, 1), 16);
    cr_assert_eq(evrec_meta_packed_size(&t.meta, 9), 0);
}

Test(meta, event_zero_must_be_event_control)
{
    tables_t t;
    make(&t);
    t.events[0].struct_id = 1;
    expect_bad(&t, "EventControl");
    make(&t);
    t.values[2].name = "Halt";
    expect_bad(&t, "Start, Tick, Stop, End");
}

Test(meta, enum_checks)
{
    tables_t t;
    make(&t);
    t.values[1].value = 0;
    expect_bad(&t, "ascending");
    make(&t);
    evrec_enum_value_t wide[] = {{300, "TooWide", 0}};
    t.enums[1].value_count = 1;
    t.enums[1].values = wide;
    expect_bad(&t, "too wide");
    make(&t);
    t.enums[1].kind = EVREC_KIND_UINT8;
    expect_bad(&t, "kind");
    make(&t);
    t.values[0].marker = 16;
    expect_bad(&t, "marker");
}

Test(meta, runtime_range_checks)
{
    tables_t t;
    make(&t);
    const char *names[300];
    evrec_runtime_enum_t r;
    cr_assert_eq(evrec_runtime_enum_init(&r, 200, 300, 0, names), EVREC_OK);
    t.enums[1].runtime = &r;
    expect_bad(&t, "too wide");
    cr_assert_eq(evrec_runtime_enum_init(&r, 0, 10, 0, names), EVREC_OK);
    evrec_enum_value_t inside[] = {{5, "Five", 0}};
    t.enums[1].value_count = 1;
    t.enums[1].values = inside;
    expect_bad(&t, "run-time range");
}

Test(meta, struct_and_field_checks)
{
    tables_t t;
    make(&t);
    t.probe[2].kind = EVREC_KIND_ENUM_UINT16;
    t.probe[2].ref = 1; /* Small is enum_uint8 */
    expect_bad(&t, "width");
    make(&t);
    t.probe[2].kind = EVREC_KIND_ENUM_UINT8;
    t.probe[2].ref = 7;
    expect_bad(&t, "enum id out of range");
    make(&t);
    t.probe[4].offset = 14; /* u32 at 14 runs past 16 */
    expect_bad(&t, "outside");
    make(&t);
    t.probe[1].offset = 6;
    expect_bad(&t, "u16 id at 4");
    make(&t);
    t.structs[1].native_size = 300;
    expect_bad(&t, "256");
    make(&t);
    t.probe[3].kind = 9;
    expect_bad(&t, "unknown kind");
}

Test(meta, cyclic_struct_nesting_is_rejected)
{
    tables_t t;
    make(&t);
    evrec_field_desc_t self[] = {{"me", EVREC_KIND_STRUCT, 2, 0}};
    t.structs[2] = (evrec_struct_desc_t){"Group", 1, self, 0};
    expect_bad(&t, "cyclic"); /* size 0 holding itself: only the nesting check sees it */
    t.structs[2].native_size = 4;
    expect_bad(&t, "cyclic");
    /* Two structs of size 0 pointing at each other pass the size check; nesting catches them. */
    evrec_field_desc_t a_f[] = {{"b", EVREC_KIND_STRUCT, 1, 0}};
    t.structs[2] = (evrec_struct_desc_t){"Group", 1, a_f, 0};
    evrec_field_desc_t b_f[] = {
        {"t", EVREC_KIND_UINT32, 0, 0}, {"i", EVREC_KIND_UINT16, 0, 4}, {"g", EVREC_KIND_STRUCT, 2, 8}};
    t.structs[1] = (evrec_struct_desc_t){"Probe", 3, b_f, 16};
    const char *what = NULL;
    cr_assert_eq(evrec_meta_validate(&t.meta, NULL, &what), EVREC_E_META);
}
