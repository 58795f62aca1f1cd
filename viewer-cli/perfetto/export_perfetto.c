/* SPDX-License-Identifier: Apache-2.0 */
/* Streaming writer of Perfetto traces (perfetto.protos.Trace) from evrec records. The mapping is
 * in viewer-cli/perfetto/README.md; the messages are the subset of Perfetto's protos in
 * viewer-cli/perfetto/perfetto_trace.proto, packed with protobuf-c, one TracePacket at a time. */
#include <stdlib.h>
#include <string.h>

#include "perfetto_trace.pb-c.h"

#include "cli_bytes.h"
#include "export_perfetto.h"
#include "perfetto_sched.h"

/* ---- limits (memory stays bounded whatever the file holds) -------------------------------- */

#define PF_MAX_LANES 65536u       /* more distinct lanes go to one "(other lanes)" lane */
#define PF_MAX_OPEN 65536u        /* spans open at once; more begins become instants */
#define PF_MAX_SLOTS 64u          /* slice tracks per lane (overlapping spans); more: instants */
#define PF_MAX_STRINGS (1u << 20) /* interned enum value names; more are written inline */
#define PF_MAX_LEAVES EVREC_MAX_EVENT_SIZE
#define PF_MAX_ANN (2u * PF_MAX_LEAVES + 16u)

#define PF_SEQ_ID 1u       /* the trusted_packet_sequence_id of the tracks and events */
#define PF_SEQ_ID_SCHED 2u /* that of the scheduling data of a kernel trace (perfetto_sched.c) */
#define PF_PID 1           /* pid of the file's process-like track */
#define PF_UUID_FILE 1u    /* track uuids: the file, the losses, then allocated from 16 */
#define PF_UUID_LOSSES 2u
#define PF_DAMAGE_KEPT 1000u /* damage entries the reader keeps (evrec_reader_damage()) */
#define PF_UUID_FIRST 16u

/* Fixed interned annotation names (iids 1..), then the per-leaf names. */
enum {
    AN_RECORD = 1,
    AN_MARKER,
    AN_UNVERIFIED,
    AN_CLAMPED,
    AN_UNMATCHED,
    AN_REFUSED,
    AN_END_RECORD,
    AN_END_MARKER,
    AN_END_UNVERIFIED,
    AN_END_CLAMPED,
    AN_FIXED_COUNT
};
static const char *const fixed_ann_names[AN_FIXED_COUNT] = {
    NULL,           "record",     "marker",     "unverified",     "ts_clamped_ns",     "unmatched_end",
    "span_refused", "end.record", "end.marker", "end.unverified", "end.ts_clamped_ns",
};
/* Interned string values: markers 0..15 are iids 1..16; enum value names from 32. */
#define PF_STR_MARKER_BASE 1u
#define PF_STR_FIRST 32u

/* ---- a 64-bit key -> 32-bit value hash map (linear probing; lanes and interned strings) ------ */

typedef struct pf_map {
    uint64_t *keys;
    uint32_t *vals; /* UINT32_MAX = empty slot */
    uint32_t cap;   /* power of two, or 0 */
    uint32_t n;
} pf_map_t;

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static uint32_t map_find(const pf_map_t *m, uint64_t key)
{
    if (!m->cap) {
        return UINT32_MAX;
    }
    uint32_t mask = m->cap - 1;
    for (uint32_t i = (uint32_t)mix64(key) & mask;; i = (i + 1) & mask) {
        if (m->vals[i] == UINT32_MAX) {
            return UINT32_MAX;
        }
        if (m->keys[i] == key) {
            return m->vals[i];
        }
    }
}

static int map_grow(pf_map_t *m);

/* Insert or replace. Returns 0 when memory ran out. */
static int map_put(pf_map_t *m, uint64_t key, uint32_t val)
{
    if ((m->n + 1) * 4u >= m->cap * 3u && !map_grow(m)) {
        return 0;
    }
    uint32_t mask = m->cap - 1;
    uint32_t i = (uint32_t)mix64(key) & mask;
    while (m->vals[i] != UINT32_MAX && m->keys[i] != key) {
        i = (i + 1) & mask;
    }
    if (m->vals[i] == UINT32_MAX) {
        m->n++;
    }
    m->keys[i] = key;
    m->vals[i] = val;
    return 1;
}

static int map_grow(pf_map_t *m)
{
    uint32_t ncap = m->cap ? m->cap * 2 : 64;
    pf_map_t n = {malloc(ncap * sizeof(uint64_t)), malloc(ncap * sizeof(uint32_t)), ncap, 0};
    if (!n.keys || !n.vals) {
        free(n.keys);
        free(n.vals);
        return 0;
    }
    memset(n.vals, 0xFF, ncap * sizeof(uint32_t));
    for (uint32_t i = 0; i < m->cap; i++) {
        if (m->vals[i] != UINT32_MAX) {
            map_put(&n, m->keys[i], m->vals[i]);
        }
    }
    free(m->keys);
    free(m->vals);
    *m = n;
    return 1;
}

