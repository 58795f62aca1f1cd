/* SPDX-License-Identifier: Apache-2.0 */
/* What the receiver does with an intact frame (FORMAT.md section 8.2): assembles the meta
 * document, checks each S_RECORDS frame's sequence number against its lane (records lost in
 * transport, duplicates), splits it into records with the document's event sizes, takes the
 * target's drops from S_LOSS and S_END, hands out the previous boot's file from S_PREV_BOOT. */
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_meta.h"
#include "evrec/evrec_stream_format.h"
#include "stream_internal.h"

static void fail(evrec_srx_t *rx, evrec_status st)
{
    if (rx->failed == EVREC_OK) {
        rx->failed = st;
    }
}

/* A complete document whose CRC checks: the first one is used (later ones, with newer run-time
 * enum names, are not: the file has one meta-info). */
static void doc_complete(evrec_srx_t *rx)
{
    if (evrec_crc32c(0, rx->doc, rx->doc_size) != rx->doc_crc) {
        rx->doc_filled = 0;
        return;
    }
    uint32_t *sl = malloc(65536u * sizeof *sl);
    size_t off, len;
    if (!sl) {
        fail(rx, EVREC_E_NOMEM);
        return;
    }
    if (evrec_srx_doc_events(rx->doc, rx->doc_size, sl, &off, &len) != EVREC_OK) {
        free(sl);
        rx->doc_filled = 0;
        return;
    }
    rx->save_len = sl;
    rx->st.have_meta = 1;
    if (rx->sink.meta && rx->sink.meta(rx->sink.ctx, rx->doc, rx->doc_size) != 0) {
        fail(rx, EVREC_E_IO);
    }
}

/* S_META: pieces in order from offset 0; a piece out of order waits for the next document. */
static void on_meta(evrec_srx_t *rx, const uint8_t *p, size_t len)
{
    if (rx->st.have_meta || len < EVREC_FRAME_META_HEAD) {
        return;
    }
    uint32_t crc = srx_be32(p + 4), size = srx_be32(p + 8), off = srx_be32(p + 12);
    size_t k = len - EVREC_FRAME_META_HEAD;
    if (size > EVREC_SRX_MAX_DOC || off > size || k > size - off) {
        return;
    }
    if (off == 0 || crc != rx->doc_crc || size != rx->doc_size) {
        if (off != 0) {
            return;
        }
        uint8_t *nd = realloc(rx->doc, size ? size : 1u);
        if (!nd) {
            fail(rx, EVREC_E_NOMEM);
            return;
        }
        rx->doc = nd;
        rx->doc_crc = crc;
        rx->doc_size = size;
        rx->doc_filled = 0;
    }
    if (off != rx->doc_filled) {
        return;
    }
    memcpy(rx->doc + off, p + EVREC_FRAME_META_HEAD, k);
    rx->doc_filled += (uint32_t)k;
    if (rx->doc_filled == rx->doc_size) {
        doc_complete(rx);
    }
}

/* Counts the whole records in data[0, size); -1 when they do not split exactly. */
static int64_t count_records(const evrec_srx_t *rx, const uint8_t *data, size_t size)
{
    size_t q = 0;
    int64_t n = 0;
    while (q < size) {
        if (size - q < 6u) {
            return -1;
        }
        uint32_t l = rx->save_len[(uint16_t)(data[q + 4] << 8 | data[q + 5])];
        if (l < 6u || l > size - q) {
            return -1;
        }
        q += l;
        n++;
    }
    return n;
}

/* Steps over the first `k` records (already received), moving the time state past them. */
static size_t skip_records(const evrec_srx_t *rx, const uint8_t *data, uint64_t k, uint8_t state[36])
{
    size_t q = 0;
    for (uint64_t i = 0; i < k; i++) {
        uint16_t id = (uint16_t)(data[q + 4] << 8 | data[q + 5]);
        int tick = id == EVREC_CONTROL_EVENT_ID && rx->save_len[id] >= 7u && data[q + 6] == EVREC_CONTROL_TICK;
        srx_time_step(state, srx_be32(data + q), tick);
        q += rx->save_len[id];
    }
    return q;
}

static void on_records(evrec_srx_t *rx, const uint8_t *p, size_t len)
{
    unsigned lane = p[4];
    if (!rx->st.have_meta || len <= EVREC_FRAME_RECORDS_HEAD || lane >= EVREC_SRX_LANES) {
        return; /* before the document: counted from the next frame's sequence number */
    }
    const uint8_t *data = p + EVREC_FRAME_RECORDS_HEAD;
    size_t size = len - EVREC_FRAME_RECORDS_HEAD;
    int64_t count = count_records(rx, data, size);
    evrec_srx_lane_t *ln = &rx->st.lane[lane];
    uint8_t state[36];
    memcpy(state, p + 8, sizeof state);
    uint64_t idx = srx_be64(state), expected = rx->next[lane];
    if (count <= 0) {
        return; /* not this document's records: shown nowhere */
    }
    if (idx + (uint64_t)count <= expected) {
        ln->duplicates += (uint64_t)count;
        return;
    }
    if (idx > expected) {
        ln->lost_transport += idx - expected;
        ln->transport_gaps++;
    }
    uint64_t k = idx < expected ? expected - idx : 0;
    ln->duplicates += k;
    size_t q = skip_records(rx, data, k, state);
    uint64_t fresh = (uint64_t)count - k;
    rx->next[lane] = idx + (uint64_t)count;
    ln->received += fresh;
    if (rx->sink.records && rx->sink.records(rx->sink.ctx, lane, data + q, size - q, fresh, state) != 0) {
        fail(rx, EVREC_E_IO);
    }
}

