/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file timeline.h
 * @brief `evrec timeline`: the internal model shared by its files.
 *
 * - timeline_lanes.c: the rows of the picture (a lane per track value, per class without a TRACKS,
 *   counter rows), their labels and their order;
 * - timeline_agg.c: one streaming pass over the selected records into per-row time bins (spans
 *   paired into coverage, instants counted with their first markers, counter min/max/last), the
 *   bins doubling in width when the window has no given end; memory is rows x bins;
 * - timeline_glyphs.c: the 16 marker glyphs (None and the 15 CCore markers) and the palette;
 * - timeline_axis.c: the time axis (units, 1-2-5 ticks), the title and the legend;
 * - timeline_states.c: the task states of a kernel trace (evrec_sched) into the task lanes' bins;
 * - timeline_states_draw.c: drawing them (running per core, ready, blocked, suspended), the
 *   labels of long waits, their SVG tooltips and their --layout lines;
 * - timeline_draw.c: the picture (cairo, PNG or SVG).
 *
 * **Context:** host tool, one thread.
 */
#ifndef EVREC_TIMELINE_H
#define EVREC_TIMELINE_H

#include <cairo.h>
#include <stdint.h>
#include <stdio.h>

#include "evrec/evrec_analysis.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_sched.h"

/** Most rows a picture has; values beyond go to one "(other)" lane per group. */
#define TL_MAX_ROWS 200u
/** Most event types named in the legend (and in the SVG metadata), in id order; the rest are
 * counted in one "and N more event types" item, so the legend stays a few lines high whatever
 * the number of event types recorded. */
#define TL_MAX_LEGEND_EVENTS 200u
/** Most pixels the rows take when no --height is given (100 lanes at their full 30 px); more rows
 * are scaled to fit, as with --height, so the picture stays a few thousand pixels high. */
#define TL_AUTO_ROWS_H 3000.0
/** Size of the set of (span kind, key) pairs seen (power of 2). */
#define TL_SEEN 4096u

/** Span bars per lane (span kinds beyond share the last). */
#define TL_SLOTS 3u

/** Kinds of rows. */
enum { TL_ROW_LANE = 0, TL_ROW_COUNTER = 1 };

/** Instant aggregate of one bin of one lane. */
typedef struct tl_ibin {
    uint32_t count; /**< records in the bin */
    uint16_t ev[2]; /**< event ids of the first two */
    uint8_t mk[2];  /**< their markers */
    uint8_t pad[2];
} tl_ibin_t;

/** Span coverage of one bin of one lane. */
typedef struct tl_sbin {
    float cov;      /**< fraction of the bin covered by spans (sum over spans, may exceed 1) */
    uint16_t color; /**< palette index of the span that covers it most (TL_NO_COLOR: none) */
    uint16_t edges; /**< span starts in the bin (saturating) */
} tl_sbin_t;
#define TL_NO_COLOR 0xFFFFu

/** Task states drawn on a task lane (kernel traces). */
enum { TL_ST_RUNNING = 0, TL_ST_READY, TL_ST_BLOCKED, TL_ST_SUSPENDED, TL_ST_COUNT };
/** Task-state coverage of one bin of one task lane. */
typedef struct tl_tbin {
    float cov[TL_ST_COUNT]; /**< fraction of the bin in each state */
    uint16_t core;          /**< the core that ran the task most in the bin (TL_NO_CORE: none) */
    uint16_t pad;
} tl_tbin_t;
#define TL_NO_CORE 0xFFFFu

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
    int order_class;          /**< sort class: 0 ISR, 1 tracks, 2 idle, 3 classes, 4 counters */
    uint64_t instants, spans; /**< totals drawn */
    uint32_t cmin, cmax;      /**< counter range seen */
    uint32_t counter_in;      /**< counter row: value before the window's first bin (has_in) */
    int has_in;
    tl_ibin_t *ib;   /**< lane bins (nbins) */
    tl_sbin_t *sb;   /**< span bins: TL_SLOTS x nbins (slot-major); NULL until a span is drawn on the lane */
    tl_cbin_t *cb;   /**< counter bins */
    unsigned nslots; /**< span kinds on this lane, each in its own bar (slot) */
    uint16_t slot_desc[TL_SLOTS];  /**< span desc of each slot (the last is shared beyond) */
    tl_tbin_t *tb;                 /**< task-state bins (kernel traces, task lanes), or NULL */
    uint64_t st_time[TL_ST_COUNT]; /**< time in each state within the window (time units) */
    uint32_t cores;                /**< bit per core (< 32) the task ran on in the window */
} tl_row_t;