static void map_free(pf_map_t *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* ---- tables built at open --------------------------------------------------------------- */

typedef struct pf_leaf {
    uint32_t offset;  /* in the packed record */
    uint8_t kind;     /* evrec_kind */
    uint8_t display;  /* evrec_display */
    uint16_t enum_id; /* enum kinds */
    int32_t counter;  /* index in tracks->counters, or -1 */
    uint32_t path;    /* index of its dotted path in the writer's path set (pf_path_t) */
    /* a counter's series field (evrec_meta_counter_series_leaf()): one counter track per value */
    uint32_t series_off;
    uint8_t series_kind; /* EVREC_KIND_STRUCT: no series field */
    uint16_t series_enum;
} pf_leaf_t;

/* The four annotation names of one leaf path: "path", "path_raw", "end.path", "end.path_raw".
 * Kept once per distinct path (events whose structs nest the same struct under the same name
 * share them), not per event type. */
typedef struct pf_path {
    char *names[4];
} pf_path_t;

typedef struct pf_event {
    const char *name;
    uint16_t class_id;
    uint16_t track_leaf;  /* EVREC_TRACKS_NONE: the class's lane */
    uint32_t domain;      /* lane domain of track_leaf */
    uint32_t leaf_count;  /* leaves 2 .. leaf_count + 1 */
    uint32_t owner;       /* the first event on the same struct (this one when not shared) */
    pf_leaf_t *leaves;    /* [leaf - 2]; NULL until the event's (or its owner's) first record */
    uint64_t ann_base;    /* iid of leaves[0].names[0]; names[v] of leaf i: base + 4 i + v */
    uint8_t *ann_emitted; /* [4 * leaf_count] */
    int has_counters;
    int shared; /* leaves and ann_* belong to the first event on the same struct */
    int built;  /* leaves, ann_emitted and has_counters are set (first record) */
} pf_event_t;

/* A lane domain: the values of one enum, of one plain integer field path, or event classes. */
typedef struct pf_domain {
    uint32_t enum_id; /* UINT32_MAX: plain integer (named by path); UINT32_MAX - 1: classes */
    char *path;
} pf_domain_t;
#define DOMAIN_CLASSES 0u

typedef struct pf_lane {
    uint64_t *slot_uuid; /* [slot_cap]; slot 0 = the lane's own track */
    uint32_t *slot_open; /* open spans per slot (0 or 1: spans never nest on one slot) */
    uint32_t slots, slot_cap;
    char *name;
} pf_lane_t;

/* The writer's part of one span instance (evrec_span_t::instance): its slice track. */
typedef struct pf_inst {
    uint32_t lane;
    uint32_t slot; /* UINT32_MAX: refused (no slice written) */
} pf_inst_t;

/* Given to the span hook for an instance whose begin was refused (no slice in the trace). */
#define PF_SPAN_REFUSED 0x100u

/* The record being written, for the pairing's callbacks (on_begin(), on_span()). */
typedef struct pf_cur {
    pf_event_t *e;
    const evrec_record_t *rec;
    uint64_t ts, clamped;
    uint32_t lane;
    int done;              /* a slice began or ended at it */
    const char *unmatched; /* a span it ends but that was not open */
    const char *refused;   /* a span it begins but that got no slot */
} pf_cur_t;

struct evrec_pf_writer {
    evrec_reader_t *r;
    const evrec_meta_t *meta;
    const evrec_tracks_t *tracks;
    FILE *f;
    char *trace_name;
    int io_error;
    int nomem;
    int ns_known;
    evrec_pf_stats_t st;

    pf_event_t *events;
    uint32_t event_count;
    pf_path_t *paths; /* distinct leaf paths, by index */
    uint32_t path_count, path_cap;
    uint32_t *path_slots; /* hash of path index + 1, 0 = empty */
    uint32_t path_nslots;
    pf_domain_t *domains;
    uint32_t domain_count;
    uint8_t *name_emitted; /* event names: events, then spans */
    uint8_t *cat_emitted;  /* categories: per class id (an event id) */
    uint8_t fixed_emitted[AN_FIXED_COUNT];
    uint8_t marker_emitted[16];
    int losses_described;
    int started; /* the first record was seen */
    uint64_t last_ts;
    uint64_t next_uuid;
    uint64_t next_str_iid;

    pf_lane_t *lanes;
    uint32_t lane_count, lane_cap;
    pf_map_t lane_map;  /* domain << 32 | value -> lane */
    pf_map_t str_map;   /* enum_id << 32 | value -> string iid (0 = unnamed) */
    pf_map_t ctr_map;   /* counter << 32 | series value -> index in ctr_uuid */
    uint64_t *ctr_uuid; /* the counter tracks described so far */
    uint32_t ctr_count, ctr_cap;
    evrec_spans_t *pair; /* the spans' pairing (evrec_analysis.h); NULL without spans */
    pf_inst_t *inst;     /* per span instance */
    uint32_t inst_cap;
    uint32_t open_count; /* slices open */
    pf_cur_t cur;
    int unverified_seen;
    uint8_t damage_done[PF_DAMAGE_KEPT]; /* reader damage entries already written at a gap */

    /* The packet being built. */
    Perfetto__Protos__TracePacket pkt;
    Perfetto__Protos__TrackEvent te;
    Perfetto__Protos__TrackDescriptor td;
    Perfetto__Protos__ProcessDescriptor pd;
    Perfetto__Protos__CounterDescriptor cd;
    Perfetto__Protos__InternedData idata;
    Perfetto__Protos__DebugAnnotation ann[PF_MAX_ANN];
    Perfetto__Protos__DebugAnnotation *ann_ptr[PF_MAX_ANN];
    size_t ann_n;
    uint64_t cat_iid;
    uint64_t flow_id;
    Perfetto__Protos__EventName en[2];
    Perfetto__Protos__EventName *en_ptr[2];
    Perfetto__Protos__EventCategory ec[1];
    Perfetto__Protos__EventCategory *ec_ptr[1];
    Perfetto__Protos__DebugAnnotationName dn[4 * PF_MAX_LEAVES + AN_FIXED_COUNT];
    Perfetto__Protos__DebugAnnotationName *dn_ptr[4 * PF_MAX_LEAVES + AN_FIXED_COUNT];
    Perfetto__Protos__InternedString is[PF_MAX_LEAVES + 16];
    Perfetto__Protos__InternedString *is_ptr[PF_MAX_LEAVES + 16];
    uint8_t *buf;
    size_t buf_cap;

    uint64_t max_index;      /* largest record index written so far */
    pf_sched_t *sched;       /* scheduling data of a kernel trace, or NULL */
    evrec_span_fn span_hook; /* introspection (tests), or NULL */
    void *span_hook_ctx;
    evrec_pf_counter_fn counter_hook; /* introspection (tests), or NULL */
    void *counter_hook_ctx;
    int started_index;
};

static const char *status_name(evrec_status s)
{
    static const char *const names[] = {
        "ok",          "bad argument",  "bad meta-info", "unknown id", "not recording", "dropped",
        "busy",        "exhausted",     "i/o error",     "truncated",  "corrupt",       "checksum mismatch",
        "unsupported", "out of memory", "end",
    };
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "error";
}

static char *xstrdup(evrec_pf_writer_t *w, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (!p) {
        w->nomem = 1;
        return NULL;
    }
    memcpy(p, s, n);
    return p;
}

static char *xprintf2(evrec_pf_writer_t *w, const char *a, const char *b, const char *c);

static uint32_t path_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h = (h ^ (unsigned char)*s) * 16777619u;
    }
    return h;
}

/* The index of `path` in the writer's path set, added with its four names when new; sets
 * w->nomem (and returns 0) when out of memory. */
static uint32_t path_index(evrec_pf_writer_t *w, const char *path)
{
    if (w->path_count * 2 + 2 > w->path_nslots) {
        uint32_t ns = w->path_nslots ? w->path_nslots * 2 : 64;
        uint32_t *sl = calloc(ns, sizeof *sl);
        if (!sl) {
            w->nomem = 1;
            return 0;
        }
        for (uint32_t i = 0; i < w->path_count; i++) {
            uint32_t h = path_hash(w->paths[i].names[0]) & (ns - 1);
            while (sl[h]) {
                h = (h + 1) & (ns - 1);
            }
            sl[h] = i + 1;
        }
        free(w->path_slots);
        w->path_slots = sl;
        w->path_nslots = ns;
    }
    uint32_t h = path_hash(path) & (w->path_nslots - 1);
    while (w->path_slots[h]) {
        uint32_t i = w->path_slots[h] - 1;
        if (strcmp(w->paths[i].names[0], path) == 0) {
            return i;
        }
        h = (h + 1) & (w->path_nslots - 1);
    }
    if (w->path_count == w->path_cap) {
        uint32_t cap = w->path_cap ? w->path_cap * 2 : 32;
        pf_path_t *p = realloc(w->paths, cap * sizeof *p);
        if (!p) {
            w->nomem = 1;
            return 0;
        }
        w->paths = p;
        w->path_cap = cap;
    }
    pf_path_t *e = &w->paths[w->path_count];
    e->names[0] = xprintf2(w, "", path, "");
    e->names[1] = xprintf2(w, "", path, "_raw");
    e->names[2] = xprintf2(w, "end.", path, "");
    e->names[3] = xprintf2(w, "end.", path, "_raw");
    if (w->nomem) {
        for (int v = 0; v < 4; v++) {
            free(e->names[v]);
        }
        return 0;
    }
    w->path_slots[h] = w->path_count + 1;
    return w->path_count++;
}

static char *xprintf2(evrec_pf_writer_t *w, const char *a, const char *b, const char *c)
{
    size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
    char *p = malloc(la + lb + lc + 1);
    if (!p) {
        w->nomem = 1;
        return NULL;
    }
    memcpy(p, a, la);
    memcpy(p + la, b, lb);
    memcpy(p + la + lb, c, lc + 1);
    return p;
}

/* ---- packets -------------------------------------------------------------------------- */

static void pkt_reset(evrec_pf_writer_t *w, uint64_t ts)
{
    Perfetto__Protos__TracePacket p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
    w->pkt = p;
    w->pkt.has_timestamp = 1;
    w->pkt.timestamp = ts;
    w->pkt.optional_trusted_packet_sequence_id_case =
        PERFETTO__PROTOS__TRACE_PACKET__OPTIONAL_TRUSTED_PACKET_SEQUENCE_ID_TRUSTED_PACKET_SEQUENCE_ID;
    w->pkt.trusted_packet_sequence_id = PF_SEQ_ID;
    Perfetto__Protos__InternedData d = PERFETTO__PROTOS__INTERNED_DATA__INIT;
    w->idata = d;
    w->idata.event_names = w->en_ptr;
    w->idata.event_categories = w->ec_ptr;
    w->idata.debug_annotation_names = w->dn_ptr;
    w->idata.debug_annotation_string_values = w->is_ptr;
    w->ann_n = 0;
}

/* Write packet `m`: tag of Trace.packet (field 1, length-delimited = 0x0A), varint length, bytes. */
static void frame_write(evrec_pf_writer_t *w, const ProtobufCMessage *m)
{
    if (w->io_error) {
        return;
    }
    size_t len = protobuf_c_message_get_packed_size(m);
    if (len + 16 > w->buf_cap) {
        size_t cap = w->buf_cap ? w->buf_cap : 4096;
        while (cap < len + 16) {
            cap *= 2;
        }
        uint8_t *b = realloc(w->buf, cap);
        if (!b) {
            w->nomem = 1;
            w->io_error = 1;
            return;
        }
        w->buf = b;
        w->buf_cap = cap;
    }
    size_t h = 0;
    w->buf[h++] = 0x0A;
    for (uint64_t v = len;; v >>= 7) {
        if (v < 0x80) {
            w->buf[h++] = (uint8_t)v;
            break;
        }
        w->buf[h++] = (uint8_t)(v | 0x80);
    }
    size_t packed = protobuf_c_message_pack(m, w->buf + h);
    if (packed != len || fwrite(w->buf, 1, h + len, w->f) != h + len) {
        w->io_error = 1;
        return;
    }
    w->st.packets++;
    w->st.bytes += h + len;
}

