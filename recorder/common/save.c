/* SPDX-License-Identifier: Apache-2.0 */
/* The writer of a save: the CCore stream (FORMAT.md section 3, as CCore's EventRecorder.cpp writes
 * it), big-endian, optionally inside the evrec container (format/FORMAT.md). Streams through
 * evrec_sink_t in chunks of EVREC_SAVE_CHUNK bytes; no heap. A recording reaches it as a source
 * of records (save_internal.h; buffer/save_recorder.c walks a recorder's buffer), CCore records
 * as one area (evrec_save_ccore()). */
#include "evrec/evrec_index.h"
#include "evrec/evrec_save.h"
#include "meta_internal.h"
#include "save_internal.h"
#include "tracks_internal.h"

#if EVREC_SAVE_CHUNK < 64 || EVREC_SAVE_CHUNK > 0xFFFFFF
#error "EVREC_SAVE_CHUNK must be in 64..16777215"
#endif

#if EVREC_SAVE_SYNC_EVERY < 0
#error "EVREC_SAVE_SYNC_EVERY must be >= 0"
#endif

#if EVREC_SAVE_INDEX_ENTRIES < 0 || EVREC_SAVE_INDEX_ENTRIES > 65536
#error "EVREC_SAVE_INDEX_ENTRIES must be in 0..65536"
#endif

/* Where the stream is, for SYNC chunks (FORMAT.md section 2.2): records converted so far, the
 * time field and restored time of the last one (section 5's rule), the latest restored time and
 * the Tick records among them. */
typedef struct sync_state {
    uint64_t index, t64, t64_max, ticks;
    uint32_t prev32;
} sync_state_t;

/* The file as every writer of a save sees it: a sink that counts the bytes it passes on, so that
 * `written` is the file offset of the next chunk whoever writes it (the INDEX chunk's entries are
 * such offsets, FORMAT.md section 2.5). The caller's sink is stored here alone and only
 * count_write() calls it: a chunk writer can be given no sink that does not count. */
typedef struct counted_sink {
    evrec_sink_t sink;        /* {count_write, this}: what the writers write to */
    const evrec_sink_t *file; /* the caller's sink: for count_write() only */
    uint64_t written;         /* bytes passed on to the file */
} counted_sink_t;

static int count_write(void *ctx, const void *p, size_t len)
{
    counted_sink_t *c = (counted_sink_t *)ctx;
    c->written += len;
    return c->file->write(c->file->ctx, p, len);
}

/* Output staging: records are converted straight into `buf`; a full buffer becomes one chunk. */
typedef struct out {
    const evrec_sink_t *to; /* where every byte goes: &file.sink, or a COPY chunk's pass over it */
    counted_sink_t file;
    const evrec_meta_t *meta;  /* of the records converted */
    const struct plans *plans; /* their conversion plans */
    int container;
    evrec_status status;
    size_t n;
    sync_state_t now;    /* after the records converted so far */
    sync_state_t at_buf; /* before the record at buf[0], when at_buf_ok */
    int at_buf_ok;       /* buf starts with a record (not meta-info) */
    unsigned since_sync; /* STREAM chunks written since the last SYNC chunk */
    uint8_t *ids;        /* lanes save: the lane of each record in buf (LANE_IDS chunk); else NULL */
    size_t ids_n;
    uint32_t file_id;                  /* SEQ and TAIL chunks (FORMAT.md section 2.4) */
    uint32_t seq;                      /* STREAM chunks written so far */
    evrec_index_t idx;                 /* the SYNC chunks for the INDEX chunk (FORMAT.md section 2.5) */
    uint8_t header[EVREC_HEADER_SIZE]; /* as written at offset 0, for the TAIL chunk */
    uint8_t buf[EVREC_SAVE_CHUNK];
} out_t;

static void out_init(out_t *o, const evrec_sink_t *sink, int container)
{
    o->file.sink.write = count_write;
    o->file.sink.ctx = &o->file;
    o->file.file = sink;
    o->file.written = 0;
    o->to = &o->file.sink;
    o->meta = NULL;
    o->plans = NULL;
    o->container = container;
    o->status = EVREC_OK;
    o->n = 0;
    __builtin_memset(&o->now, 0, sizeof o->now);
    o->at_buf = o->now;
    o->at_buf_ok = 0;
    o->since_sync = 0;
    o->ids = NULL;
    o->ids_n = 0;
    o->file_id = 0;
    o->seq = 0;
    evrec_index_init(&o->idx, NULL, 0);
}

static void sink_write(out_t *o, const void *p, size_t len)
{
    if (o->status == EVREC_OK && len && o->to->write(o->to->ctx, p, len) != 0) {
        o->status = EVREC_E_IO;
    }
}

/* The chunk header of a payload: type and length, then the CRC-32C of both and the payload. */
static void chunk_header(uint8_t *h, uint8_t type, const uint8_t *payload, size_t len)
{
    evrec_put_be32(h, ((uint32_t)type << 24) | (uint32_t)len);
    evrec_put_be32(h + 4, evrec_crc32c(evrec_crc32c(0, h, 4), payload, len));
}

/* Writes one chunk; returns its CRC. */
static uint32_t write_chunk(out_t *o, uint8_t type, const uint8_t *payload, size_t len)
{
    uint8_t h[EVREC_CHUNK_HEADER_SIZE];
    chunk_header(h, type, payload, len);
    sink_write(o, h, sizeof h);
    sink_write(o, payload, len);
    return (uint32_t)h[4] << 24 | (uint32_t)h[5] << 16 | (uint32_t)h[6] << 8 | h[7];
}

/* SEQ payload (FORMAT.md section 2.4): u32 file id, u32 number of the STREAM chunk that follows,
 * u32 its CRC, u32 the CRC of the SYNC chunk right before (0: none). */
static void write_seq(out_t *o, uint32_t stream_crc, uint32_t sync_crc)
{
    uint8_t d[EVREC_SEQ_SIZE];
    evrec_put_be32(d, o->file_id);
    evrec_put_be32(d + 4, o->seq++);
    evrec_put_be32(d + 8, stream_crc);
    evrec_put_be32(d + 12, sync_crc);
    (void)write_chunk(o, EVREC_CHUNK_SEQ, d, sizeof d);
}

/* SYNC payload (FORMAT.md section 2.2): u64 index, u64 t64, u64 t64_max, u64 ticks, u32 prev32.
 * Returns the chunk's CRC. */
static uint32_t write_sync(out_t *o, const sync_state_t *st)
{
    uint8_t d[EVREC_SYNC_SIZE];
    evrec_put_be64(d, st->index);
    evrec_put_be64(d + 8, st->t64);
    evrec_put_be64(d + 16, st->t64_max);
    evrec_put_be64(d + 24, st->ticks);
    evrec_put_be32(d + 32, st->prev32);
    return write_chunk(o, EVREC_CHUNK_SYNC, d, sizeof d);
}

/* LANE_IDS payload (FORMAT.md section 2.3): u64 index of the first record of the next STREAM
 * chunk, then one u8 lane per record that starts in it. */
static void write_lane_ids(out_t *o)
{
    uint8_t h[EVREC_CHUNK_HEADER_SIZE + 8];
    evrec_put_be32(h, ((uint32_t)EVREC_CHUNK_LANE_IDS << 24) | (uint32_t)(8u + o->ids_n));
    evrec_put_be64(h + EVREC_CHUNK_HEADER_SIZE, o->now.index - o->ids_n);
    uint32_t crc = evrec_crc32c(0, h, 4);
    crc = evrec_crc32c(crc, h + EVREC_CHUNK_HEADER_SIZE, 8);
    crc = evrec_crc32c(crc, o->ids, o->ids_n);
    evrec_put_be32(h + 4, crc);
    sink_write(o, h, sizeof h);
    sink_write(o, o->ids, o->ids_n);
    o->ids_n = 0;
}