/** Per-event facts, computed once. */
typedef struct tl_event {
    uint16_t track_leaf; /**< EVREC_TRACKS_NONE: class lane */
    uint32_t track_off;  /**< packed offset, width of the track leaf */
    uint8_t track_w;
    uint32_t group; /**< lane group of the event's records */
    uint16_t class_id;
    int is_control;
    /* counters in this event (at most 4) */
    unsigned ncounters;
    uint16_t counter_desc[4];
    uint32_t counter_off[4];
    uint8_t counter_w[4];
    /* each counter's series field (evrec_meta_counter_series_leaf()): one row per value */
    uint32_t split_off[4];
    uint8_t split_w[4];     /**< 0: no series field (one row) */
    uint16_t split_enum[4]; /**< its enum, when split_is_enum */
    uint8_t split_is_enum[4];
} tl_event_t;

/** Per-span drawing facts, computed once (the pairing is evrec_spans_t's). */
typedef struct tl_span {
    int by_key;    /**< colour by key value (the key is not the lane) */
    int has_track; /**< the span has its own track field: lanes of group track_group */
    uint32_t track_group;
} tl_span_t;

/** Everything the pass gathers. */
/** Damaged ranges in the middle of a file drawn as gap strips (more are counted in gaps_more). */
#define TL_MAX_GAPS 64u

/** @brief Records lost to damage between two records the reader returned (a gap strip). */
typedef struct tl_gap {
    uint64_t t0;   /**< time of the last record before the gap (ns or ticks, as the model) */
    uint64_t t1;   /**< time of the first record after it */
    uint64_t lost; /**< records lost */
} tl_gap_t;

/** Most waits on named objects kept for their labels and SVG tooltips (the longest). */
#define TL_MAX_BLOCKS 256u

/** A task blocked on a named object (a label when wide enough; an SVG tooltip). */
typedef struct tl_block {
    int row;             /**< its task lane */
    uint64_t t0, t1;     /**< clipped to the window (time units) */
    const char *object;  /**< the object's name (reader-owned) */
    uint16_t op;         /**< the event id of its Block record (MutexOp, SemOp ...) */
    double x0, x1, y, h; /**< where it was drawn (tl_draw), px; h 0: not drawn */
    int labelled;        /**< its object's name was written on it */
} tl_block_t;

/** The task-state part of the model (timeline_states.c); sched NULL: not a kernel trace. */
typedef struct tl_states {
    evrec_sched_t *sched;
    uint16_t switch_in;  /**< TaskSwitchIn's event id */
    uint32_t task_group; /**< the lane group of the task lanes */
    uint16_t prio_id[2]; /**< TaskCreate, TaskPriority (UINT16_MAX: absent) */
    uint32_t prio_task_off[2], prio_off[2];
    int prio_low_first; /**< a smaller priority number is the more important task */
    struct {
        uint32_t task, prio;
    } prio[TL_MAX_ROWS]; /**< the first priority recorded per task */
    unsigned nprio;
    uint32_t cores; /**< bit per core seen running a task */
    unsigned seen;  /**< bit per state drawn */
    tl_block_t blocks[TL_MAX_BLOCKS];
    unsigned nblocks;
    int nomem;
} tl_states_t;

