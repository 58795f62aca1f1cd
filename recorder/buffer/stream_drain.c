/* SPDX-License-Identifier: Apache-2.0 */
/* The drain of a stream (evrec_stream_drain(), evrec/evrec_stream.h): walks the ring's blocks in
 * order, sends their committed records as S_RECORDS frames, the drops as S_LOSS frames, the meta
 * document as S_META frames and, once stopped and empty, S_END (FORMAT.md section 8). A block is
 * cleared and given back to the recording (its slot's `ready` = the block number of the next lap)
 * once it is closed and all its records were sent. It never waits: a record not yet committed ends
 * the walk until the next call. */
#include "evrec/evrec_stream.h"
#include "recorder_internal.h"
#include "save_internal.h"
#include "stream_internal.h"

/* The ring's geometry, from the buffer's header (the host may be stopped or restarted). */
typedef struct ring {
    uint8_t *records;
    size_t bsize, ring_mask, mod;
    unsigned shift;
} ring_t;

static ring_t ring_of(const evrec_stream_t *s)
{
    ring_t r;
    const evrec_buf_header_t *bh = s->rec.hdr;
    r.records = evrec_records(&s->rec);
    r.bsize = bh->block_size;
    r.ring_mask = (size_t)bh->block_count * bh->block_size - 1u;
    r.shift = evrec_log2(r.bsize);
    r.mod = evrec_block_modulus(r.shift);
    return r;
}

static evrec_block_header_t *slot(const ring_t *r, size_t b)
{
    return (evrec_block_header_t *)(void *)(r->records + ((b << r->shift) & r->ring_mask));
}

/* Magic, type and length, CRC-32C of both and the payload at f + 12 (FORMAT.md section 8.1).
 * Returns the frame's bytes. */
static size_t frame_close(uint8_t *f, unsigned type, size_t len)
{
    __builtin_memcpy(f, EVREC_STREAM_MAGIC, 4);
    evrec_put_be32(f + 4, (uint32_t)type << 24 | (uint32_t)len);
    evrec_put_be32(f + 8, evrec_crc32c(evrec_crc32c(0, f + 4, 4), f + EVREC_STREAM_FRAME_HEADER, len));
    return EVREC_STREAM_FRAME_HEADER + len;
}

/* ---- the meta document: rendered again for each piece, a window of it kept ---- */

typedef struct doc_window {
    uint8_t *dst; /* where bytes [from, from + room) of the document go; NULL: none */
    size_t from, room, pos;
    uint32_t crc;
} doc_window_t;

static int window_write(void *ctx, const void *data, size_t len)
{
    doc_window_t *w = (doc_window_t *)ctx;
    const uint8_t *p = (const uint8_t *)data;
    w->crc = evrec_crc32c(w->crc, p, len);
    size_t lo = w->pos, hi = w->pos + len, end = w->from + w->room;
    if (w->dst && hi > w->from && lo < end) {
        size_t a = lo > w->from ? lo : w->from, b = hi < end ? hi : end;
        __builtin_memcpy(w->dst + (a - w->from), p + (a - lo), b - a);
    }
    w->pos += len;
    return 0;
}

/* The document: u32 L, the MetaInfo (L bytes), the chunks before the stream. */
static evrec_status doc_render(const evrec_stream_t *s, doc_window_t *w, int whole)
{
    evrec_sink_t sink = {window_write, w};
    uint8_t l[4];
    evrec_put_be32(l, s->meta_len);
    if (whole) {
        (void)window_write(w, l, 4);
    }
    evrec_status st = evrec_save_meta_raw(s->meta, s->time_freq, &sink);
    if (st == EVREC_OK && whole) {
        st = evrec_save_pre_chunks(s->meta, &sink);
    }
    if (st == EVREC_OK && whole) {
        st = evrec_attrs_put_chunk(s->rec.attrs, &sink); /* FORMAT.md section 2.6 */
    }
    return st;
}

/* Measures the document (its size and CRC may change: run-time enum names) and makes it due. */
static evrec_status doc_begin(evrec_stream_t *s)
{
    doc_window_t w = {NULL, 0, 0, 0, 0};
    evrec_status st = doc_render(s, &w, 0);
    if (st != EVREC_OK || w.pos > 0xFFFFFFF0u) {
        return st != EVREC_OK ? st : EVREC_E_IO;
    }
    s->meta_len = (uint32_t)w.pos;
    __builtin_memset(&w, 0, sizeof w);
    st = doc_render(s, &w, 1);
    if (st != EVREC_OK || w.pos > 0xFFFFFFF0u) {
        return st != EVREC_OK ? st : EVREC_E_IO;
    }
    s->doc_size = (uint32_t)w.pos;
    s->doc_crc = w.crc;
    s->doc_pos = 0;
    s->since_meta = 0;
    return EVREC_OK;
}

