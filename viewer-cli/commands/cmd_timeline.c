/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec timeline FILE -o OUT.png|OUT.svg`: a picture of a recording over time, a lane per
 * task/thread/ISR (track value) with span bars and marker glyphs, counters as step plots, gaps
 * hatched. The options and the reading loop; the rest is in timeline_*.c (see timeline.h) and
 * viewer-cli/timeline/TIMELINE.md. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cairo-svg.h>

#include "cli.h"
#include "pipeline.h"
#include "timeline.h"

static const char help[] =
    "usage: evrec timeline [selection] [--width PX] [--height PX] [--dark] -o OUT.png|OUT.svg FILE\n"
    "       evrec timeline --glyphs [--dark] -o OUT.png|OUT.svg\n"
    "\n"
    "Draw the recording over time: a lane per track value (task, thread, ISR: interrupt lanes\n"
    "first, the idle task last), or per event class when the file declares no tracks; spans as\n"
    "bars (coloured by span kind, or by key such as a frame number), every other record as the\n"
    "glyph of its marker (viewer-cli/timeline/TIMELINE.md), counters as step plots in rows of their own\n"
    "(one per series: schema 'series:'), for a kernel trace (ports/rtos) task lanes with their\n"
    "states (running in its core's colour, ready hatched, blocked as a line naming the object),\n"
    "dropped, overwritten and damaged parts as hatched gaps (damage in the middle of a file, where\n"
    "the reader resumed at the next SYNC point, as a strip from the last record before it to the\n"
    "first after, 'damaged: N records lost'; spans open there are cut, not drawn across it; 'rest\n"
    "unreadable' at the end only when the reader stopped). Where events are closer than a glyph\n"
    "a density band shows them (height ~ log of the count per pixel). One pass over the window:\n"
    "memory depends on lanes x width, not on the number of records. At most 200 lanes (the\n"
    "rest share '(other lanes)'), scaled into 3000 px without --height; the legend names at most\n"
    "200 event types, then 'and N more event types'.\n"
    "\n"
    "options:\n"
    "  -o, --output PATH  the picture; PNG or SVG by the extension. Written to a temporary file\n"
    "                     in the same folder, then renamed over PATH (a device or FIFO is\n"
    "                     written in place)\n"
    "  --width PX         picture width (default 1600, 400..20000)\n"
    "  --height PX        picture height (default: by the number of lanes, at most 3000 px of\n"
    "                     them); lanes are scaled\n"
    "  --dark             dark background\n"
    "  --glyphs           draw only the table of the 16 marker glyphs (no FILE)\n"
    "  --layout PATH      also write where things are drawn, as text (for tests and scripts):\n"
    "                     `size W H`, `plot XA XB YTOP YBOT` (XA = window start, XB = its end),\n"
    "                     `window FROM TO` (ns, or ticks without a clock), `gaps PRE POST` (px),\n"
    "                     then `row lane|counter Y H SPANBARS LABEL` per row, top to bottom,\n"
    "                     then `gap X0 X1 LOST` per damaged range drawn in the window\n"
    "  --tick-hz HZ       derive the clock from Tick records recorded at HZ\n"
    "  --time-freq HZ     timestamp frequency to use instead of the file's\n"
    "  -h, --help         this text\n"
    "\n" CLI_SELECT_HELP "\n"
    "Examples:\n"
    "  evrec timeline demo.evr -o demo.png\n"
    "  evrec timeline demo.evr --from 500ms --to 520ms -o window.svg\n"
    "  evrec timeline rtos.evr --class TaskSwitchIn,IsrEnter --dark -o sched.png\n"
    "\n"
    "Exit status: 0 ok, 1 damaged or unreadable input (the picture is still written, with the\n"
    "damaged part hatched) or the picture could not be written, 2 bad usage.\n";

typedef struct tl_opts {
    evrec_reader_options_t ropt;
    cli_select_spec_t sel;
    tl_out_t out;
    int glyphs;
} tl_opts_t;

static int parse(int argc, char **argv, tl_opts_t *o)
{
    enum { OPT_WIDTH = 256, OPT_HEIGHT, OPT_DARK, OPT_GLYPHS, OPT_LAYOUT };
    static const struct option longopts[] = {
        CLI_SELECT_LONGOPTS,
        {"output", required_argument, NULL, 'o'},
        {"width", required_argument, NULL, OPT_WIDTH},
        {"height", required_argument, NULL, OPT_HEIGHT},
        {"dark", no_argument, NULL, OPT_DARK},
        {"glyphs", no_argument, NULL, OPT_GLYPHS},
        {"layout", required_argument, NULL, OPT_LAYOUT},
        {"tick-hz", required_argument, NULL, CLI_OPT_TICK_HZ},
        {"time-freq", required_argument, NULL, CLI_OPT_TIME_FREQ},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->out.width = 1600;
    cli_getopt_begin();
    int c, rc;
    uint64_t v;
    while ((c = getopt_long(argc, argv, ":n:o:h", longopts, NULL)) != -1) {
        if ((rc = cli_select_option(&cli_cmd_timeline, &o->sel, c, optarg)) != -2) {
            if (rc >= 0) {
                return rc;
            }
            continue;
        }
        switch (c) {
        case 'o': o->out.out = optarg; break;
        case OPT_WIDTH:
            if (!cli_parse_u64(optarg, 20000, &v) || v < 400) {
                return cli_usage_error(&cli_cmd_timeline, "--width: expected 400..20000 pixels, got '%s'", optarg);
            }
            o->out.width = (int)v;
            break;
        case OPT_HEIGHT:
            if (!cli_parse_u64(optarg, 20000, &v) || v < 150) {
                return cli_usage_error(&cli_cmd_timeline, "--height: expected 150..20000 pixels, got '%s'",
                                       optarg);
            }
            o->out.height = (int)v;
            break;
        case OPT_DARK: o->out.dark = 1; break;
        case OPT_GLYPHS: o->glyphs = 1; break;
        case OPT_LAYOUT: o->out.layout = optarg; break;
        default:
            if ((rc = cli_common_option(&cli_cmd_timeline, c, argv, &o->ropt)) >= 0) {
                return rc;
            }
        }
    }
    if (!o->out.out) {
        return cli_usage_error(&cli_cmd_timeline, "missing -o OUT.png or -o OUT.svg");
    }
    if (o->glyphs) {
        if (optind != argc) {
            return cli_usage_error(&cli_cmd_timeline, "--glyphs takes no FILE");
        }
        return -1;
    }
    return cli_one_operand(&cli_cmd_timeline, argc, argv, "FILE", &o->out.path);
}

/* 1 = svg, 0 = png, -1 = neither. */
static int out_kind(const char *path)
{
    size_t n = strlen(path);
    if (n > 4 && strcasecmp(path + n - 4, ".svg") == 0) {
        return 1;
    }
    if (n > 4 && strcasecmp(path + n - 4, ".png") == 0) {
        return 0;
    }
    return -1;
}

static int glyph_table(const tl_opts_t *o, int is_svg)
{
    cli_output_t out; /* cairo writes the picture by name: a temporary file */
    if (!cli_output_open_named(&out, o->out.out)) {
        return CLI_BAD_INPUT;
    }
    const char *tmp = cli_output_name(&out);
    double cell = 96;
    int w = (int)(4 * cell), h = (int)(4 * cell);
    cairo_surface_t *s = is_svg ? cairo_svg_surface_create(tmp, w, h)
                                : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    cairo_t *cr = cairo_create(s);
    if (o->out.dark) {
        cairo_set_source_rgb(cr, 0.11, 0.12, 0.14);
    } else {
        cairo_set_source_rgb(cr, 1, 1, 1);
    }
    cairo_paint(cr);
    tl_glyph_table(cr, 0, 0, cell, o->out.dark);
    cairo_destroy(cr);
    int ok;
    if (is_svg) {
        cairo_surface_finish(s);
        ok = cairo_surface_status(s) == CAIRO_STATUS_SUCCESS;
    } else {
        ok = cairo_surface_write_to_png(s, tmp) == CAIRO_STATUS_SUCCESS;
    }
    cairo_surface_destroy(s);
    if (!ok) {
        cli_error("%s: writing the picture failed", o->out.out);
    }
    ok = ok ? cli_output_commit(&out) : (cli_output_abort(&out), 0);
    return ok ? CLI_OK : CLI_BAD_INPUT;
}

static uint32_t bins_for(int width)
{
    uint32_t n = 4096;
    while (n < 4u * (uint32_t)width) {
        n *= 2;
    }
    return n;
}

/* ---- the timeline as a sink of the record pipeline (pipeline/sink.h) ---- */

typedef struct tl_sink {
    tl_opts_t *o;
    int is_svg;
    tl_model_t *m;
    const evrec_reader_t *r;
    uint64_t next; /* index after the last record read */
} tl_sink_t;

static void *tl_begin(void *user, export_out_t *out, const cli_sink_info_t *info)
{
    (void)out;
    tl_sink_t *t = user;
    tl_model_t *m = calloc(1, sizeof *m);
    if (!m) {
        cli_error("out of memory");
        return NULL;
    }
    t->m = m;
    t->r = info->reader;
    m->r = info->reader;
    m->meta = info->meta;
    m->tracks = evrec_reader_tracks(info->reader);
    m->ns_known = info->time_freq != 0;
    m->dropped = info->info->dropped;
    m->overwritten = info->info->overwritten;
    if (tl_lanes_prepare(m) != 0 || tl_agg_init(m, bins_for(t->o->out.width)) != 0) {
        cli_error("out of memory");
        tl_agg_free(m);
        free(m);
        return NULL;
    }
    const cli_bound_t *from = &t->o->sel.from, *to = &t->o->sel.to;
    if (from->set && !from->is_index) {
        m->from_fixed = 1;
        m->t_from = from->value;
    }
    if (to->set && !to->is_index) {
        m->to_fixed = 1;
        m->t_to = to->value; /* the bins are sized at the first record (tl_agg_add) */
    }
    m->window_has_start = !from->set || from->value == 0;
    return t;
}

static void tl_read(void *state, const evrec_record_t *rec)
{
    tl_sink_t *t = state;
    tl_agg_read(t->m, rec, rec->gap ? cli_damage_lost(t->r, rec->index, t->next) : 0);
    t->next = rec->index + 1;
}

static int tl_record(void *state, const evrec_record_t *rec, uint64_t late)
{
    tl_sink_t *t = state;
    (void)late;
    if (tl_agg_add(t->m, rec) != 0) {
        cli_error("out of memory");
        return CLI_SINK_REPORTED;
    }
    return CLI_SINK_GO_ON;
}

/* The damage the picture shows: "rest unreadable" only when the reader really stopped before the
 * End record; damage it resumed after is a gap strip; damage that lost no record a note. */
static void tl_damage(tl_model_t *m, const evrec_reader_t *r)
{
    uint64_t nd = evrec_reader_damage_count(r);
    const evrec_damage_t *last = nd ? evrec_reader_damage(r, nd - 1) : NULL;
    if (cli_damage_stopped(r)) {
        const evrec_reader_error_t *e = evrec_reader_error(r);
        m->damaged = 1;
        snprintf(m->damage_text, sizeof m->damage_text, "offset %llu: %s",
                 (unsigned long long)(last ? last->offset : e->offset), last ? last->message : e->message);
    }
    const evrec_damage_t *d;
    for (uint64_t i = 0; (d = evrec_reader_damage(r, i)) != NULL; i++) {
        m->damage_notes += d->records_lost == 0;
    }
}

/* The window's ends once every record is in. */
static void tl_window(tl_model_t *m)
{
    if (!m->started) {
        /* nothing selected: an empty window from --from (or 0) */
        m->t_to = m->to_fixed ? m->t_to : m->t_from;
        m->bw = 1;
    }
    tl_agg_finish(m);
    if (m->t_to <= m->t_from) {
        /* one instant (or none): a window of 1 us around it */
        uint64_t pad = m->ns_known ? 500 : 5;
        m->t_from = m->t_from > pad ? m->t_from - pad : 0;
        m->t_to = m->t_from + 2 * pad;
    }
}

/* tl_draw() writes the picture and the layout by name: temporary files (cli.h), committed when
 * complete. Returns 1 when both were written. */
static int tl_write(tl_sink_t *t)
{
    tl_opts_t *o = t->o;
    cli_output_t out, lay;
    const char *lay_path = o->out.layout;
    if (!cli_output_open_named(&out, o->out.out)) {
        return 0;
    }
    if (lay_path && !cli_output_open_named(&lay, lay_path)) {
        cli_output_abort(&out);
        return 0;
    }
    o->out.layout = lay_path ? cli_output_name(&lay) : NULL;
    int ok = tl_draw(t->m, &o->out, cli_output_name(&out), t->is_svg) == 0;
    struct stat lst;
    int lay_ok = ok && lay_path && stat(cli_output_name(&lay), &lst) == 0 && lst.st_size > 0;
    o->out.layout = lay_path;
    ok = ok ? cli_output_commit(&out) : (cli_output_abort(&out), 0);
    if (lay_path) {
        ok = (lay_ok ? cli_output_commit(&lay) : (cli_output_abort(&lay), 0)) && ok;
    }
    return ok;
}

static int tl_end(void *state, const cli_sink_end_t *end)
{
    tl_sink_t *t = state;
    tl_model_t *m = t->m;
    int rc = CLI_SINK_GO_ON;
    if (!end->abandoned) {
        m->window_has_end = !end->stopped;
        if (end->status != EVREC_OK && end->status != EVREC_E_END) {
            tl_damage(m, t->r);
        }
        tl_window(m);
        rc = tl_write(t) ? CLI_SINK_GO_ON : CLI_SINK_REPORTED;
    }
    tl_agg_free(m);
    free(m);
    t->m = NULL;
    return rc;
}

static const cli_sink_t tl_sink = {
    .name = "timeline",
    .flags = CLI_SINK_DAMAGE_PAST_STOP | CLI_SINK_REPORT_FIRST,
    .begin = tl_begin,
    .read = tl_read,
    .record = tl_record,
    .end = tl_end,
};

static int run(int argc, char **argv)
{
    tl_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    int is_svg = out_kind(o.out.out);
    if (is_svg < 0) {
        return cli_usage_error(&cli_cmd_timeline, "-o %s: the name must end in .png or .svg", o.out.out);
    }
    if (o.glyphs) {
        return glyph_table(&o, is_svg);
    }
    tl_sink_t t = {.o = &o, .is_svg = is_svg};
    cli_pipeline_opts_t po = {
        .cmd = &cli_cmd_timeline, .input = o.out.path, .clock = o.ropt, .select = &o.sel, .progress = -1};
    return cli_pipeline_run(&po, &tl_sink, &t);
}

const cli_command_t cli_cmd_timeline = {
    "timeline",
    "picture (PNG/SVG) of lanes of tasks, threads and ISRs over time: spans, markers, counters",
    help,
    run,
};
