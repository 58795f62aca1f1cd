/* SPDX-License-Identifier: Apache-2.0 */
/* Private declarations shared by the reader's files (the .c files of format/src). Not installed.
 *
 * The reader is made of named sub-objects, the members of struct evrec_reader below. Each has a
 * home file that documents its fields and frees it; the files named after it change it too:
 *   src     source        reader_source.c (only): bytes in, a path, a FILE* or memory
 *   errs    errors        reader_error.c (only): the sticky error, halting, the damaged ranges
 *   stream  chunk stream  reader_stream.c: chunks, CRC, segments; placed by reader_header.c,
 *                         reader_copy.c, reader_resync.c, reader_open.c (damaged meta-info);
 *                         reader_chunk.c (a repaired header word); reader_records.c consumes it
 *   order   chunk order   reader_seq.c: SEQ chunks, the TAIL chunk; reader_header.c,
 *                         reader_copy.c, reader_stream.c, reader_resync.c (what is known)
 *   copy    copies        reader_copy.c (only): the meta-info read from its COPY chunk
 *   resync  resync        reader_resync.c: SYNC points, gaps after damage; the gaps and SYNC
 *                         chunks that reader_stream.c, reader_seq.c, reader_copy.c,
 *                         reader_open.c and reader_records.c find
 *   tables  tables        reader_meta.c: the meta-info; reader_names.c (names),
 *                         reader_runtime_enums.c, reader_field_info.c and reader_tracks.c (their
 *                         entries in meta); reader_open.c (drops a damaged meta-info)
 *   fi, vw, lanes         reader_field_info.c, reader_tracks.c, lanes.c (only): chunks beside the stream
 *   losses  stream losses reader_losses.c (only): the LOSSES chunk
 *   index   seek index    reader_index.c (only): the INDEX chunk, its entries checked
 *   attrs   attributes    reader_attrs.c (only): the ATTRS chunk
 *   iter    records       reader_records.c: iteration, 64-bit time; reader_resync.c (resume, seek)
 *   time    time base     reader_records.c: the frequency, ticks to ns; reader_summary.c
 *
 * Files call "down" only. A file may call a function of another file only when that file's layer
 * is LOWER (files of one layer never call each other), so there is no circular call. Checked by
 * tests/docs/check_reader_layers.py (a ctest), which reads this table:
 *
 * layer file                     calls (besides errors and source)
 *   0   reader_source.c          -
 *   0   schema_hash.c            -
 *   1   reader_error.c           -
 *   1   reader_names.c           -
 *   2   reader_runtime_enums.c   -
 *   2   reader_field_info.c      names
 *   2   reader_tracks.c            names
 *   2   lanes.c                  -
 *   2   reader_losses.c          -
 *   2   reader_attrs.c           -
 *   2   reader_chunk.c           -
 *   3   reader_fields.c          field info
 *   3   reader_seq.c             -
 *   4   reader_copy.c            chunk, side tables (runtime enums, field info, tracks, lanes)
 *   4   reader_header.c          chunk, seq (the TAIL chunk)
 *   5   reader_stream.c          chunk, seq, side tables
 *   5   reader_index.c           chunk (parse a SYNC chunk)
 *   6   reader_resync.c          chunk (find a SYNC chunk), lanes
 *   7   reader_meta.c            stream, names, runtime enums, tracks, field info, fields, hash
 *   8   reader_open.c            header, copy, meta, stream, frees
 *   9   reader_records.c         stream, resync, field info, tracks (deferred errors), open (the
 *                                tick pre-pass opens a second reader)
 *  10   reader_summary.c         records
 *  10   reader_order.c           records
 */
#ifndef EVREC_READER_INTERNAL_H
#define EVREC_READER_INTERNAL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "evrec/evrec_index.h"
#include "evrec/evrec_reader.h"

/* ---- byte source: path, FILE* or memory; 64-bit offsets (reader_source.c) ---- */

enum { SRC_MEMORY = 1, SRC_FILE = 2 };

