/* SPDX-License-Identifier: Apache-2.0 */
/* Losses told apart (FORMAT.md section 8.4): a capture with known target drops (three bursts
 * that overflow the ring), known frames lost in transport (left out of the capture) and known
 * garbage (damaged ranges) gives, in the file `evrec record` writes and in the raw capture read
 * as it is, exactly those numbers per lane; the header's `dropped` is the target's drops only. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <sys/wait.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_stream.h"
#include "stream_harness.h"
#include "test_tmp.h"

static _Alignas(8) uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(16, 256)];

/* What the capture was made to hold. */
typedef struct lossy {
    capture_t cap;
    uint64_t recorded;  /* records the target was asked to take (Start, Stop, probes) */
    uint64_t dropped;   /* records it dropped */
    uint64_t lost;      /* records in the frames left out */
    uint64_t lost_gaps; /* frames left out (never two in a row) */
    uint64_t garbage_at[3], garbage_len[3];
} lossy_t;

/* Records in a frame of records (probe 16 bytes, EventControl 7). */
static uint64_t frame_records(const uint8_t *f, size_t len)
{
    uint64_t n = 0;
    for (size_t q = EVREC_STREAM_FRAME_HEADER + EVREC_FRAME_RECORDS_HEAD; q < len; n++) {
        q += (uint16_t)(f[q + 4] << 8 | f[q + 5]) == PROBE_EVENT_PROBE ? 16u : 7u;
    }
    return n;
}

/* Three bursts of 2,000 probes into a ring that holds about 240, each drained after it (the
 * drops of a burst go out in one S_LOSS frame), then 600 probes drained every 20. */
static capture_t record_bursts(lossy_t *l)
{
    evrec_stream_t s;
    evrec_host_t h;
    capture_t c = {0};
    uint8_t buf[600];
    size_t n;
    evrec_host_init(&h);
    cr_assert_eq(evrec_stream_init(&s, ring, sizeof ring, 256, 0), EVREC_OK);
    cr_assert_eq(evrec_stream_start(&s, &h, &probe_meta, 1000, 0x1055), EVREC_OK);
    uint32_t seq = 0;
    for (int burst = 0; burst < 3; burst++) {
        for (int i = 0; i < 2000; i++) {
            (void)probe_record(&h, 1, seq++); /* refused when the ring is full: a drop */
            l->recorded++;
        }
        while ((n = evrec_stream_drain(&s, buf, sizeof buf)) != 0) {
            capture_put(&c, buf, n);
        }
    }
    for (int i = 0; i < 600; i++) {
        cr_assert(probe_record(&h, 1, seq++));
        l->recorded++;
        if (i % 20 == 19) {
            while ((n = evrec_stream_drain(&s, buf, sizeof buf)) != 0) {
                capture_put(&c, buf, n);
            }
        }
    }
    cr_assert_eq(evrec_host_stop(&h, NULL), EVREC_OK);
    while (!evrec_stream_done(&s)) {
        capture_put(&c, buf, evrec_stream_drain(&s, buf, sizeof buf));
    }
    l->recorded += 2; /* Start, Stop */
    l->dropped = evrec_stream_counts(&s).dropped;
    cr_assert_eq(evrec_stream_counts(&s).sent + l->dropped, l->recorded);
    return c;
}

/* The capture without every 9th frame of records (from the 4th on: the meta document is whole)
 * and with garbage before three frames. */
static void make_lossy(lossy_t *l)
{
    memset(l, 0, sizeof *l);
    capture_t c = record_bursts(l);
    unsigned frames = 0, garbage = 0;
    for (size_t q = 0; q < c.len;) {
        uint8_t *f = c.data + q;
        size_t len = EVREC_STREAM_FRAME_HEADER + (t_be32(f + 4) & 0xFFFFFFu);
        int records = (t_be32(f + 4) >> 24) == EVREC_FRAME_RECORDS;
        frames += (unsigned)records;
        if (records && frames >= 4 && frames % 9u == 0) {
            l->lost += frame_records(f, len);
            l->lost_gaps++;
        } else {
            if (records && frames % 13u == 0 && garbage < 3) {
                uint8_t g[40];
                memset(g, 0x5A, sizeof g);
                l->garbage_at[garbage] = l->cap.len;
                l->garbage_len[garbage] = 10u + 10u * garbage;
                capture_put(&l->cap, g, (size_t)l->garbage_len[garbage++]);
            }
            capture_put(&l->cap, f, len);
        }
        q += len;
    }
    cr_assert_eq(garbage, 3);
    cr_assert_gt(l->lost_gaps, 3);
    free(c.data);
}