typedef struct tl_model {
    evrec_reader_t *r;
    const evrec_meta_t *meta;
    const evrec_tracks_t *tracks; /**< NULL: class lanes, instants only */
    tl_event_t *ev;               /**< meta->event_count entries */
    tl_span_t *sp;                /**< tracks->span_count entries */
    /* time: ns when the clock is known, else ticks */
    int ns_known;
    uint64_t t_from; /**< window start (time units) */
    uint64_t t_to;   /**< window end; grows with the records when open */
    int to_fixed;    /**< --to given as a time */
    int from_fixed;
    int started;       /**< t_from known */
    uint64_t bw;       /**< bin width, time units (>= 1) */
    uint64_t bin_from; /**< time of bin 0's start (t_from during the pass) */
    uint32_t nbins;
    uint64_t last_t; /**< time of the last selected record */
    uint64_t first_t;
    uint64_t records;       /**< selected records */
    uint64_t per_event_any; /**< event types seen (bitmap below) */
    uint8_t *event_seen;    /**< per event id: 1 seen in the window */
    uint16_t marker_seen;   /**< bit per marker drawn */
    tl_row_t rows[TL_MAX_ROWS];
    unsigned nrows;
    evrec_spans_t *pair; /**< the spans' pairing (evrec_analysis.h), NULL without spans */
    int cur_lane;        /**< lane of the record being paired (an end without a begin's) */
    uint64_t t_end;      /**< where spans open at the end are drawn to (tl_agg_finish()) */
    uint64_t seen[4096]; /**< (span, key) pairs seen in the window (hash set) */
    unsigned nseen;
    int seen_full;
    uint64_t span_count; /**< spans drawn in the window */
    /* gaps */
    uint64_t dropped;     /**< header: events dropped after the Stop record */
    uint32_t overwritten; /**< header: cyclic records overwritten before the first record */
    int damaged;          /**< the reader stopped on damage (the rest is unreadable) */
    char damage_text[400];
    int damage_notes;           /**< damaged ranges that lost no record (a display-only chunk ...) */
    tl_gap_t gaps[TL_MAX_GAPS]; /**< damaged ranges the reader resumed after, in time order */
    unsigned ngaps;
    uint64_t gaps_more;   /**< gaps beyond TL_MAX_GAPS (not drawn) */
    uint64_t gap_lost;    /**< records lost in all the gaps */
    uint64_t read_last_t; /**< time of the last record read (selected or not) */
    int read_any;
    int after_gap;        /**< a gap was met: orphan ends are drawn from its end, not t_from */
    uint64_t orphan_from; /**< where an end that closes nothing is drawn from */
    uint64_t orphan_rec;  /**< index + 1 of the last record drawn as an end that closed nothing (0: none) */
    int window_has_start; /**< the window begins at the file's first record */
    int window_has_end;   /**< the window reaches the file's last record */
    uint64_t stop_t;      /**< time of the Stop record (drops follow it) */
    int stop_seen;
    /** Introspection (tests): called once per span drawn, cut, left open at the end or drawn
     * from the window's start (an end without its begin), with what it was paired with. NULL in
     * the tool. */
    evrec_span_fn span_hook;
    void *span_hook_ctx;
    tl_states_t st; /**< task states (kernel traces) */
} tl_model_t;

/* ---- timeline_lanes.c ---- */
/**
 * @brief Compute the per-event facts of the reader's file (track leaf, lane group, counter leaves,
 * counter split field) into m->ev and allocate m->event_seen (both freed by tl_agg_free()).
 * @param m a model with `r`, `meta` and `tracks` set.
 * @retval 0 done. @retval -1 out of memory.
 * **Context:** one thread.
 */
int tl_lanes_prepare(tl_model_t *m);
/**
 * @brief The row of (kind, group, value), created on first use: labelled, given its sort class and
 * `nbins` zeroed bins. When TL_MAX_ROWS - 1 rows exist, further values share one "(other lanes)"
 * row.
 * @param index the index of the record that asks (first appearance order).
 * @return the row's index in m->rows, or -1 when its bins cannot be allocated.
 * **Context:** one thread.
 */
int tl_lanes_row(tl_model_t *m, int kind, uint32_t group, uint32_t value, uint64_t index);
/**
 * @brief The drawing order of the rows, top to bottom: interrupt lanes, track lanes (task lanes
 * of known priority first, the more important first: tl_states_priority()) by first appearance,
 * the idle lane, class lanes, counter rows.
 * @param[out] order m->nrows row indices (caller's array of at least TL_MAX_ROWS).
 * **Context:** one thread (uses a static for qsort).
 */
void tl_lanes_order(const tl_model_t *m, unsigned *order);
/** @brief Read a big-endian unsigned of `w` (1, 2 or 4) bytes at `p`. **Context:** pure. */
static inline uint32_t tl_be(const uint8_t *p, unsigned w)
{
    return w == 1   ? p[0]
           : w == 2 ? (uint32_t)(p[0] << 8 | p[1])
                    : ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
}

/* ---- timeline_agg.c ---- */
/**
 * @brief Prepare the pass: `nbins` bins per row (a power of two), bin width 1 time unit (sized at
 * the first record when the window's end is fixed), the spans' leaves (m->sp, freed by
 * tl_agg_free()). Call after tl_lanes_prepare().
 * @retval 0 done. @retval -1 out of memory.
 * **Context:** one thread.
 */
