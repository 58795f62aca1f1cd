/* SPDX-License-Identifier: Apache-2.0 */
/* A trace buffer a previous run left: its header checked, its recording finished without a host
 * (evrec_recorder_recover()); see evrec_recorder.h and format/FORMAT.md, "RAM buffer header and
 * recovery". */
#include "recorder_internal.h"

const struct evrec_cyclic_ops *evrec_cyclic_ops_get(void);

int evrec_hdr_check(const evrec_buf_header_t *h, size_t size)
{
    if (h->header_size != EVREC_BUF_HEADER_SIZE || h->buf_size != size || h->lanes != 1u) {
        return -1;
    }
    uint64_t off = h->records_offset, area = h->records_size;
    if (off < EVREC_BUF_HEADER_SIZE || off % 8u != 0 || off + area > size || area < EVREC_CONTROL_SLOT) {
        return -1;
    }
    if (h->meta_offset != 0 &&
        (h->meta_offset < EVREC_BUF_HEADER_SIZE || (uint64_t)h->meta_offset + h->meta_size > off)) {
        return -1;
    }
    if (h->flags & EVREC_BUF_CYCLIC) {
        uint32_t bs = h->block_size, n = h->block_count;
        if (bs < 256u || bs > 65536u || (bs & (bs - 1u)) != 0 || n < 4u || (n & (n - 1u)) != 0 ||
            (uint64_t)bs * n != area) {
            return -1;
        }
    } else if (h->block_size != 0 || h->block_count != 0) {
        return -1;
    }
    return 0;
}

/* One-shot: the committed records from Start on, up to the first slot not committed. */
static void oneshot_recover(evrec_recorder_t *rec, const evrec_meta_t *meta, uint64_t *partial)
{
    evrec_buf_header_t *h = rec->hdr;
    const uint8_t *records = evrec_records(rec);
    size_t limit = h->records_size, q = 0;
    uint64_t count = 0;
    while (q + sizeof(evrec_record_header_t) <= limit) {
        const evrec_record_header_t *r = (const evrec_record_header_t *)(const void *)(records + q);
        size_t n = r->id == EVREC_ID_NONE ? 0 : evrec_slot_size_of(meta, r->id);
        if (n == 0 || q + n > limit) {
            if (partial && r->id == EVREC_ID_NONE) {
                for (size_t k = 0; k < 4; k++) {
                    if (records[q + k] != 0xFFu) {
                        (*partial)++; /* its time (and maybe fields) written, not its id */
                        break;
                    }
                }
            }
            break;
        }
        q += n;
        count++;
    }
    h->used = q;
    h->end_pos = q;
    h->recorded = count;
}

/* A version-2 buffer split into lanes (evrec_lanes_start()): the fixed header's geometry, then
 * each lane's sub-buffer recovered as a buffer of its own; the summed counts go to the header. */
static evrec_status lanes_recover(evrec_recorder_t *rec, evrec_buf_header_t *h, size_t size,
                                  const evrec_meta_t *meta, uint64_t *partial)
{
    uint64_t off = h->records_offset, area = h->records_size;
    uint32_t n = h->lanes;
    if (h->header_size != EVREC_BUF_HEADER_SIZE || h->buf_size != size || !(h->flags & EVREC_BUF_LANES) ||
        n == 0 || n > 255u || off < EVREC_BUF_HEADER_SIZE || off % 8u != 0 || off + area > size ||
        area % n != 0 || (area / n) % 64u != 0 || area / n < EVREC_BUF_HEADER_SIZE + EVREC_CONTROL_SLOT ||
        (h->meta_offset != 0 &&
         (h->meta_offset < EVREC_BUF_HEADER_SIZE || (uint64_t)h->meta_offset + h->meta_size > off))) {
        return EVREC_E_CORRUPT;
    }
    if (h->state != EVREC_BUF_RECORDING && h->state != EVREC_BUF_STOPPED) {
        return EVREC_E_NOT_RECORDING;
    }
    if (h->schema_hash != meta->schema_hash) {
        return EVREC_E_META;
    }
    size_t stride = (size_t)(area / n);
    uint64_t recorded = 0, dropped = 0, overwritten = 0, used = 0;
    for (uint32_t k = 0; k < n; k++) {
        evrec_buf_header_t *l = evrec_lane_hdr(h, k);
        if (l->magic != EVREC_BUF_MAGIC || l->version != EVREC_BUF_VERSION ||
            (l->flags & EVREC_BUF_CYCLIC) != (h->flags & EVREC_BUF_CYCLIC) || l->block_size != h->block_size) {
            return EVREC_E_CORRUPT;
        }
        evrec_recorder_t sub;
        uint64_t part = 0;
        evrec_status st = evrec_recorder_recover(&sub, l, stride, meta, &part);
        if (st != EVREC_OK && st != EVREC_E_END) {
            return st == EVREC_E_NOT_RECORDING ? EVREC_E_CORRUPT : st;
        }
        if (partial) {
            *partial += part;
        }
        recorded += l->recorded;
        dropped += evrec_atomic_load(&l->dropped);
        overwritten += evrec_atomic_load(&l->overwritten);
        used += l->used;
    }
    __builtin_memset(rec, 0, sizeof *rec);
    rec->hdr = h;
    h->meta = meta;
    if (h->flags & EVREC_BUF_CYCLIC) {
        rec->cyclic = evrec_cyclic_ops_get();
    }
    if (h->state == EVREC_BUF_STOPPED) {
        return EVREC_E_END;
    }
    h->recorded = recorded;
    h->used = (size_t)used;
    evrec_atomic_store(&h->dropped, (size_t)dropped);
    evrec_atomic_store(&h->overwritten, (size_t)overwritten);
    h->state = EVREC_BUF_STOPPED;
    return EVREC_OK;
}