/* Write the packet being built, with its interned data when it has some. */
static void pkt_write(evrec_pf_writer_t *w)
{
    if (w->idata.n_event_names || w->idata.n_event_categories || w->idata.n_debug_annotation_names ||
        w->idata.n_debug_annotation_string_values) {
        w->pkt.interned_data = &w->idata;
    }
    frame_write(w, &w->pkt.base);
}

/* A packet of the scheduling data (perfetto_sched.c), on a sequence of its own (no interning). */
static void sched_write(void *ctx, Perfetto__Protos__TracePacket *pkt)
{
    pkt->optional_trusted_packet_sequence_id_case =
        PERFETTO__PROTOS__TRACE_PACKET__OPTIONAL_TRUSTED_PACKET_SEQUENCE_ID_TRUSTED_PACKET_SEQUENCE_ID;
    pkt->trusted_packet_sequence_id = PF_SEQ_ID_SCHED;
    frame_write(ctx, &pkt->base);
}

/* ---- interning ----------------------------------------------------------------------- */

static uint64_t intern_event_name(evrec_pf_writer_t *w, uint32_t idx, const char *name)
{
    if (!w->name_emitted[idx]) {
        w->name_emitted[idx] = 1;
        Perfetto__Protos__EventName *e = &w->en[w->idata.n_event_names];
        Perfetto__Protos__EventName init = PERFETTO__PROTOS__EVENT_NAME__INIT;
        *e = init;
        e->has_iid = 1;
        e->iid = idx + 1u;
        e->name = (char *)name;
        w->en_ptr[w->idata.n_event_names++] = e;
    }
    return idx + 1u;
}

static uint64_t intern_category(evrec_pf_writer_t *w, uint16_t class_id)
{
    if (!w->cat_emitted[class_id]) {
        w->cat_emitted[class_id] = 1;
        Perfetto__Protos__EventCategory *e = &w->ec[0];
        Perfetto__Protos__EventCategory init = PERFETTO__PROTOS__EVENT_CATEGORY__INIT;
        *e = init;
        e->has_iid = 1;
        e->iid = class_id + 1u;
        e->name = (char *)w->events[class_id].name;
        w->ec_ptr[0] = e;
        w->idata.n_event_categories = 1;
    }
    return class_id + 1u;
}

static void add_ann_name(evrec_pf_writer_t *w, uint64_t iid, const char *name)
{
    Perfetto__Protos__DebugAnnotationName *d = &w->dn[w->idata.n_debug_annotation_names];
    Perfetto__Protos__DebugAnnotationName init = PERFETTO__PROTOS__DEBUG_ANNOTATION_NAME__INIT;
    *d = init;
    d->has_iid = 1;
    d->iid = iid;
    d->name = (char *)name;
    w->dn_ptr[w->idata.n_debug_annotation_names++] = d;
}

static uint64_t fixed_name(evrec_pf_writer_t *w, unsigned id)
{
    if (!w->fixed_emitted[id]) {
        w->fixed_emitted[id] = 1;
        add_ann_name(w, id, fixed_ann_names[id]);
    }
    return id;
}

static uint64_t leaf_name(evrec_pf_writer_t *w, pf_event_t *e, uint32_t li, unsigned variant)
{
    uint32_t k = 4 * li + variant;
    if (!e->ann_emitted[k]) {
        e->ann_emitted[k] = 1;
        add_ann_name(w, e->ann_base + k, w->paths[e->leaves[li].path].names[variant]);
    }
    return e->ann_base + k;
}

static void add_string_value(evrec_pf_writer_t *w, uint64_t iid, const char *s)
{
    Perfetto__Protos__InternedString *d = &w->is[w->idata.n_debug_annotation_string_values];
    Perfetto__Protos__InternedString init = PERFETTO__PROTOS__INTERNED_STRING__INIT;
    *d = init;
    d->has_iid = 1;
    d->iid = iid;
    d->has_str = 1;
    d->str.data = (uint8_t *)s;
    d->str.len = strlen(s);
    w->is_ptr[w->idata.n_debug_annotation_string_values++] = d;
}

/* The string iid of an enum value's name: 0 when it has none; UINT64_MAX when the table is full
 * (then *inline_name is the name to write inline). Only named values enter the table, so that
 * its size is bounded by the names the file has (unnamed values are looked up each time). */
static uint64_t enum_string(evrec_pf_writer_t *w, uint16_t enum_id, uint32_t value, const char **inline_name)
{
    uint64_t key = (uint64_t)enum_id << 32 | value;
    uint32_t v = map_find(&w->str_map, key);
    if (v != UINT32_MAX) {
        return v;
    }
    const char *name = evrec_reader_enum_value(w->r, enum_id, value, NULL);
    if (!name) {
        return 0;
    }
    if (w->str_map.n >= PF_MAX_STRINGS) {
        *inline_name = name;
        return UINT64_MAX;
    }
    uint32_t iid = (uint32_t)w->next_str_iid++;
    if (!map_put(&w->str_map, key, iid)) {
        w->nomem = 1;
        *inline_name = name;
        return UINT64_MAX;
    }
    add_string_value(w, iid, name);
    return iid;
}

static uint64_t marker_string(evrec_pf_writer_t *w, uint8_t m)
{
    if (!w->marker_emitted[m]) {
        w->marker_emitted[m] = 1;
        add_string_value(w, PF_STR_MARKER_BASE + m, evrec_marker_name(m));
    }
    return PF_STR_MARKER_BASE + m;
}

/* ---- annotations --------------------------------------------------------------------- */

static Perfetto__Protos__DebugAnnotation *ann_new(evrec_pf_writer_t *w, uint64_t name_iid)
{
    Perfetto__Protos__DebugAnnotation *a = &w->ann[w->ann_n];
    Perfetto__Protos__DebugAnnotation init = PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
    *a = init;
    a->name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID;
    a->name_iid = name_iid;
    w->ann_ptr[w->ann_n++] = a;
    return a;
}

static Perfetto__Protos__DebugAnnotation *ann_named(evrec_pf_writer_t *w, const char *name)
{
    Perfetto__Protos__DebugAnnotation *a = ann_new(w, 0);
    a->name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
    a->name = (char *)name;
    return a;
}

static void ann_uint(Perfetto__Protos__DebugAnnotation *a, uint64_t v)
{
    a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE;
    a->uint_value = v;
}

static void ann_str(Perfetto__Protos__DebugAnnotation *a, const char *s)
{
    a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
    a->string_value = (char *)s;
}

/* A leaf's value from its packed big-endian bytes (the viewer's one byte-order helper). */
static uint32_t load_be(const uint8_t *p, uint8_t kind)
{
    return cli_be_field(p, evrec_kind_width(kind));
}

/* The value of leaf (>= 2) of a record, read from its packed big-endian bytes. */
static uint32_t leaf_value(const pf_event_t *e, const evrec_record_t *rec, uint32_t leaf)
{
    const pf_leaf_t *l = &e->leaves[leaf - 2];
    if (l->offset + evrec_kind_width(l->kind) > rec->size) {
        return 0; /* cannot happen for a record of the reader (its size is the event's save_len) */
    }
    return load_be(rec->data + l->offset, l->kind);
}

/* Every field of the record as debug annotations ("end." names on a slice end), then the record
 * index, the marker, and the flags. */
