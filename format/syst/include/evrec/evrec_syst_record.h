/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_syst_record.h
 * @brief Record one event into the RAM trace buffer, the live SyS-T stream, or both, with one
 * timestamp (as evrec_qs_record() does for QS; SYST.md "On the target").
 *
 * Header-only so that the timestamp comes from the includer's port (`evrec_port.h`).
 *
 * API overview: evrec_syst_record() (RAM, SyS-T, or both, one timestamp).
 *
 * SYST.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_SYST_RECORD_H
#define EVREC_SYST_RECORD_H

#include "evrec/evrec_qs_record.h" /* evrec_record_stamped_() */
#include "evrec/evrec_syst_tx.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Record an event into `host`'s trace buffer (if host is not NULL and recording) and
 * send it on `tx` as a CATALOG message (if tx is not NULL and the filters pass it), both with
 * the same timestamp (the message's 64-bit timestamp extends it).
 * @param[in,out] host the recorder host, or NULL for SyS-T only.
 * @param[in,out] tx the SyS-T transmitter, or NULL for RAM only.
 * @param[in] event_id event type.
 * @param[in] fields a complete native struct of that type; its `time` and `id` members are ignored.
 * @retval EVREC_OK recorded in every given sink that is active (a filtered event is no error).
 * @retval EVREC_E_DROPPED the RAM buffer was full, or the ring could not take the message.
 * @retval EVREC_E_NOT_RECORDING host given, tx NULL, and no recorder attached.
 * @retval EVREC_E_BAD_ID event_id not in the meta-info.
 * @retval EVREC_E_ARG both sinks NULL.
 * **Context:** any thread or ISR, under the rules of evrec_reserve() and of tx's lock.
 */
static inline evrec_status evrec_syst_record(evrec_host_t *host, evrec_syst_tx_t *tx, uint16_t event_id,
                                             const void *fields)
{
    uint32_t t = 0;
    int send;
    evrec_status st = evrec_record_stamped_(host, tx ? tx->map.meta : NULL, event_id, fields, &t, &send);
    if (send) {
        evrec_status q = evrec_syst_tx_event(tx, event_id, t, fields);
        if (st == EVREC_OK) {
            st = q;
        }
    }
    return st;
}

#ifdef __cplusplus
}
#endif

#endif /* EVREC_SYST_RECORD_H */
