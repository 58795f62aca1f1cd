/* SPDX-License-Identifier: Apache-2.0 */
/* The reader's errors: the sticky error object (the first problem wins and is never overwritten;
 * a halting problem stops the reader) and the list of damaged ranges it went on after. */
#include <stdarg.h>
#include <stdlib.h>

#include "reader_internal.h"

evrec_status rd_fail(evrec_reader_t *r, evrec_status st, uint64_t offset, const char *fmt, ...)
{
    if (r->errs.halt) {
        return r->errs.first.status; /* already stopped: the first reason stands */
    }
    r->errs.halt = 1;
    char msg[sizeof r->errs.first.message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rd_damage(r, st, offset, 0, "%s", msg);
    return r->errs.first.status;
}

const evrec_reader_error_t *evrec_reader_error(const evrec_reader_t *r)
{
    static const evrec_reader_error_t no_reader = {EVREC_E_ARG, 0, "no reader"};
    return r ? &r->errs.first : &no_reader;
}

evrec_status rd_damage(evrec_reader_t *r, evrec_status st, uint64_t off, uint64_t len, const char *fmt, ...)
{
    char msg[sizeof r->errs.first.message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->errs.first.status == EVREC_OK) {
        r->errs.first.status = st;
        r->errs.first.offset = off;
        memcpy(r->errs.first.message, msg, sizeof msg);
    }
    r->errs.damage_total++;
    if (r->errs.damage_count < RD_MAX_DAMAGE) {
        if (!r->errs.damage) {
            r->errs.damage = calloc(RD_MAX_DAMAGE, sizeof *r->errs.damage);
            if (!r->errs.damage) {
                return st; /* the sticky error still tells the first */
            }
        }
        evrec_damage_t *d = &r->errs.damage[r->errs.damage_count++];
        d->status = st;
        d->offset = off;
        d->length = len;
        d->records_lost = UINT64_MAX;
        d->index_after = UINT64_MAX;
        memcpy(d->message, msg, sizeof d->message);
    }
    return st;
}

uint64_t evrec_reader_damage_count(const evrec_reader_t *r)
{
    return r ? r->errs.damage_total : 0;
}

const evrec_damage_t *evrec_reader_damage(const evrec_reader_t *r, uint64_t i)
{
    if (!r || i >= r->errs.damage_count) {
        return NULL;
    }
    return &r->errs.damage[i];
}

void rd_damage_extend(evrec_reader_t *r, uint64_t end)
{
    if (r->errs.damage_count) {
        evrec_damage_t *d = &r->errs.damage[r->errs.damage_count - 1];
        if (end > d->offset + d->length) {
            d->length = end - d->offset;
        }
    }
}

evrec_damage_t *rd_damage_last(evrec_reader_t *r)
{
    return r->errs.damage_count ? &r->errs.damage[r->errs.damage_count - 1] : NULL;
}

void rd_damage_nothing_lost(evrec_reader_t *r)
{
    evrec_damage_t *d = rd_damage_last(r);
    if (d) {
        d->records_lost = 0;
    }
}

void rd_errors_free(evrec_reader_t *r)
{
    free(r->errs.damage);
    r->errs.damage = NULL;
}

void rd_halt(evrec_reader_t *r)
{
    r->errs.halt = 1;
}

void rd_error_prefix(evrec_reader_t *r, const char *prefix)
{
    size_t plen = strlen(prefix);
    char msg[sizeof r->errs.first.message];
    size_t keep = sizeof msg - (plen + 1);
    memcpy(msg, prefix, plen);
    size_t n = strnlen(r->errs.first.message, keep);
    memcpy(msg + plen, r->errs.first.message, n);
    msg[plen + n] = 0;
    memcpy(r->errs.first.message, msg, sizeof msg);
}
