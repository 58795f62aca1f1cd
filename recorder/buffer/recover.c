/* SPDX-License-Identifier: Apache-2.0 */
/* A trace buffer a previous run left: its header checked, its recording finished without a host
 * (evrec_recorder_recover()); see evrec_recorder.h and format/FORMAT.md, "RAM buffer header and
 * recovery". */
#include "recorder_internal.h"

const struct evrec_cyclic_ops *evrec_cyclic_ops_get(void);

int evrec_hdr_check(const evrec_buf_header_t *h, size_t size)
{
    if (h->header_size != EVREC_BUF_HEADER_SIZE || h->buf_size != size || h->lanes != 1u ||
        (h->flags & ~(uint32_t)(EVREC_BUF_CYCLIC | EVREC_BUF_META | EVREC_BUF_WANT_META)) != 0) {
        return -1;
    }
    uint64_t off = h->records_offset, area = h->records_size;
    if (off < EVREC_BUF_HEADER_SIZE || off % 8u != 0 || off + area > size || area < EVREC_CONTROL_SLOT ||
        area % EVREC_RECORD_ALIGN != 0) {
        return -1;
    }
    if (h->meta_offset != 0 &&
        (h->meta_offset < EVREC_BUF_HEADER_SIZE || (uint64_t)h->meta_offset + h->meta_size > off)) {
        return -1;
    }
    if (h->flags & EVREC_BUF_CYCLIC) {
        uint32_t bs = h->block_size, n = h->block_count;
        if (bs < 256u || bs > 65536u || (bs & (bs - 1u)) != 0 || n < 4u || (n & (n - 1u)) != 0 ||
            (uint64_t)bs * n != area || n > evrec_block_modulus(evrec_log2(bs)) / 4u) {
            return -1;
        }
    } else if (h->block_size != 0 || h->block_count != 0) {
        return -1;
    }
    return 0;
}

/* Size of the record at `p` (of `room` readable bytes) when its id is a known event's whose record
 * fits; 0 otherwise. */
static size_t committed_size(const evrec_meta_t *meta, const uint8_t *p, size_t room)
{
    uint16_t id = ((const evrec_record_header_t *)(const void *)p)->id;
    size_t n = id < EVREC_ID_PROVISIONAL_MIN ? evrec_slot_size_of(meta, id) : 0;
    /* a meta-info read from the image may claim any size: only whole, aligned records */
    return n <= room && n >= EVREC_CONTROL_SLOT && n % EVREC_RECORD_ALIGN == 0 ? n : 0;
}

/* A slot whose id is 0xFFFF at `q`: reserved, its header not written yet (the context died right
 * after its allocation; its time may be written), or the end of the records. Returns the offset
 * of the next record after it (the first 4-aligned word past q + 4 that is not all ones starts
 * it, or the word before when that one's id is the record's: a time of 0xFFFFFFFF), or `end`
 * when only 0xFF bytes follow or what follows is not a record. */
static size_t resync(const evrec_meta_t *meta, const uint8_t *area, size_t q, size_t end)
{
    size_t x = q + 8u;
    while (x + 4u <= end) {
        uint32_t w;
        __builtin_memcpy(&w, area + x, 4);
        if (w != 0xFFFFFFFFu) {
            break;
        }
        x += 4u;
    }
    if (x + sizeof(evrec_record_header_t) > end) {
        return end;
    }
    const evrec_record_header_t *r = (const evrec_record_header_t *)(const void *)(area + x);
    if (committed_size(meta, area + x, end - x) || EVREC_PROVISIONAL_SIZE(r->id)) {
        return x;
    }
    r = (const evrec_record_header_t *)(const void *)(area + x - 4u);
    if (x - 4u >= q + 8u && (committed_size(meta, area + x - 4u, end - x + 4u) || EVREC_PROVISIONAL_SIZE(r->id))) {
        return x - 4u;
    }
    return end;
}

