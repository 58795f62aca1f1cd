/* SPDX-License-Identifier: Apache-2.0 */
/* The INDEX chunk's offsets (FORMAT.md section 2.5) when a save writes every optional chunk
 * before the stream: RUNTIME_ENUMS, FIELD_INFO, TRACKS, COUNTER_SERIES and ATTRS. The golden
 * schema tests/gen/pass/full has a run-time enum, field display attributes, tracks and a counter
 * with series; the recording gets attributes. Every entry must name the SYNC chunk at its offset
 * (one chunk writer that wrote past the save's byte count shifted every entry). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "demo_events.h"
#include "evrec/evrec_attrs.h"
#include "evrec/evrec_save.h"

extern uint32_t evrec_test_clock_now;
extern uint32_t evrec_test_clock_step;

#include "../common/mem_sink.h"

static _Alignas(8) unsigned char trace[256 * 1024];

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
    return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* A recording of every kind of event of the schema, over several STREAM chunks, saved into m. */
static void record(mem_t *m)
{
    static evrec_host_t host;
    static evrec_recorder_t rec;
    static evrec_attrs_t attrs;
    evrec_test_clock_now = 1000;
    evrec_test_clock_step = 10;
    cr_assert_eq(demo_runtime_init(), EVREC_OK);
    cr_assert_eq(evrec_recorder_init(&rec, trace, sizeof trace), EVREC_OK);
    cr_assert_eq(evrec_attrs_init(&attrs), EVREC_OK);
    cr_assert_eq(evrec_attrs_set(&attrs, "device", "bench-7"), EVREC_OK);
    cr_assert_eq(evrec_recorder_set_attrs(&rec, &attrs), EVREC_OK);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, &demo_meta, demo_meta.time_freq), EVREC_OK);
    demo_TaskId_t t;
    cr_assert_eq(demo_TaskId_alloc("main", &t), EVREC_OK);
    demo_Channel_t ch;
    cr_assert_eq(demo_Channel_alloc("usb", &ch), EVREC_OK);
    for (uint32_t i = 0; i < 3000; i++) {
        demo_record_TaskSwitch(&host, demo_TaskId_Idle, t, demo_TaskState_Ready);
        demo_record_Sent(&host, (demo_Packet_t){ch, (uint8_t)i, {5, 6}, i}, 0x20000000u);
        demo_record_Fault(&host, demo_ErrorCode_Ok, i, (uint16_t)i, 3);
    }
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    evrec_sink_t sink = {mem_write, m};
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
}

/* Walks the chunks from the header to END: the chunk types seen before the first STREAM chunk
 * (a bit each), the INDEX chunk's offset (0: none). */
static uint32_t walk(const mem_t *m, size_t *index_off)
{
    uint32_t before = 0;
    int streaming = 0;
    size_t off = EVREC_HEADER_SIZE;
    *index_off = 0;
    while (off + EVREC_CHUNK_HEADER_SIZE <= m->len) {
        uint32_t w = be32(m->data + off);
        uint8_t type = (uint8_t)(w >> 24);
        if (type == EVREC_CHUNK_END) {
            break;
        }
        streaming |= type == EVREC_CHUNK_STREAM;
        before |= streaming ? 0u : 1u << type;
        if (type == EVREC_CHUNK_INDEX) {
            *index_off = off;
        }
        off += EVREC_CHUNK_HEADER_SIZE + (w & 0xFFFFFFu);
    }
    cr_assert_eq(off + EVREC_CHUNK_HEADER_SIZE, m->len, "the chunks end with END at the end of the file");
    return before;
}

Test(index_chunks, every_entry_names_a_sync_chunk_after_every_optional_chunk)
{
    mem_t m = {0};
    record(&m);
    size_t idx = 0;
    uint32_t before = walk(&m, &idx);
    static const uint8_t wanted[] = {EVREC_CHUNK_RUNTIME_ENUMS, EVREC_CHUNK_FIELD_INFO, EVREC_CHUNK_TRACKS,
                                     EVREC_CHUNK_COUNTER_SERIES, EVREC_CHUNK_ATTRS};
    for (size_t i = 0; i < sizeof wanted; i++) {
        cr_assert(before & 1u << wanted[i], "chunk type %u before the stream", wanted[i]);
    }
    cr_assert_neq(idx, 0, "an INDEX chunk");
    const uint8_t *p = m.data + idx + EVREC_CHUNK_HEADER_SIZE;
    uint32_t count = be32(p + 4);
    cr_assert_geq(count, 2, "the recording spans several SYNC chunks");
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *e = p + EVREC_INDEX_HEAD + (size_t)i * EVREC_INDEX_ENTRY;
        uint64_t off = be64(e);
        cr_assert_lt(off + EVREC_CHUNK_HEADER_SIZE + EVREC_SYNC_SIZE, idx, "entry %u: offset %llu", i,
                     (unsigned long long)off);
        const uint8_t *c = m.data + off;
        cr_assert_eq(c[0], EVREC_CHUNK_SYNC, "entry %u: offset %llu holds chunk type %u, not SYNC", i,
                     (unsigned long long)off, c[0]);
        cr_assert_eq(be64(c + EVREC_CHUNK_HEADER_SIZE), be64(e + 8), "entry %u: the SYNC chunk's record index", i);
    }
    free(m.data);
}
