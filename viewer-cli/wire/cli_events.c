/* SPDX-License-Identifier: Apache-2.0 */
/* Event records rebuilt from a stream (QS, SyS-T): dump-like lines and an evrec file of them
 * (cli_events.h). Shared by `evrec qs-decode` and `evrec syst-decode`. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli_events.h"
#include "cli_line.h"
#include "evrec/evrec_hash.h"
#include "evrec/evrec_save.h"

/* ---- enum names and markers straight from the tables (static and run-time values) ---------- */

static int value_ptr_cmp(const void *a, const void *b)
{
    const evrec_enum_value_t *x = *(const evrec_enum_value_t *const *)a,
                             *y = *(const evrec_enum_value_t *const *)b;
    if (x->value != y->value) {
        return x->value < y->value ? -1 : 1;
    }
    return x < y ? -1 : x > y; /* the file's order among equal values */
}

void cli_enum_index_free(cli_enum_index_t *x)
{
    for (uint32_t i = 0; x->by_value && i < x->count; i++) {
        free(x->by_value[i]);
    }
    free(x->by_value);
    free(x->has_markers);
    memset(x, 0, sizeof *x);
}

/* 1 when the index is that of m (built now when it is not); 0 when memory ran out (names then
 * print as numbers). */
static int enum_index_for(cli_enum_index_t *x, const evrec_meta_t *m)
{
    if (x->meta == m && x->by_value) {
        return 1;
    }
    cli_enum_index_free(x);
    uint32_t n = m->enum_count;
    x->by_value = calloc(n ? n : 1, sizeof *x->by_value);
    x->has_markers = calloc(n ? n : 1, 1);
    if (!x->by_value || !x->has_markers) {
        cli_enum_index_free(x);
        return 0;
    }
    x->count = n;
    for (uint32_t i = 0; i < n; i++) {
        const evrec_enum_desc_t *e = &m->enums[i];
        uint32_t vc = e->values ? e->value_count : 0;
        x->has_markers[i] = e->runtime && e->runtime->marker != EVREC_MARKER_NONE;
        x->by_value[i] = malloc((vc ? vc : 1) * sizeof **x->by_value);
        if (!x->by_value[i]) {
            cli_enum_index_free(x);
            return 0;
        }
        for (uint32_t v = 0; v < vc; v++) {
            x->has_markers[i] |= e->values[v].marker != EVREC_MARKER_NONE;
            x->by_value[i][v] = &e->values[v];
        }
        qsort(x->by_value[i], vc, sizeof **x->by_value, value_ptr_cmp);
    }
    x->meta = m;
    return 1;
}

static const char *enum_name(cli_enum_index_t *x, const evrec_meta_t *m, uint16_t enum_id, uint32_t v,
                             uint8_t *marker)
{
    *marker = EVREC_MARKER_NONE;
    if (enum_id >= m->enum_count || !enum_index_for(x, m)) {
        return NULL;
    }
    const evrec_enum_desc_t *e = &m->enums[enum_id];
    const evrec_enum_value_t *const *sv = x->by_value[enum_id];
    uint32_t vc = e->values ? e->value_count : 0;
    uint32_t lo = 0, hi = vc;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (sv[mid]->value < v) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo < vc && sv[lo]->value == v) {
        *marker = sv[lo]->marker;
        return sv[lo]->name;
    }
    const evrec_runtime_enum_t *rt = e->runtime;
    size_t top = rt ? evrec_atomic_load(&rt->next) : 0;
    if (rt && rt->names && v >= rt->base && v < rt->lim && v < top && rt->names[v - rt->base]) {
        *marker = rt->marker;
        return rt->names[v - rt->base];
    }
    return NULL;
}

static int enum_has_markers(cli_enum_index_t *x, const evrec_meta_t *m, uint16_t enum_id)
{
    return enum_id < m->enum_count && enum_index_for(x, m) && x->has_markers[enum_id];
}