typedef struct rd_source {
    int kind;
    FILE *f;            /* SRC_FILE */
    int own_file;       /* 1: opened by the reader from `path` */
    char *path;         /* copy of the path, for the tick pre-pass (NULL otherwise) */
    int seekable;       /* FILE* can be repositioned (regular file) */
    int64_t file_start; /* ftello() of `f` at open */
    const uint8_t *mem; /* SRC_MEMORY */
    size_t mem_size;
    uint64_t pos;     /* offset of the next byte to consume */
    uint64_t raw_pos; /* offset of the next byte below the look-ahead (memory) */
    uint64_t size;    /* total bytes, when size_known */
    int size_known;
    int io_errno;     /* errno of a read error, 0 if none */
    uint8_t peek[64]; /* bytes looked at but not consumed yet (the header probe) */
    size_t peek_len, peek_pos;
} rd_source_t;

/* Open: a path (0 on success, 1 out of memory, 2 fopen failed with errno set), a FILE* at its
 * current position (not closed by src_close) or memory (not copied: the caller keeps it). */
int src_open_path(rd_source_t *s, const char *path);
void src_open_file(rd_source_t *s, FILE *f);
void src_open_memory(rd_source_t *s, const void *data, size_t size);
void src_close(rd_source_t *s);
/* Bytes left after `pos`, or UINT64_MAX when the size is unknown. */
uint64_t src_remaining(const rd_source_t *s);
/* Look at up to n (<= 64) first bytes without consuming them; returns how many exist. */
size_t src_peek(rd_source_t *s, size_t n, const uint8_t **p);
/* Consume up to n bytes into dst; returns the count (short at end of file or on error). */
size_t src_read(rd_source_t *s, void *dst, size_t n);
/* Consume up to n bytes and return a pointer to them: into memory for SRC_MEMORY, else into
 * *buf (grown as needed, *cap updated). *got = bytes available (< n at end of file). NULL only
 * when memory for *buf cannot be allocated. */
const uint8_t *src_view(rd_source_t *s, size_t n, size_t *got, uint8_t **buf, size_t *cap);
/* 1: the source can be read at any offset (memory, or a regular file of known size). */
int src_random_access(const rd_source_t *s);
/* Read up to n bytes at offset `off` without moving the position (random-access sources only);
 * returns the count (0 past the end or when not random access). */
size_t src_pread(rd_source_t *s, uint64_t off, void *dst, size_t n);
/* Move the position to `off` (random-access sources only; the look-ahead is dropped). 0 on
 * success, -1 otherwise. */
int src_seek(rd_source_t *s, uint64_t off);

/* ---- tables read from the file (reader_meta.c) ---- */

typedef struct rd_enum {
    evrec_enum_value_t *all; /* every value in file order (static and run-time) */
    uint32_t all_count;
    uint32_t *sorted;            /* indices into `all`, by value (stable) */
    evrec_enum_value_t *statics; /* `all` minus run-time ranges: the exposed values */
    evrec_runtime_enum_t runtime;
    const char **rt_names;
    int has_runtime;
    int has_markers;
} rd_enum_t;

/* How to find an event's marker in its packed record (EventView rule). */
typedef struct rd_marker_field {
    int32_t offset; /* -1: the event has no marker field */
    uint8_t kind;
    uint16_t enum_id;
} rd_marker_field_t;

/* Simple arena for names. */
typedef struct rd_block {
    struct rd_block *next;
    size_t used, cap;
    char data[];
} rd_block_t;

/* A SYNC chunk's payload (FORMAT.md section 2.2) and where it was. */
typedef struct rd_sync {
    uint64_t index, t64, t64_max, ticks;
    uint32_t prev32;
    uint32_t crc; /* the chunk's stored CRC-32C (a SEQ chunk names it) */
    uint64_t off;
} rd_sync_t;

/* A SEQ chunk's payload (FORMAT.md section 2.4) and where it was. */
typedef struct rd_seq {
    uint32_t file_id, seq, stream_crc, sync_crc;
    uint64_t off;
} rd_seq_t;

/* The TAIL chunk (FORMAT.md section 2.4), read at open from the end of a random-access file. */
typedef struct rd_tail {
    int ok;
    uint64_t copy_off; /* the first COPY chunk (the TAIL chunk says how many bytes before it) */
    uint64_t off;      /* the TAIL chunk */
    uint32_t file_id, stream_chunks;
    uint8_t header[48];
} rd_tail_t;