static void record_annotations(evrec_pf_writer_t *w, pf_event_t *e, const evrec_record_t *rec, int end,
                               uint64_t clamped_ns)
{
    unsigned v0 = end ? 2u : 0u;
    for (uint32_t i = 0; i < e->leaf_count; i++) {
        const pf_leaf_t *l = &e->leaves[i];
        uint32_t value = load_be(rec->data + l->offset, l->kind);
        Perfetto__Protos__DebugAnnotation *a = ann_new(w, leaf_name(w, e, i, v0));
        if (l->kind >= EVREC_KIND_ENUM_UINT8) {
            const char *inl = NULL;
            uint64_t sid = enum_string(w, l->enum_id, value, &inl);
            if (sid == 0) {
                ann_uint(a, value); /* an unnamed value: the number */
                continue;
            }
            if (sid == UINT64_MAX) {
                ann_str(a, inl);
            } else {
                a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID;
                a->string_value_iid = sid;
            }
            ann_uint(ann_new(w, leaf_name(w, e, i, v0 + 1)), value);
        } else if (l->display == EVREC_DISPLAY_HEX || l->display == EVREC_DISPLAY_ADDRESS) {
            a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_POINTER_VALUE;
            a->pointer_value = value;
        } else {
            ann_uint(a, value);
        }
    }
    ann_uint(ann_new(w, fixed_name(w, end ? AN_END_RECORD : AN_RECORD)), rec->index);
    uint8_t m = evrec_reader_record_marker(w->r, rec);
    if (m != EVREC_MARKER_NONE) {
        Perfetto__Protos__DebugAnnotation *a = ann_new(w, fixed_name(w, end ? AN_END_MARKER : AN_MARKER));
        if (m < 16) {
            a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID;
            a->string_value_iid = marker_string(w, m);
        } else {
            ann_uint(a, m);
        }
    }
    if (rec->unverified) {
        Perfetto__Protos__DebugAnnotation *a = ann_new(w, fixed_name(w, end ? AN_END_UNVERIFIED : AN_UNVERIFIED));
        a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_BOOL_VALUE;
        a->bool_value = 1;
    }
    if (clamped_ns) {
        ann_uint(ann_new(w, fixed_name(w, end ? AN_END_CLAMPED : AN_CLAMPED)), clamped_ns);
    }
}

/* ---- tracks ------------------------------------------------------------------------- */

static void td_begin(evrec_pf_writer_t *w, uint64_t uuid, uint64_t parent, const char *name)
{
    pkt_reset(w, w->last_ts);
    Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
    w->td = td;
    w->td.has_uuid = 1;
    w->td.uuid = uuid;
    if (parent) {
        w->td.has_parent_uuid = 1;
        w->td.parent_uuid = parent;
    }
    w->td.static_or_dynamic_name_case = PERFETTO__PROTOS__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_NAME;
    w->td.name = (char *)name;
    w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
    w->pkt.track_descriptor = &w->td;
    w->st.tracks++;
}

static void describe_losses(evrec_pf_writer_t *w)
{
    if (w->losses_described) {
        return;
    }
    w->losses_described = 1;
    td_begin(w, PF_UUID_LOSSES, PF_UUID_FILE, "losses");
    w->td.description = "Records lost: dropped (buffer full), overwritten (cyclic buffer), damaged "
                        "file ranges, unverified records; counts in the arguments.";
    pkt_write(w);
}

static const char *lane_name_of(evrec_pf_writer_t *w, uint32_t domain, uint32_t value, char *tmp, size_t n)
{
    const pf_domain_t *d = &w->domains[domain];
    if (domain == DOMAIN_CLASSES) {
        return value < w->event_count ? w->events[value].name : "?";
    }
    if (d->enum_id != UINT32_MAX) {
        const char *vn = evrec_reader_enum_value(w->r, (uint16_t)d->enum_id, value, NULL);
        if (vn) {
            return vn;
        }
        snprintf(tmp, n, "%s %lu", w->meta->enums[d->enum_id].name, (unsigned long)value);
        return tmp;
    }
    snprintf(tmp, n, "%s %lu", d->path ? d->path : "lane", (unsigned long)value);
    return tmp;
}

/* The lane of (domain, value), described on first use. UINT32_MAX when memory ran out. */
static uint32_t lane_get(evrec_pf_writer_t *w, uint32_t domain, uint32_t value)
{
    uint64_t key = (uint64_t)domain << 32 | value;
    uint32_t l = map_find(&w->lane_map, key);
    if (l != UINT32_MAX) {
        return l;
    }
    char tmp[EVREC_READER_MAX_NAME * 2 + 32];
    const char *name;
    if (w->lane_count >= PF_MAX_LANES) {
        key = UINT64_MAX; /* the overflow lane */
        l = map_find(&w->lane_map, key);
        if (l != UINT32_MAX) {
            return l;
        }
        name = "(other lanes)";
    } else {
        name = lane_name_of(w, domain, value, tmp, sizeof tmp);
    }
    if (w->lane_count == w->lane_cap) {
        uint32_t cap = w->lane_cap ? w->lane_cap * 2 : 16;
        pf_lane_t *p = realloc(w->lanes, cap * sizeof *p);
        if (!p) {
            w->nomem = 1;
            return UINT32_MAX;
        }
        w->lanes = p;
        w->lane_cap = cap;
    }
    pf_lane_t *ln = &w->lanes[w->lane_count];
    memset(ln, 0, sizeof *ln);
    ln->name = xstrdup(w, name);
    ln->slot_cap = 1;
    ln->slots = 1;
    ln->slot_uuid = calloc(1, sizeof(uint64_t));
    ln->slot_open = calloc(1, sizeof(uint32_t));
    if (!ln->name || !ln->slot_uuid || !ln->slot_open || !map_put(&w->lane_map, key, w->lane_count)) {
        free(ln->name);
        free(ln->slot_uuid);
        free(ln->slot_open);
        w->nomem = 1;
        return UINT32_MAX;
    }
    ln->slot_uuid[0] = w->next_uuid++;
    td_begin(w, ln->slot_uuid[0], PF_UUID_FILE, ln->name);
    pkt_write(w);
    w->st.lanes++;
    return w->lane_count++;
}

/* A free slot of a lane for a new span: slot 0 unless something is open there, else the first
 * free extra slot (a sibling track with the lane's name, which the UI merges with the lane).
 * UINT32_MAX when PF_MAX_SLOTS are busy. */
static uint32_t slot_get(evrec_pf_writer_t *w, pf_lane_t *ln)
{
    for (uint32_t s = 0; s < ln->slots; s++) {
        if (!ln->slot_open[s]) {
            return s;
        }
    }
    if (ln->slots >= PF_MAX_SLOTS) {
        return UINT32_MAX;
    }
    if (ln->slots == ln->slot_cap) {
        uint32_t cap = ln->slot_cap * 2;
        uint64_t *u = realloc(ln->slot_uuid, cap * sizeof *u);
        if (u) {
            ln->slot_uuid = u;
        }
        uint32_t *o = realloc(ln->slot_open, cap * sizeof *o);
        if (o) {
            ln->slot_open = o;
        }
        if (!u || !o) {
            w->nomem = 1;
            return UINT32_MAX;
        }
        ln->slot_cap = cap;
    }
    uint32_t s = ln->slots++;
    ln->slot_open[s] = 0;
    ln->slot_uuid[s] = w->next_uuid++;
    td_begin(w, ln->slot_uuid[s], PF_UUID_FILE, ln->name);
    w->td.description = "Spans of this lane that overlap others (merged with the lane by name).";
    pkt_write(w);
    return s;
}

/* The track of counter `ci`'s series `value` (UINT32_MAX: the counter has no series field), named
 * as the timeline names its row: "<series value> Struct.field". 0 when memory ran out. */
