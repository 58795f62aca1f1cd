/* SPDX-License-Identifier: Apache-2.0 */
/* The pipeline sink that turns one recording into rows of records, spans, counters and losses
 * (columns: clickhouse_schema.c, docs/FLEET.md). Spans come from evrec's one span pairing
 * (evrec_spans_t), fed as `evrec stats` feeds it (a damage loss marks the next record as the
 * first after a gap), so that the spans table holds the very spans `evrec stats` measures
 * (flags 0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clickhouse.h"
#include "evrec/evrec_analysis.h"
#include "export.h"

/* The counter leaves of one event type (built on its first record). */
typedef struct ctr_leaf {
    uint32_t off, series_off;
    uint8_t width, series_width; /* series_width 0: one series */
    char path[128], series_path[128];
} ctr_leaf_t;

typedef struct ch_sink {
    ch_sink_user_t *u;
    evrec_reader_t *r;
    const evrec_tracks_t *tracks;
    export_layout_t layout;
    evrec_spans_t *spans;
    ctr_leaf_t **ctr;    /* per event id: its counter leaves (NULL: not built) */
    uint32_t *ctr_count; /* per event id */
    uint8_t *ctr_built;  /* per event id */
    int gap_pending;
    uint64_t last_ns;
} ch_sink_t;

static const char *enum_label(const evrec_reader_t *r, const export_leaf_t *l, uint32_t v)
{
    const char *s = export_kind_is_enum(l->kind) ? evrec_reader_enum_value(r, l->enum_id, v, NULL) : NULL;
    return s ? s : "";
}

/* One records row: the fields as three parallel arrays (names, values, enum labels). */
static int put_record(ch_sink_t *k, const evrec_record_t *rec)
{
    ch_buf_t *b = &k->u->batch->t[CH_RECORDS];
    int built = export_layout_event(&k->layout, rec->id);
    if (built < 0) {
        return -1;
    }
    ch_row_head(b, k->u->recording_id, &k->u->tags);
    ch_u64(b, rec->index);
    ch_u64(b, rec->ns);
    ch_u64(b, rec->t64);
    ch_str(b, evrec_reader_event_name(k->r, rec->id));
    ch_u16(b, rec->lane);
    ch_u8(b, rec->gap != 0);
    ch_u8(b, rec->unverified != 0);
    const export_leaf_t *lv = k->layout.leaves[rec->id];
    uint32_t n = k->layout.leaf_count[rec->id], first = 2;
    while (n > first && lv[n - 1].offset + lv[n - 1].width > rec->size) {
        n--; /* cannot happen: the reader checks each record's size */
    }
    uint32_t fields = n > first ? n - first : 0;
    ch_varuint(b, fields);
    for (uint32_t i = first; i < n; i++) {
        ch_str(b, lv[i].path);
    }
    ch_varuint(b, fields);
    for (uint32_t i = first; i < n; i++) {
        ch_u32(b, export_leaf_value(&lv[i], rec->data));
    }
    ch_varuint(b, fields);
    for (uint32_t i = first; i < n; i++) {
        ch_str(b, enum_label(k->r, &lv[i], export_leaf_value(&lv[i], rec->data)));
    }
    return 0;
}

/* The enum name of a span's track value, or "". */
static const char *track_name(const ch_sink_t *k, const evrec_span_t *s)
{
    uint16_t leaf = evrec_spans_track_leaf(k->r, s->span);
    evrec_leaf_info_t li;
    if (!s->has_track || leaf == EVREC_TRACKS_NONE ||
        evrec_reader_leaf(k->r, k->tracks->spans[s->span].begin.event_id, leaf, &li, NULL, 0) != EVREC_OK ||
        li.kind < EVREC_KIND_ENUM_UINT8 || li.kind > EVREC_KIND_ENUM_UINT32) {
        return "";
    }
    const char *n = evrec_reader_enum_value(k->r, li.ref, s->track, NULL);
    return n ? n : "";
}

static void on_span(void *ctx, const evrec_span_t *s)
{
    ch_sink_t *k = ctx;
    ch_buf_t *b = &k->u->batch->t[CH_SPANS];
    if (!k->tracks || s->span >= k->tracks->span_count) {
        return;
    }
    ch_row_head(b, k->u->recording_id, &k->u->tags);
    ch_u64(b, s->begin_ns);
    ch_u64(b, s->end_ns - s->begin_ns);
    ch_str(b, k->tracks->spans[s->span].name);
    ch_u32(b, s->has_track ? s->track : 0);
    ch_u8(b, s->has_track != 0);
    ch_str(b, track_name(k, s));
    ch_u32(b, s->key);
    ch_u32(b, s->depth);
    ch_u64(b, s->begin_index);
    ch_u64(b, s->end_index);
    ch_u64(b, s->begin_t64);
    ch_u64(b, s->end_t64 - s->begin_t64);
    ch_u32(b, s->flags);
}