/* ---- ticks to ns with a precomputed multiply-shift (reader_records.c) ----
 * The same result as evrec_ticks_to_ns(ticks, freq) = floor(ticks x 1e9 / freq), saturated at
 * UINT64_MAX, for every ticks and freq (tested against the division in
 * tests/reader/test_reader_time.c), without a division per record:
 *   ns = floor(ticks x m / 2^(64 + c)),  c = ceil(log2 freq),  m = floor(2^(64 + c) x 1e9 / freq) + 1.
 * Why it is exact: m = 2^(64 + c) x 1e9 / freq + e with 0 < e <= 1, so
 * ticks x m / 2^(64 + c) = ticks x 1e9 / freq + ticks x e / 2^(64 + c), and the added term is
 * below 1 / freq (ticks < 2^64, 2^c >= freq). ticks x 1e9 / freq is a multiple of 1 / freq whose
 * fractional part is at most (freq - 1) / freq, so adding less than 1 / freq never reaches the
 * next integer: both floors agree. m < 2^95 (2^c < 2 freq), held as m_hi x 2^64 + m_lo. */
typedef struct rd_ns_conv {
    uint64_t freq; /* the frequency it was made for (0: unknown, ns 0) */
    uint64_t m_lo, m_hi;
    unsigned c;
} rd_ns_conv_t;

/* Set up cv for freq (any value; 0 gives 0 ns). */
void rd_ns_conv_init(rd_ns_conv_t *cv, uint64_t freq);

#ifdef __SIZEOF_INT128__
static inline uint64_t rd_ns_conv(const rd_ns_conv_t *cv, uint64_t ticks)
{
    /* No special case: freq 0 has m = 0 (ns 0), 1 GHz m = 2^94 + 1 and c = 30 (ns = ticks).
     * ticks x m / 2^64 < 2^96: (ticks x m_hi) + high word of (ticks x m_lo); two independent
     * multiplications. */
    unsigned __int128 p = (unsigned __int128)ticks * cv->m_hi +
                          (uint64_t)(((unsigned __int128)ticks * cv->m_lo) >> 64);
    p >>= cv->c;
    return (uint64_t)(p >> 64) ? UINT64_MAX : (uint64_t)p;
}
#else
static inline uint64_t rd_ns_conv(const rd_ns_conv_t *cv, uint64_t ticks)
{
    return evrec_ticks_to_ns(ticks, cv->freq);
}
#endif

/* ---- the reader: its sub-objects ---- */

/* errors (reader_error.c): the sticky error and the damaged ranges. */
typedef struct rd_errors {
    evrec_reader_error_t first; /* the first problem (status EVREC_OK if none); never overwritten */
    int halt;                   /* a problem the reader cannot go on after (rd_fail) */
    evrec_damage_t *damage;     /* damaged ranges, in file order (at most RD_MAX_DAMAGE) */
    uint32_t damage_count;
    uint64_t damage_total; /* including those beyond RD_MAX_DAMAGE */
} rd_errors_t;

/* chunk stream (reader_stream.c; reader_header.c and reader_copy.c set it up): the bytes of the
 * CCore stream being consumed, one segment (a STREAM chunk's payload, or a block of a bare file)
 * at a time. */
typedef struct rd_stream {
    const uint8_t *seg;
    size_t seg_len, seg_pos;
    uint64_t seg_file_off;  /* file offset of seg[0] */
    int container;          /* an evrec file (else a bare CCore stream) */
    int seg_unverified;     /* seg is the payload of a truncated chunk, its CRC unchecked */
    uint64_t seg_chunk_off; /* file offset of the chunk holding seg (container) */
    uint8_t *buf;           /* owned buffer behind seg for file sources */
    size_t buf_cap;
    int started;             /* a STREAM chunk has been seen */
    int over;                /* no more stream bytes: END chunk, EOF or damage */
    uint32_t trunc_declared; /* payload length declared by the truncated chunk being served */
    int end_chunk_seen;      /* the END chunk was read (CRC good) */
    uint64_t end_chunk_off;
    int seg_damaged; /* the current segment's chunk failed its CRC (meta-info only) */
    int fix_pending; /* the chunk header at fix_off is read as fix_word (repaired) */
    uint64_t fix_off;
    uint8_t fix_word[4];
    int meta_damaged; /* the meta-info was read (in part) from such a chunk */
    uint64_t meta_damage_off;
    uint8_t tmp[EVREC_READER_MAX_NAME + 8]; /* assembly of items that straddle segments */
} rd_stream_t;

