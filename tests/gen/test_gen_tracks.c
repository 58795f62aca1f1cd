/* SPDX-License-Identifier: Apache-2.0 */
/* Tracks, spans and counters end to end: the golden schema tests/gen/pass/full (its rtos.yaml
 * declares tracks and spans, full.yaml a track on a struct member, spans with field/value ends
 * and counters) -> generated tables -> recording -> evrec_save -> TRACKS chunk -> reader API; the
 * schema hash covers them; a damaged TRACKS chunk loses only itself. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "demo_events.h"
#include "evrec/evrec_hash.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_save.h"

extern uint32_t evrec_test_clock_now;
extern uint32_t evrec_test_clock_step;

#include "../common/mem_sink.h"

static _Alignas(8) unsigned char trace[4096];

/* Start, TaskSwitch, IsrEnter, IsrExit, Sent, Stop: saved into m. */
static void record(mem_t *m)
{
    static evrec_host_t host;
    static evrec_recorder_t rec;
    evrec_test_clock_now = 1000;
    evrec_test_clock_step = 10;
    cr_assert_eq(demo_runtime_init(), EVREC_OK);
    cr_assert_eq(evrec_recorder_init(&rec, trace, sizeof trace), EVREC_OK);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, &demo_meta, demo_meta.time_freq), EVREC_OK);
    demo_TaskId_t t;
    cr_assert_eq(demo_TaskId_alloc("main", &t), EVREC_OK);
    demo_record_TaskSwitch(&host, demo_TaskId_Idle, t, demo_TaskState_Ready);
    demo_record_IsrEnter(&host, 9);
    demo_record_IsrExit(&host, 9, 100);
    demo_record_Sent(&host, (demo_Packet_t){demo_Channel_Spi, 64, {5, 6}, 0}, 0x20000000u);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    evrec_sink_t sink = {mem_write, m};
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
}

/* Offset of the first chunk of `type` in a container file, or 0. */
static size_t find_chunk(const mem_t *m, uint8_t type, uint32_t *len)
{
    size_t off = EVREC_HEADER_SIZE;
    while (off + 8 <= m->len) {
        uint32_t w = ((uint32_t)m->data[off] << 24) | ((uint32_t)m->data[off + 1] << 16) |
                     ((uint32_t)m->data[off + 2] << 8) | m->data[off + 3];
        if ((w >> 24) == type) {
            *len = w & 0xFFFFFFu;
            return off;
        }
        if ((w >> 24) == EVREC_CHUNK_END) {
            return 0;
        }
        off += 8 + (w & 0xFFFFFFu);
    }
    return 0;
}

static void fix_crc(mem_t *m, size_t off, uint32_t len)
{
    uint32_t crc = evrec_crc32c(0, m->data + off, 4);
    crc = evrec_crc32c(crc, m->data + off + 8, len);
    m->data[off + 4] = (unsigned char)(crc >> 24);
    m->data[off + 5] = (unsigned char)(crc >> 16);
    m->data[off + 6] = (unsigned char)(crc >> 8);
    m->data[off + 7] = (unsigned char)crc;
}