static void flush(out_t *o)
{
    if (o->n == 0) {
        return;
    }
    if (o->container) {
        if (o->ids && o->ids_n) {
            write_lane_ids(o); /* before the SYNC chunk: a seek lands on SYNC then STREAM */
        }
        uint32_t sync_crc = 0;
        if (o->at_buf_ok && EVREC_SAVE_SYNC_EVERY > 0 && ++o->since_sync >= (unsigned)EVREC_SAVE_SYNC_EVERY) {
            evrec_index_entry_t e = {o->file.written, o->at_buf.index, o->at_buf.t64, o->at_buf.t64_max};
            evrec_index_add(&o->idx, &e);
            sync_crc = write_sync(o, &o->at_buf);
            o->since_sync = 0;
        }
        o->at_buf_ok = 0;
        /* SEQ then STREAM (FORMAT.md section 2.4): the SEQ chunk names the STREAM chunk's CRC. */
        uint8_t h[EVREC_CHUNK_HEADER_SIZE];
        chunk_header(h, EVREC_CHUNK_STREAM, o->buf, o->n);
        write_seq(o, (uint32_t)h[4] << 24 | (uint32_t)h[5] << 16 | (uint32_t)h[6] << 8 | h[7], sync_crc);
        sink_write(o, h, sizeof h);
        sink_write(o, o->buf, o->n);
    } else {
        sink_write(o, o->buf, o->n);
    }
    o->n = 0;
}

static void put(out_t *o, const void *p, size_t len)
{
    const uint8_t *s = (const uint8_t *)p;
    while (len) {
        size_t room = sizeof o->buf - o->n;
        size_t k = len < room ? len : room;
        __builtin_memcpy(o->buf + o->n, s, k);
        o->n += k;
        s += k;
        len -= k;
        if (o->n == sizeof o->buf) {
            flush(o);
        }
    }
}

static void put_u8(out_t *o, uint8_t v)
{
    put(o, &v, 1);
}

static void put_u16(out_t *o, uint16_t v)
{
    uint8_t d[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    put(o, d, 2);
}

static void put_u32(out_t *o, uint32_t v)
{
    uint8_t d[4];
    evrec_put_be32(d, v);
    put(o, d, 4);
}

static void put_string(out_t *o, const char *s)
{
    size_t len = 0;
    while (s[len]) {
        len++;
    }
    put_u32(o, (uint32_t)len);
    put(o, s, len);
}

/* ---- meta-info (FORMAT.md section 3: MetaInfo) ---- */

static uint32_t runtime_count(const evrec_runtime_enum_t *r)
{
    uint32_t next = (uint32_t)evrec_atomic_load_acquire(&r->next);
    uint32_t top = next < r->lim ? next : r->lim;
    uint32_t n = 0;
    for (uint32_t v = r->base; v < top; v++) {
        n += __atomic_load_n(&r->names[v - r->base], __ATOMIC_ACQUIRE) != NULL;
    }
    return n;
}

static void put_value(out_t *o, uint32_t value, const char *name, uint8_t marker)
{
    put_u32(o, value);
    put_string(o, name);
    put_u8(o, marker);
}

/* Static values and run-time names, merged in ascending value order. */
static void put_enum(out_t *o, const evrec_enum_desc_t *e, int canonical)
{
    const evrec_runtime_enum_t *r = canonical ? NULL : e->runtime;
    uint32_t extra = r ? runtime_count(r) : 0;
    put_u8(o, e->kind);
    put_string(o, e->name);
    put_u32(o, e->value_count + extra);
    uint32_t i = 0;
    if (r && extra) {
        uint32_t next = (uint32_t)evrec_atomic_load_acquire(&r->next);
        uint32_t top = next < r->lim ? next : r->lim;
        while (i < e->value_count && e->values[i].value < r->base) {
            put_value(o, e->values[i].value, e->values[i].name, e->values[i].marker);
            i++;
        }
        for (uint32_t v = r->base; v < top; v++) {
            const char *name = __atomic_load_n(&r->names[v - r->base], __ATOMIC_ACQUIRE);
            if (name) {
                put_value(o, v, name, r->marker);
            }
        }
    }
    for (; i < e->value_count; i++) {
        put_value(o, e->values[i].value, e->values[i].name, e->values[i].marker);
    }
}

static void put_meta(out_t *o, const evrec_meta_t *m, uint64_t time_freq, int canonical)
{
    uint8_t d[8];
    evrec_put_be64(d, time_freq);
    put(o, d, 8);
    put_u32(o, m->enum_count);
    for (uint32_t i = 0; i < m->enum_count; i++) {
        put_enum(o, &m->enums[i], canonical);
    }
    put_u32(o, m->struct_count);
    for (uint32_t i = 0; i < m->struct_count; i++) {
        const evrec_struct_desc_t *s = &m->structs[i];
        put_string(o, s->name);
        put_u32(o, s->field_count);
        for (uint32_t f = 0; f < s->field_count; f++) {
            put_u8(o, s->fields[f].kind);
            put_u16(o, s->fields[f].ref);
            put_string(o, s->fields[f].name);
        }
    }
    put_u32(o, m->event_count);
    for (uint32_t i = 0; i < m->event_count; i++) {
        put_u16(o, m->events[i].struct_id);
        put_u16(o, m->events[i].class_id);
        put_u32(o, evrec_meta_packed_size(m, m->events[i].struct_id));
    }
}

/* ---- records: native -> packed big-endian ---- */

/* Converting a native record to its packed big-endian form is a byte permutation that depends
 * only on the event type: packed byte j = native byte perm[j]. save builds the permutation of
 * each event type once (its "plan", on the stack) and then converts every record with it.
 *
 * Vector plan (targets with a run-time 16-byte shuffle): a short list of ops per event type,
 * each a 16-byte load of the native record at a fixed offset, one byte shuffle and a 16-byte
 * store into the packed record at a fixed offset; an op yields a run of up to 16 consecutive
 * packed bytes whose sources lie in its load, and the next op overwrites the bytes after the
 * run. In schema order an op yields 13-16 bytes (a record of up to 16 packed bytes is one op);
 * a native struct laid out in another order than the schema's needs a few more ops, still whole
 * 16-byte moves. Loads stay inside the record when it is at least 16 bytes long; a shorter
 * record's load reads past its end, so a record whose loads would pass the readable end of the
 * buffer takes the byte gather loop instead (as do event types whose ops do not fit
 * EVREC_SAVE_PLAN_OPS). Event types without a permutation (id at or above
 * EVREC_SAVE_PLAN_EVENTS, or EVREC_SAVE_PLAN_BYTES used up) walk the tables.
 *
 * Two loops take most records off the general one, which checks everything per record:
 *  - put_run(), for records that repeat the type of the one before (a burst of one event) and
 *    have a vector plan: the size stays in a register (and, for one or two ops, the offsets and
 *    masks), so a record costs its loads, shuffles, stores and time step (8-byte records:
 *    17-20% of memcpy in the general loop, 30-40% there; bench/bench_sizes.c);
 *  - put_mixed(), where types alternate, for records of up to 32 packed bytes: one table row
 *    per type, two shuffles per record, none of the per-record checks its limits make unneeded
 *    (a stream in the demo's order and sizes: 22-24% -> about 30% of memcpy).
 * All give the same bytes; tests/recorder/test_save_sizes.c checks that against an independent
 * reference, tests/reader/test_reader_sync.c the time state written in SYNC chunks.
 *
 * The shuffle (vec_shuffle() below; mask indices < 16, or SAVE_NONE for a byte no one reads):
 *  - SSSE3 and later (the POSIX port builds with -msse4.2 on x86-64): pshufb through
 *    _mm_shuffle_epi8, with GCC and clang alike (index with bit 7 set -> 0);
 *  - AArch64 with NEON, GCC and clang: vqtbl1q_u8 (index >= 16 -> 0);
 *  - GCC on other targets with a vector unit (x86 without SSSE3, RISC-V V, POWER, 32-bit ARM
 *    NEON): GCC's generic two-operand __builtin_shuffle against a zero vector (indices taken
 *    modulo 32: SAVE_NONE = 0x90 selects a zero byte);
 *  - anything else (Cortex-M, RISC-V without V, clang without SSSE3/NEON): no vector path and no
 *    vector plan on the stack; the byte gather loop in plain C. */
#define SAVE_NONE 0x90u
#if defined(__SSSE3__)
#include <tmmintrin.h>
#define HAVE_VEC 1
typedef __m128i vec_t;
static inline vec_t vec_shuffle(const uint8_t *s, const uint8_t *mask)
{
    return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)s),
                            _mm_load_si128((const __m128i *)(const void *)mask));
}
static inline void vec_store(uint8_t *d, vec_t v)
{
    _mm_storeu_si128((__m128i *)(void *)d, v);
}
static inline vec_t vec_mask(const uint8_t *mask)
{
    return _mm_load_si128((const __m128i *)(const void *)mask);
}
static inline vec_t vec_shuffle_by(const uint8_t *s, vec_t m)
{
    return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)s), m);
}
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#define HAVE_VEC 1
typedef uint8x16_t vec_t;
static inline vec_t vec_shuffle(const uint8_t *s, const uint8_t *mask)
{
    return vqtbl1q_u8(vld1q_u8(s), vld1q_u8(mask));
}
static inline void vec_store(uint8_t *d, vec_t v)
{
    vst1q_u8(d, v);
}
static inline vec_t vec_mask(const uint8_t *mask)
{
    return vld1q_u8(mask);
}
static inline vec_t vec_shuffle_by(const uint8_t *s, vec_t m)
{
    return vqtbl1q_u8(vld1q_u8(s), m);
}
#elif defined(__GNUC__) && !defined(__clang__) &&                                                                 \
    (defined(__SSE2__) || defined(__riscv_vector) || defined(__ALTIVEC__) || defined(__VSX__) ||                  \
     defined(__ARM_NEON))