/* resync (reader_stream.c, reader_seq.c, reader_resync.c): SYNC points and gaps after damage. */
typedef struct rd_resync {
    rd_sync_t sync;   /* the last SYNC chunk read */
    int sync_pending; /* it applies to the next STREAM chunk */
    int seg_sync;     /* the current segment came right after `sync` */
    int discont;      /* stream bytes were lost: the next segment starts after a gap */
    int resuming;     /* the current segment starts after a gap: restart the item */
    int sync_time;    /* the current segment came right after `sync`, no gap: its first record's
                         time goes on from `sync` (rd_sync_time) */
} rd_resync_t;

/* order of STREAM chunks (reader_seq.c; version 1.3) and the TAIL chunk. */
typedef struct rd_order {
    int mode;    /* SEQ chunks are expected (version >= 1.3, or one was seen) */
    int pending; /* `seq` names the next STREAM chunk */
    int lost;    /* the SEQ chunk of the next STREAM chunk was damaged */
    rd_seq_t seq;
    int known;         /* `expected` is known (not after a seek) */
    uint32_t expected; /* number of the next STREAM chunk */
    int file_id_known;
    uint32_t file_id;
    uint32_t phys; /* STREAM chunks with a SEQ chunk met so far (their place in the file) */
    rd_tail_t tail;
} rd_order_t;

/* the copies at the end (reader_copy.c): the meta-info read from its COPY chunk, or NULL. */
typedef struct rd_copy {
    uint8_t *meta;
    size_t meta_len;
    uint64_t meta_off;
} rd_copy_t;

/* tables (reader_meta.c; names: reader_names.c; rt_*: reader_runtime_enums.c). */
typedef struct rd_tables {
    evrec_meta_t meta;
    int have_meta;
    uint32_t *save_len; /* per event */
    uint16_t ctrl_id;
    rd_block_t *names;
    evrec_enum_desc_t *enums;
    rd_enum_t *renums;
    evrec_struct_desc_t *structs;
    evrec_field_desc_t **fields; /* per struct */
    evrec_event_desc_t *events;
    rd_marker_field_t *markers; /* per event */
    /* run-time ranges of the RUNTIME_ENUMS chunk, until the meta-info is read */
    uint32_t rt_count;
    uint32_t *rt_ranges; /* rt_count x {enum_id, base, lim} */
    uint64_t rt_offset;  /* file offset of the chunk */
} rd_tables_t;

/* FIELD_INFO chunk (reader_field_info.c): the payload is kept until the meta-info is read, then
 * parsed into entries; a bad chunk is a deferred error (err), reported when the stream has been
 * read to its end, so that no record is lost over display attributes. */
typedef struct rd_field_info {
    uint8_t *raw; /* copy of the payload, NULL when no chunk was seen */
    uint32_t raw_len;
    uint64_t offset;             /* file offset of the chunk */
    evrec_field_info_t *entries; /* the valid entries, in file order */
    uint32_t count;
    evrec_field_info_table_t table;
    const evrec_field_info_t **by_field; /* per leaf of every struct: entry or NULL */
    uint32_t *base;                      /* per struct: index of its field 0 in by_field */
    evrec_reader_error_t err;            /* first problem of the chunk (status EVREC_OK if none) */
} rd_field_info_t;

/* TRACKS chunk (reader_tracks.c): kept as bytes until the meta-info is read, then parsed; any problem
 * drops the whole track model and is a deferred error like FIELD_INFO's. */