Test(gen_tracks, generated_tables)
{
    const evrec_tracks_t *v = demo_meta.tracks;
    cr_assert_not_null(v);
    cr_assert_eq(evrec_tracks_validate(&demo_meta, NULL, NULL), EVREC_OK);
    /* TaskSwitch: to; IsrEnter: irq; IsrExit: irq (its class's); Sent: packet.channel. */
    cr_assert_eq(v->track_count, 4);
    cr_assert_eq(v->tracks[0].event_id, demo_ID_TaskSwitch);
    cr_assert_eq(v->tracks[0].leaf, 3);
    cr_assert_eq(v->tracks[2].event_id, demo_ID_IsrExit);
    cr_assert_eq(v->tracks[3].event_id, demo_ID_Sent);
    cr_assert_eq(v->tracks[3].leaf, 2);
    cr_assert_eq(v->span_count, 4);
    cr_assert_str_eq(v->spans[0].name, "TaskRunning");
    cr_assert_eq(v->spans[0].begin.key_leaf, 3); /* to */
    cr_assert_eq(v->spans[0].end.key_leaf, 2);   /* from */
    cr_assert_str_eq(v->spans[2].name, "Busy");
    cr_assert_eq(v->spans[2].begin.match_value, demo_Phase_Busy);
    cr_assert_eq(v->spans[2].end.match_value, demo_Phase_Done);
    cr_assert_eq(v->spans[3].track_leaf, 4); /* packet.origin.x */
    cr_assert_eq(v->counter_count, 2);
    evrec_leaf_info_t li;
    cr_assert_eq(evrec_meta_leaf(&demo_meta, demo_ID_Sent, 4, &li), EVREC_OK);
    cr_assert_eq(li.depth, 2);
    cr_assert_eq(li.native_offset, offsetof(demo_Sent_t, packet) + offsetof(demo_Packet_t, origin));
    cr_assert_eq(li.packed_offset, 6 + 2 + 1);
    cr_assert_eq(evrec_meta_leaf(&demo_meta, demo_ID_Sent, 8, &li), EVREC_E_BAD_ID);
}

Test(gen_tracks, reader_gets_them_with_leaves_resolved)
{
    mem_t m = {0};
    record(&m);
    uint32_t len = 0;
    cr_assert_neq(find_chunk(&m, EVREC_CHUNK_TRACKS, &len), 0, "no TRACKS chunk");
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, m.data, m.len, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_info(r)->schema_hash_computed, demo_SCHEMA_HASH);
    const evrec_tracks_t *v = evrec_reader_tracks(r);
    cr_assert_not_null(v);
    cr_assert_eq(evrec_reader_meta(r)->tracks, v);
    cr_assert_eq(v->track_count, demo_meta.tracks->track_count);
    cr_assert_eq(memcmp(v->tracks, demo_meta.tracks->tracks, v->track_count * sizeof *v->tracks), 0);
    cr_assert_eq(v->span_count, demo_meta.tracks->span_count);
    for (uint32_t i = 0; i < v->span_count; i++) {
        cr_assert_str_eq(v->spans[i].name, demo_meta.tracks->spans[i].name);
        cr_assert_eq(memcmp(&v->spans[i].begin, &demo_meta.tracks->spans[i].begin, sizeof v->spans[i].begin), 0);
        cr_assert_eq(memcmp(&v->spans[i].end, &demo_meta.tracks->spans[i].end, sizeof v->spans[i].end), 0);
        cr_assert_eq(v->spans[i].track_leaf, demo_meta.tracks->spans[i].track_leaf);
    }
    cr_assert_eq(memcmp(v->counters, demo_meta.tracks->counters, v->counter_count * sizeof *v->counters), 0);
    cr_assert_eq(evrec_reader_event_track(r, demo_ID_IsrExit), 2);
    cr_assert_eq(evrec_reader_event_track(r, demo_ID_Fault), EVREC_TRACKS_NONE);
    cr_assert_eq(evrec_reader_event_track(r, 999), EVREC_TRACKS_NONE);
    char path[64];
    evrec_leaf_info_t li;
    cr_assert_eq(evrec_reader_leaf(r, demo_ID_Sent, 4, &li, path, sizeof path), EVREC_OK);
    cr_assert_str_eq(path, "packet.origin.x");
    cr_assert_eq(li.kind, EVREC_KIND_UINT16);
    cr_assert_eq(evrec_reader_leaf(r, demo_ID_Sent, 2, &li, path, 8), EVREC_OK);
    cr_assert_str_eq(path, "packet"); /* cut to fit: whole components only */
    /* Lane values of the records. */
    static const struct {
        uint16_t id;
        uint32_t lane;
    } want[] = {
        {demo_ID_TaskSwitch, 1}, {demo_ID_IsrEnter, 9}, {demo_ID_IsrExit, 9}, {demo_ID_Sent, demo_Channel_Spi}};
    evrec_record_t rec;
    size_t k = 0;
    evrec_status st;
    while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        uint16_t leaf = evrec_reader_event_track(r, rec.id);
        if (leaf == EVREC_TRACKS_NONE) {
            continue;
        }
        uint32_t lane = 0;
        cr_assert_lt(k, 4);
        cr_assert_eq(rec.id, want[k].id);
        cr_assert_eq(evrec_reader_leaf_value(r, &rec, leaf, &lane), EVREC_OK);
        cr_assert_eq(lane, want[k].lane, "record %zu", k);
        k++;
    }
    cr_assert_eq(st, EVREC_E_END);
    cr_assert_eq(k, 4);
    cr_assert_eq(evrec_reader_tracks_error(r)->status, EVREC_OK);
    evrec_reader_close(r);
    free(m.data);
}