#define HAVE_VEC 1
typedef uint8_t vec_t __attribute__((vector_size(16)));
static inline vec_t vec_shuffle(const uint8_t *s, const uint8_t *mask)
{
    /* __builtin_memcpy: -ffreestanding would otherwise call memcpy for 16 bytes. */
    vec_t in, m, zero = {0};
    __builtin_memcpy(&in, s, 16);
    __builtin_memcpy(&m, mask, 16);
    return __builtin_shuffle(in, zero, m);
}
static inline void vec_store(uint8_t *d, vec_t v)
{
    __builtin_memcpy(d, &v, 16);
}
static inline vec_t vec_mask(const uint8_t *mask)
{
    vec_t m;
    __builtin_memcpy(&m, mask, 16);
    return m;
}
static inline vec_t vec_shuffle_by(const uint8_t *s, vec_t m)
{
    vec_t in, zero = {0};
    __builtin_memcpy(&in, s, 16);
    return __builtin_shuffle(in, zero, m);
}
#else
#define HAVE_VEC 0
#endif

/* Room for vector ops: 20 bytes each (a 16-byte mask, source and destination offsets). */
#define SAVE_PLAN_OPS EVREC_SAVE_PLAN_OPS

typedef struct plan_event {
    uint16_t native;   /* slot size in the trace buffer; 0 = unknown id */
    uint16_t len;      /* packed size; 0 = no plan (walk the tables) */
    uint16_t start;    /* index of the event's first byte in perm */
    uint16_t op_start; /* first vector op */
    uint16_t op_count; /* vector ops; 0 = no vector plan (gather loop) */
    uint16_t reach;    /* bytes from the record's start that its vector loads read */
} plan_event_t;

#if HAVE_VEC
/* An event type as put_mixed() converts it: always two vector ops, the first stored at the
 * record's start; a one-op plan repeats its op as the second, stored just past the record
 * (garbage the next record overwrites). Its slot size is in plans_t::mix_native (0: not for
 * put_mixed(): more ops, or none), apart, so that finding the next record is two loads. */
typedef struct mix_event {
    uint16_t len;
    uint16_t src0, src1, dst1;
    uint16_t m0, m1;  /* byte offsets of the two masks in plans_t::mask */
    uint16_t control; /* 1 for EventControl (its Ticks are counted, without a branch) */
    uint16_t pad;     /* 16 bytes: an index is a shift */
} mix_event_t;
#endif

typedef struct plans {
    plan_event_t ev[EVREC_SAVE_PLAN_EVENTS];
#if HAVE_VEC
    mix_event_t mix[EVREC_SAVE_PLAN_EVENTS];
    uint16_t mix_native[EVREC_SAVE_PLAN_EVENTS];
    _Alignas(16) uint8_t mask[SAVE_PLAN_OPS][16]; /* shuffle indices, SAVE_NONE = 0 */
    uint16_t op_src[SAVE_PLAN_OPS];               /* native offset of the op's 16-byte load */
    uint16_t op_dst[SAVE_PLAN_OPS];               /* packed offset of the op's 16-byte store */
    uint32_t ops_used;
#endif
    uint32_t used;
    uint8_t perm[EVREC_SAVE_PLAN_BYTES];
} plans_t;

static uint8_t width_of(uint8_t kind)
{
    return kind == EVREC_KIND_UINT8 || kind == EVREC_KIND_ENUM_UINT8     ? 1
           : kind == EVREC_KIND_UINT16 || kind == EVREC_KIND_ENUM_UINT16 ? 2
                                                                         : 4;
}

/* Source index of each packed byte of a field of `width` bytes at native offset `off`. */
static int plan_field(plans_t *pl, uint32_t off, uint8_t width)
{
    if (pl->used + width > EVREC_SAVE_PLAN_BYTES || off + width > EVREC_MAX_EVENT_SIZE) {
        return 0;
    }
    for (uint8_t k = 0; k < width; k++) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        pl->perm[pl->used++] = (uint8_t)(off + width - 1u - k);
#else
        pl->perm[pl->used++] = (uint8_t)(off + k);
#endif
    }
    return 1;
}

/* Appends the permutation of struct `sid` at native offset `base`. 0 when it does not fit. */
static int plan_struct(plans_t *pl, const evrec_meta_t *m, uint32_t sid, uint32_t base, unsigned depth)
{
    if (depth > EVREC_MAX_NESTING || sid >= m->struct_count) {
        return 0;
    }
    const evrec_struct_desc_t *s = &m->structs[sid];
    for (uint32_t f = 0; f < s->field_count; f++) {
        const evrec_field_desc_t *fd = &s->fields[f];
        uint32_t off = base + fd->offset;
        int ok = fd->kind == EVREC_KIND_STRUCT ? plan_struct(pl, m, fd->ref, off, depth + 1)
                                               : plan_field(pl, off, width_of(fd->kind));
        if (!ok) {
            return 0;
        }
    }
    return 1;
}

#if HAVE_VEC
/* Length of the run of packed bytes from j on whose sources all lie in [base, base + 16). */
static uint32_t run_from(const uint8_t *perm, uint32_t j, uint32_t len, uint32_t base)
{
    uint32_t k = 0;
    while (j + k < len && k < 16u && (uint32_t)perm[j + k] - base < 16u) { /* wraps below base */
        k++;
    }
    return k;
}

/* The vector ops of event `ev` from its permutation. Greedy from packed byte j = 0: the 16-byte
 * load (base) whose shuffle yields the longest run of packed bytes from j on; a load never
 * starts before the record and, for records of 16 bytes or more, never ends after it. Each op
 * stores 16 bytes at j; the bytes after its run are garbage that the next op (or the next
 * record) overwrites. 0 when the op space is used up (the event then takes the gather loop). */
