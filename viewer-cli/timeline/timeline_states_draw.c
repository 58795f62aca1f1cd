/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec timeline`: drawing the task states of a kernel trace on the task lanes. Per pixel column
 * the state that covers it: running (a solid bar in its core's colour, paler when it covers the
 * column only in part), else the state covering most of it: ready (a thin hatched band), blocked
 * (a thin line; the object's name on it where the wait is wide enough), suspended (a dashed
 * line). Marker glyphs are drawn over them as on any lane. Also the SVG tooltips of the waits and
 * the --layout lines of the states. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "timeline.h"

/* Core colours: core 0 is the colour of the first span kind (a single core looks as the running
 * span did), the others avoid the ISR and interrupts-disabled colours (Tableau 10). */
static const uint32_t core_rgb[] = {0x4e79a7, 0xb07aa1, 0x76b7b2, 0x9c755f,
                                    0xff9da7, 0xedc948, 0xbab0ac, 0xe15759};
#define NCORE_RGB (sizeof core_rgb / sizeof core_rgb[0])

static void core_color(cairo_t *cr, unsigned core, int dark, double alpha)
{
    uint32_t c = core_rgb[core % NCORE_RGB];
    double r = (c >> 16) / 255.0, g = ((c >> 8) & 0xFF) / 255.0, b = (c & 0xFF) / 255.0;
    if (dark) {
        r = 0.25 + 0.75 * r;
        g = 0.25 + 0.75 * g;
        b = 0.25 + 0.75 * b;
    }
    cairo_set_source_rgba(cr, r, g, b, alpha);
}

static void grey(cairo_t *cr, int dark, double alpha)
{
    double v = dark ? 0.85 : 0.25;
    cairo_set_source_rgba(cr, v, v, v, alpha);
}

/* One state run [x0, x1) of a lane at (y, h). */
static void draw_state(cairo_t *cr, unsigned st, unsigned core, double alpha, double x0, double x1, double y,
                       double h, int dark)
{
    double w = x1 - x0, yc = floor(y + h / 2) + 0.5;
    cairo_save(cr);
    if (st == TL_ST_RUNNING) {
        core_color(cr, core, dark, alpha);
        cairo_rectangle(cr, x0, y + 3.5, w, h - 7);
        cairo_fill(cr);
    } else if (st == TL_ST_READY) {
        double by = y + floor(h * 0.3), bh = ceil(h * 0.4);
        cairo_rectangle(cr, x0, by, w, bh);
        cairo_clip_preserve(cr);
        grey(cr, dark, 0.10);
        cairo_fill(cr);
        grey(cr, dark, 0.45);
        cairo_set_line_width(cr, 1);
        for (double k = floor(x0 / 5) * 5 - bh; k < x1; k += 5) {
            cairo_move_to(cr, k, by + bh);
            cairo_line_to(cr, k + bh, by);
        }
        cairo_stroke(cr);
    } else {
        static const double dash[] = {3.0, 3.0};
        grey(cr, dark, 0.6);
        cairo_set_line_width(cr, st == TL_ST_BLOCKED ? 1.0 : 1.5);
        if (st == TL_ST_SUSPENDED) {
            cairo_set_dash(cr, dash, 2, 0);
        }
        cairo_move_to(cr, x0, yc);
        cairo_line_to(cr, x1, yc);
        cairo_stroke(cr);
    }
    cairo_restore(cr);
}

void tl_states_swatch(cairo_t *cr, unsigned st, unsigned core, double x, double y, double w, double h, int dark)
{
    draw_state(cr, st, core, 1.0, x, x + w, y - 3, h + 6, dark);
}

/* What column p of the lane shows: its state (TL_ST_COUNT: none), core and opacity. */
static unsigned column(const tl_px_t *pm, const tl_row_t *row, int p, unsigned *core, double *alpha)
{
    uint32_t b0, b1;
    tl_px_bins(pm, p, &b0, &b1);
    double cov[TL_ST_COUNT] = {0}, best = -1;
    *core = 0;
    for (uint32_t b = b0; b < b1; b++) {
        for (unsigned k = 0; k < TL_ST_COUNT; k++) {
            cov[k] += row->tb[b].cov[k];
        }
        if (row->tb[b].core != TL_NO_CORE && row->tb[b].cov[TL_ST_RUNNING] > best) {
            best = row->tb[b].cov[TL_ST_RUNNING];
            *core = row->tb[b].core;
        }
    }
    double n = b1 > b0 ? (double)(b1 - b0) : 1;
    *alpha = 1;
    if (cov[TL_ST_RUNNING] / n > 0.02) {
        double c = cov[TL_ST_RUNNING] / n;
        *alpha = round((c >= 0.9 ? 1.0 : 0.35 + 0.65 * c) * 8) / 8;
        return TL_ST_RUNNING;
    }
    *core = 0;
    unsigned st = TL_ST_COUNT;
    for (unsigned k = TL_ST_READY; k < TL_ST_COUNT; k++) {
        if (cov[k] / n > 0.02 && (st == TL_ST_COUNT || cov[k] > cov[st])) {
            st = k;
        }
    }
    return st;
}

/* The states of a task lane, as runs of columns of one look. */
static void draw_columns(cairo_t *cr, const tl_px_t *pm, const tl_row_t *row, double y, double h, int dark)
{
    int start = 0;
    unsigned st = TL_ST_COUNT, core = 0;
    double alpha = 0;
    for (int p = 0; p <= pm->npx; p++) {
        unsigned c = 0, s = TL_ST_COUNT;
        double a = 0;
        if (p < pm->npx) {
            s = column(pm, row, p, &c, &a);
        }
        if (p == pm->npx || s != st || c != core || a != alpha) {
            if (st != TL_ST_COUNT && p > start) {
                draw_state(cr, st, core, alpha, pm->xa + start, pm->xa + p, y, h, dark);
            }
            start = p;
            st = s;
            core = c;
            alpha = a;
        }
    }
}

static double x_of(const tl_px_t *pm, const tl_model_t *m, uint64_t t)
{
    return pm->xa + (double)(t - m->t_from) / (double)pm->span * (pm->xb - pm->xa);
}

/* The names of the objects of the lane's longest waits, on the line where they fit. */
static void draw_labels(cairo_t *cr, const tl_px_t *pm, tl_model_t *m, int ri, double y, double h, int dark)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, h < 24 ? h * 0.4 : 10);
    for (unsigned i = 0; i < m->st.nblocks; i++) {
        tl_block_t *b = &m->st.blocks[i];
        if (b->row != ri || b->t0 >= m->t_to) {
            continue;
        }
        b->x0 = x_of(pm, m, b->t0);
        b->x1 = x_of(pm, m, b->t1 < m->t_to ? b->t1 : m->t_to);
        b->y = y;
        b->h = h;
        cairo_text_extents_t te;
        tl_text_extents(cr, b->object, &te);
        if (b->x1 - b->x0 < te.x_advance + 16 || h < 12) {
            continue;
        }
        double tx = (b->x0 + b->x1 - te.x_advance) / 2, yc = y + h / 2;
        cairo_set_source_rgba(cr, dark ? 0.11 : 1, dark ? 0.12 : 1, dark ? 0.14 : 1, 1);
        cairo_rectangle(cr, tx - 3, yc - 6, te.x_advance + 6, 11);
        cairo_fill(cr);
        grey(cr, dark, 0.9);
        cairo_move_to(cr, tx, yc + 3.5);
        tl_show_text(cr, b->object);
        b->labelled = 1;
    }
}

void tl_states_draw(cairo_t *cr, const tl_px_t *pm, tl_model_t *m, int ri, double y, double h, int dark)
{
    const tl_row_t *row = &m->rows[ri];
    if (!m->st.sched || !row->tb) {
        return;
    }
    draw_columns(cr, pm, row, y, h, dark);
    draw_labels(cr, pm, m, ri, y, h, dark);
}

static void xml_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc((unsigned char)*s < 0x20 ? '?' : *s, f);
        }
    }
}

void tl_states_svg(FILE *f, const tl_model_t *m)
{
    if (!m->st.sched || !m->st.nblocks) {
        return;
    }
    fputs("<g id=\"evrec-task-waits\" fill=\"#000\" fill-opacity=\"0\">\n", f);
    for (unsigned i = 0; i < m->st.nblocks; i++) {
        const tl_block_t *b = &m->st.blocks[i];
        if (b->h <= 0) {
            continue; /* not drawn (outside the window) */
        }
        double w = b->x1 - b->x0 < 2 ? 2 : b->x1 - b->x0;
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>", b->x0, b->y, w, b->h);
        xml_text(f, m->rows[b->row].label);
        fputs(" blocked on ", f);
        xml_text(f, b->object);
        const char *op = evrec_reader_event_name(m->r, b->op);
        fputs(" (", f);
        xml_text(f, op ? op : "?");
        fprintf(f, "), %llu %s</title></rect>\n", (unsigned long long)(b->t1 - b->t0),
                m->ns_known ? "ns" : "ticks");
    }
    fputs("</g>\n", f);
}

void tl_states_layout(FILE *lay, const tl_model_t *m, const unsigned *order)
{
    if (!lay || !m->st.sched) {
        return;
    }
    for (unsigned k = 0; k < m->nrows; k++) {
        const tl_row_t *row = &m->rows[order[k]];
        if (row->tb) {
            fprintf(lay, "task %llu %llu %llu %llu 0x%x %s\n", (unsigned long long)row->st_time[TL_ST_RUNNING],
                    (unsigned long long)row->st_time[TL_ST_READY], (unsigned long long)row->st_time[TL_ST_BLOCKED],
                    (unsigned long long)row->st_time[TL_ST_SUSPENDED], (unsigned)row->cores, row->label);
        }
    }
    for (unsigned i = 0; i < m->st.nblocks; i++) {
        const tl_block_t *b = &m->st.blocks[i];
        if (b->h > 0) {
            fprintf(lay, "wait %.0f %.0f %d %s\t%s\n", b->x0, b->x1, b->labelled, m->rows[b->row].label,
                    b->object);
        }
    }
}
