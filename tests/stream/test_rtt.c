/* SPDX-License-Identifier: Apache-2.0 */
/* The RTT up-channel (evrec/evrec_rtt.h) read by a simulated probe: the control block's layout
 * (SEGGER RTT's public one), all-or-nothing writes across the buffer's end, and a stream drained
 * through a small up buffer that a slow host reads: skip mode loses nothing in transport, drop
 * mode drops whole frames that the receiver counts exactly; in both, recorded == received +
 * dropped + lost in transport. */
#include <criterion/criterion.h>
#include <stddef.h>

#include "evrec/evrec_rtt.h"
#include "evrec/evrec_stream.h"
#include "stream_harness.h"

static _Alignas(8) uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(16, 256)];
static uint8_t scratch[EVREC_STREAM_MIN_CAP + 200];

/* The probe: reads at most `max` bytes from RdOff up to WrOff, then writes RdOff. */
static size_t host_read(evrec_rtt_t *r, capture_t *c, size_t max)
{
    evrec_rtt_buffer_t *b = &r->cb.up;
    uint32_t rd = b->rd_off, wr = __atomic_load_n(&b->wr_off, __ATOMIC_ACQUIRE);
    size_t got = 0;
    while (rd != wr && got < max) {
        size_t end = wr > rd ? wr : b->size, n = end - rd;
        n = n < max - got ? n : max - got;
        capture_put(c, b->buffer + rd, n);
        rd = (uint32_t)((rd + n) % b->size);
        got += n;
    }
    __atomic_store_n(&b->rd_off, rd, __ATOMIC_RELEASE);
    return got;
}

Test(rtt, control_block_has_segger_layout)
{
    cr_assert_eq(offsetof(evrec_rtt_t, cb), 0);
    cr_assert_eq(offsetof(evrec_rtt_cb_t, id), 0);
    cr_assert_eq(offsetof(evrec_rtt_cb_t, max_up), 16);
    cr_assert_eq(offsetof(evrec_rtt_cb_t, max_down), 20);
    cr_assert_eq(offsetof(evrec_rtt_cb_t, up), 24);
    /* sName, pBuffer, then four unsigned: 24 bytes with 32-bit pointers. */
    cr_assert_eq(sizeof(evrec_rtt_buffer_t), 2 * sizeof(void *) + 16);
    cr_assert_eq(offsetof(evrec_rtt_buffer_t, size), 2 * sizeof(void *));
    cr_assert_eq(offsetof(evrec_rtt_buffer_t, wr_off), 2 * sizeof(void *) + 4);
    cr_assert_eq(offsetof(evrec_rtt_buffer_t, rd_off), 2 * sizeof(void *) + 8);
    cr_assert_eq(offsetof(evrec_rtt_buffer_t, flags), 2 * sizeof(void *) + 12);
    cr_assert_eq(offsetof(evrec_rtt_cb_t, down), 24 + sizeof(evrec_rtt_buffer_t));

    static evrec_rtt_t r;
    static uint8_t up[64];
    memset(&r, 0x5A, sizeof r);
    cr_assert_eq(evrec_rtt_init(&r, up, sizeof up, "evrec", EVREC_RTT_SKIP), EVREC_OK);
    cr_assert_eq(memcmp(r.cb.id, "SEGGER RTT\0\0\0\0\0\0", 16), 0);
    cr_assert_eq(r.cb.max_up, 1);
    cr_assert_eq(r.cb.max_down, 1);
    cr_assert_eq(r.cb.up.buffer, up);
    cr_assert_eq(r.cb.up.size, 64);
    cr_assert_str_eq(r.cb.up.name, "evrec");
    cr_assert_eq(r.cb.up.wr_off + r.cb.up.rd_off + r.cb.up.flags, 0);
    cr_assert_eq(r.cb.down.buffer, NULL);
    cr_assert_eq(r.cb.down.size, 0);
    cr_assert_eq(evrec_rtt_free_bytes(&r), 63);
}

