/* SPDX-License-Identifier: Apache-2.0 */
/* The viewer's record pipeline (pipeline.h): open -> select -> (time order) -> losses ->
 * progress -> one sink -> safe output. */
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_reader_seek.h"
#include "export.h"
#include "pipeline.h"

/* Damage entries the reader keeps (evrec_reader_damage(): the first 1,000). */
#define DAMAGE_KEPT 1000u
/* Records read between two progress updates (and checks of a failed output). */
#define PROGRESS_EVERY 0x4000u

/* Why reading stopped before the reader's end. */
enum { GOING = 0, STOP_WINDOW, STOP_LIMIT, STOP_OUTPUT, STOP_SINK };

typedef struct pipe_run {
    const cli_pipeline_opts_t *o;
    const cli_sink_t *sink;
    void *user, *state;
    evrec_reader_t *r;
    cli_select_t *sel;
    cli_output_t file;
    int has_file;
    export_out_t out;
    cli_progress_t prog;
    uint64_t total;            /* input bytes, for the progress bar */
    uint8_t done[DAMAGE_KEPT]; /* damage entries already delivered at a gap */
    uint64_t next;             /* index after the last record read */
    cli_sink_end_t end;
    int failed;      /* a sink call failed (CLI_SINK_FAILED or CLI_SINK_REPORTED) */
    int reported;    /* ... and said so itself */
    int keep_failed; /* a sink failed but keeps what it wrote (CLI_SINK_KEEP_FAILED) */
    int stopped;     /* GOING, or why reading stopped early */
} pipe_run_t;

static int writes_losses(const pipe_run_t *p)
{
    return (p->sink->flags & CLI_SINK_WRITES_LOSSES) != 0;
}

/* A sink call's answer into the run's state; returns 1 when the run must stop. */
static int sink_answer(pipe_run_t *p, int v)
{
    if (v == CLI_SINK_FAILED || v == CLI_SINK_REPORTED) {
        p->failed = 1;
        p->reported |= v == CLI_SINK_REPORTED;
        return 1;
    }
    p->keep_failed |= v == CLI_SINK_KEEP_FAILED;
    return v == CLI_SINK_STOP || v == CLI_SINK_KEEP_FAILED;
}

static void deliver_loss(pipe_run_t *p, const cli_loss_t *l)
{
    if (writes_losses(p) && l->kind != CLI_LOSS_DAMAGE) { /* damage: the reader's error comes at the end */
        cli_error("%s: note: %llu record(s) %s%s", p->o->input, (unsigned long long)l->count,
                  l->kind == CLI_LOSS_DROPPED ? "dropped with the trace buffer full (position unknown)"
                                              : "overwritten in the cyclic buffer before the save",
                  p->sink->flags & CLI_SINK_LOSSES_NOT_KEPT ? "; a CCore stream cannot record this" : "");
    }
    if (p->sink->loss) {
        sink_answer(p, p->sink->loss(p->state, l));
    }
}

/* Damage in the middle: the loss goes before the first record read after it. */
static void gap_loss(pipe_run_t *p, const evrec_record_t *rec)
{
    uint64_t k = 0;
    const evrec_damage_t *d = cli_damage_before(p->r, rec->index, &k);
    uint64_t lost = cli_damage_lost(p->r, rec->index, p->next);
    cli_loss_t l = {CLI_LOSS_DAMAGE,
                    "damage",
                    lost,
                    rec->index - lost,
                    1,
                    d ? d->offset : rec->offset,
                    d ? d->message : "records lost to damage",
                    d ? d->status : EVREC_E_CORRUPT,
                    1};
    if (d && k < DAMAGE_KEPT) {
        p->done[k] = 1;
    }
    deliver_loss(p, &l);
}

/* The source of the sink's records: the next selected record in file order, the losses read on
 * the way delivered. An evrec_order_source_fn for time order. EVREC_E_END when the reader ended
 * intact or reading stopped (p->stopped says why). */
static evrec_status next_selected(void *ctx, evrec_record_t *rec)
{
    pipe_run_t *p = ctx;
    for (;;) {
        if (p->stopped || p->failed) {
            return EVREC_E_END;
        }
        if (cli_select_full(p->sel)) {
            p->stopped = STOP_LIMIT;
            return EVREC_E_END;
        }
        evrec_status st = writes_losses(p) ? evrec_reader_next(p->r, rec) : cli_select_next(p->sel, p->r, rec);
        if (st != EVREC_OK) {
            return st;
        }
        p->end.read++;
        p->end.last_index = rec->index;
        if ((p->end.read & (PROGRESS_EVERY - 1u)) == 0) {
            if (p->has_file && p->file.err) {
                p->stopped = STOP_OUTPUT; /* the output failed: no use reading on */
                return EVREC_E_END;
            }
            cli_progress_update(&p->prog, rec->offset, p->total);
        }
        if (p->sink->read) {
            p->sink->read(p->state, rec);
        }
        int v = cli_select_check(p->sel, rec);
        if (v == CLI_SEL_STOP) {
            p->stopped = STOP_WINDOW;
            return EVREC_E_END;
        }
        if (rec->gap) {
            gap_loss(p, rec);
        }
        p->next = rec->index + 1;
        if (v == CLI_SEL_YES) {
            return EVREC_OK;
        }
    }
}

