/* SPDX-License-Identifier: Apache-2.0 */
/* The previous boot's recording through the stream (evrec_stream_send_prev_boot(), S_PREV_BOOT
 * frames, FORMAT.md section 8.2): a recording cut short (a reset while recording) is recovered,
 * sent before the live stream with the live stream's id, and handed out by the receiver as
 * exactly the file evrec_save() writes; a lost frame leaves it incomplete (said, not hidden), a
 * duplicated one changes nothing. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <sys/wait.h>

#include "evrec/evrec_reader.h"
#include "evrec/evrec_save.h"
#include "evrec/evrec_stream.h"
#include "evrec/evrec_stream_boot.h"
#include "mem_sink.h"
#include "stream_harness.h"
#include "test_tmp.h"

static _Alignas(8) uint8_t crash_buf[8192];
static _Alignas(8) uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(16, 256)];

/* The receiver's sink: the live stream's checks, and the previous boot's file as it comes. */
typedef struct boot_seen {
    seen_t live;
    mem_sink_t prev;
    uint64_t pieces, bad_offsets;
} boot_seen_t;

static int on_prev(void *ctx, const uint8_t *d, size_t size, uint64_t offset, uint64_t total)
{
    boot_seen_t *b = (boot_seen_t *)ctx;
    b->pieces++;
    b->bad_offsets += offset != b->prev.len || offset + size > total;
    return mem_sink_write(&b->prev, d, size);
}

static int on_records(void *ctx, unsigned lane, const uint8_t *d, size_t size, uint64_t count,
                      const uint8_t st[36])
{
    return seen_records(&((boot_seen_t *)ctx)->live, lane, d, size, count, st);
}

static int on_meta(void *ctx, const uint8_t *doc, size_t size)
{
    return seen_meta(&((boot_seen_t *)ctx)->live, doc, size);
}

/* The previous boot: `n` probes into a one-shot buffer, then a "reset" (never stopped); recovered
 * into `prev`. `saved` gets what evrec_save() writes of it. */
static void previous_boot(evrec_recorder_t *prev, uint32_t n, mem_sink_t *saved)
{
    evrec_recorder_t rec;
    evrec_host_t h;
    evrec_host_init(&h);
    cr_assert_eq(evrec_recorder_init(&rec, crash_buf, sizeof crash_buf), EVREC_OK);
    cr_assert_eq(evrec_host_start(&h, &rec, &probe_meta, 1000), EVREC_OK);
    for (uint32_t i = 0; i < n; i++) {
        cr_assert(probe_record(&h, 2, i));
    }
    cr_assert_eq(evrec_recorder_recover(prev, crash_buf, sizeof crash_buf, &probe_meta, NULL), EVREC_OK);
    evrec_sink_t s = mem_sink_of(saved);
    cr_assert_eq(evrec_save(prev, &s), EVREC_OK);
}

/* Prev-boot frames of `frame_cap` bytes, then a live stream of `live` probes, both with `id`. */
static void boot_capture(evrec_recorder_t *prev, uint32_t id, size_t frame_cap, uint32_t live, capture_t *c)
{
    mem_sink_t frames = {0};
    uint8_t frame[1024];
    evrec_sink_t t = mem_sink_of(&frames);
    cr_assert_eq(evrec_stream_send_prev_boot(prev, id, &t, frame, frame_cap), EVREC_OK);
    capture_put(c, frames.data, frames.len);
    free(frames.data);
    evrec_stream_t s;
    evrec_host_t h;
    evrec_host_init(&h);
    cr_assert_eq(evrec_stream_init(&s, ring, sizeof ring, 256, 0), EVREC_OK);
    cr_assert_eq(evrec_stream_start(&s, &h, &probe_meta, 1000, id), EVREC_OK);
    uint8_t buf[512];
    for (uint32_t i = 0; i < live; i++) {
        cr_assert(probe_record(&h, 1, i));
        capture_put(c, buf, evrec_stream_drain(&s, buf, sizeof buf));
    }
    cr_assert_eq(evrec_host_stop(&h, NULL), EVREC_OK);
    for (int guard = 0; !evrec_stream_done(&s) && guard < 1000; guard++) {
        capture_put(c, buf, evrec_stream_drain(&s, buf, sizeof buf));
    }
}

