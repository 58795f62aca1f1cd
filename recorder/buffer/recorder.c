/* SPDX-License-Identifier: Apache-2.0 */
/* The trace buffer, its host (attach/detach) and the record path (CCore EventRecorderHost and
 * EventRecorder). One atomic fetch-and-add per record; see evrec_recorder.h. */
#include "recorder_internal.h"

/* Writes a fresh header for `size` bytes at `buf`; the record area is what follows. */
static void hdr_init(evrec_buf_header_t *h, size_t size, uint32_t flags, size_t block_size, size_t block_count)
{
    __builtin_memset(h, 0, EVREC_BUF_HEADER_SIZE);
    h->magic = EVREC_BUF_MAGIC;
    h->version = EVREC_BUF_VERSION;
    h->header_size = EVREC_BUF_HEADER_SIZE;
    h->state = EVREC_BUF_READY;
    h->flags = flags;
    h->buf_size = size;
    h->records_offset = EVREC_BUF_HEADER_SIZE;
    h->records_size = (uint32_t)(block_count ? block_count * block_size : size - EVREC_BUF_HEADER_SIZE);
    h->block_size = (uint32_t)block_size;
    h->block_count = (uint32_t)block_count;
    h->lanes = 1;
    evrec_atomic_store(&h->fail_pos, EVREC_POS_CLOSED);
}

evrec_status evrec_recorder_init(evrec_recorder_t *rec, void *buf, size_t size)
{
    if (!rec || !buf || ((uintptr_t)buf % 8u) != 0) {
        return EVREC_E_ARG;
    }
    size -= size % EVREC_RECORD_ALIGN;
    if (size < EVREC_BUF_HEADER_SIZE + EVREC_MIN_BUFFER || size >= EVREC_POS_CLOSED / 2u || size > 0xFFFFFFFFu) {
        return EVREC_E_ARG;
    }
    __builtin_memset(rec, 0, sizeof *rec);
    rec->hdr = (evrec_buf_header_t *)buf;
    hdr_init(rec->hdr, size, 0, 0, 0);
    return EVREC_OK;
}

evrec_status evrec_recorder_set_attrs(evrec_recorder_t *rec, const struct evrec_attrs *attrs)
{
    if (!rec) {
        return EVREC_E_ARG;
    }
    rec->attrs = attrs;
    return EVREC_OK;
}

/* Used by evrec_recorder_init_cyclic() (cyclic.c). */
void evrec_recorder_init_ring(evrec_recorder_t *rec, void *buf, size_t size, size_t block_size, size_t block_count,
                              const struct evrec_cyclic_ops *ops);
void evrec_recorder_init_ring(evrec_recorder_t *rec, void *buf, size_t size, size_t block_size, size_t block_count,
                              const struct evrec_cyclic_ops *ops)
{
    __builtin_memset(rec, 0, sizeof *rec);
    rec->hdr = (evrec_buf_header_t *)buf;
    rec->cyclic = ops;
    hdr_init(rec->hdr, size, EVREC_BUF_CYCLIC, block_size, block_count);
}

evrec_recorder_counts_t evrec_recorder_counts(const evrec_recorder_t *rec)
{
    evrec_recorder_counts_t c;
    __builtin_memset(&c, 0, sizeof c);
    if (!rec || !rec->hdr) {
        return c;
    }
    const evrec_buf_header_t *h = rec->hdr;
    c.recorded = h->recorded;
    c.dropped = evrec_atomic_load(&h->dropped);
    c.overwritten = evrec_atomic_load(&h->overwritten);
    c.used = h->used;
    c.size = h->records_size;
    c.block_count = h->block_count;
    c.state = h->state;
    return c;
}

void evrec_host_init(evrec_host_t *host)
{
    __builtin_memset(host, 0, sizeof *host);
    evrec_atomic_store(&host->pos, EVREC_POS_CLOSED);
}

/* A zero-initialised static host has pos 0 and cap 0: the pre-check `pos >= cap` holds and the
 * slow path sees pos < EVREC_POS_CLOSED. `rec == NULL` tells it apart from a full buffer. */
static int host_detached(const evrec_host_t *host, size_t pos)
{
    return pos >= EVREC_POS_CLOSED || __atomic_load_n(&host->rec, __ATOMIC_ACQUIRE) == NULL;
}

void evrec_write_control(uint8_t *slot, uint32_t time, uint8_t type)
{
    evrec_control_event_t *e = (evrec_control_event_t *)(void *)slot;
    e->time = time;
    e->type = type;
    __atomic_store_n(&e->id, (uint16_t)EVREC_CONTROL_EVENT_ID, __ATOMIC_RELEASE);
}

