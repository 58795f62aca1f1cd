/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file timeline.h
 * @brief `evrec timeline`: the internal model shared by its files.
 *
 * - timeline_lanes.c: the rows of the picture (a lane per track value, per class without a VIEW,
 *   counter rows), their labels and their order;
 * - timeline_agg.c: one streaming pass over the selected records into per-row time bins (spans
 *   paired into coverage, instants counted with their first markers, counter min/max/last), the
 *   bins doubling in width when the window has no given end; memory is rows x bins;
 * - timeline_glyphs.c: the 16 marker glyphs (None and the 15 CCore markers) and the palette;
 * - timeline_axis.c: the time axis (units, 1-2-5 ticks), the title and the legend;
 * - timeline_draw.c: the picture (cairo, PNG or SVG).
 *
 * **Context:** host tool, one thread.
 */
#ifndef EVREC_TIMELINE_H
#define EVREC_TIMELINE_H

#include <cairo.h>
#include <stdint.h>

#include "evrec/evrec_reader.h"

/** Most rows a picture has; values beyond go to one "(other)" lane per group. */
#define TL_MAX_ROWS 200u
/** Size of the set of (span kind, key) pairs seen (power of 2). */
#define TL_SEEN 4096u
/** Most spans open at once (begins waiting for their end); a begin beyond is not drawn. */
#define TL_MAX_OPEN 4096u
/** Slots of the hash table of open spans (power of 2, twice TL_MAX_OPEN). */
#define TL_OPEN_SLOTS 8192u

/** Span bars per lane (span kinds beyond share the last). */
#define TL_SLOTS 3u

/** Kinds of rows. */
enum { TL_ROW_LANE = 0, TL_ROW_COUNTER = 1 };

/** Instant aggregate of one bin of one lane. */
typedef struct tl_ibin {
    uint32_t count;   /**< records in the bin */
    uint16_t ev[2];   /**< event ids of the first two */
    uint8_t mk[2];    /**< their markers */
    uint8_t pad[2];
} tl_ibin_t;

/** Span coverage of one bin of one lane. */
typedef struct tl_sbin {
    float cov;        /**< fraction of the bin covered by spans (sum over spans, may exceed 1) */
    uint16_t color;   /**< palette index of the span that covers it most (TL_NO_COLOR: none) */
    uint16_t edges;   /**< span starts in the bin (saturating) */
} tl_sbin_t;
#define TL_NO_COLOR 0xFFFFu

/** Counter values of one bin. */
typedef struct tl_cbin {
    uint32_t min, max, last;
    uint32_t has; /**< 1 when a value fell in the bin */
} tl_cbin_t;

/** One row of the picture. */
typedef struct tl_row {
    int kind;             /**< TL_ROW_LANE or TL_ROW_COUNTER */
    uint32_t group;       /**< lane group: see timeline_lanes.c */
    uint32_t value;       /**< track value (lanes) or split value (counters) */
    uint64_t first_index; /**< index of the first record seen on it (order by appearance) */
    char label[96];
    int order_class;      /**< sort class: 0 ISR, 1 tracks, 2 idle, 3 classes, 4 counters */
    uint64_t instants, spans; /**< totals drawn */
    uint32_t cmin, cmax;  /**< counter range seen */
    uint32_t counter_in;  /**< counter row: value before the window's first bin (has_in) */
    int has_in;
    tl_ibin_t *ib;        /**< lane bins (nbins) */
    tl_sbin_t *sb;        /**< span bins: TL_SLOTS x nbins (slot-major) */
    tl_cbin_t *cb;        /**< counter bins */
    unsigned nslots;      /**< span kinds on this lane, each in its own bar (slot) */
    uint16_t slot_desc[TL_SLOTS]; /**< span desc of each slot (the last is shared beyond) */
} tl_row_t;

/** Per-event facts, computed once. */
typedef struct tl_event {
    uint16_t track_leaf;       /**< EVREC_VIEW_NONE: class lane */
    uint32_t track_off;        /**< packed offset, width of the track leaf */
    uint8_t track_w;
    uint32_t group;            /**< lane group of the event's records */
    uint16_t class_id;
    int is_control;
    /* counters in this event (at most 4) */
    unsigned ncounters;
    uint16_t counter_desc[4];
    uint32_t counter_off[4];
    uint8_t counter_w[4];
    int has_split;             /**< counter rows split by a plain enum field */
    uint32_t split_off;
    uint8_t split_w;
    uint16_t split_enum;
} tl_event_t;

/** An open span. */
typedef struct tl_open {
    uint16_t desc;
    uint32_t key;
    int row;
    uint64_t t0;
    uint16_t color;
    uint8_t slot;
    uint8_t used;  /**< slot of the hash table in use */
} tl_open_t;

/** Per-span facts, computed once. */
typedef struct tl_span {
    int by_key;          /**< colour by key value (the key is not the lane) */
    int exclusive;       /**< one open at a time (TaskRunning: one CPU) */
    int excl_open;       /**< exclusive: a span is open, with key excl_key */
    uint32_t excl_key;
    int has_track;       /**< lane from the begin event's `track_leaf` */
    uint32_t track_off;
    uint8_t track_w;
    uint32_t track_group;
    uint32_t bkey_off, ekey_off, bmatch_off, ematch_off;
    uint8_t bkey_w, ekey_w, bmatch_w, ematch_w; /**< 0: none */
} tl_span_t;