int tl_agg_init(tl_model_t *m, uint32_t nbins);
/**
 * @brief Take one selected record: its instant on its lane, the spans it opens or closes, its
 * counter values. Time is rec->ns when the clock is known, else rec->t64 (ticks).
 * @param[in] rec a record of m->r (read only during the call).
 * @retval 0 done (also when a row could not be made: the record is then not drawn).
 * **Context:** one thread. Constant time per record but for a doubling of the bins (rows x nbins).
 */
int tl_agg_add(tl_model_t *m, const evrec_record_t *rec);
/**
 * @brief Take one record read, selected or not, before tl_agg_add(): when it has
 * evrec_record_t::gap set (records lost to damage before it, `lost` of them) a gap strip is kept
 * from the last record read to this one, the spans open then are cut at the last record (drawn up
 * to it, never paired across the gap), and an end after the gap that closes nothing is drawn
 * from the gap's end. Then notes the record's time as the last read.
 * **Context:** one thread. Constant time but for a gap (O(open spans)).
 */
void tl_agg_read(tl_model_t *m, const evrec_record_t *rec, uint64_t lost);
/** @brief After the pass: fix the window's end (the last record unless --to), draw the spans
 * still open up to it. **Context:** one thread. */
void tl_agg_finish(tl_model_t *m);
/** @brief Free everything the model allocated (bins, per-event and per-span facts); not the model
 * itself, not the reader. **Context:** one thread. */
void tl_agg_free(tl_model_t *m);

/** @brief The bin of time t (clamped to the bins; grows their reach when the window's end is
 * open). **Context:** one thread. */
uint32_t tl_agg_bin(tl_model_t *m, uint64_t t);

/* ---- timeline_states.c ---- */
/** @brief After tl_lanes_prepare(): the task-state model when the file is a kernel trace (else
 * nothing). @retval 0 done. @retval -1 out of memory. **Context:** one thread. */
int tl_states_prepare(tl_model_t *m);
/** @brief One record read (selected or not, in file order): priorities, the task-state model;
 * the intervals it ends go into the task lanes. **Context:** one thread. */
void tl_states_read(tl_model_t *m, const evrec_record_t *rec);
/** @brief At tl_agg_finish(): the intervals still open, drawn to the window's end. */
void tl_states_finish(tl_model_t *m);
/** @brief The lane-order rank of a task lane by its priority (smaller first); 0 when unknown. */
int tl_states_priority(const tl_model_t *m, const tl_row_t *row, long *rank);
/** @brief Bins a and b merged into o (coarsening). **Context:** pure. */
void tl_states_merge(tl_tbin_t *o, const tl_tbin_t *a, const tl_tbin_t *b);
/** @brief Free the task-state model (not the bins: tl_agg_free()). */
void tl_states_free(tl_model_t *m);

/* ---- timeline_glyphs.c ---- */
/**
 * @brief Draw the glyph of marker `mk` (0..15, CCore EventMarker numbering; others as None)
 * centred at (x, y), `s` px high and wide, filled with the current source colour and outlined
 * with a thin halo of the opposite brightness. **Context:** one thread (the cairo context's).
 */
void tl_glyph(cairo_t *cr, unsigned mk, double x, double y, double s);

/* cairo_show_text() / cairo_text_extents() of `s` as valid UTF-8 (timeline_text.c): each byte
 * that starts no valid character becomes U+FFFD, so that a name from a file cannot put the
 * context into cairo's error state. */
void tl_show_text(cairo_t *cr, const char *s);
void tl_text_extents(cairo_t *cr, const char *s, cairo_text_extents_t *te);
/**
 * @brief Set the source colour: `i` < 64 a span kind (Tableau 10, cycled), 64..0x7FFF a key
 * value (i - 64, cycled over 10 colours), >= 0x8000 an event type's glyph colour (i - 0x8000;
 * lighter in the dark theme). @param alpha 0..1. **Context:** one thread.
 */
void tl_color(cairo_t *cr, unsigned i, int dark, double alpha);
/**
 * @brief Draw the table of the 16 marker glyphs, 4 x 4 cells of `cell` px from (x0, y0), each
 * with "N Name" under its glyph (the picture of TIMELINE.md and of the tests). **Context:** one thread.
 */
void tl_glyph_table(cairo_t *cr, double x0, double y0, double cell, int dark);

/* ---- timeline_axis.c ---- */
/** @brief The tick step, 1, 2 or 5 x 10^k time units, for `span` units over `px` pixels (about
 * one tick per 110 px); at least 1. **Context:** pure. */
