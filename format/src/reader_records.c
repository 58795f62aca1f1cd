/* SPDX-License-Identifier: Apache-2.0 */
/* Record iteration and time restoration (FORMAT.md section 5; EventView's 64-bit time rule). */
#include <stdlib.h>

#include "evrec/evrec_container.h"
#include "reader_internal.h"

uint64_t evrec_time_extend(uint64_t t64, uint32_t prev32, uint32_t t32)
{
    return rd_time_extend(t64, prev32, t32);
}

uint64_t evrec_ticks_to_ns(uint64_t ticks, uint64_t freq)
{
    if (freq == 0) {
        return 0;
    }
    if (freq == 1000000000u) {
        return ticks; /* a host clock: no division */
    }
    if (ticks <= UINT64_MAX / 1000000000u) {
        return ticks * 1000000000u / freq; /* fits in 64 bits: no 128-bit division */
    }
#ifdef __SIZEOF_INT128__
    unsigned __int128 ns = (unsigned __int128)ticks * 1000000000u / freq;
    return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
#else
    /* ticks = q * freq + rem: ns = q * 1e9 + rem * 1e9 / freq; the remainder term in long double
     * (exact enough: it is below 1e9). */
    uint64_t q = ticks / freq, rem = ticks % freq;
    if (q > UINT64_MAX / 1000000000u) {
        return UINT64_MAX;
    }
    return q * 1000000000u + (uint64_t)((long double)rem * 1e9L / (long double)freq);
#endif
}

void rd_ns_conv_init(rd_ns_conv_t *cv, uint64_t freq)
{
    cv->freq = freq;
    cv->m_lo = cv->m_hi = 0;
    cv->c = 0;
#ifdef __SIZEOF_INT128__
    if (freq != 0) {
        unsigned c = freq == 1 ? 0 : 64u - (unsigned)__builtin_clzll(freq - 1); /* ceil(log2 freq) */
        /* m - 1 = floor(a x 2^64 / freq) with a = 1e9 x 2^c < 2^94: long division in two steps. */
        unsigned __int128 a = (unsigned __int128)1000000000u << c;
        unsigned __int128 q_hi = a / freq; /* < 2^31 */
        unsigned __int128 rem = a % freq;
        uint64_t q_lo = (uint64_t)((rem << 64) / freq);
        unsigned __int128 m = (q_hi << 64) + q_lo + 1;
        cv->m_lo = (uint64_t)m;
        cv->m_hi = (uint64_t)(m >> 64);
        cv->c = c;
    }
#endif
}

/* Frequency from ticks: tick_hz x mean tick-to-tick interval, rounded to whole Hz. */
static uint64_t freq_from_ticks(uint64_t ticks, uint64_t first, uint64_t last, uint32_t tick_hz)
{
    if (ticks < 2 || last <= first || tick_hz == 0) {
        return 0;
    }
    uint64_t n = ticks - 1;
#ifdef __SIZEOF_INT128__
    unsigned __int128 f = ((unsigned __int128)(last - first) * tick_hz + n / 2) / n;
    return f > UINT64_MAX ? UINT64_MAX : (uint64_t)f;
#else
    long double f = (long double)(last - first) * tick_hz / (long double)n + 0.5L;
    return f >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)f;
#endif
}

/* Read the file once more with a second reader to find the ticks. 0 when impossible. */
static uint64_t prepass(evrec_reader_t *r, uint32_t tick_hz)
{
    evrec_reader_t *sub = NULL;
    evrec_reader_options_t o = {0, 0};
    int64_t cur = -1;
    rd_source_t *s = &r->src;
    if (s->kind == SRC_MEMORY) {
        evrec_reader_open_memory(&sub, s->mem, s->mem_size, &o);
    } else if (s->path) {
        evrec_reader_open_path(&sub, s->path, &o);
    } else if (s->seekable) {
        cur = ftello(s->f);
        if (cur < 0 || fseeko(s->f, (off_t)s->file_start, SEEK_SET) != 0) {
            return 0;
        }
        evrec_reader_open_file(&sub, s->f, &o);
    }
    uint64_t f = 0;
    if (sub) {
        sub->time.no_prepass = 1;
        sub->time.resolved = 1; /* the sub-reader needs no ns */
        evrec_record_t rec;
        while (evrec_reader_next(sub, &rec) == EVREC_OK) {
        }
        f = freq_from_ticks(sub->iter.ticks, sub->iter.first_tick_t64, sub->iter.last_tick_t64, tick_hz);
        evrec_reader_close(sub);
    }
    if (cur >= 0) {
        clearerr(s->f);
        fseeko(s->f, (off_t)cur, SEEK_SET);
    }
    return f;
}