static void on_loss(evrec_srx_t *rx, const uint8_t *p, size_t len)
{
    if (len < EVREC_FRAME_LOSS_SIZE || p[4] >= EVREC_SRX_LANES) {
        return;
    }
    evrec_srx_lane_t *ln = &rx->st.lane[p[4]];
    uint64_t total = srx_be64(p + 24);
    if (total > ln->dropped) {
        ln->dropped = total;
        ln->drop_places++;
    }
}

static void on_end(evrec_srx_t *rx, const uint8_t *p, size_t len)
{
    uint32_t lanes = len >= 8 ? srx_be32(p + 4) : 0;
    if (len < 8u + 16u * (size_t)lanes) {
        return;
    }
    for (uint32_t k = 0; k < lanes && k < EVREC_SRX_LANES; k++) {
        evrec_srx_lane_t *ln = &rx->st.lane[k];
        ln->end_sent = srx_be64(p + 8 + 16u * k);
        ln->end_dropped = srx_be64(p + 16 + 16u * k);
        if (ln->end_dropped > ln->dropped) {
            ln->dropped = ln->end_dropped; /* drops whose S_LOSS frame was lost, or came last */
            ln->drop_places++;
        }
        if (ln->end_sent > rx->next[k]) {
            ln->lost_transport += ln->end_sent - rx->next[k]; /* the last frames never came */
            ln->transport_gaps++;
            rx->next[k] = ln->end_sent;
        }
    }
    rx->st.ended = 1;
}

/* S_PREV_BOOT: the pieces of the previous boot's file, handed out in order from offset 0; a piece
 * after a gap (its predecessor damaged) is not, the file stays incomplete. */
static void on_prev_boot(evrec_srx_t *rx, const uint8_t *p, size_t len)
{
    if (len < EVREC_FRAME_PREV_BOOT_HEAD) {
        return;
    }
    uint32_t crc = srx_be32(p + 4), size = srx_be32(p + 8), off = srx_be32(p + 12);
    size_t k = len - EVREC_FRAME_PREV_BOOT_HEAD;
    evrec_srx_stats_t *st = &rx->st;
    if (off > size || k > size - off || (st->prev_size && (size != st->prev_size || crc != rx->prev_crc))) {
        return; /* not a piece of the file the first piece announced */
    }
    if (off != st->prev_received || (st->prev_size == 0 && off != 0) || st->prev_ok) {
        return; /* a duplicate (of any piece once the file came whole: an empty one too), or after a gap */
    }
    st->prev_size = size;
    rx->prev_crc = crc;
    rx->prev_run = evrec_crc32c(rx->prev_run, p + EVREC_FRAME_PREV_BOOT_HEAD, k);
    st->prev_received += k;
    if (st->prev_received == size) {
        st->prev_ok = rx->prev_run == crc ? 1 : -1;
    }
    if (rx->prev_fn && rx->prev_fn(rx->prev_ctx, p + EVREC_FRAME_PREV_BOOT_HEAD, k, off, size) != 0) {
        fail(rx, EVREC_E_IO);
    }
}

void evrec_srx_frame(evrec_srx_t *rx, unsigned type, const uint8_t *p, size_t len)
{
    if (len < 4) {
        return;
    }
    uint32_t id = srx_be32(p);
    if (rx->st.stream_id == 0) {
        rx->st.stream_id = id;
    } else if (id != rx->st.stream_id) {
        rx->st.other_stream++;
        return;
    }
    if (rx->st.ended) {
        return; /* a duplicate after the end */
    }
    switch (type) {
    case EVREC_FRAME_META: on_meta(rx, p, len); break;
    case EVREC_FRAME_RECORDS: on_records(rx, p, len); break;
    case EVREC_FRAME_LOSS: on_loss(rx, p, len); break;
    case EVREC_FRAME_PREV_BOOT: on_prev_boot(rx, p, len); break;
    default: on_end(rx, p, len); break;
    }
}

evrec_status evrec_srx_new(evrec_srx_t **out, const evrec_srx_sink_t *sink)
{
    if (!out) {
        return EVREC_E_ARG;
    }
    evrec_srx_t *rx = calloc(1, sizeof *rx);
    if (!rx) {
        return EVREC_E_NOMEM;
    }
    if (sink) {
        rx->sink = *sink;
    }
    rx->dmg_from = SRX_NONE;
    *out = rx;
    return EVREC_OK;
}

void evrec_srx_set_prev_boot(evrec_srx_t *rx, evrec_srx_prev_boot_fn fn, void *ctx)
{
    if (rx) {
        rx->prev_fn = fn;
        rx->prev_ctx = ctx;
    }
}

const evrec_srx_stats_t *evrec_srx_stats(const evrec_srx_t *rx)
{
    return &rx->st;
}

void evrec_srx_free(evrec_srx_t *rx)
{
    if (rx) {
        free(rx->buf);
        free(rx->doc);
        free(rx->save_len);
        free(rx);
    }
}
