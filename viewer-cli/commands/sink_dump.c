/* SPDX-License-Identifier: Apache-2.0 */
/* The dump line printer as a sink of the pipeline (sink_dump.h): one aligned line per record,
 * time, event, class, fields, marker; written to standard output in large blocks. */
#include <stdlib.h>
#include <string.h>

#include "cli_bytes.h"
#include "cli_line.h"
#include "sink_dump.h"

/* Per-event column texts, prepared once. */
typedef struct dump_state {
    const cli_dump_display_t *o;
    const evrec_reader_t *r;
    const char *input;
    cli_buf_t line; /* output: whole lines, written out in blocks of DUMP_FLUSH bytes */
    char **names;   /* escaped event names */
    char **classes; /* escaped class names, or NULL when the class is the event itself */
    size_t *name_len, *class_len;
    size_t wname, wclass;
    int ns_known;
    /* " path=" of each leaf, rendered once per event type (prefix[id] = NULL until its first
     * record). Leaf i of event id starts at prefix_off[id][i] in prefix[id]. Bounded: events whose
     * prefixes exceed PREFIX_MAX bytes, or past CACHE_MAX bytes in all, are rendered per record. */
    char **prefix;
    uint32_t **prefix_off;
    /* With the prefixes, each leaf's place and kind (its "program"): records of that type are
     * printed from it without walking the tables (same text as evrec_reader_visit_fields()). */
    struct dump_leaf **leaves;
    uint32_t *leaf_count;
    uint32_t *rec_size;    /* the packed size the program was made for */
    uint8_t *prefix_state; /* 0 not built, 1 built, 2 not cacheable */
    size_t cache_bytes;
    const char *cur_prefix;
    const uint32_t *cur_off;
} dump_state_t;

#define PREFIX_MAX 65536u
/* Lines are collected in d->line and written with one fwrite() per this many bytes. */
#define DUMP_FLUSH (256u << 10)
#define CACHE_MAX (64u << 20)

#define MAX_COLUMN 32u

/* One leaf of an event type's program: where its value is and how to show it. */
typedef struct dump_leaf {
    uint32_t offset; /* in the packed record */
    uint8_t kind;
    uint16_t enum_id;
    const evrec_field_info_t *info;
} dump_leaf_t;

static char *render_name(const evrec_reader_t *r, uint16_t id, int is_class)
{
    cli_buf_t t = {0};
    if (is_class) {
        cli_buf_class(&t, r, id);
    } else {
        cli_buf_name(&t, evrec_reader_event_name(r, id));
    }
    cli_buf_putc(&t, 0);
    return cli_buf_take(&t);
}

static void prepare(dump_state_t *d)
{
    const evrec_meta_t *m = evrec_reader_meta(d->r);
    d->names = calloc(m->event_count, sizeof *d->names);
    d->classes = calloc(m->event_count, sizeof *d->classes);
    d->prefix = calloc(m->event_count, sizeof *d->prefix);
    d->prefix_off = calloc(m->event_count, sizeof *d->prefix_off);
    d->prefix_state = calloc(m->event_count, 1);
    d->leaves = calloc(m->event_count, sizeof *d->leaves);
    d->leaf_count = calloc(m->event_count, sizeof *d->leaf_count);
    d->rec_size = calloc(m->event_count, sizeof *d->rec_size);
    d->name_len = calloc(m->event_count, sizeof *d->name_len);
    d->class_len = calloc(m->event_count, sizeof *d->class_len);
    if (!d->names || !d->classes || !d->prefix || !d->prefix_off || !d->prefix_state || !d->name_len ||
        !d->class_len || !d->leaves || !d->leaf_count || !d->rec_size) {
        cli_error("out of memory");
        exit(CLI_BAD_INPUT);
    }
    for (uint32_t i = 0; i < m->event_count; i++) {
        d->names[i] = render_name(d->r, (uint16_t)i, 0);
        size_t w = strlen(d->names[i]);
        d->name_len[i] = w;
        d->wname = w > d->wname ? w : d->wname;
        if (m->events[i].class_id != i) {
            d->classes[i] = render_name(d->r, m->events[i].class_id, 1);
            w = strlen(d->classes[i]);
            d->class_len[i] = w;
            d->wclass = w > d->wclass ? w : d->wclass;
        }
    }
    d->wname = d->wname > MAX_COLUMN ? MAX_COLUMN : d->wname;
    d->wclass = d->wclass > MAX_COLUMN ? MAX_COLUMN : d->wclass;
}

static void release(dump_state_t *d, uint32_t count)
{
    for (uint32_t i = 0; d->names && i < count; i++) {
        free(d->names[i]);
        free(d->classes[i]);
        free(d->prefix[i]);
        free(d->prefix_off[i]);
        free(d->leaves ? d->leaves[i] : NULL);
    }
    free(d->leaves);
    free(d->leaf_count);
    free(d->rec_size);
    free(d->prefix);
    free(d->prefix_off);
    free(d->prefix_state);
    free(d->names);
    free(d->classes);
    free(d->name_len);
    free(d->class_len);
    cli_buf_free(&d->line);
}