static uint32_t tick_rate(const evrec_reader_t *r)
{
    return r->opt.tick_hz ? r->opt.tick_hz : EVREC_READER_DEFAULT_TICK_HZ;
}

/* Decide the frequency. With no_prepass set, a frequency that needs the ticks stays unresolved
 * (the caller derives it from the ticks of its own pass). */
static void resolve_freq(evrec_reader_t *r)
{
    if (r->time.resolved) {
        return;
    }
    if (r->opt.time_freq) {
        r->time.freq = r->opt.time_freq;
        r->time.source = EVREC_TIME_OPTION;
    } else if (!r->opt.tick_hz && r->info.time_freq) {
        r->time.freq = r->info.time_freq;
        r->time.source = EVREC_TIME_FILE;
    } else if (r->time.no_prepass) {
        return;
    } else {
        r->time.freq = prepass(r, tick_rate(r));
        r->time.source = r->time.freq ? EVREC_TIME_TICKS : EVREC_TIME_UNKNOWN;
    }
    r->time.resolved = 1;
}

void rd_resolve_freq_from_own_ticks(evrec_reader_t *r)
{
    if (r->time.resolved) {
        return;
    }
    r->time.freq = freq_from_ticks(r->iter.ticks, r->iter.first_tick_t64, r->iter.last_tick_t64, tick_rate(r));
    r->time.source = r->time.freq ? EVREC_TIME_TICKS : EVREC_TIME_UNKNOWN;
    r->time.resolved = 1;
}

uint64_t evrec_reader_time_freq(evrec_reader_t *r, evrec_time_source *source)
{
    if (!r || !r->opened) {
        if (source) {
            *source = EVREC_TIME_UNKNOWN;
        }
        return 0;
    }
    int saved = r->time.no_prepass;
    r->time.no_prepass = 0;
    resolve_freq(r);
    r->time.no_prepass = saved;
    if (source) {
        *source = r->time.source;
    }
    return r->time.freq;
}

static evrec_status end_of_stream(evrec_reader_t *r, uint64_t end_off)
{
    evrec_status st = rd_finish_stream(r, end_off);
    if (st != EVREC_OK) {
        return st;
    }
    if (r->stream.container && r->info.recorded != UINT64_MAX && r->iter.index != r->info.recorded &&
        r->errs.first.status == EVREC_OK) {
        /* Every chunk's CRC checked, yet the count differs: whole chunks were moved, copied or
         * removed after the save (a version 1.3 file's SEQ chunks name them, FORMAT.md 2.4). */
        int more = r->iter.index > r->info.recorded;
        return rd_fail(
            r, EVREC_E_CORRUPT, 24,
            "the header says %llu records were saved, the stream holds %llu: %llu records %s, with "
            "every chunk's CRC-32C good (%s)",
            (unsigned long long)r->info.recorded, (unsigned long long)r->iter.index,
            (unsigned long long)(more ? r->iter.index - r->info.recorded : r->info.recorded - r->iter.index),
            more ? "too many" : "missing",
            more ? "STREAM chunks duplicated, or chunks of another recording inserted; records after "
                   "them are shown under wrong indices"
                 : "whole STREAM chunks removed; records after them are shown under wrong indices");
    }
    r->iter.done = 1;
    rd_field_info_deferred(r); /* every record was returned; the display attributes were bad */
    rd_tracks_deferred(r);     /* every record was returned; the TRACKS chunk was bad */
    /* Damage the reader went on after: the first one is the result, instead of EVREC_E_END. */
    return r->errs.first.status != EVREC_OK ? r->errs.first.status : EVREC_E_END;
}

