/* SPDX-License-Identifier: Apache-2.0 */
/* The RTT-compatible up-channel (evrec/evrec_rtt.h): a control block with SEGGER RTT's public
 * layout (wiki.segger.com/RTT; OpenOCD src/target/rtt.c; probe-rs' rtt module) and the writer of
 * its up buffer, fed by evrec_stream_drain(). The host owns RdOff, this writer owns WrOff; every
 * offset read back from the block is checked against the buffer's size before it is used (a
 * debugger may write anything there). */

#include "evrec/evrec_rtt.h"

/* Smallest up buffer, bytes. */
#define RTT_MIN_SIZE 16u

evrec_status evrec_rtt_init(evrec_rtt_t *rtt, void *up, size_t up_size, const char *name, evrec_rtt_mode_t mode)
{
    if (!rtt || !up || up_size < RTT_MIN_SIZE || up_size > (size_t)INT32_MAX ||
        (mode != EVREC_RTT_SKIP && mode != EVREC_RTT_DROP)) {
        return EVREC_E_ARG;
    }
    /* A block a host already found (a second init) stops matching before its fields change. */
    ((volatile char *)rtt->cb.id)[0] = '\0';
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    __builtin_memset(rtt, 0, sizeof *rtt);
    rtt->mode = mode;
    rtt->cb.max_up = 1;
    rtt->cb.max_down = 1;
    rtt->cb.up.name = name;
    rtt->cb.up.buffer = (uint8_t *)up;
    rtt->cb.up.size = (uint32_t)up_size;
    /* The block is complete before its ID can be found. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    static const char id_rev[] = "TTR REGGES"; /* EVREC_RTT_ID backwards: no whole copy in the image */
    volatile char *id = rtt->cb.id;
    for (size_t i = 0; i < sizeof id_rev - 1u; i++) {
        id[sizeof id_rev - 2u - i] = id_rev[i];
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return EVREC_OK;
}

/* The writer's view of the up buffer: where to write, how much is free in all and up to the
 * buffer's end. `ok` is 0 when an offset in the block is out of range (nothing is written then). */
typedef struct room {
    uint32_t wr, free, contig;
    int ok;
} room_t;

static room_t room_of(const evrec_rtt_buffer_t *b)
{
    room_t r = {0, 0, 0, 0};
    uint32_t size = b->size;
    uint32_t wr = __atomic_load_n(&b->wr_off, __ATOMIC_RELAXED);
    /* The bytes up to RdOff were read before the host wrote it: acquire, then overwrite them. */
    uint32_t rd = __atomic_load_n(&b->rd_off, __ATOMIC_ACQUIRE);
    if (!b->buffer || wr >= size || rd >= size) {
        return r;
    }
    r.ok = 1;
    r.wr = wr;
    if (rd > wr) {
        r.free = rd - wr - 1u;
        r.contig = r.free;
    } else {
        r.free = size - wr + rd - 1u;
        r.contig = rd == 0 ? size - wr - 1u : size - wr;
    }
    return r;
}

/* Publishes `len` bytes written at `wr`: the data is in place before WrOff moves (release). */
static void publish(evrec_rtt_t *rtt, uint32_t wr, size_t len)
{
    evrec_rtt_buffer_t *b = &rtt->cb.up;
    uint32_t next = (uint32_t)(((size_t)wr + len) % b->size);
    __atomic_store_n(&b->wr_off, next, __ATOMIC_RELEASE);
    rtt->bytes_written += len;
}

/* Copies len bytes (len <= the room's free bytes) at r->wr, in two pieces across the end. */
static void copy_in(evrec_rtt_t *rtt, const room_t *r, const uint8_t *data, size_t len)
{
    evrec_rtt_buffer_t *b = &rtt->cb.up;
    size_t first = b->size - r->wr;
    if (first > len) {
        first = len;
    }
    __builtin_memcpy(b->buffer + r->wr, data, first);
    __builtin_memcpy(b->buffer, data + first, len - first);
    publish(rtt, r->wr, len);
}

size_t evrec_rtt_free_bytes(const evrec_rtt_t *rtt)
{
    return rtt ? room_of(&rtt->cb.up).free : 0u;
}

size_t evrec_rtt_write(evrec_rtt_t *rtt, const void *data, size_t len)
{
    if (!rtt || !data || len == 0) {
        return 0;
    }
    room_t r = room_of(&rtt->cb.up);
    if (!r.ok || len > r.free) {
        return 0;
    }
    copy_in(rtt, &r, (const uint8_t *)data, len);
    return len;
}

/* Bytes of the whole frame at f (n bytes available): 12 + its length field, or 0 when the bytes
 * are not a whole frame (cannot happen with the drain's output). FORMAT.md section 8.1. */
static size_t frame_bytes(const uint8_t *f, size_t n)
{
    if (n < EVREC_STREAM_FRAME_HEADER) {
        return 0;
    }
    size_t len = (size_t)f[5] << 16 | (size_t)f[6] << 8 | f[7];
    len += EVREC_STREAM_FRAME_HEADER;
    return len <= n ? len : 0;
}

/* Skip mode, one step: drain only what fits; straight into the up buffer when it has room up to
 * its end, else through scratch. */
static size_t drain_skip(evrec_rtt_t *rtt, evrec_stream_t *s, uint8_t *scratch, size_t scratch_size)
{
    room_t r = room_of(&rtt->cb.up);
    if (!r.ok) {
        return 0;
    }
    if (r.contig >= EVREC_STREAM_MIN_CAP) {
        size_t n = evrec_stream_drain(s, rtt->cb.up.buffer + r.wr, r.contig);
        if (n) {
            publish(rtt, r.wr, n);
        }
        return n;
    }
    size_t cap = r.free < scratch_size ? r.free : scratch_size;
    if (cap < EVREC_STREAM_MIN_CAP) {
        return 0;
    }
    size_t n = evrec_stream_drain(s, scratch, cap);
    if (n) {
        copy_in(rtt, &r, scratch, n);
    }
    return n;
}

/* Drop mode: drain up to scratch_size bytes; write the whole frames that fit, drop the rest. */
static size_t drain_drop(evrec_rtt_t *rtt, evrec_stream_t *s, uint8_t *scratch, size_t scratch_size)
{
    room_t r = room_of(&rtt->cb.up);
    if (r.ok && r.contig >= scratch_size) {
        size_t n = evrec_stream_drain(s, rtt->cb.up.buffer + r.wr, r.contig);
        if (n) {
            publish(rtt, r.wr, n);
        }
        return n;
    }
    size_t n = evrec_stream_drain(s, scratch, scratch_size), fit = 0, f;
    while (fit < n && (f = frame_bytes(scratch + fit, n - fit)) != 0 && r.ok && fit + f <= r.free) {
        fit += f;
    }
    if (fit) {
        copy_in(rtt, &r, scratch, fit);
    }
    for (size_t at = fit; at < n; at += f) {
        f = frame_bytes(scratch + at, n - at);
        if (!f) {
            f = n - at; /* not a frame: count the rest as one */
        }
        rtt->frames_dropped++;
        rtt->bytes_dropped += f;
    }
    return fit;
}

size_t evrec_rtt_drain(evrec_rtt_t *rtt, evrec_stream_t *s, void *scratch, size_t scratch_size)
{
    if (!rtt || !s || !scratch || scratch_size < EVREC_STREAM_MIN_CAP) {
        return 0;
    }
    if (rtt->mode == EVREC_RTT_DROP) {
        return drain_drop(rtt, s, (uint8_t *)scratch, scratch_size);
    }
    /* Up to the buffer's end, then from its start. */
    size_t n = drain_skip(rtt, s, (uint8_t *)scratch, scratch_size);
    return n ? n + drain_skip(rtt, s, (uint8_t *)scratch, scratch_size) : 0;
}

evrec_rtt_counts_t evrec_rtt_counts(const evrec_rtt_t *rtt)
{
    evrec_rtt_counts_t c = {0, 0, 0};
    if (rtt) {
        c.bytes_written = rtt->bytes_written;
        c.frames_dropped = rtt->frames_dropped;
        c.bytes_dropped = rtt->bytes_dropped;
    }
    return c;
}
