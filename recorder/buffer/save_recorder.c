/* SPDX-License-Identifier: Apache-2.0 */
/* Save of a recorder (evrec/evrec_save.h): its records as a source for the writer of common/
 * (save_internal.h): a one-shot area as it is, a cyclic ring's intact blocks oldest first
 * (format/FORMAT.md section 7 for the buffer, CCore's EventRecorder for the stream); lanes in
 * save_lanes.c. No heap. */
#include "evrec/evrec_save.h"
#include "recorder_internal.h"
#include "save_internal.h" /* common/ */

/* CRC-32C of the file header and the buffer's counters: the part of the recording's id that
 * writers never change while a cyclic ring is saved live. */
static uint32_t file_id_counters(const evrec_recorder_t *rec, const uint8_t *header)
{
    const evrec_buf_header_t *bh = rec->hdr;
    uint8_t d[32];
    evrec_put_be64(d, bh->time_freq);
    evrec_put_be64(d + 8, (uint64_t)bh->end_pos);
    evrec_put_be64(d + 16, (uint64_t)bh->used);
    evrec_put_be32(d + 24, bh->full_time);
    evrec_put_be32(d + 28, bh->records_size);
    return evrec_crc32c(evrec_crc32c(0, header, EVREC_HEADER_SIZE), d, sizeof d);
}

/* The recording's id for SEQ and TAIL chunks (FORMAT.md section 2.4): CRC-32C of the header,
 * the buffer's counters and the first 64 bytes of its record area (the Start record's time).
 * Only for a recorder that no thread writes (stopped). */
uint32_t evrec_save_file_id(const void *ctx, const uint8_t *header)
{
    const evrec_recorder_t *rec = *(const evrec_recorder_t *const *)ctx;
    const evrec_buf_header_t *bh = rec->hdr;
    uint32_t id = file_id_counters(rec, header);
    return evrec_crc32c(id, evrec_records(rec), bh->records_size < 64u ? bh->records_size : 64u);
}

/* The fields every save of `rec` shares. */
static evrec_save_source_t source_of(const evrec_recorder_t *rec, uint64_t schema_hash, const void *ctx)
{
    const evrec_buf_header_t *bh = rec->hdr;
    evrec_save_source_t s;
    __builtin_memset(&s, 0, sizeof s);
    s.meta = bh->meta;
    s.time_freq = bh->time_freq;
    s.schema_hash = schema_hash ? schema_hash : bh->meta->schema_hash;
    s.dropped = evrec_atomic_load(&bh->dropped);
    s.ctx = ctx;
    s.file_id = evrec_save_file_id;
    s.attrs = rec->attrs;
    return s;
}

/* ---- one-shot recorders: the record area as it is ---- */

typedef struct oneshot_save {
    const evrec_recorder_t *rec; /* first: evrec_save_file_id() */
} oneshot_save_t;

static evrec_status oneshot_records(const void *ctx, evrec_save_out_t *o, uint64_t *count)
{
    const evrec_recorder_t *rec = ((const oneshot_save_t *)ctx)->rec;
    if (!o) {
        *count += rec->hdr->recorded;
        return EVREC_OK;
    }
    return evrec_save_put_records(o, evrec_records(rec), rec->hdr->used, rec->hdr->records_size);
}

static evrec_status save_oneshot(const evrec_recorder_t *rec, const evrec_sink_t *sink, int container,
                                 uint64_t schema_hash)
{
    oneshot_save_t c = {rec};
    evrec_save_source_t src = source_of(rec, schema_hash, &c);
    src.recorded = rec->hdr->recorded;
    src.records = oneshot_records;
    return evrec_save_write(&src, sink, container);
}

/* ---- cyclic recorders: the intact blocks, oldest first ---- */

typedef struct cyclic_save {
    const evrec_recorder_t *rec; /* first: evrec_save_file_id() */
    evrec_ring_view_t v;
    size_t pos; /* the ring's write position when the save began */
} cyclic_save_t;

/* The id of a ring saved while threads record into it: its record area is being overwritten,
 * so the write position at the start of the save stands for its first 64 bytes. */
static uint32_t live_ring_file_id(const void *ctx, const uint8_t *header)
{
    const cyclic_save_t *c = (const cyclic_save_t *)ctx;
    uint8_t d[8];
    evrec_put_be64(d, (uint64_t)c->pos);
    return evrec_crc32c(file_id_counters(c->rec, header), d, sizeof d);
}

typedef struct block_ref {
    const evrec_recorder_t *rec;
    size_t b;
} block_ref_t;

static int block_intact(const void *arg)
{
    const block_ref_t *r = (const block_ref_t *)arg;
    return evrec_ring_block_same(r->rec, r->b);
}

/* Visits the intact blocks oldest first. With `o` NULL only counts records; else converts them;
 * a block overwritten while it was read is left out whole. */
