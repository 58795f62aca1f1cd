/* SPDX-License-Identifier: Apache-2.0 */
/* The reader's per-record ticks-to-ns conversion (a precomputed multiply-shift, rd_ns_conv() in
 * format/src/reader_internal.h) against the division it replaces, evrec_ticks_to_ns(), and
 * against a plain 128-bit division: edge cases of the frequency (1, powers of two and their
 * neighbours, 1 GHz and its neighbours, UINT64_MAX), of the ticks (0, multiples of the frequency
 * and their neighbours, the 64-bit fast path's edge, the saturation edge, UINT64_MAX), the
 * ticks whose ticks x 1e9 mod freq is freq - 1 (the largest fractional part, where a multiplier
 * a little too large would first round up), and random pairs. Then through the reader: every
 * record's ns equals evrec_ticks_to_ns(t64, freq) under several time_freq options. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "reader_fixtures.h"
#include "reader_internal.h"

#define NS 1000000000u

#ifndef __SIZEOF_INT128__
/* Without a 128-bit type rd_ns_conv() is evrec_ticks_to_ns() itself, and this file's reference
 * division needs one. */
Test(ns_conv, needs_int128)
{
    cr_skip("no unsigned __int128 on this compiler: rd_ns_conv() is evrec_ticks_to_ns()");
}
#else

