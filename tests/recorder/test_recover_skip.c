/* SPDX-License-Identifier: Apache-2.0 */
/* Recovery past slots that were reserved and never committed (a context killed between
 * evrec_reserve() and evrec_commit()), in one-shot, cyclic and lanes buffers; and crafted images
 * whose header lies (offsets, sizes, flags, lanes, cyclic geometry), which recovery must refuse
 * without reading outside the image. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_lanes.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"
#include "mem_sink.h"
#include "probe_meta.h"

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

enum { MAX_SEQ = 4096 };

/* Saves a recovered recorder and reads it back: which probe sequence numbers it holds. */
static uint64_t saved_probes(const evrec_recorder_t *rec, uint8_t *seen, uint64_t *dropped)
{
    mem_sink_t m = {0};
    evrec_sink_t sink = mem_sink_of(&m);
    cr_assert_eq(evrec_save(rec, &sink), EVREC_OK);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, m.data, m.len, NULL), EVREC_OK);
    *dropped = evrec_reader_info(r)->dropped;
    memset(seen, 0, MAX_SEQ);
    uint64_t probes = 0;
    evrec_record_t e;
    evrec_status st;
    while ((st = evrec_reader_next(r, &e)) == EVREC_OK) {
        if (e.id == PROBE_EVENT_PROBE) {
            uint32_t seq = be32(e.data + 8);
            cr_assert_eq(be32(e.data + 12), probe_check(0, seq), "probe %u damaged", seq);
            cr_assert_lt(seq, MAX_SEQ);
            cr_assert_eq(seen[seq], 0, "probe %u twice", seq);
            seen[seq] = 1;
            probes++;
        }
    }
    cr_assert_eq(st, EVREC_E_END, "read: %s", evrec_reader_error(r)->message);
    evrec_reader_close(r);
    free(m.data);
    return probes;
}

/* A slot reserved with its fields written and never committed. */
static probe_event_t *leave_uncommitted(evrec_host_t *host)
{
    probe_event_t *e = evrec_reserve(host, sizeof *e);
    cr_assert_not_null(e);
    e->source = 1;
    e->seq = 0xDEAD;
    e->check = 0;
    return e;
}

/* A slot allocated by a context killed before evrec_reserve() wrote its header: all 0xFF. */
static probe_event_t *leave_unwritten(evrec_host_t *host)
{
    probe_event_t *e = leave_uncommitted(host);
    memset(e, 0xFF, sizeof *e);
    return e;
}

Test(recover_skip, one_shot_keeps_records_committed_after_uncommitted_slots)
{
    enum { SIZE = 16384 };
    uint8_t *mem = aligned_alloc(64, SIZE);
    uint8_t seen[MAX_SEQ];
    evrec_recorder_t rec, back;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init(&rec, mem, SIZE), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 1000), EVREC_OK);
    uint32_t seq = 0;
    size_t at[3];
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 50; i++)
            cr_assert(probe_record(&host, 0, seq++));
        uint8_t *slot = (uint8_t *)(k == 1 ? leave_unwritten(&host) : leave_uncommitted(&host));
        at[k] = (size_t)(slot - mem);
    }
    for (int i = 0; i < 50; i++)
        cr_assert(probe_record(&host, 0, seq++));
    /* the program dies here: the host is gone, the buffer is what is left */
    evrec_recover_report_t rep;
    cr_assert_eq(evrec_recorder_recover_ex(&back, mem, SIZE, &probe_meta, &rep), EVREC_OK);
    cr_assert_eq(rep.skipped, 3);
    cr_assert_eq(rep.offsets_kept, 3);
    for (int k = 0; k < 3; k++)
        cr_assert_eq(rep.offset[k], at[k], "slot %d at %zu, reported %llu", k, at[k],
                     (unsigned long long)rep.offset[k]);
    evrec_recorder_counts_t c = evrec_recorder_counts(&back);
    cr_assert_eq(c.recorded, 1 + seq, "Start and every committed probe: %llu", (unsigned long long)c.recorded);
    cr_assert_eq(c.dropped, 3, "the skipped slots are counted as dropped");
    uint64_t dropped;
    cr_assert_eq(saved_probes(&back, seen, &dropped), seq);
    cr_assert_eq(dropped, 3, "the file does not claim a complete recording");
    free(mem);
}

