/* SPDX-License-Identifier: Apache-2.0 */
/* Shared inside the SyS-T encoder library (not installed). */
#ifndef EVREC_SYST_INTERNAL_H
#define EVREC_SYST_INTERNAL_H

#include "evrec/evrec_syst.h"

/* evrec_syst_encode_event() with the event id given apart (the record's id member not read). */
evrec_status evrec_syst_encode_id_(const evrec_syst_map_t *map, uint16_t id, const void *native, uint64_t time64,
                                   uint8_t *out, size_t out_size, size_t *out_len);

#endif