typedef struct rd_vw {
    uint8_t *raw;
    uint32_t raw_len;
    uint64_t offset;
    int dropped; /* a second chunk, or one after STREAM data, was seen */
    evrec_track_desc_t *tracks;
    evrec_span_desc_t *spans;
    evrec_counter_desc_t *counters;
    evrec_tracks_t model; /* the tables above, as evrec_reader_tracks() gives them */
    evrec_reader_error_t err;
    uint8_t *series_raw; /* the COUNTER_SERIES chunk, parsed after TRACKS; a problem drops only it */
    uint32_t series_len;
    uint64_t series_offset;
    int series_dropped;
} rd_vw_t;

/* lanes (lanes.c): the LANES chunk's counts, the last LANE_IDS chunk. */
typedef struct rd_lanes {
    uint64_t *counts; /* 3 per lane: records, dropped, overwritten */
    uint8_t *ids;     /* lane of records first .. first + n - 1 */
    size_t cap, n;
    uint64_t first;
} rd_lanes_t;

/* records (reader_records.c; reader_resync.c resumes and seeks): iteration and 64-bit time. */
typedef struct rd_iter {
    uint64_t index;
    int done;     /* End read and checked */
    int started;  /* first record seen */
    int gap_next; /* the next record returned is the first after a gap */
    uint32_t prev32;
    uint64_t t64;
    uint64_t ticks;
    uint64_t first_tick_t64, last_tick_t64;
    uint8_t rec[EVREC_MAX_EVENT_SIZE]; /* assembly of a straddling record */
} rd_iter_t;

/* time base (reader_records.c): the frequency and ticks to ns. */
typedef struct rd_time {
    int resolved;
    int no_prepass; /* internal reader of the pre-pass, or summarize running */
    uint64_t freq;
    rd_ns_conv_t ns_conv; /* made for `freq` when ns_conv.freq differs */
    evrec_time_source source;
} rd_time_t;

/* The ATTRS chunk (reader_attrs.c): `have` once an intact one was parsed; `text` (malloc'd, the
 * chunk's bytes) holds the NUL-terminated keys and values that key[] and value[] point to. */
typedef struct rd_attrs {
    int have;
    uint32_t count;
    size_t used; /* bytes of text filled */
    char *text;
    const char *key[64], *value[64];
} rd_attrs_t;

/* The LOSSES chunk (reader_losses.c): `have` once an intact one was parsed; lane and range are
 * malloc'd, bounded by the chunk's bytes. */
typedef struct rd_losses {
    int have;
    evrec_stream_losses_t pub;
    evrec_lane_losses_t *lane;
    evrec_byte_range_t *range;
} rd_losses_t;

/* The INDEX chunk (reader_index.c, FORMAT.md section 2.5), loaded at the first seek; `e` is
 * malloc'd, bounded by the chunk's bytes. state: 0 not looked for, 1 loaded, -1 none or dropped. */
typedef struct rd_index {
    int state;
    uint64_t off; /* the INDEX chunk */
    uint32_t count, stride;
    evrec_index_entry_t *e;
    evrec_reader_error_t warning; /* the first problem found (status EVREC_OK: none) */
} rd_index_t;

struct evrec_reader {
    int opened; /* open succeeded */
    rd_errors_t errs;
    rd_stream_t stream;
    rd_resync_t resync;
    rd_iter_t iter;
    rd_time_t time;
    rd_tables_t tables;
    rd_lanes_t lanes;
    rd_order_t order;
    rd_copy_t copy;
    rd_field_info_t fi;
    rd_vw_t vw;
    rd_losses_t losses;
    rd_index_t index;
    rd_attrs_t attrs;
    rd_source_t src;
    evrec_reader_options_t opt;
    evrec_file_info_t info;
    uint64_t *event_counts; /* summarize */
};

/* ---- errors (reader_error.c) ---- */

/* A problem the reader cannot go on after: halts it, becomes the sticky error when it is the
 * first, and is added to the damage list. Returns the status. */