static int plan_vector(plans_t *pl, plan_event_t *ev)
{
    const uint8_t *perm = &pl->perm[ev->start];
    uint32_t first_op = pl->ops_used, reach = 0;
    uint32_t j = 0;
    while (j < ev->len) {
        uint32_t hi = perm[j], lo = hi >= 15u ? hi - 15u : 0u;
        if (ev->native >= 16u && hi > ev->native - 16u) {
            hi = ev->native - 16u;
        }
        uint32_t best = perm[j] >= hi ? hi : perm[j], best_k = 0;
        for (uint32_t base = lo; base <= hi; base++) {
            uint32_t k = run_from(perm, j, ev->len, base);
            if (k > best_k) {
                best_k = k;
                best = base;
            }
        }
        if (best_k == 0 || pl->ops_used >= SAVE_PLAN_OPS) {
            pl->ops_used = first_op;
            return 0;
        }
        uint32_t op = pl->ops_used++;
        for (uint32_t i = 0; i < 16u; i++) {
            pl->mask[op][i] = i < best_k ? (uint8_t)(perm[j + i] - best) : (uint8_t)SAVE_NONE;
        }
        pl->op_src[op] = (uint16_t)best;
        pl->op_dst[op] = (uint16_t)j;
        if (best + 16u > reach) {
            reach = best + 16u;
        }
        j += best_k;
    }
    ev->op_start = (uint16_t)first_op;
    ev->op_count = (uint16_t)(pl->ops_used - first_op);
    ev->reach = (uint16_t)reach;
    return 1;
}
#endif

static void plans_build(plans_t *pl, const evrec_meta_t *m)
{
    pl->used = 0;
#if HAVE_VEC
    pl->ops_used = 0;
#endif
    for (uint32_t e = 0; e < EVREC_SAVE_PLAN_EVENTS; e++) {
        plan_event_t *ev = &pl->ev[e];
        ev->native = 0;
        ev->len = 0;
        ev->start = 0;
        ev->op_start = 0;
        ev->op_count = 0;
        ev->reach = 0;
#if HAVE_VEC
        pl->mix_native[e] = 0;
#endif
        if (e >= m->event_count || m->events[e].struct_id >= m->struct_count) {
            continue;
        }
        ev->native = m->structs[m->events[e].struct_id].native_size;
        uint32_t start = pl->used;
        if (!plan_struct(pl, m, m->events[e].struct_id, 0, 0)) {
            pl->used = start;
            continue;
        }
        ev->start = (uint16_t)start;
        ev->len = (uint16_t)(pl->used - start);
#if HAVE_VEC
        if (ev->len && ev->len <= ev->native) {
            (void)plan_vector(pl, ev);
        }
        if ((ev->op_count == 1u || ev->op_count == 2u) && ev->op_start + 1u < 0x1000u) { /* m1 fits */
            uint32_t o0 = ev->op_start, o1 = ev->op_count == 2u ? o0 + 1u : o0;
            mix_event_t *x = &pl->mix[e];
            pl->mix_native[e] = ev->native;
            x->len = ev->len;
            x->src0 = pl->op_src[o0];
            x->src1 = pl->op_src[o1];
            x->dst1 = ev->op_count == 2u ? pl->op_dst[o1] : ev->len;
            x->m0 = (uint16_t)(o0 * 16u);
            x->m1 = (uint16_t)(o1 * 16u);
            x->control = e == EVREC_CONTROL_EVENT_ID;
            x->pad = 0;
        }
#endif
    }
}

static uint8_t *conv(uint8_t *d, const uint8_t *s, uint8_t width)
{
    if (width == 1) {
        *d = *s;
        return d + 1;
    }
    if (width == 2) {
        uint16_t v;
        __builtin_memcpy(&v, s, 2);
        d[0] = (uint8_t)(v >> 8);
        d[1] = (uint8_t)v;
        return d + 2;
    }
    uint32_t v;
    __builtin_memcpy(&v, s, 4);
    evrec_put_be32(d, v);
    return d + 4;
}

/* Table walk: the fields of struct `sid`, native struct at `s`. */
EVREC_NO_TSAN static uint8_t *walk_struct(uint8_t *d, const evrec_meta_t *m, uint32_t sid, const uint8_t *s,
                                          unsigned depth)
{
    const evrec_struct_desc_t *st = &m->structs[sid];
    for (uint32_t f = 0; f < st->field_count && depth <= EVREC_MAX_NESTING; f++) {
        const evrec_field_desc_t *fd = &st->fields[f];
        if (fd->kind == EVREC_KIND_STRUCT) {
            d = walk_struct(d, m, fd->ref, s + fd->offset, depth + 1);
        } else {
            d = conv(d, s + fd->offset, width_of(fd->kind));
        }
    }
    return d;
}

#if HAVE_VEC
/* Runs the vector ops of `ev`, in order: each stores 16 bytes at d + its packed offset, so up to
 * 15 bytes past the packed record are written (the caller keeps that room). */
static inline void run_vector(uint8_t *d, const uint8_t *s, const plans_t *pl, const plan_event_t *ev)
{
    const uint32_t end = (uint32_t)ev->op_start + ev->op_count;
    for (uint32_t op = ev->op_start; op < end; op++) {
        vec_store(d + pl->op_dst[op], vec_shuffle(s + pl->op_src[op], pl->mask[op]));
    }
}
#endif

#if HAVE_VEC
/* Where a run of records of one event type may go without the general loop's checks: records
 * starting at or before q_last are whole in the input and their vector loads readable; output
 * positions at or before d_last keep room for a record without a flush (the general loop's own
 * condition, so the chunks come out the same). */
typedef struct run_limits {
    size_t q_last;
    const uint8_t *d_last;
} run_limits_t;

/* Limits for put_run() / put_mixed() from where the general loop is: records of up to `n` bytes
 * whose loads reach `reach` bytes, stored with `slack` bytes of room past them. The caller has
 * checked size >= n, readable >= reach and sizeof o->buf >= n + slack. */
static inline run_limits_t run_limits_of(size_t size, size_t readable, size_t n, size_t reach, const uint8_t *lim,
                                         size_t slack)
{
    run_limits_t rl;
    size_t by_size = size - n, by_reach = readable - reach;
    rl.q_last = by_size < by_reach ? by_size : by_reach;
    rl.d_last = lim - n - slack;
    return rl;
}

/* After `count` records converted by a loop that only stepped time forward, to restored time
 * `t64` and time field `prev`: the time state the general loop would have. */
static inline void time_moved_on(sync_state_t *t, uint64_t count, uint64_t t64, uint32_t prev)
{
    t->t64 = t64; /* forward steps only: the last is the largest */
    t->t64_max = t64 > t->t64_max ? t64 : t->t64_max;
    t->prev32 = prev;
    t->index += count;
}

/* 1 when the record at `s` continues a run: event type `id`, time a forward step from *prev
 * (FORMAT.md section 5); then *t64 and *prev move on to it. 0 ends the run. */
EVREC_NO_TSAN static inline int run_takes(const uint8_t *s, uint16_t id, uint32_t *prev, uint64_t *t64)
{
    const evrec_record_header_t *h = (const evrec_record_header_t *)(const void *)s;
    uint32_t step = h->time - *prev;
    if (h->id != id || step >= 0xC0000000u) {
        return 0;
    }
    __builtin_prefetch(s + 1024); /* the buffer is read once, front to back */
    *t64 += step;
    *prev = h->time;
    return 1;
}

