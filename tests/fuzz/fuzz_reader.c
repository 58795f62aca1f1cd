/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the reader library (format/src) on one file in memory, container or bare CCore
 * stream. Every public read path runs on the input: open, file info, meta-info lookups (events,
 * enums, leaves with their paths, field display attributes), the TRACKS chunk (tracks, spans,
 * counters resolved to leaves), every record with every field view, marker, track and span leaf
 * values, time restoration with the file's clock and with a tick-derived one, the summary, the
 * time-ordered iteration, and the fast-forward to a record index. The harness only asserts what
 * the API promises (no crash, no sanitizer report, sticky errors stay set).
 * A container input runs twice: as it is, and with its header and chunk CRCs recomputed (else
 * almost every mutation would stop at the first CRC check and never reach the parsers).
 * The records are also read through a FILE* (a temporary file holding the input): a file source
 * reads chunk by chunk into a buffer that grows, where a memory source points into the input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_reader_order.h"
#include "evrec/evrec_reader_seek.h"
#include "fix_crcs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Keeps the compiler from dropping the reads. */
static volatile uint64_t sink;

static int visit(void *ctx, const evrec_field_view_t *f)
{
    uint64_t *acc = ctx;
    *acc += f->value + f->offset + f->depth + f->kind + f->index;
    *acc += strlen(f->path) + strlen(f->name);
    if (f->value_name) {
        *acc += strlen(f->value_name);
    }
    if (f->info) {
        *acc += f->info->display + (f->info->unit ? strlen(f->info->unit) : 0) +
                (f->info->description ? strlen(f->info->description) : 0);
    }
    return 0;
}

static void leaf_value(const evrec_reader_t *r, const evrec_record_t *rec, uint16_t leaf, uint64_t *acc)
{
    uint32_t v = 0;
    if (leaf != EVREC_TRACKS_NONE && evrec_reader_leaf_value(r, rec, leaf, &v) == EVREC_OK) {
        *acc += v;
    }
}

/* The LOSSES chunk of a recording made from a stream: every entry it says it has is there. */
static void stream_losses(const evrec_reader_t *r, uint64_t *acc)
{
    const evrec_stream_losses_t *l = evrec_reader_stream_losses(r);
    if (!l) {
        return;
    }
    for (uint32_t k = 0; k < l->lanes; k++) {
        *acc += l->lane[k].dropped + l->lane[k].drop_places + l->lane[k].lost_transport +
                l->lane[k].transport_gaps;
    }
    for (uint32_t i = 0; i < l->listed; i++) {
        *acc += l->range[i].offset + l->range[i].bytes;
    }
    *acc += l->lost + l->damaged_bytes + l->damaged_ranges + (uint64_t)l->final + (uint64_t)l->ended;
}

static void meta_lookups(const evrec_reader_t *r, uint64_t *acc)
{
    const evrec_file_info_t *info = evrec_reader_info(r);
    *acc += info->time_freq + info->recorded + info->dropped + info->schema_hash_computed;
    stream_losses(r, acc);
    const evrec_meta_t *m = evrec_reader_meta(r);
    if (!m) {
        return;
    }
    char path[128];
    for (uint32_t e = 0; e < m->event_count && e < 0x10000u; e++) {
        uint16_t id = (uint16_t)e;
        *acc += evrec_reader_event_size(r, id);
        const char *name = evrec_reader_event_name(r, id);
        *acc += name ? strlen(name) : 0;
        *acc += evrec_reader_event_track(r, id);
        for (uint32_t leaf = 0; leaf < 300; leaf++) {
            evrec_leaf_info_t li;
            if (evrec_reader_leaf(r, id, leaf, &li, path, sizeof path) != EVREC_OK) {
                break;
            }
            *acc += li.packed_offset + li.kind + strlen(path);
        }
        /* A path buffer too small must be cut, not overrun. */
        evrec_leaf_info_t li;
        char small[3];
        if (evrec_reader_leaf(r, id, 2, &li, small, sizeof small) == EVREC_OK) {
            *acc += strlen(small);
        }
    }
    for (uint32_t s = 0; s < m->struct_count && s < 0x10000u; s++) {
        for (uint32_t f = 0; f < m->structs[s].field_count && f < 300; f++) {
            const evrec_field_info_t *fi = evrec_reader_field_info(r, (uint16_t)s, f);
            if (fi) {
                *acc += fi->display;
            }
        }
    }
    for (uint32_t en = 0; en < m->enum_count && en < 0x10000u; en++) {
        *acc += (uint64_t)evrec_reader_enum_has_markers(r, (uint16_t)en);
        const evrec_enum_desc_t *d = &m->enums[en];
        for (uint32_t i = 0; i < d->value_count && i < 64; i++) {
            uint8_t marker = 0;
            const char *n = evrec_reader_enum_value(r, (uint16_t)en, d->values[i].value, &marker);
            *acc += marker + (n ? strlen(n) : 0);
        }
        uint8_t marker = 0;
        const char *n = evrec_reader_enum_value(r, (uint16_t)en, 0xFFFFFFFFu, &marker);
        *acc += n ? strlen(n) : 0;
    }
    const evrec_tracks_t *v = evrec_reader_tracks(r);
    *acc += evrec_reader_tracks_error(r)->status + evrec_reader_field_info_error(r)->status;
    if (v) {
        for (uint32_t i = 0; i < v->track_count; i++) {
            evrec_leaf_info_t li;
            if (evrec_reader_leaf(r, v->tracks[i].event_id, v->tracks[i].leaf, &li, NULL, 0) == EVREC_OK) {
                *acc += li.packed_offset;
            }
        }
        for (uint32_t i = 0; i < v->span_count; i++) {
            *acc += strlen(v->spans[i].name) + v->spans[i].begin.event_id + v->spans[i].end.key_leaf;
        }
        for (uint32_t i = 0; i < v->counter_count; i++) {
            *acc += v->counters[i].struct_id + v->counters[i].field_index;
        }
    }
}

