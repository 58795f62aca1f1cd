/* SPDX-License-Identifier: Apache-2.0 */
/* The `loss` table: what a file does not have, never silently absent: the header's drops and
 * overwritten records (per lane too), every damaged range the reader skipped, and the error that
 * ended a file early when no range lists it. */
#include "sql_derived.h"

/* A row of kind `kind` with a count, for a lane or the whole file (lane < 0). */
static void loss_count(sql_pump_t *p, const char *kind, int64_t lane, uint64_t count)
{
    sql_val_t *v = count ? sql_pump_row(p) : NULL;
    if (v) {
        sql_set_text(&v[1], kind);
        if (lane >= 0) {
            sql_set_int(&v[2], lane);
        }
        sql_set_u64(&v[3], count);
    }
}

static void loss_damage(sql_pump_t *p, const char *kind, evrec_status st, uint64_t off, uint64_t len,
                        uint64_t lost, uint64_t after, const char *msg)
{
    sql_val_t *v = sql_pump_row(p);
    if (!v) {
        return;
    }
    sql_set_text(&v[1], kind);
    sql_set_u64(&v[4], off);
    sql_set_u64(&v[5], len);
    if (lost != UINT64_MAX) {
        sql_set_u64(&v[3], lost);
        sql_set_u64(&v[6], lost);
    }
    if (after != UINT64_MAX) {
        sql_set_u64(&v[7], after);
    }
    sql_set_text(&v[8], evrec_strerror(st));
    sql_set_text(&v[9], msg);
}

static void loss_finish(sql_pump_t *p)
{
    const evrec_file_info_t *in = evrec_reader_info(p->r);
    loss_count(p, "dropped", -1, in->dropped);
    loss_count(p, "overwritten", -1, in->overwritten);
    for (uint32_t k = 0; in->lanes > 1 && k < in->lanes; k++) {
        evrec_lane_info_t li;
        if (evrec_reader_lane(p->r, k, &li) == EVREC_OK) {
            loss_count(p, "lane_dropped", k, li.dropped);
            loss_count(p, "lane_overwritten", k, li.overwritten);
        }
    }
    uint64_t n = evrec_reader_damage_count(p->r);
    for (uint64_t i = 0; i < n; i++) {
        const evrec_damage_t *d = evrec_reader_damage(p->r, i);
        if (!d) {
            loss_count(p, "damaged_unlisted", -1, n - i);
            break;
        }
        loss_damage(p, "damaged", d->status, d->offset, d->length, d->records_lost, d->index_after, d->message);
    }
    const evrec_reader_error_t *e = evrec_reader_error(p->r);
    if (e->status != EVREC_OK && e->status != EVREC_E_END && n == 0) {
        loss_damage(p, e->status == EVREC_E_TRUNCATED ? "truncated" : "error", e->status, e->offset, 0, UINT64_MAX,
                    UINT64_MAX, e->message);
    }
}

const sql_derived_def_t sql_table_loss = {
    .name = "loss",
    .columns = "kind TEXT, lane INTEGER, count INTEGER, offset INTEGER, length INTEGER, records_lost INTEGER, "
               "index_after INTEGER, status TEXT, message TEXT",
    .reads_records = 1,
    .begin = sql_derived_no_begin,
    .add = sql_derived_no_add,
    .finish = loss_finish,
    .end = sql_derived_free_state,
};