uint64_t tl_axis_step(uint64_t span, double px);
/**
 * @brief Format time `t` (ns, or ticks when !ns_known) as "503.9 ms": the unit is chosen for
 * `step`, then made larger while `ref` (the largest value formatted alongside) would have 4 or
 * more digits before the point; decimals as `step` needs. @param[out] buf `n` bytes, NUL-terminated.
 * **Context:** pure.
 */
void tl_axis_format(char *buf, size_t n, uint64_t t, uint64_t step, uint64_t ref, int ns_known);
/** @brief Draw the time axis at `ybot` under the plot [x0, x1] (m->t_from at x0, m->t_to at x1):
 * grid lines from `ytop`, ticks, labels that do not overlap. **Context:** one thread. */
void tl_axis_draw(cairo_t *cr, const tl_model_t *m, double x0, double x1, double ytop, double ybot, int dark);
/**
 * @brief The legend (spans seen, event types seen with their glyph colour, markers seen, density
 * and gap keys), flowed into width `w` from (x0, y0).
 * @param draw 0: only measure; 1: draw. @return its height, px. **Context:** one thread.
 */
double tl_legend(cairo_t *cr, const tl_model_t *m, double x0, double y0, double w, int draw, int dark);
/** @brief Draw the title at (x0, y0): file name (last component of `path`), window, counts; a
 * second line in red with the gaps (overwritten, dropped, damage, spans not drawn). **Context:** one thread. */
void tl_title(cairo_t *cr, const tl_model_t *m, const char *path, double x0, double y0, int dark);

/* ---- timeline_draw.c ---- */
/** Where the window is drawn: plot x of t_from and t_to, the pixel columns. */
typedef struct tl_px {
    double xa, xb; /**< plot x of t_from and t_to */
    uint64_t span; /**< t_to - t_from (>= 1) */
    const tl_model_t *m;
    int npx;
} tl_px_t;
/** @brief The bins [*b0, *b1) of pixel column p (a bin goes to the column holding its centre
 * when it is wider than a column). **Context:** pure. */
void tl_px_bins(const tl_px_t *pm, int p, uint32_t *b0, uint32_t *b1);

/* ---- timeline_states_draw.c ---- */
/** @brief Draw the states of row `ri` (a task lane of a kernel trace; else nothing) at (y, h) and
 * the names of its longest waits where they fit (their places kept for tl_states_svg()). */
void tl_states_draw(cairo_t *cr, const tl_px_t *pm, tl_model_t *m, int ri, double y, double h, int dark);
/** @brief A legend swatch of state `st` (running on `core`) in the box (x, y, w, h). */
void tl_states_swatch(cairo_t *cr, unsigned st, unsigned core, double x, double y, double w, double h, int dark);
/** @brief The SVG tooltips of the waits drawn: transparent rectangles with a <title>. */
void tl_states_svg(FILE *f, const tl_model_t *m);
/** @brief The --layout lines: `task RUN READY BLOCKED SUSPENDED CORES LABEL` per task lane (time
 * units in the window; CORES a bit mask), `wait X0 X1 LABELLED LANE<TAB>OBJECT` per wait kept. */
void tl_states_layout(FILE *lay, const tl_model_t *m, const unsigned *order);
/** Output options. */
typedef struct tl_out {
    const char *path;   /**< input file (title) */
    const char *out;    /**< output path (.png or .svg), for messages */
    int width, height;  /**< px; height 0 = by the number of rows */
    int dark;           /**< dark background */
    const char *layout; /**< optional: write the layout (plot columns, rows) as text here */
} tl_out_t;
/**
 * @brief Render the model (after tl_agg_finish()) into the file `tmp`: a PNG image surface, or an
 * SVG surface followed by the lanes-and-legend metadata. Writes o->layout when given.
 * @retval 0 written. @retval -1 cairo or the file failed (the message is printed; `tmp` is left
 * for the caller to remove).
 * **Context:** one thread.
 */
int tl_draw(tl_model_t *m, const tl_out_t *o, const char *tmp, int is_svg);
/** @brief The plot's left edge, px: the margin plus the widest row label (at most 220 px).
 * **Context:** one thread. */
double tl_gutter(cairo_t *cr, const tl_model_t *m);
/** @brief Fill the rectangle with the hatch of a gap (diagonal lines on a light tint).
 * **Context:** one thread. */
void tl_hatch(cairo_t *cr, double x, double y, double w, double h, int dark);

#endif /* EVREC_TIMELINE_H */
