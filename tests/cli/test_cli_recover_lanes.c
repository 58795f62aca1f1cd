/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec recover` of a buffer split into lanes reports the counts of the file it writes, as the
 * reader reads them back: records, dropped and overwritten, in all and per lane (the LANES chunk,
 * format/FORMAT.md section 2.3). Save writes one Start, one Stop and each evrec_lanes_tick() once;
 * recover used to report the lanes' sum, those copies included. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "evrec/evrec_lanes.h"
#include "reader_fixtures.h"

typedef struct counts {
    unsigned long long records, dropped, overwritten;
} counts_t;

static void simple(evrec_lanes_t *lanes, uint32_t k, uint32_t v)
{
    fx_ev_simple_t *s = evrec_reserve(evrec_lane_host_at(lanes, k), sizeof *s);
    if (s) {
        s->v = v;
        evrec_commit(s, FX_EVENT_SIMPLE);
    }
}

/* A lanes buffer (keep_meta) left by a program cut short (or, `stopped`, after
 * evrec_lanes_stop()): `per_lane` records in each of the `nl` lanes, a lanes tick every 10
 * records, lane 0 also `extra` more (it may fill); written to a temporary image file (malloc'd
 * path). */
static char *lanes_image(int cyclic, uint32_t nl, size_t size, uint32_t per_lane, uint32_t extra, int stopped)
{
    const evrec_meta_t *m = fx_meta_init();
    void *buf = NULL;
    cr_assert_eq(posix_memalign(&buf, 64, size), 0);
    evrec_recorder_t rec;
    evrec_lane_t lane[4];
    evrec_lanes_t lanes;
    evrec_status st = cyclic ? evrec_recorder_init_cyclic(&rec, buf, size, 512)
                             : evrec_recorder_init(&rec, buf, size);
    cr_assert_eq(st, EVREC_OK);
    cr_assert_eq(evrec_recorder_keep_meta(&rec), EVREC_OK);
    cr_assert_eq(evrec_lanes_init(&lanes, lane, nl), EVREC_OK);
    cr_assert_eq(evrec_lanes_start(&lanes, &rec, m, 1000000000u), EVREC_OK);
    for (uint32_t i = 0; i < per_lane * nl + extra; i++) {
        simple(&lanes, i < per_lane * nl ? i % nl : 0, i);
        if (i % 10 == 0) {
            (void)evrec_lanes_tick(&lanes);
        }
    }
    if (stopped) {
        cr_assert_eq(evrec_lanes_stop(&lanes, NULL), EVREC_OK);
    }
    char *img = fx_temp_file(buf, size, ".img"); /* the "crash": only the buffer is left */
    if (!stopped) {
        cr_assert_eq(evrec_lanes_stop(&lanes, NULL), EVREC_OK);
    }
    free(buf);
    return img;
}

/* The counts after `what` in recover's report ("N records written, D dropped, O overwritten"). */
static counts_t parse_counts(const char *err, const char *what, const char *fmt)
{
    const char *p = strstr(err, what);
    cr_assert_not_null(p, "no <%s> in:\n%s", what, err);
    counts_t c = {0, 0, 0};
    int n = fmt[0] == 'R' ? sscanf(p + strlen(what), "%llu records written, %llu dropped, %llu overwritten",
                                   &c.records, &c.dropped, &c.overwritten)
                          : sscanf(p + strlen(what), "%llu dropped, %llu overwritten", &c.dropped, &c.overwritten);
    cr_assert_eq(n, fmt[0] == 'R' ? 3 : 2, "unparsed counts after <%s> in:\n%s", what, err);
    return c;
}

/* Recovers `img` and checks recover's counts against the reader's of the file written. */
static void recover_agrees_with_reader(const char *img, uint32_t nl, int want_drops, int stopped)
{
    char out[4096];
    snprintf(out, sizeof out, "%s.evr", img);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "recover", img, "-o", out, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    counts_t got = parse_counts(r.err, stopped ? "stopped normally: " : "recording was cut: ", "R");
    evrec_reader_t *rd = NULL;
    cr_assert_eq(evrec_reader_open_path(&rd, out, NULL), EVREC_OK);
    evrec_record_t x;
    unsigned long long n = 0;
    evrec_status st;
    while ((st = evrec_reader_next(rd, &x)) == EVREC_OK) {
        n++;
    }
    cr_assert_eq(st, EVREC_E_END, "%s", evrec_reader_error(rd)->message);
    const evrec_file_info_t *info = evrec_reader_info(rd);
    cr_assert_eq(info->lanes, nl);
    cr_assert_eq(got.records, n, "recover reports %llu records, the file holds %llu:\n%s", got.records, n, r.err);
    cr_assert_eq(info->recorded, n, "the file's header counts its records");
    cr_assert_eq(got.dropped, info->dropped, "dropped: recover %llu, file %llu", got.dropped,
                 (unsigned long long)info->dropped);
    cr_assert_eq(got.overwritten, info->overwritten);
    cr_assert(want_drops ? got.dropped > 0 : got.dropped == 0, "dropped %llu", got.dropped);
    for (uint32_t k = 0; k < nl; k++) {
        char what[32];
        snprintf(what, sizeof what, "lane %u: ", (unsigned)k);
        counts_t lc = parse_counts(r.err, what, "D");
        evrec_lane_info_t li;
        cr_assert_eq(evrec_reader_lane(rd, k, &li), EVREC_OK);
        cr_assert_eq(lc.dropped, li.dropped, "lane %u dropped: recover %llu, file %llu", (unsigned)k, lc.dropped,
                     (unsigned long long)li.dropped);
        cr_assert_eq(lc.overwritten, li.overwritten, "lane %u overwritten", (unsigned)k);
    }
    evrec_reader_close(rd);
    cli_run_free(&r);
    remove(out);
}

/* Three one-shot lanes with lanes ticks, cut short: one Start and each tick once in the file. */
Test(cli_recover_lanes, oneshot_counts_are_the_files)
{
    char *img = lanes_image(0, 3, 64u << 10, 40, 0, 0);
    recover_agrees_with_reader(img, 3, 0, 0);
    remove(img);
    free(img);
}

/* Lane 0 fills and drops: its drops are its own, the other lanes' none. */
Test(cli_recover_lanes, oneshot_full_lane_counts_are_the_files)
{
    char *img = lanes_image(0, 2, 16u << 10, 20, 2000, 0);
    recover_agrees_with_reader(img, 2, 1, 0);
    remove(img);
    free(img);
}

/* Cyclic lanes that overwrote ticks: the count is still exactly the file's. */
Test(cli_recover_lanes, cyclic_overwritten_counts_are_the_files)
{
    char *img = lanes_image(1, 2, 32u << 10, 100, 3000, 0);
    recover_agrees_with_reader(img, 2, 0, 0);
    remove(img);
    free(img);
}

/* The same, stopped normally: evrec_lanes_stop() keeps the Tick copies of rings that overwrote
 * counted (it cannot tell which are left); recover counts the file's records exactly. */
Test(cli_recover_lanes, cyclic_stopped_counts_are_the_files)
{
    char *img = lanes_image(1, 2, 32u << 10, 100, 3000, 1);
    recover_agrees_with_reader(img, 2, 0, 1);
    remove(img);
    free(img);
}