/* The hash covers every part of the track model; no track model (or an empty one) hashes as before. */
Test(gen_tracks, hash_covers_tracks_spans_counters)
{
    const evrec_tracks_t *v = demo_meta.tracks;
    evrec_track_desc_t tracks[8];
    evrec_span_desc_t spans[8];
    evrec_counter_desc_t counters[8];
    memcpy(tracks, v->tracks, v->track_count * sizeof *tracks);
    memcpy(spans, v->spans, v->span_count * sizeof *spans);
    memcpy(counters, v->counters, v->counter_count * sizeof *counters);
    evrec_tracks_t w = {v->track_count, tracks, v->span_count, spans, v->counter_count, counters};
    evrec_meta_t meta = demo_meta;
    meta.tracks = &w;
    cr_assert_eq(evrec_meta_schema_hash(&meta), demo_SCHEMA_HASH, "a copy hashes the same");
    tracks[0].leaf = 2; /* TaskSwitch on `from` */
    uint64_t h1 = evrec_meta_schema_hash(&meta);
    cr_assert_neq(h1, demo_SCHEMA_HASH);
    tracks[0].leaf = 3;
    spans[2].end.match_value = demo_Phase_Idle;
    uint64_t h2 = evrec_meta_schema_hash(&meta);
    cr_assert_neq(h2, demo_SCHEMA_HASH);
    spans[2].end.match_value = demo_Phase_Done;
    spans[0].name = "TaskOn";
    uint64_t h3 = evrec_meta_schema_hash(&meta);
    cr_assert_neq(h3, demo_SCHEMA_HASH);
    spans[0].name = v->spans[0].name;
    w.counter_count = 1;
    uint64_t h4 = evrec_meta_schema_hash(&meta);
    cr_assert_neq(h4, demo_SCHEMA_HASH);
    cr_assert(h1 != h2 && h2 != h3 && h3 != h4 && h1 != h4);
    /* No track model and an empty tracks: the hash of the tables alone (files without TRACKS). */
    meta.tracks = NULL;
    uint64_t bare = evrec_meta_schema_hash(&meta);
    evrec_tracks_t empty = {0, NULL, 0, NULL, 0, NULL};
    meta.tracks = &empty;
    cr_assert_eq(evrec_meta_schema_hash(&meta), bare);
    cr_assert_neq(bare, demo_SCHEMA_HASH);
}

/* Read a damaged file: every record, no track model, the problem at the end. */
static void expect_view_lost(mem_t *m, evrec_status want, const char *text)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, m->data, m->len, NULL), EVREC_OK, "%s",
                 r ? evrec_reader_error(r)->message : "");
    cr_assert_null(evrec_reader_tracks(r));
    cr_assert_null(evrec_reader_meta(r)->tracks);
    const evrec_reader_error_t *ve = evrec_reader_tracks_error(r);
    cr_assert_eq(ve->status, want, "%s", ve->message);
    cr_assert(strstr(ve->message, text) != NULL, "missing <%s> in <%s>", text, ve->message);
    cr_assert_neq(evrec_reader_info(r)->schema_hash_computed, demo_SCHEMA_HASH);
    cr_assert_eq(evrec_reader_event_track(r, demo_ID_IsrEnter), EVREC_TRACKS_NONE);
    evrec_record_t rec;
    int n = 0;
    evrec_status st;
    while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        n++;
    }
    cr_assert_eq(n, 6, "every record is returned");
    cr_assert_eq(st, want, "the problem is reported at the end: %s", evrec_reader_error(r)->message);
    evrec_reader_close(r);
}