/* Collects the " path=" prefixes of one event type. */
typedef struct prefix_builder {
    cli_buf_t text;
    uint32_t off[EVREC_MAX_EVENT_SIZE + 1];
    dump_leaf_t leaf[EVREC_MAX_EVENT_SIZE];
    uint32_t n;
} prefix_builder_t;

static int collect_prefix(void *ctx, const evrec_field_view_t *f)
{
    prefix_builder_t *pb = ctx;
    if (f->index >= 2 && pb->n < EVREC_MAX_EVENT_SIZE) {
        pb->leaf[pb->n] = (dump_leaf_t){f->offset, f->kind, f->enum_id, f->info};
        pb->off[pb->n++] = (uint32_t)pb->text.len;
        cli_line_field_name(&pb->text, f->path);
    }
    return 0;
}

static void build_prefixes(dump_state_t *d, const evrec_record_t *rec)
{
    prefix_builder_t *pb = calloc(1, sizeof *pb);
    d->prefix_state[rec->id] = 2;
    if (!pb) {
        return;
    }
    evrec_status st = evrec_reader_visit_fields(d->r, rec, collect_prefix, pb);
    size_t bytes = pb->text.len + (pb->n + 1) * sizeof(uint32_t) + pb->n * sizeof(dump_leaf_t);
    if (st == EVREC_OK && pb->text.len <= PREFIX_MAX && d->cache_bytes + bytes <= CACHE_MAX) {
        pb->off[pb->n] = (uint32_t)pb->text.len;
        d->prefix_off[rec->id] = malloc((pb->n + 1) * sizeof(uint32_t));
        d->leaves[rec->id] = malloc((pb->n + 1) * sizeof(dump_leaf_t));
        if (d->prefix_off[rec->id] && d->leaves[rec->id]) {
            memcpy(d->leaves[rec->id], pb->leaf, pb->n * sizeof(dump_leaf_t));
            d->leaf_count[rec->id] = pb->n;
            d->rec_size[rec->id] = rec->size;
            memcpy(d->prefix_off[rec->id], pb->off, (pb->n + 1) * sizeof(uint32_t));
            d->prefix[rec->id] = cli_buf_take(&pb->text);
            d->prefix_state[rec->id] = 1;
            d->cache_bytes += bytes;
        } else {
            free(d->prefix_off[rec->id]);
            free(d->leaves[rec->id]);
            d->prefix_off[rec->id] = NULL;
            d->leaves[rec->id] = NULL;
        }
    }
    cli_buf_free(&pb->text);
    free(pb);
}

static int put_field(void *ctx, const evrec_field_view_t *f)
{
    dump_state_t *d = ctx;
    if (f->index < 2) {
        return 0; /* time and id are the line's own columns */
    }
    cli_buf_t *b = &d->line;
    if (d->cur_prefix) {
        uint32_t i = f->index - 2;
        cli_buf_put(b, d->cur_prefix + d->cur_off[i], d->cur_off[i + 1] - d->cur_off[i]);
    } else {
        cli_line_field(b, f->path, f->kind, f->value, f->value_name, d->o->raw ? NULL : f->info, d->o->hex);
        return 0;
    }
    cli_buf_field_value(b, f->kind, f->value, f->value_name, d->o->raw ? NULL : f->info, d->o->hex);
    return 0;
}

/* The fields of a record from its type's program: what put_field() prints for each leaf that
 * evrec_reader_visit_fields() gives (its value decoded as the reader does: big-endian). */
static void put_leaves(dump_state_t *d, const evrec_record_t *rec)
{
    const dump_leaf_t *lf = d->leaves[rec->id];
    const uint32_t n = d->leaf_count[rec->id];
    cli_buf_t *b = &d->line;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = rec->data + lf[i].offset;
        uint32_t w = evrec_kind_width(lf[i].kind), v;
        if (lf[i].offset + w > rec->size) {
            return; /* cannot happen: the size is the one the program was made from */
        }
        v = cli_be_field(p, w);
        const char *vn = lf[i].kind >= EVREC_KIND_ENUM_UINT8 && lf[i].kind <= EVREC_KIND_ENUM_UINT32
                             ? evrec_reader_enum_value(d->r, lf[i].enum_id, v, NULL)
                             : NULL;
        cli_buf_put(b, d->cur_prefix + d->cur_off[i], d->cur_off[i + 1] - d->cur_off[i]);
        cli_buf_field_value(b, lf[i].kind, v, vn, d->o->raw ? NULL : lf[i].info, d->o->hex);
    }
}

/* Writes the collected lines to stdout. */
static void dump_flush(dump_state_t *d)
{
    if (d->line.len) {
        fwrite(d->line.p, 1, d->line.len, stdout);
        d->line.len = 0;
    }
}