/* The file at `path` against what `l` holds. */
static void check_losses(const lossy_t *l, const char *path)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK, "open %s", path);
    const evrec_stream_losses_t *sl = evrec_reader_stream_losses(r);
    cr_assert_not_null(sl, "%s: a LOSSES chunk", path);
    cr_assert(sl->final && sl->ended, "%s: final counts, the stream's end received", path);
    cr_assert_geq(sl->lanes, 1);
    cr_assert_eq(sl->lane[0].dropped, l->dropped, "%s: target drops %llu", path,
                 (unsigned long long)sl->lane[0].dropped);
    cr_assert_eq(sl->lane[0].drop_places, 3, "%s: one place per burst", path);
    cr_assert_eq(sl->lane[0].lost_transport, l->lost, "%s: lost in transport %llu, want %llu", path,
                 (unsigned long long)sl->lane[0].lost_transport, (unsigned long long)l->lost);
    cr_assert_eq(sl->lane[0].transport_gaps, l->lost_gaps);
    cr_assert_eq(sl->damaged_ranges, 3);
    cr_assert_eq(sl->listed, 3);
    uint64_t bytes = 0;
    for (int k = 0; k < 3; k++) {
        cr_assert_eq(sl->range[k].offset, l->garbage_at[k], "%s: range %d at %llu", path, k,
                     (unsigned long long)sl->range[k].offset);
        cr_assert_eq(sl->range[k].bytes, l->garbage_len[k]);
        bytes += l->garbage_len[k];
    }
    cr_assert_eq(sl->damaged_bytes, bytes);
    cr_assert_eq(evrec_reader_info(r)->dropped, l->dropped, "%s: the header counts the target's drops only", path);
    evrec_record_t rec;
    uint64_t n = 0;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        n++;
    }
    cr_assert_eq(n + l->dropped + l->lost, l->recorded, "%s: recorded = in the file + dropped + lost", path);
    cr_assert_eq(sl->lost, l->dropped + l->lost);
    evrec_reader_close(r);
}

/* The whole standard output of `evrec ARGS` (malloc'd). */
static char *cli_output(const char *args)
{
    char cmd[4 * TEST_TMP_PATH];
    snprintf(cmd, sizeof cmd, "'%s' %s", EVREC_CLI, args);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    capture_t c = {0};
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) != 0) {
        capture_put(&c, buf, n);
    }
    capture_put(&c, "", 1);
    cr_assert_eq(pclose(p), 0, "evrec %s", args);
    return (char *)c.data;
}

/* `evrec info`, `evrec stats` and `evrec stats --format json` say first that the file is lossy,
 * with the numbers told apart. */
static void check_cli(const lossy_t *l, const char *path)
{
    char args[2 * TEST_TMP_PATH], want[200], lane[200];
    snprintf(want, sizeof want,
             "LOSSY:       %llu records lost: %llu dropped by the target (buffer full), %llu lost in "
             "transport; %llu damaged input bytes\n",
             (unsigned long long)(l->dropped + l->lost), (unsigned long long)l->dropped,
             (unsigned long long)l->lost,
             (unsigned long long)(l->garbage_len[0] + l->garbage_len[1] + l->garbage_len[2]));
    static const char *const cmds[] = {"info", "stats"};
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "%s '%s'", cmds[i], path);
        char *out = cli_output(args);
        cr_assert(strncmp(out, want, strlen(want)) == 0, "evrec %s starts with\n%s, not\n%.300s", cmds[i], want,
                  out);
        snprintf(lane, sizeof lane, "lane 0: %llu dropped by the target (buffer full) at 3 place(s); %llu lost",
                 (unsigned long long)l->dropped, (unsigned long long)l->lost);
        cr_assert_not_null(strstr(out, lane), "evrec %s: %s", cmds[i], lane);
        free(out);
    }
    snprintf(args, sizeof args, "stats --format json '%s'", path);
    char *out = cli_output(args);
    snprintf(want, sizeof want,
             "\"lossy\":true,\"stream_losses\":{\"final\":true,\"exact\":true,\"lanes\":[{\"lane\":0,"
             "\"dropped\":%llu,\"drop_places\":3,\"lost_transport\":%llu,",
             (unsigned long long)l->dropped, (unsigned long long)l->lost);
    cr_assert_not_null(strstr(out, want), "stats json has %s:\n%.400s", want, out);
    free(out);
}

static lossy_t lossy;

Test(stream_losses, target_drops_and_transport_losses_apart)
{
    make_lossy(&lossy);
    char *dir = test_tmp_dir("stream_losses");
    char cap[TEST_TMP_PATH], out[TEST_TMP_PATH], cmd[3 * TEST_TMP_PATH];
    snprintf(cap, sizeof cap, "%s/lossy.bin", dir);
    snprintf(out, sizeof out, "%s/lossy.evr", dir);
    FILE *f = fopen(cap, "wb");
    cr_assert_eq(fwrite(lossy.cap.data, 1, lossy.cap.len, f), lossy.cap.len);
    fclose(f);
    check_losses(&lossy, cap); /* the capture read as it is */
    snprintf(cmd, sizeof cmd, "'%s' record -q -o '%s' '%s'", EVREC_CLI, out, cap);
    int status = system(cmd);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "evrec record");
    check_losses(&lossy, out);
    check_cli(&lossy, out);
    free(lossy.cap.data);
    free(dir);
}