static size_t put_meta_piece(evrec_stream_t *s, uint8_t *f, size_t room)
{
    size_t head = EVREC_STREAM_FRAME_HEADER + EVREC_FRAME_META_HEAD;
    if (room < head + 16u) {
        return 0;
    }
    size_t left = s->doc_size - s->doc_pos, k = room - head;
    k = k < left ? k : left;
    k = k < EVREC_STREAM_MAX_PAYLOAD - EVREC_FRAME_META_HEAD ? k
                                                             : EVREC_STREAM_MAX_PAYLOAD - EVREC_FRAME_META_HEAD;
    uint8_t *p = f + EVREC_STREAM_FRAME_HEADER;
    evrec_put_be32(p, s->stream_id);
    evrec_put_be32(p + 4, s->doc_crc);
    evrec_put_be32(p + 8, s->doc_size);
    evrec_put_be32(p + 12, s->doc_pos);
    doc_window_t w = {p + EVREC_FRAME_META_HEAD, s->doc_pos, k, 0, 0};
    if (doc_render(s, &w, 1) != EVREC_OK) {
        s->doc_pos = s->doc_size; /* cannot happen with validated tables: give up this document */
        return 0;
    }
    s->doc_pos += (uint32_t)k;
    return frame_close(f, EVREC_FRAME_META, EVREC_FRAME_META_HEAD + k);
}

/* ---- losses and the end ---- */

static size_t put_loss(evrec_stream_t *s, uint8_t *f, size_t room)
{
    if (room < EVREC_STREAM_FRAME_HEADER + EVREC_FRAME_LOSS_SIZE) {
        return 0;
    }
    uint8_t *p = f + EVREC_STREAM_FRAME_HEADER;
    __builtin_memset(p, 0, EVREC_FRAME_LOSS_SIZE);
    evrec_put_be32(p, s->stream_id);
    p[5] = 1; /* cause: the buffer was full */
    s->loss_sent += s->loss_pending;
    evrec_put_be64(p + 8, s->loss_pending);
    evrec_put_be64(p + 16, s->index);
    evrec_put_be64(p + 24, s->loss_sent);
    s->loss_pending = 0;
    return frame_close(f, EVREC_FRAME_LOSS, EVREC_FRAME_LOSS_SIZE);
}

static size_t put_end(evrec_stream_t *s, uint8_t *f, size_t room)
{
    if (room < EVREC_STREAM_FRAME_HEADER + 24u) {
        return 0;
    }
    uint8_t *p = f + EVREC_STREAM_FRAME_HEADER;
    evrec_put_be32(p, s->stream_id);
    evrec_put_be32(p + 4, 1u);
    evrec_put_be64(p + 8, s->index);
    evrec_put_be64(p + 16, s->loss_sent);
    s->ended = 1;
    return frame_close(f, EVREC_FRAME_END, 24u);
}

/* 1 when the recording stopped and every block up to its end was sent and given back. */
static int all_sent(const evrec_stream_t *s, const ring_t *r)
{
    const evrec_buf_header_t *bh = s->rec.hdr;
    if (__atomic_load_n(&bh->state, __ATOMIC_ACQUIRE) != EVREC_BUF_STOPPED) {
        return 0;
    }
    size_t last = (bh->end_pos - 1u) >> r->shift;
    return s->block == ((last + 1u) & (r->mod - 1u)) && !s->block_seen;
}

/* ---- records ---- */

/* The block the drain is in, once opened: takes the drops before it (its opener's count),
 * gives back every closed block whose records were all sent. NULL when the next block is not
 * opened yet. `*end`: where its records end (its extent once closed, else the block's end). */
