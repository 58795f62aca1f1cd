/* SPDX-License-Identifier: Apache-2.0 */
/* The writer reproduces tests/data/ccore/ref.bin (written by CCore's own recorder) byte for
 * byte, both from a hand-made native buffer and by recording through the real host path. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"
#include "mem_sink.h"
#include "ref_meta.h"

#define REF_PATH EVREC_TEST_DATA "/ccore/ref.bin"

static const char *rt_names_store[20];
static evrec_runtime_enum_t obj_rt;
static const evrec_enum_desc_t ref_enums[] = REF_ENUMS(&obj_rt);
static const evrec_meta_t ref_meta = {1000000, 3, ref_enums, 4, ref_structs, 3, ref_events, 0, NULL, NULL};

static void setup_runtime(void)
{
    cr_assert_eq(evrec_runtime_enum_init(&obj_rt, 10, 30, EVREC_MARKER_PUSH, rt_names_store), EVREC_OK);
    uint32_t a, b;
    cr_assert_eq(evrec_runtime_enum_alloc(&obj_rt, "ObjA", &a), EVREC_OK);
    cr_assert_eq(evrec_runtime_enum_alloc(&obj_rt, "ObjB", &b), EVREC_OK);
    cr_assert_eq(a, 10);
    cr_assert_eq(b, 11);
}

static unsigned char *load_ref(size_t *len)
{
    unsigned char *ref = read_file(REF_PATH, len);
    cr_assert_not_null(ref, "cannot read %s", REF_PATH);
    cr_assert_eq(*len, 485);
    return ref;
}

static void assert_same(const mem_sink_t *m, const unsigned char *ref, size_t ref_len)
{
    size_t n = m->len < ref_len ? m->len : ref_len;
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(m->data[i], ref[i], "byte 0x%zx: wrote %02x, CCore wrote %02x", i, m->data[i], ref[i]);
    }
    cr_assert_eq(m->len, ref_len, "wrote %zu bytes, CCore wrote %zu", m->len, ref_len);
}

Test(ccore_compat, meta_is_valid)
{
    setup_runtime();
    const char *what = NULL;
    uint32_t idx = 99;
    cr_assert_eq(evrec_meta_validate(&ref_meta, &idx, &what), EVREC_OK, "%s (item %u)", what ? what : "", idx);
    cr_assert_eq(evrec_meta_packed_size(&ref_meta, REF_STRUCT_NEST), 13);
    cr_assert_eq(evrec_meta_packed_size(&ref_meta, REF_STRUCT_OBJ), 9);
    cr_assert_eq(evrec_meta_packed_size(&ref_meta, REF_STRUCT_CONTROL), 7);
}

Test(ccore_compat, writer_from_native_buffer_matches_ref_bin)
{
    setup_runtime();
    /* Native records as the recorder lays them out: slots of sizeof(struct). */
    union {
        uint32_t align;
        unsigned char b[256];
    } buf;
    size_t n = 0;
#define PUT(rec)                                                                                                  \
    do {                                                                                                          \
        memcpy(buf.b + n, &(rec), sizeof(rec));                                                                   \
        n += sizeof(rec);                                                                                         \
    } while (0)
    evrec_control_event_t start = {0xFFFFF000u, REF_EVENT_CONTROL, EVREC_CONTROL_START};
    obj_event_t lock = {0xFFFFF3E8u, REF_EVENT_OBJ, 10, 0};
    evrec_control_event_t tick = {0xFFFFF7D0u, REF_EVENT_CONTROL, EVREC_CONTROL_TICK};
    nest_event_t nest = {0xFFFFFBB8u, REF_EVENT_NEST, 11, {0x5A, 0x01020304u}};
    obj_event_t unlock = {0xFFFFFFA0u, REF_EVENT_OBJ, 10, 1};
    evrec_control_event_t stop = {0x00000388u, REF_EVENT_CONTROL, EVREC_CONTROL_STOP};
    PUT(start);
    PUT(lock);
    PUT(tick);
    PUT(nest);
    PUT(unlock);
    PUT(stop);
    mem_sink_t m = {0};
    evrec_sink_t sink = mem_sink_of(&m);
    cr_assert_eq(evrec_save_ccore(&ref_meta, 1000000, buf.b, n, &sink), EVREC_OK);
    size_t ref_len;
    unsigned char *ref = load_ref(&ref_len);
    assert_same(&m, ref, ref_len);
    free(ref);
    free(m.data);
}

/* Records the same session through evrec_host_start / reserve+commit / evrec_record / tick /
 * stop with the fake clock, then saves bare: the whole path produces CCore's bytes. */
Test(ccore_compat, recording_through_the_host_matches_ref_bin)
{
    setup_runtime();
    static uint32_t mem[1024];
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init(&rec, mem, sizeof mem), EVREC_OK);
    evrec_test_clock_step = 0;
    evrec_test_clock_now = 0xFFFFF000u;
    cr_assert_eq(evrec_host_start(&host, &rec, &ref_meta, 1000000), EVREC_OK);

    evrec_test_clock_now = 0xFFFFF3E8u;
    obj_event_t *e = evrec_reserve(&host, sizeof(obj_event_t));
    cr_assert_not_null(e);
    e->obj = 10;
    e->type = 0;
    evrec_commit(e, REF_EVENT_OBJ);

    evrec_test_clock_now = 0xFFFFF7D0u;
    cr_assert_eq(evrec_tick(&host), EVREC_OK);

    evrec_test_clock_now = 0xFFFFFBB8u;
    nest_event_t nest = {0, 0, 11, {0x5A, 0x01020304u}};
    cr_assert_eq(evrec_record(&host, REF_EVENT_NEST, &nest), EVREC_OK);

    evrec_test_clock_now = 0xFFFFFFA0u;
    obj_event_t unlock = {0, 0, 10, 1};
    cr_assert_eq(evrec_record(&host, REF_EVENT_OBJ, &unlock), EVREC_OK);

    evrec_test_clock_now = 0x00000388u;
    evrec_recorder_t *got = NULL;
    cr_assert_eq(evrec_host_stop(&host, &got), EVREC_OK);
    cr_assert_eq(got, &rec);
    cr_assert_eq(evrec_recorder_counts(&rec).recorded, 6);
    cr_assert_eq(evrec_recorder_counts(&rec).dropped, 0);

    mem_sink_t m = {0};
    evrec_sink_t sink = mem_sink_of(&m);
    evrec_save_options_t opt = {0, 1};
    cr_assert_eq(evrec_save_ex(&rec, &sink, &opt), EVREC_OK);
    size_t ref_len;
    unsigned char *ref = load_ref(&ref_len);
    assert_same(&m, ref, ref_len);
    free(ref);
    free(m.data);
}