evrec_status rd_fail(evrec_reader_t *r, evrec_status st, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Damaged ranges kept in the list (more are counted). */
#define RD_MAX_DAMAGE 1000u

/* Record a damaged range and make it the sticky error when it is the first problem; iteration
 * goes on. `len` = bytes skipped. Returns the status. */
evrec_status rd_damage(evrec_reader_t *r, evrec_status st, uint64_t off, uint64_t len, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The last damaged range of the list, NULL when it is empty: its records_lost and index_after are
 * completed when the records resume. */
evrec_damage_t *rd_damage_last(evrec_reader_t *r);
/* The last damaged range lost no record (a display-only chunk, a repaired header). */
void rd_damage_nothing_lost(evrec_reader_t *r);
/* The last damaged range grows to file offset `end` (chunks skipped while looking for a SYNC
 * point). */
void rd_damage_extend(evrec_reader_t *r, uint64_t end);
/* Stop the reader after damage already recorded (no way on past it). */
void rd_halt(evrec_reader_t *r);
/* Put `prefix` (shorter than the message) before the sticky error's message (truncated to fit). */
void rd_error_prefix(evrec_reader_t *r, const char *prefix);
void rd_errors_free(evrec_reader_t *r);

/* ---- chunks at an offset (reader_chunk.c) ---- */

/* 1 when a whole, CRC-good chunk starts at `off` (random-access sources). */
int rd_chunk_good_at(evrec_reader_t *r, uint64_t off);
/* Offset of the first CRC-good chunk of a known type starting after `from` (random-access
 * sources); UINT64_MAX when there is none. */
uint64_t rd_scan_chunk(evrec_reader_t *r, uint64_t from);
/* A chunk at `off` whose length does not lead to an intact chunk: when the next intact chunk
 * starts at q and the bytes between check out with the stored CRC under a header word of a known
 * type and length q - off - 8, only the header word was damaged. Then that word is used
 * (stream.fix_pending), the damage is recorded, the source is moved back to `off` and 1 is
 * returned. */
int rd_fix_header_word(evrec_reader_t *r, uint64_t off, uint64_t q);
/* Parse a SYNC payload; 0 when it is too short. */
int rd_sync_parse(rd_sync_t *s, uint64_t off, const uint8_t *p, uint32_t len);
/* The first intact SYNC chunk that starts at or after `from` and before `limit` (its header word
 * 05 00 00 24 and a CRC-32C that checks over its 36 payload bytes); 1 with *out filled, 0 when
 * there is none. */
int rd_find_sync(evrec_reader_t *r, uint64_t from, uint64_t limit, rd_sync_t *out);

/* ---- resync (reader_resync.c) ---- */

/* Start of a segment after a gap: take the index and time from the SYNC chunk before it and
 * close the damage entry's count of lost records. */
void rd_resume(evrec_reader_t *r);
/* The first record of an intact STREAM chunk after its SYNC chunk (resync.sync_time): the time
 * goes on from the SYNC chunk's state, which a writer that saw a gap the file does not show (a
 * stream's lost frames) knows better. */
void rd_sync_time(evrec_reader_t *r);
/* Jump (random-access containers) to the last SYNC point from which the first record with index
 * >= min_index and t64 >= min_t64 is still ahead; nothing when there is none past the position. */
void rd_seek_sync(evrec_reader_t *r, uint64_t min_index, uint64_t min_t64);

/* ---- the seek index (reader_index.c) ---- */

/* Narrow [*a, *b), where a seek bisects for the last SYNC chunk qualifying for the target, with
 * the INDEX chunk: *best and *have set from the last entry that qualifies, *b to the next entry.
 * Every entry used is checked against the SYNC chunk at its offset; a damaged or lying index is
 * reported as a warning (evrec_reader_index_warning()) and dropped: the bounds then stay. */
void rd_index_bounds(evrec_reader_t *r, uint64_t min_index, uint64_t min_t64, uint64_t *a, uint64_t *b,
                     rd_sync_t *best, int *have);
void rd_index_free(evrec_reader_t *r);

/* Lanes (lanes.c). A LANES chunk (before the first STREAM chunk) and a LANE_IDS chunk. */
void rd_lanes_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len);
void rd_lane_ids_chunk(evrec_reader_t *r, const uint8_t *p, uint32_t len);
/* The lane of record `index` (0 without lanes, EVREC_LANE_UNKNOWN when not carried). */
static inline uint16_t rd_lane_of(const evrec_reader_t *r, uint64_t index)
{
    if (!r->lanes.counts) {
        return 0;
    }
    uint64_t d = index - r->lanes.first;
    return index >= r->lanes.first && d < r->lanes.n ? r->lanes.ids[d] : (uint16_t)EVREC_LANE_UNKNOWN;
}
/* After a jump to the SYNC chunk at `sync_off` (record `index`): the LANE_IDS chunk written just
 * before it, found by its header word and CRC. */
void rd_lanes_before_sync(evrec_reader_t *r, uint64_t sync_off, uint64_t index);
void rd_lanes_free(evrec_reader_t *r);

/* Order of STREAM chunks (reader_seq.c, FORMAT.md section 2.4). A SEQ chunk's payload; 0 when
 * it is too short (then it is ignored). */
int rd_seq_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len);
/* A CRC-good STREAM chunk at `off` of `len` payload bytes whose stored CRC is `crc`: 1 to use it,
 * 0 to skip it (out of order, a duplicate, foreign, or not the one its SEQ chunk names; the
 * damage is recorded, and r->resync.discont set when stream bytes were lost). */
