/* SPDX-License-Identifier: Apache-2.0 */
/* The meta document of a stream (FORMAT.md section 8.2): `u32 L`, the MetaInfo (section 3), the
 * chunks before the stream. Only what the receiver needs: each event's packed size, to split a
 * frame into records. Every count and length is checked against the bytes present. */
#include <string.h>

#include "evrec/evrec_stream_rx.h"
#include "stream_internal.h"

typedef struct cursor {
    const uint8_t *p;
    size_t left;
    int bad;
} cursor_t;

static uint32_t take32(cursor_t *c)
{
    if (c->bad || c->left < 4) {
        c->bad = 1;
        return 0;
    }
    uint32_t v = srx_be32(c->p);
    c->p += 4;
    c->left -= 4;
    return v;
}

static void skip(cursor_t *c, size_t n)
{
    if (c->bad || c->left < n) {
        c->bad = 1;
        return;
    }
    c->p += n;
    c->left -= n;
}

static void skip_string(cursor_t *c)
{
    skip(c, take32(c));
}

/* List<Enum> then List<Struct>: skipped. */
static void skip_enums_structs(cursor_t *c)
{
    uint32_t enums = take32(c);
    for (uint32_t i = 0; i < enums && !c->bad; i++) {
        skip(c, 1);
        skip_string(c);
        uint32_t values = take32(c);
        for (uint32_t v = 0; v < values && !c->bad; v++) {
            skip(c, 4);
            skip_string(c);
            skip(c, 1);
        }
    }
    uint32_t structs = take32(c);
    for (uint32_t i = 0; i < structs && !c->bad; i++) {
        skip_string(c);
        uint32_t fields = take32(c);
        for (uint32_t f = 0; f < fields && !c->bad; f++) {
            skip(c, 3);
            skip_string(c);
        }
    }
}

evrec_status evrec_srx_doc_events(const uint8_t *doc, size_t size, uint32_t *save_len, size_t *meta_off,
                                  size_t *meta_len)
{
    if (size < 4) {
        return EVREC_E_CORRUPT;
    }
    uint32_t l = srx_be32(doc);
    if (l > size - 4) {
        return EVREC_E_CORRUPT;
    }
    cursor_t c = {doc + 4, l, 0};
    skip(&c, 8); /* time_freq */
    skip_enums_structs(&c);
    uint32_t events = take32(&c);
    if (c.bad || events > 65536u || (size_t)events * 8u > c.left) {
        return EVREC_E_CORRUPT;
    }
    memset(save_len, 0, 65536u * sizeof *save_len);
    for (uint32_t e = 0; e < events; e++) {
        skip(&c, 4);
        save_len[e] = take32(&c);
    }
    if (c.bad || c.left != 0) {
        return EVREC_E_CORRUPT;
    }
    *meta_off = 4;
    *meta_len = l;
    return EVREC_OK;
}
