/* SPDX-License-Identifier: Apache-2.0 */
/* The container against damage that keeps every CRC good or takes a whole page (FORMAT.md
 * sections 2 and 2.4): a recording made by four threads (thousands of records, many chunks) is
 * damaged a few hundred times with a seeded PRNG: one flipped bit, a zeroed 4 KiB page, a
 * truncation, two STREAM chunks swapped, a chunk duplicated, a chunk removed, a second recording
 * appended. For each copy: every record returned without a damage flag (`unverified`) equals the
 * original's record at the same index (id, time, 64-bit time, every byte), and the records lost
 * are at most those of the chunks the damage touched. Prints one line per class:
 * class, copies, records kept, records wrong, records lost beyond the damaged chunks. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_container.h"
#include "reader_fixtures.h"

/* ---- a demo-like recording: four threads, a Tick every 500 records ---- */

#define THREADS 4
#define PER_THREAD 4000u

typedef struct writer {
    evrec_host_t *host;
    uint32_t base;
    volatile int *go;
} writer_t;

static void *writer_main(void *arg)
{
    writer_t *w = arg;
    while (!*w->go) {
    }
    for (uint32_t k = 0; k < PER_THREAD; k++) {
        if (k % 3 == 0) {
            fx_ev_all_t e;
            fx_expect_all(w->base + k, &e);
            evrec_record(w->host, FX_EVENT_ALL, &e);
        } else {
            fx_ev_simple_t *s = evrec_reserve(w->host, sizeof(fx_ev_simple_t));
            if (s) {
                s->v = w->base + k;
                evrec_commit(s, FX_EVENT_SIMPLE);
            }
        }
        if (w->base == 0 && k % 500 == 499) {
            evrec_tick(w->host);
        }
    }
    return NULL;
}

static void record_threads(fx_buf_t *out, uint32_t salt)
{
    const evrec_meta_t *m = fx_meta_init();
    uint32_t v;
    evrec_runtime_enum_alloc(fx_runtime_enum(), "TaskA", &v);
    size_t size = 4096 + THREADS * PER_THREAD * sizeof(fx_ev_all_t);
    void *buf = aligned_alloc(8, size);
    evrec_recorder_t rec;
    evrec_host_t host;
    cr_assert_eq(evrec_recorder_init(&rec, buf, size), EVREC_OK);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, m, 1000000000u), EVREC_OK);
    volatile int go = 0;
    writer_t w[THREADS];
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (writer_t){&host, (uint32_t)i * 0x1000000u + salt, &go};
        pthread_create(&th[i], NULL, writer_main, &w[i]);
    }
    go = 1;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
    }
    evrec_host_stop(&host, NULL);
    evrec_sink_t sink = fx_sink(out);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    free(buf);
}

/* ---- the original: its records and its chunk groups ---- */

/* A group: the chunks that belong to one STREAM chunk (LANE_IDS, SYNC, SEQ before it). */
typedef struct group {
    uint64_t start, stream, end; /* first chunk, the STREAM chunk, end of the STREAM chunk */
    uint64_t first, count;       /* records that start in it */
} group_t;

typedef struct original {
    fx_buf_t f;
    fx_read_t rd;
    group_t g[256];
    size_t ng;
} original_t;

static void original_init(original_t *o, uint32_t salt)
{
    memset(o, 0, sizeof *o);
    record_threads(&o->f, salt);
    fx_read_all(o->f.p, o->f.len, NULL, &o->rd);
    cr_assert_eq(o->rd.end, EVREC_E_END, "the original must be intact: %s", o->rd.err.message);
    cr_assert_geq(o->rd.count, THREADS * PER_THREAD);
    fx_chunk_t ch[1024];
    size_t n = fx_chunks(o->f.p, o->f.len, ch, 1024);
    uint64_t start = UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        uint8_t t = ch[i].type;
        if (t == EVREC_CHUNK_LANE_IDS || t == EVREC_CHUNK_SYNC || t == EVREC_CHUNK_SEQ) {
            start = start == UINT64_MAX ? ch[i].off : start;
        } else if (t == EVREC_CHUNK_STREAM) {
            cr_assert_lt(o->ng, 256u);
            group_t *g = &o->g[o->ng++];
            g->start = start == UINT64_MAX ? ch[i].off : start;
            g->stream = ch[i].off;
            g->end = ch[i].off + 8 + ch[i].len;
            start = UINT64_MAX;
        }
    }
    cr_assert_geq(o->ng, 10u, "a recording of many chunks");
    size_t k = 0;
    for (size_t i = 0; i < o->ng; i++) {
        group_t *g = &o->g[i];
        g->first = k;
        while (k < o->rd.count && o->rd.recs[k].r.offset < g->end) {
            k++;
        }
        g->count = k - g->first;
    }
}