static uint64_t counter_track(evrec_pf_writer_t *w, uint32_t ci, const pf_leaf_t *l, uint32_t value)
{
    uint64_t key = (uint64_t)ci << 32 | value;
    uint32_t k = map_find(&w->ctr_map, key);
    if (k != UINT32_MAX) {
        return w->ctr_uuid[k];
    }
    if (w->ctr_count == w->ctr_cap) {
        uint32_t cap = w->ctr_cap ? 2 * w->ctr_cap : 16;
        uint64_t *p = realloc(w->ctr_uuid, cap * sizeof *p);
        if (!p) {
            w->nomem = 1;
            return 0;
        }
        w->ctr_uuid = p;
        w->ctr_cap = cap;
    }
    if (!map_put(&w->ctr_map, key, w->ctr_count)) {
        w->nomem = 1;
        return 0;
    }
    uint64_t uuid = w->ctr_uuid[w->ctr_count++] = w->next_uuid++;
    const evrec_counter_desc_t *c = &w->tracks->counters[ci];
    const evrec_struct_desc_t *s = &w->meta->structs[c->struct_id];
    char name[EVREC_READER_MAX_NAME * 3 + 16], num[16];
    const char *sv = NULL;
    if (l->series_kind != EVREC_KIND_STRUCT) {
        sv = l->series_kind >= EVREC_KIND_ENUM_UINT8 ? evrec_reader_enum_value(w->r, l->series_enum, value, NULL)
                                                     : NULL;
        if (!sv) {
            snprintf(num, sizeof num, "%u", (unsigned)value);
            sv = num;
        }
    }
    snprintf(name, sizeof name, "%s%s%s.%s", sv ? sv : "", sv ? " " : "", s->name, s->fields[c->field_index].name);
    td_begin(w, uuid, PF_UUID_FILE, name);
    Perfetto__Protos__CounterDescriptor cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
    w->cd = cd;
    const evrec_field_info_t *fi = evrec_reader_field_info(w->r, c->struct_id, c->field_index);
    if (fi && fi->unit) {
        if (strcmp(fi->unit, "ns") == 0) {
            w->cd.has_unit = 1;
            w->cd.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_TIME_NS;
        } else if (strcmp(fi->unit, "bytes") == 0) {
            w->cd.has_unit = 1;
            w->cd.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_SIZE_BYTES;
        } else {
            w->cd.unit_name = (char *)fi->unit;
        }
    }
    w->td.counter = &w->cd;
    if (fi && fi->description) {
        w->td.description = (char *)fi->description;
    }
    pkt_write(w);
    return uuid;
}

static uint32_t domain_of(evrec_pf_writer_t *w, const pf_leaf_t *l, const char *path);

/* ---- events -------------------------------------------------------------------------- */

static void te_begin(evrec_pf_writer_t *w, uint64_t ts, Perfetto__Protos__TrackEvent__Type type, uint64_t track)
{
    pkt_reset(w, ts);
    Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
    w->te = te;
    w->te.has_type = 1;
    w->te.type = type;
    w->te.has_track_uuid = 1;
    w->te.track_uuid = track;
    w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
    w->pkt.track_event = &w->te;
    w->pkt.has_sequence_flags = 1;
    w->pkt.sequence_flags = PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE;
}

static void te_name(evrec_pf_writer_t *w, uint64_t name_iid, uint64_t cat_iid)
{
    w->te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID;
    w->te.name_iid = name_iid;
    w->cat_iid = cat_iid;
    w->te.n_category_iids = 1;
    w->te.category_iids = &w->cat_iid;
}

static void te_write(evrec_pf_writer_t *w)
{
    w->te.n_debug_annotations = w->ann_n;
    w->te.debug_annotations = w->ann_ptr;
    pkt_write(w);
}

static void loss_instant(evrec_pf_writer_t *w, const char *name)
{
    describe_losses(w);
    te_begin(w, w->last_ts, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT, PF_UUID_LOSSES);
    w->te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
    w->te.name = (char *)name;
    static char *loss_cat[] = {"evrec.loss"};
    w->te.n_categories = 1;
    w->te.categories = loss_cat;
    w->st.losses++;
}

/* Losses known from the header. At the first record: records a cyclic buffer overwrote (they
 * were older than it). At the end: events a one-shot buffer dropped once it was full (Stop
 * carries the time of the first drop, so they follow the last record). `at_end` selects. */
static void header_losses(evrec_pf_writer_t *w, int at_end)
{
    const evrec_file_info_t *fi = evrec_reader_info(w->r);
    if (fi->format != EVREC_FILE_CONTAINER) {
        return;
    }
    int cyclic = (fi->flags & 1u) != 0;
    if (fi->dropped && at_end == !cyclic) {
        loss_instant(w, "dropped");
        ann_uint(ann_named(w, "count"), fi->dropped);
        ann_str(ann_named(w, "what"), cyclic ? "events not recorded (the file does not say when)"
                                             : "events not recorded because the one-shot trace buffer "
                                               "was full: from the Stop record on, which carries the "
                                               "time of the first drop");
        te_write(w);
    }
    if (fi->overwritten && !at_end) {
        loss_instant(w, "overwritten");
        ann_uint(ann_named(w, "count"), fi->overwritten);
        ann_str(ann_named(w, "what"), "oldest records overwritten in the cyclic buffer: lost before "
                                      "the first record (saturates at 2^32-1)");
        te_write(w);
    }
}

static uint64_t flow_id(uint32_t span, uint32_t key)
{
    uint64_t id = mix64(((uint64_t)span << 32 | key) ^ 0x65767265632d7066ULL);
    return id ? id : 1;
}

/* The lane a record of event e is drawn on (its track field's value, else its class). */
static uint32_t record_lane(evrec_pf_writer_t *w, const pf_event_t *e, const evrec_record_t *rec)
{
    if (e->track_leaf == EVREC_TRACKS_NONE) {
        return lane_get(w, DOMAIN_CLASSES, e->class_id);
    }
    return lane_get(w, e->domain, leaf_value(e, rec, e->track_leaf));
}

static void hook(evrec_pf_writer_t *w, const evrec_span_t *sp, unsigned extra)
{
    if (w->span_hook) {
        evrec_span_t x = *sp;
        x.flags |= extra;
        w->span_hook(w->span_hook_ctx, &x);
    }
}

void evrec_pf_set_counter_hook(evrec_pf_writer_t *w, evrec_pf_counter_fn fn, void *ctx)
{
    w->counter_hook = fn;
    w->counter_hook_ctx = ctx;
}

void evrec_pf_set_span_hook(evrec_pf_writer_t *w, evrec_span_fn fn, void *ctx)
{
    w->span_hook = fn;
    w->span_hook_ctx = ctx;
}

/* ---- spans: paired by evrec_spans_t (evrec_analysis.h, "Pairing rule"), written here ---- */

/* The writer's part of span instance i (evrec_span_t::instance), grown on demand; NULL: no memory. */
static pf_inst_t *inst_at(evrec_pf_writer_t *w, uint32_t i)
{
    if (i >= w->inst_cap) {
        uint32_t cap = w->inst_cap ? w->inst_cap : 64;
        while (cap <= i) {
            cap *= 2;
        }
        pf_inst_t *p = realloc(w->inst, cap * sizeof *p);
        if (!p) {
            return NULL;
        }
        w->inst = p;
        w->inst_cap = cap;
    }
    return &w->inst[i];
}

/* The lane of a span begun by the current record: its track's value (evrec_spans_track_leaf())
 * when that is not the event's track, else the record's lane. *tleaf = the track leaf. */
static uint32_t begin_lane(evrec_pf_writer_t *w, uint32_t span, uint16_t *tleaf)
{
    const pf_cur_t *c = &w->cur;
    *tleaf = evrec_spans_track_leaf(w->r, span);
    if (*tleaf == EVREC_TRACKS_NONE || *tleaf == c->e->track_leaf) {
        return c->lane;
    }
    const pf_leaf_t *tl = &c->e->leaves[*tleaf - 2];
    uint32_t dom = domain_of(w, tl, w->paths[tl->path].names[0]);
    return w->nomem ? UINT32_MAX : lane_get(w, dom, leaf_value(c->e, c->rec, *tleaf));
}

/* A span opens at the current record: a slice begin on a free slot of its lane (none free, or
 * too many open: refused, the record stays an instant). */
static void on_begin(void *ctx, const evrec_span_t *sp)
{
    evrec_pf_writer_t *w = ctx;
    pf_cur_t *c = &w->cur;
    const evrec_span_desc_t *sd = &w->tracks->spans[sp->span];
    uint16_t tleaf;
    pf_inst_t *in = inst_at(w, sp->instance);
    uint32_t sl = in ? begin_lane(w, sp->span, &tleaf) : UINT32_MAX;
    if (sl == UINT32_MAX) {
        w->io_error = 1;
        w->nomem = 1;
        return;
    }
    pf_lane_t *ln = &w->lanes[sl];
    in->lane = sl;
    in->slot = w->open_count < PF_MAX_OPEN ? slot_get(w, ln) : UINT32_MAX;
    if (in->slot == UINT32_MAX) {
        c->refused = sd->name;
        w->st.refused_begins++;
        return;
    }
    ln->slot_open[in->slot]++;
    w->open_count++;
    te_begin(w, c->ts, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN, ln->slot_uuid[in->slot]);
    te_name(w, intern_event_name(w, w->event_count + sp->span, sd->name), intern_category(w, c->e->class_id));
    /* A key that is not the lane itself (a frame number through threads): a flow links the
     * spans of one key across lanes. */
    if (sd->begin.key_leaf != EVREC_TRACKS_NONE && sd->begin.key_leaf != tleaf) {
        w->flow_id = flow_id(sp->span, sp->key);
        w->te.n_flow_ids = 1;
        w->te.flow_ids = &w->flow_id;
    }
    record_annotations(w, c->e, c->rec, 0, c->clamped);
    te_write(w);
    w->st.begins++;
    c->done = 1;
}