static uint32_t load(const uint8_t *p, unsigned size)
{
    if (size == 1) {
        return p[0];
    }
    if (size == 2) {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* ---- dump-like lines --------------------------------------------------------------------- */

/* Appends " path=value" for every leaf of struct sid at native+base; records the marker. */
static void put_fields(cli_buf_t *b, cli_enum_index_t *x, const evrec_meta_t *m, uint32_t sid,
                       const uint8_t *native, size_t base, unsigned depth, uint32_t first, char *path, size_t plen,
                       int *marker_found, uint8_t *marker)
{
    const evrec_struct_desc_t *st = &m->structs[sid];
    for (uint32_t f = first; f < st->field_count; f++) {
        const evrec_field_desc_t *fd = &st->fields[f];
        size_t nl = strlen(fd->name);
        size_t at = plen;
        if (plen + nl + 2 >= EVREC_READER_MAX_NAME * 2) {
            nl = 0; /* absurdly deep names: keep the parent path */
        }
        if (plen) {
            path[at++] = '.';
        }
        memcpy(path + at, fd->name, nl);
        path[at + nl] = 0;
        size_t off = base + fd->offset;
        if (fd->kind == EVREC_KIND_STRUCT) {
            if (depth < EVREC_MAX_NESTING && fd->ref < m->struct_count) {
                put_fields(b, x, m, fd->ref, native, off, depth + 1, 0, path, at + nl, marker_found, marker);
            }
            path[plen] = 0;
            continue;
        }
        unsigned size = evrec_kind_width(fd->kind);
        uint32_t v = off + size <= EVREC_MAX_EVENT_SIZE ? load(native + off, size) : 0;
        const char *name = NULL;
        uint8_t mk = EVREC_MARKER_NONE;
        if (fd->kind >= EVREC_KIND_ENUM_UINT8 && fd->kind <= EVREC_KIND_ENUM_UINT32) {
            name = enum_name(x, m, fd->ref, v, &mk);
            /* CCore EventView: the event's own `type` field wins, else the first enum with markers */
            int own_type = depth == 0 && strcmp(fd->name, "type") == 0;
            if (enum_has_markers(x, m, fd->ref) && (own_type || !*marker_found)) {
                *marker = mk;
                *marker_found = own_type ? 2 : 1;
            }
        }
        /* As `evrec dump` shows it: display format and unit of the meta-info's FIELD_INFO. */
        cli_line_field(b, path, fd->kind, v, name, cli_field_info(m, sid, f), 0);
        path[plen] = 0;
    }
}

void cli_event_columns(const evrec_meta_t *m, size_t *wname, size_t *wclass)
{
    size_t wn = 0, wc = 0;
    for (uint32_t i = 0; i < m->event_count; i++) {
        size_t w = cli_name_width(m->structs[m->events[i].struct_id].name);
        wn = w > wn ? w : wn;
        uint16_t c = m->events[i].class_id;
        if (c != i && c < m->event_count) {
            w = cli_name_width(m->structs[m->events[c].struct_id].name);
            wc = w > wc ? w : wc;
        }
    }
    *wname = wn > 32 ? 32 : wn;
    *wclass = wc > 32 ? 32 : wc;
}

void cli_event_line(cli_buf_t *b, cli_enum_index_t *idx, const evrec_meta_t *m, const uint8_t *native, uint16_t id,
                    uint64_t t64, uint64_t freq, size_t wname, size_t wclass)
{
    size_t start = cli_line_time(b, freq != 0, freq ? evrec_ticks_to_ns(t64, freq) : 0, t64);
    cli_buf_name(b, m->structs[m->events[id].struct_id].name);
    cli_line_after_name(b, start, wname, wclass);
    uint16_t c = m->events[id].class_id;
    if (wclass && c != id && c < m->event_count) {
        cli_buf_name(b, m->structs[m->events[c].struct_id].name);
    }
    cli_line_after_class(b, start, wname, wclass);
    char path[EVREC_READER_MAX_NAME * 2 + 2];
    path[0] = 0;
    int found = 0;
    uint8_t marker = EVREC_MARKER_NONE;
    put_fields(b, idx, m, m->events[id].struct_id, native, 0, 0, 2, path, 0, &found, &marker);
    cli_buf_marker(b, marker);
    cli_line_end(b, start);
}

/* ---- the collected records and the .evr output --------------------------------------------- */

/* Bytes of an event's record in the collected buffer: its size in the tables rounded up to 4,
 * at least the 8-byte header (the reader's tables give packed sizes). */
static size_t slot_size(const evrec_meta_t *m, uint16_t id)
{
    size_t n = ((size_t)m->structs[m->events[id].struct_id].native_size + 3u) & ~(size_t)3u;
    return n < 8 ? 8 : n;
}

void cli_evr_keep(cli_evr_records_t *c, const uint8_t *native, uint16_t id)
{
    size_t slot = slot_size(c->meta, id);
    if (c->cap - c->len < slot + 16u) {
        size_t cap = c->cap ? c->cap * 2 : 1u << 16;
        uint8_t *p = realloc(c->recs, cap);
        if (!p) {
            c->nomem = 1;
            return;
        }
        memset(p + c->cap, 0, cap - c->cap);
        c->recs = p;
        c->cap = cap;
    }
    memcpy(c->recs + c->len, native, slot);
    c->len += slot;
    c->count++;
}

void cli_evr_free(cli_evr_records_t *c)
{
    free(c->recs);
    c->recs = NULL;
    c->len = c->cap = 0;
}

typedef struct file_sink {
    FILE *f;
} file_sink_t;

static int file_write(void *ctx, const void *data, size_t len)
{
    return fwrite(data, 1, len, ((file_sink_t *)ctx)->f) == len ? 0 : 1;
}

int cli_evr_write(cli_evr_records_t *c, const char *path, uint64_t freq, uint64_t dropped)
{
    if (c->nomem) {
        cli_error("%s: out of memory while collecting the events", path);
        return -1;
    }
    if (c->count == 0) {
        /* A run that decoded nothing never replaces an earlier recording with an empty one. */
        cli_error("%s: no event was decoded: nothing is written (the path is left as it was)", path);
        return -1;
    }
    if (!c->recs) {
        c->recs = calloc(1, 64);
        c->cap = c->recs ? 64 : 0;
    }
    /* The records sit in 4-byte slots (cli_evr_keep); the reader's tables give packed sizes
     * (FrameEvent 17), so save gets a copy of them whose event structs have the slot size. The
     * offsets are unchanged, the schema hash does not use sizes. */
    const evrec_meta_t *m = c->meta;
    evrec_struct_desc_t *structs = malloc((m->struct_count ? m->struct_count : 1) * sizeof *structs);
    if (!structs) {
        cli_error("%s: out of memory", path);
        return -1;
    }
    memcpy(structs, m->structs, m->struct_count * sizeof *structs);
    for (uint32_t e = 0; e < m->event_count; e++) {
        evrec_struct_desc_t *st = &structs[m->events[e].struct_id];
        st->native_size = (uint16_t)slot_size(m, (uint16_t)e);
    }
    evrec_meta_t slots = *m;
    slots.structs = structs;
    /* evrec_save_ex() saves a stopped buffer: its header, then the records. */
    size_t whole_size = EVREC_BUF_HEADER_SIZE + c->len;
    uint8_t *whole = aligned_alloc(8, (whole_size + 7u) & ~(size_t)7u);
    if (!whole) {
        free(structs);
        cli_error("%s: out of memory", path);
        return -1;
    }
    memcpy(whole + EVREC_BUF_HEADER_SIZE, c->recs, c->len);
    evrec_recorder_t rec;
    (void)evrec_recorder_wrap(&rec, whole, whole_size, &slots, freq, c->len, c->count, dropped);
    evrec_save_options_t so = {0, 0};
    so.schema_hash = m->schema_hash ? m->schema_hash : evrec_meta_schema_hash(m);
    /* A temporary file renamed over PATH when complete; a device or FIFO written in place; on a
     * failure PATH is left as it was. */
    cli_output_t out;
    if (!cli_output_open(&out, path)) {
        free(structs);
        free(whole);
        return -1;
    }
    file_sink_t fs = {cli_output_stream(&out)};
    if (!fs.f) {
        cli_output_abort(&out);
        free(structs);
        free(whole);
        return -1;
    }
    evrec_sink_t sink = {file_write, &fs};
    evrec_status st = evrec_save_ex(&rec, &sink, &so);
    cli_output_stream_close(&out, fs.f);
    free(structs);
    free(whole);
    if (st != EVREC_OK && st != EVREC_E_IO) {
        cli_error("%s: writing failed: %s", path, evrec_strerror(st));
        cli_output_abort(&out);
        return -1;
    }
    if (st == EVREC_E_IO && !out.err) {
        out.err = EIO;
    }
    return cli_output_commit(&out) ? 0 : -1;
}
