/* SPDX-License-Identifier: Apache-2.0 */
/* The writer's side of a save (common/save.c) as the trace buffer (buffer/save_*.c) uses it: the
 * buffer describes a recording as a source of records and counters; the writer turns it into the
 * CCore stream, in the evrec container (format/FORMAT.md) or bare. The writer never looks into a
 * recorder's buffer; every byte of the file is written here. Not installed. */
#ifndef EVREC_SAVE_INTERNAL_H
#define EVREC_SAVE_INTERNAL_H

#include "evrec/evrec_attrs.h"
#include "evrec/evrec_save.h"

/** The writer's staging (opaque to the buffer). */
typedef struct out evrec_save_out_t;

/** A recording as the writer sees it. The callbacks get `ctx`. */
typedef struct evrec_save_source {
    const evrec_meta_t *meta;
    uint64_t time_freq;         /* counter ticks per second, 0 unknown */
    uint64_t schema_hash;       /* for the container header */
    uint64_t recorded;          /* records in the file; unless count_first */
    uint64_t dropped;           /* records lost because the buffer was full */
    uint64_t overwritten;       /* cyclic: records overwritten by newer ones */
    uint32_t flags;             /* the container header's flags (FORMAT.md section 1) */
    uint32_t lanes;             /* 0, or the number of lanes (a LANES chunk, minor version LANES) */
    int count_first;            /* 1: `recorded` is counted by records(ctx, NULL, &n) first */
    const evrec_attrs_t *attrs; /* the recording's attributes (an ATTRS chunk), or NULL */
    const void *ctx;
    /** With `o` NULL: adds the records to *count and writes nothing. Else writes them, oldest
     * first, with evrec_save_put_records() (or the _block and _lane variants). Returns EVREC_OK
     * or a status for the save to return when the writer itself had none. */
    evrec_status (*records)(const void *ctx, evrec_save_out_t *o, uint64_t *count);
    /** The recording's id for SEQ and TAIL chunks (FORMAT.md section 2.4), given the container
     * header (EVREC_HEADER_SIZE bytes) as written. */
    uint32_t (*file_id)(const void *ctx, const uint8_t *header);
    /** Lanes: lane k's records in the file, dropped, overwritten (the LANES chunk). */
    void (*lane_counts)(const void *ctx, uint32_t lane, uint64_t counts[3]);
} evrec_save_source_t;

/** Saves `src` to `sink`, in the container when `container` is 1, else as the bare CCore stream.
 * Returns the first error of the sink or of the records (EVREC_E_CORRUPT...), else EVREC_OK. */
evrec_status evrec_save_write(const evrec_save_source_t *src, const evrec_sink_t *sink, int container);

/** Converts the records in rec[0, size) into the stream; bytes up to `readable` may be read.
 * EVREC_E_CORRUPT when a record is not of a known event type or does not fit `size`. */
evrec_status evrec_save_put_records(evrec_save_out_t *o, const uint8_t *rec, size_t size, size_t readable);

/** As evrec_save_put_records() for the records of a block that recording may overwrite while they
 * are read: they go into one chunk (room for `room` bytes is made first), and are taken back when
 * they are bad or `intact(arg)` says, after the conversion, that the block was overwritten.
 * EVREC_OK when they were kept, else EVREC_E_BUSY. */
evrec_status evrec_save_put_block(evrec_save_out_t *o, const uint8_t *rec, size_t size, size_t readable,
                                  size_t room, int (*intact)(const void *arg), const void *arg);

/** One record of lane `lane` (a lanes save): converted, and its lane noted for the LANE_IDS chunk. */
void evrec_save_put_lane_record(evrec_save_out_t *o, const uint8_t *rec, size_t size, size_t readable,
                                uint32_t lane);

/** EVREC_SAVE_CHUNK as the writer was built with (the largest block a live save can convert). */
size_t evrec_save_chunk_size(void);

/** Streaming mode (FORMAT.md section 8): the native record at `s` (event `id`, known to `m`)
 * packed big-endian at `d` (CCore layout, section 3); returns the end of the bytes written. */
uint8_t *evrec_save_pack_record(const evrec_meta_t *m, uint8_t *d, const uint8_t *s, uint16_t id);

/** Streaming mode: the MetaInfo of section 3 (time_freq to the event list) to `sink`, bare. */
evrec_status evrec_save_meta_raw(const evrec_meta_t *m, uint64_t time_freq, const evrec_sink_t *sink);

/** Streaming mode: the chunks a file has before its first STREAM chunk (RUNTIME_ENUMS,
 * FIELD_INFO, TRACKS), whole, to `sink`. */
evrec_status evrec_save_pre_chunks(const evrec_meta_t *m, const evrec_sink_t *sink);

/** Stores v big-endian at d. */
static inline void evrec_put_be32(uint8_t *d, uint32_t v)
{
    d[0] = (uint8_t)(v >> 24);
    d[1] = (uint8_t)(v >> 16);
    d[2] = (uint8_t)(v >> 8);
    d[3] = (uint8_t)v;
}

static inline void evrec_put_be64(uint8_t *d, uint64_t v)
{
    evrec_put_be32(d, (uint32_t)(v >> 32));
    evrec_put_be32(d + 4, (uint32_t)v);
}

#endif /* EVREC_SAVE_INTERNAL_H */
