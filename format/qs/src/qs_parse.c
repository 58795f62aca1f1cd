/* SPDX-License-Identifier: Apache-2.0 */
/* QS stream parser: un-escape, checksum, resynchronise at the next flag, sequence gaps
 * (QSPY manual, "Q-SPY transmission protocol"; QSPY 7.4's rules in QS.md section 6). */
#include <string.h>

#include "evrec/evrec_qs_decode.h"

void evrec_qs_parser_init(evrec_qs_parser_t *p)
{
    memset(p, 0, sizeof *p);
}

static void emit(evrec_qs_item_fn fn, void *ctx, const evrec_qs_item_t *it)
{
    if (fn) {
        fn(ctx, it);
    }
}

/* The flag ended a frame: classify it. */
static void end_frame(evrec_qs_parser_t *p, evrec_qs_item_fn fn, void *ctx)
{
    evrec_qs_item_t it;
    memset(&it, 0, sizeof it);
    it.offset = p->frame_start;
    it.seq = p->last_seq;
    it.rec_id = p->len >= 2 ? p->frame[1] : 0;
    if (p->overlong) {
        p->too_long++;
        it.kind = EVREC_QS_ITEM_TOO_LONG;
        it.len = (size_t)(p->offset - p->frame_start);
        emit(fn, ctx, &it);
        return;
    }
    if (p->len == 0 && !p->esc) {
        return; /* two flags in a row: idle fill */
    }
    if (p->esc || p->sum != EVREC_QS_GOOD_SUM) {
        if (!p->started) {
            p->skipped += p->offset - p->frame_start;
            it.kind = EVREC_QS_ITEM_SKIPPED;
            it.len = (size_t)(p->offset - p->frame_start);
        } else {
            p->bad_checksums++;
            it.kind = EVREC_QS_ITEM_BAD_CHECKSUM;
        }
        emit(fn, ctx, &it);
        return;
    }
    if (p->len < 3) {
        p->too_short++;
        it.kind = EVREC_QS_ITEM_TOO_SHORT;
        emit(fn, ctx, &it);
        return;
    }
    uint8_t seq = p->frame[0];
    if (p->started && (uint8_t)(p->last_seq + 1u) != seq && p->frame[1] != EVREC_QS_REC_EMPTY) {
        p->gaps++;
        p->frames_lost += (uint8_t)(seq - p->last_seq - 1u);
        it.kind = EVREC_QS_ITEM_GAP;
        it.seq_to = seq;
        emit(fn, ctx, &it);
    }
    p->started = 1;
    p->last_seq = seq;
    p->records++;
    it.kind = EVREC_QS_ITEM_RECORD;
    it.seq = seq;
    it.payload = p->frame + 2;
    it.len = p->len - 3;
    emit(fn, ctx, &it);
}

void evrec_qs_parser_feed(evrec_qs_parser_t *p, const uint8_t *data, size_t len, evrec_qs_item_fn fn, void *ctx)
{
    for (size_t i = 0; i < len; i++) {
        uint8_t b = data[i];
        if (b == EVREC_QS_FLAG) {
            p->offset++;
            end_frame(p, fn, ctx);
            p->len = 0;
            p->sum = 0;
            p->esc = 0;
            p->overlong = 0;
            p->frame_start = p->offset;
            continue;
        }
        p->offset++;
        if (p->overlong) {
            continue; /* skip to the next flag */
        }
        if (b == EVREC_QS_ESC && !p->esc) {
            p->esc = 1;
            continue;
        }
        if (p->esc) {
            b = (uint8_t)(b ^ EVREC_QS_ESC_XOR);
            p->esc = 0;
        }
        if (p->len == sizeof p->frame) {
            p->overlong = 1;
            continue;
        }
        p->frame[p->len++] = b;
        p->sum = (uint8_t)(p->sum + b);
    }
}
