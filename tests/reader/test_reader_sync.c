/* SPDX-License-Identifier: Apache-2.0 */
/* SYNC chunks (format/FORMAT.md section 2.2): what evrec_save() writes in them is the reader's
 * own state at that point (index, restored time, latest time, ticks, last 32-bit time), for
 * one-shot and cyclic recordings, with 32-bit wraps and small steps back; a seek by record index
 * or by time that jumps to a SYNC point returns exactly what a linear read returns; damage in
 * the first chunk (after the meta-info) and in two chunks loses only the records of those chunks. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_reader_seek.h"
#include "evrec/evrec_recorder.h"
#include "reader_fixtures.h"

static uint32_t be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static uint64_t be64(const uint8_t *p)
{
    return ((uint64_t)be32(p) << 32) | be32(p + 4);
}

/* A hand-timed recording of n records across 32-bit wraps (about 61,000 records per wrap).
 * `alternating` 0: a small step back every 37th record (as two threads give) and a Tick every
 * 50th. 1: simple events and Ticks in random order (about half each, so that save's loop for
 * streams that switch event type takes them), and every 23rd record a step back by 20 steps:
 * the latest time then stays ahead of the restored time most of the time, and grows only where
 * a run of forward steps ends. */
static void hand_timed_recording(size_t n, int alternating, fx_buf_t *out)
{
    fx_native_t nat = {0};
    uint32_t t = 0xFFF00000u, x = 2463534242u;
    fx_native_control(&nat, t, EVREC_CONTROL_START);
    for (size_t i = 1; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        uint32_t stamp;
        int tick;
        if (alternating) {
            t = i % 23 == 0 ? t - 20u * 70001u : t + 70001u;
            stamp = t;
            tick = (x & 1u) != 0;
        } else {
            t += 70001u;
            stamp = i % 37 == 0 ? t - 900u : t;
            tick = i % 50 == 0;
        }
        if (tick) {
            fx_native_control(&nat, stamp, EVREC_CONTROL_TICK);
        } else {
            fx_native_simple(&nat, stamp, (uint32_t)i);
        }
    }
    fx_native_control(&nat, t + 5u, EVREC_CONTROL_STOP);
    fx_native_save(&nat, 1000000000u, 0, out);
    fx_native_free(&nat);
}

/* Every SYNC chunk is followed by a STREAM chunk that starts with a record, and says what a
 * linear read knows just before that record. Returns how many SYNC chunks there were. */
static size_t check_sync_chunks(const fx_buf_t *f)
{
    fx_read_t rd;
    fx_read_all(f->p, f->len, NULL, &rd);
    cr_assert_eq(rd.end, EVREC_E_END, "%s", rd.err.message);
    size_t max = f->len / 8 + 1;
    fx_chunk_t *ch = malloc(max * sizeof *ch);
    size_t n = fx_chunks(f->p, f->len, ch, max);
    size_t syncs = 0, r = 0;
    for (size_t i = 0; i < n; i++) {
        if (ch[i].type != EVREC_CHUNK_SYNC) {
            continue;
        }
        syncs++;
        cr_assert_eq(ch[i].len, EVREC_SYNC_SIZE);
        cr_assert_lt(i + 2, n);
        /* version 1.3: the STREAM chunk's SEQ chunk between them (FORMAT.md section 2.4) */
        cr_assert_eq(ch[i + 1].type, EVREC_CHUNK_SEQ, "a SEQ chunk follows a SYNC chunk");
        cr_assert_eq(ch[i + 2].type, EVREC_CHUNK_STREAM, "a SYNC chunk must precede a STREAM chunk");
        const uint8_t *p = f->p + ch[i].off + 8;
        uint64_t index = be64(p), t64 = be64(p + 8), t64_max = be64(p + 16), ticks = be64(p + 24);
        uint32_t prev32 = be32(p + 32);
        uint64_t first = ch[i + 2].off + 8;
        while (r < rd.count && rd.recs[r].r.offset < first) {
            r++;
        }
        cr_assert_lt(r, rd.count + 1);
        /* The STREAM chunk starts with record `index` (or with the End record). */
        cr_assert_eq(r, index, "SYNC at %llu: index %llu, the next chunk starts with record %zu",
                     (unsigned long long)ch[i].off, (unsigned long long)index, r);
        if (r < rd.count) {
            cr_assert_eq(rd.recs[r].r.offset, first, "the STREAM chunk after a SYNC chunk starts with a record");
        }
        cr_assert_gt(index, 0u);
        cr_assert_eq(t64, rd.recs[r - 1].r.t64);
        cr_assert_eq(prev32, rd.recs[r - 1].r.time32);
        uint64_t mx = 0, tk = 0;
        for (size_t k = 0; k < r; k++) {
            mx = rd.recs[k].r.t64 > mx ? rd.recs[k].r.t64 : mx;
            tk += rd.recs[k].r.id == EVREC_CONTROL_EVENT_ID && rd.recs[k].data[6] == EVREC_CONTROL_TICK;
        }
        cr_assert_eq(t64_max, mx);
        cr_assert_eq(ticks, tk);
    }
    free(ch);
    fx_read_free(&rd);
    return syncs;
}