/* ---- counters: the schema's `counter: true` leaves of each event type ---- */

static int counter_leaf(ch_sink_t *k, uint16_t e, const evrec_leaf_info_t *li, const char *path,
                        const evrec_counter_desc_t *d)
{
    ctr_leaf_t *n = realloc(k->ctr[e], (k->ctr_count[e] + 1u) * sizeof *n);
    if (!n) {
        return -1;
    }
    k->ctr[e] = n;
    n = &n[k->ctr_count[e]++];
    memset(n, 0, sizeof *n);
    snprintf(n->path, sizeof n->path, "%s", path);
    n->off = li->packed_offset;
    n->width = (uint8_t)evrec_kind_width(li->kind);
    evrec_leaf_info_t s;
    for (uint32_t leaf = 2;
         d->series && evrec_reader_leaf(k->r, e, leaf, &s, n->series_path, sizeof n->series_path) == EVREC_OK;
         leaf++) {
        if (s.struct_id == li->struct_id && s.field_index == d->series - 1u && s.depth == li->depth &&
            memcmp(s.path_field, li->path_field, li->depth * sizeof s.path_field[0]) == 0) {
            n->series_off = s.packed_offset;
            n->series_width = (uint8_t)evrec_kind_width(s.kind);
            return 0;
        }
    }
    n->series_path[0] = 0;
    return 0;
}

static int counter_event(ch_sink_t *k, uint16_t e)
{
    evrec_leaf_info_t li;
    char path[128];
    k->ctr_built[e] = 1;
    for (uint32_t leaf = 2; evrec_reader_leaf(k->r, e, leaf, &li, path, sizeof path) == EVREC_OK; leaf++) {
        for (uint32_t c = 0; k->tracks && c < k->tracks->counter_count; c++) {
            const evrec_counter_desc_t *d = &k->tracks->counters[c];
            if (d->struct_id == li.struct_id && d->field_index == li.field_index &&
                counter_leaf(k, e, &li, path, d) != 0) {
                return -1;
            }
        }
    }
    return 0;
}

static int put_counters(ch_sink_t *k, const evrec_record_t *rec)
{
    if (!k->ctr_built[rec->id] && counter_event(k, rec->id) != 0) {
        return -1;
    }
    ch_buf_t *b = &k->u->batch->t[CH_COUNTERS];
    for (uint32_t i = 0; i < k->ctr_count[rec->id]; i++) {
        const ctr_leaf_t *l = &k->ctr[rec->id][i];
        if (l->off + l->width > rec->size || l->series_off + l->series_width > rec->size) {
            continue;
        }
        ch_row_head(b, k->u->recording_id, &k->u->tags);
        ch_u64(b, rec->ns);
        ch_u64(b, rec->index);
        ch_str(b, evrec_reader_event_name(k->r, rec->id));
        ch_str(b, l->path);
        ch_str(b, l->series_path);
        ch_u32(b, l->series_width ? cli_be_field(rec->data + l->series_off, l->series_width) : 0);
        ch_u32(b, cli_be_field(rec->data + l->off, l->width));
        ch_u64(b, rec->t64);
    }
    return 0;
}

/* ---- the sink's callbacks ---- */

static void sink_free(ch_sink_t *k)
{
    if (!k) {
        return;
    }
    for (uint32_t e = 0; k->ctr && e < k->layout.event_count; e++) {
        free(k->ctr[e]);
    }
    free(k->ctr);
    free(k->ctr_count);
    free(k->ctr_built);
    evrec_spans_free(k->spans);
    export_layout_free(&k->layout);
    free(k);
}

static void *ch_begin(void *user, export_out_t *out, const cli_sink_info_t *info)
{
    (void)out;
    ch_sink_t *k = calloc(1, sizeof *k);
    if (!k || export_layout_build(&k->layout, info->meta) != 0) {
        free(k);
        cli_error("out of memory");
        return NULL;
    }
    k->u = user;
    k->r = info->reader;
    k->tracks = evrec_reader_tracks(info->reader);
    uint32_t n = info->meta->event_count ? info->meta->event_count : 1;
    k->ctr = calloc(n, sizeof *k->ctr);
    k->ctr_count = calloc(n, sizeof *k->ctr_count);
    k->ctr_built = calloc(n, 1);
    if (!k->ctr || !k->ctr_count || !k->ctr_built ||
        evrec_spans_create(&k->spans, info->reader, on_span, k) == EVREC_E_NOMEM) {
        sink_free(k);
        cli_error("out of memory");
        return NULL;
    }
    ch_file_tags(&k->u->tags, k->u->given, info->reader);
    k->u->time_freq = info->time_freq;
    k->u->schema_hash = info->info->schema_hash_computed;
    return k;
}

