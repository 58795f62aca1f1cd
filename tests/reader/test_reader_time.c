/* SPDX-License-Identifier: Apache-2.0 */
/* Time restoration (FORMAT.md section 5): 64-bit time across several 2^32 wraps, ns with and
 * without time_freq (tick-derived frequency, user tick rate, overrides), the small-step-back rule,
 * and the frequency pre-pass over memory, path, seekable FILE* and a pipe. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "reader_fixtures.h"

#define STEP 0x60000000u /* 1.5 x 2^30: under 3/4 of a wrap */

/* Start at 0xF0000000, then 20 EvSimple, each STEP later: t64 = k * STEP, about 7.5 wraps. */
static void make_wraps(fx_buf_t *out, uint64_t time_freq, int bare)
{
    fx_native_t n = {0};
    uint32_t t = 0xF0000000u;
    fx_native_control(&n, t, EVREC_CONTROL_START);
    for (uint32_t k = 1; k <= 20; k++) {
        t += STEP;
        fx_native_simple(&n, t, k);
    }
    fx_native_control(&n, t + 5u, EVREC_CONTROL_STOP);
    fx_native_save(&n, time_freq, bare, out);
    fx_native_free(&n);
}

static void check_wraps(const fx_buf_t *f, uint64_t freq)
{
    fx_read_t rd;
    fx_read_all(f->p, f->len, NULL, &rd);
    cr_assert_eq(rd.end, EVREC_E_END, "%s", rd.err.message);
    cr_assert_eq(rd.count, 22u);
    for (uint32_t k = 0; k <= 20; k++) {
        uint64_t want = (uint64_t)k * STEP;
        cr_assert_eq(rd.recs[k].r.t64, want, "record %u: %llu", k, (unsigned long long)rd.recs[k].r.t64);
        cr_assert_eq(rd.recs[k].r.time32, (uint32_t)(0xF0000000u + want));
        if (freq == 1000000000u) {
            cr_assert_eq(rd.recs[k].r.ns, want);
        }
    }
    cr_assert_eq(rd.recs[21].r.t64, 20ull * STEP + 5u);
    fx_read_free(&rd);
}

Test(time, several_wraps_container)
{
    fx_buf_t f = {0};
    make_wraps(&f, 1000000000u, 0);
    check_wraps(&f, 1000000000u);
    fx_buf_free(&f);
}

Test(time, several_wraps_bare)
{
    fx_buf_t f = {0};
    make_wraps(&f, 1000000000u, 1);
    check_wraps(&f, 1000000000u);
    fx_buf_free(&f);
}

/* t64 * 1e9 overflows 64 bits here (3.2e19): the reader must use a wider intermediate. */
Test(time, ns_without_overflow)
{
    fx_buf_t f = {0};
    make_wraps(&f, 7u, 0);
    fx_read_t rd;
    fx_read_all(f.p, f.len, NULL, &rd);
    cr_assert_eq(rd.count, 22u);
    cr_assert_eq(rd.recs[20].r.t64, 32212254720ull);
    cr_assert_eq(rd.recs[20].r.ns, 4601750674285714285ull);
    cr_assert_eq(evrec_ticks_to_ns(32212254720ull, 7u), 4601750674285714285ull);
    cr_assert_eq(evrec_ticks_to_ns(UINT64_MAX, 1u), UINT64_MAX); /* saturates */
    cr_assert_eq(evrec_ticks_to_ns(123, 0), 0u);
    cr_assert_eq(evrec_ticks_to_ns(3, 3000000000u), 1u);
    /* both sides of the 64-bit fast path (ticks * 10^9 < 2^64), and a 1 GHz clock */
    cr_assert_eq(evrec_ticks_to_ns(18446744073ull, 7u), 2635249153285714285ull);
    cr_assert_eq(evrec_ticks_to_ns(18446744074ull, 7u), 2635249153428571428ull);
    cr_assert_eq(evrec_ticks_to_ns(18446744074ull, 168000000u), 109802048059ull);
    cr_assert_eq(evrec_ticks_to_ns(UINT64_MAX, 1000000000u), UINT64_MAX);
    fx_read_free(&rd);
    fx_buf_free(&f);
}

#define TICK 0x40000000u /* a tick every 2^30 timestamp ticks: a wrap every 4 ticks */

/* time_freq as given; Start at 0x10, ten ticks TICK apart, an EvSimple half-way between each. */
static void make_ticks(fx_buf_t *out, uint64_t time_freq, int bare)
{
    fx_native_t n = {0};
    uint32_t t0 = 0x10u;
    fx_native_control(&n, t0, EVREC_CONTROL_START);
    for (uint32_t k = 1; k <= 10; k++) {
        fx_native_simple(&n, t0 + (k - 1) * TICK + TICK / 2, k);
        fx_native_control(&n, t0 + k * TICK, EVREC_CONTROL_TICK);
    }
    fx_native_control(&n, t0 + 10 * TICK + 100, EVREC_CONTROL_STOP);
    fx_native_save(&n, time_freq, bare, out);
    fx_native_free(&n);
}

