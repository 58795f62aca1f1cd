/* SPDX-License-Identifier: Apache-2.0 */
/* Test fixtures of the reader tests: a meta-info with every field kind, recording and saving to
 * memory with the real recorder, hand-timed recordings, and an independent chunk walker. */
#ifndef EVREC_TEST_READER_FIXTURES_H
#define EVREC_TEST_READER_FIXTURES_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_attrs.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"

/* ---- growable memory ---- */
typedef struct fx_buf {
    uint8_t *p;
    size_t len, cap;
} fx_buf_t;
int fx_buf_write(void *ctx, const void *data, size_t len);
void fx_buf_free(fx_buf_t *b);
evrec_sink_t fx_sink(fx_buf_t *b);

/* ---- the all-kinds meta-info ---- */
enum { FX_ENUM_CONTROL, FX_ENUM_COLOR, FX_ENUM_LEVEL, FX_ENUM_BIG, FX_ENUM_OBJ, FX_ENUM_COUNT };
enum { FX_STRUCT_CONTROL, FX_STRUCT_INNER2, FX_STRUCT_INNER1, FX_STRUCT_ALL, FX_STRUCT_SIMPLE, FX_STRUCT_COUNT };
enum { FX_EVENT_CONTROL, FX_EVENT_ALL, FX_EVENT_SIMPLE, FX_EVENT_COUNT };

typedef struct fx_inner2 {
    uint8_t x;
    uint32_t y;
} fx_inner2_t;
typedef struct fx_inner1 {
    uint16_t p;
    fx_inner2_t q;
    uint8_t color; /* enum Color (u8, markers) */
} fx_inner1_t;
/* EvAll: every field kind, nested structs 2 deep. Packed size 30. */
typedef struct fx_ev_all {
    uint32_t time;
    uint16_t id;
    uint8_t a;
    uint16_t b;
    uint32_t c;
    uint8_t color;  /* enum_uint8 Color */
    uint16_t level; /* enum_uint16 Level (names, no markers) */
    uint32_t big;   /* enum_uint32 Big */
    fx_inner1_t in;
    uint16_t obj; /* enum_uint16 ObjNumber, run-time names 100..109, marker Inc */
} fx_ev_all_t;
/* EvSimple: class EvAll. Packed size 10. */
typedef struct fx_ev_simple {
    uint32_t time;
    uint16_t id;
    uint32_t v;
} fx_ev_simple_t;

#define FX_EV_ALL_PACKED 30u
#define FX_EV_SIMPLE_PACKED 10u
#define FX_OBJ_BASE 100u
#define FX_OBJ_LIM 110u

/* The tables (static storage; fx_meta_init() resets the run-time enum and computes the hash). */
const evrec_meta_t *fx_meta_init(void);
evrec_runtime_enum_t *fx_runtime_enum(void);

/* ---- recordings ---- */

/* Record `n` events with the real recorder (rdtsc time): Start, then alternating EvAll (through
 * evrec_record) and EvSimple (through evrec_reserve/evrec_commit), a Tick every 7 events, Stop.
 * Values are a function of the index (fx_expect_all / fx_expect_simple). Saves to *out as a
 * container (bare = 0) or bare CCore stream (bare = 1). Returns the recorder's record count. */
uint64_t fx_record(size_t n, int bare, fx_buf_t *out);
/* fx_record() with the recording's attributes (NULL: none) attached to the recorder. */
uint64_t fx_record_ex(size_t n, int bare, const evrec_attrs_t *attrs, fx_buf_t *out);
void fx_expect_all(uint32_t k, fx_ev_all_t *e);
uint32_t fx_expect_simple(uint32_t k);

/* Hand-timed recording: native records appended to a buffer, saved through a recorder object
 * filled by hand (container) or evrec_save_ccore() (bare). */
typedef struct fx_native {
    uint8_t *buf;
    size_t used, cap;
    uint64_t count;
} fx_native_t;
void fx_native_control(fx_native_t *n, uint32_t time, uint8_t type);
void fx_native_simple(fx_native_t *n, uint32_t time, uint32_t v);
void fx_native_save(fx_native_t *n, uint64_t time_freq, int bare, fx_buf_t *out);
void fx_native_free(fx_native_t *n);

/* ---- independent view of a container's chunks ---- */
typedef struct fx_chunk {
    uint64_t off; /* file offset of the chunk header */
    uint8_t type;
    uint32_t len;          /* payload bytes */
    uint64_t stream_start; /* stream position of its first payload byte (STREAM chunks) */
} fx_chunk_t;
/* Lists the chunks of a valid container; returns their number (at most max). */
size_t fx_chunks(const uint8_t *file, size_t size, fx_chunk_t *chunks, size_t max);
/* File offset of stream position `pos`. */
uint64_t fx_stream_to_file(const fx_chunk_t *chunks, size_t n, uint64_t pos);
/* Stream position of file offset `off` (which must lie in a STREAM payload). */
uint64_t fx_file_to_stream(const fx_chunk_t *chunks, size_t n, uint64_t off);

/* Rewrite a valid container with its stream cut into chunks of `chunk` bytes (records then
 * straddle chunks); other chunks are kept. insert_unknown: add a chunk of type 0x7F (a future
 * minor version's) after the header and one before END, which a reader must skip. */
void fx_rechunk(const uint8_t *file, size_t size, size_t chunk, int insert_unknown, fx_buf_t *out);
/* Append a chunk (header with CRC-32C, payload). */
void fx_put_chunk(fx_buf_t *out, uint8_t type, const void *payload, uint32_t len);

/* ---- reading everything ---- */
typedef struct fx_rec {
    evrec_record_t r;
    uint8_t data[256];
    uint64_t last_byte; /* file offset of the record's last byte (from fx_chunks for containers) */
} fx_rec_t;
typedef struct fx_read {
    fx_rec_t *recs;
    size_t count;
    evrec_status end; /* what the last evrec_reader_next() (or the open) returned */
    evrec_reader_error_t err;
    evrec_status open_status;
} fx_read_t;
/* Open memory and read every record (copies of their bytes). */
void fx_read_all(const void *data, size_t size, const evrec_reader_options_t *opt, fx_read_t *out);
void fx_read_free(fx_read_t *r);

/* Write bytes to a temporary file; returns its path (malloc'd). */
char *fx_temp_file(const void *data, size_t size, const char *suffix);

#endif
