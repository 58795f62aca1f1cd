/* SPDX-License-Identifier: Apache-2.0 */
/* The previous boot's recording as S_PREV_BOOT frames (evrec_stream_send_prev_boot(),
 * evrec/evrec_stream_boot.h; FORMAT.md section 8.2): evrec_save() into a sink that measures, then
 * into one that cuts the file into frames. */
#include "evrec/evrec_save.h"
#include "evrec/evrec_stream_boot.h"
#include "save_internal.h"

/* Bytes and CRC-32C of what was written. */
typedef struct measure {
    uint64_t size;
    uint32_t crc;
} measure_t;

static int measure_write(void *ctx, const void *data, size_t len)
{
    measure_t *m = (measure_t *)ctx;
    m->crc = evrec_crc32c(m->crc, data, len);
    m->size += len;
    return 0;
}

/* A frame being filled: its payload's head is written when it goes out. */
typedef struct framer {
    uint8_t *f;
    size_t room; /* bytes of the file a frame carries */
    size_t fill; /* bytes of the file in the frame being filled */
    uint32_t stream_id, crc, size, offset;
    const evrec_sink_t *out;
    int failed;
} framer_t;

static int framer_flush(framer_t *w)
{
    uint8_t *p = w->f + EVREC_STREAM_FRAME_HEADER;
    uint32_t len = EVREC_FRAME_PREV_BOOT_HEAD + (uint32_t)w->fill;
    evrec_put_be32(p, w->stream_id);
    evrec_put_be32(p + 4, w->crc);
    evrec_put_be32(p + 8, w->size);
    evrec_put_be32(p + 12, w->offset);
    __builtin_memcpy(w->f, EVREC_STREAM_MAGIC, 4);
    evrec_put_be32(w->f + 4, EVREC_FRAME_PREV_BOOT << 24 | len);
    evrec_put_be32(w->f + 8, evrec_crc32c(evrec_crc32c(0, w->f + 4, 4), p, len));
    w->offset += (uint32_t)w->fill;
    w->fill = 0;
    if (w->out->write(w->out->ctx, w->f, EVREC_STREAM_FRAME_HEADER + len) != 0) {
        w->failed = 1;
    }
    return w->failed;
}

static int framer_write(void *ctx, const void *data, size_t len)
{
    framer_t *w = (framer_t *)ctx;
    const uint8_t *d = (const uint8_t *)data;
    while (len && !w->failed) {
        size_t k = w->room - w->fill < len ? w->room - w->fill : len;
        __builtin_memcpy(w->f + EVREC_STREAM_FRAME_HEADER + EVREC_FRAME_PREV_BOOT_HEAD + w->fill, d, k);
        w->fill += k;
        d += k;
        len -= k;
        if (w->fill == w->room) {
            (void)framer_flush(w);
        }
    }
    return w->failed;
}

evrec_status evrec_stream_send_prev_boot(const evrec_recorder_t *rec, uint32_t stream_id,
                                         const evrec_sink_t *transport, void *frame, size_t frame_cap)
{
    if (!rec || !transport || !transport->write || !frame || stream_id == 0 ||
        frame_cap < EVREC_STREAM_PREV_BOOT_MIN_FRAME) {
        return EVREC_E_ARG;
    }
    measure_t m = {0, 0};
    evrec_sink_t ms = {measure_write, &m};
    evrec_status st = evrec_save(rec, &ms);
    if (st != EVREC_OK && st != EVREC_E_CORRUPT) {
        return st; /* E_CORRUPT: the records before the bad one, in a file ended properly */
    }
    if (m.size > 0xFFFFFFFFu) {
        return EVREC_E_IO;
    }
    size_t room = frame_cap - EVREC_STREAM_FRAME_HEADER - EVREC_FRAME_PREV_BOOT_HEAD;
    size_t most = EVREC_STREAM_MAX_PAYLOAD - EVREC_FRAME_PREV_BOOT_HEAD;
    framer_t w = {
        (uint8_t *)frame, room < most ? room : most, 0, stream_id, m.crc, (uint32_t)m.size, 0, transport, 0};
    evrec_sink_t fs = {framer_write, &w};
    st = evrec_save(rec, &fs);
    if (st != EVREC_E_IO && w.fill) {
        (void)framer_flush(&w);
    }
    return w.failed || w.offset != m.size ? EVREC_E_IO : st;
}