Test(gen_tracks, damaged_chunk_loses_only_itself)
{
    mem_t m = {0};
    record(&m);
    uint32_t len = 0;
    size_t off = find_chunk(&m, EVREC_CHUNK_TRACKS, &len);
    cr_assert_neq(off, 0);
    unsigned char *saved = malloc(m.len);
    memcpy(saved, m.data, m.len);
    /* A flipped bit: the CRC fails. */
    m.data[off + 8 + 5] ^= 0x10;
    expect_view_lost(&m, EVREC_E_CHECKSUM, "TRACKS chunk at offset");
    /* A track count that the payload cannot hold (CRC made good). */
    memcpy(m.data, saved, m.len);
    m.data[off + 8] = 0x7F;
    fix_crc(&m, off, len);
    expect_view_lost(&m, EVREC_E_CORRUPT, "tracks need at least");
    /* A span name length past the end. */
    memcpy(m.data, saved, m.len);
    size_t spans = off + 8 + 4 + 4 * 4; /* 4 tracks */
    m.data[spans + 4] = 0x00;
    m.data[spans + 5] = 0x01;
    fix_crc(&m, off, len);
    expect_view_lost(&m, EVREC_E_CORRUPT, "span");
    /* An event id the meta-info lacks. */
    memcpy(m.data, saved, m.len);
    m.data[off + 8 + 4] = 0x12;
    fix_crc(&m, off, len);
    expect_view_lost(&m, EVREC_E_BAD_ID, "does not fit the meta-info");
    /* A changed counter that still fits the meta-info (Fault.count -> Fault.where) ... */
    memcpy(m.data, saved, m.len);
    m.data[off + 8 + len - 1] = 0x03;
    fix_crc(&m, off, len);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, m.data, m.len, NULL), EVREC_OK);
    cr_assert_not_null(evrec_reader_tracks(r), "... so the track model stays, with another hash");
    cr_assert_neq(evrec_reader_info(r)->schema_hash_computed, demo_SCHEMA_HASH);
    evrec_reader_close(r);
    free(saved);
    free(m.data);
}

Test(gen_tracks, no_view_chunk_reads_as_before)
{
    /* The same recording saved with tables that have no track model: no TRACKS chunk, no track model. */
    evrec_meta_t meta = demo_meta;
    meta.tracks = NULL;
    static evrec_host_t host;
    static evrec_recorder_t rec;
    cr_assert_eq(evrec_recorder_init(&rec, trace, sizeof trace), EVREC_OK);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, &meta, 1000), EVREC_OK);
    demo_record_IsrEnter(&host, 1);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    mem_t m = {0};
    evrec_sink_t sink = {mem_write, &m};
    evrec_save_options_t opt = {evrec_meta_schema_hash(&meta), 0};
    cr_assert_eq(evrec_save_ex(&rec, &sink, &opt), EVREC_OK);
    uint32_t len;
    cr_assert_eq(find_chunk(&m, EVREC_CHUNK_TRACKS, &len), 0);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, m.data, m.len, NULL), EVREC_OK);
    cr_assert_null(evrec_reader_tracks(r));
    cr_assert_eq(evrec_reader_tracks_error(r)->status, EVREC_OK);
    cr_assert_eq(evrec_reader_info(r)->schema_hash_computed, opt.schema_hash);
    evrec_record_t rc;
    evrec_status st;
    while ((st = evrec_reader_next(r, &rc)) == EVREC_OK) {
    }
    cr_assert_eq(st, EVREC_E_END, "%s", evrec_reader_error(r)->message);
    evrec_reader_close(r);
    free(m.data);
}