Test(stream_losses, a_bad_losses_chunk_costs_no_record)
{
    /* A LOSSES chunk whose counts do not fit its bytes (17 lanes in a chunk made for 16), CRC
     * good: the reader says where and what it expected, shows no losses, and reads every record. */
    make_lossy(&lossy);
    FILE *in = fmemopen(lossy.cap.data, lossy.cap.len, "rb");
    FILE *out = tmpfile();
    cr_assert_eq(evrec_srx_convert(in, out), EVREC_OK);
    fclose(in);
    long size = (fseek(out, 0, SEEK_END), ftell(out));
    uint8_t *b = malloc((size_t)size);
    rewind(out);
    cr_assert_eq(fread(b, 1, (size_t)size, out), (size_t)size);
    fclose(out);
    size_t at = EVREC_HEADER_SIZE;
    while (b[at] != EVREC_CHUNK_LOSSES) {
        at += EVREC_CHUNK_HEADER_SIZE + (t_be32(b + at) & 0xFFFFFFu); /* the meta document's chunks */
    }
    uint32_t len = t_be32(b + at) & 0xFFFFFFu;
    b[at + EVREC_CHUNK_HEADER_SIZE + 7] = 17; /* lanes */
    uint32_t crc = evrec_crc32c(evrec_crc32c(0, b + at, 4), b + at + EVREC_CHUNK_HEADER_SIZE, len);
    for (int k = 0; k < 4; k++) {
        b[at + 4 + (size_t)k] = (uint8_t)(crc >> (24 - 8 * k));
    }
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, b, (size_t)size, NULL), EVREC_OK);
    cr_assert_null(evrec_reader_stream_losses(r));
    evrec_record_t rec;
    uint64_t n = 0;
    while (evrec_reader_next(r, &rec) == EVREC_OK) {
        n++;
    }
    cr_assert_eq(n + lossy.dropped + lossy.lost, lossy.recorded, "every record is read");
    cr_assert_eq(evrec_reader_damage_count(r), 1);
    const evrec_damage_t *d = evrec_reader_damage(r, 0);
    cr_assert_eq(d->offset, at);
    cr_assert_eq(d->records_lost, 0);
    cr_assert_not_null(strstr(d->message, "expected a length of 32 + 32 x lanes"), "%s", d->message);
    evrec_reader_close(r);
    free(b);
    free(lossy.cap.data);
}

/* Sums the losses and records of the split files `stem`-0001.evr ... written by
 * `evrec record --split-size`; each file's header counts its own target drops. */
static unsigned sum_split(const char *stem, uint64_t *records, uint64_t *dropped, uint64_t *lost,
                          uint64_t *damaged)
{
    unsigned files = 0;
    for (unsigned i = 1;; i++) {
        char path[TEST_TMP_PATH + 16];
        snprintf(path, sizeof path, "%s-%04u.evr", stem, i);
        evrec_reader_t *r = NULL;
        if (access(path, F_OK) != 0) {
            return files;
        }
        cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK, "open %s", path);
        const evrec_stream_losses_t *sl = evrec_reader_stream_losses(r);
        cr_assert_not_null(sl, "%s: a LOSSES chunk", path);
        cr_assert(sl->final, "%s: its counts are final", path);
        cr_assert_eq(evrec_reader_info(r)->dropped, sl->lane[0].dropped, "%s: header = its LOSSES drops", path);
        *dropped += sl->lane[0].dropped;
        *lost += sl->lane[0].lost_transport;
        *damaged += sl->damaged_bytes;
        evrec_record_t rec;
        while (evrec_reader_next(r, &rec) == EVREC_OK) {
            ++*records;
        }
        evrec_reader_close(r);
        remove(path);
        files++;
    }
}

Test(stream_losses, split_files_each_count_their_own_losses)
{
    /* The same capture recorded as a series of files: each file's header and LOSSES chunk count
     * what was lost while it was written, so that the files together count every loss once. */
    make_lossy(&lossy);
    char *dir = test_tmp_dir("stream_losses_split");
    char cap[TEST_TMP_PATH], stem[TEST_TMP_PATH], cmd[3 * TEST_TMP_PATH];
    snprintf(cap, sizeof cap, "%s/lossy.bin", dir);
    snprintf(stem, sizeof stem, "%s/part", dir);
    FILE *f = fopen(cap, "wb");
    cr_assert_eq(fwrite(lossy.cap.data, 1, lossy.cap.len, f), lossy.cap.len);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' record -q --split-size 8192 -o '%s.evr' '%s'", EVREC_CLI, stem, cap);
    int status = system(cmd);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "evrec record --split-size");
    uint64_t records = 0, dropped = 0, lost = 0, damaged = 0;
    unsigned files = sum_split(stem, &records, &dropped, &lost, &damaged);
    cr_assert_gt(files, 2, "a series of files (%u)", files);
    cr_assert_eq(dropped, lossy.dropped, "target drops over the files: %llu", (unsigned long long)dropped);
    cr_assert_eq(lost, lossy.lost, "lost in transport over the files: %llu", (unsigned long long)lost);
    cr_assert_eq(damaged, lossy.garbage_len[0] + lossy.garbage_len[1] + lossy.garbage_len[2]);
    cr_assert_eq(records + dropped + lost, lossy.recorded, "recorded = in the files + dropped + lost");
    remove(cap);
    free(lossy.cap.data);
    free(dir);
}
