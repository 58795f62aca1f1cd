/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_qs_record.h
 * @brief Record one event into the RAM trace buffer, the live QS stream, or both, with one
 * timestamp (the "recorder option" of the QS bridge; QS.md "Live emission").
 *
 * Header-only so that the timestamp comes from the includer's port (`evrec_port.h`), like
 * evrec_reserve(). Generated record functions can call evrec_qs_record() instead of
 * evrec_record() when a QS transmitter is configured; code that already uses the
 * reserve/commit path can call evrec_qs_tx_event() on the committed slot instead.
 *
 * API overview: evrec_qs_record() (RAM, QS, or both, one timestamp); evrec_record_stamped_() is
 * its RAM half, shared with evrec_syst_record() (evrec/evrec_syst_record.h).
 *
 * QS.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_QS_RECORD_H
#define EVREC_QS_RECORD_H

#include <string.h>

#include "evrec/evrec_qs_tx.h"
#include "evrec/evrec_recorder.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief The RAM half of evrec_qs_record() (shared with the SyS-T bridge's evrec_syst_record()):
 * check the arguments, record into `host` if it is not NULL and recording, and give the
 * record's timestamp, or a fresh one from the port when nothing was recorded, so that the live
 * copy has the same time.
 * @param[in,out] host the recorder host, or NULL.
 * @param[in] live_meta the meta-info of the live sink, or NULL when there is none.
 * @param[in] event_id event type.
 * @param[in] fields a complete native struct.
 * @param[out] time the timestamp, port ticks.
 * @param[out] send 1 when the caller must now send the event on its live sink.
 * @retval EVREC_OK recorded, or nothing to record.
 * @retval EVREC_E_DROPPED the RAM buffer was full.
 * @retval EVREC_E_NOT_RECORDING no live sink and no recorder attached.
 * @retval EVREC_E_BAD_ID unknown event.
 * @retval EVREC_E_ARG fields NULL, or no sink at all.
 * **Context:** any thread or ISR, under the rules of evrec_reserve().
 */
static inline evrec_status evrec_record_stamped_(evrec_host_t *host, const evrec_meta_t *live_meta,
                                                 uint16_t event_id, const void *fields, uint32_t *time, int *send)
{
    const evrec_meta_t *meta = live_meta ? live_meta : (host ? host->meta : NULL);
    *send = 0;
    if (!fields || (!host && !live_meta)) {
        return EVREC_E_ARG;
    }
    if (!meta) {
        return EVREC_E_NOT_RECORDING;
    }
    if (event_id >= meta->event_count) {
        return EVREC_E_BAD_ID;
    }
    evrec_status st = EVREC_OK;
    void *slot = NULL;
    if (host) {
        size_t n = meta->structs[meta->events[event_id].struct_id].native_size;
        slot = evrec_reserve(host, n);
        if (slot) {
            memcpy((uint8_t *)slot + 6, (const uint8_t *)fields + 6, n - 6);
            *time = ((evrec_record_header_t *)slot)->time;
            evrec_commit(slot, event_id);
        } else if (__atomic_load_n(&host->rec, __ATOMIC_ACQUIRE) != NULL) {
            st = EVREC_E_DROPPED;
        } else if (!live_meta) {
            st = EVREC_E_NOT_RECORDING;
        }
    }
    if (!slot) {
        *time = EVREC_PORT_TIMESTAMP();
    }
    *send = live_meta != NULL;
    return st;
}

/**
 * @brief Record an event into `host`'s trace buffer (if host is not NULL and recording) and
 * send it on `tx` (if tx is not NULL and the filters pass it), both with the same timestamp.
 * @param[in,out] host the recorder host, or NULL for QS only.
 * @param[in,out] tx the QS transmitter, or NULL for RAM only (then this is evrec_record()).
 * @param[in] event_id event type.
 * @param[in] fields a complete native struct of that type; its `time` and `id` members are ignored.
 * @retval EVREC_OK recorded in every given sink that is active (a host that is not recording
 *         is not an error when tx is given; a filtered event is not an error).
 * @retval EVREC_E_DROPPED the RAM buffer was full (the QS frame was still queued).
 * @retval EVREC_E_NOT_RECORDING host given, tx NULL, and no recorder attached.
 * @retval EVREC_E_BAD_ID event_id not in the meta-info.
 * @retval EVREC_E_ARG both sinks NULL.
 * **Context:** any thread or ISR, under the rules of evrec_reserve() and of tx's lock.
 * @code
 * my_event_t e = {.a = 1, .b = 2};
 * evrec_qs_record(&host, &qs, MY_EVENT_ID, &e);
 * @endcode
 */
static inline evrec_status evrec_qs_record(evrec_host_t *host, evrec_qs_tx_t *tx, uint16_t event_id,
                                           const void *fields)
{
    uint32_t t = 0;
    int send;
    evrec_status st = evrec_record_stamped_(host, tx ? tx->map.meta : NULL, event_id, fields, &t, &send);
    if (send) {
        evrec_status q = evrec_qs_tx_event_ex(tx, event_id, t, fields);
        if (st == EVREC_OK) {
            st = q;
        }
    }
    return st;
}

#ifdef __cplusplus
}
#endif

#endif /* EVREC_QS_RECORD_H */