void evrec_recover_note_skip(evrec_recover_report_t *rep, uint64_t offset)
{
    if (rep->offsets_kept < EVREC_RECOVER_OFFSETS) {
        rep->offset[rep->offsets_kept++] = offset;
    }
    rep->skipped++;
}

/* The next record boundary after the uncommitted slot at `q`, or `end` (the records end there). */
static size_t skip_uncommitted(const evrec_meta_t *meta, const uint8_t *area, size_t q, size_t end, uint64_t base,
                               evrec_recover_report_t *rep)
{
    const evrec_record_header_t *r = (const evrec_record_header_t *)(const void *)(area + q);
    uint16_t id = r->id;
    size_t n = EVREC_PROVISIONAL_SIZE(id);
    if (n != 0) {
        evrec_recover_note_skip(rep, base + q); /* reserved, never committed: its extent is in its id */
        return q + n <= end ? q + n : end;
    }
    if (id != EVREC_ID_NONE) {
        return end; /* not a record (the application overwrote the buffer): keep what precedes */
    }
    size_t next = resync(meta, area, q, end);
    if (next != end || r->time != 0xFFFFFFFFu) {
        evrec_recover_note_skip(rep, base + q); /* allocated, header not (or partly) written */
    }
    return next;
}

/* Copies n bytes (a multiple of 4, both 4-aligned) from src to dst < src, overlapping or not.
 * A loop, not memmove: the recorder uses no libc beyond memcpy/memset (and GCC would turn the
 * loop into a memmove call). */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
static void
move_down(uint8_t *dst, const uint8_t *src, size_t n)
{
    for (size_t i = 0; i < n; i += 4u) {
        uint32_t v;
        __builtin_memcpy(&v, src + i, 4);
        __builtin_memcpy(dst + i, &v, 4);
    }
}

size_t evrec_recover_run(const evrec_meta_t *meta, uint8_t *area, size_t q, size_t end, uint64_t base,
                         evrec_recover_report_t *rep, uint64_t *count)
{
    /* Compacts the committed records of [q, end) to the front (save reads them back to back) and
     * returns where they end; the bytes after them up to `end` become 0xFF. */
    size_t w = q;
    uint64_t k = 0;
    while (q + sizeof(evrec_record_header_t) <= end) {
        size_t n = committed_size(meta, area + q, end - q);
        if (n == 0) {
            q = skip_uncommitted(meta, area, q, end, base, rep);
            continue;
        }
        if (w != q) {
            move_down(area + w, area + q, n);
        }
        w += n;
        q += n;
        k++;
    }
    __builtin_memset(area + w, 0xFF, end - w);
    *count += k;
    return w;
}

/* One-shot: the committed records from Start on, compacted past the slots never committed. */
static void oneshot_recover(evrec_recorder_t *rec, const evrec_meta_t *meta, uint64_t base,
                            evrec_recover_report_t *rep)
{
    evrec_buf_header_t *h = rec->hdr;
    uint64_t count = 0;
    size_t used = evrec_recover_run(meta, evrec_records(rec), 0, h->records_size, base + h->records_offset, rep,
                                    &count);
    h->used = used;
    h->end_pos = used;
    h->recorded = count;
}

static evrec_status recover_at(evrec_recorder_t *rec, void *buf, size_t size, const evrec_meta_t *meta,
                               uint64_t base, evrec_recover_report_t *rep);

/* What save reads besides the geometry, checked against it: a one-shot buffer's `used` (when
 * stopped), each cyclic block's `closed` extent (0, or a header to the block's end). 0 when usable. */
