/* SPDX-License-Identifier: Apache-2.0 */
/* Cyclic (last-is-best) buffer: wraps at every block size, keeps exactly the newest intact
 * records in order, counts what it overwrote, and saves while recording goes on. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "evrec/evrec_reader.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"
#include "mem_sink.h"
#include "probe_meta.h"

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static uint16_t be16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

typedef struct seen {
    uint64_t records, probes, controls, bigs;
    uint32_t first_seq[8], last_seq[8];
    int have[8];
    int out_of_order, backwards, damaged, start, stop;
    uint32_t overwritten;
    uint64_t header_recorded;
    uint64_t native_bytes; /* sum of the native slot sizes of the records read */
} seen_t;

/* Reads a saved file with the reader and checks each probe record. */
static void read_back(const mem_sink_t *m, seen_t *s)
{
    memset(s, 0, sizeof *s);
    evrec_reader_t *r = NULL;
    evrec_status st = evrec_reader_open_memory(&r, m->data, m->len, NULL);
    cr_assert_eq(st, EVREC_OK, "open: %s", r ? evrec_reader_error(r)->message : "");
    const evrec_file_info_t *fi = evrec_reader_info(r);
    s->overwritten = fi->overwritten;
    s->header_recorded = fi->recorded;
    cr_assert_eq(fi->flags & 1u, 1u, "cyclic flag");
    evrec_record_t rec;
    while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        s->records++;
        cr_assert_lt(rec.id, probe_meta.event_count);
        s->native_bytes += probe_meta.structs[probe_meta.events[rec.id].struct_id].native_size;
        if (rec.id == PROBE_EVENT_PROBE) {
            uint16_t src = be16(rec.data + 6);
            uint32_t seq = be32(rec.data + 8), check = be32(rec.data + 12);
            cr_assert_lt(src, 8);
            if (check != probe_check(src, seq)) s->damaged = 1;
            if (s->have[src] && seq != s->last_seq[src] + 1) s->out_of_order = 1;
            if (s->have[src] && seq <= s->last_seq[src]) s->backwards = 1;
            if (!s->have[src]) s->first_seq[src] = seq;
            s->have[src] = 1;
            s->last_seq[src] = seq;
            s->probes++;
        } else if (rec.id == PROBE_EVENT_CONTROL) {
            uint8_t type = rec.data[6];
            s->start |= type == EVREC_CONTROL_START;
            s->stop |= type == EVREC_CONTROL_STOP;
            s->controls++;
        } else {
            s->bigs++;
        }
    }
    cr_assert_eq(st, EVREC_E_END, "read: %s at %llu", evrec_reader_error(r)->message,
                 (unsigned long long)evrec_reader_error(r)->offset);
    evrec_reader_close(r);
}

Test(cyclic, init_rejects_bad_geometry)
{
    evrec_recorder_t rec;
    static uint64_t mem[4096];
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, sizeof mem, 1000), EVREC_E_ARG);
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, sizeof mem, 128), EVREC_E_ARG);
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, 3 * 1024, 1024), EVREC_E_ARG, "needs 4 blocks");
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, 7 * 1024, 1024), EVREC_OK);
    cr_assert_eq(evrec_recorder_counts(&rec).block_count, 4, "power of two that fits");
    cr_assert_eq(evrec_recorder_counts(&rec).size, 4096);
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, (char *)mem + 4, 8192, 1024), EVREC_E_ARG);
}

/* Single thread with a fake clock: records K probes (interleaved with 64-byte events that force
 * padding at block ends), stops, saves: the file holds exactly the newest records, contiguous. */