/* Converts the records from rec + *q on while they are of event type `id` (plan `ev`: vector
 * ops, `n` bytes in the trace buffer each), within `lim`, and their time steps forward
 * (FORMAT.md section 5's rule without its backward case, which the general loop takes). Returns
 * the records converted and advances *q, *d and the time state past them. Same bytes as the
 * general loop: bursts of one event type are common (an interrupt's entries, a driver's frames)
 * and here cost no id lookup and, for plans of one or two ops, no plan or mask load, the loop
 * carrying only q, d and the restored time. */
/* Out of line: inlined into put_records(), the loops lost their registers to its state. */
EVREC_NO_TSAN __attribute__((noinline)) static uint64_t put_run(const uint8_t *rec, size_t *q, uint8_t **d,
                                                                run_limits_t lim, uint16_t id, const plans_t *pl,
                                                                const plan_event_t *ev, size_t n, sync_state_t *t)
{
    size_t qi = *q;
    uint8_t *di = *d;
    uint64_t t64 = t->t64, count = 0;
    uint32_t prev = t->prev32;
    const uint32_t op = ev->op_start, len = ev->len;
    const vec_t m0 = vec_mask(pl->mask[op]);
    const uint32_t src0 = pl->op_src[op];
    /* One loop per plan shape, so that the one- and two-op loops keep their masks in registers. */
    if (ev->op_count == 1u) {
        for (; qi <= lim.q_last && di <= lim.d_last && run_takes(rec + qi, id, &prev, &t64); count++) {
            vec_store(di, vec_shuffle_by(rec + qi + src0, m0));
            di += len;
            qi += n;
        }
    } else if (ev->op_count == 2u) {
        const vec_t m1 = vec_mask(pl->mask[op + 1u]);
        const uint32_t src1 = pl->op_src[op + 1u], dst1 = pl->op_dst[op + 1u];
        for (; qi <= lim.q_last && di <= lim.d_last && run_takes(rec + qi, id, &prev, &t64); count++) {
            vec_store(di, vec_shuffle_by(rec + qi + src0, m0));
            vec_store(di + dst1, vec_shuffle_by(rec + qi + src1, m1));
            di += len;
            qi += n;
        }
    } else {
        for (; qi <= lim.q_last && di <= lim.d_last && run_takes(rec + qi, id, &prev, &t64); count++) {
            run_vector(di, rec + qi, pl, ev); /* three ops or more: the ops from the plan */
            di += len;
            qi += n;
        }
    }
    if (count) {
        time_moved_on(t, count, t64, prev);
        *q = qi;
        *d = di;
    }
    return count;
}
#endif

#if HAVE_VEC
/* Converts the records from rec + *q on, of any event types with a plan of one or two vector
 * ops (records of up to 32 packed bytes, EventControl included), while they start at or before
 * lim.q_last, the output stays at or before lim.d_last and time steps forward; the general loop
 * takes whatever ends it. For streams that switch event type record by record (where put_run()
 * finds no runs): the same work as the general loop without its per-record checks, which the
 * limits make unneeded (lim.q_last leaves room for the largest record and its loads; lim.d_last
 * for the largest record and two stores). Every record costs two shuffles, branch-free; what is
 * left is the chain q -> id -> size -> q. Returns the records converted, adds the type changes
 * among them to *misses, advances *q, *d and the time state. */
EVREC_NO_TSAN __attribute__((noinline)) static uint64_t put_mixed(const uint8_t *rec, size_t *q, uint8_t **d,
                                                                  run_limits_t lim, const plans_t *pl,
                                                                  sync_state_t *t, uint32_t last_id,
                                                                  uint32_t *misses)
{
    const uint8_t *s = rec + *q, *const s_last = rec + lim.q_last;
    uint8_t *di = *d;
    const uint8_t *const masks = pl->mask[0];
    uint64_t t64 = t->t64, ticks = t->ticks, count = 0;
    uint32_t prev = t->prev32, last = last_id, miss = 0;
    while (s <= s_last && di <= lim.d_last) {
        const evrec_record_header_t *h = (const evrec_record_header_t *)(const void *)s;
        uint32_t id = h->id;
        if (id >= EVREC_SAVE_PLAN_EVENTS) {
            break;
        }
        const size_t n = pl->mix_native[id];
        const mix_event_t *x = &pl->mix[id];
        uint32_t step = h->time - prev;
        if (n == 0 || step >= 0xC0000000u) {
            break;
        }
        __builtin_prefetch(s + 1024);
        t64 += step;
        prev = h->time;
        ticks += x->control & (s[6] == EVREC_CONTROL_TICK); /* no branch: Ticks may alternate */
        miss += id != last;
        last = id;
        vec_store(di, vec_shuffle(s + x->src0, masks + x->m0));
        vec_store(di + x->dst1, vec_shuffle(s + x->src1, masks + x->m1));
        di += x->len;
        s += n;
        count++;
    }
    if (count) {
        time_moved_on(t, count, t64, prev);
        t->ticks = ticks;
        *q = (size_t)(s - rec);
        *d = di;
        *misses += miss;
    }
    return count;
}
#endif

/* The time state for SYNC chunks after the record at `s` (event type `id`): FORMAT.md section 5's
 * rule, as the reader applies it. */
EVREC_NO_TSAN static inline __attribute__((always_inline)) void time_step(sync_state_t *t, const uint8_t *s,
                                                                          uint16_t id)
{
    uint32_t t32 = ((const evrec_record_header_t *)(const void *)s)->time;
    uint32_t step = t32 - t->prev32;
    if (__builtin_expect(step >= 0xC0000000u, 0)) {
        uint64_t back = 0x100000000ull - step;
        t->t64 = t->t64 > back ? t->t64 - back : 0;
    } else if (t->index) {
        t->t64 += step;
    }
    t->prev32 = t32;
    t->t64_max = t->t64 > t->t64_max ? t->t64 : t->t64_max;
    /* without a branch: in a stream that mixes Ticks and other events at random it would
     * mispredict every other record (a record has at least 8 bytes) */
    t->ticks += (uint64_t)((id == EVREC_CONTROL_EVENT_ID) & (s[6] == EVREC_CONTROL_TICK));
    t->index++;
}

/* Converts the record at `s` (event type `id`, plan `ev` or NULL) to d; returns the end of its
 * bytes. `loads_ok`: its vector loads stay readable. */
EVREC_NO_TSAN static inline __attribute__((always_inline)) uint8_t *
put_one(uint8_t *d, const uint8_t *s, const evrec_meta_t *m, const plans_t *pl, const plan_event_t *ev,
        uint16_t id, int loads_ok)
{
    if (!ev || !ev->len) {
        return walk_struct(d, m, m->events[id].struct_id, s, 0);
    }
#if HAVE_VEC
    if (ev->op_count == 1u && loads_ok) {
        /* one load, one shuffle, one store: records of up to 16 packed bytes */
        vec_store(d, vec_shuffle(s + pl->op_src[ev->op_start], pl->mask[ev->op_start]));
    } else if (ev->op_count && loads_ok) {
        run_vector(d, s, pl, ev);
    } else
#else
    (void)loads_ok;
#endif
    {
        const uint8_t *perm = &pl->perm[ev->start];
        for (uint16_t k = 0; k < ev->len; k++) {
            d[k] = s[perm[k]];
        }
    }
    return d + ev->len;
}

#if HAVE_VEC
/* Whether put_run() may take the records after one of type `id` (`n` bytes, plan `ev` or NULL)
 * in rec[0, size), `readable` bytes readable. */
static inline int run_possible(const plan_event_t *ev, uint16_t id, size_t n, size_t size, size_t readable)
{
    return ev && ev->op_count && id != EVREC_CONTROL_EVENT_ID && size >= n && readable >= ev->reach &&
           sizeof(((const out_t *)0)->buf) >= n + 16u;
}
#endif