static int extents_check(const evrec_buf_header_t *h)
{
    const uint8_t *records = (const uint8_t *)h + h->records_offset;
    if (!(h->flags & EVREC_BUF_CYCLIC)) {
        return h->state != EVREC_BUF_STOPPED || (h->used <= h->records_size && h->used % EVREC_RECORD_ALIGN == 0)
                   ? 0
                   : -1;
    }
    for (uint32_t i = 0; i < h->block_count; i++) {
        const evrec_block_header_t *b = (const evrec_block_header_t *)(const void *)(records +
                                                                                     (size_t)i * h->block_size);
        uint32_t used = b->closed & EVREC_CLOSED_USED_MASK;
        if (used != 0 && (used < EVREC_BLOCK_HEADER || used > h->block_size)) {
            return -1;
        }
    }
    return 0;
}

/* The outer header of a version-2 buffer split into lanes: 0 when its geometry fits `size`. */
static int lanes_hdr_check(const evrec_buf_header_t *h, size_t size)
{
    uint64_t off = h->records_offset, area = h->records_size;
    uint32_t n = h->lanes;
    if (h->header_size != EVREC_BUF_HEADER_SIZE || h->buf_size != size || !(h->flags & EVREC_BUF_LANES) ||
        (h->flags & ~(uint32_t)(EVREC_BUF_CYCLIC | EVREC_BUF_META | EVREC_BUF_WANT_META | EVREC_BUF_LANES)) != 0 ||
        n == 0 || n > 255u || off < EVREC_BUF_HEADER_SIZE || off % 8u != 0 || off + area > size || area % n != 0 ||
        (area / n) % 64u != 0 || area / n < EVREC_BUF_HEADER_SIZE + EVREC_CONTROL_SLOT) {
        return -1;
    }
    if (h->meta_offset != 0 &&
        (h->meta_offset < EVREC_BUF_HEADER_SIZE || (uint64_t)h->meta_offset + h->meta_size > off)) {
        return -1;
    }
    return 0;
}

/* The recovered lanes' `recorded` and `used` as the file saved from them has them: the lanes'
 * sums (`recorded`, `used`) less the copies of Start, Stop and each Tick that save writes once
 * (FORMAT.md section 2.3), counted exactly here (evrec_lanes_stop() cannot tell which Tick copies
 * a cyclic lane overwrote). In a build that cannot save lanes: the sums when the recording was
 * cut (`cut`), else evrec_lanes_stop()'s counts, kept. */
static void lanes_count_file(evrec_recorder_t *rec, uint64_t recorded, uint64_t used, int cut)
{
    evrec_buf_header_t *h = rec->hdr;
    uint64_t file = evrec_lanes_file_records(rec);
    if (file > recorded) {
        if (cut) {
            h->recorded = recorded;
            h->used = (size_t)used;
        }
        return;
    }
    h->recorded = file;
    h->used = (size_t)(used - (recorded - file) * EVREC_CONTROL_SLOT);
}

/* A version-2 buffer split into lanes (evrec_lanes_start()): the fixed header's geometry, then
 * each lane's sub-buffer recovered as a buffer of its own; the summed counts go to the header,
 * `recorded` and `used` those of the file save writes from it. */