static void wrap_case(size_t block_size, size_t blocks, uint32_t k)
{
    size_t size = EVREC_CYCLIC_BUFFER_SIZE(blocks, block_size);
    void *mem = aligned_alloc(64, size);
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, size, block_size), EVREC_OK);
    evrec_test_clock_now = 0xFFFF0000u; /* wraps the 32-bit time on the way */
    evrec_test_clock_step = 1000;
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 1000000), EVREC_OK);
    big_event_t big = {0};
    uint32_t bigs = 0;
    for (uint32_t i = 0; i < k; i++) {
        cr_assert(probe_record(&host, 1, i), "record %u", i);
        if (i % 7 == 3) {
            cr_assert_eq(evrec_record(&host, PROBE_EVENT_BIG, &big), EVREC_OK);
            bigs++;
        }
        if (i % 50 == 0) cr_assert_eq(evrec_tick(&host), EVREC_OK);
    }
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    cr_assert_eq(evrec_recorder_counts(&rec).dropped, 0);
    mem_sink_t m = {0};
    evrec_sink_t sink = mem_sink_of(&m);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    seen_t s;
    read_back(&m, &s);
    cr_assert_not(s.damaged);
    cr_assert_not(s.out_of_order, "block size %zu: probes not contiguous", block_size);
    cr_assert(s.stop, "Stop is kept: it is the newest record");
    cr_assert_eq(s.last_seq[1], k - 1, "the newest probe is last");
    cr_assert_eq(s.header_recorded, s.records);
    /* After stop, `recorded` and `used` describe what save wrote (evrec_recorder_t docs). */
    cr_assert_eq(evrec_recorder_counts(&rec).recorded, s.records, "bs %zu: recorded %llu, file %llu", block_size,
                 (unsigned long long)evrec_recorder_counts(&rec).recorded, (unsigned long long)s.records);
    cr_assert_eq(evrec_recorder_counts(&rec).used, s.native_bytes,
                 "bs %zu: used %zu, records of the file %llu bytes", block_size, evrec_recorder_counts(&rec).used,
                 (unsigned long long)s.native_bytes);
    /* Every record is either in the file or counted as overwritten. */
    uint64_t total = (uint64_t)k + bigs + 2 + (k + 49) / 50;
    cr_assert_eq(s.records + s.overwritten, total, "bs %zu: %llu saved + %u overwritten != %llu", block_size,
                 (unsigned long long)s.records, s.overwritten, (unsigned long long)total);
    /* The ring keeps at least block_count - 2 full blocks of the newest data. */
    size_t per_block_min = (block_size - EVREC_BLOCK_HEADER) / sizeof(big_event_t);
    if (s.overwritten) {
        cr_assert_geq(s.records, (blocks - 2) * per_block_min, "kept too little");
        cr_assert_not(s.start, "Start was overwritten");
    } else {
        cr_assert(s.start);
    }
    free(m.data);
    free(mem);
}

Test(cyclic, wraps_many_times_at_every_block_size)
{
    for (size_t bs = 256; bs <= 65536; bs *= 2) {
        wrap_case(bs, 4, (uint32_t)(bs * 4 / 16 * 5)); /* about 5 laps */
        wrap_case(bs, 8, 10);                          /* no wrap */
    }
    wrap_case(1024, 16, 100000);
}

/* Many laps, one thread: the records a block got are counted from its header when it is reused
 * (no walk), and the counts stay exact: saved + overwritten == recorded, the header's counts are
 * the file's, and the stopped ring holds whole blocks of the newest records. */
