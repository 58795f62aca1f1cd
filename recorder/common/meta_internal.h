/* SPDX-License-Identifier: Apache-2.0 */
/* Queries of the meta-info model shared by the writer (common/) and the trace buffer (buffer/).
 * Not installed. */
#ifndef EVREC_META_INTERNAL_H
#define EVREC_META_INTERNAL_H

#include "evrec/evrec_recorder.h"

/** Native slot size of event `id`, 0 if the meta-info has no such event. */
static inline size_t evrec_slot_size_of(const evrec_meta_t *meta, uint16_t id)
{
    if (id >= meta->event_count) {
        return 0;
    }
    uint16_t sid = meta->events[id].struct_id;
    return sid < meta->struct_count ? meta->structs[sid].native_size : 0;
}

/** Whether meta's event 0 is EventControl (a struct of EVREC_CONTROL_SLOT bytes). */
static inline int evrec_meta_has_control(const evrec_meta_t *meta)
{
    return meta->event_count != 0 && meta->events[0].struct_id < meta->struct_count &&
           meta->structs[meta->events[0].struct_id].native_size == EVREC_CONTROL_SLOT;
}

#endif /* EVREC_META_INTERNAL_H */
