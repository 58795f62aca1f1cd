/* SPDX-License-Identifier: Apache-2.0 */
/* 64-bit time across transport gaps (FORMAT.md sections 5, 8.2, 8.3): the frames recorded during
 * a gap of 0.5 .. 1000 wraps of the 32-bit counter are lost between target and host; every record
 * received, read from the raw capture and from the file `evrec record` writes, has the 64-bit
 * time at which it was recorded, and time never goes back. The time field is 32 bits in the
 * format (a port extends a narrower counter, as the Cortex-M port does SysTick's 24 bits), so
 * 32 bits is the only counter width a stream can carry. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <sys/wait.h>

#include "evrec/evrec_reader.h"
#include "evrec/evrec_stream.h"
#include "stream_harness.h"
#include "test_tmp.h"

extern uint32_t evrec_test_clock_now;
extern uint32_t evrec_test_clock_step;

enum { BEFORE = 60, AFTER = 60, MAX_GAP_RECORDS = 4200, PROBES = BEFORE + MAX_GAP_RECORDS + AFTER };

static _Alignas(8) uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(16, 256)];

/* A synthesised recording: probe `seq` was recorded at time when[seq] (ticks since Start). */
typedef struct gap_run {
    evrec_stream_t s;
    evrec_host_t h;
    capture_t kept, lost; /* the frames that reach the host, those lost in the gap */
    uint64_t when[PROBES];
    uint8_t received[PROBES]; /* 1: its frame reaches the host */
    uint64_t stop_at;         /* time of the Stop record */
    uint64_t base;            /* the counter's value at Start, 64 bits */
} gap_run_t;

static void drain_to(gap_run_t *g, capture_t *c)
{
    uint8_t buf[700];
    size_t n;
    while ((n = evrec_stream_drain(&g->s, buf, sizeof buf)) != 0) {
        capture_put(c, buf, n);
    }
}

/* Records probe `seq` at `t` ticks after Start, the counter reading the low 32 bits. */
static void probe_at(gap_run_t *g, uint32_t seq, uint64_t t)
{
    evrec_test_clock_now = (uint32_t)(g->base + t);
    cr_assert(probe_record(&g->h, 1, seq), "probe %u recorded", seq);
    g->when[seq] = t;
}

/* BEFORE probes 1,000 ticks apart, then probes every quarter wrap or less across `gap` ticks
 * (their frames lost), then AFTER probes; every `drain` probes the ring is drained. Returns the
 * probes recorded. */
static uint32_t gap_record(gap_run_t *g, uint64_t gap, uint32_t meta_every)
{
    memset(g, 0, sizeof *g);
    evrec_test_clock_step = 0;
    g->base = 0xFFFFF000ull; /* the first wrap comes soon */
    evrec_test_clock_now = (uint32_t)g->base;
    evrec_host_init(&g->h);
    cr_assert_eq(evrec_stream_init(&g->s, ring, sizeof ring, 256, meta_every), EVREC_OK);
    cr_assert_eq(evrec_stream_start(&g->s, &g->h, &probe_meta, 1000000, 0x5EED), EVREC_OK);
    uint32_t seq = 0;
    uint64_t t = 0;
    for (; seq < BEFORE; seq++) {
        probe_at(g, seq, t += 1000u);
        g->received[seq] = 1;
        if (seq % 7u == 6u) {
            drain_to(g, &g->kept);
        }
    }
    drain_to(g, &g->kept);
    uint64_t steps = gap / 0x40000000ull + 1u, from = t; /* each step at most a quarter wrap */
    cr_assert_leq(steps - 1u, MAX_GAP_RECORDS);
    for (uint64_t k = 1; k < steps; k++, seq++) {
        probe_at(g, seq, from + gap * k / steps);
        if (seq % 10u == 0) {
            drain_to(g, &g->lost);
        }
    }
    drain_to(g, &g->lost);
    t = from + gap;
    for (uint32_t k = 0; k < AFTER; k++, seq++, t += 1000u) {
        probe_at(g, seq, t);
        g->received[seq] = 1;
        if (seq % 7u == 6u) {
            drain_to(g, &g->kept);
        }
    }
    g->stop_at = t;
    evrec_test_clock_now = (uint32_t)(g->base + t);
    cr_assert_eq(evrec_host_stop(&g->h, NULL), EVREC_OK);
    drain_to(g, &g->kept);
    cr_assert(evrec_stream_done(&g->s));
    return seq;
}

/* Reads `path`: every probe has its recording time, Start 0 and Stop stop_at when they are there,
 * time never goes back; returns the probes read. */
static uint32_t check_times(const gap_run_t *g, const char *path, const char *what)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK, "%s: open", what);
    evrec_record_t rec;
    uint64_t last = 0;
    uint32_t probes = 0;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        uint64_t want;
        if (rec.id == PROBE_EVENT_PROBE) {
            uint32_t seq = t_be32(rec.data + 8);
            cr_assert_lt(seq, PROBES);
            cr_assert(g->received[seq], "%s: probe %u was lost in the gap, yet shown", what, seq);
            want = g->when[seq];
            probes++;
        } else {
            want = rec.data[6] == 0 ? 0 : g->stop_at; /* EventControl Start or Stop */
        }
        cr_assert_eq(rec.t64, want, "%s: record %llu (id %u) at t64 %llu, recorded at %llu", what,
                     (unsigned long long)rec.index, rec.id, (unsigned long long)rec.t64, (unsigned long long)want);
        cr_assert_geq(rec.t64, last, "%s: time goes back at record %llu", what, (unsigned long long)rec.index);
        last = rec.t64;
    }
    cr_assert_eq(evrec_reader_error(r)->status, EVREC_OK, "%s: %s", what, evrec_reader_error(r)->message);
    evrec_reader_close(r);
    return probes;
}