/* floor(ticks x 1e9 / freq) saturated at UINT64_MAX, 0 when freq is 0 (the documented rule). */
static uint64_t want_ns(uint64_t ticks, uint64_t freq)
{
    if (freq == 0) {
        return 0;
    }
    unsigned __int128 q = (unsigned __int128)ticks * NS / freq;
    return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

static unsigned long long checked;

static void check_pair(const rd_ns_conv_t *cv, uint64_t ticks)
{
    uint64_t want = want_ns(ticks, cv->freq);
    uint64_t got = rd_ns_conv(cv, ticks);
    if (got != want || evrec_ticks_to_ns(ticks, cv->freq) != want) {
        cr_assert_fail("ticks %llu freq %llu: rd_ns_conv %llu, evrec_ticks_to_ns %llu, division %llu",
                       (unsigned long long)ticks, (unsigned long long)cv->freq, (unsigned long long)got,
                       (unsigned long long)evrec_ticks_to_ns(ticks, cv->freq), (unsigned long long)want);
    }
    checked++;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

/* A random value spread over the magnitudes: random bit length, then random bits. */
static uint64_t rnd_log(void)
{
    unsigned bits = (unsigned)(rnd() % 64) + 1;
    uint64_t v = rnd();
    return bits == 64 ? v : v & ((1ull << bits) - 1);
}

/* x with x * a = 1 mod m (gcd(a, m) = 1, m >= 2), by the extended Euclid algorithm. */
static uint64_t inverse_mod(uint64_t a, uint64_t m)
{
    __int128 t = 0, nt = 1;
    __int128 r = m, nr = a % m;
    while (nr != 0) {
        __int128 q = r / nr, tmp;
        tmp = t - q * nt;
        t = nt;
        nt = tmp;
        tmp = r - q * nr;
        r = nr;
        nr = tmp;
    }
    return (uint64_t)(t < 0 ? t + m : t);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Every edge-case ticks value for one frequency. */
static void check_freq(uint64_t freq)
{
    rd_ns_conv_t cv;
    rd_ns_conv_init(&cv, freq);
    cr_assert_eq(cv.freq, freq);
    static const uint64_t fixed[] = {0,
                                     1,
                                     2,
                                     3,
                                     999999999u,
                                     NS,
                                     NS + 1u,
                                     18446744073ull,
                                     18446744074ull,
                                     0xFFFFFFFFull,
                                     0x100000000ull,
                                     0x7FFFFFFFFFFFFFFFull,
                                     0x8000000000000000ull,
                                     UINT64_MAX - 1,
                                     UINT64_MAX};
    for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++) {
        check_pair(&cv, fixed[k]);
    }
    for (unsigned b = 0; b < 64; b++) {
        uint64_t p = 1ull << b;
        check_pair(&cv, p - 1);
        check_pair(&cv, p);
        check_pair(&cv, p + 1);
    }
    if (freq == 0) {
        return;
    }
    /* multiples of freq and their neighbours, small and near the top */
    for (uint64_t j = 1; j < 50; j++) {
        unsigned __int128 t = (unsigned __int128)freq * j;
        if (t < UINT64_MAX) {
            check_pair(&cv, (uint64_t)t - 1);
            check_pair(&cv, (uint64_t)t);
            check_pair(&cv, (uint64_t)t + 1);
        }
        uint64_t top = UINT64_MAX / freq * freq; /* the largest multiple of freq */
        if (top / freq >= j) {
            uint64_t t2 = top - (j - 1) * freq;
            check_pair(&cv, t2 - 1);
            check_pair(&cv, t2);
            if (t2 < UINT64_MAX) {
                check_pair(&cv, t2 + 1);
            }
        }
    }
    /* the saturation edge: the last ticks whose ns fits in 64 bits, and the next ones */
    unsigned __int128 last = (((unsigned __int128)UINT64_MAX + 1) * freq - 1) / NS;
    for (int d = -3; d <= 3; d++) {
        unsigned __int128 t = last + (unsigned __int128)(__int128)d;
        if (t <= UINT64_MAX) {
            check_pair(&cv, (uint64_t)t);
        }
    }
    /* ticks x 1e9 = -1 mod f' (f' = freq / gcd): the largest fractional part, over the range */
    uint64_t g = gcd(NS, freq), fr = freq / g;
    if (fr >= 2) {
        uint64_t t0 = (uint64_t)((unsigned __int128)(fr - 1) * inverse_mod((NS / g) % fr, fr) % fr);
        uint64_t steps = (UINT64_MAX - t0) / fr; /* t0 + steps x fr is the largest such ticks */
        for (uint64_t j = 0; j < 200; j++) {
            uint64_t s = j < 100 ? j : steps - (j - 100) * (steps / 100 + 1) % (steps + 1);
            if (s <= steps) {
                uint64_t t = t0 + s * fr;
                cr_assert_eq((unsigned __int128)t * (NS / g) % fr, fr - 1);
                check_pair(&cv, t);
            }
        }
        for (int j = 0; j < 200; j++) {
            check_pair(&cv, t0 + rnd() % (steps + 1) * fr);
        }
    }
    for (int j = 0; j < 200; j++) {
        check_pair(&cv, rnd());
        check_pair(&cv, rnd_log());
    }
}

Test(ns_conv, edge_frequencies)
{
    static const uint64_t fixed[] = {0,
                                     1,
                                     2,
                                     3,
                                     7,
                                     10,
                                     1000,
                                     32768,
                                     1000000u,
                                     8000000u,
                                     16000000u,
                                     48000000u,
                                     72000000u,
                                     168000000u,
                                     180000000u,
                                     480000000u,
                                     999999999u,
                                     NS,
                                     NS + 1u,
                                     1200000000u,
                                     2596283000u,
                                     2600000000u,
                                     3000000000u,
                                     4294967295u,
                                     4294967296u,
                                     4294967297u,
                                     10000000000ull,
                                     1000000000000000000ull,
                                     0x7FFFFFFFFFFFFFFFull,
                                     0x8000000000000000ull,
                                     0x8000000000000001ull,
                                     UINT64_MAX - 1,
                                     UINT64_MAX};
    for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++) {
        check_freq(fixed[k]);
    }
    for (unsigned b = 1; b < 64; b++) {
        uint64_t p = 1ull << b;
        check_freq(p - 1);
        check_freq(p);
        check_freq(p + 1);
    }
    for (uint64_t k = 2; k <= 18; k++) {
        check_freq(NS * k);
        check_freq(NS * k - 1);
        check_freq(NS * k + 1);
    }
    cr_assert_gt(checked, 100000u);
}

Test(ns_conv, random_frequencies)
{
    rng_state = 0xD1B54A32D192ED03ull;
    for (int k = 0; k < 3000; k++) {
        uint64_t f = k % 3 == 0 ? rnd() : k % 3 == 1 ? rnd_log() : 1000000u + rnd() % 4000000000u;
        check_freq(f ? f : 1);
    }
}

/* Every record's ns through the reader, under several time_freq options, including ones
 * where t64 x 1e9 overflows 64 bits. */
Test(ns_conv, through_the_reader)
{
    fx_native_t n = {0};
    uint32_t t = 0xF0000000u;
    fx_native_control(&n, t, EVREC_CONTROL_START);
    rng_state = 0x0123456789ABCDEFull;
    for (uint32_t k = 1; k <= 2000; k++) {
        t += (uint32_t)(rnd() % 0xB0000000u); /* under 3/4 of a wrap: forward */
        fx_native_simple(&n, t, k);
    }
    fx_native_control(&n, t + 5u, EVREC_CONTROL_STOP);
    fx_buf_t f = {0};
    fx_native_save(&n, 2596283000u, 0, &f);
    fx_native_free(&n);
    static const uint64_t freqs[] = {1, 7, 32768, 168000000u, NS - 1u, NS, 2596283000u, UINT64_MAX};
    for (size_t k = 0; k < sizeof freqs / sizeof freqs[0]; k++) {
        evrec_reader_options_t o = {freqs[k], 0};
        fx_read_t rd;
        fx_read_all(f.p, f.len, &o, &rd);
        cr_assert_eq(rd.end, EVREC_E_END, "%s", rd.err.message);
        cr_assert_eq(rd.count, 2002u);
        for (size_t j = 0; j < rd.count; j++) {
            cr_assert_eq(rd.recs[j].r.ns, evrec_ticks_to_ns(rd.recs[j].r.t64, freqs[k]), "freq %llu record %zu",
                         (unsigned long long)freqs[k], j);
        }
        fx_read_free(&rd);
    }
    fx_buf_free(&f);
}
#endif /* __SIZEOF_INT128__ */