static const evrec_srx_stats_t *receive_all(evrec_srx_t **rx, boot_seen_t *b, const capture_t *c)
{
    b->live.last_seq = -1;
    evrec_srx_sink_t sink = {on_meta, on_records, NULL, b};
    cr_assert_eq(evrec_srx_new(rx, &sink), EVREC_OK);
    evrec_srx_set_prev_boot(*rx, on_prev, b);
    cr_assert_eq(evrec_srx_feed(*rx, c->data, c->len), EVREC_OK);
    cr_assert_eq(evrec_srx_finish(*rx), EVREC_OK);
    return evrec_srx_stats(*rx);
}

Test(stream_boot, previous_boot_arrives_as_the_saved_file)
{
    static const size_t caps[] = {EVREC_STREAM_PREV_BOOT_MIN_FRAME, 100, 1024};
    for (unsigned k = 0; k < 3; k++) {
        evrec_recorder_t prev;
        mem_sink_t saved = {0};
        previous_boot(&prev, 300, &saved);
        capture_t c = {0};
        boot_capture(&prev, 0x5EED0001u, caps[k], 500, &c);
        boot_seen_t b = {0};
        evrec_srx_t *rx;
        const evrec_srx_stats_t *st = receive_all(&rx, &b, &c);
        cr_assert_eq(st->damaged_bytes, 0);
        cr_assert_eq(st->prev_ok, 1, "frame cap %zu", caps[k]);
        cr_assert_eq(st->prev_size, saved.len);
        cr_assert_eq(b.prev.len, saved.len);
        cr_assert_eq(b.bad_offsets, 0);
        cr_assert(memcmp(b.prev.data, saved.data, saved.len) == 0, "the bytes evrec_save() writes");
        /* the live stream that follows, with the same id, is received in full */
        cr_assert(st->ended);
        cr_assert_eq(st->other_stream, 0);
        cr_assert_eq(b.live.probes, 500);
        cr_assert_eq(b.live.bad, 0);
        evrec_srx_free(rx);
        free(c.data);
        free(saved.data);
        free(b.prev.data);
    }
}

/* Offset of the frame after the first `skip` frames of a capture. */
static size_t frame_offset(const capture_t *c, unsigned skip)
{
    size_t q = 0;
    for (unsigned i = 0; i < skip; i++) {
        q += EVREC_STREAM_FRAME_HEADER + (t_be32(c->data + q + 4) & 0xFFFFFFu);
    }
    return q;
}

Test(stream_boot, a_lost_piece_leaves_it_incomplete_a_duplicate_changes_nothing)
{
    evrec_recorder_t prev;
    mem_sink_t saved = {0};
    previous_boot(&prev, 300, &saved);
    capture_t c = {0};
    boot_capture(&prev, 0x5EED0002u, 100, 10, &c);
    size_t f3 = frame_offset(&c, 3), f4 = frame_offset(&c, 4);
    cr_assert_eq(t_be32(c.data + f3 + 4) >> 24, EVREC_FRAME_PREV_BOOT);

    /* frame 3 twice: the same file */
    capture_t dup = {0};
    capture_put(&dup, c.data, f4);
    capture_put(&dup, c.data + f3, c.len - f3);
    boot_seen_t b = {0};
    evrec_srx_t *rx;
    const evrec_srx_stats_t *st = receive_all(&rx, &b, &dup);
    cr_assert_eq(st->prev_ok, 1);
    cr_assert_eq(b.prev.len, saved.len);
    cr_assert(memcmp(b.prev.data, saved.data, saved.len) == 0);
    evrec_srx_free(rx);
    free(b.prev.data);

    /* frame 3 lost: the pieces before it only, the file said incomplete */
    capture_t cut = {0};
    capture_put(&cut, c.data, f3);
    capture_put(&cut, c.data + f4, c.len - f4);
    boot_seen_t b2 = {0};
    st = receive_all(&rx, &b2, &cut);
    cr_assert_eq(st->prev_ok, 0);
    cr_assert_eq(st->prev_size, saved.len);
    cr_assert_eq(st->prev_received, 3u * (100u - 28u));
    cr_assert_eq(b2.prev.len, st->prev_received);
    cr_assert(memcmp(b2.prev.data, saved.data, b2.prev.len) == 0, "no byte that was not sent");
    cr_assert_eq(b2.live.probes, 10, "the live stream is not affected");
    evrec_srx_free(rx);
    free(b2.prev.data);
    free(dup.data);
    free(cut.data);
    free(c.data);
    free(saved.data);
}