static int deliver_record(pipe_run_t *p, const evrec_record_t *rec, uint64_t late)
{
    if (sink_answer(p, p->sink->record(p->state, rec, late))) {
        p->stopped = p->stopped ? p->stopped : STOP_SINK;
        return 0;
    }
    p->end.records++;
    return 1;
}

/* File order: returns the reader's status (EVREC_E_END also when reading stopped). */
static evrec_status run_file_order(pipe_run_t *p)
{
    evrec_record_t rec;
    evrec_status st;
    while ((st = next_selected(p, &rec)) == EVREC_OK && deliver_record(p, &rec, 0)) {
    }
    return st;
}

/* Time order through the reader's ordered iteration (*order is closed by the caller, after the
 * sink's end() has read its stats). */
static evrec_status run_time_order(pipe_run_t *p, evrec_order_t **order)
{
    uint32_t window = p->o->order_window ? p->o->order_window : EVREC_ORDER_DEFAULT_WINDOW;
    if (window > EVREC_ORDER_MAX_WINDOW) {
        window = EVREC_ORDER_MAX_WINDOW;
    }
    evrec_status st = evrec_order_create_source(order, window, next_selected, p);
    evrec_record_t rec;
    uint64_t late = 0;
    while (st == EVREC_OK && (st = evrec_order_next(*order, &rec, &late)) == EVREC_OK) {
        if (!deliver_record(p, &rec, late)) {
            break;
        }
    }
    if (st == EVREC_E_NOMEM || st == EVREC_E_ARG) {
        p->end.order_status = st;
        return EVREC_OK;
    }
    p->end.order = *order ? evrec_order_stats(*order) : NULL;
    return st;
}

/* How the stream ended, from what reading returned (see cli_sink_end_t::status). */
static evrec_status final_status(const pipe_run_t *p, evrec_status st)
{
    if (p->end.order_status != EVREC_OK || p->failed) {
        return EVREC_OK;
    }
    if (p->stopped) {
        /* Export writers: past the window, the damage read before it still counts. */
        st = writes_losses(p) && p->stopped == STOP_WINDOW ? EVREC_E_END : EVREC_OK;
    }
    int past = writes_losses(p) ? st == EVREC_E_END
                                : (p->sink->flags & CLI_SINK_DAMAGE_PAST_STOP) && st == EVREC_OK;
    if (past && evrec_reader_damage_count(p->r)) {
        st = evrec_reader_error(p->r)->status; /* the selection ended after damage it read past */
    }
    return st;
}

/* The losses known at the end: the damaged ranges not delivered at a gap (the one the reader
 * stopped at: count unknown, where it stopped; those that lost no record: count 0, position
 * unknown), then the records dropped with the buffer full. */
static void end_losses(pipe_run_t *p)
{
    evrec_status st = p->end.status;
    if (st != EVREC_OK && st != EVREC_E_END) {
        const evrec_damage_t *d;
        uint64_t n = 0;
        for (uint64_t i = 0; (d = evrec_reader_damage(p->r, i)) != NULL; i++, n++) {
            if (i < DAMAGE_KEPT && p->done[i]) {
                continue;
            }
            int none = d->records_lost == 0;
            cli_loss_t l = {CLI_LOSS_DAMAGE, "damage", 0, p->next, !none, d->offset, d->message, d->status, none};
            deliver_loss(p, &l);
        }
        if (n == 0) { /* a reader that kept no list: its sticky error */
            const evrec_reader_error_t *e = evrec_reader_error(p->r);
            cli_loss_t l = {CLI_LOSS_DAMAGE, "damage", 0, p->next, 1, e->offset, e->message, e->status, 0};
            deliver_loss(p, &l);
        }
    }
    const evrec_file_info_t *fi = evrec_reader_info(p->r);
    if (fi->format == EVREC_FILE_CONTAINER && fi->dropped) {
        cli_loss_t l = {CLI_LOSS_DROPPED, "dropped", fi->dropped, p->next, 0, 0, NULL, EVREC_OK, 1};
        deliver_loss(p, &l);
    }
}

static void clock_note(const pipe_run_t *p)
{
    if (p->sink->no_clock_note && evrec_reader_time_freq(p->r, NULL) == 0) {
        cli_error("%s: note: time_freq is 0 and fewer than 2 ticks were recorded: %s", p->o->input,
                  p->sink->no_clock_note);
    }
}

/* Open the input, compile the selection, open the output, begin the sink. -1 when ready, else
 * the exit code (everything opened is closed again). */