static void original_free(original_t *o)
{
    fx_read_free(&o->rd);
    fx_buf_free(&o->f);
}

/* ---- damage ---- */

static uint64_t rng_state;
static uint64_t rng(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static size_t below(size_t n)
{
    return (size_t)(rng() % n);
}

typedef struct copy {
    uint8_t *p;
    size_t len;
    uint8_t *lost_ok; /* per original record: 1 when the damage may lose it */
} copy_t;

/* Records of the groups that overlap [a, b) of the original may be lost. */
static void may_lose_range(const original_t *o, copy_t *c, uint64_t a, uint64_t b)
{
    for (size_t i = 0; i < o->ng; i++) {
        if (o->g[i].start < b && a < o->g[i].end) {
            memset(c->lost_ok + o->g[i].first, 1, o->g[i].count);
        }
    }
}

static void append(copy_t *c, const uint8_t *p, size_t n)
{
    memcpy(c->p + c->len, p, n);
    c->len += n;
}

/* A chunk group, or (whole = 0) the bare STREAM chunk of it. */
static void span_of(const group_t *g, int whole, uint64_t *a, uint64_t *b)
{
    *a = whole ? g->start : g->stream;
    *b = g->end;
}

enum { C_FLIP, C_PAGE, C_TRUNC, C_SWAP, C_DUP, C_REMOVE, C_CONCAT, C_COUNT };
static const char *const class_name[C_COUNT] = {
    "bit flip",      "zeroed 4 KiB page",     "truncation", "chunks swapped", "chunk duplicated",
    "chunk removed", "two files concatenated"};

static void make_copy(const original_t *o, const original_t *other, int cls, copy_t *c)
{
    const uint8_t *f = o->f.p;
    size_t size = o->f.len;
    memset(c->lost_ok, 0, o->rd.count);
    c->len = 0;
    /* groups 1.. : group 0 holds the meta-info (its damage is covered by the copy at the end) */
    size_t i = below(o->ng), j = below(o->ng);
    int whole = (int)below(2);
    uint64_t a, b, a2, b2;
    switch (cls) {
    case C_FLIP: {
        size_t bit = below(size * 8);
        append(c, f, size);
        c->p[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        may_lose_range(o, c, bit / 8, bit / 8 + 1);
        break;
    }
    case C_PAGE: {
        size_t page = below((size + 4095) / 4096) * 4096, end = page + 4096 < size ? page + 4096 : size;
        append(c, f, size);
        memset(c->p + page, 0, end - page);
        may_lose_range(o, c, page, end);
        break;
    }
    case C_TRUNC: {
        size_t n = below(size);
        append(c, f, n);
        may_lose_range(o, c, n, size);
        for (size_t k = 0; k < o->rd.count; k++) {
            c->lost_ok[k] |= o->rd.recs[k].last_byte >= n;
        }
        break;
    }
    case C_SWAP:
        while (j == i) {
            j = below(o->ng);
        }
        if (j < i) {
            size_t t = i;
            i = j;
            j = t;
        }
        span_of(&o->g[i], whole, &a, &b);
        span_of(&o->g[j], whole, &a2, &b2);
        append(c, f, a);
        append(c, f + a2, b2 - a2);
        append(c, f + b, a2 - b);
        append(c, f + a, b - a);
        append(c, f + b2, size - b2);
        may_lose_range(o, c, a, b);
        may_lose_range(o, c, a2, b2);
        break;
    case C_DUP: /* a copy of group i (or its STREAM chunk) inserted after group j */
        span_of(&o->g[i], whole, &a, &b);
        append(c, f, o->g[j].end);
        append(c, f + a, b - a);
        append(c, f + o->g[j].end, size - o->g[j].end);
        break;
    case C_REMOVE:
        span_of(&o->g[i], whole, &a, &b);
        append(c, f, a);
        append(c, f + b, size - b);
        may_lose_range(o, c, a, b);
        break;
    default: { /* this recording, whole or cut short, then another one */
        size_t n = below(2) ? size : below(size);
        append(c, f, n);
        append(c, other->f.p, other->f.len);
        may_lose_range(o, c, n, size);
        for (size_t k = 0; k < o->rd.count; k++) {
            c->lost_ok[k] |= o->rd.recs[k].last_byte >= n;
        }
        break;
    }
    }
}

typedef struct tally {
    size_t copies, kept, wrong, overlost, undetected;
} tally_t;

static void check_copy(const original_t *o, const copy_t *c, tally_t *t, int cls, size_t copy_no)
{
    fx_read_t rd;
    fx_read_all(c->p, c->len, NULL, &rd);
    uint8_t *seen = calloc(o->rd.count, 1);
    for (size_t i = 0; i < rd.count; i++) {
        const fx_rec_t *g = &rd.recs[i];
        uint64_t k = g->r.index;
        if (g->r.unverified) {
            continue;
        }
        const fx_rec_t *w = k < o->rd.count ? &o->rd.recs[k] : NULL;
        if (!w || g->r.id != w->r.id || g->r.time32 != w->r.time32 || g->r.t64 != w->r.t64 ||
            g->r.size != w->r.size || memcmp(g->data, w->data, w->r.size) != 0 || seen[k]) {
            t->wrong++;
            fprintf(stderr, "%s, copy %zu: record %llu returned wrong (%s)\n", class_name[cls], copy_no,
                    (unsigned long long)k, rd.err.message);
            continue;
        }
        seen[k] = 1;
        t->kept++;
    }
    size_t over = 0;
    for (size_t k = 0; k < o->rd.count; k++) {
        over += !seen[k] && !c->lost_ok[k];
    }
    if (over) {
        fprintf(stderr, "%s, copy %zu: %zu records lost outside the damaged chunks (%s at %llu)\n",
                class_name[cls], copy_no, over, rd.err.message, (unsigned long long)rd.err.offset);
    }
    t->overlost += over;
    /* Damage that changes the bytes is reported (a duplicate or swap of equal bytes cannot be). */
    int same = c->len == o->f.len && memcmp(c->p, o->f.p, c->len) == 0;
    t->undetected += !same && rd.end == EVREC_E_END && rd.err.status == EVREC_OK;
    t->copies++;
    free(seen);
    fx_read_free(&rd);
}

Test(container, damage_classes_never_show_a_wrong_record, .timeout = 600)
{
    original_t o, other;
    original_init(&o, 0);
    original_init(&other, 0x80000000u);
    copy_t c;
    c.p = malloc(o.f.len * 2 + other.f.len);
    c.lost_ok = malloc(o.rd.count);
    rng_state = 0x5EEDC0DEull;
    tally_t all[C_COUNT];
    memset(all, 0, sizeof all);
    fprintf(stderr, "original: %zu records, %zu STREAM chunks, %zu bytes\n", o.rd.count, o.ng, o.f.len);
    fprintf(stderr, "%-24s %7s %12s %13s %12s %10s\n", "class", "copies", "records kept", "records wrong",
            "over-lost", "undetected");
    for (int cls = 0; cls < C_COUNT; cls++) {
        for (size_t n = 0; n < 60; n++) {
            make_copy(&o, &other, cls, &c);
            check_copy(&o, &c, &all[cls], cls, n);
        }
        tally_t *t = &all[cls];
        fprintf(stderr, "%-24s %7zu %12zu %13zu %12zu %10zu\n", class_name[cls], t->copies, t->kept, t->wrong,
                t->overlost, t->undetected);
    }
    for (int cls = 0; cls < C_COUNT; cls++) {
        cr_expect_eq(all[cls].wrong, 0u, "%s: records shown under a wrong index or time", class_name[cls]);
        cr_expect_eq(all[cls].overlost, 0u, "%s: records lost outside the damaged chunks", class_name[cls]);
        cr_expect_eq(all[cls].undetected, 0u, "%s: damage not reported", class_name[cls]);
    }
    free(c.p);
    free(c.lost_ok);
    original_free(&o);
    original_free(&other);
}

/* ---- single cases, with their messages ---- */

/* The file as version 1.1 would have it: without SEQ, COPY and TAIL chunks, minor version 1. */
static void downgrade(const fx_buf_t *in, fx_buf_t *out)
{
    uint8_t h[EVREC_HEADER_SIZE];
    memcpy(h, in->p, sizeof h);
    h[11] = 1;
    uint32_t crc = evrec_crc32c(0, h, 44);
    h[44] = (uint8_t)(crc >> 24);
    h[45] = (uint8_t)(crc >> 16);
    h[46] = (uint8_t)(crc >> 8);
    h[47] = (uint8_t)crc;
    fx_buf_write(out, h, sizeof h);
    fx_chunk_t ch[1024];
    size_t n = fx_chunks(in->p, in->len, ch, 1024);
    for (size_t i = 0; i < n; i++) {
        if (ch[i].type != EVREC_CHUNK_SEQ && ch[i].type != EVREC_CHUNK_COPY && ch[i].type != EVREC_CHUNK_TAIL) {
            fx_buf_write(out, in->p + ch[i].off, 8 + ch[i].len);
        }
    }
}

/* Group k of `f` (its SYNC and SEQ chunks and the STREAM chunk) copied right after itself, or
 * removed. */
static void edit_group(const fx_buf_t *f, size_t k, int dup, fx_buf_t *out)
{
    fx_chunk_t ch[1024];
    size_t n = fx_chunks(f->p, f->len, ch, 1024), s = 0, start = 0;
    for (size_t i = 0; i < n; i++) {
        if (ch[i].type == EVREC_CHUNK_STREAM && s++ == k) {
            size_t j = i;
            while (j > 0 && (ch[j - 1].type == EVREC_CHUNK_SYNC || ch[j - 1].type == EVREC_CHUNK_SEQ)) {
                j--;
            }
            start = ch[j].off;
            size_t end = ch[i].off + 8 + ch[i].len;
            fx_buf_write(out, f->p, dup ? end : start);
            if (dup) {
                fx_buf_write(out, f->p + start, end - start);
            }
            fx_buf_write(out, f->p + end, f->len - end);
            return;
        }
    }
    cr_assert_fail("no STREAM chunk %zu", k);
}

/* Version 1.1 files cannot see order: a duplicated or removed chunk shows as a count that differs
 * from the header's, and the message says so (it used to blame the save: "records lost while
 * saving", for a file that holds more records than were saved). */
Test(container, old_file_count_mismatch_names_duplicated_or_removed_chunks)
{
    fx_buf_t f = {0}, old = {0}, dup = {0}, rem = {0};
    fx_record(6000, 0, &f);
    downgrade(&f, &old);
    fx_read_t rd;
    fx_read_all(old.p, old.len, NULL, &rd);
    cr_assert_eq(rd.end, EVREC_E_END, "a version 1.1 file reads as before: %s", rd.err.message);
    size_t total = rd.count;
    fx_read_free(&rd);

    edit_group(&old, 3, 1, &dup);
    fx_read_all(dup.p, dup.len, NULL, &rd);
    cr_assert_eq(rd.err.status, EVREC_E_CORRUPT);
    cr_assert_gt(rd.count, total);
    cr_assert(strstr(rd.err.message, "too many") && strstr(rd.err.message, "duplicated"), "%s", rd.err.message);
    cr_assert(!strstr(rd.err.message, "while saving"), "%s", rd.err.message);
    fx_read_free(&rd);

    edit_group(&old, 3, 0, &rem);
    fx_read_all(rem.p, rem.len, NULL, &rd);
    cr_assert_eq(rd.err.status, EVREC_E_CORRUPT);
    cr_assert(strstr(rd.err.message, "missing") && strstr(rd.err.message, "removed"), "%s", rd.err.message);
    fx_read_free(&rd);
    fx_buf_free(&f);
    fx_buf_free(&old);
    fx_buf_free(&dup);
    fx_buf_free(&rem);
}

/* Version 1.3: the same edits are seen where they are, and no record is shown twice or under
 * another index. */
Test(container, duplicated_and_removed_chunks_are_reported_at_their_offset)
{
    fx_buf_t f = {0}, dup = {0}, rem = {0};
    fx_record(6000, 0, &f);
    fx_read_t o, rd;
    fx_read_all(f.p, f.len, NULL, &o);
    cr_assert_eq(o.end, EVREC_E_END);
    fx_chunk_t ch[1024];
    size_t n = fx_chunks(f.p, f.len, ch, 1024), s = 0;
    uint64_t third_end = 0;
    for (size_t i = 0; i < n; i++) {
        if (ch[i].type == EVREC_CHUNK_STREAM && s++ == 3) {
            third_end = ch[i].off + 8 + ch[i].len;
        }
    }
    edit_group(&f, 3, 1, &dup);
    fx_read_all(dup.p, dup.len, NULL, &rd);
    cr_assert_eq(rd.count, o.count, "a duplicate is skipped, nothing is lost");
    for (size_t i = 0; i < rd.count; i++) {
        cr_assert_eq(rd.recs[i].r.index, i);
        cr_assert_eq(rd.recs[i].r.t64, o.recs[i].r.t64);
    }
    cr_assert_eq(rd.err.status, EVREC_E_CORRUPT);
    cr_assert_gt(rd.err.offset, third_end, "the copy comes after the original");
    cr_assert(strstr(rd.err.message, "is number 3, after number 3: a duplicate"), "%s", rd.err.message);
    fx_read_free(&rd);

    edit_group(&f, 3, 0, &rem);
    fx_read_all(rem.p, rem.len, NULL, &rd);
    cr_assert_eq(rd.err.status, EVREC_E_CORRUPT);
    cr_assert(strstr(rd.err.message, "number 3 to 3 are missing"), "%s", rd.err.message);
    for (size_t i = 0; i < rd.count; i++) {
        uint64_t k = rd.recs[i].r.index;
        cr_assert_eq(rd.recs[i].r.t64, o.recs[k].r.t64);
        cr_assert_eq(rd.recs[i].r.id, o.recs[k].r.id);
    }
    fx_read_free(&rd);
    fx_read_free(&o);
    fx_buf_free(&f);
    fx_buf_free(&dup);
    fx_buf_free(&rem);
}

/* Two recordings in one file: the first is read whole, the second is named, not read. */
Test(container, a_second_recording_appended_is_reported)
{
    fx_buf_t a = {0}, b = {0}, ab = {0};
    fx_record(3000, 0, &a);
    fx_record(2000, 0, &b);
    fx_buf_write(&ab, a.p, a.len);
    fx_buf_write(&ab, b.p, b.len);
    fx_read_t ra, rd;
    fx_read_all(a.p, a.len, NULL, &ra);
    fx_read_all(ab.p, ab.len, NULL, &rd);
    cr_assert_eq(rd.count, ra.count);
    for (size_t i = 0; i < rd.count; i++) {
        cr_assert_eq(rd.recs[i].r.t64, ra.recs[i].r.t64);
    }
    cr_assert_eq(rd.err.status, EVREC_E_CORRUPT);
    cr_assert_eq(rd.err.offset, a.len);
    cr_assert(strstr(rd.err.message, "two files concatenated"), "%s", rd.err.message);
    fx_read_free(&ra);
    fx_read_free(&rd);
    fx_buf_free(&a);
    fx_buf_free(&b);
    fx_buf_free(&ab);
}

/* Version 1.1 of FORMAT.md's worked example, byte for byte as the saves before version 1.3 wrote it
 * (its header CRC 71 91 E3 9C is the one that document gave): no SEQ, COPY or TAIL chunk, and it
 * reads as it always did: three records at offsets 212, 219, 226, intact. */
static const uint8_t v11_example[248] = {
    0x45, 0x56, 0x52, 0x43, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x81, 0x47,
    0xC5, 0x0E, 0xA7, 0x25, 0x9E, 0xC4, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x71, 0x91, 0xE3, 0x9C, 0x01, 0x00, 0x00, 0xB8, 0x74, 0x00,
    0x9E, 0xD3, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xE8, 0x00, 0x00, 0x00, 0x01, 0x03, 0x00, 0x00, 0x00,
    0x10, 0x45, 0x76, 0x65, 0x6E, 0x74, 0x43, 0x6F, 0x6E, 0x74, 0x72, 0x6F, 0x6C, 0x54, 0x79, 0x70, 0x65, 0x00,
    0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x53, 0x74, 0x61, 0x72, 0x74, 0x08, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x04, 0x54, 0x69, 0x63, 0x6B, 0x0D, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00,
    0x00, 0x04, 0x53, 0x74, 0x6F, 0x70, 0x0E, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x03, 0x45, 0x6E, 0x64,
    0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x0C, 0x45, 0x76, 0x65, 0x6E, 0x74, 0x43, 0x6F, 0x6E, 0x74,
    0x72, 0x6F, 0x6C, 0x00, 0x00, 0x00, 0x03, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x74, 0x69, 0x6D, 0x65,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x69, 0x64, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x74, 0x79,
    0x70, 0x65, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, 0xFF, 0xFF, 0xFF, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x02, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x48, 0x67, 0x4B, 0xC7};

Test(container, version_1_1_file_reads_as_before)
{
    fx_read_t rd;
    fx_read_all(v11_example, sizeof v11_example, NULL, &rd);
    cr_assert_eq(rd.end, EVREC_E_END, "%s", rd.err.message);
    cr_assert_eq(rd.err.status, EVREC_OK);
    cr_assert_eq(rd.count, 3u);
    static const uint64_t off[3] = {212, 219, 226}, t64[3] = {0, 0x300, 0x400};
    for (size_t i = 0; i < 3; i++) {
        cr_assert_eq(rd.recs[i].r.offset, off[i]);
        cr_assert_eq(rd.recs[i].r.t64, t64[i]);
        cr_assert_eq(rd.recs[i].r.gap, 0);
    }
    fx_read_free(&rd);
    evrec_reader_t *r;
    cr_assert_eq(evrec_reader_open_memory(&r, v11_example, sizeof v11_example, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_info(r)->version_minor, 1u);
    evrec_reader_close(r);
}