Test(recover_skip, cyclic_keeps_records_committed_after_uncommitted_slots)
{
    enum { BLOCK = 512, BLOCKS = 16 };
    size_t size = EVREC_CYCLIC_BUFFER_SIZE(BLOCKS, BLOCK);
    uint8_t *mem = aligned_alloc(64, size);
    uint8_t seen[MAX_SEQ];
    evrec_recorder_t rec, back;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, size, BLOCK), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 1000), EVREC_OK);
    /* within the first lap (no block reused): every committed record must come back */
    uint32_t seq = 0;
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < 40; i++)
            cr_assert(probe_record(&host, 0, seq++));
        if (k == 2) {
            (void)leave_unwritten(&host);
        } else {
            (void)leave_uncommitted(&host);
        }
    }
    for (int i = 0; i < 10; i++)
        cr_assert(probe_record(&host, 0, seq++));
    evrec_recover_report_t rep;
    cr_assert_eq(evrec_recorder_recover_ex(&back, mem, size, &probe_meta, &rep), EVREC_OK);
    cr_assert_eq(rep.skipped, 4, "skipped %llu", (unsigned long long)rep.skipped);
    evrec_recorder_counts_t c = evrec_recorder_counts(&back);
    cr_assert_eq(c.recorded, 1 + seq, "Start and every committed probe: %llu of %u",
                 (unsigned long long)c.recorded, 1 + seq);
    uint64_t dropped;
    cr_assert_eq(saved_probes(&back, seen, &dropped), seq);
    cr_assert_eq(dropped, 4);
    free(mem);
}

Test(recover_skip, lanes_keep_records_committed_after_uncommitted_slots)
{
    enum { SIZE = 32768, LANES = 2 };
    uint8_t *mem = aligned_alloc(64, SIZE);
    uint8_t seen[MAX_SEQ];
    evrec_lane_t *lane = aligned_alloc(EVREC_LANE_ALIGN, sizeof(evrec_lane_t) * LANES);
    evrec_lanes_t lanes;
    evrec_recorder_t rec, back;
    cr_assert_eq(evrec_recorder_init(&rec, mem, SIZE), EVREC_OK);
    cr_assert_eq(evrec_lanes_init(&lanes, lane, LANES), EVREC_OK);
    cr_assert_eq(evrec_lanes_start(&lanes, &rec, &probe_meta, 1000), EVREC_OK);
    uint32_t seq = 0;
    for (unsigned k = 0; k < LANES; k++) {
        evrec_host_t *h = evrec_lane_host_at(&lanes, k);
        for (int i = 0; i < 30; i++)
            cr_assert(probe_record(h, 0, seq++));
        (void)leave_uncommitted(h);
        for (int i = 0; i < 30; i++)
            cr_assert(probe_record(h, 0, seq++));
    }
    evrec_recover_report_t rep;
    cr_assert_eq(evrec_recorder_recover_ex(&back, mem, SIZE, &probe_meta, &rep), EVREC_OK);
    cr_assert_eq(rep.skipped, LANES);
    uint64_t dropped;
    cr_assert_eq(saved_probes(&back, seen, &dropped), seq);
    cr_assert_eq(dropped, LANES);
    free(lane);
    free(mem);
}

/* ---- crafted images: the header lies ---- */

/* A one-shot (block 0) or cyclic image of `size` bytes cut short while recording. */
static uint8_t *image_of(size_t size, size_t block)
{
    uint8_t *mem = aligned_alloc(64, size);
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(block ? evrec_recorder_init_cyclic(&rec, mem, size, block) : evrec_recorder_init(&rec, mem, size),
                 EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 1000), EVREC_OK);
    for (uint32_t i = 0; i < 40; i++)
        cr_assert(probe_record(&host, 0, i));
    return mem;
}

static evrec_status recover_image(uint8_t *img, size_t size)
{
    evrec_recorder_t back;
    return evrec_recorder_recover_ex(&back, img, size, &probe_meta, NULL);
}

Test(recover_skip, header_fields_that_do_not_fit_are_refused)
{
    enum { SIZE = 4096 };
    static const struct {
        size_t offset;
        uint32_t value;
        const char *what;
    } lies[] = {
        {12, 0x40, "unknown flag"},
        {12, EVREC_BUF_LANES, "lanes flag in a version-1 header"},
        {48, EVREC_BUF_HEADER_SIZE + 4u, "records_offset not a multiple of 8"},
        {48, EVREC_BUF_HEADER_SIZE + 1u, "odd records_offset"},
        {52, SIZE, "records_offset + records_size past the image"},
        {52, 0xFFFFFFF8u, "records_size far past the image"},
        {52, 1002, "records_size not a multiple of 4"},
        {56, 512, "one-shot with a block size"},
        {64, SIZE - 8u, "meta-info blob past the record area"},
        {76, 0, "no lanes"},
    };
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        uint8_t *img = image_of(SIZE, 0);
        memcpy(img + lies[i].offset, &lies[i].value, 4);
        if (lies[i].offset == 64) {
            uint32_t sz = 64;
            memcpy(img + 68, &sz, 4);
        }
        cr_assert_eq(recover_image(img, SIZE), EVREC_E_CORRUPT, "%s", lies[i].what);
        free(img);
    }
}

