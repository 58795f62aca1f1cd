/* SPDX-License-Identifier: Apache-2.0 */
/* The meta-info blob kept in the trace buffer (evrec_recorder_keep_meta()): the CCore meta-info
 * stream as save writes it, then the native layout. Layout: format/FORMAT.md, "RAM buffer header
 * and recovery". */
#include "evrec/evrec_save.h"
#include "recorder_internal.h"

typedef struct blob_sink {
    uint8_t *dst;
    size_t cap, n;
} blob_sink_t;

static int blob_write(void *ctx, const void *p, size_t len)
{
    blob_sink_t *b = (blob_sink_t *)ctx;
    if (len > b->cap - b->n) {
        return -1;
    }
    __builtin_memcpy(b->dst + b->n, p, len);
    b->n += len;
    return 0;
}

static void be16(uint8_t *d, uint32_t v)
{
    d[0] = (uint8_t)(v >> 8);
    d[1] = (uint8_t)v;
}

static void be32(uint8_t *d, uint32_t v)
{
    d[0] = (uint8_t)(v >> 24);
    d[1] = (uint8_t)(v >> 16);
    d[2] = (uint8_t)(v >> 8);
    d[3] = (uint8_t)v;
}

/* Bytes of the end record evrec_save_ccore() appends (u32 time, u16 id, u8 type). */
#define END_RECORD 7u

static evrec_status write_blob(evrec_recorder_t *rec, const evrec_meta_t *meta, uint64_t time_freq)
{
    evrec_buf_header_t *h = rec->hdr;
    size_t layout = 4;
    for (uint32_t s = 0; s < meta->struct_count; s++) {
        layout += 4u + 2u * (size_t)meta->structs[s].field_count;
    }
    size_t keep = h->block_size ? 4u * (size_t)h->block_size : EVREC_MIN_BUFFER;
    size_t room = (size_t)h->buf_size - EVREC_BUF_HEADER_SIZE;
    if (room < keep + 8u + layout + END_RECORD) {
        return EVREC_E_ARG;
    }
    uint8_t *base = (uint8_t *)h + EVREC_BUF_HEADER_SIZE;
    blob_sink_t b = {base + 8, room - keep - 8u - layout, 0};
    evrec_sink_t sink = {blob_write, &b};
    evrec_status st = evrec_save_ccore(meta, time_freq, NULL, 0, &sink);
    if (st != EVREC_OK || b.n < END_RECORD) {
        return st == EVREC_E_IO ? EVREC_E_ARG : st; /* E_IO: it does not fit */
    }
    size_t stream = b.n - END_RECORD;
    __builtin_memcpy(base, "EVRM", 4);
    be32(base + 4, (uint32_t)stream);
    uint8_t *d = base + 8 + stream;
    be32(d, meta->struct_count);
    d += 4;
    for (uint32_t s = 0; s < meta->struct_count; s++) {
        const evrec_struct_desc_t *sd = &meta->structs[s];
        be16(d, sd->native_size);
        be16(d + 2, sd->field_count);
        d += 4;
        for (uint32_t f = 0; f < sd->field_count; f++) {
            be16(d, sd->fields[f].offset);
            d += 2;
        }
    }
    size_t size = (size_t)(d - base);
    h->meta_offset = EVREC_BUF_HEADER_SIZE;
    h->meta_size = (uint32_t)size;
    h->records_offset = (uint32_t)(EVREC_BUF_HEADER_SIZE + ((size + 7u) & ~(size_t)7u));
    h->flags |= EVREC_BUF_META;
    return EVREC_OK;
}

evrec_status evrec_recorder_keep_meta(evrec_recorder_t *rec)
{
    if (!rec || !rec->hdr || rec->hdr->magic != EVREC_BUF_MAGIC) {
        return EVREC_E_ARG;
    }
    if (rec->hdr->state == EVREC_BUF_RECORDING) {
        return EVREC_E_BUSY;
    }
    rec->keep_meta = write_blob;
    rec->hdr->flags |= EVREC_BUF_WANT_META;
    return EVREC_OK;
}