evrec_status evrec_host_start(evrec_host_t *host, evrec_recorder_t *rec, const evrec_meta_t *meta,
                              uint64_t time_freq)
{
    if (!host || !rec || !meta || !rec->hdr) {
        return EVREC_E_ARG;
    }
    evrec_buf_header_t *h = rec->hdr;
    if (host->rec != NULL || h->state == EVREC_BUF_RECORDING) {
        return EVREC_E_BUSY;
    }
    if (!evrec_meta_has_control(meta) || meta->event_count > EVREC_ID_PROVISIONAL_MIN) {
        return EVREC_E_META; /* ids from EVREC_ID_PROVISIONAL_MIN on mark reserved slots */
    }
    if (h->block_size) {
        for (uint32_t e = 0; e < meta->event_count; e++) {
            if (evrec_slot_size_of(meta, (uint16_t)e) + EVREC_BLOCK_HEADER > h->block_size) {
                return EVREC_E_ARG; /* an event does not fit in a cyclic block */
            }
        }
    }
    h->version = EVREC_BUF_VERSION; /* a buffer split into lanes before is one again */
    h->lanes = 1;
    evrec_status st = evrec_buf_begin(rec, meta, time_freq);
    if (st != EVREC_OK) {
        return st;
    }
    size_t area = (size_t)(h->buf_size - h->records_offset);
    if (h->block_size) {
        size_t n = area / h->block_size;
        while (n & (n - 1u)) {
            n &= n - 1u;
        }
        if (n < 4) {
            return EVREC_E_ARG; /* the blob took too much of the ring */
        }
        h->block_count = (uint32_t)n;
        h->records_size = (uint32_t)(n * h->block_size);
    } else {
        if (area < EVREC_MIN_BUFFER) {
            return EVREC_E_ARG;
        }
        h->records_size = (uint32_t)area;
    }
    uint8_t *records = evrec_records(rec);
    /* 0xFF everywhere: a slot not yet reserved reads id 0xFFFF (EVREC_ID_NONE). */
    __builtin_memset(records, 0xFF, h->records_size);
    h->time_freq = time_freq;
    h->schema_hash = meta->schema_hash;
    h->meta = meta;
    h->used = 0;
    h->recorded = 0;
    h->end_pos = 0;
    __atomic_store_n(&h->full_time, 0, __ATOMIC_RELAXED); /* a context from the last run may still store it */
    evrec_atomic_store(&h->dropped, 0);
    evrec_atomic_store(&h->overwritten, 0);
    evrec_atomic_store(&h->fail_pos, EVREC_POS_CLOSED);
    rec->host = host;

    /* The geometry and meta are read by contexts that may be recording right now (see
     * evrec_reserve()): relaxed atomic stores, published by the release store of pos below. */
    EVREC_STORE_RELAXED(&host->buf, records);
    EVREC_STORE_RELAXED(&host->meta, meta);
    __atomic_store_n(&host->rec, rec, __ATOMIC_RELEASE);
    size_t first;
    if (h->block_size) {
        EVREC_STORE_RELAXED(&host->cap, EVREC_POS_CLOSED); /* never full: only "closed" stops allocation */
        first = rec->cyclic->start(host, rec, EVREC_PORT_TIMESTAMP());
    } else {
        EVREC_STORE_RELAXED(&host->block_mask, 0);
        EVREC_STORE_RELAXED(&host->ring_mask, (size_t)-1);
        EVREC_STORE_RELAXED(&host->count_one, 0);
        EVREC_STORE_RELAXED(&host->block_shift, 0);
        EVREC_STORE_RELAXED(&host->cap, h->records_size - EVREC_CONTROL_SLOT); /* the Stop record always fits */
        evrec_write_control(records, EVREC_PORT_TIMESTAMP(), EVREC_CONTROL_START);
        first = EVREC_CONTROL_SLOT;
    }
    /* The header says "recording" before the first record: a crash from here on is recoverable. */
    __atomic_store_n(&h->state, EVREC_BUF_RECORDING, __ATOMIC_RELEASE);
    /* Publishing pos (release) makes buf/cap/meta visible to every reserve (acquire). */
    evrec_atomic_store(&host->pos, first);
    return EVREC_OK;
}

void *evrec_reserve_failed(evrec_host_t *host, size_t pos)
{
    /* One load of rec: evrec_host_stop() may clear it at any moment (this context's allocation
     * may predate the stop), so it is not read twice. */
    evrec_recorder_t *rec = __atomic_load_n(&host->rec, __ATOMIC_ACQUIRE);
    if (pos >= EVREC_POS_CLOSED || rec == NULL) {
        return NULL;
    }
    evrec_buf_header_t *h = rec->hdr;
    if (evrec_atomic_fetch_add(&h->dropped, 1) == 0) {
        __atomic_store_n(&h->full_time, EVREC_PORT_TIMESTAMP(), __ATOMIC_RELAXED);
    }
    if (pos < EVREC_LOAD_RELAXED(&host->cap)) {
        /* This allocation crossed the end: remember where the committed records stop. Every
         * later allocation starts at or after it, so the smallest such pos is the end. */
        size_t cur = evrec_atomic_load(&h->fail_pos);
        while (pos < cur && !evrec_atomic_cas(&h->fail_pos, &cur, pos)) {
        }
    }
    return NULL;
}