/* Start the slice end of an instance at ts (the caller adds annotations and writes it). */
static void slice_end(evrec_pf_writer_t *w, const pf_inst_t *in, uint64_t ts)
{
    pf_lane_t *ln = &w->lanes[in->lane];
    te_begin(w, ts, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END, ln->slot_uuid[in->slot]);
    ln->slot_open[in->slot]--;
    w->open_count--;
}

/* A span closes (or an end closes nothing): complete, a slice end with the end record's fields;
 * cut by damage, a slice end at the last record before the gap; open at the end, left open ("did not end"); an end without a begin, noted for the
 * record's instant. */
static void on_span(void *ctx, const evrec_span_t *sp)
{
    evrec_pf_writer_t *w = ctx;
    pf_cur_t *c = &w->cur;
    if (sp->flags & EVREC_SPAN_NO_BEGIN) {
        c->unmatched = w->tracks->spans[sp->span].name;
        hook(w, sp, 0);
        return;
    }
    const pf_inst_t *in = sp->instance < w->inst_cap ? &w->inst[sp->instance] : NULL;
    if (!in || in->slot == UINT32_MAX) {
        hook(w, sp, PF_SPAN_REFUSED);
        return;
    }
    if (sp->flags & EVREC_SPAN_AT_FINISH) {
        w->st.open_at_end++;
    } else if (sp->flags & EVREC_SPAN_CUT) {
        slice_end(w, in, w->last_ts);
        ann_str(ann_named(w, "cut_by_damage"), "records were lost to damage here: the end is not known");
        te_write(w);
        w->st.cut_by_damage++;
    } else {
        slice_end(w, in, c->ts);
        record_annotations(w, c->e, c->rec, 1, c->clamped);
        te_write(w);
        w->st.ends++;
        c->done = 1;
    }
    hook(w, sp, 0);
}

/* Records lost to damage before `rec` (the first record after a damaged range the reader resumed
 * after): a "damaged" instant at its time, with the count and the first lost index. */
static void gap_loss(evrec_pf_writer_t *w, const evrec_record_t *rec)
{
    const evrec_damage_t *d = NULL;
    uint64_t k = 0;
    for (; (d = evrec_reader_damage(w->r, k)) != NULL; k++) {
        if (d->index_after == rec->index) {
            break;
        }
    }
    loss_instant(w, "damaged");
    if (d && d->records_lost != UINT64_MAX) {
        ann_uint(ann_named(w, "count"), d->records_lost);
        ann_uint(ann_named(w, "first_lost_record"), rec->index - d->records_lost);
    }
    ann_uint(ann_named(w, "next_record"), rec->index);
    if (d) {
        ann_str(ann_named(w, "status"), status_name(d->status));
        ann_uint(ann_named(w, "offset"), d->offset);
        ann_str(ann_named(w, "message"), d->message);
        if (k < PF_DAMAGE_KEPT) {
            w->damage_done[k] = 1;
        }
    }
    ann_str(ann_named(w, "what"), "records lost to a damaged chunk before this record (the reader resumed at "
                                  "the next SYNC point: index and time are exact)");
    te_write(w);
}

static int event_leaves(evrec_pf_writer_t *w, uint16_t id);

/* The record's time for the trace: ns (ticks when the clock is unknown), raised to the last time
 * written when it is earlier (*clamped = the raise). The header's losses before the first. */
static uint64_t record_time(evrec_pf_writer_t *w, const evrec_record_t *rec, uint64_t *clamped)
{
    uint64_t ts = w->ns_known ? rec->ns : rec->t64;
    *clamped = 0;
    if (!w->started) {
        w->started = 1;
        w->last_ts = ts;
        header_losses(w, 0);
    }
    if (ts < w->last_ts) {
        *clamped = w->last_ts - ts;
        ts = w->last_ts;
        w->st.clamped++;
        if (*clamped > w->st.max_clamp_ns) {
            w->st.max_clamp_ns = *clamped;
        }
    }
    return ts;
}

/* Order and losses before a record at `ts`: a gap cuts the open spans at the last time written
 * and adds a "damaged" instant; the first unverified record an "unverified" one. */
static void record_losses(evrec_pf_writer_t *w, const evrec_record_t *rec, uint64_t ts)
{
    if (rec->gap) {
        evrec_spans_cut(w->pair); /* the slices open now end at w->last_ts (on_span) */
    }
    w->last_ts = ts;
    if (w->started_index && rec->index < w->max_index) {
        w->st.reordered++;
    }
    if (!w->started_index || rec->index > w->max_index) {
        w->max_index = rec->index;
    }
    w->started_index = 1;
    if (rec->unverified && !w->unverified_seen) {
        w->unverified_seen = 1;
        loss_instant(w, "unverified");
        ann_uint(ann_named(w, "first_record"), rec->index);
        ann_str(ann_named(w, "what"), "from here on the records come from a truncated last chunk whose "
                                      "checksum could not be verified");
        te_write(w);
    }
    if (rec->gap) {
        gap_loss(w, rec);
    }
}

/* The current record as an instant on its lane: when it began and ended no slice, or when it is
 * an end that closed nothing (annotated unmatched_end, with the span's name). */
static void record_instant(evrec_pf_writer_t *w)
{
    const pf_cur_t *c = &w->cur;
    te_begin(w, c->ts, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT, w->lanes[c->lane].slot_uuid[0]);
    te_name(w, intern_event_name(w, c->rec->id, c->e->name), intern_category(w, c->e->class_id));
    record_annotations(w, c->e, c->rec, 0, c->clamped);
    if (c->unmatched) {
        ann_str(ann_new(w, fixed_name(w, AN_UNMATCHED)), c->unmatched);
        w->st.unmatched_ends++;
    }
    if (c->refused) {
        ann_str(ann_new(w, fixed_name(w, AN_REFUSED)), c->refused);
    }
    te_write(w);
    w->st.instants++;
}

/* One counter event per counter field of the record, on the lane's counter track. */
static void record_counters(evrec_pf_writer_t *w)
{
    const pf_cur_t *c = &w->cur;
    for (uint32_t i = 0; c->e->has_counters && i < c->e->leaf_count; i++) {
        const pf_leaf_t *l = &c->e->leaves[i];
        if (l->counter < 0) {
            continue;
        }
        uint32_t value = l->series_kind != EVREC_KIND_STRUCT
                             ? (uint32_t)load_be(c->rec->data + l->series_off, l->series_kind)
                             : UINT32_MAX;
        uint64_t track = counter_track(w, (uint32_t)l->counter, l, value);
        if (!track) {
            return;
        }
        te_begin(w, c->ts, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER, track);
        w->te.counter_value_field_case = PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
        w->te.counter_value = load_be(c->rec->data + l->offset, l->kind);
        if (w->counter_hook) {
            w->counter_hook(w->counter_hook_ctx, (uint32_t)l->counter, value, (uint32_t)w->te.counter_value);
        }
        te_write(w);
        w->st.counters++;
    }
}

