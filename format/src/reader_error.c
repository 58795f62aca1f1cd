/* SPDX-License-Identifier: Apache-2.0 */
/* The reader's sticky error object: the first problem wins and is never overwritten; a halting
 * problem stops the reader (damage it can go on after is recorded by rd_damage()). */
#include <stdarg.h>

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