/* Converts the records in rec[0, size); bytes up to `readable` may be read (vector loads). */
EVREC_NO_TSAN static evrec_status put_records(out_t *o, const evrec_meta_t *m, const plans_t *plans,
                                              const uint8_t *rec, size_t size, size_t readable)
{
    const plans_t *pl = plans;
    size_t q = 0;
    /* The loop's critical path is q -> id load -> slot-size lookup -> q: two dependent loads per
     * record. When a record repeats its predecessor's type (bursts of one event are common), a
     * branch on "same id" lets the CPU run ahead (control dependencies are speculated, data
     * dependencies are not); when types alternate unpredictably the branch mispredicts, so the
     * loop measures the hit rate over each output chunk and predicts only while at least 7 of 8
     * guesses were right. Same bytes either way. */
    uint32_t last_id = 0x10000u;
    size_t last_n = 0;
    const plan_event_t *last_ev = NULL;
    int predict = 1;
    uint32_t misses = 0, seen = 0;
    /* Kept in registers: the output position (o->n is written back at each flush and at the end)
     * and the record offset below which every vector load is readable (loads reach at most
     * EVREC_MAX_EVENT_SIZE bytes past a record's start). */
    uint8_t *d = o->buf + o->n;
    uint8_t *const lim = o->buf + sizeof o->buf;
    const size_t all_readable = readable >= EVREC_MAX_EVENT_SIZE ? readable - EVREC_MAX_EVENT_SIZE + 1u : 0u;
    evrec_status st = EVREC_OK;
    if (o->status != EVREC_OK) {
        return size == 0 ? EVREC_OK : EVREC_E_CORRUPT; /* nothing converted (as the caller sees) */
    }
    sync_state_t t = o->now;
#if HAVE_VEC
    const int mix_ok = size >= EVREC_MAX_EVENT_SIZE && readable >= EVREC_MAX_EVENT_SIZE + 16u &&
                       sizeof o->buf >= EVREC_MAX_EVENT_SIZE + 32u;
#endif
    while (q + sizeof(evrec_record_header_t) <= size) {
        const uint8_t *s = rec + q;
        __builtin_prefetch(s + 1024); /* the buffer is read once, front to back */
        uint16_t id = ((const evrec_record_header_t *)(const void *)s)->id;
        size_t n;
        const plan_event_t *ev;
        if (predict && __builtin_expect(id == last_id, 1)) {
            n = last_n;
            ev = last_ev;
        } else {
            ev = id < EVREC_SAVE_PLAN_EVENTS ? &pl->ev[id] : NULL;
            n = ev ? ev->native : evrec_slot_size_of(m, id);
            misses += id != last_id;
            last_id = id;
            last_n = n;
            last_ev = ev;
        }
        seen++;
        if (n == 0 || q + n > size) {
            st = EVREC_E_CORRUPT;
            break;
        }
        if ((size_t)(lim - d) < n + 16u) { /* packed <= native; +16 for the vector stores */
            o->n = (size_t)(d - o->buf);
            flush(o);
            d = o->buf + o->n;
            if (o->status != EVREC_OK) {
                break;
            }
            predict = misses * 8u < seen;
            misses = seen = 0;
        }
        if (__builtin_expect(d == o->buf, 0)) {
            o->at_buf = t; /* this chunk starts with this record: a SYNC point */
            o->at_buf_ok = 1;
        }
        time_step(&t, s, id);
#if HAVE_VEC
        d = put_one(d, s, m, pl, ev, id, q < all_readable || (ev && q + ev->reach <= readable));
#else
        d = put_one(d, s, m, pl, ev, id, 0);
#endif
        q += n;
#if HAVE_VEC
        /* The next records may be a run of this one's type (see put_run()): tried while ids
         * repeat (`predict`; where types alternate, the try would mispredict as often). */
        if (predict && run_possible(ev, id, n, size, readable)) {
            run_limits_t rl = run_limits_of(size, readable, n, ev->reach, lim, 16u);
            seen += (uint32_t)put_run(rec, &q, &d, rl, id, pl, ev, n, &t);
        }
        /* Where types alternate (`predict` off): the records that follow, whatever their
         * types (see put_mixed()). */
        if (!predict && mix_ok) {
            run_limits_t rl = run_limits_of(size, readable, EVREC_MAX_EVENT_SIZE, EVREC_MAX_EVENT_SIZE + 16u, lim,
                                            32u);
            seen += (uint32_t)put_mixed(rec, &q, &d, rl, pl, &t, last_id, &misses);
        }
#endif
    }
    o->now = t;
    o->n = (size_t)(d - o->buf);
#if !HAVE_VEC
    (void)readable;
    (void)all_readable;
#endif
    if (st != EVREC_OK) {
        return st;
    }
    return q == size ? EVREC_OK : EVREC_E_CORRUPT;
}

static void put_end(out_t *o)
{
    static const uint8_t end[7] = {0, 0, 0, 0, 0, EVREC_CONTROL_EVENT_ID, EVREC_CONTROL_END};
    put(o, end, sizeof end);
}

static evrec_status save_stream(out_t *o, const evrec_meta_t *m, uint64_t time_freq, const uint8_t *records,
                                size_t size, size_t readable)
{
    plans_t pl;
    plans_build(&pl, m);
    put_meta(o, m, time_freq, 0);
    evrec_status st = put_records(o, m, &pl, records, size, readable);
    put_end(o);
    flush(o);
    return o->status != EVREC_OK ? o->status : st;
}

/* RUNTIME_ENUMS payload (FORMAT.md section 2). `as_chunk`: write it as a chunk (only when there
 * are ranges); else append it to the stream bytes (canonical meta-info, count 0 included). */
static void put_runtime_ranges(out_t *o, const evrec_meta_t *m, int as_chunk)
{
    uint32_t count = 0;
    for (uint32_t i = 0; i < m->enum_count; i++) {
        count += m->enums[i].runtime != NULL;
    }
    if (!as_chunk) {
        put_u32(o, count);
        for (uint32_t i = 0; i < m->enum_count; i++) {
            if (m->enums[i].runtime) {
                put_u32(o, i);
                put_u32(o, m->enums[i].runtime->base);
                put_u32(o, m->enums[i].runtime->lim);
            }
        }
        return;
    }
    if (count == 0) {
        return;
    }
    /* Staged in o->buf (empty at this point); 12 bytes per range. */
    uint8_t *d = o->buf;
    evrec_put_be32(d, count);
    size_t n = 4;
    for (uint32_t i = 0; i < m->enum_count && n + 12 <= sizeof o->buf; i++) {
        const evrec_runtime_enum_t *r = m->enums[i].runtime;
        if (r) {
            evrec_put_be32(d + n, i);
            evrec_put_be32(d + n + 4, r->base);
            evrec_put_be32(d + n + 8, r->lim);
            n += 12;
        }
    }
    if (n != 4 + 12u * count) {
        o->status = EVREC_E_ARG; /* more ranges than one chunk holds: raise EVREC_SAVE_CHUNK */
        return;
    }
    write_chunk(o, EVREC_CHUNK_RUNTIME_ENUMS, d, n);
}

/* FIELD_INFO payload: u32 count, then per entry u16 struct_id, u16 field_index, u8 display,
 * String unit, String description. Produced three times through fi_emit(): to measure its length,
 * to compute the CRC over the header word and the payload (the header comes first), to send it. */
typedef struct fi_pass {
    out_t *o; /* NULL: measuring */
    uint32_t len;
    uint32_t crc;
} fi_pass_t;

static void fi_emit(fi_pass_t *f, const void *p, size_t n)
{
    if (f->o) {
        put(f->o, p, n);
    } else {
        f->len += (uint32_t)n;
        f->crc = evrec_crc32c(f->crc, p, n);
    }
}

static void fi_u32(fi_pass_t *f, uint32_t v)
{
    uint8_t d[4];
    evrec_put_be32(d, v);
    fi_emit(f, d, 4);
}