/* An unknown event id. In a container whose chunks are intact, or after a gap, the rest of the
 * chunk cannot be framed: it is skipped and the records resume at the next STREAM chunk (a
 * damaged range). Returns 1 to go on, 0 when the reader stopped (bare CCore streams). */
static int bad_id(evrec_reader_t *r, uint16_t id, uint64_t off)
{
    if (!r->stream.container) {
        rd_fail(r, EVREC_E_BAD_ID, off, "record at offset %llu has event id %u; the meta-info has events 0..%u",
                (unsigned long long)off, (unsigned)id, (unsigned)(r->tables.meta.event_count - 1));
        return 0;
    }
    uint64_t end = r->stream.seg_file_off + r->stream.seg_len;
    rd_damage(r, EVREC_E_BAD_ID, off, end - off,
              "record at offset %llu has event id %u; the meta-info has events 0..%u: the rest of the STREAM "
              "chunk (%llu bytes) is skipped",
              (unsigned long long)off, (unsigned)id, (unsigned)(r->tables.meta.event_count - 1),
              (unsigned long long)(end - off));
    r->stream.seg_pos = r->stream.seg_len;
    r->resync.discont = 1;
    return 1;
}

/* What next_any() got from the stream: a record, a status to return, or a reason to look again
 * (a gap to resume after, an unknown id whose chunk was skipped). */
enum { GOT_RECORD, GOT_STATUS, GOT_RETRY };

/* The id of the record at h, checked; GOT_RETRY when it is unknown and the chunk was skipped,
 * GOT_STATUS when the reader stopped there. */
static int record_id(evrec_reader_t *r, const uint8_t *h, uint64_t off, uint16_t *id)
{
    *id = rd_be16(h + 4);
    if (*id < r->tables.meta.event_count) {
        return GOT_RECORD;
    }
    return bad_id(r, *id, off) ? GOT_RETRY : GOT_STATUS;
}

/* A record straddling two segments (or the stream's end): assembled in r->iter.rec. */
static int record_straddling(evrec_reader_t *r, uint64_t off, const uint8_t **d, uint16_t *id, uint32_t *size)
{
    if (!rd_need_slow(r, 6, r->iter.rec, "a record or the End record", off, 0)) {
        return r->resync.resuming ? GOT_RETRY : GOT_STATUS;
    }
    int got = record_id(r, r->iter.rec, off, id);
    if (got != GOT_RECORD) {
        return got;
    }
    *size = r->tables.save_len[*id];
    char what[64 + EVREC_READER_MAX_NAME];
    snprintf(what, sizeof what, "the %s record (%u bytes)", evrec_reader_event_name(r, *id), (unsigned)*size);
    if (!rd_need_slow(r, *size - 6, r->iter.rec + 6, what, off, 6)) {
        return r->resync.resuming ? GOT_RETRY : GOT_STATUS;
    }
    *d = r->iter.rec;
    return GOT_RECORD;
}

/* The bytes of the record at `off` (*d), its id and size. */
static int record_bytes(evrec_reader_t *r, uint64_t off, const uint8_t **d, uint16_t *id, uint32_t *size)
{
    *d = NULL;
    if (r->stream.seg_len - r->stream.seg_pos >= 6) {
        /* Fast path: the record lies in the current segment. */
        const uint8_t *h = r->stream.seg + r->stream.seg_pos;
        int got = record_id(r, h, off, id);
        if (got != GOT_RECORD) {
            return got;
        }
        *size = r->tables.save_len[*id];
        if (r->stream.seg_len - r->stream.seg_pos >= *size) {
            *d = h;
            r->stream.seg_pos += *size;
            return GOT_RECORD;
        }
    }
    return record_straddling(r, off, d, id, size);
}