static void write_file(const char *path, const capture_t *c, size_t from)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(c->data + from, 1, c->len - from, f), c->len - from);
    fclose(f);
}

/* The file `evrec record` makes of the capture from byte `from`, then (when it starts with a
 * frame, FORMAT.md section 8.3) the capture read as it is; returns the probes read. */
static uint32_t check_both(const gap_run_t *g, const capture_t *c, size_t from, const char *name)
{
    char *dir = test_tmp_dir("stream_gap");
    char cap[TEST_TMP_PATH], out[TEST_TMP_PATH], cmd[3 * TEST_TMP_PATH];
    snprintf(cap, sizeof cap, "%s/%s.bin", dir, name);
    snprintf(out, sizeof out, "%s/%s.evr", dir, name);
    write_file(cap, c, from);
    snprintf(cmd, sizeof cmd, "'%s' record -q -o '%s' '%s'", EVREC_CLI, out, cap);
    int status = system(cmd);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: evrec record", name);
    uint32_t probes = check_times(g, out, name);
    if (evrec_srx_is_capture(c->data + from, c->len - from)) { /* else only `evrec record` reads it */
        cr_assert_eq(check_times(g, cap, name), probes, "%s: the capture read as it is has the same probes", name);
    }
    free(dir);
    return probes;
}

static gap_run_t run;

Test(stream_gap, time_is_exact_across_lost_frames)
{
    static const double wraps[] = {0.5, 0.76, 1.0, 3.3, 1000.0};
    for (unsigned i = 0; i < sizeof wraps / sizeof wraps[0]; i++) {
        uint64_t gap = (uint64_t)(wraps[i] * 4294967296.0);
        (void)gap_record(&run, gap, 0);
        char name[32];
        snprintf(name, sizeof name, "gap-%g", wraps[i]);
        cr_assert_eq(check_both(&run, &run.kept, 0, name), BEFORE + AFTER, "%s: every probe of a frame kept",
                     name);
    }
}

Test(stream_gap, time_is_exact_after_a_late_join)
{
    /* The host joins inside the 4th frame of records, before a gap of 1.7 wraps: it decodes from
     * the next meta document on (sent every 3 frames of records), and every record from there on
     * has its time since the target's Start, which the host never saw. */
    (void)gap_record(&run, (uint64_t)(1.7 * 4294967296.0), 3);
    size_t q = 0;
    unsigned records_frames = 0;
    while (records_frames < 4) {
        uint32_t word = t_be32(run.kept.data + q + 4);
        records_frames += (word >> 24) == EVREC_FRAME_RECORDS;
        q += EVREC_STREAM_FRAME_HEADER + (word & 0xFFFFFFu);
    }
    uint32_t got = check_both(&run, &run.kept, q - 5u, "late");
    cr_assert_geq(got, AFTER, "the probes after the gap are read (%u)", got);
    cr_assert_lt(got, BEFORE + AFTER, "the probes before the join are not");
    got = check_both(&run, &run.kept, q, "late-at-a-frame"); /* the reader converts this one too */
    cr_assert_geq(got, AFTER, "the probes after the gap are read (%u)", got);
}

/* Probes of a frame of records: marks them not received (received[seq] = 0). */
static void unreceive(gap_run_t *g, const uint8_t *f, size_t len)
{
    for (size_t q = EVREC_STREAM_FRAME_HEADER + EVREC_FRAME_RECORDS_HEAD; q < len;) {
        int probe = (uint16_t)(f[q + 4] << 8 | f[q + 5]) == PROBE_EVENT_PROBE;
        if (probe) {
            g->received[t_be32(f + q + 8)] = 0;
        }
        q += probe ? 16u : 7u;
    }
}

Test(stream_gap, time_is_exact_with_duplicated_and_reordered_frames)
{
    /* After a gap of 3.3 wraps, every 3rd frame of records comes twice and every 4th comes after
     * the next one (too late: its records are lost, not shown out of order): the others have
     * their time. */
    (void)gap_record(&run, (uint64_t)(3.3 * 4294967296.0), 0);
    capture_t c = {0};
    unsigned frames = 0;
    for (size_t q = 0; q < run.kept.len;) {
        uint8_t *f = run.kept.data + q;
        size_t len = EVREC_STREAM_FRAME_HEADER + (t_be32(f + 4) & 0xFFFFFFu);
        int records = (t_be32(f + 4) >> 24) == EVREC_FRAME_RECORDS;
        frames += (unsigned)records;
        size_t len2 = q + len < run.kept.len ? EVREC_STREAM_FRAME_HEADER + (t_be32(f + len + 4) & 0xFFFFFFu) : 0;
        int next_records = len2 && (t_be32(f + len + 4) >> 24) == EVREC_FRAME_RECORDS;
        if (records && frames > 2 && frames % 4u == 0 && next_records) {
            capture_put(&c, f + len, len2); /* the next one first */
            capture_put(&c, f, len);
            unreceive(&run, f, len);
            q += len + len2;
            frames++;
            continue;
        }
        capture_put(&c, f, len);
        if (records && frames % 3u == 0) {
            capture_put(&c, f, len);
        }
        q += len;
    }
    uint32_t want = 0;
    for (uint32_t k = 0; k < PROBES; k++) {
        want += run.received[k];
    }
    cr_assert_lt(want, BEFORE + AFTER, "some frames came late");
    cr_assert_eq(check_both(&run, &c, 0, "reordered"), want, "every probe of a frame in order is read once");
    free(c.data);
}