static evrec_status process_record(evrec_pf_writer_t *w, const evrec_record_t *rec)
{
    if (rec->id >= w->event_count) {
        return EVREC_E_BAD_ID; /* cannot happen: the reader checks each record's id */
    }
    pf_event_t *e = &w->events[rec->id];
    if (!event_leaves(w, rec->id)) {
        w->nomem = 1;
        return EVREC_E_NOMEM;
    }
    uint64_t clamped;
    uint64_t ts = record_time(w, rec, &clamped);
    record_losses(w, rec, ts);
    w->st.records++;
    uint32_t lane = record_lane(w, e, rec);
    if (lane == UINT32_MAX) {
        w->io_error = 1;
        return EVREC_E_NOMEM;
    }
    pf_cur_t *c = &w->cur;
    memset(c, 0, sizeof *c);
    c->e = e;
    c->rec = rec;
    c->ts = ts;
    c->clamped = clamped;
    c->lane = lane;
    /* Ends first, then begins (a record may close one span and open another: an RTOS task
     * switch): on_span() and on_begin() write the slices. */
    if (w->pair && evrec_spans_add(w->pair, rec) == EVREC_E_NOMEM) {
        w->io_error = 1;
        w->nomem = 1;
    }
    if (!c->done || c->unmatched) {
        record_instant(w);
    }
    record_counters(w);
    if (w->sched && pf_sched_record(w->sched, rec) == EVREC_E_NOMEM) {
        w->io_error = 1;
        w->nomem = 1;
    }
    if (w->io_error) {
        return w->nomem ? EVREC_E_NOMEM : EVREC_E_IO;
    }
    return EVREC_OK;
}

evrec_status evrec_pf_record(evrec_pf_writer_t *w, const evrec_record_t *rec)
{
    if (!w || !rec || rec->id >= w->event_count || !rec->data || rec->size > EVREC_MAX_EVENT_SIZE) {
        return EVREC_E_ARG;
    }
    if (w->io_error) {
        return w->nomem ? EVREC_E_NOMEM : EVREC_E_IO;
    }
    return process_record(w, rec);
}

/* The damaged ranges not written at a gap: where the reader stopped (`damage`), and those that
 * lost no record (a display-only chunk, a repaired header: count 0). */
static void final_damage(evrec_pf_writer_t *w, const evrec_reader_error_t *damage)
{
    const evrec_file_info_t *fi = evrec_reader_info(w->r);
    const evrec_damage_t *d;
    uint64_t n = 0;
    for (uint64_t i = 0; (d = evrec_reader_damage(w->r, i)) != NULL || (i == 0 && n == 0); i++) {
        if (d && i < PF_DAMAGE_KEPT && w->damage_done[i]) {
            n++;
            continue;
        }
        int none = d && d->records_lost == 0;
        loss_instant(w, "damaged");
        ann_str(ann_named(w, "status"), status_name(d ? d->status : damage->status));
        ann_uint(ann_named(w, "offset"), d ? d->offset : damage->offset);
        ann_str(ann_named(w, "message"), d ? d->message : damage->message);
        if (none) {
            ann_uint(ann_named(w, "count"), 0);
        } else if (fi->format == EVREC_FILE_CONTAINER && fi->recorded != UINT64_MAX) {
            ann_uint(ann_named(w, "header_recorded"), fi->recorded);
        }
        ann_str(ann_named(w, "what"),
                none ? "a damaged chunk that lost no record (display attributes, a SYNC point or a repaired "
                       "header; the time here is not where it was)"
                     : "the reader stopped here; records after the damage are not in the trace");
        te_write(w);
        n++;
        if (!d) {
            break;
        }
    }
}

evrec_status evrec_pf_finish(evrec_pf_writer_t *w, const evrec_reader_error_t *damage)
{
    if (!w) {
        return EVREC_E_ARG;
    }
    if (!w->started) {
        w->started = 1;
        header_losses(w, 0);
    }
    header_losses(w, 1);
    if (damage && damage->status != EVREC_OK && damage->status != EVREC_E_END) {
        final_damage(w, damage);
    }
    if (w->pair) {
        (void)evrec_spans_finish(w->pair); /* what is open stays open ("did not end"): open_at_end */
    }
    if (w->sched) {
        if (pf_sched_finish(w->sched) == EVREC_E_NOMEM) {
            w->io_error = w->nomem = 1;
        }
        w->st.sched_switches = pf_sched_stats(w->sched)->switches;
        w->st.sched_wakings = pf_sched_stats(w->sched)->wakings;
        w->st.sched_threads = pf_sched_stats(w->sched)->threads;
    }
    if (w->io_error || fflush(w->f) != 0 || ferror(w->f)) {
        w->io_error = 1;
        return w->nomem ? EVREC_E_NOMEM : EVREC_E_IO;
    }
    return EVREC_OK;
}

const evrec_pf_stats_t *evrec_pf_stats(const evrec_pf_writer_t *w)
{
    return &w->st;
}

/* ---- open / close ------------------------------------------------------------------- */

static uint32_t domain_of(evrec_pf_writer_t *w, const pf_leaf_t *l, const char *path)
{
    uint32_t enum_id = l->kind >= EVREC_KIND_ENUM_UINT8 ? l->enum_id : UINT32_MAX;
    for (uint32_t d = 1; d < w->domain_count; d++) {
        if (w->domains[d].enum_id == enum_id && (enum_id != UINT32_MAX || strcmp(w->domains[d].path, path) == 0)) {
            return d;
        }
    }
    pf_domain_t *p = realloc(w->domains, (w->domain_count + 1) * sizeof *p);
    if (!p) {
        w->nomem = 1;
        return DOMAIN_CLASSES;
    }
    w->domains = p;
    p[w->domain_count].enum_id = enum_id;
    p[w->domain_count].path = enum_id == UINT32_MAX ? xstrdup(w, path) : NULL;
    return w->domain_count++;
}

/* The number of leaves 2, 3, ... of event `id` the reader finds (at most PF_MAX_LEAVES): leaf k
 * exists when every leaf before it does, so a binary search finds the count in a few walks. */
