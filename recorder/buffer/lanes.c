/* SPDX-License-Identifier: Apache-2.0 */
/* Per-core lanes (evrec/evrec_lanes.h): one recorder's record area split into sub-buffers, one
 * per lane, each recorded through its own host; format/FORMAT.md section 7. */
#include "evrec/evrec_lanes.h"
#include "recorder_internal.h"

/* recorder.c */
void evrec_recorder_init_ring(evrec_recorder_t *rec, void *buf, size_t size, size_t block_size, size_t block_count,
                              const struct evrec_cyclic_ops *ops);

evrec_status evrec_lanes_init(evrec_lanes_t *lanes, evrec_lane_t *lane, uint32_t count)
{
    if (!lanes || !lane || count == 0 || count > EVREC_MAX_LANES ||
        (uintptr_t)lane % _Alignof(evrec_lane_t) != 0) {
        return EVREC_E_ARG;
    }
    for (uint32_t k = 0; k < count; k++) {
        evrec_host_init(&lane[k].host);
        __builtin_memset(&lane[k].rec, 0, sizeof lane[k].rec);
    }
    lanes->lane = lane;
    lanes->count = count;
    lanes->rec = NULL;
    evrec_atomic_store(&lanes->tick_copies, 0);
    return EVREC_OK;
}

/* Bytes of one lane's sub-buffer: a multiple of 64 (lanes never share a cache line of records),
 * for a ring a header plus a power-of-two number of blocks. 0 when a lane would be too small. */
static size_t lane_stride(const evrec_buf_header_t *h, size_t area, uint32_t count, size_t *blocks)
{
    size_t per = area / count;
    per -= per % 64u;
    *blocks = 0;
    if (per <= EVREC_BUF_HEADER_SIZE) {
        return 0;
    }
    if (h->block_size) {
        size_t n = (per - EVREC_BUF_HEADER_SIZE) / h->block_size;
        while (n & (n - 1u)) {
            n &= n - 1u;
        }
        if (n < 4) {
            return 0;
        }
        *blocks = n;
        return EVREC_BUF_HEADER_SIZE + n * h->block_size;
    }
    return per - EVREC_BUF_HEADER_SIZE < EVREC_MIN_BUFFER ? 0 : per;
}

evrec_status evrec_lanes_start(evrec_lanes_t *lanes, evrec_recorder_t *rec, const evrec_meta_t *meta,
                               uint64_t time_freq)
{
    if (!lanes || !lanes->lane || !rec || !rec->hdr || !meta) {
        return EVREC_E_ARG;
    }
    evrec_buf_header_t *h = rec->hdr;
    if (__atomic_load_n(&lanes->rec, __ATOMIC_ACQUIRE) != NULL || h->state == EVREC_BUF_RECORDING) {
        return EVREC_E_BUSY;
    }
    if (!evrec_meta_has_control(meta)) {
        return EVREC_E_META;
    }
    evrec_status st = evrec_buf_begin(rec, meta, time_freq); /* as evrec_host_start() */
    if (st != EVREC_OK) {
        return st;
    }
    size_t blocks;
    size_t stride = lane_stride(h, (size_t)(h->buf_size - h->records_offset), lanes->count, &blocks);
    if (stride == 0) {
        return EVREC_E_ARG;
    }
    h->version = EVREC_BUF_VERSION_LANES;
    h->lanes = lanes->count;
    h->flags |= EVREC_BUF_LANES;
    h->records_size = (uint32_t)(stride * lanes->count);
    if (h->block_size) {
        h->block_count = (uint32_t)blocks; /* per lane */
    }
    h->time_freq = time_freq;
    h->schema_hash = meta->schema_hash;
    h->meta = meta;
    h->used = 0;
    h->recorded = 0;
    h->end_pos = 0;
    __atomic_store_n(&h->full_time, 0, __ATOMIC_RELAXED);
    evrec_atomic_store(&h->dropped, 0);
    evrec_atomic_store(&h->overwritten, 0);
    evrec_atomic_store(&h->fail_pos, EVREC_POS_CLOSED);
    evrec_atomic_store(&lanes->tick_copies, 0);
    /* Each lane's Start has its own timestamp, a little later than the previous lane's: save puts
     * one-shot lanes on the common time axis by them (format/FORMAT.md section 2.3). */
    for (uint32_t k = 0; k < lanes->count; k++) {
        evrec_lane_t *l = &lanes->lane[k];
        void *sub = evrec_lane_hdr(h, k);
        if (h->block_size) {
            evrec_recorder_init_ring(&l->rec, sub, stride, h->block_size, blocks, rec->cyclic);
        } else {
            st = evrec_recorder_init(&l->rec, sub, stride);
            if (st != EVREC_OK) {
                return st; /* not reached: stride was checked */
            }
        }
        st = evrec_host_start(&l->host, &l->rec, meta, time_freq);
        if (st != EVREC_OK) {
            for (uint32_t j = 0; j < k; j++) {
                (void)evrec_host_stop(&lanes->lane[j].host, NULL);
            }
            h->flags &= ~(uint32_t)EVREC_BUF_LANES;
            h->version = EVREC_BUF_VERSION;
            h->lanes = 1;
            return st;
        }
    }
    __atomic_store_n(&h->state, EVREC_BUF_RECORDING, __ATOMIC_RELEASE);
    __atomic_store_n(&lanes->rec, rec, __ATOMIC_RELEASE); /* evrec_lanes_tick() may run meanwhile */
    return EVREC_OK;
}