/** Everything the pass gathers. */
typedef struct tl_model {
    evrec_reader_t *r;
    const evrec_meta_t *meta;
    const evrec_view_t *view;  /**< NULL: class lanes, instants only */
    tl_event_t *ev;            /**< meta->event_count entries */
    tl_span_t *sp;             /**< view->span_count entries */
    /* time: ns when the clock is known, else ticks */
    int ns_known;
    uint64_t t_from;           /**< window start (time units) */
    uint64_t t_to;             /**< window end; grows with the records when open */
    int to_fixed;              /**< --to given as a time */
    int from_fixed;
    int started;               /**< t_from known */
    uint64_t bw;               /**< bin width, time units (>= 1) */
    uint64_t bin_from;         /**< time of bin 0's start (t_from during the pass) */
    uint32_t nbins;
    uint64_t last_t;           /**< time of the last selected record */
    uint64_t first_t;
    uint64_t records;          /**< selected records */
    uint64_t per_event_any;    /**< event types seen (bitmap below) */
    uint8_t *event_seen;       /**< per event id: 1 seen in the window */
    uint16_t marker_seen;      /**< bit per marker drawn */
    tl_row_t rows[TL_MAX_ROWS];
    unsigned nrows;
    tl_open_t open[TL_OPEN_SLOTS]; /**< open spans by (span kind, key): at most one each */
    unsigned nopen;
    uint64_t seen[4096];       /**< (span, key) pairs seen in the window (hash set) */
    unsigned nseen;
    int seen_full;
    uint64_t open_dropped;     /**< begins not drawn (TL_MAX_OPEN spans were open) */
    uint64_t span_count;       /**< spans closed in the window */
    /* gaps */
    uint64_t dropped;          /**< header: events dropped after the Stop record */
    uint32_t overwritten;      /**< header: cyclic records overwritten before the first record */
    int damaged;               /**< the reader stopped on damage */
    char damage_text[400];
    int window_has_start;      /**< the window begins at the file's first record */
    int window_has_end;        /**< the window reaches the file's last record */
    uint64_t stop_t;           /**< time of the Stop record (drops follow it) */
    int stop_seen;
} tl_model_t;

/* ---- timeline_lanes.c ---- */
/** Prepare per-event facts (tracks, counters) of the reader's file. 0 ok, -1 out of memory. */
int tl_lanes_prepare(tl_model_t *m);
/** The row of (kind, group, value), created on first use (labelled); -1 when rows are full
 * and no "(other)" row can be made. */
int tl_lanes_row(tl_model_t *m, int kind, uint32_t group, uint32_t value, uint64_t index);
/** Row order for drawing: fills order[0..nrows). */
void tl_lanes_order(const tl_model_t *m, unsigned *order);
/** Read a big-endian unsigned of `w` bytes at `p`. */
static inline uint32_t tl_be(const uint8_t *p, unsigned w)
{
    return w == 1 ? p[0] : w == 2 ? (uint32_t)(p[0] << 8 | p[1])
                                  : ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
}

/* ---- timeline_agg.c ---- */
/** Set up the bins: `nbins` per row; window from/to (fixed when given). 0 ok. */
int tl_agg_init(tl_model_t *m, uint32_t nbins);
/** Take one selected record. 0 ok, -1 out of memory. */
int tl_agg_add(tl_model_t *m, const evrec_record_t *rec);
/** After the pass: close the open spans at the window's end. */
void tl_agg_finish(tl_model_t *m);
/** Free the bins. */
void tl_agg_free(tl_model_t *m);

/* ---- timeline_glyphs.c ---- */
/** Draw marker `mk`'s glyph centred at (x, y), `s` px high, in the current source color. */
void tl_glyph(cairo_t *cr, unsigned mk, double x, double y, double s);
/** Palette color `i` (cycled), light or dark theme. */
void tl_color(cairo_t *cr, unsigned i, int dark, double alpha);
/** Draw the glyph table (16 cells, 4 x 4, each `cell` px square, name below): the legend
 * picture of TIMELINE.md and of the tests. */
void tl_glyph_table(cairo_t *cr, double x0, double y0, double cell, int dark);

/* ---- timeline_axis.c ---- */
/** A tick step (1-2-5 x 10^k) for `span` time units over `px` pixels (about one per 110 px). */
uint64_t tl_axis_step(uint64_t span, double px);
/** Format time `t` (ns, or ticks when !ns_known) with the unit chosen for `step` and for `ref`,
 * the largest value formatted alongside (ns: at most 3 digits before the point). */
void tl_axis_format(char *buf, size_t n, uint64_t t, uint64_t step, uint64_t ref, int ns_known);
/** Draw the axis under the plot: ticks, labels, grid lines over the plot. */
void tl_axis_draw(cairo_t *cr, const tl_model_t *m, double x0, double x1, double ytop, double ybot,
                  int dark);
/** Height of the legend block for width `w` (layout pass) or draw it (draw = 1). */
double tl_legend(cairo_t *cr, const tl_model_t *m, double x0, double y0, double w, int draw, int dark);
/** Draw the title (file name, window, counts). */
void tl_title(cairo_t *cr, const tl_model_t *m, const char *path, double x0, double y0, int dark);

/* ---- timeline_draw.c ---- */
/** Output options. */
typedef struct tl_out {
    const char *path;     /**< input file (title) */
    const char *out;      /**< output path (.png or .svg) */
    int width, height;    /**< height 0 = by lanes */
    int dark;
    const char *layout;   /**< optional: write the layout (plot columns, rows) as text here */
} tl_out_t;
/** Render the model to `tmp` (the format of o->out). 0 ok, else -1 with errno-like message printed. */
int tl_draw(tl_model_t *m, const tl_out_t *o, const char *tmp, int is_svg);
/** Plot area's left edge for a picture `width` px wide (labels gutter), used by tests' docs. */
double tl_gutter(cairo_t *cr, const tl_model_t *m);

#endif /* EVREC_TIMELINE_H */