static evrec_status lanes_recover(evrec_recorder_t *rec, evrec_buf_header_t *h, size_t size,
                                  const evrec_meta_t *meta, uint64_t base, evrec_recover_report_t *rep)
{
    if (lanes_hdr_check(h, size) != 0) {
        return EVREC_E_CORRUPT;
    }
    if (h->state != EVREC_BUF_RECORDING && h->state != EVREC_BUF_STOPPED) {
        return EVREC_E_NOT_RECORDING;
    }
    if (h->schema_hash != meta->schema_hash) {
        return EVREC_E_META;
    }
    size_t stride = evrec_lane_stride(h);
    uint64_t recorded = 0, dropped = 0, overwritten = 0, used = 0;
    for (uint32_t k = 0; k < h->lanes; k++) {
        evrec_buf_header_t *l = evrec_lane_hdr(h, k);
        if (l->magic != EVREC_BUF_MAGIC || l->version != EVREC_BUF_VERSION ||
            (l->flags & EVREC_BUF_CYCLIC) != (h->flags & EVREC_BUF_CYCLIC) || l->block_size != h->block_size) {
            return EVREC_E_CORRUPT;
        }
        evrec_recorder_t sub;
        evrec_status st = recover_at(&sub, l, stride, meta, base + h->records_offset + (uint64_t)k * stride, rep);
        if (st != EVREC_OK && st != EVREC_E_END) {
            return st == EVREC_E_NOT_RECORDING ? EVREC_E_CORRUPT : st;
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
    evrec_status st = EVREC_E_END;
    if (h->state != EVREC_BUF_STOPPED) {
        evrec_atomic_store(&h->dropped, (size_t)dropped);
        evrec_atomic_store(&h->overwritten, (size_t)overwritten);
        h->state = EVREC_BUF_STOPPED;
        st = EVREC_OK;
    }
    lanes_count_file(rec, recorded, used, st == EVREC_OK);
    return st;
}

/* The magic of a header that is not this target's: another target's buffer, or none at all. */
static evrec_status foreign_magic(uint32_t m)
{
    uint32_t swapped = (m >> 24) | ((m >> 8) & 0xFF00u) | ((m << 8) & 0xFF0000u) | (m << 24);
    uint32_t any = EVREC_BUF_MAGIC & 0xFFFFFF00u;
    return (m & 0xFFFFFF00u) == any || (swapped & 0xFFFFFF00u) == any ? EVREC_E_UNSUPPORTED
                                                                      : EVREC_E_NOT_RECORDING;
}

/* Recovery of the buffer at `buf`, `base` bytes from the start of the image it is part of. */
static evrec_status recover_at(evrec_recorder_t *rec, void *buf, size_t size, const evrec_meta_t *meta,
                               uint64_t base, evrec_recover_report_t *rep)
{
    evrec_buf_header_t *h = (evrec_buf_header_t *)buf;
    if (size < EVREC_BUF_HEADER_SIZE) {
        return EVREC_E_NOT_RECORDING;
    }
    if (h->magic != EVREC_BUF_MAGIC) {
        return foreign_magic(h->magic);
    }
    if (h->version == EVREC_BUF_VERSION_LANES && base == 0) {
        return lanes_recover(rec, h, size, meta, base, rep);
    }
    if (h->version != EVREC_BUF_VERSION) {
        return EVREC_E_UNSUPPORTED;
    }
    if (evrec_hdr_check(h, size) != 0 || extents_check(h) != 0) {
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
    uint64_t before = rep->skipped;
    if (rec->cyclic) {
        rec->cyclic->recover(rec, meta, base, rep);
    } else {
        oneshot_recover(rec, meta, base, rep);
    }
    /* Slots reserved and never committed are lost events: counted as dropped, so that the file
     * does not claim a complete recording. */
    evrec_atomic_store(&h->dropped, evrec_atomic_load(&h->dropped) + (size_t)(rep->skipped - before));
    h->state = EVREC_BUF_STOPPED;
    return EVREC_OK;
}

evrec_status evrec_recorder_recover_ex(evrec_recorder_t *rec, void *buf, size_t size, const evrec_meta_t *meta,
                                       evrec_recover_report_t *report)
{
    evrec_recover_report_t local;
    evrec_recover_report_t *rep = report ? report : &local;
    __builtin_memset(rep, 0, sizeof *rep);
    if (!rec || !buf || !meta || ((uintptr_t)buf % 8u) != 0) {
        return EVREC_E_ARG;
    }
    if (meta->event_count > EVREC_ID_PROVISIONAL_MIN) {
        return EVREC_E_META;
    }
    return recover_at(rec, buf, size, meta, 0, rep);
}

evrec_status evrec_recorder_recover(evrec_recorder_t *rec, void *buf, size_t size, const evrec_meta_t *meta,
                                    uint64_t *partial)
{
    evrec_recover_report_t rep;
    evrec_status st = evrec_recorder_recover_ex(rec, buf, size, meta, &rep);
    if (partial) {
        *partial = rep.skipped;
    }
    return st;
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
