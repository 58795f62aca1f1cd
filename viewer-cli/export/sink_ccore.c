/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec export --ccore`: the bare CCore EventRecorder stream that CCore's EventView loads
 * (format/FORMAT.md section 3): the MetaInfo, the records in time order, the End record.
 *
 * The MetaInfo and the End record come from the recorder library's own encoder
 * (evrec_save_ccore() with no records writes exactly MetaInfo + End), so they are byte for byte
 * what a recorder saving these tables in bare CCore mode writes; the records in between are the
 * packed big-endian bytes the reader returns. The file's own time_freq is kept (not a
 * --time-freq given to this command). Display attributes (FIELD_INFO) and the container's counts
 * have no place in a CCore stream; losses are reported on stderr by the command only.
 *
 * Time order: a CCore stream has 32-bit stamps only, and EventView (like evrec's reader) reads a
 * stamp below its predecessor's as a wrap of the 32-bit counter, ~2^32 ticks later. Records of
 * several threads, interrupts or lanes are in slot order in a file, where a record may be
 * stamped a little earlier than the one before it; so the records are written in time order
 * (by 64-bit time, then file order) through a window of the last `reorder_window` records
 * (a binary heap of copies). A record stamped earlier than one already written (it came more
 * than the window after it in the file) is written with the stamp of the record written before
 * it, and counted in a note on stderr: no record's stamp steps back. The End record is the
 * encoder's (stamp 0, as a bare save writes it; readers take no time from it). */
#include <stdlib.h>

#include "evrec/evrec_reader_order.h"
#include "evrec/evrec_save.h"
#include "export.h"

#define END_RECORD_SIZE 7u

typedef struct held {
    uint64_t t64;
    uint64_t index;
    uint32_t size;
    uint8_t data[EVREC_ORDER_MAX_RECORD];
} held_t;

typedef struct ccore {
    export_out_t *o;
    export_out_t meta; /* MetaInfo followed by the End record */
    const char *input;
    held_t *heap; /* min-heap by (t64, index) */
    uint32_t n, cap, window;
    int written; /* a record was written: last_t64/last32 hold */
    uint64_t last_t64;
    uint8_t last32[4];
    uint64_t clamped; /* records written with their predecessor's stamp */
    int nomem;
} ccore_t;

static int sink_write(void *ctx, const void *data, size_t len)
{
    export_put(ctx, data, len);
    return 0;
}

static void *ccore_begin(void *user, export_out_t *o, const cli_sink_info_t *meta)
{
    (void)user;
    ccore_t *c = calloc(1, sizeof *c);
    if (!c) {
        cli_error("out of memory");
        return NULL;
    }
    c->o = o;
    c->input = meta->input;
    c->window = meta->reorder_window ? meta->reorder_window : EVREC_ORDER_DEFAULT_WINDOW;
    evrec_sink_t sink = {sink_write, &c->meta};
    evrec_status st = evrec_save_ccore(meta->meta, meta->info->time_freq, NULL, 0, &sink);
    if (st != EVREC_OK || c->meta.len < END_RECORD_SIZE) {
        cli_error("%s: cannot encode the meta-info as a CCore stream (status %d)", meta->input, (int)st);
        free(c->meta.p);
        free(c);
        return NULL;
    }
    export_put(o, c->meta.p, c->meta.len - END_RECORD_SIZE);
    return c;
}

static int before(const held_t *a, const held_t *b)
{
    return a->t64 != b->t64 ? a->t64 < b->t64 : a->index < b->index;
}

static void swap(held_t *a, held_t *b)
{
    held_t t = *a;
    *a = *b;
    *b = t;
}

/* Writes the earliest held record and removes it from the heap. */
static void write_first(ccore_t *c)
{
    held_t *h = c->heap;
    if (c->written && h[0].t64 < c->last_t64) {
        memcpy(h[0].data, c->last32, 4); /* late: its predecessor's stamp, never an earlier one */
        c->clamped++;
    } else {
        memcpy(c->last32, h[0].data, 4);
        c->last_t64 = h[0].t64;
        c->written = 1;
    }
    export_put(c->o, h[0].data, h[0].size);
    h[0] = h[--c->n];
    for (uint32_t i = 0;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        m = l < c->n && before(&h[l], &h[m]) ? l : m;
        m = r < c->n && before(&h[r], &h[m]) ? r : m;
        if (m == i) {
            break;
        }
        swap(&h[i], &h[m]);
        i = m;
    }
}

/* Room for one more held record (doubling up to the window). 0 when memory ran out. */
static int room(ccore_t *c)
{
    if (c->n < c->cap) {
        return 1;
    }
    uint32_t cap = c->cap ? c->cap * 2 : 64;
    cap = cap > c->window ? c->window : cap;
    held_t *h = realloc(c->heap, (size_t)cap * sizeof *h);
    if (!h) {
        return 0;
    }
    c->heap = h;
    c->cap = cap;
    return 1;
}

static int ccore_record(void *w, const evrec_record_t *rec, uint64_t late)
{
    (void)late;
    ccore_t *c = w;
    if (rec->size > EVREC_ORDER_MAX_RECORD || rec->size < 4) {
        return 0; /* the reader returns 6..256 bytes */
    }
    if (c->n == c->window) {
        write_first(c);
    }
    if (!room(c)) {
        cli_error("%s: out of memory for the records held back to restore time order", c->input);
        c->nomem = 1;
        return -1;
    }
    held_t *h = c->heap;
    uint32_t i = c->n++;
    h[i].t64 = rec->t64;
    h[i].index = rec->index;
    h[i].size = rec->size;
    memcpy(h[i].data, rec->data, rec->size);
    while (i > 0 && before(&h[i], &h[(i - 1) / 2])) {
        swap(&h[i], &h[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    return 0;
}

static int ccore_loss(void *w, const cli_loss_t *l)
{
    (void)w;
    (void)l;
    return 0; /* a CCore stream cannot say it; the command reports losses on stderr */
}

static int ccore_end(void *w, const cli_sink_end_t *end)
{
    ccore_t *c = w;
    if (!end->abandoned) {
        while (c->n) {
            write_first(c);
        }
        export_put(c->o, c->meta.p + c->meta.len - END_RECORD_SIZE, END_RECORD_SIZE);
        if (c->clamped) {
            cli_error("%s: note: %llu record(s) were stamped earlier than a record more than %u records before "
                      "them: written with the stamp of the record before them (a CCore stream cannot step "
                      "back in time; --reorder-window N holds back more)",
                      c->input, (unsigned long long)c->clamped, (unsigned)c->window);
        }
    }
    free(c->heap);
    free(c->meta.p);
    free(c);
    return 0;
}

const cli_sink_t cli_sink_ccore = {
    .name = "ccore",
    .option = "--ccore",
    .flags = CLI_SINK_WRITES_LOSSES | CLI_SINK_LOSSES_NOT_KEPT,
    .begin = ccore_begin,
    .record = ccore_record,
    .loss = ccore_loss,
    .end = ccore_end,
};