static uint8_t *block_now(evrec_stream_t *s, const ring_t *r, size_t *end, size_t *used_out)
{
    for (;;) {
        evrec_block_header_t *hdr = slot(r, s->block);
        if (!evrec_seq_is(__atomic_load_n(&hdr->seq, __ATOMIC_ACQUIRE), s->block)) {
            return NULL;
        }
        if (!s->block_seen) {
            /* Openers read the drop count after their compare-and-swap: the opener of a later
             * block may have read it before the opener of this one did (it was delayed between
             * the two). A count that went back is no news: the drops stay pending for a later
             * block, or for the final count at the end, so the total stays exact. */
            size_t snap = evrec_atomic_load(&hdr->ready) & EVREC_STREAM_DROP_MASK;
            size_t news = (snap - s->snapshot) & EVREC_STREAM_DROP_MASK;
            if (news <= EVREC_STREAM_DROP_MASK / 2u) {
                s->loss_pending += news;
                s->snapshot = snap;
            }
            s->block_seen = 1;
        }
        size_t used = __atomic_load_n(&hdr->closed, __ATOMIC_ACQUIRE) & EVREC_CLOSED_USED_MASK;
        if (used == 0 || s->offset < used) {
            *end = used ? used : r->bsize;
            *used_out = used;
            return (uint8_t *)hdr;
        }
        /* closed and sent: clear it and give the slot to the next lap's block */
        __builtin_memset((uint8_t *)hdr + EVREC_BLOCK_HEADER, 0xFF, r->bsize - EVREC_BLOCK_HEADER);
        __atomic_store_n(&hdr->seq, EVREC_SEQ_UNSTAMPED, __ATOMIC_RELAXED);
        __atomic_store_n(&hdr->closed, 0u, __ATOMIC_RELAXED);
        size_t lap = (size_t)s->rec.hdr->block_count;
        evrec_atomic_store(&hdr->ready, (s->block + lap) & (r->mod - 1u));
        s->block = (s->block + 1u) & (r->mod - 1u);
        s->offset = EVREC_BLOCK_HEADER;
        s->block_seen = 0;
    }
}

/* FORMAT.md section 5's rule, as a reader applies it (the SYNC state of section 2.2). */
static void time_step(evrec_stream_t *s, const uint8_t *rec, uint16_t id)
{
    uint32_t t32 = ((const evrec_record_header_t *)(const void *)rec)->time;
    uint32_t step = t32 - s->prev32;
    if (step >= 0xC0000000u) {
        uint64_t back = 0x100000000ull - step;
        s->t64 = s->t64 > back ? s->t64 - back : 0;
    } else if (s->index) {
        s->t64 += step;
    }
    s->prev32 = t32;
    s->t64_max = s->t64 > s->t64_max ? s->t64 : s->t64_max;
    s->ticks += id == EVREC_CONTROL_EVENT_ID && rec[6] == EVREC_CONTROL_TICK;
    s->index++;
}

/* The record at `rec` (event `id`) packed at d: by the plan made at start, or, for an event type
 * without one, by the table walk. */
EVREC_NO_TSAN static inline uint8_t *pack(const evrec_stream_t *s, uint8_t *d, const uint8_t *rec, uint16_t id)
{
#if EVREC_STREAM_PLAN_EVENTS > 0
    if (id < s->plan.events) {
        return evrec_stream_pack(&s->plan, id, d, rec);
    }
#endif
    return evrec_save_pack_record(s->meta, d, rec, id);
}

/* Converts the committed records of the block at `blk` from s->offset to `end` into d (up to
 * lim); returns the new output position. A record of an unknown id (memory overwritten) ends the
 * block when it is closed (`used`, its extent, nonzero: the rest is skipped), else waits. */
static uint8_t *walk_block(evrec_stream_t *s, const uint8_t *blk, size_t end, size_t used, uint8_t *d,
                           const uint8_t *lim)
{
    size_t q = s->offset;
    while (q + sizeof(evrec_record_header_t) <= end) {
        const uint8_t *rec = blk + q;
        uint16_t id = __atomic_load_n(&((const evrec_record_header_t *)(const void *)rec)->id, __ATOMIC_ACQUIRE);
        if (id >= EVREC_ID_PROVISIONAL_MIN) {
            break; /* not reserved yet, or not committed yet */
        }
        size_t n = evrec_slot_size_of(s->meta, id);
        if (n == 0 || q + n > end) {
            q = used ? used : q;
            break;
        }
        if ((size_t)(lim - d) < n) {
            break; /* packed <= native: the frame is full */
        }
        time_step(s, rec, id);
        d = pack(s, d, rec, id);
        q += n;
    }
    s->offset = q;
    return d;
}

/* The SYNC payload of FORMAT.md section 2.2 at p: the state before the frame's first record. */
static void put_state(const evrec_stream_t *s, uint8_t *p)
{
    evrec_put_be64(p, s->index);
    evrec_put_be64(p + 8, s->t64);
    evrec_put_be64(p + 16, s->t64_max);
    evrec_put_be64(p + 24, s->ticks);
    evrec_put_be32(p + 32, s->prev32);
}