Test(stream_boot, refuses_bad_arguments)
{
    evrec_recorder_t prev;
    mem_sink_t saved = {0};
    previous_boot(&prev, 10, &saved);
    uint8_t frame[64];
    mem_sink_t m = {0};
    evrec_sink_t t = mem_sink_of(&m);
    cr_assert_eq(evrec_stream_send_prev_boot(&prev, 0, &t, frame, sizeof frame), EVREC_E_ARG);
    cr_assert_eq(evrec_stream_send_prev_boot(&prev, 1, &t, frame, sizeof frame - 1), EVREC_E_ARG);
    cr_assert_eq(evrec_stream_send_prev_boot(NULL, 1, &t, frame, sizeof frame), EVREC_E_ARG);
    m.fail_after = 200;
    cr_assert_eq(evrec_stream_send_prev_boot(&prev, 1, &t, frame, sizeof frame), EVREC_E_IO);
    free(m.data);
    free(saved.data);
}

/* ---- `evrec record`: NAME.prev-boot.evr next to -o NAME.evr ---- */

static uint64_t records_in(const char *path)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK, "%s opens", path);
    evrec_record_t rec;
    uint64_t n = 0;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        n++;
    }
    evrec_reader_close(r);
    return n;
}

/* A capture of a boot (the previous boot's 300 probes, then 500 live ones) into dir/cap.bin;
 * `saved` gets the previous boot's file as evrec_save() writes it. */
static void capture_file(const char *dir, mem_sink_t *saved)
{
    evrec_recorder_t prev;
    previous_boot(&prev, 300, saved);
    capture_t c = {0};
    boot_capture(&prev, 0x5EED0003u, 512, 500, &c);
    char cap[TEST_TMP_PATH];
    snprintf(cap, sizeof cap, "%s/cap.bin", dir);
    FILE *f = fopen(cap, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(c.data, 1, c.len, f), c.len);
    fclose(f);
    free(c.data);
}

static int run_record(const char *dir, const char *name)
{
    char cmd[4 * TEST_TMP_PATH];
    snprintf(cmd, sizeof cmd, "'%s' record -q '%s/cap.bin' -o '%s/%s' 2>'%s/stderr.txt'", EVREC_CLI, dir, dir,
             name, dir);
    int status = system(cmd);
    cr_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

Test(stream_boot, evrec_record_saves_it_next_to_the_output)
{
    char *dir = test_tmp_dir("stream_boot");
    mem_sink_t saved = {0};
    capture_file(dir, &saved);
    cr_assert_eq(run_record(dir, "live.evr"), 0);
    char path[TEST_TMP_PATH];
    snprintf(path, sizeof path, "%s/live.prev-boot.evr", dir);
    size_t len = 0;
    unsigned char *got = read_file(path, &len);
    cr_assert_not_null(got, "%s written", path);
    cr_assert_eq(len, saved.len);
    cr_assert(memcmp(got, saved.data, len) == 0, "the previous boot's file, byte for byte");
    cr_assert_eq(records_in(path), 301, "its Start and 300 probes (cut short: no Stop)");
    snprintf(path, sizeof path, "%s/live.evr", dir);
    cr_assert_eq(records_in(path), 502, "the live file: Start, 500 probes, Stop");
    snprintf(path, sizeof path, "%s/stderr.txt", dir);
    unsigned char *err = read_file(path, &len);
    cr_assert(err && strstr((char *)err, "previous boot's recording (") &&
                  strstr((char *)err, "live.prev-boot.evr"),
              "evrec record says where it went: %s", err ? (char *)err : "");
    free(err);
    free(got);
    free(saved.data);
    free(dir);
}

Test(stream_boot, evrec_record_never_replaces_a_path)
{
    char *dir = test_tmp_dir("stream_boot");
    mem_sink_t saved = {0};
    capture_file(dir, &saved);
    char path[TEST_TMP_PATH];
    snprintf(path, sizeof path, "%s/x.prev-boot.evr", dir);
    FILE *f = fopen(path, "w");
    fputs("mine", f);
    fclose(f);
    cr_assert_eq(run_record(dir, "x.evr"), 1, "said: the previous boot's recording was not saved");
    size_t len = 0;
    unsigned char *got = read_file(path, &len);
    cr_assert(len == 4 && memcmp(got, "mine", 4) == 0, "the existing file is left as it was");
    snprintf(path, sizeof path, "%s/x.evr", dir);
    cr_assert_eq(records_in(path), 502, "the live recording is written all the same");
    free(got);
    free(saved.data);
    free(dir);
}
