/* SPDX-License-Identifier: Apache-2.0 */
/* The reader's sticky error object: the first problem wins and is never overwritten. */
#include <stdarg.h>

#include "reader_internal.h"

evrec_status rd_fail(evrec_reader_t *r, evrec_status st, uint64_t offset, const char *fmt, ...)
{
    if (r->err.status != EVREC_OK) {
        return r->err.status;
    }
    r->err.status = st;
    r->err.offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err.message, sizeof r->err.message, fmt, ap);
    va_end(ap);
    return st;
}

const evrec_reader_error_t *evrec_reader_error(const evrec_reader_t *r)
{
    static const evrec_reader_error_t no_reader = {EVREC_E_ARG, 0, "no reader"};
    return r ? &r->err : &no_reader;
}