/* One S_RECORDS frame with the records ready to go, stopping before drops not yet sent. */
static size_t put_records(evrec_stream_t *s, const ring_t *r, uint8_t *f, size_t room)
{
    uint8_t *p = f + EVREC_STREAM_FRAME_HEADER;
    size_t most = EVREC_STREAM_FRAME_HEADER + EVREC_STREAM_MAX_PAYLOAD; /* what a receiver accepts */
    uint8_t *d = p + EVREC_FRAME_RECORDS_HEAD, *lim = f + (room < most ? room : most);
    __builtin_memset(p, 0, 8);
    evrec_put_be32(p, s->stream_id);
    put_state(s, p + 8);
    uint64_t first = s->index;
    for (;;) {
        size_t end, used;
        uint8_t *blk = block_now(s, r, &end, &used);
        if (!blk || s->loss_pending) {
            break; /* nothing opened yet, or drops to send before what follows */
        }
        size_t before = s->offset;
        d = walk_block(s, blk, end, used, d, lim);
        if (s->offset == before) {
            break; /* no progress: uncommitted record, or the frame is full */
        }
    }
    if (s->index == first) {
        return 0;
    }
    if (s->meta_every && ++s->since_meta >= s->meta_every) {
        (void)doc_begin(s); /* the document again, after this frame */
    }
    return frame_close(f, EVREC_FRAME_RECORDS, (size_t)(d - p));
}

/* One frame of whatever is due, in order: the document, drops, records, the end. */
static size_t put_frame(evrec_stream_t *s, const ring_t *r, uint8_t *f, size_t room)
{
    if (s->doc_pos < s->doc_size) {
        return put_meta_piece(s, f, room);
    }
    size_t end, used;
    (void)block_now(s, r, &end, &used); /* takes the drops before the block the drain is in */
    if (s->loss_pending) {
        return put_loss(s, f, room);
    }
    if (room < EVREC_STREAM_MIN_CAP) {
        return 0;
    }
    size_t k = put_records(s, r, f, room);
    if (k || s->loss_pending || !all_sent(s, r)) {
        return k;
    }
    uint64_t total = evrec_atomic_load(&s->rec.hdr->dropped); /* final: the drops after the last block */
    if (total > s->loss_sent) {
        s->loss_pending = total - s->loss_sent;
        return put_loss(s, f, room);
    }
    return put_end(s, f, room);
}

size_t evrec_stream_drain(evrec_stream_t *s, void *buf, size_t cap)
{
    if (!s || !buf || !s->meta || s->ended || cap < EVREC_STREAM_MIN_CAP) {
        return 0;
    }
    ring_t r = ring_of(s);
    uint8_t *b = (uint8_t *)buf;
    size_t n = 0, k;
    while (!s->ended && (k = put_frame(s, &r, b + n, cap - n)) != 0) {
        n += k;
    }
    return n;
}

int evrec_stream_done(const evrec_stream_t *s)
{
    return s && s->ended;
}

evrec_stream_counts_t evrec_stream_counts(const evrec_stream_t *s)
{
    evrec_stream_counts_t c = {0, 0};
    if (s && s->rec.hdr) {
        c.sent = s->index;
        c.dropped = evrec_atomic_load(&s->rec.hdr->dropped);
    }
    return c;
}

evrec_status evrec_stream_start(evrec_stream_t *s, evrec_host_t *host, const evrec_meta_t *meta,
                                uint64_t time_freq, uint32_t stream_id)
{
    if (!s || !host || !meta || !s->rec.hdr || !(s->rec.hdr->flags & EVREC_BUF_STREAM)) {
        return EVREC_E_ARG;
    }
    uint32_t seed[3] = {EVREC_PORT_TIMESTAMP(), (uint32_t)(uintptr_t)s->rec.hdr, s->stream_id};
    evrec_status st = evrec_host_start(host, &s->rec, meta, time_freq);
    if (st != EVREC_OK) {
        return st;
    }
    s->meta = meta;
#if EVREC_STREAM_PLAN_EVENTS > 0
    evrec_stream_plan_build(&s->plan, meta);
#endif
    s->time_freq = time_freq;
    s->stream_id = stream_id ? stream_id : evrec_crc32c(0, seed, sizeof seed) | 1u;
    s->block = 0;
    s->offset = EVREC_BLOCK_HEADER;
    s->snapshot = 0;
    s->block_seen = 0;
    s->ended = 0;
    s->loss_pending = s->loss_sent = s->index = 0;
    s->t64 = s->t64_max = s->ticks = 0;
    s->prev32 = 0;
    return doc_begin(s);
}
