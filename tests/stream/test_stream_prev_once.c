/* SPDX-License-Identifier: Apache-2.0 */
/* The previous boot's recording (S_PREV_BOOT frames, FORMAT.md section 8.2) is handed out once:
 * "each byte once" holds for an empty file too, whose only piece has no byte (a duplicated frame
 * of it made `evrec record` create NAME.prev-boot.evr a second time, fail on the existing path
 * and report the saved file as not saved). Frames are built by hand (section 8.1). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_stream_rx.h"

static void be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* One S_PREV_BOOT frame (type 17) of `n` file bytes at `off` of a `size`-byte file; its length. */
static size_t prev_frame(uint8_t *f, uint32_t crc, uint32_t size, uint32_t off, const uint8_t *d, uint32_t n)
{
    static const uint8_t magic[4] = {0xEB, 0x45, 0x56, 0x53};
    memcpy(f, magic, 4);
    be32(f + 4, 17u << 24 | (16u + n));
    be32(f + 12, 0x5EED0001u); /* stream_id */
    be32(f + 16, crc);
    be32(f + 20, size);
    be32(f + 24, off);
    if (n) { /* an empty piece: d may be NULL */
        memcpy(f + 28, d, n);
    }
    be32(f + 8, evrec_crc32c(evrec_crc32c(0, f + 4, 4), f + 12, 16u + n));
    return 28u + n;
}

typedef struct seen {
    unsigned calls;
    uint64_t bytes;
} seen_t;

static int on_prev(void *ctx, const uint8_t *d, size_t n, uint64_t offset, uint64_t total)
{
    seen_t *s = ctx;
    (void)d;
    (void)offset;
    (void)total;
    s->calls++;
    s->bytes += n;
    return 0;
}

/* Feeds `len` bytes of frames; returns how many times the previous boot's file was handed out. */
static seen_t receive(const uint8_t *cap, size_t len)
{
    seen_t s = {0, 0};
    evrec_srx_t *rx = NULL;
    cr_assert_eq(evrec_srx_new(&rx, NULL), EVREC_OK);
    evrec_srx_set_prev_boot(rx, on_prev, &s);
    cr_assert_eq(evrec_srx_feed(rx, cap, len), EVREC_OK);
    cr_assert_eq(evrec_srx_finish(rx), EVREC_OK);
    cr_expect_eq(evrec_srx_stats(rx)->prev_ok, 1);
    evrec_srx_free(rx);
    return s;
}

Test(stream_prev_once, an_empty_file_repeated_is_handed_out_once)
{
    uint8_t cap[3 * 28];
    size_t n = 0;
    for (int i = 0; i < 3; i++) {
        n += prev_frame(cap + n, evrec_crc32c(0, "", 0), 0, 0, NULL, 0);
    }
    seen_t s = receive(cap, n);
    cr_expect_eq(s.calls, 1, "the empty file was handed out %u times", s.calls);
}

Test(stream_prev_once, a_whole_file_then_an_empty_piece_at_its_end_is_not_handed_out)
{
    static const uint8_t file[5] = {1, 2, 3, 4, 5};
    uint8_t cap[2 * 28 + 5];
    uint32_t crc = evrec_crc32c(0, file, 5);
    size_t n = prev_frame(cap, crc, 5, 0, file, 5);
    n += prev_frame(cap + n, crc, 5, 5, NULL, 0);
    seen_t s = receive(cap, n);
    cr_expect_eq(s.calls, 1, "handed out %u times", s.calls);
    cr_expect_eq(s.bytes, 5);
}
