/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec timeline`: the marker glyphs (CCore EventMarker numbering, EventRecorder.h: None = 0 ..
 * Error = 15; viewer-cli/timeline/TIMELINE.md has the table) and the palettes. */
#include <math.h>
#include <stdio.h>

#include "evrec/evrec_reader.h"
#include "timeline.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Span colours (by span kind): Tableau 10. */
static const unsigned span_rgb[10] = {0x4e79a7, 0xf28e2b, 0x59a14f, 0xb07aa1, 0x76b7b2,
                                      0xedc948, 0xe15759, 0xff9da7, 0x9c755f, 0xbab0ac};
/* Key colours (spans coloured by a key such as a frame number): neighbours differ. */
static const unsigned key_rgb[10] = {0x6fa8dc, 0xf6b26b, 0x93c47d, 0xc27ba0, 0x76a5af,
                                     0xffd966, 0xe06666, 0x8e7cc3, 0xb4a7d6, 0xa2c4c9};
/* Glyph colours (by event type): dark enough on light bars (light theme). */
static const unsigned glyph_rgb[10] = {0x1f3b73, 0xa13d00, 0x2e6b26, 0x6b2d66, 0x8b1a1a,
                                       0x1d6b66, 0x6b5300, 0xa3306b, 0x5c3d2b, 0x333333};
static const unsigned glyph_rgb_dark[10] = {0x9ecbff, 0xffb27a, 0xa8e6a1, 0xe3a8e0, 0xff9e9e,
                                            0x8fe3dc, 0xf2dc7a, 0xff9ecb, 0xd9b89c, 0xe0e0e0};

static void rgb(cairo_t *cr, unsigned c, double a)
{
    cairo_set_source_rgba(cr, ((c >> 16) & 0xFF) / 255.0, ((c >> 8) & 0xFF) / 255.0, (c & 0xFF) / 255.0, a);
}

void tl_color(cairo_t *cr, unsigned i, int dark, double alpha)
{
    if (i >= 0x8000u) {
        unsigned k = (i - 0x8000u) % 10u;
        rgb(cr, dark ? glyph_rgb_dark[k] : glyph_rgb[k], alpha);
    } else if (i >= 64) {
        rgb(cr, key_rgb[(i - 64) % 10u], alpha);
    } else {
        rgb(cr, span_rgb[i % 10u], alpha);
    }
    (void)dark;
}

static void tri(cairo_t *cr, double x, double y, double w, double h, int up)
{
    /* (x, y) = centre; base w wide, h high */
    if (up) {
        cairo_move_to(cr, x, y - h / 2);
        cairo_line_to(cr, x + w / 2, y + h / 2);
        cairo_line_to(cr, x - w / 2, y + h / 2);
    } else {
        cairo_move_to(cr, x, y + h / 2);
        cairo_line_to(cr, x + w / 2, y - h / 2);
        cairo_line_to(cr, x - w / 2, y - h / 2);
    }
    cairo_close_path(cr);
}

/* Path of glyph mk (filled shapes), or strokes for the line glyphs. Returns 1 when it stroked. */
static int glyph_path(cairo_t *cr, unsigned mk, double x, double y, double s)
{
    double h = s, w = s;
    switch (mk) {
    case EVREC_MARKER_UP: tri(cr, x, y, w, h, 1); return 0;
    case EVREC_MARKER_DOWN: tri(cr, x, y, w, h, 0); return 0;
    case EVREC_MARKER_UP_BLOCK: /* up arrow under a bar */
        tri(cr, x, y + h * 0.15, w, h * 0.7, 1);
        cairo_rectangle(cr, x - w / 2, y - h / 2, w, h * 0.2);
        return 0;
    case EVREC_MARKER_DOWN_BLOCK: /* down arrow over a bar */
        tri(cr, x, y - h * 0.15, w, h * 0.7, 0);
        cairo_rectangle(cr, x - w / 2, y + h * 0.3, w, h * 0.2);
        return 0;
    case EVREC_MARKER_UP_UP: /* two up arrows */
        tri(cr, x, y - h * 0.25, w, h * 0.5, 1);
        tri(cr, x, y + h * 0.25, w, h * 0.5, 1);
        return 0;
    case EVREC_MARKER_UP_PUSH: /* up arrow over a square */
        tri(cr, x, y - h * 0.2, w, h * 0.6, 1);
        cairo_rectangle(cr, x - w * 0.3, y + h * 0.15, w * 0.6, h * 0.35);
        return 0;
    case EVREC_MARKER_UP_UP_PUSH: /* two up arrows over a square */
        tri(cr, x, y - h * 0.36, w, h * 0.28, 1);
        tri(cr, x, y - h * 0.06, w, h * 0.28, 1);
        cairo_rectangle(cr, x - w * 0.3, y + h * 0.15, w * 0.6, h * 0.35);
        return 0;
    case EVREC_MARKER_PUSH: /* square */ cairo_rectangle(cr, x - w * 0.4, y - h * 0.4, w * 0.8, h * 0.8); return 0;
    case EVREC_MARKER_INC: /* plus */
        cairo_rectangle(cr, x - w / 2, y - h * 0.12, w, h * 0.24);
        cairo_rectangle(cr, x - w * 0.12, y - h / 2, w * 0.24, h);
        return 0;
    case EVREC_MARKER_DEC: /* minus */ cairo_rectangle(cr, x - w / 2, y - h * 0.14, w, h * 0.28); return 0;
    case EVREC_MARKER_WAIT: /* hourglass */
        cairo_move_to(cr, x - w * 0.45, y - h / 2);
        cairo_line_to(cr, x + w * 0.45, y - h / 2);
        cairo_line_to(cr, x - w * 0.45, y + h / 2);
        cairo_line_to(cr, x + w * 0.45, y + h / 2);
        cairo_close_path(cr);
        return 0;
    case EVREC_MARKER_PASS: /* right arrow */
        cairo_move_to(cr, x + w / 2, y);
        cairo_line_to(cr, x - w * 0.4, y - h / 2);
        cairo_line_to(cr, x - w * 0.4, y + h / 2);
        cairo_close_path(cr);
        return 0;
    case EVREC_MARKER_TICK: /* clock tick: ring */
        cairo_new_sub_path(cr);
        cairo_arc(cr, x, y, s * 0.45, 0, 2 * M_PI);
        cairo_new_sub_path(cr);
        cairo_arc_negative(cr, x, y, s * 0.22, 2 * M_PI, 0);
        return 0;
    case EVREC_MARKER_STOP: { /* octagon */
        for (int i = 0; i < 8; i++) {
            double a = M_PI / 8 + i * M_PI / 4;
            double px = x + cos(a) * s * 0.52, py = y + sin(a) * s * 0.52;
            i ? cairo_line_to(cr, px, py) : cairo_move_to(cr, px, py);
        }
        cairo_close_path(cr);
        return 0;
    }
    case EVREC_MARKER_ERROR: { /* thick X */
        double t = s * 0.14;
        for (int k = 0; k < 2; k++) {
            double sg = k ? -1 : 1;
            cairo_move_to(cr, x - w / 2 + t, y - sg * h / 2);
            cairo_line_to(cr, x + w / 2, y + sg * (h / 2 - t));
            cairo_line_to(cr, x + w / 2 - t, y + sg * h / 2);
            cairo_line_to(cr, x - w / 2, y - sg * (h / 2 - t));
            cairo_close_path(cr);
        }
        return 0;
    }
    default: /* None (and unknown numbers): a small diamond */
        cairo_move_to(cr, x, y - h * 0.3);
        cairo_line_to(cr, x + w * 0.3, y);
        cairo_line_to(cr, x, y + h * 0.3);
        cairo_line_to(cr, x - w * 0.3, y);
        cairo_close_path(cr);
        return 0;
    }
}

void tl_glyph(cairo_t *cr, unsigned mk, double x, double y, double s)
{
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
        return; /* cairo_get_source() of a context in error makes a pattern nobody frees */
    }
    cairo_pattern_t *src = cairo_get_source(cr);
    cairo_pattern_reference(src);
    cairo_new_path(cr);
    glyph_path(cr, mk, x, y, s);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
    if (mk == EVREC_MARKER_TICK) {
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
    }
    /* a halo keeps the glyph readable on bars of any colour */
    double r, g, b, a;
    int dark_src = cairo_pattern_get_rgba(src, &r, &g, &b, &a) == CAIRO_STATUS_SUCCESS &&
                   (0.3 * r + 0.59 * g + 0.11 * b) < 0.5;
    cairo_set_source_rgba(cr, dark_src ? 1 : 0.1, dark_src ? 1 : 0.1, dark_src ? 1 : 0.1, 0.85);
    cairo_set_line_width(cr, 1.6);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_stroke_preserve(cr);
    cairo_set_source(cr, src);
    cairo_fill(cr);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
    cairo_pattern_destroy(src);
}

void tl_glyph_table(cairo_t *cr, double x0, double y0, double cell, int dark)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, cell * 0.14);
    for (unsigned mk = 0; mk < 16; mk++) {
        double cx = x0 + (mk % 4) * cell + cell / 2, cy = y0 + (mk / 4) * cell + cell * 0.4;
        tl_color(cr, 0x8000u, dark, 1.0);
        tl_glyph(cr, mk, cx, cy, cell * 0.4);
        char name[32];
        const char *n = evrec_marker_name((uint8_t)mk);
        snprintf(name, sizeof name, "%u %s", mk, n ? n : "?");
        cairo_text_extents_t te;
        tl_text_extents(cr, name, &te);
        if (dark) {
            cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
        } else {
            cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        }
        cairo_move_to(cr, cx - te.width / 2 - te.x_bearing, y0 + (mk / 4) * cell + cell * 0.88);
        tl_show_text(cr, name);
    }
}