evrec_status evrec_recorder_recover(evrec_recorder_t *rec, void *buf, size_t size, const evrec_meta_t *meta,
                                    uint64_t *partial)
{
    if (!rec || !buf || !meta || ((uintptr_t)buf % 8u) != 0) {
        return EVREC_E_ARG;
    }
    if (partial) {
        *partial = 0;
    }
    evrec_buf_header_t *h = (evrec_buf_header_t *)buf;
    if (size < EVREC_BUF_HEADER_SIZE) {
        return EVREC_E_NOT_RECORDING;
    }
    if (h->magic != EVREC_BUF_MAGIC) {
        uint32_t m = h->magic;
        uint32_t swapped = (m >> 24) | ((m >> 8) & 0xFF00u) | ((m << 8) & 0xFF0000u) | (m << 24);
        uint32_t any = EVREC_BUF_MAGIC & 0xFFFFFF00u;
        return (m & 0xFFFFFF00u) == any || (swapped & 0xFFFFFF00u) == any ? EVREC_E_UNSUPPORTED
                                                                         : EVREC_E_NOT_RECORDING;
    }
    if (h->version == EVREC_BUF_VERSION_LANES) {
        return lanes_recover(rec, h, size, meta, partial);
    }
    if (h->version != EVREC_BUF_VERSION) {
        return EVREC_E_UNSUPPORTED;
    }
    if (evrec_hdr_check(h, size) != 0) {
        return EVREC_E_CORRUPT;
    }
    if (h->state != EVREC_BUF_RECORDING && h->state != EVREC_BUF_STOPPED) {
        return EVREC_E_NOT_RECORDING;
    }
    if (h->schema_hash != meta->schema_hash) {
        return EVREC_E_META;
    }
    __builtin_memset(rec, 0, sizeof *rec);
    rec->hdr = h;
    h->meta = meta; /* the address the previous run wrote means nothing now */
    if (h->flags & EVREC_BUF_CYCLIC) {
        rec->cyclic = evrec_cyclic_ops_get();
    }
    if (h->state == EVREC_BUF_STOPPED) {
        return EVREC_E_END;
    }
    if (rec->cyclic) {
        rec->cyclic->recover(rec, meta, partial);
    } else {
        oneshot_recover(rec, meta, partial);
    }
    h->state = EVREC_BUF_STOPPED;
    return EVREC_OK;
}

evrec_status evrec_recorder_wrap(evrec_recorder_t *rec, void *buf, size_t size, const evrec_meta_t *meta,
                                 uint64_t time_freq, size_t used, uint64_t recorded, uint64_t dropped)
{
    if (!rec || !buf || !meta || ((uintptr_t)buf % 8u) != 0 || size < EVREC_BUF_HEADER_SIZE ||
        used > size - EVREC_BUF_HEADER_SIZE || size > 0xFFFFFFFFu) {
        return EVREC_E_ARG;
    }
    evrec_buf_header_t *h = (evrec_buf_header_t *)buf;
    __builtin_memset(h, 0, EVREC_BUF_HEADER_SIZE);
    h->magic = EVREC_BUF_MAGIC;
    h->version = EVREC_BUF_VERSION;
    h->header_size = EVREC_BUF_HEADER_SIZE;
    h->state = EVREC_BUF_STOPPED;
    h->buf_size = size;
    h->records_offset = EVREC_BUF_HEADER_SIZE;
    h->records_size = (uint32_t)(size - EVREC_BUF_HEADER_SIZE);
    h->lanes = 1;
    h->time_freq = time_freq;
    h->schema_hash = meta->schema_hash;
    h->recorded = recorded;
    h->used = used;
    h->end_pos = used;
    h->meta = meta;
    evrec_atomic_store(&h->dropped, (size_t)dropped);
    evrec_atomic_store(&h->fail_pos, EVREC_POS_CLOSED);
    __builtin_memset(rec, 0, sizeof *rec);
    rec->hdr = h;
    return EVREC_OK;
}