static void per_record(const evrec_reader_t *r, const evrec_record_t *rec, uint64_t *acc)
{
    *acc += rec->t64 + rec->ns + rec->index + rec->size;
    if (evrec_reader_visit_fields(r, rec, visit, acc) != EVREC_OK) {
        *acc += 1;
    }
    *acc += evrec_reader_record_marker(r, rec);
    leaf_value(r, rec, evrec_reader_event_track(r, rec->id), acc);
    const evrec_tracks_t *v = evrec_reader_tracks(r);
    if (v) {
        for (uint32_t i = 0; i < v->span_count && i < 16; i++) {
            const evrec_span_desc_t *s = &v->spans[i];
            if (s->begin.event_id == rec->id) {
                leaf_value(r, rec, s->begin.match_leaf, acc);
                leaf_value(r, rec, s->begin.key_leaf, acc);
                leaf_value(r, rec, s->track_leaf, acc);
            }
            if (s->end.event_id == rec->id) {
                leaf_value(r, rec, s->end.match_leaf, acc);
                leaf_value(r, rec, s->end.key_leaf, acc);
            }
        }
    }
}

static void run(const uint8_t *data, size_t size);
static void run_file(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run(data, size);
    run_file(data, size);
    uint8_t *copy = malloc(size ? size : 1);
    if (copy) {
        memcpy(copy, data, size);
        if (fix_crcs(copy, size) && memcmp(copy, data, size) != 0) {
            run(copy, size);
            run_file(copy, size);
        }
        free(copy);
    }
    return 0;
}

static void run(const uint8_t *data, size_t size)
{
    uint64_t acc = 0;
    evrec_reader_t *r = NULL;
    evrec_record_t rec;

    /* 1. Open, look everything up, read every record with its fields. */
    evrec_status st = evrec_reader_open_memory(&r, data, size, NULL);
    if (r) {
        acc += evrec_reader_error(r)->status;
    }
    if (st == EVREC_OK) {
        meta_lookups(r, &acc);
        evrec_time_source src;
        acc += evrec_reader_time_freq(r, &src) + src;
        while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
            per_record(r, &rec, &acc);
        }
        const evrec_reader_error_t *e = evrec_reader_error(r);
        if (st != EVREC_E_END && e->status == EVREC_OK) {
            fprintf(stderr, "evrec_reader_next returned %d without a sticky error\n", (int)st);
            abort();
        }
        /* The sticky error stays. */
        if (evrec_reader_next(r, &rec) == EVREC_OK) {
            fprintf(stderr, "a record after the end of the stream\n");
            abort();
        }
    }
    evrec_reader_close(r);
    r = NULL;

    /* 2. The summary, with the clock derived from ticks at 1 kHz. */
    evrec_reader_options_t opt = {0, 1000};
    if (evrec_reader_open_memory(&r, data, size, &opt) == EVREC_OK) {
        evrec_reader_summary_t s;
        if (evrec_reader_summarize(r, &s) == EVREC_OK) {
            acc += s.records + s.ticks + s.last_ns + s.time_freq + s.damage.status;
            for (uint32_t i = 0; i < s.event_count; i++) {
                acc += s.event_counts[i];
            }
        }
    }
    evrec_reader_close(r);
    r = NULL;

    /* 3. Time order through a small window, after a fast-forward past the first records. */
    if (evrec_reader_open_memory(&r, data, size, NULL) == EVREC_OK) {
        if (evrec_reader_next_at(r, &rec, 3, 0) == EVREC_OK) {
            per_record(r, &rec, &acc);
        }
        evrec_order_t *o = NULL;
        if (evrec_order_create(&o, r, 4) == EVREC_OK) {
            uint64_t late = 0;
            while (evrec_order_next(o, &rec, &late) == EVREC_OK) {
                acc += rec.t64 + late;
            }
            const evrec_order_stats_t *os = evrec_order_stats(o);
            acc += os->records + os->late;
            evrec_order_close(o);
        }
    }
    evrec_reader_close(r);
    sink = acc;
}

/* Open, look up and read every record as in run(), through a FILE* source. */
static void run_file(const uint8_t *data, size_t size)
{
    FILE *f = tmpfile();
    if (!f) {
        return;
    }
    uint64_t acc = 0;
    if (fwrite(data, 1, size, f) == size && fflush(f) == 0 && fseek(f, 0, SEEK_SET) == 0) {
        evrec_reader_t *r = NULL;
        evrec_record_t rec;
        if (evrec_reader_open_file(&r, f, NULL) == EVREC_OK) {
            meta_lookups(r, &acc);
            while (evrec_reader_next(r, &rec) == EVREC_OK) {
                per_record(r, &rec, &acc);
            }
        }
        evrec_reader_close(r);
    }
    fclose(f);
    sink = acc;
}