int rd_seq_stream(evrec_reader_t *r, uint64_t off, uint32_t len, uint32_t crc);
/* Read the TAIL chunk at the end of a random-access file (r->order.tail); `header`: the file's intact
 * header, which the TAIL chunk must hold (else it belongs to another recording), or NULL. */
void rd_tail_read(evrec_reader_t *r, const uint8_t *header);

/* The copies at the end (reader_copy.c): at open, before the meta-info is read, when the first
 * STREAM chunk (or what leads to it) is damaged and the file has an intact TAIL chunk: reads the
 * COPY chunks, serves the meta-info from its copy and moves the source past the damage (records
 * resume at a SYNC point). 1 when it did. */
int rd_copy_use(evrec_reader_t *r);

/* Run-time enum names (reader_runtime_enums.c): a RUNTIME_ENUMS payload (or its copy); the ranges
 * are kept until the meta-info is read. */
evrec_status rd_runtime_ranges_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len);

/* The header (reader_header.c): an evrec header (intact, damaged or from the TAIL chunk's copy) or
 * a bare CCore stream; sets info and the stream's start. */
evrec_status rd_open_container_or_ccore(evrec_reader_t *r);

/* ---- chunk stream (reader_stream.c) ---- */
/* The next n (<= sizeof r->stream.tmp) stream bytes, contiguous; NULL on failure with the error set
 * (`what` and `item_off` name the item being read: "record", "enum name"...; `before` = bytes
 * of that item already read, for the message). */
const uint8_t *rd_need_slow(evrec_reader_t *r, size_t n, uint8_t *dst, const char *what, uint64_t item_off,
                            size_t before);
static inline const uint8_t *rd_need(evrec_reader_t *r, size_t n, const char *what, uint64_t item_off)
{
    if (r->stream.seg_len - r->stream.seg_pos >= n) {
        const uint8_t *p = r->stream.seg + r->stream.seg_pos;
        r->stream.seg_pos += n;
        return p;
    }
    return rd_need_slow(r, n, r->stream.tmp, what, item_off, 0);
}
/* File offset of the next stream byte. */
static inline uint64_t rd_stream_offset(const evrec_reader_t *r)
{
    return r->stream.seg_file_off + r->stream.seg_pos;
}
/* Load the next segment (the current one is used up); 0 when there is none (end, damage or an
 * error: see r->stream.over, r->errs.halt). */
int rd_next_segment(evrec_reader_t *r);
/* File offset of the next item: loads the next segment first when the current one is used up
 * (so that an item at the start of a chunk gets the offset of its first byte, not of the
 * chunk header). Inline: it runs once per record. */
static inline uint64_t rd_item_offset(evrec_reader_t *r)
{
    if (__builtin_expect(r->stream.seg_pos == r->stream.seg_len, 0)) {
        rd_next_segment(r);
    }
    return rd_stream_offset(r);
}
/* After the End record: check that the stream and the file end properly. */
evrec_status rd_finish_stream(evrec_reader_t *r, uint64_t end_off);