static uint32_t count_leaves(const evrec_pf_writer_t *w, uint16_t id)
{
    evrec_leaf_info_t li;
    uint32_t lo = 0, hi = PF_MAX_LEAVES;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (evrec_reader_leaf(w->r, id, mid + 2, &li, NULL, 0) == EVREC_OK) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* The leaves of owner event `e` (its first record): offsets, kinds, counters, the four
 * annotation names of each. 1, or 0 out of memory. */
static int build_leaves(evrec_pf_writer_t *w, uint16_t id)
{
    pf_event_t *e = &w->events[id];
    uint32_t n = e->leaf_count;
    e->built = 1;
    if (!n) {
        return 1;
    }
    e->leaves = calloc(n, sizeof *e->leaves);
    e->ann_emitted = calloc(4 * (size_t)n, 1);
    if (!e->leaves || !e->ann_emitted) {
        return 0;
    }
    evrec_leaf_info_t li;
    char path[(EVREC_MAX_NESTING + 1) * (EVREC_READER_MAX_NAME + 1) + 1];
    for (uint32_t i = 0; i < n; i++) {
        pf_leaf_t *l = &e->leaves[i];
        if (evrec_reader_leaf(w->r, id, i + 2, &li, path, sizeof path) != EVREC_OK) {
            return 0;
        }
        l->offset = li.packed_offset;
        l->kind = li.kind;
        l->enum_id = li.ref;
        l->counter = -1;
        const evrec_field_info_t *fi = evrec_reader_field_info(w->r, li.struct_id, li.field_index);
        l->display = fi ? fi->display : EVREC_DISPLAY_DEFAULT;
        for (uint32_t c = 0; w->tracks && c < w->tracks->counter_count; c++) {
            if (w->tracks->counters[c].struct_id == li.struct_id &&
                w->tracks->counters[c].field_index == li.field_index) {
                l->counter = (int32_t)c;
                e->has_counters = 1;
            }
        }
        l->series_kind = EVREC_KIND_STRUCT;
        evrec_leaf_info_t si;
        uint16_t sl = l->counter >= 0 ? evrec_meta_counter_series_leaf(w->meta, id, i + 2) : EVREC_TRACKS_NONE;
        if (sl != EVREC_TRACKS_NONE && evrec_reader_leaf(w->r, id, sl, &si, NULL, 0) == EVREC_OK) {
            l->series_off = si.packed_offset;
            l->series_kind = si.kind;
            l->series_enum = si.ref;
        }
        l->path = path_index(w, path);
        if (w->nomem) {
            return 0;
        }
    }
    return 1;
}

/* Event `id`'s leaves, built on its first record (its owner's when shared): a file may list
 * thousands of event types whose structs each nest one struct of many leaves; only the types it
 * records cost their leaves. 1, or 0 out of memory. */
static int event_leaves(evrec_pf_writer_t *w, uint16_t id)
{
    pf_event_t *e = &w->events[id];
    if (e->built) {
        return 1;
    }
    pf_event_t *o = &w->events[e->owner];
    if (!o->built && !build_leaves(w, (uint16_t)e->owner)) {
        return 0;
    }
    if (e != o) {
        e->leaves = o->leaves;
        e->ann_emitted = o->ann_emitted;
        e->has_counters = o->has_counters;
        e->built = 1;
    }
    return 1;
}

/* first_of_struct: per struct, 1 + the first event on it (0: none yet). Events on one struct
 * share its leaves and their interned names (a file may list 65,535 events on one wide struct in
 * 8 bytes each). The leaves themselves are built on the first record (event_leaves()); here only
 * their count, the annotation name iids and the track's lane domain. */
static int build_event(evrec_pf_writer_t *w, uint16_t id, uint64_t *ann_next, uint32_t *first_of_struct)
{
    pf_event_t *e = &w->events[id];
    e->name = evrec_reader_event_name(w->r, id);
    e->class_id = w->meta->events[id].class_id < w->event_count ? w->meta->events[id].class_id : id;
    evrec_leaf_info_t li;
    uint32_t n = 0;
    uint16_t sid = w->meta->events[id].struct_id;
    if (first_of_struct[sid]) {
        const pf_event_t *o = &w->events[first_of_struct[sid] - 1];
        e->shared = 1;
        e->owner = first_of_struct[sid] - 1;
        e->leaf_count = n = o->leaf_count;
        e->ann_base = o->ann_base;
        goto track;
    }
    first_of_struct[sid] = (uint32_t)id + 1u;
    e->owner = id;
    n = count_leaves(w, id);
    e->leaf_count = n;
    e->ann_base = *ann_next;
    *ann_next += 4 * (uint64_t)n;
track:
    e->track_leaf = evrec_reader_event_track(w->r, id);
    if (e->track_leaf != EVREC_TRACKS_NONE) {
        if (e->track_leaf < 2 || e->track_leaf - 2u >= n) {
            e->track_leaf = EVREC_TRACKS_NONE;
        } else {
            char path[(EVREC_MAX_NESTING + 1) * (EVREC_READER_MAX_NAME + 1) + 1];
            if (evrec_reader_leaf(w->r, id, e->track_leaf, &li, path, sizeof path) != EVREC_OK) {
                return 0;
            }
            pf_leaf_t tl = {0};
            tl.kind = li.kind;
            tl.enum_id = li.ref;
            e->domain = domain_of(w, &tl, path);
        }
    }
    return 1;
}

/* The writer's tables: per event (leaves counted, names, tracks), the span pairing. 0: no memory. */
static int writer_tables(evrec_pf_writer_t *w, evrec_reader_t *r, FILE *f, const char *trace_name)
{
    w->r = r;
    w->f = f;
    w->meta = evrec_reader_meta(r);
    w->tracks = evrec_reader_tracks(r);
    w->event_count = w->meta->event_count;
    w->ns_known = evrec_reader_time_freq(r, NULL) != 0;
    w->next_uuid = PF_UUID_FIRST;
    w->next_str_iid = PF_STR_FIRST;
    w->trace_name = xstrdup(w, trace_name);
    uint32_t names = w->event_count + (w->tracks ? w->tracks->span_count : 0);
    w->name_emitted = calloc(names ? names : 1, 1);
    w->cat_emitted = calloc(w->event_count ? w->event_count : 1, 1);
    w->events = calloc(w->event_count ? w->event_count : 1, sizeof *w->events);
    w->domains = calloc(1, sizeof *w->domains);
    if (!w->trace_name || !w->name_emitted || !w->cat_emitted || !w->events || !w->domains) {
        return 0;
    }
    w->domains[0].enum_id = UINT32_MAX - 1;
    w->domain_count = 1;
    uint64_t ann_next = AN_FIXED_COUNT;
    uint32_t *first_of_struct = calloc(w->meta->struct_count ? w->meta->struct_count : 1, sizeof *first_of_struct);
    for (uint32_t id = 0; id < w->event_count; id++) {
        if (!first_of_struct || !build_event(w, (uint16_t)id, &ann_next, first_of_struct) || w->nomem) {
            free(first_of_struct);
            return 0;
        }
    }
    free(first_of_struct);
    if (w->tracks && w->tracks->span_count) { /* a track model the reader accepted resolves */
        if (evrec_spans_create(&w->pair, r, on_span, w) == EVREC_E_NOMEM) {
            return 0;
        }
        evrec_spans_on_begin(w->pair, on_begin, w);
    }
    evrec_status st = pf_sched_create(&w->sched, r, w->ns_known, PF_PID, sched_write, w);
    return st == EVREC_OK || st == EVREC_E_UNSUPPORTED; /* not a kernel trace: no sched data */
}

/* The first packet: the file's process-like track; it clears the sequence's incremental state
 * (the interned names that follow are valid from here on). */
static void first_packet(evrec_pf_writer_t *w, evrec_reader_t *r)
{
    td_begin(w, PF_UUID_FILE, 0, w->trace_name);
    w->pkt.has_timestamp = 0;
    w->pkt.has_first_packet_on_sequence = 1;
    w->pkt.first_packet_on_sequence = 1;
    w->pkt.has_sequence_flags = 1;
    w->pkt.sequence_flags = PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED;
    Perfetto__Protos__ProcessDescriptor pd = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
    w->pd = pd;
    w->pd.has_pid = 1;
    w->pd.pid = PF_PID;
    w->pd.process_name = w->trace_name;
    w->td.process = &w->pd;
    w->td.has_child_ordering = 1;
    w->td.child_ordering = PERFETTO__PROTOS__TRACK_DESCRIPTOR__CHILD_TRACKS_ORDERING__LEXICOGRAPHIC;
    const evrec_file_info_t *fi = evrec_reader_info(r);
    char desc[256];
    evrec_time_source src = EVREC_TIME_UNKNOWN;
    uint64_t freq = evrec_reader_time_freq(r, &src);
    snprintf(desc, sizeof desc, "%s; timestamp frequency %llu Hz%s; schema hash 0x%016llx",
             fi->format == EVREC_FILE_CCORE ? "CCore EventRecorder stream" : "evrec container",
             (unsigned long long)freq, w->ns_known ? "" : " (unknown: times are ticks, not ns)",
             (unsigned long long)fi->schema_hash_computed);
    w->td.description = desc;
    pkt_write(w);
    w->td.description = NULL; /* desc lives until here */
}

evrec_status evrec_pf_open(evrec_pf_writer_t **out, evrec_reader_t *r, FILE *f, const char *trace_name)
{
    if (!out) {
        return EVREC_E_ARG;
    }
    *out = NULL;
    if (!r || !f || !trace_name || !evrec_reader_meta(r)) {
        return EVREC_E_ARG;
    }
    evrec_pf_writer_t *w = calloc(1, sizeof *w);
    if (!w) {
        return EVREC_E_NOMEM;
    }
    if (!writer_tables(w, r, f, trace_name)) {
        evrec_pf_close(w);
        return EVREC_E_NOMEM;
    }
    first_packet(w, r);
    if (w->io_error) {
        evrec_pf_close(w);
        return EVREC_E_IO;
    }
    *out = w;
    return EVREC_OK;
}

void evrec_pf_close(evrec_pf_writer_t *w)
{
    if (!w) {
        return;
    }
    for (uint32_t i = 0; w->events && i < w->event_count; i++) {
        pf_event_t *e = &w->events[i];
        if (!e->shared) {
            free(e->leaves);
            free(e->ann_emitted);
        }
    }
    for (uint32_t d = 0; d < w->domain_count; d++) {
        free(w->domains[d].path);
    }
    for (uint32_t i = 0; i < w->path_count; i++) {
        for (int v = 0; v < 4; v++) {
            free(w->paths[i].names[v]);
        }
    }
    free(w->paths);
    free(w->path_slots);
    for (uint32_t l = 0; l < w->lane_count; l++) {
        free(w->lanes[l].name);
        free(w->lanes[l].slot_uuid);
        free(w->lanes[l].slot_open);
    }
    map_free(&w->ctr_map);
    free(w->ctr_uuid);
    free(w->lanes);
    free(w->domains);
    free(w->events);
    free(w->name_emitted);
    free(w->cat_emitted);
    free(w->trace_name);
    evrec_spans_free(w->pair);
    pf_sched_free(w->sched);
    free(w->inst);
    free(w->buf);
    map_free(&w->lane_map);
    map_free(&w->str_map);
    free(w);
}