/* format/FORMAT.md section 6: the worked example's tables with the span `Recording`. */
Test(gen_tracks, format_md_worked_example)
{
    static const evrec_enum_desc_t enums[] = {
        {"EventControlType", EVREC_KIND_ENUM_UINT8, 4, evrec_control_enum_values, NULL}};
    static const evrec_struct_desc_t structs[] = {{"EventControl", 3, evrec_control_fields_enum0, 8}};
    static const evrec_event_desc_t events[] = {{0, 0}};
    static const evrec_span_desc_t spans[] = {{"Recording",
                                               {0, 2, EVREC_CONTROL_START, EVREC_TRACKS_NONE},
                                               {0, 2, EVREC_CONTROL_STOP, EVREC_TRACKS_NONE},
                                               EVREC_TRACKS_NONE}};
    static const evrec_tracks_t view = {0, NULL, 1, spans, 0, NULL};
    evrec_meta_t meta = {1000, 1, enums, 1, structs, 1, events, 0, NULL, NULL};
    cr_assert_eq(evrec_meta_schema_hash(&meta), UINT64_C(0x8147C50EA7259EC4),
                 "hash as before without a track model");
    meta.tracks = &view;
    cr_assert_eq(evrec_tracks_validate(&meta, NULL, NULL), EVREC_OK);
    cr_assert_eq(evrec_meta_schema_hash(&meta), UINT64_C(0xBC1B04FA0EB5EF38));
    meta.schema_hash = evrec_meta_schema_hash(&meta);
    static evrec_host_t host;
    static evrec_recorder_t rec;
    cr_assert_eq(evrec_recorder_init(&rec, trace, sizeof trace), EVREC_OK);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, &meta, 1000), EVREC_OK);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    mem_t m = {0};
    evrec_sink_t sink = {mem_write, &m};
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    static const unsigned char chunk[55] = {
        0x04, 0x00, 0x00, 0x2F, 0x89, 0xBC, 0xEB, 0x87, 0,   0,    0,    0,    0,    0, 0, 1, 0, 0, 0,
        9,    'R',  'e',  'c',  'o',  'r',  'd',  'i',  'n', 'g',  0,    0,    0,    2, 0, 0, 0, 0, 0xFF,
        0xFF, 0,    0,    0,    2,    0,    0,    0,    2,   0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
    cr_assert_geq(m.len, 0x30 + sizeof chunk);
    cr_assert_eq(memcmp(m.data + 0x30, chunk, sizeof chunk), 0, "the TRACKS chunk of FORMAT.md");
    cr_assert_eq(m.data[0x67], EVREC_CHUNK_SEQ, "version 1.3: the SEQ chunk of the STREAM chunk (section 2.4)");
    cr_assert_eq(m.data[0x7F], EVREC_CHUNK_STREAM);
    cr_assert_eq(m.len, 613u, "FORMAT.md: 509 - 7 + 55 + 56 bytes");
    free(m.data);
}

/* Every byte of the TRACKS payload changed (CRC made good): never a lost record, never a crash; the
 * view is either dropped with a reported problem or still fits the meta-info. */
Test(gen_tracks, any_byte_changed_loses_at_most_the_view)
{
    mem_t m = {0};
    record(&m);
    uint32_t len = 0;
    size_t off = find_chunk(&m, EVREC_CHUNK_TRACKS, &len);
    cr_assert_neq(off, 0);
    static const unsigned char flips[] = {0x01, 0x80, 0xFF};
    for (uint32_t i = 0; i < len; i++) {
        for (size_t f = 0; f < sizeof flips; f++) {
            m.data[off + 8 + i] ^= flips[f];
            fix_crc(&m, off, len);
            evrec_reader_t *r = NULL;
            cr_assert_eq(evrec_reader_open_memory(&r, m.data, m.len, NULL), EVREC_OK, "byte %u", i);
            const evrec_tracks_t *v = evrec_reader_tracks(r);
            if (v) {
                cr_assert_eq(evrec_tracks_validate(evrec_reader_meta(r), NULL, NULL), EVREC_OK);
                /* a changed counter no longer matches the COUNTER_SERIES chunk: that is reported,
                 * and every counter is one series */
                const evrec_reader_error_t *e = evrec_reader_tracks_error(r);
                cr_assert(e->status == EVREC_OK || strstr(e->message, "COUNTER_SERIES chunk"), "byte %u: %s", i,
                          e->message);
                for (uint32_t k = 0; e->status != EVREC_OK && k < v->counter_count; k++) {
                    cr_assert_eq(v->counters[k].series, 0);
                }
            } else {
                cr_assert_neq(evrec_reader_tracks_error(r)->status, EVREC_OK, "byte %u: dropped silently", i);
            }
            evrec_record_t rec;
            int n = 0;
            while (evrec_reader_next(r, &rec) == EVREC_OK) {
                n++;
            }
            cr_assert_eq(n, 6, "byte %u ^ 0x%02X: records lost", i, flips[f]);
            evrec_reader_close(r);
            m.data[off + 8 + i] ^= flips[f];
        }
    }
    free(m.data);
}

