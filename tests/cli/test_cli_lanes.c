/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec dump` and `evrec info` on a recording split into lanes: each dumped line starts with
 * its lane, also after a seek to a SYNC point (--from '#N'); info lists the lanes and their
 * drops. A single-lane file shows no lane (its output is unchanged: the goldens). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "evrec/evrec_lanes.h"
#include "reader_fixtures.h"
#include "cli_lanes_file.h"

#define assert_has(hay, needle) cr_assert(strstr((hay), (needle)) != NULL, "missing <%s> in:\n%s", (needle), (hay))
#define assert_lacks(hay, needle)                                                                                 \
    cr_assert(strstr((hay), (needle)) == NULL, "unexpected <%s> in:\n%s", (needle), (hay))

Test(cli_lanes, dump_shows_the_lane_of_each_record)
{
    char *path = cli_lanes_file(3, 6);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "dump", path, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* Start (lane 0), the six records in lanes 0 1 2 0 1 2, Stop (the last lane's) */
    const char *want[] = {"L0 ", "L0 ", "L1 ", "L2 ", "L0 ", "L1 ", "L2 ", "L2 "};
    const char *line = r.out;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        cr_assert_not_null(line, "line %zu missing:\n%s", i, r.out);
        cr_assert_eq(strncmp(line, want[i], 3), 0, "line %zu: <%.40s>, expected %s\n%s", i, line, want[i], r.out);
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    cli_run_free(&r);
    r = cli_run(EVREC_CLI_PATH, "info", path, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.out, "v1.3");
    assert_has(r.out, "lanes:       3");
    assert_has(r.out, "lane 0     3 records, 0 dropped");
    assert_has(r.out, "lane 2     3 records, 0 dropped");
    cli_run_free(&r);
    free(path);
}

/* A seek lands on a SYNC chunk: the LANE_IDS chunk before it still gives the lanes. */
Test(cli_lanes, lanes_known_after_a_seek)
{
    char *path = cli_lanes_file(4, 200000);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "dump", "--index", "--from", "#150001", "--limit", "3", path,
                          (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* record #150001 is v = 150000 (index 0 is Start): lane 0, then 1, 2 */
    assert_has(r.out, "#150001      L0 ");
    assert_has(r.out, "#150002      L1 ");
    assert_has(r.out, "#150003      L2 ");
    assert_lacks(r.out, "L?");
    cli_run_free(&r);
    free(path);
}

Test(cli_lanes, single_lane_file_shows_no_lane)
{
    const evrec_meta_t *m = fx_meta_init();
    static uint64_t buf[512];
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_recorder_init(&rec, buf, sizeof buf);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, m, 1000), EVREC_OK);
    evrec_host_stop(&host, NULL);
    fx_buf_t f = {0};
    evrec_sink_t sink = fx_sink(&f);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    cr_assert_eq(f.p[11], EVREC_FORMAT_MINOR, "a single-lane file has the same version as a lanes file (1.3)");
    char *path = fx_temp_file(f.p, f.len, ".evr");
    fx_buf_free(&f);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "dump", path, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_lacks(r.out, "L0");
    cli_run_free(&r);
    r = cli_run(EVREC_CLI_PATH, "info", path, (const char *)NULL);
    assert_lacks(r.out, "lanes:");
    cli_run_free(&r);
    free(path);
}

/* `evrec recover` of a lanes buffer that a program left (keep_meta, cut short): the file merges
 * the lanes; the image's lanes and their records are all there. */
Test(cli_lanes, recover_a_lanes_image)
{
    const evrec_meta_t *m = fx_meta_init();
    const size_t size = 64u << 10;
    void *buf = NULL;
    cr_assert_eq(posix_memalign(&buf, 64, size), 0);
    evrec_recorder_t rec;
    evrec_lane_t lane[2];
    evrec_lanes_t lanes;
    cr_assert_eq(evrec_recorder_init(&rec, buf, size), EVREC_OK);
    cr_assert_eq(evrec_recorder_keep_meta(&rec), EVREC_OK);
    cr_assert_eq(evrec_lanes_init(&lanes, lane, 2), EVREC_OK);
    cr_assert_eq(evrec_lanes_start(&lanes, &rec, m, 1000000000u), EVREC_OK);
    for (uint32_t i = 0; i < 10; i++) {
        fx_ev_simple_t *s = evrec_reserve(evrec_lane_host_at(&lanes, i % 2), sizeof *s);
        cr_assert_not_null(s);
        s->v = i;
        evrec_commit(s, FX_EVENT_SIMPLE);
    }
    char *img = fx_temp_file(buf, size, ".img"); /* the "crash": only the buffer is left */
    cr_assert_eq(evrec_lanes_stop(&lanes, NULL), EVREC_OK);
    char out[4096];
    snprintf(out, sizeof out, "%s.evr", img);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "recover", img, "-o", out, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    assert_has(r.err, "2 lanes");
    cli_run_free(&r);
    r = cli_run(EVREC_CLI_PATH, "dump", out, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* Start, then v=0..9 alternating lanes 0 and 1; no Stop (cut short) */
    size_t lines = 0;
    for (const char *p = r.out; (p = strchr(p, '\n')) != NULL; p++) {
        lines++;
    }
    cr_assert_eq(lines, 11, "%s", r.out);
    assert_has(r.out, "L1  ");
    cli_run_free(&r);
    remove(out);
    remove(img);
    free(img);
    free(buf);
}