Test(cyclic, counts_exact_after_many_laps)
{
    enum { BLOCK = 512, BLOCKS = 8 };
    size_t size = EVREC_CYCLIC_BUFFER_SIZE(BLOCKS, BLOCK);
    void *mem = aligned_alloc(64, size);
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, size, BLOCK), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 0), EVREC_OK);
    const uint32_t per_lap = BLOCKS * (BLOCK - EVREC_BLOCK_HEADER) / sizeof(probe_event_t);
    const uint32_t k = 300 * per_lap + 7; /* 300 laps and a bit, ending inside a block */
    big_event_t big = {0};
    uint64_t total = 2; /* Start, Stop */
    for (uint32_t i = 0; i < k; i++) {
        cr_assert(probe_record(&host, 0, i));
        total++;
        if (i % 11 == 5) { /* 64-byte events: blocks end at different offsets */
            cr_assert_eq(evrec_record(&host, PROBE_EVENT_BIG, &big), EVREC_OK);
            total++;
        }
        if (i % 97 == 0) {
            cr_assert_eq(evrec_tick(&host), EVREC_OK);
            total++;
        }
    }
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    evrec_recorder_counts_t c = evrec_recorder_counts(&rec);
    cr_assert_eq(c.dropped, 0);
    cr_assert_eq(c.block_count, BLOCKS);
    cr_assert_eq(c.recorded + c.overwritten, total, "%llu kept + %llu overwritten != %llu",
                 (unsigned long long)c.recorded, (unsigned long long)c.overwritten, (unsigned long long)total);
    mem_sink_t m = {0};
    evrec_sink_t sink = mem_sink_of(&m);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    seen_t s;
    read_back(&m, &s);
    cr_assert_not(s.damaged);
    cr_assert_not(s.out_of_order);
    cr_assert_eq(s.records, c.recorded);
    cr_assert_eq(s.overwritten, c.overwritten);
    cr_assert_eq(s.last_seq[0], k - 1);
    /* at least block_count - 2 whole blocks of 64-byte events' worth are kept */
    cr_assert_geq(s.records, (BLOCKS - 2) * ((BLOCK - EVREC_BLOCK_HEADER) / sizeof(big_event_t)));
    free(m.data);
    free(mem);
}

Test(cyclic, bare_ccore_save_of_a_wrapped_ring)
{
    size_t size = EVREC_CYCLIC_BUFFER_SIZE(4, 1024);
    void *mem = aligned_alloc(64, size);
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, size, 1024), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 0), EVREC_OK);
    for (uint32_t i = 0; i < 1000; i++)
        cr_assert(probe_record(&host, 2, i));
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    mem_sink_t m = {0};
    evrec_sink_t sink = mem_sink_of(&m);
    evrec_save_options_t bare = {0, 1};
    cr_assert_eq(evrec_save_ex(&rec, &sink, &bare), EVREC_OK);
    /* End record last; the stream is plain CCore */
    static const uint8_t end[7] = {0, 0, 0, 0, 0, 0, 3};
    cr_assert_eq(memcmp(m.data + m.len - 7, end, 7), 0);
    free(m.data);
    free(mem);
}

/* ---- save while recording goes on ---- */

typedef struct writer {
    evrec_host_t *host;
    uint16_t source;
    _Atomic int stop; /* atomics, not volatile: read by another thread (ThreadSanitizer) */
    _Atomic uint32_t count;
} writer_t;

static void *writer_main(void *arg)
{
    writer_t *w = arg;
    while (!w->stop) {
        if (probe_record(w->host, w->source, w->count)) w->count++;
    }
    return NULL;
}

/* Live saves of the test below (the ThreadSanitizer build, ten times slower, makes fewer). */
#ifndef TEST_LIVE_SAVES
#define TEST_LIVE_SAVES 300
#endif

