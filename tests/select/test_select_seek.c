/* SPDX-License-Identifier: Apache-2.0 */
/* evrec_reader_next_at() (evrec/evrec_reader_seek.h), the fast-forward behind `--from`: for every
 * target index and time it returns the same record as reading with evrec_reader_next() and
 * filtering, the records after it are the same, and damage is reported as by evrec_reader_next().
 * Files: a real recording cut into tiny chunks (records straddle chunks), a hand-timed one with
 * 32-bit wraps and small steps back, one whose clock comes from its ticks, and damaged copies. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_reader_seek.h"
#include "reader_fixtures.h"

/* Check next_at(min_index, min_t64) against the full list `all` (read with next()). */
static void check_target(const fx_buf_t *f, const evrec_reader_options_t *opt, const fx_read_t *all,
                         uint64_t min_index, uint64_t min_t64)
{
    size_t want = 0;
    while (want < all->count && !(all->recs[want].r.index >= min_index && all->recs[want].r.t64 >= min_t64)) {
        want++;
    }
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, f->p, f->len, opt), EVREC_OK);
    evrec_record_t rec;
    evrec_status st = evrec_reader_next_at(r, &rec, min_index, min_t64);
    for (size_t i = want; i < all->count; i++) {
        cr_assert_eq(st, EVREC_OK, "target #%llu t64 %llu: record %zu: status %d", (unsigned long long)min_index,
                     (unsigned long long)min_t64, i, (int)st);
        const evrec_record_t *w = &all->recs[i].r;
        cr_assert_eq(rec.index, w->index, "target #%llu t64 %llu", (unsigned long long)min_index,
                     (unsigned long long)min_t64);
        cr_assert_eq(rec.offset, w->offset);
        cr_assert_eq(rec.id, w->id);
        cr_assert_eq(rec.t64, w->t64);
        cr_assert_eq(rec.ns, w->ns);
        cr_assert_eq(rec.size, w->size);
        cr_assert_eq(rec.unverified, w->unverified);
        cr_assert_arr_eq(rec.data, all->recs[i].data, rec.size);
        if (i - want > 40 && i + 1 < all->count) { /* the tail was compared far enough */
            evrec_reader_close(r);
            return;
        }
        st = evrec_reader_next(r, &rec);
    }
    cr_assert_eq(st, all->end, "target #%llu t64 %llu: end %d, expected %d", (unsigned long long)min_index,
                 (unsigned long long)min_t64, (int)st, (int)all->end);
    if (st != EVREC_E_END) {
        cr_assert_eq(evrec_reader_error(r)->offset, all->err.offset);
        cr_assert_str_eq(evrec_reader_error(r)->message, all->err.message);
    }
    evrec_reader_close(r);
}

/* Targets at, just before and just after every k-th record, by index and by time. */
static void check_file(const fx_buf_t *f, const evrec_reader_options_t *opt, size_t step)
{
    fx_read_t all;
    fx_read_all(f->p, f->len, opt, &all);
    cr_assert_gt(all.count, 10u);
    for (size_t i = 0; i < all.count; i += step) {
        uint64_t t = all.recs[i].r.t64;
        check_target(f, opt, &all, i, 0);
        check_target(f, opt, &all, 0, t);
        check_target(f, opt, &all, 0, t + 1);
        check_target(f, opt, &all, 0, t ? t - 1 : 0);
        check_target(f, opt, &all, i, t + 1);
    }
    check_target(f, opt, &all, all.count - 1, 0);
    check_target(f, opt, &all, all.count, 0);  /* past the last record */
    check_target(f, opt, &all, 0, UINT64_MAX); /* after the last time */
    fx_read_free(&all);
}

Test(select_seek, straddling_chunks)
{
    fx_buf_t f = {0}, small = {0};
    fx_record(1500, 0, &f);
    check_file(&f, NULL, 97);
    fx_rechunk(f.p, f.len, 37, 1, &small); /* records straddle chunks; unknown chunks skipped */
    check_file(&small, NULL, 89);
    fx_buf_free(&small);
    fx_buf_free(&f);
}

