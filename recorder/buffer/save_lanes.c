/* SPDX-License-Identifier: Apache-2.0 */
/* Save of a recorder split into lanes (evrec/evrec_lanes.h): the lanes' records merged by
 * restored time into one stream, as a source for the writer of common/ (save_internal.h);
 * format/FORMAT.md section 2.3. No heap. */
#include "evrec/evrec_save.h"
#include "recorder_internal.h"
#include "save_internal.h" /* common/ */

#if EVREC_SAVE_LANES < 0 || EVREC_SAVE_LANES > 255
#error "EVREC_SAVE_LANES must be in 0..255"
#endif
#if EVREC_SAVE_LANES > 0

/* Where one lane is: its records in buffer order (one-shot: the area; cyclic: the intact blocks
 * oldest first), each lane's time extended on its own (FORMAT.md section 5) and put on the
 * common axis by `base`. */
typedef struct lane_cur {
    evrec_recorder_t sub;         /* the lane's sub-buffer */
    evrec_ring_view_t v;          /* cyclic */
    size_t blk;                   /* cyclic: blocks of the ring visited */
    const uint8_t *p, *end, *lim; /* the current run of records; `lim`: readable end */
    uint64_t t64, base;
    uint32_t prev32;
    int started;
    const uint8_t *head; /* the lane's next record, NULL when the lane is done */
    size_t head_n;
    uint64_t at;      /* its time on the common axis */
    uint64_t written; /* records of this lane in the file */
} lane_cur_t;

static void lane_open(lane_cur_t *c, const evrec_recorder_t *rec, uint32_t k)
{
    uint64_t written = c->written;
    __builtin_memset(c, 0, sizeof *c);
    c->written = written;
    c->sub.hdr = evrec_lane_hdr(rec->hdr, k);
    c->sub.cyclic = rec->cyclic;
    const evrec_buf_header_t *h = c->sub.hdr;
    const uint8_t *recs = evrec_records(&c->sub);
    if (h->block_size) {
        unsigned shift = evrec_log2(h->block_size);
        c->v.modulus = evrec_block_modulus(shift);
        size_t p = h->end_pos;
        c->v.newest = (p - 1u) >> shift;
        c->v.fill = p - (c->v.newest << shift);
    } else {
        c->p = recs;
        c->end = recs + h->used;
        c->lim = recs + h->records_size;
    }
}

/* The lane's next record (its size in *n), its time extended; NULL at the lane's end. */
static const uint8_t *lane_next(lane_cur_t *c, const evrec_meta_t *m, size_t *n)
{
    const evrec_buf_header_t *h = c->sub.hdr;
    for (;;) {
        if (c->p && c->p + sizeof(evrec_record_header_t) <= c->end) {
            const uint8_t *s = c->p;
            size_t k = evrec_slot_size_of(m, ((const evrec_record_header_t *)(const void *)s)->id);
            if (k == 0 || s + k > c->end) {
                c->p = c->end; /* not a record: the run ends (stop and walk already checked) */
                continue;
            }
            c->p = s + k;
            *n = k;
            uint32_t t32 = ((const evrec_record_header_t *)(const void *)s)->time;
            uint32_t step = t32 - c->prev32;
            if (!c->started) {
                c->started = 1;
            } else if (step >= 0xC0000000u) {
                uint64_t back = 0x100000000ull - step;
                c->t64 = c->t64 > back ? c->t64 - back : 0;
            } else {
                c->t64 += step;
            }
            c->prev32 = t32;
            return s;
        }
        if (!h->block_size || c->blk >= h->block_count) {
            return NULL;
        }
        size_t nb = h->block_count, i = c->blk++;
        size_t b = (c->v.newest + c->v.modulus - (nb - 1u) + i) & (c->v.modulus - 1u);
        size_t end = evrec_ring_block_end(&c->sub, &c->v, b);
        if (end <= EVREC_BLOCK_HEADER) {
            continue;
        }
        const uint8_t *blk = evrec_ring_block(&c->sub, b);
        size_t stop;
        (void)c->sub.cyclic->walk(m, blk, end, &stop);
        c->p = blk + EVREC_BLOCK_HEADER;
        c->end = blk + stop;
        c->lim = blk + h->block_size;
    }
}

