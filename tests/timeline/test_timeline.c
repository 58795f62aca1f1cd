/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec timeline` end to end: synthetic RTOS traces from timeline_rtos_trace (known schedule,
 * random, drops, cyclic, damaged, one record) rendered by the evrec binary; the PNG read back with
 * cairo and checked at the pixel columns where the known task, ISR and interrupt-disabled
 * intervals must (and must not) be, using the layout the command writes with --layout; the SVG
 * checked as XML (svg_check.py); the 16 marker glyphs drawn, non-empty and pairwise different. */
#include <cairo.h>
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/test_tmp.h"

static char dir[64];

static void setup(void)
{
    cr_assert_eq(test_tmp_template(dir, sizeof dir, "tl"), 0);
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* Run a shell command; its exit status. */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void make_trace(const char *mode, char *path, size_t n)
{
    snprintf(path, n, "%s/%s.evr", dir, mode);
    cr_assert_eq(sh("'%s' %s '%s' >/dev/null", TL_TRACE_PATH, mode, path), 0, "trace %s", mode);
}

/* The layout written by --layout. */
typedef struct row {
    char kind[16], label[96];
    double y, h;
    unsigned slots;
} row_t;
typedef struct layout {
    int w, h;
    double xa, xb, ytop, ybot;
    unsigned long long from, to;
    double pre, post;
    row_t rows[32];
    unsigned nrows;
    double gx0, gx1;          /* the first `gap` line: a damaged range in the middle */
    unsigned long long glost; /* its records lost */
    unsigned ngaps;
} layout_t;

static layout_t read_layout(const char *path)
{
    layout_t l;
    memset(&l, 0, sizeof l);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "no layout %s", path);
    cr_assert_eq(fscanf(f, "size %d %d\n", &l.w, &l.h), 2);
    cr_assert_eq(fscanf(f, "plot %lf %lf %lf %lf\n", &l.xa, &l.xb, &l.ytop, &l.ybot), 4);
    cr_assert_eq(fscanf(f, "window %llu %llu\n", &l.from, &l.to), 2);
    cr_assert_eq(fscanf(f, "gaps %lf %lf\n", &l.pre, &l.post), 2);
    while (l.nrows < 32) {
        row_t *r = &l.rows[l.nrows];
        if (fscanf(f, "row %15s %lf %lf %u %95[^\n]\n", r->kind, &r->y, &r->h, &r->slots, r->label) != 5) {
            break;
        }
        l.nrows++;
    }
    double x0, x1;
    unsigned long long lost;
    while (fscanf(f, "gap %lf %lf %llu\n", &x0, &x1, &lost) == 3) {
        if (l.ngaps++ == 0) {
            l.gx0 = x0;
            l.gx1 = x1;
            l.glost = lost;
        }
    }
    fclose(f);
    return l;
}

static const row_t *row_of(const layout_t *l, const char *label)
{
    for (unsigned i = 0; i < l->nrows; i++) {
        if (strcmp(l->rows[i].label, label) == 0) {
            return &l->rows[i];
        }
    }
    cr_assert_fail("no row %s", label);
    return NULL;
}

typedef struct img {
    cairo_surface_t *s;
    unsigned char *d;
    int w, h, stride;
} img_t;

static img_t load_png(const char *path)
{
    img_t im;
    im.s = cairo_image_surface_create_from_png(path);
    cr_assert_eq(cairo_surface_status(im.s), CAIRO_STATUS_SUCCESS, "cannot read %s", path);
    cairo_surface_flush(im.s);
    im.d = cairo_image_surface_get_data(im.s);
    im.w = cairo_image_surface_get_width(im.s);
    im.h = cairo_image_surface_get_height(im.s);
    im.stride = cairo_image_surface_get_stride(im.s);
    return im;
}

static unsigned px(const img_t *im, int x, int y)
{
    cr_assert(x >= 0 && y >= 0 && x < im->w && y < im->h, "pixel %d,%d outside", x, y);
    uint32_t v;
    memcpy(&v, im->d + (size_t)y * (size_t)im->stride + (size_t)x * 4, 4);
    return v & 0xFFFFFFu; /* opaque: RGB */
}

/* How far a pixel is from grey (the background, lane stripes, grid lines are grey). */
static int sat(unsigned c)
{
    int r = (c >> 16) & 0xFF, g = (c >> 8) & 0xFF, b = c & 0xFF;
    int mx = r > g ? (r > b ? r : b) : (g > b ? g : b), mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
    return mx - mn;
}

static int near(unsigned c, unsigned want)
{
    for (int k = 0; k < 24; k += 8) {
        int a = (int)((c >> k) & 0xFF), b = (int)((want >> k) & 0xFF);
        if (abs(a - b) > 12) {
            return 0;
        }
    }
    return 1;
}

/* x of a tick of the scenario (Start at tick 1000, 10 ns per tick) in a window 0..20 us. */
static int x_of(const layout_t *l, unsigned tick)
{
    double ns = (tick - 1000.0) * 10.0;
    return (int)(l->xa + (ns - (double)l->from) / (double)(l->to - l->from) * (l->xb - l->xa));
}

TestSuite(timeline, .init = setup, .fini = teardown);

Test(timeline, rtos_lanes_and_bars_at_the_expected_columns)
{
    char evr[128], png[128], lay[128];
    make_trace("scenario", evr, sizeof evr);
    snprintf(png, sizeof png, "%s/s.png", dir);
    snprintf(lay, sizeof lay, "%s/s.layout", dir);
    cr_assert_eq(
        sh("'%s' timeline '%s' --from 0ns --to 20us --layout '%s' -o '%s'", EVREC_CLI_PATH, evr, lay, png), 0);
    layout_t l = read_layout(lay);
    img_t im = load_png(png);
    cr_assert_eq(im.w, 1600);
    cr_assert_eq(l.w, im.w);
    cr_assert_eq(l.h, im.h);
    /* interrupt lanes first, tasks by first appearance, the idle task last, then class lanes */
    const char *order[] = {"uart", "timer", "task_a", "task_b", "Idle", "IntControl"};
    cr_assert_eq(l.nrows, 6);
    for (unsigned i = 0; i < 6; i++) {
        cr_assert_str_eq(l.rows[i].label, order[i], "row %u", i);
        cr_assert_eq(l.rows[i].slots, 1);
        if (i) {
            cr_assert_float_eq(l.rows[i].y, l.rows[i - 1].y + l.rows[i - 1].h, 0.01);
        }
    }
    /* the intervals of the scenario and their span colours (TaskRunning, IsrActive, InterruptsDisabled) */
    struct {
        const char *lane;
        unsigned t0, t1, color;
    } on[] = {
        {"task_a", 1100, 1600, 0x4e79a7}, {"task_a", 2650, 2900, 0x4e79a7},     {"task_b", 1620, 2200, 0x4e79a7},
        {"Idle", 2210, 2640, 0x4e79a7},   {"uart", 1300, 1450, 0xf28e2b},       {"uart", 2500, 2560, 0xf28e2b},
        {"timer", 1350, 1400, 0xf28e2b},  {"IntControl", 1700, 1800, 0x59a14f},
    };
    for (unsigned i = 0; i < sizeof on / sizeof on[0]; i++) {
        const row_t *r = row_of(&l, on[i].lane);
        int ytop = (int)(r->y + 5), ymid = (int)(r->y + r->h / 2);
        int x0 = x_of(&l, on[i].t0), x1 = x_of(&l, on[i].t1);
        cr_assert(x1 - x0 > 10, "interval %u is %d px", i, x1 - x0);
        /* inside: the bar's colour, over the whole lane band, up to 2 px from the ends */
        for (int x = x0 + 2; x <= x1 - 2; x++) {
            cr_assert(near(px(&im, x, ytop), on[i].color), "%s [%u,%u): x %d y %d is %06x, expected %06x",
                      on[i].lane, on[i].t0, on[i].t1, x, ytop, px(&im, x, ytop), on[i].color);
        }
        cr_assert(near(px(&im, (x0 + x1) / 2, ymid), on[i].color), "%s middle", on[i].lane);
        /* just outside (above the glyphs at the ends): no bar */
        cr_assert_lt(sat(px(&im, x0 - 3, ytop)), 40, "%s before %u", on[i].lane, on[i].t0);
        cr_assert_lt(sat(px(&im, x1 + 3, ytop)), 40, "%s after %u", on[i].lane, on[i].t1);
    }
    /* where nothing runs: task_a blocked at 2000, task_b before 1620, Idle before 2210, no ISR
     * at 2000, interrupts enabled at 1900 */
    struct {
        const char *lane;
        unsigned t;
    } off[] = {
        {"task_a", 2000}, {"task_a", 2400}, {"task_b", 1400}, {"task_b", 2500},
        {"Idle", 1500},   {"uart", 2000},   {"timer", 2000},  {"IntControl", 1900},
    };
    for (unsigned i = 0; i < sizeof off / sizeof off[0]; i++) {
        const row_t *r = row_of(&l, off[i].lane);
        cr_assert_lt(sat(px(&im, x_of(&l, off[i].t), (int)(r->y + r->h / 2))), 40, "%s at %u", off[i].lane,
                     off[i].t);
    }
    /* a glyph where an event is alone: task_a's SemOp Unblock at 2100 (marker UpPush) */
    const row_t *ra = row_of(&l, "task_a");
    int g = 0;
    for (int dx = -4; dx <= 4; dx++) {
        g += sat(px(&im, x_of(&l, 2100) + dx, (int)(ra->y + ra->h / 2))) < 40 &&
             ((px(&im, x_of(&l, 2100) + dx, (int)(ra->y + ra->h / 2)) & 0xFF) < 128);
    }
    cr_assert_gt(g, 0, "no glyph at the SemOp of 2100");
    cairo_surface_destroy(im.s);
    /* --height and --width: the picture has that size, the rows are scaled to fit */
    cr_assert_eq(
        sh("'%s' timeline '%s' --width 900 --height 600 --layout '%s' -o '%s'", EVREC_CLI_PATH, evr, lay, png), 0);
    l = read_layout(lay);
    im = load_png(png);
    cr_assert_eq(im.w, 900);
    cr_assert_eq(im.h, 600);
    cr_assert_gt(l.rows[0].h, 30.0);
    cr_assert_leq(l.ybot, 600.0);
    cairo_surface_destroy(im.s);
}

Test(timeline, svg_is_xml_with_a_lane_per_track_and_the_legend)
{
    char evr[128], svg[160];
    make_trace("scenario", evr, sizeof evr);
    snprintf(svg, sizeof svg, "%s/s.svg", dir);
    cr_assert_eq(sh("'%s' timeline '%s' -o '%s'", EVREC_CLI_PATH, evr, svg), 0);
    cr_assert_eq(sh("python3 '%s' '%s' uart timer task_a task_b Idle IntControl -- TaskRunning IsrActive "
                    "InterruptsDisabled TaskSwitchIn IsrEnter Up Down Wait >/dev/null",
                    TL_SVG_CHECK, svg),
                 0);
    /* the random schedule: every task, ISR and the ISR-side lane */
    make_trace("random", evr, sizeof evr);
    cr_assert_eq(sh("'%s' timeline '%s' --dark -o '%s'", EVREC_CLI_PATH, evr, svg), 0);
    cr_assert_eq(sh("python3 '%s' '%s' dma uart timer NoTask task_b task_a task_c Idle IntControl -- TaskRunning "
                    ">/dev/null",
                    TL_SVG_CHECK, svg),
                 0);
}

/* Count the drawing elements of an SVG (paths, rects, glyph uses). */
static long svg_elements(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    long n = 0;
    int c, state = 0;
    while ((c = fgetc(f)) != EOF) {
        state = c == '<' ? 1 : state == 1 && (c == 'p' || c == 'r' || c == 'u') ? 2 : 0;
        n += state == 2;
    }
    fclose(f);
    return n;
}

Test(timeline, dense_windows_are_aggregated_not_overplotted)
{
    char evr[128], svg[128], lay[128];
    make_trace("dense", evr, sizeof evr);
    snprintf(svg, sizeof svg, "%s/d.svg", dir);
    snprintf(lay, sizeof lay, "%s/d.layout", dir);
    cr_assert_eq(sh("'%s' timeline '%s' --width 800 --layout '%s' -o '%s'", EVREC_CLI_PATH, evr, lay, svg), 0);
    /* 100002 records on task_a's lane: drawn as a density band, a few elements per pixel column
     * at most, never one glyph per record */
    cr_assert_eq(sh("grep -q 'label=\"task_a\" instants=\"100002\" spans=\"1\"' '%s'", svg), 0);
    long n = svg_elements(svg);
    cr_assert_lt(n, 4000, "%ld drawing elements for 100002 records", n);
    /* the band: ink at the lane's centre across the middle of the window */
    char png[128];
    snprintf(png, sizeof png, "%s/d.png", dir);
    cr_assert_eq(sh("'%s' timeline '%s' --width 800 --layout '%s' -o '%s'", EVREC_CLI_PATH, evr, lay, png), 0);
    layout_t l = read_layout(lay);
    img_t im = load_png(png);
    const row_t *r = row_of(&l, "task_a");
    int dark = 0;
    for (int x = (int)l.xa + 50; x < (int)l.xb - 50; x += 10) {
        unsigned c = px(&im, x, (int)(r->y + r->h / 2));
        dark += (c & 0xFF) < 100 && ((c >> 8) & 0xFF) < 100;
    }
    cr_assert_gt(dark, ((int)(l.xb - l.xa) - 100) / 10 * 9 / 10, "no density band (%d)", dark);
    cairo_surface_destroy(im.s);
}

Test(timeline, a_file_without_tracks_has_a_lane_per_class)
{
    char svg[128];
    snprintf(svg, sizeof svg, "%s/c.svg", dir);
    cr_assert_eq(sh("'%s' timeline '%s/ccore/ref.bin' -o '%s'", EVREC_CLI_PATH, EVREC_TEST_DATA, svg), 0);
    cr_assert_eq(sh("python3 '%s' '%s' ObjEvent -- ObjEvent NestEvent Up Down Push >/dev/null", TL_SVG_CHECK, svg),
                 0);
}

Test(timeline, every_marker_glyph_is_drawn_and_distinct)
{
    char png[128];
    snprintf(png, sizeof png, "%s/g.png", dir);
    cr_assert_eq(sh("'%s' timeline --glyphs -o '%s'", EVREC_CLI_PATH, png), 0);
    img_t im = load_png(png);
    int cell = im.w / 4;
    cr_assert_eq(im.h, 4 * cell);
    /* the glyph part of each cell (above its name) as an ink mask */
    int gh = cell * 7 / 10;
    static unsigned char mask[16][128 * 128];
    cr_assert(cell <= 128);
    for (int k = 0; k < 16; k++) {
        int ink = 0;
        for (int y = 0; y < gh; y++) {
            for (int x = 0; x < cell; x++) {
                unsigned c = px(&im, (k % 4) * cell + x, (k / 4) * cell + y);
                mask[k][y * cell + x] = (c & 0xFF) < 160;
                ink += mask[k][y * cell + x];
            }
        }
        cr_assert_gt(ink, 40, "marker %d draws %d px", k, ink);
    }
    for (int a = 0; a < 16; a++) {
        for (int b = a + 1; b < 16; b++) {
            int diff = 0;
            for (int i = 0; i < cell * gh; i++) {
                diff += mask[a][i] != mask[b][i];
            }
            cr_assert_gt(diff, 30, "markers %d and %d look the same (%d px differ)", a, b, diff);
        }
    }
    cairo_surface_destroy(im.s);
}

Test(timeline, empty_and_one_record_windows)
{
    char evr[128], png[128], lay[128];
    make_trace("scenario", evr, sizeof evr);
    snprintf(png, sizeof png, "%s/e.png", dir);
    snprintf(lay, sizeof lay, "%s/e.layout", dir);
    /* after the end of the recording: nothing selected, still a picture */
    cr_assert_eq(sh("'%s' timeline '%s' --from 1s --to 2s --layout '%s' -o '%s'", EVREC_CLI_PATH, evr, lay, png),
                 0);
    layout_t l = read_layout(lay);
    cr_assert_eq(l.nrows, 0);
    img_t im = load_png(png);
    cr_assert_gt(im.h, 50);
    cairo_surface_destroy(im.s);
    /* an event type that is not in the window */
    cr_assert_eq(sh("'%s' timeline '%s' --event QueueOp --layout '%s' -o '%s'", EVREC_CLI_PATH, evr, lay, png), 0);
    cr_assert_eq(read_layout(lay).nrows, 0);
    /* one record: a lane and its glyph in the middle of the window */
    make_trace("one", evr, sizeof evr);
    cr_assert_eq(
        sh("'%s' timeline '%s' --event TaskSwitchIn --layout '%s' -o '%s'", EVREC_CLI_PATH, evr, lay, png), 0);
    l = read_layout(lay);
    cr_assert_eq(l.nrows, 1);
    cr_assert_str_eq(l.rows[0].label, "task_a");
    im = load_png(png);
    int xm = (int)((l.xa + l.xb) / 2), ym = (int)(l.rows[0].y + l.rows[0].h / 2);
    int ink = 0;
    for (int dx = -5; dx <= 5; dx++) {
        ink += (px(&im, xm + dx, ym) & 0xFF) < 128;
    }
    cr_assert_gt(ink, 2, "no glyph at the window's middle");
    cairo_surface_destroy(im.s);
    /* the span open at the window's end (switched in, never out) is drawn to the end, clipped */
    cr_assert_eq(sh("'%s' timeline '%s' --layout '%s' -o '%s'", EVREC_CLI_PATH, evr, lay, png), 0);
    l = read_layout(lay);
    im = load_png(png);
    cr_assert(near(px(&im, (int)l.xb - 3, (int)(l.rows[0].y + 5)), 0x4e79a7), "open span not drawn to the end");
    cairo_surface_destroy(im.s);
}

/* The hatched strip: orange-red diagonal lines somewhere in the strip's column range. */
static int hatched(const img_t *im, int x0, int x1, int y0, int y1)
{
    int n = 0;
    for (int y = y0; y < y1; y += 2) {
        for (int x = x0; x < x1; x++) {
            unsigned c = px(im, x, y);
            n += ((c >> 16) & 0xFF) > 150 && (c & 0xFF) < 120;
        }
    }
    return n;
}

Test(timeline, drops_overwrites_and_damage_are_hatched_gaps)
{
    char evr[128], png[128], lay[128];
    snprintf(png, sizeof png, "%s/d.png", dir);
    snprintf(lay, sizeof lay, "%s/d.layout", dir);
    const char *modes[] = {"drops", "cyclic", "damaged"};
    for (int k = 0; k < 3; k++) {
        make_trace(modes[k], evr, sizeof evr);
        int rc = sh("'%s' timeline '%s' --layout '%s' -o '%s' 2>/dev/null", EVREC_CLI_PATH, evr, lay, png);
        cr_assert_eq(rc, k == 2 ? 1 : 0, "%s: exit %d", modes[k], rc);
        layout_t l = read_layout(lay);
        img_t im = load_png(png);
        cr_assert_gt(l.nrows, 3, "%s", modes[k]);
        if (k == 1) {
            cr_assert_gt(l.pre, 0, "cyclic: no strip before the first record");
            cr_assert_gt(hatched(&im, (int)(l.xa - l.pre - 4), (int)l.xa - 6, (int)l.ytop, (int)l.ybot), 20);
        } else if (k == 2) {
            /* a byte flipped in a STREAM chunk in the middle: the reader resumes at the next SYNC
             * point, the records lost are a strip between the records around them */
            cr_assert_eq(l.ngaps, 1, "damaged: %u gap strips", l.ngaps);
            cr_assert_gt(l.glost, 0);
            cr_assert_eq(l.post, 0, "damaged: a 'rest unreadable' strip though the reader read on");
            cr_assert(l.gx0 >= l.xa - 3 && l.gx1 <= l.xb + 3 && l.gx1 - l.gx0 >= 6, "gap %.0f..%.0f", l.gx0,
                      l.gx1);
            cr_assert_gt(hatched(&im, (int)l.gx0 + 1, (int)l.gx1 - 1, (int)l.ytop, (int)l.ybot), 20);
            cairo_surface_destroy(im.s);
            continue;
        } else {
            cr_assert_gt(l.post, 0, "%s: no strip after the last record", modes[k]);
            cr_assert_gt(hatched(&im, (int)l.xb + 6, (int)(l.xb + l.post), (int)l.ytop, (int)l.ybot), 20, "%s",
                         modes[k]);
        }
        /* and none in the middle of the data */
        cr_assert_eq(
            hatched(&im, (int)((l.xa + l.xb) / 2), (int)((l.xa + l.xb) / 2) + 1, (int)l.ytop, (int)l.ybot) > 40,
            0);
        cairo_surface_destroy(im.s);
    }
    /* an intact file has no strips */
    make_trace("random", evr, sizeof evr);
    cr_assert_eq(sh("'%s' timeline '%s' --layout '%s' -o '%s'", EVREC_CLI_PATH, evr, lay, png), 0);
    layout_t l = read_layout(lay);
    cr_assert_eq(l.pre, 0);
    cr_assert_eq(l.post, 0);
    cr_assert_eq(l.ngaps, 0);
    /* cut in the middle: the reader stops there, the rest is a strip after the last record */
    char cut[160];
    snprintf(cut, sizeof cut, "%s/cut.evr", dir);
    cr_assert_eq(sh("n=$(wc -c < '%s'); head -c $((n * 6 / 10)) '%s' > '%s'", evr, evr, cut), 0);
    cr_assert_eq(sh("'%s' timeline '%s' --layout '%s' -o '%s' 2>/dev/null", EVREC_CLI_PATH, cut, lay, png), 1);
    l = read_layout(lay);
    cr_assert_eq(l.ngaps, 0);
    cr_assert_gt(l.post, 0, "cut: no strip after the last record");
    img_t im = load_png(png);
    cr_assert_gt(hatched(&im, (int)l.xb + 6, (int)(l.xb + l.post), (int)l.ytop, (int)l.ybot), 20);
    cairo_surface_destroy(im.s);
}

Test(timeline, output_paths_are_never_clobbered_by_mistake)
{
    char evr[128], out[128];
    make_trace("scenario", evr, sizeof evr);
    snprintf(out, sizeof out, "%s/keep.txt", dir);
    FILE *f = fopen(out, "w");
    cr_assert_not_null(f);
    fputs("precious", f);
    fclose(f);
    /* not .png/.svg: usage error, the file untouched */
    cr_assert_eq(sh("'%s' timeline '%s' -o '%s' 2>/dev/null", EVREC_CLI_PATH, evr, out), 2);
    /* an unreadable input does not touch an existing picture */
    char png[128];
    snprintf(png, sizeof png, "%s/keep.png", dir);
    f = fopen(png, "w");
    fputs("precious", f);
    fclose(f);
    cr_assert_eq(sh("'%s' timeline '%s/missing.evr' -o '%s' 2>/dev/null", EVREC_CLI_PATH, dir, png), 1);
    struct stat st;
    cr_assert_eq(stat(out, &st), 0);
    cr_assert_eq(st.st_size, 8);
    cr_assert_eq(stat(png, &st), 0);
    cr_assert_eq(st.st_size, 8);
    /* missing -o, bad width */
    cr_assert_eq(sh("'%s' timeline '%s' 2>/dev/null", EVREC_CLI_PATH, evr), 2);
    cr_assert_eq(sh("'%s' timeline '%s' --width 10 -o '%s' 2>/dev/null", EVREC_CLI_PATH, evr, png), 2);
    /* success replaces it, and leaves no temporary file behind */
    cr_assert_eq(sh("'%s' timeline '%s' -o '%s'", EVREC_CLI_PATH, evr, png), 0);
    cr_assert_eq(stat(png, &st), 0);
    cr_assert_gt(st.st_size, 1000);
    cr_assert_eq(sh("ls -a '%s' | grep -q evrec-timeline", dir), 1, "a temporary file was left");
}

/* An end that closes nothing in the window and ends two spans (Sleep and FullSleep both end at
 * Woken): one bar from the window's start on its lane, not one per span (which of the two began
 * before the window the records do not tell). */
Test(timeline, an_end_shared_by_two_spans_is_one_bar)
{
    char path[128], png[128], lay[128];
    snprintf(path, sizeof path, "%s/shared.evr", dir);
    snprintf(png, sizeof png, "%s/shared.png", dir);
    snprintf(lay, sizeof lay, "%s/shared.txt", dir);
    cr_assert_eq(sh("'%s' '%s'", TL_SHARED_END_PATH, path), 0);
    cr_assert_eq(
        sh("'%s' timeline '%s' --from 500us -o '%s' --layout '%s' >/dev/null", EVREC_CLI_PATH, path, png, lay), 0);
    layout_t l = read_layout(lay);
    cr_assert_eq(row_of(&l, "Reader")->slots, 1, "the orphan Woken drew %u bars", row_of(&l, "Reader")->slots);
    cr_assert_eq(row_of(&l, "Writer")->slots, 1);
}