Test(select_seek, wraps_and_steps_back)
{
    fx_native_t n = {0};
    uint32_t t = 0xFFFFF000u, x = 12345;
    fx_native_control(&n, t, EVREC_CONTROL_START);
    for (uint32_t k = 1; k < 1200; k++) {
        x = x * 1103515245u + 12345u;
        if (k % 13 == 0) {
            t -= 1000u; /* a small step back (another thread's record) */
        } else {
            t += (x >> 3) & 0x3FFFFFFFu; /* up to a quarter wrap */
        }
        if (k % 5 == 0) {
            fx_native_control(&n, t, EVREC_CONTROL_TICK);
        } else {
            fx_native_simple(&n, t, k);
        }
    }
    fx_native_control(&n, t + 10u, EVREC_CONTROL_STOP);
    fx_buf_t f = {0}, small = {0};
    fx_native_save(&n, 48000000u, 0, &f);
    fx_native_free(&n);
    check_file(&f, NULL, 31);
    fx_rechunk(f.p, f.len, 29, 0, &small);
    check_file(&small, NULL, 53);
    fx_buf_free(&f);
    fx_buf_free(&small);
}

Test(select_seek, clock_from_ticks)
{
    fx_native_t n = {0};
    fx_native_control(&n, 100, EVREC_CONTROL_START);
    for (uint32_t k = 1; k < 300; k++) {
        if (k % 10 == 0) {
            fx_native_control(&n, 100 + k * 1000u, EVREC_CONTROL_TICK);
        } else {
            fx_native_simple(&n, 100 + k * 1000u + 7u, k);
        }
    }
    fx_native_control(&n, 400000, EVREC_CONTROL_STOP);
    fx_buf_t f = {0};
    fx_native_save(&n, 0, 0, &f);
    fx_native_free(&n);
    evrec_reader_options_t opt = {0, 100};
    check_file(&f, &opt, 17);
    check_file(&f, NULL, 23);
    fx_buf_free(&f);
}

Test(select_seek, damage_reported_the_same)
{
    fx_buf_t f = {0}, small = {0};
    fx_record(800, 0, &f);
    fx_rechunk(f.p, f.len, 200, 0, &small);
    fx_chunk_t chunks[256];
    size_t nc = fx_chunks(small.p, small.len, chunks, 256);
    cr_assert_gt(nc, 10u);
    /* a bad CRC in a middle chunk */
    fx_buf_t bad = {0};
    fx_buf_write(&bad, small.p, small.len);
    bad.p[chunks[nc / 2].off + 8 + 3] ^= 0x40u;
    check_file(&bad, NULL, 61);
    /* a file cut inside a chunk: the records of the truncated chunk are unverified */
    fx_buf_t cut = {0};
    fx_buf_write(&cut, small.p, (size_t)chunks[nc / 2].off + 8 + 150);
    check_file(&cut, NULL, 59);
    /* an unknown event id in the middle (the copy is re-chunked: good CRCs, a bad record) */
    fx_read_t all;
    fx_read_all(f.p, f.len, NULL, &all);
    fx_buf_t patched = {0}, badid = {0};
    fx_buf_write(&patched, f.p, f.len);
    patched.p[all.recs[all.count / 2].r.offset + 4] = 0x7F;
    fx_read_free(&all);
    fx_rechunk(patched.p, patched.len, 300, 0, &badid);
    fx_read_all(badid.p, badid.len, NULL, &all);
    cr_assert_eq(all.end, EVREC_E_BAD_ID);
    fx_read_free(&all);
    check_file(&badid, NULL, 67);
    fx_buf_free(&badid);
    fx_buf_free(&patched);
    fx_buf_free(&cut);
    fx_buf_free(&bad);
    fx_buf_free(&small);
    fx_buf_free(&f);
}