/* Merges the lanes by time (ties: the lower lane first) into `o`, or only counts with `o` NULL.
 * One Start is written (the first), one Stop (the last lane's, when no other lane has records
 * left), and a Tick once per time (evrec_lanes_tick() writes one into every lane with one
 * stamp). A one-shot lane is placed on the common axis by its Start, a cyclic lane by its Stop
 * (format/FORMAT.md section 2.3). */
static uint64_t lanes_merge(evrec_save_out_t *o, const evrec_recorder_t *rec, lane_cur_t *cur)
{
    const evrec_buf_header_t *h = rec->hdr;
    const evrec_meta_t *m = h->meta;
    uint32_t nl = h->lanes;
    size_t n;
    /* Cyclic: lane k's Stop (its last record) is stop_k - stop_0 ticks after lane 0's (the
     * lanes stop one after the other, microseconds apart); its span from its first record to
     * Stop is t64. Lane k starts at A + (stop_k - stop_0) - span_k, A the smallest value that
     * keeps every start >= 0. */
    int64_t lift = 0;
    uint32_t stop0 = 0;
    if (h->block_size) {
        for (uint32_t k = 0; k < nl; k++) {
            lane_open(&cur[k], rec, k);
            while (lane_next(&cur[k], m, &n)) {
            }
            if (k == 0) {
                stop0 = cur[0].prev32;
            }
            int64_t start = (int64_t)(int32_t)(cur[k].prev32 - stop0) - (int64_t)cur[k].t64;
            cur[k].base = (uint64_t)start; /* for now */
            lift = -start > lift ? -start : lift;
        }
    }
    uint32_t live = 0, start0 = 0;
    for (uint32_t k = 0; k < nl; k++) {
        uint64_t start = cur[k].base;
        lane_open(&cur[k], rec, k);
        cur[k].head = lane_next(&cur[k], m, &cur[k].head_n);
        if (h->block_size) {
            cur[k].base = (uint64_t)((int64_t)start + lift);
        } else {
            /* One-shot: every lane's first record is its Start, stamped start_k - start_0 ticks
             * after lane 0's (the lanes start one after the other). */
            if (k == 0) {
                start0 = cur[0].prev32;
            }
            cur[k].base = cur[k].head ? (uint32_t)(cur[k].prev32 - start0) : 0;
        }
        cur[k].at = cur[k].base + cur[k].t64;
        live += cur[k].head != NULL;
        if (!o) {
            cur[k].written = 0;
        }
    }
    uint64_t count = 0, last_tick = 0;
    int start_done = 0, tick_done = 0;
    while (live) {
        uint32_t k = 0;
        while (!cur[k].head) {
            k++;
        }
        for (uint32_t j = k + 1; j < nl; j++) {
            if (cur[j].head && cur[j].at < cur[k].at) {
                k = j;
            }
        }
        lane_cur_t *c = &cur[k];
        const uint8_t *s = c->head;
        size_t len = c->head_n;
        uint64_t at = c->at;
        c->head = lane_next(c, m, &c->head_n);
        c->at = c->base + c->t64;
        live -= c->head == NULL;
        if (((const evrec_record_header_t *)(const void *)s)->id == EVREC_CONTROL_EVENT_ID) {
            uint8_t type = s[6];
            int keep = 1;
            if (type == EVREC_CONTROL_START) {
                keep = !start_done;
                start_done = 1;
            } else if (type == EVREC_CONTROL_STOP) {
                keep = c->head == NULL && live == 0;
            } else if (type == EVREC_CONTROL_TICK) {
                keep = !tick_done || at != last_tick;
                tick_done = 1;
                last_tick = at;
            }
            if (!keep) {
                continue;
            }
        }
        count++;
        if (!o) {
            c->written++;
            continue;
        }
        evrec_save_put_lane_record(o, s, len, (size_t)(c->lim - s), k);
    }
    return count;
}

