/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec export --ccore` writes the records in time order: a bare CCore stream has 32-bit stamps
 * only, and CCore's EventView reads a stamp below its predecessor's as a 32-bit wrap. On a
 * recording split into lanes and on the multi-thread demo (whose files are in slot order, with
 * stamps that step back between threads), the stream written is parsed again: no record's stamp
 * steps back (every difference to the one before, modulo 2^32, is below 2^31) and every record
 * of the input is in it, byte for byte. (The save merges lanes by time, so the lanes case holds
 * the invariant without reordering; the demo's threads share one buffer and step back.) */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "evrec/evrec_lanes.h"
#include "reader_fixtures.h"
#include "cli_lanes_file.h"

/* The records of a file (End excluded), each as its bytes, in file order. */
typedef struct recs {
    uint8_t (*rec)[257]; /* [0] = size, then the bytes */
    size_t n, cap;
    uint64_t steps_back; /* records stamped below their predecessor (mod 2^32 difference >= 2^31) */
} recs_t;

static recs_t read_records(const char *path)
{
    recs_t s = {0};
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK, "%s does not open", path);
    evrec_record_t rec;
    evrec_status st;
    uint32_t prev = 0;
    while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        if (s.n == s.cap) {
            s.cap = s.cap ? 2 * s.cap : 1024;
            s.rec = realloc(s.rec, s.cap * sizeof *s.rec);
            cr_assert_not_null(s.rec);
        }
        cr_assert(rec.size <= 256);
        s.rec[s.n][0] = (uint8_t)(rec.size - 1);
        memcpy(&s.rec[s.n][1], rec.data, rec.size);
        if (s.n && (uint32_t)(rec.time32 - prev) >= 0x80000000u) {
            s.steps_back++;
        }
        prev = rec.time32;
        s.n++;
    }
    cr_assert_eq(st, EVREC_E_END, "%s: %s", path, evrec_reader_error(r)->message);
    evrec_reader_close(r);
    return s;
}

static int rec_cmp(const void *a, const void *b)
{
    return memcmp(a, b, 257);
}

/* The export of `in` as a bare CCore stream: no stamp steps back, the same records. With
 * `must_step_back`, the input itself must have stamps that step back (else the test proves
 * nothing: file order would do). */
static void check_export_ex(const char *in, const char *tag, int must_step_back, const char *window)
{
    recs_t src = read_records(in);
    if (must_step_back) {
        cr_assert_gt(src.steps_back, 0, "%s: the input must be in slot order with stamps that step back", tag);
    }
    char *dir = cli_temp_dir(tag);
    char out[512];
    snprintf(out, sizeof out, "%s/out.bin", dir);
    cli_run_t r = window ? cli_run(EVREC_CLI_PATH, "export", "--quiet", "--reorder-window", window, "--ccore", out,
                                   in, NULL)
                         : cli_run(EVREC_CLI_PATH, "export", "--quiet", "--ccore", out, in, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    recs_t dst = read_records(out);
    cr_expect_eq(dst.steps_back, 0, "%s: %llu stamps step back in the CCore stream", tag,
                 (unsigned long long)dst.steps_back);
    cr_assert_eq(dst.n, src.n, "%s: %zu records exported of %zu", tag, dst.n, src.n);
    for (size_t i = 0; i < src.n; i++) { /* zero the unused tails: compare the records only */
        memset(&src.rec[i][2 + src.rec[i][0]], 0, 255u - src.rec[i][0]);
        memset(&dst.rec[i][2 + dst.rec[i][0]], 0, 255u - dst.rec[i][0]);
        if (window) { /* records past the window get another stamp: compare the rest */
            memset(&src.rec[i][1], 0, 4);
            memset(&dst.rec[i][1], 0, 4);
        }
    }
    qsort(src.rec, src.n, sizeof *src.rec, rec_cmp);
    qsort(dst.rec, dst.n, sizeof *dst.rec, rec_cmp);
    cr_assert_eq(memcmp(src.rec, dst.rec, src.n * sizeof *src.rec), 0, "%s: the records differ", tag);
    free(src.rec);
    free(dst.rec);
    free(dir);
}

static void check_export(const char *in, const char *tag, int must_step_back)
{
    check_export_ex(in, tag, must_step_back, NULL);
}

/* Slot order of two threads: pairs of records whose second one was stamped 300 ticks earlier
 * than the first (it took its stamp first, its slot second), over 2^32 ticks (one wrap). */
static char *stepping_file(void)
{
    fx_native_t nat = {0};
    uint32_t t = 0xFFFF0000u;
    fx_native_control(&nat, t, EVREC_CONTROL_START);
    for (uint32_t k = 0; k < 2000; k++) {
        t += 1000;
        fx_native_simple(&nat, t, 2 * k);
        fx_native_simple(&nat, t - 300, 2 * k + 1);
        if (k % 100 == 0) {
            t += 0x7FFF0000u / 10u; /* long gaps: the stamps wrap */
            fx_native_control(&nat, t, EVREC_CONTROL_TICK);
        }
    }
    fx_native_control(&nat, t + 1000, EVREC_CONTROL_STOP);
    fx_buf_t f = {0};
    fx_native_save(&nat, 1000000, 0, &f);
    fx_native_free(&nat);
    char *path = fx_temp_file(f.p, f.len, ".evr");
    fx_buf_free(&f);
    return path;
}

Test(cli_export_ccore_order, records_stamped_before_their_predecessor)
{
    char *path = stepping_file();
    check_export(path, "ccore_order_steps", 1);
    free(path);
}

/* A window of 1: every record stamped earlier than the one written before it gets that
 * record's stamp instead (noted on stderr), still no step back and every record there. */
Test(cli_export_ccore_order, beyond_the_window_takes_the_previous_stamp)
{
    char *path = stepping_file();
    check_export_ex(path, "ccore_order_window", 1, "1");
    free(path);
}

Test(cli_export_ccore_order, lanes_in_time_order)
{
    char *path = cli_lanes_file(4, 20000);
    check_export(path, "ccore_order_lanes", 0); /* lanes are merged by time at the save */
    free(path);
}

#ifdef EVREC_DEMO_PATH
Test(cli_export_ccore_order, multi_thread_demo_in_time_order, .timeout = 120)
{
    char *dir = cli_temp_dir("ccore_order_demo");
    char evr[512];
    snprintf(evr, sizeof evr, "%s/demo.evr", dir);
    cli_run_t r = cli_run(EVREC_DEMO_PATH, "-o", evr, "--frames", "3000", "--fps", "0", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    /* The threads' stamps step back in the file only when one was preempted between taking its
     * stamp and its slot: not every run (records_stamped_before_their_predecessor always does). */
    check_export(evr, "ccore_order_demo_out", 0);
    free(dir);
}
#endif