/* The records of the lanes that save writes once (FORMAT.md section 2.3): every lane's Stop but
 * one, every Start still there but one, and the Tick copies of evrec_lanes_tick() -- unless a
 * cyclic lane overwrote records: which copies are still there is then not known here (they stay
 * counted; the saved file's header has the exact count). */
static uint64_t merged_copies(const evrec_lanes_t *lanes, uint32_t starts, uint64_t overwritten)
{
    uint64_t copies = (uint64_t)lanes->count - 1u + (starts ? starts - 1u : 0u);
    return copies + (overwritten == 0u ? evrec_atomic_load(&lanes->tick_copies) : 0u);
}

evrec_status evrec_lanes_stop(evrec_lanes_t *lanes, evrec_recorder_t **rec_out)
{
    evrec_recorder_t *rec = lanes ? __atomic_load_n(&lanes->rec, __ATOMIC_ACQUIRE) : NULL;
    if (!rec) {
        return EVREC_E_NOT_RECORDING;
    }
    /* evrec_lanes_tick() from now on sees no recording (and its records racing with the stop
     * are either in or ignored, as any record call's) */
    __atomic_store_n(&lanes->rec, NULL, __ATOMIC_RELEASE);
    evrec_buf_header_t *h = rec->hdr;
    /* Each lane's Stop has its own timestamp (a one-shot lane that dropped: its first drop's):
     * save puts cyclic lanes on the common time axis by them. */
    uint64_t recorded = 0, dropped = 0, overwritten = 0, used = 0;
    uint32_t full_time = 0, starts = 0;
    for (uint32_t k = 0; k < lanes->count; k++) {
        evrec_lane_t *l = &lanes->lane[k];
        (void)evrec_host_stop(&l->host, NULL);
        const evrec_buf_header_t *lh = l->rec.hdr;
        uint64_t d = evrec_atomic_load(&lh->dropped);
        if (d && !dropped) {
            full_time = lh->full_time;
        }
        recorded += lh->recorded;
        dropped += d;
        starts += !h->block_size || evrec_atomic_load(&lh->overwritten) == 0; /* its Start is there */
        overwritten += evrec_atomic_load(&lh->overwritten);
        used += lh->used;
    }
    uint64_t copies = merged_copies(lanes, starts, overwritten);
    h->recorded = recorded - copies;
    h->used = (size_t)(used - copies * EVREC_CONTROL_SLOT); /* the copies' bytes are not saved either */
    h->end_pos = 0;
    h->full_time = full_time;
    evrec_atomic_store(&h->dropped, (size_t)dropped);
    evrec_atomic_store(&h->overwritten, (size_t)overwritten);
    __atomic_store_n(&h->state, EVREC_BUF_STOPPED, __ATOMIC_RELEASE);
    if (rec_out) {
        *rec_out = rec;
    }
    return EVREC_OK;
}

evrec_status evrec_lanes_tick(evrec_lanes_t *lanes)
{
    if (!lanes || !__atomic_load_n(&lanes->rec, __ATOMIC_ACQUIRE)) {
        return EVREC_E_NOT_RECORDING;
    }
    uint32_t t = EVREC_PORT_TIMESTAMP();
    evrec_status st = EVREC_OK;
    size_t copies = 0;
    for (uint32_t k = 0; k < lanes->count; k++) {
        evrec_control_event_t *e = (evrec_control_event_t *)evrec_reserve(&lanes->lane[k].host,
                                                                          EVREC_CONTROL_SLOT);
        if (!e) {
            if (st == EVREC_OK) { /* stopped meanwhile (not counted), or full (counted) */
                st = __atomic_load_n(&lanes->lane[k].host.rec, __ATOMIC_ACQUIRE) == NULL ? EVREC_E_NOT_RECORDING
                                                                                         : EVREC_E_DROPPED;
            }
            continue;
        }
        e->time = t; /* one timestamp in every lane: save writes the tick once */
        e->type = EVREC_CONTROL_TICK;
        evrec_commit(e, EVREC_CONTROL_EVENT_ID);
        copies++;
    }
    if (copies > 1u) {
        (void)evrec_atomic_fetch_add(&lanes->tick_copies, copies - 1u); /* save writes one */
    }
    return st;
}

uint32_t evrec_recorder_lane_count(const evrec_recorder_t *rec)
{
    if (!rec || !rec->hdr || !(rec->hdr->flags & EVREC_BUF_LANES)) {
        return 1;
    }
    return rec->hdr->lanes;
}

evrec_recorder_counts_t evrec_recorder_lane_counts(const evrec_recorder_t *rec, uint32_t k)
{
    evrec_recorder_counts_t c;
    __builtin_memset(&c, 0, sizeof c);
    if (!rec || !rec->hdr || !(rec->hdr->flags & EVREC_BUF_LANES) || k >= rec->hdr->lanes) {
        return c;
    }
    evrec_recorder_t sub;
    __builtin_memset(&sub, 0, sizeof sub);
    sub.hdr = evrec_lane_hdr(rec->hdr, k);
    return evrec_recorder_counts(&sub);
}