/* With tick rate hz: frequency = hz x TICK; tick k is at k / hz seconds. */
static void check_ticks(const fx_read_t *rd, uint32_t hz)
{
    cr_assert_eq(rd->end, EVREC_E_END, "%s", rd->err.message);
    cr_assert_eq(rd->count, 22u);
    uint64_t ns_per_tick = 1000000000u / hz;
    for (uint32_t k = 1; k <= 10; k++) {
        const evrec_record_t *ev = &rd->recs[2 * k - 1].r, *tick = &rd->recs[2 * k].r;
        cr_assert_eq(tick->t64, (uint64_t)k * TICK);
        cr_assert_eq(tick->ns, k * ns_per_tick, "tick %u: %llu ns", k, (unsigned long long)tick->ns);
        cr_assert_eq(ev->ns, (k - 1) * ns_per_tick + ns_per_tick / 2);
    }
}

Test(time, freq_zero_derived_from_ticks_at_10hz)
{
    for (int bare = 0; bare < 2; bare++) {
        fx_buf_t f = {0};
        make_ticks(&f, 0, bare);
        fx_read_t rd;
        fx_read_all(f.p, f.len, NULL, &rd);
        check_ticks(&rd, 10);
        evrec_reader_t *r;
        cr_assert_eq(evrec_reader_open_memory(&r, f.p, f.len, NULL), EVREC_OK);
        evrec_time_source src;
        cr_assert_eq(evrec_reader_time_freq(r, &src), 10ull * TICK);
        cr_assert_eq(src, EVREC_TIME_TICKS);
        evrec_reader_close(r);
        fx_read_free(&rd);
        fx_buf_free(&f);
    }
}

Test(time, user_tick_rate_overrides_file_freq)
{
    fx_buf_t f = {0};
    make_ticks(&f, 12345u, 0); /* a wrong time_freq in the file */
    evrec_reader_options_t o = {0, 100};
    fx_read_t rd;
    fx_read_all(f.p, f.len, &o, &rd);
    check_ticks(&rd, 100);
    fx_read_free(&rd);
    /* Without the option, the file's frequency is used as it is. */
    fx_read_all(f.p, f.len, NULL, &rd);
    cr_assert_eq(rd.recs[2].r.ns, evrec_ticks_to_ns(TICK, 12345u));
    fx_read_free(&rd);
    /* An explicit frequency beats both. */
    evrec_reader_options_t o2 = {1000000000u, 100};
    fx_read_all(f.p, f.len, &o2, &rd);
    cr_assert_eq(rd.recs[2].r.ns, (uint64_t)TICK);
    fx_read_free(&rd);
    fx_buf_free(&f);
}

Test(time, summary_derives_frequency_in_one_pass)
{
    fx_buf_t f = {0};
    make_ticks(&f, 0, 0);
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, f.p, f.len, NULL), EVREC_OK);
    evrec_reader_summary_t s;
    cr_assert_eq(evrec_reader_summarize(r, &s), EVREC_OK);
    cr_assert_eq(s.ticks, 10u);
    cr_assert_eq(s.time_freq, 10ull * TICK);
    cr_assert_eq(s.time_source, EVREC_TIME_TICKS);
    cr_assert_eq(s.last_t64, 10ull * TICK + 100u);
    cr_assert_eq(s.last_ns, evrec_ticks_to_ns(10ull * TICK + 100u, 10ull * TICK));
    cr_assert_eq(s.records, 22u);
    cr_assert_eq(s.event_counts[FX_EVENT_CONTROL], 12u);
    cr_assert_eq(s.event_counts[FX_EVENT_SIMPLE], 10u);
    cr_assert_eq(s.damage.status, EVREC_OK);
    evrec_reader_close(r);
    fx_buf_free(&f);
}

Test(time, prepass_from_path_and_seekable_file)
{
    fx_buf_t f = {0};
    make_ticks(&f, 0, 0);
    char *path = fx_temp_file(f.p, f.len, ".evr");
    cr_assert_not_null(path);
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK);
    evrec_record_t rec;
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(evrec_reader_next(r, &rec), EVREC_OK);
    }
    cr_assert_eq(rec.ns, 100000000u); /* first tick at 0.1 s */
    evrec_reader_close(r);

    FILE *fp = fopen(path, "rb");
    cr_assert_eq(evrec_reader_open_file(&r, fp, NULL), EVREC_OK);
    size_t n = 0;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        n++;
        if (n == 3) {
            cr_assert_eq(rec.ns, 100000000u);
        }
    }
    cr_assert_eq(n, 22u, "the pre-pass must leave the stream where it was");
    cr_assert_eq(evrec_reader_error(r)->status, EVREC_OK, "%s", evrec_reader_error(r)->message);
    evrec_reader_close(r);
    fclose(fp);
    unlink(path);
    free(path);
    fx_buf_free(&f);
}