Test(sync, one_shot_sync_chunks_are_the_readers_state)
{
    fx_buf_t f = {0};
    fx_record(9000, 0, &f);
    cr_assert_geq(check_sync_chunks(&f), 4u);
    fx_buf_free(&f);
    hand_timed_recording(200000, 0, &f); /* about 2 MB: many chunks, 3 wraps */
    cr_assert_geq(check_sync_chunks(&f), 100u);
    fx_buf_free(&f);
    hand_timed_recording(300000, 1, &f);
    cr_assert_geq(check_sync_chunks(&f), 50u);
    fx_buf_free(&f);
}

Test(sync, cyclic_sync_chunks_are_the_readers_state)
{
    static uint8_t mem[256 * 1024] __attribute__((aligned(64)));
    evrec_recorder_t rec;
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, sizeof mem, 1024), EVREC_OK);
    const evrec_meta_t *m = fx_meta_init();
    static evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, m, 1000000000u), EVREC_OK);
    for (uint32_t i = 0; i < 40000; i++) { /* many laps of the ring */
        fx_ev_simple_t *s = evrec_reserve(&host, sizeof(fx_ev_simple_t));
        cr_assert_not_null(s);
        s->v = i;
        evrec_commit(s, FX_EVENT_SIMPLE);
        if (i % 100 == 0) {
            cr_assert_eq(evrec_tick(&host), EVREC_OK);
        }
    }
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    fx_buf_t f = {0};
    evrec_sink_t sink = fx_sink(&f);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    cr_assert_geq(check_sync_chunks(&f), 2u);
    fx_buf_free(&f);
}

/* next_at on a reader over memory (SYNC jumps) equals a linear read. */
static void check_seek(const fx_buf_t *f, const fx_read_t *all, uint64_t min_index, uint64_t min_t64)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, f->p, f->len, NULL), EVREC_OK);
    evrec_record_t rec;
    evrec_status st = evrec_reader_next_at(r, &rec, min_index, min_t64);
    size_t want = 0;
    while (want < all->count && !(all->recs[want].r.index >= min_index && all->recs[want].r.t64 >= min_t64)) {
        want++;
    }
    if (want == all->count) {
        cr_assert_eq(st, EVREC_E_END, "index %llu t64 %llu", (unsigned long long)min_index,
                     (unsigned long long)min_t64);
    } else {
        cr_assert_eq(st, EVREC_OK);
        cr_assert_eq(rec.index, all->recs[want].r.index, "seek to #%llu / t64 %llu", (unsigned long long)min_index,
                     (unsigned long long)min_t64);
        cr_assert_eq(rec.offset, all->recs[want].r.offset);
        cr_assert_eq(rec.t64, all->recs[want].r.t64);
        /* And the records after it follow as in a linear read. */
        for (size_t k = want + 1; k < want + 50 && k < all->count; k++) {
            cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK);
            cr_assert_eq(rec.index, all->recs[k].r.index);
            cr_assert_eq(rec.t64, all->recs[k].r.t64);
        }
    }
    evrec_reader_close(r);
}