static void fi_string(fi_pass_t *f, const char *s)
{
    size_t len = 0;
    while (s && s[len]) {
        len++;
    }
    fi_u32(f, (uint32_t)len);
    fi_emit(f, s, len);
}

static void fi_payload(fi_pass_t *f, const evrec_field_info_table_t *t)
{
    fi_u32(f, t->count);
    for (uint32_t i = 0; i < t->count; i++) {
        const evrec_field_info_t *e = &t->entries[i];
        uint8_t d[5] = {(uint8_t)(e->struct_id >> 8), (uint8_t)e->struct_id, (uint8_t)(e->field_index >> 8),
                        (uint8_t)e->field_index, e->display};
        fi_emit(f, d, 5);
        fi_string(f, e->unit);
        fi_string(f, e->description);
    }
}

static void put_field_info_chunk(out_t *o, const evrec_meta_t *m)
{
    const evrec_field_info_table_t *t = m->field_info;
    if (!t || t->count == 0 || !t->entries) {
        return;
    }
    fi_pass_t f = {NULL, 0, 0};
    uint8_t h[EVREC_CHUNK_HEADER_SIZE];
    fi_payload(&f, t); /* measure */
    if (f.len > 0xFFFFFFu) {
        o->status = EVREC_E_ARG;
        return;
    }
    evrec_put_be32(h, ((uint32_t)EVREC_CHUNK_FIELD_INFO << 24) | f.len);
    /* The CRC covers the header word then the payload: a second pass chained onto the word. */
    fi_pass_t g = {NULL, 0, evrec_crc32c(0, h, 4)};
    fi_payload(&g, t);
    evrec_put_be32(h + 4, g.crc);
    sink_write(o, h, sizeof h);
    /* Send the payload raw through the staging buffer (not as STREAM chunks). */
    int was_container = o->container;
    o->container = 0;
    fi_pass_t s = {o, 0, 0};
    fi_payload(&s, t);
    flush(o);
    o->container = was_container;
}

/* The chunks before the stream (RUNTIME_ENUMS, FIELD_INFO, TRACKS, COUNTER_SERIES), in order. */
static void put_pre_stream_chunks(out_t *o, const evrec_meta_t *m)
{
    put_runtime_ranges(o, m, 1);
    put_field_info_chunk(o, m);
    if (o->status == EVREC_OK) {
        o->status = evrec_tracks_put_chunk(m, o->to);
    }
    if (o->status == EVREC_OK) {
        o->status = evrec_counter_series_put_chunk(m, o->to);
    }
}

static void put_header(out_t *o, const evrec_save_source_t *src, uint64_t recorded)
{
    uint8_t *h = o->header;
    __builtin_memset(h, 0, EVREC_HEADER_SIZE);
    __builtin_memcpy(h, EVREC_MAGIC, 8);
    h[9] = EVREC_FORMAT_MAJOR;
    h[11] = src->lanes ? EVREC_FORMAT_MINOR_LANES : EVREC_FORMAT_MINOR;
    evrec_put_be32(h + 12, src->flags);
    evrec_put_be64(h + 16, src->schema_hash);
    evrec_put_be64(h + 24, recorded);
    evrec_put_be64(h + 32, src->dropped);
    evrec_put_be32(h + 40, src->overwritten > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)src->overwritten);
    evrec_put_be32(h + 44, evrec_crc32c(0, h, 44));
    o->file_id = src->file_id(src->ctx, h);
    sink_write(o, h, EVREC_HEADER_SIZE);
    put_pre_stream_chunks(o, src->meta);
    if (o->status == EVREC_OK && src->attrs) {
        o->status = evrec_attrs_put_chunk(src->attrs, o->to); /* FORMAT.md section 2.6 */
    }
}

/* LANES payload (FORMAT.md section 2.3): u32 count, then per lane u64 records, u64 dropped,
 * u64 overwritten. */
static void put_lanes_chunk(out_t *o, const evrec_save_source_t *src)
{
    uint8_t hd[EVREC_CHUNK_HEADER_SIZE + 4];
    evrec_put_be32(hd, ((uint32_t)EVREC_CHUNK_LANES << 24) | (4u + 24u * src->lanes));
    evrec_put_be32(hd + EVREC_CHUNK_HEADER_SIZE, src->lanes);
    uint32_t crc = evrec_crc32c(evrec_crc32c(0, hd, 4), hd + EVREC_CHUNK_HEADER_SIZE, 4);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            evrec_put_be32(hd + 4, crc);
            sink_write(o, hd, sizeof hd);
        }
        for (uint32_t k = 0; k < src->lanes; k++) {
            uint64_t c[3];
            uint8_t d[24];
            src->lane_counts(src->ctx, k, c);
            evrec_put_be64(d, c[0]);
            evrec_put_be64(d + 8, c[1]);
            evrec_put_be64(d + 16, c[2]);
            if (pass == 0) {
                crc = evrec_crc32c(crc, d, sizeof d);
            } else {
                sink_write(o, d, sizeof d);
            }
        }
    }
}

/* ---- the copies at the end (FORMAT.md section 2.4): COPY chunks, TAIL, END ---- */

/* A sink between an emitter of one chunk (or of raw meta-info bytes) and the file: drops the
 * emitted chunk header (taking its type), then measures the payload, or chains the CRC over it,
 * or sends it on. So each COPY chunk is produced from the tables again, never from a buffer. */
typedef struct copy_sink {
    const evrec_sink_t *down; /* the counting sink */
    int pass;                 /* 0 measure, 1 CRC, 2 send */
    size_t skip;              /* header bytes still to drop */
    uint8_t type;
    uint32_t len, crc;
} copy_sink_t;

static int copy_write(void *ctx, const void *data, size_t len)
{
    copy_sink_t *c = (copy_sink_t *)ctx;
    const uint8_t *p = (const uint8_t *)data;
    while (c->skip && len) {
        if (c->skip == EVREC_CHUNK_HEADER_SIZE) {
            c->type = p[0];
        }
        c->skip--;
        p++;
        len--;
    }
    if (c->pass == 0) {
        c->len += (uint32_t)len;
    } else if (c->pass == 1) {
        c->crc = evrec_crc32c(c->crc, p, len);
    } else if (len) {
        return c->down->write(c->down->ctx, p, len);
    }
    return 0;
}

typedef void (*emit_fn)(out_t *o, const void *arg);

/* One COPY chunk: u8 type, then what `emit` writes (its chunk header dropped; `raw_type` != 0:
 * raw bytes of that type). Nothing when `emit` writes nothing. */
static void put_copy(out_t *o, emit_fn emit, const void *arg, uint8_t raw_type)
{
    const evrec_sink_t *down = o->to;
    int was_container = o->container;
    copy_sink_t c = {down, 0, 0, raw_type, 0, 0};
    evrec_sink_t via = {copy_write, &c};
    uint8_t h[EVREC_CHUNK_HEADER_SIZE + 1];
    for (c.pass = 0; c.pass < 3 && o->status == EVREC_OK; c.pass++) {
        c.skip = raw_type ? 0 : EVREC_CHUNK_HEADER_SIZE;
        if (c.pass == 1) {
            if ((c.len == 0 && !raw_type) || c.len >= 0xFFFFFFu) {
                break; /* nothing to copy (or too long: the copy is left out) */
            }
            evrec_put_be32(h, ((uint32_t)EVREC_CHUNK_COPY << 24) | (c.len + 1u));
            h[EVREC_CHUNK_HEADER_SIZE] = c.type;
            c.crc = evrec_crc32c(evrec_crc32c(0, h, 4), &c.type, 1);
        } else if (c.pass == 2) {
            evrec_put_be32(h + 4, c.crc);
            sink_write(o, h, sizeof h);
        }
        o->to = &via; /* passes 0 and 1 send nothing on, so count nothing */
        o->container = 0;
        emit(o, arg);
        o->to = down;
        o->container = was_container;
    }
}