Test(rtt, init_refuses_bad_arguments)
{
    static evrec_rtt_t r;
    static uint8_t up[64];
    cr_assert_eq(evrec_rtt_init(NULL, up, sizeof up, NULL, EVREC_RTT_SKIP), EVREC_E_ARG);
    cr_assert_eq(evrec_rtt_init(&r, NULL, sizeof up, NULL, EVREC_RTT_SKIP), EVREC_E_ARG);
    cr_assert_eq(evrec_rtt_init(&r, up, 15, NULL, EVREC_RTT_SKIP), EVREC_E_ARG);
    cr_assert_eq(evrec_rtt_init(&r, up, sizeof up, NULL, (evrec_rtt_mode_t)7), EVREC_E_ARG);
}

Test(rtt, writes_are_all_or_nothing_across_the_end)
{
    static evrec_rtt_t r;
    static uint8_t up[32];
    uint8_t data[40];
    for (unsigned i = 0; i < sizeof data; i++) {
        data[i] = (uint8_t)(i + 1);
    }
    cr_assert_eq(evrec_rtt_init(&r, up, sizeof up, NULL, EVREC_RTT_SKIP), EVREC_OK);
    cr_assert_eq(evrec_rtt_write(&r, data, 32), 0, "one byte always stays free");
    cr_assert_eq(evrec_rtt_write(&r, data, 25), 25);
    cr_assert_eq(evrec_rtt_write(&r, data, 7), 0, "6 bytes free");
    capture_t c = {0};
    cr_assert_eq(host_read(&r, &c, 20), 20);
    cr_assert_eq(evrec_rtt_free_bytes(&r), 26);
    cr_assert_eq(evrec_rtt_write(&r, data + 25, 15), 15, "wraps at the end");
    cr_assert_eq(r.cb.up.wr_off, (25 + 15) % 32);
    cr_assert_eq(host_read(&r, &c, 100), 20);
    cr_assert_eq(c.len, 40);
    cr_assert_eq(memcmp(c.data, data, 40), 0, "bytes in order across the wrap");
    cr_assert_eq(evrec_rtt_counts(&r).bytes_written, 40);
    r.cb.up.rd_off = 32; /* a debugger wrote nonsense: nothing is written, nothing overflows */
    cr_assert_eq(evrec_rtt_write(&r, data, 1), 0);
    cr_assert_eq(evrec_rtt_free_bytes(&r), 0);
    free(c.data);
}

/* Records n probes into a stream drained through an RTT buffer of `up_size` bytes that the host
 * reads `per_read` bytes at a time after every `every` records; at the end the host reads all. */
static void rtt_run(evrec_rtt_mode_t mode, size_t up_size, size_t per_read, uint32_t n, uint32_t every,
                    uint8_t *recorded, capture_t *c, evrec_rtt_counts_t *rc)
{
    static evrec_rtt_t r;
    static uint8_t up[8192];
    evrec_stream_t s;
    evrec_host_t h;
    evrec_host_init(&h);
    cr_assert_eq(evrec_rtt_init(&r, up, up_size, "evrec", mode), EVREC_OK);
    cr_assert_eq(evrec_stream_init(&s, ring, sizeof ring, 256, 50), EVREC_OK);
    cr_assert_eq(evrec_stream_start(&s, &h, &probe_meta, 1000, 0), EVREC_OK);
    for (uint32_t i = 0; i < n; i++) {
        recorded[i] = (uint8_t)probe_record(&h, 1, i);
        if (i % every == every - 1u) {
            evrec_rtt_drain(&r, &s, scratch, sizeof scratch);
            host_read(&r, c, per_read);
        }
    }
    cr_assert_eq(evrec_host_stop(&h, NULL), EVREC_OK);
    for (int guard = 0; !evrec_stream_done(&s) && guard < 100000; guard++) {
        host_read(&r, c, SIZE_MAX);
        evrec_rtt_drain(&r, &s, scratch, sizeof scratch);
    }
    cr_assert(evrec_stream_done(&s));
    host_read(&r, c, SIZE_MAX);
    *rc = evrec_rtt_counts(&r);
    cr_assert_eq(rc->bytes_written, c->len, "the host read every byte written");
}

