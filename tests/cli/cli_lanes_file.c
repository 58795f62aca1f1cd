/* SPDX-License-Identifier: Apache-2.0 */
/* A recording split into lanes, saved to a temporary file (cli_lanes_file.h). */
#include "cli_lanes_file.h"

#include <criterion/criterion.h>
#include <stdlib.h>

#include "evrec/evrec_lanes.h"
#include "evrec/evrec_save.h"
#include "reader_fixtures.h"

char *cli_lanes_file(uint32_t nlanes, uint32_t n)
{
    const evrec_meta_t *m = fx_meta_init();
    size_t size = (size_t)n * 16u + 4096u * nlanes + 65536u;
    void *buf = NULL;
    cr_assert_eq(posix_memalign(&buf, 64, size), 0);
    evrec_recorder_t rec;
    evrec_lane_t lane[4];
    evrec_lanes_t lanes;
    cr_assert_eq(evrec_recorder_init(&rec, buf, size), EVREC_OK);
    cr_assert_eq(evrec_lanes_init(&lanes, lane, nlanes), EVREC_OK);
    cr_assert_eq(evrec_lanes_start(&lanes, &rec, m, 1000000000u), EVREC_OK);
    for (uint32_t i = 0; i < n; i++) {
        fx_ev_simple_t *s = evrec_reserve(evrec_lane_host_at(&lanes, i % nlanes), sizeof *s);
        cr_assert_not_null(s);
        s->v = i;
        evrec_commit(s, FX_EVENT_SIMPLE);
    }
    cr_assert_eq(evrec_lanes_stop(&lanes, NULL), EVREC_OK);
    fx_buf_t f = {0};
    evrec_sink_t sink = fx_sink(&f);
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    char *path = fx_temp_file(f.p, f.len, ".evr");
    fx_buf_free(&f);
    free(buf);
    return path;
}
