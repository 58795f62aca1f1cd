/* SPDX-License-Identifier: Apache-2.0 */
/* The reader's errors: the sticky error object (the first problem wins and is never overwritten;
 * a halting problem stops the reader) and the list of damaged ranges it went on after. */
#include <stdarg.h>
#include <stdlib.h>

#include "reader_internal.h"

evrec_status rd_fail(evrec_reader_t *r, evrec_status st, uint64_t offset, const char *fmt, ...)
{
    if (r->halt) {
        return r->err.status; /* already stopped: the first reason stands */
    }
    r->halt = 1;
    char msg[sizeof r->err.message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rd_damage(r, st, offset, 0, "%s", msg);
    return r->err.status;
}

const evrec_reader_error_t *evrec_reader_error(const evrec_reader_t *r)
{
    static const evrec_reader_error_t no_reader = {EVREC_E_ARG, 0, "no reader"};
    return r ? &r->err : &no_reader;
}

evrec_status rd_damage(evrec_reader_t *r, evrec_status st, uint64_t off, uint64_t len, const char *fmt, ...)
{
    char msg[sizeof r->err.message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->err.status == EVREC_OK) {
        r->err.status = st;
        r->err.offset = off;
        memcpy(r->err.message, msg, sizeof msg);
    }
    r->damage_total++;
    if (r->damage_count < RD_MAX_DAMAGE) {
        if (!r->damage) {
            r->damage = calloc(RD_MAX_DAMAGE, sizeof *r->damage);
            if (!r->damage) {
                return st; /* the sticky error still tells the first */
            }
        }
        evrec_damage_t *d = &r->damage[r->damage_count++];
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
    return r ? r->damage_total : 0;
}

const evrec_damage_t *evrec_reader_damage(const evrec_reader_t *r, uint64_t i)
{
    if (!r || i >= r->damage_count) {
        return NULL;
    }
    return &r->damage[i];
}

void rd_damage_extend(evrec_reader_t *r, uint64_t end)
{
    if (r->damage_count) {
        evrec_damage_t *d = &r->damage[r->damage_count - 1];
        if (end > d->offset + d->length) {
            d->length = end - d->offset;
        }
    }
}