static void check_accounting(evrec_rtt_mode_t mode, size_t up_size, size_t per_read)
{
    enum { N = 30000 };
    static uint8_t recorded[N];
    capture_t c = {0};
    evrec_rtt_counts_t rc;
    rtt_run(mode, up_size, per_read, N, 10, recorded, &c, &rc);
    uint64_t ok = 0;
    for (uint32_t k = 0; k < N; k++) {
        ok += recorded[k];
    }
    seen_t seen = {.recorded = recorded, .seq_limit = N};
    evrec_srx_sink_t sink = seen_sink(&seen);
    evrec_srx_t *rx;
    cr_assert_eq(evrec_srx_new(&rx, &sink), EVREC_OK);
    cr_assert_eq(evrec_srx_feed(rx, c.data, c.len), EVREC_OK);
    cr_assert_eq(evrec_srx_finish(rx), EVREC_OK);
    const evrec_srx_stats_t *st = evrec_srx_stats(rx);
    const evrec_srx_lane_t *l = &st->lane[0];
    cr_assert(st->ended, "S_END received");
    cr_assert_eq(st->damaged_bytes, 0, "only whole frames in the up buffer");
    cr_assert_eq(seen.bad, 0);
    cr_assert_eq(seen.out_of_order, 0);
    cr_assert_eq(l->received + l->dropped + l->lost_transport, N + 2,
                 "recorded (with Start, Stop) = received + dropped + lost");
    cr_assert_eq(l->dropped, N - ok, "the target's drops are exactly the probes it refused");
    if (mode == EVREC_RTT_SKIP) {
        cr_assert_eq(l->lost_transport, 0, "skip mode loses nothing in transport");
        cr_assert_eq(rc.frames_dropped, 0);
        cr_assert_gt(l->dropped, 0, "the slow host made the ring overflow");
    } else {
        cr_assert_gt(rc.frames_dropped, 0, "the slow host made frames drop");
        cr_assert_gt(l->lost_transport, 0);
    }
    evrec_srx_free(rx);
    free(c.data);
}

Test(rtt, skip_mode_counts_every_loss_as_the_targets)
{
    check_accounting(EVREC_RTT_SKIP, 700, 120);
    check_accounting(EVREC_RTT_SKIP, 1001, 150);
}

Test(rtt, drop_mode_drops_whole_frames_counted_by_the_host)
{
    check_accounting(EVREC_RTT_DROP, 700, 120);
    check_accounting(EVREC_RTT_DROP, 1001, 150);
}

Test(rtt, a_fast_host_gets_everything)
{
    enum { N = 20000 };
    static uint8_t recorded[N];
    capture_t c = {0};
    evrec_rtt_counts_t rc;
    rtt_run(EVREC_RTT_SKIP, 4096, SIZE_MAX, N, 5, recorded, &c, &rc);
    seen_t seen = {.recorded = recorded, .seq_limit = N};
    evrec_srx_sink_t sink = seen_sink(&seen);
    evrec_srx_t *rx;
    cr_assert_eq(evrec_srx_new(&rx, &sink), EVREC_OK);
    cr_assert_eq(evrec_srx_feed(rx, c.data, c.len), EVREC_OK);
    cr_assert_eq(evrec_srx_finish(rx), EVREC_OK);
    cr_assert_eq(seen.probes, N);
    cr_assert_eq(evrec_srx_stats(rx)->lane[0].received, N + 2);
    cr_assert_eq(evrec_srx_stats(rx)->damaged_bytes, 0);
    evrec_srx_free(rx);
    free(c.data);
}
