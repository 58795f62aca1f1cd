/* SPDX-License-Identifier: Apache-2.0 */
/* The seek index table and the INDEX chunk (FORMAT.md section 2.5): a fixed table of SYNC
 * chunks that halves itself and doubles its stride when full. No heap. */
#include "evrec/evrec_index.h"

#include "save_internal.h"

void evrec_index_init(evrec_index_t *x, evrec_index_entry_t *entries, uint32_t capacity)
{
    x->entries = entries;
    x->capacity = entries ? capacity & ~1u : 0u;
    x->count = 0;
    x->stride = 1;
    x->seen = 0;
}

/* The stride is a power of two: a mask, not a 64-bit division (a Cortex-M has none in hardware
 * and a freestanding link may have no __aeabi_uldivmod). */
void evrec_index_add(evrec_index_t *x, const evrec_index_entry_t *e)
{
    if (x->capacity < 2u) {
        return;
    }
    if ((x->seen & ((uint64_t)x->stride - 1u)) == 0u) {
        if (x->count == x->capacity) {
            /* Keep entries 0, 2, 4...: SYNC chunks 0, 2s, 4s... The next one (seen = capacity x s)
             * is a multiple of the new stride 2s, so it is kept below. */
            for (uint32_t i = 0; 2u * i < x->count; i++) {
                x->entries[i] = x->entries[2u * i];
            }
            x->count /= 2u;
            x->stride *= 2u;
        }
        if ((x->seen & ((uint64_t)x->stride - 1u)) == 0u) {
            x->entries[x->count++] = *e;
        }
    }
    x->seen++;
}

size_t evrec_index_chunk_size(const evrec_index_t *x)
{
    if (!x || x->count == 0) {
        return 0;
    }
    return EVREC_CHUNK_HEADER_SIZE + EVREC_INDEX_HEAD + (size_t)x->count * EVREC_INDEX_ENTRY + EVREC_INDEX_TRAILER;
}

static void entry_bytes(uint8_t d[EVREC_INDEX_ENTRY], const evrec_index_entry_t *e)
{
    evrec_put_be64(d, e->offset);
    evrec_put_be64(d + 8, e->index);
    evrec_put_be64(d + 16, e->t64);
    evrec_put_be64(d + 24, e->t64_max);
}

evrec_status evrec_index_write(const evrec_index_t *x, const evrec_sink_t *sink)
{
    if (!x || !sink || !sink->write) {
        return EVREC_E_ARG;
    }
    size_t size = evrec_index_chunk_size(x);
    if (size == 0) {
        return EVREC_OK;
    }
    uint32_t len = (uint32_t)(size - EVREC_CHUNK_HEADER_SIZE);
    uint8_t h[EVREC_CHUNK_HEADER_SIZE + EVREC_INDEX_HEAD], tail[EVREC_INDEX_TRAILER], d[EVREC_INDEX_ENTRY];
    evrec_put_be32(h, (uint32_t)EVREC_CHUNK_INDEX << 24 | len);
    evrec_put_be32(h + 8, x->stride);
    evrec_put_be32(h + 12, x->count);
    evrec_put_be32(tail, len);
    uint32_t crc = evrec_crc32c(evrec_crc32c(0, h, 4), h + 8, EVREC_INDEX_HEAD);
    for (uint32_t i = 0; i < x->count; i++) {
        entry_bytes(d, &x->entries[i]);
        crc = evrec_crc32c(crc, d, sizeof d);
    }
    evrec_put_be32(h + 4, evrec_crc32c(crc, tail, sizeof tail));
    if (sink->write(sink->ctx, h, sizeof h) != 0) {
        return EVREC_E_IO;
    }
    for (uint32_t i = 0; i < x->count; i++) {
        entry_bytes(d, &x->entries[i]);
        if (sink->write(sink->ctx, d, sizeof d) != 0) {
            return EVREC_E_IO;
        }
    }
    return sink->write(sink->ctx, tail, sizeof tail) != 0 ? EVREC_E_IO : EVREC_OK;
}