static int start(pipe_run_t *p)
{
    static const cli_select_spec_t everything;
    const cli_pipeline_opts_t *o = p->o;
    if (!(p->r = cli_open_reader(o->input, &o->clock))) {
        return CLI_BAD_INPUT;
    }
    if (o->clock_note_first) {
        clock_note(p);
    }
    int rc = cli_select_compile(o->cmd, o->select ? o->select : &everything, p->r, &p->sel);
    if (rc < 0 && !o->clock_note_first) {
        clock_note(p);
    }
    if (rc < 0 && o->output && !(p->has_file = cli_output_open(&p->file, o->output))) {
        rc = CLI_BAD_INPUT;
    }
    if (rc < 0) {
        cli_sink_info_t info = {o->input,
                                p->r,
                                evrec_reader_meta(p->r),
                                evrec_reader_info(p->r),
                                evrec_reader_time_freq(p->r, NULL),
                                o->reorder_window};
        p->out.file = p->has_file ? &p->file : NULL;
        if (!(p->state = p->sink->begin(p->user, o->output ? &p->out : NULL, &info))) {
            rc = CLI_BAD_INPUT;
        }
    }
    if (rc >= 0) {
        if (p->has_file) {
            cli_output_abort(&p->file);
        }
        free(p->out.p);
        cli_select_free(p->sel);
        evrec_reader_close(p->r);
    }
    return rc;
}

/* End the sink, then commit the output (or give it up). Returns the exit code so far. */
static int finish(pipe_run_t *p)
{
    uint64_t bad = p->sink->invalid_utf8 ? p->sink->invalid_utf8(p->state) : 0;
    if (bad) {
        cli_error("%s: note: %llu invalid UTF-8 sequence(s) in names written as U+FFFD", p->o->input,
                  (unsigned long long)bad);
    }
    (void)cli_report_index_warning(p->o->input, p->r); /* a seek found it wrong */
    p->end.abandoned = p->failed || (p->has_file && p->file.err);
    sink_answer(p, p->sink->end(p->state, &p->end));
    int result = CLI_OK;
    if (!p->has_file) {
        result = cli_stdout_done(1) && !p->failed ? CLI_OK : CLI_BAD_INPUT;
    } else if (p->failed) {
        if (!p->reported) {
            cli_error("%s: the %s export failed: %s left as it was", p->o->input, p->sink->name, p->o->output);
        }
        cli_output_abort(&p->file);
        p->end.output_failed = 1;
        result = CLI_BAD_INPUT;
    } else {
        export_out_flush(&p->out);
        p->end.output_failed = !cli_output_commit(&p->file);
        result = p->end.output_failed ? CLI_BAD_INPUT : CLI_OK;
    }
    free(p->out.p);
    return p->keep_failed ? CLI_BAD_INPUT : result;
}

int cli_pipeline_run(const cli_pipeline_opts_t *o, const cli_sink_t *sink, void *user)
{
    pipe_run_t *p = calloc(1, sizeof *p);
    if (!p) {
        cli_error("out of memory");
        return CLI_BAD_INPUT;
    }
    *p = (pipe_run_t){.o = o, .sink = sink, .user = user};
    int rc = start(p);
    if (rc >= 0) {
        free(p);
        return rc;
    }
    p->total = evrec_reader_info(p->r)->file_size;
    cli_progress_begin(&p->prog, o->progress, o->progress_what ? o->progress_what : "evrec");
    const evrec_file_info_t *fi = evrec_reader_info(p->r);
    if ((fi->flags & 1u) && fi->overwritten) {
        cli_loss_t l = {CLI_LOSS_OVERWRITTEN, "overwritten", fi->overwritten, 0, 1, 0, NULL, EVREC_OK, 1};
        deliver_loss(p, &l);
    }
    evrec_order_t *order = NULL;
    int ordered = o->time_order || (sink->flags & CLI_SINK_TIME_ORDER);
    evrec_status st = ordered ? run_time_order(p, &order) : run_file_order(p);
    cli_progress_end(&p->prog);
    p->end.limit_hit = cli_select_full(p->sel);
    p->end.stopped = p->stopped != GOING;
    p->end.status = final_status(p, st);
    end_losses(p);
    int damaged = p->end.status != EVREC_OK && p->end.status != EVREC_E_END;
    int report_first = (sink->flags & CLI_SINK_REPORT_FIRST) != 0;
    if (damaged && report_first) {
        cli_report_reader_error(o->input, p->r);
    }
    int result = finish(p);
    evrec_order_close(order);
    p->end.order = NULL;
    if (damaged && !report_first) {
        cli_report_reader_error(o->input, p->r);
    }
    result = damaged ? CLI_BAD_INPUT : result;
    if (sink->summary) {
        sink->summary(user, &p->end, result);
    }
    cli_select_free(p->sel);
    evrec_reader_close(p->r);
    free(p);
    return result;
}