Test(sync, seek_by_index_and_time_equals_a_linear_read)
{
    fx_buf_t f = {0};
    hand_timed_recording(200000, 0, &f);
    fx_read_t all;
    fx_read_all(f.p, f.len, NULL, &all);
    cr_assert_eq(all.end, EVREC_E_END);
    uint64_t last = all.recs[all.count - 1].r.t64;
    for (uint64_t k = 0; k < all.count + 3; k += all.count / 37 + 1) {
        check_seek(&f, &all, k, 0);
    }
    check_seek(&f, &all, all.count - 1, 0);
    for (uint64_t t = 0; t <= last + 1; t += last / 41 + 1) {
        check_seek(&f, &all, 0, t);
        check_seek(&f, &all, all.count / 2, t); /* both conditions */
    }
    /* Just below a step back: the record after the step is earlier than its predecessor. */
    for (size_t k = 1; k < all.count; k++) {
        if (all.recs[k].r.t64 < all.recs[k - 1].r.t64) {
            check_seek(&f, &all, 0, all.recs[k].r.t64);
            check_seek(&f, &all, 0, all.recs[k - 1].r.t64);
            if (k > 150000) {
                break;
            }
        }
    }
    fx_read_free(&all);
    fx_buf_free(&f);
}

/* Reads `bad`; every record returned must be the original's at its index. Returns the count. */
static size_t read_against(const fx_buf_t *orig, const uint8_t *bad, size_t len, evrec_status *end)
{
    fx_read_t a, b;
    fx_read_all(orig->p, orig->len, NULL, &a);
    fx_read_all(bad, len, NULL, &b);
    for (size_t i = 0; i < b.count; i++) {
        uint64_t k = b.recs[i].r.index;
        cr_assert_lt(k, a.count);
        cr_assert_eq(b.recs[i].r.offset, a.recs[k].r.offset);
        cr_assert_eq(b.recs[i].r.t64, a.recs[k].r.t64);
    }
    size_t n = b.count;
    *end = b.end;
    fx_read_free(&a);
    fx_read_free(&b);
    return n;
}

/* Records whose bytes lie in the chunk at `off`. */
static size_t records_in_chunk(const fx_buf_t *f, const fx_chunk_t *c)
{
    fx_read_t a;
    fx_read_all(f->p, f->len, NULL, &a);
    size_t n = 0;
    for (size_t i = 0; i < a.count; i++) {
        n += a.recs[i].r.offset >= c->off && a.recs[i].r.offset < c->off + 8 + c->len;
    }
    fx_read_free(&a);
    return n;
}

Test(sync, damage_in_the_first_chunk_and_in_two_chunks_loses_only_their_records)
{
    fx_buf_t f = {0};
    fx_record(9000, 0, &f);
    fx_read_t a;
    fx_read_all(f.p, f.len, NULL, &a);
    size_t total = a.count;
    uint64_t first_rec = a.recs[0].r.offset;
    fx_read_free(&a);
    fx_chunk_t ch[64];
    size_t n = fx_chunks(f.p, f.len, ch, 64);
    size_t streams[16], ns = 0;
    for (size_t i = 0; i < n && ns < 16; i++) {
        if (ch[i].type == EVREC_CHUNK_STREAM) {
            streams[ns++] = i;
        }
    }
    cr_assert_geq(ns, 4u);
    uint8_t *bad = malloc(f.len);
    evrec_status end;

    /* The first STREAM chunk holds the meta-info and the first records: a flip in its records
     * loses them only (the meta-info is checked against the header's schema hash). */
    const fx_chunk_t *c0 = &ch[streams[0]];
    cr_assert_lt(first_rec + 100, c0->off + 8 + c0->len);
    memcpy(bad, f.p, f.len);
    bad[first_rec + 100] ^= 0x04;
    size_t got = read_against(&f, bad, f.len, &end);
    cr_assert_eq(end, EVREC_E_CHECKSUM);
    cr_assert_eq(got, total - records_in_chunk(&f, c0));

    /* A flip in the meta-info itself: its hash would differ, but the copy at the end of the file
     * (FORMAT.md section 2.4) is read instead: only the chunk's records are lost. */
    memcpy(bad, f.p, f.len);
    bad[c0->off + 8 + 30] ^= 0x01;
    got = read_against(&f, bad, f.len, &end);
    cr_assert_eq(got, total - records_in_chunk(&f, c0));

    /* Two damaged chunks. */
    const fx_chunk_t *c1 = &ch[streams[1]], *c2 = &ch[streams[2]];
    memcpy(bad, f.p, f.len);
    bad[c1->off + 8 + 500] ^= 0x80;
    bad[c2->off + 8 + 700] ^= 0x80;
    got = read_against(&f, bad, f.len, &end);
    cr_assert_eq(end, EVREC_E_CHECKSUM);
    cr_assert_eq(got, total - records_in_chunk(&f, c1) - records_in_chunk(&f, c2));
    free(bad);
    fx_buf_free(&f);
}