/* The counter series (schema `series: channel` on Packet.length): read back, and every byte of the
 * COUNTER_SERIES payload changed (CRC made good) or its CRC broken: the tracks, spans, counters
 * and records stay; the series either still fits or is dropped with a reported problem. */
static void expect_series_dropped_or_valid(const mem_t *m, const char *what, uint32_t i)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, m->data, m->len, NULL), EVREC_OK, "%s %u", what, i);
    const evrec_tracks_t *v = evrec_reader_tracks(r);
    cr_assert_not_null(v, "%s %u: the track model was lost with the series", what, i);
    cr_assert_eq(v->counter_count, 2);
    const evrec_reader_error_t *e = evrec_reader_tracks_error(r);
    if (e->status != EVREC_OK) {
        cr_assert(strstr(e->message, "COUNTER_SERIES chunk"), "%s %u: %s", what, i, e->message);
        cr_assert_eq(v->counters[0].series, 0);
        cr_assert_eq(v->counters[1].series, 0);
    } else {
        cr_assert_eq(evrec_tracks_validate(evrec_reader_meta(r), NULL, NULL), EVREC_OK);
    }
    evrec_record_t rec;
    int n = 0;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        n++;
    }
    cr_assert_eq(n, 6, "%s %u: records lost", what, i);
    evrec_reader_close(r);
}

Test(gen_tracks, counter_series_damage_loses_only_the_series)
{
    mem_t m = {0};
    record(&m);
    uint32_t len = 0;
    size_t off = find_chunk(&m, EVREC_CHUNK_COUNTER_SERIES, &len);
    cr_assert_neq(off, 0, "a COUNTER_SERIES chunk is written for `series: channel`");
    cr_assert_eq(len, 10u, "one entry: u32 count + 6 bytes");
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, m.data, m.len, NULL), EVREC_OK);
    const evrec_tracks_t *v = evrec_reader_tracks(r);
    const evrec_meta_t *meta = evrec_reader_meta(r);
    cr_assert_not_null(v);
    int found = 0;
    for (uint32_t k = 0; k < v->counter_count; k++) {
        const evrec_struct_desc_t *st = &meta->structs[v->counters[k].struct_id];
        if (strcmp(st->fields[v->counters[k].field_index].name, "length") == 0) {
            cr_assert_neq(v->counters[k].series, 0);
            cr_assert_str_eq(st->fields[v->counters[k].series - 1].name, "channel");
            found = 1;
        } else {
            cr_assert_eq(v->counters[k].series, 0, "Fault.count has no series field");
        }
    }
    cr_assert(found);
    evrec_reader_close(r);
    static const unsigned char flips[] = {0x01, 0x80, 0xFF};
    for (uint32_t i = 0; i < len; i++) {
        for (size_t f = 0; f < sizeof flips; f++) {
            m.data[off + 8 + i] ^= flips[f];
            fix_crc(&m, off, len);
            expect_series_dropped_or_valid(&m, "byte", i);
            m.data[off + 8 + i] ^= flips[f];
        }
    }
    fix_crc(&m, off, len);
    m.data[off + 4] ^= 0x10; /* the CRC itself */
    expect_series_dropped_or_valid(&m, "crc", 0);
    free(m.data);
}
