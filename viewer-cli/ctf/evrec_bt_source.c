/* SPDX-License-Identifier: Apache-2.0 */
/* source.evrec.file: evrec recordings as babeltrace2 traces (see evrec_bt_source.h and
 * README.md in this folder). Structure after babeltrace2's own one-file source, src.text.dmesg:
 * a component that owns the trace IR classes, and message iterators that read the file. */
#include "evrec_bt_source.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_bytes.h"
#include "evrec/evrec_reader_order.h"

/* ---- data ------------------------------------------------------------------------------- */

/* A leaf field of an event type: where its value lies in the packed record and which payload
 * member it fills (member index at each struct level). */
typedef struct evbt_leaf {
    uint16_t offset; /* bytes into the packed record */
    uint8_t size;    /* 1, 2 or 4 bytes, big-endian */
    uint8_t depth;   /* path[0..depth] */
    uint16_t path[EVREC_MAX_NESTING + 1];
} evbt_leaf_t;

typedef struct evbt_event {
    bt_event_class *ec; /* NULL until the first record of the type (build_event()) */
    uint32_t save_len;
    uint32_t leaf_count;
    evbt_leaf_t *leaves;
} evbt_event_t;

/* One named value of an enum: labels are grouped by name for the CTF mappings. */
typedef struct evbt_label {
    const char *name;
    uint32_t value;
} evbt_label_t;

typedef struct evbt_enum {
    int built;
    uint32_t count;
    evbt_label_t *labels; /* sorted by name, then value */
} evbt_enum_t;

typedef struct evbt_input {
    char *path;
    char *name; /* the file's base name without ".evr": the trace's name (the
                                   directory sink.ctf.fs makes for it), "NAME-stream" the stream's */
    evrec_file_info_t info;
    uint64_t reader_freq; /* the reader's effective frequency, Hz (0 = unknown) */
    evrec_time_source time_source;
    int clock_ns; /* values are ns of t64 at reader_freq, else t64 ticks */
    bt_trace_class *tc;
    bt_stream_class *sc;
    uint32_t event_count;
    evbt_event_t *events;  /* event classes made on first use (build_event()) */
    uint32_t classes_made; /* at most EVREC_BT_MAX_EVENT_CLASSES */
    uint32_t enum_count;
    evbt_enum_t *enums;      /* CTF labels of each enum, made on first use */
    evrec_bt_stats_t *stats; /* in-process user's, or NULL */
} evbt_input_t;

typedef struct evbt_comp {
    bt_self_component *self;
    bt_logging_level log_level;
    evrec_reader_options_t ropt;
    uint32_t reorder_window;
    bt_clock_class *cc;
    uint64_t clock_freq;
    size_t input_count;
    evbt_input_t *inputs;
} evbt_comp_t;

enum { ST_HEAD, ST_EVENTS, ST_TAIL, ST_DONE };
#define QUEUE_CAP 16u

typedef struct evbt_iter {
    evbt_comp_t *comp;
    evbt_input_t *in;
    bt_self_message_iterator *self;
    evrec_reader_t *r;
    bt_trace *trace;
    bt_stream *stream;
    bt_packet *packet;
    int state;
    int reader_done;
    evrec_status end_status;
    /* time order: the reader's ordered iteration (evrec_reader_order.h) over comp->reorder_window records */
    evrec_order_t *order;
    uint64_t last_t64;   /* t64 of the last event sent (its time after clamping) */
    uint64_t last_value; /* clock value of the last message sent */
    evrec_bt_stats_t st;
    /* messages made but not yet handed out */
    const bt_message *queue[QUEUE_CAP];
    unsigned qhead, qlen;
} evbt_iter_t;

const char evrec_bt_source_description[] =
    "Read evrec recordings (.evr containers and bare CCore EventRecorder streams).";

const char evrec_bt_source_help[] =
    "Parameters:\n"
    "  inputs          array of paths of .evr files (mandatory); each is one trace, one stream\n"
    "  tick-hz         EventControl Tick was recorded at this rate (Hz): derive the timestamp\n"
    "                  frequency from the ticks (default when the file has none: 10 Hz)\n"
    "  time-freq       timestamp frequency (Hz) to use instead of the file's\n"
    "  reorder-window  records held back to restore time order (default 4096)\n"
    "\n"
    "One event class per event type of the file's meta-info; fields as unsigned integers of\n"
    "their width, enums as unsigned enumerations with every value name (run-time names too),\n"
    "nested structs as structures. Dropped, overwritten and damaged records become\n"
    "discarded-events messages. See viewer-cli/ctf/README.md in the evrec sources.\n";

/* ---- small helpers ------------------------------------------------------------------------ */