/* The 64-bit time of a record with 32-bit time t; counts a Tick. */
static void advance_time(evrec_reader_t *r, uint32_t t, int tick)
{
    if (!r->iter.started) {
        r->iter.started = 1;
        r->iter.t64 = 0;
    } else {
        r->iter.t64 = rd_time_extend(r->iter.t64, r->iter.prev32, t);
    }
    r->iter.prev32 = t;
    if (tick) {
        if (r->iter.ticks == 0) {
            r->iter.first_tick_t64 = r->iter.t64;
        }
        r->iter.last_tick_t64 = r->iter.t64;
        r->iter.ticks++;
    }
}

/* *rec for the record d (id, size, at `off`) whose time was just restored. */
static void fill_record(evrec_reader_t *r, evrec_record_t *rec, const uint8_t *d, uint16_t id, uint32_t size,
                        uint64_t off)
{
    rec->lane = rd_lane_of(r, r->iter.index);
    rec->index = r->iter.index++;
    rec->offset = off;
    rec->id = id;
    rec->time32 = r->iter.prev32;
    rec->t64 = r->iter.t64;
    if (r->time.resolved) {
        if (__builtin_expect(r->time.ns_conv.freq != r->time.freq, 0)) { /* the first record, or a new frequency */
            rd_ns_conv_init(&r->time.ns_conv, r->time.freq);
        }
        rec->ns = rd_ns_conv(&r->time.ns_conv, r->iter.t64);
    } else {
        rec->ns = 0;
    }
    rec->data = d;
    rec->size = size;
    rec->unverified = r->stream.seg_unverified;
    rec->gap = (uint8_t)r->iter.gap_next;
    r->iter.gap_next = 0;
}

/* The whole of evrec_reader_next(): every case (the first call, a segment's end, a record that
 * straddles segments, control records, resuming after damage, errors). Out of line so that the
 * common case below stays short. */
static __attribute__((noinline)) evrec_status next_any(evrec_reader_t *r, evrec_record_t *rec)
{
    if (!r || !rec) {
        return EVREC_E_ARG;
    }
    if (r->errs.halt) {
        return r->errs.first.status;
    }
    if (!r->opened) {
        return EVREC_E_ARG;
    }
    if (r->iter.done) {
        return r->errs.first.status != EVREC_OK ? r->errs.first.status : EVREC_E_END;
    }
    if (!r->time.resolved) {
        resolve_freq(r);
    }
    uint64_t off;
    const uint8_t *d;
    uint16_t id;
    uint32_t size;
    int got;
    do {
        off = rd_item_offset(r);
        if (r->resync.resuming) {
            rd_resume(r);
        }
        got = record_bytes(r, off, &d, &id, &size);
    } while (got == GOT_RETRY);
    if (got == GOT_STATUS) {
        return r->errs.first.status;
    }
    int control = id == r->tables.ctrl_id;
    if (control && d[6] == EVREC_CONTROL_END) {
        return end_of_stream(r, off);
    }
    if (r->resync.sync_time) {
        rd_sync_time(r); /* the first record after a SYNC chunk (FORMAT.md section 2.2) */
    }
    advance_time(r, rd_be32(d), control && d[6] == EVREC_CONTROL_TICK);
    fill_record(r, rec, d, id, size, off);
    return EVREC_OK;
}

/* The common case of next_any(), with the same result: a data record (not EventControl) that
 * lies whole in the current segment, the frequency decided, no gap to resume after, a file
 * without lanes. */