/* The batch is over its size: the data tables go now (the recordings row waits for the end). */
static int maybe_flush(ch_sink_t *k)
{
    size_t n = 0;
    for (int t = 0; t < CH_RECORDINGS; t++) {
        n += k->u->batch->t[t].len;
    }
    return n >= k->u->flush_at && k->u->flush && k->u->flush(k->u->flush_ctx) != 0 ? -1 : 0;
}

static int ch_record(void *state, const evrec_record_t *rec, uint64_t late)
{
    ch_sink_t *k = state;
    (void)late;
    evrec_record_t r = *rec;
    r.gap |= (uint8_t)k->gap_pending; /* as `evrec stats`: the first record after lost ones */
    k->gap_pending = 0;
    k->last_ns = rec->ns;
    if (put_record(k, &r) != 0 || put_counters(k, &r) != 0) {
        cli_error("out of memory");
        return CLI_SINK_REPORTED;
    }
    if (k->spans) {
        (void)evrec_spans_add(k->spans, &r); /* a begin not opened (memory) is counted there */
    }
    return maybe_flush(k) != 0 ? CLI_SINK_REPORTED : CLI_SINK_GO_ON;
}

static int ch_loss(void *state, const cli_loss_t *l)
{
    ch_sink_t *k = state;
    ch_buf_t *b = &k->u->batch->t[CH_LOSSES];
    k->gap_pending |= l->kind == CLI_LOSS_DAMAGE;
    k->u->dropped += l->kind == CLI_LOSS_DROPPED ? l->count : 0;
    k->u->overwritten += l->kind == CLI_LOSS_OVERWRITTEN ? l->count : 0;
    k->u->damaged_ranges += l->kind == CLI_LOSS_DAMAGE;
    ch_row_head(b, k->u->recording_id, &k->u->tags);
    ch_str(b, l->reason);
    ch_u64(b, l->count);
    ch_u8(b, cli_loss_count_known(l) != 0);
    ch_u64(b, l->before);
    ch_u8(b, l->position_known != 0);
    ch_u64(b, l->offset);
    ch_str(b, l->message);
    return CLI_SINK_GO_ON;
}

/* The recordings row (inserted after the data tables of its batch). */
static void put_recording(const ch_sink_user_t *u)
{
    ch_buf_t *b = &u->batch->t[CH_RECORDINGS];
    ch_row_head(b, u->recording_id, &u->tags);
    ch_str(b, u->file);
    ch_u64(b, u->size_bytes);
    ch_u64(b, u->schema_hash);
    ch_u64(b, u->time_freq);
    ch_u64(b, u->records);
    ch_u64(b, u->dropped);
    ch_u64(b, u->overwritten);
    ch_u8(b, u->damaged != 0);
    ch_u64(b, u->damaged_ranges);
    ch_u64(b, u->duration_ns);
    ch_varuint(b, u->tags.count);
    for (uint32_t i = 0; i < u->tags.count; i++) {
        ch_str(b, u->tags.keys[i]);
    }
    ch_varuint(b, u->tags.count);
    for (uint32_t i = 0; i < u->tags.count; i++) {
        ch_str(b, u->tags.values[i]);
    }
    ch_u32(b, (uint32_t)time(NULL));
}

static int ch_end(void *state, const cli_sink_end_t *end)
{
    ch_sink_t *k = state;
    if (k->spans) {
        (void)evrec_spans_finish(k->spans); /* the spans still open, as `evrec stats` counts them */
    }
    k->u->records = end->records;
    k->u->duration_ns = k->last_ns;
    k->u->damaged = end->status != EVREC_E_END && end->status != EVREC_OK;
    int abandoned = end->abandoned;
    if (!abandoned) {
        put_recording(k->u); /* last: the recording is listed once all its rows are */
    }
    sink_free(k);
    return abandoned ? CLI_SINK_REPORTED : CLI_SINK_GO_ON;
}

const cli_sink_t cli_sink_clickhouse = {
    .name = "clickhouse",
    .option = "--clickhouse",
    .flags = CLI_SINK_WRITES_LOSSES,
    .no_clock_note = "times (ts, dur) are 0: only ticks are known",
    .begin = ch_begin,
    .record = ch_record,
    .loss = ch_loss,
    .end = ch_end,
};
