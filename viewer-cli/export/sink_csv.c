/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec export --csv`: RFC 4180 CSV for spreadsheets and pandas/DuckDB.
 *
 * Lines end in CRLF (RFC 4180 section 2). The header row names the columns:
 *   index,kind,time_ns,time_s,event,class,<field columns>,loss,loss_count,loss_offset,loss_message
 * One row per record (kind "record"): its index in the file, the time since the first record in
 * ns and in seconds (nine decimals; both empty when the frequency is unknown), the event's name
 * and its class (the name of the event its class id designates; the event's own name when it is
 * its own class), then one column per leaf field path over all event types (the union, in
 * meta-info order: event by event, field by field; nested fields dotted, "frame.number"); a cell
 * is empty when the record's event lacks the field. Numbers are decimal. An enum field's column
 * holds the value's name (the number when the value has none) and the column "<path>.raw" next to
 * it the number. `time` and `id` are not columns (time_ns and event say them); a field named like
 * one of the fixed columns (a top-level field `kind`, say) is headed "field.<name>".
 * Losses are rows of kind "loss": the loss columns say what (overwritten, damage, dropped), how
 * many records (empty when unknown), the byte offset and the reader's message for damage; index
 * is the file index of the record that follows the loss (the record count at the end). Damage in
 * the middle of a file is a row before the first record after it, index = the first lost record,
 * loss_count = records lost; damage the reader stopped at has an empty count; damage that lost no
 * record (a repaired header, a display-only chunk) a count of 0, at the end.
 * Text is UTF-8 as the file has it; a field is quoted, its quotes doubled, when it holds a comma,
 * quote, CR or LF; invalid UTF-8 bytes become U+FFFD. */
#include <stdlib.h>

#include "export.h"

#define LOSS_COLUMNS ",,,,"

typedef struct csv {
    export_out_t *o;
    evrec_reader_t *r;
    int ns_known;
    export_layout_t layout;
    uint32_t **raw_col; /* per owner event, per leaf: the .raw column, UINT32_MAX = none; built
                             with the owner's leaves on its first record */
    char **event_cells; /* per event: ",event,class" rendered */
    size_t *event_len;
    uint32_t ncols;
    /* the current row's cells */
    uint32_t *cell_off, *cell_len, *stamp;
    uint32_t gen;
    cli_buf_t scratch;
    export_out_t cellbuf; /* cells are rendered here (never flushed: file is NULL) */
    export_text_stats_t text;
    export_names_t *cols; /* the header's column names (each path once), to find a leaf's column */
} csv_t;

static void csv_free(csv_t *c)
{
    if (c->cols) {
        export_names_free(c->cols);
        free(c->cols);
    }
    for (uint32_t e = 0; e < c->layout.event_count; e++) {
        if (c->raw_col) {
            free(c->raw_col[e]); /* set for owners only */
        }
        if (c->event_cells) {
            free(c->event_cells[e]);
        }
    }
    free(c->raw_col);
    free(c->event_cells);
    free(c->event_len);
    export_layout_free(&c->layout);
    free(c->cell_off);
    free(c->cell_len);
    free(c->stamp);
    free(c->cellbuf.p);
    cli_buf_free(&c->scratch);
    free(c);
}

/* The columns of `nl` leaves, added to the set when new; with `raw` set, each leaf's column and
 * raw[i] its .raw column (UINT32_MAX = none) are stored. 0, or -1 out of memory. */
static int leaf_columns(csv_t *c, export_leaf_t *lv, uint32_t nl, uint32_t *raw)
{
    int oom = 0;
    for (uint32_t i = 0; i < nl && !oom; i++) {
        export_leaf_t *lf = &lv[i];
        if (raw) {
            raw[i] = UINT32_MAX;
        }
        if (i < 2) {
            continue; /* time and id */
        }
        char *name = strdup(lf->path);
        if (!name) {
            return -1;
        }
        lf->column = export_names_get(c->cols, name, &oom);
        if (export_kind_is_enum(lf->kind) && !oom) {
            size_t len = strlen(lf->path);
            char *rawname = malloc(len + 5);
            if (!rawname) {
                return -1;
            }
            memcpy(rawname, lf->path, len);
            memcpy(rawname + len, ".raw", 5);
            uint32_t col = export_names_get(c->cols, rawname, &oom);
            if (raw) {
                raw[i] = col;
            }
        }
    }
    return oom ? -1 : 0;
}

static char *render_event_cells(csv_t *c, const evrec_meta_t *m, uint32_t e, size_t *len)
{
    export_out_t t = {0};
    export_putc(&t, ',');
    const char *name = evrec_reader_event_name(c->r, (uint16_t)e);
    export_csv_field(&t, name, strlen(name), &c->text);
    export_putc(&t, ',');
    const char *cls = evrec_reader_event_name(c->r, m->events[e].class_id);
    if (cls) {
        export_csv_field(&t, cls, strlen(cls), &c->text);
    } else {
        char num[32];
        snprintf(num, sizeof num, "class#%u", (unsigned)m->events[e].class_id);
        export_puts(&t, num);
    }
    *len = t.len;
    return export_out_take(&t);
}

static void *csv_begin(void *user, export_out_t *o, const cli_sink_info_t *meta)
{
    (void)user;
    csv_t *c = calloc(1, sizeof *c);
    if (!c) {
        cli_error("out of memory");
        return NULL;
    }
    c->o = o;
    c->r = meta->reader;
    c->ns_known = meta->time_freq != 0;
    const evrec_meta_t *m = meta->meta;
    if (export_layout_build(&c->layout, m) != 0) {
        free(c);
        return NULL;
    }
    uint32_t n = m->event_count ? m->event_count : 1;
    c->raw_col = calloc(n, sizeof *c->raw_col);
    c->event_cells = calloc(n, sizeof *c->event_cells);
    c->event_len = calloc(n, sizeof *c->event_len);
    c->cols = calloc(1, sizeof *c->cols);
    int oom = !c->raw_col || !c->event_cells || !c->event_len || !c->cols;
    for (uint32_t e = 0; e < m->event_count && !oom; e++) {
        c->event_cells[e] = render_event_cells(c, m, e, &c->event_len[e]);
        if (!c->event_cells[e]) {
            oom = 1;
        }
    }
    /* The columns: every owner's leaves, walked one struct at a time and let go (the leaves
     * themselves are built on an event type's first record). */
    for (uint32_t e = 0; e < m->event_count && !oom; e++) {
        if (c->layout.owner[e] != e) {
            continue; /* same struct, same columns */
        }
        export_leaf_t *lv;
        uint32_t nl;
        if (export_leaves_of_struct(m, m->events[e].struct_id, &lv, &nl) != 0) {
            oom = 1;
            break;
        }
        oom = leaf_columns(c, lv, nl, NULL) != 0;
        export_leaves_free(lv, nl);
    }
    c->ncols = oom ? 0 : c->cols->count;
    if (!oom) {
        c->cell_off = calloc(c->ncols + 1, sizeof *c->cell_off);
        c->cell_len = calloc(c->ncols + 1, sizeof *c->cell_len);
        c->stamp = calloc(c->ncols + 1, sizeof *c->stamp);
        oom = !c->cell_off || !c->cell_len || !c->stamp;
    }
    if (oom) {
        cli_error("out of memory");
        csv_free(c);
        return NULL;
    }
    static const char *const fixed[] = {"index", "kind", "time_ns",    "time_s",      "event",
                                        "class", "loss", "loss_count", "loss_offset", "loss_message"};
    export_puts(o, "index,kind,time_ns,time_s,event,class");
    for (uint32_t i = 0; i < c->cols->count; i++) {
        export_putc(o, ',');
        for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++) {
            if (strcmp(c->cols->names[i], fixed[k]) == 0) {
                export_puts(o, "field."); /* a field named like a fixed column: keep names unique */
                break;
            }
        }
        export_csv_field(o, c->cols->names[i], strlen(c->cols->names[i]), &c->text);
    }
    export_puts(o, ",loss,loss_count,loss_offset,loss_message\r\n");
    return c;
}

static void cell_begin(csv_t *c, uint32_t col)
{
    c->cell_off[col] = (uint32_t)c->cellbuf.len;
    c->stamp[col] = c->gen;
}

static void cell_end(csv_t *c, uint32_t col)
{
    c->cell_len[col] = (uint32_t)c->cellbuf.len - c->cell_off[col];
}

static void put_cell_u64(csv_t *c, uint32_t col, uint32_t v)
{
    cell_begin(c, col);
    export_u64(&c->cellbuf, v);
    cell_end(c, col);
}

static void put_enum_cell(csv_t *c, export_leaf_t *l, uint32_t v)
{
    cell_begin(c, l->column);
    size_t clen;
    const char *ctext = export_leaf_cached(l, v, &clen);
    if (ctext) {
        export_put(&c->cellbuf, ctext, clen);
    } else {
        size_t start = c->cellbuf.len;
        const char *name = evrec_reader_enum_value(c->r, l->enum_id, v, NULL);
        if (name) {
            export_csv_field(&c->cellbuf, name, strlen(name), &c->text);
        } else {
            export_u64(&c->cellbuf, v);
        }
        export_leaf_cache(l, v, c->cellbuf.p + start, c->cellbuf.len - start);
    }
    cell_end(c, l->column);
}

static int csv_record(void *w, const evrec_record_t *rec, uint64_t late)
{
    (void)late;
    csv_t *c = w;
    export_out_t *o = c->o;
    if (++c->gen == 0) { /* wrapped: forget every stamp */
        memset(c->stamp, 0, (c->ncols + 1) * sizeof *c->stamp);
        c->gen = 1;
    }
    c->cellbuf.len = 0;
    uint16_t id = rec->id;
    int built = export_layout_event(&c->layout, id);
    if (built < 0) {
        return -1;
    }
    uint32_t ow = c->layout.owner[id];
    if (built) { /* the owner's first record: its columns (all in the set since the header) */
        uint32_t nl = c->layout.leaf_count[ow];
        c->raw_col[ow] = malloc((nl ? nl : 1) * sizeof **c->raw_col);
        if (!c->raw_col[ow] || leaf_columns(c, c->layout.leaves[ow], nl, c->raw_col[ow]) != 0) {
            cli_error("out of memory");
            return -1;
        }
        for (uint32_t i = 0; i < nl; i++) { /* the columns say them now */
            free(c->layout.leaves[ow][i].path);
            c->layout.leaves[ow][i].path = NULL;
        }
    }
    export_leaf_t *leaves = c->layout.leaves[id];
    uint32_t n = c->layout.leaf_count[id];
    const uint32_t *raw = c->raw_col[ow];
    for (uint32_t i = 2; i < n; i++) {
        export_leaf_t *l = &leaves[i];
        if (l->offset + l->width > rec->size) {
            break; /* cannot happen: the reader checks each record's size */
        }
        uint32_t v = export_leaf_value(l, rec->data);
        if (export_kind_is_enum(l->kind)) {
            put_enum_cell(c, l, v);
            put_cell_u64(c, raw[i], v);
        } else {
            put_cell_u64(c, l->column, v);
        }
    }
    export_u64(o, rec->index);
    export_put(o, ",record,", 8);
    if (c->ns_known) {
        export_u64(o, rec->ns);
        export_putc(o, ',');
        export_seconds(o, rec->ns);
    } else {
        export_putc(o, ',');
    }
    export_put(o, c->event_cells[id], c->event_len[id]);
    /* The cells: every column gets its comma; the record's own cells their text. */
    char *d = export_out_room(o, c->ncols + c->cellbuf.len + 8);
    size_t k = 0;
    for (uint32_t col = 0; col < c->ncols; col++) {
        d[k++] = ',';
        if (c->stamp[col] == c->gen) {
            memcpy(d + k, c->cellbuf.p + c->cell_off[col], c->cell_len[col]);
            k += c->cell_len[col];
        }
    }
    memcpy(d + k, LOSS_COLUMNS "\r\n", sizeof LOSS_COLUMNS + 1);
    k += sizeof LOSS_COLUMNS + 1;
    o->len += k;
    return 0;
}

static int csv_loss(void *w, const cli_loss_t *l)
{
    csv_t *c = w;
    export_out_t *o = c->o;
    export_u64(o, l->before);
    export_puts(o, ",loss,,,,"); /* no time, event or class */
    for (uint32_t col = 0; col < c->ncols; col++) {
        export_putc(o, ',');
    }
    export_putc(o, ',');
    export_puts(o, l->reason);
    export_putc(o, ',');
    if (cli_loss_count_known(l)) {
        export_u64(o, l->count);
    }
    export_putc(o, ',');
    if (l->kind == CLI_LOSS_DAMAGE) {
        export_u64(o, l->offset);
    }
    export_putc(o, ',');
    if (l->message) {
        export_csv_field(o, l->message, strlen(l->message), &c->text);
    }
    export_puts(o, "\r\n");
    return 0;
}

static int csv_end(void *w, const cli_sink_end_t *end)
{
    (void)end;
    csv_free(w);
    return 0;
}

static uint64_t csv_invalid_utf8(void *w)
{
    return ((csv_t *)w)->text.invalid_utf8;
}

const cli_sink_t cli_sink_csv = {
    .name = "csv",
    .option = "--csv",
    .flags = CLI_SINK_WRITES_LOSSES,
    .no_clock_note = "times are left empty",
    .begin = csv_begin,
    .record = csv_record,
    .loss = csv_loss,
    .end = csv_end,
    .invalid_utf8 = csv_invalid_utf8,
};