evrec_status evrec_reader_next(evrec_reader_t *r, evrec_record_t *rec)
{
    if (__builtin_expect(!r || !rec || r->errs.halt || !r->opened || r->iter.done || !r->time.resolved ||
                             r->resync.resuming || r->time.ns_conv.freq != r->time.freq || r->lanes.counts,
                         0)) {
        return next_any(r, rec); /* (it also makes ns_conv for a new frequency) */
    }
    size_t pos = r->stream.seg_pos, left = r->stream.seg_len - pos;
    if (__builtin_expect(left < 6, 0)) {
        return next_any(r, rec); /* the segment's end, or a record straddling two */
    }
    const uint8_t *h = r->stream.seg + pos;
    uint16_t id = rd_be16(h + 4);
    if (__builtin_expect(id >= r->tables.meta.event_count || id == r->tables.ctrl_id, 0)) {
        return next_any(r, rec);
    }
    uint32_t size = r->tables.save_len[id];
    if (__builtin_expect(left < size, 0)) {
        return next_any(r, rec);
    }
    r->stream.seg_pos = pos + size;
    uint32_t t = rd_be32(h);
    uint64_t t64 = r->iter.started ? rd_time_extend(r->iter.t64, r->iter.prev32, t) : 0;
    r->iter.started = 1;
    r->iter.t64 = t64;
    r->iter.prev32 = t;
    rec->lane = 0; /* a file with lanes takes next_any() */
    rec->index = r->iter.index++;
    rec->offset = r->stream.seg_file_off + pos;
    rec->id = id;
    rec->time32 = t;
    rec->t64 = t64;
    rec->ns = rd_ns_conv(&r->time.ns_conv, t64);
    rec->data = h;
    rec->size = size;
    rec->unverified = r->stream.seg_unverified;
    rec->gap = (uint8_t)r->iter.gap_next;
    r->iter.gap_next = 0;
    return EVREC_OK;
}

/* ---- fast-forward (evrec/evrec_reader_seek.h) ------------------------------------------------
 * The records before the target are walked in the current segment without filling a record or
 * converting time; a record that straddles segments, a segment's end (next chunk: its CRC is
 * checked as always), the End record and every error go through evrec_reader_next(), so the
 * stream, time, tick and damage rules stay those of evrec_reader_next(). */
evrec_status evrec_reader_next_at(evrec_reader_t *r, evrec_record_t *rec, uint64_t min_index, uint64_t min_t64)
{
    if (!r || !rec) {
        return EVREC_E_ARG;
    }
    /* One jump per call: it lands on the last SYNC point before the target, so a second bisection
     * from further on could not go further. */
    if (r->opened && !r->iter.done && !r->errs.halt) {
        rd_seek_sync(r, min_index, min_t64);
    }
    for (;;) {
        if (r->opened && !r->iter.done && !r->errs.halt && r->time.resolved) {
            /* Skip whole records of the current segment while they are before the target. */
            const uint8_t *seg = r->stream.seg;
            size_t pos = r->stream.seg_pos, len = r->stream.seg_len;
            uint64_t index = r->iter.index, t64 = r->iter.t64, ticks = r->iter.ticks;
            uint32_t prev32 = r->iter.prev32;
            int started = r->iter.started;
            while (len - pos >= 6) {
                const uint8_t *h = seg + pos;
                uint16_t id = rd_be16(h + 4);
                if (id >= r->tables.meta.event_count) {
                    break; /* evrec_reader_next() reports it */
                }
                uint32_t size = r->tables.save_len[id];
                if (len - pos < size || (id == r->tables.ctrl_id && h[6] == EVREC_CONTROL_END)) {
                    break;
                }
                uint32_t t = rd_be32(h);
                uint64_t t64n = started ? rd_time_extend(t64, prev32, t) : 0;
                if (index >= min_index && t64n >= min_t64) {
                    break; /* the target: evrec_reader_next() returns it */
                }
                if (id == r->tables.ctrl_id && h[6] == EVREC_CONTROL_TICK) {
                    if (ticks == 0) {
                        r->iter.first_tick_t64 = t64n;
                    }
                    r->iter.last_tick_t64 = t64n;
                    ticks++;
                }
                started = 1;
                t64 = t64n;
                prev32 = t;
                index++;
                pos += size;
            }
            r->stream.seg_pos = pos;
            r->iter.index = index;
            r->iter.t64 = t64;
            r->iter.prev32 = prev32;
            r->iter.started = started;
            r->iter.ticks = ticks;
        }
        evrec_status st = evrec_reader_next(r, rec);
        if (st != EVREC_OK || (rec->index >= min_index && rec->t64 >= min_t64)) {
            return st;
        }
    }
}