size_t evrec_reserve_cyclic_switch(evrec_host_t *host, size_t cur, size_t len)
{
    const evrec_recorder_t *rec = evrec_host_rec_acquire(host);
    if (rec == NULL) {
        return EVREC_POS_CLOSED; /* stopped since this context read pos */
    }
    return rec->cyclic->reserve_switch(host, cur, len);
}

evrec_status evrec_host_stop(evrec_host_t *host, evrec_recorder_t **rec_out)
{
    if (!host || !host->rec) {
        return EVREC_E_NOT_RECORDING;
    }
    evrec_recorder_t *rec = host->rec;
    const evrec_meta_t *meta = host->meta;
    /* 1. Close allocation: every later reserve sees pos >= EVREC_POS_CLOSED. */
    size_t end = evrec_atomic_exchange(&host->pos, EVREC_POS_CLOSED);
    uint32_t stop_time = EVREC_PORT_TIMESTAMP();
    evrec_buf_header_t *h = rec->hdr;
    if (h->block_size) {
        rec->cyclic->stop(host, rec, end, stop_time); /* sets end_pos, used, recorded */
        __atomic_store_n(&h->state, EVREC_BUF_STOPPED, __ATOMIC_RELEASE);
        __atomic_store_n(&host->rec, NULL, __ATOMIC_RELEASE);
        if (rec_out) {
            *rec_out = rec;
        }
        return EVREC_OK;
    }
    /* 2. Walk the allocated records, waiting for each to be committed. A slot whose allocation
     * failed is never written, so the walk also ends at fail_pos, re-read while waiting (the
     * failing context may not have published it yet). */
    uint8_t *records = host->buf;
    size_t limit = end < host->cap ? end : host->cap;
    size_t q = EVREC_CONTROL_SLOT;
    uint64_t count = 1; /* Start */
    while (q < limit) {
        const evrec_record_header_t *r = (const evrec_record_header_t *)(const void *)(records + q);
        uint16_t id;
        /* 0xFFFF: not reserved yet (or a failed allocation); provisional: reserved, being written */
        while ((id = __atomic_load_n(&r->id, __ATOMIC_ACQUIRE)) >= EVREC_ID_PROVISIONAL_MIN) {
            if (id == EVREC_ID_NONE && evrec_atomic_load_acquire(&h->fail_pos) <= q) {
                break;
            }
            EVREC_PORT_RELAX();
        }
        if (id == EVREC_ID_NONE) {
            break; /* reached the first failed allocation */
        }
        size_t n = evrec_slot_size_of(meta, id);
        if (n == 0 || q + n > limit) {
            break; /* a slot overwritten by the application: keep what precedes it */
        }
        q += n;
        count++;
    }
    /* 3. Stop is the last record; its slot was kept free by cap. */
    if (evrec_atomic_load(&h->dropped) != 0) {
        stop_time = __atomic_load_n(&h->full_time, __ATOMIC_RELAXED);
    }
    evrec_write_control(records + q, stop_time, EVREC_CONTROL_STOP);
    h->used = q + EVREC_CONTROL_SLOT;
    h->end_pos = h->used;
    h->recorded = count + 1;
    __atomic_store_n(&h->state, EVREC_BUF_STOPPED, __ATOMIC_RELEASE);
    /* host->meta stays: a racing evrec_record() may still read it (the caller keeps meta alive
     * until save), and its fetch-and-add then sees the host closed. */
    __atomic_store_n(&host->rec, NULL, __ATOMIC_RELEASE);
    if (rec_out) {
        *rec_out = rec;
    }
    return EVREC_OK;
}

evrec_status evrec_record(evrec_host_t *host, uint16_t event_id, const void *fields)
{
    const evrec_meta_t *meta = EVREC_LOAD_RELAXED(&host->meta);
    size_t n = meta ? evrec_slot_size_of(meta, event_id) : 0;
    if (n == 0) {
        return meta ? EVREC_E_BAD_ID : EVREC_E_NOT_RECORDING;
    }
    uint8_t *slot = (uint8_t *)evrec_reserve(host, n);
    if (!slot) {
        return host_detached(host, evrec_atomic_load(&host->pos)) ? EVREC_E_NOT_RECORDING : EVREC_E_DROPPED;
    }
    __builtin_memcpy(slot + 6, (const uint8_t *)fields + 6, n - 6);
    evrec_commit(slot, event_id);
    return EVREC_OK;
}

evrec_status evrec_tick(evrec_host_t *host)
{
    evrec_control_event_t *e = (evrec_control_event_t *)evrec_reserve(host, EVREC_CONTROL_SLOT);
    if (!e) {
        size_t seen = evrec_atomic_load(&host->pos);
        return host_detached(host, seen) ? EVREC_E_NOT_RECORDING : EVREC_E_DROPPED;
    }
    e->type = EVREC_CONTROL_TICK;
    evrec_commit(e, EVREC_CONTROL_EVENT_ID);
    return EVREC_OK;
}