/* A pipe cannot be read twice: with time_freq 0 the frequency stays unknown, ns are 0, t64 ok. */
Test(time, pipe_without_freq_gives_ticks_only)
{
    fx_buf_t f = {0};
    make_ticks(&f, 0, 0);
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    cr_assert_lt(f.len, 4096u);
    cr_assert_eq(write(fds[1], f.p, f.len), (ssize_t)f.len);
    close(fds[1]);
    FILE *fp = fdopen(fds[0], "rb");
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_file(&r, fp, NULL), EVREC_OK, "%s", evrec_reader_error(r)->message);
    evrec_record_t rec;
    size_t n = 0;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        cr_assert_eq(rec.ns, 0u);
        n++;
    }
    cr_assert_eq(n, 22u);
    cr_assert_eq(rec.t64, 10ull * TICK + 100u);
    cr_assert_eq(evrec_reader_error(r)->status, EVREC_OK, "%s", evrec_reader_error(r)->message);
    evrec_time_source src;
    cr_assert_eq(evrec_reader_time_freq(r, &src), 0u);
    cr_assert_eq(src, EVREC_TIME_UNKNOWN);
    evrec_reader_close(r);
    fclose(fp);
    fx_buf_free(&f);
}

static fx_read_t read_times(const uint32_t *t, size_t n)
{
    fx_native_t nat = {0};
    fx_native_control(&nat, t[0], EVREC_CONTROL_START);
    for (size_t i = 1; i + 1 < n; i++) {
        fx_native_simple(&nat, t[i], (uint32_t)i);
    }
    fx_native_control(&nat, t[n - 1], EVREC_CONTROL_STOP);
    fx_buf_t f = {0};
    fx_native_save(&nat, 1000u, 0, &f);
    fx_native_free(&nat);
    fx_read_t rd;
    fx_read_all(f.p, f.len, NULL, &rd);
    fx_buf_free(&f);
    cr_assert_eq(rd.end, EVREC_E_END, "%s", rd.err.message);
    cr_assert_eq(rd.count, n);
    return rd;
}

Test(time, small_step_back)
{
    /* Two contexts: a stamp taken before a slot allocated after a later one; also across a wrap. */
    const uint32_t t[] = {1000, 2000, 1990, 3000, 0x90000000u, 0x20u, 0x10u, 0x30u};
    fx_read_t rd = read_times(t, 8);
    uint64_t t4 = 2000 + (0x90000000u - 3000u);
    uint64_t t5 = t4 + 0x70000020u; /* forward across the wrap */
    uint64_t expect[8] = {0, 1000, 990, 2000, t4, t5, t5 - 0x10u, t5 + 0x10u};
    for (int i = 0; i < 8; i++) {
        cr_assert_eq(rd.recs[i].r.t64, expect[i], "record %d: %llu", i, (unsigned long long)rd.recs[i].r.t64);
    }
    fx_read_free(&rd);
}

Test(time, step_back_threshold_is_three_quarters_of_a_wrap)
{
    /* d = 2^32 - 2^30 exactly is a step back of 2^30; one less is a step forward. */
    const uint32_t t[] = {0x50000000u, 0x50000000u + 0xC0000000u, 0x50000000u + 0xC0000000u + 0xBFFFFFFFu};
    fx_read_t rd = read_times(t, 3);
    cr_assert_eq(rd.recs[0].r.t64, 0u);
    /* 0x50000000 - 2^30 = t64 -0x40000000: clamped at 0 (never before the first record). */
    cr_assert_eq(rd.recs[1].r.t64, 0u);
    cr_assert_eq(rd.recs[2].r.t64, 0xBFFFFFFFull);
    fx_read_free(&rd);
    const uint32_t u[] = {0, 0x80000000u, 0x80000000u + 0xC0000000u, 0x80000000u + 0xC0000000u + 0xBFFFFFFFu};
    rd = read_times(u, 4);
    cr_assert_eq(rd.recs[1].r.t64, 0x80000000ull);
    cr_assert_eq(rd.recs[2].r.t64, 0x40000000ull); /* back by 2^30 */
    cr_assert_eq(rd.recs[3].r.t64, 0x40000000ull + 0xBFFFFFFFull);
    fx_read_free(&rd);
}