Test(cyclic, save_while_two_threads_record, .timeout = 120)
{
    size_t size = EVREC_CYCLIC_BUFFER_SIZE(4096, 256);
    void *mem = aligned_alloc(64, size);
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, size, 256) /* live save: block <= EVREC_SAVE_CHUNK - 16 */,
                 EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 0), EVREC_OK);
    writer_t w[2] = {{&host, 0, 0, 0}, {&host, 1, 0, 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, writer_main, &w[i]);
    while (w[0].count < 20000 || w[1].count < 20000) {
        sched_yield(); /* both writers are running and the ring has wrapped */
    }
    int saves = 0;
    for (int i = 0; i < TEST_LIVE_SAVES; i++) {
        mem_sink_t m = {0};
        evrec_sink_t sink = mem_sink_of(&m);
        evrec_status st = evrec_save(&rec, &sink);
        cr_assert_eq(st, EVREC_OK, "live save: %s", evrec_strerror(st));
        seen_t s;
        read_back(&m, &s);
        cr_assert_not(s.damaged, "save %d returned a torn record", i);
        /* within one source, records only go forward (a dropped block leaves a gap, not a swap) */
        cr_assert_not(s.backwards, "save %d: records out of order", i);
        cr_assert_eq(s.header_recorded, UINT64_MAX);
        free(m.data);
        saves++;
    }
    for (int i = 0; i < 2; i++) {
        w[i].stop = 1;
        pthread_join(th[i], NULL);
    }
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    /* A writer that needs the next block while the other is clearing it drops its event (never
     * waits): rare, and counted. The writers count only what they recorded. */
    cr_assert_lt(evrec_recorder_counts(&rec).dropped, ((uint64_t)w[0].count + w[1].count) / 100 + 10);
    mem_sink_t m = {0};
    evrec_sink_t sink = mem_sink_of(&m);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    seen_t s;
    read_back(&m, &s);
    cr_assert_not(s.damaged);
    /* The writer that stopped last wrote the newest records; they are all kept, in order. */
    int newest_kept = 0;
    for (int i = 0; i < 2; i++) {
        if (s.have[i]) {
            cr_assert_leq(s.last_seq[i], w[i].count - 1);
            newest_kept |= s.last_seq[i] == w[i].count - 1;
        }
    }
    cr_assert(newest_kept);
    cr_assert_not(s.out_of_order, "a stopped ring is saved without gaps");
    /* Every record is saved or counted as overwritten, except (a known limit, see
     * evrec_recorder_init_cyclic) when a writer is preempted for a whole lap of the ring inside
     * a block switch: this 1 MiB ring laps in about a millisecond while three threads share two
     * cores, so a block or two per run may go uncounted. Nothing is ever torn or out of order. */
    uint64_t total = (uint64_t)w[0].count + w[1].count + 2, accounted = s.records + s.overwritten;
    cr_assert_leq(accounted, total, "%llu saved + %u overwritten > %llu recorded", (unsigned long long)s.records,
                  s.overwritten, (unsigned long long)total);
    cr_assert_leq(total - accounted, total / 10000 + 64, "%llu saved + %u overwritten of %llu",
                  (unsigned long long)s.records, s.overwritten, (unsigned long long)total);
    cr_assert_eq(saves, TEST_LIVE_SAVES);
    free(m.data);
    free(mem);
}

/* ---- a context stalled inside a block switch for whole laps of the ring ----
 * The test port's pause hook stops one thread at a named point of its first block switch
 * (1: block prepared, not yet taken; 2: block taken, its header not yet written) while the main
 * thread laps the ring three times. A stale context must never stamp or clear a slot that now
 * serves a later block: the main thread's records stay contiguous and intact, and every record
 * is saved or counted as overwritten once the ring has lapped again after the release. */

static _Thread_local int stall_me;
static struct {
    int where, paused, released, done;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} stall = {0, 0, 0, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};

static void stall_hook(int where)
{
    if (!stall_me || where != stall.where) return;
    pthread_mutex_lock(&stall.mu);
    if (!stall.done) {
        stall.done = stall.paused = 1;
        pthread_cond_broadcast(&stall.cv);
        while (!stall.released)
            pthread_cond_wait(&stall.cv, &stall.mu);
    }
    pthread_mutex_unlock(&stall.mu);
}

typedef struct staller {
    evrec_host_t *host;
    uint32_t count;
} staller_t;

static void *staller_main(void *arg)
{
    staller_t *st = arg;
    stall_me = 1;
    /* records until its first block switch has stalled and been released, then 20 more */
    uint32_t after = 0;
    while (after < 20) {
        cr_assert(probe_record(st->host, 1, st->count));
        st->count++;
        if (stall.done) after++;
    }
    return NULL;
}