static void emit_runtime(out_t *o, const void *m)
{
    put_runtime_ranges(o, (const evrec_meta_t *)m, 1);
}
static void emit_field_info(out_t *o, const void *m)
{
    put_field_info_chunk(o, (const evrec_meta_t *)m);
}

static void emit_tracks(out_t *o, const void *m)
{
    if (o->status == EVREC_OK) {
        o->status = evrec_tracks_put_chunk((const evrec_meta_t *)m, o->to);
    }
}

static void emit_counter_series(out_t *o, const void *m)
{
    if (o->status == EVREC_OK) {
        o->status = evrec_counter_series_put_chunk((const evrec_meta_t *)m, o->to);
    }
}

static void emit_meta(out_t *o, const void *src)
{
    const evrec_save_source_t *s = (const evrec_save_source_t *)src;
    put_meta(o, s->meta, s->time_freq, 0);
    flush(o);
}

static void emit_lanes(out_t *o, const void *src)
{
    put_lanes_chunk(o, (const evrec_save_source_t *)src);
}

/* The INDEX chunk (FORMAT.md section 2.5), right before the copies: the TAIL chunk leads to it. */
static void put_index(out_t *o)
{
    if (o->status == EVREC_OK && evrec_index_write(&o->idx, o->to) != EVREC_OK) {
        o->status = EVREC_E_IO;
    }
}

/* After the stream: the seek index, the copies of the chunks a reader needs before the records
 * (with lanes, the LANES chunk's), the TAIL chunk, the END chunk. */
static void finish_container(out_t *o, const evrec_save_source_t *src)
{
    const evrec_meta_t *m = src->meta;
    put_index(o);
    uint64_t copy_off = o->file.written;
    put_copy(o, emit_runtime, m, 0);
    put_copy(o, emit_field_info, m, 0);
    put_copy(o, emit_tracks, m, 0);
    put_copy(o, emit_counter_series, m, 0);
    if (src->lanes) {
        put_copy(o, emit_lanes, src, 0);
    }
    put_copy(o, emit_meta, src, EVREC_CHUNK_STREAM);
    uint8_t d[EVREC_TAIL_SIZE];
    evrec_put_be64(d, o->file.written - copy_off); /* the copies' bytes: found back from the end */
    evrec_put_be32(d + 8, o->file_id);
    evrec_put_be32(d + 12, o->seq);
    __builtin_memcpy(d + 16, o->header, EVREC_HEADER_SIZE);
    (void)write_chunk(o, EVREC_CHUNK_TAIL, d, sizeof d);
    (void)write_chunk(o, EVREC_CHUNK_END, o->buf, 0);
}

/* ---- a recording given as a source (save_internal.h) ---- */

/* Not inlined: one copy for both callers of evrec_save_write(). `ids`: the lanes' LANE_IDS
 * staging, NULL without lanes. */
__attribute__((noinline)) static evrec_status write_source(out_t *o, const evrec_save_source_t *src, uint8_t *ids)
{
    plans_t pl;
    plans_build(&pl, src->meta);
    o->meta = src->meta;
    o->plans = &pl;
    uint64_t recorded = src->recorded;
    if (src->count_first) {
        recorded = 0;
        (void)src->records(src->ctx, NULL, &recorded);
    }
#if EVREC_SAVE_INDEX_ENTRIES > 0
    evrec_index_entry_t idx_entries[EVREC_SAVE_INDEX_ENTRIES];
    evrec_index_init(&o->idx, idx_entries, EVREC_SAVE_INDEX_ENTRIES);
#endif
    if (o->container) {
        put_header(o, src, recorded);
        if (src->lanes) {
            put_lanes_chunk(o, src);
            o->ids = ids;
        }
    }
    put_meta(o, src->meta, src->time_freq, 0);
    evrec_status st = src->records(src->ctx, o, NULL);
    put_end(o);
    flush(o);
    if (o->container) {
        finish_container(o, src);
    }
    return o->status != EVREC_OK ? o->status : st;
}

/* Not inlined: the lane of each record of a chunk stays off the stack of a save without lanes. */
__attribute__((noinline)) static evrec_status write_lanes(out_t *o, const evrec_save_source_t *src)
{
    uint8_t ids[EVREC_SAVE_CHUNK / 6u + 2u]; /* a packed record has at least 6 bytes */
    return write_source(o, src, ids);
}

evrec_status evrec_save_write(const evrec_save_source_t *src, const evrec_sink_t *sink, int container)
{
    out_t o;
    out_init(&o, sink, container);
    if (src->lanes && container) {
        return write_lanes(&o, src);
    }
    return write_source(&o, src, NULL);
}

evrec_status evrec_save_put_records(evrec_save_out_t *o, const uint8_t *rec, size_t size, size_t readable)
{
    return put_records(o, o->meta, o->plans, rec, size, readable);
}

evrec_status evrec_save_put_block(evrec_save_out_t *o, const uint8_t *rec, size_t size, size_t readable,
                                  size_t room, int (*intact)(const void *arg), const void *arg)
{
    if (sizeof o->buf - o->n < room) {
        flush(o);
    }
    size_t mark = o->n;
    sync_state_t now = o->now, at_buf = o->at_buf;
    int at_buf_ok = o->at_buf_ok;
    evrec_status st = put_records(o, o->meta, o->plans, rec, size, readable);
    if (st == EVREC_OK && intact(arg)) {
        return EVREC_OK;
    }
    o->n = mark; /* overwritten while converted: drop the whole block */
    o->now = now;
    o->at_buf = at_buf;
    o->at_buf_ok = at_buf_ok;
    return EVREC_E_BUSY;
}

void evrec_save_put_lane_record(evrec_save_out_t *o, const uint8_t *rec, size_t size, size_t readable,
                                uint32_t lane)
{
    (void)put_records(o, o->meta, o->plans, rec, size, readable);
    if (o->ids) {
        o->ids[o->ids_n++] = (uint8_t)lane;
    }
}

size_t evrec_save_chunk_size(void)
{
    return EVREC_SAVE_CHUNK;
}

evrec_status evrec_save_ccore(const evrec_meta_t *meta, uint64_t time_freq, const void *records, size_t size,
                              const evrec_sink_t *sink)
{
    if (!meta || (!records && size) || !sink || !sink->write) {
        return EVREC_E_ARG;
    }
    out_t o;
    out_init(&o, sink, 0);
    return save_stream(&o, meta, time_freq, (const uint8_t *)records, size, size);
}

evrec_status evrec_meta_write_canonical(const evrec_meta_t *meta, const evrec_sink_t *sink)
{
    if (!meta || !sink || !sink->write) {
        return EVREC_E_ARG;
    }
    out_t o;
    out_init(&o, sink, 0);
    put_meta(&o, meta, 0, 1);
    put_runtime_ranges(&o, meta, 0);
    flush(&o);
    return o.status != EVREC_OK ? o.status : evrec_tracks_put_canonical(meta, o.to);
}

/* ---- pieces for the streaming mode (buffer/stream_drain.c; FORMAT.md section 8) ---- */

uint8_t *evrec_save_pack_record(const evrec_meta_t *m, uint8_t *d, const uint8_t *s, uint16_t id)
{
    return walk_struct(d, m, m->events[id].struct_id, s, 0);
}

evrec_status evrec_save_meta_raw(const evrec_meta_t *m, uint64_t time_freq, const evrec_sink_t *sink)
{
    out_t o;
    out_init(&o, sink, 0);
    put_meta(&o, m, time_freq, 0);
    flush(&o);
    return o.status;
}

evrec_status evrec_save_pre_chunks(const evrec_meta_t *m, const evrec_sink_t *sink)
{
    out_t o;
    out_init(&o, sink, 1);
    put_pre_stream_chunks(&o, m);
    return o.status;
}
