/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec timeline`: the time axis (a unit chosen for the window, 1-2-5 steps), the title (file
 * name, window, counts, gaps) and the legend (span kinds, event types, marker glyphs, density,
 * gaps). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "timeline.h"

uint64_t tl_axis_step(uint64_t span, double px)
{
    double target = px / 110.0;
    if (target < 1) {
        target = 1;
    }
    double raw = (double)span / target;
    uint64_t p = 1;
    for (;;) {
        static const unsigned mult[3] = {1, 2, 5};
        for (int i = 0; i < 3; i++) {
            if ((double)(p * mult[i]) >= raw) {
                return p * mult[i];
            }
        }
        if (p > UINT64_MAX / 100) {
            return p;
        }
        p *= 10;
    }
}

/* The unit for a step: ns, us, ms, s (ticks when the clock is unknown). */
static uint64_t unit_of(uint64_t step, const char **name, int ns_known)
{
    if (!ns_known) {
        *name = "ticks";
        return 1;
    }
    if (step < 1000) {
        *name = "ns";
        return 1;
    }
    if (step < 1000000) {
        *name = "us";
        return 1000;
    }
    if (step < 1000000000) {
        *name = "ms";
        return 1000000;
    }
    *name = "s";
    return 1000000000;
}

void tl_axis_format(char *buf, size_t n, uint64_t t, uint64_t step, uint64_t ref, int ns_known)
{
    const char *un;
    uint64_t u = unit_of(step, &un, ns_known);
    /* a larger unit while `ref` (the largest number shown with this one) would have 4 digits or
     * more before the point: "5.1 ms", not "5100 us"; one unit for all labels of an axis */
    while (ns_known && u < 1000000000u && ref / u >= 1000) {
        u *= 1000;
        un = u == 1000 ? "us" : u == 1000000 ? "ms" : "s";
    }
    int dec = 0;
    for (uint64_t q = u; q > step && dec < 9; q /= 10) {
        dec++;
    }
    snprintf(buf, n, "%.*f %s", dec, (double)t / (double)u, un);
}

static void text_color(cairo_t *cr, int dark, double a)
{
    if (dark) {
        cairo_set_source_rgba(cr, 0.88, 0.88, 0.9, a);
    } else {
        cairo_set_source_rgba(cr, 0.1, 0.1, 0.12, a);
    }
}

void tl_axis_draw(cairo_t *cr, const tl_model_t *m, double x0, double x1, double ytop, double ybot, int dark)
{
    uint64_t span = m->t_to > m->t_from ? m->t_to - m->t_from : 1;
    uint64_t step = tl_axis_step(span, x1 - x0);
    const char *un;
    uint64_t u = unit_of(step, &un, m->ns_known);
    /* labels relative to the window's start when absolute ones would need over 6 digits */
    int rel = (double)m->t_from / (double)step >= 1e6;
    (void)u;
    uint64_t first = (m->t_from + step - 1) / step * step;
    if (rel) {
        first = m->t_from;
    }
    cairo_set_font_size(cr, 11);
    cairo_set_line_width(cr, 1);
    double last_label_end = -1e9;
    for (uint64_t t = first; t <= m->t_to; t += step) {
        double x = x0 + (double)(t - m->t_from) / (double)span * (x1 - x0);
        x = floor(x) + 0.5;
        text_color(cr, dark, 0.12);
        cairo_move_to(cr, x, ytop);
        cairo_line_to(cr, x, ybot);
        cairo_stroke(cr);
        text_color(cr, dark, 0.8);
        cairo_move_to(cr, x, ybot);
        cairo_line_to(cr, x, ybot + 5);
        cairo_stroke(cr);
        char lab[48];
        if (rel) {
            char tmp[40];
            tl_axis_format(tmp, sizeof tmp, t - m->t_from, step, span, m->ns_known);
            snprintf(lab, sizeof lab, "+%s", tmp);
        } else {
            tl_axis_format(lab, sizeof lab, t, step, m->t_to, m->ns_known);
        }
        cairo_text_extents_t te;
        tl_text_extents(cr, lab, &te);
        double lx = x - te.width / 2;
        if (lx > last_label_end + 6 && lx + te.width < x1 + 40) {
            cairo_move_to(cr, lx - te.x_bearing, ybot + 18);
            tl_show_text(cr, lab);
            last_label_end = lx + te.width;
        }
        if (t > UINT64_MAX - step) {
            break;
        }
    }
    text_color(cr, dark, 0.8);
    cairo_move_to(cr, x0, ybot + 0.5);
    cairo_line_to(cr, x1, ybot + 0.5);
    cairo_stroke(cr);
}

/* ---- legend: a flow of items ---- */

typedef struct flow {
    cairo_t *cr;
    double x0, x, y, w, line_h;
    int draw, dark;
} flow_t;

static void flow_space(flow_t *f, double need)
{
    if (f->x + need > f->x0 + f->w && f->x > f->x0) {
        f->x = f->x0 + 70;
        f->y += f->line_h;
    }
}

static void flow_text(flow_t *f, const char *s, double a)
{
    cairo_text_extents_t te;
    tl_text_extents(f->cr, s, &te);
    if (f->draw) {
        text_color(f->cr, f->dark, a);
        cairo_move_to(f->cr, f->x, f->y + 12);
        tl_show_text(f->cr, s);
    }
    f->x += te.x_advance + 14;
}

static void flow_heading(flow_t *f, const char *s)
{
    f->x = f->x0;
    if (f->draw) {
        cairo_select_font_face(f->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
        text_color(f->cr, f->dark, 0.9);
        cairo_move_to(f->cr, f->x, f->y + 12);
        tl_show_text(f->cr, s);
        cairo_select_font_face(f->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    }
    f->x = f->x0 + 70;
}

static double item_width(cairo_t *cr, const char *s)
{
    cairo_text_extents_t te;
    tl_text_extents(cr, s, &te);
    return 22 + te.x_advance + 14;
}

/* The "spans" line: each span kind drawn on some lane, with its colour (or the key's colours). */
static void legend_spans(flow_t *f, const tl_model_t *m)
{
    uint32_t seen_spans[8] = {0};
    for (unsigned r = 0; r < m->nrows; r++) {
        for (unsigned s = 0; s < m->rows[r].nslots; s++) {
            uint16_t d = m->rows[r].slot_desc[s];
            int as_state = m->st.sched && m->tracks->spans[d].begin.event_id == m->st.switch_in;
            if (d < 256 && !as_state) { /* a task running is in the "task states" line */
                seen_spans[d / 32] |= 1u << (d % 32);
            }
        }
    }
    int any = 0;
    for (uint32_t i = 0; m->tracks && i < m->tracks->span_count && i < 256; i++) {
        if (!(seen_spans[i / 32] & (1u << (i % 32)))) {
            continue;
        }
        if (!any) {
            flow_heading(f, "spans");
            any = 1;
        }
        char lab[160];
        const evrec_span_desc_t *d = &m->tracks->spans[i];
        int by_key = m->sp[i].by_key;
        if (by_key) {
            char path[64] = "key";
            evrec_leaf_info_t li;
            evrec_reader_leaf(m->r, d->begin.event_id, d->begin.key_leaf, &li, path, sizeof path);
            snprintf(lab, sizeof lab, "%s (colour by %s)", d->name, path);
        } else {
            snprintf(lab, sizeof lab, "%s", d->name);
        }
        flow_space(f, item_width(f->cr, lab) + (by_key ? 12 : 0));
        for (int k = 0; f->draw && k < (by_key ? 3 : 1); k++) {
            tl_color(f->cr, by_key ? 64u + (unsigned)k : i, f->dark, 1);
            cairo_rectangle(f->cr, f->x + k * 9, f->y + 3, by_key ? 9 : 18, 11);
            cairo_fill(f->cr);
        }
        f->x += by_key ? 34 : 22;
        flow_text(f, lab, 0.9);
    }
    if (any) {
        f->y += f->line_h;
    }
}

/* The "events" line: the event types seen, in their glyph colour (at most TL_MAX_LEGEND_EVENTS). */
static void legend_events(flow_t *f, const tl_model_t *m)
{
    int any = 0;
    uint32_t shown = 0, more = 0;
    for (uint32_t id = 0; id < m->meta->event_count; id++) {
        if (!m->event_seen[id]) {
            continue;
        }
        if (shown == TL_MAX_LEGEND_EVENTS) {
            more++;
            continue;
        }
        shown++;
        if (!any) {
            flow_heading(f, "events");
            any = 1;
        }
        const char *n = evrec_reader_event_name(m->r, (uint16_t)id);
        flow_space(f, item_width(f->cr, n ? n : "?"));
        if (f->draw) {
            tl_color(f->cr, 0x8000u + id, f->dark, 1);
            tl_glyph(f->cr, 0, f->x + 8, f->y + 8.5, 13);
        }
        f->x += 22;
        flow_text(f, n ? n : "?", 0.9);
    }
    if (more) {
        char lab[64];
        snprintf(lab, sizeof lab, "and %lu more event type%s", (unsigned long)more, more == 1 ? "" : "s");
        flow_space(f, item_width(f->cr, lab) - 22);
        flow_text(f, lab, 0.7);
    }
    if (any) {
        f->y += f->line_h;
    }
}

/* The "markers" line: the marker glyphs drawn. */
static void legend_markers(flow_t *f, const tl_model_t *m)
{
    int any = 0;
    for (unsigned mk = 0; mk < 16; mk++) {
        if (!(m->marker_seen & (1u << mk))) {
            continue;
        }
        if (!any) {
            flow_heading(f, "markers");
            any = 1;
        }
        const char *n = evrec_marker_name((uint8_t)mk);
        flow_space(f, item_width(f->cr, n));
        if (f->draw) {
            text_color(f->cr, f->dark, 0.85);
            tl_glyph(f->cr, mk, f->x + 8, f->y + 8.5, 11);
        }
        f->x += 22;
        flow_text(f, n, 0.9);
    }
    if (any) {
        f->y += f->line_h;
    }
}

static void legend_state_item(flow_t *f, unsigned st, unsigned core, const char *lab)
{
    flow_space(f, item_width(f->cr, lab));
    if (f->draw) {
        tl_states_swatch(f->cr, st, core, f->x, f->y + 3, 18, 11, f->dark);
    }
    f->x += 22;
    flow_text(f, lab, 0.9);
}

/* The "task states" line of a kernel trace: running (per core when several ran tasks), ready,
 * blocked, suspended; the states drawn only. */
static void legend_states(flow_t *f, const tl_model_t *m)
{
    static const char *const names[] = {"running", "ready", "blocked (on the object named)", "suspended"};
    if (!m->st.sched || !m->st.seen) {
        return;
    }
    flow_heading(f, "states");
    char lab[48];
    for (unsigned core = 0; core < 32 && m->st.cores > 1; core++) {
        if (m->st.cores & (1u << core)) {
            snprintf(lab, sizeof lab, "running on core %u", core);
            legend_state_item(f, TL_ST_RUNNING, core, lab);
        }
    }
    for (unsigned st = m->st.cores > 1 ? TL_ST_READY : TL_ST_RUNNING; st < TL_ST_COUNT; st++) {
        if (m->st.seen & (1u << st)) {
            legend_state_item(f, st, 0, names[st]);
        }
    }
    f->y += f->line_h;
}

/* The "also" line: how to read the density band and the gap strips. */
static void legend_also(flow_t *f)
{
    flow_heading(f, "also");
    const char *dens = "events too close for glyphs: density band (height ~ log count)";
    flow_space(f, item_width(f->cr, dens));
    for (int k = 0; f->draw && k < 18; k++) {
        text_color(f->cr, f->dark, 0.55);
        double hh = 3 + (k % 6) * 1.6;
        cairo_rectangle(f->cr, f->x + k, f->y + 8.5 - hh / 2, 1, hh);
        cairo_fill(f->cr);
    }
    f->x += 22;
    flow_text(f, dens, 0.9);
    const char *gap = "gap: dropped, overwritten or damaged";
    flow_space(f, item_width(f->cr, gap));
    if (f->draw) {
        tl_hatch(f->cr, f->x, f->y + 2, 18, 13, f->dark);
    }
    f->x += 22;
    flow_text(f, gap, 0.9);
    f->y += f->line_h;
}

double tl_legend(cairo_t *cr, const tl_model_t *m, double x0, double y0, double w, int draw, int dark)
{
    flow_t f = {cr, x0, x0, y0, w, 18, draw, dark};
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 12);
    legend_spans(&f, m);
    legend_events(&f, m);
    legend_markers(&f, m);
    legend_states(&f, m);
    legend_also(&f);
    return f.y - y0;
}

void tl_title(cairo_t *cr, const tl_model_t *m, const char *path, double x0, double y0, int dark)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char a[48], b[48], d[48], line[512];
    uint64_t span = m->t_to > m->t_from ? m->t_to - m->t_from : 0;
    uint64_t step = tl_axis_step(span ? span : 1, 1000);
    tl_axis_format(a, sizeof a, m->t_from, step, m->t_to, m->ns_known);
    tl_axis_format(b, sizeof b, m->t_to, step, m->t_to, m->ns_known);
    tl_axis_format(d, sizeof d, span, step, span, m->ns_known);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 15);
    text_color(cr, dark, 1);
    cairo_move_to(cr, x0, y0 + 15);
    tl_show_text(cr, base);
    cairo_text_extents_t te;
    tl_text_extents(cr, base, &te);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 13);
    unsigned lanes = 0, counters = 0;
    for (unsigned i = 0; i < m->nrows; i++) {
        *(m->rows[i].kind == TL_ROW_COUNTER ? &counters : &lanes) += 1;
    }
    if (m->records) {
        snprintf(line, sizeof line, "    window %s .. %s (%s)    %llu records, %llu spans, %u lanes, %u counters",
                 a, b, d, (unsigned long long)m->records, (unsigned long long)m->span_count, lanes, counters);
    } else {
        snprintf(line, sizeof line, "    no record in the selected window");
    }
    cairo_move_to(cr, x0 + te.x_advance, y0 + 15);
    tl_show_text(cr, line);
    /* second line: gaps and damage */
    char notes[700] = "";
    size_t k = 0;
#define NOTE(...)                                                                                                 \
    do {                                                                                                          \
        if (k < sizeof notes) {                                                                                   \
            k += (size_t)snprintf(notes + k, sizeof notes - k, k ? "   " : "");                                   \
        }                                                                                                         \
        if (k < sizeof notes) {                                                                                   \
            k += (size_t)snprintf(notes + k, sizeof notes - k, __VA_ARGS__);                                      \
        }                                                                                                         \
    } while (0)
    if (m->overwritten && m->window_has_start) {
        NOTE("%u records overwritten before the first (cyclic buffer)", (unsigned)m->overwritten);
    }
    if (m->dropped) {
        NOTE("%llu events dropped after %s (buffer full)", (unsigned long long)m->dropped,
             m->stop_seen ? "the Stop record" : "the last record");
    }
    if (m->ngaps || m->gaps_more) {
        NOTE("damaged: %llu record%s lost in %llu gap%s (hatched; the reader resumed after each)",
             (unsigned long long)m->gap_lost, m->gap_lost == 1 ? "" : "s",
             (unsigned long long)(m->ngaps + m->gaps_more), m->ngaps + m->gaps_more == 1 ? "" : "s");
    }
    if (m->damage_notes) {
        NOTE("%d damaged chunk%s lost no record", m->damage_notes, m->damage_notes == 1 ? "" : "s");
    }
    if (m->damaged) {
        NOTE("damaged: rest unreadable: %s", m->damage_text);
    }
#undef NOTE
    if (notes[0]) {
        cairo_set_source_rgb(cr, dark ? 1.0 : 0.75, dark ? 0.55 : 0.1, dark ? 0.45 : 0.05);
        cairo_move_to(cr, x0, y0 + 34);
        tl_show_text(cr, notes);
    }
}