static void stall_case(int where, uint32_t laps_after)
{
    enum { BLOCK = 256, BLOCKS = 16 };
    void *mem = aligned_alloc(64, EVREC_CYCLIC_BUFFER_SIZE(BLOCKS, BLOCK));
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, EVREC_CYCLIC_BUFFER_SIZE(BLOCKS, BLOCK), BLOCK), EVREC_OK);
    stall.where = where;
    stall.paused = stall.released = stall.done = 0;
    evrec_test_pause_hook = stall_hook;
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 0), EVREC_OK);
    staller_t st = {&host, 0};
    pthread_t th;
    pthread_create(&th, NULL, staller_main, &st);
    pthread_mutex_lock(&stall.mu);
    while (!stall.paused)
        pthread_cond_wait(&stall.cv, &stall.mu);
    pthread_mutex_unlock(&stall.mu);
    /* three and a half laps of the ring while the staller sits inside its block switch: the
     * slot it had prepared now serves a block in the middle of the ring's newest data */
    uint32_t mine = 0;
    const uint32_t lap = BLOCKS * (BLOCK - EVREC_BLOCK_HEADER) / sizeof(probe_event_t);
    for (; mine < 3 * lap + lap / 2; mine++)
        cr_assert(probe_record(&host, 0, mine), "record %u", mine);
    pthread_mutex_lock(&stall.mu);
    stall.released = 1;
    pthread_cond_broadcast(&stall.cv);
    pthread_mutex_unlock(&stall.mu);
    pthread_join(th, NULL);
    /* more laps: the block the staller held is reused and its records counted */
    for (uint32_t end = mine + laps_after * lap; mine < end; mine++)
        cr_assert(probe_record(&host, 0, mine));
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    evrec_test_pause_hook = NULL;
    cr_assert_eq(evrec_recorder_counts(&rec).dropped, 0, "a stalled switch makes others skip its block, not drop");
    mem_sink_t m = {0};
    evrec_sink_t sink = mem_sink_of(&m);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    seen_t s;
    read_back(&m, &s);
    cr_assert_not(s.damaged, "point %d: a torn record", where);
    cr_assert_not(s.out_of_order, "point %d: a gap or swap in the saved records", where);
    cr_assert(s.have[0] && s.last_seq[0] == mine - 1, "point %d: the newest record is kept", where);
    cr_assert(s.stop);
    uint64_t total = (uint64_t)mine + st.count + 2;
    if (laps_after == 0 && where == 2) {
        /* the block the staller held is older than the ring's window and not reused yet: its
         * records are neither saved nor counted (the limit stated at evrec_recorder_init_cyclic) */
        cr_assert_leq(s.records + s.overwritten, total);
        cr_assert_geq(s.records + s.overwritten + BLOCK / sizeof(probe_event_t), total);
    } else
        cr_assert_eq(s.records + s.overwritten, total, "point %d: %llu saved + %u overwritten != %llu", where,
                     (unsigned long long)s.records, s.overwritten, (unsigned long long)total);
    free(m.data);
    free(mem);
}

Test(cyclic, stale_context_before_taking_a_block)
{
    stall_case(1, 0);
    stall_case(1, 2);
}

Test(cyclic, stale_context_before_writing_the_headers)
{
    stall_case(2, 0);
    stall_case(2, 2);
}

/* ---- a record reserved and not committed for laps of the ring (EVREC_CYCLIC_GUARD) ----
 * One thread reserves a probe record and leaves it uncommitted (as a context preempted between
 * evrec_reserve() and evrec_commit() would) while it records laps of the ring. The guard's check
 * of a block before reuse must see the uncommitted record and skip its slot: the record's bytes
 * stay untouched, and once it is committed the slot is reused and every record is saved or
 * counted. The record sits first in its block, in the middle, or last, after records of one
 * size or of mixed sizes (the walk that checks a block predicts a record's size from the one
 * before it). */