/* Records (reader_records.c): derive the frequency from the ticks this reader has seen. */
void rd_resolve_freq_from_own_ticks(evrec_reader_t *r);

/* LOSSES (reader_losses.c): parse the chunk (the first intact one is kept; a malformed one is
 * recorded as damage that lost no record). */
void rd_losses_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len);
void rd_losses_free(evrec_reader_t *r);

/* ATTRS (reader_attrs.c): parse the chunk (the first intact one is kept; a malformed one is
 * recorded as damage at its offset that lost no record). */
void rd_attrs_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len);
void rd_attrs_free(evrec_reader_t *r);

/* FIELD_INFO (reader_field_info.c). Keep a copy of the chunk's payload (at most one chunk;
 * a second one, or one after STREAM data, becomes the deferred error). */
void rd_field_info_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len);
/* Parse and check the kept payload against the meta-info; fills meta.field_info. Only a lack
 * of memory is returned as an error; a bad chunk sets fi.err. */
evrec_status rd_field_info_parse(evrec_reader_t *r);
/* Make the deferred FIELD_INFO problem the sticky error (at the end of the stream). */
evrec_status rd_field_info_deferred(evrec_reader_t *r);
void rd_field_info_free(evrec_reader_t *r);

/* TRACKS (reader_tracks.c): keep the payload; parse it (before the hash is computed); deferred
 * error at the end of the stream; free. */
void rd_tracks_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len);
evrec_status rd_tracks_parse(evrec_reader_t *r);
/* A TRACKS chunk before the stream whose CRC is wrong: dropped, with a deferred error. */
void rd_tracks_damaged(evrec_reader_t *r, uint64_t off, uint32_t len, uint32_t stored, uint32_t crc);
void rd_counter_series_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len);
void rd_counter_series_damaged(evrec_reader_t *r, uint64_t off, uint32_t len, uint32_t stored, uint32_t crc);
evrec_status rd_tracks_deferred(evrec_reader_t *r);
void rd_tracks_free(evrec_reader_t *r);

/* Meta-info (reader_meta.c). */
evrec_status rd_parse_meta(evrec_reader_t *r);
void rd_free_meta(evrec_reader_t *r);
/* Name arena (reader_names.c): a NUL-terminated copy of s[0..len) that lives as long as the
 * reader; NULL when out of memory. */
char *rd_name_dup(evrec_reader_t *r, const uint8_t *s, size_t len);
void rd_names_free(evrec_reader_t *r);
/* Run-time enum names (reader_runtime_enums.c): attach the RUNTIME_ENUMS ranges to the enums of
 * the meta-info just parsed; 0 on a problem (the reader is halted with the error set). */
int rd_runtime_attach(evrec_reader_t *r);

/* evrec_time_extend(), inline for the record loops (same rule: FORMAT.md section 5). */
#define RD_STEP_BACK_MIN 0xC0000000u
static inline uint64_t rd_time_extend(uint64_t t64, uint32_t prev32, uint32_t t32)
{
    uint32_t step = t32 - prev32;
    if (__builtin_expect(step >= RD_STEP_BACK_MIN, 0)) {
        uint64_t back = 0x100000000ull - step;
        return t64 > back ? t64 - back : 0; /* never before the first record */
    }
    return t64 + step;
}

/* Big-endian loads. */
static inline uint16_t rd_be16(const uint8_t *p)
{
    return (uint16_t)((p[0] << 8) | p[1]);
}
static inline uint32_t rd_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint64_t rd_be64(const uint8_t *p)
{
    return ((uint64_t)rd_be32(p) << 32) | rd_be32(p + 4);
}

static inline int rd_kind_is_enum(uint8_t kind)
{
    return kind >= EVREC_KIND_ENUM_UINT8 && kind <= EVREC_KIND_ENUM_UINT32;
}
static inline uint32_t rd_load(const uint8_t *p, uint8_t kind)
{
    uint32_t w = evrec_kind_width(kind);
    return w == 1 ? p[0] : w == 2 ? rd_be16(p) : rd_be32(p);
}

#endif /* EVREC_READER_INTERNAL_H */