/* A flipped byte in the payload of each chunk, one chunk at a time: a STREAM chunk loses its own
 * records (the first one: those after the meta-info), any other chunk none. */
Test(sync, a_flip_in_each_chunk_loses_at_most_that_chunks_records)
{
    fx_buf_t f = {0};
    fx_record(9000, 0, &f);
    fx_read_t a;
    fx_read_all(f.p, f.len, NULL, &a);
    size_t total = a.count;
    fx_read_free(&a);
    fx_chunk_t ch[64];
    size_t n = fx_chunks(f.p, f.len, ch, 64);
    uint8_t *bad = malloc(f.len);
    int kinds[8] = {0};
    for (size_t i = 0; i < n; i++) {
        if (ch[i].len == 0) {
            continue; /* END: see the header sweeps */
        }
        memcpy(bad, f.p, f.len);
        bad[ch[i].off + 8 + ch[i].len - 1] ^= 0x55; /* its last byte: records, never the meta-info */
        evrec_status end;
        size_t got = read_against(&f, bad, f.len, &end);
        size_t lost = ch[i].type == EVREC_CHUNK_STREAM ? records_in_chunk(&f, &ch[i]) : 0;
        cr_assert_eq(got, total - lost, "chunk %zu (type %u at %llu): %zu of %zu records", i, ch[i].type,
                     (unsigned long long)ch[i].off, got, total);
        cr_assert_neq(end, EVREC_E_END, "damage in chunk %zu not reported", i);
        kinds[ch[i].type & 7]++;
    }
    cr_assert_gt(kinds[EVREC_CHUNK_STREAM], 2);
    cr_assert_gt(kinds[EVREC_CHUNK_SYNC], 2);
    cr_assert_gt(kinds[EVREC_CHUNK_RUNTIME_ENUMS], 0);
    free(bad);
    fx_buf_free(&f);
}

/* A damaged STREAM chunk and the SYNC chunk after it: the SYNC point read before the damaged
 * chunk describes that chunk, not the next one, so reading resumes only at the next intact SYNC
 * point: the chunk after the damaged SYNC is lost too, and every record keeps its index. */
Test(sync, damage_in_a_chunk_and_the_sync_after_it_resumes_at_the_next_sync_point)
{
    fx_buf_t f = {0};
    fx_record(9000, 0, &f);
    fx_read_t a;
    fx_read_all(f.p, f.len, NULL, &a);
    size_t total = a.count;
    fx_read_free(&a);
    fx_chunk_t ch[64];
    size_t n = fx_chunks(f.p, f.len, ch, 64);
    size_t streams[16], ns = 0;
    for (size_t i = 0; i < n && ns < 16; i++) {
        if (ch[i].type == EVREC_CHUNK_STREAM) {
            streams[ns++] = i;
        }
    }
    cr_assert_geq(ns, 4u);
    size_t k = streams[1];
    cr_assert_eq(ch[k + 1].type, EVREC_CHUNK_SYNC);
    cr_assert_eq(ch[k + 2].type, EVREC_CHUNK_SEQ);
    cr_assert_eq(ch[k + 3].type, EVREC_CHUNK_STREAM);
    uint8_t *bad = malloc(f.len);
    memcpy(bad, f.p, f.len);
    bad[ch[k].off + 8 + 500] ^= 0x80;
    bad[ch[k + 1].off + 8 + 10] ^= 0x80;
    evrec_status end;
    size_t got = read_against(&f, bad, f.len, &end); /* every index exact */
    cr_assert_eq(end, EVREC_E_CHECKSUM);
    cr_assert_eq(got, total - records_in_chunk(&f, &ch[k]) - records_in_chunk(&f, &ch[k + 3]),
                 "the records of the damaged chunk and of the one whose SYNC point was damaged are lost");
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, bad, f.len, NULL), EVREC_OK);
    evrec_record_t rec;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
    }
    const evrec_damage_t *d = evrec_reader_damage(r, 0);
    cr_assert_not_null(d);
    cr_assert_eq(d->records_lost, records_in_chunk(&f, &ch[k]) + records_in_chunk(&f, &ch[k + 3]));
    evrec_reader_close(r);
    free(bad);
    fx_buf_free(&f);
}