static void uncommitted_case(size_t target, int mixed)
{
    enum { BLOCK = 256, BLOCKS = 16 };
    size_t size = EVREC_CYCLIC_BUFFER_SIZE(BLOCKS, BLOCK);
    void *mem = aligned_alloc(64, size);
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, size, BLOCK), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 0), EVREC_OK);
    const uint8_t *records = evrec_recorder_records(&rec);
    const uint32_t lap = BLOCKS * (BLOCK - EVREC_BLOCK_HEADER) / sizeof(probe_event_t);
    big_event_t big = {0};
    uint64_t total = 2; /* Start, Stop */
    uint32_t seq = 0;
    /* a lap first, then reserve until a probe lands at `target` in its block: that one stays
     * uncommitted */
    probe_event_t *stale = NULL;
    for (uint32_t i = 0; stale == NULL; i++) {
        cr_assert_lt(i, 10 * lap, "no probe landed at offset %zu", target);
        if (mixed && (i * 2654435761u) >> 30 == 1) { /* a quarter of them, irregularly */
            cr_assert_eq(evrec_record(&host, PROBE_EVENT_BIG, &big), EVREC_OK);
            total++;
            continue;
        }
        probe_event_t *e = evrec_reserve(&host, sizeof *e);
        cr_assert_not_null(e);
        total++;
        if (i >= lap && (size_t)((const uint8_t *)e - records) % BLOCK == target) {
            e->source = 1;
            e->seq = 0;
            e->check = probe_check(1, 0);
            stale = e;
        } else {
            e->source = 0;
            e->seq = seq;
            e->check = probe_check(0, seq);
            seq++;
            evrec_commit(e, PROBE_EVENT_PROBE);
        }
    }
    /* three laps while it is uncommitted: its block is skipped, never cleared or reused */
    for (uint32_t i = 0; i < 3 * lap; i++) {
        cr_assert(probe_record(&host, 0, seq++));
        total++;
        if (mixed && i % 3 == 1) {
            cr_assert_eq(evrec_record(&host, PROBE_EVENT_BIG, &big), EVREC_OK);
            total++;
        }
    }
    cr_assert_eq(__atomic_load_n(&stale->id, __ATOMIC_ACQUIRE), EVREC_ID_PROVISIONAL(sizeof *stale),
                 "offset %zu: the slot was reused", target);
    cr_assert_eq(stale->source, 1, "offset %zu: the slot was cleared or reused", target);
    cr_assert_eq(stale->check, probe_check(1, 0), "offset %zu: the slot was cleared or reused", target);
    evrec_commit(stale, PROBE_EVENT_PROBE);
    /* two more laps: the block is reused now, its records counted as overwritten */
    for (uint32_t i = 0; i < 2 * lap; i++) {
        cr_assert(probe_record(&host, 0, seq++));
        total++;
    }
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    evrec_recorder_counts_t c = evrec_recorder_counts(&rec);
    cr_assert_eq(c.dropped, 0);
    cr_assert_eq(c.recorded + c.overwritten, total, "offset %zu: %llu kept + %llu overwritten != %llu", target,
                 (unsigned long long)c.recorded, (unsigned long long)c.overwritten, (unsigned long long)total);
    mem_sink_t m = {0};
    evrec_sink_t sink = mem_sink_of(&m);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    seen_t s;
    read_back(&m, &s);
    cr_assert_not(s.damaged);
    cr_assert_not(s.out_of_order);
    cr_assert_eq(s.records, c.recorded);
    cr_assert_eq(s.last_seq[0], seq - 1);
    free(m.data);
    free(mem);
}

Test(cyclic, uncommitted_record_keeps_its_block)
{
#if EVREC_CYCLIC_GUARD
    const size_t last = 256 - sizeof(probe_event_t);
    for (int mixed = 0; mixed <= 1; mixed++) {
        uncommitted_case(EVREC_BLOCK_HEADER, mixed);
        uncommitted_case(EVREC_BLOCK_HEADER + 5 * sizeof(probe_event_t), mixed);
        uncommitted_case(last, mixed);
    }
#else
    cr_skip("EVREC_CYCLIC_GUARD is 0: a record left uncommitted for a lap is not detected");
#endif
}