Test(recover_skip, cyclic_geometry_that_lies_is_refused_or_bounded)
{
    enum { BLOCK = 256, BLOCKS = 8 };
    size_t size = EVREC_CYCLIC_BUFFER_SIZE(BLOCKS, BLOCK);
    static const struct {
        size_t offset;
        uint32_t value;
    } lies[] = {{56, 128}, {56, 300}, {56, 512}, {60, 16}, {60, 3}, {60, 0x40000000u}, {52, 4 * BLOCK}};
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        uint8_t *img = image_of(size, BLOCK);
        memcpy(img + lies[i].offset, &lies[i].value, 4);
        cr_assert_eq(recover_image(img, size), EVREC_E_CORRUPT, "field at %zu = %u", lies[i].offset,
                     lies[i].value);
        free(img);
    }
    /* a block header whose `closed` extent lies (past its block: save would read past it),
     * cut short or stopped */
    for (uint32_t state = EVREC_BUF_RECORDING; state <= EVREC_BUF_STOPPED; state++) {
        uint8_t *img = image_of(size, BLOCK);
        uint32_t closed = EVREC_CLOSED_USED_MASK | 5u << EVREC_CLOSED_COUNT_SHIFT;
        memcpy(img + EVREC_BUF_HEADER_SIZE + (BLOCKS - 1) * BLOCK + 4, &closed, 4);
        memcpy(img + 8, &state, 4);
        cr_assert_eq(recover_image(img, size), EVREC_E_CORRUPT, "state %u", state);
        free(img);
    }
}

Test(recover_skip, stopped_one_shot_whose_used_lies_is_refused)
{
    enum { SIZE = 4096 };
    static const uint64_t lies[] = {SIZE, SIZE - EVREC_BUF_HEADER_SIZE + 4, 1001};
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        uint8_t *img = image_of(SIZE, 0);
        evrec_buf_header_t *h = (evrec_buf_header_t *)(void *)img;
        h->state = EVREC_BUF_STOPPED;
        h->used = (size_t)lies[i];
        cr_assert_eq(recover_image(img, SIZE), EVREC_E_CORRUPT, "used %llu", (unsigned long long)lies[i]);
        free(img);
    }
}

/* The context that opened the newest block died before stamping it (and closing the block
 * before), while another context committed records in it: they are recovered. */
Test(recover_skip, cyclic_block_opened_and_never_stamped)
{
    enum { BLOCK = 512, BLOCKS = 16 };
    size_t size = EVREC_CYCLIC_BUFFER_SIZE(BLOCKS, BLOCK);
    uint8_t *img = aligned_alloc(64, size);
    uint8_t seen[MAX_SEQ];
    evrec_recorder_t rec, back;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, img, size, BLOCK), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 1000), EVREC_OK);
    /* blocks 0 .. 2 full (30 + 31 + 31 probes), 8 in block 3 */
    for (uint32_t i = 0; i < 100; i++)
        cr_assert(probe_record(&host, 0, i));
    uint8_t *b2 = img + EVREC_BUF_HEADER_SIZE + 2 * BLOCK, *b3 = b2 + BLOCK;
    uint32_t unstamped = 0xFFFFFFFFu, open = 0;
    memcpy(b3, &unstamped, 4); /* block 3's seq */
    memcpy(b2 + 4, &open, 4);  /* block 2's closed */
    cr_assert_eq(evrec_recorder_recover_ex(&back, img, size, &probe_meta, NULL), EVREC_OK);
    uint64_t dropped;
    cr_assert_eq(saved_probes(&back, seen, &dropped), 100);
    cr_assert_eq(dropped, 0);
    free(img);
}

Test(recover_skip, lanes_header_that_points_outside_is_refused)
{
    enum { SIZE = 16384, LANES = 2 };
    static const struct {
        size_t offset;
        uint32_t value;
    } lies[] = {{52, SIZE}, {52, 0xFFFFFF00u}, {76, 3}, {76, 1000}, {76, 0}, {48, 132}, {12, 0x48}};
    for (size_t i = 0; i < sizeof lies / sizeof lies[0] + 2; i++) {
        uint8_t *mem = aligned_alloc(64, SIZE);
        evrec_lane_t *lane = aligned_alloc(EVREC_LANE_ALIGN, sizeof(evrec_lane_t) * LANES);
        evrec_lanes_t lanes;
        evrec_recorder_t rec;
        cr_assert_eq(evrec_recorder_init(&rec, mem, SIZE), EVREC_OK);
        cr_assert_eq(evrec_lanes_init(&lanes, lane, LANES), EVREC_OK);
        cr_assert_eq(evrec_lanes_start(&lanes, &rec, &probe_meta, 1000), EVREC_OK);
        for (uint32_t k = 0; k < 20; k++)
            cr_assert(probe_record(evrec_lane_host_at(&lanes, k % LANES), 0, k));
        evrec_buf_header_t *h = (evrec_buf_header_t *)(void *)mem;
        uint8_t *lane1 = mem + h->records_offset + h->records_size / LANES;
        if (i < sizeof lies / sizeof lies[0]) {
            memcpy(mem + lies[i].offset, &lies[i].value, 4);
        } else if (i == sizeof lies / sizeof lies[0]) {
            uint64_t big = SIZE; /* lane 1's own size claims the whole image */
            memcpy(lane1 + 40, &big, 8);
        } else {
            uint32_t off = h->records_size; /* lane 1's records start past its sub-buffer */
            memcpy(lane1 + 48, &off, 4);
        }
        cr_assert_eq(recover_image(mem, SIZE), EVREC_E_CORRUPT, "lie %zu", i);
        free(lane);
        free(mem);
    }
}
