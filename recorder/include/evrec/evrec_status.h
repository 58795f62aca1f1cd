/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_status.h
 * @brief The one status enum of evrec, shared by every module.
 *
 * Every library function that can fail returns an ::evrec_status; 0 is success. Each function's
 * documentation lists every status it returns, one retval line per value.
 *
 * API overview:
 * - ::evrec_status: EVREC_OK and the EVREC_E_* errors.
 * - evrec_strerror(): a short English text for a status.
 *
 * Freestanding: usable on the target.
 */
#ifndef EVREC_STATUS_H
#define EVREC_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Result of an evrec call. 0 = success, every other value is an error. */
typedef enum evrec_status {
    EVREC_OK = 0,              /**< success */
    EVREC_E_ARG = 1,           /**< a NULL pointer, a zero size or an out-of-range argument */
    EVREC_E_META = 2,          /**< the meta-info tables are inconsistent (see evrec_meta_validate) */
    EVREC_E_BAD_ID = 3,        /**< an event, enum or struct id that the meta-info does not have */
    EVREC_E_NOT_RECORDING = 4, /**< no recorder is attached to the host; nothing was recorded */
    EVREC_E_DROPPED = 5,       /**< the trace buffer is full; the event was dropped and counted */
    EVREC_E_BUSY = 6,          /**< the object is in use (a recorder attached twice, save while recording) */
    EVREC_E_EXHAUSTED = 7,     /**< a run-time enum has no value left in [base, lim) */
    EVREC_E_IO = 8,            /**< the user's write callback reported a failure */
    EVREC_E_TRUNCATED = 9,     /**< input ended before a complete item (file reader) */
    EVREC_E_CORRUPT = 10,      /**< input bytes contradict the format (file reader) */
    EVREC_E_CHECKSUM = 11,     /**< a container checksum does not match (file reader) */
    EVREC_E_UNSUPPORTED = 12,  /**< a format version or feature this build does not know */
    EVREC_E_NOMEM = 13,        /**< host tools only: an allocation failed */
    EVREC_E_END = 14,          /**< iteration finished normally (no more records) */
    EVREC_E_NO_SPACE = 15      /**< an output buffer the caller gave is too small for the result
                                    (nothing was lost: retry with more room) */
} evrec_status;

/**
 * @brief Short English text for a status, e.g. "trace buffer full, event dropped".
 * @param[in] status any value; unknown values give "unknown status".
 * @return a static string, never NULL; the caller must not free it.
 * **Context:** any (pure function, no state); ISR-safe.
 */
const char *evrec_strerror(evrec_status status);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_STATUS_H */