/* late: 0, or by how much (ticks) the record steps back (--time-order, evrec_order_next()). */
static void print_record(dump_state_t *d, const evrec_record_t *rec, uint64_t late)
{
    cli_buf_t *b = &d->line;
    if (d->o->offsets) {
        char off[32];
        snprintf(off, sizeof off, "%12llu  ", (unsigned long long)rec->offset);
        cli_buf_puts(b, off);
    }
    if (d->o->index) {
        char ix[32];
        snprintf(ix, sizeof ix, "#%-10llu  ", (unsigned long long)rec->index);
        cli_buf_puts(b, ix);
    }
    if (evrec_reader_info(d->r)->lanes > 1) {
        /* the lane that recorded it (a recording split into lanes; FORMAT.md section 2.3) */
        char ln[16];
        if (rec->lane == EVREC_LANE_UNKNOWN) {
            snprintf(ln, sizeof ln, "L?   ");
        } else {
            snprintf(ln, sizeof ln, "L%-3u ", (unsigned)rec->lane);
        }
        cli_buf_puts(b, ln);
    }
    size_t start = cli_line_time(b, d->ns_known, rec->ns, rec->t64);
    cli_buf_put(b, d->names[rec->id], d->name_len[rec->id]);
    cli_line_after_name(b, start, d->wname, d->wclass);
    if (d->wclass && d->classes[rec->id]) {
        cli_buf_put(b, d->classes[rec->id], d->class_len[rec->id]);
    }
    cli_line_after_class(b, start, d->wname, d->wclass);
    if (d->prefix_state[rec->id] == 0) {
        build_prefixes(d, rec);
    }
    d->cur_prefix = d->prefix[rec->id];
    d->cur_off = d->prefix_off[rec->id];
    if (d->prefix_state[rec->id] == 1 && rec->data && rec->size == d->rec_size[rec->id]) {
        put_leaves(d, rec);
    } else {
        evrec_reader_visit_fields(d->r, rec, put_field, d);
    }
    uint8_t marker = evrec_reader_record_marker(d->r, rec);
    cli_buf_marker(b, marker);
    if (rec->unverified) {
        cli_buf_puts(b, " (unverified)");
    }
    if (rec->gap) {
        cli_buf_puts(b, " (after damage: ");
        const evrec_damage_t *dmg = NULL;
        for (uint64_t i = 0; (dmg = evrec_reader_damage(d->r, i)) != NULL; i++) {
            if (dmg->index_after == rec->index) {
                break;
            }
        }
        if (dmg && dmg->records_lost != UINT64_MAX) {
            cli_buf_u64(b, dmg->records_lost);
            cli_buf_puts(b, dmg->records_lost == 1 ? " record lost)" : " records lost)");
        } else {
            cli_buf_puts(b, "records lost)");
        }
    }
    if (late) {
        char t[64];
        uint64_t freq = evrec_reader_time_freq((evrec_reader_t *)d->r, NULL);
        if (freq) {
            snprintf(t, sizeof t, " (late by %llu ns)", (unsigned long long)evrec_ticks_to_ns(late, freq));
        } else {
            snprintf(t, sizeof t, " (late by %llu ticks)", (unsigned long long)late);
        }
        cli_buf_puts(b, t);
    }
    cli_line_end(b, start); /* no trailing blanks when a record has no fields and no marker */
    if (b->len >= DUMP_FLUSH) {
        dump_flush(d);
    }
}

static void *dump_begin(void *user, export_out_t *out, const cli_sink_info_t *info)
{
    (void)out;
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    dump_state_t *d = calloc(1, sizeof *d);
    if (!d) {
        cli_error("out of memory");
        return NULL;
    }
    d->o = user;
    d->r = info->reader;
    d->input = info->input;
    prepare(d);
    d->ns_known = info->time_freq != 0;
    return d;
}

static int dump_record(void *state, const evrec_record_t *rec, uint64_t late)
{
    print_record(state, rec, late);
    return CLI_SINK_GO_ON;
}

static int dump_end(void *state, const cli_sink_end_t *end)
{
    dump_state_t *d = state;
    int rc = CLI_SINK_GO_ON;
    if (end->order_status != EVREC_OK) {
        cli_error("out of memory");
        rc = CLI_SINK_REPORTED;
    }
    dump_flush(d);
    if (end->order && end->order->late) {
        fflush(stdout);
        cli_error("%s: note: %llu records were stamped earlier than a record more than %u records "
                  "before them: printed late, marked '(late by ...)'",
                  d->input, (unsigned long long)end->order->late, end->order->window);
    }
    release(d, evrec_reader_meta(d->r)->event_count);
    free(d);
    return rc;
}

const cli_sink_t cli_sink_dump = {
    .name = "dump",
    .no_clock_note = "times are in ticks",
    .begin = dump_begin,
    .record = dump_record,
    .end = dump_end,
};
