/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec timeline`: the picture. Title, legend, one row per lane (span bars in up to TL_SLOTS
 * stacked bands, marker glyphs, a density band where events are closer than a glyph) or counter
 * (step plot), hatched gap strips, the time axis. Drawn with cairo into a PNG image surface or an
 * SVG surface: the same code for both. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-svg.h>

#include "cli.h"
#include "timeline.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define LANE_H 30.0
#define COUNTER_H 46.0
#define AXIS_H 34.0
#define MARGIN 14.0
#define TITLE_H 44.0

static void bg(cairo_t *cr, int dark)
{
    if (dark) {
        cairo_set_source_rgb(cr, 0.11, 0.12, 0.14);
    } else {
        cairo_set_source_rgb(cr, 1, 1, 1);
    }
}

static void fg(cairo_t *cr, int dark, double a)
{
    if (dark) {
        cairo_set_source_rgba(cr, 0.88, 0.88, 0.9, a);
    } else {
        cairo_set_source_rgba(cr, 0.1, 0.1, 0.12, a);
    }
}

void tl_hatch(cairo_t *cr, double x, double y, double w, double h, int dark)
{
    cairo_save(cr);
    cairo_rectangle(cr, x, y, w, h);
    cairo_clip_preserve(cr);
    cairo_set_source_rgba(cr, dark ? 0.5 : 0.85, dark ? 0.25 : 0.45, dark ? 0.2 : 0.35, dark ? 0.25 : 0.18);
    cairo_fill(cr);
    cairo_set_source_rgba(cr, dark ? 1.0 : 0.75, dark ? 0.5 : 0.2, dark ? 0.4 : 0.1, 0.8);
    cairo_set_line_width(cr, 1.2);
    for (double k = -h; k < w; k += 6) {
        cairo_move_to(cr, x + k, y + h);
        cairo_line_to(cr, x + k + h, y);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

double tl_gutter(cairo_t *cr, const tl_model_t *m)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 12);
    double w = 60;
    for (unsigned i = 0; i < m->nrows; i++) {
        cairo_text_extents_t te;
        tl_text_extents(cr, m->rows[i].label, &te);
        if (te.x_advance > w) {
            w = te.x_advance;
        }
    }
    return MARGIN + (w > 220 ? 220 : w) + 12;
}

/* A label right-aligned at x, cut with ".." to at most maxw. */
static void label(cairo_t *cr, const char *s, double x, double y, double maxw)
{
    char buf[100];
    snprintf(buf, sizeof buf, "%s", s);
    cairo_text_extents_t te;
    tl_text_extents(cr, buf, &te);
    size_t n = strlen(buf);
    while (te.x_advance > maxw && n > 3) {
        buf[--n] = 0;
        buf[n - 1] = '.';
        buf[n - 2] = '.';
        tl_text_extents(cr, buf, &te);
    }
    cairo_move_to(cr, x - te.x_advance, y);
    tl_show_text(cr, buf);
}

void tl_px_bins(const tl_px_t *pm, int p, uint32_t *b0, uint32_t *b1)
{
    const tl_model_t *m = pm->m;
    double w = pm->xb - pm->xa;
    double shift = (double)m->t_from - (double)m->bin_from;
    double t0 = (double)p / w * (double)pm->span + shift, t1 = (double)(p + 1) / w * (double)pm->span + shift;
    if (t1 <= 0) {
        *b0 = *b1 = 0;
        return;
    }
    double bw = (double)m->bw;
    double lo = floor(t0 / bw), hi = floor(t1 / bw);
    if (p == pm->npx - 1) {
        hi = (double)m->nbins;
    }
    if (lo < 0) {
        lo = 0;
    }
    if (hi > m->nbins) {
        hi = m->nbins;
    }
    if (hi <= lo) {
        hi = lo + 1 <= m->nbins ? lo + 1 : lo;
        /* a pixel narrower than a bin: only the pixel holding the bin's centre takes it */
        double c = (lo + 0.5) * bw;
        if (!(c >= t0 && c < t1) && p != pm->npx - 1) {
            *b0 = *b1 = (uint32_t)lo;
            return;
        }
    }
    *b0 = (uint32_t)lo;
    *b1 = (uint32_t)hi;
}

static double bin_x(const tl_px_t *pm, uint32_t b)
{
    double t = ((double)b + 0.5) * (double)pm->m->bw - ((double)pm->m->t_from - (double)pm->m->bin_from);
    if (t > (double)pm->span) {
        t = (double)pm->span;
    }
    return pm->xa + t / (double)pm->span * (pm->xb - pm->xa);
}

static void draw_spans(cairo_t *cr, const tl_px_t *pm, const tl_row_t *row, double y, double h, int dark)
{
    if (!row->nslots || !row->sb) {
        return;
    }
    double band = (h - 6) / row->nslots;
    for (unsigned s = 0; s < row->nslots; s++) {
        const tl_sbin_t *sb = row->sb + (size_t)s * pm->m->nbins;
        double by = y + 3 + s * band + 0.5, bh = band - 1;
        int run_start = -1;
        unsigned run_color = 0;
        double run_alpha = 0;
        for (int p = 0; p <= pm->npx; p++) {
            unsigned color = TL_NO_COLOR;
            double alpha = 0;
            if (p < pm->npx) {
                uint32_t b0, b1;
                tl_px_bins(pm, p, &b0, &b1);
                double cov = 0, best = -1;
                unsigned edges = 0;
                for (uint32_t b = b0; b < b1; b++) {
                    cov += sb[b].cov;
                    edges += sb[b].edges;
                    if (sb[b].color != TL_NO_COLOR && sb[b].cov > best) {
                        best = sb[b].cov;
                        color = sb[b].color;
                    }
                }
                cov = b1 > b0 ? cov / (double)(b1 - b0) : 0;
                if (color != TL_NO_COLOR) {
                    alpha = cov >= 0.9 ? 1.0 : cov > 0.02 ? 0.35 + 0.65 * cov : edges ? 0.45 : 0.3;
                    alpha = round(alpha * 8) / 8;
                }
            }
            if (run_start >= 0 && (color != run_color || alpha != run_alpha)) {
                if (run_color != TL_NO_COLOR) {
                    tl_color(cr, run_color, dark, run_alpha);
                    cairo_rectangle(cr, pm->xa + run_start, by, p - run_start, bh);
                    cairo_fill(cr);
                }
                run_start = -1;
            }
            if (run_start < 0) {
                run_start = p;
                run_color = color;
                run_alpha = alpha;
            }
        }
    }
}

/* Glyphs of the bins of pixel columns [p0, p1). */
static void glyphs_at(cairo_t *cr, const tl_px_t *pm, const tl_row_t *row, int p0, int p1, double yc, double gs,
                      int dark)
{
    for (int p = p0; p < p1; p++) {
        uint32_t b0, b1;
        tl_px_bins(pm, p, &b0, &b1);
        for (uint32_t b = b0; b < b1; b++) {
            const tl_ibin_t *ib = &row->ib[b];
            for (unsigned k = 0; k < ib->count && k < 2; k++) {
                tl_color(cr, 0x8000u + ib->ev[k], dark, 1);
                tl_glyph(cr, ib->mk[k], bin_x(pm, b) + k * gs * 0.5, yc, gs);
            }
        }
    }
}

/* Instants: events are grouped into clusters (columns closer than a glyph's width). A cluster of
 * at most 3 events is drawn as glyphs; a larger one narrower than 2 glyphs as a badge with its
 * count; a wider one as a density band (a 1-px column per pixel, height ~ log count) with its
 * count above when there is room. Never more than 3 glyphs per glyph width. */
static void draw_instants(cairo_t *cr, const tl_px_t *pm, const tl_row_t *row, double y, double h, int dark,
                          uint64_t maxn)
{
    int n = pm->npx;
    uint64_t *cnt = calloc((size_t)n + 1, sizeof *cnt);
    if (!cnt) {
        return;
    }
    for (int p = 0; p < n; p++) {
        uint32_t b0, b1;
        tl_px_bins(pm, p, &b0, &b1);
        for (uint32_t b = b0; b < b1; b++) {
            cnt[p] += row->ib[b].count;
        }
    }
    double gs = h * 0.42 > 13 ? 13 : h * 0.42;
    if (gs < 5) {
        gs = 5;
    }
    int gap = (int)(gs * 0.8);
    double yc = y + h / 2;
    double lmax = log((double)(maxn > 2 ? maxn : 2) + 1);
    int p = 0;
    while (p < n) {
        if (!cnt[p]) {
            p++;
            continue;
        }
        /* the cluster [c0, c1) */
        int c0 = p, c1 = p + 1, last = p;
        uint64_t total = cnt[p];
        for (int q = p + 1; q < n && q - last <= gap; q++) {
            if (cnt[q]) {
                total += cnt[q];
                last = q;
                c1 = q + 1;
            }
        }
        p = c1;
        if (total <= 3) {
            glyphs_at(cr, pm, row, c0, c1, yc, gs, dark);
            continue;
        }
        char t[32];
        snprintf(t, sizeof t, "%llu", (unsigned long long)total);
        cairo_set_font_size(cr, 10);
        cairo_text_extents_t te;
        tl_text_extents(cr, t, &te);
        double cx = pm->xa + (c0 + c1) / 2.0;
        if (c1 - c0 < 2 * (int)gs) {
            /* a small cluster: a badge with its count */
            double bw = te.x_advance + 8, bh = 13;
            bg(cr, dark);
            cairo_rectangle(cr, cx - bw / 2, yc - bh / 2, bw, bh);
            cairo_fill_preserve(cr);
            fg(cr, dark, 0.85);
            cairo_set_line_width(cr, 1);
            cairo_stroke(cr);
            cairo_move_to(cr, cx - te.x_advance / 2, yc + 3.5);
            tl_show_text(cr, t);
            continue;
        }
        for (int q = c0; q < c1; q++) {
            if (!cnt[q]) {
                continue;
            }
            /* at most half the lane high: the span bars stay visible above and below */
            double hh = 2 + (h * 0.5 - 2) * log((double)cnt[q] + 1) / lmax;
            uint32_t b0, b1;
            tl_px_bins(pm, q, &b0, &b1);
            unsigned ev = 0;
            for (uint32_t b = b0; b < b1; b++) {
                if (row->ib[b].count) {
                    ev = row->ib[b].ev[0];
                    break;
                }
            }
            tl_color(cr, 0x8000u + ev, dark, 0.8);
            cairo_rectangle(cr, pm->xa + q, yc - hh / 2, 1, hh);
            cairo_fill(cr);
        }
        if (c1 - c0 >= te.x_advance + 8) {
            double tx = cx - te.width / 2;
            bg(cr, dark);
            cairo_rectangle(cr, tx - 2, y + 1, te.x_advance + 4, 11);
            cairo_fill(cr);
            fg(cr, dark, 0.9);
            cairo_move_to(cr, tx, y + 10);
            tl_show_text(cr, t);
        }
    }
    free(cnt);
}

static void draw_counter(cairo_t *cr, const tl_px_t *pm, const tl_row_t *row, unsigned idx, double y, double h,
                         int dark)
{
    double top = y + 6, bot = y + h - 5;
    double lo = row->cmin, hi = row->cmax > row->cmin ? row->cmax : row->cmin + 1;
#define VY(v) (bot - ((double)(v)-lo) / (hi - lo) * (bot - top))
    cairo_set_line_width(cr, 1.5);
    tl_color(cr, idx + 2, dark, 1);
    int started = 0;
    uint32_t last = 0;
    for (int p = 0; p < pm->npx; p++) {
        uint32_t b0, b1;
        tl_px_bins(pm, p, &b0, &b1);
        uint32_t mn = UINT32_MAX, mx = 0, lv = 0;
        int has = 0;
        for (uint32_t b = b0; b < b1; b++) {
            const tl_cbin_t *c = &row->cb[b];
            if (c->has) {
                mn = c->min < mn ? c->min : mn;
                mx = c->max > mx ? c->max : mx;
                lv = c->last;
                has = 1;
            }
        }
        if (!has) {
            continue;
        }
        double x = pm->xa + p + 0.5;
        if (!started) {
            cairo_move_to(cr, x, VY(lv));
            started = 1;
        } else {
            cairo_line_to(cr, x, VY(last));
        }
        if (mn != mx) {
            /* the range the value took within the column: a light bar under the line */
            cairo_path_t *path = cairo_copy_path(cr);
            cairo_new_path(cr);
            tl_color(cr, idx + 2, dark, 0.35);
            cairo_rectangle(cr, x - 0.5, VY(mx), 1, VY(mn) - VY(mx));
            cairo_fill(cr);
            tl_color(cr, idx + 2, dark, 1);
            cairo_append_path(cr, path);
            cairo_path_destroy(path);
        }
        cairo_line_to(cr, x, VY(lv));
        last = lv;
    }
    if (started) {
        cairo_line_to(cr, pm->xb, VY(last));
        cairo_stroke(cr);
    }
    cairo_set_font_size(cr, 9);
    fg(cr, dark, 0.65);
    char t[24];
    snprintf(t, sizeof t, "%u", (unsigned)row->cmax);
    cairo_move_to(cr, pm->xa - 20 > 0 ? pm->xa + 2 : pm->xa, top + 3);
    tl_show_text(cr, t);
    snprintf(t, sizeof t, "%u", (unsigned)row->cmin);
    cairo_move_to(cr, pm->xa + 2, bot);
    tl_show_text(cr, t);
#undef VY
}

static void xml_attr(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc((unsigned char)*s < 0x20 ? '?' : *s, f);
        }
    }
}

/* The <title> and the <metadata> element: lanes and legend as text (`tl:lane`, `tl:legend`). */
static void svg_metadata(FILE *f, const tl_model_t *m, const unsigned *order, const char *path)
{
    fputs("\n<title>evrec timeline: ", f);
    xml_attr(f, path);
    fputs("</title>\n<metadata><tl:timeline xmlns:tl=\"urn:evrec:timeline\" file=\"", f);
    xml_attr(f, path);
    fprintf(f, "\" from=\"%llu\" to=\"%llu\" unit=\"%s\" records=\"%llu\">\n", (unsigned long long)m->t_from,
            (unsigned long long)m->t_to, m->ns_known ? "ns" : "ticks", (unsigned long long)m->records);
    for (unsigned k = 0; k < m->nrows; k++) {
        const tl_row_t *row = &m->rows[order[k]];
        fprintf(f, "<tl:lane kind=\"%s\" label=\"", row->kind == TL_ROW_COUNTER ? "counter" : "lane");
        xml_attr(f, row->label);
        fprintf(f, "\" instants=\"%llu\" spans=\"%llu\"/>\n", (unsigned long long)row->instants,
                (unsigned long long)row->spans);
    }
    for (uint32_t i = 0; m->tracks && i < m->tracks->span_count; i++) {
        int used = 0;
        for (unsigned r = 0; r < m->nrows; r++) {
            for (unsigned s2 = 0; s2 < m->rows[r].nslots; s2++) {
                used |= m->rows[r].slot_desc[s2] == i;
            }
        }
        if (used) {
            fputs("<tl:legend kind=\"span\" name=\"", f);
            xml_attr(f, m->tracks->spans[i].name);
            fputs("\"/>\n", f);
        }
    }
    uint32_t shown = 0, more = 0;
    for (uint32_t id = 0; id < m->meta->event_count; id++) {
        if (m->event_seen[id] && shown == TL_MAX_LEGEND_EVENTS) {
            more++;
        } else if (m->event_seen[id]) {
            shown++;
            const char *en = evrec_reader_event_name(m->r, (uint16_t)id);
            fputs("<tl:legend kind=\"event\" name=\"", f);
            xml_attr(f, en ? en : "?");
            fputs("\"/>\n", f);
        }
    }
    if (more) {
        fprintf(f, "<tl:legend kind=\"more-events\" count=\"%lu\"/>\n", (unsigned long)more);
    }
    for (unsigned mk = 0; mk < 16; mk++) {
        if (m->marker_seen & (1u << mk)) {
            fprintf(f, "<tl:legend kind=\"marker\" name=\"%s\"/>\n", evrec_marker_name((uint8_t)mk));
        }
    }
    fputs("</tl:timeline></metadata>\n", f);
}

/* Cairo draws text as glyph outlines: the SVG gets the lanes and the legend as text in a
 * <metadata> element too, for search, accessibility and scripts; a kernel trace's task waits get
 * tooltips last (over everything). */
static int svg_annotate(const char *tmp, const tl_model_t *m, const unsigned *order, const char *path)
{
    FILE *f = fopen(tmp, "rb");
    if (!f) {
        return -1;
    }
    cli_buf_t b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        cli_buf_put(&b, chunk, n);
    }
    fclose(f);
    cli_buf_putc(&b, 0);
    char *svg = strstr(b.p, "<svg");
    char *end = svg ? strchr(svg, '>') : NULL;
    if (!end) {
        cli_buf_free(&b);
        return -1;
    }
    f = fopen(tmp, "wb");
    if (!f) {
        cli_buf_free(&b);
        return -1;
    }
    fwrite(b.p, 1, (size_t)(end + 1 - b.p), f);
    svg_metadata(f, m, order, path);
    size_t rest = strlen(end + 1);
    char *close = m->st.sched ? strstr(end + 1, "</svg>") : NULL;
    if (close) { /* the tooltips of the task waits go last: over everything */
        rest = (size_t)(close - (end + 1));
    }
    int ok = fwrite(end + 1, 1, rest, f) == rest;
    if (close) {
        tl_states_svg(f, m);
        ok = fputs(close, f) >= 0 && ok;
    }
    ok = (fclose(f) == 0) && ok;
    cli_buf_free(&b);
    return ok ? 0 : -1;
}

/* Where things go in the picture (px). */
typedef struct tl_geom {
    double W, H; /* picture size */
    int iw, ih;
    double gutter; /* the plot's left edge (labels on its left) */
    double legend_h, rows_h, scale;
    double ytop, yb;  /* the rows' top and bottom */
    double x0, x1;    /* the rows' left and right ends */
    double pre, post; /* the strips of the losses before the first record and after the last */
} tl_geom_t;

/* The picture's size and the rows' scale: measured on a scratch surface. */
static void measure(tl_model_t *m, const tl_out_t *o, tl_geom_t *g)
{
    memset(g, 0, sizeof *g);
    g->W = o->width;
    cairo_surface_t *scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 8, 8);
    cairo_t *mc = cairo_create(scratch);
    g->gutter = tl_gutter(mc, m);
    g->legend_h = tl_legend(mc, m, MARGIN, 0, g->W - 2 * MARGIN, 0, o->dark);
    cairo_destroy(mc);
    cairo_surface_destroy(scratch);
    for (unsigned i = 0; i < m->nrows; i++) {
        g->rows_h += m->rows[i].kind == TL_ROW_COUNTER ? COUNTER_H : LANE_H;
    }
    double fixed = MARGIN + TITLE_H + g->legend_h + 8 + AXIS_H + MARGIN;
    g->scale = 1;
    g->H = o->height ? o->height : fixed + (g->rows_h > 0 ? g->rows_h : LANE_H);
    if (!o->height && g->rows_h > TL_AUTO_ROWS_H) {
        g->H = fixed + TL_AUTO_ROWS_H; /* many lanes: scaled into TL_AUTO_ROWS_H px, as by --height */
    }
    if ((o->height || g->rows_h > TL_AUTO_ROWS_H) && g->rows_h > 0) {
        g->scale = (g->H - fixed) / g->rows_h;
        if (g->scale * LANE_H < 6) {
            g->scale = 6 / LANE_H; /* rows stay at least 6 px: the picture is cut at the bottom */
        }
    }
    g->iw = (int)g->W;
    g->ih = (int)ceil(g->H);
    g->ytop = MARGIN + TITLE_H + g->legend_h + 8;
    g->x0 = g->gutter;
    g->x1 = g->W - MARGIN - 8;
    g->pre = m->overwritten && m->window_has_start ? 36 : 0;
    g->post = ((m->dropped && m->stop_seen) || m->damaged) && m->window_has_end ? 36 : 0;
    g->yb = g->ytop + (m->nrows ? g->rows_h * g->scale : LANE_H);
}

static void px_map_init(tl_px_t *pm, const tl_model_t *m, const tl_geom_t *g)
{
    pm->m = m;
    pm->xa = floor(g->x0 + g->pre + 6);
    pm->xb = floor(g->x1 - g->post - 6);
    pm->span = m->t_to > m->t_from ? m->t_to - m->t_from : 1;
    pm->npx = (int)(pm->xb - pm->xa);
    if (pm->npx < 1) {
        pm->npx = 1;
    }
}

/* The largest count of records in one pixel column of one lane (the density scale), at least 2. */
static uint64_t max_density(const tl_model_t *m, const tl_px_t *pm)
{
    uint64_t maxn = 2;
    for (unsigned i = 0; i < m->nrows; i++) {
        const tl_row_t *row = &m->rows[i];
        for (int p = 0; row->ib && p < pm->npx; p++) {
            uint32_t b0, b1;
            tl_px_bins(pm, p, &b0, &b1);
            uint64_t c = 0;
            for (uint32_t b = b0; b < b1; b++) {
                c += row->ib[b].count;
            }
            maxn = c > maxn ? c : maxn;
        }
    }
    return maxn;
}

/* The layout file (--layout), with the picture's size, the plot and the window; NULL: none. */
static FILE *layout_open(const tl_model_t *m, const tl_out_t *o, const tl_geom_t *g, const tl_px_t *pm)
{
    if (!o->layout) {
        return NULL;
    }
    FILE *lay = fopen(o->layout, "w");
    if (!lay) {
        cli_error("%s: cannot create the layout file", o->layout);
        return NULL;
    }
    fprintf(lay, "size %d %d\nplot %.0f %.0f %.2f %.2f\nwindow %llu %llu\n", g->iw, g->ih, pm->xa, pm->xb, g->ytop,
            g->yb, (unsigned long long)m->t_from, (unsigned long long)m->t_to);
    fprintf(lay, "gaps %.0f %.0f\n", g->pre, g->post);
    return lay;
}

/* Row k (in drawing order; m->rows[ri]) at y, h px high: its band, rule, label, then its bins. */
static void draw_row(cairo_t *cr, tl_model_t *m, int ri, unsigned k, unsigned *counter_idx, double y, double h,
                     const tl_geom_t *g, const tl_px_t *pm, uint64_t maxn, int dark)
{
    const tl_row_t *row = &m->rows[ri];
    if (k % 2 == 0) {
        fg(cr, dark, 0.035);
        cairo_rectangle(cr, 0, y, g->W, h);
        cairo_fill(cr);
    }
    fg(cr, dark, 0.12);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, g->x0, floor(y + h) + 0.5);
    cairo_line_to(cr, g->x1, floor(y + h) + 0.5);
    cairo_stroke(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, h < 14 ? h - 2 : 12);
    fg(cr, dark, 0.95);
    label(cr, row->label, g->x0 - 10, y + h / 2 + 4, g->x0 - MARGIN - 10);
    cairo_save(cr);
    cairo_rectangle(cr, pm->xa - 7, y, pm->xb - pm->xa + 14, h);
    cairo_clip(cr);
    if (row->kind == TL_ROW_COUNTER) {
        draw_counter(cr, pm, row, (*counter_idx)++, y, h, dark);
    } else {
        tl_states_draw(cr, pm, m, ri, y, h, dark);
        draw_spans(cr, pm, row, y, h, dark);
        draw_instants(cr, pm, row, y, h, dark, maxn);
    }
    cairo_restore(cr);
}

/* Every row top to bottom (or the note of an empty window). */
static void draw_rows(cairo_t *cr, tl_model_t *m, const unsigned *order, const tl_geom_t *g, const tl_px_t *pm,
                      FILE *lay, int dark)
{
    if (m->nrows == 0) {
        fg(cr, dark, 0.6);
        cairo_set_font_size(cr, 13);
        cairo_move_to(cr, g->x0 + 10, g->ytop + 19);
        tl_show_text(cr, m->records ? "no lane: only control records (Start, Tick, Stop) in the window"
                                    : "no record in the selected window");
    }
    uint64_t maxn = max_density(m, pm);
    tl_axis_draw(cr, m, pm->xa, pm->xb, g->ytop, g->yb, dark);
    double y = g->ytop;
    unsigned counter_idx = 0;
    for (unsigned k = 0; k < m->nrows; k++) {
        const tl_row_t *row = &m->rows[order[k]];
        double h = (row->kind == TL_ROW_COUNTER ? COUNTER_H : LANE_H) * g->scale;
        if (lay) {
            fprintf(lay, "row %s %.2f %.2f %u %s\n", row->kind == TL_ROW_COUNTER ? "counter" : "lane", y, h,
                    row->nslots, row->label);
        }
        draw_row(cr, m, (int)order[k], k, &counter_idx, y, h, g, pm, maxn, dark);
        y += h;
    }
}

/* A hatched strip over the rows from gx0 to gx1, its text along it (rotated), at x_text. */
static void strip(cairo_t *cr, double gx0, double gx1, double x_text, const char *txt, const tl_geom_t *g,
                  int dark)
{
    tl_hatch(cr, gx0, g->ytop, gx1 - gx0, g->yb - g->ytop, dark);
    cairo_save(cr);
    cairo_translate(cr, x_text, g->ytop + 8);
    cairo_rotate(cr, M_PI / 2);
    fg(cr, dark, 0.9);
    cairo_move_to(cr, 0, 0);
    tl_show_text(cr, txt);
    cairo_restore(cr);
}

/* Records lost to damage in the middle of the file: a hatched strip from the last record before
 * to the first after (at least 6 px wide), labelled along it. */
static void draw_damage(cairo_t *cr, const tl_model_t *m, const tl_geom_t *g, const tl_px_t *pm, FILE *lay,
                        int dark)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 11);
    for (unsigned i = 0; i < m->ngaps; i++) {
        const tl_gap_t *gp = &m->gaps[i];
        if (gp->t1 < m->t_from || gp->t0 > m->t_to) {
            continue; /* outside the window */
        }
        double k = (pm->xb - pm->xa) / (double)pm->span;
        double gx0 = pm->xa + (gp->t0 > m->t_from ? (double)(gp->t0 - m->t_from) * k : 0.0);
        double gx1 = pm->xa + (gp->t1 < m->t_to ? (double)(gp->t1 - m->t_from) * k : (double)(pm->xb - pm->xa));
        if (gx1 - gx0 < 6) {
            double c = (gx0 + gx1) / 2;
            gx0 = c - 3;
            gx1 = c + 3;
        }
        bg(cr, dark); /* nothing drawn under it: what the lanes showed there is not known */
        cairo_rectangle(cr, gx0, g->ytop, gx1 - gx0, g->yb - g->ytop);
        cairo_fill(cr);
        char txt[80];
        snprintf(txt, sizeof txt, "damaged: %llu record%s lost", (unsigned long long)gp->lost,
                 gp->lost == 1 ? "" : "s");
        strip(cr, gx0, gx1, (gx0 + gx1) / 2 + 4, txt, g, dark);
        if (lay) {
            fprintf(lay, "gap %.0f %.0f %llu\n", gx0, gx1, (unsigned long long)gp->lost);
        }
    }
}

/* The losses at the window's edges: overwritten before the first record, dropped (or the rest
 * unreadable) after the last. */
static void draw_edges(cairo_t *cr, const tl_model_t *m, const tl_geom_t *g, const tl_px_t *pm, int dark)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 11);
    for (int side = 0; side < 2; side++) {
        double w = side ? g->post : g->pre;
        if (w <= 0) {
            continue;
        }
        double gx = side ? pm->xb + 4 : g->x0 + 2;
        const char *txt = side ? (m->damaged ? "damaged: rest unreadable" : "events dropped") : "overwritten";
        strip(cr, gx, gx + w - 2, gx + w / 2 + 3, txt, g, dark);
    }
}

/* Finish the picture: the PNG written, or the SVG finished and annotated. 1 ok, 0 failed (said). */
static int write_picture(tl_model_t *m, const tl_out_t *o, const char *tmp, int is_svg, const unsigned *order,
                         cairo_t *cr, cairo_surface_t *surf)
{
    cairo_status_t drawn = cairo_status(cr); /* an error stops all drawing after it */
    cairo_destroy(cr);
    int ok = drawn == CAIRO_STATUS_SUCCESS;
    if (!ok) {
        cli_error("%s: drawing the picture failed: %s", o->out, cairo_status_to_string(drawn));
    } else if (is_svg) {
        cairo_surface_finish(surf);
        ok = cairo_surface_status(surf) == CAIRO_STATUS_SUCCESS;
    } else {
        ok = cairo_surface_write_to_png(surf, tmp) == CAIRO_STATUS_SUCCESS;
    }
    cairo_surface_destroy(surf);
    if (ok && is_svg) {
        ok = svg_annotate(tmp, m, order, o->path) == 0;
    }
    if (!ok) {
        cli_error("%s: writing the picture failed", o->out);
    }
    return ok;
}

int tl_draw(tl_model_t *m, const tl_out_t *o, const char *tmp, int is_svg)
{
    unsigned order[TL_MAX_ROWS];
    tl_lanes_order(m, order);
    tl_geom_t g;
    measure(m, o, &g);
    cairo_surface_t *surf = is_svg ? cairo_svg_surface_create(tmp, g.iw, g.ih)
                                   : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, g.iw, g.ih);
    if (cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS) {
        cli_error("%s: cannot create the picture: %s", o->out, cairo_status_to_string(cairo_surface_status(surf)));
        cairo_surface_destroy(surf);
        return -1;
    }
    cairo_t *cr = cairo_create(surf);
    bg(cr, o->dark);
    cairo_paint(cr);
    tl_title(cr, m, o->path, MARGIN, MARGIN, o->dark);
    tl_legend(cr, m, MARGIN, MARGIN + TITLE_H, g.W - 2 * MARGIN, 1, o->dark);
    tl_px_t pm;
    px_map_init(&pm, m, &g);
    FILE *lay = layout_open(m, o, &g, &pm);
    draw_rows(cr, m, order, &g, &pm, lay, o->dark);
    draw_damage(cr, m, &g, &pm, lay, o->dark);
    if (lay) {
        tl_states_layout(lay, m, order);
        fclose(lay);
    }
    draw_edges(cr, m, &g, &pm, o->dark);
    return write_picture(m, o, tmp, is_svg, order, cr, surf) ? 0 : -1;
}