static evrec_status ring_records(const void *ctx, evrec_save_out_t *o, uint64_t *count)
{
    const cyclic_save_t *c = (const cyclic_save_t *)ctx;
    const evrec_recorder_t *rec = c->rec;
    const evrec_ring_view_t *v = &c->v;
    size_t n = rec->hdr->block_count;
    size_t bsize = rec->hdr->block_size;
    const evrec_meta_t *meta = rec->hdr->meta;
    for (size_t i = 0; i < n; i++) {
        size_t b = (v->newest + v->modulus - (n - 1u) + i) & (v->modulus - 1u);
        size_t end = evrec_ring_block_end(rec, v, b);
        if (end <= EVREC_BLOCK_HEADER) {
            continue;
        }
        const uint8_t *blk = evrec_ring_block(rec, b);
        size_t stop;
        size_t k = rec->cyclic->walk(meta, blk, end, &stop);
        if (!o) {
            *count += k;
        } else if (v->concurrent) {
            block_ref_t r = {rec, b};
            (void)evrec_save_put_block(o, blk + EVREC_BLOCK_HEADER, stop - EVREC_BLOCK_HEADER,
                                       bsize - EVREC_BLOCK_HEADER, bsize + 16u, block_intact, &r);
        } else {
            (void)evrec_save_put_records(o, blk + EVREC_BLOCK_HEADER, stop - EVREC_BLOCK_HEADER,
                                         bsize - EVREC_BLOCK_HEADER);
        }
    }
    return EVREC_OK;
}

static evrec_status save_cyclic(const evrec_recorder_t *rec, const evrec_sink_t *sink, int container,
                                uint64_t schema_hash)
{
    const evrec_buf_header_t *bh = rec->hdr;
    cyclic_save_t c = {rec, {0, 0, 0, 0}, 0};
    unsigned shift = evrec_log2(bh->block_size);
    c.v.modulus = evrec_block_modulus(shift);
    size_t p;
    if (bh->state == EVREC_BUF_STOPPED) {
        p = bh->end_pos;
    } else {
        if (bh->block_size + 16u > evrec_save_chunk_size() || !rec->host) {
            return EVREC_E_ARG;
        }
        p = evrec_atomic_load_acquire(&rec->host->pos);
        if (p >= EVREC_POS_CLOSED) {
            return EVREC_E_BUSY; /* stopping right now */
        }
        p &= evrec_count_one(shift) - 1u; /* the virtual position, without the record count */
        c.v.concurrent = 1;
    }
    c.pos = p;
    c.v.newest = (p - 1u) >> shift;
    c.v.fill = p - (c.v.newest << shift);
    evrec_save_source_t src = source_of(rec, schema_hash, &c);
    src.overwritten = evrec_atomic_load(&bh->overwritten);
    src.flags = 1u;
    /* The count is exact for a stopped recorder; while recording goes on it is unknown in
     * advance (all ones, FORMAT.md section 1). */
    src.recorded = UINT64_MAX;
    src.count_first = !c.v.concurrent;
    src.records = ring_records;
    if (c.v.concurrent) {
        src.file_id = live_ring_file_id;
    }
    return evrec_save_write(&src, sink, container);
}

evrec_status evrec_save_ex(const evrec_recorder_t *rec, const evrec_sink_t *sink, const evrec_save_options_t *opt)
{
    if (!rec || !rec->hdr || !sink || !sink->write) {
        return EVREC_E_ARG;
    }
    const evrec_buf_header_t *bh = rec->hdr;
    if (bh->flags & EVREC_BUF_STREAM) {
        return EVREC_E_UNSUPPORTED; /* its records leave through evrec_stream_drain() */
    }
    int cyclic_live = bh->block_size && bh->state == EVREC_BUF_RECORDING && !(bh->flags & EVREC_BUF_LANES);
    if ((bh->state != EVREC_BUF_STOPPED && !cyclic_live) || !bh->meta) {
        return EVREC_E_BUSY;
    }
    static const evrec_save_options_t defaults = {0, 0};
    if (!opt) {
        opt = &defaults;
    }
    int container = !opt->bare_ccore;
    if (bh->flags & EVREC_BUF_LANES) {
#if EVREC_SAVE_LANES > 0
        return evrec_save_lanes(rec, sink, container, opt->schema_hash);
#else
        return EVREC_E_UNSUPPORTED; /* built with EVREC_SAVE_LANES 0 */
#endif
    }
    if (bh->block_size) {
        return save_cyclic(rec, sink, container, opt->schema_hash);
    }
    return save_oneshot(rec, sink, container, opt->schema_hash);
}

evrec_status evrec_save(const evrec_recorder_t *rec, const evrec_sink_t *sink)
{
    return evrec_save_ex(rec, sink, NULL);
}
