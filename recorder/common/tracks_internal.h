/* SPDX-License-Identifier: Apache-2.0 */
/* The TRACKS payload (format/FORMAT.md section 2), shared by save.c and the schema hash. Not
 * installed. */
#ifndef EVREC_TRACKS_INTERNAL_H
#define EVREC_TRACKS_INTERNAL_H

#include "evrec/evrec_meta.h"
#include "evrec/evrec_save.h"

typedef void (*evrec_tracks_emit_fn)(void *ctx, const void *p, size_t n);

/* 1 when meta->tracks has at least one track, span or counter (only then is anything written). */
int evrec_tracks_present(const evrec_meta_t *meta);
/* The payload bytes, in pieces, through emit. */
void evrec_tracks_payload(const evrec_tracks_t *v, evrec_tracks_emit_fn emit, void *ctx);
/* The TRACKS chunk (header, CRC, payload) straight to the sink; nothing when no track model. */
evrec_status evrec_tracks_put_chunk(const evrec_meta_t *meta, const evrec_sink_t *sink);
/* 1 when a counter of meta->tracks has a series field (only then is COUNTER_SERIES written). */
int evrec_counter_series_present(const evrec_meta_t *meta);
/* The COUNTER_SERIES payload (FORMAT.md section 2.1), in pieces, through emit. */
void evrec_counter_series_payload(const evrec_tracks_t *v, evrec_tracks_emit_fn emit, void *ctx);
/* The COUNTER_SERIES chunk straight to the sink; nothing when no counter has a series field. */
evrec_status evrec_counter_series_put_chunk(const evrec_meta_t *meta, const evrec_sink_t *sink);
/* The payload alone (the tail of the canonical meta-info), then the COUNTER_SERIES payload when a
 * counter has a series field; nothing when no track model. */
evrec_status evrec_tracks_put_canonical(const evrec_meta_t *meta, const evrec_sink_t *sink);

#endif /* EVREC_TRACKS_INTERNAL_H */
