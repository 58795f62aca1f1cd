/* SPDX-License-Identifier: Apache-2.0 */
/* Finding frames in the input (FORMAT.md section 8.1): sync magic, a known type (11..14, 17), a length that
 * fits, a good CRC-32C. Bytes that are in no intact frame are damage, reported as ranges (offset
 * and length in the input) when the next intact frame or the end of the input is reached. The
 * window keeps at most the bytes of a frame not complete yet. */
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_stream_format.h"
#include "stream_internal.h"

static void damage_upto(evrec_srx_t *rx, uint64_t at)
{
    if (rx->dmg_from == SRX_NONE || at <= rx->dmg_from) {
        rx->dmg_from = SRX_NONE;
        return;
    }
    uint64_t n = at - rx->dmg_from;
    if (rx->st.damaged_ranges == 0) {
        rx->st.first_damage_at = rx->dmg_from;
    }
    if (rx->st.damaged_ranges < SRX_DAMAGE_LIST) {
        rx->dmg_list[rx->st.damaged_ranges][0] = rx->dmg_from;
        rx->dmg_list[rx->st.damaged_ranges][1] = n;
    }
    rx->st.damaged_ranges++;
    rx->st.damaged_bytes += n;
    if (rx->sink.damage) {
        rx->sink.damage(rx->sink.ctx, rx->dmg_from, n);
    }
    rx->dmg_from = SRX_NONE;
}

static void damage_at(evrec_srx_t *rx, size_t p)
{
    if (rx->dmg_from == SRX_NONE) {
        rx->dmg_from = rx->base + p;
    }
}

/* 1: an intact frame at p (its total length in *flen); 0: not a frame; -1: maybe, more input needed. */
static int frame_at(const evrec_srx_t *rx, size_t p, int at_end, size_t *flen)
{
    const uint8_t *b = rx->buf + p;
    size_t have = rx->len - p;
    if (have < 4) {
        return at_end ? 0 : (memcmp(b, EVREC_STREAM_MAGIC, have) == 0 ? -1 : 0);
    }
    if (memcmp(b, EVREC_STREAM_MAGIC, 4) != 0) {
        return 0;
    }
    if (have < EVREC_STREAM_FRAME_HEADER) {
        return at_end ? 0 : -1;
    }
    uint32_t word = srx_be32(b + 4), len = word & 0xFFFFFFu;
    unsigned type = word >> 24;
    if ((type < EVREC_FRAME_META || type > EVREC_FRAME_END) && type != EVREC_FRAME_PREV_BOOT) {
        return 0;
    }
    if (len > EVREC_STREAM_MAX_PAYLOAD) {
        return 0;
    }
    if (have < EVREC_STREAM_FRAME_HEADER + (size_t)len) {
        return at_end ? 0 : -1;
    }
    uint32_t crc = evrec_crc32c(evrec_crc32c(0, b + 4, 4), b + EVREC_STREAM_FRAME_HEADER, len);
    if (crc != srx_be32(b + 8)) {
        return 0;
    }
    *flen = EVREC_STREAM_FRAME_HEADER + (size_t)len;
    return 1;
}

/* Scans the window; returns where the unconsumed bytes start. */
static size_t scan(evrec_srx_t *rx, int at_end)
{
    size_t p = 0;
    while (p < rx->len && rx->failed == EVREC_OK) {
        size_t flen = 0;
        int r = frame_at(rx, p, at_end, &flen);
        if (r < 0) {
            break;
        }
        if (r == 0) {
            damage_at(rx, p);
            const uint8_t *next = memchr(rx->buf + p + 1, 0xEB, rx->len - p - 1);
            p = next ? (size_t)(next - rx->buf) : rx->len;
            continue;
        }
        damage_upto(rx, rx->base + p);
        rx->st.frames++;
        const uint8_t *b = rx->buf + p;
        evrec_srx_frame(rx, srx_be32(b + 4) >> 24, b + EVREC_STREAM_FRAME_HEADER,
                        flen - EVREC_STREAM_FRAME_HEADER);
        p += flen;
    }
    return p;
}

static evrec_status run(evrec_srx_t *rx, int at_end)
{
    size_t p = scan(rx, at_end);
    if (p && rx->buf) { /* nothing fed yet: no buffer */
        memmove(rx->buf, rx->buf + p, rx->len - p);
    }
    rx->len -= p;
    rx->base += p;
    if (at_end) {
        damage_upto(rx, rx->base + rx->len);
    }
    return rx->failed;
}

evrec_status evrec_srx_feed(evrec_srx_t *rx, const void *data, size_t size)
{
    if (!rx || (!data && size)) {
        return EVREC_E_ARG;
    }
    const uint8_t *d = (const uint8_t *)data;
    while (size && rx->failed == EVREC_OK) {
        size_t want = 2u * (EVREC_STREAM_FRAME_HEADER + EVREC_STREAM_MAX_PAYLOAD);
        if (rx->cap < want) {
            uint8_t *nb = realloc(rx->buf, want);
            if (!nb) {
                return EVREC_E_NOMEM;
            }
            rx->buf = nb;
            rx->cap = want;
        }
        size_t k = rx->cap - rx->len < size ? rx->cap - rx->len : size;
        memcpy(rx->buf + rx->len, d, k);
        rx->len += k;
        rx->st.bytes += k;
        d += k;
        size -= k;
        (void)run(rx, 0);
    }
    return rx->failed;
}

evrec_status evrec_srx_finish(evrec_srx_t *rx)
{
    if (!rx) {
        return EVREC_E_ARG;
    }
    return run(rx, 1);
}
