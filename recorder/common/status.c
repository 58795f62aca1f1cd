/* SPDX-License-Identifier: Apache-2.0 */
/* evrec_strerror(): text of every evrec_status. */
#include "evrec/evrec_status.h"

const char *evrec_strerror(evrec_status status)
{
    switch (status) {
    case EVREC_OK: return "ok";
    case EVREC_E_ARG: return "invalid argument";
    case EVREC_E_META: return "inconsistent meta-info";
    case EVREC_E_BAD_ID: return "unknown id";
    case EVREC_E_NOT_RECORDING: return "not recording";
    case EVREC_E_DROPPED: return "trace buffer full, event dropped";
    case EVREC_E_BUSY: return "busy";
    case EVREC_E_EXHAUSTED: return "no run-time enum value left";
    case EVREC_E_IO: return "write failed";
    case EVREC_E_TRUNCATED: return "truncated input";
    case EVREC_E_CORRUPT: return "corrupt input";
    case EVREC_E_CHECKSUM: return "checksum mismatch";
    case EVREC_E_UNSUPPORTED: return "unsupported format or version";
    case EVREC_E_NOMEM: return "out of memory";
    case EVREC_E_END: return "end of records";
    case EVREC_E_NO_SPACE: return "output buffer too small";
    }
    return "unknown status";
}