typedef struct lanes_save {
    const evrec_recorder_t *rec; /* first: evrec_save_file_id() */
    lane_cur_t *cur;
} lanes_save_t;

static evrec_status lanes_records(const void *ctx, evrec_save_out_t *o, uint64_t *count)
{
    const lanes_save_t *ls = (const lanes_save_t *)ctx;
    uint64_t n = lanes_merge(o, ls->rec, ls->cur);
    if (!o) {
        *count += n;
    }
    return EVREC_OK;
}

/* The LANES chunk's counts of lane k (FORMAT.md section 2.3): records in the file, dropped,
 * overwritten. */
static void lane_counts(const void *ctx, uint32_t k, uint64_t counts[3])
{
    const lanes_save_t *ls = (const lanes_save_t *)ctx;
    const evrec_buf_header_t *l = evrec_lane_hdr(ls->rec->hdr, k);
    counts[0] = ls->cur[k].written;
    counts[1] = evrec_atomic_load(&l->dropped);
    counts[2] = evrec_atomic_load(&l->overwritten);
}

/* Not inlined: its cursors (about 140 bytes per lane, EVREC_SAVE_LANES of them) stay off the
 * stack of a save without lanes. */
__attribute__((noinline)) evrec_status evrec_save_lanes(const evrec_recorder_t *rec, const evrec_sink_t *sink,
                                                        int container, uint64_t schema_hash)
{
    const evrec_buf_header_t *h = rec->hdr;
    if (h->lanes == 0 || h->lanes > EVREC_SAVE_LANES || (h->block_size && !rec->cyclic)) {
        return EVREC_E_ARG; /* more lanes than this build's save handles: raise EVREC_SAVE_LANES */
    }
    lane_cur_t cur[EVREC_SAVE_LANES];
    __builtin_memset(cur, 0, sizeof cur[0] * h->lanes);
    lanes_save_t ls = {rec, cur};
    evrec_save_source_t src;
    __builtin_memset(&src, 0, sizeof src);
    src.meta = h->meta;
    src.time_freq = h->time_freq;
    src.schema_hash = schema_hash ? schema_hash : h->meta->schema_hash;
    src.dropped = evrec_atomic_load(&h->dropped);
    src.overwritten = evrec_atomic_load(&h->overwritten);
    src.flags = h->block_size ? 1u : 0u;
    src.lanes = h->lanes;
    src.count_first = 1; /* which also counts each lane's records for the LANES chunk */
    src.ctx = &ls;
    src.records = lanes_records;
    src.file_id = evrec_save_file_id;
    src.lane_counts = lane_counts;
    src.attrs = rec->attrs;
    return evrec_save_write(&src, sink, container);
}

/* Not inlined, for the same reason. */
__attribute__((noinline)) uint64_t evrec_lanes_file_records(const evrec_recorder_t *rec)
{
    const evrec_buf_header_t *h = rec->hdr;
    if (h->lanes == 0 || h->lanes > EVREC_SAVE_LANES || (h->block_size && !rec->cyclic)) {
        return UINT64_MAX; /* not saved either (evrec_save_lanes() refuses it) */
    }
    lane_cur_t cur[EVREC_SAVE_LANES];
    __builtin_memset(cur, 0, sizeof cur[0] * h->lanes);
    return lanes_merge(NULL, rec, cur);
}

#else

uint64_t evrec_lanes_file_records(const evrec_recorder_t *rec)
{
    (void)rec;
    return UINT64_MAX; /* this build saves no lanes */
}

#endif /* EVREC_SAVE_LANES > 0 */
