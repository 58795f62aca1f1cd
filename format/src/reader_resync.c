/* SPDX-License-Identifier: Apache-2.0 */
/* Resynchronisation at SYNC points (FORMAT.md section 2.2): resuming the records after a gap with
 * the index and time of the SYNC chunk before the segment, and jumping to a SYNC point for a seek. */
#include "evrec/evrec_container.h"
#include "reader_internal.h"

void rd_resume(evrec_reader_t *r)
{
    r->resync.resuming = 0;
    r->resync.sync_time = 0; /* the same state is taken here */
    r->iter.gap_next = 1;
    evrec_damage_t *d = rd_damage_last(r);
    if (d && d->records_lost == UINT64_MAX && r->resync.sync.index >= r->iter.index) {
        d->records_lost = r->resync.sync.index - r->iter.index;
    }
    if (d && d->index_after == UINT64_MAX) {
        d->index_after = r->resync.sync.index;
    }
    r->iter.index = r->resync.sync.index;
    r->iter.t64 = r->resync.sync.t64;
    r->iter.prev32 = r->resync.sync.prev32;
    r->iter.ticks = r->resync.sync.ticks;
    r->iter.started = r->resync.sync.index > 0;
}

/* FORMAT.md section 2.2: the SYNC chunk's time state is the one before its STREAM chunk's first
 * record. A file saved from a RAM buffer has the state the reader reaches by section 5's rule
 * anyway; a file written from a stream (section 8.3) has the target's own, exact across a gap of
 * frames lost in transport however long, where the rule would see at most 3/4 of a wrap. A SYNC
 * chunk of record 0 with an all-zero state has no record before it (the stream's Start follows);
 * a non-zero one is a stream joined late, its state that of the record sent before. */
void rd_sync_time(evrec_reader_t *r)
{
    const rd_sync_t *s = &r->resync.sync;
    r->resync.sync_time = 0;
    if (s->index != r->iter.index || (s->index == 0 && s->t64 == 0 && s->prev32 == 0)) {
        return;
    }
    r->iter.t64 = s->t64;
    r->iter.prev32 = s->prev32;
    r->iter.started = 1;
}

/* A seek: find the last SYNC chunk from which the target is still ahead, by bisection over file
 * offsets (each probe reads from a midpoint to the next SYNC chunk, about one chunk). A SYNC chunk
 * S may be jumped to when no record before it can be the target: its records have index <
 * S.index and t64 <= S.t64_max, so S qualifies when S.index <= min_index or S.t64_max < min_t64.
 * Both grow along the file, so the qualifying SYNC chunks come first. Chunks jumped over are not
 * read, so damage in them is not reported. An INDEX chunk (section 2.5) narrows the bisection to
 * the SYNC chunks between two of its entries. A target no SYNC chunk ahead can qualify for (the
 * next record's index or before, no time) is no seek: the index is neither read nor judged. */
void rd_seek_sync(evrec_reader_t *r, uint64_t min_index, uint64_t min_t64)
{
    if ((min_index <= r->iter.index && min_t64 == 0) || !r->stream.container || !src_random_access(&r->src) ||
        r->stream.seg_unverified || r->resync.discont || r->resync.resuming || !r->tables.have_meta ||
        r->errs.halt) {
        return;
    }
    uint64_t a = r->src.pos, b = r->src.size;
    rd_sync_t best, s;
    int have = 0;
    rd_index_bounds(r, min_index, min_t64, &a, &b, &best, &have); /* the INDEX chunk, when valid */
    while (b > a && b - a > 4u * 65536u) {
        uint64_t mid = a + (b - a) / 2u;
        if (!rd_find_sync(r, mid, b, &s)) {
            b = mid;
        } else if (s.index <= min_index || s.t64_max < min_t64) {
            best = s;
            have = 1;
            a = s.off + 1u;
        } else {
            b = mid;
        }
    }
    /* The rest linearly: every SYNC chunk in [a, b). */
    while (a < b && rd_find_sync(r, a, b, &s) && (s.index <= min_index || s.t64_max < min_t64)) {
        best = s;
        have = 1;
        a = s.off + 1u;
    }
    if (!have || best.index <= r->iter.index) {
        return;
    }
    uint64_t stream_chunk = best.off + EVREC_CHUNK_HEADER_SIZE + EVREC_SYNC_SIZE;
    if (src_seek(&r->src, stream_chunk) != 0) {
        return;
    }
    r->stream.seg_file_off = stream_chunk;
    r->stream.seg_len = r->stream.seg_pos = 0;
    rd_lanes_before_sync(r, best.off, best.index);
    r->resync.sync = best;
    r->resync.sync_pending = 1;
    r->iter.index = best.index;
    r->iter.t64 = best.t64;
    r->iter.prev32 = best.prev32;
    r->iter.ticks = best.ticks;
    r->iter.started = best.index > 0;
    r->order.pending = 0;
    r->order.known = 0; /* the chunks jumped over are not counted (FORMAT.md section 2.4) */
}