static void comp_warn(const evbt_comp_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void comp_warn(const evbt_comp_t *c, const char *fmt, ...)
{
    if (c->log_level > BT_LOGGING_LEVEL_WARNING) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    fputs("evrec (source.evrec.file): warning: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) {
        memcpy(p, s, n);
    }
    return p;
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    return *b ? b : path;
}

/* The reader's error as one line: "PATH: offset N: message". */
static void describe_error(char *buf, size_t cap, const char *path, const evrec_reader_t *r)
{
    const evrec_reader_error_t *e = r ? evrec_reader_error(r) : NULL;
    if (!e) {
        snprintf(buf, cap, "%s: out of memory", path);
    } else if (e->status == EVREC_E_IO && e->offset == 0) {
        snprintf(buf, cap, "%s: %s", path, e->message);
    } else {
        snprintf(buf, cap, "%s: offset %llu: %s", path, (unsigned long long)e->offset, e->message);
    }
}

/* ---- field names ------------------------------------------------------------------------- */

/* A TSDL identifier for a member name: letters, digits and '_', not starting with a digit;
 * other bytes become '_'; a name already used by a sibling gets "_2", "_3" ... (sink.ctf.fs
 * itself protects TSDL keywords and leading underscores). malloc'd. */
static char *member_name(const char *name, char *const *siblings, size_t n_siblings)
{
    size_t len = strlen(name);
    char *base = malloc(len + 2);
    if (!base) {
        return NULL;
    }
    size_t o = 0;
    if (len == 0 || (name[0] >= '0' && name[0] <= '9')) {
        base[o++] = '_';
    }
    for (size_t i = 0; i < len; i++) {
        char ch = name[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
        base[o++] = ok ? ch : '_';
    }
    base[o] = 0;
    char *out = dup_str(base);
    for (unsigned k = 2; out; k++) {
        int clash = 0;
        for (size_t i = 0; i < n_siblings && !clash; i++) {
            clash = strcmp(siblings[i], out) == 0;
        }
        if (!clash) {
            break;
        }
        free(out);
        size_t cap = o + 16;
        out = malloc(cap);
        if (out) {
            snprintf(out, cap, "%s_%u", base, k);
        }
    }
    free(base);
    return out;
}

/* ---- enum labels -------------------------------------------------------------------------- */

static int label_cmp(const void *a, const void *b)
{
    const evbt_label_t *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c) {
        return c;
    }
    return x->value < y->value ? -1 : x->value > y->value;
}

/* Every named value of an enum, static and named at run time, sorted by name then value. */
static int enum_labels(const evrec_meta_t *m, uint16_t enum_id, evbt_enum_t *e)
{
    if (e->built) {
        return 0;
    }
    const evrec_enum_desc_t *d = &m->enums[enum_id];
    size_t n = d->value_count;
    /* Run-time names: the reader's `names` covers [base, next) (next = one past the highest
     * named value, at most lim), as a recorder's does after its allocations. */
    const evrec_runtime_enum_t *rt = d->runtime;
    uint32_t rt_end = 0;
    if (rt && rt->names && rt->lim > rt->base) {
        size_t next = evrec_atomic_load(&rt->next);
        rt_end = next < rt->lim ? (uint32_t)next : rt->lim;
        if (rt_end > rt->base) {
            n += rt_end - rt->base;
        }
    }
    e->labels = n ? malloc(n * sizeof *e->labels) : NULL;
    if (n && !e->labels) {
        return -1;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < d->value_count; i++) {
        if (d->values[i].name) {
            e->labels[k].name = d->values[i].name;
            e->labels[k++].value = d->values[i].value;
        }
    }
    if (rt && rt->names && rt_end > rt->base) {
        for (uint32_t v = rt->base; v < rt_end; v++) {
            if (rt->names[v - rt->base]) {
                e->labels[k].name = rt->names[v - rt->base];
                e->labels[k++].value = v;
            }
        }
    }
    e->count = k;
    if (k > 1) {
        qsort(e->labels, k, sizeof *e->labels, label_cmp);
    }
    e->built = 1;
    return 0;
}

typedef struct evbt_group {
    uint32_t first, end; /* labels[first, end) share a name */
    uint32_t min;        /* smallest value */
} evbt_group_t;

static int group_cmp(const void *a, const void *b)
{
    const evbt_group_t *x = a, *y = b;
    return x->min < y->min ? -1 : x->min > y->min;
}

/* An unsigned enumeration field class of `bits` with one mapping per distinct name, in the order
 * of their smallest values; the ranges of a mapping are the runs of consecutive values carrying
 * that name. */
static bt_field_class *make_enum_fc(bt_trace_class *tc, const evbt_enum_t *e, unsigned bits)
{
    bt_field_class *fc = bt_field_class_enumeration_unsigned_create(tc);
    if (!fc) {
        return NULL;
    }
    bt_field_class_integer_set_field_value_range(fc, bits);
    uint64_t max = bits >= 32 ? UINT32_MAX : (UINT64_C(1) << bits) - 1u;
    evbt_group_t *groups = malloc((e->count ? e->count : 1) * sizeof *groups);
    if (!groups) {
        bt_field_class_put_ref(fc);
        return NULL;
    }
    uint32_t ng = 0;
    for (uint32_t i = 0; i < e->count;) {
        uint32_t j = i + 1;
        while (j < e->count && strcmp(e->labels[j].name, e->labels[i].name) == 0) {
            j++;
        }
        groups[ng].first = i;
        groups[ng].end = j;
        groups[ng++].min = e->labels[i].value; /* sorted by name, then value */
        i = j;
    }
    qsort(groups, ng, sizeof *groups, group_cmp);
    for (uint32_t g = 0; g < ng; g++) {
        uint32_t i = groups[g].first, j = i;
        bt_integer_range_set_unsigned *rs = bt_integer_range_set_unsigned_create();
        if (!rs) {
            goto fail;
        }
        int any = 0;
        while (j < groups[g].end) {
            uint32_t lo = e->labels[j].value, hi = lo;
            j++;
            while (j < groups[g].end && e->labels[j].value == hi + 1u) {
                hi++;
                j++;
            }
            if (lo > max) {
                continue;
            }
            if (hi > max) {
                hi = (uint32_t)max;
            }
            if (bt_integer_range_set_unsigned_add_range(rs, lo, hi) != BT_INTEGER_RANGE_SET_ADD_RANGE_STATUS_OK) {
                bt_integer_range_set_unsigned_put_ref(rs);
                goto fail;
            }
            any = 1;
        }
        if (any && bt_field_class_enumeration_unsigned_add_mapping(fc, e->labels[i].name, rs) !=
                       BT_FIELD_CLASS_ENUMERATION_ADD_MAPPING_STATUS_OK) {
            bt_integer_range_set_unsigned_put_ref(rs);
            goto fail;
        }
        bt_integer_range_set_unsigned_put_ref(rs);
    }
    free(groups);
    return fc;
fail:
    free(groups);
    bt_field_class_put_ref(fc);
    return NULL;
}

/* ---- event classes ------------------------------------------------------------------------ */

typedef struct build_ctx {
    evbt_comp_t *comp;
    evbt_input_t *in;
    const evrec_reader_t *r;
    const evrec_meta_t *m;
    evbt_enum_t *enums;
    evbt_leaf_t *leaves; /* growing array */
    uint32_t leaf_count, leaf_cap;
    uint16_t path[EVREC_MAX_NESTING + 1];
    uint32_t offset;   /* bytes into the packed record */
    const char *error; /* static text of the first problem */
} build_ctx_t;

static int add_leaf(build_ctx_t *b, unsigned depth, unsigned size)
{
    if (b->leaf_count == b->leaf_cap) {
        uint32_t cap = b->leaf_cap ? b->leaf_cap * 2 : 16;
        evbt_leaf_t *p = realloc(b->leaves, cap * sizeof *p);
        if (!p) {
            b->error = "out of memory";
            return -1;
        }
        b->leaves = p;
        b->leaf_cap = cap;
    }
    evbt_leaf_t *l = &b->leaves[b->leaf_count++];
    l->offset = (uint16_t)b->offset;
    l->size = (uint8_t)size;
    l->depth = (uint8_t)depth;
    memcpy(l->path, b->path, sizeof l->path);
    return 0;
}

static void set_field_user_attributes(bt_field_class *fc, const evrec_field_info_t *fi)
{
    if (!fi || (!fi->unit && !fi->description && fi->display == EVREC_DISPLAY_DEFAULT)) {
        return;
    }
    bt_value *top = bt_value_map_create();
    bt_value *ev = bt_value_map_create();
    if (top && ev) {
        static const char *const displays[] = {"default", "decimal", "hex", "address"};
        if (fi->display <= EVREC_DISPLAY_ADDRESS) {
            bt_value_map_insert_string_entry(ev, "format", displays[fi->display]);
        }
        if (fi->unit) {
            bt_value_map_insert_string_entry(ev, "unit", fi->unit);
        }
        if (fi->description) {
            bt_value_map_insert_string_entry(ev, "description", fi->description);
        }
        if (bt_value_map_insert_entry(top, "evrec", ev) == BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK) {
            bt_field_class_set_user_attributes(fc, top);
        }
    }
    bt_value_put_ref(ev);
    bt_value_put_ref(top);
}

/* The structure field class of struct `sid` (skip_header: an event's struct, whose time and id
 * are the event's clock snapshot and class). Appends its leaves. */
static bt_field_class *build_struct(build_ctx_t *b, uint16_t sid, unsigned depth, int skip_header)
{
    const evrec_struct_desc_t *s = &b->m->structs[sid];
    bt_field_class *st = bt_field_class_structure_create(b->in->tc);
    if (!st) {
        b->error = "out of memory";
        return NULL;
    }
    char **names = calloc(s->field_count ? s->field_count : 1, sizeof *names);
    uint64_t n_members = 0;
    if (!names) {
        b->error = "out of memory";
        goto fail;
    }
    for (uint32_t i = 0; i < s->field_count; i++) {
        const evrec_field_desc_t *f = &s->fields[i];
        unsigned size = 0, bits = 0;
        bt_field_class *fc = NULL;
        switch (f->kind) {
        case EVREC_KIND_UINT8:
        case EVREC_KIND_ENUM_UINT8: size = 1; break;
        case EVREC_KIND_UINT16:
        case EVREC_KIND_ENUM_UINT16: size = 2; break;
        case EVREC_KIND_UINT32:
        case EVREC_KIND_ENUM_UINT32: size = 4; break;
        case EVREC_KIND_STRUCT: break;
        default: b->error = "a field of unknown kind"; goto fail;
        }
        bits = size * 8u;
        if (skip_header && i < 2) {
            b->offset += size; /* time and id */
            continue;
        }
        if (depth > EVREC_MAX_NESTING) {
            b->error = "structs nested too deep";
            goto fail;
        }
        b->path[depth] = (uint16_t)n_members;
        if (f->kind == EVREC_KIND_STRUCT) {
            if (f->ref >= b->m->struct_count || depth + 1u > EVREC_MAX_NESTING) {
                b->error = "a struct field refers to a bad struct or nests too deep";
                goto fail;
            }
            fc = build_struct(b, f->ref, depth + 1u, 0);
            if (!fc) {
                goto fail;
            }
        } else {
            if (f->kind >= EVREC_KIND_ENUM_UINT8) {
                if (f->ref >= b->m->enum_count || enum_labels(b->m, f->ref, &b->enums[f->ref])) {
                    b->error = f->ref >= b->m->enum_count ? "an enum field refers to a bad enum" : "out of memory";
                    goto fail;
                }
                fc = make_enum_fc(b->in->tc, &b->enums[f->ref], bits);
            } else {
                fc = bt_field_class_integer_unsigned_create(b->in->tc);
                if (fc) {
                    bt_field_class_integer_set_field_value_range(fc, bits);
                }
            }
            if (!fc) {
                b->error = "out of memory";
                goto fail;
            }
            const evrec_field_info_t *fi = evrec_reader_field_info(b->r, sid, i);
            if (fi && (fi->display == EVREC_DISPLAY_HEX || fi->display == EVREC_DISPLAY_ADDRESS)) {
                bt_field_class_integer_set_preferred_display_base(
                    fc, BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL);
            }
            set_field_user_attributes(fc, fi);
            if (add_leaf(b, depth, size)) {
                bt_field_class_put_ref(fc);
                goto fail;
            }
            b->offset += size;
        }
        names[n_members] = member_name(f->name, names, (size_t)n_members);
        if (!names[n_members] || bt_field_class_structure_append_member(st, names[n_members], fc) !=
                                     BT_FIELD_CLASS_STRUCTURE_APPEND_MEMBER_STATUS_OK) {
            bt_field_class_put_ref(fc);
            b->error = "out of memory";
            goto fail;
        }
        n_members++;
        bt_field_class_put_ref(fc);
    }
    for (uint64_t i = 0; i < n_members; i++) {
        free(names[i]);
    }
    free(names);
    return st;
fail:
    if (names) {
        for (uint64_t i = 0; i < n_members; i++) {
            free(names[i]);
        }
        free(names);
    }
    bt_field_class_put_ref(st);
    return NULL;
}

/* The event table of an input: every event type's record size, for the checks of emit_event();
 * the babeltrace2 event classes are made on first use (build_event()), so that a meta-info of
 * many event types costs time and memory only for those the records use (making a class checks
 * its id against every class of the stream class: all 65,536 up front would take quadratic
 * time). */
/* With more event types than EVREC_BT_MAX_EVENT_CLASSES in the meta-info: a first pass (the
 * reader's summary) counts those the records use, and more than the limit are refused before any
 * message (an error in the middle of the graph would leave a partial trace). 0 ok, -1 refused. */
static int check_types_used(evbt_comp_t *c, evbt_input_t *in, const evrec_meta_t *m)
{
    if (m->event_count <= EVREC_BT_MAX_EVENT_CLASSES) {
        return 0;
    }
    evrec_reader_t *r = NULL;
    evrec_reader_summary_t s;
    uint32_t used = 0;
    if (evrec_reader_open_path(&r, in->path, &c->ropt) == EVREC_OK) {
        evrec_reader_summarize(r, &s); /* damage: the counts of what could be read */
        for (uint32_t i = 0; s.event_counts && i < s.event_count; i++) {
            used += s.event_counts[i] != 0;
        }
    }
    evrec_reader_close(r);
    if (used <= EVREC_BT_MAX_EVENT_CLASSES) {
        return 0;
    }
    BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(
        c->self,
        "%s: the records use %u event types; a CTF conversion takes at most %u (babeltrace2 makes each "
        "event class in time that grows with the classes made before it); export --jsonl, --csv or "
        "--perfetto take any number",
        in->path, used, EVREC_BT_MAX_EVENT_CLASSES);
    return -1;
}

static int prepare_events(evbt_comp_t *c, evbt_input_t *in, const evrec_reader_t *r)
{
    const evrec_meta_t *m = evrec_reader_meta(r);
    if (check_types_used(c, in, m) != 0) {
        return -1;
    }
    in->enums = calloc(m->enum_count ? m->enum_count : 1, sizeof *in->enums);
    in->enum_count = m->enum_count;
    in->events = calloc(m->event_count, sizeof *in->events);
    in->event_count = m->event_count;
    if (!in->enums || !in->events) {
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(c->self, "%s: out of memory", in->path);
        return -1;
    }
    for (uint32_t id = 0; id < m->event_count; id++) {
        in->events[id].save_len = evrec_reader_event_size(r, (uint16_t)id);
    }
    return 0;
}

/* The event class's user attributes: {evrec: {id, class-id, class}} (the CCore class, for
 * viewers that group). */
static void set_class_attributes(bt_event_class *ec, const evrec_reader_t *r, uint16_t id, uint16_t cls)
{
    bt_value *top = bt_value_map_create(), *ua = bt_value_map_create();
    if (top && ua) {
        bt_value_map_insert_unsigned_integer_entry(ua, "id", id);
        bt_value_map_insert_unsigned_integer_entry(ua, "class-id", cls);
        const char *cls_name = evrec_reader_event_name(r, cls);
        if (cls_name) {
            bt_value_map_insert_string_entry(ua, "class", cls_name);
        }
        if (bt_value_map_insert_entry(top, "evrec", ua) == BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK) {
            bt_event_class_set_user_attributes(ec, top);
        }
    }
    bt_value_put_ref(ua);
    bt_value_put_ref(top);
}

/* The payload field class of event `id` and its leaves into ev; 0, or -1 with the error set. */
static int build_payload(build_ctx_t *b, evbt_event_t *ev, uint16_t id, const char *name)
{
    bt_self_component *self = b->comp->self;
    bt_field_class *payload = build_struct(b, b->m->events[id].struct_id, 0, 1);
    if (!payload) {
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(
            self, "%s: event %u (%s): cannot describe its fields: %s", b->in->path, id, name,
            b->error ? b->error : "babeltrace2 refused a field class");
        return -1;
    }
    int rc = -1;
    if (b->offset != ev->save_len) {
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(
            self, "%s: event %u (%s): its fields make %u bytes, its records have %u", b->in->path, id, name,
            b->offset, ev->save_len);
    } else if (b->leaf_count > 0 && bt_event_class_set_payload_field_class(ev->ec, payload) !=
                                        BT_EVENT_CLASS_SET_FIELD_CLASS_STATUS_OK) {
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(self, "%s: out of memory", b->in->path);
    } else if (b->leaf_count && !(ev->leaves = malloc(b->leaf_count * sizeof *ev->leaves))) {
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(self, "%s: out of memory", b->in->path);
    } else {
        if (b->leaf_count) {
            memcpy(ev->leaves, b->leaves, b->leaf_count * sizeof *ev->leaves);
        }
        ev->leaf_count = b->leaf_count;
        rc = 0;
    }
    bt_field_class_put_ref(payload);
    return rc;
}

/* Makes the event class of event `id` (first record of that type): name, user attributes,
 * payload. 0, or -1 with the error appended (ev->ec is then dropped: nothing half made stays). */
static int build_event(evbt_comp_t *c, evbt_input_t *in, const evrec_reader_t *r, uint16_t id)
{
    evbt_event_t *ev = &in->events[id];
    const evrec_meta_t *m = evrec_reader_meta(r);
    const char *name = evrec_reader_event_name(r, id);
    name = name ? name : "?";
    if (in->classes_made == EVREC_BT_MAX_EVENT_CLASSES) { /* check_types_used() saw fewer */
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(c->self,
                                                            "%s: event %u (%s): more than %u event types used",
                                                            in->path, id, name, EVREC_BT_MAX_EVENT_CLASSES);
        return -1;
    }
    in->classes_made++;
    ev->ec = bt_event_class_create_with_id(in->sc, id);
    if (!ev->ec || bt_event_class_set_name(ev->ec, name) != BT_EVENT_CLASS_SET_NAME_STATUS_OK) {
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(c->self, "%s: out of memory", in->path);
        return -1;
    }
    set_class_attributes(ev->ec, r, id, m->events[id].class_id);
    build_ctx_t b;
    memset(&b, 0, sizeof b);
    b.comp = c;
    b.in = in;
    b.r = r;
    b.m = m;
    b.enums = in->enums;
    int rc = build_payload(&b, ev, id, name);
    free(b.leaves);
    return rc;
}

/* ---- component ---------------------------------------------------------------------------- */

static void free_inputs(evbt_comp_t *c)
{
    for (size_t i = 0; i < c->input_count; i++) {
        evbt_input_t *in = &c->inputs[i];
        for (uint32_t e = 0; in->events && e < in->event_count; e++) {
            bt_event_class_put_ref(in->events[e].ec);
            free(in->events[e].leaves);
        }
        free(in->events);
        for (uint32_t k = 0; in->enums && k < in->enum_count; k++) {
            free(in->enums[k].labels);
        }
        free(in->enums);
        bt_stream_class_put_ref(in->sc);
        bt_trace_class_put_ref(in->tc);
        free(in->path);
        free(in->name);
    }
    free(c->inputs);
    c->inputs = NULL;
    c->input_count = 0;
}

static void destroy_comp(evbt_comp_t *c)
{
    if (!c) {
        return;
    }
    free_inputs(c);
    bt_clock_class_put_ref(c->cc);
    free(c);
}

/* An integer parameter >= min (signed or unsigned, as the CLI's `-p` makes them). */
static int param_uint(evbt_comp_t *c, const bt_value *params, const char *key, uint64_t min, uint64_t max,
                      uint64_t *out, int *given)
{
    const bt_value *v = bt_value_map_borrow_entry_value_const(params, key);
    *given = 0;
    if (!v) {
        return 0;
    }
    uint64_t x;
    if (bt_value_is_unsigned_integer(v)) {
        x = bt_value_integer_unsigned_get(v);
    } else if (bt_value_is_signed_integer(v) && bt_value_integer_signed_get(v) >= 0) {
        x = (uint64_t)bt_value_integer_signed_get(v);
    } else {
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(c->self, "parameter `%s` must be an integer >= %llu",
                                                            key, (unsigned long long)min);
        return -1;
    }
    if (x < min || x > max) {
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(
            c->self, "parameter `%s`: %llu is out of range %llu..%llu", key, (unsigned long long)x,
            (unsigned long long)min, (unsigned long long)max);
        return -1;
    }
    *out = x;
    *given = 1;
    return 0;
}

typedef struct key_check {
    char bad[128]; /* the first unknown key (reported after the walk: babeltrace2 forbids an
                      error appended during it by a function that returns OK) */
} key_check_t;

static bt_value_map_foreach_entry_const_func_status check_key(const char *key, const bt_value *v, void *data)
{
    (void)v;
    key_check_t *k = data;
    static const char *const known[] = {"inputs", "tick-hz", "time-freq", "reorder-window"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (strcmp(key, known[i]) == 0) {
            return BT_VALUE_MAP_FOREACH_ENTRY_CONST_FUNC_STATUS_OK;
        }
    }
    if (!k->bad[0]) {
        snprintf(k->bad, sizeof k->bad, "%s", key);
    }
    return BT_VALUE_MAP_FOREACH_ENTRY_CONST_FUNC_STATUS_OK;
}

static int handle_params(evbt_comp_t *c, const bt_value *params)
{
    if (!params || !bt_value_is_map(params)) {
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(c->self, "parameters must be a map");
        return -1;
    }
    key_check_t kc;
    kc.bad[0] = 0;
    bt_value_map_foreach_entry_const(params, check_key, &kc);
    if (kc.bad[0]) {
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(
            c->self, "unknown parameter `%s` (expected inputs, tick-hz, time-freq, reorder-window)", kc.bad);
        return -1;
    }
    const bt_value *inputs = bt_value_map_borrow_entry_value_const(params, "inputs");
    if (!inputs || !bt_value_is_array(inputs) || bt_value_array_get_length(inputs) == 0) {
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(
            c->self, "parameter `inputs` is mandatory: an array of .evr paths, e.g. inputs=[\"demo.evr\"]");
        return -1;
    }
    uint64_t n = bt_value_array_get_length(inputs);
    c->inputs = calloc((size_t)n, sizeof *c->inputs);
    if (!c->inputs) {
        return -1;
    }
    c->input_count = (size_t)n;
    for (uint64_t i = 0; i < n; i++) {
        const bt_value *p = bt_value_array_borrow_element_by_index_const(inputs, i);
        if (!bt_value_is_string(p) || !*bt_value_string_get(p)) {
            BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(
                c->self, "parameter `inputs`: element %llu is not a non-empty string", (unsigned long long)i);
            return -1;
        }
        const char *path = bt_value_string_get(p);
        for (uint64_t j = 0; j < i; j++) {
            if (strcmp(c->inputs[j].path, path) == 0) {
                BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(c->self,
                                                                    "parameter `inputs`: %s is given twice", path);
                return -1;
            }
        }
        c->inputs[i].path = dup_str(path);
        c->inputs[i].name = dup_str(base_name(path));
        size_t nl = c->inputs[i].name ? strlen(c->inputs[i].name) : 0;
        if (nl > 4 && strcmp(c->inputs[i].name + nl - 4, ".evr") == 0) {
            c->inputs[i].name[nl - 4] = 0;
        }
        if (!c->inputs[i].path || !c->inputs[i].name) {
            return -1;
        }
    }
    uint64_t v;
    int given;
    if (param_uint(c, params, "tick-hz", 1, 1000000000u, &v, &given)) {
        return -1;
    }
    if (given) {
        c->ropt.tick_hz = (uint32_t)v;
    }
    if (param_uint(c, params, "time-freq", 1, UINT64_MAX, &v, &given)) {
        return -1;
    }
    if (given) {
        c->ropt.time_freq = v;
    }
    c->reorder_window = EVREC_BT_REORDER_WINDOW;
    if (param_uint(c, params, "reorder-window", 1, EVREC_BT_REORDER_WINDOW_MAX, &v, &given)) {
        return -1;
    }
    if (given) {
        c->reorder_window = (uint32_t)v;
    }
    return 0;
}

/* Open an input once to learn its tables and clock. */
static int probe_input(evbt_comp_t *c, evbt_input_t *in, evrec_reader_t **out)
{
    evrec_reader_t *r = NULL;
    evrec_status st = evrec_reader_open_path(&r, in->path, &c->ropt);
    if (st != EVREC_OK) {
        char msg[1600];
        describe_error(msg, sizeof msg, in->path, r);
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(c->self, "cannot read %s", msg);
        evrec_reader_close(r);
        return -1;
    }
    in->info = *evrec_reader_info(r);
    in->reader_freq = evrec_reader_time_freq(r, &in->time_source);
    *out = r;
    return 0;
}

static const char *time_source_name(evrec_time_source s)
{
    switch (s) {
    case EVREC_TIME_FILE: return "the file's time_freq";
    case EVREC_TIME_OPTION: return "the time-freq parameter";
    case EVREC_TIME_TICKS: return "derived from EventControl ticks";
    default: return "unknown";
    }
}

/* One clock class for all inputs (so that a muxer can merge them): the file's own frequency
 * when every input has the same one from its time_freq (or the time-freq parameter), else ns.
 * A clock derived from ticks is given in ns; an unknown one in raw ticks labelled as such. */
static int make_clock(evbt_comp_t *c)
{
    uint64_t common = 0;
    int same = 1;
    for (size_t i = 0; i < c->input_count; i++) {
        evbt_input_t *in = &c->inputs[i];
        uint64_t f = 1000000000u;
        if (in->time_source == EVREC_TIME_FILE || in->time_source == EVREC_TIME_OPTION) {
            f = in->reader_freq;
        }
        if (i == 0) {
            common = f;
        } else if (f != common) {
            same = 0;
        }
    }
    c->clock_freq = same ? common : 1000000000u;
    for (size_t i = 0; i < c->input_count; i++) {
        evbt_input_t *in = &c->inputs[i];
        int native = in->time_source == EVREC_TIME_FILE || in->time_source == EVREC_TIME_OPTION;
        in->clock_ns = in->reader_freq != 0 && (!native || !same);
    }
    c->cc = bt_clock_class_create(c->self);
    if (!c->cc) {
        return -1;
    }
    bt_clock_class_set_frequency(c->cc, c->clock_freq);
    bt_clock_class_set_origin_is_unix_epoch(c->cc, BT_FALSE);
    bt_clock_class_set_name(c->cc, "evrec");
    char desc[256];
    const evbt_input_t *in0 = &c->inputs[0];
    if (c->input_count == 1 && in0->reader_freq == 0) {
        snprintf(desc, sizeof desc,
                 "evrec timestamp ticks since the first record; frequency unknown (shown as if ns)");
    } else if (c->input_count == 1 && !in0->clock_ns) {
        snprintf(desc, sizeof desc, "evrec timestamp ticks since the first record at %llu Hz (%s)",
                 (unsigned long long)c->clock_freq, time_source_name(in0->time_source));
    } else if (c->input_count == 1) {
        snprintf(desc, sizeof desc, "ns since the first record (%llu Hz, %s)",
                 (unsigned long long)in0->reader_freq, time_source_name(in0->time_source));
    } else {
        snprintf(desc, sizeof desc, "time since the first record of each recording");
    }
    bt_clock_class_set_description(c->cc, desc);
    return 0;
}

static int make_classes(evbt_comp_t *c, evbt_input_t *in, const evrec_reader_t *r)
{
    in->tc = bt_trace_class_create(c->self);
    if (!in->tc) {
        return -1;
    }
    in->sc = bt_stream_class_create(in->tc);
    if (!in->sc) {
        return -1;
    }
    bt_stream_class_set_name(in->sc, "evrec");
    if (bt_stream_class_set_default_clock_class(in->sc, c->cc) !=
        BT_STREAM_CLASS_SET_DEFAULT_CLOCK_CLASS_STATUS_OK) {
        return -1;
    }
    bt_stream_class_set_assigns_automatic_event_class_id(in->sc, BT_FALSE);
    /* Packets with times: sink.ctf.fs places discarded events between packets (CTF 1.8). */
    bt_stream_class_set_supports_packets(in->sc, BT_TRUE, BT_TRUE, BT_TRUE);
    bt_stream_class_set_supports_discarded_events(in->sc, BT_TRUE, BT_TRUE);
    return prepare_events(c, in, r);
}

bt_component_class_initialize_method_status evrec_bt_init(bt_self_component_source *self_src,
                                                          bt_self_component_source_configuration *config,
                                                          const bt_value *params, void *init_data)
{
    (void)config;
    bt_self_component *self = bt_self_component_source_as_self_component(self_src);
    evbt_comp_t *c = calloc(1, sizeof *c);
    if (!c) {
        return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
    }
    c->self = self;
    c->log_level = bt_component_get_logging_level(bt_self_component_as_component(self));
    evrec_reader_t **readers = NULL;
    bt_component_class_initialize_method_status status = BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
    if (handle_params(c, params)) {
        goto fail;
    }
    const evrec_bt_init_data_t *id = init_data;
    if (id && id->magic == EVREC_BT_INIT_MAGIC && id->stats) {
        for (size_t i = 0; i < c->input_count && i < id->stats_count; i++) {
            c->inputs[i].stats = &id->stats[i];
            memset(&id->stats[i], 0, sizeof id->stats[i]);
        }
    }
    readers = calloc(c->input_count, sizeof *readers);
    if (!readers) {
        status = BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
        goto fail;
    }
    for (size_t i = 0; i < c->input_count; i++) {
        if (probe_input(c, &c->inputs[i], &readers[i])) {
            goto fail;
        }
    }
    if (make_clock(c)) {
        status = BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
        goto fail;
    }
    for (size_t i = 0; i < c->input_count; i++) {
        evbt_input_t *in = &c->inputs[i];
        if (make_classes(c, in, readers[i])) {
            BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(c->self, "%s: cannot build its trace classes",
                                                                in->path);
            goto fail;
        }
        if (in->stats) {
            in->stats->clock_freq = c->clock_freq;
            in->stats->clock_ns = in->clock_ns;
        }
        evrec_reader_close(readers[i]);
        readers[i] = NULL;
        bt_self_component_add_port_status ps = bt_self_component_source_add_output_port(self_src, in->path, in,
                                                                                        NULL);
        if (ps != BT_SELF_COMPONENT_ADD_PORT_STATUS_OK) {
            status = ps == BT_SELF_COMPONENT_ADD_PORT_STATUS_MEMORY_ERROR
                         ? BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR
                         : BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
            goto fail;
        }
    }
    free(readers);
    bt_self_component_set_data(self, c);
    return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
fail:
    for (size_t i = 0; readers && i < c->input_count; i++) {
        evrec_reader_close(readers[i]);
    }
    free(readers);
    destroy_comp(c);
    return status;
}

void evrec_bt_finalize(bt_self_component_source *self_src)
{
    destroy_comp(bt_self_component_get_data(bt_self_component_source_as_self_component(self_src)));
}

/* ---- query: babeltrace.support-info ------------------------------------------------------ */

static double support_weight(const char *path)
{
    static const uint8_t magic[8] = {0x45, 0x56, 0x52, 0x43, 0x0D, 0x0A, 0x1A, 0x0A};
    uint8_t head[8] = {0};
    FILE *f = fopen(path, "rb");
    if (!f) {
        return 0.0;
    }
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    if (got == sizeof head && memcmp(head, magic, sizeof magic) == 0) {
        return 1.0;
    }
    /* A bare CCore stream has no magic: only the reader can tell. */
    evrec_reader_t *r = NULL;
    double w = 0.0;
    if (evrec_reader_open_path(&r, path, NULL) == EVREC_OK) {
        size_t n = strlen(path);
        w = n > 4 && strcmp(path + n - 4, ".evr") == 0 ? 1.0 : 0.5;
    }
    evrec_reader_close(r);
    return w;
}

bt_component_class_query_method_status evrec_bt_query(bt_self_component_class_source *cls,
                                                      bt_private_query_executor *exec, const char *object,
                                                      const bt_value *params, void *method_data,
                                                      const bt_value **result)
{
    (void)exec;
    (void)method_data;
    if (strcmp(object, "babeltrace.support-info") != 0) {
        return BT_COMPONENT_CLASS_QUERY_METHOD_STATUS_UNKNOWN_OBJECT;
    }
    const bt_value *type = params && bt_value_is_map(params)
                               ? bt_value_map_borrow_entry_value_const(params, "type")
                               : NULL;
    const bt_value *input = params && bt_value_is_map(params)
                                ? bt_value_map_borrow_entry_value_const(params, "input")
                                : NULL;
    if (!type || !input || !bt_value_is_string(type) || !bt_value_is_string(input)) {
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT_CLASS(
            bt_self_component_class_source_as_self_component_class(cls),
            "babeltrace.support-info needs string parameters `type` and `input`");
        return BT_COMPONENT_CLASS_QUERY_METHOD_STATUS_ERROR;
    }
    double w = 0.0;
    if (strcmp(bt_value_string_get(type), "file") == 0) {
        w = support_weight(bt_value_string_get(input));
    }
    bt_value *res = bt_value_real_create_init(w);
    if (!res) {
        return BT_COMPONENT_CLASS_QUERY_METHOD_STATUS_MEMORY_ERROR;
    }
    *result = res;
    return BT_COMPONENT_CLASS_QUERY_METHOD_STATUS_OK;
}

/* ---- message iterator --------------------------------------------------------------------- */

static void queue_clear(evbt_iter_t *it)
{
    while (it->qlen) {
        bt_message_put_ref(it->queue[it->qhead]);
        it->qhead = (it->qhead + 1u) % QUEUE_CAP;
        it->qlen--;
    }
    it->qhead = 0;
}

/* Queue a new message; NULL (creation failed) makes the iterator fail. */
static int push(evbt_iter_t *it, bt_message *msg)
{
    if (!msg || it->qlen == QUEUE_CAP) {
        bt_message_put_ref(msg);
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR(it->self, "%s: cannot create a message",
                                                                   it->in->path);
        return -1;
    }
    it->queue[(it->qhead + it->qlen) % QUEUE_CAP] = msg;
    it->qlen++;
    return 0;
}

static uint64_t clock_value(const evbt_iter_t *it, uint64_t t64)
{
    return it->in->clock_ns ? evrec_ticks_to_ns(t64, it->in->reader_freq) : t64;
}

static int open_packet(evbt_iter_t *it, uint64_t value)
{
    bt_packet_put_ref(it->packet);
    it->packet = bt_packet_create(it->stream);
    if (!it->packet) {
        return push(it, NULL);
    }
    return push(it, bt_message_packet_beginning_create_with_default_clock_snapshot(it->self, it->packet, value));
}

static int close_packet(evbt_iter_t *it, uint64_t value)
{
    int rc = push(it, bt_message_packet_end_create_with_default_clock_snapshot(it->self, it->packet, value));
    bt_packet_put_ref(it->packet);
    it->packet = NULL;
    return rc;
}

/* A discarded-events message at `value` (between two packets, none open), followed by the empty
 * packet that carries its count in CTF 1.8 (sink.ctf.fs wants the range to end at a packet's end). */
static int discard_range(evbt_iter_t *it, uint64_t begin, uint64_t end, uint64_t count, int known)
{
    bt_message *m = bt_message_discarded_events_create_with_default_clock_snapshots(it->self, it->stream, begin,
                                                                                    end);
    if (m && known && count) {
        bt_message_discarded_events_set_count(m, count);
    }
    if (push(it, m) || open_packet(it, begin) || close_packet(it, end)) {
        return -1;
    }
    return 0;
}

static int discard(evbt_iter_t *it, uint64_t value, uint64_t count, int known)
{
    return discard_range(it, value, value, count, known);
}

static int reader_open(evbt_iter_t *it)
{
    evrec_status st = evrec_reader_open_path(&it->r, it->in->path, &it->comp->ropt);
    if (st != EVREC_OK) {
        char msg[1600];
        describe_error(msg, sizeof msg, it->in->path, it->r);
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR(it->self, "cannot read %s", msg);
        return -1;
    }
    evrec_time_source src;
    uint64_t f = evrec_reader_time_freq(it->r, &src);
    const evrec_meta_t *m = evrec_reader_meta(it->r);
    if (f != it->in->reader_freq || m->event_count != it->in->event_count) {
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR(
            it->self, "%s: the file changed since the component was created", it->in->path);
        return -1;
    }
    return 0;
}

/* Start (or restart) the stream: head messages, reorder buffer emptied. */
static int start(evbt_iter_t *it)
{
    evrec_bt_stats_t *keep = it->in->stats;
    memset(&it->st, 0, sizeof it->st);
    it->st.clock_freq = it->comp->clock_freq;
    it->st.clock_ns = it->in->clock_ns;
    if (keep) {
        *keep = it->st;
    }
    evrec_order_close(it->order);
    it->order = NULL;
    if (evrec_order_create(&it->order, it->r, it->comp->reorder_window) != EVREC_OK) {
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR(it->self, "out of memory");
        return -1;
    }
    it->last_t64 = 0;
    it->last_value = 0;
    it->reader_done = 0;
    it->end_status = EVREC_OK;
    queue_clear(it);
    if (push(it, bt_message_stream_beginning_create(it->self, it->stream))) {
        return -1;
    }
    /* Overwritten records (cyclic buffer) were older than the first one kept: an empty packet,
     * the loss, and the empty packet that counts it (a first packet's count would have no
     * count when read back). */
    uint64_t ow = it->in->info.overwritten;
    if (ow) {
        if (open_packet(it, 0) || close_packet(it, 0) || discard(it, 0, ow, 1)) {
            return -1;
        }
        it->st.overwritten = ow;
    }
    if (open_packet(it, 0)) {
        return -1;
    }
    it->state = ST_EVENTS;
    return 0;
}

/* Records lost to damage before `rec` (the first record after a damaged range the reader resumed
 * after, evrec_record_t::gap): the open packet ends at the last event, then the discarded-events
 * message from there to `rec`'s time with the count the reader gives (none when it does not know
 * it) and its empty packet, then a new packet from `rec`'s time. */
static int gap_discard(evbt_iter_t *it, const evrec_record_t *rec, uint64_t value)
{
    const evrec_damage_t *d = NULL;
    for (uint64_t k = 0; (d = evrec_reader_damage(it->r, k)) != NULL; k++) {
        if (d->index_after == rec->index) {
            break;
        }
    }
    int known = d && d->records_lost != UINT64_MAX;
    uint64_t lost = known ? d->records_lost : 0;
    uint64_t t = it->last_value;
    uint64_t t1 = value > t ? value : t;
    if (close_packet(it, t) || discard_range(it, t, t1, lost, known) || open_packet(it, t1)) {
        return -1;
    }
    it->st.gaps++;
    it->st.gap_lost += lost;
    return 0;
}

/* The event message of the next record in time order (late: its step back, see evrec_order_next()). */
static int emit_event(evbt_iter_t *it, const evrec_record_t *rec, uint64_t late)
{
    if (rec->id >= it->in->event_count || rec->size != it->in->events[rec->id].save_len) {
        BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR(
            it->self, "%s: offset %llu: record of event %u has %u bytes, expected %u", it->in->path,
            (unsigned long long)rec->offset, rec->id, rec->size,
            rec->id < it->in->event_count ? it->in->events[rec->id].save_len : 0u);
        return -1;
    }
    uint64_t t = rec->t64;
    if (late && t < it->last_t64) {
        /* Stamped earlier than a record that has already gone out (beyond the window). */
        t = it->last_t64;
        it->st.clamped++;
    }
    it->last_t64 = t;
    uint64_t value = clock_value(it, t);
    if (rec->gap && gap_discard(it, rec, value)) {
        return -1;
    }
    it->last_value = value;
    evbt_event_t *ev = &it->in->events[rec->id];
    if (!ev->ec && build_event(it->comp, it->in, it->r, rec->id) != 0) {
        return -1;
    }
    bt_message *msg = bt_message_event_create_with_packet_and_default_clock_snapshot(it->self, ev->ec, it->packet,
                                                                                     value);
    if (!msg) {
        return push(it, NULL);
    }
    if (ev->leaf_count) {
        bt_field *payload = bt_event_borrow_payload_field(bt_message_event_borrow_event(msg));
        for (uint32_t i = 0; i < ev->leaf_count; i++) {
            const evbt_leaf_t *l = &ev->leaves[i];
            bt_field *f = payload;
            for (unsigned d = 0; d <= l->depth; d++) {
                f = bt_field_structure_borrow_member_field_by_index(f, l->path[d]);
            }
            bt_field_integer_unsigned_set_value(f, cli_be_field(rec->data + l->offset, l->size));
        }
    }
    it->st.events++;
    return push(it, msg);
}

/* End of the records: close the packet, then the losses, then the stream. */
static int finish(evbt_iter_t *it)
{
    evbt_input_t *in = it->in;
    uint64_t t = it->last_value;
    if (close_packet(it, t)) {
        return -1;
    }
    if (in->info.dropped) {
        it->st.dropped = in->info.dropped;
        if (discard(it, t, in->info.dropped, 1)) {
            return -1;
        }
    }
    if (it->end_status != EVREC_E_END) {
        const evrec_reader_error_t *e = evrec_reader_error(it->r);
        const evrec_reader_error_t *fe = evrec_reader_field_info_error(it->r);
        it->st.damage = *e;
        char msg[1600];
        describe_error(msg, sizeof msg, in->path, it->r);
        uint64_t nd = evrec_reader_damage_count(it->r);
        const evrec_damage_t *last = nd ? evrec_reader_damage(it->r, nd - 1) : NULL;
        int stopped = !last || nd > 1000u || (last->index_after == UINT64_MAX && last->records_lost != 0);
        if (fe->status != EVREC_OK && fe->status == e->status && fe->offset == e->offset && nd <= 1) {
            it->st.display_only = 1;
            comp_warn(it->comp, "%s (display attributes only; every record was read)", msg);
        } else if (!stopped) {
            it->st.resumed = 1; /* the losses went out at the gaps */
            comp_warn(it->comp, "%s; the reader resumed after each damaged range: %llu records lost in %llu gaps",
                      msg, (unsigned long long)it->st.gap_lost, (unsigned long long)it->st.gaps);
        } else {
            uint64_t returned = it->st.events + it->st.gap_lost;
            uint64_t recorded = in->info.recorded;
            int known = recorded != UINT64_MAX && in->info.format == EVREC_FILE_CONTAINER && recorded > returned;
            it->st.damage_lost = known ? recorded - returned : 0;
            it->st.damage_lost_known = known;
            if (known) {
                comp_warn(it->comp, "%s; the rest of the file is skipped: %llu records lost", msg,
                          (unsigned long long)it->st.damage_lost);
            } else {
                comp_warn(it->comp, "%s; the rest of the file is skipped (number of records lost unknown)", msg);
            }
            if (discard(it, t, it->st.damage_lost, known)) {
                return -1;
            }
        }
    }
    if (it->st.clamped) {
        comp_warn(it->comp,
                  "%s: %llu records were stamped earlier than records more than reorder-window=%u "
                  "records before them: their time was raised to keep time order",
                  in->path, (unsigned long long)it->st.clamped, it->comp->reorder_window);
    }
    if (push(it, bt_message_stream_end_create(it->self, it->stream))) {
        return -1;
    }
    it->st.finished = 1;
    it->state = ST_DONE;
    return 0;
}

static void iter_destroy(evbt_iter_t *it)
{
    if (!it) {
        return;
    }
    queue_clear(it);
    bt_packet_put_ref(it->packet);
    bt_stream_put_ref(it->stream);
    bt_trace_put_ref(it->trace);
    evrec_reader_close(it->r);
    evrec_order_close(it->order);
    free(it);
}

static int make_trace(evbt_iter_t *it)
{
    evbt_input_t *in = it->in;
    it->trace = bt_trace_create(in->tc);
    if (!it->trace) {
        return -1;
    }
    bt_trace_set_name(it->trace, in->name);
    char buf[64];
    bt_trace_set_environment_entry_string(it->trace, "tracer_name", "evrec");
    bt_trace_set_environment_entry_string(it->trace, "evrec_input", in->path);
    bt_trace_set_environment_entry_string(it->trace, "evrec_format",
                                          in->info.format == EVREC_FILE_CCORE ? "ccore" : "container");
    bt_trace_set_environment_entry_integer(it->trace, "evrec_time_freq",
                                           in->info.time_freq > INT64_MAX ? -1 : (int64_t)in->info.time_freq);
    bt_trace_set_environment_entry_integer(it->trace, "evrec_effective_freq",
                                           in->reader_freq > INT64_MAX ? -1 : (int64_t)in->reader_freq);
    bt_trace_set_environment_entry_string(it->trace, "evrec_clock_source", time_source_name(in->time_source));
    snprintf(buf, sizeof buf, "0x%016llx", (unsigned long long)in->info.schema_hash_computed);
    bt_trace_set_environment_entry_string(it->trace, "evrec_schema_hash", buf);
    if (in->info.format == EVREC_FILE_CONTAINER) {
        if (in->info.recorded != UINT64_MAX && in->info.recorded <= INT64_MAX) {
            bt_trace_set_environment_entry_integer(it->trace, "evrec_recorded", (int64_t)in->info.recorded);
        }
        bt_trace_set_environment_entry_integer(
            it->trace, "evrec_dropped", in->info.dropped > INT64_MAX ? INT64_MAX : (int64_t)in->info.dropped);
        bt_trace_set_environment_entry_integer(it->trace, "evrec_overwritten", (int64_t)in->info.overwritten);
        bt_trace_set_environment_entry_integer(it->trace, "evrec_cyclic", (int64_t)(in->info.flags & 1u));
    }
    it->stream = bt_stream_create(in->sc, it->trace);
    if (!it->stream) {
        return -1;
    }
    /* The stream's name is its file's name in a CTF directory. */
    size_t n = strlen(in->name);
    char *sname = malloc(n + 8);
    if (!sname) {
        return -1;
    }
    memcpy(sname, in->name, n);
    memcpy(sname + n, "-stream", 8);
    bt_stream_set_name(it->stream, sname);
    free(sname);
    return 0;
}

bt_message_iterator_class_initialize_method_status
evrec_bt_iter_init(bt_self_message_iterator *self, bt_self_message_iterator_configuration *config,
                   bt_self_component_port_output *port)
{
    /* Messages come in time order: babeltrace2 may seek to a time (filter.utils.trimmer) by
     * seeking to the beginning and skipping forward. */
    bt_self_message_iterator_configuration_set_can_seek_forward(config, BT_TRUE);
    evbt_iter_t *it = calloc(1, sizeof *it);
    if (!it) {
        return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
    }
    it->self = self;
    it->comp = bt_self_component_get_data(bt_self_message_iterator_borrow_component(self));
    it->in = bt_self_component_port_get_data(bt_self_component_port_output_as_self_component_port(port));
    if (make_trace(it)) {
        iter_destroy(it);
        return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
    }
    if (reader_open(it) || start(it)) {
        iter_destroy(it);
        return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
    }
    bt_self_message_iterator_set_data(self, it);
    return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

void evrec_bt_iter_finalize(bt_self_message_iterator *self)
{
    iter_destroy(bt_self_message_iterator_get_data(self));
}

bt_message_iterator_class_next_method_status
evrec_bt_iter_next(bt_self_message_iterator *self, bt_message_array_const msgs, uint64_t capacity, uint64_t *count)
{
    evbt_iter_t *it = bt_self_message_iterator_get_data(self);
    uint64_t n = 0;
    int rc = 0;
    while (n < capacity && rc == 0) {
        if (it->qlen) {
            msgs[n++] = it->queue[it->qhead];
            it->qhead = (it->qhead + 1u) % QUEUE_CAP;
            it->qlen--;
            continue;
        }
        if (it->state == ST_DONE) {
            break;
        }
        /* ST_EVENTS: the earliest record of the window, or, once they are all out, the end. */
        evrec_record_t rec;
        uint64_t late = 0;
        evrec_status st = evrec_order_next(it->order, &rec, &late);
        it->st.out_of_order = evrec_order_stats(it->order)->reordered;
        if (st == EVREC_OK) {
            rc = emit_event(it, &rec, late);
        } else if (st == EVREC_E_NOMEM) {
            BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR(it->self, "out of memory");
            rc = -1;
        } else {
            it->reader_done = 1;
            it->end_status = st;
            rc = finish(it);
        }
    }
    if (it->in->stats) {
        *it->in->stats = it->st;
    }
    if (rc) {
        /* Messages already handed over stay valid; the error wins. */
        for (uint64_t i = 0; i < n; i++) {
            bt_message_put_ref(msgs[i]);
        }
        return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_ERROR;
    }
    *count = n;
    if (n == 0) {
        return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_END;
    }
    return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
}

bt_message_iterator_class_seek_beginning_method_status evrec_bt_iter_seek_beginning(bt_self_message_iterator *self)
{
    evbt_iter_t *it = bt_self_message_iterator_get_data(self);
    evrec_reader_close(it->r);
    it->r = NULL;
    bt_packet_put_ref(it->packet);
    it->packet = NULL;
    if (reader_open(it) || start(it)) {
        return BT_MESSAGE_ITERATOR_CLASS_SEEK_BEGINNING_METHOD_STATUS_ERROR;
    }
    return BT_MESSAGE_ITERATOR_CLASS_SEEK_BEGINNING_METHOD_STATUS_OK;
}

bt_message_iterator_class_can_seek_beginning_method_status
evrec_bt_iter_can_seek_beginning(bt_self_message_iterator *self, bt_bool *can_seek)
{
    (void)self;
    *can_seek = BT_TRUE;
    return BT_MESSAGE_ITERATOR_CLASS_CAN_SEEK_BEGINNING_METHOD_STATUS_OK;
}

/* ---- in-process component class ----------------------------------------------------------- */

bt_component_class_source *evrec_bt_source_class_create(void)
{
    bt_message_iterator_class *ic = bt_message_iterator_class_create(evrec_bt_iter_next);
    if (!ic) {
        return NULL;
    }
    bt_message_iterator_class_set_initialize_method(ic, evrec_bt_iter_init);
    bt_message_iterator_class_set_finalize_method(ic, evrec_bt_iter_finalize);
    bt_message_iterator_class_set_seek_beginning_methods(ic, evrec_bt_iter_seek_beginning,
                                                         evrec_bt_iter_can_seek_beginning);
    bt_component_class_source *cc = bt_component_class_source_create("file", ic);
    bt_message_iterator_class_put_ref(ic);
    if (!cc) {
        return NULL;
    }
    bt_component_class *base = bt_component_class_source_as_component_class(cc);
    bt_component_class_set_description(base, evrec_bt_source_description);
    bt_component_class_set_help(base, evrec_bt_source_help);
    bt_component_class_source_set_initialize_method(cc, evrec_bt_init);
    bt_component_class_source_set_finalize_method(cc, evrec_bt_finalize);
    bt_component_class_source_set_query_method(cc, evrec_bt_query);
    return cc;
}
